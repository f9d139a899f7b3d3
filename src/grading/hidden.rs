//! What a command keeps from the programs it runs, gathered once (issue
//! #33): the one [`Hidden`] the sandbox takes as a value. It is gathered
//! here, above the runner, from what the command knows: the folders each
//! package it loaded says are secret ([`Package::secret_folders`]), a
//! class's submissions folder, a `--tests` folder, and the folder each
//! submission was handed in from. It is then handed down: to the runner
//! (`runner::RunRequest::hidden`), which gives it to every worker's
//! sandbox, and to each package's programs ([`Package::hide`]). Nothing
//! below this layer adds to it.
//!
//! | command | hides |
//! |---|---|
//! | `run` | its package's secret folders, `--tests DIR`, each submission's folder |
//! | `grade` | the submissions folder, every package's secret folders, each hand-in's folder |
//! | `grade --package DIR` | a `generators.yaml` package's folders, the package's secret folders (DIR's parent among them), each submission's folder |
//! | `stress` | its package's secret folders |
//! | `validate`, `solve`, `check`, `gen`, `interact`, `export`, `problems` | only a package's own programs run: what each package hides from the moment it loads ([`Package::load_hiding`]: for `problems` and `export`, the packages loaded before it too) |
//!
//! A package's programs that run while it loads (a validator checking its
//! tests, a generator) hide what the command gathered before it and the
//! package's own secret folders ([`Gathering::so_far`]).

use crate::package::Package;
use crate::sandbox::{DataFolder, Hidden};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a command hides, as it is gathered.
#[derive(Debug, Default)]
pub(crate) struct Gathering {
    hidden: Hidden,
    /// What was added, so a folder every package names (the problems
    /// folder) is walked once.
    added: Vec<(DataFolder, PathBuf)>,
}

impl Gathering {
    /// Nothing gathered yet.
    pub(crate) fn new() -> Gathering {
        Gathering::default()
    }

    /// Hides `path` for `reason` ([`Hidden::hide`]), once.
    pub(crate) fn add(&mut self, reason: DataFolder, path: &Path) {
        if self
            .added
            .iter()
            .any(|(known, folder)| *known == reason && folder == path)
        {
            return;
        }
        self.hidden.hide(reason, path);
        self.added.push((reason, path.to_owned()));
    }

    /// Hides every folder `package` says is secret.
    pub(crate) fn package(&mut self, package: &Package) {
        for (reason, path) in package.secret_folders() {
            self.add(*reason, path);
        }
    }

    /// Hides each of `folders` for `reason`.
    pub(crate) fn folders(&mut self, folders: &[(DataFolder, PathBuf)]) {
        for (reason, path) in folders {
            self.add(*reason, path);
        }
    }

    /// Hides the folder each of `submissions` was handed in from: one
    /// student's program must not read another's source where it was
    /// handed in (the runs need only their copies in the judge's
    /// workspace).
    pub(crate) fn hand_ins<'a>(&mut self, submissions: impl IntoIterator<Item = &'a Path>) {
        for submission in submissions {
            self.add(DataFolder::HandIn, hand_in_folder(submission));
        }
    }

    /// What is gathered so far: what a package loading now hides, beside
    /// its own secret folders.
    pub(crate) fn so_far(&self) -> &Hidden {
        &self.hidden
    }

    /// The command's one value: handed to the programs of each of
    /// `packages` from their next run on, and returned for the runner.
    pub(crate) fn done<'a>(self, packages: impl IntoIterator<Item = &'a Package>) -> Arc<Hidden> {
        let hidden = Arc::new(self.hidden);
        for package in packages {
            package.hide(&hidden);
        }
        hidden
    }
}

/// The folder `submission` was handed in from: its parent, or the working
/// folder for a bare file name.
pub(crate) fn hand_in_folder(submission: &Path) -> &Path {
    match submission.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hand_in_folder_is_its_parent_or_the_working_folder() {
        assert_eq!(
            hand_in_folder(Path::new("class/rooks/alice.c")),
            Path::new("class/rooks")
        );
        assert_eq!(hand_in_folder(Path::new("alice.c")), Path::new("."));
        assert_eq!(hand_in_folder(Path::new("/alice.c")), Path::new("/"));
    }

    /// A package looked up in a problems folder names the folder, its
    /// tests and its whole folder; a bundled one names nothing; what is
    /// gathered hides each, and a package given the value hides it too.
    #[test]
    fn a_package_says_its_secret_folders_and_the_gathering_hides_them() {
        let problems = tempfile::tempdir().unwrap();
        let problems_dir = fs_err::canonicalize(problems.path()).unwrap();
        let dir = problems_dir.join("rooks");
        fs_err::create_dir_all(dir.join("tests")).unwrap();
        fs_err::write(
            dir.join("problem.toml"),
            crate::config::bundled::file("rooks/problem.toml").unwrap(),
        )
        .unwrap();
        let package = Package::load(Some(&problems_dir), "rooks").unwrap();
        assert_eq!(
            package.secret_folders(),
            [
                (DataFolder::ProblemsFolder, problems_dir.clone()),
                (DataFolder::PackageTests, dir.join("tests")),
                (DataFolder::PackageFolder, dir.clone()),
            ]
        );
        let bundled = Package::load(Some(&problems_dir), "mayan").unwrap();
        assert_eq!(
            bundled.secret_folders(),
            [(DataFolder::ProblemsFolder, problems_dir.clone())]
        );
        assert!(Package::bundled("mayan")
            .unwrap()
            .secret_folders()
            .is_empty());

        let hand_in = problems.path().join("alice");
        fs_err::create_dir(&hand_in).unwrap();
        let mut gathering = Gathering::new();
        gathering.package(&package);
        gathering.package(&bundled);
        gathering.hand_ins([hand_in.join("rooks.c").as_path()]);
        assert_eq!(
            gathering.added,
            [
                (DataFolder::ProblemsFolder, problems_dir.clone()),
                (DataFolder::PackageTests, dir.join("tests")),
                (DataFolder::PackageFolder, dir.clone()),
                (DataFolder::HandIn, hand_in.clone()),
            ]
        );
        let hidden = gathering.done([&package]);
        let masked: Vec<&Path> = hidden.masked_folders().collect();
        assert!(masked.contains(&problems_dir.as_path()), "{masked:?}");
        assert!(masked.contains(&dir.join("tests").as_path()), "{masked:?}");
        assert!(!masked.contains(&dir.as_path()), "{masked:?}");
        assert!(hidden.lending_refused(&dir).is_some());
    }
}
