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

/// The column of [`HEADER`] that holds an item's output.
const RESULT_COLUMN: usize = 4;

/// The most bytes of the grader's JSON: CodeRunner shows all of it on the
/// student's page and Moodle keeps it with every attempt, so a result
/// stays a readable page (a hand-in of 20,000 files made 5.5 MB).
pub(crate) const SIZE_LIMIT: usize = 256 * 1024;

/// The text of the grader's JSON for the one student of `input`, under
/// [`SIZE_LIMIT`]: when the rows would pass it their results are left
/// out, then the rows past it (the mark and the prologue stay).
pub(crate) fn render(input: &Input<'_>) -> Result<String, RenderError> {
    let graded = platform::graded(input, "CodeRunner", Unit::Hundredths)?;
    bounded(outcome(graded))
}

/// The text of `outcome`, under [`SIZE_LIMIT`] (see [`render`]).
fn bounded(mut outcome: Outcome) -> Result<String, RenderError> {
    let mut text = serde_json::to_string(&outcome)?;
    if text.len() >= SIZE_LIMIT {
        for row in outcome.testresults.iter_mut().skip(1) {
            if let Some(cell) = row.get_mut(RESULT_COLUMN) {
                *cell = json!("");
            }
        }
        outcome
            .epiloguehtml
            .push_str("<p>(the tests' results were left out: too long)</p>");
        text = serde_json::to_string(&outcome)?;
    }
    if text.len() >= SIZE_LIMIT {
        let rows = outcome.testresults.len();
        let mut size = text.len();
        // Room for the note that says so.
        while size + 256 >= SIZE_LIMIT && outcome.testresults.len() > 1 {
            let Some(row) = outcome.testresults.pop() else {
                break;
            };
            size = size.saturating_sub(serde_json::to_string(&row)?.len() + 1);
        }
        outcome.epiloguehtml.push_str(&format!(
            "<p>({} tests were left out: too many)</p>",
            rows - outcome.testresults.len()
        ));
        text = serde_json::to_string(&outcome)?;
    }
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
    // Why (part of) the answer cannot be graded comes first, above the
    // table, where the student reads first.
    let not_graded = if graded.notes.is_empty() {
        String::new()
    } else {
        format!("<p>Not graded:</p>{}", list(&graded.notes))
    };
    let prologuehtml = if gradable {
        format!(
            "{not_graded}<p>{} of {} points</p><pre>{}</pre>",
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
    let epiloguehtml = String::new();
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
                json!(if item.whole {
                    "the whole problem"
                } else if item.sample {
                    "sample"
                } else {
                    "hidden data"
                }),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::platform::Item;

    /// See: issue #30. Thousands of rows of a page each stay under the
    /// cap: the results go first, then the rows past it; the mark stays.
    #[test]
    fn r30_a_result_stays_under_its_cap() {
        for (count, output) in [(2000, "x".repeat(4096)), (20_000, String::new())] {
            let graded = Graded {
                score: 5000,
                max_score: 10_000,
                items: (0..count)
                    .map(|index| Item {
                        name: format!("rooks: {index:05}"),
                        number: format!("1.{index}"),
                        score: 0,
                        max_score: 1,
                        passed: false,
                        sample: false,
                        whole: false,
                        output: output.clone(),
                    })
                    .collect(),
                ..Graded::default()
            };
            let text = bounded(outcome(graded)).expect("renders");
            assert!(text.len() < SIZE_LIMIT, "{count}: {} bytes", text.len());
            let value: Value = serde_json::from_str(&text).expect("JSON");
            assert_eq!(value["fraction"], 0.5);
            assert!(value["epiloguehtml"]
                .as_str()
                .is_some_and(|epilogue| epilogue.contains("left out")));
        }
    }
}
