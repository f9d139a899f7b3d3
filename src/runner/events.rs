//! What the runner tells its subscribers, and the results it hands back.
//!
//! Events arrive in submission order and, within a submission, in test
//! order, whatever `--jobs` is: the scheduler re-orders completions before
//! they are emitted, so every report is the same for any number of workers.

use crate::verdict::{Points, Verdict};
use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

/// Something the runner finished.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// A submission was compiled (or found not to need it).
    CompileFinished {
        submission: &'a str,
        compile: &'a CompileResult,
    },
    /// One test of one submission finished.
    TestFinished {
        submission: &'a str,
        test: &'a TestResult,
    },
    /// Every test of a submission finished.
    SubmissionFinished { result: &'a SubmissionResult },
    /// A worker started (`started`) or ended a test of `submission`, as it
    /// happens (any order, unlike [`Event::TestFinished`]): what runs now,
    /// for a progress line (issue #17).
    TestRunning { submission: &'a str, started: bool },
}

/// How compiling went.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CompileResult {
    pub(crate) ok: bool,
    /// The compiler's message (trimmed), or why there was no compile.
    pub message: String,
    /// `CE` when the compiler rejected the program, `JE` when the judge could
    /// not compile it (missing toolchain, sandbox failure); absent when ok.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) verdict: Option<Verdict>,
    /// A JE because the language's compiler or interpreter is not installed
    /// for the user the judge runs as (not in its PATH, or not readable or
    /// runnable by it: rustc under root's rustup for an ordinary user). The
    /// host's setup, not the judge failing on this hand-in: it does not
    /// make the exit 3 (issue 32). Absent (false) otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) toolchain_missing: bool,
}

/// The three states a [`CompileResult`] can be in; its fields are the wire
/// form (`ok`, `verdict`), this is how code reads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CompileState {
    /// Compiled (or nothing to compile): the tests run.
    Compiled,
    /// Not compiled: `CE` (the compiler rejected it) or `JE` (the judge
    /// could not compile it).
    Failed(Verdict),
    /// Never compiled: the run was stopped first (SIGINT / SIGTERM); such a
    /// submission is listed as not graded, never reported as a result.
    NotRun,
}

impl CompileResult {
    /// A program that compiled, with the compiler's message (may be empty).
    pub(crate) fn compiled(message: String) -> CompileResult {
        CompileResult {
            ok: true,
            message,
            verdict: None,
            toolchain_missing: false,
        }
    }

    /// A program that did not compile, and why.
    pub(crate) fn failed(verdict: Verdict, message: String) -> CompileResult {
        CompileResult {
            ok: false,
            message,
            verdict: Some(verdict),
            toolchain_missing: false,
        }
    }

    /// A JE because the language's toolchain is missing for this user
    /// ([`CompileResult::toolchain_missing`]), and why.
    pub(crate) fn missing_toolchain(message: String) -> CompileResult {
        CompileResult {
            toolchain_missing: true,
            ..CompileResult::failed(Verdict::JudgeError, message)
        }
    }

    /// The placeholder of a submission the run was stopped before preparing.
    pub(crate) fn not_run() -> CompileResult {
        CompileResult {
            ok: false,
            message: String::new(),
            verdict: None,
            toolchain_missing: false,
        }
    }

    /// Which state the wire fields say.
    pub(crate) fn state(&self) -> CompileState {
        match (self.ok, self.verdict) {
            (true, _) => CompileState::Compiled,
            (false, Some(verdict)) => CompileState::Failed(verdict),
            (false, None) => CompileState::NotRun,
        }
    }
}

/// Where a random test came from: `judge gen <problem> --seed SEED
/// --profile PROFILE` makes it as test INDEX (0-based).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RandomOrigin {
    pub seed: u64,
    pub(crate) profile: String,
    pub index: u64,
}

