#!/bin/busybox sh
# The init of the throwaway cgroup v2 VM (tests/it/vm.rs builds the
# initramfs around it). It mounts the unified hierarchy only, as current
# distributions do, runs the judge in each way a host offers cgroup v2, and
# prints what the test checks between VM-BEGIN/VM-END markers on the
# console. Every step is bounded; the VM powers off at the end.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs -o mode=1777 tmpfs /tmp
mkdir -p /sys/fs/cgroup
# judge.hybrid=CONTROLLERS (comma-separated): a hybrid host, as systemd's
# hybrid mode makes one: a tmpfs at /sys/fs/cgroup, the unified hierarchy at
# /sys/fs/cgroup/unified, and a legacy (v1) hierarchy of its own for each
# controller named, mounted before the unified one hands down the rest;
# controllers joined by `+` share one hierarchy (`memory+pids`: mounted
# with `-o memory,pids` at /sys/fs/cgroup/memory,pids).
hybrid=$(tr ' ' '\n' < /proc/cmdline | sed -n 's/^judge\.hybrid=//p')
if [ -n "$hybrid" ]; then
  mount -t tmpfs -o mode=755 cgroup /sys/fs/cgroup
  mkdir /sys/fs/cgroup/unified
  mount -t cgroup2 cgroup2 /sys/fs/cgroup/unified
  enable=""
  for controller in memory pids cpu; do
    case ",$(echo "$hybrid" | tr '+' ',')," in
      *",$controller,"*) ;;
      *) enable="$enable +$controller" ;;
    esac
  done
  for group in $(echo "$hybrid" | tr ',' ' '); do
    controller=$(echo "$group" | tr '+' ',')
    mkdir "/sys/fs/cgroup/$controller"
    mount -t cgroup -o "$controller" cgroup "/sys/fs/cgroup/$controller" ||
      echo "VM-MOUNT-FAILED $controller"
  done
  echo "$enable" > /sys/fs/cgroup/unified/cgroup.subtree_control
  echo "VM-BEGIN hybrid layout"
  grep cgroup /proc/self/mountinfo
  cat /proc/self/cgroup
  echo "unified offers: $(cat /sys/fs/cgroup/unified/cgroup.controllers)"
  echo "VM-END hybrid layout"
else
  mount -t cgroup2 cgroup2 /sys/fs/cgroup
  echo "+memory +pids +cpu" > /sys/fs/cgroup/cgroup.subtree_control
fi
echo "VM-BOOTED $(uname -r)"
# judge.modes=MODE,MODE (comma-separated): only these ways of running the
# judge (tests/it/vm.rs sets it from JUDGE_VM_MODES), else all of them.
modes=$(tr ' ' '\n' < /proc/cmdline | sed -n 's/^judge\.modes=//p')
wanted() {
  [ -z "$modes" ] && return 0
  case ",$modes," in
    *",$1,"*) return 0 ;;
  esac
  return 1
}
if grep -q judge.probe /proc/cmdline; then
  reboot -f
fi
echo "root:x:0:0:root:/root:/bin/sh" > /etc/passwd
echo "user:x:1000:1000:user:/home/user:/bin/sh" >> /etc/passwd
echo "nobody:x:65534:65534:nobody:/:/bin/false" >> /etc/passwd
echo "root:x:0:" > /etc/group
echo "user:x:1000:" >> /etc/group
echo "nogroup:x:65534:" >> /etc/group

# Transparent huge pages: without KVM every 4 KiB page fault is slow
# enough that a memory hog would reach its wall clock before its limit.
echo always > /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null

# Three judge runs per way of running it: memory (a long time limit, so
# only memory ends them), time limits, and processes that try to escape
# (these read two numbers, which the mayan samples start with).
MEMORY="rooks_ok fork_hog memory_hog"
LIMITS="cpu_children fork_bomb infinite_loop stdout_flood"
ESCAPES="daemon orphan leader_exit kill_everyone"
PROGRAMS="$MEMORY $LIMITS $ESCAPES"

