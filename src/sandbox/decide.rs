//! Which limit ended a run, from what the sandbox observed: the one
//! decision of the sandbox that is not a system call, kept as a plain
//! function so its order can be read and tested as a table.

use super::{LimitExceeded, Limits, Measured, Termination};

/// What the sandbox saw of one finished run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Observation {
    /// The limit that made the sandbox stop the run while it watched it
    /// (output cap, CPU time, wall clock), if any.
    pub(crate) seen: Option<LimitExceeded>,
    pub(crate) termination: Termination,
    pub(crate) cpu_time_ms: u64,
    pub(crate) wall_time_ms: u64,
    pub(crate) memory_kib: u64,
    /// The memory cgroup's OOM killer acted during the run.
    pub(crate) oom_killed: bool,
    /// The scratch file system had no byte or no inode left at the end.
    pub(crate) scratch_full: bool,
    /// Wall clock granted past the limit for the time the run waited for a
    /// CPU while runnable: a busy host's, not the program's (issue 32).
    pub(crate) wall_granted_ms: u64,
}

/// The limit that ended the run, in this order:
///
/// 1. output past its cap (the judge stopped reading and killed the run);
/// 2. scratch space full: a disk filler is OLE, never MLE, although its
///    files live in memory (issue #7);
/// 3. the OOM killer, which wins over a time limit seen afterwards (a
///    process being OOM-killed can look like a CPU or wall overrun); and a
///    run past the memory limit when the wall clock ended it (a hog the
///    host slowed down, issue 32);
/// 4. a limit the sandbox stopped the run for (memory among them: a
///    memory cgroup that ran out, which on v1 leaves the rest of the tree
///    running until the sandbox ends it, or a sample past the limit);
/// 5. an abnormal end at the memory limit (an allocation that fails at the
///    limit usually ends in `abort` or a crash, not an OOM kill), then CPU
///    time (or `SIGXCPU`), then the wall clock.
pub(crate) fn decide_limit(observation: &Observation, limits: &Limits) -> Option<LimitExceeded> {
    let abnormal = observation.termination != Termination::Exited(0);
    match observation.seen {
        Some(LimitExceeded::Output) => Some(LimitExceeded::Output),
        _ if observation.scratch_full => Some(LimitExceeded::Scratch),
        Some(LimitExceeded::CpuTime | LimitExceeded::WallTime) if observation.oom_killed => {
            Some(LimitExceeded::Memory)
        }
        // A memory hog the host slowed down until the wall clock ended it,
        // already past the memory limit: the limit it broke is memory's
        // (issue 32).
        Some(LimitExceeded::WallTime) if observation.memory_kib > limits.memory_kib => {
            Some(LimitExceeded::Memory)
        }
        Some(seen) => Some(seen),
        None => {
            let at_memory_limit =
                observation.memory_kib.saturating_mul(20) >= limits.memory_kib.saturating_mul(19);
            let sigxcpu = observation.termination == Termination::Signaled(libc::SIGXCPU);
            if observation.oom_killed || (abnormal && at_memory_limit) {
                Some(LimitExceeded::Memory)
            } else if observation.cpu_time_ms > limits.cpu_time_ms || sigxcpu {
                Some(LimitExceeded::CpuTime)
            } else if observation.wall_time_ms
                > limits
                    .wall_time_ms
                    .saturating_add(observation.wall_granted_ms)
            {
                Some(LimitExceeded::WallTime)
            } else {
                None
            }
        }
    }
}

/// Where a run watched at raised limits (a TLE example's margin) first
/// went past its verdict's limits, as the supervisor saw it while it ran:
/// what a run at those limits would have been stopped with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Crossing {
    /// [`LimitExceeded::CpuTime`] or [`LimitExceeded::WallTime`].
    pub(crate) limit: LimitExceeded,
    pub(crate) cpu_time_ms: u64,
    pub(crate) wall_time_ms: u64,
    /// Bytes of stdout and stderr read by then, and of stderr discarded.
    pub(crate) stdout_len: usize,
    pub(crate) stderr_len: usize,
    pub(crate) stderr_discarded_bytes: u64,
    /// The memory peak by then, where the sandbox can read it while the
    /// run goes on (its memory cgroup); `None` without one (the peak is
    /// then the run's `rusage` at its end).
    pub(crate) memory_kib: Option<u64>,
    /// At a wall-clock crossing: how long the run had waited for a CPU by
    /// then (see [`Measured::run_queue_wait_ms`]).
    pub(crate) run_queue_wait_ms: Option<u64>,
}

