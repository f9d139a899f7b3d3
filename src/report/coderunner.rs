//! Moodle CodeRunner's combinator template grader JSON (`--coderunner`;
//! issue #30), from CodeRunner's documentation ("Combinator-template
//! grading") and the fields its combinator grader outcome allows:
//! `fraction` (the mark, 0 to 1), `prologuehtml` and `epiloguehtml` (HTML
//! before and after the result table), `testresults` (a table: a header
//! row, then a row per test; an `iscorrect` column shows a tick for 1 and a
//! cross for 0), `columnformats` (`%s` for text a column shows as it is;
//! one per column other than `iscorrect` and `ishidden`, which CodeRunner
//! draws itself and does not count, so one more format and it rejects the
//! whole result) and `showdifferences`. The items and scores are [`super::platform`]'s.
//!
//! A CodeRunner question shows the student the whole table at once, so a
//! hidden test's row says only what the judge's student view keeps (its
//! verdict and where it failed), never its data.

use super::html::escape;
use super::platform::{self, Graded};
use super::points::{self, hundredths_text, Unit};
use super::rendering::{Input, RenderError};
use serde::Serialize;
use serde_json::{json, Value};

/// The combinator grader's result.
#[derive(Debug, Serialize)]
struct Outcome {
    fraction: f64,
    prologuehtml: String,
    testresults: Vec<Vec<Value>>,
    columnformats: Vec<&'static str>,
    epiloguehtml: String,
    showdifferences: bool,
}

/// The result table's header row.
const HEADER: [&str; 5] = ["iscorrect", "Test", "Mark", "Shown", "Result"];

/// The text of the grader's JSON for the one student of `input`.
pub(crate) fn render(input: &Input<'_>) -> Result<String, RenderError> {
    let graded = platform::graded(input, "CodeRunner", Unit::Hundredths)?;
    let mut text = serde_json::to_string(&outcome(graded))?;
    text.push('\n');
    Ok(text)
}

fn outcome(graded: Graded) -> Outcome {
    let gradable = graded.format_errors.is_empty();
    let fraction = if gradable {
        points::fraction(graded.score, graded.max_score)
    } else {
        0.0
    };
    let prologuehtml = if gradable {
        format!(
            "<p>{} of {} points</p><pre>{}</pre>",
            hundredths_text(graded.score),
            hundredths_text(graded.max_score),
            escape(&graded.summary)
        )
    } else {
        format!(
            "<p>This answer cannot be graded:</p>{}",
            list(&graded.format_errors)
        )
    };
    let epiloguehtml = if graded.notes.is_empty() {
        String::new()
    } else {
        format!("<p>Not graded:</p>{}", list(&graded.notes))
    };
    let mut testresults = vec![HEADER.iter().map(|cell| json!(cell)).collect()];
    if gradable {
        testresults.extend(graded.items.into_iter().map(|item| {
            vec![
                json!(u8::from(item.passed)),
                json!(item.name),
                json!(format!(
                    "{} / {}",
                    hundredths_text(item.score),
                    hundredths_text(item.max_score)
                )),
                json!(if item.sample { "sample" } else { "hidden data" }),
                json!(item.output),
            ]
        }));
    }
    Outcome {
        fraction,
        prologuehtml,
        testresults,
        columnformats: vec!["%s"; formatted_columns()],
        epiloguehtml,
        showdifferences: false,
    }
}

/// How many columns of [`HEADER`] take a format: CodeRunner's check of a
/// result table skips `iscorrect` and `ishidden`.
fn formatted_columns() -> usize {
    HEADER
        .iter()
        .filter(|column| !matches!(**column, "iscorrect" | "ishidden"))
        .count()
}

/// `lines` as an HTML list, escaped.
fn list(lines: &[String]) -> String {
    let items: String = lines
        .iter()
        .map(|line| format!("<li>{}</li>", escape(line)))
        .collect();
    format!("<ul>{items}</ul>")
}
