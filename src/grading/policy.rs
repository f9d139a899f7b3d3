//! What the verdicts mean for the outcome (and so the exit code), which
//! tests run, and what students may see.

use super::grade::Grade;
use crate::config::judge::Layout;
use crate::exit::Outcome;
use crate::report;
use crate::runner::SubmissionResult;
use crate::runner::TestsToRun;

/// Which tests of each submission a grade runs: with layout `expected` the
/// verdict is all that is asked, so a submission stops at its first failing
/// test, as problemtools does, unless `--all-tests`; a class (`student/problem`,
/// `problem/student`) runs every test, since its scores need them.
pub(crate) fn tests_to_run(layout: Layout, all_tests: bool) -> TestsToRun {
    match (layout, all_tests) {
        (Layout::Expected, false) => TestsToRun::UntilFirstFailure,
        (Layout::Expected, true) | (Layout::ProblemStudent | Layout::StudentProblem, _) => {
            TestsToRun::All
        }
    }
}

/// How a problem's tests are chosen for each submission.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Selection {
    /// [`tests_to_run`]'s choice: the problem is pass-fail, or `--all-tests`
    /// asked for every test.
    Tests(TestsToRun),
    /// The tests the problem's groups reach (issue #15): a group under
    /// `on_reject: break` stops at its first rejection, so its later tests
    /// are not run; the score is the same as with every test run.
    Reached,
}

/// [`tests_to_run`] for a problem that may have scored groups (`scored`):
/// with groups and without `--all-tests`, the tests the groups reach
/// (never the stop at the first failure, which would drop later groups a
/// partial solution scores on).
pub(crate) fn selection(layout: Layout, all_tests: bool, scored: bool) -> Selection {
    match (scored, all_tests) {
        (true, false) => Selection::Reached,
        (true, true) => Selection::Tests(TestsToRun::All),
        (false, _) => Selection::Tests(tests_to_run(layout, all_tests)),
    }
}

/// `judge run`: JE anywhere is the judge failing (but a language's
/// toolchain missing for this user: `SubmissionResult::judge_failed`);
/// success when every verdict is AC, else failure ([`Outcome::of`]).
pub(crate) fn run_outcome(results: &[SubmissionResult]) -> Outcome {
    Outcome::of(
        results.iter().any(SubmissionResult::judge_failed),
        results.iter().all(|result| result.verdict.is_accepted()),
    )
}

/// `judge grade` and `judge merge`: JE anywhere is the judge failing;
/// layout `expected` passes when every example got its folder's verdict,
/// the others when every verdict is AC ([`Outcome::of`]).
pub(crate) fn grade_outcome(report: &Grade) -> Outcome {
    let results = &report.results;
    let all_passed = if report.layout == Layout::Expected {
        results
            .iter()
            .all(|graded| super::graded::agrees(graded) == Some(true))
    } else {
        results
            .iter()
            .all(|graded| graded.result.verdict.is_accepted())
    };
    Outcome::of(
        results.iter().any(|graded| graded.result.judge_failed()),
        all_passed,
    )
}

