//! A Kattis / ICPC problem package read as it is (issue #9): `problem.yaml`
//! (name, limits, `validation`, `validator_flags`), `data/sample` and
//! `data/secret` (nested groups), `input_validators/`,
//! `output_validator/` or `output_validators/`, and `submissions/<verdict>/`.
//!
//! This module reads and checks those files and builds nothing that runs;
//! [`crate::package::kattis`] assembles the problem from them. A key of
//! `problem.yaml` the judge does not support is an error with its line:
//! nothing is graded against a half-understood package.

use super::problem::PackageTest;
use super::{ConfigError, ConfigErrorKind};
use crate::problems::checkers::BuiltinChecker;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// `problem.yaml` as written (the keys the judge supports). Descriptive
/// keys are read so that a package stating them loads; grading needs none.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProblemYaml {
    /// A string, or (problem format 2023-07) a map of language to name.
    pub name: Option<serde_norway::Value>,
    pub credits: Option<serde_norway::Value>,
    pub languages: Option<serde_norway::Value>,
    pub embargo_until: Option<serde_norway::Value>,
    pub source: Option<String>,
    pub source_url: Option<String>,
    pub author: Option<String>,
    pub license: Option<String>,
    pub rights_owner: Option<String>,
    pub uuid: Option<String>,
    /// `pass-fail`, `interactive`, `multi-pass`: one value or a list.
    #[serde(rename = "type")]
    pub kind: Option<serde_norway::Value>,
    pub problem_format_version: Option<String>,
    pub keywords: Option<serde_norway::Value>,
    pub validation: Option<String>,
    pub validator_flags: Option<String>,
    #[serde(default)]
    pub limits: LimitsYaml,
}

/// `limits:` of problem.yaml.
///
/// Spec-valid limits the judge does not enforce are read so that a
/// package stating them loads.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsYaml {
    /// Seconds; absent in the legacy format, where the limit comes from
    /// the slowest accepted submission.
    pub time_limit: Option<f64>,
    pub time_multiplier: Option<f64>,
    pub time_safety_margin: Option<f64>,
    /// MiB.
    pub memory: Option<u64>,
    /// MiB.
    pub output: Option<u64>,
    pub validation_time: Option<u64>,
    pub validation_memory: Option<u64>,
    /// Spec-valid limits the judge reads but does not enforce (KiB, s, MiB).
    pub code: Option<u64>,
    pub compilation_time: Option<f64>,
    pub compilation_memory: Option<u64>,
    pub validation_output: Option<u64>,
    /// Passes of a multi-pass problem at most (default 2).
    pub validation_passes: Option<u32>,
}

