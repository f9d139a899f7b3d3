//! One worker's cgroup: created once, reused by every run of the worker,
//! emptied after each. Two mechanisms, one interface:
//!
//! - [`v1`]: the legacy hierarchies (memory, pids, cpuacct), as root;
//! - [`v2`]: the unified hierarchy, as root or in a subtree delegated to the
//!   invoking user (what systemd gives a user's session or a
//!   `systemd-run --user --scope -p Delegate=yes` scope);
//!
//! and on a hybrid host, both at once: [`place`] decides from the host's
//! mounts which hierarchy each controller (memory, pids, CPU time) comes
//! from, and a worker has a cgroup in each hierarchy used.
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

mod names;
mod place;
mod unusable;
mod v1;
mod v2;

use self::place::{HostView, Plan};
use super::reap::{kill, reap_orphans_of, ProcessTarget};
use crate::sandbox::{CgroupControllers, CgroupLayer, CgroupVersion, Limits, SandboxError};
use std::io;
use std::os::fd::{AsRawFd, BorrowedFd, OwnedFd, RawFd};
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
    /// Where each controller comes from, on a hybrid host.
    controllers: Option<CgroupControllers>,
    /// Why the layer is `none`, or, on a hybrid host, which controller
    /// comes from which hierarchy: the start-up note.
    note: Option<String>,
    /// What the judge changed to get its cgroups (the other processes of a
    /// cgroup namespace's root moved into a leaf): a start-up note too.
    placement: Option<String>,
}

static DETECTED: OnceLock<Detected> = OnceLock::new();

/// Which cgroup mechanism this process can use, tried for real once (a
/// container and a worker cgroup are made and removed).
pub(super) fn detect(root: bool) -> CgroupLayer {
    detected(root).layer
}

fn detected(root: bool) -> &'static Detected {
    DETECTED.get_or_init(|| detect_uncached(root))
}

/// Why there are no cgroups (which hierarchy, which controller or which
/// permission is missing), or on a hybrid host where each controller comes
/// from: the start-up note.
pub(super) fn note() -> Option<&'static str> {
    DETECTED.get().and_then(|detected| detected.note.as_deref())
}

/// What the judge changed on the host to get its cgroups, for a start-up
/// note (the other processes of its cgroup namespace's root moved out).
pub(super) fn placement_note() -> Option<&'static str> {
    DETECTED
        .get()
        .and_then(|detected| detected.placement.as_deref())
}

/// Where each controller comes from, when the hierarchies are mixed or a
/// controller is in none.
pub(super) fn hybrid_controllers(root: bool) -> Option<CgroupControllers> {
    detected(root).controllers
}

