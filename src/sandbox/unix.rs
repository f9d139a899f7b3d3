//! The Linux half of the sandbox: every system call the judge makes on
//! processes lives here (rlimits, user switch, cgroups, Landlock, network
//! namespace, `poll`, `wait4`, `kill`), so `unsafe` lives here and nowhere else.
//!
//! One [`Sandbox`] per worker thread. It is deliberately `!Send`: the network
//! namespace it enters belongs to the thread that created it, and every
//! program it spawns inherits that thread's namespaces.

// The crate denies unsafe code; this module is the one place that talks to
// the kernel directly (fork-time setup, poll, wait4, kill, Landlock), and
// every block says why it is sound.
#![allow(unsafe_code)]

use super::{
    Isolation, LimitExceeded, Limits, Measured, RunSpec, SandboxError, Termination, Trust,
    SANDBOX_PATH,
};
use std::ffi::{CString, OsString};
use std::io::{self, Read};
use std::marker::PhantomData;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{chown, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The uid and gid submissions run as when the judge is root: `nobody`, which
/// owns no file the judge needs and cannot signal the judge.
const NOBODY: u32 = 65534;

/// Directories a submission may read and execute from: the dynamic loader,
/// shared libraries, interpreters and their standard libraries.
const SYSTEM_READ_PATHS: &[&str] = &[
    "/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin", "/etc", "/proc",
];

/// Device files a submission may read and write.
const DEVICE_PATHS: &[&str] = &["/dev/null", "/dev/zero", "/dev/urandom", "/dev/random"];

/// How long after the program ended we wait for its pipes to close. Only a
/// process that escaped every kill (no cgroup) can hold them open that long.
const DRAIN_GRACE: Duration = Duration::from_millis(500);

/// How long the processes of a finished run may take to die after SIGKILL.
const KILL_GRACE: Duration = Duration::from_secs(5);

/// The longest the judge sleeps between CPU-time checks.
const MAX_POLL_INTERVAL: Duration = Duration::from_millis(100);

static SANDBOX_COUNTER: AtomicU64 = AtomicU64::new(0);

// ---------------------------------------------------------------------------
// Detection

pub(super) fn detect_isolation() -> Isolation {
    // SAFETY: geteuid has no preconditions and cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    let cgroups = root && CgroupPaths::probe();
    let landlock_abi = landlock::abi();
    let network_namespace = root && probe_network_namespace();
    let network = if network_namespace {
        "namespace"
    } else if landlock_abi.is_some_and(|abi| abi >= 4) {
        "landlock-tcp"
    } else {
        "none"
    };
    let signals = if landlock_abi.is_some_and(|abi| abi >= 6) {
        "landlock"
    } else if root {
        "user"
    } else {
        "process-group"
    };
    let full = cgroups && root && network_namespace && landlock_abi.is_some_and(|abi| abi >= 6);
    Isolation {
        level: if full { "full" } else { "partial" },
        user: root.then_some(NOBODY),
        cgroups: if cgroups { "cgroup-v1" } else { "none" },
        memory: if cgroups { "cgroup" } else { "rlimit" },
        network,
        landlock_abi,
        signals,
        syscalls: if cfg!(target_arch = "x86_64") {
            "seccomp"
        } else {
            "none"
        },
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

// ---------------------------------------------------------------------------
// cgroup v1

/// The judge's own place in the cgroup v1 hierarchies of the three
/// controllers we use.
struct CgroupPaths {
    memory: PathBuf,
    pids: PathBuf,
    cpuacct: PathBuf,
}

impl CgroupPaths {
    /// Where this process sits in each controller's hierarchy, children are
    /// created there (the judge may itself be confined to a cgroup).
    fn current() -> Option<CgroupPaths> {
        let mounts = fs_err::read_to_string("/proc/self/mounts").ok()?;
        let membership = fs_err::read_to_string("/proc/self/cgroup").ok()?;
        let locate = |controller: &str| -> Option<PathBuf> {
            let mount = mounts.lines().find_map(|line| {
                let fields: Vec<&str> = line.split_whitespace().collect();
                (fields.get(2) == Some(&"cgroup")
                    && fields
                        .get(3)
                        .is_some_and(|options| options.split(',').any(|o| o == controller)))
                .then(|| PathBuf::from(fields[1]))
            })?;
            let relative = membership.lines().find_map(|line| {
                let mut parts = line.splitn(3, ':');
                let _id = parts.next()?;
                let controllers = parts.next()?;
                let path = parts.next()?;
                controllers
                    .split(',')
                    .any(|c| c == controller)
                    .then(|| path.trim_start_matches('/').to_owned())
            })?;
            Some(mount.join(relative))
        };
        Some(CgroupPaths {
            memory: locate("memory")?,
            pids: locate("pids")?,
            cpuacct: locate("cpuacct")?,
        })
    }

    fn probe() -> bool {
        let Some(paths) = CgroupPaths::current() else {
            return false;
        };
        let name = format!("judge-probe-{}", std::process::id());
        [&paths.memory, &paths.pids, &paths.cpuacct]
            .iter()
            .all(|parent| {
                let dir = parent.join(&name);
                let made = fs_err::create_dir(&dir).is_ok();
                let _ = fs_err::remove_dir(&dir);
                made
            })
    }
}

/// One worker's cgroups: created once, reused by every run of the worker.
struct Cgroups {
    memory: PathBuf,
    pids: PathBuf,
    cpuacct: PathBuf,
    /// `cgroup.procs` of each, opened for writing before any fork so the
    /// child joins with one `write` each.
    procs: [OwnedFd; 3],
    /// Counters read or reset on every run, kept open: a run is short
    /// enough that opening files shows in the per-test overhead.
    cpu_usage: std::fs::File,
    memory_peak: std::fs::File,
    oom_control: std::fs::File,
    /// The OOM kill count after the previous run.
    oom_kills_seen: u64,
    /// The memory (KiB) and process limits last written.
    applied: Option<(u64, u32)>,
}

impl Cgroups {
    fn create(name: &str) -> Result<Cgroups, SandboxError> {
        let paths = CgroupPaths::current().ok_or_else(|| {
            SandboxError::path(
                "find the cgroup v1 hierarchies in",
                "/proc/self/cgroup",
                io::Error::from(io::ErrorKind::NotFound),
            )
        })?;
        sweep_stale_cgroups(&paths);
        let mut made = Vec::new();
        for parent in [&paths.memory, &paths.pids, &paths.cpuacct] {
            let dir = parent.join(name);
            if let Err(source) = fs_err::create_dir(&dir) {
                for dir in made {
                    let _ = fs_err::remove_dir(dir);
                }
                return Err(SandboxError::path("create cgroup", dir, source));
            }
            made.push(dir);
        }
        let open_procs = |dir: &Path| -> Result<OwnedFd, SandboxError> {
            let path = dir.join("cgroup.procs");
            fs_err::OpenOptions::new()
                .write(true)
                .open(&path)
                .map(|file| OwnedFd::from(file.into_parts().0))
                .map_err(|source| SandboxError::path("open", path, source))
        };
        let memory = paths.memory.join(name);
        let pids = paths.pids.join(name);
        let cpuacct = paths.cpuacct.join(name);
        let procs = [
            open_procs(&memory)?,
            open_procs(&pids)?,
            open_procs(&cpuacct)?,
        ];
        let open = |path: PathBuf, write: bool| -> Result<std::fs::File, SandboxError> {
            fs_err::OpenOptions::new()
                .read(true)
                .write(write)
                .open(&path)
                .map(|file| file.into_parts().0)
                .map_err(|source| SandboxError::path("open", path, source))
        };
        let mut cgroups = Cgroups {
            cpu_usage: open(cpuacct.join("cpuacct.usage"), true)?,
            memory_peak: open(memory.join("memory.max_usage_in_bytes"), true)?,
            oom_control: open(memory.join("memory.oom_control"), false)?,
            memory,
            pids,
            cpuacct,
            procs,
            oom_kills_seen: 0,
            applied: None,
        };
        cgroups.oom_kills_seen = cgroups.oom_kills();
        Ok(cgroups)
    }

    /// Reads a counter file from the start (cgroup files regenerate their
    /// text on each read at offset 0).
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

    fn reset_open(file: &std::fs::File, what: &'static str) -> Result<(), SandboxError> {
        use std::os::unix::fs::FileExt;
        file.write_at(b"0", 0)
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

    fn write(dir: &Path, file: &str, value: &str) -> Result<(), SandboxError> {
        let path = dir.join(file);
        fs_err::write(&path, value).map_err(|source| SandboxError::path("write", path, source))
    }

    /// Sets this run's limits (when they changed) and zeroes the counters
    /// it reports.
    fn prepare(&mut self, limits: &Limits) -> Result<(), SandboxError> {
        let wanted = (limits.memory_kib, limits.processes);
        if self.applied == Some(wanted) {
            Cgroups::reset_open(&self.memory_peak, "resetting the memory peak")?;
            Cgroups::reset_open(&self.cpu_usage, "resetting the CPU time")?;
            return Ok(());
        }
        self.applied = None;
        let bytes = (limits.memory_kib.saturating_mul(1024)).to_string();
        // memsw (memory + swap) must stay >= memory: raise it first, lower it
        // last. It is missing when swap accounting is off, which is fine.
        let _ = Cgroups::write(&self.memory, "memory.memsw.limit_in_bytes", &bytes);
        Cgroups::write(&self.memory, "memory.limit_in_bytes", &bytes)?;
        let _ = Cgroups::write(&self.memory, "memory.memsw.limit_in_bytes", &bytes);
        Cgroups::write(&self.memory, "memory.max_usage_in_bytes", "0")?;
        Cgroups::write(&self.pids, "pids.max", &limits.processes.max(1).to_string())?;
        Cgroups::write(&self.cpuacct, "cpuacct.usage", "0")?;
        self.applied = Some(wanted);
        Ok(())
    }

    fn cpu_time(&self) -> Result<Duration, SandboxError> {
        let what = "reading the CPU time of the run";
        Cgroups::parse_counter(&Cgroups::read_open(&self.cpu_usage, what)?, what)
            .map(Duration::from_nanos)
    }

    fn memory_peak_kib(&self) -> Result<u64, SandboxError> {
        let what = "reading the memory peak of the run";
        Cgroups::parse_counter(&Cgroups::read_open(&self.memory_peak, what)?, what)
            .map(|bytes| bytes / 1024)
    }

    /// Whether the OOM killer acted since the last call.
    fn oom_killed_since_last(&mut self) -> bool {
        let count = self.oom_kills();
        let killed = count > self.oom_kills_seen;
        self.oom_kills_seen = count;
        killed
    }

    /// How many times the kernel's OOM killer acted in this cgroup.
    fn oom_kills(&self) -> u64 {
        Cgroups::read_open(&self.oom_control, "reading the OOM kill count")
            .ok()
            .and_then(|text| {
                text.lines().find_map(|line| {
                    line.strip_prefix("oom_kill ")
                        .and_then(|count| count.trim().parse().ok())
                })
            })
            .unwrap_or(0)
    }

    /// Live (non-zombie) processes in the cgroup.
    fn live_processes(&self) -> Vec<libc::pid_t> {
        let Ok(text) = fs_err::read_to_string(self.pids.join("cgroup.procs")) else {
            return Vec::new();
        };
        text.lines()
            .filter_map(|line| line.trim().parse::<libc::pid_t>().ok())
            .filter(|pid| !is_zombie(*pid))
            .collect()
    }

    /// SIGKILLs every process in the cgroup until none is left: a program
    /// that called `setsid` or double-forked is still here. The pids limit
    /// bounds how many can appear between two passes.
    fn kill_all(&self) -> Result<(), SandboxError> {
        let deadline = Instant::now() + KILL_GRACE;
        loop {
            let alive = self.live_processes();
            if alive.is_empty() {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(SandboxError::Survivors {
                    count: alive.len(),
                    cgroup: self.pids.clone(),
                });
            }
            for pid in alive {
                kill(ProcessTarget::Process(pid));
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

impl Drop for Cgroups {
    fn drop(&mut self) {
        let _ = self.kill_all();
        for dir in [&self.memory, &self.pids, &self.cpuacct] {
            let _ = fs_err::remove_dir(dir);
        }
    }
}

/// Removes the cgroups of judges that died without cleaning up (killed by
/// SIGKILL, or interrupted while a test's daemon ran), killing what is
/// still inside. Their names carry the judge's pid: `judge-<pid>-<n>`.
fn sweep_stale_cgroups(paths: &CgroupPaths) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for parent in [&paths.pids, &paths.memory, &paths.cpuacct] {
            let Ok(entries) = fs_err::read_dir(parent) else {
                continue;
            };
            for entry in entries.filter_map(Result::ok) {
                let name = entry.file_name().to_string_lossy().into_owned();
                let Some(owner) = name
                    .strip_prefix("judge-")
                    .and_then(|rest| rest.split('-').next())
                    .and_then(|pid| pid.parse::<u32>().ok())
                else {
                    continue;
                };
                if owner == std::process::id() || Path::new(&format!("/proc/{owner}")).exists() {
                    continue;
                }
                let dir = entry.path();
                for _ in 0..100 {
                    let Ok(text) = fs_err::read_to_string(dir.join("cgroup.procs")) else {
                        break;
                    };
                    let pids: Vec<libc::pid_t> = text
                        .lines()
                        .filter_map(|line| line.trim().parse().ok())
                        .collect();
                    if pids.is_empty() {
                        break;
                    }
                    for pid in pids {
                        kill(ProcessTarget::Process(pid));
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
                let _ = fs_err::remove_dir(&dir);
            }
        }
    });
}

fn is_zombie(pid: libc::pid_t) -> bool {
    match fs_err::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name, which is in parentheses and
        // may itself contain spaces or parentheses.
        Ok(stat) => stat
            .rfind(')')
            .and_then(|end| stat[end + 1..].split_whitespace().next())
            .is_some_and(|state| state == "Z" || state == "X"),
        Err(_) => true,
    }
}

// ---------------------------------------------------------------------------
// Landlock

mod landlock {
    //! Raw Landlock: ABI probing, rulesets, and what each ABI can restrict.

    use super::SandboxError;
    use std::ffi::CString;
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;

    pub const EXECUTE: u64 = 1 << 0;
    pub const WRITE_FILE: u64 = 1 << 1;
    pub const READ_FILE: u64 = 1 << 2;
    pub const READ_DIR: u64 = 1 << 3;
    const TRUNCATE: u64 = 1 << 14;
    const IOCTL_DEV: u64 = 1 << 15;
    /// Rights that make sense on a file rather than a directory.
    const FILE_RIGHTS: u64 = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV;
    const NET_BIND_TCP: u64 = 1 << 0;
    const NET_CONNECT_TCP: u64 = 1 << 1;
    const SCOPE_ABSTRACT_UNIX_SOCKET: u64 = 1 << 0;
    const SCOPE_SIGNAL: u64 = 1 << 1;
    const CREATE_RULESET_VERSION: u32 = 1 << 0;
    const RULE_PATH_BENEATH: libc::c_int = 1;

    #[repr(C)]
    struct RulesetAttr {
        handled_access_fs: u64,
        handled_access_net: u64,
        scoped: u64,
    }

    #[repr(C, packed)]
    struct PathBeneathAttr {
        allowed_access: u64,
        parent_fd: i32,
    }

    /// The kernel's Landlock ABI version, or `None` without Landlock.
    pub fn abi() -> Option<u32> {
        // SAFETY: with a null attribute, size 0 and the VERSION flag the call
        // only returns a number; it reads and writes no memory.
        let version = unsafe {
            libc::syscall(
                libc::SYS_landlock_create_ruleset,
                std::ptr::null::<RulesetAttr>(),
                0usize,
                CREATE_RULESET_VERSION,
            )
        };
        u32::try_from(version).ok().filter(|&version| version >= 1)
    }

    /// Every filesystem right the given ABI knows.
    pub fn all_fs_rights(abi: u32) -> u64 {
        let mut rights = (1 << 13) - 1; // ABI 1: EXECUTE ..= MAKE_SYM
        if abi >= 2 {
            rights |= 1 << 13; // REFER
        }
        if abi >= 3 {
            rights |= TRUNCATE;
        }
        if abi >= 5 {
            rights |= IOCTL_DEV;
        }
        rights
    }

    /// A ruleset under construction.
    pub struct Ruleset {
        fd: OwnedFd,
        handled_fs: u64,
    }

    impl Ruleset {
        /// Handles `fs` rights (denied unless a rule allows them), TCP when
        /// `deny_tcp` and the ABI knows it, and scopes signals and abstract
        /// sockets when the ABI knows them.
        pub fn new(abi: u32, fs: u64, deny_tcp: bool) -> Result<Ruleset, SandboxError> {
            let attr = RulesetAttr {
                handled_access_fs: fs,
                handled_access_net: if deny_tcp && abi >= 4 {
                    NET_BIND_TCP | NET_CONNECT_TCP
                } else {
                    0
                },
                scoped: if abi >= 6 {
                    SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL
                } else {
                    0
                },
            };
            // SAFETY: `attr` is a valid, initialised struct of the size we
            // pass; fields an older kernel does not know are zero, which the
            // kernel accepts.
            let fd = unsafe {
                libc::syscall(
                    libc::SYS_landlock_create_ruleset,
                    &attr as *const RulesetAttr,
                    std::mem::size_of::<RulesetAttr>(),
                    0u32,
                )
            };
            if fd < 0 {
                return Err(SandboxError::last_os(
                    "landlock_create_ruleset",
                    "building the submission's filesystem rules",
                ));
            }
            // SAFETY: the kernel returned a new file descriptor we now own.
            let fd = unsafe { OwnedFd::from_raw_fd(fd as i32) };
            Ok(Ruleset { fd, handled_fs: fs })
        }

        /// Allows `rights` beneath `path`; a missing path is skipped.
        pub fn allow(&mut self, path: &Path, rights: u64) -> Result<(), SandboxError> {
            let Ok(c_path) = CString::new(path.as_os_str().as_bytes()) else {
                return Ok(());
            };
            // SAFETY: `c_path` is a NUL-terminated string that outlives the call.
            let raw = unsafe { libc::open(c_path.as_ptr(), libc::O_PATH | libc::O_CLOEXEC) };
            if raw < 0 {
                return Ok(());
            }
            // SAFETY: `open` returned a new descriptor we now own.
            let parent = unsafe { OwnedFd::from_raw_fd(raw) };
            let is_dir = std::fs::metadata(path).is_ok_and(|metadata| metadata.is_dir());
            let mut allowed = rights & self.handled_fs;
            if !is_dir {
                allowed &= FILE_RIGHTS;
            }
            if allowed == 0 {
                return Ok(());
            }
            let attr = PathBeneathAttr {
                allowed_access: allowed,
                parent_fd: parent.as_raw_fd(),
            };
            // SAFETY: `attr` is a valid packed struct as the ABI defines it,
            // and both descriptors are open for the duration of the call.
            let result = unsafe {
                libc::syscall(
                    libc::SYS_landlock_add_rule,
                    self.fd.as_raw_fd(),
                    RULE_PATH_BENEATH,
                    &attr as *const PathBeneathAttr,
                    0u32,
                )
            };
            if result < 0 {
                return Err(SandboxError::last_os(
                    "landlock_add_rule",
                    "allowing a path to the submission",
                ));
            }
            Ok(())
        }

        pub fn into_fd(self) -> OwnedFd {
            self.fd
        }
    }
}

// ---------------------------------------------------------------------------
// seccomp

#[cfg(target_arch = "x86_64")]
mod seccomp {
    //! A small deny list of system calls no contest program needs and that
    //! widen the kernel surface a hostile one can reach: tracing other
    //! processes, namespaces, mounts, modules, BPF, io_uring, keyrings.
    //! Each fails with EPERM (clone3 with ENOSYS, so libc falls back to
    //! clone, whose namespace flags are checked); a foreign ABI is killed.

    use std::sync::OnceLock;

    const AUDIT_ARCH_X86_64: u32 = 0xC000_003E;
    const X32_SYSCALL_BIT: u32 = 0x4000_0000;
    /// CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET.
    const CLONE_NAMESPACES: u32 = 0x7E02_0000;
    const CLONE: u32 = 56;
    const CLONE3: u32 = 435;
    /// x86_64 numbers: ptrace, process_vm_readv/writev, mount, umount2,
    /// pivot_root, swapon, swapoff, reboot, sethostname, setdomainname,
    /// init_module, delete_module, kexec_load, kexec_file_load,
    /// finit_module, bpf, perf_event_open, userfaultfd, keyctl, add_key,
    /// request_key, unshare, setns, open_by_handle_at, name_to_handle_at,
    /// io_uring_setup/enter/register, acct, quotactl.
    const DENIED: &[u32] = &[
        101, 310, 311, 165, 166, 155, 167, 168, 169, 170, 171, 175, 176, 246, 320, 313, 321, 298,
        323, 250, 248, 249, 272, 308, 304, 303, 425, 426, 427, 163, 179,
    ];

    fn statement(code: u32, k: u32) -> libc::sock_filter {
        libc::sock_filter {
            code: code as u16,
            jt: 0,
            jf: 0,
            k,
        }
    }

    fn jump(code: u32, k: u32, jt: u8, jf: u8) -> libc::sock_filter {
        libc::sock_filter {
            code: code as u16,
            jt,
            jf,
            k,
        }
    }

    /// The filter, built once before any fork.
    pub fn filter() -> &'static [libc::sock_filter] {
        static FILTER: OnceLock<Vec<libc::sock_filter>> = OnceLock::new();
        FILTER.get_or_init(|| {
            let load = libc::BPF_LD | libc::BPF_W | libc::BPF_ABS;
            let equal = libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K;
            let any_bit = libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K;
            let ret = libc::BPF_RET | libc::BPF_K;
            let deny = libc::SECCOMP_RET_ERRNO | libc::EPERM as u32;
            let mut program = vec![
                statement(load, 4), // seccomp_data.arch
                jump(equal, AUDIT_ARCH_X86_64, 1, 0),
                statement(ret, libc::SECCOMP_RET_KILL_PROCESS),
                statement(load, 0), // seccomp_data.nr
                jump(any_bit, X32_SYSCALL_BIT, 0, 1),
                statement(ret, libc::SECCOMP_RET_KILL_PROCESS),
            ];
            for &number in DENIED {
                program.push(jump(equal, number, 0, 1));
                program.push(statement(ret, deny));
            }
            program.push(jump(equal, CLONE3, 0, 1));
            program.push(statement(
                ret,
                libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32,
            ));
            program.push(jump(equal, CLONE, 0, 3));
            program.push(statement(load, 16)); // low half of args[0]: the flags
            program.push(jump(any_bit, CLONE_NAMESPACES, 0, 1));
            program.push(statement(ret, deny));
            program.push(statement(ret, libc::SECCOMP_RET_ALLOW));
            program
        })
    }
}

#[cfg(target_arch = "x86_64")]
fn seccomp_filter() -> Option<&'static [libc::sock_filter]> {
    Some(seccomp::filter())
}

#[cfg(not(target_arch = "x86_64"))]
fn seccomp_filter() -> Option<&'static [libc::sock_filter]> {
    None
}

// ---------------------------------------------------------------------------
// Spawning

/// A child that has exec'd (or failed to): its pid and our ends of its
/// stdout and stderr pipes.
struct Child {
    pid: libc::pid_t,
    stdout: OwnedFd,
    stderr: OwnedFd,
}

/// Everything the child needs, as C values built before the clone, so the
/// child allocates nothing.
struct ExecPlan {
    program: CString,
    _argv: Vec<CString>,
    argv: Vec<*const libc::c_char>,
    _envp: Vec<CString>,
    envp: Vec<*const libc::c_char>,
    workdir: CString,
    stdin: RawFd,
    setup: ChildSetup,
    /// Set by `spawn`: the pipes' child ends and the error pipe.
    stdout: RawFd,
    stderr: RawFd,
    error: RawFd,
}

fn c_string(bytes: &[u8]) -> io::Result<CString> {
    CString::new(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in an argument"))
}

fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: pipe2 returned two new descriptors we now own.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

impl ExecPlan {
    fn new(
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
            stdout: -1,
            stderr: -1,
            error: -1,
        })
    }

    /// Starts the program the way posix_spawn does: `clone(CLONE_VM |
    /// CLONE_VFORK)` on a stack of its own, so the judge's page tables are
    /// not copied as `fork` would (a third of a small test's cost); the
    /// judge's thread waits until the child has exec'd or failed.
    fn spawn(mut self) -> io::Result<Child> {
        let (stdout_read, stdout_write) = pipe()?;
        let (stderr_read, stderr_write) = pipe()?;
        let (error_read, error_write) = pipe()?;
        self.stdout = stdout_write.as_raw_fd();
        self.stderr = stderr_write.as_raw_fd();
        self.error = error_write.as_raw_fd();
        let mut stack = vec![0u8; 256 * 1024];
        // SAFETY: the end of `stack`, aligned down to 16 bytes as the ABI
        // wants; it outlives the child's use of it (the parent is suspended
        // until the child execs or exits).
        let stack_top = unsafe { stack.as_mut_ptr().add(stack.len()) };
        let stack_top = ((stack_top as usize) & !15) as *mut libc::c_void;
        // SAFETY: zeroed sigset_t values are valid for sigfillset/pthread_sigmask.
        let (mut all, mut previous): (libc::sigset_t, libc::sigset_t) =
            unsafe { (std::mem::zeroed(), std::mem::zeroed()) };
        // SAFETY: both sets are valid; blocking every signal keeps any
        // handler from running in the child while it shares our memory.
        unsafe {
            libc::sigfillset(&mut all);
            libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut previous);
        }
        // SAFETY: `child_main` receives a pointer to `self`, which lives on
        // this suspended thread's stack until the child has exec'd or
        // exited (CLONE_VFORK); it only reads the plan and makes
        // async-signal-safe system calls.
        let pid = unsafe {
            libc::clone(
                child_main,
                stack_top,
                libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
                &self as *const ExecPlan as *mut libc::c_void,
            )
        };
        let clone_error = io::Error::last_os_error();
        // SAFETY: restores the mask saved above.
        unsafe {
            libc::pthread_sigmask(libc::SIG_SETMASK, &previous, std::ptr::null_mut());
        }
        drop(stack);
        drop((stdout_write, stderr_write, error_write));
        if pid < 0 {
            return Err(clone_error);
        }
        // The error pipe closes on a successful exec; otherwise it carries
        // the errno of the step that failed.
        let mut errno = [0u8; 4];
        let mut error_file = std::fs::File::from(error_read);
        let failed = matches!(error_file.read(&mut errno), Ok(4));
        if failed {
            let _ = reap(pid);
            return Err(io::Error::from_raw_os_error(i32::from_ne_bytes(errno)));
        }
        Ok(Child {
            pid,
            stdout: stdout_read,
            stderr: stderr_read,
        })
    }
}

/// The child between clone and exec: stdio, working directory, process
/// group, signal dispositions, then [`child_setup`], then execve. Any
/// failure is reported through the error pipe.
extern "C" fn child_main(argument: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `argument` is the parent's ExecPlan, alive and unchanged while
    // the parent is suspended; everything below is an async-signal-safe
    // system call on values prepared before the clone.
    unsafe {
        let plan = &*(argument as *const ExecPlan);
        let fail = |error: i32| -> libc::c_int {
            let bytes = error.to_ne_bytes();
            libc::write(plan.error, bytes.as_ptr().cast(), 4);
            libc::_exit(127)
        };
        let errno = || {
            io::Error::last_os_error()
                .raw_os_error()
                .unwrap_or(libc::EIO)
        };
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
                return fail(errno());
            }
        }
        if libc::chdir(plan.workdir.as_ptr()) != 0 || libc::setpgid(0, 0) != 0 {
            return fail(errno());
        }
        if let Err(error) = child_setup(&plan.setup) {
            return fail(error.raw_os_error().unwrap_or(libc::EIO));
        }
        let mut empty: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut empty);
        libc::pthread_sigmask(libc::SIG_SETMASK, &empty, std::ptr::null_mut());
        libc::execve(
            plan.program.as_ptr(),
            plan.argv.as_ptr(),
            plan.envp.as_ptr(),
        );
        fail(errno())
    }
}

