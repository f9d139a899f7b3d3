//! `judge report NEW --baseline OLD`: what changed between two saved JSON
//! reports, pair by pair, and whether anything regressed (issue #32, item
//! 8: the comparison a CI job gates on). It runs nothing: verdicts and
//! scores are the reports' own.
//!
//! A pair is a (problem, student) of the report (the student as the
//! layout names them; `judge run`'s, from the file name). When a report
//! holds two hand-ins of one student for one problem (two examples of one
//! name in different verdict folders), those pairs are told apart by their
//! submission path as well.
//!
//! The decision, in this order, for a pair of both reports:
//! - *regressed*: something that passed in the baseline does not now: the
//!   pair passed (AC; the verdict its folder names) and does not, its
//!   score is lower, or a test AC in both reports' runs is not AC now;
//! - *improved*: not regressed, and the pair passes where it did not, its
//!   score is higher, or a test that failed is AC now;
//! - *changed*: neither, but the verdict differs (WA to TLE at one score);
//! - *unchanged* otherwise.
//!
//! An example judged by its folder (layout `expected`, `grade --package`)
//! passes by getting its folder's verdict: only that decides regressed and
//! improved (a `wrong_answer/` example that fails one more test has not
//! regressed); its tests are still listed.
//!
//! A pair of the baseline only is *not graded* when the new report is
//! partial and names it so, else *removed*; either is a regression when the
//! pair passed or scored in the baseline (nothing now shows that it
//! still does). A pair of the new report only is *added*, never a
//! regression: the baseline says nothing about it (the new report's own
//! exit, without `--baseline`, does).

use super::graded::score_percent;
use super::saved::Saved;
use crate::exit::Outcome;
use crate::report::human::visible_name;
use crate::report::Row;
use crate::verdict::Verdict;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// What a saved report is of, for [`refuse_other_kinds`]: examples judged
/// by their folders (layout `expected`, `grade --package`), a class (the
/// layouts by student), or `judge run`'s submissions.
fn kind(saved: &Saved) -> &'static str {
    match saved {
        Saved::Grade(report) if report.layout == crate::config::judge::Layout::Expected => {
            "examples judged by their verdict folders (layout `expected` or `grade --package`)"
        }
        Saved::Grade(_) => "a class (layout `student/problem` or `problem/student`)",
        Saved::Run(_) => "`judge run`",
    }
}

/// Refuses to compare two reports of different kinds (issue 32): an
/// `expected` report's pairs are examples in verdict folders, a class
/// report's are students, so every pair of one would read as removed and
/// every pair of the other as added, and the regressions counted would be
/// noise a CI job gates on.
pub(crate) fn refuse_other_kinds(
    baseline: &Saved,
    baseline_name: &str,
    report: &Saved,
    report_name: &str,
) -> Result<(), super::GradingError> {
    let (old, new) = (kind(baseline), kind(report));
    if old == new {
        return Ok(());
    }
    Err(super::usage::UsageError::OtherKinds {
        report: report_name.to_owned(),
        baseline: baseline_name.to_owned(),
        new,
        old,
    }
    .into())
}

/// The version of the comparison's JSON (`--changes`).
pub(crate) const CHANGES_VERSION: u32 = 1;

/// What happened to one pair ([`Comparison::pairs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Change {
    Regressed,
    NotGraded,
    Removed,
    Improved,
    Changed,
    Added,
    Unchanged,
}

impl Change {
    /// The word the lines and the summary use.
    fn word(self) -> &'static str {
        match self {
            Change::Regressed => "regressed",
            Change::NotGraded => "not graded",
            Change::Removed => "removed",
            Change::Improved => "improved",
            Change::Changed => "changed",
            Change::Added => "added",
            Change::Unchanged => "unchanged",
        }
    }
}

/// One side of a pair: what a report says of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct Side {
    pub(crate) submission: String,
    pub(crate) verdict: Verdict,
    /// In percent, as the gradebook shows it.
    pub(crate) score: u32,
    /// AC, or the verdict its folder names (layout `expected`).
    pub(crate) passed: bool,
}

