//! `judge.toml`: languages (how to compile and run each extension), default
//! limits, jobs, seed, the number of random tests, and what `judge grade`
//! grades (where submissions are, how they are laid out, which problems).
//!
//! `JudgeToml` is the file as written (every key optional); [`JudgeConfig`]
//! is the built-in `default.toml` with a user's file laid over it, ready to
//! use. This module parses and validates; it runs nothing.

use super::report::{ReportSettings, ReportToml};
use super::{parse_toml, ConfigError, ConfigErrorKind};
pub(crate) use language::Placeholders;
use language::{unknown_placeholder, PLACEHOLDERS};
pub use language::{FolderRules, Language};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The built-in defaults, every key commented.
pub(crate) const DEFAULT_TOML: &str = include_str!("default.toml");

/// `judge.toml` as written.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
#[serde(expecting = "the tables of judge.toml")]
pub(crate) struct JudgeToml {
    /// Test workers; 0 means one per core.
    pub(crate) jobs: Option<usize>,
    /// Master seed of the random tests.
    pub(crate) seed: Option<u64>,
    /// Random tests per problem.
    pub(crate) random_tests: Option<u32>,
    /// `judge grade`: the folder of submissions, relative to judge.toml.
    pub(crate) submissions: Option<PathBuf>,
    /// `judge grade`: how the submissions folder is laid out.
    pub(crate) layout: Option<Layout>,
    /// `judge grade`: the problem ids to grade; absent means all.
    pub(crate) problems: Option<Vec<String>>,
    /// `judge grade`: reports for students (hidden tests without data).
    pub(crate) student_view: Option<bool>,
    /// Only these languages (by name) are configured: a hand-in in another
    /// is in no language (as `judge export --gradescope --languages`
    /// writes the autograder's).
    pub(crate) only_languages: Option<Vec<String>>,
    #[serde(default)]
    pub(crate) limits: LimitsToml,
    /// `[report.*]`: how a report format shows what it shows.
    #[serde(default)]
    pub(crate) report: ReportToml,
    /// By name (`c`, `cpp`, ...); a user's entry is laid over the built-in
    /// one of the same name, key by key.
    #[serde(default)]
    pub(crate) languages: BTreeMap<String, LanguageToml>,
}

/// `[languages.<name>]` as written: every key optional, so a user's
/// `[languages.python]` with only `time-factor = 5` keeps the built-in
/// `extensions`, `compile` and `run` (issue #8).
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
#[serde(expecting = "a table `[languages.<name>]`")]
pub(crate) struct LanguageToml {
    pub(crate) extensions: Option<Vec<String>>,
    pub(crate) source_name: Option<String>,
    pub(crate) compile: Option<Vec<String>>,
    pub(crate) run: Option<Vec<String>>,
    pub(crate) time_factor: Option<f64>,
    pub(crate) folder_entry: Option<String>,
    pub(crate) folder_entry_declares_main: Option<bool>,
    pub(crate) folder_also: Option<Vec<String>>,
}

impl LanguageToml {
    /// `self` laid over `base`, key by key.
    fn over(self, base: LanguageToml) -> LanguageToml {
        LanguageToml {
            extensions: self.extensions.or(base.extensions),
            source_name: self.source_name.or(base.source_name),
            compile: self.compile.or(base.compile),
            run: self.run.or(base.run),
            time_factor: self.time_factor.or(base.time_factor),
            folder_entry: self.folder_entry.or(base.folder_entry),
            folder_entry_declares_main: self
                .folder_entry_declares_main
                .or(base.folder_entry_declares_main),
            folder_also: self.folder_also.or(base.folder_also),
        }
    }

