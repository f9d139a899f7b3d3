//! Making one test case's files, as BAPCtools' `bt generate` does: the
//! generator run in a folder of its own (its `testcase.<ext>` files kept,
//! its stdout the `.in` when it wrote none), then `copy:`'s files, then
//! the files written in the yaml, then the solution's `.ans`. Each program
//! runs in the sandbox with the package's tool limits, so a generator that
//! loops, forks, floods or reads around is bounded and fails the case.
//!
//! Checked here, once per made case: the generator gives the same files
//! twice for one seed, and the package's input validator accepts the input
//! (rejects it, under `invalid_input`); an `invalid_output` case's output
//! is rejected by the output validator, a `valid_output` case's accepted.

use super::plan::{Case, Solution, EXTENSIONS};
use crate::beneath::{Beneath, BeneathError};
use crate::external::tool::{abnormal_end, with_stderr};
use crate::external::{Collect, Stdout, Tool, ToolFault, Toolbox};
use crate::interaction::{KATTIS_ACCEPT, KATTIS_REJECT};
use crate::problems::checkers::BuiltinChecker;
use crate::sandbox::Termination;
use std::collections::BTreeMap;
use std::path::Path;

/// A case's files, by extension.
pub(crate) type Files = BTreeMap<String, Vec<u8>>;

/// The programs a case may need, ready to run.
pub(crate) struct Programs<'a> {
    pub(crate) dir: &'a Path,
    /// The package's folder, held open: `copy:`'s files are read beneath
    /// it, never through a link out (issue #34).
    pub(crate) beneath: &'a Beneath,
    /// The package's constants, replaced in every program's files (the
    /// cache's key holds them).
    pub(crate) constants: &'a crate::config::kattis_constants::Constants,
    pub(crate) toolbox: &'a Toolbox,
    /// Each generator a command names, or why there is none.
    pub(crate) generators: &'a BTreeMap<String, Result<Tool, String>>,
    /// Each solution a case names, or why there is none.
    pub(crate) solutions: &'a BTreeMap<Solution, Result<Tool, String>>,
    pub(crate) input_validator: Option<&'a Tool>,
    pub(crate) output_validator: OutputValidator<'a>,
    /// The output validator when it is a program (for the cache's key).
    pub(crate) output_validator_tool: Option<&'a Tool>,
    /// Interactive and multi-pass problems get an empty `.ans`.
    pub(crate) empty_answers: bool,
}

/// How an output is decided for `invalid_output` and `valid_output`.
pub(crate) enum OutputValidator<'a> {
    /// The format's default: tokens, with the flags of the case's
    /// `output_validator_args`.
    Default,
    Program(&'a Tool),
}

/// Makes `case`'s files; `Err` is why the case failed, one sentence.
pub(crate) fn make(case: &Case, programs: &Programs<'_>) -> Result<Files, String> {
    let mut files = Files::new();
    if let Some(command) = &case.generate {
        let generator = lookup(programs.generators.get(&command.program))?;
        let first = generate(programs.toolbox, generator, command, case.retries)?;
        let again = generate(programs.toolbox, generator, command, case.retries)?;
        if first != again {
            let differs = first
                .iter()
                .find(|(extension, bytes)| again.get(*extension) != Some(bytes))
                .or_else(|| {
                    again
                        .iter()
                        .find(|(extension, _)| !first.contains_key(*extension))
                })
                .map_or_else(String::new, |(extension, _)| {
                    format!(" (`testcase{extension}`)")
                });
            return Err(format!(
                "generator `{}` is not deterministic: `{}` gave two different results{differs}; \
                 it must draw its randomness from its arguments (`{{seed}}`)",
                command.program,
                command.text.trim()
            ));
        }
        files = first;
    }
    if let Some(copy) = &case.copy {
        let mut copied = false;
        for extension in EXTENSIONS {
            let path = programs.dir.join(format!("{copy}{extension}"));
            match programs.beneath.read(&path) {
                Ok(bytes) => {
                    files.insert(extension.to_owned(), bytes);
                    copied = true;
                }
                Err(BeneathError::Io { source, .. })
                    if source.kind() == std::io::ErrorKind::NotFound => {}
                Err(error) => return Err(error.to_string()),
            }
        }
        if !copied {
            return Err(format!(
                "`copy: {copy}` copies nothing: there is no `{copy}.in`"
            ));
        }
    }
    for (extension, bytes) in &case.files {
        files.insert((*extension).to_owned(), bytes.clone());
    }
    let Some(input) = files.get(".in").cloned() else {
        return Err("makes no `.in`".to_owned());
    };
    let root = case.root();
    let needs_answer = !matches!(root, "invalid_input" | "testing_tool_test");
    if needs_answer && !files.contains_key(".ans") {
        let answer = if programs.empty_answers {
            Vec::new()
        } else {
            let solution = lookup(programs.solutions.get(&case.solution))?;
            solve(programs.toolbox, solution, &input)?
        };
        files.insert(".ans".to_owned(), answer);
    }
    for (extension, target) in &case.links {
        let Some(bytes) = files.get(target).cloned() else {
            return Err(format!(
                "`{}: {{link: {}}}` links to a file the case does not make",
                &extension[1..],
                &target[1..]
            ));
        };
        files.insert((*extension).to_owned(), bytes);
    }
    check(case, programs, &files)?;
    Ok(files)
}