/// One pair whose result is not the baseline's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(crate) struct PairChange {
    pub(crate) problem: String,
    pub(crate) student: String,
    pub(crate) change: Change,
    /// Whether this change is a regression (the exit code's 1).
    pub(crate) regression: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) before: Option<Side>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) after: Option<Side>,
    /// Tests AC in the baseline and not now.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) newly_failing: Vec<String>,
    /// Tests not AC in the baseline and AC now.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) newly_passing: Vec<String>,
}

/// The comparison of a report with its baseline.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct Comparison {
    pub(crate) version: u32,
    pub(crate) baseline: String,
    pub(crate) report: String,
    /// The new report is partial (interrupted).
    pub(crate) partial: bool,
    /// How many pairs of each kind, unchanged ones included.
    pub(crate) counts: BTreeMap<Change, usize>,
    /// How many pairs regressed.
    pub(crate) regressions: usize,
    /// Every pair that is not unchanged, by problem, then student.
    pub(crate) pairs: Vec<PairChange>,
    /// A judge error in the new report: the judge failed, whatever changed.
    #[serde(skip)]
    judge_error: bool,
}

/// A pair's key: problem, student, and the submission when the student has
/// two of the problem in one report.
type Key = (String, String, Option<String>);

/// The rows of a report by key.
fn keyed<'a>(rows: &[&'a dyn Row]) -> BTreeMap<Key, &'a dyn Row> {
    let mut seen: BTreeMap<(String, String), usize> = BTreeMap::new();
    for row in rows {
        *seen
            .entry((row.result().problem.clone(), row.student()))
            .or_default() += 1;
    }
    rows.iter()
        .map(|row| {
            let pair = (row.result().problem.clone(), row.student());
            let twice = seen.get(&pair).is_some_and(|count| *count > 1);
            let submission = twice.then(|| row.result().submission.clone());
            ((pair.0, pair.1, submission), *row)
        })
        .collect()
}

fn side(row: &dyn Row) -> Side {
    Side {
        submission: row.result().submission.clone(),
        verdict: row.result().verdict,
        score: score_percent(row.result()),
        passed: Saved::passed(row),
    }
}

/// Tests AC in `before` and not in `after` (newly failing), and the other
/// way (newly passing), among the tests both ran, in `after`'s order.
fn test_changes(before: &dyn Row, after: &dyn Row) -> (Vec<String>, Vec<String>) {
    let earlier: BTreeMap<&str, bool> = before
        .result()
        .tests
        .iter()
        .map(|test| (test.name.as_str(), test.verdict.is_accepted()))
        .collect();
    let (mut failing, mut passing) = (Vec::new(), Vec::new());
    for test in &after.result().tests {
        match (earlier.get(test.name.as_str()), test.verdict.is_accepted()) {
            (Some(true), false) => failing.push(test.name.clone()),
            (Some(false), true) => passing.push(test.name.clone()),
            _ => {}
        }
    }
    (failing, passing)
}

/// The decision of the module doc for a pair of both reports. An example
/// judged by its folder (`by_folder`: layout `expected`, `grade
/// --package`) passes by getting its folder's verdict, whatever its score
/// and tests: a `wrong_answer/` example failing another test has not
/// regressed.
fn decide(
    before: &Side,
    after: &Side,
    by_folder: bool,
    failing: &[String],
    passing: &[String],
) -> Change {
    let (lower, higher) = if by_folder {
        (false, false)
    } else {
        (
            after.score < before.score || !failing.is_empty(),
            after.score > before.score || !passing.is_empty(),
        )
    };
    if (before.passed && !after.passed) || lower {
        Change::Regressed
    } else if (!before.passed && after.passed) || higher {
        Change::Improved
    } else if before.verdict != after.verdict {
        Change::Changed
    } else {
        Change::Unchanged
    }
}