fn detect_uncached(root: bool) -> Detected {
    let none = |reason: String| Detected {
        layer: CgroupLayer::None,
        controllers: None,
        note: Some(reason),
        placement: None,
    };
    let read = |path: &str| fs_err::read_to_string(path).map_err(|error| error.to_string());
    let (mountinfo, membership) = match (read("/proc/self/mountinfo"), read("/proc/self/cgroup")) {
        (Ok(mountinfo), Ok(membership)) => (mountinfo, membership),
        (Err(error), _) | (_, Err(error)) => return none(error),
    };
    let view = HostView {
        mountinfo: &mountinfo,
        cgroup: &membership,
        root,
        writable: &v2::writable,
    };
    let plan = match place::plan(&view) {
        Ok(plan) => plan,
        Err(reason) => return none(reason.to_string()),
    };
    let layer = plan.layer();
    if let Err(error) = probe(&plan) {
        let what = match layer {
            CgroupLayer::CgroupV1 => "cgroup v1".to_owned(),
            CgroupLayer::CgroupHybrid => format!("cgroup v1 and v2 ({})", plan.describe()),
            _ => "cgroup v2".to_owned(),
        };
        return none(format!("{what}: {}", error_chain(&error)));
    }
    let hybrid = layer == CgroupLayer::CgroupHybrid;
    let partial = plan.controllers.missing();
    Detected {
        layer,
        controllers: (hybrid || partial).then_some(plan.controllers),
        note: if partial {
            Some(plan.describe_partial())
        } else {
            hybrid.then(|| plan.describe())
        },
        placement: plan.v2.as_ref().and_then(v2::Base::eviction_note),
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
fn probe(plan: &Plan) -> Result<(), SandboxError> {
    let container = Arc::new(Container::create(plan.clone())?);
    let worker = Cgroups::in_container(&container)?;
    drop(worker);
    remember(container);
    Ok(())
}

/// The container cgroup of this judge process: every worker cgroup is made
/// inside it, in each hierarchy the plan uses. Locked while it lives;
/// removed when its last worker is gone (except on v2 when the judge itself
/// had to move into it, see [`v2::Base`]).
struct Container {
    plan: Plan,
    /// The container's directory in each v1 hierarchy the plan uses.
    v1: v1::Hierarchies,
    v2: Option<v2::Container>,
    /// The `flock`s that tell other judges this container is alive (one
    /// per hierarchy).
    _locks: Vec<OwnedFd>,
    next_worker: AtomicU64,
}

/// The container in use, shared by the workers of this process.
static CONTAINER: Mutex<Weak<Container>> = Mutex::new(Weak::new());
/// The plan found by [`detect`], to make the next container with.
static PLAN: Mutex<Option<Plan>> = Mutex::new(None);
/// A container that must outlive its workers (the judge process sits in
/// it), kept for the life of the process.
static PERMANENT: OnceLock<Arc<Container>> = OnceLock::new();

fn remember(container: Arc<Container>) {
    register_release_at_exit();
    *PLAN.lock().unwrap_or_else(PoisonError::into_inner) = Some(container.plan.clone());
    if container.must_outlive_workers() {
        *CONTAINER.lock().unwrap_or_else(PoisonError::into_inner) = Arc::downgrade(&container);
        let _ = PERMANENT.set(container);
    }
    // Otherwise dropped here: removed, and made anew by the first worker.
}

impl Container {
    fn create(plan: Plan) -> Result<Container, SandboxError> {
        static SWEPT: std::sync::Once = std::sync::Once::new();
        SWEPT.call_once(|| {
            plan.v1.sweep_stale();
            if let Some(base) = &plan.v2 {
                base.sweep_stale();
            }
        });
        let mut last_error = None;
        for _ in 0..NAME_ATTEMPTS {
            let name = format!("{PREFIX}{}", random_token());
            let (v1, mut locks) = if plan.v1.is_empty() {
                (v1::Hierarchies::default(), Vec::new())
            } else {
                match plan.v1.create_container(&name) {
                    Ok(Some(made)) => made,
                    // Taken, or swept before it was locked: another name.
                    Ok(None) => continue,
                    Err(error) => {
                        last_error = Some(error);
                        break;
                    }
                }
            };
            let v2 = match &plan.v2 {
                None => None,
                Some(base) => match base.create_container(&name) {
                    Ok(Some((inner, lock))) => {
                        locks.push(lock);
                        Some(inner)
                    }
                    Ok(None) => {
                        v1.remove_container();
                        continue;
                    }
                    Err(error) => {
                        v1.remove_container();
                        last_error = Some(error);
                        break;
                    }
                },
            };
            return Ok(Container {
                plan,
                v1,
                v2,
                _locks: locks,
                next_worker: AtomicU64::new(0),
            });
        }
        Err(last_error.unwrap_or_else(|| {
            SandboxError::path(
                "create a cgroup with a fresh name in",
                plan.v2
                    .as_ref()
                    .map_or_else(|| plan.v1.first(), |base| base.dir.clone()),
                io::Error::from(io::ErrorKind::AlreadyExists),
            )
        }))
    }

    fn must_outlive_workers(&self) -> bool {
        self.v2.as_ref().is_some_and(|inner| inner.holds_judge)
    }

    /// The container to make a worker in: the live one, or a new one.
    fn shared() -> Result<Arc<Container>, SandboxError> {
        let mut current = CONTAINER.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(container) = current.upgrade() {
            return Ok(container);
        }
        let plan = PLAN
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
        let container = Arc::new(Container::create(plan)?);
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
        container.v1.release();
        if let Some(inner) = &container.v2 {
            inner.release();
        }
    }
}

impl Drop for Container {
    fn drop(&mut self) {
        // Still locked: no sweep of another judge can be inside it now.
        self.v1.remove_container();
        if let Some(inner) = &self.v2 {
            inner.remove();
        }
    }
}

/// One worker's cgroup(s): created once, reused by every run of the worker.
/// Each controller is read from the hierarchy the plan puts it in.
pub(super) struct Cgroups {
    controllers: CgroupControllers,
    v1: Option<v1::Worker>,
    v2: Option<v2::Worker>,
    /// Keeps the container (and its locks) alive while the worker is.
    _container: Arc<Container>,
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
        let v1 = if container.v1.is_empty() {
            None
        } else {
            Some(v1::Worker::create(&container.v1, &name)?)
        };
        let v2 = match &container.v2 {
            Some(inner) => Some(v2::Worker::create(inner, &name)?),
            None => None,
        };
        Ok(Cgroups {
            controllers: container.plan.controllers,
            v1,
            v2,
            _container: Arc::clone(container),
        })
    }

    /// The files the child writes itself into before exec (-1: none):
    /// v2's `cgroup.procs`, v1's `tasks` (see `v1::Worker::procs`). A plan
    /// uses at most three hierarchies: the v1 ones, or v2 (which then also
    /// gives the CPU time) and at most two v1 ones.
    pub(super) fn procs_fds(&self) -> [RawFd; 3] {
        let mut fds = [-1; 3];
        let v2 = self.v2.iter().map(|worker| worker.procs.as_raw_fd());
        let v1 = self
            .v1
            .iter()
            .flat_map(|worker| worker.procs.iter().map(AsRawFd::as_raw_fd));
        for (slot, fd) in fds.iter_mut().zip(v2.chain(v1)) {
            *slot = fd;
        }
        fds
    }

    fn v1(&self) -> Result<&v1::Worker, SandboxError> {
        self.v1.as_ref().ok_or_else(|| absent("v1"))
    }

    fn v2(&self) -> Result<&v2::Worker, SandboxError> {
        self.v2.as_ref().ok_or_else(|| absent("v2"))
    }

    /// Sets this run's limits (when they changed) and zeroes the counters
    /// it reports.
    pub(super) fn prepare(&mut self, limits: &Limits) -> Result<(), SandboxError> {
        if let Some(worker) = &mut self.v1 {
            worker.prepare(limits)?;
        }
        if let Some(worker) = &mut self.v2 {
            worker.prepare(limits)?;
        }
        Ok(())
    }

    /// CPU time of the run's whole tree so far (called on every poll of
    /// the supervisor, which is also when v2 without a resettable peak
    /// samples the tree's memory).
    pub(super) fn cpu_time(&self) -> Result<Duration, SandboxError> {
        if let Some(worker) = &self.v2 {
            worker.sample_memory();
        }
        match self.controllers.cpu {
            CgroupVersion::V1 => self.v1()?.cpu_time(),
            // The CPU time is never planned nowhere: v2's `cpu.stat` needs
            // no controller.
            CgroupVersion::V2 | CgroupVersion::None => self.v2()?.cpu_time(),
        }
    }

    /// The file `Cgroups::cpu_time` reads, for the program to read just
    /// before its `execve` (-1: none).
    pub(super) fn cpu_counter_fd(&self) -> RawFd {
        match self.controllers.cpu {
            CgroupVersion::V1 => self.v1.as_ref().map_or(-1, v1::Worker::cpu_counter_fd),
            CgroupVersion::V2 | CgroupVersion::None => {
                self.v2.as_ref().map_or(-1, v2::Worker::cpu_counter_fd)
            }
        }
    }

    /// Starts this run's charge at `text`, the counter as the program read
    /// it just before its `execve`.
    pub(super) fn start_charge_at(&mut self, text: &str) {
        match self.controllers.cpu {
            CgroupVersion::V1 => self.v1.as_mut().map(|v1| v1.start_charge_at(text)),
            CgroupVersion::V2 | CgroupVersion::None => {
                self.v2.as_mut().map(|v2| v2.start_charge_at(text))
            }
        };
    }

    /// Whether a cgroup limits and measures the tree's memory (else the
    /// per-process `RLIMIT_AS` and the largest resident set do).
    pub(super) fn limits_memory(&self) -> bool {
        self.controllers.memory != CgroupVersion::None
    }

    /// Whether a cgroup limits the tree's processes (else `RLIMIT_NPROC`).
    pub(super) fn limits_processes(&self) -> bool {
        self.controllers.pids != CgroupVersion::None
    }

    pub(super) fn memory_peak_kib(&self) -> Result<u64, SandboxError> {
        match self.controllers.memory {
            CgroupVersion::V1 => self.v1()?.memory_peak_kib(),
            CgroupVersion::V2 => self.v2()?.memory_peak_kib(),
            CgroupVersion::None => Err(absent("v2")),
        }
    }

    /// Whether the OOM killer acted since the last call.
    pub(super) fn oom_killed_since_last(&mut self) -> bool {
        match self.controllers.memory {
            CgroupVersion::V1 => self
                .v1
                .as_mut()
                .is_some_and(v1::Worker::oom_killed_since_last),
            CgroupVersion::V2 => self
                .v2
                .as_mut()
                .is_some_and(v2::Worker::oom_killed_since_last),
            CgroupVersion::None => false,
        }
    }

    /// A descriptor that becomes readable when the run's memory cgroup
    /// runs out of memory, where the kernel leaves the rest of the tree
    /// running after its OOM killer took one process (v1; v2's
    /// `memory.oom.group` kills the whole group itself, and the program's
    /// exit tells the supervisor).
    pub(super) fn out_of_memory_fd(&self) -> Option<BorrowedFd<'_>> {
        match self.controllers.memory {
            CgroupVersion::V1 => self.v1.as_ref()?.oom_event_fd(),
            CgroupVersion::V2 | CgroupVersion::None => None,
        }
    }

    /// The directory whose `cgroup.procs` lists the run's processes.
    pub(super) fn members_dir(&self) -> &Path {
        self.procs_dir()
    }

    /// SIGKILLs every member until the group is empty; see
    /// [`kill_until_empty`].
    pub(super) fn kill_all(&self, run_group: Option<libc::pid_t>) -> Result<(), SandboxError> {
        kill_until_empty(self, run_group)
    }
}

