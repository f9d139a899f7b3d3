//! What a validator's or a checker's exit code and message mean under the
//! protocol the package chose (issue #9):
//!
//! - testlib checker: `checker input output answer`, exit 0 AC, 1 WA,
//!   2 PE, 3 failure, 7 points (`quitp`: accepted, scoring the points the
//!   message starts with), the message on stderr;
//! - Kattis output validator: `validator input answer feedback_dir
//!   [flags] < output`, exit 42 AC, 43 WA, the message in
//!   `feedback_dir/judgemessage.txt`;
//! - input validators: testlib (0 valid, anything else invalid) or Kattis
//!   (42 valid, 43 invalid).
//!
//! Anything else (another exit code, a crash, a timeout, a missing or huge
//! message) is the program's fault, named as such: JE, never a verdict.

use super::tool::{self, Tool, ToolFault, Toolbox};
use crate::interaction::{KATTIS_ACCEPT, KATTIS_REJECT};
use crate::problems::{CheckOutcome, CheckerFailure};
use crate::runner::program_message::{cut_unread, uncaught_exception, MAX_MESSAGE_BYTES};
use crate::sandbox::{Limits, Measured, Termination};
use crate::testlib::{testlib_points, TESTLIB_POINTS};
use crate::verdict::ValidatorScore;

/// The most of a checker's message kept as a test's reason.
const SHOWN_MESSAGE_BYTES: usize = 512;

/// The protocol an external checker speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CheckerProtocol {
    Testlib,
    Kattis,
}

/// An input validator's decision.
#[derive(Debug)]
pub(crate) enum ValidatorVerdict {
    Valid,
    /// The validator's reason (its message, or the exit code).
    Invalid(String),
    Fault(ToolFault),
}

/// The message of a program, trimmed and cut to [`SHOWN_MESSAGE_BYTES`].
/// `bytes` holds what was read of it and `unread` how many more it wrote;
/// one beyond [`MAX_MESSAGE_BYTES`] is cut there and says so, and its
/// exit code still decides (issue #34: a chatty validator's 20 KB
/// judgemessage.txt made every test JE, where problemtools and BAPCtools
/// keep its verdict).
fn message(bytes: &[u8], unread: u64) -> String {
    let kept = &bytes[..bytes.len().min(MAX_MESSAGE_BYTES)];
    let unread = (bytes.len() - kept.len()) as u64 + unread;
    cut_unread(
        String::from_utf8_lossy(kept).trim(),
        SHOWN_MESSAGE_BYTES,
        unread,
    )
}

/// The exit-code conventions an input validator may follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ValidatorExitCodes {
    /// testlib: 0 valid, any other exit code invalid (testlib's `ensure`
    /// exits with 3); a crash or a timeout is the validator's fault.
    Testlib,
    /// Kattis (problemtools): 42 valid, 43 invalid; any other code is the
    /// validator's fault.
    Kattis,
}

/// Decides an input validator's run.
pub(super) fn validator_verdict(
    tool: &Tool,
    exit_codes: ValidatorExitCodes,
    measured: &Measured,
    limits: &Limits,
) -> ValidatorVerdict {
    if let Some(fault) = tool::abnormal_end(tool, measured, limits) {
        return ValidatorVerdict::Fault(fault);
    }
    let Termination::Exited(code) = measured.termination else {
        return ValidatorVerdict::Fault(tool.fault("ended without an exit code"));
    };
    let mut text = measured.stderr.clone();
    text.extend_from_slice(&measured.stdout);
    let said = message(&text, measured.stderr_discarded_bytes);
    let invalid = |code: i32| {
        ValidatorVerdict::Invalid(if said.is_empty() {
            format!("the {} rejected the input (exit code {code})", tool.label())
        } else {
            format!("the {} rejected the input: {said}", tool.label())
        })
    };
    match (exit_codes, code) {
        (ValidatorExitCodes::Testlib, 0) | (ValidatorExitCodes::Kattis, KATTIS_ACCEPT) => {
            ValidatorVerdict::Valid
        }
        (ValidatorExitCodes::Testlib, code)
        | (ValidatorExitCodes::Kattis, code @ KATTIS_REJECT) => invalid(code),
        (ValidatorExitCodes::Kattis, code) => {
            ValidatorVerdict::Fault(tool.fault(tool::with_stderr(
                &format!(
                    "exited with code {code}, which the Kattis protocol does not define \
                 ({KATTIS_ACCEPT} valid, {KATTIS_REJECT} invalid)"
                ),
                measured,
            )))
        }
    }
}

