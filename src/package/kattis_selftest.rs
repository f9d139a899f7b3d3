//! A Kattis package's tests of its own validators (issue #34): the folders
//! of `data/` that are no test of a submission but say what the validators
//! must decide.
//!
//! - `invalid_input/`: each `.in` must be rejected by an input validator;
//! - `invalid_answer/`: each `.ans` (beside its valid `.in`) must be
//!   rejected by an answer validator (`answer_validators/`, BAPCtools'
//!   convention: `validator testcase.in < testcase.ans`, exit 42 or 43) or,
//!   where an answer is an output (not interactive, not multi-pass), by the
//!   output validator given the answer as the output, as BAPCtools does;
//! - `invalid_output/`: each `.out` must be rejected by the output
//!   validator given its `.in` and `.ans`;
//! - `valid_output/`: each `.out` must be accepted so.
//!
//! The inputs of the last three must be valid. Every program runs in the
//! sandbox with the package's tool limits, as when it checks the tests; a
//! validator that crashes, loops or floods is an error naming it. The
//! output folders are checked for problems that are not interactive or
//! multi-pass, as the format says; for those they are listed as ignored.

use super::generators::make::validator_says;
use super::kattis_programs::{programs_in, FoundProgram};
use crate::config::kattis::{data_folder, ignored_because};
use crate::config::ConfigError;
use crate::external::{Checker, ProgramProblem, Role, TestChecker, Tool};
use crate::runner::LinkScope;
use crate::verdict::Verdict;
use std::path::{Path, PathBuf};

/// A validator's arguments for a test (by its name under `data/`,
/// `invalid_input/bad`) for a validator (by [`program_name`]).
pub(crate) type InputArgs<'a> = dyn Fn(&str, &str) -> Result<Vec<String>, ConfigError> + 'a;

/// How the validators get their arguments for a self-test.
pub(crate) struct Arguments<'a> {
    /// The input validators'.
    pub(crate) input: &'a InputArgs<'a>,
    /// The answer validators' (BAPCtools' `answer_validator_args`).
    pub(crate) answer: &'a InputArgs<'a>,
}

/// A program's name as 2025-09 maps arguments by it: its folder's name, or
/// its file's stem.
pub(crate) fn program_name(path: &Path) -> String {
    if path.is_dir() {
        path.file_name()
    } else {
        path.file_stem()
    }
    .map(|name| name.to_string_lossy().into_owned())
    .unwrap_or_default()
}

/// What the self-tests of a package did not check, with the reason (for
/// the list of ignored files).
pub(crate) type Unchecked = Vec<(PathBuf, String)>;