// ---------------------------------------------------------------------------
// Killing

/// What a SIGKILL is aimed at. A type, not a sign to remember: the group of a
/// run is `-pid` to `kill(2)`, a single process is `pid`.
#[derive(Clone, Copy, Debug)]
enum ProcessTarget {
    Process(libc::pid_t),
    Group(libc::pid_t),
}

fn kill(target: ProcessTarget) {
    let raw = match target {
        ProcessTarget::Process(pid) => pid,
        ProcessTarget::Group(pgid) => -pgid,
    };
    if raw == 0 || raw == -1 || raw == 1 {
        return; // never the judge's own group, never everything
    }
    // SAFETY: kill has no memory-safety preconditions; the target is a pid
    // or group we created and have not reaped, so it cannot be reused.
    unsafe {
        libc::kill(raw, libc::SIGKILL);
    }
}

// ---------------------------------------------------------------------------
// The sandbox

/// Values the child needs, prepared before the clone so the child only
/// makes async-signal-safe system calls.
#[derive(Clone, Copy)]
struct ChildSetup {
    cgroup_procs: [RawFd; 3],
    join_cgroups: bool,
    rlimits: [(libc::__rlimit_resource_t, libc::rlim_t); 7],
    rlimit_count: usize,
    user: Option<u32>,
    landlock: Option<RawFd>,
    /// Install the seccomp filter (submissions only).
    seccomp: bool,
    umask: libc::mode_t,
}