impl ProblemYaml {
    /// The problem's name: the string, or the English (else the first) of
    /// a map of languages.
    pub fn title(&self) -> Option<String> {
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

pub fn sorted_entries(dir: &Path) -> Result<Vec<PathBuf>, ConfigError> {
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

/// Reads `dir/problem.yaml`: its keys (one the judge does not support is an
/// error with its line), and the `type` and `problem_format_version` the
/// judge grades.
pub fn read_problem_yaml(dir: &Path) -> Result<ProblemYamlFile, ConfigError> {
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
    let file = ProblemYamlFile {
        path: yaml_path,
        text,
        yaml,
    };
    let invalid = |key: &str, message: String| file.invalid(key, message);
    for kind in file.kinds()? {
        if !matches!(kind.as_str(), "pass-fail" | "interactive" | "multi-pass") {
            return Err(invalid(
                "type",
                format!("`{kind}` is not supported; `pass-fail`, `interactive` or `multi-pass`"),
            ));
        }
    }
    if file.yaml.limits.validation_passes == Some(0) {
        return Err(invalid(
            "validation_passes",
            "must be at least 1".to_owned(),
        ));
    }
    if let Some(version) = &file.yaml.problem_format_version {
        if version != "legacy" && version != "legacy-icpc" {
            return Err(invalid(
                "problem_format_version",
                format!("`{version}` is not supported; only the legacy format"),
            ));
        }
    }
    Ok(file)
}

/// `problem.yaml` as read: its path and text (for the line of a bad key)
/// and its keys.
#[derive(Debug)]
pub struct ProblemYamlFile {
    pub path: PathBuf,
    text: String,
    pub yaml: ProblemYaml,
}

impl ProblemYamlFile {
    /// `type`, as a list (a string is one value).
    pub fn kinds(&self) -> Result<Vec<String>, ConfigError> {
        let not_a_type =
            || self.invalid("type", "must be a string or a list of strings".to_owned());
        match &self.yaml.kind {
            None => Ok(Vec::new()),
            Some(serde_norway::Value::String(kind)) => {
                Ok(kind.split_whitespace().map(str::to_owned).collect())
            }
            Some(serde_norway::Value::Sequence(kinds)) => kinds
                .iter()
                .map(|kind| kind.as_str().map(str::to_owned).ok_or_else(not_a_type))
                .collect(),
            Some(_) => Err(not_a_type()),
        }
    }

    /// Whether the problem is interactive and whether it is multi-pass:
    /// from `type`, or from the legacy `validation: custom interactive`
    /// (and `multi-pass`).
    pub fn interaction(&self) -> Result<(bool, bool), ConfigError> {
        let kinds = self.kinds()?;
        let validation: Vec<&str> = self
            .yaml
            .validation
            .as_deref()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        let has = |word: &str| kinds.iter().any(|kind| kind == word) || validation.contains(&word);
        Ok((has("interactive"), has("multi-pass")))
    }

    /// An invalid value of `key`, with its line when it can be found.
    pub fn invalid(&self, key: &str, message: String) -> ConfigError {
        let line = self
            .text
            .lines()
            .position(|line| {
                line.trim_start()
                    .starts_with(&format!("{}:", key.rsplit('.').next().unwrap_or(key)))
            })
            .map(|index| index + 1);
        ConfigError {
            path: self.path.clone(),
            kind: ConfigErrorKind::Invalid {
                key: key.to_owned(),
                message,
                line,
            },
        }
    }
}

/// Where `judge export --kattis` writes the output validator, and where
/// reading a package back looks for its [`ENGINE_MARKER`].
pub const EXPORTED_CHECKER: &str = "output_validators/judge_check/judge_check.py";

/// The line `judge` recognises in an exported validator: the engine, the
/// package's profiles and the checker's `lexmin`.
pub const ENGINE_MARKER: &str = "# judge-engine:";

/// The engine, profiles and `lexmin` a validator written by `judge export
/// --kattis` names on its [`ENGINE_MARKER`] line, when it has one.
pub fn engine_marker(script: &str) -> Option<(String, Vec<String>, bool)> {
    let line = script
        .lines()
        .find_map(|line| line.strip_prefix(ENGINE_MARKER))?;
    let mut words = line.split_whitespace();
    let engine = words.next()?.to_owned();
    let mut profiles = Vec::new();
    let mut lexmin = true;
    for word in words {
        if let Some(list) = word.strip_prefix("profiles=") {
            profiles = list
                .split(',')
                .filter(|name| !name.is_empty())
                .map(str::to_owned)
                .collect();
        } else if let Some(value) = word.strip_prefix("lexmin=") {
            lexmin = value != "false";
        }
    }
    Some((engine, profiles, lexmin))
}

/// A YAML error's message without the " at line L column C" the position
/// already says.
fn without_location(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(index) => message[..index].to_owned(),
        None => message.to_owned(),
    }
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
pub fn read_tests(dir: &Path) -> Result<Vec<PackageTest>, ConfigError> {
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
    fn reads_back_the_engine_marker() {
        assert_eq!(
            engine_marker(
                "#!/usr/bin/env python3\n# judge-engine: rooks profiles=small lexmin=true\n"
            ),
            Some(("rooks".to_owned(), vec!["small".to_owned()], true))
        );
        assert_eq!(engine_marker("print(1)\n"), None);
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
