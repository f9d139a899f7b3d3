//! `judge export --kattis`: one of our packages written as a Kattis / ICPC
//! problem package (issues #9, #15), so a problem setter can take it to a
//! Kattis installation or to problemtools. The one home of `judge export`:
//! [`command`] is what the command decides around the export (the folder it
//! may write, what it says); `cli/export.rs` only takes the arguments.
//!
//! The package is written in problem format version [`EXPORT_FORMAT`]
//! (`2023-07-draft`), the newest that Kattis' own `verifyproblem` checks:
//!
//! - `problem.yaml`: `problem_format_version`, name, a UUID derived from the
//!   package id (the same on every export), source, the limits (`memory`
//!   leaves room for PyPy's nursery when problemtools runs Python:
//!   [`limits`]);
//! - `statement/problem.en.md`: the package's statement;
//! - `data/sample/` (tests named `sample*`) and `data/secret/` (the rest),
//!   each `.in` with its `.ans` (the reference answer where the package has
//!   none);
//! - `submissions/<verdict>/`: the package's example submissions (a bundled
//!   package's from the repository's `submissions/<id>/`, built in);
//! - for a built-in engine, an input validator under
//!   `input_validators/judge_validate/` and an output validator under
//!   `output_validator/`, carried whole (issue #34): rooks' as Python
//!   scripts ([`rooks`]), matchsticks' and mayan's as single-file C++
//!   programs ([`matchsticks`], [`mayan`]) the host compiles, each deciding
//!   as `judge validate` / `judge check` do, with Kattis' exit codes (42
//!   accepted, 43 rejected). Each carries a `judge-engine:` line, from
//!   which `judge` itself, reading the package back, uses the engine
//!   directly;
//! - for an engine that plays against the submission (matchsticks-duel),
//!   `type: interactive` and, in the output validator's place,
//!   `output_validator/judge_interact.cpp`, a Kattis interactor carried
//!   whole the same way.
//!
//! A Polygon package is exported by [`polygon`]: its testlib programs
//! carried whole under Kattis' protocol, its solutions by tag, what the
//! format cannot say listed with the reason.
//!
//! A package of ours with programs of its own is exported as far as Kattis
//! can say it: the reference becomes `submissions/accepted/`, a Kattis-convention
//! input validator and output validator are copied, a built-in checker
//! becomes the default output validator with its flags in
//! `data/testdata.yaml`; a testlib checker or validator and the `lines`
//! checker are refused with the reason.

pub(crate) mod command;
mod gradescope;
mod limits;
mod matchsticks;
mod mayan;
mod polygon;
mod polygon_main;
mod rooks;
pub(crate) use gradescope::{gradescope, submission_languages};

pub(crate) use limits::{memory_line, output_line, Memory};

use crate::config::kattis::{
    ENGINE_MARKER, EXPORTED_CHECKER, EXPORTED_CHECKER_CPP, EXPORTED_INTERACTOR_CPP,
};
use crate::package::{Package, ProblemRef};
use crate::runner::LinkScope;
use sha2::Digest as _;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Where the export writes a built-in engine's input validator in Python.
const EXPORTED_VALIDATOR: &str = "input_validators/judge_validate/judge_validate.py";
/// Where the export writes a built-in engine's input validator in C++.
const EXPORTED_VALIDATOR_CPP: &str = "input_validators/judge_validate/judge_validate.cpp";

/// The problem format version `judge export --kattis` writes.
pub(crate) const EXPORT_FORMAT: &str = "2023-07-draft";

