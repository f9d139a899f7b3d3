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
    /// Why the hand-in cannot be graded at all (nothing in it could be,
    /// or the grade was cut short); empty when it can.
    pub(crate) format_errors: Vec<String>,
    /// Why a problem of a gradable hand-in scored nothing without being
    /// run (no file for it, two files): said first, scored 0.
    pub(crate) notes: Vec<String>,
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
    // The student's own folder: where their graded files are (layout
    // `student/problem`), so a file is named as they handed it in, never
    // by a folder of the grader's (issue #30).
    let hand_in = input.rows.first().and_then(|row| {
        std::path::Path::new(&row.result().submission)
            .parent()
            .map(std::path::Path::to_owned)
    });
    let mut summary = Vec::new();
    let mut problems_graded = 0;
    for (index, row) in input.rows.iter().enumerate() {
        let result = row.result();
        let problem = visible_name(&result.problem);
        let max_score = super::csv::max_score(result);
        graded.max_score += max_score;
        if let Some(why) = row.not_gradable() {
            // One problem that cannot be graded costs that problem's
            // points, not the whole assignment's: the others keep theirs.
            let why = match row.handed_in() {
                [] => format!("{problem}: {}", visible(why)),
                // The grader's message names each file by the grader's
                // path; the student hears the names they handed in.
                files => format!(
                    "{problem}: {} files handed in: {}; hand in only one",
                    files.len(),
                    files
                        .iter()
                        .map(|file| format!("`{}`", in_hand_in(file, hand_in.as_deref())))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            };
            summary.push(format!("{problem}: 0.00 of {max_score:.2} (not graded)"));
            graded
                .items
                .push(ungraded_item(&problem, index + 1, max_score, &why));
            graded.notes.push(why);
            continue;
        }
        problems_graded += 1;
        let score = super::csv::score(result);
        graded.score += score;
        summary.push(format!(
            "{problem}: {score:.2} of {max_score:.2} ({})",
            result.verdict.code()
        ));
        if !result.compile.ok && !result.compile.message.is_empty() {
            summary.push(cut(&visible(&result.compile.message)));
        }
        graded.items.extend(items(result, index + 1, max_score));
    }
    for (offset, pair) in input.options.missing.iter().enumerate() {
        let problem = visible_name(&pair.problem);
        // The report holds no maximum for a problem nobody handed in: the
        // CSV's percent model, 100 points.
        let max_score = 100.0;
        graded.max_score += max_score;
        let why =
            format!("no file for problem `{problem}`: hand in one file named `{problem}.<ext>`");
        summary.push(format!("{problem}: 0.00 of {max_score:.2} (missing)"));
        let number = input.rows.len() + offset + 1;
        graded
            .items
            .push(ungraded_item(&problem, number, max_score, &why));
        graded.notes.push(why);
    }
    if input.options.interrupted {
        // A grade cut short (a platform's timeout, a signal) is no grade:
        // a score of what happened to finish would read as the real one.
        let left = input.options.not_graded.len();
        graded.format_errors.push(format!(
            "the grade was interrupted before it ended ({left} problem(s) not graded): \
             this is not a grade; submit again or ask the teacher"
        ));
    } else if problems_graded == 0 {
        // Nothing could be graded at all: no score, only why.
        graded.format_errors.append(&mut graded.notes);
    }
    if !graded.format_errors.is_empty() || !graded.notes.is_empty() {
        // Why a file was not taken (`rook.py`: did you mean `rooks`?).
        let into = if graded.format_errors.is_empty() {
            &mut graded.notes
        } else {
            &mut graded.format_errors
        };
        for ignored in &input.options.ignored {
            let relative = hand_in.as_deref().and_then(|folder| {
                std::path::Path::new(&ignored.path)
                    .strip_prefix(folder)
                    .ok()
            });
            into.push(match relative {
                Some(relative) if relative.components().count() > 1 => {
                    let depth = relative.components().count() - 1;
                    let name = relative
                        .file_name()
                        .map_or_else(String::new, |name| name.to_string_lossy().into_owned());
                    format!(
                        "`{}` was not graded: it is {} too deep; hand in `{}` at the top of \
                         the hand-in, not inside a folder",
                        visible_name(&relative.to_string_lossy()),
                        if depth == 1 {
                            "one folder".to_owned()
                        } else {
                            format!("{depth} folders")
                        },
                        visible_name(&name)
                    )
                }
                Some(relative) => format!(
                    "`{}` was not graded: {}",
                    visible_name(&relative.to_string_lossy()),
                    visible(&ignored.reason)
                ),
                None => format!(
                    "`{}` was not graded: {}",
                    visible_name(&ignored.path),
                    visible(&ignored.reason)
                ),
            });
        }
    }
    graded.summary = cut(&summary.join("\n"));
    Ok(graded)
}

