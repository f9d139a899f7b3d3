//! The folder forms of `validate`, `solve` and `check` (docs/commands.md):
//! every `NAME.in` of a folder, one line per file, one outcome (exit code)
//! for the folder. See: issue #10.
//!
//! Lines are `NAME.in: ok`, `NAME.ans: wrote (missing)`, `NAME VERDICT
//! reason`: the result of the command, which the caller prints on stdout as
//! they come ([`Line::Result`]); a checker failure is also said on stderr
//! ([`Line::Message`]). A folder without any `NAME.in` is a usage error.
//! Not responsible for printing: the caller's `emit` does.

use super::usage::UsageError;
use super::GradingError;
use crate::atomic_file;
use crate::exit::Outcome;
use crate::input_file::Source;
use crate::package::Package;
use crate::problems::{self, CheckOptions, CheckOutcome, CheckerFailure, InputError, Problem};
use crate::verdict::Verdict;
use std::path::Path;

/// One line a folder command says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Line {
    /// A file's result: data, for stdout.
    Result(String),
    /// A message for a person, for stderr.
    Message(String),
}

/// Where the lines go, as they come; an error is stdout's.
pub(crate) type Emit<'a> = &'a mut dyn FnMut(Line) -> std::io::Result<()>;

fn say(emit: Emit<'_>, line: Line) -> Result<(), GradingError> {
    emit(line).map_err(GradingError::Stdout)
}

/// `judge validate <problem> [INPUT]`: a folder is [`validate`]'s; a file
/// (or standard input, for `None`) is one input: success when it is valid,
/// else `NAME: what is wrong` for stderr and [`input_outcome`]'s outcome.
/// With `profile` the input must keep that generator profile's promises too
/// (an unknown profile is a usage error); without, the statement's
/// constraints only.
pub(crate) fn validate_path(
    package: &Package,
    input: Option<&Path>,
    profile: Option<&str>,
    emit: Emit<'_>,
) -> Result<Outcome, GradingError> {
    if let Some(profile) = profile {
        problems::find_profile(&**package.problem(), profile)
            .map_err(UsageError::UnknownProfile)?;
    }
    let validate_one = |input: &str| match profile {
        Some(profile) => package.problem().validate(input, Some(profile)),
        None => package.validate_statement(input),
    };
    if let Some(dir) = input.filter(|path| path.is_dir()) {
        return validate(&validate_one, dir, emit);
    }
    let source = Source::read(input)?;
    match source.text().and_then(validate_one) {
        Ok(()) => Ok(Outcome::Success),
        Err(error) => {
            say(emit, Line::Message(format!("{}: {error}", source.name)))?;
            Ok(input_outcome(&error))
        }
    }
}

/// `judge solve <problem> [INPUT]`: a folder is [`solve`]'s; a file (or
/// standard input, for `None`) is one input, whose reference answer is the
/// result. An invalid input is a failure (`error: invalid input: NAME:
/// ...`), a package program's failure the judge's.
pub(crate) fn solve_path(
    problem: &dyn Problem,
    input: Option<&Path>,
    emit: Emit<'_>,
) -> Result<Outcome, GradingError> {
    if let Some(dir) = input.filter(|path| path.is_dir()) {
        return solve(problem, dir, emit);
    }
    let source = Source::read(input)?;
    match source.text().and_then(|input| problem.solve(input)) {
        Ok(answer) => {
            say(emit, Line::Result(answer))?;
            Ok(Outcome::Success)
        }
        Err(error) => {
            let outcome = input_outcome(&error);
            let line = if outcome == Outcome::Failure {
                format!("error: invalid input: {}: {error}", source.name)
            } else {
                format!("error: {error}")
            };
            say(emit, Line::Message(line))?;
            Ok(outcome)
        }
    }
}

