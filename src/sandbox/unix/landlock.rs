//! Landlock through the `landlock` crate (its kernel maintainers' own):
//! the ABI in force, and rulesets built best-effort, so a right or scope
//! the kernel does not know is left out rather than failing the run.
//!
//! Rules hold inodes, not names: a path opened through a worker's mount
//! namespace (`/proc/self/fd/N/...`) gives the rule for what the program
//! will see there, such as its private `/proc` and its scratch tmpfs.
//!
//! The ABI in force is found once, with the crate; the rulesets of runs
//! are made with the two system calls themselves, on rights resolved once
//! as the crate's best-effort mode resolves them (issue #31: the crate asks
//! the kernel's ABI and `fstat`s the path of every rule, per ruleset).
//!
//! The ruleset is built by the judge's thread; the child between clone and
//! exec only passes its descriptor to `landlock_restrict_self` (see
//! `spawn`), since nothing may allocate or move values there.

use crate::sandbox::SandboxError;
use landlock::{
    Access, AccessFs, AccessNet, BitFlags, LandlockStatus, Ruleset, RulesetAttr, Scope, ABI,
};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};
use std::path::Path;

/// The newest ABI whose filesystem rights the judge handles (up to
/// `IOCTL_DEV`); TCP is ABI 4's, scopes (signals, abstract sockets) ABI 6's.
const FS_ABI: ABI = ABI::V5;
const NET_ABI: ABI = ABI::V4;
const SCOPE_ABI: ABI = ABI::V6;

/// What a rule grants beneath a path.
#[derive(Clone, Copy, Debug)]
pub(super) enum Grant {
    /// Read files, list folders, execute.
    Read,
    /// Read and write files (device nodes such as `/dev/null`).
    Device,
    /// Everything but making device nodes (the work directory).
    Workdir,
}

impl Grant {
    fn rights(self) -> BitFlags<AccessFs> {
        match self {
            Grant::Read => AccessFs::ReadFile | AccessFs::ReadDir | AccessFs::Execute,
            Grant::Device => AccessFs::ReadFile | AccessFs::WriteFile,
            Grant::Workdir => {
                AccessFs::from_all(FS_ABI) & !(AccessFs::MakeChar | AccessFs::MakeBlock)
            }
        }
    }
}

/// The kernel's Landlock ABI version, or `None` without Landlock.
///
/// The crate tells the ABI only as the outcome of a restriction, so a
/// throwaway thread restricts itself (Landlock applies to the calling
/// thread alone) and ends.
pub(super) fn abi() -> Option<u32> {
    std::thread::spawn(|| {
        let status = Ruleset::default()
            .handle_access(AccessFs::Execute)
            .ok()?
            .create()
            .ok()?
            .restrict_self()
            .ok()?;
        match status.landlock {
            LandlockStatus::Available {
                effective_abi,
                kernel_abi,
            } => kernel_abi
                .and_then(|version| u32::try_from(version).ok())
                .or(Some(effective_abi as u32)),
            LandlockStatus::NotEnabled | LandlockStatus::NotImplemented => None,
        }
    })
    .join()
    .ok()
    .flatten()
    .filter(|&version| version >= 1)
}

/// What every ruleset of this process handles, resolved once against the
/// kernel's ABI as the crate's best-effort mode resolves it (a right or
/// scope the kernel does not know is left out): every filesystem right the
/// judge knows, TCP, and the scopes of signals and abstract sockets.
struct Handled {
    fs: BitFlags<AccessFs>,
    net: u64,
    scoped: u64,
}

