//! How a command that ran to its end came out, as a value: the 0 / 1 of
//! docs/commands.md, "Exit codes" (and the testlib codes of `judge check`), and the interruptions.
//!
//! The numbers are not here: [`crate::error::exit_code`] maps an
//! [`Outcome`] and every error to the process exit code in one exhaustive
//! `match`, the one table of exit codes.

use crate::interrupt::Signal;

/// How a command that ran to its end came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Everything went as asked: the input is valid, the output accepted,
    /// every verdict AC (every example got its folder's verdict), no
    /// failure found.
    Success,
    /// The verdicts say no: some verdict is not AC (an example did not get
    /// its folder's verdict), the input is invalid, `judge check`'s wrong
    /// answer, `judge diff`'s files differ, `judge stress` found a failing
    /// input.
    Failure,
    /// `judge check`: a presentation error, the output could not be parsed
    /// (testlib `_pe`).
    PresentationError,
    /// A result says the judge failed (a JE verdict, a checker failure, a
    /// file of the judge's that could not be read or written): reported as
    /// a result, and the judge's fault.
    JudgeFailed,
    /// `run`, `grade`, `stress`, `gen --package`: stopped by a signal; the
    /// reports hold what finished (`gen --package` wrote no `data/`).
    Interrupted(Signal),
}

impl Outcome {
    /// The one rule of every grading command: a judge error anywhere is the
    /// judge failing; else success when everything passed, failure when
    /// not. What "passed" means is the command's: AC for `run`, the
    /// folder's verdict for layout `expected` and `grade --package`, a valid
    /// input for `validate` and `solve`.
    pub(crate) fn of(judge_failed: bool, all_passed: bool) -> Outcome {
        if judge_failed {
            Outcome::JudgeFailed
        } else if all_passed {
            Outcome::Success
        } else {
            Outcome::Failure
        }
    }

    /// This outcome, unless a signal stopped the run: then the interruption.
    pub(crate) fn unless_stopped(self, stopped_by: Option<Signal>) -> Outcome {
        stopped_by.map_or(self, Outcome::Interrupted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_judge_error_comes_first_then_whether_everything_passed() {
        let rows = [
            (false, true, Outcome::Success),
            (false, false, Outcome::Failure),
            (true, true, Outcome::JudgeFailed),
            (true, false, Outcome::JudgeFailed),
        ];
        for (judge_failed, all_passed, expected) in rows {
            assert_eq!(Outcome::of(judge_failed, all_passed), expected);
        }
        assert_eq!(
            Outcome::Failure.unless_stopped(Some(Signal::Terminate)),
            Outcome::Interrupted(Signal::Terminate)
        );
        assert_eq!(Outcome::Failure.unless_stopped(None), Outcome::Failure);
    }
}