/// A failure of `judge check` that is not a verdict on the output (`JE
/// reason`, exit 3).
#[derive(Debug, thiserror::Error)]
pub(crate) enum CheckFailed {
    /// A usage error, a folder that cannot be read, stdout.
    #[error(transparent)]
    Grading(#[from] GradingError),
    /// A file given cannot be read.
    #[error(transparent)]
    Read(#[from] ReadFailed),
}

/// `judge check <problem> INPUT OUTPUT [ANSWER]`: a folder of tests is
/// [`check`]'s (its answers are its `NAME.ans` files, so an ANSWER is a
/// usage error); else [`check_file`]'s, its lines said.
pub(crate) fn check_path(
    problem: &dyn Problem,
    input: &Path,
    output: &Path,
    answer: Option<&Path>,
    options: &CheckOptions,
    emit: Emit<'_>,
) -> Result<Outcome, CheckFailed> {
    if input.is_dir() {
        if answer.is_some() {
            return Err(GradingError::from(UsageError::AnswerWithFolder).into());
        }
        return Ok(check(problem, input, output, options, emit)?);
    }
    let (said, outcome) = check_file(problem, input, output, answer, options)?;
    for line in said {
        say(emit, line)?;
    }
    Ok(outcome)
}

/// The sorted stems of `DIR/*.in` ([`crate::test_files::list`]), or a
/// usage error when there are none (or `DIR` is gone).
fn stems(dir: &Path) -> Result<Vec<String>, GradingError> {
    let stems = match crate::test_files::list(dir) {
        Ok(tests) => tests.into_iter().map(|test| test.name).collect(),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(source) => {
            return Err(GradingError::ReadFolder {
                path: dir.to_owned(),
                source,
            })
        }
    };
    if stems.is_empty() {
        return Err(UsageError::NoInputs {
            path: dir.to_owned(),
        }
        .into());
    }
    Ok(stems)
}

/// `judge validate <problem> DIR`: success when every input is valid,
/// failure when any is invalid, the judge failing when any cannot be read
/// (that one is not a verdict).
pub(crate) fn validate(
    validate: &dyn Fn(&str) -> Result<(), InputError>,
    dir: &Path,
    emit: Emit<'_>,
) -> Result<Outcome, GradingError> {
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
        say(emit, Line::Result(format!("{line}\n")))?;
    }
    Ok(Outcome::of(unreadable > 0, invalid == 0))
}

/// `judge solve <problem> DIR`: writes `NAME.ans` where it is missing or
/// differs from the reference answer (stale), each atomically, and says
/// which. Success when every input solved, failure when any input is
/// invalid, the judge failing when any file cannot be read or written.
pub(crate) fn solve(
    problem: &dyn Problem,
    dir: &Path,
    emit: Emit<'_>,
) -> Result<Outcome, GradingError> {
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
            Ok(Ok(answer)) => match answer_state(&answer_path, &answer) {
                None => format!("{stem}.ans: up to date"),
                Some(state) => match atomic_file::write_atomically(&answer_path, answer.as_bytes())
                {
                    Ok(()) => format!("{stem}.ans: wrote ({state})"),
                    Err(error) => {
                        failed += 1;
                        format!("{stem}.ans: {error}")
                    }
                },
            },
        };
        say(emit, Line::Result(format!("{line}\n")))?;
    }
    Ok(Outcome::of(failed > 0, invalid == 0))
}

/// Why `path` needs `answer` written: `missing`, `stale`, or `None` when it
/// already holds it.
fn answer_state(path: &Path, answer: &str) -> Option<&'static str> {
    match crate::data_file::read(path, crate::data_file::MAX_TEST_BYTES).ok() {
        None => Some("missing"),
        Some(old) if old.as_slice() != answer.as_bytes() => Some("stale"),
        Some(_) => None,
    }
}

/// `judge check <problem> TESTS OUTPUTS`: the output of `TESTS/NAME.in` is
/// `OUTPUTS/NAME.out` (or `OUTPUTS/NAME`), judged against `TESTS/NAME.ans`
/// when it exists, else the reference solver. A missing output is WA. The
/// outcome is that of the first test that is not AC in name order
/// ([`check_outcome`]), and the judge failing whenever any test is JE.
pub(crate) fn check(
    problem: &dyn Problem,
    tests: &Path,
    outputs: &Path,
    options: &CheckOptions,
    emit: Emit<'_>,
) -> Result<Outcome, GradingError> {
    if !outputs.is_dir() {
        return Err(UsageError::NotAFolderOfOutputs {
            path: outputs.to_owned(),
        }
        .into());
    }
    let mut first_failure: Option<Verdict> = None;
    let mut judge_failed = false;
    for stem in stems(tests)? {
        let (verdict, reason) = check_one(problem, tests, outputs, &stem, options, emit)?;
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
        say(emit, Line::Result(line))?;
    }
    Ok(match first_failure {
        _ if judge_failed => Outcome::JudgeFailed,
        None => Outcome::Success,
        Some(verdict) => check_outcome(verdict),
    })
}

