//! Running one untrusted program (or a compiler) under limits, in isolation,
//! and measuring what it did.
//!
//! This module owns processes: spawning, limits, isolation, measuring, and
//! killing every process a run created. It does not decide verdicts (the
//! runner maps a [`Measured`] to a verdict) and it never prints.
//!
//! A [`Sandbox`] is one worker's reusable isolation: set up once (cgroups, a
//! network namespace for the worker thread, a mount namespace with a scratch
//! file system, a scratch directory) and reused for every run on that
//! worker, because creating namespaces per test costs more than a small
//! test's whole run (1.2 ms for a network namespace here, against 0.9 ms for
//! spawning and waiting for a tiny C program).
//!
//! Layers, each used when the kernel and our privileges allow it
//! ([`Isolation::detect`]) and reported otherwise:
//!
//! | layer | gives | needs |
//! |---|---|---|
//! | rlimits, process group, wall clock | CPU, file size, open files, stack; kill of the group | nothing |
//! | cgroup v1 (memory, pids, cpuacct) or v2 (memory, pids) | tree-wide memory peak and limit, process count, CPU of the tree, kill by membership | root, or a delegated v2 subtree |
//! | an unprivileged uid per worker (group `nobody`) for runs *and* compilers | cannot signal the judge or another worker's run, cannot read root-only files, shares no per-uid counter with a run at the same time | root |
//! | network namespace per worker | no network at all | root, or a user namespace |
//! | mount namespace per worker | private empty `/tmp`, `/var/tmp`, `/run`, `/dev/shm`; the workspace, data folders and hand-in folders covered but for the run's own paths; scratch is a size-limited tmpfs | root, or a user namespace |
//! | PID namespace per worker, its init the holder | after each run every process left is killed and reaped, and the PID counter set back; all die with the judge | root, or a user namespace |
//! | `/proc` of that PID namespace, `hidepid=invisible` | other processes are invisible | root, or a user namespace and a `/proc` no other mount covers in part |
//! | fresh scratch tmpfs per run | nothing passes from one run to the next through scratch | root, or a user namespace |
//! | `close_range` in every child | no inherited descriptor reaches a program | nothing |
//! | IPC namespace per run | no SysV IPC or POSIX queue outlives a run or crosses between runs | root, or a user namespace |
//! | seccomp (x86_64) | no namespaces, ptrace, mount, modules, BPF, io_uring, sockets (`AF_UNIX` only with a worker network and mount namespace), file locks, file times, inotify | nothing |
//! | Landlock | reads only system directories and its own files, writes only its scratch directory, no TCP, no signals outside its own test | Linux 5.13+ (TCP 6.7+, signals 6.12+) |

mod aliases;
mod decide;
mod error;
mod hidden;
mod notes;
#[cfg(target_os = "linux")]
mod pool;
#[cfg(target_os = "linux")]
mod unix;
mod walk;

pub(crate) use decide::{at_one_x, decide_limit, Crossing, Observation};
pub use error::SandboxError;
pub use hidden::{DataFolder, Hidden};
#[cfg(target_os = "linux")]
pub use pool::SandboxPool;
#[cfg(target_os = "linux")]
pub use unix::Sandbox;
#[cfg(target_os = "linux")]
pub(crate) use unix::{remove_tree, JudgeWaiting, StallWatch};

mod guard;
pub(crate) use guard::{inside_a_run, seal_inherited_descriptors};
/// What a package's program left in its folder, read without following
/// links (issue #35).
#[cfg(target_os = "linux")]
pub(crate) mod left;

use serde::Serialize;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Resource limits of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// CPU time of the whole process tree.
    pub cpu_time_ms: u64,
    /// Wall-clock backstop, so a sleeping or blocked program still ends.
    pub wall_time_ms: u64,
    /// Peak memory of the whole tree (cgroup), or where there is no memory
    /// cgroup the resident size of the tree, sampled (see `unix::resident`).
    pub memory_kib: u64,
    /// Bytes of stdout kept; one more byte is OLE and the run is killed.
    pub stdout_bytes: u64,
    /// Bytes of stderr kept; the rest is read and discarded.
    pub stderr_bytes: u64,
    /// Processes and threads of the run at once.
    pub processes: u32,
    /// Open file descriptors per process.
    pub open_files: u32,
    /// Largest file the program may write.
    pub file_size_kib: u64,
    /// Total size of everything a submission may keep in its scratch
    /// directory (and so in `/tmp`); more is OLE. Enforced where the worker
    /// has a mount namespace (a tmpfs of this size), else only per file.
    pub scratch_kib: u64,
}

