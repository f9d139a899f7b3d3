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

use super::{bundled, parse_toml, ConfigError, ConfigErrorKind};
use crate::problems::{self, CheckOptions, InputError, Problem};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// `problem.toml` as written.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
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
}

/// `[checker]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct CheckerToml {
    /// mayan: require the lexicographically smallest solution (default true).
    pub lexmin: Option<bool>,
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

/// A package, ready to use: its engine, its validated `problem.toml` and its
/// tests, each checked against the package's profiles.
#[derive(Clone)]
pub struct Package {
    /// The id used on the command line and in reports, e.g. `rooks-large`.
    pub id: String,
    /// The engine's code.
    pub problem: &'static dyn Problem,
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
        if let Some(problems_dir) = problems_dir {
            check_problems_dir(problems_dir)?;
            let dir = problems_dir.join(id);
            let path = dir.join("problem.toml");
            if path.is_file() {
                let manifest: ProblemToml = super::load_toml(&path)?;
                let problem = check_manifest(&path, id, &manifest)?;
                let tests = read_disk_tests(&dir.join("tests"))?;
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
        Package::bundled(id)
    }

    /// The bundled package `id`.
    pub fn bundled(id: &str) -> Result<Package, ConfigError> {
        let path = PathBuf::from(format!("<built-in problems/{id}/problem.toml>"));
        let Some(bytes) = bundled::file(&format!("{id}/problem.toml")) else {
            return Err(unknown_package(id));
        };
        let text = String::from_utf8_lossy(bytes);
        let manifest: ProblemToml = parse_toml(&path, &text)?;
        let problem = check_manifest(&path, id, &manifest)?;
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
        package.check_tests()?;
        Ok(package)
    }

    /// The profiles the package's tests and random tests come from.
    pub fn profiles(&self) -> Vec<&str> {
        self.manifest.profiles.iter().map(String::as_str).collect()
    }

    /// Whether `input` is a valid test of this package: valid for one of
    /// its profiles. The error is the first profile's.
    pub fn validate(&self, input: &str) -> Result<(), InputError> {
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
    fn check_tests(&self) -> Result<(), ConfigError> {
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

/// The engine of the bundled package `id` (for commands that need no more,
/// like `judge solve`).
pub fn engine_of(id: &str) -> Result<&'static dyn Problem, ConfigError> {
    let path = PathBuf::from(format!("<built-in problems/{id}/problem.toml>"));
    let Some(bytes) = bundled::file(&format!("{id}/problem.toml")) else {
        return Err(unknown_package(id));
    };
    let manifest: ProblemToml = parse_toml(&path, &String::from_utf8_lossy(bytes))?;
    check_manifest(&path, id, &manifest)
}

fn unknown_package(id: &str) -> ConfigError {
    ConfigError::invalid(
        Path::new("<command line>"),
        "problem",
        format!("unknown problem `{id}`; known: {}", bundled::known_ids()),
    )
}

/// Whether a package `id` exists: in `problems_dir`, or bundled.
pub fn package_exists(problems_dir: Option<&Path>, id: &str) -> bool {
    problems_dir.is_some_and(|dir| dir.join(id).join("problem.toml").is_file())
        || bundled::file(&format!("{id}/problem.toml")).is_some()
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

/// Values serde cannot check: a known engine, limits above zero, profiles
/// that exist, a fixed set drawn from the package's own profiles.
fn check_manifest(
    path: &Path,
    id: &str,
    manifest: &ProblemToml,
) -> Result<&'static dyn Problem, ConfigError> {
    let engine = manifest.engine.as_deref().unwrap_or(id);
    let Some(problem) = problems::find(engine) else {
        let key = if manifest.engine.is_some() {
            "engine"
        } else {
            "engine (the package id)"
        };
        return Err(ConfigError::invalid(
            path,
            key,
            format!(
                "unknown engine `{engine}`; known: {}",
                problems::known_ids()
            ),
        ));
    };
    let limits = &manifest.limits;
    for (key, value) in [
        ("limits.time-limit-ms", limits.time_limit_ms),
        ("limits.memory-limit-mib", limits.memory_limit_mib),
        ("limits.output-limit-kib", limits.output_limit_kib),
    ] {
        if value == 0 {
            return Err(ConfigError::invalid(path, key, "must be greater than 0"));
        }
    }
    if manifest.profiles.is_empty() {
        return Err(ConfigError::invalid(
            path,
            "profiles",
            "must name at least one generator profile",
        ));
    }
    for (index, profile) in manifest.profiles.iter().enumerate() {
        if let Err(error) = problems::find_profile(problem, profile) {
            return Err(ConfigError::invalid(
                path,
                format!("profiles[{index}]"),
                error.to_string(),
            ));
        }
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
    Ok(problem)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_package_loads_with_valid_tests() {
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
