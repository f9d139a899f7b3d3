//! cgroup v2: the unified hierarchy, as root or in a subtree delegated to
//! the invoking user. A container `judge-<random>` with the controllers the
//! plan puts here (memory and pids, or one of them on a hybrid host; cpu
//! where offered) enabled for its children, a worker cgroup per worker
//! inside. The tree's CPU time (`cpu.stat`) needs no controller.
//!
//! Where the container goes ([`Base::locate`]), given v2's rule that a
//! cgroup with processes enables no controller for its children (the root
//! cgroup excepted):
//!
//! 1. the judge is in the root cgroup: the container goes below it;
//! 2. the judge is alone in its cgroup (a `systemd-run --scope` of its
//!    own, a container): the judge moves itself into a leaf `main` of the
//!    container, so its cgroup can hand the controllers down. The
//!    container then lives as long as the judge (removed with the scope,
//!    or swept by the next judge);
//! 3. the judge shares its cgroup (a login session's scope, a CI runner's
//!    service) but may write the parent: the container goes next to the
//!    judge's cgroup, below the parent, which already hands down the
//!    controllers the judge's cgroup has;
//! 4. otherwise there is no usable place, and the note says why.
//!
//! Per worker, every file a test needs is opened once; a test reads and
//! writes only those (`pids.current`, `cpu.stat`, `memory.peak` or
//! `memory.current`, `memory.events`, `cgroup.kill`).

use super::unusable::V2Unusable;
use super::{
    charge_start, create_locked, judge_entries, keyed, open, parse_counter, read_open,
    remove_cgroup, remove_cgroup_tree, try_lock, write, write_open, STALE_MEMORY_BYTES,
};
use crate::sandbox::{Limits, SandboxError};
use std::cell::Cell;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Where containers are made, and how.
#[derive(Clone, Debug)]
pub(super) struct Base {
    /// The directory containers are made in.
    pub(super) dir: PathBuf,
    /// Not root: the subtree is delegated to the invoking user.
    pub(super) delegated: bool,
    /// Case 2: the judge moves itself into the container's `main` leaf and
    /// enables the controllers in `dir` (its former cgroup).
    move_judge: bool,
    /// The controllers to enable below `dir` and below each container.
    controllers: Vec<String>,
    /// Why no controller can be enabled below `dir` (its
    /// `cgroup.subtree_control` is not writable): the containers then only
    /// hold the tree (membership, `cgroup.kill`, `cpu.stat`).
    locked: Option<String>,
    /// Case 2b: `dir` is a cgroup namespace's root that also holds other
    /// processes (how many were seen): they are moved into a leaf
    /// [`EVICTED_LEAF`] of their own first, as Docker-in-Docker's
    /// entrypoint does, and moved back when the judge ends.
    evict: Option<usize>,
}

/// The leaf the other processes of a cgroup namespace's root are moved to
/// (the name Docker-in-Docker's entrypoint uses; never `judge-*`, which a
/// sweep would take for a dead judge's).
pub(super) const EVICTED_LEAF: &str = "init";

/// Why the judge's cgroup `own` cannot give the `missing` controllers (it
/// offers `offered`).
pub(super) fn missing_message(
    missing: &[&str],
    own: &Path,
    offered: &[String],
    root: bool,
) -> String {
    format!(
        "the {} controller{} not {} the judge's cgroup `{}` (it has: {})",
        missing.join(" and "),
        if missing.len() > 1 { "s are" } else { " is" },
        if root { "enabled for" } else { "delegated to" },
        own.display(),
        if offered.is_empty() {
            "none".to_owned()
        } else {
            offered.join(" ")
        },
    )
}