/// How many files (inodes) a scratch directory of `scratch_kib` may hold:
/// one per 4 KiB, so a program cannot exhaust the kernel's memory with
/// empty files either.
pub(crate) fn scratch_files(scratch_kib: u64) -> u64 {
    (scratch_kib / 4).max(64)
}

/// Who is being run, which decides how tightly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trust {
    /// A submission: unprivileged user, reads limited to system directories
    /// and the paths of [`RunSpec::read_paths`], writes to its scratch
    /// directory only, fresh empty scratch directory per run.
    Submission,
    /// A compiler from `judge.toml`, compiling a submission. As confined as
    /// a submission (same user, namespaces, seccomp filter and read rules;
    /// see issue #7: a compile step is hostile code too), except that it
    /// works in [`RunSpec::workdir`], which it may write, and it may read
    /// its toolchain's tree ([`RunSpec::read_paths`]).
    ///
    /// Pro: `#include "/etc/shadow"` or an import-shadowing file name gains
    /// nothing a run would not have. Con: a toolchain must be readable by
    /// the sandbox user; one under a private home (rustup in `/root`) is
    /// bound into the worker's mount namespace, and without one it fails.
    Tool,
}

/// A per-run layer the runner bench switches off, one at a time, to print
/// what each costs per test ([`Sandbox::without_layers`]). Nothing in the
/// judge itself switches a layer off: no flag, configuration key or
/// environment variable reaches this.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchLayer {
    /// The fresh IPC namespace of a run (`unshare` in the child), where
    /// one is made: where the filter refuses the IPC calls, switching it
    /// off changes nothing, and switching the filter off brings it back.
    IpcNamespace,
    /// The sealed memfd copy of stdin: the input file is given as it is.
    StdinCopy,
    /// The Landlock ruleset (`landlock_restrict_self` in the child).
    Landlock,
    /// The seccomp filter (installed in the child).
    Seccomp,
    /// The worker's cgroup: joining it, the counter resets and reads, the
    /// emptiness check after the run.
    Cgroups,
    /// The holder's cleanup after each run (kill what is left, a fresh
    /// scratch tmpfs).
    ScratchReset,
    /// Putting the program in the worker's PID namespace: as root the
    /// worker thread's `setns` there and back around the clone; without
    /// root the child's `setns` and second clone.
    PidNamespaceEntry,
    /// The worker's namespaces altogether (mount and PID entry, scratch
    /// tmpfs and its reset): a fresh directory per run instead.
    WorkerNamespaces,
}

/// What to run.
#[derive(Clone, Debug)]
pub struct RunSpec {
    /// The program: an absolute path (resolve names with [`resolve_program`]).
    pub program: PathBuf,
    /// Arguments after the program name.
    pub args: Vec<OsString>,
    /// File given as stdin; `/dev/null` when `None`. The program receives a
    /// copy (a memfd), so it cannot learn where the judge keeps its tests.
    pub stdin: Option<PathBuf>,
    /// Working directory for [`Trust::Tool`]; submissions always get a fresh
    /// empty scratch directory.
    pub workdir: Option<PathBuf>,
    /// Environment beyond the scrubbed base (`PATH`, `HOME`, `TMPDIR`, `LANG`).
    pub env: Vec<(OsString, OsString)>,
    /// Extra paths a submission may read and execute (its executable's
    /// directory, an interpreter's files).
    pub read_paths: Vec<PathBuf>,
    pub limits: Limits,
    pub trust: Trust,
}

/// The program's ends of a connected run ([`Sandbox::run_connected`], for
/// interactive problems): it reads `stdin` and writes `stdout`, pipes whose
/// other ends the caller holds; `stop` set by the caller ends the run.
#[derive(Debug)]
pub(crate) struct Connection {
    pub(crate) stdin: std::os::fd::OwnedFd,
    pub(crate) stdout: std::os::fd::OwnedFd,
    pub(crate) stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// What lets the sandbox tell a deadlock and end the run at once (the
    /// judge's side says when it waits): `None` leaves the run to its
    /// limits.
    pub(crate) watch: Option<StallWatch>,
}

