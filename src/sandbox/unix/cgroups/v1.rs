//! cgroup v1: the memory, pids and cpuacct hierarchies, each mounted on its
//! own; a plan may use only some of them (the others come from the unified
//! hierarchy on a hybrid host). A container `judge-<random>` in each,
//! locked, a worker cgroup per worker inside.

use super::{
    charge_start, create_locked, judge_entries, open, open_rw, parse_counter, read_open,
    remove_cgroup, remove_cgroup_tree, try_lock, write, write_open, STALE_MEMORY_BYTES,
};
use crate::sandbox::{Limits, SandboxError};
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A directory in each v1 hierarchy the plan uses (the judge's place in
/// them, or a container or worker below it); `None` for a controller that
/// comes from elsewhere.
#[derive(Clone, Debug, Default)]
pub(super) struct Hierarchies {
    pub(super) memory: Option<PathBuf>,
    pub(super) pids: Option<PathBuf>,
    pub(super) cpuacct: Option<PathBuf>,
}

impl Hierarchies {
    /// The distinct directories, pids first (made first, removed last):
    /// controllers mounted together (`-o memory,pids`) share one.
    fn all(&self) -> impl Iterator<Item = &PathBuf> {
        distinct([&self.pids, &self.memory, &self.cpuacct])
    }

    /// The distinct directories, pids last.
    fn pids_last(&self) -> impl Iterator<Item = &PathBuf> {
        distinct([&self.memory, &self.cpuacct, &self.pids])
    }

    pub(super) fn is_empty(&self) -> bool {
        self.all().next().is_none()
    }

    fn map(&self, change: impl Fn(&PathBuf) -> PathBuf) -> Hierarchies {
        Hierarchies {
            memory: self.memory.as_ref().map(&change),
            pids: self.pids.as_ref().map(&change),
            cpuacct: self.cpuacct.as_ref().map(&change),
        }
    }

    fn join(&self, name: &str) -> Hierarchies {
        self.map(|dir| dir.join(name))
    }

    /// The first directory (for a message).
    pub(super) fn first(&self) -> PathBuf {
        self.all().next().cloned().unwrap_or_default()
    }

    /// A container named `name` in each hierarchy, each locked; the pids
    /// one first, so that a judge of an earlier version, which locks only
    /// that one, sees it as alive. `Ok(None)` when the name is taken.
    pub(super) fn create_container(
        &self,
        name: &str,
    ) -> Result<Option<(Hierarchies, Vec<OwnedFd>)>, SandboxError> {
        let dirs = self.join(name);
        let mut locks = Vec::new();
        let mut made: Vec<&PathBuf> = Vec::new();
        for dir in dirs.all() {
            let undo = |made: &[&PathBuf]| {
                for dir in made.iter().rev() {
                    remove_cgroup(dir);
                }
            };
            match create_locked(dir) {
                Ok(Some(lock)) => {
                    locks.push(lock);
                    made.push(dir);
                }
                Ok(None) => {
                    undo(&made);
                    return Ok(None);
                }
                Err(error) => {
                    undo(&made);
                    return Err(error);
                }
            }
        }
        Ok(Some((dirs, locks)))
    }

    /// Removes this container from its hierarchies (the pids one last,
    /// while the caller still holds the locks).
    pub(super) fn remove_container(&self) {
        for dir in self.pids_last() {
            remove_cgroup(dir);
        }
    }

    /// At the judge's exit: kills and removes the workers still in this
    /// container, then the container.
    pub(super) fn release(&self) {
        for parent in self.pids_last() {
            if let Ok(entries) = fs_err::read_dir(parent) {
                for entry in entries.filter_map(Result::ok) {
                    if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                        remove_cgroup_tree(&entry.path());
                    }
                }
            }
        }
        self.remove_container();
    }

    /// Removes the containers of judges that died without cleaning up
    /// (killed by SIGKILL, or interrupted while a test's daemon ran),
    /// killing what is still inside: those whose lock can be taken, and,
    /// outside the pids hierarchy, whose pids counterpart (if any) is
    /// unlocked too (a judge of an earlier version locks only that one).
    pub(super) fn sweep_stale(&self) {
        for parent in self.all() {
            for dir in judge_entries(parent) {
                let Some(_lock) = try_lock(&dir) else {
                    continue; // a live judge, in whatever PID namespace
                };
                let counterpart = match (&self.pids, dir.file_name()) {
                    (Some(pids), Some(name)) if pids != parent => Some(pids.join(name)),
                    _ => None,
                };
                let _pids_lock = match counterpart.filter(|pids| pids.exists()) {
                    Some(pids) => match try_lock(&pids) {
                        Some(lock) => Some(lock),
                        None => continue,
                    },
                    None => None,
                };
                remove_cgroup_tree(&dir);
            }
        }
    }
}

