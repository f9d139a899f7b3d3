//! `problems/<id>/problem.toml`: what the judge knows about one problem's
//! package (docs/problems.md, "Packages and profiles"): title, limits, checker options and
//! how the fixed generated test set was made.
//!
//! A package is not a problem: it names an `engine` (a problem of
//! docs/problems.md whose code it uses) and the generator `profiles` its tests
//! and random tests come from. `rooks` and `rooks-large` share the rooks
//! engine; only `rooks-large` takes the `large` profile (docs/problems.md:
//! a package's default tests stay within the original statement).
//!
//! The bundled packages are embedded in the binary ([`super::bundled`]), so
//! the judge works from any directory; `--problems-dir DIR` puts
//! `DIR/<id>/` in place of the bundled package of the same id.

use super::{ConfigError, ConfigErrorKind};
use crate::problems::{self, Problem};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// `problem.toml` as written.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
#[serde(expecting = "the tables of problem.toml")]
pub struct ProblemToml {
    /// The title shown by `judge problems`.
    pub(crate) title: String,
    /// Where the problem comes from, e.g. "UVa 639".
    pub(crate) origin: String,
    /// The problem of docs/problems.md whose code (validator, solver, generator,
    /// checker) the package uses; the package's id when left out.
    #[serde(default)]
    pub(crate) engine: Option<String>,
    /// Instead of an engine: the package's reference solution (a source
    /// file in any configured language, relative to the package), whose
    /// output answers generated tests (issue #9).
    #[serde(default)]
    pub(crate) reference: Option<String>,
    /// The package's generator, called as `generator SEED PROFILE`; its
    /// output for a seed must not change between runs.
    #[serde(default)]
    pub(crate) generator: Option<String>,
    /// The package's input validator.
    #[serde(default)]
    pub(crate) validator: Option<ValidatorToml>,
    /// The generator profiles the package's tests and random tests come
    /// from, in the order random tests take them. Every test in `tests/`
    /// must be valid for one of them.
    pub(crate) profiles: Vec<String>,
    /// Resource limits of one test.
    pub(crate) limits: LimitsToml,
    /// Checker options.
    #[serde(default)]
    pub(crate) checker: CheckerToml,
    /// How the fixed generated set in `tests/` was made.
    pub tests: TestsToml,
    /// Scored test groups (issue #15), in judging order; none: pass-fail.
    #[serde(default)]
    pub(crate) groups: Vec<GroupToml>,
    /// An interactive problem's interactor (issue #15): it talks to the
    /// submission over its stdin and stdout.
    #[serde(default)]
    pub(crate) interactor: Option<InteractorToml>,
}

impl ProblemToml {
    /// The manifest a package of another format (Kattis, Polygon) is read
    /// into: its programs are its own, its tests fixed, no groups of
    /// `problem.toml`'s.
    pub(crate) fn of_programs(
        title: String,
        origin: String,
        profiles: Vec<String>,
        limits: LimitsToml,
    ) -> ProblemToml {
        ProblemToml {
            title,
            origin,
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
            groups: Vec::new(),
            interactor: None,
        }
    }
}

/// `[interactor]`: the program that talks to the submission.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
#[serde(expecting = "a table `[interactor]`")]
pub(crate) struct InteractorToml {
    /// The program, relative to the package.
    pub(crate) program: String,
    /// How it is called and what its exit code means.
    #[serde(default)]
    pub(crate) protocol: InteractorProtocolToml,
}

/// `[interactor] protocol`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum InteractorProtocolToml {
    /// testlib's `interactor input output answer`: 0 ok, 1 WA, 2 PE, 3
    /// failure, 7 points; a `[checker]` then reads `output`.
    #[default]
    Testlib,
    /// Kattis' `interactor input answer feedback_dir`: 42 AC, 43 WA.
    Kattis,
}

/// `[[groups]]`: a scored group of the package's tests.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
#[serde(expecting = "a table `[[groups]]`")]
pub(crate) struct GroupToml {
    /// The name reports show.
    pub(crate) name: String,
    /// The group's maximum score.
    pub(crate) points: f64,
    /// A glob over test names (`small-*`); each test is in one group.
    pub(crate) tests: String,
    /// `pass-fail` (the default: all the points when every test passes,
    /// else none), `sum` (an equal share per test passed) or `min`.
    #[serde(default)]
    pub(crate) aggregation: Option<String>,
}

/// `[validator]`: the package's input validator.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
#[serde(expecting = "a table `[validator]`")]
pub(crate) struct ValidatorToml {
    /// The program, relative to the package; it reads the input on stdin.
    pub(crate) program: String,
    /// What its exit code means.
    #[serde(default)]
    pub(crate) exit_codes: ValidatorExitCodesToml,
}