/// What the caller watches an unconnected run by while it runs
/// ([`Sandbox::run_watched`]): both are asked on the supervisor's thread,
/// at least every poll interval.
pub(crate) struct Watch<'a> {
    /// `true` ends the run at once, killed and cleaned up as after any run:
    /// its result is no longer wanted, and the run comes back as
    /// [`SandboxError::Abandoned`].
    pub(crate) abandon: &'a dyn Fn() -> bool,
    /// Told once, as it happens, where a run at a margin first went past
    /// its 1x limits (the same [`Crossing`] its 1x view is decided from).
    pub(crate) crossed: &'a dyn Fn(&Crossing),
}

/// How the program ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) enum Termination {
    /// It exited with this code.
    Exited(i32),
    /// A signal killed it (ours after a limit, or its own crash).
    Signaled(i32),
}

/// Which limit ended the run, as observed by the sandbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitExceeded {
    /// CPU time of the tree passed the limit.
    CpuTime,
    /// The wall-clock backstop passed.
    WallTime,
    /// The memory cgroup killed a process (or an allocation failed at the limit).
    Memory,
    /// stdout passed its cap.
    Output,
    /// The scratch file system filled up (bytes or files).
    Scratch,
}

/// What one run did.
#[derive(Clone, Debug)]
pub struct Measured {
    pub(crate) termination: Termination,
    pub limit_exceeded: Option<LimitExceeded>,
    /// CPU time of the whole tree (cgroup), or of the program and its reaped
    /// children (rusage) without one.
    pub cpu_time_ms: u64,
    pub(crate) wall_time_ms: u64,
    /// Peak memory of the whole tree (cgroup), or without one the largest
    /// resident size of the tree sampled while it ran, or of a process
    /// (rusage) where that is the program's own; [`Isolation::memory`]
    /// says which.
    pub(crate) memory_kib: u64,
    /// stdout, at most `stdout_bytes` of it.
    pub stdout: Vec<u8>,
    /// stderr, at most `stderr_bytes` of it.
    pub(crate) stderr: Vec<u8>,
    /// Bytes of stderr read and discarded past the cap.
    pub(crate) stderr_discarded_bytes: u64,
    /// The run was ended at once as a deadlock (its wall limit reported):
    /// it and the judge were each waiting for the other.
    pub(crate) deadlocked: bool,
    /// How long the run's threads had waited for a CPU, runnable but not
    /// running, when the wall clock ended it (summed over its threads, read
    /// before the kill); `None` when the wall clock did not end it or the
    /// kernel does not say. Tells a program starved by a busy host from one
    /// that slept or blocked (issue 32).
    pub(crate) run_queue_wait_ms: Option<u64>,
    /// Wall clock added to the limit because the run waited for a CPU
    /// (at most the limit again; 0 when none was added): a wall-clock TLE
    /// says so (issue 32).
    pub(crate) wall_granted_ms: u64,
}

/// One run at raised limits, as measured and as a run at its verdict's
/// limits would have measured it (`Sandbox::run_marked`).
#[derive(Clone, Debug)]
pub(crate) struct Marked {
    pub(crate) at_margin: Measured,
    pub(crate) at_one_x: Measured,
}

impl Measured {
    /// Exited with code 0 and no limit hit.
    pub fn succeeded(&self) -> bool {
        self.limit_exceeded.is_none() && self.termination == Termination::Exited(0)
    }
}

/// Whether every layer is in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum IsolationLevel {
    Full,
    Partial,
}

/// How the worker namespaces are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum NamespaceMode {
    /// As root, directly.
    Root,
    /// Inside an unprivileged user namespace, as bubblewrap does (no root
    /// needed; no cgroups, no user switch, no `/proc` remount).
    UserNamespace,
    /// None could be made.
    None,
}

/// Process-tree accounting and kill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CgroupLayer {
    /// The legacy hierarchies (memory, pids, cpuacct), as root.
    CgroupV1,
    /// The unified hierarchy, as root.
    CgroupV2,
    /// The unified hierarchy, in a subtree delegated to the invoking user
    /// (no root needed).
    CgroupV2Delegated,
    /// Both, as root, on a host that binds some controllers to legacy
    /// hierarchies and others to the unified one: each controller is used
    /// where it is (`cgroup_controllers` says where).
    CgroupHybrid,
    None,
}

