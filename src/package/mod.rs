//! A package, ready to use (the layer above [`crate::config`] and
//! `crate::external`): the problem a validated `problem.toml` (or a
//! Kattis `problem.yaml`) names, as a built-in engine or as the package's
//! own programs, with its tests checked against its profiles.
//!
//! [`crate::config`] reads and validates the files and builds nothing that
//! runs; this module assembles what runs. The bundled packages are embedded
//! in the binary ([`crate::config::bundled`]), so the judge works from any
//! directory; `--problems-dir DIR` puts `DIR/<id>/` in place of the bundled
//! package of the same id.

pub(crate) mod autograding;
pub(crate) mod format;
pub(crate) mod generators;
pub(crate) mod kattis;
mod kattis_constants;
pub(crate) mod kattis_programs;
mod kattis_selftest;
mod native;
pub(crate) mod polygon;
mod programs;
pub(crate) mod scaffold;
mod special_files;
mod verdict_folders;

use crate::config::judge::JudgeConfig;
use crate::config::problem::{PackageTest, ProblemToml};
use crate::config::{bundled, ConfigError, ConfigErrorKind};
use crate::external::ProgramProblem;
use crate::problems::{CheckOptions, InputError, Problem};
use crate::sandbox::{DataFolder, Hidden};
pub(crate) use format::{Answers, LoadedPackage, Prepared};
use format::{Languages, PackageFormat};
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
/// tests, each checked against the package's profiles.
#[derive(Clone)]
pub struct Package {
    id: String,
    problem: ProblemRef,
    manifest: ProblemToml,
    dir: Option<PathBuf>,
    tests: Vec<PackageTest>,
    groups: Option<crate::config::groups::GroupTree>,
    /// The folders no run may see, each with why (its format's
    /// [`PackageFormat::secret_folders`], and the problems folder it was
    /// looked up in).
    secret_folders: Vec<(DataFolder, PathBuf)>,
}

impl std::fmt::Debug for Package {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Package")
            .field("id", &self.id)
            .field("problem", &self.problem.id())
            .field("manifest", &self.manifest)
            .field("dir", &self.dir)
            .field("tests", &self.tests.len())
            .field("groups", &self.groups.is_some())
            .field("secret_folders", &self.secret_folders)
            .finish()
    }
}

impl Package {
    /// The id used on the command line and in reports, e.g. `rooks-large`.
    pub(crate) fn id(&self) -> &str {
        &self.id
    }

    /// The engine's code, or the package's programs.
    pub fn problem(&self) -> &ProblemRef {
        &self.problem
    }

    /// The validated manifest.
    pub fn manifest(&self) -> &ProblemToml {
        &self.manifest
    }

    /// `DIR/<id>` when the package came from `--problems-dir DIR`.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// Samples and fixed tests, in name order.
    pub fn tests(&self) -> &[PackageTest] {
        &self.tests
    }

    /// The folders of the package no run of a command using it may see,
    /// each with why: its tests or data, its whole folder (kept from
    /// compiles), and the problems folder it was looked up in. Its own
    /// programs hide them from the moment it loads; the grading layer
    /// gathers them into what the command hides (`grading::hidden`).
    pub(crate) fn secret_folders(&self) -> &[(DataFolder, PathBuf)] {
        &self.secret_folders
    }

    /// Hides `hidden` (the command's one value, gathered once every
    /// package is loaded) from the package's programs from their next run
    /// on. A package of the judge's engines runs no program of its own.
    pub(crate) fn hide(&self, hidden: &Arc<Hidden>) {
        if let ProblemRef::Programs(problem) = &self.problem {
            problem.hide(hidden);
        }
    }

    /// The scored test groups over the tests (problem.toml `[[groups]]`, a
    /// Kattis `type: scoring` package's `data/**/testdata.yaml` or
    /// `test_group.yaml`); `None`: pass-fail.
    pub(crate) fn groups(&self) -> Option<&crate::config::groups::GroupTree> {
        self.groups.as_ref()
    }