/// The time limit at `one_x` that a run watched at larger limits went past,
/// and where: `crossed` when the supervisor saw it go past while it ran,
/// else its figures at its end. CPU time over `one_x` is TLE whatever the
/// run did after (printed an answer, crashed, hit the memory or output
/// limit): at `one_x` it would have been stopped first; then the wall
/// clock. `None`: the run stayed within `one_x`'s times, and its own end
/// decides.
pub(crate) fn past_one_x(
    observation: &Observation,
    crossed: Option<Crossing>,
    one_x: &Limits,
) -> Option<Crossing> {
    if crossed.is_some() {
        return crossed;
    }
    let at_end = |limit| Crossing {
        limit,
        cpu_time_ms: observation.cpu_time_ms,
        wall_time_ms: observation.wall_time_ms,
        stdout_len: usize::MAX,
        stderr_len: usize::MAX,
        stderr_discarded_bytes: u64::MAX,
        memory_kib: None,
        run_queue_wait_ms: None,
    };
    if observation.cpu_time_ms > one_x.cpu_time_ms {
        Some(at_end(LimitExceeded::CpuTime))
    } else if observation.wall_time_ms > one_x.wall_time_ms {
        Some(at_end(LimitExceeded::WallTime))
    } else {
        None
    }
}

/// What a run at `one_x` would have measured, from a run watched at larger
/// limits (`measured`, its `observation`): past `one_x`'s times
/// ([`past_one_x`]), the time limit, with the figures where it fell, killed
/// there if the supervisor saw it go past (its output cut there, its memory
/// peak the one by then); within
/// them, `measured` with its limit decided against `one_x`.
pub(crate) fn at_one_x(
    measured: &Measured,
    observation: &Observation,
    crossed: Option<Crossing>,
    one_x: &Limits,
) -> Measured {
    let mut view = measured.clone();
    match past_one_x(observation, crossed, one_x) {
        Some(crossing) => {
            view.limit_exceeded = Some(crossing.limit);
            view.cpu_time_ms = crossing.cpu_time_ms;
            view.wall_time_ms = crossing.wall_time_ms;
            view.run_queue_wait_ms = crossing.run_queue_wait_ms;
            if crossed.is_some() {
                view.termination = Termination::Signaled(libc::SIGKILL);
                view.stdout.truncate(crossing.stdout_len);
                view.stderr.truncate(crossing.stderr_len);
                view.stderr_discarded_bytes = crossing.stderr_discarded_bytes;
                if let Some(memory_kib) = crossing.memory_kib {
                    view.memory_kib = memory_kib;
                }
            }
        }
        None => view.limit_exceeded = decide_limit(observation, one_x),
    }
    view
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;
    use LimitExceeded::*;

    const LIMITS: Limits = Limits {
        cpu_time_ms: 1000,
        wall_time_ms: 3000,
        memory_kib: 100_000,
        stdout_bytes: 1024,
        stderr_bytes: 1024,
        processes: 8,
        open_files: 64,
        file_size_kib: 1024,
        scratch_kib: 1024,
    };

    fn observed() -> Observation {
        Observation {
            seen: None,
            termination: Termination::Exited(0),
            cpu_time_ms: 10,
            wall_time_ms: 20,
            memory_kib: 1000,
            oom_killed: false,
            scratch_full: false,
            wall_granted_ms: 0,
        }
    }

    #[test_case(observed(), None ; "a clean run hit nothing")]
    #[test_case(Observation { seen: Some(Output), scratch_full: true, oom_killed: true, ..observed() }, Some(Output) ; "output cap wins over everything")]
    #[test_case(Observation { scratch_full: true, oom_killed: true, termination: Termination::Signaled(9), ..observed() }, Some(Scratch) ; "a full scratch is never memory")]
    #[test_case(Observation { seen: Some(CpuTime), scratch_full: true, ..observed() }, Some(Scratch) ; "a disk filler that then spins is still scratch")]
    #[test_case(Observation { seen: Some(WallTime), oom_killed: true, ..observed() }, Some(Memory) ; "an oom kill wins over a time limit seen after it")]
    #[test_case(Observation { seen: Some(CpuTime), memory_kib: 99_000, ..observed() }, Some(CpuTime) ; "a limit the sandbox stopped for stays")]
    #[test_case(Observation { seen: Some(WallTime), memory_kib: 100_001, ..observed() }, Some(Memory) ; "a starved hog past the memory limit at the wall clock is memory")]
    #[test_case(Observation { seen: Some(WallTime), memory_kib: 100_000, ..observed() }, Some(WallTime) ; "at the memory limit the wall clock stays")]
    #[test_case(Observation { termination: Termination::Signaled(6), memory_kib: 96_000, ..observed() }, Some(Memory) ; "abort at the memory limit is memory")]
    #[test_case(Observation { termination: Termination::Signaled(6), memory_kib: 90_000, ..observed() }, None ; "abort well under the memory limit is a crash")]
    #[test_case(Observation { termination: Termination::Exited(0), memory_kib: 99_999, ..observed() }, None ; "a clean exit near the memory limit is fine")]
    #[test_case(Observation { cpu_time_ms: 1001, ..observed() }, Some(CpuTime) ; "cpu over the limit at exit")]
    #[test_case(Observation { termination: Termination::Signaled(libc::SIGXCPU), ..observed() }, Some(CpuTime) ; "sigxcpu is cpu")]
    #[test_case(Observation { wall_time_ms: 3001, ..observed() }, Some(WallTime) ; "wall over the limit at exit")]
    #[test_case(Observation { wall_time_ms: 4500, wall_granted_ms: 2000, ..observed() }, None ; "within the wall granted for waiting for a cpu")]
    #[test_case(Observation { wall_time_ms: 5001, wall_granted_ms: 2000, ..observed() }, Some(WallTime) ; "past the wall granted")]
    fn decides(observation: Observation, expected: Option<LimitExceeded>) {
        assert_eq!(decide_limit(&observation, &LIMITS), expected);
    }

    /// A run at 1.5x the limits, judged at 1x (`LIMITS`): each case is what
    /// the run did at its end, and the verdict limit a 1x run gives.
    #[test_case(Observation { cpu_time_ms: 1200, ..observed() }, Some(CpuTime) ; "cpu over 1x then a right answer is tle")]
    #[test_case(Observation { cpu_time_ms: 1200, termination: Termination::Exited(0), memory_kib: 99_000, ..observed() }, Some(CpuTime) ; "cpu over 1x then a wrong answer is tle")]
    #[test_case(Observation { cpu_time_ms: 1200, oom_killed: true, termination: Termination::Signaled(9), ..observed() }, Some(CpuTime) ; "cpu over 1x then mle is tle")]
    #[test_case(Observation { cpu_time_ms: 1200, seen: Some(Output), ..observed() }, Some(CpuTime) ; "cpu over 1x then ole is tle")]
    #[test_case(Observation { cpu_time_ms: 1200, termination: Termination::Signaled(11), ..observed() }, Some(CpuTime) ; "cpu over 1x then a crash is tle")]
    #[test_case(Observation { cpu_time_ms: 1200, seen: Some(CpuTime), ..observed() }, Some(CpuTime) ; "cpu over the margin too is tle")]
    #[test_case(Observation { wall_time_ms: 3500, termination: Termination::Exited(0), ..observed() }, Some(WallTime) ; "wall over 1x then a right answer is tle")]
    #[test_case(Observation { cpu_time_ms: 1000, wall_time_ms: 3000, ..observed() }, None ; "exactly at 1x is within")]
    #[test_case(observed(), None ; "within 1x and accepted keeps no limit")]
    #[test_case(Observation { oom_killed: true, termination: Termination::Signaled(9), ..observed() }, Some(Memory) ; "within 1x an mle stays mle")]
    #[test_case(Observation { seen: Some(Output), ..observed() }, Some(Output) ; "within 1x an ole stays ole")]
    #[test_case(Observation { termination: Termination::Signaled(11), ..observed() }, None ; "within 1x a crash is its own")]
    fn decides_at_one_x(observation: Observation, expected: Option<LimitExceeded>) {
        let measured = measured(&observation);
        let view = at_one_x(&measured, &observation, None, &LIMITS);
        assert_eq!(view.limit_exceeded, expected);
        // Its figures are the run's own: it ended by itself.
        assert_eq!(view.cpu_time_ms, observation.cpu_time_ms);
        assert_eq!(view.termination, observation.termination);
        assert_eq!(view.stdout, measured.stdout);
    }

    /// A crossing the supervisor saw while the run went on: the 1x view
    /// reads as a 1x run stopped there, whatever the run did after (here:
    /// a clean exit at 1.4 s with more output).
    #[test]
    fn a_crossing_seen_while_running_is_where_a_1x_run_stops() {
        let observation = Observation {
            cpu_time_ms: 1400,
            wall_time_ms: 1450,
            memory_kib: 262_144,
            ..observed()
        };
        let crossing = Crossing {
            limit: CpuTime,
            cpu_time_ms: 1003,
            wall_time_ms: 1010,
            stdout_len: 2,
            stderr_len: 0,
            stderr_discarded_bytes: 0,
            memory_kib: Some(3_000),
            run_queue_wait_ms: None,
        };
        let view = at_one_x(
            &measured(&observation),
            &observation,
            Some(crossing),
            &LIMITS,
        );
        assert_eq!(view.limit_exceeded, Some(CpuTime));
        assert_eq!((view.cpu_time_ms, view.wall_time_ms), (1003, 1010));
        assert_eq!(view.termination, Termination::Signaled(libc::SIGKILL));
        assert_eq!(view.stdout, b"ab");
        assert!(view.stderr.is_empty());
        // The memory a 1x run had used when it was stopped, not the peak
        // of what the run did after (here: up to the memory limit).
        assert_eq!(view.memory_kib, 3_000);
    }

    fn measured(observation: &Observation) -> Measured {
        Measured {
            termination: observation.termination,
            limit_exceeded: observation.seen,
            cpu_time_ms: observation.cpu_time_ms,
            wall_time_ms: observation.wall_time_ms,
            memory_kib: observation.memory_kib,
            stdout: b"abcd".to_vec(),
            stderr: b"e".to_vec(),
            stderr_discarded_bytes: 0,
            deadlocked: false,
            run_queue_wait_ms: None,
            wall_granted_ms: 0,
        }
    }
}
