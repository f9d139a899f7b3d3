//! The line endings of a Polygon package made for Windows (issue #29).
//!
//! Polygon hands a package out in two forms, one for Windows and one for
//! Linux, and they differ in their text files: in the Windows one every
//! LF became CRLF, the tests and their answers included. A testlib
//! validator reading such a test on Linux stops at the CR ("Expected
//! EOLN"), and a checker sees a stray character, so a judge on Linux reads
//! those files with their CRLF turned back into LF, as CMS's Polygon
//! loader does (it runs `dos2unix` on every test and answer) and as
//! Polygon2DOMjudge asks of its users.
//!
//! A test may also hold a CR on purpose (a problem about reading lines),
//! so the conversion needs a reason to believe the CRs are the Windows
//! form's, never the author's ([`WindowsMark`]), and then touches only a
//! file written with CRLF throughout ([`windows_text_as_lf`]). Everything
//! else is read byte for byte.
//!
//! Not responsible for reading the files or deciding which are tests
//! ([`super`] does); a test the generator makes here has LF already.

use std::io::Read as _;
use std::path::Path;

/// Polygon's own script, beside `problem.xml` in every package it hands
/// out; the Windows form writes it with CRLF like every text file.
const WINDOWS_SCRIPT: &str = "doall.bat";

/// How much of [`WINDOWS_SCRIPT`] is read to tell its line endings.
const SCRIPT_PREFIX_BYTES: u64 = 64 * 1024;

/// Why a package's CRLF line endings are taken for the Windows form's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WindowsMark {
    /// `problem.xml` says the tests are well-formed (`tests-wellformed`):
    /// each line ends with LF and no byte is below 32, so a CR cannot be
    /// the author's. Pro: Polygon itself checks the promise; con: says
    /// nothing of a package whose author left the box unticked.
    WellFormedTests,
    /// Polygon's `doall.bat` ends its lines with CRLF: the form for
    /// Windows (the form for Linux writes it with LF). Pro: holds for any
    /// package Polygon made; con: a package rewritten by hand may carry a
    /// script that no longer says how its tests were written.
    WindowsScript,
}

impl WindowsMark {
    /// The mark of the package in `dir`, whose `problem.xml` says
    /// `tests_wellformed`; `None` when nothing says its CRs are Polygon's
    /// (its tests are then read as they are).
    pub(crate) fn of(dir: &Path, tests_wellformed: bool) -> Option<WindowsMark> {
        if tests_wellformed {
            return Some(WindowsMark::WellFormedTests);
        }
        let mut prefix = Vec::new();
        // Beneath the package's folder, as its every file (issue #34): a
        // script that links out of the package marks nothing.
        let Ok(script) = crate::beneath::Beneath::new(dir)
            .and_then(|package| package.open_file(&dir.join(WINDOWS_SCRIPT)))
        else {
            return None;
        };
        match script.take(SCRIPT_PREFIX_BYTES).read_to_end(&mut prefix) {
            Ok(_) if written_with_crlf(&prefix) => Some(WindowsMark::WindowsScript),
            _ => None,
        }
    }

    /// Why the package counts as one for Windows, for the note.
    fn reason(self) -> String {
        match self {
            WindowsMark::WellFormedTests => {
                "`problem.xml` marks its tests well-formed (`tests-wellformed`), a promise of \
                 LF line endings"
                    .to_owned()
            }
            WindowsMark::WindowsScript => {
                format!("its `{WINDOWS_SCRIPT}` ends its lines with CRLF")
            }
        }
    }
}

/// Whether `bytes` is text written with CRLF throughout: at least one
/// CRLF, no LF without its CR, and no NUL (a file with NUL is not text,
/// as `dos2unix` judges).
fn written_with_crlf(bytes: &[u8]) -> bool {
    let mut crlf = false;
    for (index, &byte) in bytes.iter().enumerate() {
        match byte {
            0 => return false,
            b'\n' if index == 0 || bytes[index - 1] != b'\r' => return false,
            b'\n' => crlf = true,
            _ => {}
        }
    }
    crlf
}

/// `text` with its CRLF line endings as LF, when it is written with CRLF
/// throughout ([`written_with_crlf`]); `None` when it is not, and is read
/// as it is. A CR that ends no line stays.
pub(crate) fn windows_text_as_lf(text: &str) -> Option<String> {
    written_with_crlf(text.as_bytes()).then(|| text.replace("\r\n", "\n"))
}

/// The test files of one package read with the Windows form's line
/// endings undone, and how many were.
#[derive(Debug)]
pub(crate) struct TestText {
    mark: Option<WindowsMark>,
    converted: usize,
}

