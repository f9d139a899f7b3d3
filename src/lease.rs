//! Names and liveness for what a judge leaves on a shared host: cgroups,
//! its workspace in the temporary directory, the staging folder of
//! `judge gen`. Many judges share a host (containers, `unshare --pid`,
//! parallel CI jobs) and a pid tells nothing across PID namespaces, so:
//!
//! - a name is random ([`random_token`]) and made with an exclusive
//!   `mkdir`, retried under a new name when taken;
//! - the judge holds an `flock` on the directory ([`create_locked`]) for as
//!   long as it lives. A directory whose lock can be taken ([`try_lock`])
//!   belongs to no live judge, whatever namespace it ran in: it is stale.
//!   The kernel drops the lock when the judge dies, SIGKILL included.
//!
//! A leaf of the layers: it imports nothing of the crate.

use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// Random hex digits (16) for a name no other judge can hold, in any PID
/// namespace (the `mkdir` that uses it is exclusive anyway).
pub(crate) fn random_token() -> String {
    let mut bytes = [0u8; 8];
    let filled = rustix::rand::getrandom(&mut bytes, rustix::rand::GetRandomFlags::empty());
    if !matches!(filled, Ok(count) if count == bytes.len()) {
        // Never seen on Linux 3.17+; the time and pid still differ between
        // the judges of one host almost surely, and mkdir stays exclusive.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_nanos() as u64);
        bytes = (nanos ^ u64::from(std::process::id()).rotate_left(40)).to_le_bytes();
    }
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// Whether `token` is what [`random_token`] makes (16 hex digits): only
/// such names are ever swept.
pub(crate) fn is_token(token: &str) -> bool {
    token.len() == 16 && token.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Makes `dir` exclusively (mode 0777 under the umask, as `mkdir` does) and
/// locks it. `Ok(None)` when the name is taken, or when a sweep removed the
/// directory before the lock was taken (the caller tries another name).
pub(crate) fn create_locked(dir: &Path) -> io::Result<Option<OwnedFd>> {
    match fs_err::create_dir(dir) {
        Ok(()) => {}
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => return Ok(None),
        Err(error) => return Err(error),
    }
    let Some(lock) = try_lock(dir) else {
        // Another judge's sweep holds it: it will remove it.
        return Ok(None);
    };
    // A sweep removes a directory only while holding its lock, so once we
    // hold it the directory is either still ours or gone.
    let same = match (fs_err::symlink_metadata(dir), fstat(&lock)) {
        (Ok(path), Some((dev, ino))) => path.dev() == dev && path.ino() == ino,
        _ => false,
    };
    Ok(same.then_some(lock))
}

/// An exclusive `flock` on a directory, or `None` when another open file
/// holds it (or the directory is gone, or is a symbolic link).
pub(crate) fn try_lock(dir: &Path) -> Option<OwnedFd> {
    use rustix::fs::{FlockOperation, Mode, OFlags};
    let fd = rustix::fs::open(
        dir,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .ok()?;
    rustix::fs::flock(&fd, FlockOperation::NonBlockingLockExclusive).ok()?;
    Some(fd)
}

/// Device and inode of an open file.
pub(crate) fn fstat(fd: &OwnedFd) -> Option<(u64, u64)> {
    let stat = rustix::fs::fstat(fd).ok()?;
    Some((stat.st_dev, stat.st_ino))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_differ_and_are_hex() {
        let first = random_token();
        assert_ne!(first, random_token());
        assert!(is_token(&first));
        assert!(!is_token("1-1"));
        assert!(!is_token("0123456789abcdeg"));
    }

    #[test]
    fn a_held_lock_cannot_be_taken_and_a_released_one_can() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("held");
        let held = create_locked(&path).unwrap().unwrap();
        assert!(try_lock(&path).is_none(), "a live directory looked stale");
        assert!(create_locked(&path).unwrap().is_none(), "a taken name");
        drop(held);
        assert!(try_lock(&path).is_some(), "a dead directory looked live");
    }

    #[test]
    fn a_symbolic_link_is_never_locked() {
        let dir = tempfile::tempdir().unwrap();
        fs_err::create_dir(dir.path().join("real")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("real"), dir.path().join("link")).unwrap();
        assert!(try_lock(&dir.path().join("link")).is_none());
    }
}
