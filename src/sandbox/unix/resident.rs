//! Memory and CPU time without a memory cgroup: every process of a run,
//! found wherever it was reparented, sampled while it runs, with the
//! memory it holds in files that live in memory; and the address-space
//! backstop.
//!
//! Where no memory cgroup limits a run, the memory limit is a limit on
//! what the run holds: the supervisor samples its processes and stops the
//! run past the limit (MLE). What a sample counts (issue 32):
//!
//! - each process's proportional set size (`Pss` of
//!   `/proc/PID/smaps_rollup`): a page shared by several processes of the
//!   run (a table a `multiprocessing` pool inherits copy-on-write) counts
//!   once in their sum, not once per process as the resident size would;
//! - the pages of every memory file (`memfd_create`) a process of the run
//!   holds open, mapped or not, each file once;
//! - what the run wrote to its scratch tmpfs and its private `/dev/shm`
//!   (their used size, less what was there when it started);
//! - a mapping of one of those files is counted with its file, not again
//!   with the process.
//!
//! The processes of a run are the program and everything below it, and,
//! where the run is in the worker's PID namespace, every child of the
//! namespace's init (the holder): an orphan whose parent exited is
//! reparented there, out of the program's tree but not out of the run
//! (issue 32, a double-forked orphan holding 1 GiB). Their CPU times add
//! up too: `RLIMIT_CPU` is per process, so a tree of processes each under
//! it is still over the limit by its sum.
//!
//! `RLIMIT_AS` stays as a per-process backstop only, with headroom above
//! the limit: runtimes reserve far more address space than they use (the
//! JVM reserves its heap, 1 GiB of class space and its code cache up
//! front; glibc reserves 64 MiB of address space per malloc arena, one per
//! thread), so an address-space limit at the memory limit turned every
//! honest JVM, thread pool and `std::thread` into the student's CE or RE
//! (issue 32).

use super::proc_file::{self, Pieces, ProcFile};
use std::os::fd::OwnedFd;
use std::path::PathBuf;
use std::time::Duration;

/// Address space a run may map beyond its memory limit without a memory
/// cgroup. The JVM run as configured (`-Xmx` at the limit, `-Xss64m`) needs
/// about 3.5 GiB of address space at 256 MiB of heap, and `javac` (whose
/// heap HotSpot caps at half the address-space limit) about 4 GiB under a
/// 1 GiB compile limit: 4 GiB more covers both with room for threads.
pub(super) const ADDRESS_SPACE_HEADROOM_KIB: u64 = 4 * 1024 * 1024;

/// How often the supervisor samples the run without a memory cgroup: the
/// overshoot of a program allocating as fast as it can is what it touches
/// in this time, and the address-space backstop bounds it in any case.
pub(super) const SAMPLE_INTERVAL: Duration = Duration::from_millis(20);

/// Bound on the processes one sample visits, like every loop over what a
/// program controls: a run is at most `processes` processes, far under it.
const MOST_PROCESSES: usize = 4096;

/// Bound on the descriptors of one process a sample looks at (a run's
/// `open-files` limit is far under it).
const MOST_DESCRIPTORS: usize = 65_536;

/// The run's tmpfs mounts (its scratch, its `/dev/shm`) as the judge sees
/// them, with what they held when the run started.
#[derive(Debug, Default)]
pub(super) struct RunFiles {
    mounts: Vec<Mount>,
}

#[derive(Debug)]
struct Mount {
    /// The mount's root, opened once per run (`O_PATH`): every later look
    /// is an `fstatvfs`, with no walk of its path through
    /// `/proc/self/fd/N/...` (issue #31). Dropped before the holder mounts
    /// the next run's, so the old one is freed as soon as it is detached.
    root: OwnedFd,
    device: u64,
    used_at_start: u64,
}

