//! A Kattis / ICPC problem package (issue #9) assembled from what
//! [`crate::config::kattis`] read: its tests are the `.in`/`.ans` pairs,
//! its validator the first input validator, its checker the default output
//! validator (tokens, case-insensitive unless `case_sensitive`, with the
//! float tolerances of `validator_flags`) or the custom one speaking the
//! Kattis protocol; the first accepted submission in a configured language
//! is its reference. A package written by `judge export --kattis` from a
//! built-in engine uses that engine directly.

use super::format::{Answers, Languages, LoadedPackage, PackageFormat, TimeFactors};
use super::format::{Built, PrepareError, Prepared};
use super::kattis_programs::{program_at, programs_in, FoundProgram, KATTIS_CXX_STANDARD};
use super::verdict_folders::VerdictFolders;
use super::{Package, ProblemRef};
use crate::config::judge::JudgeConfig;
use crate::config::kattis::{
    data_folder, default_validator, package_submissions, read_problem_yaml, read_tests,
    FormatVersion, ProblemType, ProblemYaml,
};
use crate::config::kattis_groups::SettingsFiles;
use crate::config::kattis_time_limit_files::{self as time_limit_files, FileLimit};
use crate::config::problem::{LimitsToml, PackageTest, ProblemToml};
use crate::config::{ConfigError, ConfigErrorKind};
use crate::discovery::ACCEPTED_FOLDER;
use crate::external::{
    Checker, CheckerProtocol, Interaction, ProgramProblem, Role, TestChecker, Tool, Toolbox,
    ValidatorExitCodes,
};
use crate::runner::LinkScope;
use crate::sandbox::{DataFolder, Hidden};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

mod exported;

/// The Kattis / ICPC format (`problem.yaml`).
pub(crate) struct Kattis;

impl PackageFormat for Kattis {
    fn name(&self) -> &'static str {
        "Kattis"
    }

    fn marker(&self) -> &'static str {
        crate::config::kattis::MARKER
    }

    /// A folder holding `problem.yaml` as anything but a folder
    /// ([`crate::config::holds_marker`]). Where its programs' links may
    /// lead is not decided by this: its loader names them the package's
    /// ([`crate::runner::LinkScope::package`]).
    fn recognises(&self, path: &Path) -> bool {
        crate::config::holds_marker(path, self.marker())
    }

    /// No run may read the tests (`data/`, masked), nor may a compile be
    /// lent any of the package (its solutions too).
    fn secret_folders(&self, dir: &Path) -> Vec<(DataFolder, PathBuf)> {
        vec![
            (DataFolder::KattisData, data_folder(dir)),
            (DataFolder::PackageFolder, dir.to_owned()),
        ]
    }

    /// `data/` from `generators/generators.yaml`, when the package has one
    /// ([`super::generators::prepare`]).
    fn prepare(&self, dir: &Path, config: &JudgeConfig) -> Result<Option<Prepared>, PrepareError> {
        Ok(super::generators::prepare(dir, config)?.map(|lines| Prepared { lines }))
    }

    /// `data/` from `generators/generators.yaml`
    /// ([`super::generators::generate`]), its programs hiding the package's
    /// folders the build says are secret; a package without one is a
    /// configuration error naming the file.
    fn build(&self, dir: &Path, config: &JudgeConfig) -> Result<Option<Built>, PrepareError> {
        let generated = super::generators::generate(dir, config, &Hidden::new())?;
        Ok(Some(Built {
            lines: generated.lines,
            failures: generated.failures,
        }))
    }

    /// What building `data/` keeps from the generators, when the package
    /// has a `generators.yaml`.
    fn prepared_folders(&self, dir: &Path) -> Vec<(DataFolder, PathBuf)> {
        if super::generators::present(dir) {
            super::generators::secret_folders(dir)
        } else {
            Vec::new()
        }
    }

    fn load(
        &self,
        dir: &Path,
        id: &str,
        config: &Languages<'_>,
        _answers: Answers,
        hidden: &Hidden,
    ) -> Result<LoadedPackage, ConfigError> {
        // Every test of the format has its answer (`read_tests`).
        load(dir, id, config.get()?, hidden)
    }
}

