//! Walking a folder at every depth, for the checks that keep the judge's
//! data out of a folder lent to a compile (and out of every run).
//!
//! Those checks must see all of a folder: a walk that stopped at depth 16
//! lent a toolchain folder holding a hard link to an answer at depth 18
//! (issue 35). The walk never follows a symbolic link, and a folder that
//! is one of its own ancestors (a bind mount of a folder inside itself) is
//! not entered again, so it ends on any tree.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// The entries under `root` (itself first), at every depth, in depth-first
/// order.
pub(super) fn every_depth(root: &Path) -> impl Iterator<Item = walkdir::Result<walkdir::DirEntry>> {
    // The identities of the folders on the path to the entry at hand, by
    // depth: walkdir yields a folder just before what it holds.
    let mut ancestors: Vec<(u64, u64)> = Vec::new();
    walkdir::WalkDir::new(root)
        .follow_links(false)
        .into_iter()
        .filter_entry(move |entry| {
            if !entry.file_type().is_dir() {
                return true;
            }
            let Ok(metadata) = entry.metadata() else {
                return true;
            };
            let id = (metadata.dev(), metadata.ino());
            ancestors.truncate(entry.depth());
            if ancestors.contains(&id) {
                return false;
            }
            ancestors.push(id);
            true
        })
}

/// Whether a walk's error leaves nothing unseen that a program could read:
/// an entry removed while walked, or one the judge may not read (and so,
/// being the same user or a less privileged one, neither may a compile).
/// Any other error (a path too long to open) hides what lies below it.
pub(super) fn harmless(error: &walkdir::Error) -> bool {
    error.io_error().is_some_and(|error| {
        matches!(
            error.kind(),
            std::io::ErrorKind::NotFound | std::io::ErrorKind::PermissionDenied
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn the_walk_reaches_a_file_deeper_than_any_fixed_depth() {
        let dir = tempfile::tempdir().unwrap();
        let mut deep = dir.path().to_path_buf();
        for level in 0..40 {
            deep.push(format!("d{level}"));
        }
        fs_err::create_dir_all(&deep).unwrap();
        fs_err::write(deep.join("answer"), "42").unwrap();
        let found: Vec<PathBuf> = every_depth(dir.path())
            .filter_map(Result::ok)
            .map(|entry| entry.path().to_path_buf())
            .collect();
        assert!(found.contains(&deep.join("answer")), "{found:?}");
    }

    #[test]
    #[ignore = "needs root: it bind-mounts a folder inside itself; .ci/run runs it as root: cargo test --locked --lib -- --ignored"]
    fn a_folder_mounted_inside_itself_is_walked_once() {
        let dir = tempfile::tempdir().unwrap();
        let inner = dir.path().join("a/inner");
        fs_err::create_dir_all(&inner).unwrap();
        fs_err::write(dir.path().join("a/file"), "x").unwrap();
        let mounted = std::process::Command::new("mount")
            .args(["--rbind"])
            .arg(dir.path().join("a"))
            .arg(&inner)
            .status()
            .unwrap();
        assert!(mounted.success());
        let files = every_depth(dir.path())
            .filter_map(Result::ok)
            .filter(|entry| entry.file_name() == "file")
            .count();
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(&inner)
            .status();
        // `a/inner` is `a` again: not entered, its file seen once.
        assert_eq!(files, 1);
    }
}
