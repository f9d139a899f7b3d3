//! Polygon's solution tags and the verdicts each one allows.
//!
//! Each tag is a set of verdicts a solution may end with, and an "or" tag
//! is the union of its parts, never one of them (issue #29: a converter
//! that maps `time-limit-exceeded-or-accepted` to TLE fails a solution
//! that passes). A solution agrees with its tag when every test it ran
//! was accepted or got a verdict of the set, and its own verdict (the
//! first test that was not accepted, or AC) is in the set: a
//! `wrong-answer` solution must fail, and fail only with WA.
//!
//! Polygon has no output limit of its own: an output overrun is one of
//! `rejected`'s verdicts only. A compile error agrees with no tag. `failed`
//! is the checker failing on the solution's output, which the judge reports
//! as JE.

use crate::verdict::Verdict;

/// A `<solution tag>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum SolutionTag {
    /// The model solution: it answers the tests without answers.
    Main,
    Accepted,
    WrongAnswer,
    TimeLimitExceeded,
    MemoryLimitExceeded,
    PresentationError,
    /// Any verdict but AC (and but the checker failing).
    Rejected,
    /// The checker fails on its output.
    Failed,
    TimeLimitExceededOrAccepted,
    TimeLimitExceededOrMemoryLimitExceeded,
    /// Not graded.
    DoNotRun,
}

impl SolutionTag {
    pub(crate) const ALL: [SolutionTag; 11] = [
        SolutionTag::Main,
        SolutionTag::Accepted,
        SolutionTag::WrongAnswer,
        SolutionTag::TimeLimitExceeded,
        SolutionTag::MemoryLimitExceeded,
        SolutionTag::PresentationError,
        SolutionTag::Rejected,
        SolutionTag::Failed,
        SolutionTag::TimeLimitExceededOrAccepted,
        SolutionTag::TimeLimitExceededOrMemoryLimitExceeded,
        SolutionTag::DoNotRun,
    ];

    /// The tag as `problem.xml` writes it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            SolutionTag::Main => "main",
            SolutionTag::Accepted => "accepted",
            SolutionTag::WrongAnswer => "wrong-answer",
            SolutionTag::TimeLimitExceeded => "time-limit-exceeded",
            SolutionTag::MemoryLimitExceeded => "memory-limit-exceeded",
            SolutionTag::PresentationError => "presentation-error",
            SolutionTag::Rejected => "rejected",
            SolutionTag::Failed => "failed",
            SolutionTag::TimeLimitExceededOrAccepted => "time-limit-exceeded-or-accepted",
            SolutionTag::TimeLimitExceededOrMemoryLimitExceeded => {
                "time-limit-exceeded-or-memory-limit-exceeded"
            }
            SolutionTag::DoNotRun => "do-not-run",
        }
    }

    pub(crate) fn parse(name: &str) -> Option<SolutionTag> {
        SolutionTag::ALL.into_iter().find(|tag| tag.name() == name)
    }

    /// The verdicts a solution with this tag may end with, in the order of
    /// [`Verdict::ALL`]; empty for `do-not-run`.
    pub(crate) fn verdicts(self) -> Vec<Verdict> {
        use Verdict::*;
        match self {
            SolutionTag::Main | SolutionTag::Accepted => vec![Accepted],
            SolutionTag::WrongAnswer => vec![WrongAnswer],
            SolutionTag::TimeLimitExceeded => vec![TimeLimitExceeded],
            SolutionTag::MemoryLimitExceeded => vec![MemoryLimitExceeded],
            SolutionTag::PresentationError => vec![PresentationError],
            SolutionTag::Rejected => Verdict::ALL
                .into_iter()
                .filter(|verdict| !matches!(verdict, Accepted | CompileError | JudgeError))
                .collect(),
            SolutionTag::Failed => vec![JudgeError],
            SolutionTag::TimeLimitExceededOrAccepted => Verdict::ALL
                .into_iter()
                .filter(|verdict| matches!(verdict, Accepted | TimeLimitExceeded))
                .collect(),
            SolutionTag::TimeLimitExceededOrMemoryLimitExceeded => Verdict::ALL
                .into_iter()
                .filter(|verdict| matches!(verdict, TimeLimitExceeded | MemoryLimitExceeded))
                .collect(),
            SolutionTag::DoNotRun => Vec::new(),
        }
    }

    /// Whether a solution that ended with `verdict`, its tests having got
    /// `tests`, agrees with the tag (see the module's doc).
    pub(crate) fn agrees(self, verdict: Verdict, tests: &[Verdict]) -> bool {
        let allowed = self.verdicts();
        allowed.contains(&verdict)
            && tests
                .iter()
                .all(|test| *test == Verdict::Accepted || allowed.contains(test))
    }
}

