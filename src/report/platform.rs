//! What the platform renderers (Gradescope, PrairieLearn; issue #30) share:
//! one student's grade as scored items, each visible to the student now
//! (samples only) or later, with nothing of a hidden test's data in it.
//!
//! The score model is the CSV gradebook's and the grading layer's (issue
//! #33: the report decides nothing): each row's points in the platform's
//! unit and its items (an item per top-level group of a scored package,
//! else per test; adding up to the total and the maximum exactly) are
//! [`Row::shared`], and a problem nobody handed in is out of the maximum
//! the class's standings give it ([`super::Ranked`]). This module names
//! and says each item. A hand-in that cannot be graded (no file, a
//! misnamed file, two files for one problem, an unreadable file) is a
//! format error, never a score of 0 that looks like a wrong answer.

use super::points::{self, Part, Shared, Unit};
use super::rendering::{Input, RenderError};
use super::{hide_test_data, is_sample, Ranked, Row};
use crate::runner::{GroupScore, SubmissionResult, TestResult};
use crate::verdict::Verdict;
use crate::visible::{visible, visible_name};

/// The most of one text (an item's output, the summary) a platform file
/// holds: PrairieLearn refuses results over 1 MB, and a page of output per
/// test helps nobody.
pub(crate) const TEXT_LIMIT: usize = 4096;

/// The most files not taken a platform file names one by one: the rest
/// are counted (20,000 misnamed files made a 5.5 MB file).
pub(crate) const IGNORED_LISTED: usize = 10;

/// One student's grade, ready for a platform's file. Points are in whole
/// units of `unit`.
#[derive(Debug, Default)]
pub(crate) struct Graded {
    pub(crate) unit: Unit,
    /// The sum of the problems' scores, and of their maxima.
    pub(crate) score: u64,
    pub(crate) max_score: u64,
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
    /// Each problem whose program did not compile, with the compiler's
    /// message (cut): a platform that has a "cannot be graded" state
    /// (PrairieLearn) uses it for these.
    pub(crate) compile_errors: Vec<String>,
}

/// A scored part of the grade: a test, or a top-level test group.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Item {
    pub(crate) name: String,
    /// `1.3`: the problem's number, then the item's.
    pub(crate) number: String,
    /// In units of the grade's unit; a passed item scores its maximum.
    pub(crate) score: u64,
    pub(crate) max_score: u64,
    pub(crate) passed: bool,
    /// Only samples (every test of a group a sample) are shown before the
    /// due date.
    pub(crate) sample: bool,
    /// The whole problem as one item (not compiled, not graded, or groups
    /// that no items could share): shown now, but no test.
    pub(crate) whole: bool,
    pub(crate) output: String,
}

impl Graded {
    /// `units` of this grade as points.
    pub(crate) fn points(&self, units: u64) -> f64 {
        self.unit.points(units)
    }
}

/// The grade of the one student of `input`, in whole `unit`s; a report of
/// several students is refused (a platform's file is one student's).
pub(crate) fn graded(input: &Input<'_>, platform: &str, unit: Unit) -> Result<Graded, RenderError> {
    // Refused before anything runs too (`grading::reports`); checked
    // again here, where the rows are, so no path can write a class into one
    // student's file.
    let students = input.rows.iter().map(|row| row.student()).chain(
        input
            .context
            .missing
            .iter()
            .map(|pair| pair.student.clone()),
    );
    one_student(students, platform).map_err(RenderError::Platform)?;
    let mut graded = Graded {
        unit,
        format_errors: input
            .cannot_grade
            .iter()
            .map(|why| cut(&visible(why)))
            .collect(),
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
        let max_points = row.max_score_points();
        // The grading layer's points in this unit, and its items'.
        let shared = row.shared(unit);
        let max_score = shared.max_score;
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
            summary.push(format!("{problem}: 0.00 of {max_points:.2} (not graded)"));
            graded
                .items
                .push(ungraded_item(&problem, index + 1, max_score, &why));
            graded.notes.push(cut(&why));
            continue;
        }
        problems_graded += 1;
        let points = row.score_points();
        graded.score += shared.score;
        summary.push(format!(
            "{problem}: {points:.2} of {max_points:.2} ({})",
            result.verdict.code()
        ));
        // The compiler's message is the problem's item's output (and, for
        // PrairieLearn, its reason): said once (VPL said it twice).
        if !result.compile.ok {
            graded.compile_errors.push(cut(&format!(
                "{problem}: your program did not compile: {}",
                visible(&result.compile.message)
            )));
        }
        graded.items.extend(items(result, index + 1, &shared));
    }
    let standings = input.rows.standings(&input.context.missing);
    for (offset, pair) in input.context.missing.iter().enumerate() {
        let problem = visible_name(&pair.problem);
        // The grading layer's maximum of a problem nobody handed in
        // (`Standings` holds every problem of the rows and the missing).
        let max_points = standings.maximum(&pair.problem).unwrap_or_default();
        let max_score = unit.of_hundredths(points::hundredths(max_points));
        graded.max_score += max_score;
        let why =
            format!("no file for problem `{problem}`: hand in one file named `{problem}.<ext>`");
        summary.push(format!("{problem}: 0.00 of {max_points:.2} (missing)"));
        let number = input.rows.len() + offset + 1;
        graded
            .items
            .push(ungraded_item(&problem, number, max_score, &why));
        graded.notes.push(why);
    }
    if input.context.interrupted {
        // A grade cut short (a platform's timeout, a signal) is no grade:
        // a score of what happened to finish would read as the real one.
        let left = input.context.not_graded.len();
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
        let ignored = &input.context.ignored;
        for ignored in ignored.iter().take(IGNORED_LISTED) {
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
        if ignored.len() > IGNORED_LISTED {
            into.push(format!(
                "and {} more files were not graded",
                ignored.len() - IGNORED_LISTED
            ));
        }
        for text in into.iter_mut() {
            *text = cut(text);
        }
    }
    graded.summary = cut(&summary.join("\n"));
    Ok(graded)
}