    /// This package with another time limit (a Kattis package's limit
    /// derived from its accepted submissions).
    pub(crate) fn with_time_limit_ms(&self, time_limit_ms: u64) -> Package {
        let mut package = self.clone();
        package.manifest.limits.time_limit_ms = time_limit_ms;
        package
    }

    /// The tests, to change in a test of the crate.
    #[cfg(test)]
    pub(crate) fn tests_mut(&mut self) -> &mut Vec<PackageTest> {
        &mut self.tests
    }

    /// Other test groups, for a test of the crate.
    #[cfg(test)]
    pub(crate) fn set_groups(&mut self, groups: Option<crate::config::groups::GroupTree>) {
        self.groups = groups;
    }

    /// Another id, for a test of the crate.
    #[cfg(test)]
    pub(crate) fn set_id(&mut self, id: &str) {
        id.clone_into(&mut self.id);
    }

    /// `problems_dir/<id>/` when `problems_dir` is given and holds that
    /// package, else the bundled package `id`. A `problems_dir` that is not
    /// a folder is an error, never a silent fallback to the bundled ones.
    pub fn load(problems_dir: Option<&Path>, id: &str) -> Result<Package, ConfigError> {
        Package::load_with(problems_dir, id, None)
    }

    /// [`Package::load`], compiling a package's own programs with the
    /// languages of `config` [default: `./judge.toml` when it exists, else
    /// the built-in defaults].
    pub(crate) fn load_with(
        problems_dir: Option<&Path>,
        id: &str,
        config: Option<&JudgeConfig>,
    ) -> Result<Package, ConfigError> {
        Package::load_hiding(problems_dir, id, config, &Hidden::new())
    }

    /// [`Package::load_with`] for a command that hides `hidden` already
    /// (a class's submissions folder, the packages loaded before): the
    /// package's programs hide it too while it loads.
    pub(crate) fn load_hiding(
        problems_dir: Option<&Path>,
        id: &str,
        config: Option<&JudgeConfig>,
        hidden: &Hidden,
    ) -> Result<Package, ConfigError> {
        Package::load_answers(problems_dir, id, config, Answers::Required, hidden)
    }

    /// [`Package::load_with`] for a command that never reads a fixed
    /// test's answer (`solve`, `check`, `validate`, `gen`, `stress`,
    /// `interact`, `export`, `problems`): a test without its `.ans` does not
    /// keep it from running (issue #32: `judge solve`, the fix the error
    /// suggests, was refused for the very missing answer it writes).
    pub(crate) fn load_without_answers(
        problems_dir: Option<&Path>,
        id: &str,
        config: Option<&JudgeConfig>,
    ) -> Result<Package, ConfigError> {
        Package::load_answers(problems_dir, id, config, Answers::Optional, &Hidden::new())
    }

    /// Every package looked up in `problems_dir` has the folder among its
    /// secret folders, whichever package it turns out to be: a bundled one
    /// of the same id too (the folder holds other packages' tests).
    fn load_answers(
        problems_dir: Option<&Path>,
        id: &str,
        config: Option<&JudgeConfig>,
        answers: Answers,
        hidden: &Hidden,
    ) -> Result<Package, ConfigError> {
        if let Some(problems_dir) = problems_dir {
            check_problems_dir(problems_dir)?;
            let dir = problems_dir.join(id);
            if let Some(format) = detect(&dir) {
                let languages = Languages::new(config, problems_dir);
                return Ok(load_format(
                    format,
                    &dir,
                    id,
                    &languages,
                    answers,
                    problems_dir,
                    hidden,
                )?
                .package);
            }
        }
        let package = match Package::bundled(id) {
            Err(error) if matches!(&error.kind, ConfigErrorKind::Invalid { key, .. } if key == "problem") => {
                Err(unknown_package(problems_dir, id))
            }
            other => other,
        }?;
        Ok(match problems_dir {
            Some(problems_dir) => package.in_problems_folder(problems_dir),
            None => package,
        })
    }

