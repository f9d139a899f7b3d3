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

/// The folders of the expected-verdict convention (Kattis problem package
/// format) that hold a problem's example submissions: a file in one of them
/// is named by its file stem, never by the folder.
const EXAMPLE_FOLDERS: [&str; 7] = [
    "accepted",
    "wrong_answer",
    "time_limit_exceeded",
    "run_time_error",
    "memory_limit_exceeded",
    "output_limit_exceeded",
    "compile_error",
];

/// Who a submission belongs to, for the gradebook and the class matrix.
///
/// Submissions are laid out `<problem>/<student>.<ext>` or
/// `<student>/<problem>.<ext>` (issue #4). The layout is not known here, so
/// it is read from the path: when the parent folder is the problem id (or an
/// expected-verdict folder such as `wrong_answer/`), the student is the file
/// stem; otherwise the student is the parent folder. A bare file name is its
/// own stem.
///
/// ```
/// use judge::report::student_name;
/// assert_eq!(student_name("submissions/rooks/alice.cpp", "rooks"), "alice");
/// assert_eq!(student_name("class/bob/rooks.py", "rooks"), "bob");
/// ```
pub fn student_name(submission: &str, problem: &str) -> String {
    let path = Path::new(submission);
    let stem = path
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_else(|| submission.to_owned());
    let parent = path
        .parent()
        .and_then(Path::file_name)
        .map(|name| name.to_string_lossy().into_owned());
    match parent {
        // Examples of one problem differ by language (`dfs_memo.cpp`,
        // `dfs_memo.py`): the whole file name keeps their rows apart.
        Some(parent) if EXAMPLE_FOLDERS.contains(&parent.as_str()) => path
            .file_name()
            .map_or(stem, |name| name.to_string_lossy().into_owned()),
        Some(parent) if parent != problem => parent,
        _ => stem,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn student_is_the_file_stem_in_problem_folders() {
        assert_eq!(
            student_name("submissions/rooks/alice.cpp", "rooks"),
            "alice"
        );
        assert_eq!(student_name("rooks/o'brien, jr.py", "rooks"), "o'brien, jr");
        assert_eq!(
            student_name("submissions/rooks/wrong_answer/ignores_walls.py", "rooks"),
            "ignores_walls.py"
        );
        assert_eq!(student_name("alice.cpp", "rooks"), "alice");
        assert_eq!(student_name("./alice.cpp", "rooks"), "alice");
    }

    #[test]
    fn student_is_the_parent_folder_in_student_folders() {
        assert_eq!(student_name("class/bob/rooks.py", "rooks"), "bob");
        assert_eq!(student_name("/home/carol/mayan.rs", "mayan"), "carol");
        // The file stem need not be the problem id.
        assert_eq!(student_name("class/dave/solution.cpp", "rooks"), "dave");
    }

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