impl TestText {
    pub(crate) fn new(mark: Option<WindowsMark>) -> TestText {
        TestText { mark, converted: 0 }
    }

    /// `text`, a test's input or answer as the package holds it: with LF
    /// line endings when the package is marked for Windows and the file
    /// is written with CRLF throughout, else unchanged. The flag says
    /// whether it was changed.
    pub(crate) fn read(&mut self, text: String) -> (String, bool) {
        if self.mark.is_none() {
            return (text, false);
        }
        match windows_text_as_lf(&text) {
            Some(unix) => {
                self.converted += 1;
                (unix, true)
            }
            None => (text, false),
        }
    }

    /// The one line that says what was done to the package in `dir`,
    /// when anything was.
    pub(crate) fn note(&self, dir: &Path) -> Option<String> {
        let mark = self.mark?;
        if self.converted == 0 {
            return None;
        }
        let files = if self.converted == 1 {
            "test file (input or answer) written with CRLF line endings is"
        } else {
            "test files (inputs and answers) written with CRLF line endings are"
        };
        Some(format!(
            "`{}` is a Polygon package for Windows ({}): {} {files} read with each CRLF turned \
             into LF; the files themselves are left as they are",
            dir.display(),
            mark.reason(),
            self.converted
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    #[test_case("1 2\r\n3\r\n", Some("1 2\n3\n") ; "crlf throughout")]
    #[test_case("1 2\r\n3", Some("1 2\n3") ; "last line unended")]
    #[test_case("a\rb\r\n", Some("a\rb\n") ; "a cr inside a line stays")]
    #[test_case("1 2\n3\n", None ; "lf throughout")]
    #[test_case("1 2\r\n3\n", None ; "mixed endings")]
    #[test_case("\n", None ; "a bare lf first")]
    #[test_case("a\rb\r", None ; "old mac endings")]
    #[test_case("1\r\n\0\r\n", None ; "nul makes it binary")]
    #[test_case("42", None ; "no line at all")]
    fn only_text_written_with_crlf_throughout_is_converted(text: &str, wanted: Option<&str>) {
        assert_eq!(windows_text_as_lf(text).as_deref(), wanted);
    }

    fn package_with_script(script: Option<&[u8]>) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        if let Some(script) = script {
            fs_err::write(dir.path().join(WINDOWS_SCRIPT), script).unwrap();
        }
        dir
    }

    #[test_case(true, Some(b"@echo off\r\nrem\r\n"), Some(WindowsMark::WellFormedTests) ; "well-formed first")]
    #[test_case(true, None, Some(WindowsMark::WellFormedTests) ; "well-formed without a script")]
    #[test_case(false, Some(b"@echo off\r\nrem\r\n"), Some(WindowsMark::WindowsScript) ; "a windows script")]
    #[test_case(false, Some(b"@echo off\nrem\n"), None ; "a linux script")]
    #[test_case(false, None, None ; "no script, not well-formed")]
    fn the_windows_form_is_told_by_its_marks(
        wellformed: bool,
        script: Option<&[u8]>,
        wanted: Option<WindowsMark>,
    ) {
        let dir = package_with_script(script);
        assert_eq!(WindowsMark::of(dir.path(), wellformed), wanted);
    }

    #[test]
    fn an_unmarked_package_keeps_its_crs_and_says_nothing() {
        let mut text = TestText::new(None);
        assert_eq!(text.read("1\r\n".to_owned()), ("1\r\n".to_owned(), false));
        assert_eq!(text.note(Path::new("pkg")), None);
    }

    #[test]
    fn a_marked_package_counts_what_it_converted_in_one_note() {
        let mut text = TestText::new(Some(WindowsMark::WindowsScript));
        assert_eq!(text.read("1\r\n".to_owned()), ("1\n".to_owned(), true));
        assert_eq!(text.read("2\n".to_owned()), ("2\n".to_owned(), false));
        assert_eq!(text.read("3\r\n".to_owned()), ("3\n".to_owned(), true));
        assert_eq!(
            text.note(Path::new("pkg")).unwrap(),
            "`pkg` is a Polygon package for Windows (its `doall.bat` ends its lines with \
             CRLF): 2 test files (inputs and answers) written with CRLF line endings are read \
             with each CRLF turned into LF; the files themselves are left as they are"
        );
        let untouched = TestText::new(Some(WindowsMark::WellFormedTests));
        assert_eq!(untouched.note(Path::new("pkg")), None);
    }
}
