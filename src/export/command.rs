//! `judge export`'s decisions around the export itself
//! ([`crate::export`]): the packages it reads, which folder or zip it may
//! write, and what it says once it wrote. `cli/export.rs` takes the
//! arguments and makes one call: [`run_kattis`] or [`run_gradescope`].

use crate::config::judge::JudgeConfig;
use crate::config::ConfigError;
use crate::export::{ExportError, Exported, EXPORT_FORMAT};
use crate::grading::usage::UsageError;
use crate::grading::GradingError;
use crate::package::{Package, ProblemRef};
use std::path::{Path, PathBuf};

/// Why `judge export` wrote nothing: the error of the layer that refused,
/// kept as it is, so the top-level error (and its exit code) is that
/// layer's.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CommandError {
    /// A problem or a target the command line names cannot be used.
    #[error(transparent)]
    Grading(#[from] GradingError),
    /// A package or judge.toml is wrong.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The export itself failed.
    #[error(transparent)]
    Export(#[from] ExportError),
}

/// `judge export --kattis PROBLEM DIR`: loads the package (from
/// `problems_dir`, else the bundled ones), refuses a `dir` in the way,
/// writes the package and returns what to say.
pub(crate) fn run_kattis(
    problems_dir: Option<&Path>,
    problem: &str,
    dir: &Path,
) -> Result<Vec<String>, CommandError> {
    let package = Package::load(problems_dir, problem)?;
    refuse_target(dir, package.dir())?;
    let config = JudgeConfig::load_or_defaults(None)?;
    let exported = crate::export::kattis(&package, dir, &config)?;
    Ok(lines(&package, dir, &exported))
}

/// `judge export --gradescope PROBLEM... OUT`: loads each package (each
/// checked to exist and be whole before anything is written), refuses an
/// `out` that is a folder, checks `languages` (judge.toml's names, every
/// configured one when empty), writes the zip with the running judge in it
/// and returns what to say.
pub(crate) fn run_gradescope(
    problems_dir: Option<&Path>,
    problems: &[PathBuf],
    languages: &[String],
    out: &Path,
) -> Result<Vec<String>, CommandError> {
    let mut packages = Vec::new();
    // The programs of each package (checking its tests as it loads) hide
    // what those loaded before it say is secret, and its own.
    let mut hidden = crate::grading::hidden::Gathering::new();
    for problem in problems {
        let id = crate::package::parse_id(&problem.to_string_lossy())
            .map_err(|bad| GradingError::from(UsageError::BadProblemId(bad)))?;
        let package = Package::load_hiding(problems_dir, &id, None, hidden.so_far())?;
        hidden.package(&package);
        packages.push(package);
    }
    if out.is_dir() {
        return Err(GradingError::from(UsageError::ZipIsAFolder {
            path: out.to_owned(),
        })
        .into());
    }
    let config = JudgeConfig::load_or_defaults(None)?;
    let all_languages = languages.is_empty();
    let languages = crate::export::submission_languages(languages, &config)?;
    let judge = std::env::current_exe().map_err(|source| ExportError::Write {
        path: Path::new("judge").to_owned(),
        source,
    })?;
    let written = crate::export::gradescope(
        &packages,
        problems_dir,
        &languages,
        all_languages,
        config.report.gradescope.hidden_tests,
        &judge,
        out,
    )?;
    let mut lines: Vec<String> = written
        .warnings
        .iter()
        .map(|warning| format!("warning: {warning}"))
        .collect();
    lines.push(format!(
        "wrote `{}`: {}",
        written.zip.display(),
        written.files.join(", ")
    ));
    Ok(lines)
}

/// Refuses to export into `dir` when it exists and is not an empty folder,
/// or when it is inside `package`, the exported package's own folder (a
/// usage error: nothing is written over, and a package is never written
/// into; issue #29 break-it).
fn refuse_target(dir: &Path, package: Option<&Path>) -> Result<(), GradingError> {
    if dir.exists() && !dir.is_dir() {
        return Err(UsageError::TargetIsAFile {
            path: dir.to_owned(),
        }
        .into());
    }
    if dir.exists() && fs_err::read_dir(dir)?.next().is_some() {
        return Err(UsageError::TargetNotEmpty {
            path: dir.to_owned(),
        }
        .into());
    }
    if let Some(package) = package {
        let (Some(target), Ok(own)) = (resolved(dir), fs_err::canonicalize(package)) else {
            return Ok(());
        };
        if target.starts_with(&own) {
            return Err(UsageError::TargetInPackage {
                path: dir.to_owned(),
                package: package.to_owned(),
            }
            .into());
        }
    }
    Ok(())
}

/// `path` made absolute, its `..` undone and the part of it that exists
/// with its links followed: where a folder made at `path` would be.
fn resolved(path: &Path) -> Option<PathBuf> {
    use std::path::Component;
    let mut lexical = PathBuf::new();
    for component in std::path::absolute(path).ok()?.components() {
        match component {
            Component::ParentDir => {
                lexical.pop();
            }
            Component::CurDir => {}
            other => lexical.push(other),
        }
    }
    let mut existing = lexical.as_path();
    while !existing.exists() {
        existing = existing.parent()?;
    }
    let rest = lexical.strip_prefix(existing).ok()?;
    Some(fs_err::canonicalize(existing).ok()?.join(rest))
}

/// What `judge export` says once `package` is written into `dir`: each
/// example left out and why, where it wrote, what its validators run, and
/// the one time limit when it is not the package's (Kattis has no
/// per-language factor).
fn lines(package: &Package, dir: &Path, exported: &Exported) -> Vec<String> {
    let mut lines: Vec<String> = exported
        .left_out
        .iter()
        .map(|(path, reason)| format!("not exported: {path}: {reason}"))
        .collect();
    // A package with programs of its own exports its own validators; an
    // engine's are carried whole (issue #34).
    let runs_judge = if matches!(package.problem(), ProblemRef::Engine(_)) {
        "; its validators are carried whole, as source the judging host runs (it needs no `judge`)"
    } else {
        "; its validators are the package's own"
    };
    lines.push(format!(
        "wrote `{}` as a Kattis package (problem format {EXPORT_FORMAT}) in `{}` ({} files){runs_judge}",
        package.id(),
        dir.display(),
        exported.written.len()
    ));
    if matches!(package.problem(), ProblemRef::Engine(_))
        && package.problem().plays_the_submission()
    {
        lines.push(
            "interactor: among equally good replies the exported one plays the first (in the \
             judge's order of moves), where judge picks by the test's seed: a submission that \
             plays every game perfectly wins on both, one that errs may meet other replies there"
                .to_owned(),
        );
    }
    if exported.time_limit_ms != package.manifest().limits.time_limit_ms {
        lines.push(format!(
            "time limit: {} s for every language (Kattis has no per-language factor): the \
             package's {} ms times the largest time-factor of its accepted examples' languages",
            exported.time_limit_ms as f64 / 1000.0,
            package.manifest().limits.time_limit_ms
        ));
    }
    if let Some(line) =
        crate::export::memory_line(package.manifest().limits.memory_limit_mib, exported.memory)
    {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_new_or_empty_folder_is_exported_into() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        refuse_target(&dir.path().join("new"), None).expect("a new folder");
        refuse_target(dir.path(), None).expect("an empty folder");
        fs_err::write(dir.path().join("x"), "x").expect("write");
        let error = refuse_target(dir.path(), None).expect_err("not empty");
        assert!(
            matches!(
                error,
                GradingError::Usage(UsageError::TargetNotEmpty { .. })
            ),
            "{error}"
        );
        assert!(error
            .to_string()
            .ends_with("exists and is not an empty folder"));
        let error = refuse_target(&dir.path().join("x"), None).expect_err("a file");
        assert!(
            error
                .to_string()
                .ends_with("x` exists and is a file; the export is a folder"),
            "{error}"
        );
    }

    /// See: issue #29 break-it. An export was written into the package
    /// it was made of.
    #[test]
    fn the_packages_own_folder_is_never_exported_into() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let package = dir.path().join("sum");
        fs_err::create_dir_all(package.join("tests")).expect("mkdir");
        for inside in [
            package.join("kattis"),
            package.join("tests/new/deeper"),
            package.join("missing/../kattis"),
        ] {
            let error = refuse_target(&inside, Some(&package)).expect_err("inside");
            assert!(
                error
                    .to_string()
                    .contains("is inside the package's own folder"),
                "{error}"
            );
        }
        refuse_target(&dir.path().join("sum-kattis"), Some(&package)).expect("beside it");
        refuse_target(&package.join("../out"), Some(&package)).expect("out through ..");
    }

    #[test]
    fn gradescope_refuses_a_bad_problem_and_a_folder_for_the_zip() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let error =
            run_gradescope(None, &[PathBuf::from("rooks")], &[], dir.path()).expect_err("a folder");
        assert!(
            matches!(
                &error,
                CommandError::Grading(GradingError::Usage(UsageError::ZipIsAFolder { .. }))
            ),
            "{error}"
        );
        assert!(error
            .to_string()
            .ends_with("is a folder; name the zip to write"));
        let zip = dir.path().join("a.zip");
        let error =
            run_gradescope(None, &[PathBuf::from("../rooks")], &[], &zip).expect_err("not an id");
        assert!(
            matches!(
                &error,
                CommandError::Grading(GradingError::Usage(UsageError::BadProblemId(_)))
            ),
            "{error}"
        );
        let error = run_gradescope(None, &[PathBuf::from("no-such-problem")], &[], &zip)
            .expect_err("no package");
        assert!(matches!(&error, CommandError::Config(_)), "{error}");
        assert!(!zip.exists());
    }

    #[test]
    fn the_time_limit_is_said_when_it_is_not_the_packages() {
        let package = Package::bundled("rooks").expect("bundled");
        let limit = package.manifest().limits.time_limit_ms;
        let exported = |time_limit_ms| Exported {
            written: Vec::new(),
            left_out: vec![("submissions/x/a.py".to_owned(), "why".to_owned())],
            time_limit_ms,
            memory: crate::export::Memory {
                mib: package.manifest().limits.memory_limit_mib,
                pypy_allowance_mib: 0,
            },
        };
        let same = lines(&package, Path::new("out"), &exported(limit));
        assert_eq!(same.len(), 2, "{same:?}");
        assert_eq!(same[0], "not exported: submissions/x/a.py: why");
        assert!(
            same[1].ends_with(
                "its validators are carried whole, as source the judging host runs (it needs no \
                 `judge`)"
            ),
            "{same:?}"
        );
        let longer = lines(&package, Path::new("out"), &exported(limit * 2));
        assert!(longer[2].starts_with("time limit: "), "{longer:?}");
    }
}