    /// This package, looked up in `problems_folder`: the folder is first
    /// among its secret folders.
    fn in_problems_folder(mut self, problems_folder: &Path) -> Package {
        self.secret_folders
            .insert(0, (DataFolder::ProblemsFolder, problems_folder.to_owned()));
        self
    }

    /// The problem of package `id` and its checker's options, for a command
    /// that judges one input and needs no tests (`solve`, `check`): a
    /// `problems_dir` package is loaded and checked as [`Package::load`]
    /// does, a bundled one reads only its manifest, not its tests (their
    /// decoding was a tenth of a `judge solve`'s start-up, issue #19).
    pub(crate) fn load_problem(
        problems_dir: Option<&Path>,
        id: &str,
    ) -> Result<(ProblemRef, CheckOptions), ConfigError> {
        if problems_dir.is_some() {
            let package = Package::load_without_answers(problems_dir, id, None)?;
            return Ok((package.problem.clone(), package.check_options()));
        }
        let (_, manifest, problem) = native::bundled_manifest(id)?;
        Ok((problem, check_options_of(&manifest)))
    }

    /// The bundled package `id`.
    pub fn bundled(id: &str) -> Result<Package, ConfigError> {
        native::bundled(id)
    }

    /// The built-in engine's id (`rooks` for `rooks-large`), or `None` for
    /// a package with programs of its own.
    pub(crate) fn engine_id(&self) -> Option<&'static str> {
        match &self.problem {
            ProblemRef::Engine(problem) => Some(problem.id()),
            ProblemRef::Programs(_) => None,
        }
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

    /// Whether `input` is what the package's statement allows, as `judge
    /// validate` without `--profile` asks: the problem's constraints, no
    /// profile's promise (a mayan board that clears in fewer than n moves is
    /// valid, issue #17), or the constraints of one of the package's
    /// profiles where a profile widens them (rooks-large's `large`). The
    /// error is [`Package::validate`]'s.
    pub(crate) fn validate_statement(&self, input: &str) -> Result<(), InputError> {
        match self.problem.validate(input, None) {
            Ok(()) => Ok(()),
            Err(_) => self.validate(input),
        }
    }

    /// Every test must be valid for the package (issue #8: the bundled
    /// `rooks` held `large-*` tests that `judge validate rooks` rejects).
    /// Run on every package read from disk; the bundled ones are checked by
    /// a test instead (`every_bundled_test_is_valid_for_its_package`).
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
        check_options_of(&self.manifest)
    }
}