/// Checks the self-test folders of the package in `dir`, whose programs
/// `problem` runs; `args` gives a test's validator arguments by its name
/// under `data/` (`invalid_input/bad`). The first file a validator decides
/// wrongly is the error, naming it and what the validator did.
pub(crate) fn check(
    dir: &Path,
    problem: &ProgramProblem,
    other_validators: &[Tool],
    args: &Arguments<'_>,
    config: &crate::config::judge::JudgeConfig,
) -> Result<Unchecked, ConfigError> {
    let data = data_folder(dir);
    let inputs = Inputs {
        problem,
        others: other_validators,
        data: &data,
        args: args.input,
    };
    let mut unchecked = Vec::new();
    for input in cases(&data.join("invalid_input"), "in")? {
        let bytes = read(&input)?;
        if inputs.valid(&input, &bytes)? {
            return Err(ConfigError::invalid(
                &input,
                "invalid_input",
                format!(
                    "is under `data/invalid_input/`, but {} accepts it (exit 42); one must \
                     reject it (exit 43)",
                    if other_validators.is_empty() {
                        format!("the input validator `{}`", validator_label(problem))
                    } else {
                        "every input validator".to_owned()
                    }
                ),
            ));
        }
    }
    let answers = cases(&data.join("invalid_answer"), "ans")?;
    if !answers.is_empty() {
        let validators = answer_validators(dir, config)?;
        // The output validator checks answers too where an answer is an
        // output (not interactive, not multi-pass), as BAPCtools has it.
        let output_checks = problem.interaction.is_none();
        if validators.is_empty() && !output_checks {
            return Err(ConfigError::invalid(
                &data.join("invalid_answer"),
                "invalid_answer",
                "holds answers that must be rejected, but `answer_validators/` holds no program \
                 the judge can run to reject them",
            ));
        }
        for answer in answers {
            let input = answer.with_extension("in");
            let input_bytes = valid_input_beside(&inputs, &answer, &input)?;
            let answer_bytes = read(&answer)?;
            let mut rejected = false;
            for validator in &validators {
                // BAPCtools' invocation: `validator testcase.in [args] <
                // testcase.ans`, its group's `answer_validator_args` after
                // the input.
                let extra =
                    (args.answer)(&case_name(&data, &answer), &program_name(&validator.path))?;
                let argv: Vec<&str> = std::iter::once("testcase.in")
                    .chain(extra.iter().map(String::as_str))
                    .collect();
                let accepted = validator_says(
                    &problem.toolbox,
                    validator,
                    &answer_bytes,
                    &[("testcase.in", &input_bytes)],
                    &argv,
                )
                .map_err(|fault| ConfigError::invalid(&answer, "answer validator", fault.0))?;
                rejected |= !accepted;
            }
            if !rejected && output_checks {
                rejected = !output_accepted(
                    problem,
                    &data,
                    &answer,
                    &input_bytes,
                    &answer_bytes,
                    &answer_bytes,
                )?;
            }
            if !rejected {
                let by = match (validators.len(), output_checks) {
                    (0, _) => format!(
                        "the output validator ({}, given the answer as the output) accepts it, \
                         and `answer_validators/` holds no program to reject it",
                        checker_label(problem)
                    ),
                    (_, true) => format!(
                        "every answer validator and the output validator ({}, given the answer \
                         as the output) accept it",
                        checker_label(problem)
                    ),
                    (_, false) => "every answer validator accepts it".to_owned(),
                };
                return Err(ConfigError::invalid(
                    &answer,
                    "invalid_answer",
                    format!(
                        "is under `data/invalid_answer/`, but {by} (exit 42); one must reject it \
                         (exit 43)"
                    ),
                ));
            }
        }
    }
    for (folder, must_accept) in [("invalid_output", false), ("valid_output", true)] {
        let outputs = cases(&data.join(folder), "out")?;
        if outputs.is_empty() {
            continue;
        }
        if problem.interaction.is_some() {
            unchecked.push((
                data.join(folder),
                format!(
                    "`data/{folder}/` is not checked: the format checks it for problems that \
                     are not interactive or multi-pass"
                ),
            ));
            continue;
        }
        for output in outputs {
            let input = output.with_extension("in");
            let input_bytes = valid_input_beside(&inputs, &output, &input)?;
            let answer = output.with_extension("ans");
            let answer_bytes = read_beside(&output, &answer)?;
            let output_bytes = read(&output)?;
            let accepted = output_accepted(
                problem,
                &data,
                &output,
                &input_bytes,
                &answer_bytes,
                &output_bytes,
            )?;
            if accepted != must_accept {
                return Err(ConfigError::invalid(
                    &output,
                    folder,
                    format!(
                        "is under `data/{folder}/`, but the output validator ({}) {} it given \
                         `{}` and `{}`",
                        checker_label(problem),
                        if accepted { "accepts" } else { "rejects" },
                        file_name(&input),
                        file_name(&answer)
                    ),
                ));
            }
        }
    }
    Ok(unchecked)
}

/// The files with `extension` under `folder`, at any depth, by path; what
/// the format ignores (dotfiles) is left out.
fn cases(folder: &Path, extension: &str) -> Result<Vec<PathBuf>, ConfigError> {
    if !folder.is_dir() {
        return Ok(Vec::new());
    }
    let mut found = Vec::new();
    let walk = walkdir::WalkDir::new(folder)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|entry| entry.depth() == 0 || ignored_because(entry.path()).is_none());
    for entry in walk {
        let entry = entry.map_err(|error| {
            ConfigError::invalid(folder, "data", format!("cannot be read: {error}"))
        })?;
        // A FIFO or device is kept, so that reading it refuses it by name
        // rather than dropping the case unsaid (issue #34).
        let file_type = entry.file_type();
        if !file_type.is_dir()
            && !file_type.is_symlink()
            && entry
                .path()
                .extension()
                .is_some_and(|found| found == extension)
        {
            found.push(entry.into_path());
        }
    }
    Ok(found)
}

fn read(path: &Path) -> Result<Vec<u8>, ConfigError> {
    crate::data_file::read(path, crate::data_file::MAX_TEST_BYTES).map_err(ConfigError::data_file)
}

/// `beside`, which `case` needs, read; its absence is an error naming both.
fn read_beside(case: &Path, beside: &Path) -> Result<Vec<u8>, ConfigError> {
    // A FIFO or device there is named as such by `read` (issue #34).
    if !beside.exists() {
        return Err(ConfigError::invalid(
            case,
            "data",
            format!("needs `{}` beside it", file_name(beside)),
        ));
    }
    read(beside)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |name| name.to_string_lossy().into_owned())
}