/// Which kind of hierarchy a controller is used from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum CgroupVersion {
    /// Its own legacy (v1) hierarchy.
    V1,
    /// The unified (v2) hierarchy.
    V2,
    /// Neither (a subtree delegated only in part): the per-process
    /// fallback holds instead (`RLIMIT_AS` for memory, `RLIMIT_NPROC` for
    /// processes), and the start-up note says what is missing.
    None,
}

/// Where each controller the judge uses comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub(crate) struct CgroupControllers {
    /// The memory limit, peak and out-of-memory kills.
    pub(crate) memory: CgroupVersion,
    /// The process limit and count (membership, for the kill after a test).
    pub(crate) pids: CgroupVersion,
    /// The CPU time of the tree (v1 `cpuacct`, v2 `cpu.stat`).
    pub(crate) cpu: CgroupVersion,
}

impl CgroupControllers {
    /// Whether some controller is in no cgroup.
    pub(crate) fn missing(self) -> bool {
        self.memory == CgroupVersion::None || self.pids == CgroupVersion::None
    }

    /// The layers the missing controllers cost, and what holds instead.
    pub(crate) fn what_is_lost(self) -> String {
        let mut lost = Vec::new();
        if self.memory == CgroupVersion::None {
            lost.push(
                "without the memory controller, memory is limited on the resident size of the \
                 program and its children, sampled every 20 ms (RLIMIT_AS only as a per-process \
                 backstop 4 GiB above the limit), and measured as the largest resident size seen",
            );
        }
        if self.pids == CgroupVersion::None {
            lost.push(
                "without the pids controller, the process limit is RLIMIT_NPROC, counted per \
                 user (a fork bomb is bounded by it, not by the cgroup)",
            );
        }
        lost.push(
            "the CPU time of the whole tree and the kill of every process by cgroup still hold",
        );
        lost.join("; ")
    }
}

/// How memory is limited and measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum MemoryLayer {
    /// The tree's peak, limited by the memory cgroup.
    Cgroup,
    /// Per process: `RLIMIT_AS`, measured as the largest resident set.
    Rlimit,
}

/// What keeps a program off the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum NetworkLayer {
    /// A network namespace without interfaces: no network at all.
    Namespace,
    /// Only TCP is blocked, by Landlock.
    LandlockTcp,
    None,
}

/// What keeps SysV IPC and POSIX message queues from crossing runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum IpcLayer {
    /// The system-call filter refuses every SysV IPC and POSIX message
    /// queue call (ENOSYS, as a kernel without them answers), so no run can
    /// make, find or count an object; with namespaces, the runs are in an
    /// IPC namespace of the worker's own, made once, which the host's
    /// objects are not in either.
    CallsRefused,
    /// A fresh IPC namespace for every run: its objects die with the run.
    NamespacePerRun,
    None,
}

/// What a program sees of the file system's shared places.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum MountLayer {
    /// A mount namespace per worker: empty private `/tmp`, `/var/tmp`,
    /// `/run` and `/dev/shm`, so the host's socket files and shared memory
    /// are out of reach; scratch is a tmpfs with a size quota.
    Namespace,
    None,
}

/// What a program sees of other processes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum ProcLayer {
    /// Its own `/proc` with `hidepid=invisible`: only its own processes.
    Hidepid,
    /// The host's `/proc` (Landlock still stops reads of other processes'
    /// files where it is in force).
    Shared,
}

/// How much scratch space a program may fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ScratchLayer {
    /// A tmpfs of `scratch_kib`: the total is bounded, the host disk untouched.
    Quota,
    /// Only `RLIMIT_FSIZE` per file.
    FileSizeOnly,
}

/// Whether a run starts from a scratch no earlier run touched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum ScratchPerRun {
    /// A new tmpfs for every run (entries, extended attributes, times and
    /// their kernel memory go with the old one).
    FreshTmpfs,
    /// A new directory for every run, removed after it.
    FreshDirectory,
}

/// Which processes a run's cleanup reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum PidLayer {
    /// A PID namespace per worker whose init kills and reaps every process
    /// a run left.
    NamespacePerWorker,
    /// The host's: the run's cgroup, process group and the judge's orphans.
    None,
}

/// Descriptors a program inherits from the judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum DescriptorLayer {
    /// Everything but 0, 1 and 2 is closed at exec (`close_range`).
    Closed,
}

