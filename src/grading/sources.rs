//! The sources the HTML report's submission pages show (issue #32): each
//! graded file read again when the report is written, and shown only when
//! its bytes still have the SHA-256 the report recorded when it was graded.
//! A report rendered later (`judge report`, `judge merge`) therefore shows
//! the graded file or says why it cannot: it changed, it is gone, it was
//! never one readable file. The JSON report carries no source (a class of
//! them would make it huge), only the digest.
//!
//! In the student view, the examples of layout `expected` (a package's own
//! submissions, the setter's solutions among them) are never shown: only a
//! student's own hand-in is.

use super::grade::GradedResult;
use crate::config::judge::Layout;
use crate::report::source::{SourceView, SHOWN_BYTES};
use crate::runner::{read_submission, LinkScope};
use std::collections::BTreeMap;
use std::path::Path;

/// The source of each result of `results` by its submission path, read in
/// `scope` (a package's, for its own submissions), for the pages of a
/// report of `layout` (none for several files handed in for one problem:
/// none was graded).
pub(crate) fn read(
    results: &[GradedResult],
    layout: Layout,
    student_view: bool,
    scope: &LinkScope,
) -> BTreeMap<String, SourceView> {
    if student_view && layout == Layout::Expected {
        return BTreeMap::new();
    }
    results
        .iter()
        .filter(|graded| graded.handed_in.is_empty())
        .map(|graded| {
            let path = &graded.result.submission;
            let view = view(Path::new(path), graded.submission_sha256.as_deref(), scope);
            (path.clone(), view)
        })
        .collect()
}

/// What the page shows of the file at `path`, read in `scope`, graded with
/// the digest `sha256` (none when it was not read as one file then).
fn view(path: &Path, sha256: Option<&str>, scope: &LinkScope) -> SourceView {
    let Some(sha256) = sha256 else {
        return SourceView::NotShown("it was not read as one file when it was graded".to_owned());
    };
    if let Err(error) = fs_err::symlink_metadata(path) {
        return if error.kind() == std::io::ErrorKind::NotFound {
            SourceView::Gone
        } else {
            SourceView::NotShown(format!(
                "cannot read it: {}",
                crate::config::io_reason(&error)
            ))
        };
    }
    // The reader grading used: the same refusal of a link out of where
    // its scope lets it lead, of a FIFO or a device, of a file past the
    // judge's size limit.
    let bytes = match read_submission(path, scope) {
        Ok(bytes) => bytes,
        Err(refused) => return SourceView::NotShown(refused.with_hint()),
    };
    if super::resume::sha256_hex(&bytes) != sha256 {
        return SourceView::Changed;
    }
    shown(bytes)
}

/// The text of `bytes`, at most [`SHOWN_BYTES`] of it, or that it is
/// binary.
fn shown(bytes: Vec<u8>) -> SourceView {
    let total_bytes = bytes.len() as u64;
    if bytes.contains(&0) {
        return SourceView::Binary { bytes: total_bytes };
    }
    let Ok(mut text) = String::from_utf8(bytes) else {
        return SourceView::Binary { bytes: total_bytes };
    };
    if text.len() > SHOWN_BYTES {
        let mut end = SHOWN_BYTES;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        // The last whole line, unless a line fills the whole cut.
        if let Some(newline) = text.get(..end).and_then(|kept| kept.rfind('\n')) {
            end = newline + 1;
        }
        text.truncate(end);
    }
    SourceView::Text { text, total_bytes }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::SubmissionResult;

    /// [`read`] of hand-ins' files.
    fn read_hand_ins(
        results: &[GradedResult],
        layout: Layout,
        student_view: bool,
    ) -> BTreeMap<String, SourceView> {
        read(results, layout, student_view, &LinkScope::HandIn)
    }

    fn graded(path: &Path, sha256: Option<String>) -> GradedResult {
        let mut graded = GradedResult::fixture(
            SubmissionResult::fixture("rooks", &path.display().to_string(), Vec::new()),
            "bob",
        );
        graded.submission_sha256 = sha256;
        graded
    }

    fn digest(bytes: &[u8]) -> Option<String> {
        Some(super::super::resume::sha256_hex(bytes))
    }

    #[test]
    fn shows_the_graded_file_and_says_when_it_changed_or_went() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bob.py");
        fs_err::write(&path, "print(1)\n").unwrap();
        let result = graded(&path, digest(b"print(1)\n"));
        let key = path.display().to_string();
        let views = read_hand_ins(std::slice::from_ref(&result), Layout::ProblemStudent, false);
        assert_eq!(
            views.get(&key),
            Some(&SourceView::Text {
                text: "print(1)\n".to_owned(),
                total_bytes: 9
            })
        );
        fs_err::write(&path, "print(2)\n").unwrap();
        let views = read_hand_ins(std::slice::from_ref(&result), Layout::ProblemStudent, false);
        assert_eq!(views.get(&key), Some(&SourceView::Changed));
        fs_err::remove_file(&path).unwrap();
        let views = read_hand_ins(std::slice::from_ref(&result), Layout::ProblemStudent, false);
        assert_eq!(views.get(&key), Some(&SourceView::Gone));
    }

    #[test]
    fn a_file_with_no_digest_or_several_files_is_not_shown() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bob.py");
        fs_err::write(&path, "print(1)\n").unwrap();
        let views = read_hand_ins(&[graded(&path, None)], Layout::ProblemStudent, false);
        assert!(matches!(
            views.get(&path.display().to_string()),
            Some(SourceView::NotShown(_))
        ));
        let mut several = graded(&path, digest(b"print(1)\n"));
        several.handed_in = vec!["bob.py".to_owned(), "bob.cpp".to_owned()];
        assert!(read_hand_ins(&[several], Layout::ProblemStudent, false).is_empty());
    }

    #[test]
    fn a_package_example_is_never_shown_to_students() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("accepted.py");
        fs_err::write(&path, "print(1)\n").unwrap();
        let results = [graded(&path, digest(b"print(1)\n"))];
        assert!(read_hand_ins(&results, Layout::Expected, true).is_empty());
        assert_eq!(read_hand_ins(&results, Layout::Expected, false).len(), 1);
        assert_eq!(
            read_hand_ins(&results, Layout::StudentProblem, true).len(),
            1
        );
    }

    #[test]
    fn binary_is_named_by_its_size() {
        assert_eq!(
            shown(b"\x7fELF\0\0".to_vec()),
            SourceView::Binary { bytes: 6 }
        );
        assert_eq!(shown(vec![0xff, 0xfe]), SourceView::Binary { bytes: 2 });
    }

    #[test]
    fn a_long_source_is_cut_at_a_line_end_within_the_cap() {
        let line = "x".repeat(99) + "\n";
        let text = line.repeat(SHOWN_BYTES / 100 + 10);
        let view = shown(text.clone().into_bytes());
        let SourceView::Text {
            text: kept,
            total_bytes,
        } = &view
        else {
            panic!("{view:?}");
        };
        assert_eq!(*total_bytes, text.len() as u64);
        assert!(
            kept.len() <= SHOWN_BYTES && kept.ends_with('\n'),
            "{}",
            kept.len()
        );
        assert_eq!(kept.len(), SHOWN_BYTES / 100 * 100);
        assert!(view.is_cut());
        // One line longer than the cap: cut at a character boundary.
        let view = shown("é".repeat(SHOWN_BYTES).into_bytes());
        let SourceView::Text { text: kept, .. } = &view else {
            panic!("{view:?}");
        };
        assert!(kept.len() <= SHOWN_BYTES && kept.len() >= SHOWN_BYTES - 1);
    }
}
