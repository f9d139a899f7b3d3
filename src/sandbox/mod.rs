//! Running one untrusted program (or a compiler) under limits, in isolation,
//! and measuring what it did.
//!
//! This module owns processes: spawning, limits, isolation, measuring, and
//! killing every process a run created. It does not decide verdicts (the
//! runner maps a [`Measured`] to a verdict) and it never prints.
//!
//! A [`Sandbox`] is one worker's reusable isolation: set up once (cgroups, a
//! network namespace for the worker thread, a scratch directory) and reused
//! for every run on that worker, because creating namespaces per test costs
//! more than a small test's whole run (1.2 ms for a network namespace here,
//! against 0.9 ms for spawning and waiting for a tiny C program).
//!
//! Layers, each used when the kernel and our privileges allow it
//! ([`Isolation::detect`]) and reported otherwise:
//!
//! | layer | gives | needs |
//! |---|---|---|
//! | rlimits, process group, wall clock | CPU, file size, open files, stack; kill of the group | nothing |
//! | cgroup v1 (memory, pids, cpuacct) | tree-wide memory peak and limit, process count, CPU of the tree, kill of `setsid` escapees | root |
//! | unprivileged user (`nobody`) | cannot signal the judge, cannot read root-only files | root |
//! | network namespace per worker thread | no network at all | root |
//! | seccomp (x86_64) | no namespaces, ptrace, mount, modules, BPF, io_uring | nothing |
//! | Landlock | reads only system directories and its own executable, writes only its scratch directory, no TCP, no signals outside its own test | Linux 5.13+ (TCP 6.7+, signals 6.12+) |

mod error;
#[cfg(target_os = "linux")]
mod unix;

pub use error::SandboxError;
#[cfg(target_os = "linux")]
pub use unix::Sandbox;

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
    /// Peak memory of the whole tree (cgroup), or address space per process
    /// where there is no memory cgroup.
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
}

/// Who is being run, which decides how tightly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trust {
    /// A submission: unprivileged user, reads limited to system directories
    /// and the paths of [`RunSpec::read_paths`], writes to its scratch
    /// directory only, fresh empty scratch directory per run.
    Submission,
    /// A compiler from `judge.toml`: runs as the invoking user so toolchains
    /// under `$HOME` (rustup) work; reads only system directories, the
    /// paths of [`RunSpec::read_paths`] (the toolchain's tree) and its
    /// working directory, and writes only the latter; same limits and
    /// network isolation.
    ///
    /// Pro: toolchains work unchanged, and a hostile `#include
    /// "/path/to/1.ans"` fails. Con: without Landlock the compiler reads
    /// whatever the user can.
    Tool,
}

/// What to run.
#[derive(Clone, Debug)]
pub struct RunSpec {
    /// The program: an absolute path (resolve names with [`resolve_program`]).
    pub program: PathBuf,
    /// Arguments after the program name.
    pub args: Vec<OsString>,
    /// File given as stdin; `/dev/null` when `None`.
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

/// How the program ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Termination {
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
}

/// What one run did.
#[derive(Clone, Debug)]
pub struct Measured {
    pub termination: Termination,
    pub limit_exceeded: Option<LimitExceeded>,
    /// CPU time of the whole tree (cgroup), or of the program and its reaped
    /// children (rusage) without one.
    pub cpu_time_ms: u64,
    pub wall_time_ms: u64,
    /// Peak memory of the whole tree (cgroup), or the largest resident set
    /// of a process (rusage) without one; [`Isolation::memory`] says which.
    pub memory_kib: u64,
    /// stdout, at most `stdout_bytes` of it.
    pub stdout: Vec<u8>,
    /// stderr, at most `stderr_bytes` of it.
    pub stderr: Vec<u8>,
    /// Bytes of stderr read and discarded past the cap.
    pub stderr_discarded_bytes: u64,
}

impl Measured {
    /// Exited with code 0 and no limit hit.
    pub fn succeeded(&self) -> bool {
        self.limit_exceeded.is_none() && self.termination == Termination::Exited(0)
    }
}

/// The isolation layers in force for this process, detected once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct Isolation {
    /// `full` when every layer is in force, else `partial`.
    pub level: &'static str,
    /// The uid submissions run as, when the judge can switch users.
    pub user: Option<u32>,
    /// `cgroup-v1` or `none`.
    pub cgroups: &'static str,
    /// How memory is limited and measured: `cgroup` or `rlimit`.
    pub memory: &'static str,
    /// `namespace` (no network at all), `landlock-tcp` or `none`.
    pub network: &'static str,
    /// Landlock ABI version, when available.
    pub landlock_abi: Option<u32>,
    /// `landlock` (cannot signal outside its own test), `user` (cannot signal
    /// the judge) or `process-group`.
    pub signals: &'static str,
    /// `seccomp` (namespaces, ptrace, mount, modules, BPF, io_uring
    /// refused) or `none`.
    pub syscalls: &'static str,
}

impl Isolation {
    /// The layers of this process, probed on first use.
    pub fn detect() -> &'static Isolation {
        static ISOLATION: OnceLock<Isolation> = OnceLock::new();
        ISOLATION.get_or_init(detect_isolation)
    }

    /// One line per missing layer, for a one-time note.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.cgroups == "none" {
            notes.push(
                "no writable cgroup v1 hierarchy (needs root): memory is limited per process with \
                 RLIMIT_AS and measured as the largest resident set, CPU time counts the program \
                 and the children it waited for, and processes that leave the process group are \
                 found as orphans of the judge"
                    .to_owned(),
            );
        }
        if self.user.is_none() {
            notes.push("not root: submissions run as the invoking user".to_owned());
        }
        match self.network {
            "namespace" => {}
            "landlock-tcp" => notes.push(
                "no network namespace (needs root): only TCP is blocked, by Landlock".to_owned(),
            ),
            _ => notes.push("no network isolation: neither root nor Landlock 4+".to_owned()),
        }
        match self.landlock_abi {
            None => notes.push(
                "Landlock unavailable: submissions can read any file their user can read"
                    .to_owned(),
            ),
            Some(abi) if abi < 6 => {
                notes.push(format!("Landlock ABI {abi} cannot scope signals (needs 6)"))
            }
            Some(_) => {}
        }
        notes
    }
}

#[cfg(target_os = "linux")]
fn detect_isolation() -> Isolation {
    unix::detect_isolation()
}

#[cfg(not(target_os = "linux"))]
fn detect_isolation() -> Isolation {
    Isolation {
        level: "partial",
        user: None,
        cgroups: "none",
        memory: "rlimit",
        network: "none",
        landlock_abi: None,
        signals: "process-group",
        syscalls: "none",
    }
}

/// The `PATH` every sandboxed program sees.
pub const SANDBOX_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

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

    fn limits() -> Limits {
        Limits {
            cpu_time_ms: 1000,
            wall_time_ms: 2000,
            memory_kib: 128 * 1024,
            stdout_bytes: 1024,
            stderr_bytes: 1024,
            processes: 8,
            open_files: 64,
            file_size_kib: 1024,
        }
    }

    fn shell(script: &str) -> RunSpec {
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
        let mut sandbox = Sandbox::new(root.path()).unwrap();
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