/// Who may read the judge's temporary folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum WorkspaceLayer {
    /// The judge alone (0700; 0710 with the sandbox user's group as root).
    Private,
}

/// Whether runs may take file locks (a channel between runs on a shared
/// file).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum LockLayer {
    /// `flock` and the `fcntl` lock, lease and notify commands fail.
    Refused,
    /// Allowed (no system-call filter).
    None,
}

/// Who may signal whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum SignalLayer {
    /// Landlock scoping: no signal leaves the run.
    Landlock,
    /// Another user than the judge.
    User,
    ProcessGroup,
}

/// The system-call filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum SyscallLayer {
    Seccomp,
    None,
}

/// How compilers are confined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum CompileLayer {
    /// As a run: the sandbox user, namespaces, seccomp, Landlock.
    Confined,
    /// As the invoking user with the run's other layers (not root).
    InvokingUser,
}

/// The isolation layers in force for this process, detected once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub struct Isolation {
    /// `full` when every layer is in force, else `partial`.
    pub level: IsolationLevel,
    /// The uid submissions and compilers run as, when the judge can switch
    /// users.
    pub(crate) user: Option<u32>,
    pub(crate) namespaces: NamespaceMode,
    pub cgroups: CgroupLayer,
    /// Where each controller comes from; only for `cgroup-hybrid` and for
    /// a subtree with some controller missing (`none` for it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) cgroup_controllers: Option<CgroupControllers>,
    pub(crate) memory: MemoryLayer,
    pub(crate) network: NetworkLayer,
    pub(crate) ipc: IpcLayer,
    pub(crate) mount: MountLayer,
    pub(crate) proc: ProcLayer,
    /// With a shared `/proc` where namespaces work: the errno the private
    /// one's mount was refused with (for the note; not in the report).
    #[serde(skip)]
    pub(crate) proc_refused: Option<i32>,
    pub scratch: ScratchLayer,
    pub(crate) scratch_per_run: ScratchPerRun,
    pub(crate) pid_namespace: PidLayer,
    pub(crate) descriptors: DescriptorLayer,
    pub(crate) workspace: WorkspaceLayer,
    pub(crate) locks: LockLayer,
    /// Landlock ABI version, when available.
    pub(crate) landlock_abi: Option<u32>,
    pub(crate) signals: SignalLayer,
    pub(crate) syscalls: SyscallLayer,
    pub(crate) compile: CompileLayer,
}

impl Isolation {
    /// The layers of this process, probed on first use.
    pub fn detect() -> &'static Isolation {
        static ISOLATION: OnceLock<Isolation> = OnceLock::new();
        ISOLATION.get_or_init(detect_isolation)
    }
}

#[cfg(target_os = "linux")]
fn detect_isolation() -> Isolation {
    unix::detect_isolation()
}

#[cfg(not(target_os = "linux"))]
fn detect_isolation() -> Isolation {
    Isolation {
        level: IsolationLevel::Partial,
        user: None,
        namespaces: NamespaceMode::None,
        cgroups: CgroupLayer::None,
        cgroup_controllers: None,
        memory: MemoryLayer::Rlimit,
        network: NetworkLayer::None,
        ipc: IpcLayer::None,
        mount: MountLayer::None,
        proc: ProcLayer::Shared,
        proc_refused: None,
        scratch: ScratchLayer::FileSizeOnly,
        scratch_per_run: ScratchPerRun::FreshDirectory,
        pid_namespace: PidLayer::None,
        descriptors: DescriptorLayer::Closed,
        workspace: WorkspaceLayer::Private,
        locks: LockLayer::None,
        landlock_abi: None,
        signals: SignalLayer::ProcessGroup,
        syscalls: SyscallLayer::None,
        compile: CompileLayer::InvokingUser,
    }
}

