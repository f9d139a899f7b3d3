//! The one way the judge writes a whole file: a temporary file in the same
//! folder, synced and renamed into place, so a file is never seen
//! half-written. A leaf, so every layer that writes a file whole (reports,
//! `judge gen --out`, `judge stress --out`, a package's cached generated
//! tests) uses it without naming `report`. Not here: the HTML report's set
//! of pages, written as a folder (`report::write_page_set`).

use std::io::Write;
use std::path::{Path, PathBuf};

/// A file the judge writes whole (a report, a generated test, a cached
/// input) could not be written.
#[derive(Debug, thiserror::Error)]
#[error("failed to write `{}`", path.display())]
pub(crate) struct WriteError {
    pub(crate) path: PathBuf,
    #[source]
    pub(crate) source: std::io::Error,
}

/// Writes `contents` to `path` through a temporary file in the same
/// directory, synced and renamed into place: the one way the judge writes a
/// whole file (reports, `judge gen --out`, `judge stress --out`), so a file
/// is never seen half-written, even after a crash.
///
/// The file gets the permissions of an ordinary new file (0666 less the
/// umask, typically 0644), not the 0600 of a temporary file: a report is
/// meant to be shared (issue #8).
///
/// A path that exists and is neither a regular file nor a folder (a
/// character device such as `/dev/null`, a FIFO, a socket) is written
/// straight into, never replaced; a symbolic link is followed to its final
/// target, which is written (atomically when it is a regular file or does not
/// exist yet), so the link stays a link. A folder is an error.
pub(crate) fn write_atomically(path: &Path, contents: &[u8]) -> Result<(), WriteError> {
    use std::os::unix::fs::PermissionsExt as _;
    let error = |source| WriteError {
        path: path.to_owned(),
        source,
    };
    let target = final_link_target(path).map_err(error)?;
    let path = target.as_path();
    if is_special_file(path) {
        // Opened without creating or truncating: a device or a FIFO is
        // written into as a shell's `>` would.
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(error)?;
        return file.write_all(contents).map_err(error);
    }
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut file = tempfile::Builder::new()
        .prefix(".judge-")
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(parent)
        .map_err(error)?;
    file.write_all(contents).map_err(error)?;
    file.as_file().sync_all().map_err(error)?;
    file.persist(path).map_err(|persist| error(persist.error))?;
    Ok(())
}

/// Whether `path` exists (following links) and is neither a regular file
/// nor a folder: a character or block device, a FIFO, a socket. Such a path
/// is written into, never replaced ([`write_atomically`]).
pub(crate) fn is_special_file(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|meta| !meta.is_file() && !meta.is_dir())
}

/// `path` with every symbolic link of its last component followed (a link
/// to a link to a file gives the file; a dangling link gives the path it
/// points at), so a report written there leaves the links links. Any other
/// path is itself.
pub(crate) fn final_target(path: &Path) -> Result<PathBuf, WriteError> {
    final_link_target(path).map_err(|source| WriteError {
        path: path.to_owned(),
        source,
    })
}

fn final_link_target(path: &Path) -> std::io::Result<PathBuf> {
    let mut current = path.to_owned();
    // As the kernel does, give up after 40 links (a loop of links).
    for _ in 0..40 {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = std::fs::read_link(&current)?;
                current = match current.parent() {
                    Some(parent) if link.is_relative() => parent.join(link),
                    _ => link,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_atomically_and_replaces() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.json");
        write_atomically(&path, b"one").unwrap();
        write_atomically(&path, b"two").unwrap();
        assert_eq!(fs_err::read(&path).unwrap(), b"two");
        assert_eq!(fs_err::read_dir(dir.path()).unwrap().count(), 1);
        let missing = dir.path().join("no/such/dir/report.json");
        assert!(write_atomically(&missing, b"x").is_err());
    }

    /// See: issue #8. Reports are ordinary files: 0666 less the umask, not
    /// a temporary file's 0600.
    #[test]
    fn r8_written_files_get_ordinary_permissions() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.csv");
        write_atomically(&path, b"x").unwrap();
        let mode = fs_err::metadata(&path).unwrap().permissions().mode() & 0o777;
        // The same as a file created the ordinary way under this umask
        // (0644 under the usual 022; a 0600 file fails unless umask is 066).
        let probe = dir.path().join("probe");
        fs_err::write(&probe, b"").unwrap();
        let ordinary = fs_err::metadata(&probe).unwrap().permissions().mode() & 0o777;
        assert_eq!(
            mode, ordinary,
            "report {mode:o}, ordinary file {ordinary:o}"
        );
    }
}