/// One test of one submission (an entry of `tests`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TestResult {
    pub name: String,
    pub verdict: Verdict,
    /// CPU time of the whole process tree.
    pub time_ms: u64,
    pub wall_ms: u64,
    /// Peak memory, measured as `isolation.memory` says.
    pub memory_kib: u64,
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    /// The checker's reason, or which limit or crash ended the run.
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub random: Option<RandomOrigin>,
    /// The beginning of the test's data, for reports that show it (HTML);
    /// absent when the program did not run. Kept in the JSON report so a
    /// report can be rendered later from merged JSON files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<Excerpt>,
    /// The test exceeded only the wall-clock limit, its CPU time under the
    /// CPU limit, so it was run again alone before its verdict was decided:
    /// a busy machine must not turn into TLE (issue #8). This result is the
    /// second run's. Absent (false) otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rerun: bool,
    /// A test the wall clock ended: how long its threads had waited for a
    /// CPU, runnable but not running (the kernel's run-queue wait, summed
    /// over its threads). A large share of the wall clock says the host
    /// starved it; a small one that it slept or blocked (issue 32). Absent
    /// otherwise, or where the kernel does not say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_wait_ms: Option<u64>,
    /// A run that crashed (RE): the first and the last lines of its
    /// standard error, with how much was cut between them
    /// (`stderr_excerpt`), so a report says why, not only "exit code 1"
    /// (issues #8, #17). Absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<String>,
    /// An accepted test's score as its output validator wrote it
    /// (`score.txt` or `score_multiplier.txt`); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validator_score: Option<crate::verdict::ValidatorScore>,
}

/// How the message of a test the host starved to the last begins (TLE,
/// `runner::execute::host_overloaded`, issue 32).
pub(crate) const HOST_OVERLOADED: &str = "the host was busy";

/// Lines of a crashed program's stderr that [`TestResult::stderr`] keeps
/// from its beginning (where a traceback starts).
pub(crate) const STDERR_HEAD_LINES: usize = 5;
/// Lines of a crashed program's stderr that [`TestResult::stderr`] keeps
/// from its end (where Python, Java and Rust put the reason).
pub(crate) const STDERR_TAIL_LINES: usize = 10;

/// The head and the tail of a crashed program's `stderr`: the first
/// [`STDERR_HEAD_LINES`] and the last [`STDERR_TAIL_LINES`] lines (each part
/// at most [`EXCERPT_LIMIT_BYTES`] / 4 bytes, invalid UTF-8 replaced), with
/// a line between them saying how much was cut; and, when the sandbox
/// discarded `discarded` bytes past its cap, a last line saying so (the
/// tail shown is then the end of what was kept). `None` when it is empty.
pub(crate) fn stderr_excerpt(stderr: &[u8], discarded: u64) -> Option<String> {
    let text = String::from_utf8_lossy(stderr);
    let text = text.trim_end();
    if text.is_empty() {
        return None;
    }
    let limit = EXCERPT_LIMIT_BYTES / 4;
    let lines: Vec<&str> = text.lines().collect();
    let mut out = if lines.len() <= STDERR_HEAD_LINES + STDERR_TAIL_LINES && text.len() <= 2 * limit
    {
        text.to_owned()
    } else if let Some(kept) = with_explaining_lines(&lines, limit) {
        kept
    } else {
        // Many lines: the first and the last ones; a few long ones: the
        // first and the last bytes.
        let (head, tail, cut_lines) = if lines.len() > STDERR_HEAD_LINES + STDERR_TAIL_LINES {
            let tail_start = lines.len() - STDERR_TAIL_LINES;
            (
                lines[..STDERR_HEAD_LINES].join("\n"),
                lines[tail_start..].join("\n"),
                tail_start - STDERR_HEAD_LINES,
            )
        } else {
            (text.to_owned(), text.to_owned(), 0)
        };
        let head = keep_start(&head, limit);
        let tail = keep_end(&tail, limit);
        let separators = if cut_lines > 0 { 1 } else { 0 };
        let cut_bytes = text
            .len()
            .saturating_sub(head.len() + tail.len() + separators);
        let what = if cut_lines > 0 {
            format!("{cut_lines} line(s), {}", bytes(cut_bytes))
        } else {
            bytes(cut_bytes)
        };
        format!("{head}\n[… {what} cut …]\n{tail}")
    };
    if discarded > 0 {
        out.push_str(&format!(
            "\n[… {} more past the {} the judge keeps, not shown …]",
            bytes(usize::try_from(discarded).unwrap_or(usize::MAX)),
            bytes(stderr.len())
        ));
    }
    Some(out)
}

/// At most this many lines of the middle of a long stderr that explain
/// the failure are kept ([`explains`]).
const EXPLAINING_LINES: usize = 2;