/// `file` as the student names it: from the top of their hand-in, else by
/// its own name, never by the grader's folders.
fn in_hand_in(file: &str, hand_in: Option<&std::path::Path>) -> String {
    let path = std::path::Path::new(file);
    let relative = hand_in
        .and_then(|folder| path.strip_prefix(folder).ok())
        .or_else(|| path.file_name().map(std::path::Path::new))
        .unwrap_or(path);
    visible_name(&relative.to_string_lossy())
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
    let shares = shares(max_score, result.total.max(tests.len()));
    let mut items: Vec<Item> = tests
        .iter()
        .zip(&shares)
        .enumerate()
        .map(|(index, (test, &share))| Item {
            name: format!("{problem}: {}", visible_name(&test.name)),
            number: number(index + 1),
            score: if test.verdict == Verdict::Accepted {
                share
            } else {
                0.0
            },
            max_score: share,
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
            max_score: round(shares[tests.len()..].iter().sum()),
            passed: false,
            sample: false,
            output: "not run: an earlier test failed".to_owned(),
        });
    }
    items
}

/// The one item of a problem that was not graded (no file, two files):
/// 0 of its points, with the reason, which is about the student's own
/// files and shown now.
fn ungraded_item(problem: &str, problem_number: usize, max_score: f64, why: &str) -> Item {
    Item {
        name: problem.to_owned(),
        number: format!("{problem_number}.1"),
        score: 0.0,
        max_score,
        passed: false,
        sample: true,
        output: cut(why),
    }
}

/// `max_score` shared among `count` tests in hundredths that add up to it
/// exactly (the first tests take the odd hundredths), so the items of a
/// problem sum to its maximum however many tests it has.
fn shares(max_score: f64, count: usize) -> Vec<f64> {
    if count == 0 {
        return Vec::new();
    }
    // Points are far below 2^52 hundredths: the conversions are exact.
    let hundredths = (max_score * 100.0).round().max(0.0) as u64;
    let count_u64 = count as u64;
    let (each, odd) = (hundredths / count_u64, hundredths % count_u64);
    (0..count_u64)
        .map(|index| (each + u64::from(index < odd)) as f64 / 100.0)
        .collect()
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

    /// See: issue #30 (found by a review): a grade cut short by a signal
    /// or the platform's timeout wrote a score of 0 that read as real.
    #[test]
    fn an_interrupted_grade_is_not_gradable_and_says_why() {
        let options = crate::report::html::Options {
            interrupted: true,
            ..crate::report::html::Options::default()
        };
        let input = Input {
            rows: &[],
            options: &options,
            cannot_grade: &[],
        };
        let graded = graded(&input, "PrairieLearn").expect("one student");
        assert_eq!(graded.format_errors.len(), 1, "{graded:?}");
        assert!(
            graded.format_errors[0].contains("interrupted"),
            "{graded:?}"
        );
    }

    #[test]
    fn the_shares_of_a_problem_add_up_to_its_maximum() {
        for (max_score, count) in [(100.0, 7), (100.0, 6007), (30.0, 3), (0.0, 4), (50.0, 1)] {
            let shares = shares(max_score, count);
            assert_eq!(shares.len(), count);
            let hundredths: f64 = shares.iter().map(|share| (share * 100.0).round()).sum();
            assert_eq!(
                hundredths,
                (max_score * 100.0).round(),
                "{max_score} in {count}"
            );
        }
    }

    #[test]
    fn a_long_text_is_cut_at_a_character() {
        let text = "é".repeat(TEXT_LIMIT);
        let cut = cut(&text);
        assert!(cut.len() < TEXT_LIMIT + 40, "{}", cut.len());
        assert!(cut.ends_with("(cut at 4096 bytes)"));
    }
}
