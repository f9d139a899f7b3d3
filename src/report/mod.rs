//! Renderings of the runner's results: a human table, SPEC.md's JSON report
//! and JUnit XML. Reporters only format; verdicts are decided by the runner.
//! Files are written atomically (temporary file + rename), so an interrupted
//! run never leaves half a report.

pub mod human;
pub mod json;
pub mod junit;

use std::io::Write;
use std::path::{Path, PathBuf};

/// A report file could not be written.
#[derive(Debug, thiserror::Error)]
#[error("failed to write the report `{}`", path.display())]
pub struct ReportError {
    pub path: PathBuf,
    #[source]
    pub source: std::io::Error,
}

/// Writes `contents` to `path` through a temporary file in the same
/// directory, renamed into place.
pub fn write_atomically(path: &Path, contents: &[u8]) -> Result<(), ReportError> {
    let error = |source| ReportError {
        path: path.to_owned(),
        source,
    };
    let parent = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut file = tempfile::NamedTempFile::new_in(parent).map_err(error)?;
    file.write_all(contents).map_err(error)?;
    file.as_file().sync_all().map_err(error)?;
    file.persist(path).map_err(|persist| error(persist.error))?;
    Ok(())
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
}