fn child_setup(setup: &ChildSetup) -> io::Result<()> {
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
        if setup.join_cgroups {
            for fd in setup.cgroup_procs {
                // "0" means the writing process: the child joins before exec,
                // so every process the program creates is counted.
                if libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
                    return Err(io::Error::last_os_error());
                }
            }
        }
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
            raw(libc::syscall(libc::SYS_setgid, id))?;
            raw(libc::syscall(libc::SYS_setuid, id))?;
        }
        // After the user switch, which clears it: die with the judge.
        check(libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0))?;
        // No setuid binary can hand privileges back (and Landlock needs it).
        check(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))?;
        if let Some(fd) = setup.landlock {
            if libc::syscall(libc::SYS_landlock_restrict_self, fd, 0u32) < 0 {
                return Err(io::Error::last_os_error());
            }
        }
        // Last: the filter denies calls the setup above needs.
        if setup.seccomp {
            if let Some(filter) = seccomp_filter() {
                let program = libc::sock_fprog {
                    len: filter.len() as u16,
                    filter: filter.as_ptr().cast_mut(),
                };
                // The filter lives in a static built before the fork; the
                // kernel copies it.
                check(libc::prctl(
                    libc::PR_SET_SECCOMP,
                    libc::SECCOMP_MODE_FILTER,
                    &program as *const libc::sock_fprog,
                ))?;
            }
        }
    }
    Ok(())
}

