//! What a graded pair came to, decided here and asked by every reader of
//! a report (issue #33: the report renders, it decides nothing): whether a
//! submission got what its verdict folder demands, its score in percent,
//! and the answers to [`Row`], the questions each report format asks of a
//! row (`judge grade`'s and `judge merge`'s [`GradedResult`], `judge
//! run`'s [`SubmissionResult`]).
//!
//! The wire types stay `report::json`'s (the JSON schema); what is not the
//! wire's to say — a decision — is a function here over them.

use crate::report::json::GradedResult;
use crate::report::{human, Expectation, Row};
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
            disagreement: human::render_disagreement(self),
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::json::Expected;
    use test_case::test_case;

    fn folder(verdict: Option<Verdict>, also: &[Verdict], stored: Option<bool>) -> Expected {
        Expected {
            folder: "f".to_owned(),
            kind: Default::default(),
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
}
