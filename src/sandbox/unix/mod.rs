//! The Linux half of the sandbox: every system call the judge makes on
//! processes lives below this module, so `unsafe` lives here and nowhere
//! else. Its parts:
//!
//! - [`cgroups`]: the worker's cgroup (v1 or v2, as root or delegated);
//!   kill by membership;
//! - [`apparmor`]: whether Ubuntu's AppArmor blocks user namespaces;
//! - [`detect`]: which layers this host gives, each probed once;
//! - [`namespaces`]: the worker's mount and PID (and user, network)
//!   namespaces, whose holder is the PID namespace's init: it kills what a
//!   run left and mounts a fresh scratch tmpfs for the next (its mask plan,
//!   the holder's steps and the holder itself each in a file of their own);
//! - [`run`]: one run: ruleset, child setup, spawn, supervision, cleanup;
//! - [`landlock`], [`seccomp`]: what a program may touch and call;
//! - [`spawn`]: clone, the child's confinement (descriptors closed at exec,
//!   namespaces), execve; the program is born in the worker's PID namespace
//!   (as root the worker thread enters it for the clone and goes back;
//!   without root the child clones the program a second time from inside);
//! - [`resident`]: what a run without a memory cgroup holds and has run,
//!   sampled through `/proc`, whose files [`proc_file`] reads (the ones
//!   read at every look opened once);
//! - [`streams`]: reading stdout and stderr under caps;
//! - [`reap`]: kills, bounded waits, orphans;
//! - [`sockets`]: the sockets a run left in flight in the worker's network
//!   namespace, collected before the next run;
//! - [`scratch`]: the directories a program may write.
//!
//! One [`Sandbox`] per worker thread. It is deliberately `!Send`: the network
//! namespace it enters belongs to the thread that created it, and every
//! program it spawns inherits that thread's namespaces.

// The crate denies unsafe code; this module is the one place that talks to
// the kernel. What a crate covers goes through it (`landlock`, `seccompiler`,
// `rustix`); `unsafe` is left where none reaches: the children between clone
// and exec (and the namespace holder, a clone that never execs), `wait4`
// for a child's resource usage, and `unshare` (unsafe in rustix too). Every
// block says why it is sound.
#![allow(unsafe_code)]

mod apparmor;
mod cgroups;
mod detect;
mod landlock;
mod namespaces;
mod proc_file;
mod reap;
mod resident;
mod root;
mod run;
mod scratch;
pub(crate) use self::scratch::remove_tree;
#[cfg(target_arch = "x86_64")]
mod seccomp;
mod sockets;
mod spawn;
mod stall;
mod streams;

use self::cgroups::Cgroups;
use self::detect::privilege;
pub(super) use self::detect::{
    cgroup_placement_note, cgroup_reason, detect_isolation, in_container, namespaces_refused,
    userns_restricted, NamespaceRefusal,
};
use self::namespaces::{Plan, Privilege, WorkerNamespace};
use self::reap::{become_subreaper, count_own_processes, has_exited};
pub(crate) use self::root::{root_powers, root_refused};
use self::run::ruleset::CachedRules;
use self::sockets::SocketCount;
pub(crate) use self::stall::{JudgeWaiting, StallWatch};
use super::{
    BenchLayer, CgroupLayer, Connection, Isolation, Limits, Marked, Measured, NamespaceMode,
    NetworkLayer, RunSpec, SandboxError, Trust,
};
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The group submissions and compilers run in when the judge is root
/// (`nobody`'s, which owns no file the judge needs; the reported
/// `isolation.user`), each worker with a uid of its own ([`RUN_UIDS`]).
pub(super) const NOBODY: u32 = 65534;

