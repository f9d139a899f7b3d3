#!/usr/bin/env bash
# A class of N students (default 1000) x 3 problems (rooks, matchsticks,
# mayan) x 20 tests, graded end to end by `judge grade`, against a bare
# baseline measured in the same run: the same programs compiled with the
# same compiler commands and run on the same test inputs by a plain shell
# loop with the same number of parallel workers, no sandbox, no checker.
#
# Every hand-in is a bundled example program with a line of its own (a
# comment naming the student), so no two hand-ins are the same source and
# each is compiled once for itself, as a real class's would be. The mix:
# correct (AC), wrong (WA) and, for one student in 25 on rooks, a program
# that loops forever (TLE: it costs its time limit on every test).
#
# Usage (from the repository root, the judge built with
# `cargo build --release --locked`):
#   bash benches/class1000.sh                  # 1,000 students
#   bash benches/class1000.sh --students 100   # a smaller class
# Options: --students N, --jobs N (default: the cores), --judge PATH
# (default target/release/judge), --keep (keep the work folder),
# --page-students M (also open a class page of M students, M a multiple of
# N, made by `judge merge` from M/N copies of this class's JSON report with
# the students renumbered: the page of a class too big to grade here).
#
# Prints: the class's size, the bare compile and run wall times, the judge's
# wall time split into compiling and grading (sampled while it runs) and its
# peak memory (its VmHWM), the report sizes (JSON, CSV, HTML class page and
# submission pages), the class page's load time in headless Chromium (with
# Chromium and Node: benches/page_load.mjs), and four ratios: grading with
# compiles excluded against the bare runs, the judge's compiles against the
# bare compiles, and the whole class against the bare compiles plus the
# bare runs, in wall time and in CPU time (user + system of every process
# of the phase, from the shell's `times`: the figure a loaded machine
# disturbs least). No number is asserted.
set -euo pipefail

students=1000
jobs=$(nproc)
judge=target/release/judge
keep=false
page_students=
while [ $# -gt 0 ]; do
    case "$1" in
        --students) students=$2; shift 2 ;;
        --jobs) jobs=$2; shift 2 ;;
        --judge) judge=$2; shift 2 ;;
        --keep) keep=true; shift ;;
        --page-students) page_students=$2; shift 2 ;;
        -h|--help) sed -n '2,/^set /p' "$0" | sed '$d'; exit 0 ;;
        *) echo "class1000.sh: unknown option \`$1\` (see --help)" >&2; exit 2 ;;
    esac
done
case "$students" in
    ''|*[!0-9]*|0) echo "class1000.sh: --students needs a positive number, not \`$students\`" >&2; exit 2 ;;
esac
if [ -n "$page_students" ]; then
    case "$page_students" in
        ''|*[!0-9]*|0) echo "class1000.sh: --page-students needs a positive number, not \`$page_students\`" >&2; exit 2 ;;
    esac
    if ((page_students % students != 0)); then
        echo "class1000.sh: --page-students $page_students is not a multiple of --students $students" >&2
        exit 2
    fi