/// The directories given, each once, in order.
fn distinct(dirs: [&Option<PathBuf>; 3]) -> impl Iterator<Item = &PathBuf> {
    let mut seen: Vec<&PathBuf> = Vec::new();
    for dir in dirs.into_iter().flatten() {
        if !seen.contains(&dir) {
            seen.push(dir);
        }
    }
    seen.into_iter()
}

/// The memory controller's files of a worker whose memory is on v1.
struct Memory {
    dir: PathBuf,
    peak: std::fs::File,
    usage: std::fs::File,
    oom_control: std::fs::File,
    /// The OOM kill count after the previous run.
    oom_kills_seen: u64,
    /// An eventfd the kernel signals when the group runs out of memory
    /// (`cgroup.event_control` on `memory.oom_control`): the supervisor
    /// polls it beside the program's pipes. `None` where the kernel
    /// refused the registration (the OOM kill is then seen at the run's
    /// end, as before).
    oom_event: Option<OwnedFd>,
}

/// One worker's cgroups, one per hierarchy the plan uses.
pub(super) struct Worker {
    dirs: Hierarchies,
    /// `tasks` of each, opened for writing before any fork so the child
    /// joins with one `write` each. Not `cgroup.procs`: a write there
    /// takes the kernel's global lock on every thread group for writing,
    /// which first waits for an RCU grace period whenever no other move
    /// happened within one (8 waits of up to 31 ms in 500 tests at two
    /// workers, each stalling every worker's spawn behind the cgroup
    /// mutex); the child writes `0`, itself, and a thread that moves only
    /// itself needs no such lock. The child is one thread (cloned without
    /// `CLONE_THREAD`), so moving the thread moves the process.
    pub(super) procs: Vec<OwnedFd>,
    /// Counters read or reset on every run, kept open: a run is short
    /// enough that opening files shows in the per-test overhead.
    memory: Option<Memory>,
    pids_current: Option<std::fs::File>,
    cpu_usage: Option<std::fs::File>,
    /// `cpuacct.usage` (ns) where this run's charge starts.
    cpu_before: u64,
    /// The memory (KiB) and process limits last written.
    applied: Option<(u64, u32)>,
}

fn missing(what: &'static str) -> SandboxError {
    SandboxError::Syscall {
        syscall: "pread",
        purpose: what,
        source: io::Error::from(io::ErrorKind::NotFound),
    }
}