/// Why a package could not be exported.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ExportError {
    /// The package cannot be expressed in the Kattis format (yet).
    #[error("cannot export `{id}`: {reason}")]
    Unsupported { id: String, reason: String },
    /// A file the package carries that the reader of programs refuses (a
    /// link out of the package), its advice a hint beside it.
    #[error("cannot export `{id}`: `{}`: {refused}", path.display())]
    Refused {
        id: String,
        path: PathBuf,
        /// Boxed: a link's refusal holds paths, and the error type stays
        /// small.
        refused: Box<crate::runner::SubmissionRefused>,
    },
    /// A test has no answer and the reference could not make one.
    #[error("cannot export `{id}`: the reference solver rejected test `{test}`: {message}")]
    Reference {
        id: String,
        test: String,
        message: String,
    },
    /// `--languages` names a language the judge does not know.
    #[error("`--languages`: `{name}` is no language of the judge (known: {known}){suggestion}")]
    UnknownLanguage {
        name: String,
        known: String,
        suggestion: String,
    },
    /// A language's compiler or interpreter is no program the Gradescope
    /// export knows the Ubuntu package of.
    #[error(
        "`--gradescope`: the language `{language}` runs `{program}`, and no Ubuntu 22.04 \
         package is known to install it on Gradescope's image; name the languages hand-ins may \
         be in with `--languages`, without this one"
    )]
    NoPackage { language: String, program: String },
    /// A file could not be written.
    #[error("failed to write `{}`", path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// What an export wrote, and the examples it left out (with the reason).
#[derive(Debug)]
pub(crate) struct Exported {
    pub(crate) written: Vec<PathBuf>,
    pub(crate) left_out: Vec<(String, String)>,
    /// The one time limit written (ms): see [`kattis`].
    pub(crate) time_limit_ms: u64,
    /// The memory limit written: see [`limits`].
    pub(crate) memory: Memory,
    /// The output limit written (MiB, Kattis' unit): see [`limits`].
    pub(crate) output_mib: u64,
}

/// Where the examples of the package in `dir` are: its own `submissions/`
/// (a Kattis package's), else, when judge.toml files submissions by the
/// verdict they must get, its `submissions/<id>/` (the repository's
/// layout, where the bundled packages' examples live: `judge export
/// --problems-dir problems` dropped them, issue #34).
fn examples_folder(dir: &Path, id: &str, config: &crate::config::judge::JudgeConfig) -> PathBuf {
    let own = dir.join("submissions");
    if own.is_dir() || config.layout != crate::config::judge::Layout::Expected {
        return own;
    }
    config.submissions.join(id)
}

/// The examples of `package`: `(verdict folder, file name, bytes)`, from
/// its [`examples_folder`] or, for a bundled package, built in.
fn examples(
    package: &Package,
    config: &crate::config::judge::JudgeConfig,
) -> Result<Vec<(String, String, Vec<u8>)>, ExportError> {
    match &package.dir() {
        Some(source) => {
            let folder = examples_folder(source, package.id(), config);
            // The package's own examples may link anywhere in it; those
            // judge.toml files beside it are graded as a class's files
            // are, as hand-ins.
            let scope = if folder == source.join("submissions") {
                LinkScope::package(source)
            } else {
                LinkScope::HandIn
            };
            submission_copies(&folder)
                .into_iter()
                .map(|(from, to)| {
                    let bytes = carried_bytes(package.id(), &from, &scope)?;
                    let mut parts = to.splitn(3, '/').skip(1);
                    let folder = parts.next().unwrap_or_default().to_owned();
                    let name = parts.next().unwrap_or_default().to_owned();
                    Ok((folder, name, bytes))
                })
                .collect()
        }
        None => Ok(crate::config::bundled::examples(package.id())
            .into_iter()
            .map(|(folder, name, bytes)| (folder.to_owned(), name.to_owned(), bytes.to_vec()))
            .collect()),
    }
}

/// The bytes of a package's file the export carries: a symbolic link is
/// written as its target's content, a regular file, and only a target the
/// link rule of the runner follows in `scope` (issue #34): a link to
/// `/etc/shadow` is refused naming it, never copied into an export.
fn carried_bytes(id: &str, from: &Path, scope: &LinkScope) -> Result<Vec<u8>, ExportError> {
    crate::runner::read_submission(from, scope).map_err(|refused| ExportError::Refused {
        id: id.to_owned(),
        path: from.to_owned(),
        refused: Box::new(refused),
    })
}