impl RunFiles {
    /// The mounts among `paths` that are tmpfs file systems, and what each
    /// holds now. A path that cannot be read is left out: it holds nothing
    /// in memory the run could add to.
    pub(super) fn at_start(paths: &[PathBuf]) -> RunFiles {
        use rustix::fs::{Mode, OFlags};
        let mounts = paths
            .iter()
            .filter_map(|path| {
                let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
                let root = rustix::fs::open(path, flags, Mode::empty()).ok()?;
                let stats = rustix::fs::fstatfs(&root).ok()?;
                // TMPFS_MAGIC: only a file system in memory is memory.
                if stats.f_type as u64 != 0x0102_1994 {
                    return None;
                }
                let device = rustix::fs::fstat(&root).ok()?.st_dev;
                let used_at_start = used_bytes(&root)?;
                Some(Mount {
                    root,
                    device,
                    used_at_start,
                })
            })
            .collect();
        RunFiles { mounts }
    }

    /// Bytes the run added to its mounts since it started.
    fn written_bytes(&self) -> u64 {
        self.mounts
            .iter()
            .map(|mount| {
                used_bytes(&mount.root).map_or(0, |used| used.saturating_sub(mount.used_at_start))
            })
            .sum()
    }

    fn holds_device(&self, device: u64) -> bool {
        self.mounts.iter().any(|mount| mount.device == device)
    }
}

/// The used size of the file system of `root`, in bytes.
fn used_bytes(root: &OwnedFd) -> Option<u64> {
    let stats = rustix::fs::fstatvfs(root).ok()?;
    Some(
        stats
            .f_blocks
            .saturating_sub(stats.f_bfree)
            .saturating_mul(stats.f_frsize),
    )
}

/// One sample of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Sample {
    /// What the run holds (see the module's doc), in KiB.
    pub(super) memory_kib: u64,
    /// CPU time of every process of the run, with the children each waited
    /// for.
    pub(super) cpu: Duration,
}

/// A run's program, with the `/proc` files its supervisor reads at every
/// look opened once for the run (issue #31): its `stat` (its CPU time and
/// its thread count) and its main thread's `children`. Made once the
/// program is spawned and dropped before it is reaped (see `proc_file`).
#[derive(Debug)]
pub(super) struct Program {
    pid: libc::pid_t,
    stat: Option<ProcFile>,
    children: Option<ProcFile>,
}

impl Program {
    /// The program `pid`, its files opened now (a file that cannot be is
    /// looked up by its path at each look, as any other process's).
    pub(super) fn open(pid: libc::pid_t) -> Program {
        Program {
            pid,
            stat: ProcFile::open(&format!("/proc/{pid}/stat"), Pieces::One),
            children: ProcFile::open(&format!("/proc/{pid}/task/{pid}/children"), Pieces::Records),
        }
    }

    /// The program `pid`, its files looked up by their paths at each look:
    /// for a run that is seldom looked at this way (a memory cgroup
    /// measures it).
    pub(super) fn unopened(pid: libc::pid_t) -> Program {
        Program {
            pid,
            stat: None,
            children: None,
        }
    }

    pub(super) fn pid(&self) -> libc::pid_t {
        self.pid
    }

    /// The program's `stat` now.
    fn stat(&self) -> Option<Stat> {
        match &self.stat {
            Some(file) => Stat::parse(&file.read()?),
            None => read_stat(self.pid),
        }
    }

    /// The CPU time of the program and the children it waited for (zero
    /// once it is reaped).
    pub(super) fn cpu_time(&self) -> Duration {
        self.stat().map_or(Duration::ZERO, |stat| stat.cpu)
    }

    /// The program's children, `stat` the program's at the same look: with
    /// one thread, those its main thread's file lists (every child of the
    /// process is a child of some thread of it); else every thread's.
    fn children(&self, stat: Option<&Stat>) -> Vec<libc::pid_t> {
        match (&self.children, stat) {
            (Some(file), Some(stat)) if stat.threads == 1 => {
                file.read().map_or_else(Vec::new, |text| pids(&text))
            }
            _ => children_of(self.pid),
        }
    }
}