/// Whether a line of stderr explains a failure well enough to keep it from
/// the middle of a long stderr: an exception's line at the start of a line
/// (`PermissionError: [Errno 1] Operation not permitted`, the first
/// exception of a chained Python traceback, whose last exception, such as
/// `multiprocessing`'s `EOFError`, only follows from it), or a refusal of
/// the sandbox (`EPERM`, "Operation not permitted") anywhere in it.
fn explains(line: &str) -> bool {
    let name = line.split(':').next().unwrap_or("");
    let exception = line.contains(':')
        && !name.is_empty()
        && !name.contains(char::is_whitespace)
        && (name.ends_with("Error") || name.ends_with("Exception"));
    exception || line.contains("Operation not permitted") || line.contains("EPERM")
}

/// A long stderr (more lines than the head and the tail) cut as
/// [`stderr_excerpt`] cuts it, but keeping the first
/// [`EXPLAINING_LINES`] lines of the cut middle that explain the failure
/// ([`explains`]), each between notes of what was cut around it (issue 32:
/// the `PermissionError` that made Python's `multiprocessing.Manager`
/// fail was cut, and only its `EOFError` shown). `None` when the stderr is
/// not that long or no line of the middle explains anything.
fn with_explaining_lines(lines: &[&str], limit: usize) -> Option<String> {
    if lines.len() <= STDERR_HEAD_LINES + STDERR_TAIL_LINES {
        return None;
    }
    let tail_start = lines.len() - STDERR_TAIL_LINES;
    let middle = &lines[STDERR_HEAD_LINES..tail_start];
    let explaining: Vec<usize> = (0..middle.len())
        .filter(|&index| explains(middle[index]))
        .take(EXPLAINING_LINES)
        .collect();
    if explaining.is_empty() {
        return None;
    }
    let head = lines[..STDERR_HEAD_LINES].join("\n");
    let tail = lines[tail_start..].join("\n");
    let mut out = keep_start(&head, limit).to_owned();
    let mut from = 0;
    for index in explaining.into_iter().chain([middle.len()]) {
        let cut = &middle[from..index];
        if !cut.is_empty() {
            let cut_bytes: usize = cut.iter().map(|line| line.len() + 1).sum();
            out.push_str(&format!(
                "\n[… {} line(s), {} cut …]",
                cut.len(),
                bytes(cut_bytes)
            ));
        }
        if let Some(line) = middle.get(index) {
            out.push('\n');
            out.push_str(keep_start(line, limit / 2));
        }
        from = index + 1;
    }
    out.push('\n');
    out.push_str(keep_end(&tail, limit));
    Some(out)
}

fn bytes(count: usize) -> String {
    if count >= 10 * 1024 {
        format!("{} KiB", count / 1024)
    } else {
        format!("{count} bytes")
    }
}

/// The first `limit` bytes of `text`, cut at a character boundary.
fn keep_start(text: &str, limit: usize) -> &str {
    let mut cut = limit.min(text.len());
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    &text[..cut]
}

/// The last `limit` bytes of `text`, cut at a character boundary.
fn keep_end(text: &str, limit: usize) -> &str {
    let mut cut = text.len().saturating_sub(limit);
    while !text.is_char_boundary(cut) {
        cut += 1;
    }
    &text[cut..]
}

/// How many bytes of each stream an [`Excerpt`] keeps: enough to see a small
/// test whole and the start of a large one, while a class's JSON report stays
/// a few MiB (three streams per test).
pub const EXCERPT_LIMIT_BYTES: usize = 4 * 1024;

/// The first [`EXCERPT_LIMIT_BYTES`] of a test's input, expected answer and
/// the program's output, each cut at a character boundary and ended by a
/// `… (N more bytes)` line when cut. Invalid UTF-8 is replaced (lossy): an
/// excerpt is for reading, the checker saw the real bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Excerpt {
    pub input: String,
    /// The answer file or the reference answer; absent when the checker
    /// decides alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    pub actual: String,
}

impl Excerpt {
    /// Excerpts of the three streams. Only the kept prefix is copied, so the
    /// cost per test does not grow with the size of the data.
    pub(crate) fn new(input: &[u8], expected: Option<&[u8]>, actual: &[u8]) -> Excerpt {
        Excerpt {
            input: excerpt_text(input),
            expected: expected.map(excerpt_text),
            actual: excerpt_text(actual),
        }
    }
}

