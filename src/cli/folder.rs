//! The folder forms of `validate`, `solve` and `check` (SPEC.md additions):
//! every `NAME.in` of a folder, one line per file on stdout, one exit code
//! for the folder. See: issue #10.
//!
//! Lines are `NAME.in: ok`, `NAME.ans: wrote (missing)`, `NAME VERDICT
//! reason`: the result of the command, so stdout; a folder without any
//! `NAME.in` is a usage error.

use super::{say, write_stdout, Source};
use crate::error::{Error, UsageError};
use crate::exit;
use crate::problems::{self, CheckOptions, CheckerFailure, Problem};
use crate::report;
use crate::testset;
use crate::verdict::Verdict;
use std::path::Path;

/// The sorted stems of `DIR/*.in`, or a usage error when there are none.
fn stems(dir: &Path) -> Result<Vec<String>, Error> {
    let stems = testset::inputs_in(dir)?;
    if stems.is_empty() {
        return Err(
            UsageError::new(format!("`{}` holds no `NAME.in` file", dir.display()), None).into(),
        );
    }
    Ok(stems)
}

/// `judge validate <problem> DIR`: 0 when every input is valid, 1 when any is
/// invalid, 3 when any cannot be read (that one is not a verdict).
pub(super) fn validate(
    validate: &dyn Fn(&str) -> Result<(), problems::InputError>,
    dir: &Path,
) -> Result<u8, Error> {
    let (mut invalid, mut unreadable) = (0, 0);
    for stem in stems(dir)? {
        let path = dir.join(format!("{stem}.in"));
        let line = match Source::read(Some(&path)) {
            Err(error) => {
                unreadable += 1;
                format!("{stem}.in: {error}")
            }
            Ok(source) => match source.text().and_then(validate) {
                Ok(()) => format!("{stem}.in: ok"),
                Err(error) => {
                    invalid += 1;
                    format!("{stem}.in: {error}")
                }
            },
        };
        write_stdout(&format!("{line}\n"))?;
    }
    Ok(if unreadable > 0 {
        exit::JUDGE_FAILED
    } else if invalid > 0 {
        exit::FAILURE
    } else {
        exit::SUCCESS
    })
}

/// `judge solve <problem> DIR`: writes `NAME.ans` where it is missing or
/// differs from the reference answer (stale), each atomically, and says
/// which. 0 when every input solved, 1 when any input is invalid, 3 when any
/// file cannot be read or written.
pub(super) fn solve(problem: &dyn Problem, dir: &Path) -> Result<u8, Error> {
    let (mut invalid, mut failed) = (0, 0);
    for stem in stems(dir)? {
        let input_path = dir.join(format!("{stem}.in"));
        let answer_path = dir.join(format!("{stem}.ans"));
        let answer = Source::read(Some(&input_path))
            .map(|source| source.text().and_then(|input| problem.solve(input)));
        let line = match answer {
            Err(error) => {
                failed += 1;
                format!("{stem}.in: {error}")
            }
            Ok(Err(error)) => {
                invalid += 1;
                format!("{stem}.in: invalid: {error}")
            }
            Ok(Ok(answer)) => {
                let old = fs_err::read(&answer_path).ok();
                let state = match &old {
                    None => Some("missing"),
                    Some(old) if old.as_slice() != answer.as_bytes() => Some("stale"),
                    Some(_) => None,
                };
                match state {
                    None => format!("{stem}.ans: up to date"),
                    Some(state) => {
                        match report::write_atomically(&answer_path, answer.as_bytes()) {
                            Ok(()) => format!("{stem}.ans: wrote ({state})"),
                            Err(error) => {
                                failed += 1;
                                format!("{stem}.ans: {error}")
                            }
                        }
                    }
                }
            }
        };
        write_stdout(&format!("{line}\n"))?;
    }
    Ok(if failed > 0 {
        exit::JUDGE_FAILED
    } else if invalid > 0 {
        exit::FAILURE
    } else {
        exit::SUCCESS
    })
}

/// `judge check <problem> TESTS OUTPUTS`: the output of `TESTS/NAME.in` is
/// `OUTPUTS/NAME.out` (or `OUTPUTS/NAME`), judged against `TESTS/NAME.ans`
/// when it exists, else the reference solver. A missing output is WA. The
/// exit code is the testlib code of the first test that is not AC in name
/// order, and 3 whenever any test is JE.
pub(super) fn check(
    problem: &dyn Problem,
    tests: &Path,
    outputs: &Path,
    options: &CheckOptions,
) -> Result<u8, Error> {
    if !outputs.is_dir() {
        return Err(UsageError::new(
            format!("`{}` is not a folder of outputs", outputs.display()),
            Some(
                "with a folder of tests, the second argument is a folder of NAME.out files"
                    .to_owned(),
            ),
        )
        .into());
    }
    let mut first_failure: Option<Verdict> = None;
    let mut judge_failed = false;
    for stem in stems(tests)? {
        let (verdict, reason) = check_one(problem, tests, outputs, &stem, options);
        if verdict == Verdict::JudgeError {
            judge_failed = true;
        }
        if verdict != Verdict::Accepted && first_failure.is_none() {
            first_failure = Some(verdict);
        }
        let line = if reason.is_empty() {
            format!("{stem} {verdict}\n")
        } else {
            format!("{stem} {verdict} {reason}\n")
        };
        write_stdout(&line)?;
    }
    Ok(match first_failure {
        _ if judge_failed => exit::JUDGE_FAILED,
        None => exit::SUCCESS,
        Some(Verdict::PresentationError) => exit::PRESENTATION_ERROR,
        Some(_) => exit::WRONG_ANSWER,
    })
}

fn check_one(
    problem: &dyn Problem,
    tests: &Path,
    outputs: &Path,
    stem: &str,
    options: &CheckOptions,
) -> (Verdict, String) {
    let judge_error = |message: String| (Verdict::JudgeError, message);
    let input = match Source::read(Some(&tests.join(format!("{stem}.in")))) {
        Ok(input) => input,
        Err(error) => return judge_error(error.to_string()),
    };
    let answer_path = tests.join(format!("{stem}.ans"));
    let answer = if answer_path.exists() {
        match Source::read(Some(&answer_path)) {
            Ok(answer) => Some(answer),
            Err(error) => return judge_error(error.to_string()),
        }
    } else {
        None
    };
    let output_path = [outputs.join(format!("{stem}.out")), outputs.join(stem)]
        .into_iter()
        .find(|path| path.is_file());
    let Some(output_path) = output_path else {
        return (
            Verdict::WrongAnswer,
            format!(
                "no output `{}`",
                outputs.join(format!("{stem}.out")).display()
            ),
        );
    };
    let output = match Source::read(Some(&output_path)) {
        Ok(output) => output,
        Err(error) => return judge_error(error.to_string()),
    };
    let decided = (|| -> Result<problems::CheckOutcome, CheckerFailure> {
        let input_text = input
            .text()
            .map_err(|error| CheckerFailure::new(format!("the input {}: {error}", input.name)))?;
        let answer_text = answer
            .as_ref()
            .map(|answer| {
                answer.text().map_err(|error| {
                    CheckerFailure::new(format!("the answer {}: {error}", answer.name))
                })
            })
            .transpose()?;
        problems::check_bytes(problem, input_text, &output.bytes, answer_text, options)
    })();
    match decided {
        Ok(outcome) => (outcome.verdict, outcome.reason),
        Err(failure) => {
            say(&format!("error: {stem}: checker failure: {failure}"));
            judge_error(failure.to_string())
        }
    }
}