    /// The language ready to use; a language without `extensions` or `run`
    /// is an error naming the key. Extensions are written with or without
    /// the dot (`.py` is `py`).
    fn resolve(self, path: &Path, name: &str) -> Result<Language, ConfigError> {
        let missing = |key: &str| {
            ConfigError::invalid(
                path,
                format!("languages.{name}.{key}"),
                "is missing (a language that is not built in needs `extensions` and `run`)",
            )
        };
        let extensions = self.extensions.ok_or_else(|| missing("extensions"))?;
        Ok(Language {
            extensions: extensions
                .into_iter()
                .map(|extension| extension.trim_start_matches('.').to_owned())
                .collect(),
            source_name: self.source_name,
            compile: self.compile,
            run: self.run.ok_or_else(|| missing("run"))?,
            time_factor: self.time_factor,
            entry: None,
            folder: Box::new(FolderRules {
                entry: self.folder_entry,
                entry_declares_main: self.folder_entry_declares_main.unwrap_or(false),
                also: self
                    .folder_also
                    .unwrap_or_default()
                    .into_iter()
                    .map(|extension| extension.trim_start_matches('.').to_owned())
                    .collect(),
            }),
        })
    }
}

/// The largest `time-factor` and `wall-time-factor` accepted: beyond it a
/// limit is no limit (a typo like `1e300` would let a program run forever).
pub(crate) const MAX_TIME_FACTOR: f64 = 100.0;

/// `[limits]`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
#[serde(expecting = "a table `[limits]`")]
pub(crate) struct LimitsToml {
    /// Replaces every problem's CPU time limit when set.
    pub time_limit_ms: Option<u64>,
    /// Replaces every problem's memory limit when set.
    pub memory_limit_mib: Option<u64>,
    /// Replaces every problem's output limit when set.
    pub output_limit_kib: Option<u64>,
    pub(crate) wall_time_factor: Option<f64>,
    pub(crate) processes: Option<u32>,
    pub(crate) open_files: Option<u32>,
    pub(crate) file_size_kib: Option<u64>,
    pub(crate) scratch_limit_mib: Option<u64>,
    pub(crate) compile_time_limit_ms: Option<u64>,
    pub(crate) compile_memory_limit_mib: Option<u64>,
}

/// How `judge grade` finds submissions and, for `expected`, what each should
/// get. Every file's path says which problem it is for. Written as its
/// name in judge.toml and in reports.
#[derive(
    Clone, Copy, Debug, Deserialize, serde::Serialize, schemars::JsonSchema, PartialEq, Eq,
)]
pub enum Layout {
    /// `<problem>/<student>.<ext>`: a folder per problem, as docs/configuration.md shows.
    #[serde(rename = "problem/student")]
    ProblemStudent,
    /// `<student>/<problem>.<ext>`: a folder per student, as a class hands in.
    #[serde(rename = "student/problem")]
    StudentProblem,
    /// `<problem>/<verdict-folder>/<name>.<ext>`: examples filed under the
    /// verdict they must get (the Kattis problem package convention).
    #[serde(rename = "expected")]
    Expected,
}

impl Layout {
    /// The name written in judge.toml and in reports.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Layout::ProblemStudent => "problem/student",
            Layout::StudentProblem => "student/problem",
            Layout::Expected => "expected",
        }
    }
}

/// Bytes of a compiler's (or a package program's) stdout and stderr kept.
const COMPILER_OUTPUT_BYTES: u64 = 64 * 1024;

