//! The tables people read: `judge run`'s, per submission a header line with
//! the overall verdict, then one row per test (verdict, CPU time, wall time,
//! memory, checker message), shaped like problemtools' results table; and
//! `judge grade`'s, one row per (submission, problem), with its summary and
//! the lines for examples that did not get their folder's verdict.

use super::json::BeforeTests;
use super::{Missing, Row, Ungraded};
use crate::config::judge::Layout;
use crate::hint::Hint;
use crate::runner::SubmissionResult;
use crate::verdict::Verdict;
use std::fmt::Write;
use std::path::Path;

/// The longest checker message shown in a row; the JSON report has it all.
const MESSAGE_WIDTH: usize = 60;

pub(crate) use crate::visible::{visible, visible_name};

/// One submission's block of the table.
pub(crate) fn render_submission(result: &SubmissionResult) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {} ({}): {} {}/{}",
        result.problem,
        visible_name(&result.submission),
        result.language,
        result.verdict,
        result.passed,
        result.total
    );
    // Scored by test groups (issue #15): the score and a line per group.
    if let (false, Some(score), Some(max)) =
        (result.groups.is_empty(), result.score, result.max_score)
    {
        let _ = writeln!(out, "  score {score} of {max}");
        for group in &result.groups {
            let _ = writeln!(
                out,
                "    {}: {} of {} ({})",
                visible_name(&group.name),
                group.score,
                group.max_score,
                group.verdict
            );
        }
    }
    if let Some(verdict) = result.compile.verdict {
        let heading = if result.compile.toolchain_missing {
            "not compiled: the judging host has no compiler for it"
        } else {
            "compilation failed"
        };
        let _ = writeln!(out, "  {verdict}: {heading}");
        let _ = writeln!(out, "  {}", "-".repeat(40));
        if result.compile.message.is_empty() {
            let _ = writeln!(out, "  <stderr is empty>");
        }
        for line in result.compile.message.lines() {
            let _ = writeln!(out, "  {}", visible(line));
        }
        let _ = writeln!(out, "  {}", "-".repeat(40));
        return out;
    }
    if result.tests.is_empty() {
        return out;
    }
    let width = result
        .tests
        .iter()
        .map(|test| visible_name(&test.name).chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    let _ = writeln!(
        out,
        "  {:width$}  {:7}  {:>9}  {:>9}  {:>11}  message",
        "test", "verdict", "cpu", "wall", "memory"
    );
    for test in &result.tests {
        let message = visible(&cell_message(&test.message));
        let _ = writeln!(
            out,
            "  {:width$}  {:7}  {:>9}  {:>9}  {:>11}  {}",
            visible_name(&test.name),
            test.verdict.code(),
            format!("{} ms", test.time_ms),
            format!("{} ms", test.wall_ms),
            format!("{} KiB", test.memory_kib),
            message
        )
        .map(|()| ());
    }
    // A message cut in its row (a checker's crash, whose reason comes
    // last: `... crashed with an uncaught exception (ValueError: ...)`):
    // the first such test's whole first line, and the last line of a
    // message of several (a traceback's exception), below the table.
    if let Some(test) = result.tests.iter().find(|test| {
        !test.verdict.is_accepted() && cell_message(&test.message) != first_line(&test.message)
    }) {
        let _ = writeln!(out, "  message of {}:", visible_name(&test.name));
        let first = first_line(&test.message);
        let _ = writeln!(out, "    {}", visible(first));
        if let Some(last) = test
            .message
            .lines()
            .skip(1)
            .filter(|line| !line.trim().is_empty())
            .last()
            .filter(|last| !first.contains(last.trim()))
        {
            let _ = writeln!(out, "    ... {}", visible(last.trim()));
        }
    }
    // Why the first crash crashed: its standard error's head and tail
    // (the JSON report has each crashing test's).
    if let Some(test) = result
        .tests
        .iter()
        .find(|test| test.verdict == Verdict::RuntimeError && test.stderr.is_some())
    {
        let _ = writeln!(out, "  standard error of {}:", visible_name(&test.name));
        for line in test.stderr.iter().flat_map(|stderr| stderr.lines()) {
            let _ = writeln!(out, "    {}", visible(line));
        }
    }
    out
}

