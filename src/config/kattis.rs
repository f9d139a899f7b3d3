//! A Kattis / ICPC problem package read as it is (issue #9): `problem.yaml`
//! (name, limits, `validation`, `validator_flags`), `data/sample` and
//! `data/secret` (nested groups), `input_validators/`,
//! `output_validator/` or `output_validators/`, and `submissions/<verdict>/`.
//!
//! The package becomes a [`Package`] backed by programs: its tests are the
//! `.in`/`.ans` pairs, its validator the first input validator, its
//! checker the default output validator (tokens, case-insensitive unless
//! `case_sensitive`, with the float tolerances of `validator_flags`) or the
//! custom one speaking the Kattis protocol; the first accepted submission
//! in a configured language is its reference. A key of `problem.yaml` the
//! judge does not support is an error with its line: nothing is graded
//! against a half-understood package.

use super::judge::JudgeConfig;
use super::problem::{
    CheckerToml, LimitsToml, Package, PackageTest, ProblemRef, ProblemToml, TestsToml,
};
use super::{ConfigError, ConfigErrorKind};
use crate::config::problem::ValidatorExitCodes;
use crate::external::{Checker, CheckerProtocol, ProgramProblem, Tool, Toolbox};
use crate::problems::checkers::BuiltinChecker;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// `problem.yaml` as written (the keys the judge supports).
#[derive(Debug, Default, Deserialize)]
#[expect(
    dead_code,
    reason = "descriptive keys are read so that a package stating them loads; grading needs none"
)]
#[serde(deny_unknown_fields)]
struct ProblemYaml {
    /// A string, or (problem format 2023-07) a map of language to name.
    name: Option<serde_norway::Value>,
    credits: Option<serde_norway::Value>,
    languages: Option<serde_norway::Value>,
    embargo_until: Option<serde_norway::Value>,
    source: Option<String>,
    source_url: Option<String>,
    author: Option<String>,
    license: Option<String>,
    rights_owner: Option<String>,
    uuid: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
    problem_format_version: Option<String>,
    keywords: Option<serde_norway::Value>,
    validation: Option<String>,
    validator_flags: Option<String>,
    #[serde(default)]
    limits: LimitsYaml,
}

/// `limits:` of problem.yaml.
#[derive(Debug, Default, Deserialize)]
#[expect(
    dead_code,
    reason = "spec-valid limits the judge does not enforce are read so a package stating them loads"
)]
#[serde(deny_unknown_fields)]
struct LimitsYaml {
    /// Seconds; absent in the legacy format, where the limit comes from
    /// the slowest accepted submission.
    time_limit: Option<f64>,
    time_multiplier: Option<f64>,
    time_safety_margin: Option<f64>,
    /// MiB.
    memory: Option<u64>,
    /// MiB.
    output: Option<u64>,
    validation_time: Option<u64>,
    validation_memory: Option<u64>,
    /// Spec-valid limits the judge reads but does not enforce (KiB, s, MiB).
    code: Option<u64>,
    compilation_time: Option<f64>,
    compilation_memory: Option<u64>,
    validation_output: Option<u64>,
}

impl ProblemYaml {
    /// The problem's name: the string, or the English (else the first) of
    /// a map of languages.
    fn title(&self) -> Option<String> {
        match self.name.as_ref()? {
            serde_norway::Value::String(name) => Some(name.clone()),
            serde_norway::Value::Mapping(names) => names
                .get("en")
                .or_else(|| names.values().next())
                .and_then(serde_norway::Value::as_str)
                .map(str::to_owned),
            _ => None,
        }
    }
}

/// One program of `submissions/<folder>/`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackageSubmission {
    pub path: PathBuf,
    /// `accepted`, `wrong_answer`, ...
    pub folder: String,
}

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

/// Whether `dir` is a Kattis package (it has a `problem.yaml`).
pub fn is_kattis_package(dir: &Path) -> bool {
    dir.join("problem.yaml").is_file()
}

/// The files of `dir/submissions/<folder>/`, by folder then name. A folder
/// inside a verdict folder (a multi-file submission) is listed too; the
/// caller skips it with a reason.
pub fn package_submissions(dir: &Path) -> Result<Vec<PackageSubmission>, ConfigError> {
    let root = dir.join("submissions");
    let mut found = Vec::new();
    if !root.is_dir() {
        return Ok(found);
    }
    for folder in sorted_entries(&root)? {
        if !folder.is_dir() {
            continue;
        }
        let name = folder
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default();
        for path in sorted_entries(&folder)? {
            found.push(PackageSubmission {
                path,
                folder: name.clone(),
            });
        }
    }
    Ok(found)
}