/// The uids of the runs, as root: every worker (every [`Sandbox`]) runs its
/// programs as a uid of its own from this range (with the group of
/// `nobody`), as isolate gives each box its own uid, so what the kernel
/// counts per uid (the pending signals of `SigQ`, `RLIMIT_NPROC`, pipe
/// buffers, epoll watches, POSIX queue bytes) is never shared by two runs
/// at the same time, and a run's `kill(-1)` reaches no other worker's run.
/// The range is the one systemd leaves unused (`0x70000000` up to
/// `0x7fffffff`): no account or file of the host has such a uid.
pub(super) const RUN_UIDS: std::ops::Range<u32> = 0x7000_0000..0x8000_0000;

/// Uids of one judge: a block of [`RUN_UIDS`] chosen at random per
/// process, so two judges on one host rarely share one.
const UIDS_PER_JUDGE: u32 = 4096;

/// The uid of the `unique`-th sandbox of this process.
fn run_uid(unique: u64) -> u32 {
    let blocks = (RUN_UIDS.end - RUN_UIDS.start) / UIDS_PER_JUDGE;
    let token = process_token();
    let block = u32::from_str_radix(&token[..token.len().min(7)], 16).unwrap_or(0) % blocks;
    let index = u32::try_from(unique % u64::from(UIDS_PER_JUDGE)).unwrap_or(0);
    RUN_UIDS.start + block * UIDS_PER_JUDGE + index
}

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

/// How long a killed program may take to die before the judge gives up on
/// it (JE): every wait of the judge is bounded.
const KILL_GRACE: Duration = Duration::from_secs(5);

/// The longest the judge sleeps between CPU-time checks.
const MAX_POLL_INTERVAL: Duration = Duration::from_millis(100);

static SANDBOX_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Random digits fixed for this process, for names other judges on the
/// host (in any PID namespace) cannot hold.
fn process_token() -> &'static str {
    static TOKEN: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TOKEN.get_or_init(cgroups::random_token)
}

/// The compiled system-call filters of a run with a memory cgroup or
/// without (`memfd_create` is refused without one: see
/// [`seccomp::MemoryFiles`]), and with unix sockets isolated to the run or
/// not (`socket(AF_UNIX)` is refused where they are not: see
/// [`seccomp::UnixSockets`]), in the order a child installs them.
#[cfg(target_arch = "x86_64")]
fn seccomp_filters(
    memory_cgroup: bool,
    unix_sockets_isolated: bool,
) -> Result<&'static [seccompiler::BpfProgram], &'static seccomp::FilterError> {
    seccomp::filters(
        if memory_cgroup {
            seccomp::MemoryFiles::Allowed
        } else {
            seccomp::MemoryFiles::Refused
        },
        if unix_sockets_isolated {
            seccomp::UnixSockets::Allowed
        } else {
            seccomp::UnixSockets::Refused
        },
    )
}

/// Whether this process runs inside a judge's run (see
/// [`seccomp::inside_a_run`]); `false` where there is no filter.
pub(crate) fn inside_a_run() -> bool {
    #[cfg(target_arch = "x86_64")]
    return seccomp::inside_a_run();
    #[cfg(not(target_arch = "x86_64"))]
    return false;
}

/// See [`crate::sandbox::seal_inherited_descriptors`].
pub(crate) fn seal_inherited_descriptors() {
    // SAFETY: `close_range` with CLOSE_RANGE_CLOEXEC only sets a flag on
    // descriptors 3 and up; it closes nothing and reads no memory. On a
    // kernel without it (before 5.11) it fails with ENOSYS and nothing
    // changes (the sandboxed children still close theirs).
    unsafe {
        libc::syscall(
            libc::SYS_close_range,
            3 as libc::c_uint,
            libc::c_uint::MAX,
            libc::CLOSE_RANGE_CLOEXEC as libc::c_uint,
        )
    };
}

#[cfg(not(target_arch = "x86_64"))]
fn seccomp_filters(
    _memory_cgroup: bool,
    _unix_sockets_isolated: bool,
) -> Result<&'static [seccompiler::BpfProgram], std::convert::Infallible> {
    Ok(&[])
}

