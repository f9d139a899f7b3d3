//! The Linux half of the sandbox: every system call the judge makes on
//! processes lives below this module, so `unsafe` lives here and nowhere
//! else. Its parts:
//!
//! - [`cgroups`]: the worker's cgroup (v1 or v2, as root or delegated);
//!   kill by membership;
//! - [`apparmor`]: whether Ubuntu's AppArmor blocks user namespaces;
//! - [`namespaces`]: the worker's mount and PID (and user, network)
//!   namespaces, whose holder is the PID namespace's init: it kills what a
//!   run left and mounts a fresh scratch tmpfs for the next;
//! - [`landlock`], [`seccomp`]: what a program may touch and call;
//! - [`spawn`]: clone, the child's confinement (descriptors closed at exec,
//!   namespaces, a second clone into the PID namespace), execve;
//! - [`streams`]: reading stdout and stderr under caps;
//! - [`reap`]: kills, bounded waits, orphans;
//! - [`scratch`]: the directories a program may write.
//!
//! One [`Sandbox`] per worker thread. It is deliberately `!Send`: the network
//! namespace it enters belongs to the thread that created it, and every
//! program it spawns inherits that thread's namespaces.

// The crate denies unsafe code; this module is the one place that talks to
// the kernel directly (fork-time setup, poll, wait4, kill, Landlock), and
// every block says why it is sound.
#![allow(unsafe_code)]

mod apparmor;
mod cgroups;
mod landlock;
mod namespaces;
mod reap;
mod scratch;
#[cfg(target_arch = "x86_64")]
mod seccomp;
mod spawn;
mod streams;

use self::cgroups::Cgroups;
use self::namespaces::{Plan, Privilege, WorkerNamespace};
use self::reap::{
    become_subreaper, count_own_processes, has_exited, kill, kill_escaped_orphans, lock_spawned,
    pidfd_open, process_cpu_time, reap_within, ProcessTarget,
};
use self::spawn::{ChildSetup, ExecPlan};
use self::streams::Supervised;
use super::{
    decide_limit, CgroupLayer, CompileLayer, Connection, IpcLayer, Isolation, IsolationLevel,
    Measured, MemoryLayer, MountLayer, NamespaceMode, NetworkLayer, Observation, ProcLayer,
    RunSpec, SandboxError, ScratchLayer, SignalLayer, SyscallLayer, Termination, Trust,
    SANDBOX_PATH,
};
use std::ffi::OsString;
use std::marker::PhantomData;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The uid and gid submissions and compilers run as when the judge is root:
/// `nobody`, which owns no file the judge needs and cannot signal the judge.
const NOBODY: u32 = 65534;

/// Directories a submission may read and execute from: the dynamic loader,
/// shared libraries, interpreters and their standard libraries.
const SYSTEM_READ_PATHS: &[&str] = &[
    "/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin", "/etc", "/proc",
];

/// Paths no run or compile may see, bound over with an empty file or
/// folder in every worker namespace: the judge's own binary (which holds
/// the reference solvers: `exec judge solve` would be an answer key) and
/// the data installed beside it (`PREFIX/share/judge`, `PREFIX/lib/judge`).
fn hidden_paths() -> &'static [PathBuf] {
    static HIDDEN: std::sync::OnceLock<Vec<PathBuf>> = std::sync::OnceLock::new();
    HIDDEN.get_or_init(|| {
        let mut paths = Vec::new();
        if let Ok(exe) = std::env::current_exe() {
            if let Ok(real) = fs_err::canonicalize(&exe) {
                if let Some(prefix) = real.parent().and_then(Path::parent) {
                    paths.push(prefix.join("share/judge"));
                    paths.push(prefix.join("lib/judge"));
                }
                paths.push(real);
            }
            paths.push(exe);
        }
        paths.sort();
        paths.dedup();
        paths
    })
}

/// Device files a submission may read and write.
const DEVICE_PATHS: &[&str] = &["/dev/null", "/dev/zero", "/dev/urandom", "/dev/random"];

/// How long a killed program may take to die before the judge gives up on
/// it (JE): every wait of the judge is bounded.
const KILL_GRACE: Duration = Duration::from_secs(5);