# Processes other than init, this script and kernel threads.
left_behind() {
  for dir in /proc/[0-9]*; do
    pid=${dir#/proc/}
    [ "$pid" = 1 ] && continue
    [ "$pid" = "$$" ] && continue
    [ -s "$dir/cmdline" ] || continue
    ppid=$(awk '/^PPid:/ { print $2 }' "$dir/status" 2>/dev/null)
    [ "$ppid" = "$$" ] && continue # the command substitution itself
    echo "$pid:$(tr '\0' ' ' < "$dir/cmdline")"
  done
}

# judge MODE WORKDIR COMMAND...: the three judge runs, each's report and
# stderr printed, then what it left behind.
# The escapes run one at a time (--jobs 1): kill_everyone's kill(-1) as the
# sandbox user reaches every process of that user, the other worker's test
# too, unless Landlock (ABI 6, Linux 6.12) scopes signals. As an ordinary
# user it reaches the judge itself, so it runs only as root.
judge() {
  one "$1-memory" "$2" rooks 20000 "$MEMORY" "$@"
  one "$1-limits" "$2" rooks 1000 "$LIMITS" "$@"
  escapes=$ESCAPES
  case "$1" in
    user | ns-user | ns-user-shared) escapes="daemon orphan leader_exit" ;;
  esac
  JOBS=1 one "$1-escapes" "$2" mayan 5000 "$escapes" "$@"
}

one() {
  mode=$1
  work=$2
  problem=$3
  limit=$4
  programs=$5
  shift 7
  echo "VM-RUN $mode"
  start=$(cut -d. -f1 /proc/uptime)
  "$@" run "$problem" $programs --tests "tests/$problem" --random 0 --jobs "${JOBS:-2}" \
    --json report.json --time-limit "$limit" --memory-limit 256 \
    > "$work/stdout.txt" 2> "$work/stderr.txt"
  echo "VM-EXIT $mode $?"
  end=$(cut -d. -f1 /proc/uptime)
  echo "VM-SECONDS $mode $((end - start))"
  echo "VM-BEGIN $mode report"
  cat "$work/report.json"
  rm -f "$work/report.json"
  echo
  echo "VM-END $mode report"
  echo "VM-BEGIN $mode stderr"
  cat "$work/stderr.txt"
  echo "VM-END $mode stderr"
  sleep 1
  echo "VM-BEGIN $mode left"
  left_behind
  echo "VM-END $mode left"
  echo "VM-BEGIN $mode cgroups"
  find /sys/fs/cgroup -type d -name 'worker-*'
  find /sys/fs/cgroup -type d -name 'judge-*'
  # Below a delegated scope, nothing of the judge (it moves back out of
  # the leaf it made, then removes it).
  for scope in /sys/fs/cgroup/run-*.scope /sys/fs/cgroup/*.slice/run-*.scope \
    /sys/fs/cgroup/container-*.scope; do
    [ -d "$scope" ] && find "$scope" -mindepth 1 -type d
  done
  echo "VM-END $mode cgroups"
  echo "VM-BEGIN $mode dmesg"
  dmesg -c | grep -i -e oom -e killed -e 'out of memory' | tail -20
  echo "VM-END $mode dmesg"
}

# The per-test cost: the cgroup files a worker opens, and the cgroups it
# makes and removes, for 1 test and for 12 (the same count).
strace_cost() {
  if [ -x /vm/strace ]; then
    mkdir -p /strace
    cp /vm/programs/rooks_ok /strace/
    for count in 1 12; do
      mkdir -p "/strace/tests-$count"
      i=0
      while [ "$i" -lt "$count" ]; do
        cp /vm/tests/rooks/sample-1.in "/strace/tests-$count/t$i.in"
        cp /vm/tests/rooks/sample-1.ans "/strace/tests-$count/t$i.ans"
        i=$((i + 1))
      done
      (cd /strace && timeout 600 /vm/strace -f -qq -e trace=openat,mkdir,mkdirat,rmdir,unlinkat \
        -o "/strace/trace-$count" /vm/judge run rooks rooks_ok --tests "tests-$count" --random 0 \
        --jobs 1 > /dev/null 2>&1)
      echo "VM-STRACE $count $(grep -c '/sys/fs/cgroup' "/strace/trace-$count")"
    done
    echo "VM-BEGIN strace cgroup-calls"
    grep '/sys/fs/cgroup' /strace/trace-12 | sed 's/^[0-9]* *//' | sort | uniq -c
    echo "VM-END strace cgroup-calls"
  fi
}

workspace() {
  dir=$1
  owner=$2
  mkdir -p "$dir"
  cp -r /vm/tests "$dir/tests"
  for program in $PROGRAMS; do cp "/vm/programs/$program" "$dir/"; done
  chown -R "$owner:$owner" "$dir"
  chmod 755 "$dir"
}