/// A program resolved before the run (every one the plan names is).
fn lookup(found: Option<&Result<Tool, String>>) -> Result<&Tool, String> {
    match found {
        Some(Ok(tool)) => Ok(tool),
        Some(Err(why)) => Err(why.clone()),
        None => Err("names a program the judge did not resolve".to_owned()),
    }
}

/// One run of the generator (up to `retries`, the seed one more each
/// time, as BAPCtools retries); its files, stdout as `.in` when it wrote
/// no `testcase.in`.
fn generate(
    toolbox: &Toolbox,
    generator: &Tool,
    command: &super::plan::Command,
    retries: u32,
) -> Result<Files, String> {
    let collect: Vec<String> = EXTENSIONS
        .iter()
        .map(|extension| format!("testcase{extension}"))
        .collect();
    let collect: Vec<&str> = collect.iter().map(String::as_str).collect();
    let mut last = String::new();
    for retry in 0..retries.max(1) {
        let seed = (u64::from(command.seed) + u64::from(retry)) % (1 << 31);
        let args = command.args(u32::try_from(seed).unwrap_or(command.seed));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = toolbox
            .run_collecting(
                generator,
                &args,
                None,
                &[],
                &[],
                &collect,
                Collect::Data,
                Stdout::Data,
            )
            .map_err(|fault| fault.0)?;
        if let Some(fault) = abnormal_end(generator, &run.measured, toolbox.limits()) {
            // A generator out of time fails at once, as in BAPCtools.
            return Err(fault.0);
        }
        if let Termination::Exited(code) = run.measured.termination {
            if code != 0 {
                last = generator
                    .fault(with_stderr(
                        &format!("exited with code {code}"),
                        &run.measured,
                    ))
                    .0;
                continue;
            }
        }
        let mut files: Files = run
            .files
            .into_iter()
            .map(|(name, bytes)| (name["testcase".len()..].to_owned(), bytes))
            .collect();
        if !files.contains_key(".in") {
            if run.measured.stdout.is_empty() {
                return Err(generator
                    .fault("wrote neither `testcase.in` nor anything on stdout")
                    .0);
            }
            files.insert(".in".to_owned(), run.measured.stdout);
        }
        return Ok(files);
    }
    Err(last)
}

/// The solution's answer to `input`.
fn solve(toolbox: &Toolbox, solution: &Tool, input: &[u8]) -> Result<Vec<u8>, String> {
    let run = toolbox
        .run_collecting(
            solution,
            &[],
            Some(input),
            &[],
            &[],
            &[],
            Collect::Data,
            Stdout::Data,
        )
        .map_err(|fault| fault.0)?;
    if let Some(fault) = abnormal_end(solution, &run.measured, toolbox.limits()) {
        return Err(fault.0);
    }
    match run.measured.termination {
        Termination::Exited(0) => Ok(run.measured.stdout),
        Termination::Exited(code) => Err(solution
            .fault(with_stderr(
                &format!("exited with code {code}"),
                &run.measured,
            ))
            .0),
        Termination::Signaled(signal) => {
            Err(solution.fault(format!("was killed by signal {signal}")).0)
        }
    }
}

/// What a validator said of a file.
pub(crate) fn validator_says(
    toolbox: &Toolbox,
    validator: &Tool,
    stdin: &[u8],
    files: &[(&str, &[u8])],
    args: &[&str],
) -> Result<bool, ToolFault> {
    let run = toolbox.run_message(validator, args, Some(stdin), files, &["feedback"], &[])?;
    if let Some(fault) = abnormal_end(validator, &run.measured, toolbox.limits()) {
        return Err(fault);
    }
    match run.measured.termination {
        Termination::Exited(KATTIS_ACCEPT) => Ok(true),
        Termination::Exited(KATTIS_REJECT) => Ok(false),
        Termination::Exited(code) => Err(validator.fault(with_stderr(
            &format!("exited with code {code}, neither 42 (valid) nor 43 (invalid)"),
            &run.measured,
        ))),
        Termination::Signaled(signal) => {
            Err(validator.fault(format!("was killed by signal {signal}")))
        }
    }
}

