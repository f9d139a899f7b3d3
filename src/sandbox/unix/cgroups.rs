//! One worker's cgroup: created once, reused by every run of the worker,
//! emptied after each. Two mechanisms, one interface:
//!
//! - [`v1`]: the legacy hierarchies (memory, pids, cpuacct), as root;
//! - [`v2`]: the unified hierarchy, as root or in a subtree delegated to the
//!   invoking user (what systemd gives a user's session or a
//!   `systemd-run --user --scope -p Delegate=yes` scope).
//!
//! Emptying is decided by membership, not by process state (issue #7): a
//! program controls its own state (a leader that exits while its threads
//! run shows as a zombie; a process can leave its process group or
//! session), never its cgroup. After a run, every member is killed and the
//! next run starts only when `pids.current` is 0, so its CPU, memory and
//! process figures include nothing of the last one.
//!
//! Many judges share a host (containers, `unshare --pid`, parallel CI
//! jobs), and a pid tells nothing across PID namespaces. So each judge
//! process keeps its workers in a *container* cgroup of its own, named
//! `judge-<random>` and made with an exclusive `mkdir` (retried under a new
//! name when taken), and holds an `flock` on the container's directory for
//! as long as the container lives. A `judge-*` cgroup whose lock can be
//! taken belongs to no live judge, whatever namespace it ran in: it is
//! stale, and the start-up sweep kills what is inside and removes it. A
//! live judge's cgroups are never touched.

mod v1;
mod v2;

use super::reap::{kill, reap_orphans_of, ProcessTarget};
use crate::sandbox::{CgroupLayer, Limits, SandboxError};
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};
use std::time::{Duration, Instant};

/// How long the processes of a finished run may take to die after SIGKILL.
const KILL_GRACE: Duration = Duration::from_secs(5);

/// Page cache and shared memory left charged to the group after a run,
/// above which it is reclaimed before the next run (so a memory peak never
/// starts above zero by more than this).
const STALE_MEMORY_BYTES: u64 = 8 << 20;

/// The prefix of every cgroup a judge makes; the sweep looks only at these.
const PREFIX: &str = "judge-";

/// How many fresh names are tried when one is taken (or was swept away
/// between its `mkdir` and its lock).
const NAME_ATTEMPTS: usize = 16;

/// What detection found: the mechanism, or why there is none.
struct Detected {
    layer: CgroupLayer,
    /// Why the layer is `none` (or, on a host with both, why v2 was not
    /// the one used): the start-up note.
    reason: Option<String>,
}

static DETECTED: OnceLock<Detected> = OnceLock::new();

/// Which cgroup mechanism this process can use, tried for real once (a
/// container and a worker cgroup are made and removed).
pub(super) fn detect(root: bool) -> CgroupLayer {
    DETECTED.get_or_init(|| detect_uncached(root)).layer
}

/// Why there are no cgroups, for the start-up note: which hierarchy, which
/// controller or which permission is missing.
pub(super) fn unavailable_reason() -> Option<&'static str> {
    DETECTED
        .get()
        .and_then(|detected| detected.reason.as_deref())
}

fn detect_uncached(root: bool) -> Detected {
    let v1_reason = match v1::Hierarchies::locate() {
        Some(_) if !root => Some("the cgroup v1 hierarchies are writable only by root".to_owned()),
        Some(hierarchies) => match probe(Mechanism::V1(hierarchies)) {
            Ok(()) => {
                return Detected {
                    layer: CgroupLayer::CgroupV1,
                    reason: None,
                }
            }
            Err(error) => Some(format!("cgroup v1: {}", error_chain(&error))),
        },
        None => None,
    };
    let v2_reason = match v2::Base::locate(root) {
        Ok(base) => {
            let layer = if base.delegated {
                CgroupLayer::CgroupV2Delegated
            } else {
                CgroupLayer::CgroupV2
            };
            match probe(Mechanism::V2(base)) {
                Ok(()) => {
                    return Detected {
                        layer,
                        reason: None,
                    }
                }
                Err(error) => format!("cgroup v2: {}", error_chain(&error)),
            }
        }
        Err(reason) => format!("cgroup v2: {reason}"),
    };
    let reason = match v1_reason {
        Some(v1) => format!("{v1}; {v2_reason}"),
        None => v2_reason,
    };
    Detected {
        layer: CgroupLayer::None,
        reason: Some(reason),
    }
}

