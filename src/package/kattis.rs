//! A Kattis / ICPC problem package (issue #9) assembled from what
//! [`crate::config::kattis`] read: its tests are the `.in`/`.ans` pairs,
//! its validator the first input validator, its checker the default output
//! validator (tokens, case-insensitive unless `case_sensitive`, with the
//! float tolerances of `validator_flags`) or the custom one speaking the
//! Kattis protocol; the first accepted submission in a configured language
//! is its reference. A package written by `judge export --kattis` from a
//! built-in engine uses that engine directly.

use super::{Package, ProblemRef};
use crate::config::judge::JudgeConfig;
use crate::config::kattis::{
    default_validator, engine_marker, package_submissions, read_problem_yaml, read_tests,
    sorted_entries, ProblemYaml, EXPORTED_CHECKER,
};
use crate::config::problem::{
    CheckerToml, LimitsToml, PackageTest, ProblemToml, TestsToml, ValidatorExitCodes,
};
use crate::config::{ConfigError, ConfigErrorKind};
use crate::external::{Checker, CheckerProtocol, Interaction, ProgramProblem, Role, Tool, Toolbox};
use crate::grade::ACCEPTED_FOLDER;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A Kattis package, ready to grade.
#[derive(Debug)]
pub struct KattisPackage {
    pub package: Package,
    /// problem.yaml's `limits.time_limit`, in ms.
    pub time_limit_ms: Option<u64>,
    /// problem.yaml's `limits.time_multiplier` (default 5, as problemtools).
    pub time_multiplier: f64,
    /// problem.yaml's `limits.time_safety_margin` (default 2).
    pub time_safety_margin: f64,
}

/// Reads the Kattis package in `dir`.
pub fn load(dir: &Path, config: &JudgeConfig) -> Result<KattisPackage, ConfigError> {
    let file = read_problem_yaml(dir)?;
    let yaml = &file.yaml;
    let id = dir
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| "package".to_owned());
    let tests = read_tests(dir)?;
    if tests.is_empty() {
        return Err(ConfigError::invalid(
            &dir.join("data"),
            "data",
            "holds no `.in` file under `sample/` or `secret/`",
        ));
    }
    let time_limit_ms = yaml
        .limits
        .time_limit
        .map(|seconds| (seconds * 1000.0).ceil().max(1.0) as u64);
    if let Some(package) = exported_engine_package(dir, &id, yaml, tests.clone())? {
        return Ok(KattisPackage {
            package,
            time_limit_ms,
            time_multiplier: yaml.limits.time_multiplier.unwrap_or(5.0),
            time_safety_margin: yaml.limits.time_safety_margin.unwrap_or(2.0),
        });
    }
    let submissions = package_submissions(dir)?;
    let tool_for = |role: Role, path: &Path| -> Option<Tool> {
        config.language_for(path).map(|(name, language)| {
            Tool::new(
                role,
                path.to_owned(),
                Some((name.to_owned(), language.clone())),
            )
        })
    };
    let reference = submissions
        .iter()
        .filter(|submission| submission.folder == ACCEPTED_FOLDER && submission.path.is_file())
        .find_map(|submission| tool_for(Role::Reference, &submission.path))
        .ok_or_else(|| {
            ConfigError::invalid(
                &dir.join("submissions/accepted"),
                "reference",
                format!(
                    "holds no program in a configured language ({}) to answer inputs with",
                    config.known_languages()
                ),
            )
        })?;
    let program_in = |folder: &Path, role: Role| -> Result<Option<Tool>, ConfigError> {
        if !folder.is_dir() {
            return Ok(None);
        }
        let Some(first) = sorted_entries(folder)?.into_iter().next() else {
            return Ok(None);
        };
        let file = if first.is_dir() {
            let sources: Vec<PathBuf> = sorted_entries(&first)?
                .into_iter()
                .filter(|path| config.language_for(path).is_some())
                .collect();
            match sources.as_slice() {
                [one] => one.clone(),
                _ => {
                    return Err(ConfigError::invalid(
                        &first,
                        role.name(),
                        format!(
                            "holds {} source files; the judge builds a {role} from exactly one",
                            sources.len()
                        ),
                    ))
                }
            }
        } else {
            first
        };
        tool_for(role, &file).map(Some).ok_or_else(|| {
            ConfigError::invalid(
                &file,
                role.name(),
                format!("is in no configured language; {}", config.languages_hint()),
            )
        })
    };
    let validator = program_in(&dir.join("input_validators"), Role::Validator)?
        .map(|tool| (tool, ValidatorExitCodes::Kattis, Vec::new()));
    let flags: Vec<String> = yaml
        .validator_flags
        .as_deref()
        .unwrap_or("")
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    let (interactive, multi_pass) = file.interaction()?;
    let validation = match yaml.validation.as_deref() {
        // `custom interactive`, `custom multi-pass`: the words after
        // `custom` are read by `interaction` above.
        Some(value) if value.split_whitespace().next() == Some("custom") => "custom",
        Some(value) => value,
        None if interactive || multi_pass => "custom",
        None => "default",
    };
    if (interactive || multi_pass) && validation != "custom" {
        return Err(file.invalid(
            "validation",
            format!(
                "`{validation}` cannot judge an {} problem: its output validator must be a program \
                 in `output_validators/` (or `output_validator/`)",
                if interactive { "interactive" } else { "multi-pass" }
            ),
        ));
    }
    let checker = match validation {
        "default" => Checker::Builtin(
            default_validator(&flags)
                .map_err(|message| file.invalid("validator_flags", message))?,
        ),
        "custom" => {
            let tool = match program_in(&dir.join("output_validators"), Role::Checker)? {
                Some(tool) => tool,
                None => {
                    program_in(&dir.join("output_validator"), Role::Checker)?.ok_or_else(|| {
                        file.invalid(
                        "validation",
                        "`custom` needs a program in `output_validators/` (or `output_validator/`)"
                            .to_owned(),
                    )
                    })?
                }
            };
            Checker::Program {
                tool: Box::new(tool),
                protocol: CheckerProtocol::Kattis,
                args: flags,
            }
        }
        other => {
            return Err(file.invalid(
                "validation",
                format!(
                "`{other}` is not supported; `default`, `custom`, `custom interactive` or `custom multi-pass`"
            ),
            ))
        }
    };
    let limits = LimitsToml {
        time_limit_ms: yaml
            .limits
            .time_limit
            .map_or(1000, |seconds| (seconds * 1000.0).ceil().max(1.0) as u64),
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
    let toolbox = Toolbox::new(config.compile_limits(), config.tool_limits(&limits))
        .map_err(|fault| ConfigError::invalid(dir, "programs", fault.0))?;
    let mut problem = ProgramProblem::new(
        &id, &title, &profiles, toolbox, reference, None, validator, checker,
    );
    if interactive || multi_pass {
        problem = problem.with_interaction(Interaction {
            interactive,
            passes: if multi_pass {
                yaml.limits
                    .validation_passes
                    .unwrap_or(crate::interaction::DEFAULT_PASSES)
            } else {
                1
            },
        });
    }
    let manifest = ProblemToml {
        title,
        origin: yaml.source.clone().unwrap_or_default(),
        engine: None,
        reference: None,
        generator: None,
        validator: None,
        profiles,
        limits,
        checker: CheckerToml::default(),
        tests: TestsToml {
            seed: 0,
            generated: Vec::new(),
        },
    };
    let package = Package {
        id,
        problem: ProblemRef::Programs(Arc::new(problem)),
        manifest,
        dir: Some(dir.to_owned()),
        tests,
    };
    check_tests(&package, "the package's input validator")?;
    Ok(KattisPackage {
        package,
        time_limit_ms,
        time_multiplier: yaml.limits.time_multiplier.unwrap_or(5.0),
        time_safety_margin: yaml.limits.time_safety_margin.unwrap_or(2.0),
    })
}

