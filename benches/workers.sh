#!/usr/bin/env bash
# How the judge scales with its workers, against a bare loop in C
# (`$BARE_C`: fork, exec, pipes, wait4, compare, nothing else) on the same
# 500 small rooks tests with the same compiled program: `judge run` and the
# bare loop at --jobs 1, 2, 4 and 8 (or `$JOBS`), interleaved in every round
# (the two sides' order alternating). Prints, per --jobs, each side's median
# wall and CPU (its own and everything it reaped), the judge's ratio to
# bare, and each side's speed-up over its own --jobs 1 (the median of the
# rounds' j1 wall over jN wall, each round's pair measured seconds apart);
# then the judge's speed-up as a share of bare's (issue #31: within
# 5%, so at least 0.95, where the machine has the cores); and the cores the
# rest of the machine kept busy meanwhile (from /proc/stat), which on a
# shared machine caps every side's speed-up.
#   usage (from the repository root):
#     BARE_C=path/to/bare.c bash benches/workers.sh [JUDGE] [ROUNDS] [RUN_AS_USER]
# JUDGE defaults to target/release/judge, ROUNDS to 5. Works as root and as
# an ordinary user; with RUN_AS_USER (when run as root) every contender runs
# as that user through `runuser`: the judge's unprivileged path. With
# `BEFORE=path/to/another/judge` that binary is a third contender in the
# same rounds, with a table of its own: a before and after in one run.
set -eu
judge=$(readlink -f "${1:-target/release/judge}"); rounds=${2:-5}; user=${3:-}
jobs_list=${JOBS:-1 2 4 8}
bare_c=${BARE_C:?set BARE_C to the bare loop to measure against (a C file that forks, execs, pipes, waits and compares, nothing else)}
root=$(pwd)
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
gcc -O2 -o "$t/bare" "$bare_c"
g++ -O2 -o "$t/sol" "$root/submissions/rooks/accepted/backtracking.cpp"
cp "$judge" "$t/judge"
before=${BEFORE:+$(readlink -f "$BEFORE")}
if [ -n "$before" ]; then cp "$before" "$t/before"; fi
"$t/judge" gen rooks --seed 7 --count 500 --out "$t/tests" >/dev/null
chmod -R a+rX "$t"
python3 - "$t" "$rounds" "$user" "$jobs_list" "$before" <<'PY'
import os, pwd, subprocess, sys, time, statistics
t, rounds, user, jobs_list = sys.argv[1], int(sys.argv[2]), sys.argv[3], [int(j) for j in sys.argv[4].split()]
judges = ["judge"] + (["before"] if sys.argv[5] else [])
prefix = ["runuser", "-u", user, "--"] if user else []
tests = 500
tick = os.sysconf("SC_CLK_TCK")
def busy():
    # Seconds the whole machine spent busy: user, nice, system, irq, softirq, steal.
    fields = open("/proc/stat").readline().split()[1:]
    return sum(int(fields[i]) for i in (0, 1, 2, 5, 6, 7)) / tick
def timed(cmd):
    c0 = os.times(); b0 = busy(); s = time.perf_counter()
    r = subprocess.run(prefix + cmd, capture_output=True, cwd=t)
    w = time.perf_counter() - s; c1 = os.times(); b1 = busy()
    if r.returncode != 0: sys.exit(f"{cmd[0]} exited {r.returncode}: {r.stderr.decode()[-300:]}")
    cpu = (c1.children_user - c0.children_user) + (c1.children_system - c0.children_system)
    return w, cpu, max(0.0, (b1 - b0) - cpu) / w
def command(side, jobs):
    if side == "bare":
        return [f"{t}/bare", "-j", str(jobs), "-t", "1000", "-m", "256", f"{t}/tests", f"{t}/sol"]
    return [f"{t}/{side}", "run", "rooks", f"{t}/sol", "--tests", f"{t}/tests", "--random", "0",
            "--jobs", str(jobs), "--time-limit", "1000", "--memory-limit", "256"]
load = lambda: " ".join(open("/proc/loadavg").read().split()[:3])
print(f"{tests} rooks tests, {rounds} interleaved rounds, {os.cpu_count()} cores, "
      f"as {user or pwd.getpwuid(os.getuid()).pw_name}; load before: {load()}")
sides = ["bare"] + judges
rows = {(side, jobs): [] for side in sides for jobs in jobs_list}
for round in range(rounds):
    for jobs in jobs_list:
        order = sides if round % 2 == 0 else sides[::-1]
        for side in order:
            rows[(side, jobs)].append(timed(command(side, jobs)))
print(f"load after: {load()}")
median = statistics.median
def speed_up(side, jobs):
    return median(one[0] / many[0] for one, many in zip(rows[(side, jobs_list[0])], rows[(side, jobs)]))
for judge in judges:
    print(f"\n{judge} ({'this binary' if judge == 'judge' else 'BEFORE'}):")
    print("| jobs | bare wall | bare CPU | judge wall | judge CPU | judge/bare wall | judge CPU over bare | "
          "bare speed-up | judge speed-up | judge's speed-up / bare's | other load (cores) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for jobs in jobs_list:
        (bare_wall, bare_cpu), (judge_wall, judge_cpu) = (
            (median(w for w, _, _ in rows[(side, jobs)]), median(c for _, c, _ in rows[(side, jobs)]))
            for side in ("bare", judge))
        others = median(o for side in sides for _, _, o in rows[(side, jobs)])
        ratio = median(j[0] / b[0] for j, b in zip(rows[(judge, jobs)], rows[("bare", jobs)]))
        bare_up, judge_up = speed_up("bare", jobs), speed_up(judge, jobs)
        print(f"| {jobs} | {bare_wall:.2f} s | {bare_cpu:.2f} s | {judge_wall:.2f} s | {judge_cpu:.2f} s "
              f"| {ratio:.2f}x | {(judge_cpu - bare_cpu) / tests * 1000:+.2f} ms/test ({judge_cpu / bare_cpu:.2f}x) "
              f"| {bare_up:.2f}x | {judge_up:.2f}x | {judge_up / bare_up:.2f} | {others:.2f} |")
PY
