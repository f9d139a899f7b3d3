//! `problems/<id>/problem.toml`: what the judge knows about one problem's
//! package (SPEC.md, "Repository layout"): title, limits, checker options and
//! how the fixed generated test set was made.
//!
//! A package is not a problem: it names an `engine` (a problem of
//! PROBLEMS.md whose code it uses) and the generator `profiles` its tests
//! and random tests come from. `rooks` and `rooks-large` share the rooks
//! engine; only `rooks-large` takes the `large` profile (PROBLEMS.md, rooks:
//! "a package's default tests never go beyond the original statement").
//!
//! The bundled packages are embedded in the binary ([`super::bundled`]), so
//! the judge works from any directory; `--problems-dir DIR` puts
//! `DIR/<id>/` in place of the bundled package of the same id.

use super::judge::JudgeConfig;
use super::{bundled, parse_toml, ConfigError, ConfigErrorKind};
use crate::external::{Checker, CheckerProtocol, ProgramProblem, Tool, Toolbox};
use crate::problems::checkers::BuiltinChecker;
use crate::problems::{self, CheckOptions, InputError, Problem};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// `problem.toml` as written.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct ProblemToml {
    /// The title shown by `judge problems`.
    pub title: String,
    /// Where the problem comes from, e.g. "UVa 639".
    pub origin: String,
    /// The problem of PROBLEMS.md whose code (validator, solver, generator,
    /// checker) the package uses; the package's id when left out.
    #[serde(default)]
    pub engine: Option<String>,
    /// Instead of an engine: the package's reference solution (a source
    /// file in any configured language, relative to the package), whose
    /// output answers generated tests (issue #9).
    #[serde(default)]
    pub reference: Option<String>,
    /// The package's generator, called as `generator SEED PROFILE`; its
    /// output for a seed must not change between runs.
    #[serde(default)]
    pub generator: Option<String>,
    /// The package's input validator.
    #[serde(default)]
    pub validator: Option<ValidatorToml>,
    /// The generator profiles the package's tests and random tests come
    /// from, in the order random tests take them. Every test in `tests/`
    /// must be valid for one of them.
    pub profiles: Vec<String>,
    /// Resource limits of one test.
    pub limits: LimitsToml,
    /// Checker options.
    #[serde(default)]
    pub checker: CheckerToml,
    /// How the fixed generated set in `tests/` was made.
    pub tests: TestsToml,
}

/// `[validator]`: the package's input validator.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct ValidatorToml {
    /// The program, relative to the package; it reads the input on stdin.
    pub program: String,
    /// What its exit code means.
    #[serde(default)]
    pub exit_codes: ValidatorExitCodes,
}

/// The exit-code conventions an input validator may follow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ValidatorExitCodes {
    /// testlib: 0 valid, any other exit code invalid (testlib's `ensure`
    /// exits with 3); a crash or a timeout is the validator's fault.
    #[default]
    Testlib,
    /// Kattis (problemtools): 42 valid, 43 invalid; any other code is the
    /// validator's fault.
    Kattis,
}

/// `[limits]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct LimitsToml {
    /// CPU time of one test, in milliseconds.
    pub time_limit_ms: u64,
    /// Peak memory of one test, in MiB.
    pub memory_limit_mib: u64,
    /// Bytes of standard output one test may write, in KiB.
    pub output_limit_kib: u64,
    /// CPU time of one run of a package's own program (reference,
    /// generator, validator, checker), in milliseconds [default: 10000].
    #[serde(default)]
    pub tool_time_limit_ms: Option<u64>,
    /// Memory of one run of a package's own program, in MiB [default: 1024].
    #[serde(default)]
    pub tool_memory_limit_mib: Option<u64>,
}

/// `[checker]`.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct CheckerToml {
    /// mayan: require the lexicographically smallest solution (default true).
    pub lexmin: Option<bool>,
    /// For a package with a reference program: a built-in checker
    /// (`tokens`, the default, `lines`, `float`, `case-insensitive`) or the
    /// protocol of `program` (`testlib`, `kattis`).
    pub kind: Option<CheckerKind>,
    /// The checker program, relative to the package (kinds `testlib` and
    /// `kattis`).
    pub program: Option<String>,
    /// `float`: the largest absolute difference accepted [default: 1e-6].
    pub absolute_tolerance: Option<f64>,
    /// `float`: the largest difference relative to the answer accepted
    /// [default: 1e-6].
    pub relative_tolerance: Option<f64>,
}

