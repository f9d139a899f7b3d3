//! The namespace holder: cloned into the worker's new namespaces, it runs
//! the plan's steps, reports, and then stays as the PID namespace's init,
//! killing what each run left and mounting a fresh scratch tmpfs. A reset
//! reports twice: once the namespace is empty (with whether the run filled
//! its scratch), and once the scratch is fresh.

use super::plan::Setup;
use super::steps::{run_step, Step};
use super::{Plan, Privilege, WorkerNamespace};
use crate::sandbox::unix::proc_file::{Pieces, ProcFile};
use crate::sandbox::unix::reap::{kill, reap_within, ProcessTarget};
use crate::sandbox::unix::sockets::SocketCount;
use crate::sandbox::unix::spawn::{clone_blocking_signals, pipe};
use crate::sandbox::SandboxError;
use rustix::fs::{Mode, OFlags};
use std::io::{self, Write};
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::time::Duration;

/// How long the holder may take to make the namespace.
const HOLDER_GRACE_MS: libc::c_int = 10_000;

/// Starts the holder in new namespaces and lets it run its steps.
pub(super) fn clone_holder(setup: &Setup, privilege: Privilege) -> Result<Holder, SandboxError> {
    let failed = |syscall| {
        move |source| SandboxError::Syscall {
            syscall,
            purpose: "making the worker's namespaces",
            source,
        }
    };
    let (go_read, go_write) = pipe().map_err(failed("pipe2"))?;
    let (report_read, report_write) = pipe().map_err(failed("pipe2"))?;
    let (commands_read, commands_write) = pipe().map_err(failed("pipe2"))?;
    let context = HolderContext {
        steps: &setup.steps,
        slots: vec![-1; setup.steps.len()],
        last_pid_slot: setup.last_pid_slot,
        shm_step: setup.shm_step,
        wait_for_go: matches!(privilege, Privilege::User { .. }),
        go: go_read.as_raw_fd(),
        report: report_write.as_raw_fd(),
        commands: commands_read.as_raw_fd(),
    };
    // An IPC namespace of the worker's own too: its runs enter it, away
    // from the host's objects (the filter refuses every IPC call of a run;
    // see `IpcLayer::CallsRefused`).
    let flags = match privilege {
        Privilege::Root => libc::CLONE_NEWNS | libc::CLONE_NEWPID | libc::CLONE_NEWIPC,
        Privilege::User { .. } => {
            libc::CLONE_NEWUSER
                | libc::CLONE_NEWNS
                | libc::CLONE_NEWNET
                | libc::CLONE_NEWPID
                | libc::CLONE_NEWIPC
        }
    };
    // SAFETY: `holder_main` gets a pointer to `context` in its own copy
    // of our memory (no CLONE_VM) and makes only system calls on values
    // prepared before the clone; it keeps every signal blocked.
    let pid = unsafe {
        clone_blocking_signals(
            holder_main,
            flags,
            &context as *const HolderContext<'_> as *mut libc::c_void,
        )
    };
    drop((go_read, report_write, commands_read));
    let pid = pid.map_err(failed("clone"))?;
    let holder = Holder {
        pid,
        report: report_read,
        commands: Some(commands_write),
    };
    if let Privilege::User { uid, gid } = privilege {
        let maps = [
            ("setgroups", "deny".to_owned()),
            ("uid_map", format!("{uid} {uid} 1")),
            ("gid_map", format!("{gid} {gid} 1")),
        ];
        for (file, text) in maps {
            let path = format!("/proc/{pid}/{file}");
            if let Err(source) = fs_err::write(&path, text) {
                // Dropping the holder ends it.
                return Err(SandboxError::path("write", path, source));
            }
        }
        let mut go = std::fs::File::from(go_write);
        let _ = go.write_all(b"g");
    }
    Ok(holder)
}

/// How long the holder may take to kill and reap what a run left.
pub(super) const KILL_GRACE_MS: libc::c_int = 10_000;

/// The command byte of a reset (`WorkerNamespace::begin_reset`) where the
/// run may have left anything: kill every other process of the namespace.
pub(super) const RESET: u8 = b'r';
/// The command byte of a reset where the run's processes can only be in
/// the holder's tree (`Left::OnlyInItsTree`): without a child, nothing is
/// left to kill.
pub(super) const RESET_TREE: u8 = b't';