/// What a Landlock ruleset depends on.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RulesetKey {
    trust: Trust,
    program: PathBuf,
    read_paths: Vec<PathBuf>,
    workdir: PathBuf,
    /// Landlock rules hold inodes, not names: a scratch directory made anew
    /// needs a new ruleset.
    workdir_inode: (u64, u64),
}

/// One worker's isolation, reused for every run on that worker's thread.
pub struct Sandbox {
    isolation: &'static Isolation,
    directory: PathBuf,
    cgroups: Option<Cgroups>,
    /// Processes of the invoking user when the sandbox was made, for
    /// RLIMIT_NPROC without a pids cgroup (the limit counts the whole user).
    baseline_processes: u64,
    ruleset_cache: Option<(RulesetKey, OwnedFd)>,
    /// The scratch directory exists, is empty and has its mode and owner.
    scratch_ready: bool,
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
        let name = format!("judge-{}-{unique}", std::process::id());
        if isolation.network == "namespace" {
            // SAFETY: unshare changes only this thread's namespaces; the
            // programs this thread spawns inherit them. It fails cleanly.
            if unsafe { libc::unshare(libc::CLONE_NEWNET) } != 0 {
                return Err(SandboxError::last_os(
                    "unshare(CLONE_NEWNET)",
                    "giving the worker a network namespace without interfaces",
                ));
            }
        }
        let cgroups = if isolation.cgroups == "none" {
            None
        } else {
            Some(Cgroups::create(&name)?)
        };
        let directory = root.join(&name);
        fs_err::create_dir(&directory)
            .map_err(|source| SandboxError::path("create", &directory, source))?;
        set_mode(&directory, 0o711)?;
        if cgroups.is_none() {
            become_subreaper();
        }
        let _ = seccomp_filter(); // built here, never between fork and exec
        let baseline_processes = if cgroups.is_none() {
            count_own_processes()
        } else {
            0
        };
        Ok(Sandbox {
            isolation,
            directory,
            cgroups,
            baseline_processes,
            ruleset_cache: None,
            scratch_ready: false,
            _not_send: PhantomData,
        })
    }

    /// The isolation in force.
    pub fn isolation(&self) -> &'static Isolation {
        self.isolation
    }

    /// Runs one program to its end, or until a limit, and kills everything
    /// it left behind. `Err` only when the judge failed.
    pub fn run(&mut self, spec: &RunSpec) -> Result<Measured, SandboxError> {
        let scratch = self.directory.join("scratch");
        let user = self.isolation.user;
        let workdir = match (spec.trust, &spec.workdir) {
            (Trust::Tool, Some(dir)) => dir.clone(),
            _ => {
                if !std::mem::take(&mut self.scratch_ready) {
                    make_scratch(&scratch, user)?;
                }
                scratch.clone()
            }
        };
        let result = self.run_in(spec, &workdir);
        // Checked now rather than before the next run, so nothing a program
        // wrote outlives its test; an empty, untouched directory is reused.
        if workdir == scratch {
            if is_pristine_scratch(&scratch, user) {
                self.scratch_ready = true;
            } else {
                remove_tree(&scratch)?;
            }
        }
        result
    }

    fn run_in(&mut self, spec: &RunSpec, workdir: &Path) -> Result<Measured, SandboxError> {
        let limits = &spec.limits;
        if let Some(cgroups) = &mut self.cgroups {
            cgroups.prepare(limits)?;
        }
        let landlock = self.ruleset(spec, workdir)?;
        let setup = self.child_setup(spec, landlock);

        let stdin = match &spec.stdin {
            Some(path) => {
                fs_err::File::open(path)
                    .map_err(|source| SandboxError::path("open the input", path, source))?
                    .into_parts()
                    .0
            }
            None => {
                fs_err::File::open("/dev/null")
                    .map_err(|source| SandboxError::path("open", "/dev/null", source))?
                    .into_parts()
                    .0
            }
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
        let plan = ExecPlan::new(spec, workdir, &environment, stdin.as_raw_fd(), setup)?;
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
        let pid = child.pid;
        // From here on the child must be killed and reaped on every path.
        let outcome = self.supervise(child.stdout, child.stderr, pid, limits, started);
        kill(ProcessTarget::Group(pid));
        let reaped = reap(pid);
        lock_spawned().retain(|&other| other != pid);
        let cleanup = match &self.cgroups {
            Some(cgroups) => cgroups.kill_all(),
            None => {
                kill_escaped_orphans();
                Ok(())
            }
        };
        let mut supervised = outcome?;
        let (status, rusage) = reaped?;
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
        let abnormal = termination != Termination::Exited(0);
        // An allocation that fails at the limit usually ends in abort or a
        // crash rather than an OOM kill: count it as memory when the peak
        // reached the limit (within 5%).
        let at_memory_limit = memory_kib.saturating_mul(20) >= limits.memory_kib.saturating_mul(19);
        let limit_exceeded = supervised.limit.or_else(|| {
            if oom_killed || (abnormal && at_memory_limit) {
                Some(LimitExceeded::Memory)
            } else if cpu_time > Duration::from_millis(limits.cpu_time_ms)
                || (abnormal
                    && matches!(termination, Termination::Signaled(signal) if signal == libc::SIGXCPU))
            {
                Some(LimitExceeded::CpuTime)
            } else if wall_time > Duration::from_millis(limits.wall_time_ms) {
                Some(LimitExceeded::WallTime)
            } else {
                None
            }
        });
        // A kill for one limit can look like another afterwards; the memory
        // cgroup's verdict wins over time, as the OOM kill came first.
        let limit_exceeded = match limit_exceeded {
            Some(LimitExceeded::CpuTime | LimitExceeded::WallTime) if oom_killed => {
                Some(LimitExceeded::Memory)
            }
            other => other,
        };
        Ok(Measured {
            termination,
            limit_exceeded,
            cpu_time_ms: duration_ms(cpu_time),
            wall_time_ms: duration_ms(wall_time),
            memory_kib,
            stdout: supervised.stdout,
            stderr: supervised.stderr,
            stderr_discarded_bytes: supervised.stderr_discarded_bytes,
        })
    }

    /// The Landlock ruleset for this run, built once per distinct program
    /// and paths and reused: a worker runs the same program test after test.
    fn ruleset(&mut self, spec: &RunSpec, workdir: &Path) -> Result<Option<RawFd>, SandboxError> {
        let key = RulesetKey {
            trust: spec.trust,
            program: spec.program.clone(),
            read_paths: spec.read_paths.clone(),
            workdir: workdir.to_path_buf(),
            workdir_inode: fs_err::metadata(workdir).map_or((0, 0), |metadata| {
                use std::os::unix::fs::MetadataExt;
                (metadata.dev(), metadata.ino())
            }),
        };
        if let Some((cached, fd)) = &self.ruleset_cache {
            if *cached == key {
                return Ok(Some(fd.as_raw_fd()));
            }
        }
        let Some(fd) = self.build_ruleset(spec, workdir)? else {
            return Ok(None);
        };
        let raw = fd.as_raw_fd();
        self.ruleset_cache = Some((key, fd));
        Ok(Some(raw))
    }

    fn build_ruleset(
        &self,
        spec: &RunSpec,
        workdir: &Path,
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
        // `#include "/path/to/1.ans"` fails; writes to the work directory only.
        let mut ruleset = landlock::Ruleset::new(abi, all, true)?;
        for path in SYSTEM_READ_PATHS {
            ruleset.allow(Path::new(path), read)?;
        }
        for path in &spec.read_paths {
            ruleset.allow(path, read)?;
        }
        ruleset.allow(&spec.program, read)?;
        for path in DEVICE_PATHS {
            ruleset.allow(Path::new(path), device)?;
        }
        ruleset.allow(workdir, all)?;
        Ok(Some(ruleset.into_fd()))
    }

    fn child_setup(&self, spec: &RunSpec, landlock: Option<RawFd>) -> ChildSetup {
        let limits = &spec.limits;
        let cgroup_procs = match &self.cgroups {
            Some(cgroups) => [
                cgroups.procs[0].as_raw_fd(),
                cgroups.procs[1].as_raw_fd(),
                cgroups.procs[2].as_raw_fd(),
            ],
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
            rlimits,
            rlimit_count: count,
            user: match spec.trust {
                Trust::Submission => self.isolation.user,
                Trust::Tool => None,
            },
            landlock,
            seccomp: spec.trust == Trust::Submission,
            umask: match spec.trust {
                Trust::Submission => 0o077,
                Trust::Tool => 0o022,
            },
        }
    }

    /// Watches a running program: reads its output as it streams, checks CPU
    /// time and the wall clock, and stops at the first limit or at its exit.
    fn supervise(
        &self,
        stdout: OwnedFd,
        stderr: OwnedFd,
        pid: libc::pid_t,
        limits: &Limits,
        started: Instant,
    ) -> Result<Supervised, SandboxError> {
        let mut supervised = Supervised::new(stdout, stderr)?;
        let pidfd = pidfd_open(pid);
        let cpu_limit = Duration::from_millis(limits.cpu_time_ms);
        let wall_deadline = started + Duration::from_millis(limits.wall_time_ms);
        loop {
            let cpu_used = self.cpu_time_of(pid)?;
            if cpu_used > cpu_limit {
                supervised.limit = Some(LimitExceeded::CpuTime);
                return Ok(supervised);
            }
            let now = Instant::now();
            if now >= wall_deadline {
                supervised.limit = Some(LimitExceeded::WallTime);
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
            let exited = supervised.poll(pidfd.as_ref(), timeout, limits)?;
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
        let _ = remove_tree(&self.directory);
    }
}

/// The streams of a running program and what was read from them.
struct Supervised {
    stdout_fd: Option<OwnedFd>,
    stderr_fd: Option<OwnedFd>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    stderr_discarded_bytes: u64,
    limit: Option<LimitExceeded>,
    exited_at: Option<Instant>,
}

impl Supervised {
    fn new(stdout: OwnedFd, stderr: OwnedFd) -> Result<Supervised, SandboxError> {
        set_nonblocking(&stdout)?;
        set_nonblocking(&stderr)?;
        let (stdout_fd, stderr_fd) = (Some(stdout), Some(stderr));
        Ok(Supervised {
            stdout_fd,
            stderr_fd,
            stdout: Vec::new(),
            stderr: Vec::new(),
            stderr_discarded_bytes: 0,
            limit: None,
            exited_at: None,
        })
    }

    /// Waits up to `timeout` for output or the program's exit, reads what is
    /// there, and says whether the program exited.
    fn poll(
        &mut self,
        pidfd: Option<&OwnedFd>,
        timeout: Duration,
        limits: &Limits,
    ) -> Result<bool, SandboxError> {
        let fd_of = |fd: &Option<OwnedFd>| fd.as_ref().map_or(-1, AsRawFd::as_raw_fd);
        let mut fds = [
            libc::pollfd {
                fd: fd_of(&self.stdout_fd),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: fd_of(&self.stderr_fd),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: pidfd.map_or(-1, AsRawFd::as_raw_fd),
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        let timeout_ms = libc::c_int::try_from(timeout.as_millis()).unwrap_or(libc::c_int::MAX);
        // SAFETY: `fds` is a valid array of three pollfd structs; negative
        // descriptors are ignored by poll.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), 3, timeout_ms) };
        if ready < 0 {
            let error = io::Error::last_os_error();
            if error.kind() == io::ErrorKind::Interrupted {
                return Ok(false);
            }
            return Err(SandboxError::Syscall {
                syscall: "poll",
                purpose: "waiting for the program's output or exit",
                source: error,
            });
        }
        if fds[0].revents != 0 {
            self.read_stdout(limits)?;
        }
        if fds[1].revents != 0 {
            self.read_stderr(limits)?;
        }
        Ok(fds[2].revents != 0)
    }

    fn read_stdout(&mut self, limits: &Limits) -> Result<(), SandboxError> {
        let Some(fd) = &self.stdout_fd else {
            return Ok(());
        };
        let cap = usize::try_from(limits.stdout_bytes).unwrap_or(usize::MAX);
        let mut buffer = [0u8; 64 * 1024];
        loop {
            match read_fd(fd, &mut buffer) {
                Ok(0) => {
                    self.stdout_fd = None;
                    return Ok(());
                }
                Ok(count) => {
                    let room = cap.saturating_sub(self.stdout.len());
                    if count > room {
                        self.stdout.extend_from_slice(&buffer[..room]);
                        self.limit = Some(LimitExceeded::Output);
                        self.stdout_fd = None;
                        return Ok(());
                    }
                    self.stdout.extend_from_slice(&buffer[..count]);
                }
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => return Ok(()),
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(source) => {
                    return Err(SandboxError::Syscall {
                        syscall: "read",
                        purpose: "reading the program's stdout",
                        source,
                    })
                }
            }
        }
    }

    fn read_stderr(&mut self, limits: &Limits) -> Result<(), SandboxError> {
        let Some(fd) = &self.stderr_fd else {
            return Ok(());
        };
        let cap = usize::try_from(limits.stderr_bytes).unwrap_or(usize::MAX);
        let mut buffer = [0u8; 64 * 1024];
        // Bounded per call so a flood of stderr cannot starve the checks of
        // time and stdout.
        for _ in 0..16 {
            match read_fd(fd, &mut buffer) {
                Ok(0) => {
                    self.stderr_fd = None;
                    return Ok(());
                }
                Ok(count) => {
                    let room = cap.saturating_sub(self.stderr.len());
                    let kept = count.min(room);
                    self.stderr.extend_from_slice(&buffer[..kept]);
                    self.stderr_discarded_bytes += (count - kept) as u64;
                }
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => return Ok(()),
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(source) => {
                    return Err(SandboxError::Syscall {
                        syscall: "read",
                        purpose: "reading the program's stderr",
                        source,
                    })
                }
            }
        }
        Ok(())
    }

    /// After the program ended and its tree was killed: reads what is left in
    /// the pipes, up to the caps, until they close or a short grace passes.
    fn drain(&mut self, limits: &Limits) {
        let deadline = Instant::now() + DRAIN_GRACE;
        while (self.stdout_fd.is_some() || self.stderr_fd.is_some())
            && self.limit != Some(LimitExceeded::Output)
        {
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            if self.poll(None, deadline - now, limits).is_err() {
                break;
            }
        }
        self.stdout_fd = None;
        self.stderr_fd = None;
    }
}

fn read_fd(fd: &OwnedFd, buffer: &mut [u8]) -> io::Result<usize> {
    // Borrow the descriptor as a File without taking ownership of it.
    let mut file = std::mem::ManuallyDrop::new(
        // SAFETY: the descriptor is open and owned by `fd`, which outlives
        // this call; ManuallyDrop keeps the File from closing it.
        unsafe { std::fs::File::from_raw_fd(fd.as_raw_fd()) },
    );
    file.read(buffer)
}

fn set_nonblocking(fd: &OwnedFd) -> Result<(), SandboxError> {
    // SAFETY: fcntl on a descriptor we own; F_GETFL/F_SETFL touch no memory.
    let result = unsafe {
        let flags = libc::fcntl(fd.as_raw_fd(), libc::F_GETFL);
        if flags < 0 {
            flags
        } else {
            libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK)
        }
    };
    if result < 0 {
        return Err(SandboxError::last_os(
            "fcntl",
            "making the program's pipes non-blocking",
        ));
    }
    Ok(())
}

/// A descriptor that becomes readable when `pid` exits (Linux 5.3+), so the
/// judge wakes at the exit instead of at the next tick.
fn pidfd_open(pid: libc::pid_t) -> Option<OwnedFd> {
    // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor
    // or -1; our child is not reaped yet, so the pid is still ours.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    if fd < 0 {
        return None;
    }
    // SAFETY: the kernel returned a new descriptor we now own.
    Some(unsafe { OwnedFd::from_raw_fd(fd as RawFd) })
}

/// Whether the (unreaped) child has exited, without reaping it.
fn has_exited(pid: libc::pid_t) -> bool {
    // SAFETY: a zeroed siginfo_t is a valid out-parameter for waitid.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: `info` is valid for writes; WNOWAIT leaves the child unreaped.
    let result = unsafe {
        libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        )
    };
    // SAFETY: waitid filled `info` (or left it zeroed, giving pid 0).
    result == 0 && unsafe { info.si_pid() } != 0
}

/// Main processes of runs in progress (and compilers), which the orphan
/// sweep must leave alone.
static SPAWNED: std::sync::Mutex<Vec<libc::pid_t>> = std::sync::Mutex::new(Vec::new());

fn lock_spawned() -> std::sync::MutexGuard<'static, Vec<libc::pid_t>> {
    // A panic while holding the lock leaves a valid Vec behind.
    SPAWNED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Without cgroups nothing contains a process that calls `setsid` or
/// double-forks. As the child subreaper of its descendants, the judge gets
/// such orphans as children instead of init, and [`kill_escaped_orphans`]
/// ends them. Process-wide, set once, only in this degraded mode.
fn become_subreaper() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: prctl with integer arguments touches no memory.
        unsafe {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
        }
    });
}