/// The outcome of one verdict of `judge check`, for its testlib exit code:
/// AC success, PE a presentation error, JE the judge failing, anything else
/// a failure (testlib's wrong answer).
pub(crate) fn check_outcome(verdict: Verdict) -> Outcome {
    match verdict {
        Verdict::Accepted => Outcome::Success,
        Verdict::PresentationError => Outcome::PresentationError,
        Verdict::JudgeError => Outcome::JudgeFailed,
        _ => Outcome::Failure,
    }
}

/// Decides one output read whole: an input or answer that is not text is the
/// judge's data failing (a [`CheckerFailure`]), never the contestant's.
pub(crate) fn check_sources(
    problem: &dyn Problem,
    input: &Source,
    output: &Source,
    answer: Option<&Source>,
    options: &CheckOptions,
) -> Result<CheckOutcome, CheckerFailure> {
    let input_text = input
        .text()
        .map_err(|error| CheckerFailure::new(format!("the input {}: {error}", input.name)))?;
    let answer_text = answer
        .map(|answer| {
            answer.text().map_err(|error| {
                CheckerFailure::new(format!("the answer {}: {error}", answer.name))
            })
        })
        .transpose()?;
    problems::check_bytes(problem, input_text, &output.bytes, answer_text, options)
}

/// A file `judge check` was given could not be read: not a verdict (exit 3).
#[derive(Debug, thiserror::Error)]
#[error("failed to read the {what}")]
pub(crate) struct ReadFailed {
    /// `input`, `output` or `answer`.
    pub(crate) what: &'static str,
    #[source]
    pub(crate) source: crate::input_file::CannotRead,
}

/// `judge check <problem> INPUT OUTPUT [ANSWER]`: the `VERDICT reason` line
/// (and, when the checker failed, a line for stderr) and the outcome.
pub(crate) fn check_file(
    problem: &dyn Problem,
    input: &Path,
    output: &Path,
    answer: Option<&Path>,
    options: &CheckOptions,
) -> Result<(Vec<Line>, Outcome), ReadFailed> {
    let read = |what, path| Source::read(Some(path)).map_err(|source| ReadFailed { what, source });
    let input = read("input", input)?;
    let output = read("output", output)?;
    let answer = answer.map(|path| read("answer", path)).transpose()?;
    Ok(
        match check_sources(problem, &input, &output, answer.as_ref(), options) {
            Ok(outcome) if outcome.reason.is_empty() => (
                vec![Line::Result(format!("{}\n", outcome.verdict))],
                check_outcome(outcome.verdict),
            ),
            Ok(outcome) => (
                vec![Line::Result(format!(
                    "{} {}\n",
                    outcome.verdict, outcome.reason
                ))],
                check_outcome(outcome.verdict),
            ),
            Err(failure) => (
                vec![
                    Line::Result(format!("{} {failure}\n", Verdict::JudgeError)),
                    Line::Message(format!("error: checker failure: {failure}")),
                ],
                Outcome::JudgeFailed,
            ),
        },
    )
}

/// What `judge validate` and `judge solve` do with an input error: a
/// package program's failure is the judge's, anything else is the input's
/// (a failure).
pub(crate) fn input_outcome(error: &InputError) -> Outcome {
    match error.kind {
        problems::InputErrorKind::ProgramFailed(_) => Outcome::JudgeFailed,
        _ => Outcome::Failure,
    }
}

