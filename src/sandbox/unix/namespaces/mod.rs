//! A worker's mount and IPC namespaces (and, without root, the user and
//! network namespaces around them), made once per worker and entered by
//! every run with `setns`, which costs a few microseconds where making one
//! costs a millisecond.
//!
//! Inside it (issue #7): `/tmp`, `/var/tmp`, `/run` and `/dev/shm` are
//! empty private tmpfs mounts, so the host's socket files and shared
//! memory are out of reach; the paths the judge needs there (its workspace,
//! a toolchain) are bound back at their own names; as root, a directory the
//! sandbox user cannot pass through (`/root` holding a rustup toolchain) is
//! replaced the same way by one holding only the toolchain; the scratch
//! directory is a tmpfs of the scratch quota; and, as root, `/proc` is a
//! procfs of its own with `hidepid=invisible`.
//!
//! The namespace is made by a holder process cloned into new mount and PID
//! namespaces (and, without root, user and network ones): it mounts, reports,
//! and then stays as the PID namespace's init for the worker's life. Every
//! run is started inside that PID namespace, so:
//!
//! - after each run the holder kills every process of its namespace
//!   (`kill(-1, SIGKILL)` from its init) and reaps them, in both modes, with
//!   no sweep of the host's processes: a `setsid` chain cannot outlive its
//!   test, and killing the holder (the judge ending) ends them all;
//! - `/proc` is a procfs of that PID namespace (with `hidepid`), so the judge,
//!   other workers and other users are not even listed, with or without root;
//! - the scratch directory is a tmpfs that the holder unmounts and mounts
//!   anew after each run (once the run's result is handed back; the next
//!   run awaits it): the next run starts on a file system no earlier
//!   run touched (no entries, extended attributes, times, or kernel memory
//!   charged to the worker's cgroup).
//!
//! The scratch tmpfs sits in a small read-only tmpfs, the *box*, whose root
//! is stable for the worker's life, so a Landlock rule on the box covers
//! every fresh scratch without a new ruleset per run. The box also holds the
//! empty file and folder bound over the paths a run must never see (the
//! judge's own binary, its data).
//!
//! The judge's own threads stay in the host's view and reach the
//! namespace's files through `/proc/self/fd/N/...`.

mod holder;
mod plan;
mod steps;

use self::holder::Holder;
pub(in crate::sandbox::unix) use self::plan::SHM;
use self::plan::{needs_binding, Setup};
use crate::sandbox::unix::proc_file::ProcFile;
use crate::sandbox::unix::resident::Reaper;
use crate::sandbox::unix::sockets::SocketCount;
use crate::sandbox::unix::spawn::ThreadPidEntry;
use crate::sandbox::SandboxError;
use std::io;
use std::os::fd::{AsFd, AsRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};

/// How the namespace is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Privilege {
    /// As root: mount namespace only (the worker thread has the network
    /// namespace; runs switch to the sandbox user themselves).
    Root,
    /// Unprivileged: a user namespace mapping only the invoking user, with
    /// mount and network namespaces owned by it.
    User { uid: u32, gid: u32 },
}

/// What the namespace must hold.
pub(super) struct Plan<'a> {
    pub(super) privilege: Privilege,
    /// Host directory (existing, empty) that becomes the box: a read-only
    /// tmpfs holding the scratch mount point ([`scratch_in`]).
    pub(super) boxdir: &'a Path,
    pub(super) scratch_kib: u64,
    /// Owner of the scratch tmpfs' root (the sandbox user), as root.
    pub(super) scratch_owner: Option<u32>,
    /// Host paths the runs need, kept visible at their own names.
    pub(super) keep: &'a [PathBuf],
    /// Host paths no run may see (the judge's binary, its data): an empty
    /// file or folder is bound over each.
    pub(super) hidden: &'a [PathBuf],
    /// More places to mask (without root: the judge's workspace, of which
    /// only the kept paths are bound back).
    pub(super) extra_masks: &'a [PathBuf],
    /// Without root, where the host is read-only: kept paths bound writable
    /// (a compiler's working directory).
    pub(super) writable: &'a [PathBuf],
}

/// The scratch directory inside a box.
pub(super) fn scratch_in(boxdir: &Path) -> PathBuf {
    boxdir.join("scratch")
}