impl CheckerProtocol {
    /// Runs the checker on one output and decides it.
    pub(crate) fn check(
        self,
        toolbox: &Toolbox,
        tool: &Tool,
        extra_args: &[String],
        input: &str,
        output: &str,
        answer: &str,
    ) -> Result<CheckOutcome, CheckerFailure> {
        let failure = |fault: ToolFault| CheckerFailure::new(fault.0);
        let extra: Vec<&str> = extra_args.iter().map(String::as_str).collect();
        match self {
            CheckerProtocol::Testlib => {
                let mut args = vec!["input", "output", "answer"];
                args.extend(&extra);
                let run = toolbox
                    .run_message(
                        tool,
                        &args,
                        None,
                        &[
                            ("input", input.as_bytes()),
                            ("output", output.as_bytes()),
                            ("answer", answer.as_bytes()),
                        ],
                        &[],
                        &[],
                    )
                    .map_err(failure)?;
                decide_testlib(tool, &run.measured, toolbox.limits()).map_err(failure)
            }
            CheckerProtocol::Kattis => {
                let mut args = vec!["input", "answer", "feedback/"];
                args.extend(&extra);
                let run = toolbox
                    .run_message(
                        tool,
                        &args,
                        Some(output.as_bytes()),
                        &[("input", input.as_bytes()), ("answer", answer.as_bytes())],
                        &["feedback"],
                        &[
                            "feedback/judgemessage.txt",
                            "feedback/score.txt",
                            "feedback/score_multiplier.txt",
                        ],
                    )
                    .map_err(failure)?;
                let file = |wanted: &str| {
                    run.files
                        .iter()
                        .find(|(name, _)| name == wanted)
                        .map(|(_, bytes)| bytes.as_slice())
                };
                let unread = |wanted: &str| {
                    run.unread
                        .iter()
                        .find(|(name, _)| name == wanted)
                        .map_or(0, |(_, more)| *more)
                };
                let judge_message = file("feedback/judgemessage.txt").unwrap_or(&[]);
                let mut outcome = decide_kattis(
                    tool,
                    &run.measured,
                    (judge_message, unread("feedback/judgemessage.txt")),
                    toolbox.limits(),
                )
                .map_err(failure)?;
                // A score is one number: past a message's bound it is no
                // score, and the validator's fault.
                if let Some((name, _)) = run
                    .unread
                    .iter()
                    .find(|(name, _)| name != "feedback/judgemessage.txt")
                {
                    return Err(failure(tool.fault(format!(
                        "left a file the judge does not read: `{name}` holds more than the \
                         {MAX_MESSAGE_BYTES} bytes the judge reads of it"
                    ))));
                }
                if outcome.verdict == crate::verdict::Verdict::Accepted {
                    outcome.score = validator_score(
                        tool,
                        file("feedback/score.txt"),
                        file("feedback/score_multiplier.txt"),
                    )
                    .map_err(failure)?;
                }
                Ok(outcome)
            }
        }
    }
}