/// The report to hand to students (`--student-view`): hidden tests (all but
/// the samples) lose their data, and the master seed and the fingerprints go
/// (a small seed can be recovered from a fingerprint), since they would let a
/// student remake every hidden random test with `judge gen` (adversarial
/// review of issue #11).
pub(crate) fn student_view(report: &Grade) -> Grade {
    let mut hidden = report.clone();
    hidden.graded_with = None;
    for graded in &mut hidden.results {
        graded.fingerprint = None;
        graded
            .result
            .tests
            .iter_mut()
            .for_each(report::hide_test_data);
    }
    hidden
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grading::grade::{Expected, GradedResult, GradedWith};
    use crate::runner::CompileResult;
    use crate::verdict::Verdict;

    fn graded(verdict: Verdict, expected: Option<Verdict>) -> GradedResult {
        let result = SubmissionResult {
            language: "python".to_owned(),
            verdict,
            passed: 0,
            total: 0,
            ..SubmissionResult::fixture("rooks", "a.py", Vec::new())
        };
        GradedResult {
            expected: expected.map(|verdict| Expected {
                folder: "f".to_owned(),
                kind: crate::package::format::ExpectedKey::Folder,
                verdict: Some(verdict),
                also: Vec::new(),
                agrees: None,
            }),
            fingerprint: Some("digest".to_owned()),
            ..GradedResult::fixture(result, "ann")
        }
    }

    fn report(layout: Layout, results: Vec<GradedResult>) -> Grade {
        Grade {
            graded_with: Some(GradedWith {
                judge_version: "x".to_owned(),
                seed: Some(7),
                random_tests: 0,
                time_limit_ms: None,
                memory_limit_mib: None,
                output_limit_kib: None,
                wall_time_factor: 2.0,
            }),
            ..Grade::fixture(layout, results)
        }
    }

    #[test_case::test_case(Layout::Expected, false, TestsToRun::UntilFirstFailure ; "examples stop")]
    #[test_case::test_case(Layout::Expected, true, TestsToRun::All ; "examples with all tests")]
    #[test_case::test_case(Layout::ProblemStudent, false, TestsToRun::All ; "a class runs all")]
    #[test_case::test_case(Layout::StudentProblem, true, TestsToRun::All ; "a class with the flag")]
    fn only_examples_stop_at_their_first_failure(
        layout: Layout,
        all_tests: bool,
        expected: TestsToRun,
    ) {
        assert_eq!(tests_to_run(layout, all_tests), expected);
    }

    #[test_case::test_case(Layout::Expected, false, false, Selection::Tests(TestsToRun::UntilFirstFailure) ; "pass-fail examples stop")]
    #[test_case::test_case(Layout::Expected, false, true, Selection::Reached ; "scored examples run what the groups reach")]
    #[test_case::test_case(Layout::ProblemStudent, false, true, Selection::Reached ; "a scored class runs what the groups reach")]
    #[test_case::test_case(Layout::ProblemStudent, false, false, Selection::Tests(TestsToRun::All) ; "a pass-fail class runs all")]
    #[test_case::test_case(Layout::Expected, true, true, Selection::Tests(TestsToRun::All) ; "all tests wins over the groups")]
    fn scored_problems_run_the_tests_their_groups_reach(
        layout: Layout,
        all_tests: bool,
        scored: bool,
        expected: Selection,
    ) {
        assert_eq!(selection(layout, all_tests, scored), expected);
    }

    #[test]
    fn the_exit_code_is_je_first_then_whether_everything_passed() {
        use Verdict::*;
        let rows: [(&[Verdict], Outcome); 5] = [
            (&[], Outcome::Success),
            (&[Accepted, Accepted], Outcome::Success),
            (&[Accepted, WrongAnswer], Outcome::Failure),
            (&[WrongAnswer, JudgeError], Outcome::JudgeFailed),
            (&[CompileError], Outcome::Failure),
        ];
        let results = |verdicts: &[Verdict]| -> Vec<SubmissionResult> {
            verdicts
                .iter()
                .map(|&verdict| SubmissionResult {
                    verdict,
                    ..SubmissionResult::fixture("rooks", "a.py", Vec::new())
                })
                .collect()
        };
        for (verdicts, outcome) in rows {
            assert_eq!(run_outcome(&results(verdicts)), outcome, "{verdicts:?}");
        }
        // A language's toolchain missing for this user is that hand-in's
        // JE, not the judge failing (issue 32).
        let mut missing = results(&[Accepted, JudgeError]);
        missing[1].compile = CompileResult::missing_toolchain("no rustc".to_owned());
        assert_eq!(run_outcome(&missing), Outcome::Failure);
    }

    #[test]
    fn layout_expected_passes_when_each_example_gets_its_folders_verdict() {
        use Verdict::*;
        let agreeing = vec![
            graded(WrongAnswer, Some(WrongAnswer)),
            graded(Accepted, Some(Accepted)),
        ];
        let outcome = |layout, results| grade_outcome(&report(layout, results));
        assert_eq!(
            outcome(Layout::Expected, agreeing.clone()),
            Outcome::Success
        );
        assert_eq!(outcome(Layout::ProblemStudent, agreeing), Outcome::Failure);
        let disagreeing = vec![graded(Accepted, Some(WrongAnswer))];
        assert_eq!(outcome(Layout::Expected, disagreeing), Outcome::Failure);
        let judge_error = vec![graded(JudgeError, Some(JudgeError))];
        assert_eq!(outcome(Layout::Expected, judge_error), Outcome::JudgeFailed);
    }

    #[test]
    fn the_student_view_drops_the_seed_and_the_fingerprints() {
        let full = report(
            Layout::ProblemStudent,
            vec![graded(Verdict::Accepted, None)],
        );
        let hidden = student_view(&full);
        assert_eq!(hidden.graded_with, None);
        assert_eq!(hidden.results[0].fingerprint, None);
        assert_eq!(full.results[0].fingerprint.as_deref(), Some("digest"));
    }
}
