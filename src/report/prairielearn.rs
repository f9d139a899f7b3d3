//! PrairieLearn's external grading `results.json` (`--prairielearn`;
//! issue #30), from PrairieLearn's "External Grading" documentation:
//! `gradable`, `score` (a fraction in [0, 1]), `message`, `output` and
//! `tests`, each with `name`, `points`, `max_points`, `message` and
//! `output`; `gradable: false` with `format_errors` (a list of strings)
//! when the hand-in cannot be graded, which PrairieLearn does not count as
//! an attempt. The file must stay under 1 MB. The items and scores are
//! [`super::platform`]'s.
//!
//! PrairieLearn shows a student everything in the file at once, so a
//! hidden test shows only what the judge's student view keeps (its
//! verdict and where it failed), never its data.

use super::platform::{self, Graded};
use super::points::{self, hundredths_text, Unit};
use super::rendering::{Input, RenderError};
use serde::Serialize;

/// PrairieLearn refuses a results file of 1 MB or more.
pub(crate) const SIZE_LIMIT: usize = 1_000_000;

/// The top level of `results.json`.
#[derive(Debug, Serialize)]
struct Results {
    gradable: bool,
    score: f64,
    message: String,
    output: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    format_errors: Vec<String>,
    tests: Vec<Test>,
}

/// One of `tests`.
#[derive(Debug, Serialize)]
struct Test {
    name: String,
    description: String,
    points: f64,
    max_points: f64,
    message: String,
    output: String,
}

/// The text of `results.json` for the one student of `input`, under
/// [`SIZE_LIMIT`]: when the tests' outputs would pass it they are left
/// out, then the tests themselves (the score and the message stay).
pub(crate) fn render(input: &Input<'_>) -> Result<String, RenderError> {
    let graded = platform::graded(input, "PrairieLearn", Unit::Hundredths)?;
    let mut results = results(graded);
    let mut text = serde_json::to_string_pretty(&results)?;
    if text.len() >= SIZE_LIMIT {
        results
            .tests
            .iter_mut()
            .for_each(|test| test.output.clear());
        results
            .output
            .push_str("\n(the tests' outputs were left out: too long)");
        text = serde_json::to_string_pretty(&results)?;
    }
    if text.len() >= SIZE_LIMIT {
        results.tests.clear();
        results
            .output
            .push_str("\n(the tests were left out: too many)");
        text = serde_json::to_string_pretty(&results)?;
    }
    if text.len() >= SIZE_LIMIT {
        // Each reason is cut to a page and the files not taken are counted
        // (`platform::graded`), so this is a backstop: the first reasons.
        let left_out = results.format_errors.len().saturating_sub(1);
        results.format_errors.truncate(1);
        if left_out > 0 {
            results
                .format_errors
                .push(format!("and {left_out} more reasons (left out: too long)"));
        }
        results.output = platform::cut(&results.output);
        text = serde_json::to_string_pretty(&results)?;
    }
    text.push('\n');
    Ok(text)
}

fn results(mut graded: Graded) -> Results {
    // A program that did not compile is PrairieLearn's own example of a
    // hand-in that cannot be graded: no attempt is used up, and the
    // compiler's message is the reason.
    let compile_errors = std::mem::take(&mut graded.compile_errors);
    graded.format_errors.extend(compile_errors);
    let gradable = graded.format_errors.is_empty();
    // From whole hundredths: `0.5714`, never a float sum's
    // `0.6470999999999999`.
    let score = if gradable {
        points::fraction(graded.score, graded.max_score)
    } else {
        0.0
    };
    let message = if gradable {
        let mut lines = vec![format!(
            "{} of {} points",
            hundredths_text(graded.score),
            hundredths_text(graded.max_score)
        )];
        lines.extend(graded.notes.iter().map(|note| format!("- {note}")));
        platform::cut(&lines.join("\n"))
    } else {
        "This hand-in cannot be graded; it does not count as an attempt.".to_owned()
    };
    let unit = graded.unit;
    Results {
        gradable,
        score,
        message,
        output: graded.summary,
        format_errors: graded.format_errors,
        tests: graded
            .items
            .into_iter()
            .map(|item| Test {
                description: if item.sample {
                    "sample".to_owned()
                } else {
                    "hidden test: its data is not shown".to_owned()
                },
                name: item.name,
                points: unit.points(item.score),
                max_points: unit.points(item.max_score),
                message: if item.passed { "passed" } else { "failed" }.to_owned(),
                output: item.output,
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Context;
    use crate::report::Row;
    use crate::runner::{SubmissionResult, TestResult};
    use crate::verdict::Verdict;

    /// See: issue #30. PrairieLearn refuses a results file of 1 MB or
    /// more: 600 samples with a 4 KiB message each (2.4 MB of words) give a
    /// file under the limit that keeps the score and every test's points.
    #[test]
    fn r30_a_results_file_stays_under_one_megabyte() {
        let tests: Vec<TestResult> = (0..600)
            .map(|index| TestResult {
                message: "x".repeat(4096),
                ..TestResult::fixture(&format!("sample-{index}"), Verdict::WrongAnswer)
            })
            .collect();
        let result = SubmissionResult::fixture("rooks", "alice/rooks.py", tests);
        let rows: [&dyn Row; 1] = [&result];
        let input = Input {
            rows: &rows,
            context: &Context::default(),
            settings: &crate::config::report::ReportSettings::default(),
            cannot_grade: &[],
        };
        let text = render(&input).expect("renders");
        assert!(text.len() < SIZE_LIMIT, "{} bytes", text.len());
        let results: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(results["gradable"], true);
        assert_eq!(results["score"], 0.0);
        assert_eq!(results["tests"].as_array().map(Vec::len), Some(600));
        assert!(results["output"]
            .as_str()
            .is_some_and(|output| output.contains("outputs were left out")));
    }
}