/// testlib: exit 0 AC, 1 WA, 2 PE, 3 failure, 7 points (AC with the
/// points the message starts with, the test's score: issue #29); the
/// message on stderr, which testlib checkers always write ("ok 3
/// numbers", "points 2.5 half of the pairs").
pub(super) fn decide_testlib(
    tool: &Tool,
    measured: &Measured,
    limits: &Limits,
) -> Result<CheckOutcome, ToolFault> {
    if let Some(fault) = tool::abnormal_end(tool, measured, limits) {
        return Err(fault);
    }
    let Termination::Exited(code) = measured.termination else {
        return Err(tool.fault("ended without an exit code"));
    };
    // A testlib checker's stderr is its verdict's reason, one line as
    // testlib writes it (`quitf`): a flood there is a fault, unlike a Kattis
    // validator's log.
    let written = measured.stderr.len() as u64 + measured.stderr_discarded_bytes;
    if written > MAX_MESSAGE_BYTES as u64 {
        return Err(tool.fault(format!(
            "wrote a message of {written} bytes on stderr, more than the {MAX_MESSAGE_BYTES} a \
             reason may have"
        )));
    }
    let said = message(&measured.stderr, 0);
    if !(0..=3).contains(&code) && code != TESTLIB_POINTS {
        return Err(tool.fault(tool::with_stderr(
            &format!(
                "exited with code {code}, which the testlib protocol does not define (0 AC, 1 WA, \
                 2 PE, 3 fail, {TESTLIB_POINTS} points)"
            ),
            measured,
        )));
    }
    if said.is_empty() {
        return Err(tool.fault(format!(
            "exited with code {code} but wrote no message on stderr (a testlib checker always says why)"
        )));
    }
    // A checker that died of an uncaught exception also exits 1: its
    // traceback is not a verdict on the contestant (issue #17).
    if code == 1 {
        if let Some(reason) = uncaught_exception(&said) {
            return Err(tool.fault(format!(
                "crashed with an uncaught exception ({reason}):\n{said}"
            )));
        }
    }
    match code {
        0 => Ok(CheckOutcome::accepted(said)),
        1 => Ok(CheckOutcome::wrong_answer(said)),
        2 => Ok(CheckOutcome::presentation_error(said)),
        TESTLIB_POINTS => match testlib_points(&said) {
            Some(points) => Ok(CheckOutcome {
                score: Some(ValidatorScore::Score(points)),
                ..CheckOutcome::accepted(said)
            }),
            None => Err(tool.fault(format!(
                "exited with code {TESTLIB_POINTS} (points) but its message does not start with a \
                 score of at least 0: {said}"
            ))),
        },
        _ => Err(tool.fault(format!("reported a failure (exit code 3): {said}"))),
    }
}

/// Kattis: exit 42 AC, 43 WA; the message in `judgemessage.txt` (may be
/// empty).
pub(super) fn decide_kattis(
    tool: &Tool,
    measured: &Measured,
    (judge_message, unread): (&[u8], u64),
    limits: &Limits,
) -> Result<CheckOutcome, ToolFault> {
    if let Some(fault) = tool::abnormal_end(tool, measured, limits) {
        return Err(fault);
    }
    let Termination::Exited(code) = measured.termination else {
        return Err(tool.fault("ended without an exit code"));
    };
    let said = message(judge_message, unread);
    match code {
        KATTIS_ACCEPT => Ok(CheckOutcome::accepted(said)),
        KATTIS_REJECT => Ok(CheckOutcome::wrong_answer(if said.is_empty() {
            "the output validator rejected the output".to_owned()
        } else {
            said
        })),
        code => Err(tool.fault(tool::with_stderr(
            &format!(
                "exited with code {code}, which the Kattis protocol does not define \
                 ({KATTIS_ACCEPT} AC, {KATTIS_REJECT} WA)"
            ),
            measured,
        ))),
    }
}

/// An accepted output's score from the validator's feedback folder:
/// `score.txt` (the score) or `score_multiplier.txt` (a share of the
/// test's maximum); writing both, or either with anything but one number
/// of at least 0, is the validator's fault. A rejected output's score
/// files are not read: a rejected test scores its group's reject score.
pub(super) fn validator_score(
    tool: &Tool,
    score: Option<&[u8]>,
    multiplier: Option<&[u8]>,
) -> Result<Option<crate::verdict::ValidatorScore>, ToolFault> {
    use crate::verdict::{Points, ValidatorScore};
    let parse = |name: &str, bytes: &[u8]| {
        Points::parse(&String::from_utf8_lossy(bytes))
            .map_err(|reason| tool.fault(format!("wrote a bad {name}: {reason}")))
    };
    match (score, multiplier) {
        (Some(_), Some(_)) => Err(tool.fault(
            "wrote both score.txt and score_multiplier.txt (a validator writes one at most)",
        )),
        (Some(bytes), None) => Ok(Some(ValidatorScore::Score(parse("score.txt", bytes)?))),
        (None, Some(bytes)) => {
            let share = parse("score_multiplier.txt", bytes)?;
            if share.0 > 1.0 {
                return Err(tool.fault(format!(
                    "wrote a bad score_multiplier.txt: `{share}` is not between 0 and 1"
                )));
            }
            Ok(Some(ValidatorScore::Multiplier(share)))
        }
        (None, None) => Ok(None),
    }
}

