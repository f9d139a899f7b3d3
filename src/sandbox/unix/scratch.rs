//! The directories a program may write: a run's scratch directory (a plain
//! directory, or the root of the worker's scratch tmpfs) and a compiler's
//! working directory, lent to the sandbox user for the compile and taken
//! back after it.

use crate::sandbox::SandboxError;
use std::os::unix::fs::{lchown, MetadataExt, PermissionsExt};
use std::path::Path;

pub(super) fn set_mode(path: &Path, mode: u32) -> Result<(), SandboxError> {
    fs_err::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .map_err(|source| SandboxError::path("set permissions of", path, source))
}

fn give(path: &Path, user: Option<u32>) -> Result<(), SandboxError> {
    if let Some(id) = user {
        lchown(path, Some(id), Some(id))
            .map_err(|source| SandboxError::path("give the sandbox user", path, source))?;
    }
    Ok(())
}

/// A fresh, empty scratch directory owned by the sandbox user: the one of
/// the previous run when it is still pristine, else a new one.
pub(super) fn make_scratch(path: &Path, user: Option<u32>) -> Result<(), SandboxError> {
    if is_pristine_scratch(path, user) {
        return Ok(());
    }
    if fs_err::symlink_metadata(path).is_ok() {
        remove_tree(path)?;
    }
    fs_err::create_dir(path).map_err(|source| SandboxError::path("create", path, source))?;
    set_mode(path, 0o700)?;
    give(path, user)
}

/// Empties the root of a scratch file system (which cannot be removed, it
/// is a mount point) and gives it back its mode and owner.
pub(super) fn clear_scratch_root(path: &Path, user: Option<u32>) -> Result<(), SandboxError> {
    if is_pristine_scratch(path, user) {
        return Ok(());
    }
    // The program may have taken the permissions away from its own root.
    set_mode(path, 0o700)?;
    let entries =
        fs_err::read_dir(path).map_err(|source| SandboxError::path("read", path, source))?;
    for entry in entries.filter_map(Result::ok) {
        let entry = entry.path();
        let is_dir = fs_err::symlink_metadata(&entry).is_ok_and(|metadata| metadata.is_dir());
        if is_dir {
            remove_tree(&entry)?;
        } else {
            fs_err::remove_file(&entry)
                .map_err(|source| SandboxError::path("remove", &entry, source))?;
        }
    }
    give(path, user)
}

/// Empty, a real directory, mode 0700 and owned by the sandbox user (a
/// program may have changed its mode).
pub(super) fn is_pristine_scratch(path: &Path, user: Option<u32>) -> bool {
    let Ok(metadata) = fs_err::symlink_metadata(path) else {
        return false;
    };
    let owner_ok = user.is_none_or(|id| metadata.uid() == id && metadata.gid() == id);
    metadata.is_dir() && metadata.mode() & 0o7777 == 0o700 && owner_ok && is_empty_dir(path)
}

fn is_empty_dir(path: &Path) -> bool {
    fs_err::read_dir(path).is_ok_and(|mut entries| entries.next().is_none())
}

/// Whether the file system holding `path` has no byte or no inode left for
/// an unprivileged writer: a scratch tmpfs that was filled.
pub(super) fn is_full(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c_path) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: a zeroed statvfs is a valid out-parameter.
    let mut stats: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: `c_path` is NUL-terminated and `stats` is valid for writes.
    if unsafe { libc::statvfs(c_path.as_ptr(), &mut stats) } != 0 {
        return false;
    }
    stats.f_bavail == 0 || stats.f_favail == 0
}

/// Removes a directory a program wrote to, even one it made unreadable.
pub(super) fn remove_tree(path: &Path) -> Result<(), SandboxError> {
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

/// Lends a compiler's working directory (and what is in it: the copied
/// source) to the sandbox user, so an unprivileged compiler can write its
/// output there.
pub(super) fn lend(dir: &Path, user: Option<u32>) -> Result<(), SandboxError> {
    let Some(id) = user else {
        return Ok(());
    };
    give(dir, Some(id))?;
    let entries =
        fs_err::read_dir(dir).map_err(|source| SandboxError::path("read", dir, source))?;
    for entry in entries.filter_map(Result::ok) {
        give(&entry.path(), Some(id))?;
    }
    Ok(())
}

/// Takes a lent directory back after the compile: everything in it becomes
/// the judge's and loses group and other write permission, so a run (the
/// same sandbox user) cannot change its own program between tests. Links
/// are never followed.
pub(super) fn reclaim(dir: &Path, user: Option<u32>) -> Result<(), SandboxError> {
    if user.is_none() {
        return Ok(());
    }
    // SAFETY: geteuid and getegid have no preconditions.
    let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
    for entry in walkdir::WalkDir::new(dir).follow_links(false) {
        let entry = entry.map_err(|error| {
            let path = error.path().unwrap_or(dir).to_path_buf();
            SandboxError::path("take back", path, error.into())
        })?;
        let path = entry.path();
        lchown(path, Some(uid), Some(gid))
            .map_err(|source| SandboxError::path("take back", path, source))?;
        if !entry.path_is_symlink() {
            let mode = entry
                .metadata()
                .map(|metadata| metadata.mode())
                .unwrap_or(0o755);
            set_mode(path, mode & 0o7755 & !0o6000)?;
        }
    }
    Ok(())
}