/// The first [`EXCERPT_LIMIT_BYTES`] of `bytes` as text, with a note of what
/// was left out.
pub(crate) fn excerpt_text(bytes: &[u8]) -> String {
    let Some(&first_left_out) = bytes.get(EXCERPT_LIMIT_BYTES) else {
        return String::from_utf8_lossy(bytes).into_owned();
    };
    let mut end = EXCERPT_LIMIT_BYTES;
    // A UTF-8 character is at most 4 bytes: when the first byte left out is
    // a continuation byte, step back (at most 3 bytes) to the start of the
    // character it continues, so the cut does not turn it into U+FFFD.
    let mut next = first_left_out;
    while is_continuation(next) && end > EXCERPT_LIMIT_BYTES - 3 {
        end -= 1;
        next = bytes.get(end).copied().unwrap_or(0);
    }
    if is_continuation(next) {
        // Not valid UTF-8 around the cut anyway: cut at the limit.
        end = EXCERPT_LIMIT_BYTES;
    }
    let kept = bytes.get(..end).unwrap_or(bytes);
    let mut text = String::from_utf8_lossy(kept).into_owned();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    let _ = write!(text, "… ({} more bytes)", bytes.len() - end);
    text
}

fn is_continuation(byte: u8) -> bool {
    byte & 0b1100_0000 == 0b1000_0000
}

/// One submission against every test (an entry of `results`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct SubmissionResult {
    pub(crate) problem: String,
    pub submission: String,
    pub language: String,
    /// The first non-AC test verdict in test order; CE or JE when it did not
    /// compile; AC otherwise.
    pub verdict: Verdict,
    /// Tests passed, of those run.
    pub passed: usize,
    /// The problem's tests, run or not.
    pub(crate) total: usize,
    pub compile: CompileResult,
    /// The tests run, in test order. Fewer than `total` when the submission
    /// did not run (CE, JE), or when it stopped at its first failing test
    /// (layout `expected` and `grade --package`, without `--all-tests`):
    /// the tests after it were not run and are absent.
    pub tests: Vec<TestResult>,
    /// What the submission scored: with test groups, the groups' model
    /// (`crate::grading::score`); else the percent of tests passed (100
    /// when accepted, 0 when it did not compile). Absent in reports
    /// written before scores existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) score: Option<Points>,
    /// The highest score possible: 100 without groups.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) max_score: Option<Points>,
    /// With test groups: every group below the root, depth first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) groups: Vec<GroupScore>,
}

/// A group's result (an entry of `groups`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct GroupScore {
    /// The group's name: its folder under `data/` (`secret/group1`), or
    /// its name in problem.toml.
    pub(crate) name: String,
    pub(crate) score: Points,
    pub(crate) max_score: Points,
    /// The group's verdict under its rules.
    pub(crate) verdict: Verdict,
    /// The group's tests (and those of the groups in it), in order, run or
    /// not.
    pub(crate) tests: Vec<String>,
}

/// Results for unit tests: one constructor each, so a new field is added
/// in one place.
#[cfg(test)]
impl SubmissionResult {
    /// A compiled submission's result, in language `py`, whose `tests`
    /// decide its verdict, what passed and the total.
    pub(crate) fn fixture(
        problem: &str,
        submission: &str,
        tests: Vec<TestResult>,
    ) -> SubmissionResult {
        let compile = CompileResult::compiled(String::new());
        SubmissionResult {
            problem: problem.to_owned(),
            submission: submission.to_owned(),
            language: "py".to_owned(),
            verdict: SubmissionResult::overall(&compile, &tests),
            passed: tests
                .iter()
                .filter(|test| test.verdict.is_accepted())
                .count(),
            total: tests.len(),
            compile,
            tests,
            score: None,
            max_score: None,
            groups: Vec::new(),
        }
    }
}

#[cfg(test)]
impl TestResult {
    /// A test's result: `verdict`, exit code 0, nothing measured or said.
    pub(crate) fn fixture(name: &str, verdict: Verdict) -> TestResult {
        TestResult {
            name: name.to_owned(),
            verdict,
            time_ms: 0,
            wall_ms: 0,
            memory_kib: 0,
            exit_code: Some(0),
            signal: None,
            message: String::new(),
            random: None,
            excerpt: None,
            rerun: false,
            cpu_wait_ms: None,
            stderr: None,
            validator_score: None,
        }
    }
}

