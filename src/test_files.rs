//! A folder of tests, `NAME.in` with `NAME.ans` beside: listed here and
//! nowhere else, so every command agrees on which files are tests and in
//! what order. Reading a test's text, and what a file that cannot be read
//! means (a configuration error, or JE on that one test), stays with the
//! caller.

use std::io;
use std::path::{Path, PathBuf};

/// One `NAME.in` of a folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TestFile {
    /// `NAME`.
    pub(crate) name: String,
    /// `DIR/NAME.in`.
    pub(crate) input: PathBuf,
}

impl TestFile {
    /// `DIR/NAME.ans`, whether or not it exists.
    pub(crate) fn answer(&self) -> PathBuf {
        self.input.with_extension("ans")
    }
}

/// The `NAME.in` files directly in `dir`, by name. A name that is not
/// UTF-8 is an error naming the file (the strictest of the rules the
/// commands had: a test is named in reports, and a lossy name could make
/// two tests one), as is an entry of the folder that cannot be read.
pub(crate) fn list(dir: &Path) -> io::Result<Vec<TestFile>> {
    let mut tests = Vec::new();
    for entry in fs_err::read_dir(dir)? {
        let input = entry?.path();
        if input.extension().is_none_or(|extension| extension != "in") {
            continue;
        }
        let Some(name) = input.file_stem().and_then(|stem| stem.to_str()) else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "the name of the test `{}` is not UTF-8; rename the file",
                    input.display()
                ),
            ));
        };
        tests.push(TestFile {
            name: name.to_owned(),
            input,
        });
    }
    tests.sort_by(|a, b| a.input.cmp(&b.input));
    Ok(tests)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_the_inputs_by_name_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["b.in", "a.in", "a.ans", "notes.txt", "c.in.bak"] {
            fs_err::write(dir.path().join(name), "").unwrap();
        }
        fs_err::create_dir(dir.path().join("sub")).unwrap();
        let tests = list(dir.path()).unwrap();
        let names: Vec<&str> = tests.iter().map(|test| test.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(tests[0].answer(), dir.path().join("a.ans"));
    }

    #[test]
    fn a_name_that_is_not_utf8_is_an_error_naming_the_file() {
        use std::os::unix::ffi::OsStrExt as _;
        let dir = tempfile::tempdir().unwrap();
        let name = std::ffi::OsStr::from_bytes(b"caf\xe9.in");
        fs_err::write(dir.path().join(name), "").unwrap();
        let error = list(dir.path()).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        let message = error.to_string();
        assert!(
            message.contains("caf") && message.contains("is not UTF-8"),
            "{message}"
        );
    }

    #[test]
    fn a_missing_folder_is_not_found() {
        let dir = tempfile::tempdir().unwrap();
        let error = list(&dir.path().join("absent")).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::NotFound);
    }
}