/// The init of a run's PID namespace, which every orphan of the run is
/// reparented to, with its `children` file where it is kept open (the
/// holder: one thread, never reaped while the worker runs, so its main
/// thread's children are all of them).
#[derive(Clone, Copy, Debug)]
pub(super) struct Reaper<'a> {
    pub(super) pid: libc::pid_t,
    pub(super) children: Option<&'a ProcFile>,
}

impl Reaper<'_> {
    fn children(&self) -> Vec<libc::pid_t> {
        match self.children.and_then(ProcFile::read) {
            Some(text) => pids(&text),
            None => children_of(self.pid),
        }
    }
}

/// Samples the run of `program`: its tree and, with `holder` (the init of
/// the run's PID namespace), every other process in the namespace.
pub(super) fn sample_run(
    program: &Program,
    holder: Option<Reaper<'_>>,
    files: &RunFiles,
) -> Sample {
    let (processes, program_cpu) = run_processes(program, holder);
    let mut held = HeldFiles::default();
    let mut process_bytes = 0u64;
    let mut cpu = program_cpu;
    // The held files first: one process may map a file another holds.
    for &process in &processes {
        if process != program.pid {
            cpu += process_cpu_time(process);
        }
        held.collect(process);
    }
    for &process in &processes {
        process_bytes += process_bytes_of(process, files, &held);
    }
    let memory_bytes = process_bytes
        .saturating_add(held.bytes())
        .saturating_add(files.written_bytes());
    Sample {
        memory_kib: memory_bytes / 1024,
        cpu,
    }
}

/// The CPU time of every process of the run of `program` (as
/// [`sample_run`] finds them), with the children each waited for: the
/// sample after the program has exited, when its orphans' time is all
/// that is left to count (its memory is no longer the run's peak).
pub(super) fn run_cpu_time(program: &Program, holder: Option<Reaper<'_>>) -> Duration {
    let (processes, program_cpu) = run_processes(program, holder);
    processes
        .into_iter()
        .filter(|&process| process != program.pid)
        .map(process_cpu_time)
        .sum::<Duration>()
        + program_cpu
}

/// The processes of the run of `program` (its tree and, with `holder`,
/// every process the namespace's init was handed, with their trees), and
/// the program's own CPU time, read at the same look as its children.
fn run_processes(program: &Program, holder: Option<Reaper<'_>>) -> (Vec<libc::pid_t>, Duration) {
    let stat = program.stat();
    let mut processes = vec![program.pid];
    let mut pending = program.children(stat.as_ref());
    if let Some(holder) = holder {
        pending.extend(holder.children());
    }
    while let Some(next) = pending.pop() {
        if processes.len() >= MOST_PROCESSES {
            break;
        }
        if processes.contains(&next) {
            continue;
        }
        processes.push(next);
        pending.extend(children_of(next));
    }
    (processes, stat.map_or(Duration::ZERO, |stat| stat.cpu))
}

/// How long the threads of the run of `pid` (as [`sample_run`] finds its
/// processes) have been runnable but not running, waiting for a CPU: the
/// second field of `/proc/PID/task/TID/schedstat` (nanoseconds), summed.
/// Read before the run is killed, it tells a program the host starved
/// from one that slept or blocked (issue 32). `None` when no thread's
/// figure could be read (a kernel without `CONFIG_SCHED_INFO`).
pub(super) fn run_queue_wait(program: &Program, holder: Option<Reaper<'_>>) -> Option<Duration> {
    let mut waited_ns: Option<u64> = None;
    for process in run_processes(program, holder).0 {
        let Ok(tasks) = fs_err::read_dir(format!("/proc/{process}/task")) else {
            continue;
        };
        for task in tasks.filter_map(Result::ok).take(MOST_PROCESSES) {
            let path = task.path().join("schedstat");
            let Some(text) = path.to_str().and_then(read_text) else {
                continue;
            };
            if let Some(ns) = schedstat_wait_ns(&text) {
                waited_ns = Some(waited_ns.unwrap_or(0).saturating_add(ns));
            }
        }
    }
    waited_ns.map(Duration::from_nanos)
}