/// The longest the judge sleeps between CPU-time checks.
const MAX_POLL_INTERVAL: Duration = Duration::from_millis(100);

static SANDBOX_COUNTER: AtomicU64 = AtomicU64::new(0);

pub(super) fn detect_isolation() -> Isolation {
    // SAFETY: geteuid has no preconditions and cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    let cgroup_layer = cgroups::detect(root);
    let cgroups = cgroup_layer != CgroupLayer::None;
    let landlock_abi = landlock::abi();
    let (namespaces, private_proc) = probe_namespaces(root);
    let network_namespace = match namespaces {
        NamespaceMode::UserNamespace => true,
        NamespaceMode::Root | NamespaceMode::None => root && probe_network_namespace(),
    };
    let network = if network_namespace {
        NetworkLayer::Namespace
    } else if landlock_abi.is_some_and(|abi| abi >= 4) {
        NetworkLayer::LandlockTcp
    } else {
        NetworkLayer::None
    };
    let signals = if landlock_abi.is_some_and(|abi| abi >= 6) {
        SignalLayer::Landlock
    } else if root {
        SignalLayer::User
    } else {
        SignalLayer::ProcessGroup
    };
    let with_namespaces = namespaces != NamespaceMode::None;
    let full = cgroups
        && root
        && network_namespace
        && namespaces == NamespaceMode::Root
        && private_proc
        && landlock_abi.is_some_and(|abi| abi >= 6);
    Isolation {
        level: if full {
            IsolationLevel::Full
        } else {
            IsolationLevel::Partial
        },
        user: root.then_some(NOBODY),
        namespaces,
        cgroups: cgroup_layer,
        memory: if cgroups {
            MemoryLayer::Cgroup
        } else {
            MemoryLayer::Rlimit
        },
        network,
        ipc: if with_namespaces {
            IpcLayer::NamespacePerRun
        } else {
            IpcLayer::None
        },
        mount: if with_namespaces {
            MountLayer::Namespace
        } else {
            MountLayer::None
        },
        proc: if private_proc {
            ProcLayer::Hidepid
        } else {
            ProcLayer::Shared
        },
        scratch: if with_namespaces {
            ScratchLayer::Quota
        } else {
            ScratchLayer::FileSizeOnly
        },
        landlock_abi,
        signals,
        syscalls: if cfg!(target_arch = "x86_64") {
            SyscallLayer::Seccomp
        } else {
            SyscallLayer::None
        },
        compile: if root {
            CompileLayer::Confined
        } else {
            CompileLayer::InvokingUser
        },
    }
}

/// Why there are no cgroups, for the start-up note.
pub(super) fn cgroup_reason() -> Option<&'static str> {
    cgroups::unavailable_reason()
}

/// Whether AppArmor restricts unprivileged user namespaces on this host.
pub(super) fn userns_restricted() -> bool {
    apparmor::restricts_unprivileged_userns()
}

/// Random digits fixed for this process, for names other judges on the
/// host (in any PID namespace) cannot hold.
fn process_token() -> &'static str {
    static TOKEN: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TOKEN.get_or_init(cgroups::random_token)
}

/// The privilege namespaces are made with here.
fn privilege(root: bool) -> Privilege {
    if root {
        Privilege::Root
    } else {
        // SAFETY: getuid and getgid have no preconditions.
        let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
        Privilege::User { uid, gid }
    }
}

/// Whether a worker namespace can be made (as root, or in an unprivileged
/// user namespace), and whether its `/proc` is private: tried once, for
/// real, in a throwaway directory.
fn probe_namespaces(root: bool) -> (NamespaceMode, bool) {
    let Ok(dir) = tempfile::Builder::new().prefix("judge-probe-").tempdir() else {
        return (NamespaceMode::None, false);
    };
    let boxdir = dir.path().join("box");
    if fs_err::create_dir(&boxdir).is_err() {
        return (NamespaceMode::None, false);
    }
    let plan = Plan {
        privilege: privilege(root),
        boxdir: &boxdir,
        scratch_kib: 64,
        scratch_owner: None,
        keep: &[dir.path().to_path_buf()],
        hidden: &[],
        extra_masks: &[],
        writable: &[],
    };
    match WorkerNamespace::create(&plan) {
        Ok(namespace) if root => (NamespaceMode::Root, namespace.private_proc),
        Ok(namespace) => (NamespaceMode::UserNamespace, namespace.private_proc),
        Err(_) => (NamespaceMode::None, false),
    }
}