/// The defaults with the user's file laid over them, validated.
#[derive(Clone, Debug, PartialEq)]
pub struct JudgeConfig {
    /// Where the user's part came from; `None` for the defaults alone.
    pub(crate) path: Option<PathBuf>,
    pub(crate) jobs: usize,
    pub(crate) seed: Option<u64>,
    pub(crate) random_tests: u32,
    /// `random-tests` as the user's judge.toml sets it (absent: the default
    /// applies), so `judge run --tests DIR` can tell whether it was asked for.
    pub(crate) random_tests_set: Option<u32>,
    /// The submissions folder, resolved against judge.toml's folder.
    pub(crate) submissions: PathBuf,
    pub(crate) layout: Layout,
    /// Problem ids to grade, all known ones when absent.
    pub(crate) problems: Option<Vec<String>>,
    /// `judge grade --student-view` by default.
    pub(crate) student_view: bool,
    /// `[report.*]`: each report format's own settings.
    pub(crate) report: ReportSettings,
    pub(crate) limits: LimitsToml,
    pub(crate) wall_time_factor: f64,
    /// The languages whose `time-factor` the user's judge.toml sets itself
    /// (not the built-in defaults): a Kattis package keeps only those.
    pub(crate) time_factors_set: std::collections::BTreeSet<String>,
    pub(crate) processes: u32,
    pub(crate) open_files: u32,
    pub(crate) file_size_kib: u64,
    /// Total size of a run's scratch directory, MiB.
    pub(crate) scratch_limit_mib: u64,
    pub(crate) compile_time_limit_ms: u64,
    pub(crate) compile_memory_limit_mib: u64,
    pub languages: BTreeMap<String, Language>,
}

impl JudgeConfig {
    /// The built-in defaults alone.
    pub fn defaults() -> Result<JudgeConfig, ConfigError> {
        JudgeConfig::from_parts(None, JudgeToml::default(), None)
    }

    /// Reads `path` and lays it over the defaults, `problems` naming
    /// bundled packages or those of `known_packages` (every package of the
    /// run, `--problems-dir`'s with the bundled ones, listed by
    /// `crate::package::package_ids`).
    pub(crate) fn load_for(
        path: &Path,
        known_packages: Option<&[String]>,
    ) -> Result<JudgeConfig, ConfigError> {
        let text = fs_err::read_to_string(path).map_err(|error| ConfigError {
            path: path.to_owned(),
            kind: ConfigErrorKind::Read(error),
        })?;
        JudgeConfig::parse_for(path, &text, known_packages)
    }

    /// Parses `text` (named `path` in errors) and lays it over the defaults.
    /// A value that is not allowed is named with its line.
    pub fn parse(path: &Path, text: &str) -> Result<JudgeConfig, ConfigError> {
        JudgeConfig::parse_for(path, text, None)
    }

    fn parse_for(
        path: &Path,
        text: &str,
        known_packages: Option<&[String]>,
    ) -> Result<JudgeConfig, ConfigError> {
        let user: JudgeToml = parse_toml(path, text)?;
        JudgeConfig::from_parts(Some(path.to_owned()), user, known_packages).map_err(|mut error| {
            if let ConfigErrorKind::Invalid { key, line, .. } = &mut error.kind {
                if error.path == path && line.is_none() {
                    *line = super::key_line(text, key);
                }
            }
            error
        })
    }