/// The time limit a Kattis package states, where, and what a user should
/// know of it (issue #34): `problem.yaml`'s `limits.time_limit` holds;
/// without it, the first of the deprecated files that states one
/// (`.timelimit`, then `domjudge-problem.ini`, as BAPCtools' `upgrade`
/// reads them) is read as `limits.time_limit`, with a warning naming the
/// file; every other file that states one is ignored, with a warning.
#[derive(Debug, PartialEq)]
struct StatedLimit {
    seconds: Option<f64>,
    /// Where, for the `time limit: ...` line.
    stated_in: Option<String>,
    warnings: Vec<String>,
}

impl StatedLimit {
    fn of(yaml: Option<f64>, files: &[FileLimit]) -> StatedLimit {
        let seconds = |seconds: f64| format!("{seconds} s");
        let (seconds_used, stated_in, ignored_by) = match (yaml, files.first()) {
            (Some(limit), _) => (
                Some(limit),
                Some(format!(
                    "{} `limits.time_limit`",
                    crate::config::kattis::MARKER
                )),
                format!(
                    "{} states `limits.time_limit` ({})",
                    crate::config::kattis::MARKER,
                    seconds(limit)
                ),
            ),
            (None, Some(first)) => (
                Some(first.seconds),
                Some(format!("`{}` (read as `limits.time_limit`)", first.file)),
                format!("`{}` states it ({})", first.file, seconds(first.seconds)),
            ),
            (None, None) => (None, None, String::new()),
        };
        let mut warnings = Vec::new();
        for (index, file) in files.iter().enumerate() {
            if yaml.is_none() && index == 0 {
                warnings.push(format!(
                    "`{}` is deprecated; read as limits.time_limit ({}): state it in {} \
                     instead",
                    file.file,
                    seconds(file.seconds),
                    crate::config::kattis::MARKER
                ));
            } else {
                warnings.push(format!(
                    "`{}` ({}) is ignored: {ignored_by}; the file is deprecated",
                    file.file,
                    seconds(file.seconds)
                ));
            }
        }
        StatedLimit {
            seconds: seconds_used,
            stated_in,
            warnings,
        }
    }
}

