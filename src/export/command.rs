//! `judge export`'s decisions around the export itself
//! ([`crate::export`]): the packages it reads, which folder or zip it may
//! write (a Kattis package whole or not at all: `write_whole`), and what
//! it says once it wrote. `cli/export.rs` takes the
//! arguments and makes one call: [`run_kattis`] or [`run_gradescope`].

use crate::config::judge::JudgeConfig;
use crate::config::ConfigError;
use crate::export::{ExportError, Exported, EXPORT_FORMAT};
use crate::grading::usage::UsageError;
use crate::grading::GradingError;
use crate::package::{Package, ProblemRef};
use std::collections::BTreeSet;
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
    let exported = write_whole(dir, |staging| {
        crate::export::kattis(&package, staging, &config)
    })?;
    Ok(lines(&package, dir, &exported, &config))
}

/// Writes an export into `dir` (a new folder, or an empty one) whole or
/// not at all (issue #34 break-it, finding 4: a disk that filled up left a
/// `problem.yaml` without validators, and the retry refused the folder).
/// `write` fills a staging folder: for a new `dir`, a hidden sibling of it,
/// renamed into place at the end; for an empty `dir`, a hidden folder in
/// it, whose entries are moved up at the end (so `dir` itself, its owner
/// and mode, and a mount point stay). On any failure the staging folder is
/// removed, and `dir` is as it was: absent or empty. A `dir` that cannot be
/// made (its folder is read-only, or not the user's) is a usage error
/// naming it, found before anything is written.
fn write_whole(
    dir: &Path,
    write: impl FnOnce(&Path) -> Result<Exported, ExportError>,
) -> Result<Exported, CommandError> {
    use std::os::unix::fs::PermissionsExt as _;
    let exists = dir.is_dir();
    let folder = if exists {
        dir.to_owned()
    } else {
        match dir.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_owned(),
            _ => PathBuf::from("."),
        }
    };
    let unwritable = |error: std::io::Error| {
        CommandError::from(GradingError::from(UsageError::TargetUnwritable {
            path: dir.to_owned(),
            folder: folder.clone(),
            error,
        }))
    };
    std::fs::DirBuilder::new()
        .recursive(true)
        .create(&folder)
        .map_err(unwritable)?;
    // An ordinary new folder's mode (0777 less the umask), not a temporary
    // folder's 0700: the export is meant to be shared.
    let staging = tempfile::Builder::new()
        .prefix(".judge-export-")
        .permissions(std::fs::Permissions::from_mode(0o777))
        .tempdir_in(&folder)
        .map_err(unwritable)?;
    // What is said about the staging folder is said about `dir`.
    let in_dir = |path: &Path| match path.strip_prefix(staging.path()) {
        Ok(relative) => dir.join(relative),
        Err(_) => path.to_owned(),
    };
    let mut exported = write(staging.path()).map_err(|error| match error {
        ExportError::Write { path, source } => ExportError::Write {
            path: in_dir(&path),
            source,
        },
        other => other,
    })?;
    for path in &mut exported.written {
        *path = in_dir(path);
    }
    let failed = |source| ExportError::Write {
        path: dir.to_owned(),
        source,
    };
    if exists {
        let entries: Vec<PathBuf> = fs_err::read_dir(staging.path())
            .and_then(|entries| {
                entries
                    .map(|entry| entry.map(|entry| entry.path()))
                    .collect()
            })
            .map_err(failed)?;
        let mut moved: Vec<PathBuf> = Vec::new();
        for entry in entries {
            let Some(name) = entry.file_name() else {
                continue;
            };
            let to = dir.join(name);
            if let Err(error) = fs_err::rename(&entry, &to) {
                // Back to an empty `dir`: what was moved goes too.
                for path in &moved {
                    let _ = remove_any(path);
                }
                return Err(failed(error).into());
            }
            moved.push(to);
        }
    } else {
        fs_err::rename(staging.path(), dir).map_err(failed)?;
        // Renamed: nothing is left to remove.
        let _ = staging.keep();
    }
    Ok(exported)
}