impl Worker {
    pub(super) fn create(container: &Hierarchies, name: &str) -> Result<Worker, SandboxError> {
        let dirs = container.join(name);
        let mut made: Vec<&PathBuf> = Vec::new();
        for dir in dirs.all() {
            if let Err(source) = fs_err::create_dir(dir) {
                for dir in made {
                    let _ = fs_err::remove_dir(dir);
                }
                return Err(SandboxError::path("create cgroup", dir, source));
            }
            made.push(dir);
        }
        let opened = (|| -> Result<_, SandboxError> {
            let procs = dirs
                .all()
                .map(|dir| open(dir.join("tasks"), true).map(OwnedFd::from))
                .collect::<Result<Vec<_>, _>>()?;
            let memory = match &dirs.memory {
                Some(dir) => Some(Memory {
                    dir: dir.clone(),
                    peak: open_rw(dir.join("memory.max_usage_in_bytes"))?,
                    usage: open(dir.join("memory.usage_in_bytes"), false)?,
                    oom_control: open(dir.join("memory.oom_control"), false)?,
                    oom_kills_seen: 0,
                    oom_event: None,
                }),
                None => None,
            };
            let pids_current = match &dirs.pids {
                Some(dir) => Some(open(dir.join("pids.current"), false)?),
                None => None,
            };
            let cpu_usage = match &dirs.cpuacct {
                Some(dir) => Some(open_rw(dir.join("cpuacct.usage"))?),
                None => None,
            };
            Ok((procs, memory, pids_current, cpu_usage))
        })();
        let (procs, memory, pids_current, cpu_usage) = match opened {
            Ok(files) => files,
            Err(error) => {
                dirs.remove_container();
                return Err(error);
            }
        };
        let mut worker = Worker {
            dirs,
            procs,
            memory,
            pids_current,
            cpu_usage,
            cpu_before: 0,
            applied: None,
        };
        if let Some(memory) = &mut worker.memory {
            memory.oom_kills_seen = memory.oom_kills();
            memory.oom_event = memory.watch_oom();
        }
        Ok(worker)
    }

    /// Sets the limits of the controllers here (when they changed) and
    /// zeroes the counters the run reports.
    pub(super) fn prepare(&mut self, limits: &Limits) -> Result<(), SandboxError> {
        let wanted = (limits.memory_kib, limits.processes);
        if self.applied != Some(wanted) {
            self.applied = None;
            if let Some(memory) = &self.memory {
                let bytes = (limits.memory_kib.saturating_mul(1024)).to_string();
                // memsw (memory + swap) must stay >= memory: raise it first,
                // lower it last. It is missing when swap accounting is off,
                // which is fine.
                let _ = write(&memory.dir, "memory.memsw.limit_in_bytes", &bytes);
                write(&memory.dir, "memory.limit_in_bytes", &bytes)?;
                let _ = write(&memory.dir, "memory.memsw.limit_in_bytes", &bytes);
            }
            if let Some(pids) = &self.dirs.pids {
                write(pids, "pids.max", &limits.processes.max(1).to_string())?;
            }
            self.applied = Some(wanted);
        }
        if let Some(memory) = &self.memory {
            write_open(&memory.peak, b"0", "resetting the memory peak")?;
            // An event of the last run (signalled after the supervisor
            // stopped looking) is not this run's.
            memory.drain_oom_event();
        }
        if let Some(cpu) = &self.cpu_usage {
            write_open(cpu, b"0", "resetting the CPU time")?;
        }
        self.cpu_before = 0;
        Ok(())
    }

    /// `cpuacct.usage`, for the program to read just before `execve`.
    pub(super) fn cpu_counter_fd(&self) -> RawFd {
        self.cpu_usage.as_ref().map_or(-1, AsRawFd::as_raw_fd)
    }

    /// Starts the charge at `text`, `cpuacct.usage` as the program read it.
    pub(super) fn start_charge_at(&mut self, text: &str) {
        let at_exec = parse_counter(text, "reading the CPU time at execve").ok();
        self.cpu_before = charge_start(self.cpu_before, at_exec);
    }

    pub(super) fn cpu_time(&self) -> Result<Duration, SandboxError> {
        let what = "reading the CPU time of the run";
        let cpu = self.cpu_usage.as_ref().ok_or_else(|| missing(what))?;
        parse_counter(&read_open(cpu, what)?, what)
            .map(|now| Duration::from_nanos(now.saturating_sub(self.cpu_before)))
    }

