//! What a graded pair came to, decided here and asked by every reader of
//! a report (issue #33: the report renders, it decides nothing): whether a
//! submission got what its verdict folder demands, its score in percent,
//! and the answers to [`Row`], the questions each report format asks of a
//! row (a grade's [`GradedResult`], the domain type of
//! [`super::grade`], and `judge run`'s [`SubmissionResult`]), and the
//! score figures the gradebook, the HTML pages and the platforms' files
//! show, handed to them as values.
//!
//! The wire types (`report::json`, the JSON schema) carry no decision and
//! no `Row`: a saved report is read into the domain types first
//! ([`super::grade::wire`]).

use super::grade::GradedResult;
use crate::report::{human, Expectation, Row, Shared, Unit};
use crate::runner::SubmissionResult;
use crate::verdict::Verdict;

/// Layout `expected`: whether the submission got what its folder demands
/// (`None` when the layout has no expectations): the decision stored when
/// it was graded (`Expected::agrees`), else whether the verdict is the
/// folder's or one it also accepts. Every reader of a report (exit code,
/// summary, colours, `judge merge`) asks this.
pub(crate) fn agrees(graded: &GradedResult) -> Option<bool> {
    graded.expected.as_ref().map(|expected| {
        expected.agrees.unwrap_or_else(|| {
            expected.verdict == Some(graded.result.verdict)
                || expected.also.contains(&graded.result.verdict)
        })
    })
}

/// Score in percent: the result's `score` of its `max_score`, else tests
/// passed of the problem's tests (0 when none ran); `judge run`'s results
/// and `judge grade`'s alike.
///
/// Rounded to the nearest percent (16 of 24 is 67%, issue #32), but never
/// to 100% short of the whole score nor to 0% above nothing, so the figure
/// never hides a failure or a pass.
pub(crate) fn score_percent(result: &SubmissionResult) -> u32 {
    let (got, most) = match (result.score, result.max_score) {
        (Some(score), Some(max)) if max.0 > 0.0 => (score.0, max.0),
        _ => (result.passed as f64, result.total as f64),
    };
    if most <= 0.0 || got <= 0.0 {
        return 0;
    }
    if got >= most {
        return 100;
    }
    (got / most * 100.0).round().clamp(1.0, 99.0) as u32
}

/// The score the gradebook, the HTML pages and the platforms' files show
/// (their `score`): with test groups the groups' score, else the percent of
/// tests passed, 0 to 100 (0 when the submission did not compile or there
/// were no tests); two decimals.
pub(crate) fn score_points(result: &SubmissionResult) -> f64 {
    result
        .score
        .unwrap_or_else(|| result.pass_fail_score())
        .rounded()
}

/// The most [`score_points`] could be (their `max_score`): with test groups
/// the groups' maximum, else 100 (the score is then a percent); two
/// decimals.
pub(crate) fn max_score_points(result: &SubmissionResult) -> f64 {
    match (result.score, result.max_score) {
        (Some(_), Some(max)) => max.rounded(),
        _ => 100.0,
    }
}

/// `judge grade` and `judge merge`: the student found by discovery under
/// the layout, never guessed again from the path.
impl Row for GradedResult {
    fn result(&self) -> &SubmissionResult {
        &self.result
    }

    fn student(&self) -> String {
        self.student.clone()
    }

    fn agrees(&self) -> Option<bool> {
        agrees(self)
    }

    fn score_percent(&self) -> u32 {
        score_percent(&self.result)
    }

    fn score_points(&self) -> f64 {
        score_points(&self.result)
    }

    fn max_score_points(&self) -> f64 {
        max_score_points(&self.result)
    }

    fn shared(&self, unit: Unit) -> Shared {
        super::shares::of(self, unit)
    }

    fn expectation(&self) -> Option<Expectation> {
        let expected = self.expected.as_ref()?;
        let mut accepted = vec![Verdict::Accepted];
        accepted.extend(expected.verdict);
        accepted.extend(expected.also.iter().copied());
        Some(Expectation {
            folder: expected.folder.clone(),
            folder_word: expected.kind.word(),
            verdict: expected.verdict,
            accepted,
            agrees: agrees(self) == Some(true),
            disagreement: human::render_disagreement(
                &self.result,
                &expected.folder,
                expected.verdict,
                agrees(self) == Some(true),
            ),
        })
    }

    /// A row for a file no program was run from (two files for one
    /// problem, unreadable, in no language, a problem this judge does not
    /// know) is a CE with no tests and no digest of the submission; a
    /// compiler's CE has the digest.
    fn not_gradable(&self) -> Option<&str> {
        let result = &self.result;
        let not_run = self.submission_sha256.is_none()
            && result.tests.is_empty()
            && result.compile.verdict == Some(Verdict::CompileError);
        not_run.then_some(result.compile.message.as_str())
    }

    fn handed_in(&self) -> &[String] {
        &self.handed_in
    }

    fn time_limit_ms(&self) -> Option<u64> {
        Some(self.time_limit_ms)
    }