/// Reads the Kattis package in `dir`, whose id is `id`: one time limit for
/// every language, as Kattis means it. Its programs hide `hidden` and its
/// secret folders.
fn load(
    dir: &Path,
    id: &str,
    config: &JudgeConfig,
    hidden: &Hidden,
) -> Result<LoadedPackage, ConfigError> {
    let file = read_problem_yaml(dir)?;
    let yaml = &file.yaml;
    let settings_files = SettingsFiles {
        dir,
        format: yaml.format,
        constants: &file.constants,
        scoring: yaml.is_scoring(),
    };
    if !yaml.is_scoring() {
        crate::config::kattis_submissions::refuse_score_on_pass_fail(dir)?;
    }
    let id = id.to_owned();
    // Nothing under `data/` is read before its links are checked (issue
    // #34: `data/secret/x.ans -> /etc/shadow` would land in the report).
    crate::runner::data_link_out_of_package(dir).map_err(|(link, message)| ConfigError {
        path: link,
        kind: ConfigErrorKind::Parse {
            position: None,
            message,
        },
    })?;
    let tests = read_tests(dir)?;
    if tests.is_empty() {
        let data = data_folder(dir);
        let why = if data.is_dir() {
            "holds no `.in` file under `sample/` or `secret/`"
        } else {
            "is missing: a Kattis package keeps its tests in `data/sample/` and `data/secret/`"
        };
        return Err(ConfigError::invalid(&data, "data", why));
    }
    let stated = StatedLimit::of(yaml.limits.time_limit, &time_limit_files::read(dir)?);
    let time_limit_ms = stated
        .seconds
        .map(|seconds| (seconds * 1000.0).ceil().max(1.0) as u64);
    let loaded = |package: Package,
                  skipped_validators: Vec<(PathBuf, String)>,
                  ignored_files: Vec<(PathBuf, String)>,
                  unchecked_inputs: Option<String>| LoadedPackage {
        submissions: Box::new(VerdictFolders::new(
            dir,
            package.groups().is_some(),
            Some(KATTIS_CXX_STANDARD),
            package
                .tests()
                .iter()
                .map(|test| test.name.clone())
                .collect(),
        )),
        package,
        time_limit_ms,
        time_limit_stated_in: stated.stated_in.clone(),
        time_multiplier: yaml.limits.ac_to_time_limit(yaml.format),
        time_resolution_ms: yaml
            .limits
            .time_resolution
            .map_or(1000, |seconds| (seconds * 1000.0).ceil().max(1.0) as u64),
        time_factors: TimeFactors::SetByTheUser,
        skipped_programs: skipped_validators,
        ignored_files,
        unchecked_inputs,
        notes: crate::runner::links_out_of_package(dir)
            .into_iter()
            .map(|(link, target)| {
                format!(
                    "`{}` is a symbolic link to `{}`, outside the package: its content is read \
                     as the file's (a public regular file)",
                    link.display(),
                    target.display()
                )
            })
            .chain(data_settings_note(&settings_files))
            .chain(super::kattis_constants::undefined_notes(
                dir,
                &file.constants,
            ))
            .collect(),
        warnings: stated
            .warnings
            .iter()
            .cloned()
            .chain(settings_files.layout().warning())
            .collect(),
        example_constants: (!file.constants.is_empty()).then(|| Arc::new(file.constants.clone())),
    };
    if let Some(package) = exported::engine_package(&settings_files, &id, yaml, tests.clone())? {
        return Ok(loaded(package, Vec::new(), Vec::new(), None));
    }
    // The package's own programs: their links may lead anywhere in it.
    let scope = LinkScope::package(dir);
    let submissions = package_submissions(dir)?;
    // Every test has its `.ans`: the reference answers only inputs the
    // judge makes itself (`judge gen`, `stress`), which say so when there
    // is none. A package may have no accepted submission at all
    // (BAPCtools' `hellounix` tests only failing ones).
    let reference = submissions
        .iter()
        .filter(|submission| submission.folder == ACCEPTED_FOLDER)
        .find_map(
            |submission| match program_at(&submission.path, &scope, config) {
                Ok(FoundProgram::Runs {
                    path,
                    language: Some(language),
                }) => Some(Tool::new(Role::Reference, path, Some(language))),
                _ => None,
            },
        );
    // Every input validator the judge can run is one; the first checks the
    // tests (the others are listed as skipped when they cannot run).
    let mut skipped_validators = Vec::new();
    let mut ignored_files = Vec::new();
    let mut validators = Vec::new();
    for folder in ["input_validators", "input_format_validators"] {
        for found in programs_in(&dir.join(folder), &scope, config)? {
            match found {
                FoundProgram::Runs { path, language } => validators.push((path, language)),
                FoundProgram::Unrunnable { path, reason } => {
                    skipped_validators.push((path, reason))
                }
                FoundProgram::Ignored { path, reason } => ignored_files.push((path, reason)),
            }
        }
    }
    let unchecked_inputs = match (validators.is_empty(), skipped_validators.first()) {
        (true, Some((path, reason))) => Some(format!(
            "the input validator `{}` is {reason}, and no other input validator checks the \
             inputs",
            path.display()
        )),
        _ => None,
    };
    // A test group's arguments for it (issue #34): 2025-09 maps them by
    // the validator's name, its file's stem or its folder's name.
    let validator_name = validators
        .first()
        .map(|(path, _)| super::kattis_selftest::program_name(path));
    // The other runnable input validators: `data/invalid_input/` needs
    // only one of them to reject an input.
    let other_validators: Vec<Tool> = validators
        .iter()
        .skip(1)
        .map(|(path, language)| Tool::new(Role::Validator, path.clone(), language.clone()))
        .collect();
    // Every input validator's name, those the judge cannot run included:
    // what a 2025-09 map of arguments may name.
    let validator_names: Vec<String> = validators
        .iter()
        .map(|(path, _)| path)
        .chain(skipped_validators.iter().map(|(path, _)| path))
        .map(|path| super::kattis_selftest::program_name(path))
        .collect();
    let validator_args = match &validator_name {
        Some(name) => {
            let names: Vec<&str> = tests.iter().map(|test| test.name.as_str()).collect();
            crate::config::kattis_validator_args::input_validator_args(
                &settings_files,
                &names,
                name,
                &validator_names,
            )?
        }
        None => std::collections::BTreeMap::new(),
    };
    let validator = validators.into_iter().next().map(|(path, language)| {
        (
            Tool::new(Role::Validator, path, language),
            ValidatorExitCodes::Kattis,
            Vec::new(),
        )
    });
    let (flags, test_flags) = output_validator_flags(&settings_files, yaml, &tests)?;
    // Legacy: `validation: custom` names the output validator; later
    // versions use one when `output_validator/` holds it.
    // `output_validator/` is one program (a folder); the legacy
    // `output_validators/` holds programs, each a file or a folder.
    let mut output_validators = Vec::new();
    let single = dir.join("output_validator");
    if single.is_dir()
        && crate::runner::folder_files(&single, &scope).is_ok_and(|files| !files.is_empty())
    {
        output_validators.push(program_at(&single, &scope, config)?);
    }
    for found in programs_in(&dir.join("output_validators"), &scope, config)? {
        match found {
            FoundProgram::Ignored { path, reason } => ignored_files.push((path, reason)),
            found => output_validators.push(found),
        }
    }
    ignored_files.extend(crate::config::kattis::ignored_submissions(dir)?);
    let custom = match yaml.format {
        FormatVersion::Legacy => yaml
            .validation
            .as_deref()
            .is_some_and(|validation| validation.starts_with("custom")),
        _ => !output_validators.is_empty(),
    };
    let interactive = yaml.is(ProblemType::Interactive);
    let multi_pass = yaml.is(ProblemType::MultiPass);
    if (interactive || multi_pass) && !custom {
        return Err(file.invalid(
            "validation",
            format!(
                "an {} problem needs its output validator: a program in `output_validators/` \
                 (or `output_validator/`)",
                if interactive {
                    "interactive"
                } else {
                    "multi-pass"
                }
            ),
        ));
    }
    // problemtools uses one output validator, and says so when there are
    // more (issue #34): a warning in the legacy format, an error in later
    // ones, which have one `output_validator/`.
    let mut several_validators = None;
    let programs: Vec<&Path> = output_validators
        .iter()
        .filter_map(|found| match found {
            FoundProgram::Runs { path, .. } | FoundProgram::Unrunnable { path, .. } => {
                Some(path.as_path())
            }
            FoundProgram::Ignored { .. } => None,
        })
        .collect();
    if programs.len() > 1 {
        let shown = |path: &Path| format!("`{}`", path.strip_prefix(dir).unwrap_or(path).display());
        let names = programs
            .iter()
            .map(|path| shown(path))
            .collect::<Vec<_>>()
            .join(", ");
        if yaml.format != FormatVersion::Legacy {
            return Err(ConfigError::invalid(
                programs[1],
                "output_validator",
                format!(
                    "the package has {} output validators ({names}); the {} format has one, \
                     the program in `output_validator/`",
                    programs.len(),
                    yaml.format.name()
                ),
            ));
        }
        if custom {
            let used = output_validators
                .iter()
                .find_map(|found| match found {
                    FoundProgram::Runs { path, .. } => Some(path.as_path()),
                    _ => None,
                })
                .unwrap_or(programs[0]);
            several_validators = Some(format!(
                "`output_validators/` holds {} output validators ({names}): only {} is used, \
                 as problemtools uses one (it warns that support for several was dropped); \
                 merge them into one",
                programs.len(),
                shown(used)
            ));
        }
    }
    let checker = if custom {
        let runnable = output_validators
            .iter()
            .position(|found| matches!(found, FoundProgram::Runs { .. }))
            .unwrap_or(0);
        let found = output_validators.into_iter().nth(runnable).ok_or_else(|| {
            file.invalid(
                "validation",
                "`custom` needs a program in `output_validators/` (or `output_validator/`)"
                    .to_owned(),
            )
        })?;
        let tool = match found {
            FoundProgram::Runs { path, language } => Tool::new(Role::Checker, path, language),
            FoundProgram::Unrunnable { path, reason } | FoundProgram::Ignored { path, reason } => {
                return Err(ConfigError::invalid(&path, "output validator", reason))
            }
        };
        Checker::Program {
            tool: Box::new(tool),
            protocol: CheckerProtocol::Kattis,
            args: flags,
        }
    } else {
        Checker::Builtin(
            default_validator(&flags)
                .map_err(|error| file.invalid("validator_flags", error.to_string()))?,
        )
    };
    let mut test_checkers = BTreeMap::new();
    for (name, test_flags) in test_flags {
        let changed = match &checker {
            Checker::Program { .. } => TestChecker::Args(test_flags),
            Checker::Builtin(_) => {
                TestChecker::Builtin(default_validator(&test_flags).map_err(|error| {
                    ConfigError::invalid(
                        &data_folder(dir).join(crate::config::kattis_groups::folder_of(&name)),
                        "output_validator_args",
                        format!("test `{name}`: {error}"),
                    )
                })?)
            }
        };
        test_checkers.insert(name, changed);
    }
    let limits = LimitsToml {
        time_limit_ms: time_limit_ms.unwrap_or(1000),
        memory_limit_mib: yaml.limits.memory.unwrap_or(2048),
        output_limit_kib: yaml.limits.output.unwrap_or(8).saturating_mul(1024),
        tool_time_limit_ms: yaml
            .limits
            .validation_time
            .map(|seconds| seconds.saturating_mul(1000)),
        tool_memory_limit_mib: yaml.limits.validation_memory,
    };
    let title = yaml.title().unwrap_or_else(|| id.clone());
    let profiles = vec!["data".to_owned()];
    let hidden = Arc::new(hidden.with(&Kattis.secret_folders(dir)));
    let toolbox = Toolbox::new(
        config.compile_limits(),
        config.tool_limits(&limits),
        hidden,
        scope,
    )
    .map_err(|fault| ConfigError::invalid(dir, "programs", fault.0))?
    .with_constants(&file.constants);
    let mut problem = ProgramProblem::new(
        &id, &title, &profiles, toolbox, reference, None, validator, checker,
    )
    .with_test_checkers(test_checkers);
    if interactive || multi_pass {
        problem = problem.with_interaction(Interaction {
            interactive,
            passes: if multi_pass {
                yaml.limits
                    .validation_passes
                    .map_or(crate::interaction::DEFAULT_PASSES, |passes| {
                        u32::try_from(passes).unwrap_or(u32::MAX)
                    })
            } else {
                1
            },
        });
    }
    let manifest = ProblemToml::of_programs(
        title,
        yaml.source_name().unwrap_or_default(),
        profiles,
        limits,
    );
    let groups = package_groups(&settings_files, yaml, &tests)?;
    let package = Package {
        id,
        problem: ProblemRef::Programs(Arc::new(problem)),
        manifest,
        dir: Some(dir.to_owned()),
        secret_folders: Kattis.secret_folders(dir),
        tests,
        groups,
    };
    if unchecked_inputs.is_none() {
        check_tests(&package, "the package's input validator", &validator_args)?;
        // The package's tests of its validators (`data/invalid_input/`,
        // ...): checked where its tests are, before anything is graded.
        if let ProblemRef::Programs(problem) = &package.problem {
            let input_args = |name: &str, validator: &str| -> Result<Vec<String>, ConfigError> {
                let mut args = crate::config::kattis_validator_args::input_validator_args(
                    &settings_files,
                    &[name],
                    validator,
                    &validator_names,
                )?;
                Ok(args.remove(name).unwrap_or_default())
            };
            let answer_args = |name: &str, validator: &str| -> Result<Vec<String>, ConfigError> {
                let known = super::kattis_selftest::answer_validator_names(dir, config)?;
                let mut args = crate::config::kattis_validator_args::answer_validator_args(
                    &settings_files,
                    &[name],
                    validator,
                    &known,
                )?;
                Ok(args.remove(name).unwrap_or_default())
            };
            ignored_files.extend(super::kattis_selftest::check(
                dir,
                problem,
                &other_validators,
                &super::kattis_selftest::Arguments {
                    input: &input_args,
                    answer: &answer_args,
                },
                config,
            )?);
        }
    }
    let mut loaded = loaded(package, skipped_validators, ignored_files, unchecked_inputs);
    loaded.warnings.extend(several_validators);
    Ok(loaded)
}

