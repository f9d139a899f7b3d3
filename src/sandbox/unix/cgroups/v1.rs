//! cgroup v1: the memory, pids and cpuacct hierarchies, each mounted on its
//! own. A container `judge-<random>` in each (locked in the pids one), a
//! worker cgroup per worker inside.

use super::{
    create_locked, judge_entries, kill_until_empty, open, open_rw, parse_counter, read_open,
    remove_cgroup, remove_cgroup_tree, try_lock, write, write_open, Membership, STALE_MEMORY_BYTES,
};
use crate::sandbox::{Limits, SandboxError};
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A directory in each of the three hierarchies: the judge's place in
/// them, or a container below it.
#[derive(Clone, Debug)]
pub(super) struct Hierarchies {
    pub(super) memory: PathBuf,
    pub(super) pids: PathBuf,
    pub(super) cpuacct: PathBuf,
}

impl Hierarchies {
    /// Where this process sits in each controller's v1 hierarchy; `None`
    /// when one of the three is not mounted as v1 (cgroups are made there:
    /// the judge may itself be confined to a cgroup).
    pub(super) fn locate() -> Option<Hierarchies> {
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
        Some(Hierarchies {
            memory: locate("memory")?,
            pids: locate("pids")?,
            cpuacct: locate("cpuacct")?,
        })
    }

    fn all(&self) -> [&PathBuf; 3] {
        [&self.pids, &self.memory, &self.cpuacct]
    }

    fn join(&self, name: &str) -> Hierarchies {
        Hierarchies {
            memory: self.memory.join(name),
            pids: self.pids.join(name),
            cpuacct: self.cpuacct.join(name),
        }
    }

    /// The directories these are in (for a container: the judge's place).
    pub(super) fn parents(&self) -> Hierarchies {
        let parent = |path: &PathBuf| {
            path.parent()
                .map_or_else(|| path.clone(), Path::to_path_buf)
        };
        Hierarchies {
            memory: parent(&self.memory),
            pids: parent(&self.pids),
            cpuacct: parent(&self.cpuacct),
        }
    }

    /// A container named `name` in each hierarchy, locked in the pids one
    /// (made first, removed last, so a memory or cpuacct container without
    /// a pids one is always stale). `Ok(None)` when the name is taken.
    pub(super) fn create_container(
        &self,
        name: &str,
    ) -> Result<Option<(Hierarchies, OwnedFd)>, SandboxError> {
        let dirs = self.join(name);
        let Some(lock) = create_locked(&dirs.pids)? else {
            return Ok(None);
        };
        for dir in [&dirs.memory, &dirs.cpuacct] {
            if let Err(source) = fs_err::create_dir(dir) {
                dirs.remove_container();
                return Err(SandboxError::path("create cgroup", dir, source));
            }
        }
        Ok(Some((dirs, lock)))
    }

    /// Removes this container from the three hierarchies (the pids one
    /// last, while its lock is still held by the caller).
    pub(super) fn remove_container(&self) {
        for dir in [&self.memory, &self.cpuacct, &self.pids] {
            remove_cgroup(dir);
        }
    }