fi
[ -x "$judge" ] || { echo "class1000.sh: no judge at \`$judge\`: run \`cargo build --release --locked\` first" >&2; exit 2; }
[ -d submissions ] && [ -d problems ] || { echo "class1000.sh: run it from the repository root" >&2; exit 2; }
judge=$(realpath "$judge")
root=$(pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/class1000.XXXXXX")
cleanup() { if [ "$keep" = true ]; then echo "work folder kept: $work"; else rm -rf "$work"; fi; }
trap cleanup EXIT

now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

problems=(rooks matchsticks mayan)
tests_per_problem=20

# 1. The packages, each with exactly 20 tests: its own, then generated
#    ones (`judge gen --append`) to make 20. The grade uses them through
#    --problems-dir with no random tests, so the baseline runs the very same
#    inputs.
mkdir -p "$work/problems"
for problem in "${problems[@]}"; do
    cp -r "problems/$problem" "$work/problems/$problem"
    have=$(find "$work/problems/$problem/tests" -name '*.in' | wc -l)
    if [ "$have" -lt "$tests_per_problem" ]; then
        "$judge" gen "$problem" --seed 2026 --count $((tests_per_problem - have)) \
            --out "$work/problems/$problem/tests" --prefix bench- >/dev/null 2>&1
    fi
done

# 2. The class: hand-ins/<student>/<problem>.<ext>.
#    rooks:       AC matching.py, AC backtracking.cpp, WA ignores_walls.py, TLE (1 in 25)
#    matchsticks: AC minimax.cpp, AC memo.py, WA greedy_fewest_replies.py
#    mayan:       AC dfs_memo.cpp, WA one_run_at_a_time.cpp
ex=submissions
pick() { # pick <student number> <choices...>: one of the choices, by the number
    local n=$1; shift
    local choices=("$@")
    echo "${choices[$((n % ${#choices[@]}))]}"
}
mkdir -p "$work/class/hand-ins"
for ((s = 1; s <= students; s++)); do
    name=$(printf 's%04d' "$s")
    dir="$work/class/hand-ins/$name"
    mkdir -p "$dir"
    if ((s % 25 == 0)); then
        rooks="tle.cpp"
    else
        rooks=$(pick "$s" accepted/matching.py accepted/backtracking.cpp wrong_answer/ignores_walls.py)
    fi
    matchsticks=$(pick $((s / 3)) accepted/minimax.cpp accepted/memo.py wrong_answer/greedy_fewest_replies.py)
    mayan=$(pick $((s / 7)) accepted/dfs_memo.cpp wrong_answer/one_run_at_a_time.cpp)
    for pair in "rooks:$rooks" "matchsticks:$matchsticks" "mayan:$mayan"; do
        problem=${pair%%:*}
        source=${pair#*:}
        ext=${source##*.}
        out="$dir/$problem.$ext"
        if [ "$source" = tle.cpp ]; then
            printf 'int main() { volatile unsigned long x = 0; for (;;) x++; }\n' >"$out"
        else
            cp "$ex/$problem/$source" "$out"
        fi
        case "$ext" in
            py) printf '\n# %s: %s\n' "$name" "$source" >>"$out" ;;
            *) printf '\n// %s: %s\n' "$name" "$source" >>"$out" ;;
        esac
    done
done
cat >"$work/class/judge.toml" <<EOF
submissions = "hand-ins"
layout = "student/problem"
problems = ["rooks", "matchsticks", "mayan"]
random-tests = 0
seed = 1
jobs = $jobs
EOF
handins=$((students * ${#problems[@]}))
runs=$((handins * tests_per_problem))

# The time limits the judge gives each problem (CPU; Python gets 3x), for
# the baseline's `timeout` of a program that never ends.
limit_ms() { # limit_ms <problem>
    sed -n 's/^time-limit-ms *= *\([0-9]*\).*/\1/p' "$work/problems/$1/problem.toml" | head -n 1
}

# 3. The bare baseline: compile every hand-in (the judge's own compile
#    commands, in parallel with the same workers), then run every program
#    on each of its problem's tests, output to a file, under `timeout`.
mkdir -p "$work/bare"
# The interpreter the judge runs and compiles with: the first `python3` of
# the sandbox's PATH (/usr/local/bin:/usr/bin:/bin), not the one of the
# caller's PATH. A version manager's shim there (pyenv's is a shell script)
# or the interpreter behind it (`sys.executable`: here pyenv's 3.11.7,
# 65 ms of CPU to start against 11 ms for the system's 3.11.2) is another
# program than the judge's, and made the bare runs the slower side.
python=$(PATH=/usr/local/bin:/usr/bin:/bin command -v python3 || true)
[ -n "$python" ] || { echo "class1000.sh: no python3 in /usr/local/bin:/usr/bin:/bin (the judge's PATH for runs)" >&2; exit 2; }
compile_list="$work/bare/compile.list"
run_list="$work/bare/run.list"
: >"$compile_list"
: >"$run_list"
for dir in "$work/class/hand-ins"/*/; do
    student=$(basename "$dir")
    for problem in "${problems[@]}"; do
        source=$(ls "$dir$problem".* | head -n 1)
        limit=$(limit_ms "$problem")
        case "$source" in
            *.cpp)
                exe="$work/bare/$student-$problem"
                echo "g++ -std=gnu++17 -O2 -pipe -o $exe $source" >>"$compile_list"
                command="$exe"
                ;;
            *.py)
                echo "$python -I -m py_compile $source" >>"$compile_list"
                command="$python $source"
                limit=$((limit * 3))
                ;;
        esac
        secs=$(awk -v ms="$limit" 'BEGIN { printf "%.3f", ms / 1000 }')
        for input in "$work/problems/$problem/tests"/*.in; do
            echo "$secs	$command	$input" >>"$run_list"
        done
    done
done
# CPU time of a phase: the user and system time of a subshell's waited-for
# descendants, from the `times` builtin (its second line).
cpu_of() { # cpu_of <file written by `times`>: seconds
    sed -n 2p "$1" | awk '{ total = 0
        for (i = 1; i <= 2; i++) { split($i, part, "m"); sub(/s$/, "", part[2]); total += part[1] * 60 + part[2] }
        printf "%.2f", total }'
}
compile_start=$(now)
(
    xargs -P "$jobs" -d '\n' -n 1 sh -c '$0 >/dev/null 2>&1 || true' <"$compile_list"
    times >"$work/bare/compile.times"
)
compile_end=$(now)
# py_compile left a `__pycache__` beside each Python hand-in: gone before the
# judge grades the folder, or it lists 2,000 ignored files (a real class
# hands in sources, not caches).
find "$work/class/hand-ins" -name __pycache__ -type d -prune -exec rm -rf {} +
split -n "l/$jobs" "$run_list" "$work/bare/run-part-"
run_start=$(now)
(
    for part in "$work/bare"/run-part-*; do
        (
            while IFS='	' read -r limit command input; do # limit in seconds
                # shellcheck disable=SC2086 # the command is a program and its argument
                timeout "$limit" $command <"$input" >"$part.out" 2>/dev/null || true
            done <"$part"
        ) &
    done
    wait
    times >"$work/bare/run.times"
)
run_end=$(now)
bare_compile=$(seconds "$compile_start" "$compile_end")
bare_run=$(seconds "$run_start" "$run_end")
bare_total=$(awk -v a="$bare_compile" -v b="$bare_run" 'BEGIN { printf "%.2f", a + b }')
bare_compile_cpu=$(cpu_of "$work/bare/compile.times")
bare_run_cpu=$(cpu_of "$work/bare/run.times")
bare_cpu=$(awk -v a="$bare_compile_cpu" -v b="$bare_run_cpu" 'BEGIN { printf "%.2f", a + b }')

# 4. The judge, with every report. Every 0.1 s a sample reads the judge's
#    peak memory (its VmHWM: it never falls, so the last sample is the
#    peak) and how many compiles run among its descendants (g++ or
#    `python3 -m py_compile` whose parent is not a compiler itself). The
#    judge grades its problems side by side, so one problem's compiles
#    share the workers with another's tests: the time between two samples
#    counts as compile time in the share of the workers the first of them
#    saw compiling (2 compiles of 2 workers: all of it; 1 of 2: half),
#    which is what the bare compiles' wall time is, all of them compiling
#    on every worker. The rest of the judge's wall time is grading (the
#    runs, the checkers, the reports). (Counting every interval that saw
#    any compile as compile time, as this script did before, gave the
#    judge's compiles the other problems' tests too: 1.44-1.54x.)
compiles() { # compiles <pid>: how many compiles run among its descendants
    ps -e -o pid=,ppid=,args= 2>/dev/null | awk -v root="$1" '
        function compiler(pid,   n) {
            n = name[pid]
            return n ~ /^(g\+\+|gcc|c\+\+|cc1|cc1plus|as|ld|collect2)$/ || (n !~ /awk$/ && line[pid] ~ /py_compile/)
        }
        { parent[$1] = $2; line[$1] = $0
          program = $3; sub(/.*\//, "", program); name[$1] = program }
        END {
            count = 0
            for (pid in parent) {
                if (!compiler(pid) || compiler(parent[pid])) continue
                for (up = parent[pid]; up != "" && up != 0; up = parent[up])
                    if (up == root) { count++; break }
            }
            print count
        }'
}
cd "$work/class"
judge_start=$(now)
# In a subshell that says the judge's CPU time (its and its descendants')
# once it ends, with `times`, as the bare phases do.
(
    "$judge" grade --config judge.toml --problems-dir "$work/problems" -q \
        --json grades.json --csv grades.csv --html grades.html >judge.out 2>judge.err &
    echo $! >judge.pid
    status=0
    wait $! || status=$?
    times >judge.times
    echo "$status" >judge.status
) &
shell_pid=$!
until [ -s judge.pid ] || ! kill -0 "$shell_pid" 2>/dev/null; do sleep 0.01; done
pid=$(cat judge.pid)
peak_kib=0
compile_s=0
last=$judge_start
share=0
while kill -0 "$pid" 2>/dev/null; do
    hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
    [ -n "$hwm" ] && peak_kib=$hwm
    t=$(now)
    compile_s=$(awk -v c="$compile_s" -v a="$last" -v b="$t" -v s="$share" 'BEGIN { printf "%.3f", c + (b - a) * s }')
    last=$t
    share=$(awk -v n="$(compiles "$pid")" -v j="$jobs" 'BEGIN { printf "%.3f", (n < j ? n : j) / j }')
    sleep 0.1
done
wait "$shell_pid" || true
status=$(cat judge.status 2>/dev/null || echo "?")
judge_end=$(now)
compile_s=$(awk -v c="$compile_s" -v a="$last" -v b="$judge_end" -v s="$share" 'BEGIN { printf "%.3f", c + (b - a) * s }')
judge_cpu=$(cpu_of judge.times)
cd "$root"
judge_wall=$(seconds "$judge_start" "$judge_end")
if [ ! -s "$work/class/grades.json" ]; then
    echo "class1000.sh: the judge wrote no report (exit $status):" >&2
    tail -n 20 "$work/class/judge.err" >&2
    exit 1
fi
size() { du -sk "$1" | cut -f1; }
pages=$(find "$work/class/grades" -name '*.html' | wc -l)
# The verdicts, and the programs' run time as the judge measured it: the
# sum of every test's wall time, over the workers.
read -r verdicts_line tests_wall <<<"$(python3 -c '
import collections, json, sys
report = json.load(open(sys.argv[1]))
counts = collections.Counter(r["verdict"] for r in report["results"])
wall = sum(t.get("wall_ms") or 0 for r in report["results"] for t in r["tests"]) / 1000
print(";".join(f"{n}_{v}" for v, n in sorted(counts.items())), f"{wall / int(sys.argv[2]):.2f}")
' "$work/class/grades.json" "$jobs")"
verdicts=$(echo "$verdicts_line" | sed 's/;/, /g; s/_/ /g')
judge_compile=$(awk -v c="$compile_s" 'BEGIN { printf "%.2f", c }')
judge_grading=$(awk -v j="$judge_wall" -v c="$compile_s" 'BEGIN { printf "%.2f", j - c }')
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "n/a" }'; }

# 5. The class page in headless Chromium, when the machine has Chromium and
#    Node: benches/page_load.mjs drives it over the DevTools protocol and
#    reads the page's own Navigation Timing (navigation start to the end of
#    the load event), median of 5 fresh navigations.
page_load="not measured (needs chromium and node)"
big_page=""
if command -v node >/dev/null && [ -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
    open_page() { # open_page <page>: the median line of benches/page_load.mjs
        node --experimental-websocket --no-warnings "$root/benches/page_load.mjs" "$1" 5 2>&1 | tail -n 1
    }
    page_load=$(open_page "$work/class/grades.html")
    if [ -n "$page_students" ]; then
        # M/N copies of the report, student sNNNN renumbered in each copy,
        # merged (unsharded reports with no pair in common) into one page.
        mkdir -p "$work/big"
        python3 -c '
import json, re, sys
path, students, copies, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
text = open(path).read()
for copy in range(copies):
    def renumber(match):
        return "s%04d" % (int(match.group(1)) + copy * students)
    open(f"{out}/copy-{copy:04d}.json", "w").write(re.sub(r"(?<![A-Za-z0-9])s(\d{4})(?![0-9])", renumber, text))
' "$work/class/grades.json" "$students" $((page_students / students)) "$work/big"
        (cd "$work/class" && "$judge" merge "$work/big"/copy-*.json -q -o "$work/big/grades.json" \
            --html "$work/big/grades.html" >/dev/null 2>"$work/big/merge.err") || true
        if [ -s "$work/big/grades.html" ]; then
            big_page="class page of $page_students students: $(size "$work/big/grades.html") KiB; $(open_page "$work/big/grades.html")"
        else
            big_page="class page of $page_students students: judge merge failed: $(tail -n 3 "$work/big/merge.err")"
        fi
    fi
fi

echo "class: $students students x ${#problems[@]} problems x $tests_per_problem tests: $handins hand-ins, $runs runs, $jobs workers"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "verdicts: $verdicts (judge exit $status)"
echo "bare compiles:   ${bare_compile} s"
echo "bare runs:       ${bare_run} s"
echo "bare total:      ${bare_total} s"
echo "judge grade:     ${judge_wall} s wall (${judge_compile} s of it compiling, ${judge_grading} s grading), peak memory $((peak_kib / 1024)) MiB"
echo "  its tests' own wall time: ${tests_wall} s per worker (the JSON's wall_ms, summed, over $jobs)"
echo "reports:         JSON $(size "$work/class/grades.json") KiB, CSV $(size "$work/class/grades.csv") KiB, HTML class page $(size "$work/class/grades.html") KiB + $pages submission pages $(size "$work/class/grades") KiB"
echo "class page:      $page_load"
if [ -n "$big_page" ]; then echo "                 $big_page"; fi
echo "ratio grading (compiles excluded) / bare runs: $(ratio "$judge_grading" "$bare_run")x"
echo "ratio judge compiles / bare compiles:          $(ratio "$judge_compile" "$bare_compile")x"
echo "ratio whole class, judge / (bare compiles + bare runs): $(ratio "$judge_wall" "$bare_total")x"
echo "CPU time (user + system, every process): bare compiles ${bare_compile_cpu} s + bare runs ${bare_run_cpu} s = ${bare_cpu} s; judge grade ${judge_cpu} s"
echo "ratio whole class CPU time, judge / (bare compiles + bare runs): $(ratio "$judge_cpu" "$bare_cpu")x"