    fn from_parts(
        path: Option<PathBuf>,
        user: JudgeToml,
        known_packages: Option<&[String]>,
    ) -> Result<JudgeConfig, ConfigError> {
        let default_path = Path::new("<built-in default.toml>");
        let base: JudgeToml = parse_toml(default_path, DEFAULT_TOML)?;
        let error_path = path.clone().unwrap_or_else(|| default_path.to_owned());
        let pick = |user: Option<u64>, base: Option<u64>, key: &str| {
            user.or(base).ok_or_else(|| {
                ConfigError::invalid(default_path, key, "missing from the built-in defaults")
            })
        };
        let limits = LimitsToml {
            time_limit_ms: user.limits.time_limit_ms.or(base.limits.time_limit_ms),
            memory_limit_mib: user
                .limits
                .memory_limit_mib
                .or(base.limits.memory_limit_mib),
            output_limit_kib: user
                .limits
                .output_limit_kib
                .or(base.limits.output_limit_kib),
            ..LimitsToml::default()
        };
        let time_factors_set = user
            .languages
            .iter()
            .filter(|(_, language)| language.time_factor.is_some())
            .map(|(name, _)| name.clone())
            .collect();
        // An extension the user's judge.toml gives a language is that
        // language's alone: a built-in language that the user does not give
        // `extensions` itself lets go of it (`[languages.pypy] extensions =
        // ["py"]` takes `.py` from the built-in `python`).
        let claimed: Vec<String> = user
            .languages
            .values()
            .filter_map(|language| language.extensions.as_ref())
            .flatten()
            .map(|extension| extension.trim_start_matches('.').to_owned())
            .collect();
        let mut merged = base.languages;
        for (name, language) in &mut merged {
            let own = user
                .languages
                .get(name)
                .is_some_and(|language| language.extensions.is_some());
            if let (false, Some(extensions)) = (own, &mut language.extensions) {
                extensions.retain(|extension| !claimed.contains(extension));
            }
        }
        for (name, language) in user.languages {
            let base = merged.remove(&name).unwrap_or_default();
            merged.insert(name, language.over(base));
        }
        let mut languages = BTreeMap::new();
        for (name, language) in merged {
            let resolved = language.resolve(&error_path, &name)?;
            languages.insert(name, resolved);
        }
        if let Some(only) = &user.only_languages {
            if let Some(unknown) = only.iter().find(|name| !languages.contains_key(*name)) {
                return Err(ConfigError::invalid(
                    &error_path,
                    "only-languages",
                    format!(
                        "`{unknown}` is no language of the judge (known: {})",
                        languages.keys().cloned().collect::<Vec<_>>().join(", ")
                    ),
                ));
            }
            languages.retain(|name, _| only.contains(name));
        }
        // Relative to judge.toml, so `judge grade --config x/judge.toml`
        // grades x's submissions wherever it is run from.
        let submissions = user
            .submissions
            .or(base.submissions)
            .unwrap_or_else(|| PathBuf::from("submissions"));
        let submissions = match path.as_deref().and_then(Path::parent) {
            Some(dir) if submissions.is_relative() && !dir.as_os_str().is_empty() => {
                dir.join(submissions)
            }
            _ => submissions,
        };
        let config = JudgeConfig {
            submissions,
            layout: user
                .layout
                .or(base.layout)
                .unwrap_or(Layout::ProblemStudent),
            problems: user.problems.or(base.problems),
            student_view: user.student_view.or(base.student_view).unwrap_or(false),
            report: user.report.over(base.report, &error_path)?,
            jobs: pick(
                user.jobs.map(|jobs| jobs as u64),
                base.jobs.map(|j| j as u64),
                "jobs",
            )? as usize,
            seed: user.seed.or(base.seed),
            random_tests_set: user.random_tests,
            random_tests: pick(
                user.random_tests.map(u64::from),
                base.random_tests.map(u64::from),
                "random-tests",
            )? as u32,
            wall_time_factor: user
                .limits
                .wall_time_factor
                .or(base.limits.wall_time_factor)
                .unwrap_or(3.0),
            processes: pick(
                user.limits.processes.map(u64::from),
                base.limits.processes.map(u64::from),
                "limits.processes",
            )? as u32,
            open_files: pick(
                user.limits.open_files.map(u64::from),
                base.limits.open_files.map(u64::from),
                "limits.open-files",
            )? as u32,
            file_size_kib: pick(
                user.limits.file_size_kib,
                base.limits.file_size_kib,
                "limits.file-size-kib",
            )?,
            scratch_limit_mib: pick(
                user.limits.scratch_limit_mib,
                base.limits.scratch_limit_mib,
                "limits.scratch-limit-mib",
            )?,
            compile_time_limit_ms: pick(
                user.limits.compile_time_limit_ms,
                base.limits.compile_time_limit_ms,
                "limits.compile-time-limit-ms",
            )?,
            compile_memory_limit_mib: pick(
                user.limits.compile_memory_limit_mib,
                base.limits.compile_memory_limit_mib,
                "limits.compile-memory-limit-mib",
            )?,
            limits,
            languages,
            time_factors_set,
            path,
        };
        config.validate(&error_path, known_packages)?;
        Ok(config)
    }