/// The checker's options `manifest` sets.
fn check_options_of(manifest: &ProblemToml) -> CheckOptions {
    CheckOptions {
        lexmin: manifest
            .checker
            .lexmin
            .unwrap_or(CheckOptions::default().lexmin),
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

/// Every format, in the order detection tries them: a folder holding the
/// markers of two formats is read as the first's.
pub(crate) static FORMATS: &[&dyn PackageFormat] =
    &[&native::Native, &kattis::Kattis, &polygon::Polygon];

/// The format of the package in `dir`, if it is one: the first of
/// [`FORMATS`] whose marker file `dir` holds. The one detection.
pub(crate) fn detect(dir: &Path) -> Option<&'static dyn PackageFormat> {
    FORMATS
        .iter()
        .copied()
        .find(|format| format.recognises(dir))
}

/// Whether `dir` is a package of `format` by the one detection
/// ([`detect`]): a folder holding the markers of two formats is of the
/// first only.
pub(crate) fn is_of(dir: &Path, format: &dyn PackageFormat) -> bool {
    detect(dir).is_some_and(|found| found.name() == format.name())
}

/// The markers of every format, for a message: "`problem.toml` (judge),
/// `problem.yaml` (Kattis)".
pub(crate) fn markers() -> String {
    let named: Vec<String> = FORMATS
        .iter()
        .map(|format| format!("`{}` ({})", format.marker(), format.name()))
        .collect();
    named.join(", ")
}

/// The ids of every package: the bundled ones, then the packages of
/// `problems_dir` (of any format) that are not bundled, by name.
pub(crate) fn package_ids(problems_dir: Option<&Path>) -> Vec<String> {
    let mut ids: Vec<String> = bundled::package_ids()
        .into_iter()
        .map(str::to_owned)
        .collect();
    let mut extra: Vec<String> = problems_dir
        .and_then(|dir| fs_err::read_dir(dir).ok())
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter(|entry| detect(&entry.path()).is_some())
        .filter_map(|entry| entry.file_name().to_str().map(str::to_owned))
        .filter(|id| !ids.contains(id))
        .collect();
    extra.sort();
    ids.extend(extra);
    ids
}

/// The package in the folder `dir` (`judge grade --package DIR`), of
/// whichever format it is, with what grading its own submissions needs;
/// `None` when `dir` is a package of no format. It is read as a package
/// of its parent folder is by `--problems-dir`: the parent is among its
/// secret folders, and the id is the folder's name; messages name its
/// files by `dir` as given. Its programs hide `hidden` too while it loads.
pub(crate) fn load_folder(
    dir: &Path,
    config: &JudgeConfig,
    hidden: &Hidden,
) -> Result<Option<LoadedPackage>, ConfigError> {
    let Some(format) = detect(dir) else {
        return Ok(None);
    };
    let absolute = fs_err::canonicalize(dir).map_err(|error| ConfigError {
        path: dir.to_owned(),
        kind: ConfigErrorKind::Read(error),
    })?;
    let (Some(parent), Some(id)) = (absolute.parent(), absolute.file_name()) else {
        return Err(ConfigError::invalid(dir, "package", "has no parent folder"));
    };
    check_problems_dir(parent)?;
    let languages = Languages::new(Some(config), parent);
    let loaded = load_format(
        format,
        dir,
        &id.to_string_lossy(),
        &languages,
        Answers::Required,
        parent,
        hidden,
    )?;
    Ok(Some(loaded))
}

/// Builds what the package in `dir` makes of itself before its own
/// submissions are graded, as its format does ([`PackageFormat::prepare`]:
/// a Kattis package's `data/` from its `generators.yaml`); `None` when it
/// builds nothing or is a package of no format.
pub(crate) fn prepare_folder(
    dir: &Path,
    config: &JudgeConfig,
) -> Result<Option<Prepared>, format::PrepareError> {
    match detect(dir) {
        Some(format) => {
            special_files::refuse(dir)?;
            format.prepare(dir, config)
        }
        None => Ok(None),
    }
}

/// Builds what the package in `dir` makes of itself as `judge gen
/// --package` asks, as its format does ([`PackageFormat::build`]: a Kattis
/// package's `data/` from its `generators.yaml`). A folder whose format
/// builds nothing (or of no format) is a configuration error naming it.
pub(crate) fn build_folder(
    dir: &Path,
    config: &JudgeConfig,
) -> Result<format::Built, format::PrepareError> {
    let built = match detect(dir) {
        Some(format) => {
            special_files::refuse(dir)?;
            format.build(dir, config)?
        }
        None => None,
    };
    built.ok_or_else(|| {
        format::PrepareError::Config(ConfigError::invalid(
            dir,
            "generators/generators.yaml",
            "the folder is no package whose format builds its tests from it (a Kattis \
             package, with `problem.yaml`, builds its `data/` so)",
        ))
    })
}

/// The folders of the package in `dir` that building it
/// ([`prepare_folder`]) keeps from its programs, for the grade to keep
/// hidden too ([`PackageFormat::prepared_folders`]).
pub(crate) fn prepared_folders(dir: &Path) -> Vec<(DataFolder, PathBuf)> {
    detect(dir).map_or_else(Vec::new, |format| format.prepared_folders(dir))
}

/// `format`'s package in `dir`, looked up in `problems_folder`: while it
/// loads, its programs hide `hidden`, the problems folder and its format's
/// secret folders (the format adds its own); the problems folder is first
/// among its secret folders.
fn load_format(
    format: &dyn PackageFormat,
    dir: &Path,
    id: &str,
    languages: &Languages<'_>,
    answers: Answers,
    problems_folder: &Path,
    hidden: &Hidden,
) -> Result<LoadedPackage, ConfigError> {
    // No program may read any package's tests there.
    let hidden = hidden.with(&[(DataFolder::ProblemsFolder, problems_folder.to_owned())]);
    special_files::refuse(dir)?;
    let mut loaded = format.load(dir, id, languages, answers, &hidden)?;
    loaded.package = loaded.package.in_problems_folder(problems_folder);
    Ok(loaded)
}

/// judge.toml as `--config` (`path`) and `--problems-dir` say: `path`,
/// else `./judge.toml`, else the defaults, its `problems` naming packages
/// of `problems_dir` or bundled ones.
pub(crate) fn load_config(
    path: Option<&Path>,
    problems_dir: Option<&Path>,
) -> Result<JudgeConfig, ConfigError> {
    match problems_dir {
        Some(problems_dir) => {
            let known = package_ids(Some(problems_dir));
            JudgeConfig::load_or_defaults_for(path, Some(&known))
        }
        None => JudgeConfig::load_or_defaults_for(path, None),
    }
}

/// Whether a package `id` exists: in `problems_dir`, or bundled.
pub(crate) fn package_exists(problems_dir: Option<&Path>, id: &str) -> bool {
    problems_dir.is_some_and(|dir| detect(&dir.join(id)).is_some())
        || bundled::file(&format!("{id}/problem.toml")).is_some()
}

/// `--problems-dir DIR` must be a folder. (Its packages hold tests and
/// answers: each package looked up in it has it among its secret folders,
/// [`Package::secret_folders`].)
pub(crate) fn check_problems_dir(dir: &Path) -> Result<(), ConfigError> {
    if dir.is_dir() {
        Ok(())
    } else {
        Err(ConfigError {
            path: dir.to_owned(),
            kind: ConfigErrorKind::NotAFolder,
        })
    }
}

/// Clap value parser for a problem (package) id, e.g. `rooks` or
/// `rooks-large`: only its shape is checked here, since a package of
/// `--problems-dir` may have any id (issue #9); loading it says whether it
/// exists.
pub(crate) fn parse_id(id: &str) -> Result<String, BadId> {
    let plain = id
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if !id.is_empty() && plain && !id.starts_with('.') {
        Ok(id.to_owned())
    } else {
        Err(BadId(id.to_owned()))
    }
}

/// A problem id of the wrong shape ([`parse_id`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a problem id (letters, digits, `-`, `_` and `.`, not starting with `.`)")]
pub(crate) struct BadId(String);

#[cfg(test)]
mod tests {
    use super::*;

    /// A folder with no marker is no package; each marker picks its format;
    /// with both, the first format of the list wins.
    #[test]
    fn detection_follows_the_list() {
        let dir = tempfile::tempdir().unwrap();
        assert!(detect(dir.path()).is_none());
        fs_err::write(dir.path().join("problem.yaml"), "").unwrap();
        assert_eq!(
            detect(dir.path()).map(|format| format.name()),
            Some("Kattis")
        );
        fs_err::write(dir.path().join("problem.toml"), "").unwrap();
        assert_eq!(
            detect(dir.path()).map(|format| format.name()),
            Some(FORMATS[0].name())
        );
        assert_eq!(FORMATS[0].marker(), "problem.toml");
    }

    /// A marker that is a folder marks nothing.
    #[test]
    fn a_marker_must_be_a_file() {
        let dir = tempfile::tempdir().unwrap();
        fs_err::create_dir(dir.path().join("problem.yaml")).unwrap();
        assert!(detect(dir.path()).is_none());
    }

    /// `is_of` follows the one detection, and the names it compares are
    /// each format's own.
    #[test]
    fn is_of_follows_detection() {
        let dir = tempfile::tempdir().unwrap();
        assert!(!is_of(dir.path(), &polygon::Polygon));
        fs_err::write(dir.path().join("problem.xml"), "").unwrap();
        assert!(is_of(dir.path(), &polygon::Polygon));
        fs_err::write(dir.path().join("problem.toml"), "").unwrap();
        assert!(!is_of(dir.path(), &polygon::Polygon));
        assert!(is_of(dir.path(), &native::Native));
        let mut names: Vec<&str> = FORMATS.iter().map(|format| format.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), FORMATS.len());
    }

    #[test]
    fn markers_name_every_format() {
        assert_eq!(
            markers(),
            "`problem.toml` (judge), `problem.yaml` (Kattis), `problem.xml` (Polygon)"
        );
    }

    #[test]
    fn every_bundled_package_loads() {
        for id in bundled::package_ids() {
            let package = Package::bundled(id).unwrap();
            assert!(!package.manifest.title.is_empty());
            assert!(!package.tests.is_empty(), "{id}");
        }
    }

    /// The proof that lets [`Package::bundled`] skip the check at start-up.
    #[test]
    fn every_bundled_test_is_valid_for_its_package() {
        for id in bundled::package_ids() {
            let package = Package::bundled(id).unwrap();
            assert!(!package.tests.is_empty(), "{id}");
            if let Err(error) = package.check_tests() {
                panic!("bundled package `{id}`: {error}");
            }
        }
    }

    /// The proof above can fail: a bundled package holding a test its
    /// profiles reject (here a mayan board with a run of 3) is caught.
    #[test]
    fn the_proof_rejects_an_invalid_bundled_test() {
        let mut package = Package::bundled("mayan").unwrap();
        package.tests.push(PackageTest {
            name: "broken".to_owned(),
            path: PathBuf::from("<built-in problems/mayan/tests/broken.in>"),
            input: "1\n1 1 1 0\n0\n0\n0\n0\n".to_owned(),
            answer: None,
        });
        let error = package.check_tests().unwrap_err();
        assert!(
            matches!(error.kind, ConfigErrorKind::InvalidTest { .. }),
            "{error}"
        );
        assert!(error.to_string().contains("broken.in"), "{error}");
    }

    /// `judge solve` / `judge check` read a bundled package's manifest alone
    /// and get what a full load gives: the same engine and checker options.
    #[test]
    fn load_problem_of_a_bundled_package_is_the_full_loads() {
        for id in bundled::package_ids() {
            let package = Package::bundled(id).unwrap();
            let (problem, options) = Package::load_problem(None, id).unwrap();
            assert_eq!(problem.id(), package.problem().id(), "{id}");
            assert_eq!(options, package.check_options(), "{id}");
        }
        let Err(error) = Package::load_problem(None, "no-such-problem") else {
            panic!("an unknown package loads");
        };
        assert_eq!(
            error.to_string(),
            Package::load(None, "no-such-problem")
                .unwrap_err()
                .to_string()
        );
    }

    /// A `--problems-dir` package is still checked in full: a test its
    /// profile rejects fails `load_problem` as it fails `load`.
    #[test]
    fn load_problem_checks_a_problems_dir_packages_tests() {
        let dir = tempfile::tempdir().unwrap();
        let package = dir.path().join("mayan");
        fs_err::create_dir_all(package.join("tests")).unwrap();
        let manifest = bundled::file("mayan/problem.toml").unwrap();
        fs_err::write(package.join("problem.toml"), manifest).unwrap();
        fs_err::write(package.join("tests/broken.in"), "1\n1 1 1 0\n0\n0\n0\n0\n").unwrap();
        let Err(error) = Package::load_problem(Some(dir.path()), "mayan") else {
            panic!("a package with an invalid test loads");
        };
        assert_eq!(
            error.to_string(),
            Package::load(Some(dir.path()), "mayan")
                .unwrap_err()
                .to_string()
        );
        assert!(error.to_string().contains("broken.in"), "{error}");
    }
}
