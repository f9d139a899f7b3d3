//! One worker's cgroup v1 groups (memory, pids, cpuacct): created once,
//! reused by every run of the worker, emptied after each.
//!
//! Emptying is decided by membership, not by process state (issue #7): a
//! program controls its own state (a leader that exits while its threads
//! run shows as a zombie; a process can leave its process group or
//! session), never its cgroup. After a run, every member is killed and the
//! next run starts only when `pids.current` is 0, so its CPU, memory and
//! process figures include nothing of the last one.

use super::reap::{kill, reap_orphans_of, ProcessTarget};
use crate::sandbox::{Limits, SandboxError};
use std::io;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long the processes of a finished run may take to die after SIGKILL.
const KILL_GRACE: Duration = Duration::from_secs(5);

/// Page cache and shared memory left charged to the group after a run,
/// above which it is reclaimed before the next run (so a memory peak never
/// starts above zero by more than this).
const STALE_MEMORY_BYTES: u64 = 8 << 20;

/// The judge's own place in the cgroup v1 hierarchies of the three
/// controllers we use.
pub(super) struct CgroupPaths {
    memory: PathBuf,
    pids: PathBuf,
    cpuacct: PathBuf,
}

impl CgroupPaths {
    /// Where this process sits in each controller's hierarchy, children are
    /// created there (the judge may itself be confined to a cgroup).
    fn current() -> Option<CgroupPaths> {
        let mounts = fs_err::read_to_string("/proc/self/mounts").ok()?;
        let membership = fs_err::read_to_string("/proc/self/cgroup").ok()?;
        let locate = |controller: &str| -> Option<PathBuf> {
            let mount = mounts.lines().find_map(|line| {
                let fields: Vec<&str> = line.split_whitespace().collect();
                (fields.get(2) == Some(&"cgroup")
                    && fields
                        .get(3)
                        .is_some_and(|options| options.split(',').any(|o| o == controller)))
                .then(|| PathBuf::from(fields[1]))
            })?;
            let relative = membership.lines().find_map(|line| {
                let mut parts = line.splitn(3, ':');
                let _id = parts.next()?;
                let controllers = parts.next()?;
                let path = parts.next()?;
                controllers
                    .split(',')
                    .any(|c| c == controller)
                    .then(|| path.trim_start_matches('/').to_owned())
            })?;
            Some(mount.join(relative))
        };
        Some(CgroupPaths {
            memory: locate("memory")?,
            pids: locate("pids")?,
            cpuacct: locate("cpuacct")?,
        })
    }

    pub(super) fn probe() -> bool {
        let Some(paths) = CgroupPaths::current() else {
            return false;
        };
        let name = format!("judge-probe-{}", std::process::id());
        [&paths.memory, &paths.pids, &paths.cpuacct]
            .iter()
            .all(|parent| {
                let dir = parent.join(&name);
                let made = fs_err::create_dir(&dir).is_ok();
                let _ = fs_err::remove_dir(&dir);
                made
            })
    }
}

/// One worker's cgroups: created once, reused by every run of the worker.
pub(super) struct Cgroups {
    memory: PathBuf,
    pids: PathBuf,
    cpuacct: PathBuf,
    /// `cgroup.procs` of each, opened for writing before any fork so the
    /// child joins with one `write` each.
    pub(super) procs: [OwnedFd; 3],
    /// Counters read or reset on every run, kept open: a run is short
    /// enough that opening files shows in the per-test overhead.
    cpu_usage: std::fs::File,
    memory_peak: std::fs::File,
    memory_usage: std::fs::File,
    pids_current: std::fs::File,
    oom_control: std::fs::File,
    /// The OOM kill count after the previous run.
    oom_kills_seen: u64,
    /// The memory (KiB) and process limits last written.
    applied: Option<(u64, u32)>,
}