# On a hybrid host: as root (v1 hierarchies are root's), then the cost.
if [ -n "$hybrid" ]; then
  workspace /root-run 0
  (cd /root-run && judge hybrid /root-run timeout 900 /vm/judge)
  strace_cost
  echo "VM-DONE"
  sync
  reboot -f
fi

# 1. As root, from the root cgroup (the judge is init's child).
if wanted root; then
  workspace /root-run 0
  (cd /root-run && judge root /root-run timeout 900 /vm/judge)
fi

# 2. As root, sharing its cgroup with another process (a login session's
#    scope, a CI runner's service): the judge's cgroup cannot hand down
#    controllers, so its container goes next to it.
if wanted root-shared; then
  workspace /shared-run 0
  mkdir /sys/fs/cgroup/session.scope
  sleep 1000 &
  companion=$!
  echo "$companion" > /sys/fs/cgroup/session.scope/cgroup.procs
  (
    echo 0 > /sys/fs/cgroup/session.scope/cgroup.procs
    cd /shared-run && judge root-shared /shared-run timeout 900 /vm/judge
  )
  kill "$companion"
fi

# 2b. As root, one worker (issue 35): what a run leaves in flight in the
#     worker's network namespace must not reach the next run, whichever way
#     this kernel runs its unix garbage collector: a program that leaves
#     180 MiB of memfds in an unreachable cycle of sockets, one that counts
#     the sockets it sees, and an honest 100 MiB program.
SOCKETS="inflight_memory unix_socket_counter honest_100mib"
if wanted sockets; then
  mkdir -p /sockets-run
  cp -r /vm/tests /sockets-run/tests
  for program in $SOCKETS; do cp "/vm/programs/$program" /sockets-run/; done
  (cd /sockets-run && JOBS=1 one sockets /sockets-run rooks 20000 "$SOCKETS" sockets \
    /sockets-run timeout 900 /vm/judge)
fi

# 3. As an ordinary user in a subtree delegated to them, the judge alone in
#    it, as `systemd-run --user --scope -p Delegate=yes judge ...` starts it:
#    a fresh scope per run whose directory and cgroup.procs,
#    cgroup.subtree_control and cgroup.threads are the user's; this shell
#    moves itself there (as root), then becomes the judge as the user.
workspace /home/user 1000
# With JUDGE_SLICE=NAME the scope goes below /sys/fs/cgroup/NAME, which
# hands down only JUDGE_SLICE_CONTROLLERS (a subtree delegated in part);
# with JUDGE_LOCKED=1 the scope's cgroup.subtree_control stays root's; with
# JUDGE_AS=PROGRAM, PROGRAM drops to the user (as_user's arguments).
cat > /bin/judge-delegated <<'SCRIPT'
#!/bin/sh
parent=/sys/fs/cgroup
if [ -n "$JUDGE_SLICE" ]; then
  parent=/sys/fs/cgroup/$JUDGE_SLICE
  mkdir -p "$parent" || exit 99
  echo "$JUDGE_SLICE_CONTROLLERS" > "$parent/cgroup.subtree_control" || exit 99
fi
scope=$parent/run-$$.scope
mkdir "$scope" || exit 99
files="cgroup.procs cgroup.threads"
[ -z "$JUDGE_LOCKED" ] && files="$files cgroup.subtree_control"
for file in "" $files; do
  chown 1000:1000 "$scope/$file" || exit 99
done
echo $$ > "$scope/cgroup.procs" || exit 99
exec "${JUDGE_AS:-/vm/programs/as_user}" 1000 /vm/judge "$@"
SCRIPT
chmod 755 /bin/judge-delegated
if wanted user; then
  (cd /home/user && HOME=/home/user judge user /home/user timeout 900 judge-delegated)
fi

# 3b. Delegated in part: a scope below a slice that hands down memory (and
#     cpu) but not pids; and a scope whose cgroup.subtree_control is not the
#     user's (no controller below it). The judge uses what there is.
if wanted user-partial; then
  (
    cd /home/user && export HOME=/home/user
    one user-partial-memory /home/user rooks 20000 "rooks_ok fork_hog" \
      MODE WORK timeout 900 env JUDGE_SLICE=partial.slice \
      "JUDGE_SLICE_CONTROLLERS=+memory +cpu" judge-delegated
    one user-partial-limits /home/user rooks 1000 "cpu_children fork_bomb daemon" \
      MODE WORK timeout 900 env JUDGE_SLICE=partial.slice \
      "JUDGE_SLICE_CONTROLLERS=+memory +cpu" judge-delegated
  )