/// Compares `report` (at `report_name`) with `baseline` (at
/// `baseline_name`).
pub(crate) fn compare(
    baseline: &Saved,
    baseline_name: &str,
    report: &Saved,
    report_name: &str,
) -> Comparison {
    let old_rows = baseline.rows();
    let new_rows = report.rows();
    let old = keyed(&old_rows);
    let new = keyed(&new_rows);
    let not_graded: BTreeSet<(String, String)> = report
        .not_graded()
        .into_iter()
        .map(|pair| (pair.problem, pair.student))
        .collect();
    let keys: BTreeSet<&Key> = old.keys().chain(new.keys()).collect();
    let mut pairs = Vec::new();
    let mut counts: BTreeMap<Change, usize> = BTreeMap::new();
    for key in keys {
        let (problem, student, _) = key;
        let before = old.get(key).map(|row| (side(*row), *row));
        let after = new.get(key).map(|row| (side(*row), *row));
        let (change, regression, failing, passing) = match (&before, &after) {
            (Some((before, old_row)), Some((after, new_row))) => {
                let (failing, passing) = test_changes(*old_row, *new_row);
                let by_folder = old_row.expectation().is_some() || new_row.expectation().is_some();
                let change = decide(before, after, by_folder, &failing, &passing);
                (change, change == Change::Regressed, failing, passing)
            }
            (Some((before, _)), None) => {
                let change = if not_graded.contains(&(problem.clone(), student.clone())) {
                    Change::NotGraded
                } else {
                    Change::Removed
                };
                let lost = before.passed || before.score > 0;
                (change, lost, Vec::new(), Vec::new())
            }
            (None, Some(_)) => (Change::Added, false, Vec::new(), Vec::new()),
            (None, None) => continue,
        };
        *counts.entry(change).or_default() += 1;
        if change != Change::Unchanged {
            pairs.push(PairChange {
                problem: problem.clone(),
                student: student.clone(),
                change,
                regression,
                before: before.map(|(side, _)| side),
                after: after.map(|(side, _)| side),
                newly_failing: failing,
                newly_passing: passing,
            });
        }
    }
    Comparison {
        version: CHANGES_VERSION,
        baseline: baseline_name.to_owned(),
        report: report_name.to_owned(),
        partial: report.interrupted(),
        regressions: pairs.iter().filter(|pair| pair.regression).count(),
        counts,
        pairs,
        judge_error: new_rows.iter().any(|row| row.result().judge_failed()),
    }
}

impl Comparison {
    /// JE in the new report is the judge failing (as for `judge grade`);
    /// else success when nothing regressed, failure when something did.
    pub(crate) fn outcome(&self) -> Outcome {
        Outcome::of(self.judge_error, self.regressions == 0)
    }

    /// One line per pair that changed, then the summary line.
    pub(crate) fn lines(&self) -> Vec<String> {
        let shown = |side: &Side| format!("{} {}%", side.verdict, side.score);
        let mut lines: Vec<String> = self
            .pairs
            .iter()
            .map(|pair| {
                let mut line = format!(
                    "{}: {} {}",
                    pair.change.word(),
                    visible_name(&pair.problem),
                    visible_name(&pair.student)
                );
                match (&pair.before, &pair.after) {
                    (Some(before), Some(after)) => {
                        let _ = write!(line, ": {} -> {}", shown(before), shown(after));
                    }
                    (Some(before), None) => {
                        let _ = write!(line, ": was {}", shown(before));
                    }
                    (None, Some(after)) => {
                        let _ = write!(line, ": {}", shown(after));
                    }
                    (None, None) => {}
                }
                if !pair.newly_failing.is_empty() {
                    let _ = write!(
                        line,
                        "; newly failing: {}",
                        visible_name(&pair.newly_failing.join(", "))
                    );
                }
                if !pair.newly_passing.is_empty() {
                    let _ = write!(
                        line,
                        "; newly passing: {}",
                        visible_name(&pair.newly_passing.join(", "))
                    );
                }
                line
            })
            .collect();
        lines.push(self.summary());
        lines
    }

