//! The verdict of a pass with a testlib interactor (issue #15): its exit
//! code read with testlib's meanings, then the same precedence as the
//! Kattis protocol ([`super::verdict::decide_pass`]), so the two protocols
//! cannot drift apart:
//!
//! 1. the interactor failed (a limit, a signal, stopped after the
//!    submission ended, exit 1 with a runtime's report of an uncaught
//!    exception on stderr, as a crashed checker is), reported a failure
//!    (exit 3), or exited with a code testlib does not define → JE naming it;
//! 2. it rejected (1 WA, 2 PE) and exited first → that verdict, even if
//!    the submission then hangs or dies of SIGPIPE;
//! 3. the submission's limit, then its crash;
//! 4. its verdict: 1 → WA, 2 → PE, 0 → AC, 7 → AC with the points its
//!    message starts with (`points 7.5 ...` or `7.5 ...`; none there is JE).
//!
//! testlib's exit codes: `OK_EXIT_CODE` 0, `WA_EXIT_CODE` 1, `PE_EXIT_CODE`
//! 2, `FAIL_EXIT_CODE` 3, `POINTS_EXIT_CODE` 7.

use super::verdict::{decide_pass, Ended, PassFacts, PassVerdict, ACCEPT, REJECT};
use crate::sandbox::Termination;
use crate::testlib::{testlib_points, TESTLIB_POINTS};
use crate::verdict::{Points, Verdict};