    pub(super) fn memory_peak_kib(&self) -> Result<u64, SandboxError> {
        let what = "reading the memory peak of the run";
        let memory = self.memory.as_ref().ok_or_else(|| missing(what))?;
        parse_counter(&read_open(&memory.peak, what)?, what).map(|bytes| bytes / 1024)
    }

    pub(super) fn oom_killed_since_last(&mut self) -> bool {
        let Some(memory) = &mut self.memory else {
            return false;
        };
        let count = memory.oom_kills();
        let killed = count > memory.oom_kills_seen;
        memory.oom_kills_seen = count;
        killed
    }

    /// The eventfd that becomes readable when the group runs out of
    /// memory (see [`Memory::oom_event`]).
    pub(super) fn oom_event_fd(&self) -> Option<BorrowedFd<'_>> {
        self.memory.as_ref()?.oom_event.as_ref().map(AsFd::as_fd)
    }

    pub(super) fn pids_current(&self) -> Result<u64, SandboxError> {
        let what = "reading the process count of the run";
        let file = self.pids_current.as_ref().ok_or_else(|| missing(what))?;
        parse_counter(&read_open(file, what)?, what)
    }

    /// The pids cgroup, whose `cgroup.procs` lists the members.
    pub(super) fn pids_dir(&self) -> Option<&Path> {
        self.dirs.pids.as_deref()
    }

    /// The first of the worker's cgroups (whose `cgroup.procs` lists the
    /// members when pids is elsewhere).
    pub(super) fn any_dir(&self) -> &Path {
        self.dirs
            .all()
            .next()
            .map_or(Path::new("/"), PathBuf::as_path)
    }

    /// Reclaims what the last run left charged to the group (page cache of
    /// the files it wrote, say) when it is more than a little, so the next
    /// run's peak starts near zero.
    pub(super) fn reclaim_stale_memory(&self) {
        let Some(memory) = &self.memory else {
            return;
        };
        let usage = read_open(&memory.usage, "reading the memory usage")
            .ok()
            .and_then(|text| text.trim().parse::<u64>().ok())
            .unwrap_or(0);
        if usage > STALE_MEMORY_BYTES {
            let _ = write(&memory.dir, "memory.force_empty", "0");
        }
    }
}

impl Memory {
    /// Registers an eventfd for the group's OOM notifications. v1 has no
    /// `memory.oom.group`: its OOM killer takes one process (the largest)
    /// and lets the rest of the tree go on, so a tree of processes each
    /// under the limit (eight children of 200 MB under 256 MiB) loses one
    /// child after another and keeps running, at its limit, until the wall
    /// clock ends it. Told at once, the supervisor ends the whole run as
    /// v2's group kill does (issue #31).
    fn watch_oom(&self) -> Option<OwnedFd> {
        use rustix::event::{eventfd, EventfdFlags};
        let event = eventfd(0, EventfdFlags::CLOEXEC | EventfdFlags::NONBLOCK).ok()?;
        let line = format!("{} {}", event.as_raw_fd(), self.oom_control.as_raw_fd());
        write(&self.dir, "cgroup.event_control", &line).ok()?;
        Some(event)
    }

    /// Reads the OOM eventfd, which makes it unreadable again (the
    /// supervisor only polls it, and ends the run once it is readable).
    fn drain_oom_event(&self) {
        if let Some(event) = &self.oom_event {
            let mut count = [0u8; 8];
            let _ = rustix::io::read(event, &mut count);
        }
    }

    /// How many times the kernel's OOM killer acted in this cgroup.
    fn oom_kills(&self) -> u64 {
        read_open(&self.oom_control, "reading the OOM kill count")
            .ok()
            .and_then(|text| super::keyed(&text, "oom_kill"))
            .unwrap_or(0)
    }
}

impl Drop for Worker {
    /// Removes the cgroups (the worker emptied them before; see
    /// [`super::Cgroups`]).
    fn drop(&mut self) {
        self.dirs.remove_container();
    }
}
