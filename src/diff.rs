//! Unified diffs of expected and actual text, on top of `similar`, for
//! `judge diff` and the reports. Knows nothing about verdicts.

use similar::{ChangeTag, TextDiff};
use std::fmt::Write as _;
use std::time::Duration;

/// How long the diff algorithm may search for a minimal diff before it
/// settles for a larger one: a 16 MiB flood of output must not stall a report.
const DIFF_DEADLINE: Duration = Duration::from_secs(2);

/// When to colour a diff (`judge diff --color`): `auto` on a terminal,
/// unless `NO_COLOR` is set. (The variants have no doc comment: clap would
/// show it in `--help`.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ColorChoice {
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether to colour: `always` and `never` say so; `auto` leaves it to
    /// `stdout_colours` (whether standard output is a terminal that takes
    /// colours), asked only then.
    pub(crate) fn colours(self, stdout_colours: impl FnOnce() -> bool) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => stdout_colours(),
        }
    }
}

/// A unified diff (3 lines of context) of `expected` against `actual`,
/// headed by the two names; ANSI-coloured when `color` is set. A line that
/// differs only in its missing final newline is marked as such.
pub(crate) fn unified(
    expected: &str,
    actual: &str,
    expected_name: &str,
    actual_name: &str,
    color: bool,
) -> String {
    let diff = TextDiff::configure()
        .timeout(DIFF_DEADLINE)
        .diff_lines(expected, actual);
    let mut out = String::new();
    let _ = writeln!(out, "--- {expected_name}");
    let _ = writeln!(out, "+++ {actual_name}");
    for hunk in diff.unified_diff().context_radius(3).iter_hunks() {
        let _ = writeln!(out, "{}", hunk.header());
        for change in hunk.iter_changes() {
            let (sign, paint) = match change.tag() {
                ChangeTag::Delete => ('-', "\x1b[31m"),
                ChangeTag::Insert => ('+', "\x1b[32m"),
                ChangeTag::Equal => (' ', ""),
            };
            let line = change.as_str().unwrap_or_default();
            let body = line.strip_suffix('\n').unwrap_or(line);
            if color && !paint.is_empty() {
                let _ = write!(out, "{paint}{sign}{body}\x1b[0m");
            } else {
                let _ = write!(out, "{sign}{body}");
            }
            out.push('\n');
            if change.missing_newline() {
                out.push_str("\\ No newline at end of file\n");
            }
        }
    }
    out
}

/// When a line diff would mislead, the one sentence that says how two
/// different files differ instead (issue #10: CRLF against LF showed `-a` /
/// `+a`, which look identical). `None` when a line diff is the right answer.
pub(crate) fn summary(expected: &[u8], actual: &[u8]) -> Option<&'static str> {
    if is_binary(expected) || is_binary(actual) {
        return Some("binary files differ");
    }
    let without_cr = |bytes: &[u8]| -> Vec<u8> {
        bytes
            .iter()
            .copied()
            .filter(|&byte| byte != b'\r')
            .collect()
    };
    if without_cr(expected) == without_cr(actual) {
        let crlf = |bytes: &[u8]| bytes.windows(2).any(|pair| pair == b"\r\n");
        return Some(match (crlf(expected), crlf(actual)) {
            (true, false) => "line endings differ (CRLF vs LF)",
            (false, true) => "line endings differ (LF vs CRLF)",
            _ => "line endings differ (carriage returns)",
        });
    }
    None
}

/// Git's rule: a NUL byte (in the first 8000 bytes), or text that is not UTF-8.
fn is_binary(bytes: &[u8]) -> bool {
    bytes.iter().take(8000).any(|&byte| byte == 0) || std::str::from_utf8(bytes).is_err()
}

/// `judge diff`'s output for two files read whole: `None` when they are
/// byte-identical, else a one-line summary when [`summary`] has one (binary,
/// line endings, a trailing newline) or the unified diff.
pub(crate) fn of_sources(
    expected: &crate::input_file::Source,
    actual: &crate::input_file::Source,
    color: bool,
) -> Option<String> {
    if expected.bytes == actual.bytes {
        return None;
    }
    if let Some(summary) = summary(&expected.bytes, &actual.bytes) {
        return Some(format!(
            "{} and {}: {summary}\n",
            expected.name, actual.name
        ));
    }
    let expected_text = String::from_utf8_lossy(&expected.bytes);
    let actual_text = String::from_utf8_lossy(&actual.bytes);
    Some(unified(
        &expected_text,
        &actual_text,
        &expected.name,
        &actual.name,
        color,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    #[test]
    fn always_and_never_decide_alone_and_auto_asks_the_terminal() {
        let rows = [
            (ColorChoice::Always, false, true),
            (ColorChoice::Always, true, true),
            (ColorChoice::Never, true, false),
            (ColorChoice::Never, false, false),
            (ColorChoice::Auto, true, true),
            (ColorChoice::Auto, false, false),
        ];
        for (choice, terminal, expected) in rows {
            let mut asked = false;
            let colours = choice.colours(|| {
                asked = true;
                terminal
            });
            assert_eq!(colours, expected, "{choice:?} on a terminal: {terminal}");
            assert_eq!(asked, choice == ColorChoice::Auto, "{choice:?}");
        }
    }

    #[test_case(b"a\r\nb\r\n", b"a\nb\n", Some("line endings differ (CRLF vs LF)") ; "crlf vs lf")]
    #[test_case(b"a\nb\n", b"a\r\nb\r\n", Some("line endings differ (LF vs CRLF)") ; "lf vs crlf")]
    #[test_case(b"a\0b", b"a\0c", Some("binary files differ") ; "nul bytes")]
    #[test_case(b"a\n", b"\xff\n", Some("binary files differ") ; "not utf8")]
    #[test_case(b"a\r\n", b"b\n", None ; "content differs too")]
    #[test_case(b"1\n", b"2\n", None ; "plain text")]
    fn summary_names_what_a_line_diff_would_hide(
        expected: &[u8],
        actual: &[u8],
        want: Option<&str>,
    ) {
        assert_eq!(summary(expected, actual), want);
    }

    #[test]
    fn shows_changed_line_with_context() {
        let diff = unified("1\n2\n3\n", "1\n4\n3\n", "expected", "actual", false);
        assert_eq!(
            diff,
            "--- expected\n+++ actual\n@@ -1,3 +1,3 @@\n 1\n-2\n+4\n 3\n"
        );
    }

    #[test]
    fn marks_missing_final_newline() {
        let diff = unified("5\n", "5", "a", "b", false);
        assert_eq!(
            diff,
            "--- a\n+++ b\n@@ -1 +1 @@\n-5\n+5\n\\ No newline at end of file\n"
        );
    }

    #[test]
    fn colours_only_changed_lines() {
        let diff = unified("a\nb\n", "a\nc\n", "x", "y", true);
        assert!(diff.contains("\x1b[31m-b\x1b[0m\n"));
        assert!(diff.contains("\x1b[32m+c\x1b[0m\n"));
        assert!(diff.contains("\n a\n"));
    }
}