    fn validate(&self, path: &Path, known_packages: Option<&[String]>) -> Result<(), ConfigError> {
        let positive = [
            ("limits.time-limit-ms", self.limits.time_limit_ms),
            ("limits.memory-limit-mib", self.limits.memory_limit_mib),
            ("limits.output-limit-kib", self.limits.output_limit_kib),
            ("limits.processes", Some(u64::from(self.processes))),
            ("limits.open-files", Some(u64::from(self.open_files))),
            ("limits.file-size-kib", Some(self.file_size_kib)),
            ("limits.scratch-limit-mib", Some(self.scratch_limit_mib)),
            (
                "limits.compile-time-limit-ms",
                Some(self.compile_time_limit_ms),
            ),
            (
                "limits.compile-memory-limit-mib",
                Some(self.compile_memory_limit_mib),
            ),
        ];
        for (key, value) in positive {
            if value == Some(0) {
                return Err(ConfigError::invalid(path, key, "must be greater than 0"));
            }
        }
        if !(self.wall_time_factor.is_finite()
            && (1.0..=MAX_TIME_FACTOR).contains(&self.wall_time_factor))
        {
            return Err(ConfigError::invalid(
                path,
                "limits.wall-time-factor",
                format!(
                    "must be at least 1 and at most {MAX_TIME_FACTOR}, found {:?}",
                    self.wall_time_factor
                ),
            ));
        }
        if let Some(problems) = &self.problems {
            super::bundled::check_problems(path, problems, known_packages)?;
        }
        let mut owners: BTreeMap<&str, &str> = BTreeMap::new();
        for (name, language) in &self.languages {
            if language.run.is_empty() {
                return Err(ConfigError::invalid(
                    path,
                    format!("languages.{name}.run"),
                    "must name a program",
                ));
            }
            if let Some(factor) = language.time_factor {
                if !(factor.is_finite() && factor > 0.0 && factor <= MAX_TIME_FACTOR) {
                    return Err(ConfigError::invalid(
                        path,
                        format!("languages.{name}.time-factor"),
                        format!(
                            "must be greater than 0 and at most {MAX_TIME_FACTOR}, found {factor:?}"
                        ),
                    ));
                }
            }
            if let Some(extension) = language
                .extensions
                .iter()
                .find(|extension| extension.is_empty() || extension.contains(['.', '/']))
            {
                return Err(ConfigError::invalid(
                    path,
                    format!("languages.{name}.extensions"),
                    format!("`{extension}` is not a file extension (write `py` for `x.py`)"),
                ));
            }
            if language.compile.as_ref().is_some_and(Vec::is_empty) {
                return Err(ConfigError::invalid(
                    path,
                    format!("languages.{name}.compile"),
                    "must name a program, or be left out",
                ));
            }
            if let Some(entry) = language
                .folder
                .entry
                .as_ref()
                .filter(|entry| entry.is_empty() || entry.contains('/') || *entry == "..")
            {
                return Err(ConfigError::invalid(
                    path,
                    format!("languages.{name}.folder-entry"),
                    format!(
                        "`{entry}` is not a file name at a folder program's top (write \
                         `__main__.py`)"
                    ),
                ));
            }
            if let Some(extension) = language
                .folder
                .also
                .iter()
                .find(|extension| extension.is_empty() || extension.contains(['.', '/']))
            {
                return Err(ConfigError::invalid(
                    path,
                    format!("languages.{name}.folder-also"),
                    format!("`{extension}` is not a file extension (write `c` for `x.c`)"),
                ));
            }
            for (key, argv) in [
                ("run", Some(&language.run)),
                ("compile", language.compile.as_ref()),
            ] {
                for arg in argv.into_iter().flatten() {
                    if let Some(unknown) = unknown_placeholder(arg) {
                        return Err(ConfigError::invalid(
                            path,
                            format!("languages.{name}.{key}"),
                            format!(
                                "unknown placeholder `{unknown}`; known: {}",
                                PLACEHOLDERS.join(", ")
                            ),
                        ));
                    }
                }
            }
            for extension in &language.extensions {
                if let Some(other) = owners.insert(extension, name) {
                    return Err(ConfigError::invalid(
                        path,
                        format!("languages.{name}.extensions"),
                        format!("extension `{extension}` is already used by language `{other}`"),
                    ));
                }
            }
        }
        Ok(())
    }