/// The kernel's Landlock ABI, asked once per process (issue #31: the crate
/// asks at every ruleset it makes); `None` without Landlock.
fn handled() -> Option<&'static Handled> {
    static HANDLED: std::sync::OnceLock<Option<Handled>> = std::sync::OnceLock::new();
    HANDLED
        .get_or_init(|| {
            // SAFETY: the version query takes no attribute (a null pointer
            // and size 0) and returns an integer.
            let version = unsafe {
                libc::syscall(
                    libc::SYS_landlock_create_ruleset,
                    std::ptr::null::<libc::c_void>(),
                    0usize,
                    LANDLOCK_CREATE_RULESET_VERSION,
                )
            };
            let abi = ABI::from(i32::try_from(version).ok().filter(|&v| v >= 1)?);
            Some(Handled {
                fs: AccessFs::from_all(FS_ABI) & AccessFs::from_all(abi),
                net: (AccessNet::from_all(NET_ABI) & AccessNet::from_all(abi)).bits(),
                scoped: (Scope::from_all(SCOPE_ABI) & Scope::from_all(abi)).bits(),
            })
        })
        .as_ref()
}

/// `LANDLOCK_CREATE_RULESET_VERSION` of `<linux/landlock.h>`.
const LANDLOCK_CREATE_RULESET_VERSION: libc::c_uint = 1;
/// `LANDLOCK_RULE_PATH_BENEATH` of `<linux/landlock.h>`.
const LANDLOCK_RULE_PATH_BENEATH: libc::c_int = 1;

/// `struct landlock_ruleset_attr` up to `scoped` (ABI 6): the kernel
/// takes a shorter attribute than it knows, and a longer one only with
/// zeros past what it knows, so one size serves every ABI.
#[repr(C)]
struct RulesetAttribute {
    handled_access_fs: u64,
    handled_access_net: u64,
    scoped: u64,
}

/// `struct landlock_path_beneath_attr` (packed in the kernel's header).
#[repr(C, packed)]
struct PathBeneathAttribute {
    allowed_access: u64,
    parent_fd: RawFd,
}

fn failed(purpose: &'static str, syscall: &'static str) -> SandboxError {
    SandboxError::Syscall {
        syscall,
        purpose,
        source: std::io::Error::last_os_error(),
    }
}

/// A new, empty ruleset: every filesystem right the judge knows is denied
/// unless a rule allows it, TCP is denied, signals and abstract sockets are
/// scoped to the run. `None` where the kernel has no Landlock.
fn create_ruleset() -> Result<Option<OwnedFd>, SandboxError> {
    let Some(handled) = handled() else {
        return Ok(None);
    };
    let attr = RulesetAttribute {
        handled_access_fs: handled.fs.bits(),
        handled_access_net: handled.net,
        scoped: handled.scoped,
    };
    // SAFETY: `attr` is a valid attribute of the size given; the call
    // returns a new descriptor or -1.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            &attr as *const RulesetAttribute,
            std::mem::size_of::<RulesetAttribute>(),
            0u32,
        )
    };
    let fd = RawFd::try_from(fd).unwrap_or(-1);
    if fd < 0 {
        return Err(failed(
            "building the submission's filesystem rules",
            "landlock_create_ruleset",
        ));
    }
    // SAFETY: the kernel just made `fd`, and nothing else owns it.
    Ok(Some(unsafe { OwnedFd::from_raw_fd(fd) }))
}

/// Allows `rights` (already resolved: [`Opened`]) beneath the inode `path`
/// holds, in `ruleset`.
fn add_rule(
    ruleset: BorrowedFd<'_>,
    path: BorrowedFd<'_>,
    rights: u64,
) -> Result<(), SandboxError> {
    let attr = PathBeneathAttribute {
        allowed_access: rights,
        parent_fd: path.as_raw_fd(),
    };
    // SAFETY: both descriptors are open for the call, `attr` is a valid
    // path-beneath attribute.
    let result = unsafe {
        libc::syscall(
            libc::SYS_landlock_add_rule,
            ruleset.as_raw_fd(),
            LANDLOCK_RULE_PATH_BENEATH,
            &attr as *const PathBeneathAttribute,
            0u32,
        )
    };
    if result != 0 {
        return Err(failed(
            "allowing a path to the submission",
            "landlock_add_rule",
        ));
    }
    Ok(())
}