    /// `compared with `base.json`: 1 regressed, 2 unchanged; no regression`.
    fn summary(&self) -> String {
        let counts: Vec<String> = self
            .counts
            .iter()
            .map(|(change, count)| format!("{count} {}", change.word()))
            .collect();
        let verdict = match self.regressions {
            0 => "no regression".to_owned(),
            1 => "1 regression".to_owned(),
            many => format!("{many} regressions"),
        };
        format!(
            "{}compared with `{}`: {}; {verdict}",
            if self.partial {
                "partial (interrupted): "
            } else {
                ""
            },
            visible_name(&self.baseline),
            if counts.is_empty() {
                "no pairs".to_owned()
            } else {
                counts.join(", ")
            }
        )
    }

    /// The comparison as JSON (`--changes`), pretty-printed, ending with a
    /// newline.
    pub(crate) fn json(&self) -> Result<String, serde_json::Error> {
        let mut text = serde_json::to_string_pretty(self)?;
        text.push('\n');
        Ok(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    fn side(verdict: Verdict, score: u32, passed: bool) -> Side {
        Side {
            submission: "s/rooks/a.py".to_owned(),
            verdict,
            score,
            passed,
        }
    }

    const AC: Verdict = Verdict::Accepted;
    const WA: Verdict = Verdict::WrongAnswer;
    const TLE: Verdict = Verdict::TimeLimitExceeded;
    const RE: Verdict = Verdict::RuntimeError;

    #[test_case((AC, 100, true), (WA, 50, false), &[], &[], Change::Regressed ; "an accepted pair that fails regressed")]
    #[test_case((WA, 50, false), (WA, 40, false), &[], &[], Change::Regressed ; "a lower score regressed")]
    #[test_case((WA, 50, false), (WA, 50, false), &["3"], &["4"], Change::Regressed ; "a test that fails now regressed even when another passes")]
    #[test_case((WA, 40, false), (AC, 100, true), &[], &["3"], Change::Improved ; "a pair that passes now improved")]
    #[test_case((WA, 40, false), (WA, 50, false), &[], &[], Change::Improved ; "a higher score improved")]
    #[test_case((WA, 0, false), (TLE, 0, false), &[], &[], Change::Changed ; "another verdict at the same score changed")]
    #[test_case((AC, 100, true), (AC, 100, true), &[], &[], Change::Unchanged ; "the same is unchanged")]
    fn decides_each_pair(
        before: (Verdict, u32, bool),
        after: (Verdict, u32, bool),
        failing: &[&str],
        passing: &[&str],
        expected: Change,
    ) {
        decides(before, after, false, failing, passing, expected);
    }

    #[test_case((WA, 50, true), (WA, 25, true), &["3"], &[], Change::Unchanged ; "a wrong answer example failing more tests is unchanged")]
    #[test_case((WA, 50, true), (TLE, 50, false), &[], &[], Change::Regressed ; "an example off its folder regressed")]
    #[test_case((AC, 50, false), (WA, 50, true), &[], &[], Change::Improved ; "an example back in its folder improved")]
    #[test_case((WA, 50, true), (RE, 50, true), &[], &[], Change::Changed ; "another verdict its folder accepts changed")]
    fn decides_each_example_by_its_folder(
        before: (Verdict, u32, bool),
        after: (Verdict, u32, bool),
        failing: &[&str],
        passing: &[&str],
        expected: Change,
    ) {
        decides(before, after, true, failing, passing, expected);
    }

    fn decides(
        before: (Verdict, u32, bool),
        after: (Verdict, u32, bool),
        by_folder: bool,
        failing: &[&str],
        passing: &[&str],
        expected: Change,
    ) {
        let names = |names: &[&str]| {
            names
                .iter()
                .map(|name| (*name).to_owned())
                .collect::<Vec<_>>()
        };
        let before = side(before.0, before.1, before.2);
        let after = side(after.0, after.1, after.2);
        assert_eq!(
            decide(&before, &after, by_folder, &names(failing), &names(passing)),
            expected
        );
    }
}