/// A made namespace: its holder (the PID namespace's init) and descriptors
/// of what it made.
pub(super) struct WorkerNamespace {
    /// `setns` targets, in the order a child enters them.
    user: Option<OwnedFd>,
    network: Option<OwnedFd>,
    mount: OwnedFd,
    /// The worker's IPC namespace, where a run that makes none of its own
    /// is (`IpcLayer::CallsRefused`).
    ipc: OwnedFd,
    pid: OwnedFd,
    /// As root: the worker thread's own PID namespace, to go back to after
    /// each spawn ([`ThreadPidEntry`]); opened on the worker thread.
    own_pid: Option<OwnedFd>,
    root: OwnedFd,
    /// Without root, the socket count of the network namespace (the
    /// holder's), where the runs' sockets are.
    pub(super) sockets: Option<SocketCount>,
    /// The holder's `children`, opened once: the orphans of the runs.
    orphans: Option<ProcFile>,
    holder: Holder,
    /// Whether the holder is mounting a fresh scratch after a run, and its
    /// report of it is still to be read (`WorkerNamespace::await_fresh`).
    mounting: std::cell::Cell<bool>,
    /// Whether `/proc` is private (the PID namespace's own, with `hidepid`).
    pub(super) private_proc: bool,
    /// Runs have a private, writable `/dev/shm`, fresh for each.
    pub(super) private_shm: bool,
    /// When `/proc` is not private, the errno its mount was refused with.
    pub(super) proc_refused: Option<i32>,
    pub(super) scratch_kib: u64,
    pub(super) kept: Vec<PathBuf>,
    /// Kept paths bound writable (without root).
    pub(super) writable: Vec<PathBuf>,
    pub(super) extra_masks: Vec<PathBuf>,
    /// The paths covered by an empty file or folder.
    pub(super) hidden: Vec<PathBuf>,
}

impl WorkerNamespace {
    /// The descriptors and kinds a child passes to `setns`, in order; the
    /// PID namespace comes last (it applies to the child's own children).
    pub(super) fn setns_targets(&self) -> [(RawFd, libc::c_int); 5] {
        let raw = |fd: &Option<OwnedFd>| fd.as_ref().map_or(-1, AsRawFd::as_raw_fd);
        [
            (raw(&self.user), libc::CLONE_NEWUSER),
            (raw(&self.network), libc::CLONE_NEWNET),
            (self.mount.as_raw_fd(), libc::CLONE_NEWNS),
            (self.ipc.as_raw_fd(), libc::CLONE_NEWIPC),
            (self.pid.as_raw_fd(), libc::CLONE_NEWPID),
        ]
    }