/// Removes `path`, a file or a folder with everything in it.
fn remove_any(path: &Path) -> std::io::Result<()> {
    if fs_err::symlink_metadata(path)?.is_dir() {
        fs_err::remove_dir_all(path)
    } else {
        fs_err::remove_file(path)
    }
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
        crate::report::gradescope::hidden_tests(&config.report),
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
    if !dir.exists() && fs_err::symlink_metadata(dir).is_ok() {
        return Err(UsageError::TargetIsADanglingLink {
            path: dir.to_owned(),
        }
        .into());
    }
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
fn lines(package: &Package, dir: &Path, exported: &Exported, config: &JudgeConfig) -> Vec<String> {
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
    if let Some(line) = crate::export::output_line(
        package.manifest().limits.output_limit_kib,
        exported.output_mib,
    ) {
        lines.push(line);
    }
    let languages = example_languages(exported, config);
    if !languages.is_empty() {
        lines.push(format!(
            "examples in {}: a host that judges the package needs each of these languages' \
             compilers or interpreters (`verifyproblem` fails an example it cannot compile)",
            languages.into_iter().collect::<Vec<_>>().join(", ")
        ));
    }
    lines
}

/// The languages (judge.toml's names) of the examples an export wrote
/// under `submissions/`: a contest's judging host often lacks one (Rust,
/// Kotlin), so the export says which it needs (issue #34 break-it, 19).
fn example_languages(exported: &Exported, config: &JudgeConfig) -> BTreeSet<String> {
    exported
        .written
        .iter()
        .filter(|path| {
            path.components()
                .any(|part| part.as_os_str() == "submissions")
        })
        .filter_map(|path| config.language_for(path))
        .map(|(name, _)| name.to_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_new_or_empty_folder_is_exported_into() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        refuse_target(&dir.path().join("new"), None).expect("a new folder");
        // A link to nothing is refused as such (break-it 45: exit 3).
        std::os::unix::fs::symlink("nowhere", dir.path().join("dangling")).expect("link");
        let error = refuse_target(&dir.path().join("dangling"), None).expect_err("dangling");
        assert!(
            error
                .to_string()
                .ends_with("dangling` is a link to nothing; the export is a new or empty folder"),
            "{error}"
        );
        fs_err::remove_file(dir.path().join("dangling")).expect("rm");
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
            output_mib: 1,
        };
        let config = JudgeConfig::load_or_defaults(None).expect("the defaults");
        let same = lines(&package, Path::new("out"), &exported(limit), &config);
        // rooks' 64 KiB of output is 1 MiB to Kattis, which is said last.
        assert_eq!(same.len(), 3, "{same:?}");
        assert!(
            same[2].starts_with("output: 1 MiB, not the package's 64 KiB"),
            "{same:?}"
        );
        assert_eq!(same[0], "not exported: submissions/x/a.py: why");
        assert!(
            same[1].ends_with(
                "its validators are carried whole, as source the judging host runs (it needs no \
                 `judge`)"
            ),
            "{same:?}"
        );
        let longer = lines(&package, Path::new("out"), &exported(limit * 2), &config);
        assert!(longer[2].starts_with("time limit: "), "{longer:?}");
    }

    /// See: issue #34 (break-it 19). The export names the languages of the
    /// examples it wrote, and only theirs, so a setter knows the judging
    /// host needs rustc for a Rust example.
    #[test]
    fn the_languages_of_the_exported_examples_are_said() {
        let package = Package::bundled("rooks").expect("bundled");
        let config = JudgeConfig::load_or_defaults(None).expect("the defaults");
        let exported = Exported {
            written: [
                "problem.yaml",
                "submissions/accepted/a.rs",
                "submissions/accepted/b.cpp",
                "submissions/wrong_answer/c.rs",
                "input_validators/v/v.py",
            ]
            .iter()
            .map(|path| Path::new("staging").join(path))
            .collect(),
            left_out: Vec::new(),
            time_limit_ms: package.manifest().limits.time_limit_ms,
            memory: crate::export::Memory {
                mib: package.manifest().limits.memory_limit_mib,
                pypy_allowance_mib: 0,
            },
            output_mib: 1,
        };
        let said = lines(&package, Path::new("out"), &exported, &config);
        let last = said.last().expect("lines");
        assert!(
            last.starts_with("examples in cpp, rust: a host that judges the package needs each"),
            "{said:?}"
        );
        let none = Exported {
            written: vec![Path::new("staging/input_validators/v/v.py").to_owned()],
            ..exported
        };
        let said = lines(&package, Path::new("out"), &none, &config);
        assert!(
            !said.iter().any(|line| line.starts_with("examples in")),
            "{said:?}"
        );
    }
}
