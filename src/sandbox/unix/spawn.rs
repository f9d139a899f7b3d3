//! Starting a program: `clone(CLONE_VM | CLONE_VFORK)` like posix_spawn,
//! then, in the child, everything that confines it (descriptors, cgroups,
//! namespaces, rlimits, user, Landlock, seccomp) before `execve`.
//!
//! A PID namespace applies to the children of whoever enters it
//! (`setns(CLONE_NEWPID)` changes only the caller's namespace for its
//! children), so the program is put in the worker's one in one of two ways:
//!
//! - as root ([`ThreadPidEntry`]): the judge's worker thread enters the
//!   namespace for its children, clones the program (born there, it execs
//!   directly), and goes back to its own at once, on every path;
//! - without root: a multithreaded process cannot enter the user namespace
//!   that owns the PID namespace, so the child enters the namespaces and
//!   clones the program once more, with `CLONE_PARENT`: the program is the
//!   judge's child (its status, rusage and pidfd are the judge's) and lives
//!   in the worker's PID namespace; the first child exits as soon as the
//!   program has exec'd.

use super::reap::{pidfd_open, reap_within};
use crate::sandbox::{RunSpec, SandboxError};
use std::ffi::{CString, OsString};
use std::io::{self, Read};
use std::os::fd::{AsRawFd, BorrowedFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::time::Duration;

/// A child that has exec'd (or failed to): its pid and our ends of its
/// stdout and stderr pipes.
pub(super) struct Child {
    pub(super) pid: libc::pid_t,
    /// `None` when the caller gave the program's stdout (a connected run).
    pub(super) stdout: Option<OwnedFd>,
    pub(super) stderr: OwnedFd,
    /// The run's CPU counter as the program read it just before its
    /// `execve` (`None` without a counter or when the read failed).
    pub(super) charge_at_exec: Option<String>,
}

/// Bytes of the CPU counter the program reads before `execve`: v1's
/// `cpuacct.usage` is one number, v2's `cpu.stat` starts with
/// `usage_usec`.
const CHARGE_BYTES: usize = 128;

/// Everything the child needs, as C values built before the clone, so the
/// child allocates nothing.
pub(super) struct ExecPlan {
    program: CString,
    _argv: Vec<CString>,
    argv: Vec<*const libc::c_char>,
    _envp: Vec<CString>,
    envp: Vec<*const libc::c_char>,
    workdir: CString,
    stdin: RawFd,
    setup: ChildSetup,
    /// The caller's descriptor for the program's stdout (a connected run),
    /// or -1 for a pipe the sandbox reads.
    given_stdout: RawFd,
    /// Set by `spawn`: the pipes' child ends and the error pipe.
    stdout: RawFd,
    stderr: RawFd,
    error: RawFd,
    /// Set by `spawn`: the top of the program's own stack, when the first
    /// child clones it into the PID namespace.
    program_stack: *mut libc::c_void,
    /// Written by the first child: the program's pid (0 until cloned).
    program_pid: std::sync::atomic::AtomicI32,
    /// Written by the program just before `execve`: the text of the CPU
    /// counter, and how many bytes of it (-1: none).
    charge_at_exec: std::cell::UnsafeCell<[u8; CHARGE_BYTES]>,
    charge_at_exec_len: std::sync::atomic::AtomicIsize,
}

pub(super) fn c_string(bytes: &[u8]) -> io::Result<CString> {
    CString::new(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in an argument"))
}

pub(super) fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).map_err(io::Error::from)
}