    /// As root, how the worker thread puts a program in the PID namespace
    /// itself ([`ThreadPidEntry`]); `None` without root, where the child
    /// clones the program into it (the last of
    /// [`WorkerNamespace::setns_targets`]).
    pub(super) fn thread_pid_entry(&self) -> Option<ThreadPidEntry<'_>> {
        self.own_pid.as_ref().map(|own| ThreadPidEntry {
            namespace: self.pid.as_fd(),
            own: own.as_fd(),
        })
    }

    /// The holder, the init of the runs' PID namespace, as the reaper of
    /// every orphan of a run (and what tests end), with its `children` file
    /// opened once (see `resident::Reaper`).
    pub(super) fn reaper(&self) -> Reaper<'_> {
        Reaper {
            pid: self.holder.pid,
            children: self.orphans.as_ref(),
        }
    }

    /// After a run: the holder kills and reaps every process left in the
    /// PID namespace, then replaces the scratch tmpfs by a fresh one.
    /// Returns whether the old scratch was full (no byte or inode left).
    pub(super) fn reset(&self) -> Result<bool, SandboxError> {
        self.await_fresh()?;
        self.begin_reset(Left::Unknown)?;
        let full = self.finish_reset()?;
        self.await_fresh()?;
        Ok(full)
    }

    /// Asks the holder for the reset of `WorkerNamespace::reset` and
    /// returns at once, so the judge's own work after a run (the cgroup's
    /// emptiness check and counters) overlaps the holder's. Every
    /// successful call must be followed by `WorkerNamespace::finish_reset`
    /// before the run's result is handed back (its report is what says the
    /// namespace is empty), and by `WorkerNamespace::await_fresh` before
    /// the next run starts (what says the scratch is fresh).
    pub(super) fn begin_reset(&self, left: Left) -> Result<(), SandboxError> {
        let failed = |source| SandboxError::Syscall {
            syscall: "write",
            purpose: "asking the namespace's init to clean up after a run",
            source,
        };
        let Some(commands) = &self.holder.commands else {
            return Err(failed(io::ErrorKind::BrokenPipe.into()));
        };
        let command = match left {
            Left::Unknown => holder::RESET,
            Left::OnlyInItsTree => holder::RESET_TREE,
        };
        match rustix::io::write(commands, &[command]) {
            Ok(1) => {}
            Ok(_) => return Err(failed(io::ErrorKind::WriteZero.into())),
            Err(errno) => return Err(failed(errno.into())),
        }
        Ok(())
    }

    /// Waits for the first report of the reset asked by
    /// `WorkerNamespace::begin_reset`: every process of the run is gone,
    /// and whether the old scratch was full. The holder mounts the fresh
    /// scratch after it; `WorkerNamespace::await_fresh` waits for that.
    pub(super) fn finish_reset(&self) -> Result<bool, SandboxError> {
        let [status, value] = self.holder.read_report(holder::KILL_GRACE_MS)?;
        match status {
            0 => {
                self.mounting.set(true);
                Ok(value == 1)
            }
            holder::SURVIVORS => Err(SandboxError::Survivors {
                count: usize::try_from(value).unwrap_or(0),
                cgroup: PathBuf::from(format!("the PID namespace of {}", self.holder.pid)),
            }),
            _ => Err(Self::mount_failed(value)),
        }
    }

    /// Waits, where a reset is under way, for the holder's report that the
    /// scratch and `/dev/shm` are fresh: what every run must have before it
    /// starts (issue #31: awaited here, before the next run, rather than
    /// before the last run's result is handed back, the judge's thread
    /// idled through the holder's mounts). An `Err` leaves a namespace
    /// that no run may use.
    pub(super) fn await_fresh(&self) -> Result<(), SandboxError> {
        if !self.mounting.replace(false) {
            return Ok(());
        }
        let [status, value] = self.holder.read_report(holder::KILL_GRACE_MS)?;
        match status {
            holder::FRESH => Ok(()),
            _ => Err(Self::mount_failed(value)),
        }
    }

    /// For tests: as if the holder were still to report a fresh scratch,
    /// a report that never comes (a holder hung in its mounts).
    #[cfg(test)]
    pub(super) fn expect_a_fresh_report(&self) {
        self.mounting.set(true);
    }

    fn mount_failed(errno: i32) -> SandboxError {
        SandboxError::Namespace {
            step: "mount a fresh scratch tmpfs".to_owned(),
            source: io::Error::from_raw_os_error(errno),
        }
    }

    /// `path` (absolute) as a program in the namespace sees it, reachable
    /// from the judge's threads.
    pub(super) fn view(&self, path: &Path) -> PathBuf {
        let relative = path.strip_prefix("/").unwrap_or(path);
        PathBuf::from(format!("/proc/self/fd/{}", self.root.as_raw_fd())).join(relative)
    }

    /// Whether every path in `paths` is visible inside as on the host.
    pub(super) fn shows(&self, paths: &[PathBuf], privilege: Privilege) -> bool {
        paths.iter().all(|path| {
            !needs_binding(path, privilege, &self.extra_masks)
                || self.kept.iter().any(|kept| path.starts_with(kept))
        })
    }

    /// Makes the namespace described by `plan`.
    pub(super) fn create(plan: &Plan<'_>) -> Result<WorkerNamespace, SandboxError> {
        let setup = Setup::new(plan)?;
        let holder = holder::clone_holder(&setup, plan.privilege)?;
        // On an error the holder is dropped, which ends it.
        let mut namespace = holder.finish(plan, &setup.names)?;
        namespace.kept = setup.kept;
        namespace.private_shm = setup.shm_step.is_some();
        namespace.writable = plan.writable.to_vec();
        namespace.extra_masks = plan.extra_masks.to_vec();
        namespace.hidden = plan.hidden.to_vec();
        Ok(namespace)
    }
}

/// What the judge knows of the processes a run may have left in the
/// worker's PID namespace, when it asks the holder to clean up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::sandbox::unix) enum Left {
    /// Anything: the holder kills every other process of its namespace
    /// (`kill(-1)`, which walks every process of the host).
    Unknown,
    /// The run's program is reaped, and its filter refused `CLONE_PARENT`
    /// (and `clone3`), so every process the run left is a descendant of a
    /// child of the holder (an orphan is reparented to the namespace's
    /// init as its parent exits, before that parent can be reaped): the
    /// holder without a child has nothing to kill (issue #31: the two
    /// `kill(-1)` walks of the host's processes, about 0.02 ms a run).
    /// Pro: a run that left nothing costs the holder two `waitpid`s. Con:
    /// only as safe as the facts above, which the judge vouches for.
    OnlyInItsTree,
}