/// The status of the first report of a reset when processes outlived the
/// holder's grace (its value: how many); no second report follows.
pub(super) const SURVIVORS: i32 = 1;
/// The status of the second report of a reset (`WorkerNamespace::await_fresh`):
/// the scratch and `/dev/shm` are mounted anew.
pub(super) const FRESH: i32 = 0;
/// The status of the second report of a reset when a mount failed (its
/// value: the errno).
pub(super) const FRESH_FAILED: i32 = 2;

/// The namespace's holder: the init of its PID namespace.
pub(super) struct Holder {
    pub(super) pid: libc::pid_t,
    /// Reports of the holder: 8 bytes each, two native-endian `i32`.
    report: OwnedFd,
    /// Commands to the holder (`r`: reset after a run); closing it ends it.
    pub(super) commands: Option<OwnedFd>,
}

impl Holder {
    /// Reads one report, waiting at most `timeout_ms`.
    pub(super) fn read_report(&self, timeout_ms: libc::c_int) -> Result<[i32; 2], SandboxError> {
        // Bounded like every wait of the judge: a holder that neither
        // reports nor ends in time is given up on.
        use rustix::event::{poll, PollFd, PollFlags, Timespec};
        let timeout = Timespec {
            tv_sec: i64::from(timeout_ms / 1000),
            tv_nsec: i64::from(timeout_ms % 1000) * 1_000_000,
        };
        loop {
            let mut ready = [PollFd::new(&self.report, PollFlags::IN)];
            let result = poll(&mut ready, Some(&timeout));
            if result == Err(rustix::io::Errno::INTR) {
                continue;
            }
            if !matches!(result, Ok(count) if count > 0) {
                return Err(SandboxError::Namespace {
                    step: "hear from the namespace holder in time".to_owned(),
                    source: io::Error::from(io::ErrorKind::TimedOut),
                });
            }
            break;
        }
        let mut report = [0u8; 8];
        // The holder writes each report at once, and a pipe write of 8
        // bytes is atomic: one read gets all of it, or the holder is gone.
        let read = loop {
            match rustix::io::read(&self.report, &mut report) {
                Err(rustix::io::Errno::INTR) => continue,
                other => break other,
            }
        };
        if read != Ok(report.len()) {
            return Err(SandboxError::Syscall {
                syscall: "read",
                purpose: "hearing from the namespace holder (it ended without a word)",
                source: io::Error::from(io::ErrorKind::UnexpectedEof),
            });
        }
        Ok([
            i32::from_ne_bytes([report[0], report[1], report[2], report[3]]),
            i32::from_ne_bytes([report[4], report[5], report[6], report[7]]),
        ])
    }

    /// Waits for the holder's first report and takes descriptors of what it
    /// made; the holder lives on in the namespace.
    pub(super) fn finish(
        self,
        plan: &Plan<'_>,
        names: &[String],
    ) -> Result<WorkerNamespace, SandboxError> {
        let [step, value] = self.read_report(HOLDER_GRACE_MS)?;
        if step >= 0 {
            let what = names
                .get(step as usize)
                .cloned()
                .unwrap_or_else(|| format!("step {step}"));
            return Err(SandboxError::Namespace {
                step: what,
                source: io::Error::from_raw_os_error(value),
            });
        }
        let open = |path: String, flags: OFlags| -> Result<OwnedFd, SandboxError> {
            rustix::fs::open(&path, flags | OFlags::CLOEXEC, Mode::empty())
                .map_err(|errno| SandboxError::path("open", path, errno.into()))
        };
        let pid = self.pid;
        let (user, network) = match plan.privilege {
            Privilege::Root => (None, None),
            Privilege::User { .. } => (
                Some(open(format!("/proc/{pid}/ns/user"), OFlags::RDONLY)?),
                Some(open(format!("/proc/{pid}/ns/net"), OFlags::RDONLY)?),
            ),
        };
        let sockets = match plan.privilege {
            Privilege::Root => None,
            Privilege::User { .. } => {
                Some(SocketCount::open(&format!("/proc/{pid}/net/sockstat"))?)
            }
        };
        // Read at every sample of a run without a memory cgroup (its
        // orphans), so opened once (issue #31); the holder is one thread
        // (a clone without `CLONE_THREAD` that makes none), so its main
        // thread's children are all of them. Where it cannot be opened, the
        // samples walk the holder's threads.
        let orphans = ProcFile::open(&format!("/proc/{pid}/task/{pid}/children"), Pieces::Records);
        let mount = open(format!("/proc/{pid}/ns/mnt"), OFlags::RDONLY)?;
        let ipc = open(format!("/proc/{pid}/ns/ipc"), OFlags::RDONLY)?;
        let pid_namespace = open(format!("/proc/{pid}/ns/pid"), OFlags::RDONLY)?;
        // Once per worker (this runs on the worker thread, which a
        // `Sandbox` never leaves): the namespace the thread goes back to.
        let own_pid = match plan.privilege {
            Privilege::Root => Some(open("/proc/thread-self/ns/pid".to_owned(), OFlags::RDONLY)?),
            Privilege::User { .. } => None,
        };
        let root = open(
            format!("/proc/{pid}/root"),
            OFlags::PATH | OFlags::DIRECTORY,
        )?;
        // The success report's value: 1 when `/proc` is private, else the
        // negated errno its mount was refused with (0: never tried).
        Ok(WorkerNamespace {
            user,
            network,
            mount,
            ipc,
            pid: pid_namespace,
            own_pid,
            root,
            sockets,
            orphans,
            holder: self,
            mounting: std::cell::Cell::new(false),
            private_proc: value == 1,
            private_shm: false,
            proc_refused: (value < 0).then(|| value.saturating_neg()),
            scratch_kib: plan.scratch_kib,
            kept: Vec::new(),
            writable: Vec::new(),
            extra_masks: Vec::new(),
            hidden: Vec::new(),
        })
    }
}