    /// This configuration with Kattis' meaning of a time limit: the same
    /// for every language, so no language keeps a `time-factor` unless the
    /// user's judge.toml sets it.
    pub(crate) fn without_default_time_factors(&self) -> JudgeConfig {
        let mut config = self.clone();
        for (name, language) in &mut config.languages {
            if !self.time_factors_set.contains(name) {
                language.time_factor = None;
            }
        }
        config
    }

    /// `path` when given (`--config FILE`), else `./judge.toml` when it
    /// exists, else the built-in defaults: the one rule of every command
    /// that takes `--config`, and of a package's own programs without it.
    pub(crate) fn load_or_defaults(path: Option<&Path>) -> Result<JudgeConfig, ConfigError> {
        JudgeConfig::load_or_defaults_for(path, None)
    }

    /// [`JudgeConfig::load_or_defaults`] with the packages of
    /// `known_packages` known to `problems` (see [`JudgeConfig::load_for`]).
    pub(crate) fn load_or_defaults_for(
        path: Option<&Path>,
        known_packages: Option<&[String]>,
    ) -> Result<JudgeConfig, ConfigError> {
        let local = Path::new("judge.toml");
        match path {
            Some(path) => JudgeConfig::load_for(path, known_packages),
            None if local.is_file() => JudgeConfig::load_for(local, known_packages),
            None => JudgeConfig::defaults(),
        }
    }

    /// Wall-clock backstop for `cpu_ms` of CPU time.
    pub(crate) fn wall_time_ms(&self, cpu_ms: u64) -> u64 {
        (cpu_ms as f64 * self.wall_time_factor).ceil() as u64
    }

    /// The limits of one compile, of a submission or of a package's program.
    pub(crate) fn compile_limits(&self) -> crate::sandbox::Limits {
        crate::sandbox::Limits {
            cpu_time_ms: self.compile_time_limit_ms,
            wall_time_ms: self.wall_time_ms(self.compile_time_limit_ms),
            memory_kib: self.compile_memory_limit_mib.saturating_mul(1024),
            stdout_bytes: COMPILER_OUTPUT_BYTES,
            stderr_bytes: COMPILER_OUTPUT_BYTES,
            // Compilers are several processes (gcc: cc1, as, ld) and JVMs
            // and rustc run many threads.
            processes: self.processes.max(256),
            open_files: self.open_files.max(1024),
            file_size_kib: self.file_size_kib.max(512 * 1024),
            scratch_kib: self.scratch_limit_mib.saturating_mul(1024),
        }
    }

    /// The limits of one run of a package's own program (reference,
    /// generator, validator, checker): problem.toml's `tool-*` keys, else
    /// 10 s of CPU and 1 GiB; its output may be as large as the judge reads.
    pub(crate) fn tool_limits(
        &self,
        package: &super::problem::LimitsToml,
    ) -> crate::sandbox::Limits {
        let cpu_time_ms = package.tool_time_limit_ms.unwrap_or(10_000);
        crate::sandbox::Limits {
            cpu_time_ms,
            wall_time_ms: self.wall_time_ms(cpu_time_ms).max(cpu_time_ms + 1000),
            memory_kib: package
                .tool_memory_limit_mib
                .unwrap_or(1024)
                .saturating_mul(1024),
            stdout_bytes: crate::problems::text::MAX_TEXT_BYTES as u64,
            stderr_bytes: COMPILER_OUTPUT_BYTES,
            processes: self.processes.max(64),
            open_files: self.open_files.max(256),
            file_size_kib: self.file_size_kib,
            scratch_kib: self.scratch_limit_mib.saturating_mul(1024),
        }
    }
}

mod language;
#[cfg(test)]
mod tests;