    /// At the judge's exit: kills and removes the workers still in this
    /// container, then the container.
    pub(super) fn release(&self) {
        for parent in [&self.memory, &self.cpuacct, &self.pids] {
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
    /// killing what is still inside: those whose lock in the pids hierarchy
    /// can be taken, and memory or cpuacct ones with no pids one.
    pub(super) fn sweep_stale(&self) {
        for dir in judge_entries(&self.pids) {
            let Some(_lock) = try_lock(&dir) else {
                continue; // a live judge, in whatever PID namespace
            };
            let Some(name) = dir.file_name() else {
                continue;
            };
            for parent in [&self.memory, &self.cpuacct] {
                remove_cgroup_tree(&parent.join(name));
            }
            remove_cgroup_tree(&dir);
        }
        for parent in [&self.memory, &self.cpuacct] {
            for dir in judge_entries(parent) {
                let Some(name) = dir.file_name() else {
                    continue;
                };
                if !self.pids.join(name).exists() {
                    remove_cgroup_tree(&dir);
                }
            }
        }
    }
}

/// One worker's cgroups, one per hierarchy.
pub(super) struct Worker {
    dirs: Hierarchies,
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
        // From here on Drop removes the directories.
        let opened = (|| -> Result<_, SandboxError> {
            let procs = |dir: &Path| open(dir.join("cgroup.procs"), true).map(OwnedFd::from);
            Ok((
                [
                    procs(&dirs.memory)?,
                    procs(&dirs.pids)?,
                    procs(&dirs.cpuacct)?,
                ],
                open_rw(dirs.cpuacct.join("cpuacct.usage"))?,
                open_rw(dirs.memory.join("memory.max_usage_in_bytes"))?,
                open(dirs.memory.join("memory.usage_in_bytes"), false)?,
                open(dirs.pids.join("pids.current"), false)?,
                open(dirs.memory.join("memory.oom_control"), false)?,
            ))
        })();
        let (procs, cpu_usage, memory_peak, memory_usage, pids_current, oom_control) = match opened
        {
            Ok(files) => files,
            Err(error) => {
                for dir in [&dirs.memory, &dirs.cpuacct, &dirs.pids] {
                    let _ = fs_err::remove_dir(dir);
                }
                return Err(error);
            }
        };
        let mut worker = Worker {
            dirs,
            procs,
            cpu_usage,
            memory_peak,
            memory_usage,
            pids_current,
            oom_control,
            oom_kills_seen: 0,
            applied: None,
        };
        worker.oom_kills_seen = worker.oom_kills();
        Ok(worker)
    }

    pub(super) fn prepare(&mut self, limits: &Limits) -> Result<(), SandboxError> {
        let wanted = (limits.memory_kib, limits.processes);
        if self.applied == Some(wanted) {
            write_open(&self.memory_peak, b"0", "resetting the memory peak")?;
            write_open(&self.cpu_usage, b"0", "resetting the CPU time")?;
            return Ok(());
        }
        self.applied = None;
        let bytes = (limits.memory_kib.saturating_mul(1024)).to_string();
        let memory = &self.dirs.memory;
        // memsw (memory + swap) must stay >= memory: raise it first, lower it
        // last. It is missing when swap accounting is off, which is fine.
        let _ = write(memory, "memory.memsw.limit_in_bytes", &bytes);
        write(memory, "memory.limit_in_bytes", &bytes)?;
        let _ = write(memory, "memory.memsw.limit_in_bytes", &bytes);
        write_open(&self.memory_peak, b"0", "resetting the memory peak")?;
        write(
            &self.dirs.pids,
            "pids.max",
            &limits.processes.max(1).to_string(),
        )?;
        write_open(&self.cpu_usage, b"0", "resetting the CPU time")?;
        self.applied = Some(wanted);
        Ok(())
    }

    pub(super) fn cpu_time(&self) -> Result<Duration, SandboxError> {
        let what = "reading the CPU time of the run";
        parse_counter(&read_open(&self.cpu_usage, what)?, what).map(Duration::from_nanos)
    }

    pub(super) fn memory_peak_kib(&self) -> Result<u64, SandboxError> {
        let what = "reading the memory peak of the run";
        parse_counter(&read_open(&self.memory_peak, what)?, what).map(|bytes| bytes / 1024)
    }

    pub(super) fn oom_killed_since_last(&mut self) -> bool {
        let count = self.oom_kills();
        let killed = count > self.oom_kills_seen;
        self.oom_kills_seen = count;
        killed
    }

    /// How many times the kernel's OOM killer acted in this cgroup.
    fn oom_kills(&self) -> u64 {
        read_open(&self.oom_control, "reading the OOM kill count")
            .ok()
            .and_then(|text| super::keyed(&text, "oom_kill"))
            .unwrap_or(0)
    }
}

impl Membership for Worker {
    fn pids_current(&self) -> Result<u64, SandboxError> {
        let what = "reading the process count of the run";
        parse_counter(&read_open(&self.pids_current, what)?, what)
    }

    fn kill_by_group(&self) -> bool {
        false
    }

    fn procs_dir(&self) -> &Path {
        &self.dirs.pids
    }

    /// Reclaims what the last run left charged to the group (page cache of
    /// the files it wrote, say) when it is more than a little, so the next
    /// run's peak starts near zero.
    fn reclaim_stale_memory(&self) {
        let usage = read_open(&self.memory_usage, "reading the memory usage")
            .ok()
            .and_then(|text| text.trim().parse::<u64>().ok())
            .unwrap_or(0);
        if usage > STALE_MEMORY_BYTES {
            let _ = write(&self.dirs.memory, "memory.force_empty", "0");
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = kill_until_empty(self, None);
        for dir in [&self.dirs.memory, &self.dirs.cpuacct, &self.dirs.pids] {
            remove_cgroup(dir);
        }
    }
}