/// `[checker] kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CheckerKind {
    Tokens,
    Lines,
    Float,
    CaseInsensitive,
    /// `checker input output answer`: exit 0 AC, 1 WA, 2 PE, 3 failure;
    /// the message on stderr.
    Testlib,
    /// `validator input answer feedback_dir < output`: exit 42 AC, 43 WA;
    /// the message in `feedback_dir/judgemessage.txt`.
    Kattis,
}

/// `[tests]`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct TestsToml {
    /// The master seed the fixed generated set was made with.
    pub seed: u64,
    /// Which profiles, how many tests of each.
    #[serde(default)]
    pub generated: Vec<GeneratedSet>,
}

/// One `{ profile = "...", count = N }` entry of `[tests] generated`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct GeneratedSet {
    /// A generator profile of the problem.
    pub profile: String,
    /// How many tests; they are named `<profile>-001.in`, ...
    pub count: u32,
}

/// A package's test as loaded: its name, where it came from and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackageTest {
    /// `NAME` of `NAME.in`.
    pub name: String,
    /// The input file on disk, or `<built-in problems/<id>/tests/NAME.in>`.
    pub path: PathBuf,
    /// Whether [`Self::path`] is a file a program can read.
    pub on_disk: bool,
    /// The input.
    pub input: String,
    /// `NAME.ans`, when there is one (else the reference solver answers).
    pub answer: Option<String>,
}

/// A package's problem: a built-in engine, or the package's own programs.
#[derive(Clone)]
pub enum ProblemRef {
    Engine(&'static dyn Problem),
    Programs(Arc<ProgramProblem>),
}

impl std::ops::Deref for ProblemRef {
    type Target = dyn Problem;

    fn deref(&self) -> &Self::Target {
        match self {
            ProblemRef::Engine(problem) => *problem,
            ProblemRef::Programs(problem) => problem.as_ref(),
        }
    }
}

/// A package, ready to use: its engine, its validated `problem.toml` and its
/// tests, each valid for one of the package's profiles (checked at load for a
/// package on disk, by a test for the bundled ones).
#[derive(Clone)]
pub struct Package {
    /// The id used on the command line and in reports, e.g. `rooks-large`.
    pub id: String,
    /// The engine's code, or the package's programs.
    pub problem: ProblemRef,
    /// The validated manifest.
    pub manifest: ProblemToml,
    /// `DIR/<id>` when the package came from `--problems-dir DIR`.
    pub dir: Option<PathBuf>,
    /// Samples and fixed tests, in name order.
    pub tests: Vec<PackageTest>,
}

impl std::fmt::Debug for Package {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Package")
            .field("id", &self.id)
            .field("problem", &self.problem.id())
            .field("manifest", &self.manifest)
            .field("dir", &self.dir)
            .field("tests", &self.tests.len())
            .finish()
    }
}

impl Package {
    /// `problems_dir/<id>/` when `problems_dir` is given and holds that
    /// package, else the bundled package `id`. A `problems_dir` that is not
    /// a folder is an error, never a silent fallback to the bundled ones.
    pub fn load(problems_dir: Option<&Path>, id: &str) -> Result<Package, ConfigError> {
        Package::load_with(problems_dir, id, None)
    }