/// Whether `students` (with repeats) are one student (or none), as a
/// `platform`'s results file must be; else why not, naming them.
pub(crate) fn one_student(
    students: impl IntoIterator<Item = String>,
    platform: &str,
) -> Result<(), String> {
    let mut students: Vec<String> = students.into_iter().collect();
    students.sort();
    students.dedup();
    if students.len() <= 1 {
        return Ok(());
    }
    Err(format!(
        "a {platform} results file is one student's, and this grade holds {} students ({}); \
         grade one student's hand-in",
        students.len(),
        students
            .iter()
            .map(|student| visible_name(student))
            .collect::<Vec<_>>()
            .join(", ")
    ))
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

/// The items of one problem's result, numbered `problem.item`, as the
/// grading layer shared its points among them ([`Row::shared`]): each
/// named and said, with nothing of a hidden test's data.
fn items(result: &SubmissionResult, problem_number: usize, shared: &Shared) -> Vec<Item> {
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
    let lines = |group: &GroupScore| -> Vec<String> {
        group
            .tests
            .iter()
            .map(|name| match tests.iter().find(|test| &test.name == name) {
                Some(test) => test_line(test),
                None => format!("{}: not run", visible_name(name)),
            })
            .collect()
    };
    shared
        .items
        .iter()
        .enumerate()
        .map(|(index, share)| {
            let (name, output) = match &share.part {
                // Not compiled (or no tests): the compiler's message (the
                // student's own program).
                Part::Whole { groups } if groups.is_empty() => (
                    problem.clone(),
                    format!(
                        "{}: {}",
                        result.verdict.code(),
                        visible(&result.compile.message)
                    ),
                ),
                Part::Whole { groups } => (
                    problem.clone(),
                    groups
                        .iter()
                        .filter_map(|&group| result.groups.get(group))
                        .map(|group| {
                            format!(
                                "{}: {} of {} ({})\n{}",
                                visible_name(&group.name),
                                group.score,
                                group.max_score,
                                group.verdict.code(),
                                lines(group).join("\n")
                            )
                        })
                        .collect::<Vec<_>>()
                        .join("\n"),
                ),
                Part::Group(group) => match result.groups.get(*group) {
                    Some(group) => (
                        format!("{problem}: {}", visible_name(&group.name)),
                        lines(group).join("\n"),
                    ),
                    None => (problem.clone(), String::new()),
                },
                Part::Test(test) => match tests.get(*test) {
                    Some(test) => (
                        format!("{problem}: {}", visible_name(&test.name)),
                        test_line(test),
                    ),
                    None => (problem.clone(), String::new()),
                },
                Part::NotRun(count) => (
                    format!("{problem}: {count} test(s) not run"),
                    "not run: an earlier test failed".to_owned(),
                ),
            };
            Item {
                name,
                number: format!("{problem_number}.{}", index + 1),
                score: share.score,
                max_score: share.max_score,
                passed: share.passed,
                sample: share.sample,
                whole: matches!(share.part, Part::Whole { .. }),
                output: cut(&output),
            }
        })
        .collect()
}

/// The one item of a problem that was not graded (no file, two files):
/// 0 of its points, with the reason, which is about the student's own
/// files and shown now.
fn ungraded_item(problem: &str, problem_number: usize, max_score: u64, why: &str) -> Item {
    Item {
        name: problem.to_owned(),
        number: format!("{problem_number}.1"),
        score: 0,
        max_score,
        passed: false,
        sample: true,
        whole: true,
        output: cut(why),
    }
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

    /// See: issue #30 (found by a review): a grade cut short by a signal
    /// or the platform's timeout wrote a score of 0 that read as real.
    #[test]
    fn an_interrupted_grade_is_not_gradable_and_says_why() {
        let options = crate::report::Context {
            interrupted: true,
            ..crate::report::Context::default()
        };
        let input = Input {
            rows: &[],
            context: &options,
            settings: &crate::config::report::ReportSettings::default(),
            cannot_grade: &[],
        };
        let graded = graded(&input, "PrairieLearn", Unit::Hundredths).expect("one student");
        assert_eq!(graded.format_errors.len(), 1, "{graded:?}");
        assert!(
            graded.format_errors[0].contains("interrupted"),
            "{graded:?}"
        );
    }

    /// The grade of one result, in `unit`.
    fn grade_of(result: &SubmissionResult, unit: Unit) -> Graded {
        let rows: [&dyn crate::report::Row; 1] = [result];
        let options = crate::report::Context::default();
        let input = Input {
            rows: &rows,
            context: &options,
            settings: &crate::config::report::ReportSettings::default(),
            cannot_grade: &[],
        };
        graded(&input, "Gradescope", unit).expect("one student")
    }

    /// The renderers' own check, behind the one before anything runs
    /// (`grading::reports::refuse_several_students`): two students' rows
    /// are never one student's file.
    #[test]
    fn two_students_rows_are_refused() {
        let alice = SubmissionResult::fixture("rooks", "class/alice/rooks.py", Vec::new());
        let bob = SubmissionResult::fixture("rooks", "class/bob/rooks.py", Vec::new());
        let rows: [&dyn crate::report::Row; 2] = [&alice, &bob];
        let options = crate::report::Context::default();
        let input = Input {
            rows: &rows,
            context: &options,
            settings: &crate::config::report::ReportSettings::default(),
            cannot_grade: &[],
        };
        match graded(&input, "Gradescope", Unit::Hundredths) {
            Err(RenderError::Platform(message)) => {
                assert!(message.contains("2 students (alice, bob)"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        assert!(one_student(["alice".to_owned(), "alice".to_owned()], "VPL").is_ok());
    }

    /// See: issue #30. 4 of 7 tests passed is 57.14 in the CSV, and the
    /// items said 57.13 or 57.16 depending on which tests passed.
    #[test]
    fn r30_four_of_seven_is_the_csvs_score_whichever_tests_passed() {
        for pattern in ["AAAAWWW", "WWWAAAA", "AWAWAWA"] {
            let tests = pattern
                .chars()
                .enumerate()
                .map(|(index, verdict)| {
                    let verdict = if verdict == 'A' {
                        Verdict::Accepted
                    } else {
                        Verdict::WrongAnswer
                    };
                    TestResult::fixture(&format!("{index:03}"), verdict)
                })
                .collect();
            let result = SubmissionResult::fixture("rooks", "alice/rooks.py", tests);
            let graded = grade_of(&result, Unit::Hundredths);
            assert_eq!(
                (graded.score, graded.max_score),
                (5714, 10_000),
                "{pattern}"
            );
            assert_eq!(
                graded.items.iter().map(|item| item.score).sum::<u64>(),
                5714
            );
            let whole = grade_of(&result, Unit::Whole);
            assert_eq!((whole.score, whole.max_score), (57, 100), "{pattern}");
            assert_eq!(whole.items.iter().map(|item| item.score).sum::<u64>(), 57);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(150))]

        /// Whatever tests of a problem passed, failed or were not run, in
        /// hundredths or in whole points: the grade is the CSV's score
        /// rounded to the unit; the items add up to it and to the maximum
        /// exactly; a passed test scores its whole maximum and a failed
        /// one 0; every test's maximum is the floor or the ceiling of its
        /// exact share of the problem's.
        #[test]
        fn items_add_up_to_the_csvs_score(
            verdicts in proptest::collection::vec(proptest::prelude::any::<bool>(), 1..40),
            not_run in 0usize..5,
            whole in proptest::prelude::any::<bool>(),
        ) {
            let unit = if whole { Unit::Whole } else { Unit::Hundredths };
            let tests = verdicts
                .iter()
                .enumerate()
                .map(|(index, &accepted)| {
                    let verdict = if accepted { Verdict::Accepted } else { Verdict::WrongAnswer };
                    TestResult::fixture(&format!("{index:03}"), verdict)
                })
                .collect();
            let mut result = SubmissionResult::fixture("rooks", "alice/rooks.py", tests);
            result.total += not_run;
            let graded = grade_of(&result, unit);
            let csv = points::hundredths(crate::grading::graded::score_points(&result));
            proptest::prop_assert_eq!(graded.score, unit.of_hundredths(csv));
            proptest::prop_assert_eq!(graded.max_score, unit.of_hundredths(10_000));
            proptest::prop_assert_eq!(
                graded.items.iter().map(|item| item.score).sum::<u64>(), graded.score);
            proptest::prop_assert_eq!(
                graded.items.iter().map(|item| item.max_score).sum::<u64>(), graded.max_score);
            let share = crate::grading::shares::Exact::ratio(10_000, (result.total as u128) * u128::from(unit.hundredths()));
            for item in &graded.items[..verdicts.len()] {
                proptest::prop_assert!(
                    item.max_score == share.floor() || item.max_score == share.ceil(),
                    "{item:?} is not {share:?} rounded");
                let expected = if item.passed { item.max_score } else { 0 };
                proptest::prop_assert_eq!(item.score, expected);
            }
            proptest::prop_assert_eq!(graded.items.len(), verdicts.len() + usize::from(not_run > 0));
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