impl ExecPlan {
    pub(super) fn new(
        spec: &RunSpec,
        workdir: &Path,
        environment: &[(OsString, OsString)],
        stdin: RawFd,
        setup: ChildSetup,
    ) -> Result<ExecPlan, SandboxError> {
        let invalid = |source| SandboxError::Spawn {
            program: spec.program.clone(),
            source,
        };
        let program = c_string(spec.program.as_os_str().as_bytes()).map_err(invalid)?;
        let mut argv_strings = vec![program.clone()];
        for arg in &spec.args {
            argv_strings.push(c_string(arg.as_bytes()).map_err(invalid)?);
        }
        let mut env_strings = Vec::new();
        for (key, value) in environment {
            let mut entry = key.as_bytes().to_vec();
            entry.push(b'=');
            entry.extend_from_slice(value.as_bytes());
            env_strings.push(c_string(&entry).map_err(invalid)?);
        }
        let pointers = |strings: &[CString]| {
            strings
                .iter()
                .map(|string| string.as_ptr())
                .chain([std::ptr::null()])
                .collect::<Vec<_>>()
        };
        Ok(ExecPlan {
            argv: pointers(&argv_strings),
            envp: pointers(&env_strings),
            _argv: argv_strings,
            _envp: env_strings,
            workdir: c_string(workdir.as_os_str().as_bytes()).map_err(invalid)?,
            program,
            stdin,
            setup,
            given_stdout: -1,
            stdout: -1,
            stderr: -1,
            error: -1,
            program_stack: std::ptr::null_mut(),
            program_pid: std::sync::atomic::AtomicI32::new(0),
            charge_at_exec: std::cell::UnsafeCell::new([0; CHARGE_BYTES]),
            charge_at_exec_len: std::sync::atomic::AtomicIsize::new(-1),
        })
    }

    /// The program's stdout goes to `fd` (kept open by the caller until the
    /// spawn returns) instead of a pipe the sandbox reads.
    pub(super) fn with_stdout(mut self, fd: RawFd) -> ExecPlan {
        self.given_stdout = fd;
        self
    }

    /// Starts the program the way posix_spawn does: `clone(CLONE_VM |
    /// CLONE_VFORK)` on a stack of its own, so the judge's page tables are
    /// not copied as `fork` would (a third of a small test's cost); the
    /// judge's thread waits until the child has exec'd or failed. The
    /// stacks are the worker's (`Stacks`), free again when this returns.
    ///
    /// With `entry` (as root) the program is cloned from inside the
    /// worker's PID namespace, entered by this thread for the clone alone.
    pub(super) fn spawn(
        mut self,
        stacks: &mut Stacks,
        entry: Option<ThreadPidEntry<'_>>,
    ) -> io::Result<Child> {
        let (stdout_read, stdout_write) = if self.given_stdout >= 0 {
            (None, None)
        } else {
            let (read, write) = pipe()?;
            (Some(read), Some(write))
        };
        let (stderr_read, stderr_write) = pipe()?;
        let (error_read, error_write) = pipe()?;
        self.stdout = stdout_write
            .as_ref()
            .map_or(self.given_stdout, AsRawFd::as_raw_fd);
        self.stderr = stderr_write.as_raw_fd();
        self.error = error_write.as_raw_fd();
        let two_step = self.setup.pid_namespace >= 0;
        if two_step {
            self.program_stack = stack_top(&mut stacks.program);
        }
        // SAFETY: `child_main` receives a pointer to `self`, which lives on
        // this suspended thread's stack until the child has exec'd or
        // exited (CLONE_VFORK); it only reads the plan (and writes the
        // atomics and the `charge_at_exec` buffer, which this thread reads
        // only after that) and makes async-signal-safe system calls.
        // `program_stack` outlives the program's use of it: the first child
        // waits (CLONE_VFORK) until the program has exec'd or exited.
        let argument = &self as *const ExecPlan as *mut libc::c_void;
        let mut clone = || unsafe {
            clone_on(
                child_main,
                libc::CLONE_VM | libc::CLONE_VFORK,
                argument,
                &mut stacks.first,
            )
        };
        let pid = match entry {
            // As root: the child is born in the PID namespace and is the
            // program itself (no second clone).
            Some(entry) if !two_step => entry.clone_inside(clone),
            _ => clone(),
        };
        drop((stdout_write, stderr_write, error_write));
        let mut pid = pid?;
        if two_step {
            // The first child has let go of the judge's memory by exiting
            // (it never execs) and is finishing its exit; waited for on a
            // pidfd, which wakes at its end, rather than in pauses that a
            // busy machine stretches to whole time slices. Reaped at once:
            // its zombie would count in the run's `pids` until then.
            let first = pidfd_open(pid);
            let _ = reap_within(pid, first.as_ref(), Duration::from_secs(5));
            pid = self.program_pid.load(std::sync::atomic::Ordering::SeqCst);
        }
        // The error pipe closes on a successful exec; otherwise it carries
        // the errno of the step that failed.
        let mut errno = [0u8; 4];
        let mut error_file = std::fs::File::from(error_read);
        let reported = matches!(error_file.read(&mut errno), Ok(4));
        if reported || pid <= 0 {
            if pid > 0 {
                // It has exited (or is about to): the error was its last act.
                let _ = reap_within(pid, None, Duration::from_secs(5));
            }
            let code = if reported {
                i32::from_ne_bytes(errno)
            } else {
                libc::EIO
            };
            return Err(io::Error::from_raw_os_error(code));
        }
        let read = self
            .charge_at_exec_len
            .load(std::sync::atomic::Ordering::SeqCst);
        let charge_at_exec = usize::try_from(read)
            .ok()
            .filter(|&count| count > 0 && count <= CHARGE_BYTES)
            .map(|count| {
                String::from_utf8_lossy(&self.charge_at_exec.get_mut()[..count]).into_owned()
            });
        Ok(Child {
            pid,
            stdout: stdout_read,
            stderr: stderr_read,
            charge_at_exec,
        })
    }
}