fi
if wanted user-locked; then
  (
    cd /home/user && export HOME=/home/user
    one user-locked-limits /home/user rooks 1000 "rooks_ok cpu_children daemon orphan" \
      MODE WORK timeout 900 env JUDGE_LOCKED=1 judge-delegated
  )
fi

# 4. As an ordinary user whose cgroup is not delegated: no cgroups, and the
#    note says why (one run: without a tree-wide limit the memory and
#    process tests would only show what the issue is about).
if wanted user-undelegated; then
  mkdir -p /nodeleg
  workspace /nodeleg 1000
  (
    cd /nodeleg && HOME=/nodeleg one user-undelegated-memory /nodeleg rooks 1000 rooks_ok \
      MODE WORK timeout 900 /vm/programs/as_user 1000 /vm/judge
  )
fi

# 4b. As an ordinary user on Ubuntu 23.10+, whose
#     kernel.apparmor_restrict_unprivileged_userns = 1 gives a program no
#     AppArmor profile grants `userns` a user namespace without
#     capabilities (no mount, network or PID namespace in it), in a
#     delegated scope as a login session has. Debian's kernels have neither
#     the sysctl nor the restriction, so a private mount namespace shows the
#     judge a /proc/sys/kernel (a tmpfs with copies of the real files) that
#     has it, and userns_restricted plays the restriction with a seccomp
#     filter. judge-apparmor VALUE restricted|allowed ARGS: the sysctl's
#     value, and whether the restriction holds for the judge (`allowed`: as
#     with deploy/apparmor/judge loaded, the sysctl still 1).
cat > /bin/judge-apparmor <<'SCRIPT'
#!/bin/sh
value=$1
as=/vm/programs/as_user
[ "$2" = restricted ] && as=/vm/programs/userns_restricted
shift 2
export JUDGE_AS=$as
exec unshare --mount --propagation private /bin/sh -c '
  value=$1
  shift
  real=/mnt/real-sysctl-kernel
  mkdir -p "$real" && mount --bind /proc/sys/kernel "$real" &&
    mount -t tmpfs -o mode=555 sysctl /proc/sys/kernel || exit 99
  for entry in "$real"/*; do
    name=${entry##*/}
    if [ -d "$entry" ]; then
      mkdir "/proc/sys/kernel/$name" && mount --bind "$entry" "/proc/sys/kernel/$name"
    else
      cat "$entry" > "/proc/sys/kernel/$name" 2>/dev/null
    fi
  done
  echo "$value" > /proc/sys/kernel/apparmor_restrict_unprivileged_userns
  exec judge-delegated "$@"
' judge-apparmor "$value" "$@"
SCRIPT
chmod 755 /bin/judge-apparmor
if wanted user-apparmor; then
  (
    cd /home/user && export HOME=/home/user
    one user-apparmor-memory /home/user rooks 20000 "rooks_ok fork_hog" \
      MODE WORK timeout 900 judge-apparmor 1 restricted
    one user-apparmor-limits /home/user rooks 1000 "fork_bomb daemon orphan" \
      MODE WORK timeout 900 judge-apparmor 1 restricted
    # The sysctl at 0, user namespaces blocked otherwise (as Debian's
    # user.max_user_namespaces = 0 does): no word of AppArmor.
    one user-apparmor-off /home/user rooks 1000 rooks_ok \
      MODE WORK timeout 900 judge-apparmor 0 restricted
    # The sysctl at 1, the judge granted `userns` by its profile.
    one user-apparmor-allowed /home/user rooks 1000 rooks_ok \
      MODE WORK timeout 900 judge-apparmor 1 allowed
  )
fi

# 5. In a container with a private cgroup namespace (`unshare --cgroup
#    --mount`, then cgroup2 mounted anew): /proc/self/cgroup says `0::/`
#    and the mount's root is the namespace's root, a cgroup of its own
#    (container-PID.scope) that the judge is alone in. As root, and as an
#    ordinary user to whom that cgroup is delegated (its directory and
#    cgroup.procs, cgroup.subtree_control and cgroup.threads are theirs).
# Both container scripts start alike: sourced with $uid set, this makes the
# container's cgroup (container-PID.scope, delegated to $uid unless root),
# sets $scope to it and moves the sourcing script there.
cat > /bin/enter-container-scope <<'SCRIPT'
scope=/sys/fs/cgroup/container-$$.scope
mkdir "$scope" || exit 99
if [ "$uid" != 0 ]; then
  for file in "" cgroup.procs cgroup.subtree_control cgroup.threads; do
    chown "$uid:$uid" "$scope/$file" || exit 99
  done