/// One worker's isolation, reused for every run on that worker's thread.
pub struct Sandbox {
    isolation: &'static Isolation,
    /// The uid this worker's programs run as (as root; see [`RUN_UIDS`]),
    /// with the group of `nobody`.
    uid: Option<u32>,
    /// The workspace the sandbox lives in; runs need it visible.
    root: PathBuf,
    directory: PathBuf,
    cgroups: Option<Cgroups>,
    /// The worker's mount namespace, made on the first run.
    namespace: Option<WorkerNamespace>,
    /// As root, the socket count of the worker thread's network namespace
    /// (without root the namespace is the holder's, and so is its count).
    sockets: Option<SocketCount>,
    namespace_generation: u64,
    /// The paths the last run needed, already found visible in
    /// [`Sandbox::namespace`].
    shown: Option<Vec<PathBuf>>,
    /// Processes of the invoking user when the sandbox was made, for
    /// RLIMIT_NPROC without a pids cgroup (the limit counts the whole user).
    baseline_processes: u64,
    ruleset_cache: Option<CachedRules>,
    /// The stacks every spawn of this worker uses (allocated once).
    stacks: spawn::Stacks,
    /// Layers switched off, for the runner bench alone (empty otherwise).
    off: Vec<BenchLayer>,
    /// Set for a run of [`Sandbox::run_message`] alone: the most of its
    /// stdout kept, the rest thrown away.
    stdout_message: Option<u64>,
    /// What the runs' mount namespace hides and no compile is lent: the
    /// value the sandbox's owner gave ([`Sandbox::new`]), never a table of
    /// the process.
    hidden: Arc<super::Hidden>,
    /// The network namespace and the cgroups belong to this thread.
    _not_send: PhantomData<*const ()>,
}

impl Sandbox {
    /// Sets up isolation for the calling thread: a network namespace of its
    /// own (as root), a cgroup per controller, and a private directory
    /// under `root` for scratch directories. `root` must be traversable by
    /// the sandbox user (mode 0711). Its runs never see what `hidden`
    /// holds, and its compiles are lent none of it; nothing else is hidden
    /// but the judge's own workspace and the host's private places.
    pub fn new(root: &Path, hidden: Arc<super::Hidden>) -> Result<Sandbox, SandboxError> {
        Sandbox::without_layers(root, hidden, &[])
    }

    /// [`Sandbox::new`] with the given layers switched off, for the runner
    /// bench's table of what each layer costs per test. Never called by
    /// the judge.
    #[doc(hidden)]
    pub fn without_layers(
        root: &Path,
        hidden: Arc<super::Hidden>,
        off: &[BenchLayer],
    ) -> Result<Sandbox, SandboxError> {
        let isolation = Isolation::detect();
        let unique = SANDBOX_COUNTER.fetch_add(1, Ordering::Relaxed);
        // Unique across PID namespaces too: another judge may share `root`'s
        // parent and have the same pid.
        let name = format!("judge-{}-{unique}", process_token());
        let sockets = if isolation.network == NetworkLayer::Namespace
            && isolation.namespaces != NamespaceMode::UserNamespace
        {
            Some(enter_network_namespace()?)
        } else {
            None
        };
        let cgroups = match isolation.cgroups {
            CgroupLayer::None => None,
            _ if off.contains(&BenchLayer::Cgroups) => None,
            CgroupLayer::CgroupV1
            | CgroupLayer::CgroupV2
            | CgroupLayer::CgroupV2Delegated
            | CgroupLayer::CgroupHybrid => Some(Cgroups::create()?),
        };
        let directory = root.join(&name);
        fs_err::create_dir(&directory)
            .map_err(|source| SandboxError::path("create", &directory, source))?;
        scratch::set_mode(&directory, 0o711)?;
        become_subreaper();
        // Built here, never between clone and exec: both variants of unix
        // sockets, since whether a run's are isolated is known per run.
        for unix_sockets_isolated in [false, true] {
            seccomp_filters(
                cgroups.as_ref().is_some_and(Cgroups::limits_memory),
                unix_sockets_isolated,
            )
            .map_err(|error| SandboxError::Syscall {
                syscall: "seccomp",
                purpose: "compiling the system-call filter",
                source: std::io::Error::other(error.to_string()),
            })?;
        }
        let baseline_processes = if !cgroups.as_ref().is_some_and(Cgroups::limits_processes) {
            count_own_processes()
        } else {
            0
        };
        Ok(Sandbox {
            isolation,
            uid: isolation.user.map(|_| run_uid(unique)),
            root: root.to_path_buf(),
            directory,
            cgroups,
            namespace: None,
            sockets,
            namespace_generation: 0,
            shown: None,
            baseline_processes,
            ruleset_cache: None,
            stacks: spawn::Stacks::new(),
            off: off.to_vec(),
            stdout_message: None,
            hidden,
            _not_send: PhantomData,
        })
    }

