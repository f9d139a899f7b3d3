//! Which limit ended a run, from what the sandbox observed: the one
//! decision of the sandbox that is not a system call, kept as a plain
//! function so its order can be read and tested as a table.

use super::{LimitExceeded, Limits, Termination};

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
}

/// The limit that ended the run, in this order:
///
/// 1. output past its cap (the judge stopped reading and killed the run);
/// 2. scratch space full: a disk filler is OLE, never MLE, although its
///    files live in memory (issue #7);
/// 3. the OOM killer, which wins over a time limit seen afterwards (a
///    process being OOM-killed can look like a CPU or wall overrun);
/// 4. a limit the sandbox stopped the run for;
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
        Some(seen) => Some(seen),
        None => {
            let at_memory_limit =
                observation.memory_kib.saturating_mul(20) >= limits.memory_kib.saturating_mul(19);
            let sigxcpu = observation.termination == Termination::Signaled(libc::SIGXCPU);
            if observation.oom_killed || (abnormal && at_memory_limit) {
                Some(LimitExceeded::Memory)
            } else if observation.cpu_time_ms > limits.cpu_time_ms || sigxcpu {
                Some(LimitExceeded::CpuTime)
            } else if observation.wall_time_ms > limits.wall_time_ms {
                Some(LimitExceeded::WallTime)
            } else {
                None
            }
        }
    }
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
        }
    }

    #[test_case(observed(), None ; "a clean run hit nothing")]
    #[test_case(Observation { seen: Some(Output), scratch_full: true, oom_killed: true, ..observed() }, Some(Output) ; "output cap wins over everything")]
    #[test_case(Observation { scratch_full: true, oom_killed: true, termination: Termination::Signaled(9), ..observed() }, Some(Scratch) ; "a full scratch is never memory")]
    #[test_case(Observation { seen: Some(CpuTime), scratch_full: true, ..observed() }, Some(Scratch) ; "a disk filler that then spins is still scratch")]
    #[test_case(Observation { seen: Some(WallTime), oom_killed: true, ..observed() }, Some(Memory) ; "an oom kill wins over a time limit seen after it")]
    #[test_case(Observation { seen: Some(CpuTime), memory_kib: 99_000, ..observed() }, Some(CpuTime) ; "a limit the sandbox stopped for stays")]
    #[test_case(Observation { termination: Termination::Signaled(6), memory_kib: 96_000, ..observed() }, Some(Memory) ; "abort at the memory limit is memory")]
    #[test_case(Observation { termination: Termination::Signaled(6), memory_kib: 90_000, ..observed() }, None ; "abort well under the memory limit is a crash")]
    #[test_case(Observation { termination: Termination::Exited(0), memory_kib: 99_999, ..observed() }, None ; "a clean exit near the memory limit is fine")]
    #[test_case(Observation { cpu_time_ms: 1001, ..observed() }, Some(CpuTime) ; "cpu over the limit at exit")]
    #[test_case(Observation { termination: Termination::Signaled(libc::SIGXCPU), ..observed() }, Some(CpuTime) ; "sigxcpu is cpu")]
    #[test_case(Observation { wall_time_ms: 3001, ..observed() }, Some(WallTime) ; "wall over the limit at exit")]
    fn decides(observation: Observation, expected: Option<LimitExceeded>) {
        assert_eq!(decide_limit(&observation, &LIMITS), expected);
    }
}
