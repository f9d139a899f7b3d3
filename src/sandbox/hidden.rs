//! What the sandbox hides, as a value: [`Hidden`] holds the judge's data
//! folders (tests, packages, a class's hand-ins) and what their symbolic
//! links point to, which every run's mount namespace covers, and the data
//! no compile is lent (see [`Hidden::hide`] and [`Hidden::lending_refused`]).
//! The rules live on the value, so a test (or a second backend) builds its
//! own and asks it.
//!
//! There is no table of the process: a [`Sandbox`](super::Sandbox) hides
//! what it is given when it is made ([`Sandbox::new`](super::Sandbox::new)),
//! a [`SandboxPool`](super::SandboxPool) what its owner last gave it, and
//! nothing else. That is the seam a second backend takes: it is handed
//! what to hide. Each command builds its one value above the runner (issue
//! #33): the grading layer gathers it (`grading::hidden`) from the folders
//! each package says are secret (`Package::secret_folders`) and the folders
//! the command itself reads, and hands it to the runner (`RunRequest`) and
//! to each package's programs (`Package::hide`). While a package loads, its
//! own programs (a validator checking its tests, a generator) hide what the
//! command hid before and the package's secret folders. Who says what, and
//! why:
//!
//! | reason | said by | why |
//! |---|---|---|
//! | [`DataFolder::Tests`] | `grading::run` | `judge run --tests DIR`: the answers |
//! | [`DataFolder::ProblemsFolder`] | `package` (its loader) | a package looked up in `--problems-dir DIR`, or the folder holding `grade --package DIR`: every package's tests |
//! | [`DataFolder::PackageTests`] | `package::native`, `package::polygon` | a package's `tests/`, and Polygon's generated tests |
//! | [`DataFolder::KattisData`] | `package::kattis`, `package::generators` | a Kattis package's `data/`, and a `generators.yaml` package's cache of made cases |
//! | [`DataFolder::Submissions`] | `grading::class`, `package::generators` | a class's submissions folder, and a package's `submissions/` |
//! | [`DataFolder::HandIn`] | the grading layer (`run`, `grade`, `grade --package`) | the folder each submission was handed in from: its neighbours' sources |
//! | [`DataFolder::PackageFolder`] | every package format | a package's whole folder (its solutions and submissions): kept from compiles, not masked |
//!
//! A value only grows while it is gathered: a folder once added stays
//! hidden from every run given the value.

use super::aliases::Identities;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

/// Why a folder is out of every run's reach (see the module's table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataFolder {
    /// A folder of `NAME.in`/`NAME.ans` tests: the answers.
    Tests,
    /// A `--problems-dir` folder: every package's tests and answers.
    ProblemsFolder,
    /// A judge package's `tests/` folder.
    PackageTests,
    /// A Kattis package's `data/` folder.
    KattisData,
    /// A class's submissions folder: other students' hand-ins.
    Submissions,
    /// The folder a submission was handed in from: its neighbours' sources.
    HandIn,
    /// A package's whole folder, with its solutions and submissions: no
    /// compile is lent it or anything in it, but it is not masked (its
    /// tests and data are, for their own reasons).
    PackageFolder,
}

impl DataFolder {
    /// How far the folder keeps a compile's lent folders away: the folder a
    /// hand-in of `judge run` lies in (often the working folder or a home
    /// folder) refuses only a lent folder that is or holds it, so a rustup
    /// sysroot in `~/.rustup` is still lent; every other data folder
    /// refuses one that lies inside it too.
    fn reach(self) -> Reach {
        match self {
            DataFolder::HandIn => Reach::Holding,
            DataFolder::Tests
            | DataFolder::ProblemsFolder
            | DataFolder::PackageTests
            | DataFolder::KattisData
            | DataFolder::Submissions
            | DataFolder::PackageFolder => Reach::Whole,
        }
    }
}

/// What the sandbox must hide: the data folders every run's mount
/// namespace covers (each with why), the files links in them point to
/// (each covered by an empty file), and the data no compile is lent, by
/// path and by identity.
#[derive(Default)]
pub struct Hidden {
    folders: Vec<(PathBuf, DataFolder)>,
    files: Vec<PathBuf>,
    guarded: Vec<(PathBuf, Reach)>,
    identities: Identities,
    /// Held by a walk of a lent folder for aliases ([`Hidden::lending_refused`]):
    /// compiles starting together on every worker walk a folder once.
    walks: Mutex<()>,
}