    /// What this sandbox hides (what a compile may not be lent is asked
    /// of it: `Hidden::lending_refused`).
    pub(crate) fn hidden(&self) -> &super::Hidden {
        &self.hidden
    }

    /// Hides `hidden` from the next run on, in place of what the sandbox
    /// hid so far: a lent sandbox of a [`super::SandboxPool`] whose owner
    /// handed it a new value. The worker's mount namespace is made again
    /// when what it masks changed.
    pub(crate) fn hide(&mut self, hidden: Arc<super::Hidden>) {
        self.hidden = hidden;
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
        Ok(self.run_with(spec, None, None, None)?.0)
    }

    /// [`Sandbox::run`] for a program whose stdout is only a message (a
    /// package's checker or validator): the first `kept` bytes of stdout are
    /// kept and the rest read and thrown away, so a flood of it neither
    /// grows the judge nor blocks or stops the program, whose exit code
    /// still decides (issue #35: its stdout was read whole, up to a test's
    /// size, and a flood past that ended the run as a fault).
    pub(crate) fn run_message(
        &mut self,
        spec: &RunSpec,
        kept: u64,
    ) -> Result<Measured, SandboxError> {
        self.stdout_message = Some(kept);
        let measured = self.run(spec);
        self.stdout_message = None;
        measured
    }

    /// [`Sandbox::run`] (or, with `one_x`, [`Sandbox::run_marked`]) under
    /// the caller's `watch`: ended at once, as [`SandboxError::Abandoned`],
    /// when `watch.abandon` says so, and `watch.crossed` told where a run
    /// at a margin goes past `one_x` as it does.
    pub(crate) fn run_watched(
        &mut self,
        spec: &RunSpec,
        one_x: Option<&Limits>,
        watch: &crate::sandbox::Watch<'_>,
    ) -> Result<Marked, SandboxError> {
        let (at_margin, at_one_x) = self.run_with(spec, None, one_x, Some(watch))?;
        let at_one_x = at_one_x.unwrap_or_else(|| at_margin.clone());
        Ok(Marked {
            at_margin,
            at_one_x,
        })
    }

    /// [`Sandbox::run`] at `spec.limits`, raised above `one_x` (a TLE
    /// example's margin, as problemtools runs at the time limit times its
    /// safety margin): the run as measured, and what a run at `one_x` would
    /// have measured, from the same run (where it went past `one_x`'s CPU
    /// time or wall clock, noted as it ran; see `decide::at_one_x`).
    pub(crate) fn run_marked(
        &mut self,
        spec: &RunSpec,
        one_x: &Limits,
    ) -> Result<Marked, SandboxError> {
        let (at_margin, at_one_x) = self.run_with(spec, None, Some(one_x), None)?;
        let at_one_x = at_one_x.unwrap_or_else(|| at_margin.clone());
        Ok(Marked {
            at_margin,
            at_one_x,
        })
    }