impl Base {
    /// Where this process can keep its cgroups on the unified hierarchy
    /// mounted at `mount`, given its own cgroup `own` (which offers
    /// `offered`) and the controllers the plan puts here (`placed`; `cpu`
    /// is enabled too where offered), or a one-line reason why it cannot.
    pub(super) fn locate(
        mount: &Path,
        own: PathBuf,
        offered: &[String],
        placed: &[&str],
        root: bool,
        writable: &dyn Fn(&Path) -> bool,
    ) -> Result<Base, V2Unusable> {
        let mut controllers: Vec<String> = placed.iter().map(|c| (*c).to_owned()).collect();
        if offered.iter().any(|c| c == "cpu") {
            controllers.push("cpu".to_owned());
        }
        if mounted_read_only(mount) {
            return Err(V2Unusable::ReadOnly(mount.to_owned()));
        }
        let delegated = !root;
        let base = |dir: PathBuf, move_judge: bool| Base {
            dir,
            delegated,
            move_judge,
            controllers: controllers.clone(),
            locked: None,
            evict: None,
        };
        // The root cgroup has no `cgroup.type`, and may hold processes and
        // hand down controllers at once.
        if !own.join("cgroup.type").exists() {
            return if writable(&own.join("cgroup.subtree_control")) {
                Ok(base(own, false))
            } else {
                Err(V2Unusable::RootNotWritable(own))
            };
        }
        let own_movable = writable(&own) && writable(&own.join("cgroup.procs"));
        let subtree = own.join("cgroup.subtree_control");
        let own_writable = own_movable && writable(&subtree);
        let others = others_in(&own);
        if own_writable && others.is_empty() {
            return Ok(base(own, true));
        }
        let parent = own.parent().map(Path::to_path_buf);
        if let Some(parent) = parent.clone().filter(|parent| {
            parent.starts_with(mount) && writable(parent) && writable(&parent.join("cgroup.procs"))
        }) {
            return Ok(base(parent, false));
        }
        // The root of a cgroup namespace (a container's cgroup, `0::/`),
        // shared with other processes (`docker exec`, a shell that started
        // the judge): there is no parent to go next to, so the others move
        // into a leaf of their own and the root can hand controllers down.
        let namespace_root = parent.is_none_or(|parent| !parent.starts_with(mount));
        if own_writable && namespace_root && !controllers.is_empty() {
            let mut evicting = base(own, true);
            evicting.evict = Some(others.len());
            return Ok(evicting);
        }
        // Delegated in part: the judge may make cgroups below its own and
        // move into them, but enable no controller there. Still a cgroup
        // per run, for its CPU time and its kill; no limits by it.
        if own_movable && others.is_empty() {
            let mut partial = base(own, true);
            if !partial.controllers.is_empty() {
                partial.controllers.clear();
                partial.locked = Some(format!(
                    "`{}` is not writable{}",
                    subtree.display(),
                    if root { "" } else { " by this user" }
                ));
            }
            return Ok(partial);
        }
        if own_writable {
            Err(V2Unusable::Crowded {
                own,
                others: others.len(),
            })
        } else {
            let owner =
                fs_err::metadata(&own).map_or_else(|_| "?".to_owned(), |m| m.uid().to_string());
            Err(V2Unusable::NotDelegated { own, owner })
        }
    }

    /// Why no controller is enabled below the judge's cgroup, when its
    /// `cgroup.subtree_control` cannot be written.
    pub(super) fn locked_subtree(&self) -> Option<&str> {
        self.locked.as_deref()
    }

    /// The start-up note when the judge moves the other processes of its
    /// cgroup namespace's root into a leaf of their own.
    pub(super) fn eviction_note(&self) -> Option<String> {
        let count = self.evict?;
        Some(format!(
            "cgroup v2: the judge's cgroup `{dir}` is the root of its cgroup namespace and also \
             held {count} other process(es): they were moved into `{leaf}` (as \
             Docker-in-Docker's entrypoint does) so that `{dir}` can hand the {controllers} \
             controllers down; they are moved back when the judge ends",
            dir = self.dir.display(),
            leaf = self.dir.join(EVICTED_LEAF).display(),
            controllers = self.controllers.join(", "),
        ))
    }

    /// Whether containers here get `controller`.
    pub(super) fn enables(&self, controller: &str) -> bool {
        self.controllers.iter().any(|c| c == controller)
    }

    /// A container named `name`, locked, with the controllers enabled for
    /// its children. `Ok(None)` when the name is taken.
    pub(super) fn create_container(
        &self,
        name: &str,
    ) -> Result<Option<(Container, OwnedFd)>, SandboxError> {
        let dir = self.dir.join(name);
        let Some(lock) = create_locked(&dir)? else {
            return Ok(None);
        };
        let container = Container {
            base: self.clone(),
            dir,
            holds_judge: false,
            enabled_in_base: Vec::new(),
            evicted: None,
        };
        match container.set_up(self) {
            Ok(container) => Ok(Some((container, lock))),
            Err(error) => Err(error),
        }
    }

    /// Removes the containers of judges that died (whose lock can be
    /// taken), killing what is still inside.
    pub(super) fn sweep_stale(&self) {
        for dir in judge_entries(&self.dir) {
            if let Some(_lock) = try_lock(&dir) {
                remove_cgroup_tree(&dir);
            }
        }
    }
}