    fn warnings(&self) -> &[String] {
        &self.warnings
    }
}

/// `judge run`: no layout, so the student is read from the path
/// ([`crate::discovery::student_from_path`]), and no expectation.
impl Row for SubmissionResult {
    fn result(&self) -> &SubmissionResult {
        self
    }

    fn student(&self) -> String {
        crate::discovery::student_from_path(&self.submission, &self.problem)
    }

    fn agrees(&self) -> Option<bool> {
        None
    }

    fn score_percent(&self) -> u32 {
        score_percent(self)
    }

    fn score_points(&self) -> f64 {
        score_points(self)
    }

    fn max_score_points(&self) -> f64 {
        max_score_points(self)
    }

    fn shared(&self, unit: Unit) -> Shared {
        super::shares::of(self, unit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grading::grade::Expected;
    use test_case::test_case;

    fn folder(verdict: Option<Verdict>, also: &[Verdict], stored: Option<bool>) -> Expected {
        Expected {
            folder: "f".to_owned(),
            kind: crate::package::format::ExpectedKey::Folder,
            verdict,
            also: also.to_vec(),
            agrees: stored,
        }
    }

    #[test_case(Verdict::WrongAnswer, None, None ; "no expectation decides nothing")]
    #[test_case(Verdict::WrongAnswer, Some(folder(Some(Verdict::WrongAnswer), &[], None)), Some(true) ; "the folder's verdict agrees")]
    #[test_case(Verdict::PresentationError, Some(folder(Some(Verdict::WrongAnswer), &[Verdict::PresentationError], None)), Some(true) ; "a verdict the folder also accepts agrees")]
    #[test_case(Verdict::Accepted, Some(folder(Some(Verdict::WrongAnswer), &[], None)), Some(false) ; "another verdict disagrees")]
    #[test_case(Verdict::Accepted, Some(folder(None, &[], None)), Some(false) ; "a folder naming no verdict agrees with none")]
    #[test_case(Verdict::Accepted, Some(folder(Some(Verdict::Accepted), &[], Some(false))), Some(false) ; "the decision stored at grading wins")]
    fn a_result_agrees_with_its_folder(
        verdict: Verdict,
        expected: Option<Expected>,
        agreement: Option<bool>,
    ) {
        let result = SubmissionResult {
            verdict,
            ..SubmissionResult::fixture("rooks", "a.py", Vec::new())
        };
        let graded = GradedResult {
            expected,
            ..GradedResult::fixture(result, "ann")
        };
        assert_eq!(agrees(&graded), agreement);
        assert_eq!(Row::agrees(&graded), agreement);
        assert_eq!(
            graded.expectation().map(|expectation| expectation.agrees),
            agreement
        );
    }

    #[test_case(0, 0, 0 ; "nothing ran")]
    #[test_case(0, 24, 0 ; "nothing passed")]
    #[test_case(16, 24, 67 ; "rounded to the nearest percent")]
    #[test_case(1, 1000, 1 ; "never 0 above nothing")]
    #[test_case(999, 1000, 99 ; "never 100 short of the whole")]
    #[test_case(24, 24, 100 ; "all passed")]
    fn the_score_in_percent_hides_no_failure_and_no_pass(
        passed: usize,
        total: usize,
        percent: u32,
    ) {
        let result = SubmissionResult {
            passed,
            total,
            ..SubmissionResult::fixture("rooks", "a.py", Vec::new())
        };
        assert_eq!(score_percent(&result), percent);
        assert_eq!(Row::score_percent(&result), percent);
    }

    #[test_case(1, 3, 33.33 ; "a third")]
    #[test_case(2, 3, 66.67 ; "two thirds round up")]
    #[test_case(1, 8, 12.5 ; "an eighth")]
    #[test_case(0, 0, 0.0 ; "no tests")]
    fn the_score_in_points_rounds_to_two_decimals_of_100(passed: usize, total: usize, points: f64) {
        let result = SubmissionResult {
            passed,
            total,
            ..SubmissionResult::fixture("rooks", "a.py", Vec::new())
        };
        assert_eq!(score_points(&result), points);
        assert_eq!(Row::score_points(&result), points);
        assert_eq!(max_score_points(&result), 100.0);
    }

    /// See: issue #15. With groups the score is the groups' points of
    /// their maximum, never a percent.
    #[test]
    fn a_scored_result_is_its_points_of_its_maximum() {
        let result = SubmissionResult {
            passed: 3,
            total: 4,
            score: Some(crate::verdict::Points(37.5)),
            max_score: Some(crate::verdict::Points(250.0)),
            ..SubmissionResult::fixture("tri", "narrow.py", Vec::new())
        };
        assert_eq!(score_points(&result), 37.5);
        assert_eq!(max_score_points(&result), 250.0);
        let graded = GradedResult::fixture(result, "ann");
        assert_eq!(
            (Row::score_points(&graded), Row::max_score_points(&graded)),
            (37.5, 250.0)
        );
    }
}