/// Whether a thread may enter a network namespace of its own. Tried on a
/// throwaway thread, whose namespace dies with it.
fn probe_network_namespace() -> bool {
    std::thread::spawn(|| {
        // SAFETY: unshare only changes the calling thread's namespaces; this
        // thread ends right after.
        unsafe { libc::unshare(libc::CLONE_NEWNET) == 0 }
    })
    .join()
    .unwrap_or(false)
}

#[cfg(target_arch = "x86_64")]
fn seccomp_filter() -> Option<&'static [libc::sock_filter]> {
    Some(seccomp::filter())
}

#[cfg(not(target_arch = "x86_64"))]
fn seccomp_filter() -> Option<&'static [libc::sock_filter]> {
    None
}

/// What a Landlock ruleset depends on.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RulesetKey {
    trust: Trust,
    program: PathBuf,
    read_paths: Vec<PathBuf>,
    workdir: PathBuf,
    /// Landlock rules hold inodes, not names: a scratch directory made anew
    /// needs a new ruleset, and so does a new namespace.
    workdir_inode: (u64, u64),
    namespace_generation: u64,
}

/// One worker's isolation, reused for every run on that worker's thread.
pub struct Sandbox {
    isolation: &'static Isolation,
    /// The workspace the sandbox lives in; runs need it visible.
    root: PathBuf,
    directory: PathBuf,
    cgroups: Option<Cgroups>,
    /// The worker's mount namespace, made on the first run.
    namespace: Option<WorkerNamespace>,
    namespace_generation: u64,
    /// The paths the last run needed, already found visible in
    /// [`Sandbox::namespace`].
    shown: Option<Vec<PathBuf>>,
    /// Processes of the invoking user when the sandbox was made, for
    /// RLIMIT_NPROC without a pids cgroup (the limit counts the whole user).
    baseline_processes: u64,
    ruleset_cache: Option<(RulesetKey, OwnedFd)>,
    /// The network namespace and the cgroups belong to this thread.
    _not_send: PhantomData<*const ()>,
}

impl Sandbox {
    /// Sets up isolation for the calling thread: a network namespace of its
    /// own (as root), a cgroup per controller, and a private directory
    /// under `root` for scratch directories. `root` must be traversable by
    /// the sandbox user (mode 0711).
    pub fn new(root: &Path) -> Result<Sandbox, SandboxError> {
        let isolation = Isolation::detect();
        let unique = SANDBOX_COUNTER.fetch_add(1, Ordering::Relaxed);
        // Unique across PID namespaces too: another judge may share `root`'s
        // parent and have the same pid.
        let name = format!("judge-{}-{unique}", process_token());
        if isolation.network == NetworkLayer::Namespace
            && isolation.namespaces != NamespaceMode::UserNamespace
        {
            // SAFETY: unshare changes only this thread's namespaces; the
            // programs this thread spawns inherit them. It fails cleanly.
            if unsafe { libc::unshare(libc::CLONE_NEWNET) } != 0 {
                return Err(SandboxError::last_os(
                    "unshare(CLONE_NEWNET)",
                    "giving the worker a network namespace without interfaces",
                ));
            }
        }
        let cgroups = match isolation.cgroups {
            CgroupLayer::None => None,
            CgroupLayer::CgroupV1 | CgroupLayer::CgroupV2 | CgroupLayer::CgroupV2Delegated => {
                Some(Cgroups::create()?)
            }
        };
        let directory = root.join(&name);
        fs_err::create_dir(&directory)
            .map_err(|source| SandboxError::path("create", &directory, source))?;
        scratch::set_mode(&directory, 0o711)?;
        become_subreaper();
        let _ = seccomp_filter(); // built here, never between fork and exec
        let baseline_processes = if cgroups.is_none() {
            count_own_processes()
        } else {
            0
        };
        Ok(Sandbox {
            isolation,
            root: root.to_path_buf(),
            directory,
            cgroups,
            namespace: None,
            namespace_generation: 0,
            shown: None,
            baseline_processes,
            ruleset_cache: None,
            _not_send: PhantomData,
        })
    }