    /// [`Package::load`], compiling a package's own programs with the
    /// languages of `config` [default: `./judge.toml` when it exists, else
    /// the built-in defaults].
    pub fn load_with(
        problems_dir: Option<&Path>,
        id: &str,
        config: Option<&JudgeConfig>,
    ) -> Result<Package, ConfigError> {
        if let Some(problems_dir) = problems_dir {
            check_problems_dir(problems_dir)?;
            let dir = problems_dir.join(id);
            let path = dir.join("problem.toml");
            if !path.is_file() && super::kattis::is_kattis_package(&dir) {
                // A Kattis / ICPC package, read as it is (issue #9).
                let default_config;
                let config = match config {
                    Some(config) => config,
                    None => {
                        default_config = JudgeConfig::for_packages()?;
                        &default_config
                    }
                };
                return Ok(super::kattis::load(&dir, config)?.package);
            }
            if path.is_file() {
                let text = fs_err::read_to_string(&path).map_err(|error| ConfigError {
                    path: path.clone(),
                    kind: ConfigErrorKind::Read(error),
                })?;
                let manifest: ProblemToml = parse_toml(&path, &text)?;
                let problem = if has_programs(&manifest) {
                    let default_config;
                    let config = match config {
                        Some(config) => config,
                        None => {
                            default_config = JudgeConfig::for_packages()?;
                            &default_config
                        }
                    };
                    check_limits(&path, &text, &manifest)?;
                    ProblemRef::Programs(Arc::new(program_problem(
                        &path, &text, &dir, id, &manifest, config,
                    )?))
                } else {
                    ProblemRef::Engine(check_manifest(&path, id, &manifest)?)
                };
                let tests = read_disk_tests(&dir.join("tests"))?;
                if matches!(problem, ProblemRef::Programs(_)) {
                    if let Some(test) = tests.iter().find(|test| test.answer.is_none()) {
                        return Err(ConfigError::invalid(
                            &test.path,
                            "answer",
                            format!(
                                "the test has no answer `{}.ans` beside it; write it with `judge \
                                 solve {id} {} > {}.ans`",
                                test.name,
                                test.path.display(),
                                test.path.with_extension("").display()
                            ),
                        ));
                    }
                }
                let package = Package {
                    id: id.to_owned(),
                    problem,
                    manifest,
                    dir: Some(dir),
                    tests,
                };
                package.check_tests()?;
                return Ok(package);
            }
        }
        match Package::bundled(id) {
            Err(error) if matches!(&error.kind, ConfigErrorKind::Invalid { key, .. } if key == "problem") => {
                Err(unknown_package(problems_dir, id))
            }
            other => other,
        }
    }

    /// The bundled package `id`.
    pub fn bundled(id: &str) -> Result<Package, ConfigError> {
        let path = PathBuf::from(format!("<built-in problems/{id}/problem.toml>"));
        let Some(bytes) = bundled::file(&format!("{id}/problem.toml")) else {
            return Err(unknown_package(None, id));
        };
        let text = String::from_utf8_lossy(bytes);
        let manifest: ProblemToml = parse_toml(&path, &text)?;
        if has_programs(&manifest) {
            return Err(ConfigError::invalid(
                &path,
                "reference",
                "a bundled package cannot have programs of its own",
            ));
        }
        let problem = ProblemRef::Engine(check_manifest(&path, id, &manifest)?);
        let mut tests = Vec::new();
        let files = bundled::files_in(&format!("{id}/tests"));
        for (name, bytes) in &files {
            let Some(stem) = name.strip_suffix(".in") else {
                continue;
            };
            let path = PathBuf::from(format!("<built-in problems/{id}/tests/{name}>"));
            let answer_name = format!("{stem}.ans");
            let answer = files
                .iter()
                .find(|(name, _)| *name == answer_name)
                .map(|(_, bytes)| decode(&path, bytes))
                .transpose()?;
            tests.push(PackageTest {
                name: stem.to_owned(),
                input: decode(&path, bytes)?,
                path,
                on_disk: false,
                answer,
            });
        }
        let package = Package {
            id: id.to_owned(),
            problem,
            manifest,
            dir: None,
            tests,
        };
        // No `check_tests` here: the bundled tests cannot change after the
        // build, and a test proves them valid (see `super::bundled`), so
        // start-up does not pay for it (issue #19: the mayan checks cost
        // 50-80 ms of every command).
        Ok(package)
    }

    /// The profiles the package's tests and random tests come from.
    pub fn profiles(&self) -> Vec<&str> {
        self.manifest.profiles.iter().map(String::as_str).collect()
    }