/// The worker's PID namespace as the worker thread enters it around a
/// spawn, as root: `setns(CLONE_NEWPID)` changes only the calling thread's
/// namespace for its children (the thread itself stays where it is), and a
/// thread may always go back to its own active namespace. Root in the
/// judge's user namespace owns the holder's PID namespace, so the worker
/// thread has the capability `setns` asks for in both; without root the
/// child does it ([`ChildSetup::pid_namespace`]).
///
/// Per run, not per worker: the worker thread itself must keep its own
/// namespace for its children between runs. While it points elsewhere a
/// thread cannot be made (`clone(CLONE_THREAD)` fails with `EINVAL` when
/// the namespace for children is not the active one), and interactive
/// runs, external tools and the shared-output code start threads from the
/// worker thread; so nothing but the clone happens in between.
#[derive(Clone, Copy)]
pub(super) struct ThreadPidEntry<'a> {
    /// The holder's PID namespace.
    pub(super) namespace: BorrowedFd<'a>,
    /// The worker thread's own PID namespace, opened once per worker.
    pub(super) own: BorrowedFd<'a>,
}

impl ThreadPidEntry<'_> {
    /// Runs `clone` with this thread's children born in the worker's PID
    /// namespace, and puts the thread back in its own after it, whatever
    /// the clone did.
    fn clone_inside(
        self,
        clone: impl FnOnce() -> io::Result<libc::pid_t>,
    ) -> io::Result<libc::pid_t> {
        use rustix::thread::{move_into_link_name_space, LinkNameSpaceType};
        move_into_link_name_space(self.namespace, Some(LinkNameSpaceType::ProcessID))?;
        let cloned = clone();
        let back = move_into_link_name_space(self.own, Some(LinkNameSpaceType::ProcessID));
        let stuck = |errno: rustix::io::Errno| {
            format!(
                "the worker thread could not go back to its own PID namespace: {}",
                io::Error::from(errno)
            )
        };
        match (cloned, back) {
            (Ok(pid), Ok(())) => Ok(pid),
            (Ok(pid), Err(errno)) => {
                // The program has exec'd (CLONE_VFORK), but this thread
                // could not make threads any more: the run does not happen.
                super::reap::kill(super::reap::ProcessTarget::Process(pid));
                let _ = reap_within(pid, None, Duration::from_secs(5));
                Err(io::Error::other(stuck(errno)))
            }
            // Both failed: the way back is the error that outlives this run.
            (Err(error), Err(errno)) => Err(io::Error::other(format!(
                "{} (after the clone failed: {error})",
                stuck(errno)
            ))),
            // A PID namespace whose init has ended allocates no pid any
            // more: the holder was killed (or died), and no program can
            // run in this namespace.
            (Err(error), Ok(())) if error.raw_os_error() == Some(libc::ENOMEM) => {
                Err(io::Error::other(format!(
                    "the worker's PID namespace takes no new process: its init, the \
                     namespace holder, has ended (or the kernel is out of memory): {error}"
                )))
            }
            (Err(error), Ok(())) => Err(error),
        }
    }
}

/// The stack of a cloned child.
const STACK_BYTES: usize = 256 * 1024;

/// A worker's two spawn stacks (the first child's, the program's before its
/// exec), allocated once per worker instead of twice per run (each a
/// 256 KiB `mmap`, page faults and a `munmap` whose TLB shootdown reaches
/// every thread of the judge). Per worker without a channel between runs:
/// only the judge's own code runs on them, in the judge's memory, before
/// the program's `execve` replaces that memory; the program never sees them.
pub(super) struct Stacks {
    first: Vec<u8>,
    program: Vec<u8>,
}