/// This process's container on the unified hierarchy.
pub(super) struct Container {
    pub(super) base: Base,
    pub(super) dir: PathBuf,
    /// The judge process moved itself into `dir/main`: the container can
    /// only go with the judge, which moves back out at exit
    /// ([`Container::release`]).
    pub(super) holds_judge: bool,
    /// The controllers this judge enabled in `base.dir` to move into `main`
    /// (disabled again when it moves back).
    enabled_in_base: Vec<String>,
    /// The other processes this judge moved out of `base.dir` (case 2b),
    /// moved back at exit.
    evicted: Option<Evicted>,
}

/// The other processes of a cgroup namespace's root, moved into
/// [`EVICTED_LEAF`].
#[derive(Clone, Debug, Default)]
struct Evicted {
    /// The leaf was made by this judge: at exit every process in it goes
    /// back (the children the moved ones forked since too) and it is
    /// removed. Otherwise only the processes moved are moved back.
    made_leaf: bool,
    moved: Vec<libc::pid_t>,
}

impl Container {
    fn set_up(mut self, base: &Base) -> Result<Container, SandboxError> {
        let enable: String = base
            .controllers
            .iter()
            .map(|controller| format!("+{controller} "))
            .collect();
        let enable = enable.trim_end();
        let result = (|| {
            if base.move_judge {
                let main = self.dir.join("main");
                fs_err::create_dir(&main)
                    .map_err(|source| SandboxError::path("create cgroup", &main, source))?;
                // Every thread of the judge moves with its pid.
                write(&main, "cgroup.procs", &std::process::id().to_string())?;
                self.holds_judge = true;
                if base.evict.is_some() {
                    self.evicted = Some(evict_others(&base.dir)?);
                }
                self.enabled_in_base = write_subtree_control(&base.dir, enable)?;
            } else if !base.dir.join("cgroup.type").exists() {
                // The root cgroup: hand the controllers down if not yet
                // (left so: other judges may rely on it).
                write_subtree_control(&base.dir, enable)?;
            }
            write_subtree_control(&self.dir, enable).map(drop)
        })();
        match result {
            Ok(()) => Ok(self),
            Err(error) => {
                if self.holds_judge {
                    // Back as it was found: the judge in its cgroup, the
                    // other processes with it.
                    self.release();
                } else {
                    self.remove();
                }
                Err(error)
            }
        }
    }

    /// Removes the container (its workers are gone by now), unless the
    /// judge itself sits in it.
    pub(super) fn remove(&self) {
        if !self.holds_judge {
            remove_cgroup(&self.dir);
        }
    }

    /// At the judge's exit: kills and removes the workers still there; when
    /// the judge sits in `main`, hands its cgroup back as it found it (the
    /// controllers it enabled disabled again, v2 allowing no process in a
    /// cgroup that hands controllers down) and moves back into it, so that
    /// `main` and the container can go. Nothing of this judge is left.
    pub(super) fn release(&self) {
        for child in children(&self.dir) {
            if child.file_name().is_none_or(|name| name != "main") {
                remove_cgroup_tree(&child);
            }
        }
        if self.holds_judge {
            let disable = |controllers: &[String]| -> String {
                let list: Vec<String> = controllers.iter().map(|c| format!("-{c}")).collect();
                list.join(" ")
            };
            let _ = fs_err::write(
                self.dir.join("cgroup.subtree_control"),
                disable(&self.base.controllers),
            );
            if !self.enabled_in_base.is_empty() {
                let _ = fs_err::write(
                    self.base.dir.join("cgroup.subtree_control"),
                    disable(&self.enabled_in_base),
                );
            }
            if write(
                &self.base.dir,
                "cgroup.procs",
                &std::process::id().to_string(),
            )
            .is_err()
            {
                return; // still inside: the next judge's sweep removes it
            }
            remove_cgroup(&self.dir.join("main"));
            if let Some(evicted) = &self.evicted {
                restore_others(&self.base.dir, evicted);
            }
        }
        remove_cgroup(&self.dir);
    }
}