    /// Whether `input` is a valid test of this package: valid for one of
    /// its profiles. The error is the first profile's.
    pub fn validate(&self, input: &str) -> Result<(), InputError> {
        if let ProblemRef::Programs(problem) = &self.problem {
            // One validator for every profile: run it once.
            return problem.validate(input, None);
        }
        let mut first_error = None;
        for profile in &self.manifest.profiles {
            match self.problem.validate(input, Some(profile)) {
                Ok(()) => return Ok(()),
                Err(error) => {
                    first_error.get_or_insert(error);
                }
            }
        }
        match first_error {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }

    /// Every test must be valid for the package (issue #8: the bundled
    /// `rooks` held `large-*` tests that `judge validate rooks` rejects).
    /// Run on every package read from disk; the bundled ones are checked by
    /// a test instead (see [`super::bundled`]).
    pub(crate) fn check_tests(&self) -> Result<(), ConfigError> {
        for test in &self.tests {
            if let Err(error) = self.validate(&test.input) {
                return Err(ConfigError {
                    path: test.path.clone(),
                    kind: ConfigErrorKind::InvalidTest {
                        error,
                        profiles: self.manifest.profiles.join(", "),
                    },
                });
            }
        }
        Ok(())
    }

    /// The checker options the manifest sets.
    pub fn check_options(&self) -> CheckOptions {
        CheckOptions {
            lexmin: self
                .manifest
                .checker
                .lexmin
                .unwrap_or(CheckOptions::default().lexmin),
        }
    }
}

fn unknown_package(problems_dir: Option<&Path>, id: &str) -> ConfigError {
    ConfigError::invalid(
        Path::new("<command line>"),
        "problem",
        format!(
            "unknown problem `{id}`; known: {}",
            package_ids(problems_dir).join(", ")
        ),
    )
}

/// The ids of every package: the bundled ones, then those of
/// `problems_dir` that are not bundled, by name.
pub fn package_ids(problems_dir: Option<&Path>) -> Vec<String> {
    let mut ids: Vec<String> = bundled::package_ids()
        .into_iter()
        .map(str::to_owned)
        .collect();
    let mut extra: Vec<String> = problems_dir
        .and_then(|dir| fs_err::read_dir(dir).ok())
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter(|entry| {
            entry.path().join("problem.toml").is_file()
                || super::kattis::is_kattis_package(&entry.path())
        })
        .filter_map(|entry| entry.file_name().to_str().map(str::to_owned))
        .filter(|id| !ids.contains(id))
        .collect();
    extra.sort();
    ids.extend(extra);
    ids
}

/// Whether a package `id` exists: in `problems_dir`, or bundled.
pub fn package_exists(problems_dir: Option<&Path>, id: &str) -> bool {
    problems_dir.is_some_and(|dir| {
        dir.join(id).join("problem.toml").is_file()
            || super::kattis::is_kattis_package(&dir.join(id))
    }) || bundled::file(&format!("{id}/problem.toml")).is_some()
}

/// `--problems-dir DIR` must be a folder.
pub fn check_problems_dir(dir: &Path) -> Result<(), ConfigError> {
    if dir.is_dir() {
        Ok(())
    } else {
        Err(ConfigError {
            path: dir.to_owned(),
            kind: ConfigErrorKind::NotAFolder,
        })
    }
}

fn decode(path: &Path, bytes: &[u8]) -> Result<String, ConfigError> {
    String::from_utf8(bytes.to_vec())
        .map_err(|_| ConfigError::invalid(path, "text", "is not UTF-8"))
}

/// The `NAME.in` (+ `NAME.ans`) files of a package's `tests/` folder; none
/// when it has no such folder.
fn read_disk_tests(dir: &Path) -> Result<Vec<PackageTest>, ConfigError> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let read_error = |path: &Path, error: std::io::Error| ConfigError {
        path: path.to_owned(),
        kind: ConfigErrorKind::Read(error),
    };
    let mut inputs: Vec<PathBuf> = fs_err::read_dir(dir)
        .map_err(|error| read_error(dir, error))?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "in"))
        .collect();
    inputs.sort();
    let mut tests = Vec::with_capacity(inputs.len());
    for path in inputs {
        let Some(name) = path.file_stem().and_then(|stem| stem.to_str()) else {
            return Err(ConfigError::invalid(&path, "name", "is not UTF-8"));
        };
        let bytes = fs_err::read(&path).map_err(|error| read_error(&path, error))?;
        let answer_path = path.with_extension("ans");
        let answer = if answer_path.is_file() {
            let bytes =
                fs_err::read(&answer_path).map_err(|error| read_error(&answer_path, error))?;
            Some(decode(&answer_path, &bytes)?)
        } else {
            None
        };
        tests.push(PackageTest {
            name: name.to_owned(),
            input: decode(&path, &bytes)?,
            path,
            on_disk: true,
            answer,
        });
    }
    Ok(tests)
}