impl Stacks {
    pub(super) fn new() -> Stacks {
        Stacks {
            first: vec![0u8; STACK_BYTES],
            program: vec![0u8; STACK_BYTES],
        }
    }
}

/// The top of `stack`, aligned down to 16 bytes as the ABI wants.
fn stack_top(stack: &mut [u8]) -> *mut libc::c_void {
    let top = stack.as_mut_ptr_range().end;
    ((top as usize) & !15) as *mut libc::c_void
}

/// `clone(entry, flags | SIGCHLD)` on a fresh 256 KiB stack, with every
/// signal blocked around it, so no handler of the judge runs in the child
/// (the child unblocks what it needs). Returns the child's pid.
///
/// # Safety
/// `entry` runs in the child with `argument`; with `CLONE_VM` it shares the
/// judge's memory, so it must only make async-signal-safe system calls on
/// values prepared before the clone, and the caller must keep `argument`
/// alive until the child has exec'd or exited (`CLONE_VFORK`). Without
/// `CLONE_VM` the child works on its own copy of everything.
pub(super) unsafe fn clone_blocking_signals(
    entry: extern "C" fn(*mut libc::c_void) -> libc::c_int,
    flags: libc::c_int,
    argument: *mut libc::c_void,
) -> io::Result<libc::pid_t> {
    let mut stack = vec![0u8; STACK_BYTES];
    // SAFETY: as the caller promises; `stack` outlives the child's use of it
    // (with CLONE_VFORK the parent waits until the child execs or exits;
    // without CLONE_VM the child has a copy).
    unsafe { clone_on(entry, flags, argument, &mut stack) }
}

/// `clone_blocking_signals` on `stack`.
///
/// # Safety
/// As for `clone_blocking_signals`; and nothing else may use `stack`
/// until the child has exec'd or exited (`CLONE_VFORK`), or, without
/// `CLONE_VM`, until the clone returns.
unsafe fn clone_on(
    entry: extern "C" fn(*mut libc::c_void) -> libc::c_int,
    flags: libc::c_int,
    argument: *mut libc::c_void,
    stack: &mut [u8],
) -> io::Result<libc::pid_t> {
    let stack_top = stack_top(stack);
    // SAFETY: zeroed sigset_t values are valid for sigfillset/pthread_sigmask.
    let (mut all, mut previous): (libc::sigset_t, libc::sigset_t) =
        unsafe { (std::mem::zeroed(), std::mem::zeroed()) };
    // SAFETY: both sets are valid.
    unsafe {
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut previous);
    }
    // SAFETY: as the caller promises (see above).
    let pid = unsafe { libc::clone(entry, stack_top, flags | libc::SIGCHLD, argument) };
    let clone_error = io::Error::last_os_error();
    // SAFETY: restores the mask saved above.
    unsafe {
        libc::pthread_sigmask(libc::SIG_SETMASK, &previous, std::ptr::null_mut());
    }
    if pid < 0 {
        return Err(clone_error);
    }
    Ok(pid)
}

/// Writes `error` to the error pipe and exits.
///
/// # Safety
/// In a child between clone and exec only.
unsafe fn fail(plan: &ExecPlan, error: i32) -> libc::c_int {
    let bytes = error.to_ne_bytes();
    // SAFETY: a valid 4-byte buffer; _exit never returns.
    unsafe {
        libc::write(plan.error, bytes.as_ptr().cast(), 4);
        libc::_exit(127)
    }
}

fn errno() -> i32 {
    io::Error::last_os_error()
        .raw_os_error()
        .unwrap_or(libc::EIO)
}