fn first_line(message: &str) -> &str {
    message.lines().next().unwrap_or("")
}

/// A test's message as its row shows it: the first line, at most
/// [`MESSAGE_WIDTH`] characters, a longer one cut with `…` (and then
/// written out in full below the table).
fn cell_message(message: &str) -> String {
    let first = first_line(message);
    if first.chars().count() <= MESSAGE_WIDTH {
        return first.to_owned();
    }
    let mut cell: String = first.chars().take(MESSAGE_WIDTH - 1).collect();
    cell.push('…');
    cell
}

/// A row of the grade table: its student and problem (for the order), its
/// cells, and the graded row behind it (for the colour of its verdict).
type TableRow<'a> = (String, &'a str, [String; 7], Option<&'a dyn Row>);

/// A grade as the terminal shows it (its table, summary and messages):
/// its rows, each answering [`Row`] (every decision and figure the grading
/// layer's), and the class around them.
pub(crate) struct GradeView<'a> {
    /// judge.toml's `layout`: `expected` shows what each example had to get.
    pub(crate) layout: Layout,
    pub(crate) rows: &'a [&'a dyn Row],
    /// The class's (student, problem) pairs with no hand-in.
    pub(crate) missing: &'a [Missing],
    /// The pairs an interrupt left ungraded, each with its student.
    pub(crate) not_graded: &'a [Ungraded],
    /// Stopped by a signal: the grade is partial.
    pub(crate) interrupted: bool,
    /// Layout `expected`: how many examples got what they were expected to
    /// get, in the grading layer's words for what they were expected by.
    pub(crate) agreement: Option<String>,
}