/// An error and its sources on one line.
fn error_chain(error: &SandboxError) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// Makes a container and one worker in it, and removes them again.
fn probe(mechanism: Mechanism) -> Result<(), SandboxError> {
    let container = Arc::new(Container::create(mechanism)?);
    let worker = Cgroups::in_container(&container)?;
    drop(worker);
    remember(container);
    Ok(())
}

/// Where a container is made.
#[derive(Clone)]
enum Mechanism {
    V1(v1::Hierarchies),
    V2(v2::Base),
}

/// The container cgroup of this judge process: every worker cgroup is made
/// inside it. Locked while it lives; removed when its last worker is gone
/// (except on v2 when the judge itself had to move into it, see
/// [`v2::Base`]).
struct Container {
    place: ContainerPlace,
    /// The `flock` that tells other judges this container is alive.
    _lock: OwnedFd,
    next_worker: AtomicU64,
}

enum ContainerPlace {
    /// The container's directory in each of the three hierarchies.
    V1(v1::Hierarchies),
    V2(v2::Container),
}

/// The container in use, shared by the workers of this process.
static CONTAINER: Mutex<Weak<Container>> = Mutex::new(Weak::new());
/// The mechanism found by [`detect`], to make the next container with.
static MECHANISM: Mutex<Option<Mechanism>> = Mutex::new(None);
/// A container that must outlive its workers (the judge process sits in
/// it), kept for the life of the process.
static PERMANENT: OnceLock<Arc<Container>> = OnceLock::new();

fn remember(container: Arc<Container>) {
    register_release_at_exit();
    *MECHANISM.lock().unwrap_or_else(PoisonError::into_inner) = Some(container.mechanism());
    if container.must_outlive_workers() {
        *CONTAINER.lock().unwrap_or_else(PoisonError::into_inner) = Arc::downgrade(&container);
        let _ = PERMANENT.set(container);
    }
    // Otherwise dropped here: removed, and made anew by the first worker.
}

impl Container {
    fn create(mechanism: Mechanism) -> Result<Container, SandboxError> {
        static SWEPT: std::sync::Once = std::sync::Once::new();
        SWEPT.call_once(|| match &mechanism {
            Mechanism::V1(hierarchies) => hierarchies.sweep_stale(),
            Mechanism::V2(base) => base.sweep_stale(),
        });
        let mut last_error = None;
        for _ in 0..NAME_ATTEMPTS {
            let name = format!("{PREFIX}{}", random_token());
            let made = match &mechanism {
                Mechanism::V1(hierarchies) => hierarchies
                    .create_container(&name)
                    .map(|made| made.map(|(dirs, lock)| (ContainerPlace::V1(dirs), lock))),
                Mechanism::V2(base) => base
                    .create_container(&name)
                    .map(|made| made.map(|(inner, lock)| (ContainerPlace::V2(inner), lock))),
            };
            match made {
                Ok(Some((place, lock))) => {
                    return Ok(Container {
                        place,
                        _lock: lock,
                        next_worker: AtomicU64::new(0),
                    })
                }
                // Taken, or swept before it was locked: another name.
                Ok(None) => continue,
                Err(error) => last_error = Some(error),
            }
            break;
        }
        Err(last_error.unwrap_or_else(|| {
            SandboxError::path(
                "create a cgroup with a fresh name in",
                match &mechanism {
                    Mechanism::V1(hierarchies) => hierarchies.pids.clone(),
                    Mechanism::V2(base) => base.dir.clone(),
                },
                io::Error::from(io::ErrorKind::AlreadyExists),
            )
        }))
    }

    /// How to make another container like this one.
    fn mechanism(&self) -> Mechanism {
        match &self.place {
            ContainerPlace::V1(dirs) => Mechanism::V1(dirs.parents()),
            ContainerPlace::V2(inner) => Mechanism::V2(inner.base.clone()),
        }
    }

    fn must_outlive_workers(&self) -> bool {
        match &self.place {
            ContainerPlace::V1(_) => false,
            ContainerPlace::V2(inner) => inner.holds_judge,
        }
    }