/// The child between clone and exec: signal dispositions, stdio, every
/// other descriptor closed at exec, cgroups and namespaces; then either the
/// program's own setup and execve ([`program_main`]) or, to enter a PID
/// namespace without root, a clone of the program with `CLONE_PARENT`. Any
/// failure is reported through the error pipe.
extern "C" fn child_main(argument: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `argument` is the parent's ExecPlan, alive and unchanged while
    // the parent is suspended; everything below is an async-signal-safe
    // system call on values prepared before the clone.
    unsafe {
        let plan = &*(argument as *const ExecPlan);
        // Default dispositions: an ignored signal (the judge ignores
        // SIGPIPE) would stay ignored across exec, and no handler of the
        // judge may run here.
        for signal in 1..libc::SIGRTMAX() {
            if signal != libc::SIGKILL && signal != libc::SIGSTOP {
                libc::signal(signal, libc::SIG_DFL);
            }
        }
        // Moved above 2 first, so no source is overwritten by an earlier
        // dup2 (the judge may have been started with 0, 1 or 2 closed).
        let sources = [plan.stdin, plan.stdout, plan.stderr]
            .map(|fd| libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 3));
        for (target, source) in sources.into_iter().enumerate() {
            if source < 0 || libc::dup2(source, target as libc::c_int) < 0 {
                return fail(plan, errno());
            }
        }
        // Every descriptor but 0, 1 and 2 closes at exec: whatever the judge
        // was started with (`3<answers.txt`) or holds (another run's pipes,
        // the namespaces) never reaches the program. The setup below still
        // uses some of them until then.
        if libc::syscall(
            libc::SYS_close_range,
            3u32,
            libc::c_uint::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        ) != 0
        {
            return fail(plan, errno());
        }
        if let Err(error) = enter(&plan.setup) {
            return fail(plan, error.raw_os_error().unwrap_or(libc::EIO));
        }
        if plan.setup.pid_namespace < 0 {
            return program_main(argument);
        }
        if libc::setns(plan.setup.pid_namespace, libc::CLONE_NEWPID) != 0 {
            return fail(plan, errno());
        }
        let pid = libc::clone(
            program_main,
            plan.program_stack,
            libc::CLONE_VM | libc::CLONE_VFORK | libc::CLONE_PARENT | libc::SIGCHLD,
            argument,
        );
        if pid < 0 {
            return fail(plan, errno());
        }
        plan.program_pid
            .store(pid, std::sync::atomic::Ordering::SeqCst);
        libc::_exit(0)
    }
}

/// The program's own setup, then execve: process group, the rest of
/// [`child_setup`], the signal mask, and last the run's CPU counter, so the
/// charge starts at the program's `execve` and none of this setup is the
/// program's time.
extern "C" fn program_main(argument: *mut libc::c_void) -> libc::c_int {
    // SAFETY: as for `child_main`: the parent's ExecPlan, and only
    // async-signal-safe system calls on values prepared before the clone.
    unsafe {
        let plan = &*(argument as *const ExecPlan);
        if libc::setpgid(0, 0) != 0 {
            return fail(plan, errno());
        }
        if let Err(error) = child_setup(&plan.setup, &plan.workdir) {
            return fail(plan, error.raw_os_error().unwrap_or(libc::EIO));
        }
        let mut empty: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut empty);
        libc::pthread_sigmask(libc::SIG_SETMASK, &empty, std::ptr::null_mut());
        if plan.setup.cpu_counter >= 0 {
            // Into the judge's memory (CLONE_VM), read by the parent once
            // this process has exec'd: pread is async-signal-safe and the
            // descriptor, opened by the judge, needs no path (Landlock and
            // seccomp allow it).
            let read = libc::pread(
                plan.setup.cpu_counter,
                plan.charge_at_exec.get().cast(),
                CHARGE_BYTES,
                0,
            );
            plan.charge_at_exec_len
                .store(read, std::sync::atomic::Ordering::SeqCst);
        }
        libc::execve(
            plan.program.as_ptr(),
            plan.argv.as_ptr(),
            plan.envp.as_ptr(),
        );
        fail(plan, errno())
    }
}

/// Joins the run's cgroups and enters the worker's namespaces (not the PID
/// namespace: a process never enters one itself, it is born there).
fn enter(setup: &ChildSetup) -> io::Result<()> {
    let check = |result: libc::c_int| {
        if result < 0 {
            Err(io::Error::last_os_error())
        } else {
            Ok(())
        }
    };
    // SAFETY (whole function): runs in the child between clone and exec, and
    // makes only async-signal-safe system calls on values prepared before
    // the clone; it allocates nothing.
    unsafe {
        if setup.join_cgroups {
            for fd in setup.cgroup_procs {
                if fd < 0 {
                    continue; // cgroup v2: one file
                }
                // "0" means the writer (v2's `cgroup.procs`: its process;
                // v1's `tasks`: its thread, which is the whole child): the
                // child joins before exec, so every process the program
                // creates is counted.
                if libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
                    return Err(io::Error::last_os_error());
                }
            }
        }
        // Joined from the host's view (the cgroup files were opened there);
        // then the worker's namespaces, where paths mean what the program
        // will see. Entering a mount namespace resets the working directory.
        // Per run, by `setns` (the namespaces are made once per worker): the
        // judge's own threads must keep the host's view of the tests.
        for (fd, kind) in setup.namespaces {
            if fd >= 0 {
                check(libc::setns(fd, kind))?;
            }
        }
    }
    Ok(())
}

