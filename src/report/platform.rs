//! What the platform renderers (Gradescope, PrairieLearn; issue #30) share:
//! one student's grade as scored items, each visible to the student now
//! (samples only) or later, with nothing of a hidden test's data in it.
//!
//! The score model is the CSV gradebook's ([`super::csv::score`]): with
//! test groups, the package's groups and points (an item per top-level
//! group); else the percent of tests passed, an item per test worth its
//! share of 100. A hand-in that cannot be graded (no file, a misnamed
//! file, two files for one problem, an unreadable file) is a format error,
//! never a score of 0 that looks like a wrong answer.

use super::rendering::{Input, RenderError};
use super::visible::{visible, visible_name};
use super::{hide_test_data, is_sample, Row};
use crate::runner::{GroupScore, SubmissionResult, TestResult};
use crate::verdict::Verdict;

/// The most of one text (an item's output, the summary) a platform file
/// holds: PrairieLearn refuses results over 1 MB, and a page of output per
/// test helps nobody.
pub(crate) const TEXT_LIMIT: usize = 4096;

/// One student's grade, ready for a platform's file.
#[derive(Debug, Default)]
pub(crate) struct Graded {
    /// The sum of the problems' scores, and of their maxima.
    pub(crate) score: f64,
    pub(crate) max_score: f64,
    /// Per problem: its score of its maximum and verdict, its compile
    /// message when it did not compile.
    pub(crate) summary: String,
    pub(crate) items: Vec<Item>,
    /// Why the hand-in cannot be graded; empty when it can.
    pub(crate) format_errors: Vec<String>,
}

/// A scored part of the grade: a test, or a top-level test group.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Item {
    pub(crate) name: String,
    /// `1.3`: the problem's number, then the item's.
    pub(crate) number: String,
    pub(crate) score: f64,
    pub(crate) max_score: f64,
    pub(crate) passed: bool,
    /// Only samples (every test of a group a sample) are shown before the
    /// due date.
    pub(crate) sample: bool,
    pub(crate) output: String,
}

