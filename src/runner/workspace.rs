//! The run's private directory in the temporary directory, and the sweep
//! that removes those of judges that died without removing theirs (killed
//! by SIGKILL: the OOM killer, a CI runner's hard timeout). A workspace is
//! locked while its judge lives ([`crate::lease`]), so the sweep never
//! touches a live judge's, whatever PID namespace that judge runs in.

use super::{set_mode, RunError};
use std::os::fd::OwnedFd;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

/// The prefix of a workspace's name in the temporary directory.
const PREFIX: &str = "judge-";

/// The file that marks a `judge-*` folder as a workspace, made once its
/// lock is held: only folders holding it are ever swept (a probe's or an
/// older judge's folder is not).
const MARK: &str = ".workspace";

/// The run's private directory: compiled submissions, generated inputs and
/// the workers' scratch directories. Removed when dropped.
#[derive(Debug)]
pub struct Workspace {
    root: tempfile::TempDir,
    /// The `flock` that tells other judges this workspace is alive.
    _lock: OwnedFd,
}

impl Workspace {
    /// A new directory under the system's temporary directory, private to
    /// the judge: mode 0700, or, as root, 0710 with the sandbox user's group,
    /// so that user alone may pass through to its own executable and scratch
    /// directory (never list anything); no other local user may enter. The
    /// first workspace of a process first removes those of dead judges.
    pub fn new() -> Result<Workspace, RunError> {
        static SWEPT: std::sync::Once = std::sync::Once::new();
        SWEPT.call_once(|| sweep_stale(&std::env::temp_dir()));
        let root = tempfile::Builder::new()
            .prefix(PREFIX)
            .tempdir()
            .map_err(|source| RunError::io("create", &std::env::temp_dir(), source))?;
        let lock = crate::lease::try_lock(root.path()).ok_or_else(|| {
            RunError::io(
                "lock",
                root.path(),
                std::io::Error::from(std::io::ErrorKind::WouldBlock),
            )
        })?;
        let mark = root.path().join(MARK);
        fs_err::File::create(&mark).map_err(|source| RunError::io("create", &mark, source))?;
        match crate::sandbox::Isolation::detect().user {
            Some(id) => {
                std::os::unix::fs::chown(root.path(), None, Some(id)).map_err(|source| {
                    RunError::io("give the sandbox group", root.path(), source)
                })?;
                set_mode(root.path(), 0o710)?;
            }
            None => set_mode(root.path(), 0o700)?,
        }
        let inputs = root.path().join("inputs");
        fs_err::create_dir(&inputs).map_err(|source| RunError::io("create", &inputs, source))?;
        set_mode(&inputs, 0o700)?;
        if crate::sandbox::Isolation::detect().user.is_some() {
            check_traversable(root.path())?;
        }
        Ok(Workspace { root, _lock: lock })
    }

    pub fn path(&self) -> &Path {
        self.root.path()
    }
}

impl Drop for Workspace {
    /// Removes the workspace even where a program made a folder in it
    /// unreadable (a `build` script's `chmod 000 d`): without root, the
    /// plain removal of the temporary directory would stop at it and
    /// leave the whole workspace (tests' inputs included) behind.
    fn drop(&mut self) {
        let _ = crate::sandbox::remove_tree(self.root.path());
    }
}

/// Removes the workspaces of dead judges in `temp`: `judge-*` folders of
/// this user that hold the mark and whose lock can be taken (held while
/// they are removed). Best effort: what cannot be removed stays.
fn sweep_stale(temp: &Path) {
    let Ok(entries) = fs_err::read_dir(temp) else {
        return;
    };
    let me = rustix::process::geteuid().as_raw();
    for entry in entries.filter_map(Result::ok) {
        if !entry.file_name().to_string_lossy().starts_with(PREFIX) {
            continue;
        }
        let path = entry.path();
        // Never another user's folder, never a link.
        let Ok(metadata) = fs_err::symlink_metadata(&path) else {
            continue;
        };
        if !metadata.is_dir() || metadata.uid() != me || !path.join(MARK).exists() {
            continue;
        }
        if let Some(_lock) = crate::lease::try_lock(&path) {
            let _ = fs_err::remove_dir_all(&path);
        }
    }
}

/// The sandbox user must pass through every ancestor of the workspace to
/// reach its executable: a temporary directory under `/root` would make
/// every program fail to start, so say so up front.
fn check_traversable(path: &Path) -> Result<(), RunError> {
    for ancestor in path.ancestors().skip(1) {
        let Ok(metadata) = fs_err::metadata(ancestor) else {
            continue;
        };
        if metadata.permissions().mode() & 0o001 == 0 {
            return Err(RunError::io(
                "use a temporary directory under",
                ancestor,
                std::io::Error::new(
                    std::io::ErrorKind::PermissionDenied,
                    "the sandbox user cannot pass through it; set TMPDIR to a directory \
                     like /tmp",
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sweep_removes_dead_workspaces_only() {
        let temp = tempfile::tempdir().unwrap();
        let dead = temp.path().join("judge-dead");
        fs_err::create_dir(&dead).unwrap();
        fs_err::write(dead.join(MARK), "").unwrap();
        fs_err::write(dead.join("submission"), "left").unwrap();
        let live = temp.path().join("judge-live");
        let _held = crate::lease::create_locked(&live).unwrap().unwrap();
        fs_err::write(live.join(MARK), "").unwrap();
        let unmarked = temp.path().join("judge-probe-x");
        fs_err::create_dir(&unmarked).unwrap();
        let other = temp.path().join("other");
        fs_err::create_dir(&other).unwrap();
        fs_err::write(other.join(MARK), "").unwrap();
        sweep_stale(temp.path());
        assert!(!dead.exists(), "a dead judge's workspace stayed");
        assert!(
            live.join(MARK).exists(),
            "a live judge's workspace was swept"
        );
        assert!(unmarked.exists() && other.exists());
    }
}