    /// The container to make a worker in: the live one, or a new one.
    fn shared() -> Result<Arc<Container>, SandboxError> {
        let mut current = CONTAINER.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(container) = current.upgrade() {
            return Ok(container);
        }
        let mechanism = MECHANISM
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
            .ok_or_else(|| {
                SandboxError::path(
                    "find a usable cgroup hierarchy in",
                    "/proc/self/cgroup",
                    io::Error::from(io::ErrorKind::NotFound),
                )
            })?;
        let container = Arc::new(Container::create(mechanism)?);
        *current = Arc::downgrade(&container);
        Ok(container)
    }
}

/// The judge process that registered [`release_at_exit`] (a forked child
/// that calls `exit` must not release its parent's cgroups).
static OWNER: OnceLock<u32> = OnceLock::new();

/// Makes the judge's exit remove its cgroups even where no destructor runs
/// (a container the judge sits in lives in a static; a worker's sandbox may
/// still be alive on another thread).
fn register_release_at_exit() {
    if OWNER.set(std::process::id()).is_ok() {
        // SAFETY: registers a plain `extern "C"` function with no
        // arguments; it is called at most once, by `exit`.
        unsafe {
            libc::atexit(release_at_exit);
        }
    }
}

/// Removes this judge's container and every worker still in it, and moves
/// the judge back out of a container it sits in (issue #20: a delegated
/// judge left `judge-*/main` behind at every exit).
extern "C" fn release_at_exit() {
    if OWNER.get() != Some(&std::process::id()) {
        return;
    }
    let live = CONTAINER
        .try_lock()
        .ok()
        .and_then(|current| current.upgrade())
        .or_else(|| PERMANENT.get().cloned());
    if let Some(container) = live {
        match &container.place {
            ContainerPlace::V1(dirs) => dirs.release(),
            ContainerPlace::V2(inner) => inner.release(),
        }
    }
}

impl Drop for Container {
    fn drop(&mut self) {
        // Still locked: no sweep of another judge can be inside it now.
        match &self.place {
            ContainerPlace::V1(dirs) => dirs.remove_container(),
            ContainerPlace::V2(inner) => inner.remove(),
        }
    }
}

/// One worker's cgroup(s): created once, reused by every run of the worker.
pub(super) struct Cgroups {
    worker: Worker,
    /// Keeps the container (and its lock) alive while the worker is.
    _container: Arc<Container>,
}

enum Worker {
    V1(v1::Worker),
    V2(v2::Worker),
}

impl Cgroups {
    /// A worker cgroup in this process's container (made on first use).
    pub(super) fn create() -> Result<Cgroups, SandboxError> {
        Cgroups::in_container(&Container::shared()?)
    }

    fn in_container(container: &Arc<Container>) -> Result<Cgroups, SandboxError> {
        let name = format!(
            "worker-{}",
            container.next_worker.fetch_add(1, Ordering::Relaxed)
        );
        let worker = match &container.place {
            ContainerPlace::V1(dirs) => Worker::V1(v1::Worker::create(dirs, &name)?),
            ContainerPlace::V2(inner) => Worker::V2(v2::Worker::create(&inner.dir, &name)?),
        };
        Ok(Cgroups {
            worker,
            _container: Arc::clone(container),
        })
    }

    /// The `cgroup.procs` files the child writes itself into before exec
    /// (-1: none).
    pub(super) fn procs_fds(&self) -> [RawFd; 3] {
        match &self.worker {
            Worker::V1(worker) => worker.procs.each_ref().map(AsRawFd::as_raw_fd),
            Worker::V2(worker) => [worker.procs.as_raw_fd(), -1, -1],
        }
    }

    /// Sets this run's limits (when they changed) and zeroes the counters
    /// it reports.
    pub(super) fn prepare(&mut self, limits: &Limits) -> Result<(), SandboxError> {
        match &mut self.worker {
            Worker::V1(worker) => worker.prepare(limits),
            Worker::V2(worker) => worker.prepare(limits),
        }
    }

    /// CPU time of the run's whole tree so far (called on every poll of
    /// the supervisor, which is also when v2 without a resettable peak
    /// samples the tree's memory).
    pub(super) fn cpu_time(&self) -> Result<Duration, SandboxError> {
        match &self.worker {
            Worker::V1(worker) => worker.cpu_time(),
            Worker::V2(worker) => worker.cpu_time(),
        }
    }

