//! A package backed by its own programs (issue #9): `problem.toml`'s
//! `reference`, `generator`, `validator` and `[checker]` assembled into a
//! [`ProgramProblem`].

use crate::config::judge::JudgeConfig;
use crate::config::languages::RunsAs;
use crate::config::problem::{
    invalid_at, CheckerKind, InteractorProtocolToml, ProblemToml, ValidatorExitCodesToml,
};
use crate::config::ConfigError;
use crate::external::{
    Checker, CheckerProtocol, ProgramProblem, Role, Tool, Toolbox, ValidatorExitCodes,
};
use crate::interaction::InteractorProtocol;
use crate::problems::checkers::BuiltinChecker;
use std::path::Path;

/// A package backed by its own programs (issue #9): every program must
/// exist and be in a configured language (or be an executable), the
/// checker's kind and program must agree, before anything runs.
pub(super) fn program_problem(
    path: &Path,
    text: &str,
    dir: &Path,
    id: &str,
    manifest: &ProblemToml,
    config: &JudgeConfig,
    hidden: std::sync::Arc<crate::sandbox::Hidden>,
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
    let tool = |key: &str, role: Role, file: &str| -> Result<Tool, ConfigError> {
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
        let language = match config.runs_as(&file_path) {
            Some(RunsAs::Language(name, language)) => {
                if let Some(missing) = crate::runner::missing_toolchain(name, language) {
                    return Err(invalid_at(
                        path,
                        text,
                        key,
                        format!("`{file}` cannot run here: {missing}"),
                    ));
                }
                Some((name.to_owned(), language.clone()))
            }
            Some(RunsAs::Executable) => None,
            None => {
                let extension = file_path.extension().map_or_else(
                    || "(none)".to_owned(),
                    |extension| extension.to_string_lossy().into_owned(),
                );
                return Err(invalid_at(
                    path,
                    text,
                    key,
                    format!("`{file}` is {}", config.not_runnable(Some(&extension))),
                ));
            }
        };
        Ok(Tool::new(role, file_path, language))
    };
    // Without a generator every test is a file with its `.ans` (an imported
    // GitHub Classroom package, issue #30): no reference is needed.
    if manifest.reference.is_none() && manifest.generator.is_some() {
        return Err(invalid_at(
            path,
            text,
            "reference",
            "a package with a generator needs a reference solution: set `reference` to its \
             file (it answers generated tests)",
        ));
    }
    let reference = manifest
        .reference
        .as_deref()
        .map(|file| tool("reference", Role::Reference, file))
        .transpose()?;
    let generator = manifest
        .generator
        .as_deref()
        .map(|file| tool("generator", Role::Generator, file))
        .transpose()?;
    let validator = manifest
        .validator
        .as_ref()
        .map(|validator| {
            tool("validator.program", Role::Validator, &validator.program)
                .map(|tool| (tool, exit_codes(validator.exit_codes), Vec::new()))
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
                tool: Box::new(tool("checker.program", Role::Checker, file)?),
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
                    case_sensitive: true,
                },
                _ => BuiltinChecker::Tokens,
            }),
        };
    let toolbox = Toolbox::new(
        config.compile_limits(),
        config.tool_limits(&manifest.limits),
        hidden,
        crate::runner::LinkScope::package(dir),
    )
    .map_err(|fault| ConfigError::invalid(path, "programs", fault.0))?;
    let interactor = match &manifest.interactor {
        Some(interactor) => {
            let protocol = match interactor.protocol {
                InteractorProtocolToml::Testlib => InteractorProtocol::Testlib {
                    // Polygon: a checker reads what the interactor wrote, when
                    // the package states one.
                    checker: checker_toml.kind.is_some(),
                },
                InteractorProtocolToml::Kattis if checker_toml.kind.is_some() => {
                    return Err(invalid_at(
                        path,
                        text,
                        "interactor.protocol",
                        "a `kattis` interactor decides the test itself: leave out `[checker]` \
                         (a checker step follows a `testlib` interactor)",
                    ))
                }
                InteractorProtocolToml::Kattis => InteractorProtocol::Kattis,
            };
            Some((
                tool("interactor.program", Role::Interactor, &interactor.program)?,
                protocol,
            ))
        }
        None => None,
    };
    let problem = ProgramProblem::new(
        id,
        &manifest.title,
        &manifest.profiles,
        toolbox,
        reference,
        generator,
        validator,
        checker,
    );
    Ok(match interactor {
        Some((tool, protocol)) => problem.with_interactor(tool, protocol),
        None => problem,
    })
}

/// The file names of an interactor by Polygon's and Codeforces' conventions
/// (`interactor.cpp` at the package's root or in `files/`).
const CONVENTIONAL_INTERACTORS: [&str; 2] = ["interactor", "files/interactor"];

/// A package that carries an interactor by those conventions but does not
/// declare `[interactor]` is refused: graded without it, every test would
/// be judged as if the problem were not interactive.
pub(super) fn check_declared_interactor(
    path: &Path,
    text: &str,
    dir: &Path,
    manifest: &ProblemToml,
) -> Result<(), ConfigError> {
    if manifest.interactor.is_some() {
        return Ok(());
    }
    for stem in CONVENTIONAL_INTERACTORS {
        let Some(parent) = dir.join(stem).parent().map(Path::to_owned) else {
            continue;
        };
        let Ok(entries) = fs_err::read_dir(&parent) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.split('.').next() == Some("interactor") && entry.path().is_file() {
                let relative = entry
                    .path()
                    .strip_prefix(dir)
                    .map_or_else(|_| name.clone(), |relative| relative.display().to_string());
                return Err(invalid_at(
                    path,
                    text,
                    "interactor",
                    format!(
                        "the package holds `{relative}` but problem.toml declares no \
                         `[interactor]`: add `[interactor]` with `program = \"{relative}\"` \
                         (`protocol = \"testlib\"` is the default), or rename the file"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The protocol of the convention `[validator] exit-codes` names.
fn exit_codes(name: ValidatorExitCodesToml) -> ValidatorExitCodes {
    match name {
        ValidatorExitCodesToml::Testlib => ValidatorExitCodes::Testlib,
        ValidatorExitCodesToml::Kattis => ValidatorExitCodes::Kattis,
    }
}