/// A rule's path, opened (`O_PATH`) and looked at once, with the rights
/// it gets, resolved against the kernel's ABI: the inode a rule holds,
/// kept so that a ruleset can be made again from it without a new look-up
/// of the path, and without the crate's `fstat` per rule (issue #31).
struct Opened {
    path: OwnedFd,
    rights: u64,
}

impl Opened {
    /// `None` for a missing path, or a grant that leaves a file no right.
    fn open(path: &Path, grant: Grant) -> Option<Opened> {
        let opened = open_path(path)?;
        let mut rights = grant.rights();
        // The inode the rule holds, not a second look-up of the path (one
        // through `/proc/N/root/...` per run for `/dev/shm`: issue #31).
        let is_dir = rustix::fs::fstat(&opened)
            .is_ok_and(|stat| rustix::fs::FileType::from_raw_mode(stat.st_mode).is_dir());
        if !is_dir {
            rights &= AccessFs::from_file(FS_ABI);
        }
        Opened::resolved(opened, rights)
    }

    /// `rights` as the kernel takes them (those it knows of what every
    /// ruleset handles); `None` when none is left, a rule the crate's
    /// best-effort mode leaves out too.
    fn resolved(path: OwnedFd, rights: BitFlags<AccessFs>) -> Option<Opened> {
        let rights = rights & handled()?.fs;
        (!rights.is_empty()).then_some(Opened {
            path,
            rights: rights.bits(),
        })
    }
}

/// `path` opened `O_PATH`, or `None` where it is missing.
fn open_path(path: &Path) -> Option<OwnedFd> {
    use rustix::fs::{Mode, OFlags};
    rustix::fs::open(path, OFlags::PATH | OFlags::CLOEXEC, Mode::empty()).ok()
}

/// The rules of a worker's runs that outlive a run, each path opened once
/// ([`Opened`]), from which a ruleset is made per run; the run's own paths
/// (its fresh `/dev/shm`) are added to it with [`allow_fresh_folder`]: the
/// same rules, on the same inodes, as opening every path again, without
/// the look-ups (some 20 paths through `/proc/self/fd/N/...`, most of what
/// a ruleset cost).
pub(super) struct PreparedRules {
    opened: Vec<Opened>,
}

impl PreparedRules {
    pub(super) fn new() -> PreparedRules {
        PreparedRules { opened: Vec::new() }
    }

    /// Allows `grant` beneath `path` in every ruleset made from these
    /// rules; a missing path is skipped, and a file gets only the rights
    /// that make sense on a file.
    pub(super) fn allow(&mut self, path: &Path, grant: Grant) {
        self.opened.extend(Opened::open(path, grant));
    }

    /// A new ruleset holding these rules (`None` where the kernel has no
    /// Landlock): one system call a rule, on descriptors and rights found
    /// once.
    pub(super) fn ruleset(&self) -> Result<Option<OwnedFd>, SandboxError> {
        let Some(ruleset) = create_ruleset()? else {
            return Ok(None);
        };
        for opened in &self.opened {
            add_rule(ruleset.as_fd(), opened.path.as_fd(), opened.rights)?;
        }
        Ok(Some(ruleset))
    }
}

/// Allows `grant` beneath `folder`, opened now, in `ruleset`: a folder
/// mounted anew for this run (its `/dev/shm`), which the judge knows is a
/// folder, so its type is not looked at. A missing path is skipped.
pub(super) fn allow_fresh_folder(
    ruleset: BorrowedFd<'_>,
    folder: &Path,
    grant: Grant,
) -> Result<(), SandboxError> {
    let Some(opened) = open_path(folder).and_then(|fd| Opened::resolved(fd, grant.rights())) else {
        return Ok(());
    };
    add_rule(ruleset, opened.path.as_fd(), opened.rights)
}