/// The grade of the one student of `input`; a report of several students
/// is refused (a platform's file is one student's).
pub(crate) fn graded(input: &Input<'_>, platform: &str) -> Result<Graded, RenderError> {
    let mut students: Vec<String> = input.rows.iter().map(|row| row.student()).collect();
    students.extend(
        input
            .options
            .missing
            .iter()
            .map(|pair| pair.student.clone()),
    );
    students.sort();
    students.dedup();
    if students.len() > 1 {
        return Err(RenderError::Platform(format!(
            "a {platform} results file is one student's, and this grade holds {} students ({}); \
             grade one student's hand-in",
            students.len(),
            students
                .iter()
                .map(|student| visible_name(student))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let mut graded = Graded {
        format_errors: input.cannot_grade.iter().map(|why| visible(why)).collect(),
        ..Graded::default()
    };
    let mut summary = Vec::new();
    for (index, row) in input.rows.iter().enumerate() {
        let result = row.result();
        let problem = visible_name(&result.problem);
        if let Some(why) = row.not_gradable() {
            graded
                .format_errors
                .push(format!("{problem}: {}", visible(why)));
            continue;
        }
        let score = super::csv::score(result);
        let max_score = super::csv::max_score(result);
        graded.score += score;
        graded.max_score += max_score;
        summary.push(format!(
            "{problem}: {score:.2} of {max_score:.2} ({})",
            result.verdict.code()
        ));
        if !result.compile.ok && !result.compile.message.is_empty() {
            summary.push(cut(&visible(&result.compile.message)));
        }
        graded.items.extend(items(result, index + 1, max_score));
    }
    for pair in &input.options.missing {
        graded.format_errors.push(format!(
            "no file for problem `{}`: hand in one file named `{}.<ext>`",
            visible_name(&pair.problem),
            visible_name(&pair.problem)
        ));
    }
    if !graded.format_errors.is_empty() {
        // Why a file was not taken (`rook.py`: did you mean `rooks`?).
        for ignored in &input.options.ignored {
            graded.format_errors.push(format!(
                "`{}` was not graded: {}",
                visible_name(&ignored.path),
                visible(&ignored.reason)
            ));
        }
    }
    graded.summary = cut(&summary.join("\n"));
    Ok(graded)
}

/// The items of one problem's result, numbered `problem.item`.
fn items(result: &SubmissionResult, problem_number: usize, max_score: f64) -> Vec<Item> {
    let problem = visible_name(&result.problem);
    let tests: Vec<TestResult> = result
        .tests
        .iter()
        .cloned()
        .map(|mut test| {
            hide_test_data(&mut test);
            test
        })
        .collect();
    let number = |item: usize| format!("{problem_number}.{item}");
    let groups = top_level(&result.groups);
    if result.score.is_some() && !groups.is_empty() {
        return groups
            .iter()
            .enumerate()
            .map(|(index, group)| {
                let lines: Vec<String> = group
                    .tests
                    .iter()
                    .map(|name| match tests.iter().find(|test| &test.name == name) {
                        Some(test) => test_line(test),
                        None => format!("{}: not run", visible_name(name)),
                    })
                    .collect();
                Item {
                    name: format!("{problem}: {}", visible_name(&group.name)),
                    number: number(index + 1),
                    score: group.score.rounded(),
                    max_score: group.max_score.rounded(),
                    passed: group.verdict == Verdict::Accepted,
                    sample: !group.tests.is_empty() && group.tests.iter().all(|t| is_sample(t)),
                    output: cut(&lines.join("\n")),
                }
            })
            .collect();
    }
    if result.total == 0 || tests.is_empty() {
        // Not compiled (or no tests): one item, the whole problem, whose
        // output is the compiler's message (the student's own program).
        return vec![Item {
            name: problem.clone(),
            number: number(1),
            score: super::csv::score(result),
            max_score,
            passed: result.verdict == Verdict::Accepted,
            sample: true,
            output: cut(&format!(
                "{}: {}",
                result.verdict.code(),
                visible(&result.compile.message)
            )),
        }];
    }
    // Counts of tests are far below 2^52: the division is exact enough.
    let share = max_score / result.total as f64;
    let mut items: Vec<Item> = tests
        .iter()
        .enumerate()
        .map(|(index, test)| Item {
            name: format!("{problem}: {}", visible_name(&test.name)),
            number: number(index + 1),
            score: if test.verdict == Verdict::Accepted {
                round(share)
            } else {
                0.0
            },
            max_score: round(share),
            passed: test.verdict == Verdict::Accepted,
            sample: is_sample(&test.name),
            output: cut(&test_line(test)),
        })
        .collect();
    let not_run = result.total.saturating_sub(tests.len());
    if not_run > 0 {
        items.push(Item {
            name: format!("{problem}: {not_run} test(s) not run"),
            number: number(tests.len() + 1),
            score: 0.0,
            max_score: round(share * not_run as f64),
            passed: false,
            sample: false,
            output: "not run: an earlier test failed".to_owned(),
        });
    }
    items
}

/// A test as its item's output says it: for a hidden test, only what the
/// student view keeps ([`hide_test_data`]: the verdict and where it
/// failed, never the expected value, a figure of the input or a package
/// program's words).
fn test_line(test: &TestResult) -> String {
    let name = visible_name(&test.name);
    let verdict = test.verdict.code();
    let said = match test.verdict {
        // The judge's own wording, cut by `hide_test_data` for a hidden
        // test.
        Verdict::Accepted
        | Verdict::WrongAnswer
        | Verdict::PresentationError
        | Verdict::RuntimeError
        | Verdict::TimeLimitExceeded => test.message.clone(),
        // Another verdict's message may hold a checker's or an
        // interactor's words: a sample's only.
        _ if is_sample(&test.name) => test.message.clone(),
        _ => String::new(),
    };
    if said.is_empty() {
        format!("{name}: {verdict}")
    } else {
        format!("{name}: {verdict} ({})", visible(&said))
    }
}

/// The groups right below the root: a group is depth first after the
/// group that holds it, and holds every test of it.
fn top_level(groups: &[GroupScore]) -> Vec<&GroupScore> {
    let mut top: Vec<&GroupScore> = Vec::new();
    for (index, group) in groups.iter().enumerate() {
        let inside = groups[..index]
            .iter()
            .any(|outer| group.tests.iter().all(|test| outer.tests.contains(test)));
        if !inside {
            top.push(group);
        }
    }
    top
}

fn round(points: f64) -> f64 {
    (points * 100.0).round() / 100.0
}

/// `text` cut to [`TEXT_LIMIT`] bytes at a character's boundary, saying so.
pub(crate) fn cut(text: &str) -> String {
    if text.len() <= TEXT_LIMIT {
        return text.to_owned();
    }
    let mut end = TEXT_LIMIT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}\n... (cut at {TEXT_LIMIT} bytes)", &text[..end])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::Points;

    fn group(name: &str, tests: &[&str], score: f64) -> GroupScore {
        GroupScore {
            name: name.to_owned(),
            score: Points(score),
            max_score: Points(50.0),
            verdict: Verdict::Accepted,
            tests: tests.iter().map(|test| (*test).to_owned()).collect(),
        }
    }

    #[test]
    fn the_items_of_a_grouped_problem_are_its_top_level_groups() {
        let groups = [
            group("sample", &["sample-1"], 0.0),
            group("secret", &["a", "b", "c"], 50.0),
            group("secret/g1", &["a", "b"], 20.0),
            group("secret/g2", &["c"], 30.0),
        ];
        let names: Vec<&str> = top_level(&groups)
            .iter()
            .map(|group| group.name.as_str())
            .collect();
        assert_eq!(names, ["sample", "secret"]);
    }

    #[test]
    fn a_long_text_is_cut_at_a_character() {
        let text = "é".repeat(TEXT_LIMIT);
        let cut = cut(&text);
        assert!(cut.len() < TEXT_LIMIT + 40, "{}", cut.len());
        assert!(cut.ends_with("(cut at 4096 bytes)"));
    }
}