/// `[validator] exit-codes`: the name of the exit-code convention the
/// validator follows; what each convention's codes mean is the protocol's
/// ([`crate::external::ValidatorExitCodes`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum ValidatorExitCodesToml {
    /// `testlib`.
    #[default]
    Testlib,
    /// `kattis`.
    Kattis,
}

/// `[limits]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
#[serde(expecting = "a table `[limits]`")]
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
#[serde(expecting = "a table `[checker]`")]
pub(crate) struct CheckerToml {
    /// mayan: require the lexicographically smallest solution (default true).
    pub(crate) lexmin: Option<bool>,
    /// For a package with a reference program: a built-in checker
    /// (`tokens`, the default, `lines`, `float`, `case-insensitive`) or the
    /// protocol of `program` (`testlib`, `kattis`).
    pub(crate) kind: Option<CheckerKind>,
    /// The checker program, relative to the package (kinds `testlib` and
    /// `kattis`).
    pub(crate) program: Option<String>,
    /// `float`: the largest absolute difference accepted [default: 1e-6].
    pub(crate) absolute_tolerance: Option<f64>,
    /// `float`: the largest difference relative to the answer accepted
    /// [default: 1e-6].
    pub(crate) relative_tolerance: Option<f64>,
}

/// `[checker] kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum CheckerKind {
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
#[serde(expecting = "a table `[tests]`")]
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
#[serde(expecting = "a table `{ profile = \"...\", count = N }`")]
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
    /// Where the input was read from, or `<built-in
    /// problems/<id>/tests/NAME.in>`: a name, never opened again (a run
    /// reads [`Self::input`], written into its workspace).
    pub(crate) path: PathBuf,
    /// The input.
    pub input: String,
    /// `NAME.ans`, when there is one (else the reference solver answers).
    pub answer: Option<String>,
}

/// Whether the test named `test_name` is a sample, shown whole even to
/// students and exported to a Kattis package's `data/sample/`: ours are
/// named `sample*`, a Kattis package's lie in `sample/`. Decided here
/// alone.
pub(crate) fn is_sample(test_name: &str) -> bool {
    test_name.starts_with("sample")
}

pub(crate) fn decode(path: &Path, bytes: &[u8]) -> Result<String, ConfigError> {
    String::from_utf8(bytes.to_vec())
        .map_err(|_| ConfigError::invalid(path, "text", "is not UTF-8"))
}

/// The `NAME.in` (+ `NAME.ans`) files of a package's `tests/` folder; none
/// when it has no such folder. No run may read the folder: the package
/// layer hands it to the sandbox to mask.
pub(crate) fn read_disk_tests(dir: &Path) -> Result<Vec<PackageTest>, ConfigError> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let read_error = |path: &Path, error: std::io::Error| ConfigError {
        path: path.to_owned(),
        kind: ConfigErrorKind::Read(error),
    };
    let inputs = crate::test_files::list(dir).map_err(|error| read_error(dir, error))?;
    let mut tests = Vec::with_capacity(inputs.len());
    for test in inputs {
        let answer_path = test.answer();
        let (name, path) = (test.name, test.input);
        let read = |path: &Path| {
            crate::data_file::read(path, crate::data_file::MAX_TEST_BYTES)
                .map_err(ConfigError::data_file)
        };
        let bytes = read(&path)?;
        let answer = if answer_path.exists() {
            let bytes = read(&answer_path)?;
            Some(decode(&answer_path, &bytes)?)
        } else {
            None
        };
        tests.push(PackageTest {
            name,
            input: decode(&path, &bytes)?,
            path,
            answer,
        });
    }
    Ok(tests)
}

/// Whether the manifest names programs of the package rather than an engine.
pub(crate) fn has_programs(manifest: &ProblemToml) -> bool {
    manifest.reference.is_some()
        || manifest.generator.is_some()
        || manifest.validator.is_some()
        || manifest.checker.program.is_some()
        || manifest.checker.kind.is_some()
        || manifest.interactor.is_some()
}

/// An invalid value, with the line of `key` in `text` when it can be found.
pub(crate) fn invalid_at(
    path: &Path,
    text: &str,
    key: &str,
    message: impl Into<String>,
) -> ConfigError {
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
pub(crate) fn check_limits(
    path: &Path,
    text: &str,
    manifest: &ProblemToml,
) -> Result<(), ConfigError> {
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
pub(crate) fn check_manifest(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::parse_toml;

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