impl Clone for Hidden {
    /// The same folders, files and data; the lending answers are asked
    /// again.
    fn clone(&self) -> Hidden {
        Hidden {
            folders: self.folders.clone(),
            files: self.files.clone(),
            guarded: self.guarded.clone(),
            identities: self.identities.snapshot(),
            walks: Mutex::default(),
        }
    }
}

impl std::fmt::Debug for Hidden {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hidden")
            .field("folders", &self.folders)
            .field("files", &self.files.len())
            .field("guarded", &self.guarded.len())
            .finish()
    }
}

impl Hidden {
    /// Nothing hidden.
    pub fn new() -> Hidden {
        Hidden::default()
    }

    /// Adds the data folder `path`, hidden for `reason`: no compile is
    /// lent it (see `Hidden::lending_refused`; for [`DataFolder::HandIn`],
    /// only a lent folder that is or holds it), and, for every reason but
    /// [`DataFolder::PackageFolder`], every run's mount namespace masks it.
    ///
    /// Masked, an empty tmpfs covers the folder in every worker's mount
    /// namespace, as root and without, and only a program a run needs
    /// inside it is bound back. A path the judge cannot resolve, `/` or a
    /// top-level folder (`/usr`, `/etc`: programs need them) is left as it
    /// is. Landlock lets a run read `/usr` and `/etc`, and without root a
    /// run is the teacher's own user, so file modes do not keep tests there
    /// from it (issue 18).
    ///
    /// Symbolic links inside the folder (as git-annex or dvc keep data) are
    /// followed to their targets: the folder holding all of them
    /// (git-annex's `.git/annex/objects`, dvc's cache) is masked the same
    /// way, or, where they share no such folder, each target folder is
    /// masked and each target file covered by an empty file, so the answer
    /// is not read at the path a link points to either. A folder programs
    /// load code from (`/usr/lib`, `/usr/local/bin`, `/etc`, ...), or one
    /// holding such a folder, is never masked: a linked file there is
    /// covered alone, and a link to such a folder is not followed.
    ///
    /// `reason` is kept with each folder added (a link target's folder
    /// takes the reason of the folder linking to it); a folder already in
    /// the list keeps its first reason.
    pub fn hide(&mut self, reason: DataFolder, path: &Path) {
        if reason == DataFolder::PackageFolder {
            self.guard(path);
            return;
        }
        let reach = reason.reach();
        let Ok(real) = fs_err::canonicalize(path) else {
            return;
        };
        self.guard_real(&real, reach);
        if !maskable(&real) {
            return;
        }
        let (folders, files) = link_targets(&real);
        for folder in &folders {
            self.guard_real(folder, reach);
        }
        for folder in std::iter::once(real).chain(folders) {
            if !self.folders.iter().any(|(known, _)| *known == folder) {
                self.folders.push((folder, reason));
            }
        }
        for file in files {
            if !self.files.contains(&file) {
                self.files.push(file);
            }
        }
        self.folders.sort_by(|a, b| a.0.cmp(&b.0));
        self.files.sort();
    }

    /// This value and `more` ([`Hidden::hide`] of each, in order): what a
    /// package's programs hide while it loads, what the command hid before
    /// and the package's own secret folders.
    pub(crate) fn with(&self, more: &[(DataFolder, PathBuf)]) -> Hidden {
        let mut hidden = self.clone();
        for (reason, path) in more {
            hidden.hide(*reason, path);
        }
        hidden
    }

    /// Records `path` as the judge's data no compile is lent, without
    /// masking it.
    fn guard(&mut self, path: &Path) {
        if let Ok(real) = fs_err::canonicalize(path) {
            self.guard_real(&real, Reach::Whole);
        }
    }

    /// Records `real` (resolved) as data no compile is lent, whether or
    /// not it can be masked; `/` guards nothing (every lent folder lies in
    /// it).
    fn guard_real(&mut self, real: &Path, reach: Reach) {
        if real.parent().is_none() {
            return;
        }
        self.identities.record(real, reach == Reach::Whole);
        match self.guarded.iter_mut().find(|(path, _)| path == real) {
            Some(entry) if reach == Reach::Whole => entry.1 = Reach::Whole,
            Some(_) => {}
            None => self.guarded.push((real.to_path_buf(), reach)),
        }
    }