/// `judge grade`'s table: one row per (submission, problem) with the
/// verdict, tests passed, score and the slowest test against the limit, and
/// for layout `expected` the verdict each example must get; a `missing` row
/// for each (student, problem) of the class with no hand-in, and a `not
/// graded` row for each pair an interrupt left. `colour` adds ANSI colours
/// to verdicts; the text alone carries the meaning.
///
/// A class's rows are in the class page's order (issue #32): students as a
/// class list orders names (`super::collation`), each with all of their
/// rows, missing and not graded ones among them, by problem in the order
/// the problems first appear. Layout `expected` keeps the report's order
/// (by problem and example), which is how a setter reads it.
pub(crate) fn render_grade_table(grade: &GradeView<'_>, colour: bool) -> String {
    let expected_layout = grade.layout == Layout::Expected;
    let header: [String; 7] = [
        "problem".into(),
        "submission".into(),
        if expected_layout {
            "expected"
        } else {
            "student"
        }
        .into(),
        "verdict".into(),
        "tests".into(),
        "score".into(),
        "time".into(),
    ];
    // Each row with its student (for the order) and its result (for the
    // colour of its verdict).
    let mut rows: Vec<TableRow<'_>> = Vec::new();
    for &graded in grade.rows {
        let result = graded.result();
        let who = match (graded.expectation(), expected_layout) {
            (Some(expected), _) => expected.verdict.map_or_else(
                || format!("? ({})", visible_name(&expected.folder)),
                |verdict| verdict.to_string(),
            ),
            (None, true) => "?".to_owned(),
            (None, false) => visible_name(&graded.student()),
        };
        let slowest = result.tests.iter().map(|test| test.time_ms).max();
        let time = match (slowest, graded.time_limit_ms()) {
            (Some(slowest), Some(limit)) => format!("{slowest} ms / {limit} ms"),
            (None, Some(limit)) => format!("- / {limit} ms"),
            (Some(slowest), None) => format!("{slowest} ms"),
            (None, None) => "-".to_owned(),
        };
        // Names come from the class's folders: made visible (`\x1b`, `\n`),
        // so they cannot move the cursor or draw a fake row (issue 18).
        let cells = [
            visible_name(&result.problem),
            visible_name(&result.submission),
            who,
            super::verdict_cell(result.verdict, graded.handed_in()),
            format!("{}/{}", result.passed, result.total),
            match (result.groups.is_empty(), result.score, result.max_score) {
                (false, Some(score), Some(max)) => format!("{score}/{max}"),
                _ => format!("{}%", graded.score_percent()),
            },
            time,
        ];
        rows.push((graded.student(), &result.problem, cells, Some(graded)));
    }
    // Every (student, problem) of the class has a row (issue #17): one
    // with no hand-in says `missing`, as in the CSV, JSON and HTML.
    for pair in grade.missing {
        let cells = [
            visible_name(&pair.problem),
            "-".to_owned(),
            visible_name(&pair.student),
            "missing".to_owned(),
            "-".to_owned(),
            "0%".to_owned(),
            "-".to_owned(),
        ];
        rows.push((pair.student.clone(), &pair.problem, cells, None));
    }
    // A pair an interrupt left ungraded says so (issue #32), never blank.
    for pair in grade.not_graded {
        let cells = [
            visible_name(&pair.problem),
            visible_name(&pair.submission),
            if pair.recorded {
                visible_name(&pair.student)
            } else {
                "-".to_owned()
            },
            crate::report::json::NOT_GRADED.to_owned(),
            "-".to_owned(),
            "-".to_owned(),
            "-".to_owned(),
        ];
        rows.push((pair.student.clone(), &pair.problem, cells, None));
    }
    if !expected_layout {
        let mut problems: Vec<&str> = Vec::new();
        for (_, problem, _, _) in &rows {
            if !problems.contains(problem) {
                problems.push(problem);
            }
        }
        let problem_at = |problem: &str| problems.iter().position(|known| *known == problem);
        rows.sort_by(|a, b| {
            super::collation::names(&a.0, &b.0).then_with(|| problem_at(a.1).cmp(&problem_at(b.1)))
        });
    }
    let mut widths = [0usize; 7];
    for row in std::iter::once(&header).chain(rows.iter().map(|row| &row.2)) {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let lines = std::iter::once((&header, None)).chain(rows.iter().map(|row| (&row.2, row.3)));
    for (row, graded) in lines {
        let mut line = String::new();
        for (column, (cell, width)) in row.iter().zip(widths).enumerate() {
            let padded = if column >= 4 {
                format!("{cell:>width$}")
            } else {
                format!("{cell:width$}")
            };
            let painted = match graded {
                Some(graded) if colour && column == 3 => paint(
                    &padded,
                    verdict_colour(graded.result().verdict, graded.agrees()),
                ),
                _ => padded,
            };
            line.push_str(&painted);
            line.push_str("  ");
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

/// One line that sums a grade up, e.g. `12 submissions: 9 AC, 2 WA, 1 TLE`,
/// and for layout `expected` the grading layer's tally of the examples
/// that got what they were expected to get.
pub(crate) fn render_grade_summary(grade: &GradeView<'_>) -> String {
    let mut counts: std::collections::BTreeMap<Verdict, usize> = Default::default();
    let mut several_files = 0;
    for graded in grade.rows {
        if graded.handed_in().is_empty() {
            *counts.entry(graded.result().verdict).or_default() += 1;
        } else {
            several_files += 1;
        }
    }
    let mut counts: Vec<String> = counts
        .iter()
        .map(|(verdict, count)| format!("{count} {verdict}"))
        .collect();
    // Several files for one problem: none was compiled, so no CE (issue 32).
    if several_files > 0 {
        counts.push(format!("{several_files} with several files"));
    }
    // The class's pairs with no hand-in, and those an interrupt left
    // ungraded, are counted too (issue #32): a summary that omits them
    // reads as a whole class that handed everything in.
    if !grade.missing.is_empty() {
        counts.push(format!("{} missing", grade.missing.len()));
    }
    if !grade.not_graded.is_empty() {
        counts.push(format!("{} not graded", grade.not_graded.len()));
    }
    let mut out = format!(
        "{}{} submissions: {}\n",
        if grade.interrupted {
            "partial (interrupted): "
        } else {
            ""
        },
        grade.rows.len(),
        if counts.is_empty() {
            "none".to_owned()
        } else {
            counts.join(", ")
        }
    );
    if let Some(agreement) = &grade.agreement {
        let _ = writeln!(out, "{agreement}");
    }
    out
}

/// The lines `judge grade` says on stderr after its table: each result's
/// warnings, why a judge error is no student's fault (issue #8: a missing
/// compiler), and each example whose verdict disagrees with its folder.
pub(crate) fn grade_messages(grade: &GradeView<'_>) -> Vec<String> {
    let mut lines: Vec<String> = host_load_warning(grade.rows.iter().map(|graded| graded.result()))
        .into_iter()
        .collect();
    for graded in grade.rows {
        for warning in graded.warnings() {
            lines.push(format!("warning: {warning}"));
        }
    }
    for graded in grade.rows {
        let result = graded.result();
        if result.compile.verdict == Some(Verdict::JudgeError) {
            lines.push(format!(
                "{}: {}: JE: {}",
                // A toolchain missing for this user is the host's setup,
                // not the judge failing (issue 32).
                if result.compile.toolchain_missing {
                    "warning"
                } else {
                    "error"
                },
                visible_name(&result.submission),
                visible(result.compile.message.trim_end())
            ));
        }
    }
    lines.extend(
        grade
            .rows
            .iter()
            .filter_map(|graded| graded.expectation()?.disagreement),
    );
    lines
}

/// The one warning of a grade or a run whose tests the host starved
/// (issue 32): how many were run again alone, and how many stayed starved
/// (TLE, their message saying so). `None` when the host starved none.
pub(crate) fn host_load_warning<'a>(
    results: impl Iterator<Item = &'a SubmissionResult>,
) -> Option<String> {
    let tests: Vec<_> = results.flat_map(|result| &result.tests).collect();
    let rerun = tests.iter().filter(|test| test.rerun).count();
    let overloaded = tests
        .iter()
        .filter(|test| {
            test.verdict == Verdict::TimeLimitExceeded
                && test.message.starts_with(crate::runner::HOST_OVERLOADED)
        })
        .count();
    if rerun == 0 && overloaded == 0 {
        return None;
    }
    let mut line = format!(
        "warning: the host was busy: {rerun} test(s) that waited for a CPU were run again alone"
    );
    if overloaded > 0 {
        let _ = write!(
            line,
            "; {overloaded} still waited for one and stay TLE (their message says the host was \
             busy): grade them again on a quieter host"
        );
    }
    Some(line)
}

/// The line for an example whose verdict is not its folder's, e.g.
/// `submissions/rooks/accepted/x.py: expected AC, got WA (test small-003: board 2: expected 5, got 4)`;
/// `folder` names `verdict` (or none), and `agrees` is the grading
/// layer's decision whether `result` met it.
pub(crate) fn render_disagreement(
    result: &SubmissionResult,
    folder: &str,
    verdict: Option<Verdict>,
    agrees: bool,
) -> Option<String> {
    if agrees {
        return None;
    }
    let Some(verdict) = verdict else {
        return Some(format!(
            "{}: the folder `{}` names no verdict; known: {}",
            result.submission,
            folder,
            crate::discovery::verdict_folder_names()
        ));
    };
    if verdict == result.verdict {
        return None;
    }
    let first_line = |text: &str| text.lines().next().unwrap_or("").trim().to_owned();
    let why = if result.compile.verdict.is_some() {
        Some(format!("compile: {}", first_line(&result.compile.message)))
    } else {
        result
            .tests
            .iter()
            .find(|test| !test.verdict.is_accepted())
            .map(|test| match first_line(&test.message) {
                message if message.is_empty() => format!("test {}", visible_name(&test.name)),
                message => format!("test {}: {message}", visible_name(&test.name)),
            })
    };
    Some(match why {
        Some(why) => format!(
            "{}: expected {verdict}, got {} ({why})",
            result.submission, result.verdict
        ),
        None => format!(
            "{}: expected {verdict}, got {}",
            result.submission, result.verdict
        ),
    })
}

/// Green for AC, red otherwise; in layout `expected`, green when the example
/// got its folder's verdict and red when not.
fn verdict_colour(verdict: Verdict, agrees: Option<bool>) -> &'static str {
    match (agrees, verdict) {
        (Some(true), _) | (None, Verdict::Accepted) => "32",
        (None, Verdict::JudgeError) => "35",
        _ => "31",
    }
}

fn paint(text: &str, code: &str) -> String {
    format!("\u{1b}[{code}m{text}\u{1b}[0m")
}

/// What a command stopped before any test ran was doing, for the line
/// that says so: `while loading the package`.
pub(crate) fn while_doing(doing: BeforeTests) -> &'static str {
    match doing {
        BeforeTests::ComparingHandIns => "while comparing the hand-ins for `--similarity`",
        BeforeTests::FindingHandIns => "while finding the hand-ins",
        BeforeTests::BuildingData => "while building `data/` from `generators/generators.yaml`",
        BeforeTests::LoadingPackage => "while loading the package",
        BeforeTests::ValidatingTests => "while checking the `--tests` inputs",
        BeforeTests::DerivingTimeLimit => "while deriving the time limit",
    }
}

/// [`while_doing`] for a grade of `problems` problems: a class of several
/// loads several packages (`while loading the packages`).
pub(crate) fn while_doing_of(doing: BeforeTests, problems: usize) -> &'static str {
    match doing {
        BeforeTests::LoadingPackage if problems > 1 => "while loading the packages",
        doing => while_doing(doing),
    }
}

