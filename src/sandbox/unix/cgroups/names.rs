//! The judge's own cgroups by name: made and locked (as
//! [`crate::lease`] does), found again by their `judge-` names, and
//! removed, a stale tree with whatever still runs in it.

use super::{members, PREFIX};
use crate::lease::try_lock;
use crate::sandbox::unix::reap::{kill, ProcessTarget};
use crate::sandbox::SandboxError;
use std::io;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Makes `dir` exclusively and locks it (as [`crate::lease`] does).
/// `Ok(None)` when the name is taken, or was lost to another judge's sweep
/// before it was locked.
pub(super) fn create_locked(dir: &Path) -> Result<Option<OwnedFd>, SandboxError> {
    match fs_err::create_dir(dir) {
        Ok(()) => Ok(lock_made(dir)),
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => Ok(None),
        Err(source) => Err(SandboxError::path("create cgroup", dir, source)),
    }
}

/// Locks the cgroup just made at `dir`. When a sweep holds the lock, the
/// directory is removed here: a sweep that finds the container's pids
/// counterpart locked by this judge leaves it, and nobody else would.
pub(super) fn lock_made(dir: &Path) -> Option<OwnedFd> {
    use std::os::unix::fs::MetadataExt;
    let Some(lock) = try_lock(dir) else {
        remove_cgroup(dir);
        return None;
    };
    // A sweep removes a directory only while holding its lock, so once it
    // is held here the directory is either still this one or gone.
    let same = match (fs_err::symlink_metadata(dir), crate::lease::fstat(&lock)) {
        (Ok(path), Some((dev, ino))) => path.dev() == dev && path.ino() == ino,
        _ => false,
    };
    same.then_some(lock)
}

/// The `judge-*` directories directly under `parent`.
pub(super) fn judge_entries(parent: &Path) -> Vec<PathBuf> {
    let Ok(entries) = fs_err::read_dir(parent) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter(|entry| is_container_name(&entry.file_name().to_string_lossy()))
        .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
        .map(|entry| entry.path())
        .collect()
}

/// `judge-` and the 16 hex digits of [`random_token`]: only such names are
/// ever swept (a cgroup named otherwise, an older judge's say, is left).
pub(super) fn is_container_name(name: &str) -> bool {
    name.strip_prefix(PREFIX)
        .is_some_and(crate::lease::is_token)
}

/// Removes a stale cgroup and everything below it, killing every process
/// still inside first (bounded: a cgroup that will not empty is left).
pub(super) fn remove_cgroup_tree(dir: &Path) {
    if let Ok(entries) = fs_err::read_dir(dir) {
        for entry in entries.filter_map(Result::ok) {
            if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                remove_cgroup_tree(&entry.path());
            }
        }
    }
    let _ = fs_err::write(dir.join("cgroup.kill"), "1");
    for _ in 0..100 {
        let pids = members(dir);
        if pids.is_empty() {
            break;
        }
        for pid in pids {
            kill(ProcessTarget::Process(pid));
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    remove_cgroup(dir);
}

/// How long `rmdir` of an emptied cgroup is retried while the kernel still
/// counts it populated (EBUSY: its last members have died but are not yet
/// gone from it).
const REMOVE_GRACE: Duration = Duration::from_millis(500);

/// Removes an empty cgroup directory, retrying on EBUSY for at most
/// [`REMOVE_GRACE`]; a cgroup that stays busy, or any other failure, is
/// left (for the next judge's sweep).
pub(super) fn remove_cgroup(dir: &Path) {
    let deadline = Instant::now() + REMOVE_GRACE;
    let mut pause = Duration::from_micros(50);
    loop {
        match fs_err::remove_dir(dir) {
            Err(error)
                if error.kind() == io::ErrorKind::ResourceBusy && Instant::now() < deadline =>
            {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(10));
            }
            _ => return,
        }
    }
}