    /// The masked folders (and the link targets' folders), in path order.
    pub(crate) fn masked_folders(&self) -> impl Iterator<Item = &Path> {
        self.folders.iter().map(|(folder, _)| folder.as_path())
    }

    /// The files link targets of data folders point to, covered by an
    /// empty file in every run's mount namespace.
    pub(crate) fn link_files(&self) -> &[PathBuf] {
        &self.files
    }

    /// Why `folder` is masked, if it is.
    #[cfg(test)]
    fn reason_for(&self, folder: &Path) -> Option<DataFolder> {
        self.folders
            .iter()
            .find(|(known, _)| known == folder)
            .map(|(_, reason)| *reason)
    }
}

/// How far a guarded folder keeps lending away: [`Reach::Whole`] refuses a
/// lent folder that is, holds or lies inside it; [`Reach::Holding`] one
/// that is or holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reach {
    Whole,
    Holding,
}

/// Folders programs and compilers load code from: never masked whole.
const PROGRAM_FOLDERS: &[&str] = &[
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/usr/bin",
    "/usr/sbin",
    "/usr/lib",
    "/usr/lib32",
    "/usr/lib64",
    "/usr/libx32",
    "/usr/libexec",
    "/usr/include",
    "/usr/share/java",
    "/usr/local/bin",
    "/usr/local/sbin",
    "/usr/local/lib",
    "/usr/local/include",
    "/etc",
    "/proc",
    "/dev",
    "/sys",
];

/// Whether `folder` (resolved) may be covered by an empty tmpfs: a folder
/// below the top level that neither is nor holds nor lies in a folder
/// programs load code from.
fn maskable(folder: &Path) -> bool {
    folder.components().count() >= 3
        && folder.is_dir()
        && !PROGRAM_FOLDERS
            .iter()
            .any(|system| folder.starts_with(system) || Path::new(system).starts_with(folder))
}

/// The resolved targets of the symbolic links under `folder` that point
/// outside it: folders to mask and files to cover.
fn link_targets(folder: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut folders = Vec::new();
    let mut files = Vec::new();
    // At every depth (issue 35): a link deeper than a fixed depth would
    // be followed by a run without its target being covered.
    for entry in super::walk::every_depth(folder)
        .filter_map(Result::ok)
        .filter(|entry| entry.path_is_symlink())
    {
        let Ok(target) = fs_err::canonicalize(entry.path()) else {
            continue;
        };
        if target.starts_with(folder) {
            continue;
        }
        if target.is_dir() {
            if maskable(&target) {
                folders.push(target);
            }
        } else if target.is_file() {
            files.push(target);
        }
    }
    // One mount for all of them where they share a folder that may be
    // masked (thousands of linked tests would otherwise be thousands of
    // mounts in every worker's namespace).
    let common = folders
        .iter()
        .cloned()
        .chain(
            files
                .iter()
                .filter_map(|file| file.parent().map(Path::to_path_buf)),
        )
        .reduce(|common, path| {
            common
                .ancestors()
                .find(|ancestor| path.starts_with(ancestor))
                .map_or_else(PathBuf::new, Path::to_path_buf)
        });
    if let Some(common) = common.filter(|common| maskable(common)) {
        return (vec![common], Vec::new());
    }
    folders.sort();
    folders.dedup();
    files.sort();
    files.dedup();
    (folders, files)
}

impl Hidden {
    /// Why a compile may not be lent `folder` (a toolchain folder read
    /// beside the system's, issue 18): it is, holds or resolves to the
    /// judge's data (a tests folder, a package folder, a class's hand-ins,
    /// the target of a link in one) or the judge's own binary, or it lies
    /// inside such a data folder; compared on resolved paths, so a link
    /// beside a wrapper's `bin/` pointing at the tests is refused as the
    /// tests are. `None` when it may be lent.
    ///
    /// The path rules are read first; a walk of `folder` for aliases (a
    /// hard link, a bind mount of the data) is made one at a time, so
    /// compiles starting together on every worker walk a lent folder once,
    /// and its answer is kept for every sandbox sharing this value.
    pub(crate) fn lending_refused(&self, folder: &Path) -> Option<String> {
        let (real, exe) = match self.refused_by_path(folder) {
            Lending::Decided(answer) => return answer,
            Lending::AskIdentities { real, exe } => (real, exe),
        };
        if let Some(answer) = self.identities.cached(&real) {
            return answer;
        }
        let _walking = self.walks.lock().unwrap_or_else(PoisonError::into_inner);
        // Another compile may have walked it while this one waited.
        if let Some(answer) = self.identities.cached(&real) {
            return answer;
        }
        let answer = self.identities.look(&real, exe.as_deref());
        self.identities
            .remember(&real, self.identities.generation(), answer.clone());
        answer
    }
}

