//! A Kattis package's `data/` built from `generators/generators.yaml`, the
//! way BAPCtools' `bt generate` builds it (issue #29): the same yaml gives
//! the same names, seeds and bytes.
//!
//! The parts: [`yaml`] reads the file (an unknown key or a bad value is an
//! error at its line), [`plan`] says what it asks for (names, numbering,
//! `{seed}`, includes), [`make`] makes one case in the sandbox and checks
//! it, [`store`] keeps made cases by content and puts the new `data/` in
//! place whole. This module runs them in that order and says what
//! happened; it does not print.
//!
//! Made cases are kept in `.judge/generated/` in the package, under a
//! digest of everything that makes them (the programs' files, the command
//! and seed, the copied and written files, the validators): a second run
//! with nothing changed runs nothing. `data/` changes only when every case
//! was made and passed its checks; until then the old one stays.

pub(crate) mod make;
mod plan;
mod store;
mod yaml;
mod yaml_lines;

use crate::beneath::Beneath;
use crate::config::judge::JudgeConfig;
use crate::config::kattis::{package_submissions, read_problem_yaml, ProblemType};
use crate::config::{ConfigError, ConfigErrorKind};
use crate::discovery::ACCEPTED_FOLDER;
use crate::external::{Role, Tool, Toolbox};
use crate::package::kattis_programs::{program_at, programs_in, FoundProgram};
use crate::runner::LinkScope;
use crate::sandbox::{DataFolder, Hidden};
use make::{OutputValidator, Programs};
use plan::Solution;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why `data/` could not be built at all (a case that fails is not an
/// error: it is listed in [`Generated::failures`]).
#[derive(Debug, thiserror::Error)]
pub(crate) enum GeneratorsError {
    /// `generators.yaml` or `problem.yaml` is wrong: file, line, key.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A file of the cache or of `data/` could not be written.
    #[error("failed to write `{}`: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The sandbox the programs run in could not be made.
    #[error("failed to set up the generators' sandbox: {0}")]
    Toolbox(String),
}

/// The Kattis format's build before a grade fails as any format's
/// ([`PackageFormat::prepare`](crate::package::format::PackageFormat::prepare)):
/// a wrong `generators.yaml` or `problem.yaml` is the package's fault, a
/// file not written or a sandbox not made the judge's.
impl From<GeneratorsError> for crate::package::format::PrepareError {
    fn from(error: GeneratorsError) -> Self {
        use crate::package::format::PrepareError;
        match error {
            GeneratorsError::Config(error) => PrepareError::Config(error),
            error @ (GeneratorsError::Write { .. } | GeneratorsError::Toolbox(_)) => {
                PrepareError::Judge(Box::new(error))
            }
        }
    }
}

/// What a run did.
#[derive(Debug, Default)]
pub(crate) struct Generated {
    /// One line per thing worth saying, in order.
    pub(crate) lines: Vec<String>,
    /// `data/<path>: why`, one per case that could not be made or failed
    /// its check; `data/` is untouched when there is any.
    pub(crate) failures: Vec<String>,
}

/// `dir/generators/generators.yaml`.
fn yaml_path(dir: &Path) -> PathBuf {
    dir.join("generators").join("generators.yaml")
}

/// Whether the package in `dir` has a `generators/generators.yaml`.
pub(crate) fn present(dir: &Path) -> bool {
    yaml_path(dir).is_file()
}

/// Builds `dir/data/` from `dir/generators/generators.yaml` when there is
/// one, before the package's submissions are graded, as BAPCtools' `bt
/// run` generates before it runs: cached by content
/// (`dir/.judge/generated/`), so a second grade makes nothing, and `data/`
/// replaced only when every case was made. When the yaml cannot be read or
/// a case cannot be made, a package that has a `data/` is graded on it with
/// a warning naming each problem (BAPCtools' own test problems use keys it
/// only warns about); one without `data/` is a configuration error, nothing
/// graded. Returns what it said, one line each for stderr; `None`: the
/// package has no `generators.yaml`.
pub(crate) fn prepare(
    dir: &Path,
    config: &JudgeConfig,
) -> Result<Option<Vec<String>>, GeneratorsError> {
    let yaml = yaml_path(dir);
    if !yaml.is_file() {
        return Ok(None);
    }
    let data = dir.join("data");
    let has_data = data.is_dir();
    let kept = format!("grading the tests already in `{}`", data.display());
    // Nothing is hidden before it but what the package says.
    let generated = match generate(dir, config, &Hidden::new()) {
        Ok(generated) => generated,
        Err(GeneratorsError::Config(error)) if has_data => {
            return Ok(Some(vec![format!(
                "warning: {}; {kept}",
                crate::causes::chain(&error)
            )]))
        }
        Err(error) => return Err(error),
    };
    let mut lines: Vec<String> = generated
        .lines
        .into_iter()
        .map(|line| format!("generators.yaml: {line}"))
        .collect();
    if generated.failures.is_empty() {
        return Ok(Some(lines));
    }
    let failures = format!(
        "{} test cases of `{}` could not be made:\n  {}",
        generated.failures.len(),
        yaml.display(),
        generated.failures.join("\n  ")
    );
    if has_data {
        lines.push(format!("warning: {failures}\n{kept}"));
        return Ok(Some(lines));
    }
    Err(GeneratorsError::Config(ConfigError::invalid(
        &yaml,
        "data",
        format!("{failures}\nthe package has no `data/` to grade on instead"),
    )))
}

/// The folders of the `generators.yaml` package in `dir` no program may
/// read: the old data, the made cases, the submissions (a generator reads
/// only its own folder), and the whole package for a compile.
pub(crate) fn secret_folders(dir: &Path) -> Vec<(DataFolder, PathBuf)> {
    vec![
        (DataFolder::KattisData, dir.join("data")),
        (
            DataFolder::KattisData,
            store::Cache::new(dir).path().to_owned(),
        ),
        (DataFolder::Submissions, dir.join("submissions")),
        (DataFolder::PackageFolder, dir.to_owned()),
    ]
}

/// Builds `dir/data/` from `dir/generators/generators.yaml`; its programs
/// hide `hidden` (what the command hid before) and [`secret_folders`].
pub(crate) fn generate(
    dir: &Path,
    config: &JudgeConfig,
    hidden: &Hidden,
) -> Result<Generated, GeneratorsError> {
    let yaml_path = yaml_path(dir);
    let text = ConfigError::read_yaml_text(&yaml_path)?;
    let raw = yaml::parse(&text).map_err(|refusal| ConfigError {
        path: yaml_path.clone(),
        kind: ConfigErrorKind::Parse {
            position: refusal.position,
            message: refusal.message,
        },
    })?;
    let problem = read_problem_yaml(dir)?;
    let mut plan = plan::plan(&yaml_path, &text, &raw, &problem.constants)?;
    plan::inherit_validator_args(&mut plan, &problem.constants, problem.yaml.is_scoring());
    let beneath = Beneath::new(dir).map_err(|error| ConfigError::beneath(dir, error))?;
    check_copies(&beneath, &yaml_path, &plan)?;
    let empty_answers =
        problem.yaml.is(ProblemType::Interactive) || problem.yaml.is(ProblemType::MultiPass);

    let cache = store::Cache::new(dir);
    let hidden = Arc::new(hidden.with(&secret_folders(dir)));

    let limits = crate::config::problem::LimitsToml {
        time_limit_ms: 1000,
        memory_limit_mib: 2048,
        output_limit_kib: 8 * 1024,
        tool_time_limit_ms: problem
            .yaml
            .limits
            .validation_time
            .map(|seconds| seconds.saturating_mul(1000)),
        tool_memory_limit_mib: problem.yaml.limits.validation_memory,
    };
    let toolbox = Toolbox::new(
        config.compile_limits(),
        config.tool_limits(&limits),
        hidden,
        LinkScope::package(dir),
    )
    .map_err(|fault| GeneratorsError::Toolbox(fault.0))?
    .with_constants(&problem.constants);

    let mut lines: Vec<String> = plan
        .notes
        .iter()
        .map(|note| format!("note: {note}"))
        .collect();
    let input_validator = first_runnable(
        dir,
        &["input_validators", "input_format_validators"],
        config,
        Role::Validator,
        &mut lines,
    )?;
    let output_validator_tool = first_runnable(
        dir,
        &["output_validator", "output_validators"],
        config,
        Role::Checker,
        &mut lines,
    )?;
    let output_validator = match &output_validator_tool {
        Some(tool) => OutputValidator::Program(tool),
        None => OutputValidator::Default,
    };
    if plan
        .cases
        .iter()
        .any(|case| case.root() == "invalid_answer")
    {
        lines.push(
            "note: `invalid_answer` cases are made unchecked here; loading the package to \
             grade it checks them with its answer validators"
                .to_owned(),
        );
    }

    // Every program the plan names, resolved once (compiled on first use).
    let mut generators = BTreeMap::new();
    let mut solutions = BTreeMap::new();
    for case in &plan.cases {
        if let Some(command) = &case.generate {
            generators
                .entry(command.program.clone())
                .or_insert_with(|| generator_tool(dir, &command.program, config));
        }
        solutions
            .entry(case.solution.clone())
            .or_insert_with(|| match &case.solution {
                Solution::Nothing => Err(
                    "makes no `.ans` and `solution:` is empty: write `ans:` or name a solution"
                        .to_owned(),
                ),
                Solution::Program(relative) => solution_tool(dir, relative, config),
                Solution::Default => default_solution_tool(dir, config),
            });
    }
    let programs = Programs {
        dir,
        beneath: &beneath,
        constants: &problem.constants,
        toolbox: &toolbox,
        generators: &generators,
        solutions: &solutions,
        input_validator: input_validator.as_ref(),
        output_validator,
        output_validator_tool: output_validator_tool.as_ref(),
        empty_answers,
    };

    let mut made = BTreeMap::new();
    let mut failures = Vec::new();
    let (mut fresh, mut cached) = (0, 0);
    for (index, case) in plan.cases.iter().enumerate() {
        // SIGINT or SIGTERM (`judge gen` installs their handlers): no case
        // is started after it; the running one was killed by the sandbox.
        if crate::interrupt::requested() {
            break;
        }
        let key = store::case_key(dir, case, &programs);
        if let Some(files) = cache.get(&key) {
            cached += 1;
            made.insert(index, files);
            continue;
        }
        match make::make(case, &programs) {
            Ok(files) => {
                cache.put(&key, &files)?;
                fresh += 1;
                made.insert(index, files);
            }
            Err(why) => failures.push(format!(
                "data/{}: {why} (`{}`{})",
                case.path,
                case.key,
                case.line
                    .map_or_else(String::new, |line| format!(", line {line}"))
            )),
        }
    }
    if let Some(signal) = crate::interrupt::requested_signal() {
        lines.push(format!(
            "stopped by {}: {} of {} test cases made; `data/` is left as it was",
            signal.name(),
            fresh + cached,
            plan.cases.len()
        ));
        return Ok(Generated {
            lines,
            failures: Vec::new(),
        });
    }
    if !failures.is_empty() {
        lines.push(format!(
            "{} of {} test cases failed; `data/` is left as it was",
            failures.len(),
            plan.cases.len()
        ));
        return Ok(Generated { lines, failures });
    }
    let (changed, kept) = store::write_data(dir, &plan, &made)?;
    for file in kept {
        lines.push(format!(
            "kept `{file}` as it was: the judge does not make it (BAPCtools writes a sample's \
             `.interaction` by running the solution)"
        ));
    }
    lines.push(format!(
        "{} test cases ({fresh} made, {cached} from the cache{}): {}",
        plan.cases.len() + plan.includes.len(),
        if plan.includes.is_empty() {
            String::new()
        } else {
            format!(", {} included", plan.includes.len())
        },
        if changed {
            format!("`{}` written", dir.join("data").display())
        } else {
            format!("`{}` is up to date", dir.join("data").display())
        }
    ));
    Ok(Generated { lines, failures })
}

/// Refuses, before anything runs, a `copy:` whose file is reached through
/// a link out of the package or one that does not resolve (issue #34: a
/// `generators/NAME.in` linked to `/etc/shadow` was copied into `data/`),
/// naming the case's key and line in `generators.yaml`.
fn check_copies(beneath: &Beneath, yaml_path: &Path, plan: &plan::Plan) -> Result<(), ConfigError> {
    for case in &plan.cases {
        let Some(copy) = &case.copy else { continue };
        for extension in plan::EXTENSIONS {
            let path = beneath.root().join(format!("{copy}{extension}"));
            if let Err(refused) = beneath.check(&path) {
                return Err(ConfigError {
                    path: yaml_path.to_owned(),
                    kind: ConfigErrorKind::Invalid {
                        key: case.key.clone(),
                        message: format!("`copy: {}`: {refused}", copy_as_written(copy)),
                        line: case.line,
                    },
                });
            }
        }
    }
    Ok(())
}

/// A case's `copy` as the yaml wrote it (relative to `generators/`).
fn copy_as_written(copy: &str) -> &str {
    copy.strip_prefix("generators/").unwrap_or(copy)
}

/// `generators/<name>`: a file or a folder program.
fn generator_tool(dir: &Path, name: &str, config: &JudgeConfig) -> Result<Tool, String> {
    if name.split('/').any(|part| part == "..") {
        return Err(format!("the generator `{name}` is outside `generators/`"));
    }
    let path = dir.join("generators").join(name);
    if !path.exists() {
        return Err(format!(
            "the generator `{name}` is not a file or folder in `generators/`"
        ));
    }
    runnable(&path, &LinkScope::package(dir), Role::Generator, config)
}

fn solution_tool(dir: &Path, relative: &str, config: &JudgeConfig) -> Result<Tool, String> {
    if relative.split('/').any(|part| part == "..") {
        return Err(format!("the solution `/{relative}` is outside the package"));
    }
    let path = dir.join(relative);
    if !path.exists() {
        return Err(format!("the solution `/{relative}` is not in the package"));
    }
    runnable(&path, &LinkScope::package(dir), Role::Reference, config)
}

/// BAPCtools' default solution is one of the accepted submissions (its
/// choice is random, then remembered); the judge takes the first, by
/// name, that it can run, so the choice is the same on every machine.
fn default_solution_tool(dir: &Path, config: &JudgeConfig) -> Result<Tool, String> {
    let submissions = package_submissions(dir).map_err(|error| error.to_string())?;
    let scope = LinkScope::package(dir);
    submissions
        .iter()
        .filter(|submission| submission.folder == ACCEPTED_FOLDER)
        .find_map(|submission| runnable(&submission.path, &scope, Role::Reference, config).ok())
        .ok_or_else(|| {
            "makes no `.ans`, no `solution:` is given and `submissions/accepted/` holds no \
             program the judge can run"
                .to_owned()
        })
}

fn runnable(
    path: &Path,
    scope: &LinkScope,
    role: Role,
    config: &JudgeConfig,
) -> Result<Tool, String> {
    match program_at(path, scope, config).map_err(|error| error.to_string())? {
        FoundProgram::Runs { path, language } => Ok(Tool::new(role, path, language)),
        FoundProgram::Unrunnable { path, reason } | FoundProgram::Ignored { path, reason } => {
            Err(format!("`{}` cannot run: {reason}", path.display()))
        }
    }
}

/// The first program the judge can run in the first of `folders` that
/// holds one (a folder itself a program when it holds sources and no
/// programs of its own: `output_validator/`).
fn first_runnable(
    dir: &Path,
    folders: &[&str],
    config: &JudgeConfig,
    role: Role,
    lines: &mut Vec<String>,
) -> Result<Option<Tool>, ConfigError> {
    for folder in folders {
        let path = dir.join(folder);
        if !path.is_dir() {
            continue;
        }
        let found = if *folder == "output_validator" {
            vec![program_at(&path, &LinkScope::package(dir), config)?]
        } else {
            programs_in(&path, &LinkScope::package(dir), config)?
        };
        for program in found {
            match program {
                FoundProgram::Runs { path, language } => {
                    return Ok(Some(Tool::new(role, path, language)))
                }
                FoundProgram::Unrunnable { path, reason } => lines.push(format!(
                    "note: `{}` is skipped: {reason}",
                    path.strip_prefix(dir).unwrap_or(&path).display()
                )),
                FoundProgram::Ignored { path, reason } => lines.push(format!(
                    "note: `{}` is ignored: {reason}",
                    path.strip_prefix(dir).unwrap_or(&path).display()
                )),
            }
        }
    }
    Ok(None)
}

#[cfg(test)]
mod prepare_error_tests {
    use super::GeneratorsError;
    use crate::config::ConfigError;
    use crate::package::format::PrepareError;
    use std::path::Path;

    /// A wrong yaml stays the package's fault, a build that failed the
    /// judge's, each worded as the generators said it.
    #[test]
    fn a_generators_error_keeps_whose_fault_it_is() {
        let wrong = GeneratorsError::Config(ConfigError::invalid(
            Path::new("p/generators/generators.yaml"),
            "data",
            "not a map",
        ));
        let said = wrong.to_string();
        let converted = PrepareError::from(wrong);
        assert!(matches!(converted, PrepareError::Config(_)));
        assert_eq!(converted.to_string(), said);
        for failed in [
            GeneratorsError::Toolbox("no cgroup".to_owned()),
            GeneratorsError::Write {
                path: "p/data".into(),
                source: std::io::Error::other("disk full"),
            },
        ] {
            let said = failed.to_string();
            let converted = PrepareError::from(failed);
            assert!(matches!(converted, PrepareError::Judge(_)));
            assert_eq!(converted.to_string(), said);
        }
    }
}