/// The `PATH` every sandboxed program sees.
pub(crate) const SANDBOX_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// Finds `name` the way a shell would, in `search_path` (a `PATH` value);
/// a name with a slash is taken as a path.
pub fn resolve_program(name: &str, search_path: &str) -> Option<PathBuf> {
    if name.contains('/') {
        let path = Path::new(name);
        return is_executable(path).then(|| path.to_path_buf());
    }
    search_path
        .split(':')
        .filter(|dir| !dir.is_empty())
        .map(|dir| Path::new(dir).join(name))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    fs_err::metadata(path)
        .map(|metadata| metadata.is_file() && metadata.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

#[cfg(all(test, target_os = "linux"))]
#[expect(clippy::unwrap_used, reason = "tests panic on failure")]
mod tests {
    use super::*;

    pub(super) fn limits() -> Limits {
        Limits {
            cpu_time_ms: 1000,
            wall_time_ms: 2000,
            memory_kib: 128 * 1024,
            stdout_bytes: 1024,
            stderr_bytes: 1024,
            processes: 8,
            open_files: 64,
            file_size_kib: 1024,
            scratch_kib: 4096,
        }
    }

    /// `sh -c script` with the tests' limits (also the unit tests' of
    /// `unix::spawn`).
    pub(super) fn shell(script: &str) -> RunSpec {
        RunSpec {
            program: PathBuf::from("/bin/sh"),
            args: vec!["-c".into(), script.into()],
            stdin: None,
            workdir: None,
            env: Vec::new(),
            read_paths: Vec::new(),
            limits: limits(),
            trust: Trust::Submission,
        }
    }

    fn run(script: &str) -> Measured {
        run_with(script, limits())
    }

    fn run_with(script: &str, limits: Limits) -> Measured {
        let root = tempfile::tempdir().unwrap();
        fs_err::set_permissions(
            root.path(),
            std::os::unix::fs::PermissionsExt::from_mode(0o711),
        )
        .unwrap();
        let mut sandbox = Sandbox::new(root.path(), std::sync::Arc::default()).unwrap();
        sandbox
            .run(&RunSpec {
                limits,
                ..shell(script)
            })
            .unwrap()
    }

    #[test]
    fn captures_stdout_and_exit_code() {
        let measured = run("echo hello; echo oops >&2; exit 3");
        assert_eq!(measured.stdout, b"hello\n");
        assert_eq!(measured.stderr, b"oops\n");
        assert_eq!(measured.termination, Termination::Exited(3));
        assert_eq!(measured.limit_exceeded, None);
    }

    #[test]
    fn a_sleeping_program_ends_at_the_wall_clock_limit() {
        let measured = run("sleep 100");
        assert_eq!(measured.limit_exceeded, Some(LimitExceeded::WallTime));
    }

    #[test]
    fn a_spinning_program_ends_at_the_cpu_limit() {
        // A generous wall clock: the machine's other core may be busy.
        let measured = run_with(
            "while :; do :; done",
            Limits {
                wall_time_ms: 30_000,
                ..limits()
            },
        );
        assert_eq!(measured.limit_exceeded, Some(LimitExceeded::CpuTime));
        assert!(measured.cpu_time_ms >= 1000);
    }

    /// The path of a host where no worker namespace can be made (AppArmor's
    /// user-namespace restriction, say): every run gets a fresh directory.
    #[test]
    fn without_worker_namespaces_each_run_gets_a_fresh_scratch_directory() {
        let root = tempfile::tempdir().unwrap();
        fs_err::set_permissions(
            root.path(),
            std::os::unix::fs::PermissionsExt::from_mode(0o711),
        )
        .unwrap();
        let mut sandbox = Sandbox::without_layers(
            root.path(),
            std::sync::Arc::default(),
            &[BenchLayer::WorkerNamespaces],
        )
        .unwrap();
        let first = sandbox
            .run(&shell(
                "ls -A; echo left > file; setfattr -n user.a -v 1 . 2>/dev/null; pwd",
            ))
            .unwrap();
        assert!(first.succeeded(), "{first:?}");
        let second = sandbox.run(&shell("ls -A; pwd")).unwrap();
        assert!(second.succeeded(), "{second:?}");
        assert_eq!(first.stdout, second.stdout, "the scratch kept a file");
    }

    #[test]
    fn output_past_the_cap_is_cut_and_reported() {
        let measured = run("yes");
        assert_eq!(measured.limit_exceeded, Some(LimitExceeded::Output));
        assert_eq!(measured.stdout.len(), 1024);
    }

    #[test]
    fn resolves_programs_in_a_search_path() {
        assert_eq!(
            resolve_program("sh", "/nonexistent:/bin"),
            Some(PathBuf::from("/bin/sh"))
        );
        assert_eq!(resolve_program("no-such-program-here", SANDBOX_PATH), None);
    }
}
