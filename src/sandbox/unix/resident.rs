//! Memory without a memory cgroup: the resident size of a run's process
//! tree, sampled while it runs, and the address-space backstop.
//!
//! Where no memory cgroup limits a run, the memory limit is a limit on
//! what the run keeps resident: the supervisor samples the resident size
//! of the program and every process below it and stops the run past the
//! limit (MLE). `RLIMIT_AS` stays as a per-process backstop only, with
//! headroom above the limit: runtimes reserve far more address space than
//! they use (the JVM reserves its heap, 1 GiB of class space and its code
//! cache up front; glibc reserves 64 MiB of address space per malloc arena,
//! one per thread), so an address-space limit at the memory limit turned
//! every honest JVM, thread pool and `std::thread` into the student's CE or
//! RE (issue 32).

use std::time::Duration;

/// Address space a run may map beyond its memory limit without a memory
/// cgroup. The JVM run as configured (`-Xmx` at the limit, `-Xss64m`) needs
/// about 3.5 GiB of address space at 256 MiB of heap, and `javac` (whose
/// heap HotSpot caps at half the address-space limit) about 4 GiB under a
/// 1 GiB compile limit: 4 GiB more covers both with room for threads.
pub(super) const ADDRESS_SPACE_HEADROOM_KIB: u64 = 4 * 1024 * 1024;

/// How often the supervisor samples the tree's resident size without a
/// memory cgroup: the overshoot of a program allocating as fast as it can
/// is what it touches in this time, and the address-space backstop bounds
/// it in any case.
pub(super) const SAMPLE_INTERVAL: Duration = Duration::from_millis(20);

/// The resident size of `pid` and of every process below it, in KiB (0
/// once it is gone). Children are found through
/// `/proc/PID/task/TID/children`; a process that left the tree (its parent
/// died and it was reparented) is no longer counted, as a cgroup would.
pub(super) fn tree_resident_kib(pid: libc::pid_t) -> u64 {
    let page_kib = (rustix::param::page_size() / 1024).max(1) as u64;
    let mut total = 0;
    let mut pending = vec![pid];
    // Bounded like every loop over what a program controls: a tree is at
    // most `processes` processes, far under this.
    let mut visited = 0;
    while let Some(next) = pending.pop() {
        visited += 1;
        if visited > 4096 {
            break;
        }
        total += resident_pages(next) * page_kib;
        let Ok(tasks) = fs_err::read_dir(format!("/proc/{next}/task")) else {
            continue;
        };
        for task in tasks.filter_map(Result::ok) {
            let mut children = task.path();
            children.push("children");
            let Ok(text) = fs_err::read_to_string(children) else {
                continue;
            };
            pending.extend(
                text.split_whitespace()
                    .filter_map(|word| word.parse::<libc::pid_t>().ok()),
            );
        }
    }
    total
}

/// Resident pages of one process (`/proc/PID/statm`, second field).
fn resident_pages(pid: libc::pid_t) -> u64 {
    fs_err::read_to_string(format!("/proc/{pid}/statm"))
        .ok()
        .and_then(|text| text.split_whitespace().nth(1)?.parse().ok())
        .unwrap_or(0)
}

/// The judge's own largest resident set so far, in KiB. A program started
/// by a clone that shares the judge's memory (`CLONE_VM`) inherits it: the
/// kernel records the resident peak of the memory it leaves at `execve`
/// in the program's `ru_maxrss`. So an `ru_maxrss` at or under this value
/// says nothing of the program (a trivial C program read as the judge's
/// 16-18 MiB); above it, it is the program's (or a child's) own peak.
pub(super) fn judge_peak_kib() -> u64 {
    // SAFETY: a zeroed rusage is a valid out-parameter.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes only `usage`.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return u64::MAX;
    }
    u64::try_from(usage.ru_maxrss).unwrap_or(u64::MAX)
}

/// The run's resident peak without a memory cgroup: the largest resident
/// set of one process (`ru_maxrss` of the program and the children it
/// waited for) where it is the program's own (above `judge_peak`), and
/// the largest sum over the tree the supervisor sampled.
pub(super) fn peak_kib(max_rss: u64, judge_peak: u64, sampled: u64) -> u64 {
    if max_rss > judge_peak {
        max_rss.max(sampled)
    } else {
        sampled
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_judges_own_resident_set_is_never_the_programs_peak() {
        // A trivial program: rusage says the judge's 18 MiB, the sampler 900 KiB.
        assert_eq!(peak_kib(18_000, 18_000, 900), 900);
        // A program that went past the judge's size: its own peak.
        assert_eq!(peak_kib(200_000, 18_000, 150_000), 200_000);
        // Two processes sampled together weigh more than either alone.
        assert_eq!(peak_kib(30_000, 18_000, 50_000), 50_000);
    }

    #[test]
    fn the_tree_of_this_process_is_resident() {
        let own = tree_resident_kib(std::process::id() as libc::pid_t);
        assert!(own > 0);
        assert_eq!(tree_resident_kib(-5), 0);
    }
}
