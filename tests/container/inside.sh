#!/bin/sh
# Runs inside the container image (tests/it/container.rs): the judge as the
# container starts it, on programs that must get their verdicts and leave
# nothing behind. /work is the test's folder (programs/, tests/rooks,
# tests/mayan); every report and what was left is printed between markers
# the test reads.
cd /work || exit 1

# Processes other than this script, its parent (the container's init, if
# any) and the command substitution itself.
left_behind() {
  for dir in /proc/[0-9]*; do
    pid=${dir#/proc/}
    [ "$pid" = 1 ] && continue
    [ "$pid" = "$$" ] && continue
    [ -s "$dir/cmdline" ] || continue
    ppid=$(awk '/^PPid:/ { print $2 }' "$dir/status" 2>/dev/null)
    [ "$ppid" = "$$" ] && continue
    echo "$pid:$(tr '\0' ' ' < "$dir/cmdline")"
  done
}

# one NAME PROBLEM TIME_LIMIT_MS PROGRAM...: one judge run, its exit status,
# JSON report, stderr and what it left.
one() {
  name=$1 problem=$2 limit=$3
  shift 3
  set --
  for program in $PROGRAMS; do set -- "$@" "programs/$program"; done
  judge run "$problem" "$@" --tests "tests/$problem" --random 0 --jobs 2 \
    --json "/tmp/$name.json" --time-limit "$limit" --memory-limit 256 \
    > "/tmp/$name.out" 2> "/tmp/$name.err"
  echo "CTR-EXIT $name $?"
  echo "CTR-BEGIN $name report"
  cat "/tmp/$name.json"
  echo
  echo "CTR-END $name report"
  echo "CTR-BEGIN $name stderr"
  cat "/tmp/$name.err"
  echo "CTR-END $name stderr"
  echo "CTR-BEGIN $name left"
  left_behind
  ls -A /tmp | grep '^judge-' || true
  echo "CTR-END $name left"
}

PROGRAMS="rooks_ok.py fork_hog.c memory_hog.c" one memory rooks 20000
PROGRAMS="fork_bomb.c infinite_loop.c stdout_flood.c" one limits rooks 1000
PROGRAMS="daemon.c orphan.c leader_exit.c" one escapes mayan 5000