    pub(super) fn memory_peak_kib(&self) -> Result<u64, SandboxError> {
        match &self.worker {
            Worker::V1(worker) => worker.memory_peak_kib(),
            Worker::V2(worker) => worker.memory_peak_kib(),
        }
    }

    /// Whether the OOM killer acted since the last call.
    pub(super) fn oom_killed_since_last(&mut self) -> bool {
        match &mut self.worker {
            Worker::V1(worker) => worker.oom_killed_since_last(),
            Worker::V2(worker) => worker.oom_killed_since_last(),
        }
    }

    /// SIGKILLs every member until the group is empty; see
    /// [`kill_until_empty`].
    pub(super) fn kill_all(&self, run_group: Option<libc::pid_t>) -> Result<(), SandboxError> {
        match &self.worker {
            Worker::V1(worker) => kill_until_empty(worker, run_group),
            Worker::V2(worker) => kill_until_empty(worker, run_group),
        }
    }
}

/// What [`kill_until_empty`] needs of one worker's cgroup.
trait Membership {
    /// Tasks charged to the group, zombies not yet reaped included.
    fn pids_current(&self) -> Result<u64, SandboxError>;
    /// Kills every member at once where the kernel can (`cgroup.kill`),
    /// before each member is also killed by pid; false when it cannot.
    fn kill_by_group(&self) -> bool;
    /// The directory whose `cgroup.procs` lists the members.
    fn procs_dir(&self) -> &Path;
    /// Called once the group is empty.
    fn reclaim_stale_memory(&self);
}

/// SIGKILLs every member until the group is empty (`pids.current` is 0): a
/// program that called `setsid`, double-forked, left its process group or
/// exited its main thread is still a member. Orphans that were handed to
/// the judge (it is their subreaper) are reaped here, since an unreaped
/// zombie still counts. `run_group` is the run's process group, which
/// tells its zombies. Bounded: after [`KILL_GRACE`] the survivors are an
/// error (JE), never a wait without end.
fn kill_until_empty(
    group: &impl Membership,
    run_group: Option<libc::pid_t>,
) -> Result<(), SandboxError> {
    let deadline = Instant::now() + KILL_GRACE;
    let mut pause = Duration::from_micros(50);
    let mut seen: Vec<libc::pid_t> = Vec::new();
    loop {
        if group.pids_current()? == 0 {
            group.reclaim_stale_memory();
            return Ok(());
        }
        // Listed before the kill: a killed process leaves `cgroup.procs`
        // as it dies, and its zombie is told from others only by having
        // been seen here.
        let members = members(group.procs_dir());
        group.kill_by_group();
        for &pid in &members {
            // Also after `cgroup.kill`: a leader that exited while its
            // threads run is reached for sure through its pid.
            kill(ProcessTarget::Process(pid));
            if !seen.contains(&pid) {
                seen.push(pid);
            }
        }
        reap_orphans_of(run_group, &seen);
        if Instant::now() > deadline {
            return Err(SandboxError::Survivors {
                count: members.len().max(1),
                cgroup: group.procs_dir().to_path_buf(),
            });
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(5));
    }
}

/// Every process listed in a cgroup: zombie leaders whose threads still run
/// included (they are the thread-leader escape of issue #7).
fn members(dir: &Path) -> Vec<libc::pid_t> {
    let Ok(text) = fs_err::read_to_string(dir.join("cgroup.procs")) else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|line| line.trim().parse::<libc::pid_t>().ok())
        .collect()
}

/// Reads a counter file from the start (cgroup files regenerate their text
/// on each read at offset 0).
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

/// Writes `value` to a file kept open (at offset 0, as cgroup files want).
fn write_open(file: &std::fs::File, value: &[u8], what: &'static str) -> Result<(), SandboxError> {
    use std::os::unix::fs::FileExt;
    file.write_at(value, 0)
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

/// The value of `key` in a flat-keyed file (`memory.events`, `cpu.stat`).
fn keyed(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let (name, value) = line.split_once(' ')?;
        (name == key).then(|| value.trim().parse().ok())?
    })
}

fn write(dir: &Path, file: &str, value: &str) -> Result<(), SandboxError> {
    let path = dir.join(file);
    fs_err::write(&path, value).map_err(|source| SandboxError::path("write", path, source))
}