/// Whether the manifest names programs of the package rather than an engine.
fn has_programs(manifest: &ProblemToml) -> bool {
    manifest.reference.is_some()
        || manifest.generator.is_some()
        || manifest.validator.is_some()
        || manifest.checker.program.is_some()
        || manifest.checker.kind.is_some()
}

/// An invalid value, with the line of `key` in `text` when it can be found.
fn invalid_at(path: &Path, text: &str, key: &str, message: impl Into<String>) -> ConfigError {
    ConfigError {
        path: path.to_owned(),
        kind: ConfigErrorKind::Invalid {
            key: key.to_owned(),
            message: message.into(),
            line: super::key_line(text, key),
        },
    }
}

/// What every package must have right: limits above zero, at least one
/// profile, a fixed set drawn from the package's own profiles.
fn check_limits(path: &Path, text: &str, manifest: &ProblemToml) -> Result<(), ConfigError> {
    let limits = &manifest.limits;
    for (key, value) in [
        ("limits.time-limit-ms", Some(limits.time_limit_ms)),
        ("limits.memory-limit-mib", Some(limits.memory_limit_mib)),
        ("limits.output-limit-kib", Some(limits.output_limit_kib)),
        ("limits.tool-time-limit-ms", limits.tool_time_limit_ms),
        ("limits.tool-memory-limit-mib", limits.tool_memory_limit_mib),
    ] {
        if value == Some(0) {
            return Err(invalid_at(path, text, key, "must be greater than 0"));
        }
    }
    if manifest.profiles.is_empty() {
        return Err(invalid_at(
            path,
            text,
            "profiles",
            "must name at least one generator profile",
        ));
    }
    for (index, set) in manifest.tests.generated.iter().enumerate() {
        if !manifest.profiles.contains(&set.profile) {
            return Err(ConfigError::invalid(
                path,
                format!("tests.generated[{index}].profile"),
                format!(
                    "`{}` is not one of the package's profiles ({})",
                    set.profile,
                    manifest.profiles.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

/// Values serde cannot check: a known engine, limits above zero, profiles
/// that exist, a fixed set drawn from the package's own profiles.
fn check_manifest(
    path: &Path,
    id: &str,
    manifest: &ProblemToml,
) -> Result<&'static dyn Problem, ConfigError> {
    let engine = manifest.engine.as_deref().unwrap_or(id);
    let Some(problem) = problems::find(engine) else {
        let message = if manifest.engine.is_some() {
            format!(
                "unknown engine `{engine}`; known: {}",
                problems::known_ids()
            )
        } else {
            format!(
                "the package names no engine and no reference solution: set `engine` to one of \
                 {}, or `reference` to the package's reference program",
                problems::known_ids()
            )
        };
        let key = if manifest.engine.is_some() {
            "engine"
        } else {
            "engine (the package id)"
        };
        return Err(ConfigError::invalid(path, key, message));
    };
    check_limits(path, "", manifest)?;
    for (index, profile) in manifest.profiles.iter().enumerate() {
        if let Err(error) = problems::find_profile(problem, profile) {
            return Err(ConfigError::invalid(
                path,
                format!("profiles[{index}]"),
                error.to_string(),
            ));
        }
    }
    Ok(problem)
}

/// A package backed by its own programs (issue #9): every program must
/// exist and be in a configured language (or be an executable), the
/// checker's kind and program must agree, before anything runs.
fn program_problem(
    path: &Path,
    text: &str,
    dir: &Path,
    id: &str,
    manifest: &ProblemToml,
    config: &JudgeConfig,
) -> Result<ProgramProblem, ConfigError> {
    if manifest.engine.is_some() {
        return Err(invalid_at(
            path,
            text,
            "engine",
            "a package names an engine or programs of its own (`reference`, `generator`, \
             `validator`, `[checker] program`), not both",
        ));
    }
    let tool = |key: &str, role: &'static str, file: &str| -> Result<Tool, ConfigError> {
        let file_path = dir.join(file);
        if !file_path.is_file() {
            return Err(invalid_at(
                path,
                text,
                key,
                format!(
                    "`{file}` is not a file in the package (looked for `{}`)",
                    file_path.display()
                ),
            ));
        }
        let language = match config.language_for(&file_path) {
            Some((name, language)) => Some((name.to_owned(), language.clone())),
            None if is_executable(&file_path) => None,
            None => {
                let extension = file_path.extension().map_or_else(
                    || "(none)".to_owned(),
                    |extension| extension.to_string_lossy().into_owned(),
                );
                return Err(invalid_at(
                    path,
                    text,
                    key,
                    format!(
                        "`{file}` is in no configured language (extension `{extension}`) and is not \
                         executable; languages are defined in `judge.toml` under [languages]; known: {}",
                        config.known_languages()
                    ),
                ));
            }
        };
        Ok(Tool::new(role, file_path, language))
    };
    let Some(reference) = &manifest.reference else {
        return Err(invalid_at(
            path,
            text,
            "reference",
            "a package with programs of its own needs a reference solution: set `reference` to \
             its file (it answers generated tests)",
        ));
    };
    let reference = tool("reference", "reference", reference)?;
    let generator = manifest
        .generator
        .as_deref()
        .map(|file| tool("generator", "generator", file))
        .transpose()?;
    let validator = manifest
        .validator
        .as_ref()
        .map(|validator| {
            tool("validator.program", "validator", &validator.program)
                .map(|tool| (tool, validator.exit_codes, Vec::new()))
        })
        .transpose()?;
    let checker_toml = &manifest.checker;
    let kind = checker_toml.kind.unwrap_or(CheckerKind::Tokens);
    let float_key = ["checker.absolute-tolerance", "checker.relative-tolerance"];
    for (key, value) in float_key.iter().zip([
        checker_toml.absolute_tolerance,
        checker_toml.relative_tolerance,
    ]) {
        match value {
            Some(_) if kind != CheckerKind::Float => {
                return Err(invalid_at(
                    path,
                    text,
                    key,
                    "applies only to `kind = \"float\"`",
                ))
            }
            Some(value) if !(value >= 0.0 && value.is_finite()) => {
                return Err(invalid_at(
                    path,
                    text,
                    key,
                    "must be a finite number of at least 0",
                ))
            }
            _ => {}
        }
    }
    let protocol = match kind {
        CheckerKind::Testlib => Some(CheckerProtocol::Testlib),
        CheckerKind::Kattis => Some(CheckerProtocol::Kattis),
        _ => None,
    };
    let checker =
        match (protocol, &checker_toml.program) {
            (Some(protocol), Some(file)) => Checker::Program {
                tool: Box::new(tool("checker.program", "checker", file)?),
                protocol,
                args: Vec::new(),
            },
            (Some(_), None) => {
                return Err(invalid_at(
                    path,
                    text,
                    "checker.kind",
                    "a `testlib` or `kattis` checker needs its `program`",
                ))
            }
            (None, Some(_)) => return Err(invalid_at(
                path,
                text,
                "checker.program",
                "a checker program needs its protocol: `kind = \"testlib\"` or `kind = \"kattis\"`",
            )),
            (None, None) => Checker::Builtin(match kind {
                CheckerKind::Lines => BuiltinChecker::Lines,
                CheckerKind::CaseInsensitive => BuiltinChecker::CaseInsensitive,
                CheckerKind::Float => BuiltinChecker::Float {
                    absolute: checker_toml.absolute_tolerance.unwrap_or(1e-6),
                    relative: checker_toml.relative_tolerance.unwrap_or(1e-6),
                },
                _ => BuiltinChecker::Tokens,
            }),
        };
    let toolbox = Toolbox::new(
        config.compile_limits(),
        config.tool_limits(&manifest.limits),
    )
    .map_err(|fault| ConfigError::invalid(path, "programs", fault.0))?;
    Ok(ProgramProblem::new(
        id,
        &manifest.title,
        &manifest.profiles,
        toolbox,
        reference,
        generator,
        validator,
        checker,
    ))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    fs_err::metadata(path).is_ok_and(|metadata| metadata.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_package_loads() {
        for id in bundled::package_ids() {
            let package = Package::bundled(id).unwrap();
            assert!(!package.manifest.title.is_empty());
            assert!(!package.tests.is_empty(), "{id}");
        }
    }

    #[test]
    fn unknown_key_names_line_and_column() {
        let text = "title = \"t\"\norigin = \"o\"\n[limits]\ntime-limit = 1\n";
        let error = parse_toml::<ProblemToml>(Path::new("p.toml"), text).unwrap_err();
        let message = error.to_string();
        assert!(
            message.starts_with(
                "failed to load `p.toml`: line 4, column 1: unknown field `time-limit`"
            ),
            "{message}"
        );
    }
}
