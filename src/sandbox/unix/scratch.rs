//! The directories a program may write: a run's scratch directory (a plain
//! directory without a worker namespace; with one, a tmpfs its holder
//! mounts anew for every run) and a compiler's
//! working directory, lent to the sandbox user for the compile and taken
//! back after it.

use crate::sandbox::SandboxError;
use crate::sandbox::{Limits, RunSpec, Trust};
use std::os::unix::fs::{lchown, MetadataExt, PermissionsExt};
use std::path::Path;
use std::time::{Duration, Instant};

pub(super) fn set_mode(path: &Path, mode: u32) -> Result<(), SandboxError> {
    fs_err::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .map_err(|source| SandboxError::path("set permissions of", path, source))
}

fn give(path: &Path, user: Option<u32>) -> Result<(), SandboxError> {
    if let Some(id) = user {
        lchown(path, Some(id), Some(super::NOBODY))
            .map_err(|source| SandboxError::path("give the sandbox user", path, source))?;
    }
    Ok(())
}

/// A new, empty scratch directory owned by the sandbox user (never one an
/// earlier run used: that one would keep its extended attributes and times).
pub(super) fn make_scratch(path: &Path, user: Option<u32>) -> Result<(), SandboxError> {
    if fs_err::symlink_metadata(path).is_ok() {
        remove_tree(path)?;
    }
    fs_err::create_dir(path).map_err(|source| SandboxError::path("create", path, source))?;
    set_mode(path, 0o700)?;
    give(path, user)
}

/// Removes a directory a program wrote to, even one it made unreadable.
pub(crate) fn remove_tree(path: &Path) -> Result<(), SandboxError> {
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

/// The stderr a compile or a `build` script may write before it is ended
/// as a flood (only the first `stderr_bytes` are kept): far above any
/// compiler's errors and warnings, which must not turn into a CE.
const TOOL_STDERR_CEILING_BYTES: u64 = 16 << 20;

/// How often a compile's working directory is measured
/// ([`workdir_quota`]): at a disk's 600 MB/s, a filler overshoots its
/// quota by some 30 MB before it is stopped.
pub(super) const WORKDIR_LOOK_INTERVAL: Duration = Duration::from_millis(50);

/// The working directory of a compile or a `build` script (a
/// [`Trust::Tool`] run with a `workdir`), measured as it runs: all its
/// files together may hold at most what one may (its file size limit;
/// issue #34). A submission's scratch is bounded by its tmpfs (or per
/// file) instead.
pub(super) struct WorkdirWatch<'a> {
    dir: &'a Path,
    quota_kib: u64,
    looked: Instant,
}

impl<'a> WorkdirWatch<'a> {
    /// The watch of `spec`'s working directory, when it is a tool's.
    pub(super) fn new(spec: &'a RunSpec, limits: &Limits, started: Instant) -> Option<Self> {
        match (spec.trust, &spec.workdir) {
            (Trust::Tool, Some(dir)) => Some(WorkdirWatch {
                dir,
                quota_kib: limits.file_size_kib,
                looked: started,
            }),
            _ => None,
        }
    }

    /// Whether the directory is past its quota, measured at most every
    /// [`WORKDIR_LOOK_INTERVAL`].
    pub(super) fn full(&mut self, now: Instant) -> bool {
        if now < self.looked + WORKDIR_LOOK_INTERVAL {
            return false;
        }
        self.looked = now;
        over_quota(
            self.dir,
            self.quota_kib,
            crate::sandbox::scratch_files(self.quota_kib),
        )
    }

    /// Where the tool's stderr ends it as a flood.
    pub(super) fn stderr_ceiling(&self, limits: &Limits) -> u64 {
        limits.stderr_bytes.max(TOOL_STDERR_CEILING_BYTES)
    }
}

/// Whether what is in `dir` (a compile's or a `build` script's working
/// directory, on the host's disk) takes more than `quota_kib` of disk or
/// more than `max_files` entries (issue #34: a `build` wrote 8 GB in 14 s
/// there, where `RLIMIT_FSIZE` bounds each file only). Blocks are counted,
/// so a sparse file costs what it holds. A folder the judge cannot read
/// (a program made it `chmod 000`; the judge is its owner) is given back
/// its permissions to be counted at the next look.
fn over_quota(dir: &Path, quota_kib: u64, max_files: u64) -> bool {
    let (mut kib, mut files) = (0u64, 0u64);
    for entry in walkdir::WalkDir::new(dir).follow_links(false) {
        let metadata = match entry.as_ref().map(walkdir::DirEntry::metadata) {
            Ok(Ok(metadata)) => metadata,
            Ok(Err(_)) => continue,
            Err(error) => {
                if let Some(path) = error.path() {
                    let _ = set_mode(path, 0o700);
                }
                continue;
            }
        };
        kib = kib.saturating_add(metadata.blocks() / 2);
        files += 1;
        if kib > quota_kib || files > max_files {
            return true;
        }
    }
    false
}