/// What loading says of `data/test_group.yaml` when a package has one: the
/// 2025-09 format does not name the file, so the note says how the judge
/// reads it (as BAPCtools does).
fn data_settings_note(files: &SettingsFiles<'_>) -> Option<String> {
    let path = files
        .data()
        .join(crate::config::kattis_groups::CURRENT_FILE);
    path.is_file().then(|| {
        format!(
            "`{}` is read as BAPCtools reads it (2025-09 names `test_group.yaml` in \
             `data/sample`, `data/secret` and its groups only): its arguments hold for every \
             test whose own group's file does not set them",
            path.display()
        )
    })
}

/// By the name of a test, its output validator's arguments.
type TestArgs = BTreeMap<String, Vec<String>>;

/// The output validator's arguments: for the problem, the legacy
/// `validator_flags` of problem.yaml; for each test whose folder (or an
/// ancestor, or its own `NAME.yaml`) sets them, those followed by the
/// group's (`output_validator_flags` of `testdata.yaml`,
/// `output_validator_args` of `test_group.yaml`), as problemtools passes
/// them. Groups may differ (issue #34): BAPCtools' `divsort` gives one group
/// a float tolerance.
fn output_validator_flags(
    files: &SettingsFiles<'_>,
    yaml: &ProblemYaml,
    tests: &[PackageTest],
) -> Result<(Vec<String>, TestArgs), ConfigError> {
    let flags: Vec<String> = match yaml.format {
        FormatVersion::Legacy => yaml
            .validator_flags
            .as_deref()
            .unwrap_or("")
            .split_whitespace()
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    };
    // The output validator's self-tests (`data/valid_output/`, ...) are
    // checked with their groups' arguments too.
    let data = files.data();
    let self_tests: Vec<String> = ["invalid_answer", "invalid_output", "valid_output"]
        .into_iter()
        .flat_map(|folder| crate::config::kattis::test_names(&data, folder))
        .collect();
    let names: Vec<&str> = tests
        .iter()
        .map(|test| test.name.as_str())
        .chain(self_tests.iter().map(String::as_str))
        .collect();
    let by_test = crate::config::kattis_validator_args::output_validator_args(files, &names)?
        .into_iter()
        .map(|(name, args)| {
            let mut all = flags.clone();
            all.extend(args);
            (name, all)
        })
        .collect();
    Ok((flags, by_test))
}