impl Drop for Holder {
    /// Closing the command pipe ends the holder; its PID namespace dies with
    /// it (the kernel kills every process left in it).
    fn drop(&mut self) {
        self.commands.take();
        if reap_within(self.pid, None, Duration::from_secs(5)).is_err() {
            kill(ProcessTarget::Process(self.pid));
            let _ = reap_within(self.pid, None, Duration::from_secs(5));
        }
    }
}

/// What the holder reads, in its own copy of the judge's memory.
struct HolderContext<'a> {
    steps: &'a [Step],
    /// Descriptors opened by `Step::Open`, by slot.
    slots: Vec<RawFd>,
    /// The slot holding the namespace's `ns_last_pid`.
    last_pid_slot: usize,
    /// The step mounting the run's `/dev/shm`, run again after each run.
    shm_step: Option<usize>,
    wait_for_go: bool,
    go: RawFd,
    report: RawFd,
    commands: RawFd,
}

/// Closes every descriptor of the calling process but those in `keep`.
///
/// # Safety
/// Only for a process whose other descriptors nobody in it uses any more.
unsafe fn close_all_but(keep: &[RawFd]) {
    let mut sorted = [-1; 8];
    let count = keep.len().min(sorted.len());
    sorted[..count].copy_from_slice(&keep[..count]);
    sorted[..count].sort_unstable();
    let mut next: libc::c_uint = 0;
    for &fd in &sorted[..count] {
        if fd < 0 {
            continue;
        }
        let fd = fd as libc::c_uint;
        if fd > next {
            // SAFETY: as the caller promises.
            unsafe { libc::syscall(libc::SYS_close_range, next, fd - 1, 0) };
        }
        next = next.max(fd + 1);
    }
    // SAFETY: as the caller promises.
    unsafe { libc::syscall(libc::SYS_close_range, next, libc::c_uint::MAX, 0) };
}

/// Kills and reaps every other process of the holder's PID namespace.
/// Returns 0, or how many were still there after the grace.
///
/// # Safety
/// In the holder only, which is the namespace's init.
unsafe fn kill_everything_else() -> i32 {
    // SAFETY (whole body): kill, waitpid and nanosleep on integers.
    unsafe {
        for _ in 0..KILL_GRACE_MS {
            // From a PID namespace's init, -1 is every other process in it.
            libc::kill(-1, libc::SIGKILL);
            while libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) > 0 {}
            if libc::kill(-1, 0) != 0 {
                // ESRCH: nothing left, not even a zombie.
                return 0;
            }
            let pause = libc::timespec {
                tv_sec: 0,
                tv_nsec: 1_000_000,
            };
            libc::nanosleep(&pause, std::ptr::null_mut());
        }
        1
    }
}