fn sorted_entries(dir: &Path) -> Result<Vec<PathBuf>, ConfigError> {
    let mut entries: Vec<PathBuf> = fs_err::read_dir(dir)
        .map_err(|error| read_error(dir, error))?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            !path
                .file_name()
                .is_some_and(|name| name.to_string_lossy().starts_with('.'))
        })
        .collect();
    entries.sort();
    Ok(entries)
}

fn read_error(path: &Path, error: std::io::Error) -> ConfigError {
    ConfigError {
        path: path.to_owned(),
        kind: ConfigErrorKind::Read(error),
    }
}

/// Reads the Kattis package in `dir`.
pub fn load(dir: &Path, config: &JudgeConfig) -> Result<KattisPackage, ConfigError> {
    let yaml_path = dir.join("problem.yaml");
    let text = fs_err::read_to_string(&yaml_path).map_err(|error| read_error(&yaml_path, error))?;
    let yaml: ProblemYaml = if text.trim().is_empty() {
        ProblemYaml::default()
    } else {
        serde_norway::from_str(&text).map_err(|error| ConfigError {
            path: yaml_path.clone(),
            kind: ConfigErrorKind::Parse {
                position: error
                    .location()
                    .map(|location| (location.line(), location.column())),
                message: without_location(&error.to_string()),
            },
        })?
    };
    let invalid = |key: &str, message: String| {
        let line = text
            .lines()
            .position(|line| {
                line.trim_start()
                    .starts_with(&format!("{}:", key.rsplit('.').next().unwrap_or(key)))
            })
            .map(|index| index + 1);
        ConfigError {
            path: yaml_path.clone(),
            kind: ConfigErrorKind::Invalid {
                key: key.to_owned(),
                message,
                line,
            },
        }
    };
    if let Some(kind) = &yaml.kind {
        if kind != "pass-fail" {
            return Err(invalid(
                "type",
                format!("`{kind}` is not supported; only `pass-fail`"),
            ));
        }
    }
    if let Some(version) = &yaml.problem_format_version {
        if version != "legacy" && version != "legacy-icpc" {
            return Err(invalid(
                "problem_format_version",
                format!("`{version}` is not supported; only the legacy format"),
            ));
        }
    }
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
    if let Some(package) = exported_engine_package(dir, &id, &yaml, tests.clone())? {
        return Ok(KattisPackage {
            package,
            time_limit_ms,
            time_multiplier: yaml.limits.time_multiplier.unwrap_or(5.0),
            time_safety_margin: yaml.limits.time_safety_margin.unwrap_or(2.0),
        });
    }
    let submissions = package_submissions(dir)?;
    let tool_for = |role: &'static str, path: &Path| -> Option<Tool> {
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
        .filter(|submission| submission.folder == "accepted" && submission.path.is_file())
        .find_map(|submission| tool_for("reference", &submission.path))
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
    let program_in = |folder: &Path, role: &'static str| -> Result<Option<Tool>, ConfigError> {
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
                        role,
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
                role,
                format!(
                    "is in no configured language; languages are defined in `judge.toml` under \
                     [languages]; known: {}",
                    config.known_languages()
                ),
            )
        })
    };
    let validator = program_in(&dir.join("input_validators"), "validator")?
        .map(|tool| (tool, ValidatorExitCodes::Kattis, Vec::new()));
    let flags: Vec<String> = yaml
        .validator_flags
        .as_deref()
        .unwrap_or("")
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    let checker = match yaml.validation.as_deref().unwrap_or("default") {
        "default" => Checker::Builtin(
            default_validator(&flags).map_err(|message| invalid("validator_flags", message))?,
        ),
        "custom" => {
            let tool = match program_in(&dir.join("output_validators"), "checker")? {
                Some(tool) => tool,
                None => program_in(&dir.join("output_validator"), "checker")?.ok_or_else(|| {
                    invalid(
                        "validation",
                        "`custom` needs a program in `output_validators/` (or `output_validator/`)"
                            .to_owned(),
                    )
                })?,
            };
            Checker::Program {
                tool: Box::new(tool),
                protocol: CheckerProtocol::Kattis,
                args: flags,
            }
        }
        other => {
            return Err(invalid(
                "validation",
                format!(
                "`{other}` is not supported; `default` or `custom` (interactive problems are not)"
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
    let problem = ProgramProblem::new(
        &id, &title, &profiles, toolbox, reference, None, validator, checker,
    );
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

/// A YAML error's message without the " at line L column C" the position
/// already says.
fn without_location(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(index) => message[..index].to_owned(),
        None => message.to_owned(),
    }
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
    let script = dir.join("output_validators/judge_check/judge_check.py");
    let Ok(text) = fs_err::read_to_string(&script) else {
        return Ok(None);
    };
    let Some((engine, profiles, lexmin)) = crate::export::engine_marker(&text) else {
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

/// The default output validator of problemtools, from `validator_flags`:
/// tokens, case-insensitive unless `case_sensitive`, numbers within
/// `float_tolerance` (or the absolute and relative ones) when given.
pub fn default_validator(flags: &[String]) -> Result<BuiltinChecker, String> {
    let mut case_sensitive = false;
    let mut absolute = None;
    let mut relative = None;
    let mut words = flags.iter();
    while let Some(flag) = words.next() {
        let mut number = |name: &str| -> Result<f64, String> {
            words
                .next()
                .and_then(|value| value.parse::<f64>().ok())
                .ok_or_else(|| format!("`{name}` needs a number after it"))
        };
        match flag.as_str() {
            "case_sensitive" => case_sensitive = true,
            "space_change_sensitive" => {}
            "float_tolerance" => {
                let value = number("float_tolerance")?;
                absolute = Some(value);
                relative = Some(value);
            }
            "float_absolute_tolerance" => absolute = Some(number("float_absolute_tolerance")?),
            "float_relative_tolerance" => relative = Some(number("float_relative_tolerance")?),
            other => {
                return Err(format!(
                    "`{other}` is not a flag of the default output validator"
                ))
            }
        }
    }
    Ok(match (absolute, relative) {
        (None, None) if case_sensitive => BuiltinChecker::Tokens,
        (None, None) => BuiltinChecker::CaseInsensitive,
        (absolute, relative) => BuiltinChecker::Float {
            absolute: absolute.unwrap_or(0.0),
            relative: relative.unwrap_or(0.0),
        },
    })
}

/// `data/sample` then `data/secret`, each searched in depth (nested groups),
/// in name order; every `.in` needs its `.ans`.
fn read_tests(dir: &Path) -> Result<Vec<PackageTest>, ConfigError> {
    let data = dir.join("data");
    let mut tests = Vec::new();
    for group in ["sample", "secret"] {
        let root = data.join(group);
        if !root.is_dir() {
            continue;
        }
        let mut inputs: Vec<PathBuf> = walkdir::WalkDir::new(&root)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .map(walkdir::DirEntry::into_path)
            .filter(|path| path.extension().is_some_and(|extension| extension == "in"))
            .collect();
        inputs.sort();
        for path in inputs {
            let answer_path = path.with_extension("ans");
            if !answer_path.is_file() {
                return Err(ConfigError::invalid(
                    &path,
                    "answer",
                    format!(
                        "the test has no answer `{}` beside it",
                        answer_path.display()
                    ),
                ));
            }
            let read = |path: &Path| -> Result<String, ConfigError> {
                let bytes = fs_err::read(path).map_err(|error| read_error(path, error))?;
                String::from_utf8(bytes)
                    .map_err(|_| ConfigError::invalid(path, "text", "is not UTF-8"))
            };
            let name = path
                .strip_prefix(&data)
                .unwrap_or(&path)
                .with_extension("")
                .to_string_lossy()
                .into_owned();
            tests.push(PackageTest {
                name,
                input: read(&path)?,
                answer: Some(read(&answer_path)?),
                path,
                on_disk: true,
            });
        }
    }
    Ok(tests)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn reads_the_default_validators_flags() {
        assert_eq!(default_validator(&[]), Ok(BuiltinChecker::CaseInsensitive));
        assert_eq!(
            default_validator(&flags("case_sensitive")),
            Ok(BuiltinChecker::Tokens)
        );
        assert_eq!(
            default_validator(&flags("float_tolerance 1e-4")),
            Ok(BuiltinChecker::Float {
                absolute: 1e-4,
                relative: 1e-4
            })
        );
        assert_eq!(
            default_validator(&flags("float_tolerance")),
            Err("`float_tolerance` needs a number after it".to_owned())
        );
        assert_eq!(
            default_validator(&flags("ignore_case")),
            Err("`ignore_case` is not a flag of the default output validator".to_owned())
        );
    }

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

    /// See: issue #9 (adversarial review: spec-valid keys were refused).
    #[test]
    fn spec_valid_keys_and_a_name_per_language_are_read() {
        let yaml: ProblemYaml = serde_norway::from_str(
            "name:\n  de: Summe\n  en: Sum\ncredits:\n  authors: Ann\nlimits:\n  time_limit: 2\n  code: 128\n  compilation_time: 60\n",
        )
        .unwrap();
        assert_eq!(yaml.title().as_deref(), Some("Sum"));
        assert_eq!(yaml.limits.time_limit, Some(2.0));
        let plain: ProblemYaml = serde_norway::from_str("name: Add\n").unwrap();
        assert_eq!(plain.title().as_deref(), Some("Add"));
    }
}
