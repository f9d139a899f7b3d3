//! `problems/<id>/problem.toml`: what the judge knows about one problem's
//! package (SPEC.md, "Repository layout"): title, limits, checker options and
//! how the fixed generated test set was made.
//!
//! Every bundled problem embeds its own `problem.toml` (see
//! [`crate::problems::Problem::manifest`]), so the judge works from any
//! directory; a `problems/<id>/problem.toml` on disk takes precedence.

use super::{parse_toml, ConfigError};
use crate::problems::{self, CheckOptions, Problem};
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

/// A problem's package, ready to use: the code, its validated `problem.toml`
/// and the folder it came from, if any.
#[derive(Clone)]
pub struct Package {
    /// The problem's code.
    pub problem: &'static dyn Problem,
    /// The validated manifest.
    pub manifest: ProblemToml,
    /// `problems/<id>` when the manifest came from disk.
    pub dir: Option<PathBuf>,
}

impl std::fmt::Debug for Package {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Package")
            .field("problem", &self.problem.id())
            .field("manifest", &self.manifest)
            .field("dir", &self.dir)
            .finish()
    }
}

impl Package {
    /// Loads `problems_dir/<id>/problem.toml` when it exists, else the
    /// manifest built into the judge.
    pub fn load(
        problems_dir: &Path,
        problem: &'static dyn Problem,
    ) -> Result<Package, ConfigError> {
        let dir = problems_dir.join(problem.id());
        let path = dir.join("problem.toml");
        if path.is_file() {
            let manifest: ProblemToml = super::load_toml(&path)?;
            check_manifest(&path, problem, &manifest)?;
            Ok(Package {
                problem,
                manifest,
                dir: Some(dir),
            })
        } else {
            Package::builtin(problem)
        }
    }

    /// The manifest built into the judge.
    pub fn builtin(problem: &'static dyn Problem) -> Result<Package, ConfigError> {
        let path = PathBuf::from(format!("<built-in problems/{}/problem.toml>", problem.id()));
        let manifest: ProblemToml = parse_toml(&path, problem.manifest())?;
        check_manifest(&path, problem, &manifest)?;
        Ok(Package {
            problem,
            manifest,
            dir: None,
        })
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

    /// The package's `tests/` folder, when the package is on disk.
    pub fn tests_dir(&self) -> Option<PathBuf> {
        self.dir.as_ref().map(|dir| dir.join("tests"))
    }
}

/// Values serde cannot check: limits above zero, profiles that exist.
fn check_manifest(
    path: &Path,
    problem: &dyn Problem,
    manifest: &ProblemToml,
) -> Result<(), ConfigError> {
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
    for (index, set) in manifest.tests.generated.iter().enumerate() {
        if let Err(error) = problems::find_profile(problem, &set.profile) {
            return Err(ConfigError::invalid(
                path,
                format!("tests.generated[{index}].profile"),
                error.to_string(),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_manifest_parses() {
        for problem in problems::PROBLEMS {
            let package = Package::builtin(*problem).unwrap();
            assert!(!package.manifest.title.is_empty());
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