/// What a class was doing when a signal stopped it while package `id`
/// loaded, the `place`-th of `count`: `while loading the packages: `sum`,
/// 2 of 3` (of one, as [`while_doing`] says it).
pub(crate) fn while_loading(id: &str, place: usize, count: usize) -> String {
    if count > 1 {
        format!(
            "{}: `{id}`, {place} of {count}",
            while_doing_of(BeforeTests::LoadingPackage, count)
        )
    } else {
        while_doing(BeforeTests::LoadingPackage).to_owned()
    }
}

/// What became of the reports of a grade a signal stopped before any test
/// ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ReportsLeft {
    /// None was asked for.
    NoneAsked,
    /// Each one asked for was written, saying that nothing was graded.
    Written,
    /// Some were written; the others, a resumed grade's earlier reports,
    /// were left as they were.
    SomeKept,
    /// Every one was an earlier report of a resumed grade, left as it was.
    AllKept,
}

/// The last line of a grade that a signal stopped before any test ran,
/// `doing` what the words say: nothing graded, and what became of the
/// reports (`reports`).
pub(crate) fn interrupted_before_grading(
    signal: &str,
    doing: &str,
    reports: ReportsLeft,
) -> String {
    let reports = match reports {
        ReportsLeft::NoneAsked => ", no report written",
        ReportsLeft::Written => "; each report says so",
        ReportsLeft::SomeKept => "; each report written says so, the others are left as they were",
        ReportsLeft::AllKept => "; every report is left as it was",
    };
    format!("interrupted by {signal} before grading: nothing graded{reports} ({doing})")
}

