//! What a validator's or a checker's exit code and message mean under the
//! protocol the package chose (issue #9):
//!
//! - testlib checker: `checker input output answer`, exit 0 AC, 1 WA,
//!   2 PE, 3 failure, the message on stderr;
//! - Kattis output validator: `validator input answer feedback_dir
//!   [flags] < output`, exit 42 AC, 43 WA, the message in
//!   `feedback_dir/judgemessage.txt`;
//! - input validators: testlib (0 valid, anything else invalid) or Kattis
//!   (42 valid, 43 invalid).
//!
//! Anything else (another exit code, a crash, a timeout, a missing or huge
//! message) is the program's fault, named as such: JE, never a verdict.

use super::tool::{self, Tool, ToolFault, Toolbox};
use crate::config::problem::ValidatorExitCodes;
use crate::problems::{CheckOutcome, CheckerFailure};
use crate::sandbox::{Limits, Measured, Termination};

/// The most of a checker's message kept as a test's reason; a message
/// beyond [`MAX_MESSAGE_BYTES`] is a fault.
const SHOWN_MESSAGE_BYTES: usize = 512;

/// A checker or validator message longer than this is the program's fault:
/// it is a log, not a reason.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024;

/// The protocol an external checker speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckerProtocol {
    Testlib,
    Kattis,
}

/// An input validator's decision.
#[derive(Debug)]
pub enum ValidatorVerdict {
    Valid,
    /// The validator's reason (its message, or the exit code).
    Invalid(String),
    Fault(ToolFault),
}

/// The message of a program: trimmed, or a fault when it is huge.
fn message(tool: &Tool, bytes: &[u8], discarded: u64, place: &str) -> Result<String, ToolFault> {
    if bytes.len() > MAX_MESSAGE_BYTES || discarded > 0 {
        return Err(tool.fault(format!(
            "wrote a message of {} bytes {place}, more than the {MAX_MESSAGE_BYTES} a reason may have",
            bytes.len() as u64 + discarded
        )));
    }
    let text = String::from_utf8_lossy(bytes);
    Ok(tool::cut(text.trim(), SHOWN_MESSAGE_BYTES))
}

/// Decides an input validator's run.
pub fn validator_verdict(
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
    let said = match message(
        tool,
        &text,
        measured.stderr_discarded_bytes,
        "on stderr and stdout",
    ) {
        Ok(said) => said,
        Err(fault) => return ValidatorVerdict::Fault(fault),
    };
    let invalid = |code: i32| {
        ValidatorVerdict::Invalid(if said.is_empty() {
            format!("the {} rejected the input (exit code {code})", tool.label())
        } else {
            format!("the {} rejected the input: {said}", tool.label())
        })
    };
    match (exit_codes, code) {
        (ValidatorExitCodes::Testlib, 0) | (ValidatorExitCodes::Kattis, 42) => ValidatorVerdict::Valid,
        (ValidatorExitCodes::Testlib, code) | (ValidatorExitCodes::Kattis, code @ 43) => invalid(code),
        (ValidatorExitCodes::Kattis, code) => ValidatorVerdict::Fault(tool.fault(tool::with_stderr(
            &format!("exited with code {code}, which the Kattis protocol does not define (42 valid, 43 invalid)"),
            measured,
        ))),
    }
}

impl CheckerProtocol {
    /// Runs the checker on one output and decides it.
    pub fn check(
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
                    .run(
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
                    .run(
                        tool,
                        &args,
                        Some(output.as_bytes()),
                        &[("input", input.as_bytes()), ("answer", answer.as_bytes())],
                        &["feedback"],
                        &["feedback/judgemessage.txt"],
                    )
                    .map_err(failure)?;
                let judge_message = run
                    .files
                    .iter()
                    .find(|(name, _)| name == "feedback/judgemessage.txt")
                    .map_or(&[][..], |(_, bytes)| bytes.as_slice());
                decide_kattis(tool, &run.measured, judge_message, toolbox.limits()).map_err(failure)
            }
        }
    }
}

/// testlib: exit 0 AC, 1 WA, 2 PE, 3 failure; the message on stderr, which
/// testlib checkers always write ("ok 3 numbers").
pub fn decide_testlib(
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
    let said = message(
        tool,
        &measured.stderr,
        measured.stderr_discarded_bytes,
        "on stderr",
    )?;
    if !(0..=3).contains(&code) {
        return Err(tool.fault(tool::with_stderr(
            &format!("exited with code {code}, which the testlib protocol does not define (0 AC, 1 WA, 2 PE, 3 fail)"),
            measured,
        )));
    }
    if said.is_empty() {
        return Err(tool.fault(format!(
            "exited with code {code} but wrote no message on stderr (a testlib checker always says why)"
        )));
    }
    match code {
        0 => Ok(CheckOutcome::accepted(said)),
        1 => Ok(CheckOutcome::wrong_answer(said)),
        2 => Ok(CheckOutcome::presentation_error(said)),
        _ => Err(tool.fault(format!("reported a failure (exit code 3): {said}"))),
    }
}

/// Kattis: exit 42 AC, 43 WA; the message in `judgemessage.txt` (may be
/// empty).
pub fn decide_kattis(
    tool: &Tool,
    measured: &Measured,
    judge_message: &[u8],
    limits: &Limits,
) -> Result<CheckOutcome, ToolFault> {
    if let Some(fault) = tool::abnormal_end(tool, measured, limits) {
        return Err(fault);
    }
    let Termination::Exited(code) = measured.termination else {
        return Err(tool.fault("ended without an exit code"));
    };
    let said = message(tool, judge_message, 0, "in judgemessage.txt")?;
    match code {
        42 => Ok(CheckOutcome::accepted(said)),
        43 => Ok(CheckOutcome::wrong_answer(if said.is_empty() {
            "the output validator rejected the output".to_owned()
        } else {
            said
        })),
        code => Err(tool.fault(tool::with_stderr(
            &format!(
                "exited with code {code}, which the Kattis protocol does not define (42 AC, 43 WA)"
            ),
            measured,
        ))),
    }
}

/// " (they first differ on line L)", for a message about two texts.
pub fn first_difference(first: &str, second: &str) -> String {
    let line = first
        .lines()
        .zip(second.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| first.lines().count().min(second.lines().count()));
    format!(" (they first differ on line {})", line + 1)
}
