//! Gradescope's `results.json` (`--gradescope`; issue #30), from the
//! contract of Gradescope's "Autograder Specifications" page: a top-level
//! `score`, `output` (with `output_format`), `visibility` and
//! `stdout_visibility`, and `tests`, each with `name`, `number`, `score`,
//! `max_score`, `status` (`passed` or `failed`), `output` and
//! `visibility`. The items and scores are [`super::platform`]'s.
//!
//! Samples are `visible`; every other test (or group) is as judge.toml's
//! `[report.gradescope] hidden-tests` says (`hidden` by default: while a
//! test is `after_due_date` or `after_published` Gradescope shows the
//! student no total score), and even when shown it holds only what the
//! judge's student view keeps. The
//! judge's standard output (its table names hidden tests' messages) is
//! `hidden`. `execution_time` is left out: it is optional, and the sum of
//! the tests' times would tell what the hidden tests made a program do.
//!
//! Gradescope has no "cannot be graded" state: such a hand-in scores 0,
//! and the top-level output says why, first.

use super::platform::{self, Graded};
use super::points::Unit;
use super::rendering::{Input, RenderError};
use crate::config::report::{Declared, Kind, ReportSettings, Setting};
use serde::Serialize;

/// Gradescope's visibilities of a test, by its names, the first the
/// default: `hidden`, never shown to the student (the teacher sees them)
/// and the total score shown at once; `after_due_date`, shown once the
/// due date (and any late days) has passed; `after_published`, shown once
/// the teacher publishes the grades. Gradescope hides the student's total
/// score while any test is `after_due_date` or `after_published`.
const HIDDEN_TESTS: &[&str] = &["hidden", "after_due_date", "after_published"];

// judge.toml's `[report.gradescope]` (issue #33: declared here, checked
// as judge.toml loads by `crate::config::report`; documented for users in
// docs/configuration.md, which a test holds to this).
inventory::submit! {
    Declared {
        format: "gradescope",
        settings: &[Setting {
            key: "hidden-tests",
            kind: Kind::OneOf {
                names: HIDDEN_TESTS,
                default: "hidden",
            },
        }],
    }
}

/// `[report.gradescope] hidden-tests`: the visibility of a test that is
/// not a sample (also what `judge export --gradescope` writes into the
/// autograder's judge.toml).
pub(crate) fn hidden_tests(settings: &ReportSettings) -> &'static str {
    let named = settings.name("gradescope", "hidden-tests");
    // Checked against `HIDDEN_TESTS` as judge.toml loaded.
    HIDDEN_TESTS
        .iter()
        .copied()
        .find(|name| Some(*name) == named)
        .unwrap_or(HIDDEN_TESTS[0])
}

/// The visibility Gradescope shows an item with now.
const VISIBLE: &str = "visible";

/// The top level of `results.json`.
#[derive(Debug, Serialize)]
struct Results {
    score: f64,
    output: String,
    output_format: &'static str,
    visibility: &'static str,
    stdout_visibility: &'static str,
    tests: Vec<Test>,
}

/// One of `tests`.
#[derive(Debug, Serialize)]
struct Test {
    name: String,
    number: String,
    score: f64,
    max_score: f64,
    status: &'static str,
    output: String,
    visibility: &'static str,
}

/// The text of `results.json` for the one student of `input`.
pub(crate) fn render(input: &Input<'_>) -> Result<String, RenderError> {
    let graded = platform::graded(input, "Gradescope", Unit::Hundredths)?;
    // Gradescope's own setting, from its own table (issue #33).
    let hidden = hidden_tests(input.settings);
    let mut text = serde_json::to_string_pretty(&results(graded, hidden))?;
    text.push('\n');
    Ok(text)
}

/// The results of `graded`, a test that is not a sample with the
/// visibility `hidden`.
fn results(graded: Graded, hidden: &'static str) -> Results {
    let gradable = graded.format_errors.is_empty();
    let score = if gradable {
        graded.points(graded.score)
    } else {
        0.0
    };
    let unit = graded.unit;
    let output = if gradable && graded.notes.is_empty() {
        graded.summary
    } else if gradable {
        let mut lines = vec!["Part of this hand-in could not be graded:".to_owned()];
        lines.extend(graded.notes.iter().map(|note| format!("- {note}")));
        lines.push(graded.summary);
        platform::cut(&lines.join("\n"))
    } else {
        let mut lines = vec!["This hand-in cannot be graded:".to_owned()];
        lines.extend(
            graded
                .format_errors
                .iter()
                .map(|error| format!("- {error}")),
        );
        if !graded.summary.is_empty() {
            lines.push(graded.summary);
        }
        platform::cut(&lines.join("\n"))
    };
    Results {
        score,
        output,
        output_format: "text",
        visibility: VISIBLE,
        stdout_visibility: "hidden",
        tests: graded
            .items
            .into_iter()
            .map(|item| Test {
                name: item.name,
                number: item.number,
                score: if gradable {
                    unit.points(item.score)
                } else {
                    0.0
                },
                max_score: unit.points(item.max_score),
                status: if item.passed { "passed" } else { "failed" },
                output: item.output,
                visibility: if item.sample { VISIBLE } else { hidden },
            })
            .collect(),
    }
}