impl std::fmt::Display for SolutionTag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;
    use Verdict::*;

    #[test]
    fn every_tag_reads_back_by_its_name() {
        for tag in SolutionTag::ALL {
            assert_eq!(SolutionTag::parse(tag.name()), Some(tag));
        }
        assert_eq!(SolutionTag::parse("correct"), None);
    }

    /// The "or" tags are the union of their parts, never one of them.
    #[test]
    fn or_tags_are_sets() {
        let or_accepted = SolutionTag::TimeLimitExceededOrAccepted.verdicts();
        assert_eq!(or_accepted, vec![Accepted, TimeLimitExceeded]);
        let or_memory = SolutionTag::TimeLimitExceededOrMemoryLimitExceeded.verdicts();
        assert_eq!(or_memory, vec![TimeLimitExceeded, MemoryLimitExceeded]);
        assert_eq!(
            SolutionTag::Rejected.verdicts(),
            vec![
                WrongAnswer,
                PresentationError,
                TimeLimitExceeded,
                MemoryLimitExceeded,
                OutputLimitExceeded,
                RuntimeError
            ]
        );
    }

    #[test_case(SolutionTag::Main, Accepted, &[Accepted, Accepted], true ; "main passes")]
    #[test_case(SolutionTag::Main, WrongAnswer, &[Accepted, WrongAnswer], false ; "main fails")]
    #[test_case(SolutionTag::WrongAnswer, WrongAnswer, &[Accepted, WrongAnswer], true ; "wa gets wa")]
    #[test_case(SolutionTag::WrongAnswer, Accepted, &[Accepted, Accepted], false ; "wa passes")]
    #[test_case(SolutionTag::WrongAnswer, WrongAnswer, &[WrongAnswer, TimeLimitExceeded], false ; "wa also times out")]
    #[test_case(SolutionTag::WrongAnswer, PresentationError, &[PresentationError], false ; "wa gets pe")]
    #[test_case(SolutionTag::PresentationError, PresentationError, &[PresentationError], true ; "pe gets pe")]
    #[test_case(SolutionTag::TimeLimitExceededOrAccepted, Accepted, &[Accepted], true ; "or accepted passes")]
    #[test_case(SolutionTag::TimeLimitExceededOrAccepted, TimeLimitExceeded, &[Accepted, TimeLimitExceeded], true ; "or accepted times out")]
    #[test_case(SolutionTag::TimeLimitExceededOrAccepted, WrongAnswer, &[WrongAnswer], false ; "or accepted gets wa")]
    #[test_case(SolutionTag::TimeLimitExceeded, Accepted, &[Accepted], false ; "tle passes")]
    #[test_case(SolutionTag::TimeLimitExceededOrMemoryLimitExceeded, MemoryLimitExceeded, &[MemoryLimitExceeded], true ; "or memory gets mle")]
    #[test_case(SolutionTag::TimeLimitExceededOrMemoryLimitExceeded, Accepted, &[Accepted], false ; "or memory passes")]
    #[test_case(SolutionTag::Rejected, RuntimeError, &[Accepted, RuntimeError], true ; "rejected crashes")]
    #[test_case(SolutionTag::Rejected, Accepted, &[Accepted], false ; "rejected passes")]
    #[test_case(SolutionTag::Rejected, CompileError, &[], false ; "rejected does not compile")]
    #[test_case(SolutionTag::Failed, JudgeError, &[Accepted, JudgeError], true ; "failed fails the checker")]
    #[test_case(SolutionTag::DoNotRun, Accepted, &[Accepted], false ; "do not run agrees with nothing")]
    fn a_solution_agrees_with_its_tag(
        tag: SolutionTag,
        verdict: Verdict,
        tests: &[Verdict],
        agrees: bool,
    ) {
        assert_eq!(tag.agrees(verdict, tests), agrees);
    }
}
