//! Raw Landlock: ABI probing, rulesets, and what each ABI can restrict.
//!
//! Rules hold inodes, not names: a path opened through a worker's mount
//! namespace (`/proc/self/fd/N/...`) gives the rule for what the program
//! will see there, such as its private `/proc` and its scratch tmpfs.

use crate::sandbox::SandboxError;
use std::ffi::CString;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

pub const EXECUTE: u64 = 1 << 0;
pub const WRITE_FILE: u64 = 1 << 1;
pub const READ_FILE: u64 = 1 << 2;
pub const READ_DIR: u64 = 1 << 3;
/// Creating character and block device nodes: never granted, even in a
/// directory the program may otherwise fill (issue #7).
pub const MAKE_DEVICES: u64 = (1 << 6) | (1 << 11);
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