/// " (they first differ on line L)", for a message about two texts.
pub(super) fn first_difference(first: &str, second: &str) -> String {
    let line = first
        .lines()
        .zip(second.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| first.lines().count().min(second.lines().count()));
    format!(" (they first differ on line {})", line + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::LimitExceeded;
    use crate::verdict::{Points, Verdict};
    use std::path::PathBuf;
    use test_case::test_case;

    fn tool() -> Tool {
        Tool::new(tool::Role::Checker, PathBuf::from("pkg/check.cpp"), None)
    }

    fn limits() -> Limits {
        Limits {
            cpu_time_ms: 1000,
            wall_time_ms: 2000,
            memory_kib: 1024,
            stdout_bytes: 1024,
            stderr_bytes: 1024,
            processes: 1,
            open_files: 1,
            file_size_kib: 1,
            scratch_kib: 1,
        }
    }

    fn measured(termination: Termination, stderr: &str) -> Measured {
        Measured {
            termination,
            limit_exceeded: None,
            cpu_time_ms: 1,
            wall_time_ms: 1,
            memory_kib: 1,
            stdout: Vec::new(),
            stderr: stderr.as_bytes().to_vec(),
            stderr_discarded_bytes: 0,
            deadlocked: false,
            run_queue_wait_ms: None,
            wall_granted_ms: 0,
        }
    }

    #[test_case(0, "ok 3 numbers", Ok((Verdict::Accepted, "ok 3 numbers")) ; "exit 0 is AC")]
    #[test_case(1, "expected 5, got 4", Ok((Verdict::WrongAnswer, "expected 5, got 4")) ; "exit 1 is WA")]
    #[test_case(2, "expected an integer", Ok((Verdict::PresentationError, "expected an integer")) ; "exit 2 is PE")]
    #[test_case(3, "bad answer", Err("checker `check.cpp` reported a failure (exit code 3): bad answer") ; "exit 3 is a failure")]
    #[test_case(4, "", Err("checker `check.cpp` exited with code 4, which the testlib protocol does not define (0 AC, 1 WA, 2 PE, 3 fail, 7 points) <stderr is empty>") ; "another code is a fault")]
    #[test_case(7, "points 2.5 half of the pairs", Ok((Verdict::Accepted, "points 2.5 half of the pairs")) ; "exit 7 is AC with points")]
    #[test_case(7, "3", Err("checker `check.cpp` exited with code 7 (points) but its message does not start with a score of at least 0: 3") ; "exit 7 with bare points")]
    #[test_case(7, "points many", Err("checker `check.cpp` exited with code 7 (points) but its message does not start with a score of at least 0: points many") ; "points that are no number")]
    #[test_case(7, "points -1 below zero", Err("checker `check.cpp` exited with code 7 (points) but its message does not start with a score of at least 0: points -1 below zero") ; "negative points")]
    #[test_case(0, "  \n", Err("checker `check.cpp` exited with code 0 but wrote no message on stderr (a testlib checker always says why)") ; "no message is a fault")]
    fn decides_testlib_exit_codes(
        code: i32,
        stderr: &str,
        expected: Result<(Verdict, &str), &str>,
    ) {
        let decided = decide_testlib(
            &tool(),
            &measured(Termination::Exited(code), stderr),
            &limits(),
        );
        let decided = decided
            .as_ref()
            .map(|outcome| (outcome.verdict, outcome.reason.as_str()))
            .map_err(|fault| fault.0.as_str());
        assert_eq!(decided, expected);
    }

    /// See: issue #29. `quitp`'s points are the test's score; no other
    /// exit code gives one.
    #[test_case(7, "points 2.5 half of the pairs", Some(2.5) ; "points")]
    #[test_case(7, "points 10", Some(10.0) ; "a whole number")]
    #[test_case(7, "points -0 nothing", Some(0.0) ; "minus zero")]
    #[test_case(0, "ok 7 numbers", None ; "accepted scores as its test")]
    fn a_testlib_checkers_points_are_the_score(code: i32, stderr: &str, wanted: Option<f64>) {
        let outcome = decide_testlib(
            &tool(),
            &measured(Termination::Exited(code), stderr),
            &limits(),
        )
        .unwrap();
        assert_eq!(
            outcome.score,
            wanted.map(|points| ValidatorScore::Score(Points(points)))
        );
        // -0 is shown as 0, never as -0.
        if let Some(ValidatorScore::Score(points)) = outcome.score {
            assert!(points.0.is_sign_positive(), "{points:?}");
        }
    }

    /// See: issue #29 break-it. testlib writes `points`, then the number as
    /// `%d` or `%.10f` prints it; anything else is no score of quitp's.
    #[test_case(42, "", Ok((Verdict::Accepted, "")) ; "42 is AC")]
    #[test_case(43, "wrong sum", Ok((Verdict::WrongAnswer, "wrong sum")) ; "43 is WA with the message")]
    #[test_case(43, "", Ok((Verdict::WrongAnswer, "the output validator rejected the output")) ; "43 without a message")]
    #[test_case(0, "", Err("checker `check.cpp` exited with code 0, which the Kattis protocol does not define (42 AC, 43 WA) <stderr is empty>") ; "0 is a fault")]
    fn decides_kattis_exit_codes(
        code: i32,
        message: &str,
        expected: Result<(Verdict, &str), &str>,
    ) {
        let decided = decide_kattis(
            &tool(),
            &measured(Termination::Exited(code), ""),
            (message.as_bytes(), 0),
            &limits(),
        );
        let decided = decided
            .as_ref()
            .map(|outcome| (outcome.verdict, outcome.reason.as_str()))
            .map_err(|fault| fault.0.as_str());
        assert_eq!(decided, expected);
    }

    /// See: issue #34. A message past the bound is cut and says so; the
    /// exit code still decides.
    #[test]
    fn a_long_message_is_cut_and_the_exit_code_decides() {
        let long = "diff line\n".repeat(2000);
        let decided = decide_kattis(
            &tool(),
            &measured(Termination::Exited(43), ""),
            (
                &long.as_bytes()[..MAX_MESSAGE_BYTES],
                20_000 - MAX_MESSAGE_BYTES as u64,
            ),
            &limits(),
        )
        .unwrap();
        assert_eq!(decided.verdict, Verdict::WrongAnswer);
        assert!(
            decided.reason.starts_with("diff line\ndiff line"),
            "{}",
            decided.reason
        );
        assert!(
            decided.reason.ends_with(&format!(
                "... ({} more bytes not shown: the message was cut at the 16384 bytes the judge \
                 reads)",
                20_000 - 512
            )),
            "{}",
            decided.reason
        );
        let accepted = decide_kattis(
            &tool(),
            &measured(Termination::Exited(42), ""),
            (&long.as_bytes()[..MAX_MESSAGE_BYTES], 1),
            &limits(),
        )
        .unwrap();
        assert_eq!(accepted.verdict, Verdict::Accepted);
        let mut chatty = measured(Termination::Exited(42), &"read token\n".repeat(3000));
        chatty.stderr_discarded_bytes = 1 << 20;
        let verdict = validator_verdict(&tool(), ValidatorExitCodes::Kattis, &chatty, &limits());
        assert!(matches!(verdict, ValidatorVerdict::Valid), "{verdict:?}");
    }

    #[test]
    fn crashes_timeouts_and_floods_are_faults() {
        let crashed = measured(Termination::Signaled(11), "");
        assert_eq!(
            decide_testlib(&tool(), &crashed, &limits()).unwrap_err().0,
            "checker `check.cpp` was killed by signal 11 (SIGSEGV) <stderr is empty>"
        );
        let mut slow = measured(Termination::Signaled(9), "");
        slow.limit_exceeded = Some(LimitExceeded::WallTime);
        assert!(decide_kattis(&tool(), &slow, (b"", 0), &limits())
            .unwrap_err()
            .0
            .starts_with("checker `check.cpp` timed out: it ran for more than 2000 ms"));
        let mut flood = measured(Termination::Exited(1), "x");
        flood.stderr_discarded_bytes = 1 << 20;
        assert!(decide_testlib(&tool(), &flood, &limits())
            .unwrap_err()
            .0
            .starts_with("checker `check.cpp` wrote a message of 1048577 bytes on stderr"));
    }

    #[test_case(ValidatorExitCodes::Testlib, 0, true ; "testlib 0 valid")]
    #[test_case(ValidatorExitCodes::Testlib, 3, false ; "testlib 3 invalid")]
    #[test_case(ValidatorExitCodes::Kattis, 42, true ; "kattis 42 valid")]
    #[test_case(ValidatorExitCodes::Kattis, 43, false ; "kattis 43 invalid")]
    fn validators_follow_their_exit_codes(codes: ValidatorExitCodes, code: i32, valid: bool) {
        let verdict = validator_verdict(
            &tool(),
            codes,
            &measured(Termination::Exited(code), ""),
            &limits(),
        );
        match verdict {
            ValidatorVerdict::Valid => assert!(valid),
            ValidatorVerdict::Invalid(_) => assert!(!valid),
            ValidatorVerdict::Fault(fault) => panic!("{fault}"),
        }
    }

    #[test]
    fn a_kattis_validator_exiting_0_is_a_fault() {
        let verdict = validator_verdict(
            &tool(),
            ValidatorExitCodes::Kattis,
            &measured(Termination::Exited(0), ""),
            &limits(),
        );
        assert!(matches!(verdict, ValidatorVerdict::Fault(_)), "{verdict:?}");
    }

    /// See: issue #15. A validator's score files: one of the two, one
    /// number of at least 0, a multiplier at most 1; anything else is the
    /// validator's fault.
    #[test]
    fn reads_the_validators_score_files() {
        use crate::verdict::{Points, ValidatorScore};
        assert_eq!(validator_score(&tool(), None, None), Ok(None));
        assert_eq!(
            validator_score(&tool(), Some(b" 12.5\n"), None),
            Ok(Some(ValidatorScore::Score(Points(12.5))))
        );
        assert_eq!(
            validator_score(&tool(), None, Some(b"0.25")),
            Ok(Some(ValidatorScore::Multiplier(Points(0.25))))
        );
        for (score, multiplier, wanted) in [
            (Some(&b"1"[..]), Some(&b"1"[..]), "wrote both"),
            (Some(&b"-3"[..]), None, "not a finite score of at least 0"),
            (Some(&b"lots"[..]), None, "`lots` is not a number"),
            (Some(&b"inf"[..]), None, "not a finite score"),
            (None, Some(&b"1.5"[..]), "is not between 0 and 1"),
        ] {
            let fault = validator_score(&tool(), score, multiplier).unwrap_err();
            assert!(fault.0.contains(wanted), "{}", fault.0);
        }
    }

    #[test]
    fn an_uncaught_exception_is_a_fault_not_wa() {
        let tool = tool();
        let traceback = "Traceback (most recent call last):\n  File \"check.py\", line 3, in <module>\nValueError: bad int\n";
        let fault = decide_testlib(
            &tool,
            &measured(Termination::Exited(1), traceback),
            &limits(),
        )
        .unwrap_err();
        assert!(
            fault
                .to_string()
                .contains("crashed with an uncaught exception (ValueError: bad int)"),
            "{fault}"
        );
    }
}