/// SIGKILLs and reaps every child of the judge that the sandbox did not
/// spawn and that is outside the judge's own process group: test processes
/// whose parent died, reparented to the judge as subreaper.
fn kill_escaped_orphans() {
    let spawned = lock_spawned();
    // SAFETY: getpgrp has no preconditions and cannot fail.
    let own_group = unsafe { libc::getpgrp() };
    for pid in children_of_judge() {
        // SAFETY: getpgid only reads the process's group id.
        if spawned.contains(&pid) || unsafe { libc::getpgid(pid) } == own_group {
            continue;
        }
        kill(ProcessTarget::Process(pid));
        let mut status = 0;
        // SAFETY: `status` is valid for writes; the orphan is our child now,
        // so this reaps it and nothing else.
        unsafe {
            libc::waitpid(pid, &mut status, 0);
        }
    }
}

/// Children of every thread of the judge (`/proc/self/task/*/children`).
fn children_of_judge() -> Vec<libc::pid_t> {
    let Ok(tasks) = fs_err::read_dir("/proc/self/task") else {
        return Vec::new();
    };
    tasks
        .filter_map(Result::ok)
        .filter_map(|task| fs_err::read_to_string(task.path().join("children")).ok())
        .flat_map(|text| {
            text.split_whitespace()
                .filter_map(|pid| pid.parse().ok())
                .collect::<Vec<libc::pid_t>>()
        })
        .collect()
}