/// Values the child needs, prepared before the clone so the child only
/// makes async-signal-safe system calls.
#[derive(Clone, Copy)]
pub(super) struct ChildSetup {
    pub(super) cgroup_procs: [RawFd; 3],
    pub(super) join_cgroups: bool,
    /// The run's CPU counter (`cpuacct.usage` or `cpu.stat`), which the
    /// program reads just before `execve` (-1: none).
    pub(super) cpu_counter: RawFd,
    /// The worker's namespaces to enter, in this order (-1: none): a user
    /// namespace (unprivileged mode), then network, mount and IPC.
    pub(super) namespaces: [(RawFd, libc::c_int); 4],
    /// The worker's PID namespace (-1: none, or entered by the worker
    /// thread as root, [`ThreadPidEntry`]), which the child clones the
    /// program into.
    pub(super) pid_namespace: RawFd,
    /// A fresh IPC namespace for this run alone (made after the worker's
    /// namespaces are entered, so it replaces the worker's IPC one).
    pub(super) new_ipc_namespace: bool,
    pub(super) rlimits: [(libc::__rlimit_resource_t, libc::rlim_t); 7],
    pub(super) rlimit_count: usize,
    /// The uid to run as (as root), in the group of `nobody`.
    pub(super) user: Option<u32>,
    pub(super) landlock: Option<RawFd>,
    /// The seccomp filters to install, last (compiled before the clone).
    pub(super) seccomp: &'static [seccompiler::BpfProgram],
    pub(super) umask: libc::mode_t,
}

fn child_setup(setup: &ChildSetup, workdir: &CString) -> io::Result<()> {
    let check = |result: libc::c_int| {
        if result < 0 {
            Err(io::Error::last_os_error())
        } else {
            Ok(())
        }
    };
    // SAFETY (whole function): runs in the child between clone and exec, and
    // makes only async-signal-safe system calls on values prepared before
    // the clone; it allocates nothing.
    unsafe {
        libc::umask(setup.umask);
        if setup.new_ipc_namespace {
            check(libc::unshare(libc::CLONE_NEWIPC))?;
        }
        check(libc::chdir(workdir.as_ptr()))?;
        for &(resource, value) in &setup.rlimits[..setup.rlimit_count] {
            let limit = libc::rlimit {
                rlim_cur: value,
                rlim_max: value,
            };
            check(libc::setrlimit(resource, &limit))?;
        }
        if let Some(id) = setup.user {
            // Raw system calls: glibc's wrappers would broadcast the change
            // to every thread it believes this process has, and a child
            // made with CLONE_VM shares the judge's idea of its threads.
            let raw = |result: libc::c_long| check(if result < 0 { -1 } else { 0 });
            raw(libc::syscall(
                libc::SYS_setgroups,
                0,
                std::ptr::null::<libc::gid_t>(),
            ))?;
            // The worker's own uid, in the group of `nobody` (which may
            // pass through the workspace).
            raw(libc::syscall(libc::SYS_setgid, super::NOBODY))?;
            raw(libc::syscall(libc::SYS_setuid, id))?;
        }
        // After the user switch, which clears it: die with the judge.
        check(libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0))?;
        // No setuid binary can hand privileges back (and Landlock needs it).
        check(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))?;
        // Per run: a ruleset binds the process that restricts itself, and
        // the judge must stay unrestricted (the ruleset itself is built once
        // per worker and program).
        if let Some(fd) = setup.landlock {
            if libc::syscall(libc::SYS_landlock_restrict_self, fd, 0u32) < 0 {
                return Err(io::Error::last_os_error());
            }
        }
    }
    // Last: the filters deny calls the setup above needs. The kernel copies
    // each program; nothing is allocated here.
    for filter in setup.seccomp {
        seccompiler::apply_filter(filter).map_err(|error| match error {
            seccompiler::Error::Prctl(error) | seccompiler::Error::Seccomp(error) => error,
            _ => io::Error::from_raw_os_error(libc::EINVAL),
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
