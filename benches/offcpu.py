#!/usr/bin/env python3
"""Where a command's threads waited off the CPU, by the kernel stack they
slept in: reads `perf script` of a `perf record -e sched:sched_switch -g`
and sums, per thread and wait site, the time from each switch away to the
switch back. Waits in state D (uninterruptible) are the kernel's own
(locks, RCU grace periods); S are sleeps the thread asked for (poll, read).

    perf record -e sched:sched_switch -g -o waits.data -- COMMAND
    perf script -i waits.data -F comm,tid,time,event,trace,ip,sym | \
        python3 benches/offcpu.py [PATTERN]

PATTERN (optional) keeps only the wait sites whose stack names it, e.g.
`rcu_sync_enter` (a cgroup move waiting for an RCU grace period) or
`cgroup_kn_lock_live` (waiting for the cgroup mutex).
"""
import collections
import re
import sys

# Scheduler frames on every stack: the wait site is the first frame below them.
SCHEDULER = ("schedule", "__schedule", "preempt_schedule", "schedule_timeout",
             "io_schedule", "schedule_preempt_disabled", "__traceiter", "finish_task_switch")
SWITCH = re.compile(r"prev_comm=(\S+) prev_pid=(\d+) prev_prio=\d+ prev_state=(\S+) "
                    r"==> next_comm=(\S+) next_pid=(\d+)")


def main():
    pattern = sys.argv[1] if len(sys.argv) > 1 else None
    waited = collections.defaultdict(float)
    count = collections.Counter()
    away = {}  # tid -> (time it switched away, (comm, tid, state, site))
    for block in sys.stdin.read().split("\n\n"):
        lines = block.strip().split("\n")
        head = re.search(r"\s(\d+\.\d+):\s+sched:sched_switch:\s(.*)", lines[0])
        if not head:
            continue
        time, switch = float(head.group(1)), SWITCH.search(head.group(2))
        if not switch:
            continue
        comm, tid, state, _, next_tid = switch.groups()
        if next_tid in away:
            since, key = away.pop(next_tid)
            waited[key] += (time - since) * 1000
            count[key] += 1
        frames = [line.split()[1].split("+")[0] for line in lines[1:] if len(line.split()) > 1]
        site = [f for f in frames if not f.startswith(SCHEDULER)][:4]
        away[tid] = (time, (comm, tid, state, " < ".join(site)))
    total = collections.defaultdict(lambda: [0.0, 0])
    for key, ms in sorted(waited.items(), key=lambda item: -item[1]):
        if pattern and pattern not in key[3]:
            continue
        print(f"{ms:9.1f} ms {count[key]:6d}  {key[0]}[{key[1]}] {key[2]:2s} {key[3]}")
        total[key[2]][0] += ms
        total[key[2]][1] += count[key]
    for state, (ms, n) in sorted(total.items()):
        print(f"# state {state}: {ms:.1f} ms in {n} waits")


if __name__ == "__main__":
    main()