/// Waits for our child and returns its status and resource usage.
fn reap(pid: libc::pid_t) -> Result<(libc::c_int, libc::rusage), SandboxError> {
    let mut status: libc::c_int = 0;
    // SAFETY: a zeroed rusage is a valid out-parameter.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: both out-pointers are valid for writes; `pid` is our child.
        let result = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if result == pid {
            return Ok((status, usage));
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(SandboxError::Syscall {
                syscall: "wait4",
                purpose: "reaping the program",
                source: error,
            });
        }
    }
}

/// CPU time of a process and its reaped children, from `/proc/PID/stat`
/// (used only without a cpuacct cgroup).
fn process_cpu_time(pid: libc::pid_t) -> Duration {
    let Ok(stat) = fs_err::read_to_string(format!("/proc/{pid}/stat")) else {
        return Duration::ZERO;
    };
    let Some(end) = stat.rfind(')') else {
        return Duration::ZERO;
    };
    // Fields after the command: state is field 3, utime..cstime are 14..=17.
    let fields: Vec<u64> = stat[end + 1..]
        .split_whitespace()
        .skip(11)
        .take(4)
        .filter_map(|field| field.parse().ok())
        .collect();
    // SAFETY: sysconf has no preconditions.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Duration::from_millis(fields.iter().sum::<u64>() * 1000 / ticks)
}

