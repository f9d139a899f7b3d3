//! DOMjudge's `@EXPECTED_RESULTS@:` marker (issue #34): a submission kept
//! outside the verdict folders (NWERC 2022's `mixed/` and `rejected/`)
//! says in a comment of one of its source files which verdicts it may get:
//! `// @EXPECTED_RESULTS@: ACCEPTED, TIME_LIMIT_EXCEEDED`. The rule is
//! DOMjudge's, as BAPCtools reads it (`run.py`, `_parse_expected_results`):
//!
//! - the key is `@EXPECTED_RESULTS@: ` (with its space), in any case, in
//!   any of the submission's files (a folder program's in name order; the
//!   first file holding it is read, a file that is not UTF-8 is skipped);
//! - the rest of that line is a comma-separated list of DOMjudge's names:
//!   `ACCEPTED` / `CORRECT`, `WRONG_ANSWER` / `WRONG-ANSWER` / `NO-OUTPUT`,
//!   `TIME_LIMIT_EXCEEDED` / `TIMELIMIT`, `RUN_TIME_ERROR` / `RUN-ERROR`,
//!   and `COMPILER-ERROR` (BAPCtools' `hello` has a folder program that
//!   may or may not compile), in any case; any other word refuses the package, naming the file, the
//!   line and the word (BAPCtools reports it as an error too).
//!
//! Where it holds, and what it loses to, is the verdict folders' rule
//! ([`super`]); the grading layer sees only what a submission is expected
//! to get.

use crate::config::ConfigError;
use crate::runner::LinkScope;
use crate::verdict::Verdict;
use crate::visible::visible;
use std::path::{Path, PathBuf};

/// The key, upper case.
pub(crate) const KEY: &str = "@EXPECTED_RESULTS@: ";

/// A submission's marker: where it is written and the verdicts it permits.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Marker {
    /// The file holding it.
    pub(crate) file: PathBuf,
    /// Its 1-based line.
    pub(crate) line: usize,
    /// The verdicts it names, as the format's (`AC`, `WA`, `TLE`, `RTE`),
    /// each once.
    pub(crate) verdicts: Vec<Verdict>,
}

/// The verdict of one of DOMjudge's names (upper case).
fn verdict_of(name: &str) -> Option<Verdict> {
    match name {
        "ACCEPTED" | "CORRECT" => Some(Verdict::Accepted),
        "WRONG_ANSWER" | "WRONG-ANSWER" | "NO-OUTPUT" => Some(Verdict::WrongAnswer),
        "TIME_LIMIT_EXCEEDED" | "TIMELIMIT" => Some(Verdict::TimeLimitExceeded),
        "RUN_TIME_ERROR" | "RUN-ERROR" => Some(Verdict::RuntimeError),
        "COMPILER-ERROR" | "COMPILER_ERROR" => Some(Verdict::CompileError),
        _ => None,
    }
}

/// The marker of the submission at `path` (a file, or a folder program's
/// files in name order; its links read where `scope` lets them lead), if
/// one of its files holds one.
pub(crate) fn find(path: &Path, scope: &LinkScope) -> Result<Option<Marker>, ConfigError> {
    let files: Vec<PathBuf> = if path.is_dir() {
        walkdir::WalkDir::new(path)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .filter(|entry| entry.file_type().is_file())
            .map(walkdir::DirEntry::into_path)
            .collect()
    } else {
        vec![path.to_owned()]
    };
    for file in files {
        // Read as every submission is (bounded, never blocking on a FIFO,
        // links only where they may lead): a plain read of a FIFO among
        // the submissions hung the judge at load (issue #34).
        let Ok(bytes) = crate::runner::read_submission(&file, scope) else {
            continue;
        };
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        if let Some(marker) = parse(&file, &text)? {
            return Ok(Some(marker));
        }
    }
    Ok(None)
}