impl SubmissionResult {
    /// Whether this result is the judge failing (exit 3): JE, unless only
    /// because the language's toolchain is missing for this user (that
    /// language's JE, with the reason, but the host's setup: issue 32).
    pub(crate) fn judge_failed(&self) -> bool {
        self.verdict == Verdict::JudgeError && !self.compile.toolchain_missing
    }

    /// The score without groups: the percent of tests passed (of the
    /// problem's tests), two decimals; 0 when the submission did not
    /// compile or there were no tests.
    pub(crate) fn pass_fail_score(&self) -> Points {
        let compiled = !matches!(
            self.compile.verdict,
            Some(Verdict::CompileError | Verdict::JudgeError)
        );
        if !compiled || self.total == 0 {
            return Points(0.0);
        }
        // In whole hundredths, rounded half up in integers, so the
        // platforms' items (grading::shares), which share this very number,
        // agree with it to the hundredth (issue #30).
        let (passed, total) = (self.passed as u128, self.total as u128);
        let hundredths = (passed * 20_000 + total) / (total * 2);
        // At most 10,000 (or a count far below 2^52): exact.
        Points(hundredths as f64 / 100.0)
    }

    /// The first non-AC test verdict in test order, or AC (docs/report.md).
    pub(crate) fn overall(compile: &CompileResult, tests: &[TestResult]) -> Verdict {
        if let Some(verdict) = compile.verdict {
            return verdict;
        }
        tests
            .iter()
            .map(|test| test.verdict)
            .find(|verdict| !verdict.is_accepted())
            .unwrap_or(Verdict::Accepted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stderr_excerpt_keeps_the_head_and_the_tail() {
        assert_eq!(stderr_excerpt(b"", 0), None);
        assert_eq!(stderr_excerpt(b"  \n", 0), None);
        assert_eq!(
            stderr_excerpt(b"Traceback:\n  x\nZeroDivisionError\n", 0).as_deref(),
            Some("Traceback:\n  x\nZeroDivisionError")
        );
        let many: String = (0..40).map(|line| format!("line {line}\n")).collect();
        let kept = stderr_excerpt(many.as_bytes(), 0).unwrap();
        let lines: Vec<&str> = kept.lines().collect();
        assert_eq!(
            lines[..5],
            ["line 0", "line 1", "line 2", "line 3", "line 4"]
        );
        assert_eq!(lines[5], "[… 25 line(s), 195 bytes cut …]");
        assert_eq!(lines[6], "line 30");
        assert_eq!(lines.last(), Some(&"line 39"));
        assert_eq!(lines.len(), 16);
        // One endless line: its start and its end, the middle counted.
        let long = "é".repeat(10_000);
        let kept = stderr_excerpt(long.as_bytes(), 0).unwrap();
        assert!(kept.starts_with('é') && kept.ends_with('é'));
        assert!(kept.contains("[… 17 KiB cut …]"), "{}", &kept[1020..1060]);
        // What the sandbox discarded is said, not hidden.
        let kept = stderr_excerpt(b"boom\n", 70 * 1024).unwrap();
        assert_eq!(
            kept,
            "boom\n[… 70 KiB more past the 5 bytes the judge keeps, not shown …]"
        );
    }

    /// The line that explains a long traceback is kept from its middle,
    /// between notes of what was cut. See: issue #32
    #[test]
    fn r32_a_line_that_explains_the_failure_is_kept_from_the_middle() {
        let mut stderr =
            String::from("Process SyncManager-1:\nTraceback (most recent call last):\n");
        for frame in 0..12 {
            stderr.push_str(&format!("  File \"x.py\", line {frame}, in f\n    f()\n"));
        }
        stderr.push_str("PermissionError: [Errno 1] Operation not permitted\n");
        stderr.push_str("Traceback (most recent call last):\n");
        for frame in 0..12 {
            stderr.push_str(&format!("  File \"y.py\", line {frame}, in g\n    g()\n"));
        }
        stderr.push_str("EOFError\n");
        let kept = stderr_excerpt(stderr.as_bytes(), 0).unwrap();
        let lines: Vec<&str> = kept.lines().collect();
        assert_eq!(lines[0], "Process SyncManager-1:");
        assert_eq!(lines[5], "[… 21 line(s), 370 bytes cut …]", "{kept}");
        assert_eq!(
            lines[6],
            "PermissionError: [Errno 1] Operation not permitted"
        );
        assert!(lines[7].starts_with("[… 16 line(s), "), "{kept}");
        assert_eq!(lines.last(), Some(&"EOFError"));
        assert_eq!(lines.len(), 5 + 3 + 10, "{kept}");
        // A plain log keeps the old cut.
        let many: String = (0..40).map(|line| format!("line {line}\n")).collect();
        let kept = stderr_excerpt(many.as_bytes(), 0).unwrap();
        assert_eq!(kept.lines().count(), 16);
        // What explains, and what does not.
        assert!(explains("OSError: [Errno 30] Read-only file system"));
        assert!(explains(
            "Caused by: java.net.SocketException: Operation not permitted"
        ));
        assert!(!explains("Traceback (most recent call last):"));
        assert!(!explains("  File \"x.py\", line 3, in f"));
        assert!(!explains(
            "During handling of the above exception, another exception occurred:"
        ));
    }

    #[test]
    fn keeps_short_text_whole() {
        assert_eq!(excerpt_text(b"3\n..X\n"), "3\n..X\n");
        assert_eq!(excerpt_text(b""), "");
        let exact = vec![b'a'; EXCERPT_LIMIT_BYTES];
        assert_eq!(excerpt_text(&exact).len(), EXCERPT_LIMIT_BYTES);
    }

    #[test]
    fn cuts_long_text_with_a_note() {
        let long = vec![b'a'; EXCERPT_LIMIT_BYTES + 10];
        let text = excerpt_text(&long);
        let expected = format!("{}\n… (10 more bytes)", "a".repeat(EXCERPT_LIMIT_BYTES));
        assert_eq!(text, expected);
    }

    #[test]
    fn cuts_at_a_character_boundary() {
        // "é" is 2 bytes: with one 'a' in front, one "é" straddles the limit.
        let mut bytes = b"a".to_vec();
        bytes.extend("é".repeat(EXCERPT_LIMIT_BYTES).as_bytes());
        let text = excerpt_text(&bytes);
        assert!(!text.contains('\u{FFFD}'), "a character was split");
        let kept = text.split('\n').next().unwrap();
        assert_eq!(kept.len(), EXCERPT_LIMIT_BYTES - 1);
        assert!(text.ends_with(&format!("… ({} more bytes)", bytes.len() - kept.len())));
    }

    #[test]
    fn replaces_invalid_utf8() {
        assert_eq!(excerpt_text(b"ok\xff\n"), "ok\u{FFFD}\n");
        // Continuation bytes all around the cut: cut at the limit.
        let garbage = vec![0x80; EXCERPT_LIMIT_BYTES + 5];
        assert!(excerpt_text(&garbage).ends_with("… (5 more bytes)"));
    }

    #[test]
    fn excerpt_round_trips_through_json_and_is_optional() {
        let test = TestResult {
            name: "001".to_owned(),
            verdict: Verdict::WrongAnswer,
            time_ms: 1,
            wall_ms: 2,
            memory_kib: 3,
            exit_code: Some(0),
            signal: None,
            message: "board 1: expected 2, got 1".to_owned(),
            random: None,
            rerun: false,
            cpu_wait_ms: None,
            stderr: None,
            validator_score: None,
            excerpt: Some(Excerpt::new(b"1\n.\n0\n", Some(b"1\n"), b"0\n")),
        };
        let json = serde_json::to_string(&test).unwrap();
        let back: TestResult = serde_json::from_str(&json).unwrap();
        assert_eq!(back, test);
        let without = TestResult {
            rerun: false,
            cpu_wait_ms: None,
            stderr: None,
            validator_score: None,
            excerpt: None,
            ..test
        };
        let json = serde_json::to_string(&without).unwrap();
        assert!(!json.contains("excerpt"));
        // A report written before excerpts existed still reads.
        let back: TestResult = serde_json::from_str(&json).unwrap();
        assert_eq!(back.excerpt, None);
    }
}