fn open(path: PathBuf, write: bool) -> Result<std::fs::File, SandboxError> {
    fs_err::OpenOptions::new()
        .read(!write)
        .write(write)
        .open(&path)
        .map(|file| file.into_parts().0)
        .map_err(|source| SandboxError::path("open", path, source))
}

fn open_rw(path: PathBuf) -> Result<std::fs::File, SandboxError> {
    fs_err::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&path)
        .map(|file| file.into_parts().0)
        .map_err(|source| SandboxError::path("open", path, source))
}

pub(super) use crate::lease::random_token;
use crate::lease::try_lock;

/// Makes `dir` exclusively and locks it (see [`crate::lease`]). `Ok(None)`
/// when the name is taken, or was swept before it was locked.
fn create_locked(dir: &Path) -> Result<Option<OwnedFd>, SandboxError> {
    crate::lease::create_locked(dir)
        .map_err(|source| SandboxError::path("create cgroup", dir, source))
}

/// The `judge-*` directories directly under `parent`.
fn judge_entries(parent: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs_err::read_dir(parent) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter(|entry| is_container_name(&entry.file_name().to_string_lossy()))
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
        .map(|entry| entry.path())
        .collect()
}

/// `judge-` and the 16 hex digits of [`random_token`]: only such names are
/// ever swept (a cgroup named otherwise, an older judge's say, is left).
fn is_container_name(name: &str) -> bool {
    name.strip_prefix(PREFIX)
        .is_some_and(crate::lease::is_token)
}

/// Removes a stale cgroup and everything below it, killing every process
/// still inside first (bounded: a cgroup that will not empty is left).
fn remove_cgroup_tree(dir: &Path) {
    if let Ok(entries) = fs_err::read_dir(dir) {
        for entry in entries.filter_map(Result::ok) {
            if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                remove_cgroup_tree(&entry.path());
            }
        }
    }
    let _ = fs_err::write(dir.join("cgroup.kill"), "1");
    for _ in 0..100 {
        let pids = members(dir);
        if pids.is_empty() {
            break;
        }
        for pid in pids {
            kill(ProcessTarget::Process(pid));
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    remove_cgroup(dir);
}

/// How long `rmdir` of an emptied cgroup is retried while the kernel still
/// counts it populated (EBUSY: its last members have died but are not yet
/// gone from it).
const REMOVE_GRACE: Duration = Duration::from_millis(500);

/// Removes an empty cgroup directory, retrying on EBUSY for at most
/// [`REMOVE_GRACE`]; a cgroup that stays busy, or any other failure, is
/// left (for the next judge's sweep).
fn remove_cgroup(dir: &Path) {
    let deadline = Instant::now() + REMOVE_GRACE;
    let mut pause = Duration::from_micros(50);
    loop {
        match fs_err::remove_dir(dir) {
            Err(error)
                if error.kind() == io::ErrorKind::ResourceBusy && Instant::now() < deadline =>
            {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(10));
            }
            _ => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_differ_and_are_hex() {
        let first = random_token();
        let second = random_token();
        assert_ne!(first, second);
        assert_eq!(first.len(), 16);
        assert!(first.chars().all(|c| c.is_ascii_hexdigit()));
        assert!(is_container_name(&format!("{PREFIX}{first}")));
        assert!(!is_container_name("judge-1-1"));
        assert!(!is_container_name("judge-0123456789abcdef-0"));
    }

    #[test]
    fn a_held_lock_cannot_be_taken_and_a_released_one_can() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("judge-test");
        let held = create_locked(&path).unwrap().unwrap();
        assert!(try_lock(&path).is_none(), "a live container looked stale");
        // The name is taken now.
        assert!(create_locked(&path).unwrap().is_none());
        drop(held);
        assert!(try_lock(&path).is_some(), "a dead container looked live");
    }

    #[test]
    fn keyed_files_are_read_by_name() {
        let text = "low 0\nhigh 0\nmax 3\noom 1\noom_kill 2\noom_group_kill 1\n";
        assert_eq!(keyed(text, "oom_kill"), Some(2));
        assert_eq!(keyed(text, "oom"), Some(1));
        assert_eq!(
            keyed("usage_usec 1234\nuser_usec 1000\n", "usage_usec"),
            Some(1234)
        );
        assert_eq!(keyed(text, "missing"), None);
    }
}