/// What a pass decided, and the points of an interactor that exited 7.
/// `stderr` is all the interactor wrote there: exit 1 with a runtime's
/// report of an uncaught exception is its crash, not a wrong answer.
pub(crate) fn decide_testlib_pass(
    facts: &PassFacts<'_>,
    stderr: &[u8],
) -> (PassVerdict, Option<Points>) {
    let label = facts.validator_label;
    let code = match facts.validator {
        Ended {
            termination: Termination::Exited(code),
            limit: None,
            stopped: false,
            ..
        } => code,
        // A fault of the interactor's: decided as the Kattis protocol does.
        _ => return (decide_pass(facts), None),
    };
    let judge_error = |message: String| (PassVerdict::Final(Verdict::JudgeError, message), None);
    let shown = if facts.feedback.is_empty() {
        String::new()
    } else {
        format!(": {}", facts.feedback)
    };
    if code == 1 {
        let stderr = String::from_utf8_lossy(stderr);
        if let Some(reason) = crate::runner::program_message::uncaught_exception(&stderr) {
            return judge_error(format!(
                "{label} crashed with an uncaught exception ({reason}):\n{}",
                facts.feedback
            ));
        }
    }
    let kattis_code = match code {
        0 | TESTLIB_POINTS => ACCEPT,
        1 | 2 => REJECT,
        3 => return judge_error(format!("{label} reported a failure (exit code 3){shown}")),
        other => {
            return judge_error(format!(
                "{label} exited with code {other}, which testlib does not define for an \
                 interactor (0 ok, 1 wrong answer, 2 presentation error, 3 failure, 7 points){shown}"
            ))
        }
    };
    let as_kattis = PassFacts {
        validator: Ended {
            termination: Termination::Exited(kattis_code),
            ..facts.validator
        },
        // A testlib interactor has no next pass.
        wrote_next_pass: false,
        ..*facts
    };
    let decided = match decide_pass(&as_kattis) {
        PassVerdict::Final(Verdict::WrongAnswer, message) if code == 2 => {
            PassVerdict::Final(Verdict::PresentationError, message)
        }
        PassVerdict::Final(Verdict::Accepted, _) if facts.feedback.is_empty() => {
            PassVerdict::Final(Verdict::Accepted, "accepted by the interactor".to_owned())
        }
        other => other,
    };
    if code != TESTLIB_POINTS || !matches!(decided, PassVerdict::Final(Verdict::Accepted, _)) {
        return (decided, None);
    }
    match testlib_points(facts.feedback) {
        Some(points) => (decided, Some(points)),
        None => judge_error(format!(
            "{label} exited with code 7 (points) but its message does not start with a score of \
             at least 0{shown}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::super::verdict::tests::{facts, limits};
    use super::*;
    use crate::sandbox::LimitExceeded;
    use test_case::test_case;

    fn hung() -> Ended {
        Ended {
            termination: Termination::Signaled(libc::SIGKILL),
            stopped: true,
            ..Ended::exited(0)
        }
    }

    fn timed_out() -> Ended {
        Ended {
            termination: Termination::Signaled(libc::SIGKILL),
            limit: Some(LimitExceeded::WallTime),
            ..Ended::exited(0)
        }
    }

    /// (interactor, submission, interactor first, feedback, stderr) →
    /// verdict and points.
    #[test_case(Ended::exited(0), Ended::exited(0), false, "ok 3 guesses", "", Verdict::Accepted, None ; "ok")]
    #[test_case(Ended::exited(1), Ended::exited(0), false, "wrong guess", "", Verdict::WrongAnswer, None ; "wrong answer")]
    #[test_case(Ended::exited(2), Ended::exited(0), false, "not a number", "", Verdict::PresentationError, None ; "presentation error")]
    #[test_case(Ended::exited(1), hung(), true, "too many guesses", "", Verdict::WrongAnswer, None ; "rejected first, the submission hangs")]
    #[test_case(Ended::exited(2), hung(), true, "garbage", "", Verdict::PresentationError, None ; "pe first, the submission hangs")]
    #[test_case(Ended::exited(0), timed_out(), false, "ok", "", Verdict::TimeLimitExceeded, None ; "ok, but the submission timed out")]
    #[test_case(Ended::exited(1), timed_out(), false, "eof", "", Verdict::TimeLimitExceeded, None ; "tle before a later rejection")]
    #[test_case(Ended::exited(3), timed_out(), false, "bad input", "", Verdict::JudgeError, None ; "failure beats the submission")]
    #[test_case(Ended::exited(4), Ended::exited(0), false, "", "", Verdict::JudgeError, None ; "an undefined code")]
    #[test_case(Ended::exited(42), Ended::exited(0), false, "", "", Verdict::JudgeError, None ; "a kattis code")]
    #[test_case(hung(), Ended::exited(0), false, "", "", Verdict::JudgeError, None ; "the interactor hung")]
    #[test_case(Ended::exited(7), Ended::exited(0), false, "points 7.5 half done", "", Verdict::Accepted, Some(7.5) ; "points")]
    #[test_case(Ended::exited(7), Ended::exited(0), false, "12", "", Verdict::JudgeError, None ; "bare points, which testlib never writes")]
    #[test_case(Ended::exited(7), Ended::exited(0), false, "well done", "", Verdict::JudgeError, None ; "points without a number")]
    #[test_case(Ended::exited(7), timed_out(), false, "points 3", "", Verdict::TimeLimitExceeded, None ; "points, but the submission timed out")]
    #[test_case(Ended::exited(1), Ended::exited(0), true, "Traceback (most recent call last):", "Traceback (most recent call last):\n  File \"i.py\", line 4\nRuntimeError: interactor bug\n", Verdict::JudgeError, None ; "an uncaught python exception")]
    #[test_case(Ended::exited(1), timed_out(), false, "Exception in thread", "Exception in thread \"main\" java.lang.NullPointerException\n\tat I.main(I.java:3)\n", Verdict::JudgeError, None ; "an uncaught java exception beats the submission")]
    #[test_case(Ended { termination: Termination::Signaled(libc::SIGSEGV), ..Ended::exited(0) }, Ended::exited(0), true, "", "", Verdict::JudgeError, None ; "killed by a signal")]
    fn testlib_exit_codes_and_precedence(
        interactor: Ended,
        submission: Ended,
        interactor_first: bool,
        feedback: &str,
        stderr: &str,
        expected: Verdict,
        points: Option<f64>,
    ) {
        let limits = limits();
        let facts = PassFacts {
            validator_first: interactor_first,
            waiting: "the interactor was waiting for the submission",
            feedback,
            ..facts(
                &limits,
                "interactor `interactor.cpp`",
                interactor,
                submission,
            )
        };
        let (decided, got_points) = decide_testlib_pass(&facts, stderr.as_bytes());
        let PassVerdict::Final(verdict, message) = decided else {
            panic!("a testlib interactor has no next pass");
        };
        assert_eq!(verdict, expected, "{message}");
        assert_eq!(got_points, points.map(Points), "{message}");
        if verdict == Verdict::JudgeError {
            assert!(
                message.starts_with("interactor `interactor.cpp`"),
                "{message}"
            );
        }
    }
}
