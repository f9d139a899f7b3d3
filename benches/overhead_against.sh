#!/usr/bin/env bash
# The runner against bare.c and against another judge binary, in one run:
# `judge run` of two binaries (this one and, say, main's) on 500 small rooks
# tests beside a bare loop in C, `$BARE_C` (fork, exec, pipes, wait4,
# compare: nothing else), interleaved in every round, the two judges' order
# alternating. Prints, per --jobs, each side's median wall and CPU (its own
# and everything it reaped) and the judges' ratios and CPU over bare.
#   usage (from the repository root):
#     BARE_C=path/to/bare.c bash benches/overhead_against.sh NEW_JUDGE OLD_JUDGE [ROUNDS] [RUN_AS_USER]
# With RUN_AS_USER (e.g. ctruser, when run as root) every contender runs as
# that user through `runuser`, in a folder it may read: the judge's
# unprivileged path (no cgroups, memory sampled).
set -eu
new=$(readlink -f "$1"); old=$(readlink -f "$2"); rounds=${3:-5}; user=${4:-}
bare_c=${BARE_C:?set BARE_C to the bare loop to measure against (a C file that forks, execs, pipes, waits and compares, nothing else)}
root=$(pwd)
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
gcc -O2 -o "$t/bare" "$bare_c"
g++ -O2 -o "$t/sol" "$root/submissions/rooks/accepted/backtracking.cpp"
cp "$new" "$t/judge-new"; cp "$old" "$t/judge-old"
"$t/judge-new" gen rooks --seed 7 --count 500 --out "$t/tests" >/dev/null
chmod -R a+rX "$t"
python3 - "$t" "$rounds" "$user" <<'PY'
import os, subprocess, sys, time, statistics
t, rounds, user = sys.argv[1], int(sys.argv[2]), sys.argv[3]
prefix = ["runuser", "-u", user, "--"] if user else []
def timed(cmd):
    c0 = os.times(); s = time.perf_counter()
    r = subprocess.run(prefix + cmd, capture_output=True, cwd=t)
    w = time.perf_counter() - s; c1 = os.times()
    if r.returncode != 0: sys.exit(f"{cmd[0]} exited {r.returncode}: {r.stderr.decode()[-300:]}")
    return w, (c1.children_user - c0.children_user) + (c1.children_system - c0.children_system)
def judge(binary, jobs):
    return [f"{t}/{binary}", "run", "rooks", f"{t}/sol", "--tests", f"{t}/tests", "--random", "0",
            "--jobs", str(jobs), "--time-limit", "1000", "--memory-limit", "256"]
for jobs in (1, 2):
    rows = {"bare": [], "old": [], "new": []}
    for round in range(rounds):
        rows["bare"].append(timed([f"{t}/bare", "-j", str(jobs), "-t", "1000", "-m", "256",
                                   f"{t}/tests", f"{t}/sol"]))
        order = ("old", "new") if round % 2 == 0 else ("new", "old")
        for name in order:
            rows[name].append(timed(judge(f"judge-{name}", jobs)))
    wall = {name: statistics.median(w for w, _ in r) for name, r in rows.items()}
    cpu = {name: statistics.median(c for _, c in r) for name, r in rows.items()}
    ratio = {name: statistics.median(j[0] / b[0] for j, b in zip(r, rows["bare"]))
             for name, r in rows.items()}
    for name in ("old", "new"):
        print(f"j{jobs} {name}: wall {wall[name]:.2f} s ({ratio[name]:.2f}x bare), "
              f"CPU {cpu[name]:.2f} s ({cpu[name] / cpu['bare']:.2f}x bare, "
              f"{(cpu[name] - cpu['bare']) / 500 * 1000:.2f} ms/test over bare)")
    print(f"j{jobs} bare: wall {wall['bare']:.2f} s, CPU {cpu['bare']:.2f} s")
PY