impl Cgroups {
    pub(super) fn create(name: &str) -> Result<Cgroups, SandboxError> {
        let paths = CgroupPaths::current().ok_or_else(|| {
            SandboxError::path(
                "find the cgroup v1 hierarchies in",
                "/proc/self/cgroup",
                io::Error::from(io::ErrorKind::NotFound),
            )
        })?;
        sweep_stale_cgroups(&paths);
        let mut made = Vec::new();
        for parent in [&paths.memory, &paths.pids, &paths.cpuacct] {
            let dir = parent.join(name);
            if let Err(source) = fs_err::create_dir(&dir) {
                for dir in made {
                    let _ = fs_err::remove_dir(dir);
                }
                return Err(SandboxError::path("create cgroup", dir, source));
            }
            made.push(dir);
        }
        let open_procs = |dir: &Path| -> Result<OwnedFd, SandboxError> {
            let path = dir.join("cgroup.procs");
            fs_err::OpenOptions::new()
                .write(true)
                .open(&path)
                .map(|file| OwnedFd::from(file.into_parts().0))
                .map_err(|source| SandboxError::path("open", path, source))
        };
        let memory = paths.memory.join(name);
        let pids = paths.pids.join(name);
        let cpuacct = paths.cpuacct.join(name);
        let procs = [
            open_procs(&memory)?,
            open_procs(&pids)?,
            open_procs(&cpuacct)?,
        ];
        let open = |path: PathBuf, write: bool| -> Result<std::fs::File, SandboxError> {
            fs_err::OpenOptions::new()
                .read(true)
                .write(write)
                .open(&path)
                .map(|file| file.into_parts().0)
                .map_err(|source| SandboxError::path("open", path, source))
        };
        let mut cgroups = Cgroups {
            cpu_usage: open(cpuacct.join("cpuacct.usage"), true)?,
            memory_peak: open(memory.join("memory.max_usage_in_bytes"), true)?,
            memory_usage: open(memory.join("memory.usage_in_bytes"), false)?,
            pids_current: open(pids.join("pids.current"), false)?,
            oom_control: open(memory.join("memory.oom_control"), false)?,
            memory,
            pids,
            cpuacct,
            procs,
            oom_kills_seen: 0,
            applied: None,
        };
        cgroups.oom_kills_seen = cgroups.oom_kills();
        Ok(cgroups)
    }

    /// Reads a counter file from the start (cgroup files regenerate their
    /// text on each read at offset 0).
    fn read_open(file: &std::fs::File, what: &'static str) -> Result<String, SandboxError> {
        use std::os::unix::fs::FileExt;
        let mut buffer = [0u8; 512];
        let count = file
            .read_at(&mut buffer, 0)
            .map_err(|source| SandboxError::Syscall {
                syscall: "pread",
                purpose: what,
                source,
            })?;
        Ok(String::from_utf8_lossy(&buffer[..count]).into_owned())
    }

    fn reset_open(file: &std::fs::File, what: &'static str) -> Result<(), SandboxError> {
        use std::os::unix::fs::FileExt;
        file.write_at(b"0", 0)
            .map(|_| ())
            .map_err(|source| SandboxError::Syscall {
                syscall: "pwrite",
                purpose: what,
                source,
            })
    }

    fn parse_counter(text: &str, what: &'static str) -> Result<u64, SandboxError> {
        text.trim().parse().map_err(|_| SandboxError::Syscall {
            syscall: "pread",
            purpose: what,
            source: io::Error::from(io::ErrorKind::InvalidData),
        })
    }

    fn write(dir: &Path, file: &str, value: &str) -> Result<(), SandboxError> {
        let path = dir.join(file);
        fs_err::write(&path, value).map_err(|source| SandboxError::path("write", path, source))
    }

    /// Sets this run's limits (when they changed) and zeroes the counters
    /// it reports.
    pub(super) fn prepare(&mut self, limits: &Limits) -> Result<(), SandboxError> {
        let wanted = (limits.memory_kib, limits.processes);
        if self.applied == Some(wanted) {
            Cgroups::reset_open(&self.memory_peak, "resetting the memory peak")?;
            Cgroups::reset_open(&self.cpu_usage, "resetting the CPU time")?;
            return Ok(());
        }
        self.applied = None;
        let bytes = (limits.memory_kib.saturating_mul(1024)).to_string();
        // memsw (memory + swap) must stay >= memory: raise it first, lower it
        // last. It is missing when swap accounting is off, which is fine.
        let _ = Cgroups::write(&self.memory, "memory.memsw.limit_in_bytes", &bytes);
        Cgroups::write(&self.memory, "memory.limit_in_bytes", &bytes)?;
        let _ = Cgroups::write(&self.memory, "memory.memsw.limit_in_bytes", &bytes);
        Cgroups::write(&self.memory, "memory.max_usage_in_bytes", "0")?;
        Cgroups::write(&self.pids, "pids.max", &limits.processes.max(1).to_string())?;
        Cgroups::write(&self.cpuacct, "cpuacct.usage", "0")?;
        self.applied = Some(wanted);
        Ok(())
    }

    pub(super) fn cpu_time(&self) -> Result<Duration, SandboxError> {
        let what = "reading the CPU time of the run";
        Cgroups::parse_counter(&Cgroups::read_open(&self.cpu_usage, what)?, what)
            .map(Duration::from_nanos)
    }

    pub(super) fn memory_peak_kib(&self) -> Result<u64, SandboxError> {
        let what = "reading the memory peak of the run";
        Cgroups::parse_counter(&Cgroups::read_open(&self.memory_peak, what)?, what)
            .map(|bytes| bytes / 1024)
    }