/// `judge run`'s last lines after a signal: how many were graded (and what
/// the run was doing when it came before any test ran) and which to run
/// again.
pub(crate) fn run_interrupted(
    signal: &str,
    graded: usize,
    asked: usize,
    not_graded: &[Ungraded],
    before_tests: Option<BeforeTests>,
) -> Vec<String> {
    let doing = before_tests.map_or_else(String::new, |doing| {
        format!(" (stopped before any test ran, {})", while_doing(doing))
    });
    let mut lines = vec![format!(
        "interrupted by {signal}: {graded} of {asked} submissions graded{doing}"
    )];
    if !not_graded.is_empty() {
        let names: Vec<&str> = not_graded
            .iter()
            .map(|pair| pair.submission.as_str())
            .collect();
        lines.push(format!("not graded (run them again): {}", names.join(" ")));
    }
    lines
}

/// `judge run`'s summary: the tests run and how many submissions passed.
pub(crate) fn run_summary(selection: &str, verdicts: &[Verdict]) -> String {
    let accepted = verdicts
        .iter()
        .filter(|verdict| verdict.is_accepted())
        .count();
    format!(
        "{selection}\n{accepted}/{} submissions accepted\n",
        verdicts.len()
    )
}

/// Why a grade stopped at once: its journal (`path`) could not be written.
pub(crate) fn journal_failed(grade: &GradeView<'_>, path: &Path) -> String {
    format!(
        "note: the grade stopped at once: `{}` could not be written; {} of {} pairs \
         graded, and the reports that can be written hold them",
        path.display(),
        grade.rows.len(),
        grade.rows.len() + grade.not_graded.len()
    )
}