/// The holder: runs the steps in its new namespaces, reports the first
/// failure (step index and errno) or success (-1 and whether `/proc` is
/// private: 1, or the negated errno of its refused mount), then serves the judge as its PID namespace's init until the
/// judge closes the command pipe.
extern "C" fn holder_main(argument: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `argument` points to the holder's own copy of the context;
    // everything below is a system call on values prepared before the
    // clone, with no allocation.
    unsafe {
        let context = &mut *(argument as *mut HolderContext<'_>);
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
        // The holder lives as long as the worker: it must not keep the
        // judge's other descriptors (another run's pipes) open.
        close_all_but(&[context.go, context.report, context.commands]);
        let report = |step: i32, value: i32| {
            let mut bytes = [0u8; 8];
            bytes[..4].copy_from_slice(&step.to_ne_bytes());
            bytes[4..].copy_from_slice(&value.to_ne_bytes());
            libc::write(context.report, bytes.as_ptr().cast(), 8);
        };
        let errno = || {
            io::Error::last_os_error()
                .raw_os_error()
                .unwrap_or(libc::EIO)
        };
        if context.wait_for_go {
            let mut byte = 0u8;
            if libc::read(context.go, (&mut byte as *mut u8).cast(), 1) != 1 {
                libc::_exit(1);
            }
        }
        let mut private_proc = 0;
        for (index, step) in context.steps.iter().enumerate() {
            if run_step(step, &mut context.slots, &mut private_proc) != 0 {
                report(index as i32, errno());
                libc::_exit(1);
            }
        }
        let last_pid = context
            .slots
            .get(context.last_pid_slot)
            .copied()
            .unwrap_or(-1);
        close_all_but(&[context.report, context.commands, last_pid]);
        report(-1, private_proc);
        let Some(Step::Tmpfs {
            target: scratch, ..
        }) = context.steps.last()
        else {
            libc::_exit(1);
        };
        let scratch_step = context.steps.len() - 1;
        loop {
            let mut byte = 0u8;
            if libc::read(context.commands, (&mut byte as *mut u8).cast(), 1) != 1 {
                // The judge let go (or died): the namespace ends with us.
                libc::_exit(0);
            }
            // Nothing to kill where the judge vouches that the run's
            // processes are all in the holder's tree and the holder has no
            // child left (`Left::OnlyInItsTree`); zombies are reaped here.
            let empty = byte == RESET_TREE && {
                let mut result;
                loop {
                    result = libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG);
                    if result <= 0 {
                        break;
                    }
                }
                result < 0 && errno() == libc::ECHILD
            };
            let left = if empty { 0 } else { kill_everything_else() };
            if left != 0 {
                report(SURVIVORS, left);
                continue;
            }
            // Only the holder (pid 1) is left: the next run's first process
            // is pid 2 again, whatever the runs before it made.
            if last_pid >= 0 {
                libc::pwrite(last_pid, c"1".as_ptr().cast(), 1, 0);
            }
            // Whether the run filled its scratch space (no byte or inode
            // left in the scratch or in `/dev/shm`), part of the run's
            // verdict: looked at here, once nothing of the run is left to
            // write, on the holder's own mounts (the judge would reach
            // them only through `/proc/self/fd/N/...`, and before the
            // holder's kill).
            // SAFETY: a zeroed statvfs is a valid out-parameter.
            let mut stats: libc::statvfs = std::mem::zeroed();
            let mut full = libc::statvfs(scratch.as_ptr(), &mut stats) == 0
                && (stats.f_bavail == 0 || stats.f_favail == 0);
            let shm = context.shm_step.and_then(|index| context.steps.get(index));
            if let Some(Step::Tmpfs { target: shm, .. }) = shm {
                full |= libc::statvfs(shm.as_ptr(), &mut stats) == 0
                    && (stats.f_bavail == 0 || stats.f_favail == 0);
            }
            // The first report: the namespace is empty, and whether the
            // run was full. The judge hands the run's result back on it and
            // awaits the second only before its next run starts (issue #31).
            report(0, i32::from(full));
            // Nothing holds the old scratch any more: detached, it is freed
            // (and its memory uncharged) at once.
            if libc::umount2(scratch.as_ptr(), libc::MNT_DETACH) != 0
                || run_step(&context.steps[scratch_step], &mut [], &mut 0) != 0
            {
                report(FRESH_FAILED, errno());
                continue;
            }
            // The run's `/dev/shm` likewise: its semaphores and segments
            // die with it.
            if let Some(step @ Step::Tmpfs { target: shm, .. }) = shm {
                if libc::umount2(shm.as_ptr(), libc::MNT_DETACH) != 0
                    || run_step(step, &mut [], &mut 0) != 0
                {
                    report(FRESH_FAILED, errno());
                    continue;
                }
            }
            // The second report: the scratch and `/dev/shm` are fresh.
            report(FRESH, 0);
        }
    }
}