fi
echo $$ > "$scope/cgroup.procs" || exit 99
SCRIPT
cat > /bin/judge-in-cgroupns <<'SCRIPT'
#!/bin/sh
uid=$1
shift
. /bin/enter-container-scope
exec /vm/programs/in_cgroupns "$uid" /vm/judge "$@"
SCRIPT
chmod 755 /bin/judge-in-cgroupns
if wanted ns-root; then
  workspace /ns-root 0
  (cd /ns-root && judge ns-root /ns-root timeout 900 judge-in-cgroupns 0)
fi
if wanted ns-user; then
  workspace /ns-user 1000
  (cd /ns-user && HOME=/ns-user judge ns-user /ns-user timeout 900 judge-in-cgroupns 1000)
fi

# 5b. The same container as root, but its root cgroup also holds other
#     processes (a `docker exec`, a shell that started the judge): this
#     script and a sleeping companion. The judge moves them into a leaf
#     `init` of their own (as Docker-in-Docker's entrypoint does), grades
#     with full limits and moves them back at exit. On stderr: the
#     companion's cgroup while the judge runs (and that cgroup's limits),
#     and after it (still alive, back in the container's root cgroup).
cat > /bin/judge-in-cgroupns-shared <<'SCRIPT'
#!/bin/sh
uid=$1
shift
. /bin/enter-container-scope
/vm/programs/as_user "$uid" /bin/sleep 1000 &
companion=$!
(
  i=0
  while [ "$i" -lt 600 ]; do
    where=$(cut -d: -f3 "/proc/$companion/cgroup")
    # In `init`, once the judge handed the controllers down (it moves the
    # companion first, then enables them).
    case "$where" in
      */init)
        dir=/sys/fs/cgroup$where
        [ -e "$dir/memory.max" ] && [ -e "$dir/pids.max" ] || { sleep 0.1; i=$((i + 1)); continue; }
        echo "companion-during $where memory.max=$(cat "$dir/memory.max") pids.max=$(cat "$dir/pids.max")" >&2
        exit 0
        ;;
    esac
    sleep 0.1
    i=$((i + 1))
  done
  echo "companion-during never moved: $where" >&2
) &
sampler=$!
/vm/programs/in_cgroupns "$uid" /vm/judge "$@"
status=$?
wait "$sampler"
if kill -0 "$companion" 2>/dev/null; then alive=alive; else alive=dead; fi
echo "companion-after $alive $(cut -d: -f3 "/proc/$companion/cgroup") scope-has=$(ls -d "$scope"/*/ 2>/dev/null | tr '\n' ' ')" >&2
kill "$companion"
wait "$companion" 2>/dev/null
exit "$status"
SCRIPT
chmod 755 /bin/judge-in-cgroupns-shared
if wanted ns-root-shared; then
  workspace /ns-shared 0
  (cd /ns-shared && judge ns-root-shared /ns-shared timeout 900 judge-in-cgroupns-shared 0)
fi
# As a user the container's cgroup is delegated to (the companion theirs
# too; this script, root's, shares the cgroup as well).
if wanted ns-user-shared; then
  workspace /ns-user-shared 1000
  (cd /ns-user-shared && HOME=/ns-user-shared judge ns-user-shared /ns-user-shared timeout 900 \
    judge-in-cgroupns-shared 1000)
fi