/// The run-queue wait of one `schedstat` line: `on-cpu-ns wait-ns slices`.
fn schedstat_wait_ns(text: &str) -> Option<u64> {
    text.split_whitespace().nth(1)?.parse().ok()
}

/// The children of every thread of `pid` (`/proc/PID/task/TID/children`).
fn children_of(pid: libc::pid_t) -> Vec<libc::pid_t> {
    let Ok(tasks) = fs_err::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    let mut children = Vec::new();
    for task in tasks.filter_map(Result::ok) {
        let path = task.path().join("children");
        if let Some(text) = path
            .to_str()
            .and_then(|path| proc_file::read(path, Pieces::Records))
        {
            children.extend(pids(&text));
        }
    }
    children
}

/// The text of a `/proc` file the kernel makes in one piece and that holds
/// only ASCII (no name a program chose), read at once.
fn read_text(path: &str) -> Option<String> {
    String::from_utf8(proc_file::read(path, Pieces::One)?).ok()
}

/// The pids of a `children` file: numbers apart by spaces.
fn pids(text: &[u8]) -> Vec<libc::pid_t> {
    text.split(u8::is_ascii_whitespace)
        .filter_map(|word| std::str::from_utf8(word).ok()?.parse().ok())
        .collect()
}

/// CPU time of a process and the children it waited for, from
/// `/proc/PID/stat` (zero once it is reaped).
pub(super) fn process_cpu_time(pid: libc::pid_t) -> Duration {
    read_stat(pid).map_or(Duration::ZERO, |stat| stat.cpu)
}

fn read_stat(pid: libc::pid_t) -> Option<Stat> {
    Stat::parse(&proc_file::read(&format!("/proc/{pid}/stat"), Pieces::One)?)
}

/// What a sample needs of `/proc/PID/stat`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stat {
    /// `utime + stime + cutime + cstime`: the process's CPU time with the
    /// children it waited for.
    cpu: Duration,
    /// `num_threads`.
    threads: u64,
}

impl Stat {
    /// Parses the fields after the command, which is between the first `(`
    /// and the last `)` and may hold anything (any bytes, parentheses too:
    /// a program names itself), so it is skipped as bytes.
    fn parse(stat: &[u8]) -> Option<Stat> {
        let end = stat.iter().rposition(|&byte| byte == b')')?;
        let fields = std::str::from_utf8(&stat[end + 1..]).ok()?;
        // After the command, state is field 3: utime..cstime are fields
        // 14..=17, num_threads 20.
        let fields: Vec<&str> = fields.split_ascii_whitespace().take(18).collect();
        let number = |field: usize| fields.get(field - 3)?.parse::<u64>().ok();
        let ticks = (14..=17)
            .map(number)
            .try_fold(0u64, |sum, ticks| Some(sum.saturating_add(ticks?)))?;
        let per_second = rustix::param::clock_ticks_per_second().max(1);
        Some(Stat {
            cpu: Duration::from_millis(ticks.saturating_mul(1000) / per_second),
            threads: number(20)?,
        })
    }
}

/// The memory files the run's processes hold open, each once.
#[derive(Debug, Default)]
struct HeldFiles {
    /// (device, inode) and the bytes each holds.
    files: Vec<((u64, u64), u64)>,
}