/// Moves every process of `dir` but the judge into `dir/init` (made if
/// missing), until none is left (a process may fork while the others
/// move), so that `dir` may hand controllers down.
fn evict_others(dir: &Path) -> Result<Evicted, SandboxError> {
    let leaf = dir.join(EVICTED_LEAF);
    let made_leaf = match fs_err::create_dir(&leaf) {
        Ok(()) => true,
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => false,
        Err(source) => return Err(SandboxError::path("create cgroup", &leaf, source)),
    };
    let mut evicted = Evicted {
        made_leaf,
        moved: Vec::new(),
    };
    for _ in 0..64 {
        let others = others_in(dir);
        if others.is_empty() {
            return Ok(evicted);
        }
        for pid in others {
            match write(&leaf, "cgroup.procs", &pid.to_string()) {
                Ok(()) => evicted.moved.push(pid),
                // Gone meanwhile.
                Err(_) if !Path::new(&format!("/proc/{pid}")).exists() => {}
                Err(error) => {
                    restore_others(dir, &evicted);
                    return Err(error);
                }
            }
        }
    }
    restore_others(dir, &evicted);
    Err(SandboxError::path(
        "move the other processes out of",
        dir,
        io::Error::other("they keep forking"),
    ))
}

/// Moves the processes [`evict_others`] moved back into `dir`, and removes
/// the leaf it made. Fails quietly where `dir` still hands controllers
/// down (another judge's cgroups in it): v2 then allows no process there.
fn restore_others(dir: &Path, evicted: &Evicted) {
    let leaf = dir.join(EVICTED_LEAF);
    let pids = if evicted.made_leaf {
        super::members(&leaf)
    } else {
        evicted.moved.clone()
    };
    for pid in pids {
        let _ = write(dir, "cgroup.procs", &pid.to_string());
    }
    if evicted.made_leaf && super::members(&leaf).is_empty() {
        remove_cgroup(&leaf);
    }
}

/// The cgroups directly below `dir`.
fn children(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs_err::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
        .map(|entry| entry.path())
        .collect()
}

/// Enables controllers for the children of `dir`, unless they already are;
/// returns those it enabled.
fn write_subtree_control(dir: &Path, enable: &str) -> Result<Vec<String>, SandboxError> {
    let path = dir.join("cgroup.subtree_control");
    let current = fs_err::read_to_string(&path).unwrap_or_default();
    let enabled: Vec<&str> = current.split_whitespace().collect();
    let added: Vec<String> = enable
        .split_whitespace()
        .map(|wanted| wanted.trim_start_matches('+'))
        .filter(|wanted| !enabled.contains(wanted))
        .map(str::to_owned)
        .collect();
    if added.is_empty() {
        return Ok(added);
    }
    fs_err::write(&path, enable)
        .map_err(|source| SandboxError::path("enable the controllers in", path, source))?;
    Ok(added)
}

/// Whether the effective user may write `path` (a cgroup directory or one
/// of its files): delegation is ownership, which `access` checks.
pub(super) fn writable(path: &Path) -> bool {
    rustix::fs::accessat(
        rustix::fs::CWD,
        path,
        rustix::fs::Access::WRITE_OK,
        rustix::fs::AtFlags::EACCESS,
    )
    .is_ok()
}

/// Whether the file system holding `path` is mounted read-only (which
/// `access` would report as a cgroup not writable, root or not).
fn mounted_read_only(path: &Path) -> bool {
    rustix::fs::statvfs(path)
        .is_ok_and(|stat| stat.f_flag.contains(rustix::fs::StatVfsMountFlags::RDONLY))
}

/// The processes in `dir` other than the judge.
fn others_in(dir: &Path) -> Vec<libc::pid_t> {
    let own = std::process::id() as libc::pid_t;
    super::members(dir)
        .into_iter()
        .filter(|&pid| pid != own)
        .collect()
}

/// Where a run's memory peak comes from.
enum Peak {
    /// `memory.peak` that a write resets for this descriptor (Linux 6.12+).
    Resettable(std::fs::File),
    /// `memory.peak` over the cgroup's life (5.19 to 6.11): a run's peak is
    /// it when the run set a new record, else the largest `memory.current`
    /// seen while the run was watched.
    Lifetime {
        file: std::fs::File,
        before: Cell<u64>,
    },
    /// No `memory.peak` (before 5.19): the largest `memory.current` seen.
    Sampled,
}

/// The memory controller's files of a worker whose memory is on v2.
struct Memory {
    max: std::fs::File,
    current: std::fs::File,
    events: std::fs::File,
    /// `memory.reclaim` (Linux 5.19+).
    reclaim: Option<std::fs::File>,
    peak: Peak,
    /// The largest `memory.current` read during the run (bytes).
    sampled: Cell<u64>,
    oom_kills_seen: u64,
}

