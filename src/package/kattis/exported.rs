//! A package written by `judge export --kattis` from a built-in engine,
//! read back: its output validator names the engine, which then decides
//! every test itself.

use super::{check_tests, package_groups, Kattis};
use crate::config::kattis::{
    engine_marker, ProblemType, ProblemYaml, EXPORTED_CHECKER, EXPORTED_CHECKER_CPP,
    EXPORTED_INTERACTOR, EXPORTED_INTERACTOR_CPP, LEGACY_EXPORTED_CHECKER,
};
use crate::config::kattis_groups::SettingsFiles;
use crate::config::problem::{CheckerToml, LimitsToml, PackageTest, ProblemToml, TestsToml};
use crate::config::ConfigError;
use crate::package::format::PackageFormat as _;
use crate::package::{Package, ProblemRef};

/// A package written by `judge export --kattis` from a built-in engine:
/// its output validator names the engine (see [`crate::export`]), and the
/// engine decides directly, so the package grades as the original does
/// without `judge` inside the sandbox.
pub(super) fn engine_package(
    files: &SettingsFiles<'_>,
    id: &str,
    yaml: &ProblemYaml,
    tests: Vec<PackageTest>,
) -> Result<Option<Package>, ConfigError> {
    let dir = files.dir;
    let script = [
        EXPORTED_CHECKER,
        EXPORTED_CHECKER_CPP,
        EXPORTED_INTERACTOR,
        EXPORTED_INTERACTOR_CPP,
        LEGACY_EXPORTED_CHECKER,
    ]
    .into_iter()
    .map(|relative| dir.join(relative))
    .find(|path| path.is_file())
    .unwrap_or_else(|| dir.join(EXPORTED_CHECKER));
    // Never a FIFO, never unbounded (issue #34): not this judge's script.
    let Some(text) = crate::data_file::read(&script, crate::data_file::MAX_TEST_BYTES)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
    else {
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
    if problem.plays_the_submission() != yaml.is(ProblemType::Interactive) {
        return Err(ConfigError::invalid(
            &dir.join("problem.yaml"),
            "type",
            format!(
                "`{}` names the engine `{engine}`, which {}; the problem's `type` must {}say \
                 `interactive`",
                script.display(),
                if problem.plays_the_submission() {
                    "plays against the submission"
                } else {
                    "checks an output"
                },
                if problem.plays_the_submission() {
                    ""
                } else {
                    "not "
                }
            ),
        ));
    }
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
            origin: yaml.source_name().unwrap_or_default(),
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
            groups: Vec::new(),
            interactor: None,
        },
        dir: Some(dir.to_owned()),
        secret_folders: Kattis.secret_folders(dir),
        groups: package_groups(files, yaml, &tests)?,
        tests,
    };
    let profiles = package.manifest.profiles.join(", ");
    check_tests(&package, &profiles, &std::collections::BTreeMap::new())?;
    Ok(Some(package))
}