impl HeldFiles {
    /// Adds the memory files among the descriptors of `pid`.
    fn collect(&mut self, pid: libc::pid_t) {
        let directory = format!("/proc/{pid}/fd");
        let Ok(entries) = fs_err::read_dir(&directory) else {
            return;
        };
        for entry in entries.filter_map(Result::ok).take(MOST_DESCRIPTORS) {
            let path = entry.path();
            let Ok(target) = rustix::fs::readlink(&path, Vec::new()) else {
                continue;
            };
            if !target.to_bytes().starts_with(b"/memfd:") {
                continue;
            }
            let Ok(stats) = rustix::fs::stat(&path) else {
                continue;
            };
            let key = (stats.st_dev, stats.st_ino);
            if !self.files.iter().any(|(held, _)| *held == key) {
                // Blocks of 512 bytes: the pages it holds, not its size
                // (a sparse file holds only what was written).
                let bytes = u64::try_from(stats.st_blocks)
                    .unwrap_or(0)
                    .saturating_mul(512);
                self.files.push((key, bytes));
            }
        }
    }

    fn holds(&self, device: u64, inode: u64) -> bool {
        self.files.iter().any(|(held, _)| *held == (device, inode))
    }

    fn bytes(&self) -> u64 {
        self.files.iter().map(|(_, bytes)| bytes).sum()
    }
}

/// What one process holds in memory beyond the files counted on their
/// own: its proportional set size, less its shared mappings of those
/// files. Where `smaps_rollup` cannot be read, its resident size.
fn process_bytes_of(pid: libc::pid_t, files: &RunFiles, held: &HeldFiles) -> u64 {
    let Some(rollup) = read_text(&format!("/proc/{pid}/smaps_rollup")) else {
        return resident_pages(pid).saturating_mul(page_bytes());
    };
    let pss = field_kib(&rollup, "Pss:");
    let shmem = field_kib(&rollup, "Pss_Shmem:");
    let counted_elsewhere = if shmem > 0 {
        shared_file_mappings_kib(pid, files, held)
    } else {
        0
    };
    pss.saturating_sub(counted_elsewhere).saturating_mul(1024)
}

/// The `Pss` of `pid`'s shared mappings of files counted on their own (a
/// held memory file, a file on one of the run's tmpfs mounts), in KiB.
fn shared_file_mappings_kib(pid: libc::pid_t, files: &RunFiles, held: &HeldFiles) -> u64 {
    let Ok(smaps) = fs_err::read_to_string(format!("/proc/{pid}/smaps")) else {
        return 0;
    };
    let mut total = 0;
    let mut counted = false;
    for line in smaps.lines() {
        if let Some(mapping) = Mapping::parse(line) {
            counted = mapping.shared
                && (held.holds(mapping.device, mapping.inode)
                    || files.holds_device(mapping.device));
        } else if counted {
            if let Some(value) = line.strip_prefix("Pss:") {
                total += value
                    .trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<u64>()
                    .unwrap_or(0);
            }
        }
    }
    total
}

/// The header line of one mapping in `/proc/PID/smaps`:
/// `start-end perms offset major:minor inode [path]`.
#[derive(Debug, PartialEq, Eq)]
struct Mapping {
    shared: bool,
    device: u64,
    inode: u64,
}

impl Mapping {
    fn parse(line: &str) -> Option<Mapping> {
        let mut fields = line.split_ascii_whitespace();
        let range = fields.next()?;
        let (start, end) = range.split_once('-')?;
        u64::from_str_radix(start, 16).ok()?;
        u64::from_str_radix(end, 16).ok()?;
        let permissions = fields.next()?;
        fields.next()?;
        let (major, minor) = fields.next()?.split_once(':')?;
        let major = u32::from_str_radix(major, 16).ok()?;
        let minor = u32::from_str_radix(minor, 16).ok()?;
        let inode = fields.next()?.parse().ok()?;
        Some(Mapping {
            shared: permissions.as_bytes().get(3) == Some(&b's'),
            device: libc::makedev(major, minor),
            inode,
        })
    }
}