    /// [`Sandbox::run`] with the program's stdin and stdout connected to
    /// the caller's descriptors (an interactive problem): `spec.stdin` is
    /// ignored, nothing of stdout is captured, and setting `connection.stop`
    /// ends the run (it is killed, as at a limit, with no limit reported).
    pub(crate) fn run_connected(
        &mut self,
        spec: &RunSpec,
        connection: Connection,
    ) -> Result<Measured, SandboxError> {
        Ok(self.run_with(spec, Some(connection), None, None)?.0)
    }

    fn run_with(
        &mut self,
        spec: &RunSpec,
        connection: Option<Connection>,
        one_x: Option<&Limits>,
        watch: Option<&crate::sandbox::Watch<'_>>,
    ) -> Result<(Measured, Option<Measured>), SandboxError> {
        self.ensure_namespace(spec)?;
        let user = self.uid;
        if let (Trust::Tool, Some(dir)) = (spec.trust, &spec.workdir) {
            scratch::lend(dir, user)?;
            let view = self.view(dir);
            let result = self.run_in(spec, dir, &view, connection, one_x, watch);
            let reclaimed = scratch::reclaim(dir, user);
            let measured = result?;
            reclaimed?;
            return Ok(measured);
        }
        if self.namespace.is_some() {
            let boxdir = self.directory.join("box");
            let scratch = namespaces::scratch_in(&boxdir);
            // The scratch tmpfs is fresh: its holder mounted a new one after
            // the last run. The box holds it; rules are on the box.
            let view = self.view(&boxdir);
            return self.run_in(spec, &scratch, &view, connection, one_x, watch);
        }
        // Without a namespace, a new directory for every run (a reused one
        // would keep its extended attributes and times), removed after it.
        // Directly in the worker's directory: there is no box to hold it.
        let scratch = self.directory.join("scratch");
        scratch::make_scratch(&scratch, user)?;
        let result = self.run_in(spec, &scratch, &scratch, connection, one_x, watch);
        scratch::remove_tree(&scratch)?;
        result
    }

    /// The socket count of the network namespace the worker's runs are in
    /// (none where they share the host's).
    fn socket_count(&self) -> Option<&SocketCount> {
        self.sockets
            .as_ref()
            .or_else(|| self.namespace.as_ref().and_then(|n| n.sockets.as_ref()))
    }

    /// Whether the next run's unix sockets reach no other run, so that it
    /// may make them (see [`seccomp::UnixSockets`]): it runs in a network
    /// namespace of this worker's whose sockets are collected after every
    /// run (no abstract name of it outlives it, and no run of another
    /// worker or of the host shares the names), and in the worker's mount
    /// namespace (the host's socket folders masked, the scratch and
    /// `/dev/shm` fresh for each run: the only places it may bind a socket
    /// file). Landlock's scope of abstract sockets, where the kernel has
    /// it, is in every ruleset besides.
    fn unix_sockets_isolated(&self) -> bool {
        self.namespace.is_some()
            && self.socket_count().is_some()
            && !self.is_off(BenchLayer::WorkerNamespaces)
    }

    /// After sockets of a run outlived the kernel's collector (see
    /// [`sockets`]): the worker's next runs get a new network namespace, so
    /// no name of them reaches another run. As root the worker thread
    /// enters one; without root the namespace is the holder's, made anew
    /// with the holder on the next run.
    fn renew_network(&mut self) -> Result<(), SandboxError> {
        // Where that fails, the old count stays, and the next run is
        // checked against it again.
        if self.sockets.is_some() {
            self.sockets = Some(enter_network_namespace()?);
        }
        if self.namespace.as_ref().is_some_and(|n| n.sockets.is_some()) {
            self.namespace = None;
            self.ruleset_cache = None;
        }
        Ok(())
    }