/// The scored test groups of the package in `dir` (see
/// [`crate::config::kattis_groups::read_groups`]).
fn package_groups(
    files: &SettingsFiles<'_>,
    yaml: &ProblemYaml,
    tests: &[PackageTest],
) -> Result<Option<crate::config::groups::GroupTree>, ConfigError> {
    let names: Vec<&str> = tests.iter().map(|test| test.name.as_str()).collect();
    crate::config::kattis_groups::read_groups(files, &names, yaml.is_scoring())
}

/// Every test of a package must be valid for it: the first that is not is
/// a configuration error naming its file and what the tests must satisfy.
/// A program validator gets each test's group arguments (`args`, by test
/// name).
fn check_tests(
    package: &Package,
    valid_for: &str,
    args: &std::collections::BTreeMap<String, Vec<String>>,
) -> Result<(), ConfigError> {
    for test in &package.tests {
        let checked = match (&package.problem, args.get(&test.name)) {
            (ProblemRef::Programs(problem), Some(args)) => problem.validate_with(&test.input, args),
            _ => package.validate(&test.input),
        };
        if let Err(error) = checked {
            return Err(ConfigError {
                path: test.path.clone(),
                kind: ConfigErrorKind::InvalidTest {
                    error,
                    profiles: valid_for.to_owned(),
                },
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unsupported_key_names_its_line() {
        let dir = tempfile::tempdir().unwrap();
        fs_err::write(
            dir.path().join("problem.yaml"),
            "name: Sum\nscoring:\n  on_reject: first_error\n",
        )
        .unwrap();
        let error = load(
            dir.path(),
            "package",
            &JudgeConfig::defaults().unwrap(),
            &Hidden::new(),
        )
        .unwrap_err();
        let message = error.to_string();
        assert!(
            message.contains("line 2, column 1: unknown field `scoring`"),
            "{message}"
        );
    }
}