/// Writes `package` into `dir` (which must not exist or be empty).
///
/// Kattis gives every language the same time limit, so the limit written
/// is the package's times the largest `time-factor` (of `config`) among the
/// languages of its accepted examples and reference: every accepted example
/// keeps the time it has under `judge`.
pub(crate) fn kattis(
    package: &Package,
    dir: &Path,
    config: &crate::config::judge::JudgeConfig,
) -> Result<Exported, ExportError> {
    if let ProblemRef::Engine(engine) = &package.problem() {
        // Refused before anything is written.
        if !CARRIED_WHOLE.contains(&engine.id()) {
            return Err(uncarried(package.id(), engine.id()));
        }
    }
    // A Polygon package's programs and solutions (issue #29), read and
    // refused before anything is written.
    let polygon = match package.dir() {
        Some(dir) => crate::package::polygon::export_parts(dir)
            .map_err(|error| ExportError::Unsupported {
                id: package.id().to_owned(),
                reason: crate::causes::chain(&error),
            })?
            .map(|parts| polygon::carry(package.id(), &parts))
            .transpose()?,
        None => None,
    };
    let programs = match (&package.problem(), &polygon) {
        (ProblemRef::Engine(_), _) | (ProblemRef::Programs(_), Some(_)) => None,
        (ProblemRef::Programs(_), None) => Some(program_parts(package)?),
    };
    let mut left_out = Vec::new();
    let mut kept = Vec::new();
    let mut examples = examples(package, config)?;
    if let Some(carried) = &polygon {
        examples.extend(carried.submissions.iter().cloned());
        left_out.extend(carried.left_out.iter().cloned());
    }
    for (folder, name, bytes) in examples {
        if crate::discovery::kattis_exports(&folder) {
            kept.push((folder, name, bytes));
        } else {
            left_out.push((
                format!("submissions/{folder}/{name}"),
                format!("Kattis' tools know no `{folder}/` folder"),
            ));
        }
    }
    let reference = package.manifest().reference.iter().map(String::as_str);
    let factor = kept
        .iter()
        .filter(|(folder, _, _)| folder == crate::discovery::ACCEPTED_FOLDER)
        .map(|(_, name, _)| name.as_str())
        .chain(reference)
        .filter_map(|name| config.language_for(Path::new(name)))
        .map(|(_, language)| language.time_factor())
        .fold(1.0, f64::max);
    let time_limit_ms = (package.manifest().limits.time_limit_ms as f64 * factor).ceil() as u64;
    // problemtools runs every exported example (and the reference, which
    // becomes one) under `RLIMIT_AS = memory`: see [`limits`].
    let runs_pypy = kept
        .iter()
        .map(|(_, name, _)| name.as_str())
        .chain(package.manifest().reference.iter().map(String::as_str))
        .any(|name| limits::runs_under_pypy(Path::new(name)));
    let memory = limits::memory(package.manifest().limits.memory_limit_mib, runs_pypy);
    let mut written = Vec::new();
    let mut write =
        |relative: &str, contents: &[u8], executable: bool| -> Result<(), ExportError> {
            let path = dir.join(relative);
            let error = |source| ExportError::Write {
                path: path.clone(),
                source,
            };
            // `std`, not `fs_err`: the error names the file already, and
            // the file is in a staging folder that is gone once it is shown
            // (`command::write_whole`), so the system's reason comes bare.
            if let Some(parent) = path.parent() {
                std::fs::DirBuilder::new()
                    .recursive(true)
                    .create(parent)
                    .map_err(error)?;
            }
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .open(&path)
                .map_err(error)?;
            std::io::Write::write_all(&mut file, contents).map_err(error)?;
            if executable {
                use std::os::unix::fs::PermissionsExt;
                file.set_permissions(std::fs::Permissions::from_mode(0o755))
                    .map_err(error)?;
            }
            written.push(path);
            Ok(())
        };
    let limits = &package.manifest().limits;
    let mut yaml = String::new();
    let _ = writeln!(
        yaml,
        "# Written by `judge export --kattis {}` (problem format {EXPORT_FORMAT}).",
        package.id()
    );
    let _ = writeln!(yaml, "problem_format_version: {EXPORT_FORMAT}");
    let _ = writeln!(yaml, "name: {}", yaml_string(&package.manifest().title));
    let _ = writeln!(yaml, "uuid: {}", package_uuid(package.id()));
    let plays = package.problem().plays_the_submission()
        || polygon.as_ref().is_some_and(|carried| carried.interactive);
    if plays {
        let _ = writeln!(yaml, "type: interactive");
    }
    if !package.manifest().origin.is_empty() {
        let _ = writeln!(yaml, "source: {}", yaml_string(&package.manifest().origin));
    }
    let _ = writeln!(
        yaml,
        "rights_owner: {}",
        yaml_string("the package's authors")
    );
    let _ = writeln!(yaml, "limits:");
    let _ = writeln!(yaml, "  time_limit: {}", time_limit_ms as f64 / 1000.0);
    let _ = writeln!(yaml, "  memory: {}", memory.mib);
    let output_mib = limits::output_mib(limits.output_limit_kib);
    let _ = writeln!(yaml, "  output: {output_mib}");
    write("problem.yaml", yaml.as_bytes(), false)?;
    if let Some(parts) = &programs {
        if !parts.flags.is_empty() {
            write(
                "data/testdata.yaml",
                format!("output_validator_flags: {}\n", yaml_string(&parts.flags)).as_bytes(),
                false,
            )?;
        }
    }

    let statement = match &package.dir() {
        Some(_) if polygon.is_some() => polygon
            .as_ref()
            .and_then(|carried| carried.statement.clone())
            .map(String::into_bytes),
        Some(source) => crate::data_file::read(
            &source.join("statement.md"),
            crate::data_file::MAX_TEST_BYTES,
        )
        .ok(),
        None => crate::config::bundled::file(&format!("{}/statement.md", package.id()))
            .map(<[u8]>::to_vec),
    };
    if let Some(statement) = statement {
        write("statement/problem.en.md", &statement, false)?;
    }

    for test in package.tests() {
        let answer =
            match &test.answer {
                Some(answer) => answer.clone(),
                None => package.problem().solve(&test.input).map_err(|error| {
                    ExportError::Reference {
                        id: package.id().to_owned(),
                        test: test.name.clone(),
                        message: error.to_string(),
                    }
                })?,
            };
        let sample = polygon
            .as_ref()
            .map_or(crate::config::problem::is_sample(&test.name), |carried| {
                carried.samples.contains(&test.name)
            });
        let group = if sample { "sample" } else { "secret" };
        write(
            &format!("data/{group}/{}.in", test.name),
            test.input.as_bytes(),
            false,
        )?;
        write(
            &format!("data/{group}/{}.ans", test.name),
            answer.as_bytes(),
            false,
        )?;
    }

    // The example submissions, filed by verdict as Kattis files them.
    for (folder, name, bytes) in &kept {
        write(&format!("submissions/{folder}/{name}"), bytes, false)?;
    }
    let done = |written| Exported {
        written,
        left_out,
        time_limit_ms,
        memory,
        output_mib,
    };
    if let Some(carried) = &polygon {
        for (relative, bytes, executable) in &carried.files {
            write(relative, bytes, *executable)?;
        }
    }
    let engine = match (&package.problem(), programs) {
        (ProblemRef::Engine(engine), _) => *engine,
        (ProblemRef::Programs(_), Some(parts)) => {
            // The package's own programs.
            let scope = package.dir().map_or(LinkScope::HandIn, LinkScope::package);
            for (from, to) in parts.copies {
                let bytes = carried_bytes(package.id(), &from, &scope)?;
                write(&to, &bytes, false)?;
            }
            return Ok(done(written));
        }
        (ProblemRef::Programs(_), None) => return Ok(done(written)),
    };
    let marker = format!(
        "{ENGINE_MARKER} {} profiles={} lexmin={}",
        engine.id(),
        package.manifest().profiles.join(","),
        package.check_options().lexmin
    );
    if engine.id() == "rooks" {
        // Carried whole (issue #34): the host needs no `judge`.
        let profiles = &package.manifest().profiles;
        let max_size = if profiles.is_empty() {
            crate::problems::rooks::validate::max_size(None)
        } else {
            profiles
                .iter()
                .map(|profile| crate::problems::rooks::validate::max_size(Some(profile)))
                .try_fold(0, |largest, size| size.map(|size| largest.max(size)))
        }
        .map_err(|error| ExportError::Unsupported {
            id: package.id().to_owned(),
            reason: error.to_string(),
        })?;
        write(
            EXPORTED_CHECKER,
            rooks::output_validator(package.id(), &marker).as_bytes(),
            true,
        )?;
        write(
            EXPORTED_VALIDATOR,
            rooks::input_validator(package.id(), &marker, max_size).as_bytes(),
            true,
        )?;
        return Ok(done(written));
    }
    // Carried whole, in C++ (issue #34): the host needs no `judge`.
    let sources = match engine.id() {
        "matchsticks" => Some((
            matchsticks::output_validator(package.id(), &marker),
            matchsticks::input_validator(package.id(), &marker, false),
        )),
        "matchsticks-duel" => Some((
            matchsticks::interactor(package.id(), &marker),
            matchsticks::input_validator(package.id(), &marker, true),
        )),
        "mayan" => Some((
            mayan::output_validator(package.id(), &marker, package.check_options().lexmin),
            mayan::input_validator(package.id(), &marker),
        )),
        _ => None,
    };
    if let Some((checker, validator)) = sources {
        let checker_path = if plays {
            EXPORTED_INTERACTOR_CPP
        } else {
            EXPORTED_CHECKER_CPP
        };
        write(checker_path, checker.as_bytes(), false)?;
        write(EXPORTED_VALIDATOR_CPP, validator.as_bytes(), false)?;
        return Ok(done(written));
    }
    Err(uncarried(package.id(), engine.id()))
}