/// The pids controller's files of a worker whose pids are on v2.
struct Pids {
    max: std::fs::File,
    current: std::fs::File,
}

/// One worker's cgroup on the unified hierarchy, with the controllers the
/// plan puts there (its CPU time is always there, in `cpu.stat`).
pub(super) struct Worker {
    pub(super) dir: PathBuf,
    /// `cgroup.procs`, opened for writing before any fork so the child
    /// joins with one `write`.
    pub(super) procs: OwnedFd,
    memory: Option<Memory>,
    pids: Option<Pids>,
    cpu_stat: std::fs::File,
    /// `cgroup.events`, whose `populated` tells an empty group where no
    /// pids controller counts its tasks.
    events: std::fs::File,
    /// `cgroup.kill` (Linux 5.14+).
    kill: Option<std::fs::File>,
    /// `usage_usec` when the run started.
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
    pub(super) fn create(container: &Container, name: &str) -> Result<Worker, SandboxError> {
        let dir = container.dir.join(name);
        fs_err::create_dir(&dir)
            .map_err(|source| SandboxError::path("create cgroup", &dir, source))?;
        let base = &container.base;
        match Worker::open_files(dir.clone(), base.enables("memory"), base.enables("pids")) {
            Ok(worker) => Ok(worker),
            Err(error) => {
                remove_cgroup(&dir);
                Err(error)
            }
        }
    }

    fn open_files(dir: PathBuf, memory: bool, pids: bool) -> Result<Worker, SandboxError> {
        let optional = |file: &str| {
            fs_err::OpenOptions::new()
                .write(true)
                .open(dir.join(file))
                .ok()
                .map(|file| file.into_parts().0)
        };
        let memory = if memory {
            Some(Memory::open(&dir, optional("memory.reclaim"))?)
        } else {
            None
        };
        let pids = if pids {
            Some(Pids {
                max: open(dir.join("pids.max"), true)?,
                current: open(dir.join("pids.current"), false)?,
            })
        } else {
            None
        };
        Ok(Worker {
            procs: OwnedFd::from(open(dir.join("cgroup.procs"), true)?),
            memory,
            pids,
            cpu_stat: open(dir.join("cpu.stat"), false)?,
            events: open(dir.join("cgroup.events"), false)?,
            kill: optional("cgroup.kill"),
            cpu_before: 0,
            applied: None,
            dir,
        })
    }

    /// Sets the limits of the controllers here (when they changed) and
    /// starts this run's counters.
    pub(super) fn prepare(&mut self, limits: &Limits) -> Result<(), SandboxError> {
        let wanted = (limits.memory_kib, limits.processes);
        if self.applied != Some(wanted) {
            self.applied = None;
            if let Some(memory) = &self.memory {
                let bytes = limits.memory_kib.saturating_mul(1024).to_string();
                write_open(&memory.max, bytes.as_bytes(), "setting the memory limit")?;
            }
            if let Some(pids) = &self.pids {
                let processes = limits.processes.max(1).to_string();
                write_open(&pids.max, processes.as_bytes(), "setting the process limit")?;
            }
            self.applied = Some(wanted);
        }
        if let Some(memory) = &self.memory {
            memory.start_run()?;
        }
        self.cpu_before = self.usage_usec()?;
        Ok(())
    }

    fn usage_usec(&self) -> Result<u64, SandboxError> {
        let what = "reading the CPU time of the run";
        keyed(&read_open(&self.cpu_stat, what)?, "usage_usec").ok_or(SandboxError::Syscall {
            syscall: "pread",
            purpose: what,
            source: io::Error::from(io::ErrorKind::InvalidData),
        })
    }

    /// `cpu.stat`, for the program to read just before `execve`.
    pub(super) fn cpu_counter_fd(&self) -> RawFd {
        self.cpu_stat.as_raw_fd()
    }

    /// Starts the charge at `text`, `cpu.stat` as the program read it.
    pub(super) fn start_charge_at(&mut self, text: &str) {
        self.cpu_before = charge_start(self.cpu_before, keyed(text, "usage_usec"));
    }

    pub(super) fn cpu_time(&self) -> Result<Duration, SandboxError> {
        Ok(Duration::from_micros(
            self.usage_usec()?.saturating_sub(self.cpu_before),
        ))
    }