# 7. Many judges on one cgroup v2 host: eight at once, each in its own PID
#    namespace (each is pid 1 there), as root from the root cgroup.
if wanted many-pidns; then
  workspace /many 0
  i=0
  while [ "$i" -lt 8 ]; do
    mkdir -p "/many/j$i"
    (
      cd /many && timeout 900 unshare --pid --fork --mount-proc /vm/judge run rooks \
        rooks_ok fork_hog --tests tests/rooks --random 0 --jobs 1 \
        --json "/many/j$i/report.json" --time-limit 20000 --memory-limit 64 \
        > "/many/j$i/stdout.txt" 2> "/many/j$i/stderr.txt"
      echo $? > "/many/j$i/exit"
    ) &
    i=$((i + 1))
  done
  wait
  i=0
  while [ "$i" -lt 8 ]; do
    echo "VM-EXIT many-$i $(cat "/many/j$i/exit")"
    echo "VM-BEGIN many-$i report"
    cat "/many/j$i/report.json"
    echo
    echo "VM-END many-$i report"
    echo "VM-BEGIN many-$i stderr"
    cat "/many/j$i/stderr.txt"
    echo "VM-END many-$i stderr"
    i=$((i + 1))
  done
  sleep 1
  echo "VM-BEGIN many left"
  left_behind
  echo "VM-END many left"
  echo "VM-BEGIN many cgroups"
  find /sys/fs/cgroup -type d -name 'judge-*'
  echo "VM-END many cgroups"
fi

# 8. A judge killed with SIGKILL mid-grade, another judge live beside it
#    (each in its own PID namespace), then a new judge: the killed one's
#    cgroups and workspace are swept, the live one's are not.
if wanted killed; then
  workspace /killed 0
  cd /killed
  judges() { find /sys/fs/cgroup -maxdepth 1 -type d -name 'judge-*' | sort | tr '\n' ' '; }
  spaces() {
    find /tmp -maxdepth 1 -type d -name 'judge-*' ! -name 'judge-probe-*' | sort | tr '\n' ' '
  }
  wait_for() { # wait_for COUNT: until COUNT tests run in judges' worker cgroups
    i=0
    while [ "$i" -lt 600 ]; do
      [ "$(cat /sys/fs/cgroup/judge-*/worker-*/cgroup.procs 2>/dev/null | wc -l)" -ge "$1" ] &&
        return 0
      sleep 0.2
      i=$((i + 1))
    done
    return 1
  }
  child_of() { # the first child of a pid (the judge below its `unshare`)
    for dir in /proc/[0-9]*; do
      if [ "$(awk '/^PPid:/ { print $2 }' "$dir/status" 2>/dev/null)" = "$1" ]; then
        echo "${dir#/proc/}"
        return
      fi
    done
  }
  unshare --pid --fork --mount-proc /vm/judge run rooks infinite_loop --tests tests/rooks \
    --random 0 --jobs 1 --time-limit 60000 > /killed/a.out 2>&1 &
  first=$!
  wait_for 1 || echo "killed: the first judge made no worker"
  first_cgroup=$(judges)
  first_space=$(spaces)
  unshare --pid --fork --mount-proc /vm/judge run rooks infinite_loop --tests tests/rooks \
    --random 0 --jobs 1 --time-limit 60000 > /killed/b.out 2>&1 &
  live=$!
  wait_for 2 || echo "killed: the second judge made no worker"
  live_cgroup=""
  for dir in $(judges); do [ "$dir " = "$first_cgroup" ] || live_cgroup=$dir; done
  live_space=""
  for dir in $(spaces); do [ "$dir " = "$first_space" ] || live_space=$dir; done
  kill -9 "$(child_of "$first")"
  wait "$first"
  sleep 1
  echo "VM-BEGIN killed state"
  echo "first-cgroup $first_cgroup"
  echo "first-space $first_space"
  echo "live-cgroup $live_cgroup"
  echo "live-space $live_space"
  echo "after-kill-cgroups $(judges)"
  unshare --pid --fork --mount-proc /vm/judge run rooks rooks_ok --tests tests/rooks --random 0 \
    --json /killed/c.json > /killed/c.out 2> /killed/c.err
  echo "new-exit $?"
  echo "after-new-cgroups $(judges)"
  echo "after-new-spaces $(spaces)"
  echo "live-worker-procs $(cat "$live_cgroup"/worker-*/cgroup.procs 2>/dev/null | wc -l)"
  echo "VM-END killed state"
  echo "VM-BEGIN killed new-stderr"
  cat /killed/c.err
  echo "VM-END killed new-stderr"
  kill -INT "$(child_of "$live")"
  wait "$live"
  echo "VM-BEGIN killed end"
  echo "end-cgroups $(judges)"
  echo "VM-END killed end"
  cd /
fi

# 6. The per-test cost: the cgroup files a worker opens, and the cgroups it
#    makes and removes, for 1 test and for 12 (the same count).
wanted strace && strace_cost
echo "VM-DONE"
sync
reboot -f