/// Lends a tool's working directory and everything in it (the copied
/// source; a validator's `feedback/` with the files an earlier pass left
/// there) to the sandbox user, so an unprivileged tool can write its
/// output there and change what it wrote before: [`reclaim`] took it back
/// after the last run, and a multi-pass validator rewrites its own state
/// files in `feedback/` on the next pass (BAPCtools' `validate.h` keeps
/// `feedback/.pass`; issue #34). Links are never followed.
pub(super) fn lend(dir: &Path, user: Option<u32>) -> Result<(), SandboxError> {
    let Some(id) = user else {
        return Ok(());
    };
    for entry in walkdir::WalkDir::new(dir).follow_links(false) {
        let entry = entry.map_err(|error| {
            let path = error.path().unwrap_or(dir).to_path_buf();
            SandboxError::path("read", path, error.into())
        })?;
        give(entry.path(), Some(id))?;
    }
    Ok(())
}

/// Takes a lent directory back after the compile: everything in it becomes
/// the judge's and loses group and other write permission, so a run (the
/// same sandbox user) cannot change its own program between tests. Links
/// are never followed.
///
/// Only what the compile made (the sandbox user's) or the judge put there
/// (its own) is taken: anything else is a hard link the compile made to
/// another user's file (possible where `fs.protected_hardlinks` is 0), and
/// taking it would hand that file to the judge's user and strip its
/// permissions. Such a folder is an error, and nothing in it is changed.
pub(super) fn reclaim(dir: &Path, user: Option<u32>) -> Result<(), SandboxError> {
    let Some(sandbox_user) = user else {
        return Ok(());
    };
    let uid = rustix::process::geteuid().as_raw();
    let gid = rustix::process::getegid().as_raw();
    let mut entries = Vec::new();
    for entry in walkdir::WalkDir::new(dir).follow_links(false) {
        let entry = entry.map_err(|error| {
            let path = error.path().unwrap_or(dir).to_path_buf();
            SandboxError::path("take back", path, error.into())
        })?;
        let metadata = entry
            .metadata()
            .map_err(|error| SandboxError::path("take back", entry.path(), error.into()))?;
        if metadata.uid() != uid && metadata.uid() != sandbox_user {
            return Err(SandboxError::path(
                "take back",
                entry.path(),
                std::io::Error::new(
                    std::io::ErrorKind::PermissionDenied,
                    format!(
                        "owned by user {}, neither the judge's nor the sandbox user's: \
                         a hard link the compile made to another user's file",
                        metadata.uid()
                    ),
                ),
            ));
        }
        entries.push((entry, metadata.mode()));
    }
    for (entry, mode) in entries {
        let path = entry.path();
        lchown(path, Some(uid), Some(gid))
            .map_err(|source| SandboxError::path("take back", path, source))?;
        if !entry.path_is_symlink() {
            set_mode(path, mode & 0o7755 & !0o6000)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A compile that hard-links another user's file into its folder
    /// (`fs.protected_hardlinks` = 0) does not get it handed to the
    /// judge's user: the folder is refused and the file is untouched.
    #[test]
    #[ignore = "needs root (it gives files to other users); .ci/run runs it as root: cargo test --locked --lib -- --ignored"]
    fn a_file_of_another_user_in_a_lent_folder_is_refused_and_left_alone() {
        let outside = tempfile::tempdir().unwrap();
        let victim = outside.path().join("victim");
        fs_err::write(&victim, "a teacher's file").unwrap();
        lchown(&victim, Some(4242), Some(4242)).unwrap();
        set_mode(&victim, 0o664).unwrap();
        let lent = tempfile::tempdir().unwrap();
        fs_err::write(lent.path().join("a.out"), "program").unwrap();
        lchown(lent.path().join("a.out"), Some(NOBODY_FOR_TEST), None).unwrap();
        fs_err::hard_link(&victim, lent.path().join("linked")).unwrap();
        let error = reclaim(lent.path(), Some(NOBODY_FOR_TEST)).unwrap_err();
        let said = format!(
            "{error}: {}",
            std::error::Error::source(&error).map_or(String::new(), ToString::to_string)
        );
        assert!(
            said.contains("linked") && said.contains("user 4242"),
            "{said}"
        );
        let metadata = fs_err::metadata(&victim).unwrap();
        assert_eq!((metadata.uid(), metadata.mode() & 0o777), (4242, 0o664));
        // What the compile made and the judge put there is taken back.
        fs_err::remove_file(lent.path().join("linked")).unwrap();
        reclaim(lent.path(), Some(NOBODY_FOR_TEST)).unwrap();
        let program = fs_err::metadata(lent.path().join("a.out")).unwrap();
        assert_eq!(program.uid(), rustix::process::geteuid().as_raw());
    }

    const NOBODY_FOR_TEST: u32 = 4343;

    /// See: issue #34. A working directory is over its quota by the disk
    /// its files hold (not their apparent size) or by their number.
    #[test]
    fn a_working_directory_is_over_quota_by_blocks_or_by_files() {
        let dir = tempfile::tempdir().unwrap();
        fs_err::write(dir.path().join("small"), vec![1u8; 64 * 1024]).unwrap();
        assert!(!over_quota(dir.path(), 1024, 100));
        assert!(
            over_quota(dir.path(), 32, 100),
            "64 KiB held, 32 KiB allowed"
        );
        // A sparse file of 1 GiB holds nothing.
        let sparse = fs_err::File::create(dir.path().join("sparse")).unwrap();
        sparse.set_len(1 << 30).unwrap();
        assert!(!over_quota(dir.path(), 1024, 100));
        for index in 0..10 {
            fs_err::write(dir.path().join(format!("empty{index}")), "").unwrap();
        }
        assert!(over_quota(dir.path(), 1024, 8), "13 entries, 8 allowed");
    }
}