/// What an interrupted `judge grade` says it finished, and how to go on
/// from there ([`interrupted`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Interrupted {
    /// What was graded, and, when there is a JSON report to resume from,
    /// the command that resumes.
    pub(crate) lines: Vec<String>,
    /// What to do when there is nothing to resume from, printed as every
    /// hint is (`hint: ...` after a blank line, by the printer of hints).
    pub(crate) hint: Option<Hint>,
}

/// What an interrupted `judge grade` finished, and how to go on from there
/// (`json`: where its JSON report went, if anywhere).
pub(crate) fn interrupted(grade: &GradeView<'_>, signal: &str, json: Option<&Path>) -> Interrupted {
    let total = grade.rows.len() + grade.not_graded.len();
    let mut lines = vec![format!(
        "interrupted by {signal}: {} of {total} pairs graded, {} not graded",
        grade.rows.len(),
        grade.not_graded.len()
    )];
    let hint = match json {
        Some(path) if path == Path::new("-") => Some(Hint::new(
            "save the JSON from stdout to a file and continue with `judge grade --resume FILE` \
             (with the same other options)",
        )),
        Some(path) => {
            lines.push(format!(
                "resume: `judge grade --resume {}` (with the same other options) grades only \
                 what is missing",
                path.display()
            ));
            None
        }
        None => Some(Hint::new(
            "no JSON report was asked for, so there is nothing to resume from; `--json FILE` \
             keeps one",
        )),
    };
    Interrupted { lines, hint }
}

#[cfg(test)]
mod tests {
    use super::{render_submission, visible};
    use crate::runner::{CompileResult, SubmissionResult};
    use crate::verdict::Verdict;

    /// A compile error is "compilation failed"; a language whose compiler
    /// the host lacks is the host's, and its heading says so (issue 32's
    /// review).
    #[test]
    fn a_missing_compiler_is_not_called_a_failed_compilation() {
        let mut result = SubmissionResult::fixture("rooks", "a.rs", Vec::new());
        result.compile = CompileResult::failed(Verdict::CompileError, "a.rs:1: error".to_owned());
        assert!(
            render_submission(&result).contains("  CE: compilation failed\n"),
            "{}",
            render_submission(&result)
        );
        result.compile = CompileResult::missing_toolchain(
            "language `rust`: the compiler `rustc` is not installed".to_owned(),
        );
        let shown = render_submission(&result);
        assert!(
            shown.contains("  JE: not compiled: the judging host has no compiler for it\n"),
            "{shown}"
        );
        assert!(!shown.contains("compilation failed"), "{shown}");
    }

    /// The table renders what it is handed: an interrupted pair's student
    /// as the grading layer decided it, orders by it, and shows `-` where
    /// the report recorded none; the time cell is the row's limit.
    #[test]
    fn the_grade_table_renders_the_students_it_is_handed() {
        use super::{render_grade_table, GradeView};
        use crate::report::{Row, Ungraded};
        let result = SubmissionResult::fixture("rooks", "class/carol/rooks.py", Vec::new());
        let rows: [&dyn Row; 1] = [&result];
        let pair = |student: &str, recorded: bool| Ungraded {
            problem: "rooks".to_owned(),
            submission: format!("class/{student}/rooks.py"),
            student: student.to_owned(),
            recorded,
        };
        let not_graded = [pair("bob", false), pair("alice", true)];
        let table = render_grade_table(
            &GradeView {
                layout: crate::config::judge::Layout::ProblemStudent,
                rows: &rows,
                missing: &[],
                not_graded: &not_graded,
                interrupted: true,
                agreement: None,
            },
            false,
        );
        let lines: Vec<Vec<&str>> = table
            .lines()
            .skip(1)
            .map(|line| line.split_whitespace().take(3).collect())
            .collect();
        assert_eq!(
            lines,
            [
                ["rooks", "class/alice/rooks.py", "alice"],
                ["rooks", "class/bob/rooks.py", "-"],
                ["rooks", "class/carol/rooks.py", "carol"],
            ],
            "{table}"
        );
    }

    #[test]
    fn control_characters_are_made_visible() {
        assert_eq!(
            visible("a\u{1b}[2J\u{1b}[H\rb\u{7}\tc\u{202e}d\u{9b}e"),
            "a\\x1b[2J\\x1b[H\\x0db\\x07\tc\\u{202e}d\\x9be"
        );
        assert_eq!(visible("plain é text"), "plain é text");
    }
}