    /// The isolation in force.
    pub fn isolation(&self) -> &'static Isolation {
        self.isolation
    }

    /// For the runner bench: the mean time of the cleanup after a run (the
    /// PID namespace's init killing and reaping what is left, and a fresh
    /// scratch tmpfs), over `times` cleanups; `None` before the first run
    /// or without a namespace.
    #[doc(hidden)]
    pub fn time_cleanup(&mut self, times: u32) -> Result<Option<Duration>, SandboxError> {
        let Some(namespace) = &self.namespace else {
            return Ok(None);
        };
        let started = Instant::now();
        for _ in 0..times {
            namespace.reset()?;
        }
        Ok(Some(started.elapsed() / times.max(1)))
    }

    /// Runs one program to its end, or until a limit, and kills everything
    /// it left behind. `Err` only when the judge failed.
    pub fn run(&mut self, spec: &RunSpec) -> Result<Measured, SandboxError> {
        self.run_with(spec, None)
    }

    /// [`Sandbox::run`] with the program's stdin and stdout connected to
    /// the caller's descriptors (an interactive problem): `spec.stdin` is
    /// ignored, nothing of stdout is captured, and setting `connection.stop`
    /// ends the run (it is killed, as at a limit, with no limit reported).
    pub fn run_connected(
        &mut self,
        spec: &RunSpec,
        connection: Connection,
    ) -> Result<Measured, SandboxError> {
        self.run_with(spec, Some(connection))
    }

    fn run_with(
        &mut self,
        spec: &RunSpec,
        connection: Option<Connection>,
    ) -> Result<Measured, SandboxError> {
        self.ensure_namespace(spec)?;
        let user = self.isolation.user;
        if let (Trust::Tool, Some(dir)) = (spec.trust, &spec.workdir) {
            scratch::lend(dir, user)?;
            let view = self.view(dir);
            let result = self.run_in(spec, dir, &view, connection);
            let reclaimed = scratch::reclaim(dir, user);
            let measured = result?;
            reclaimed?;
            return Ok(measured);
        }
        let boxdir = self.directory.join("box");
        let scratch = namespaces::scratch_in(&boxdir);
        if self.namespace.is_some() {
            // The scratch tmpfs is fresh: its holder mounted a new one after
            // the last run. The box holds it; rules are on the box.
            let view = self.view(&boxdir);
            return self.run_in(spec, &scratch, &view, connection);
        }
        // Without a namespace, a new directory for every run (a reused one
        // would keep its extended attributes and times), removed after it.
        scratch::make_scratch(&scratch, user)?;
        let result = self.run_in(spec, &scratch, &scratch, connection);
        scratch::remove_tree(&scratch)?;
        result
    }

    /// `path` as the programs of this worker see it, for the judge's
    /// threads (which keep the host's view).
    fn view(&self, path: &Path) -> PathBuf {
        match &self.namespace {
            Some(namespace) => namespace.view(path),
            None => path.to_path_buf(),
        }
    }

    /// Makes (or remakes) the worker's namespace so it shows every path
    /// the run needs and has the run's scratch quota.
    fn ensure_namespace(&mut self, spec: &RunSpec) -> Result<(), SandboxError> {
        if self.isolation.namespaces == NamespaceMode::None {
            return Ok(());
        }
        let privilege = privilege(self.isolation.namespaces == NamespaceMode::Root);
        let scratch_kib = match (spec.trust, &self.namespace) {
            (Trust::Tool, Some(namespace)) => namespace.scratch_kib,
            _ => spec.limits.scratch_kib,
        };
        let root_mode = privilege == Privilege::Root;
        // As root, the whole workspace is kept (runs are another user, and
        // Landlock limits what they read). Without root, runs are the
        // judge's own user: they see only their own program, folders and
        // box, read-only but for a compiler's directory.
        let mut keep = vec![
            if root_mode {
                self.root.clone()
            } else {
                self.directory.clone()
            },
            spec.program.clone(),
        ];
        keep.extend(spec.read_paths.iter().cloned());
        keep.extend(spec.workdir.iter().cloned());
        let writable: Vec<PathBuf> = match (root_mode, spec.trust) {
            (false, Trust::Tool) => spec.workdir.iter().cloned().collect(),
            _ => Vec::new(),
        };
        let extra_masks = if root_mode {
            Vec::new()
        } else {
            vec![self.root.clone()]
        };
        if let Some(namespace) = &self.namespace {
            // The per-test path: the same program and paths as the last run
            // need no new look at the file system (`shows` stats ancestors).
            if namespace.scratch_kib == scratch_kib
                && namespace.writable == writable
                && (self.shown.as_ref() == Some(&keep) || namespace.shows(&keep, privilege))
            {
                self.shown = Some(keep);
                return Ok(());
            }
            // As root, paths only accumulate, so alternating toolchains do
            // not remake the namespace every time; without root a run sees
            // no earlier submission's folder.
            if root_mode {
                keep.extend(namespace.kept.iter().cloned());
            }
        }
        self.namespace = None;
        self.ruleset_cache = None;
        let boxdir = self.directory.join("box");
        if fs_err::symlink_metadata(&boxdir).is_ok() {
            scratch::remove_tree(&boxdir)?;
        }
        fs_err::create_dir(&boxdir)
            .map_err(|source| SandboxError::path("create", &boxdir, source))?;
        let plan = Plan {
            privilege,
            boxdir: &boxdir,
            scratch_kib,
            scratch_owner: self.isolation.user,
            keep: &keep,
            hidden: hidden_paths(),
            extra_masks: &extra_masks,
            writable: &writable,
        };
        self.namespace = Some(WorkerNamespace::create(&plan)?);
        self.namespace_generation += 1;
        self.shown = None;
        Ok(())
    }

    fn run_in(
        &mut self,
        spec: &RunSpec,
        workdir: &Path,
        workdir_view: &Path,
        connection: Option<Connection>,
    ) -> Result<Measured, SandboxError> {
        let limits = &spec.limits;
        if let Some(cgroups) = &mut self.cgroups {
            cgroups.prepare(limits)?;
        }
        let landlock = self.ruleset(spec, workdir, workdir_view)?;
        let setup = self.child_setup(spec, landlock);
        let (stdin, given_stdout, stop) = match connection {
            Some(connection) => (
                connection.stdin,
                Some(connection.stdout),
                Some(connection.stop),
            ),
            None => (stdin_copy(spec.stdin.as_deref())?, None, None),
        };
        let mut environment: Vec<(OsString, OsString)> = vec![
            ("PATH".into(), SANDBOX_PATH.into()),
            ("HOME".into(), workdir.as_os_str().to_owned()),
            ("TMPDIR".into(), workdir.as_os_str().to_owned()),
            ("LANG".into(), "C.UTF-8".into()),
        ];
        for (key, value) in &spec.env {
            environment.retain(|(existing, _)| existing != key);
            environment.push((key.clone(), value.clone()));
        }
        let mut plan = ExecPlan::new(spec, workdir, &environment, stdin.as_raw_fd(), setup)?;
        if let Some(stdout) = &given_stdout {
            plan = plan.with_stdout(stdout.as_raw_fd());
        }
        let started = Instant::now();
        let child = {
            // Held across the spawn, so the orphan sweep of another worker
            // never mistakes this new child for an escaped process.
            let mut spawned = lock_spawned();
            let child = plan.spawn().map_err(|source| SandboxError::Spawn {
                program: spec.program.clone(),
                source,
            })?;
            spawned.push(child.pid);
            child
        };
        drop(stdin);
        drop(given_stdout);
        let pid = child.pid;
        let pidfd = pidfd_open(pid);
        // From here on the child must be killed and reaped on every path.
        let outcome = self.supervise(
            child.stdout,
            child.stderr,
            pid,
            pidfd.as_ref(),
            limits,
            started,
            stop.as_deref(),
        );
        // The program itself by pid (it may have left its group) and its
        // group; then a bounded wait, then the rest of its cgroup.
        kill(ProcessTarget::Process(pid));
        kill(ProcessTarget::Group(pid));
        let reaped = reap_within(pid, pidfd.as_ref(), KILL_GRACE);
        if reaped.is_ok() {
            lock_spawned().retain(|&other| other != pid);
        }
        // The namespace's init kills and reaps whatever is left in the run's
        // PID namespace, and gives the next run a fresh scratch tmpfs.
        let reset = match &self.namespace {
            Some(namespace) => namespace.reset().map(Some),
            None => Ok(None),
        };
        let cleanup = match &self.cgroups {
            Some(cgroups) => cgroups.kill_all(Some(pid)),
            None if self.namespace.is_none() => {
                kill_escaped_orphans();
                Ok(())
            }
            None => Ok(()),
        };
        let mut supervised = outcome?;
        let (status, rusage) = reaped?;
        let scratch_was_full = reset?;
        cleanup?;
        let wall_time = supervised.exited_at.unwrap_or_else(Instant::now) - started;
        supervised.drain(limits);

        let termination = if libc::WIFSIGNALED(status) {
            Termination::Signaled(libc::WTERMSIG(status))
        } else {
            Termination::Exited(libc::WEXITSTATUS(status))
        };
        let rusage_cpu = timeval_duration(rusage.ru_utime) + timeval_duration(rusage.ru_stime);
        let (cpu_time, memory_kib, oom_killed) = match &mut self.cgroups {
            Some(cgroups) => (
                cgroups.cpu_time()?,
                cgroups.memory_peak_kib()?,
                cgroups.oom_killed_since_last(),
            ),
            None => (
                rusage_cpu,
                u64::try_from(rusage.ru_maxrss).unwrap_or(0),
                false,
            ),
        };
        let scratch_full = spec.trust == Trust::Submission && scratch_was_full == Some(true);
        let observation = Observation {
            seen: supervised.limit,
            termination,
            cpu_time_ms: duration_ms(cpu_time),
            wall_time_ms: duration_ms(wall_time),
            memory_kib,
            oom_killed,
            scratch_full,
        };
        Ok(Measured {
            termination,
            limit_exceeded: decide_limit(&observation, limits),
            cpu_time_ms: observation.cpu_time_ms,
            wall_time_ms: observation.wall_time_ms,
            memory_kib,
            stdout: supervised.stdout,
            stderr: supervised.stderr,
            stderr_discarded_bytes: supervised.stderr_discarded_bytes,
        })
    }

    /// The Landlock ruleset for this run, built once per distinct program
    /// and paths and reused: a worker runs the same program test after test.
    fn ruleset(
        &mut self,
        spec: &RunSpec,
        workdir: &Path,
        workdir_view: &Path,
    ) -> Result<Option<RawFd>, SandboxError> {
        let key = RulesetKey {
            trust: spec.trust,
            program: spec.program.clone(),
            read_paths: spec.read_paths.clone(),
            workdir: workdir.to_path_buf(),
            workdir_inode: fs_err::metadata(workdir_view).map_or((0, 0), |metadata| {
                use std::os::unix::fs::MetadataExt;
                (metadata.dev(), metadata.ino())
            }),
            namespace_generation: self.namespace_generation,
        };
        if let Some((cached, fd)) = &self.ruleset_cache {
            if *cached == key {
                return Ok(Some(fd.as_raw_fd()));
            }
        }
        let Some(fd) = self.build_ruleset(spec, workdir_view)? else {
            return Ok(None);
        };
        let raw = fd.as_raw_fd();
        self.ruleset_cache = Some((key, fd));
        Ok(Some(raw))
    }

    fn build_ruleset(
        &self,
        spec: &RunSpec,
        workdir_view: &Path,
    ) -> Result<Option<OwnedFd>, SandboxError> {
        let Some(abi) = self.isolation.landlock_abi else {
            return Ok(None);
        };
        let all = landlock::all_fs_rights(abi);
        let read = landlock::READ_FILE | landlock::READ_DIR | landlock::EXECUTE;
        let device = landlock::READ_FILE | landlock::WRITE_FILE;
        // The same rules for submissions and compilers: reads from system
        // directories, the program (or toolchain) and its own folder, so a
        // submission cannot read an answer file and a compile of
        // `#include "/path/to/1.ans"` fails; writes to the work directory
        // only, and never a device node. Paths are opened as the program
        // will see them (its own /proc, its scratch tmpfs).
        let mut ruleset = landlock::Ruleset::new(abi, all, true)?;
        for path in SYSTEM_READ_PATHS {
            ruleset.allow(&self.view(Path::new(path)), read)?;
        }
        for path in &spec.read_paths {
            ruleset.allow(&self.view(path), read)?;
        }
        ruleset.allow(&self.view(&spec.program), read)?;
        for path in DEVICE_PATHS {
            ruleset.allow(&self.view(Path::new(path)), device)?;
        }
        ruleset.allow(workdir_view, all & !landlock::MAKE_DEVICES)?;
        Ok(Some(ruleset.into_fd()))
    }

    fn child_setup(&self, spec: &RunSpec, landlock: Option<RawFd>) -> ChildSetup {
        let limits = &spec.limits;
        let cgroup_procs = match &self.cgroups {
            Some(cgroups) => cgroups.procs_fds(),
            None => [-1; 3],
        };
        let kib = |value: u64| value.saturating_mul(1024) as libc::rlim_t;
        // RLIMIT_CPU is a per-process backstop in whole seconds; the judge
        // enforces the tree's CPU limit to the millisecond by polling.
        let cpu_seconds = limits.cpu_time_ms.div_ceil(1000) + 1;
        let mut rlimits = [(libc::RLIMIT_CORE, 0); 7];
        let mut count = 0;
        let mut push = |resource, value: libc::rlim_t| {
            rlimits[count] = (resource, value);
            count += 1;
        };
        push(libc::RLIMIT_CORE, 0);
        push(libc::RLIMIT_CPU, cpu_seconds as libc::rlim_t);
        push(libc::RLIMIT_FSIZE, kib(limits.file_size_kib));
        push(libc::RLIMIT_NOFILE, limits.open_files as libc::rlim_t);
        if spec.trust == Trust::Submission {
            // Deep recursion is legitimate up to the memory limit.
            push(libc::RLIMIT_STACK, kib(limits.memory_kib));
        }
        if self.cgroups.is_none() {
            push(libc::RLIMIT_AS, kib(limits.memory_kib));
            push(
                libc::RLIMIT_NPROC,
                (self.baseline_processes + u64::from(limits.processes)) as libc::rlim_t,
            );
        }
        ChildSetup {
            cgroup_procs,
            join_cgroups: self.cgroups.is_some(),
            namespaces: match &self.namespace {
                Some(namespace) => {
                    let [user, network, mount, _] = namespace.setns_targets();
                    [user, network, mount]
                }
                None => [(-1, 0); 3],
            },
            pid_namespace: match &self.namespace {
                Some(namespace) => namespace.setns_targets()[3].0,
                None => -1,
            },
            new_ipc_namespace: self.isolation.ipc == IpcLayer::NamespacePerRun,
            rlimits,
            rlimit_count: count,
            // Compilers too (issue #7): a compile step is hostile code.
            user: self.isolation.user,
            landlock,
            seccomp: true,
            umask: match spec.trust {
                Trust::Submission => 0o077,
                Trust::Tool => 0o022,
            },
        }
    }

    /// Watches a running program: reads its output as it streams, checks CPU
    /// time and the wall clock, and stops at the first limit or at its exit.
    #[expect(
        clippy::too_many_arguments,
        reason = "the parts of one run, all borrowed from run_in"
    )]
    fn supervise(
        &self,
        stdout: Option<OwnedFd>,
        stderr: OwnedFd,
        pid: libc::pid_t,
        pidfd: Option<&OwnedFd>,
        limits: &super::Limits,
        started: Instant,
        stop: Option<&AtomicBool>,
    ) -> Result<Supervised, SandboxError> {
        let mut supervised = Supervised::new(stdout, stderr)?;
        let cpu_limit = Duration::from_millis(limits.cpu_time_ms);
        let wall_deadline = started + Duration::from_millis(limits.wall_time_ms);
        loop {
            // Checked at least every MAX_POLL_INTERVAL, so Ctrl-C ends a
            // running test (and compile) at once, not at its wall limit.
            if crate::interrupt::requested() {
                return Err(SandboxError::Cancelled);
            }
            if stop.is_some_and(|stop| stop.load(Ordering::SeqCst)) {
                return Ok(supervised);
            }
            let cpu_used = self.cpu_time_of(pid)?;
            if cpu_used > cpu_limit {
                supervised.limit = Some(super::LimitExceeded::CpuTime);
                return Ok(supervised);
            }
            let now = Instant::now();
            if now >= wall_deadline {
                supervised.limit = Some(super::LimitExceeded::WallTime);
                return Ok(supervised);
            }
            let timeout = (cpu_limit - cpu_used)
                .min(wall_deadline - now)
                .min(if pidfd.is_some() {
                    MAX_POLL_INTERVAL
                } else {
                    Duration::from_millis(5)
                })
                .max(Duration::from_millis(1));
            let exited = supervised.poll(pidfd, timeout, limits)?;
            if supervised.limit.is_some() {
                return Ok(supervised);
            }
            if exited || (pidfd.is_none() && has_exited(pid)) {
                supervised.exited_at = Some(Instant::now());
                return Ok(supervised);
            }
        }
    }

    fn cpu_time_of(&self, pid: libc::pid_t) -> Result<Duration, SandboxError> {
        match &self.cgroups {
            Some(cgroups) => cgroups.cpu_time(),
            None => Ok(process_cpu_time(pid)),
        }
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        self.cgroups.take();
        self.namespace.take();
        let _ = scratch::remove_tree(&self.directory);
    }
}

