//! The judge's own package format: `problem.toml` naming a built-in engine
//! or the package's own programs, and `tests/NAME.in` (+ `NAME.ans`). The
//! bundled packages are in this format too, read from the binary.

use super::format::{Answers, Languages, LoadedPackage, PackageFormat, TimeFactors};
use super::verdict_folders::VerdictFolders;
use super::{programs, Package, ProblemRef};
use crate::config::problem::{
    check_limits, check_manifest, decode, has_programs, read_disk_tests, PackageTest, ProblemToml,
};
use crate::config::{bundled, parse_toml, ConfigError};
use crate::sandbox::{DataFolder, Hidden};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// problemtools' default `time_multiplier`, for a time limit derived from
/// a package of ours that states none.
const TIME_MULTIPLIER: f64 = 5.0;

/// The judge's format (`problem.toml`).
pub(crate) struct Native;

impl PackageFormat for Native {
    fn name(&self) -> &'static str {
        "judge"
    }

    fn marker(&self) -> &'static str {
        "problem.toml"
    }

    /// Its `tests/` (masked), and the whole folder (kept from compiles).
    fn secret_folders(&self, dir: &Path) -> Vec<(DataFolder, PathBuf)> {
        vec![
            (DataFolder::PackageTests, dir.join("tests")),
            (DataFolder::PackageFolder, dir.to_owned()),
        ]
    }

    fn load(
        &self,
        dir: &Path,
        id: &str,
        config: &Languages<'_>,
        answers: Answers,
        hidden: &Hidden,
    ) -> Result<LoadedPackage, ConfigError> {
        let package = load(dir, id, config, answers, hidden)?;
        // Its own submissions are in verdict folders, as a Kattis
        // package's (with its `submissions.yaml`).
        let tests = package
            .tests()
            .iter()
            .map(|test| test.name.clone())
            .collect();
        let submissions = Box::new(VerdictFolders::new(
            dir,
            package.groups().is_some(),
            None,
            tests,
        ));
        Ok(LoadedPackage {
            example_constants: None,
            time_limit_ms: Some(package.manifest.limits.time_limit_ms),
            time_limit_stated_in: None,
            package,
            time_multiplier: TIME_MULTIPLIER,
            time_resolution_ms: 1000,
            time_factors: TimeFactors::Configured,
            skipped_programs: Vec::new(),
            ignored_files: Vec::new(),
            unchecked_inputs: None,
            notes: Vec::new(),
            warnings: Vec::new(),
            submissions,
        })
    }
}

/// Reads `dir/problem.toml` and `dir/tests/`; the package's programs hide
/// `hidden` and its secret folders.
fn load(
    dir: &Path,
    id: &str,
    config: &Languages<'_>,
    answers: Answers,
    hidden: &Hidden,
) -> Result<Package, ConfigError> {
    let path = dir.join("problem.toml");
    let text = ConfigError::read_yaml_text(&path)?;
    let manifest: ProblemToml = parse_toml(&path, &text)?;
    programs::check_declared_interactor(&path, &text, dir, &manifest)?;
    // No program may read the tests, nor a compile be lent the package.
    let secret_folders = Native.secret_folders(dir);
    let problem = if has_programs(&manifest) {
        let config = config.get()?;
        check_limits(&path, &text, &manifest)?;
        ProblemRef::Programs(Arc::new(programs::program_problem(
            &path,
            &text,
            dir,
            id,
            &manifest,
            config,
            Arc::new(hidden.with(&secret_folders)),
        )?))
    } else {
        ProblemRef::Engine(check_manifest(&path, id, &manifest)?)
    };
    let tests_folder = dir.join("tests");
    let tests = read_disk_tests(&tests_folder)?;
    if matches!(problem, ProblemRef::Programs(_)) && answers == Answers::Required {
        if let Some(test) = tests.iter().find(|test| test.answer.is_none()) {
            return Err(ConfigError::invalid(
                &test.path,
                "answer",
                format!(
                    "the test has no answer `{}.ans` beside it; write it with `judge solve {id} \
                     {} > {}.ans`",
                    test.name,
                    test.path.display(),
                    test.path.with_extension("").display()
                ),
            ));
        }
    }
    let names: Vec<&str> = tests.iter().map(|test| test.name.as_str()).collect();
    let groups = crate::config::groups::from_toml(&manifest.groups, &names, &path)?;
    let package = Package {
        id: id.to_owned(),
        problem,
        manifest,
        dir: Some(dir.to_owned()),
        tests,
        groups,
        secret_folders,
    };
    package.check_tests()?;
    Ok(package)
}

/// The bundled package `id`'s manifest (at the path returned first) and
/// engine.
pub(super) fn bundled_manifest(
    id: &str,
) -> Result<(PathBuf, ProblemToml, ProblemRef), ConfigError> {
    let path = PathBuf::from(format!("<built-in problems/{id}/problem.toml>"));
    let Some(bytes) = bundled::file(&format!("{id}/problem.toml")) else {
        return Err(super::unknown_package(None, id));
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
    Ok((path, manifest, problem))
}

/// The bundled package `id`.
pub(super) fn bundled(id: &str) -> Result<Package, ConfigError> {
    let (path, manifest, problem) = bundled_manifest(id)?;
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
            answer,
        });
    }
    let names: Vec<&str> = tests.iter().map(|test| test.name.as_str()).collect();
    let groups = crate::config::groups::from_toml(&manifest.groups, &names, &path)?;
    // No `check_tests` here: the bundled tests cannot change after the
    // build, and a test proves them valid (`package::tests`), so start-up
    // does not pay for it (issue #19: the mayan checks cost 50-80 ms of
    // every command).
    // In the binary: no folder of it on disk to hide.
    Ok(Package {
        id: id.to_owned(),
        problem,
        manifest,
        dir: None,
        tests,
        groups,
        secret_folders: Vec::new(),
    })
}