/// The engines whose validators (or interactor) the export carries whole.
const CARRIED_WHOLE: &[&str] = &["rooks", "matchsticks", "matchsticks-duel", "mayan"];

/// Why a package of an engine not in [`CARRIED_WHOLE`] is not exported.
fn uncarried(id: &str, engine: &str) -> ExportError {
    ExportError::Unsupported {
        id: id.to_owned(),
        reason: format!("the engine `{engine}` has no validators the export can carry whole"),
    }
}

/// What a package with programs of its own becomes: problem.yaml's
/// output validator flags, and the files to copy (source, path
/// in the Kattis package).
struct ProgramParts {
    flags: String,
    copies: Vec<(PathBuf, String)>,
}

/// The Kattis form of a package's programs: the reference becomes an
/// accepted submission, a Kattis-convention validator and output validator
/// are copied, a built-in checker becomes the default output validator with
/// its flags. What Kattis cannot express (a testlib checker or validator,
/// the `lines` checker) is refused with the reason.
fn program_parts(package: &Package) -> Result<ProgramParts, ExportError> {
    use crate::config::problem::{CheckerKind, ValidatorExitCodesToml};
    let unsupported = |reason: &str| ExportError::Unsupported {
        id: package.id().to_owned(),
        reason: reason.to_owned(),
    };
    let Some(dir) = &package.dir() else {
        return Err(unsupported(
            "the package has no folder to copy its programs from",
        ));
    };
    let manifest = &package.manifest();
    let file_name = |file: &str| {
        Path::new(file).file_name().map_or_else(
            || file.to_owned(),
            |name| name.to_string_lossy().into_owned(),
        )
    };
    let stem = |file: &str| {
        Path::new(file).file_stem().map_or_else(
            || file.to_owned(),
            |stem| stem.to_string_lossy().into_owned(),
        )
    };
    // The examples are written by the caller; the reference joins them.
    let mut copies = Vec::new();
    if let Some(reference) = &manifest.reference {
        copies.push((
            dir.join(reference),
            format!("submissions/accepted/{}", file_name(reference)),
        ));
    }
    if let Some(validator) = &manifest.validator {
        if validator.exit_codes != ValidatorExitCodesToml::Kattis {
            return Err(unsupported(
                "its validator follows testlib's exit codes (0 valid) and Kattis expects 42; set \
                 `exit-codes = \"kattis\"` and exit 42 / 43",
            ));
        }
        copies.push((
            dir.join(&validator.program),
            format!(
                "input_validators/{}/{}",
                stem(&validator.program),
                file_name(&validator.program)
            ),
        ));
    }
    let checker = &manifest.checker;
    // Kattis' default output validator ignores case unless told
    // `case_sensitive`; the judge's `tokens` and `float` checkers do not
    // (a `YES` for `Yes` is WA here), so both say it (issue #34 break-it,
    // finding 2). None of the modes exported is whitespace-sensitive (each
    // reads whitespace-separated tokens, as the default validator does
    // without `space_change_sensitive`); `lines`, which is, is refused.
    let flags = match checker.kind.unwrap_or(CheckerKind::Tokens) {
        CheckerKind::Tokens => "case_sensitive".to_owned(),
        CheckerKind::CaseInsensitive => String::new(),
        CheckerKind::Float => format!(
            "case_sensitive float_absolute_tolerance {} float_relative_tolerance {}",
            checker.absolute_tolerance.unwrap_or(1e-6),
            checker.relative_tolerance.unwrap_or(1e-6)
        ),
        CheckerKind::Lines => {
            return Err(unsupported(
                "the `lines` checker has no equivalent in Kattis' default output validator",
            ))
        }
        CheckerKind::Testlib => {
            return Err(unsupported(
                "its checker speaks the testlib protocol; Kattis runs output validators with \
                 another one (`validator input answer feedback_dir < output`, exit 42 / 43)",
            ))
        }
        CheckerKind::Kattis => {
            let Some(program) = &checker.program else {
                return Err(unsupported("its Kattis checker names no program"));
            };
            copies.push((
                dir.join(program),
                format!("output_validator/{}", file_name(program)),
            ));
            String::new()
        }
    };
    Ok(ProgramParts { flags, copies })
}