/// What the path rules of [`Hidden::refused_by_path`] say of a lent
/// folder.
enum Lending {
    /// Refused (with why), or lent as every run may read it anyway.
    Decided(Option<String>),
    /// For the identities to say: the folder resolved, and the judge's own
    /// binary.
    AskIdentities { real: PathBuf, exe: Option<PathBuf> },
}

impl Hidden {
    /// The path rules of [`Hidden::lending_refused`]: the data by path, the
    /// judge's binary, the folders every run reads.
    fn refused_by_path(&self, folder: &Path) -> Lending {
        let Ok(real) = fs_err::canonicalize(folder) else {
            return Lending::Decided(Some("it cannot be resolved".to_owned()));
        };
        let shown = |data: &Path| {
            if data == real {
                format!("it is the judge's data `{}`", data.display())
            } else if data.starts_with(&real) {
                format!("it holds the judge's data `{}`", data.display())
            } else {
                format!("it lies inside the judge's data `{}`", data.display())
            }
        };
        let refused = self
            .guarded
            .iter()
            .find(|(data, reach)| {
                data.starts_with(&real) || (*reach == Reach::Whole && real.starts_with(data))
            })
            .map(|(data, _)| data)
            .or_else(|| self.files.iter().find(|file| file.starts_with(&real)));
        if let Some(data) = refused {
            return Lending::Decided(Some(shown(data)));
        }
        let exe = std::env::current_exe().and_then(fs_err::canonicalize).ok();
        if let Some(exe) = exe.as_ref().filter(|exe| exe.starts_with(&real)) {
            return Lending::Decided(Some(format!(
                "it holds the judge's own binary `{}`",
                exe.display()
            )));
        }
        // The same data under another name: a bind mount, a hard link. A
        // system folder (`/usr/lib/gcc/...`, and `/usr` itself, which g++
        // reports as `.../12/../../../`) is readable by every run and compile
        // without being lent, so lending it reaches nothing more; walking it
        // for hard links cost 140,000 `statx` per compile with a judge built
        // by cargo (a hard link itself).
        if read_by_every_run(&real) {
            return Lending::Decided(None);
        }
        Lending::AskIdentities { real, exe }
    }
}

/// Directories every run and compile may read and execute from whole: the
/// dynamic loader, shared libraries, interpreters and their standard
/// libraries (Landlock's read paths in `sandbox::unix::run::ruleset`, and the
/// folders a compile is lent without a walk for aliases).
pub(crate) const SYSTEM_READ_PATHS: &[&str] = &[
    "/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin", "/etc", "/proc",
];