/// The program's stdin: a sealed copy of the input in memory, so
/// `readlink /proc/self/fd/0` does not tell where the judge keeps its
/// tests (issue #7) and the program cannot change the judge's file.
fn stdin_copy(path: Option<&Path>) -> Result<OwnedFd, SandboxError> {
    let Some(path) = path else {
        return fs_err::File::open("/dev/null")
            .map(|file| OwnedFd::from(file.into_parts().0))
            .map_err(|source| SandboxError::path("open", "/dev/null", source));
    };
    let mut input = fs_err::File::open(path)
        .map_err(|source| SandboxError::path("open the input", path, source))?;
    // SAFETY: a static NUL-terminated name and valid flags.
    let fd = unsafe {
        libc::memfd_create(
            c"stdin".as_ptr(),
            libc::MFD_CLOEXEC | libc::MFD_ALLOW_SEALING,
        )
    };
    if fd < 0 {
        return Err(SandboxError::last_os(
            "memfd_create",
            "copying the input for the program",
        ));
    }
    // SAFETY: memfd_create returned a new descriptor we now own.
    let mut copy = std::fs::File::from(unsafe { OwnedFd::from_raw_fd(fd) });
    std::io::copy(&mut input, &mut copy)
        .map_err(|source| SandboxError::path("copy the input", path, source))?;
    use std::io::Seek;
    copy.rewind()
        .map_err(|source| SandboxError::path("copy the input", path, source))?;
    let seals = libc::F_SEAL_WRITE | libc::F_SEAL_GROW | libc::F_SEAL_SHRINK | libc::F_SEAL_SEAL;
    // SAFETY: fcntl on a descriptor we own, with integer arguments.
    if unsafe { libc::fcntl(copy.as_raw_fd(), libc::F_ADD_SEALS, seals) } != 0 {
        return Err(SandboxError::last_os(
            "fcntl(F_ADD_SEALS)",
            "making the program's input read-only",
        ));
    }
    Ok(OwnedFd::from(copy))
}

fn timeval_duration(time: libc::timeval) -> Duration {
    Duration::from_secs(time.tv_sec.max(0) as u64)
        + Duration::from_micros(time.tv_usec.max(0) as u64)
}

fn duration_ms(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}