/// A package written by `judge export --kattis` from a built-in engine:
/// its output validator names the engine (see [`crate::export`]), and the
/// engine decides directly, so the package grades as the original does
/// without `judge` inside the sandbox.
fn exported_engine_package(
    dir: &Path,
    id: &str,
    yaml: &ProblemYaml,
    tests: Vec<PackageTest>,
) -> Result<Option<Package>, ConfigError> {
    let script = dir.join(EXPORTED_CHECKER);
    let Ok(text) = fs_err::read_to_string(&script) else {
        return Ok(None);
    };
    let Some((engine, profiles, lexmin)) = engine_marker(&text) else {
        return Ok(None);
    };
    let Some(problem) = crate::problems::find(&engine) else {
        return Err(ConfigError::invalid(
            &script,
            "judge-engine",
            format!(
                "unknown engine `{engine}`; known: {}",
                crate::problems::known_ids()
            ),
        ));
    };
    let profiles = if profiles.is_empty() {
        problem
            .profiles()
            .iter()
            .map(|profile| profile.name.to_owned())
            .collect()
    } else {
        profiles
    };
    let limits = LimitsToml {
        time_limit_ms: yaml
            .limits
            .time_limit
            .map_or(1000, |seconds| (seconds * 1000.0).ceil().max(1.0) as u64),
        memory_limit_mib: yaml.limits.memory.unwrap_or(2048),
        output_limit_kib: yaml.limits.output.unwrap_or(8).saturating_mul(1024),
        tool_time_limit_ms: None,
        tool_memory_limit_mib: None,
    };
    let package = Package {
        id: id.to_owned(),
        problem: ProblemRef::Engine(problem),
        manifest: ProblemToml {
            title: yaml.title().unwrap_or_else(|| id.to_owned()),
            origin: yaml.source.clone().unwrap_or_default(),
            engine: Some(engine),
            reference: None,
            generator: None,
            validator: None,
            profiles,
            limits,
            checker: CheckerToml {
                lexmin: Some(lexmin),
                ..CheckerToml::default()
            },
            tests: TestsToml {
                seed: 0,
                generated: Vec::new(),
            },
        },
        dir: Some(dir.to_owned()),
        tests,
    };
    let profiles = package.manifest.profiles.join(", ");
    check_tests(&package, &profiles)?;
    Ok(Some(package))
}

/// Every test of a package must be valid for it: the first that is not is
/// a configuration error naming its file and what the tests must satisfy.
fn check_tests(package: &Package, valid_for: &str) -> Result<(), ConfigError> {
    for test in &package.tests {
        if let Err(error) = package.validate(&test.input) {
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
            "name: Sum\ngrading:\n  on_reject: first_error\n",
        )
        .unwrap();
        let error = load(dir.path(), &JudgeConfig::defaults().unwrap()).unwrap_err();
        let message = error.to_string();
        assert!(
            message.contains("line 2, column 1: unknown field `grading`"),
            "{message}"
        );
    }
}