/// The input validator's arguments for a case: `input_validator_args` of
/// the case's own `.yaml`, else of the nearest `test_group.yaml` above it;
/// a list is every validator's, a map gives each validator (by its file's
/// stem or folder's name) its own.
fn input_validator_args(
    case: &Case,
    files: &Files,
    validator: &Tool,
) -> Result<Vec<String>, String> {
    let name = if validator.path.is_dir() {
        validator.path.file_name()
    } else {
        validator.path.file_stem()
    }
    .map(|name| name.to_string_lossy().into_owned())
    .unwrap_or_default();
    validator_args(
        case.input_validator_args.as_ref(),
        files,
        "input_validator_args",
        Some(&name),
    )
}

/// `key` of the case's own `.yaml`, else `inherited` (the nearest
/// `test_group.yaml`'s): a list of words; a map gives each validator (by
/// `name`) its own list.
fn validator_args(
    inherited: Option<&serde_norway::Value>,
    files: &Files,
    key: &str,
    name: Option<&str>,
) -> Result<Vec<String>, String> {
    let own = match files.get(".yaml") {
        Some(bytes) => serde_norway::from_slice::<serde_norway::Value>(bytes)
            .map_err(|error| format!("its `.yaml` is not YAML: {error}"))?
            .get(key)
            .cloned(),
        None => None,
    };
    let Some(value) = own.or_else(|| inherited.cloned()) else {
        return Ok(Vec::new());
    };
    let list = match &value {
        serde_norway::Value::Mapping(map) => match name.and_then(|name| map.get(name)) {
            Some(list) => list.clone(),
            None => return Ok(Vec::new()),
        },
        other => other.clone(),
    };
    let words = |value: &serde_norway::Value| match value {
        serde_norway::Value::String(text) => Some(text.clone()),
        serde_norway::Value::Number(number) => Some(number.to_string()),
        serde_norway::Value::Bool(flag) => Some(flag.to_string()),
        _ => None,
    };
    match &list {
        serde_norway::Value::Sequence(items) => items
            .iter()
            .map(|item| {
                words(item).ok_or_else(|| format!("`{key}` holds a value that is not a word"))
            })
            .collect(),
        serde_norway::Value::String(text) => {
            Ok(text.split_whitespace().map(str::to_owned).collect())
        }
        serde_norway::Value::Null => Ok(Vec::new()),
        _ => Err(format!(
            "`{key}` must be a list of words, or a map of such lists"
        )),
    }
}

/// The checks of a made case, by its root folder.
fn check(case: &Case, programs: &Programs<'_>, files: &Files) -> Result<(), String> {
    let input = files.get(".in").map_or(&[][..], Vec::as_slice);
    let root = case.root();
    if root != "testing_tool_test" {
        match (programs.input_validator, root == "invalid_input") {
            (Some(validator), must_reject) => {
                let args = input_validator_args(case, files, validator)?;
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                let valid = validator_says(programs.toolbox, validator, input, &[], &args)
                    .map_err(|fault| fault.0)?;
                if valid && must_reject {
                    return Err(
                        "is under `invalid_input`, but the input validator accepts its input"
                            .to_owned(),
                    );
                }
                if !valid && !must_reject {
                    return Err("the input validator rejects its input".to_owned());
                }
            }
            (None, true) => {
                return Err(
                    "is under `invalid_input`, but the package has no input validator the judge \
                     can run to reject it"
                        .to_owned(),
                )
            }
            (None, false) => {}
        }
    }
    let must_accept = match root {
        "invalid_output" => false,
        "valid_output" => true,
        _ => return Ok(()),
    };
    let Some(output) = files.get(".out") else {
        return Err(format!("is under `{root}` but makes no `.out`"));
    };
    let answer = files.get(".ans").map_or(&[][..], Vec::as_slice);
    let flags = validator_args(
        case.output_validator_args.as_ref(),
        files,
        "output_validator_args",
        None,
    )?;
    let accepted = match &programs.output_validator {
        OutputValidator::Default => {
            let checker: BuiltinChecker = crate::config::kattis::default_validator(&flags)
                .map_err(|error| format!("`output_validator_args`: {error}"))?;
            let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
            checker.check(&text(output), &text(answer)).verdict == crate::verdict::Verdict::Accepted
        }
        OutputValidator::Program(validator) => {
            let mut args = vec!["testcase.in", "testcase.ans", "feedback"];
            args.extend(flags.iter().map(String::as_str));
            validator_says(
                programs.toolbox,
                validator,
                output,
                &[("testcase.in", input), ("testcase.ans", answer)],
                &args,
            )
            .map_err(|fault| fault.0)?
        }
    };
    match (accepted, must_accept) {
        (true, false) => {
            Err("is under `invalid_output`, but the output validator accepts its `.out`".to_owned())
        }
        (false, true) => {
            Err("is under `valid_output`, but the output validator rejects its `.out`".to_owned())
        }
        _ => Ok(()),
    }
}