fn count_own_processes() -> u64 {
    // SAFETY: getuid has no preconditions and cannot fail.
    let uid = unsafe { libc::getuid() }.to_string();
    let Ok(entries) = fs_err::read_dir("/proc") else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .filter(|entry| entry.file_name().as_bytes().iter().all(u8::is_ascii_digit))
        .filter(|entry| {
            fs_err::read_to_string(entry.path().join("status")).is_ok_and(|status| {
                status.lines().any(|line| {
                    line.strip_prefix("Uid:")
                        .and_then(|ids| ids.split_whitespace().next())
                        == Some(uid.as_str())
                })
            })
        })
        .count() as u64
}

fn timeval_duration(time: libc::timeval) -> Duration {
    Duration::from_secs(time.tv_sec.max(0) as u64)
        + Duration::from_micros(time.tv_usec.max(0) as u64)
}

fn duration_ms(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

fn set_mode(path: &Path, mode: u32) -> Result<(), SandboxError> {
    fs_err::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .map_err(|source| SandboxError::path("set permissions of", path, source))
}

/// A fresh, empty scratch directory owned by the sandbox user: the one of
/// the previous run when it is still pristine, else a new one.
fn make_scratch(path: &Path, user: Option<u32>) -> Result<(), SandboxError> {
    if is_pristine_scratch(path, user) {
        return Ok(());
    }
    if fs_err::symlink_metadata(path).is_ok() {
        remove_tree(path)?;
    }
    fs_err::create_dir(path).map_err(|source| SandboxError::path("create", path, source))?;
    set_mode(path, 0o700)?;
    if let Some(id) = user {
        chown(path, Some(id), Some(id))
            .map_err(|source| SandboxError::path("give the sandbox user", path, source))?;
    }
    Ok(())
}

/// Empty, a real directory, mode 0700 and owned by the sandbox user (a
/// program may have changed its mode).
fn is_pristine_scratch(path: &Path, user: Option<u32>) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(metadata) = fs_err::symlink_metadata(path) else {
        return false;
    };
    let owner_ok = user.is_none_or(|id| metadata.uid() == id && metadata.gid() == id);
    metadata.is_dir() && metadata.mode() & 0o7777 == 0o700 && owner_ok && is_empty_dir(path)
}

fn is_empty_dir(path: &Path) -> bool {
    fs_err::read_dir(path).is_ok_and(|mut entries| entries.next().is_none())
}

/// Removes a directory a program wrote to, even one it made unreadable.
fn remove_tree(path: &Path) -> Result<(), SandboxError> {
    if fs_err::remove_dir_all(path).is_ok() || fs_err::symlink_metadata(path).is_err() {
        return Ok(());
    }
    // Without CAP_DAC_OVERRIDE a `chmod 000` subdirectory blocks removal:
    // give every directory back its permissions, then try again.
    fn restore(path: &Path) {
        let _ = fs_err::set_permissions(path, std::fs::Permissions::from_mode(0o700));
        if let Ok(entries) = fs_err::read_dir(path) {
            for entry in entries.filter_map(Result::ok) {
                if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                    restore(&entry.path());
                }
            }
        }
    }
    restore(path);
    fs_err::remove_dir_all(path).map_err(|source| SandboxError::path("remove", path, source))
}