/// The marker in `text`, the content of `file`, if it holds the key.
fn parse(file: &Path, text: &str) -> Result<Option<Marker>, ConfigError> {
    // ASCII upper case keeps every byte where it was, so a word found in
    // it is the same slice of `text`.
    let upper = text.to_ascii_uppercase();
    let Some(at) = upper.find(KEY) else {
        return Ok(None);
    };
    let line = text[..at].matches('\n').count() + 1;
    let start = at + KEY.len();
    let end = text[start..]
        .find('\n')
        .map_or(text.len(), |end| start + end);
    let refuse =
        |message: String| ConfigError::invalid_on(file, line, "@EXPECTED_RESULTS@", message);
    let mut verdicts = Vec::new();
    let mut offset = start;
    for word in text[start..end].split(',') {
        let name = upper[offset..offset + word.len()].trim();
        offset += word.len() + 1;
        let word = word.trim();
        let Some(verdict) = verdict_of(name) else {
            let shown: String = word.chars().take(40).collect();
            return Err(refuse(format!(
                "`{}` is not a verdict DOMjudge names here: expected a comma-separated list of \
                 ACCEPTED (or CORRECT), WRONG_ANSWER (WRONG-ANSWER, NO-OUTPUT), \
                 TIME_LIMIT_EXCEEDED (TIMELIMIT), RUN_TIME_ERROR (RUN-ERROR), COMPILER-ERROR",
                visible(&shown)
            )));
        };
        if !verdicts.contains(&verdict) {
            verdicts.push(verdict);
        }
    }
    Ok(Some(Marker {
        file: file.to_owned(),
        line,
        verdicts,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;
    use Verdict::*;

    #[test_case("// @EXPECTED_RESULTS@: ACCEPTED, TIME_LIMIT_EXCEEDED\nint main() {}\n", Ok(Some((1, vec![Accepted, TimeLimitExceeded]))) ; "nwerc's mixed")]
    #[test_case("#!/usr/bin/env python3\n# @EXPECTED_RESULTS@: RUN_TIME_ERROR,TIME_LIMIT_EXCEEDED,WRONG_ANSWER\n", Ok(Some((2, vec![RuntimeError, TimeLimitExceeded, WrongAnswer]))) ; "no spaces")]
    #[test_case("// @expected_results@: correct, timelimit, run-error, no-output\r\n", Ok(Some((1, vec![Accepted, TimeLimitExceeded, RuntimeError, WrongAnswer]))) ; "any case and crlf")]
    #[test_case("// @EXPECTED_RESULTS@: WRONG_ANSWER, wrong-answer\n", Ok(Some((1, vec![WrongAnswer]))) ; "each once")]
    #[test_case("int main() {}\n", Ok(None) ; "no marker")]
    #[test_case("// @EXPECTED_RESULTS@:ACCEPTED\n", Ok(None) ; "the key has its space")]
    #[test_case("x\n// @EXPECTED_RESULTS@: ACCEPTED, SLOW\n", Err("line 2: `@EXPECTED_RESULTS@`: `SLOW` is not a verdict DOMjudge names here") ; "unknown word")]
    #[test_case("// @EXPECTED_RESULTS@: ACCEPTED,\n", Err("line 1: `@EXPECTED_RESULTS@`: `` is not a verdict") ; "trailing comma")]
    #[test_case(" * @EXPECTED_RESULTS@: CORRECT,COMPILER-ERROR,WRONG-ANSWER\n", Ok(Some((1, vec![Accepted, CompileError, WrongAnswer]))) ; "bapctools hello's compile error")]
    #[test_case("// @EXPECTED_RESULTS@: CHECK-MANUALLY\n", Err("`CHECK-MANUALLY` is not a verdict") ; "check manually")]
    fn a_marker(text: &str, expected: Result<Option<(usize, Vec<Verdict>)>, &str>) {
        let found = parse(Path::new("s.cpp"), text);
        match (found, expected) {
            (Ok(found), Ok(expected)) => {
                assert_eq!(found.map(|marker| (marker.line, marker.verdicts)), expected)
            }
            (Err(error), Err(expected)) => {
                let message = error.to_string();
                assert!(message.contains(expected), "{message}");
            }
            (found, expected) => panic!("{found:?} against {expected:?}"),
        }
    }
}