fn check_one(
    problem: &dyn Problem,
    tests: &Path,
    outputs: &Path,
    stem: &str,
    options: &CheckOptions,
    emit: Emit<'_>,
) -> Result<(Verdict, String), GradingError> {
    let judge_error = |message: String| Ok((Verdict::JudgeError, message));
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
        return Ok((
            Verdict::WrongAnswer,
            format!(
                "no output `{}`",
                outputs.join(format!("{stem}.out")).display()
            ),
        ));
    };
    let output = match Source::read(Some(&output_path)) {
        Ok(output) => output,
        Err(error) => return judge_error(error.to_string()),
    };
    match check_sources(problem, &input, &output, answer.as_ref(), options) {
        Ok(outcome) => Ok((outcome.verdict, outcome.reason)),
        Err(failure) => {
            say(
                emit,
                Line::Message(format!("error: {stem}: checker failure: {failure}")),
            )?;
            judge_error(failure.to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rooks() -> &'static dyn Problem {
        problems::find("rooks").expect("rooks is bundled")
    }

    /// Runs `command` and collects what it said.
    fn lines(
        command: impl FnOnce(Emit<'_>) -> Result<Outcome, GradingError>,
    ) -> (Outcome, Vec<Line>) {
        let mut said = Vec::new();
        let code = command(&mut |line| {
            said.push(line);
            Ok(())
        })
        .expect("the folder is readable");
        (code, said)
    }

    #[test]
    fn validate_says_each_input_and_exits_1_on_an_invalid_one() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        fs_err::write(dir.path().join("a.in"), "1\n.\n0\n").expect("write");
        fs_err::write(dir.path().join("b.in"), "nonsense\n").expect("write");
        let (code, said) =
            lines(|emit| validate(&|input| rooks().validate(input, None), dir.path(), emit));
        assert_eq!(code, Outcome::Failure);
        assert_eq!(said[0], Line::Result("a.in: ok\n".to_owned()));
        assert!(matches!(&said[1], Line::Result(line) if line.starts_with("b.in: line 1")));
    }

    #[test]
    fn an_empty_folder_is_a_usage_error() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let error = solve(rooks(), dir.path(), &mut |_| Ok(())).expect_err("no inputs");
        assert!(
            matches!(error, GradingError::Usage(UsageError::NoInputs { .. })),
            "{error}"
        );
        assert!(error.to_string().contains("holds no `NAME.in` file"));
    }

    #[test]
    fn solve_writes_missing_answers_once_and_then_says_up_to_date() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        fs_err::write(dir.path().join("a.in"), "1\n.\n0\n").expect("write");
        let (code, said) = lines(|emit| solve(rooks(), dir.path(), emit));
        assert_eq!(code, Outcome::Success);
        assert_eq!(said, [Line::Result("a.ans: wrote (missing)\n".to_owned())]);
        let (_, said) = lines(|emit| solve(rooks(), dir.path(), emit));
        assert_eq!(said, [Line::Result("a.ans: up to date\n".to_owned())]);
        fs_err::write(dir.path().join("a.ans"), "wrong\n").expect("write");
        let (_, said) = lines(|emit| solve(rooks(), dir.path(), emit));
        assert_eq!(said, [Line::Result("a.ans: wrote (stale)\n".to_owned())]);
    }

    #[test]
    fn check_calls_a_missing_output_wa_and_takes_the_first_failures_code() {
        let tests = tempfile::tempdir().expect("a temporary folder");
        let outputs = tempfile::tempdir().expect("a temporary folder");
        fs_err::write(tests.path().join("a.in"), "1\n.\n0\n").expect("write");
        let answer = rooks().solve("1\n.\n0\n").expect("solvable");
        fs_err::write(outputs.path().join("a.out"), &answer).expect("write");
        fs_err::write(tests.path().join("b.in"), "1\n.\n0\n").expect("write");
        let options = CheckOptions::default();
        let (code, said) =
            lines(|emit| check(rooks(), tests.path(), outputs.path(), &options, emit));
        assert_eq!(code, Outcome::Failure);
        assert!(
            matches!(&said[0], Line::Result(line) if line.starts_with("a AC")),
            "{said:?}"
        );
        assert!(matches!(&said[1], Line::Result(line) if line.starts_with("b WA no output")));
    }

    #[test]
    fn check_file_says_the_verdict_and_names_a_file_it_cannot_read() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let (input, output) = (dir.path().join("a.in"), dir.path().join("a.out"));
        fs_err::write(&input, "1\n.\n0\n").expect("write");
        fs_err::write(&output, "nonsense\n").expect("write");
        let options = CheckOptions::default();
        let (said, code) =
            check_file(rooks(), &input, &output, None, &options).expect("both readable");
        assert_ne!(code, Outcome::Success);
        assert!(
            matches!(&said[..], [Line::Result(line)] if line.starts_with("WA ") || line.starts_with("PE ")),
            "{said:?}"
        );
        let missing = dir.path().join("missing.ans");
        let error = check_file(rooks(), &input, &output, Some(&missing), &options)
            .expect_err("the answer is missing");
        assert_eq!(error.what, "answer");
        assert_eq!(error.to_string(), "failed to read the answer");
    }
}