/// Whether `real` (resolved) is or lies inside a folder every run may read
/// (see [`SYSTEM_READ_PATHS`]).
fn read_by_every_run(real: &Path) -> bool {
    SYSTEM_READ_PATHS
        .iter()
        .any(|system| real.starts_with(system))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_into_one_store_mask_the_store_and_system_targets_are_covered_alone() {
        let dir = tempfile::tempdir().unwrap();
        let root = fs_err::canonicalize(dir.path()).unwrap();
        let store = root.join("store");
        for object in ["ab/1", "cd/2"] {
            fs_err::create_dir_all(store.join(object)).unwrap();
            fs_err::write(store.join(object).join("blob"), "answer").unwrap();
        }
        let tests = root.join("tests");
        fs_err::create_dir(&tests).unwrap();
        std::os::unix::fs::symlink(store.join("ab/1/blob"), tests.join("1.ans")).unwrap();
        std::os::unix::fs::symlink(store.join("cd/2/blob"), tests.join("2.ans")).unwrap();
        assert_eq!(link_targets(&tests), (vec![store], Vec::new()));

        let system = root.join("system");
        fs_err::create_dir(&system).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", system.join("1.in")).unwrap();
        std::os::unix::fs::symlink("/usr/lib", system.join("lib")).unwrap();
        assert_eq!(
            link_targets(&system),
            (Vec::new(), vec![PathBuf::from("/etc/passwd")])
        );
        assert!(!maskable(Path::new("/usr/local")));
        assert!(!maskable(Path::new("/usr/lib/x86_64-linux-gnu")));
        assert!(maskable(&root));
    }

    /// A system folder a compiler reports (g++'s `/usr/lib/gcc/...`) is
    /// lent without a walk for hard links; a teacher's folder is still
    /// checked.
    #[test]
    fn system_folders_are_lent_without_a_walk() {
        assert!(read_by_every_run(Path::new("/usr/lib/gcc")));
        assert!(read_by_every_run(Path::new("/usr")));
        assert!(!read_by_every_run(Path::new("/opt/jdk/lib")));
        assert!(!read_by_every_run(Path::new("/home/teacher/course/bin")));
        assert!(!read_by_every_run(Path::new("/usrlocal")));
    }

    /// Each masked folder keeps the reason it was first added with; a
    /// link target's folder takes the reason of the folder linking to it;
    /// `/` and a folder programs load code from are never added.
    #[test]
    fn each_masked_folder_keeps_its_first_reason() {
        let dir = tempfile::tempdir().unwrap();
        let root = fs_err::canonicalize(dir.path()).unwrap();
        let tests = root.join("tests");
        let store = root.join("store");
        fs_err::create_dir_all(store.join("ab")).unwrap();
        fs_err::write(store.join("ab/blob"), "answer").unwrap();
        fs_err::create_dir(&tests).unwrap();
        std::os::unix::fs::symlink(store.join("ab/blob"), tests.join("1.ans")).unwrap();
        let mut hidden = Hidden::new();
        hidden.hide(DataFolder::KattisData, &tests);
        hidden.hide(DataFolder::ProblemsFolder, &tests);
        hidden.hide(DataFolder::Submissions, Path::new("/"));
        hidden.hide(DataFolder::HandIn, Path::new("/usr/lib"));
        assert_eq!(hidden.reason_for(&tests), Some(DataFolder::KattisData));
        assert_eq!(
            hidden.reason_for(&store.join("ab")),
            Some(DataFolder::KattisData)
        );
        assert_eq!(hidden.reason_for(Path::new("/")), None);
        assert_eq!(hidden.reason_for(Path::new("/usr/lib")), None);
        assert!(hidden.masked_folders().any(|folder| folder == tests));
        assert!(hidden.lending_refused(&tests).is_some());
        assert!(Hidden::new().lending_refused(&tests).is_none());

        // Added to a copy (as a package's programs hide what the command
        // hid and the package's folders), a folder already masked keeps
        // its first reason too, and the value copied is left as it was.
        let other = root.join("other");
        fs_err::create_dir(&other).unwrap();
        let before = hidden.clone();
        let hidden = hidden.with(&[
            (DataFolder::Submissions, tests.clone()),
            (DataFolder::HandIn, other.clone()),
        ]);
        assert_eq!(before.reason_for(&other), None);
        assert_eq!(hidden.reason_for(&tests), Some(DataFolder::KattisData));
        assert_eq!(hidden.reason_for(&other), Some(DataFolder::HandIn));
        assert!(hidden.lending_refused(&other).is_some());
        // A hand-in's folder refuses only a lent folder holding it.
        assert!(hidden.lending_refused(&root).is_some());
    }

    /// A package's whole folder is kept from compiles but not masked: a
    /// run may still be lent nothing in it, and its programs' sources stay
    /// in every run's view.
    #[test]
    fn a_package_folder_is_guarded_not_masked() {
        let dir = tempfile::tempdir().unwrap();
        let root = fs_err::canonicalize(dir.path()).unwrap();
        let package = root.join("package");
        fs_err::create_dir_all(package.join("lib")).unwrap();
        let mut hidden = Hidden::new();
        hidden.hide(DataFolder::PackageFolder, &package);
        assert_eq!(hidden.masked_folders().count(), 0);
        assert_eq!(hidden.reason_for(&package), None);
        let refused = hidden.lending_refused(&package.join("lib"));
        assert!(
            refused
                .as_deref()
                .is_some_and(|reason| reason.contains("lies inside the judge's data")),
            "{refused:?}"
        );
        assert!(hidden.clone().lending_refused(&package).is_some());
    }
}
