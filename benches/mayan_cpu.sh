#!/usr/bin/env bash
# Mayan against the classic NOIP 2011 DFS in CPU time, process included
# (issue #19: at least 100x, the judge's worst board at most 20 ms).
#
# The 16 dense n = 5 boards of benches/mayan_process.rs: `judge gen mayan
# --profile hard --seed 2011 --count 10` and the bundled package's
# `hard-*` tests. Each board is run RUNS times by the classic search
# (benches/mayan_plain_dfs.cpp, g++ -O2) and by every JUDGE binary given,
# taking turns; each process's CPU time is `perf stat -x, -e task-clock`
# (user and system, the whole process); the median of each board counts.
# Prints a row a board, the totals, each judge's ratio and worst board,
# and the load average before and after. Every judge must print the
# classic search's answer on every board, or the script stops.
#
# Usage: bash benches/mayan_cpu.sh RUNS JUDGE [JUDGE...]
#   e.g. bash benches/mayan_cpu.sh 3 /tmp/judge-before target/release/judge
# Needs g++ and perf.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 RUNS JUDGE [JUDGE...]" >&2
  exit 2
fi
runs=$1
shift
root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

g++ -O2 -o "$scratch/classic" "$root/benches/mayan_plain_dfs.cpp"
"$1" gen mayan --profile hard --seed 2011 --count 10 --out "$scratch/boards" --prefix seed-2011- >/dev/null
boards=("$scratch"/boards/seed-2011-*.in "$root"/problems/mayan/tests/hard-*.in)

for board in "${boards[@]}"; do
  expected=$("$scratch/classic" <"$board")
  for judge in "$@"; do
    if [ "$("$judge" solve mayan "$board")" != "$expected" ]; then
      echo "$judge and the classic search disagree on $board" >&2
      exit 1
    fi
  done
done

# CPU milliseconds of one run of the command, its stdin from $board.
cpu() {
  perf stat -x, -e task-clock "$@" <"$board" 2>&1 >/dev/null | awk -F, '/task-clock/ { print $1 }'
}
median() {
  tr ' ' '\n' | grep . | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

programs=(classic "$@")
declare -A total worst
for program in "${programs[@]}"; do
  total[$program]=0
  worst[$program]=0
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-22s' board
for program in "${programs[@]}"; do printf ' %14s' "$(basename "$program")"; done
echo
for board in "${boards[@]}"; do
  declare -A times=()
  for _ in $(seq "$runs"); do
    times[classic]+="$(cpu "$scratch/classic") "
    for judge in "$@"; do times[$judge]+="$(cpu "$judge" solve mayan "$board") "; done
  done
  printf '%-22s' "$(basename "$board")"
  for program in "${programs[@]}"; do
    ms=$(echo "${times[$program]}" | median)
    total[$program]=$(echo "${total[$program]} + $ms" | bc -l)
    if [ "$(echo "$ms > ${worst[$program]}" | bc -l)" = 1 ]; then worst[$program]=$ms; fi
    printf ' %14.2f' "$ms"
  done
  echo
done
printf '%-22s' 'total (ms CPU)'
for program in "${programs[@]}"; do printf ' %14.2f' "${total[$program]}"; done
echo
for judge in "$@"; do
  printf '%s: %.1fx the classic search, worst board %.2f ms\n' "$judge" \
    "$(echo "${total[classic]} / ${total[$judge]}" | bc -l)" "${worst[$judge]}"
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
