//! Renderings of the runner's results: a human table, SPEC.md's JSON report,
//! JUnit XML, a CSV gradebook and a self-contained HTML page. Reporters only
//! format and return text (they print nothing); verdicts are decided by the
//! runner.
//! Files are written atomically (temporary file + rename), so an interrupted
//! run never leaves half a report.

pub mod csv;
pub mod html;
pub mod human;
pub mod json;
pub mod junit;

use crate::runner::SubmissionResult;
use json::GradedResult;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A report file (or any file the judge writes whole) could not be written.
#[derive(Debug, thiserror::Error)]
#[error("failed to write `{}`", path.display())]
pub struct ReportError {
    pub path: PathBuf,
    #[source]
    pub source: std::io::Error,
}

/// Writes `contents` to `path` through a temporary file in the same
/// directory, synced and renamed into place: the one way the judge writes a
/// whole file (reports, `judge gen --out`, `judge stress --out`), so a file
/// is never seen half-written, even after a crash.
///
/// The file gets the permissions of an ordinary new file (0666 less the
/// umask, typically 0644), not the 0600 of a temporary file: a report is
/// meant to be shared (issue #8).
pub fn write_atomically(path: &Path, contents: &[u8]) -> Result<(), ReportError> {
    use std::os::unix::fs::PermissionsExt as _;
    let error = |source| ReportError {
        path: path.to_owned(),
        source,
    };
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

/// What the CSV gradebook and the HTML page need of a result: the result
/// and who handed it in.
pub trait Row {
    /// The runner's result.
    fn result(&self) -> &SubmissionResult;
    /// The student (or example) the row is for.
    fn student(&self) -> String;
}

/// `judge grade` and `judge merge`: the student found by discovery under
/// the layout, never guessed again from the path.
impl Row for GradedResult {
    fn result(&self) -> &SubmissionResult {
        &self.result
    }

    fn student(&self) -> String {
        self.student.clone()
    }
}

/// `judge run`: no layout, so the student is read from the path
/// ([`crate::grade::student_from_path`]).
impl Row for SubmissionResult {
    fn result(&self) -> &SubmissionResult {
        self
    }

    fn student(&self) -> String {
        crate::grade::student_from_path(&self.submission, &self.problem)
    }
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