/// The value of `field` (a line `Field:   123 kB`) in KiB, 0 when absent.
fn field_kib(text: &str, field: &str) -> u64 {
    text.lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn page_bytes() -> u64 {
    rustix::param::page_size() as u64
}

/// Resident pages of one process (`/proc/PID/statm`, second field).
fn resident_pages(pid: libc::pid_t) -> u64 {
    read_text(&format!("/proc/{pid}/statm"))
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
///
/// A run shorter than two sample intervals (`short`) may end before a
/// sample sees it (the first is one interval after the start: issue #31),
/// or be sampled while it exits, and its `ru_maxrss` is the judge's: it
/// read 0 KiB (issue 32). Its `faulted` KiB (the pages
/// it faulted in, `ru_minflt + ru_majflt` times the page size) are then
/// its measure: the pages it touched, which in so short a run are the
/// pages it held. A longer run is sampled, and may free and fault the same
/// memory again and again, so its faults would overstate it; but a longer
/// run no sample saw at all (a host so busy that the supervisor's samples
/// fell before the program's `execve` or after its exit: the run took long
/// on the wall clock without doing much) has its faults as its measure
/// too, never 0 (issue 32's leftover, seen at a load average of 14).
pub(super) fn peak_kib(
    max_rss: u64,
    judge_peak: u64,
    sampled: u64,
    short: bool,
    faulted: u64,
) -> u64 {
    if max_rss > judge_peak {
        max_rss.max(sampled)
    } else if short || sampled == 0 {
        sampled.max(faulted)
    } else {
        sampled
    }
}

/// The KiB a process and the children it waited for faulted in
/// (`ru_minflt + ru_majflt` pages).
pub(super) fn faulted_kib(rusage: &libc::rusage) -> u64 {
    let pages = u64::try_from(rusage.ru_minflt)
        .unwrap_or(0)
        .saturating_add(u64::try_from(rusage.ru_majflt).unwrap_or(0));
    pages.saturating_mul(page_bytes()) / 1024
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_judges_own_resident_set_is_never_the_programs_peak() {
        // A trivial program: rusage says the judge's 18 MiB, the sampler 900 KiB.
        assert_eq!(peak_kib(18_000, 18_000, 900, false, 5_000), 900);
        // A program that went past the judge's size: its own peak.
        assert_eq!(peak_kib(200_000, 18_000, 150_000, false, 0), 200_000);
        // Two processes sampled together weigh more than either alone.
        assert_eq!(peak_kib(30_000, 18_000, 50_000, false, 0), 50_000);
        // A run too short to be sampled: the pages it faulted in, never 0
        // (issue 32).
        assert_eq!(peak_kib(18_000, 18_000, 0, true, 480), 480);
        assert_eq!(peak_kib(18_000, 18_000, 20, true, 480), 480);
        // A longer run that no sample saw (a busy host): its faults too.
        assert_eq!(peak_kib(18_000, 18_000, 0, false, 480), 480);
    }

    #[test]
    fn the_run_queue_wait_is_the_second_schedstat_field() {
        assert_eq!(schedstat_wait_ns("123 4567 8\n"), Some(4567));
        assert_eq!(schedstat_wait_ns("123\n"), None);
        assert_eq!(schedstat_wait_ns("a b c"), None);
        // This process's own threads can be read.
        let pid = std::process::id() as libc::pid_t;
        assert!(run_queue_wait(&Program::open(pid), None).is_some());
    }

    #[test]
    fn the_runs_cpu_time_counts_a_child_still_running() {
        let mut child = std::process::Command::new("sh")
            .args(["-c", "while :; do :; done"])
            .spawn()
            .expect("sh starts");
        let pid = child.id() as libc::pid_t;
        // Until the child has used a tenth of a second (or a minute went by).
        for _ in 0..60_000 {
            if process_cpu_time(pid) >= Duration::from_millis(100) {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let own = std::process::id() as libc::pid_t;
        let own_time = process_cpu_time(own);
        let child_time = process_cpu_time(pid);
        let run = run_cpu_time(&Program::open(own), None);
        let _ = child.kill();
        let _ = child.wait();
        assert!(child_time >= Duration::from_millis(100), "{child_time:?}");
        // The child is not waited for: only the walk of the tree counts it.
        assert!(
            run >= own_time + child_time,
            "{run:?} against {child_time:?}"
        );
        assert_eq!(run_cpu_time(&Program::open(-5), None), Duration::ZERO);
    }

    /// A child made by a thread that is not the main one is listed only in
    /// that thread's `children`: a program of several threads is walked
    /// thread by thread, never read from its main thread's file alone.
    #[test]
    fn a_child_of_any_thread_of_the_program_is_in_its_run() {
        // The test runs on a thread of the harness, not the main one.
        let own = std::process::id() as libc::pid_t;
        assert_ne!(rustix::thread::gettid().as_raw_nonzero().get(), own);
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .expect("sleep starts");
        let program = Program::open(own);
        let (processes, _) = run_processes(&program, None);
        let _ = child.kill();
        let _ = child.wait();
        assert!(program.stat().is_some_and(|stat| stat.threads > 1));
        assert!(
            processes.contains(&(child.id() as libc::pid_t)),
            "{processes:?} lacks {}",
            child.id()
        );
    }

    /// The program's `children`, opened once as it starts, lists what it
    /// forks later: each look reads the file anew.
    #[test]
    fn a_child_made_after_the_files_were_opened_is_in_the_run() {
        use std::io::Write;
        let mut shell = std::process::Command::new("sh")
            .args(["-c", "read line; sleep 30 & wait"])
            .stdin(std::process::Stdio::piped())
            .spawn()
            .expect("sh starts");
        let pid = shell.id() as libc::pid_t;
        let program = Program::open(pid);
        assert!(program.children.is_some() && program.stat.is_some());
        let before = run_processes(&program, None).0;
        let mut stdin = shell.stdin.take().expect("piped");
        let _ = stdin.write_all(b"go\n");
        // Until the shell has forked (or a minute went by).
        let mut after = before.clone();
        for _ in 0..60_000 {
            after = run_processes(&program, None).0;
            if after.len() > 1 {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let threads = program.stat().map(|stat| stat.threads);
        let _ = shell.kill();
        let _ = shell.wait();
        assert_eq!(before, [pid]);
        assert_eq!(threads, Some(1));
        assert_eq!(after.len(), 2, "{after:?}");
    }

    #[test_case::test_case(b"12 (sol) R 1 12 12 0 -1 4194304 28 0 0 0 7 3 2 1 20 0 1 0 85 2793472 98\n", Some((13, 1)) ; "plain")]
    #[test_case::test_case(b"12 (a) b (c)) S 1 12 12 0 -1 0 0 0 0 0 100 0 0 0 20 0 4 0 85\n", Some((100, 4)) ; "parentheses in the name")]
    #[test_case::test_case(b"12 (\xff\xfe) S 1 12 12 0 -1 0 0 0 0 0 100 0 0 0 20 0 1 0 85\n", Some((100, 1)) ; "a name that is not UTF-8")]
    #[test_case::test_case(b"12 (x) S 1 12 12 0 -1 0 0 0 0 0 100 0 0 0\n", None ; "cut short")]
    #[test_case::test_case(b"12 x S 1", None ; "no name")]
    fn the_stat_line_gives_cpu_time_and_threads(stat: &[u8], expected: Option<(u64, u64)>) {
        let per_second = rustix::param::clock_ticks_per_second().max(1);
        let parsed = Stat::parse(stat).map(|stat| {
            (
                u64::try_from(stat.cpu.as_millis()).unwrap_or(u64::MAX),
                stat.threads,
            )
        });
        assert_eq!(
            parsed,
            expected.map(|(ticks, threads)| (ticks * 1000 / per_second, threads))
        );
    }

    #[test]
    fn this_process_holds_memory_and_has_run() {
        let own = sample_run(
            &Program::open(std::process::id() as libc::pid_t),
            None,
            &RunFiles::default(),
        );
        assert!(own.memory_kib > 0);
        assert_eq!(
            sample_run(&Program::open(-5), None, &RunFiles::default()),
            Sample::default()
        );
    }
}