/// A worker without the hierarchy a controller was planned in: never made
/// so (a plan and its workers agree), but an error rather than a panic.
fn absent(version: &'static str) -> SandboxError {
    SandboxError::Syscall {
        syscall: "pread",
        purpose: if version == "v1" {
            "reading a counter of the worker's cgroup v1 hierarchies"
        } else {
            "reading a counter of the worker's cgroup v2 group"
        },
        source: io::Error::from(io::ErrorKind::NotFound),
    }
}

impl Membership for Cgroups {
    fn pids_current(&self) -> Result<u64, SandboxError> {
        match self.controllers.pids {
            CgroupVersion::V1 => self.v1()?.pids_current(),
            // Without the pids controller, v2's `cgroup.events` tells an
            // empty group.
            CgroupVersion::V2 | CgroupVersion::None => self.v2()?.pids_current(),
        }
    }

    /// `cgroup.kill` of the v2 group where there is one: every process of
    /// the run joined it, whichever hierarchy counts its pids.
    fn kill_by_group(&self) -> bool {
        self.v2.as_ref().is_some_and(v2::Worker::kill_by_group)
    }

    fn procs_dir(&self) -> &Path {
        match (self.controllers.pids, &self.v1, &self.v2) {
            (CgroupVersion::V1, Some(worker), _) => {
                worker.pids_dir().unwrap_or_else(|| worker.any_dir())
            }
            (_, _, Some(worker)) => &worker.dir,
            (_, Some(worker), None) => worker.any_dir(),
            (_, None, None) => Path::new("/"),
        }
    }

    fn reclaim_stale_memory(&self) {
        match (self.controllers.memory, &self.v1, &self.v2) {
            (CgroupVersion::V1, Some(worker), _) => worker.reclaim_stale_memory(),
            (CgroupVersion::V2, _, Some(worker)) => worker.reclaim_stale_memory(),
            _ => {}
        }
    }
}

impl Drop for Cgroups {
    /// Empties the worker's cgroups; the workers then remove them.
    fn drop(&mut self) {
        let _ = kill_until_empty(self, None);
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

/// Where a run's charge starts: the counter as the program read it at its
/// `execve`, or, when that read failed (or went backwards, which a counter
/// never does), where `prepare` left it, which charges the set-up too.
fn charge_start(at_prepare: u64, at_exec: Option<u64>) -> u64 {
    at_exec.map_or(at_prepare, |at_exec| at_exec.max(at_prepare))
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
use names::{create_locked, judge_entries, remove_cgroup, remove_cgroup_tree};

#[cfg(test)]
mod tests;