/// The files of `submissions/<folder>/` (a package's examples) and where
/// they go in the export, by folder then name.
fn submission_copies(submissions: &Path) -> Vec<(PathBuf, String)> {
    let mut copies = Vec::new();
    for folder in fs_err::read_dir(submissions)
        .into_iter()
        .flatten()
        .flatten()
    {
        let folder_name = folder.file_name().to_string_lossy().into_owned();
        for file in fs_err::read_dir(folder.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            if file.path().is_file() {
                let name = file.file_name().to_string_lossy().into_owned();
                copies.push((file.path(), format!("submissions/{folder_name}/{name}")));
            }
        }
    }
    copies.sort();
    copies
}

/// A UUID (the 8-4-4-4-12 form, version 8: custom) derived from the
/// package id, so every export of a package names the same problem.
pub(crate) fn package_uuid(id: &str) -> String {
    let digest = sha2::Sha256::digest(format!("judge export --kattis {id}").as_bytes());
    let mut bytes: [u8; 16] = [0; 16];
    bytes.copy_from_slice(&digest[..16]);
    bytes[6] = (bytes[6] & 0x0f) | 0x80;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex: String = bytes.iter().map(|byte| format!("{byte:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

/// One exported C++ program (issue #34): a header saying what wrote it and
/// what it is, the package's `// judge-engine:` line (so `judge`, reading
/// the export back, grades with the engine), then `parts` in order: one
/// C++17 file, the standard library only, which the judging host compiles.
fn cpp_program(id: &str, marker: &str, about: &str, parts: &[&str]) -> String {
    let mut source = format!(
        "// Written by `judge export --kattis {id}`. {about}\n\
         // Self-contained: one C++17 file, the standard library only.\n\
         // {}\n",
        marker.trim_start_matches("# ")
    );
    for part in parts {
        source.push_str(part);
        if !part.ends_with('\n') {
            source.push('\n');
        }
    }
    source
}

/// A YAML scalar in double quotes, escaped.
fn yaml_string(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

#[cfg(test)]
mod tests {
    /// Every engine's export carries its validators whole (issue #34): a
    /// new engine must say how, or its export is refused.
    #[test]
    fn every_engine_is_carried_whole() {
        for problem in crate::problems::PROBLEMS {
            assert!(
                super::CARRIED_WHOLE.contains(&problem.id()),
                "{}",
                problem.id()
            );
        }
    }
}