    /// Whether the OOM killer acted since the last call.
    pub(super) fn oom_killed_since_last(&mut self) -> bool {
        let count = self.oom_kills();
        let killed = count > self.oom_kills_seen;
        self.oom_kills_seen = count;
        killed
    }

    /// How many times the kernel's OOM killer acted in this cgroup.
    fn oom_kills(&self) -> u64 {
        Cgroups::read_open(&self.oom_control, "reading the OOM kill count")
            .ok()
            .and_then(|text| {
                text.lines().find_map(|line| {
                    line.strip_prefix("oom_kill ")
                        .and_then(|count| count.trim().parse().ok())
                })
            })
            .unwrap_or(0)
    }

    /// Every process listed in the group: zombie leaders whose threads
    /// still run included (they are the thread-leader escape of issue #7).
    pub(super) fn members(&self) -> Vec<libc::pid_t> {
        let Ok(text) = fs_err::read_to_string(self.pids.join("cgroup.procs")) else {
            return Vec::new();
        };
        text.lines()
            .filter_map(|line| line.trim().parse::<libc::pid_t>().ok())
            .collect()
    }

    /// Tasks charged to the group, zombies not yet reaped included.
    fn pids_current(&self) -> Result<u64, SandboxError> {
        let what = "reading the process count of the run";
        Cgroups::parse_counter(&Cgroups::read_open(&self.pids_current, what)?, what)
    }

    /// SIGKILLs every member until the group is empty (`pids.current` is
    /// 0): a program that called `setsid`, double-forked, left its process
    /// group or exited its main thread is still a member. Orphans that were
    /// handed to the judge (it is their subreaper) are reaped here, since
    /// an unreaped zombie still counts. `run_group` is the run's process
    /// group, which tells its zombies. Bounded: after [`KILL_GRACE`] the
    /// survivors are an error (JE), never a wait without end.
    pub(super) fn kill_all(&self, run_group: Option<libc::pid_t>) -> Result<(), SandboxError> {
        let deadline = Instant::now() + KILL_GRACE;
        let mut pause = Duration::from_micros(50);
        let mut seen: Vec<libc::pid_t> = Vec::new();
        loop {
            if self.pids_current()? == 0 {
                self.reclaim_stale_memory();
                return Ok(());
            }
            let members = self.members();
            for &pid in &members {
                kill(ProcessTarget::Process(pid));
                if !seen.contains(&pid) {
                    seen.push(pid);
                }
            }
            reap_orphans_of(run_group, &seen);
            if Instant::now() > deadline {
                return Err(SandboxError::Survivors {
                    count: members.len().max(1),
                    cgroup: self.pids.clone(),
                });
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(5));
        }
    }

    /// Reclaims what the last run left charged to the group (page cache of
    /// the files it wrote, say) when it is more than a little, so the next
    /// run's peak starts near zero.
    fn reclaim_stale_memory(&self) {
        let usage = Cgroups::read_open(&self.memory_usage, "reading the memory usage")
            .ok()
            .and_then(|text| text.trim().parse::<u64>().ok())
            .unwrap_or(0);
        if usage > STALE_MEMORY_BYTES {
            let _ = Cgroups::write(&self.memory, "memory.force_empty", "0");
        }
    }
}

impl Drop for Cgroups {
    fn drop(&mut self) {
        let _ = self.kill_all(None);
        for dir in [&self.memory, &self.pids, &self.cpuacct] {
            let _ = fs_err::remove_dir(dir);
        }
    }
}

/// Removes the cgroups of judges that died without cleaning up (killed by
/// SIGKILL, or interrupted while a test's daemon ran), killing what is
/// still inside. Their names carry the judge's pid: `judge-<pid>-<n>`.
fn sweep_stale_cgroups(paths: &CgroupPaths) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for parent in [&paths.pids, &paths.memory, &paths.cpuacct] {
            let Ok(entries) = fs_err::read_dir(parent) else {
                continue;
            };
            for entry in entries.filter_map(Result::ok) {
                let name = entry.file_name().to_string_lossy().into_owned();
                let Some(owner) = name
                    .strip_prefix("judge-")
                    .and_then(|rest| rest.split('-').next())
                    .and_then(|pid| pid.parse::<u32>().ok())
                else {
                    continue;
                };
                if owner == std::process::id() || Path::new(&format!("/proc/{owner}")).exists() {
                    continue;
                }
                let dir = entry.path();
                for _ in 0..100 {
                    let Ok(text) = fs_err::read_to_string(dir.join("cgroup.procs")) else {
                        break;
                    };
                    let pids: Vec<libc::pid_t> = text
                        .lines()
                        .filter_map(|line| line.trim().parse().ok())
                        .collect();
                    if pids.is_empty() {
                        break;
                    }
                    for pid in pids {
                        kill(ProcessTarget::Process(pid));
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
                let _ = fs_err::remove_dir(&dir);
            }
        }
    });
}