    /// Whether the runner bench switched `layer` off.
    fn is_off(&self, layer: BenchLayer) -> bool {
        self.off.contains(&layer)
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
        if self.isolation.namespaces == NamespaceMode::None
            || self.is_off(BenchLayer::WorkerNamespaces)
        {
            return Ok(());
        }
        let privilege = privilege(self.isolation.namespaces == NamespaceMode::Root);
        let scratch_kib = match (spec.trust, &self.namespace) {
            (Trust::Tool, Some(namespace)) => namespace.scratch_kib,
            _ => spec.limits.scratch_kib,
        };
        let root_mode = privilege == Privilege::Root;
        // In both modes the judge's workspace is masked and a run sees only
        // its own program and folders (and the worker's box), bound back:
        // as root the sandbox user could otherwise read every other
        // student's copy there by file mode (0644 in 0755 folders) where
        // Landlock is missing (issue 18). Every mount a run sees is
        // read-only (and `noatime`) but a compiler's directory.
        let mut keep = vec![self.directory.clone(), spec.program.clone()];
        keep.extend(spec.read_paths.iter().cloned());
        keep.extend(spec.workdir.iter().cloned());
        let writable: Vec<PathBuf> = match spec.trust {
            Trust::Tool => spec.workdir.iter().cloned().collect(),
            Trust::Submission => Vec::new(),
        };
        let mut extra_masks = vec![self.root.clone()];
        let mut hidden = hidden_paths().to_vec();
        // The judge's data folders (tests, packages) are masked in both
        // modes; a kept path inside one is bound back.
        extra_masks.extend(self.hidden.masked_folders().map(Path::to_path_buf));
        // What no run may see: the judge's own binary and data, and the
        // files the links of data folders point to.
        hidden.extend(self.hidden.link_files().iter().cloned());
        // A holder that is gone (killed from outside: its PID namespace
        // ended with it) takes its namespace along: the run makes a new one.
        if (self.namespace.as_ref()).is_some_and(|namespace| has_exited(namespace.reaper().pid)) {
            self.namespace = None;
        }
        if let Some(namespace) = &self.namespace {
            // The per-test path: the same program and paths as the last run
            // need no new look at the file system (`shows` stats ancestors).
            if namespace.scratch_kib == scratch_kib
                && namespace.writable == writable
                && namespace.extra_masks == extra_masks
                && namespace.hidden == hidden
                && (self.shown.as_ref() == Some(&keep) || namespace.shows(&keep, privilege))
            {
                self.shown = Some(keep);
                return Ok(());
            }
            // As root, toolchain paths accumulate, so alternating
            // toolchains do not remake the namespace every time; nothing of
            // the workspace does (a run sees no earlier submission's
            // folder), and without root nothing does.
            if root_mode {
                keep.extend(
                    namespace
                        .kept
                        .iter()
                        .filter(|path| !path.starts_with(&self.root))
                        .cloned(),
                );
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
            scratch_owner: self.uid,
            keep: &keep,
            hidden: &hidden,
            extra_masks: &extra_masks,
            writable: &writable,
        };
        self.namespace = Some(WorkerNamespace::create(&plan)?);
        self.namespace_generation += 1;
        self.shown = None;
        Ok(())
    }
}

/// Moves the calling (worker) thread into a new network namespace without
/// interfaces, and returns its socket count.
fn enter_network_namespace() -> Result<SocketCount, SandboxError> {
    // SAFETY: unshare changes only this thread's namespaces; the programs
    // this thread spawns inherit them. It fails cleanly.
    if unsafe { libc::unshare(libc::CLONE_NEWNET) } != 0 {
        return Err(SandboxError::last_os(
            "unshare(CLONE_NEWNET)",
            "giving the worker a network namespace without interfaces",
        ));
    }
    SocketCount::open("/proc/thread-self/net/sockstat")
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        self.cgroups.take();
        self.namespace.take();
        let _ = scratch::remove_tree(&self.directory);
    }
}