    /// Samples the tree's memory where no resettable peak tells a run's
    /// own (called on every poll of the supervisor).
    pub(super) fn sample_memory(&self) {
        if let Some(memory) = &self.memory {
            if !matches!(memory.peak, Peak::Resettable(_)) {
                if let Some(bytes) = memory.usage() {
                    memory.sampled.set(memory.sampled.get().max(bytes));
                }
            }
        }
    }

    pub(super) fn memory_peak_kib(&self) -> Result<u64, SandboxError> {
        let what = "reading the memory peak of the run";
        let memory = self.memory.as_ref().ok_or_else(|| missing(what))?;
        let bytes = match &memory.peak {
            Peak::Resettable(file) => parse_counter(&read_open(file, what)?, what)?,
            Peak::Lifetime { file, before } => {
                let now = parse_counter(&read_open(file, what)?, what)?;
                if now > before.get() {
                    now
                } else {
                    memory.sampled.get()
                }
            }
            Peak::Sampled => memory.sampled.get(),
        };
        Ok(bytes / 1024)
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

    /// Tasks charged to the group; without the pids controller, 1 while
    /// a live process is in it and 0 once none is (`cgroup.events`).
    pub(super) fn pids_current(&self) -> Result<u64, SandboxError> {
        let what = "reading the process count of the run";
        match &self.pids {
            Some(pids) => parse_counter(&read_open(&pids.current, what)?, what),
            None => {
                keyed(&read_open(&self.events, what)?, "populated").ok_or_else(|| missing(what))
            }
        }
    }

    /// Kills every member at once (`cgroup.kill`); false where the kernel
    /// cannot.
    pub(super) fn kill_by_group(&self) -> bool {
        self.kill
            .as_ref()
            .is_some_and(|file| write_open(file, b"1", "killing the cgroup").is_ok())
    }

    pub(super) fn reclaim_stale_memory(&self) {
        let Some(memory) = &self.memory else {
            return;
        };
        let usage = memory.usage().unwrap_or(0);
        if usage > STALE_MEMORY_BYTES {
            if let Some(file) = &memory.reclaim {
                let _ = write_open(file, usage.to_string().as_bytes(), "reclaiming memory");
            }
        }
    }
}

impl Memory {
    fn open(dir: &Path, reclaim: Option<std::fs::File>) -> Result<Memory, SandboxError> {
        // No swap for a run (missing when the kernel has no swap
        // accounting, which is as good), and an OOM kill takes the whole
        // group: no half-killed tree keeps running.
        let _ = write(dir, "memory.swap.max", "0");
        write(dir, "memory.oom.group", "1")?;
        let peak_path = dir.join("memory.peak");
        let peak = match fs_err::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&peak_path)
        {
            Ok(file) if write_open(file.file(), b"reset", "resetting the memory peak").is_ok() => {
                Peak::Resettable(file.into_parts().0)
            }
            _ => match open(peak_path, false) {
                Ok(file) => Peak::Lifetime {
                    file,
                    before: Cell::new(0),
                },
                Err(_) => Peak::Sampled,
            },
        };
        let mut memory = Memory {
            max: open(dir.join("memory.max"), true)?,
            current: open(dir.join("memory.current"), false)?,
            events: open(dir.join("memory.events"), false)?,
            reclaim,
            peak,
            sampled: Cell::new(0),
            oom_kills_seen: 0,
        };
        memory.oom_kills_seen = memory.oom_kills();
        Ok(memory)
    }

    fn start_run(&self) -> Result<(), SandboxError> {
        match &self.peak {
            Peak::Resettable(file) => write_open(file, b"reset", "resetting the memory peak")?,
            Peak::Lifetime { file, before } => {
                let what = "reading the memory peak";
                before.set(parse_counter(&read_open(file, what)?, what)?);
            }
            Peak::Sampled => {}
        }
        self.sampled.set(0);
        Ok(())
    }

    fn usage(&self) -> Option<u64> {
        read_open(&self.current, "reading the memory usage")
            .ok()
            .and_then(|text| text.trim().parse::<u64>().ok())
    }

    fn oom_kills(&self) -> u64 {
        read_open(&self.events, "reading the OOM kill count")
            .ok()
            .and_then(|text| keyed(&text, "oom_kill"))
            .unwrap_or(0)
    }
}

impl Drop for Worker {
    /// Removes the cgroup (the worker emptied it before; see
    /// [`super::Cgroups`]).
    fn drop(&mut self) {
        remove_cgroup(&self.dir);
    }
}