/// `input` (beside `case`) read, after every input validator accepts it:
/// the format wants a valid input there.
fn valid_input_beside(
    inputs: &Inputs<'_>,
    case: &Path,
    input: &Path,
) -> Result<Vec<u8>, ConfigError> {
    let bytes = read_beside(case, input)?;
    if !inputs.valid(input, &bytes)? {
        return Err(ConfigError::invalid(
            input,
            "data",
            format!(
                "must be a valid input (it is the input of `{}`), but an input validator \
                 rejects it",
                file_name(case)
            ),
        ));
    }
    Ok(bytes)
}

/// The input validators the judge runs, and how they get their arguments.
struct Inputs<'a> {
    problem: &'a ProgramProblem,
    /// Those after the problem's own (the first).
    others: &'a [Tool],
    data: &'a Path,
    args: &'a InputArgs<'a>,
}

impl Inputs<'_> {
    /// Whether every input validator accepts `bytes` (the file `path`);
    /// true when the package has none (nothing rejects it).
    fn valid(&self, path: &Path, bytes: &[u8]) -> Result<bool, ConfigError> {
        let first = self
            .problem
            .validator
            .as_ref()
            .map(|(tool, _, own)| (tool, own.as_slice()));
        for (tool, own) in first
            .into_iter()
            .chain(self.others.iter().map(|tool| (tool, &[][..])))
        {
            let extra = (self.args)(&case_name(self.data, path), &program_name(&tool.path))?;
            let args: Vec<&str> = own.iter().chain(&extra).map(String::as_str).collect();
            let accepted = validator_says(&self.problem.toolbox, tool, bytes, &[], &args)
                .map_err(|fault| ConfigError::invalid(path, "input validator", fault.0))?;
            if !accepted {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// A case's name under `data/`, without its extension
/// (`invalid_input/group/bad`).
fn case_name(data: &Path, path: &Path) -> String {
    path.strip_prefix(data)
        .unwrap_or(path)
        .with_extension("")
        .to_string_lossy()
        .into_owned()
}

fn validator_label(problem: &ProgramProblem) -> String {
    problem.validator.as_ref().map_or_else(
        || "(none)".to_owned(),
        |(tool, _, _)| tool.path.display().to_string(),
    )
}

fn checker_label(problem: &ProgramProblem) -> String {
    match &problem.checker {
        Checker::Builtin(_) => "the default one".to_owned(),
        Checker::Program { tool, .. } => format!("`{}`", tool.path.display()),
    }
}

/// Whether the output validator accepts `output` for `input` and `answer`,
/// with the arguments of `path`'s group under `data`.
fn output_accepted(
    problem: &ProgramProblem,
    data: &Path,
    path: &Path,
    input: &[u8],
    answer: &[u8],
    output: &[u8],
) -> Result<bool, ConfigError> {
    // The case's group may give the output validator its own arguments
    // (issue #34: BAPCtools' `divsort` gives `valid_output` a tolerance).
    let changed = problem.test_checkers.get(&case_name(data, path));
    match &problem.checker {
        Checker::Builtin(builtin) => {
            let builtin = match changed {
                Some(TestChecker::Builtin(changed)) => changed,
                _ => builtin,
            };
            let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
            Ok(builtin.check(&text(output), &text(answer)).verdict == Verdict::Accepted)
        }
        Checker::Program { tool, args, .. } => {
            let args = match changed {
                Some(TestChecker::Args(changed)) => changed,
                _ => args,
            };
            let mut argv = vec!["testcase.in", "testcase.ans", "feedback"];
            argv.extend(args.iter().map(String::as_str));
            validator_says(
                &problem.toolbox,
                tool,
                output,
                &[("testcase.in", input), ("testcase.ans", answer)],
                &argv,
            )
            .map_err(|fault| ConfigError::invalid(path, "output validator", fault.0))
        }
    }
}

/// The answer validators of the package in `dir` the judge can run.
/// The names ([`program_name`]) of the package's answer validators, those
/// the judge cannot run included: what `answer_validator_args` may map.
pub(crate) fn answer_validator_names(
    dir: &Path,
    config: &crate::config::judge::JudgeConfig,
) -> Result<Vec<String>, ConfigError> {
    let scope = LinkScope::package(dir);
    Ok(programs_in(&dir.join("answer_validators"), &scope, config)?
        .into_iter()
        .filter_map(|found| match found {
            FoundProgram::Runs { path, .. } | FoundProgram::Unrunnable { path, .. } => {
                Some(program_name(&path))
            }
            FoundProgram::Ignored { .. } => None,
        })
        .collect())
}

fn answer_validators(
    dir: &Path,
    config: &crate::config::judge::JudgeConfig,
) -> Result<Vec<Tool>, ConfigError> {
    let scope = LinkScope::package(dir);
    Ok(programs_in(&dir.join("answer_validators"), &scope, config)?
        .into_iter()
        .filter_map(|found| match found {
            FoundProgram::Runs { path, language } => {
                Some(Tool::new(Role::Validator, path, language))
            }
            _ => None,
        })
        .collect())
}
