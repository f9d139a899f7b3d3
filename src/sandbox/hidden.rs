//! What the sandbox hides, as a value: [`Hidden`] holds the judge's data
//! folders (tests, packages, a class's hand-ins) and what their symbolic
//! links point to, which every run's mount namespace covers, and the data
//! no compile is lent (see [`Hidden::mask`], [`Hidden::guard`] and
//! [`lending_refused`]). The rules live on the value, so a test (or a
//! second backend) builds its own and asks it.
//!
//! The judge keeps one [`Hidden`] for the process, the one the judge's
//! sandboxes read ([`mask_data_folder`] and [`guard_data_folder`] add to it,
//! [`lending_refused`] and each worker's mount namespace read it): it
//! cannot be built once from the configuration yet, since packages are found and loaded problem by
//! problem after judge.toml is read (a package's `tests/` or `data/`
//! folder is known only then), and the folders submissions were handed in
//! from only when their run starts. Who adds what, and why:
//!
//! | reason | added by | when |
//! |---|---|---|
//! | [`DataFolder::Tests`] | `runner::tests_load` | a `--tests` folder (or a problem's tests folder) is read |
//! | [`DataFolder::ProblemsFolder`] | `package::check_problems_dir` | `--problems-dir DIR` is accepted |
//! | [`DataFolder::PackageTests`] | `package::native`, `package::polygon` | a judge or Polygon package's `tests/` is read, or Polygon's generated tests are written |
//! | [`DataFolder::KattisData`] | `package::kattis::load`, `package::generators` | a Kattis package's `data/` is read, or a `generators.yaml` package's `data/` and its cache of generated cases |
//! | [`DataFolder::Submissions`] | `grading::class`, `package::generators` | a class's submissions folder is discovered, or a package's `submissions/` |
//! | [`DataFolder::HandIn`] | `runner::run_stopping` | a run starts: each submission's own folder |
//! | (guarded only: [`guard_data_folder`]) | the package formats | a package's whole folder (its solutions and submissions) is kept from compiles, not masked |
//!
//! Entries are only added, never removed: a folder masked once stays out
//! of reach of every later run of the process.
//!
//! A [`Sandbox`](super::Sandbox) reads what it hides through the value it
//! was given, a [`Hiding`]: the process's [`Hidden`] (what
//! [`Sandbox::new`](super::Sandbox::new) takes), or a [`Hidden`] built
//! whole by its owner. That is the seam a second backend (or a test) takes:
//! it is handed what to hide, and never reads the process's table itself.

use super::aliases::Identities;
use std::path::{Path, PathBuf};
use std::sync::{Arc, PoisonError, RwLock, RwLockReadGuard};

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
            | DataFolder::Submissions => Reach::Whole,
        }
    }
}

/// Folders of the judge's data (a `--tests` folder, a problems folder, a
/// package's folder, a class's submissions folder) that no run or compile
/// may see: an empty tmpfs covers each in every worker's mount namespace
/// made after this, as root and without, and only a program a run needs
/// inside one is bound back. A path the judge cannot resolve, `/` or a
/// top-level folder (`/usr`, `/etc`: programs need them) is left as it is.
/// Landlock lets a run read `/usr` and `/etc`, and without root a run is
/// the teacher's own user, so file modes do not keep tests there from it
/// (issue 18).
///
/// Symbolic links inside the folder (as git-annex or dvc keep data) are
/// followed to their targets: the folder holding all of them (git-annex's
/// `.git/annex/objects`, dvc's cache) is masked the same way, or, where
/// they share no such folder, each target folder is masked and each
/// target file covered by an empty file, so the answer is not read at the
/// path a link points to either. A folder programs load code from
/// (`/usr/lib`, `/usr/local/bin`, `/etc`, ...), or one holding such a
/// folder, is never masked: a linked file there is covered alone, and a
/// link to such a folder is not followed.
///
/// `reason` is kept with each folder added (a link target's folder takes
/// the reason of the folder linking to it); a folder already in the list
/// keeps its first reason. No compile is lent such a folder either (see
/// `lending_refused`; for [`DataFolder::HandIn`], only a lent folder
/// that is or holds it).
pub fn mask_data_folder(reason: DataFolder, path: &Path) {
    // The walks are made on a value of its own, so the runs reading the
    // process's wait only for the merge.
    let mut more = Hidden::new();
    more.mask(reason, path);
    process_write().absorb(more);
}

/// Records `path` as the judge's data no compile is lent (a package's
/// folder, with its solutions and submissions), without masking it (in
/// the process's [`Hidden`]; see [`Hidden::guard`]).
pub(crate) fn guard_data_folder(path: &Path) {
    let mut more = Hidden::new();
    more.guard(path);
    process_write().absorb(more);
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
}

impl Hidden {
    /// Nothing hidden.
    pub fn new() -> Hidden {
        Hidden::default()
    }

    /// Adds the data folder `path`, masked for `reason` (see
    /// [`mask_data_folder`] for what masking does and what is left as it
    /// is).
    pub fn mask(&mut self, reason: DataFolder, path: &Path) {
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

    /// Records `path` as the judge's data no compile is lent, without
    /// masking it.
    pub(crate) fn guard(&mut self, path: &Path) {
        if let Ok(real) = fs_err::canonicalize(path) {
            self.guard_real(&real, Reach::Whole);
        }
    }

    /// Adds what `other` hides, as if added here after what is: a folder
    /// already masked keeps its reason, a guard only widens.
    pub(crate) fn absorb(&mut self, other: Hidden) {
        for (folder, reason) in other.folders {
            if !self.folders.iter().any(|(known, _)| *known == folder) {
                self.folders.push((folder, reason));
            }
        }
        for file in other.files {
            if !self.files.contains(&file) {
                self.files.push(file);
            }
        }
        for (path, reach) in other.guarded {
            match self.guarded.iter_mut().find(|(known, _)| *known == path) {
                Some(entry) if reach == Reach::Whole => entry.1 = Reach::Whole,
                Some(_) => {}
                None => self.guarded.push((path, reach)),
            }
        }
        self.identities.absorb(other.identities);
        self.folders.sort_by(|a, b| a.0.cmp(&b.0));
        self.files.sort();
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

/// Where a sandbox reads what it hides (see the module's doc).
#[derive(Clone, Default)]
pub enum Hiding {
    /// The process's [`Hidden`], as packages are loaded and runs start:
    /// what the judge's own sandboxes read.
    #[default]
    Process,
    /// A [`Hidden`] of the sandbox's owner, built whole before its runs.
    Given(Arc<Hidden>),
}

impl Hiding {
    /// What is hidden now, in one moment (the process's read under its
    /// lock, held as long as the look is).
    pub(crate) fn look(&self) -> Look<'_> {
        match self {
            Hiding::Process => Look::Process(process()),
            Hiding::Given(hidden) => Look::Given(hidden),
        }
    }
}

/// A look at a [`Hiding`]'s [`Hidden`] ([`Hiding::look`]).
pub(crate) enum Look<'a> {
    Process(RwLockReadGuard<'static, Hidden>),
    Given(&'a Hidden),
}

impl std::ops::Deref for Look<'_> {
    type Target = Hidden;

    fn deref(&self) -> &Hidden {
        match self {
            Look::Process(hidden) => hidden,
            Look::Given(hidden) => hidden,
        }
    }
}

/// The process's [`Hidden`], which every sandbox reads.
static PROCESS: RwLock<Hidden> = RwLock::new(Hidden {
    folders: Vec::new(),
    files: Vec::new(),
    guarded: Vec::new(),
    identities: Identities::empty(),
});

fn process_write() -> std::sync::RwLockWriteGuard<'static, Hidden> {
    PROCESS.write().unwrap_or_else(PoisonError::into_inner)
}

/// The process's [`Hidden`], for reading.
pub(crate) fn process() -> RwLockReadGuard<'static, Hidden> {
    PROCESS.read().unwrap_or_else(PoisonError::into_inner)
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

/// Why a compile may not be lent `folder` (a toolchain folder read beside
/// the system's, issue 18): it is, holds or resolves to the judge's data
/// (a tests folder, a package folder, a class's hand-ins, the target of a
/// link in one) or the judge's own binary, or it lies inside such a data
/// folder; compared on resolved paths, so a link beside a wrapper's `bin/`
/// pointing at the tests is refused as the tests are. `None` when it may
/// be lent.
///
/// Asked of the process's [`Hidden`]: the path rules and an answer already
/// given are read under its lock; a walk of `folder` for aliases is made on
/// a copy, so no run waits on it, and one at a time, so compiles starting
/// together on every worker walk a lent folder once.
pub(crate) fn lending_refused(folder: &Path) -> Option<String> {
    static WALKS: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let (real, exe) = {
        let hidden = process();
        match hidden.refused_by_path(folder) {
            Lending::Decided(answer) => return answer,
            Lending::AskIdentities { real, exe } => match hidden.identities.cached(&real) {
                Some(answer) => return answer,
                None => (real, exe),
            },
        }
    };
    let _walking = WALKS.lock().unwrap_or_else(PoisonError::into_inner);
    let identities = {
        let hidden = process();
        // Another compile may have walked it while this one waited.
        if let Some(answer) = hidden.identities.cached(&real) {
            return answer;
        }
        hidden.identities.snapshot()
    };
    let answer = identities.look(&real, exe.as_deref());
    process()
        .identities
        .remember(&real, identities.generation(), answer.clone());
    answer
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
    /// Why a compile may not be lent `folder` (see [`lending_refused`]);
    /// `None` when it may be. The process's is asked in two steps (the
    /// walk for aliases on a copy), which [`lending_refused`] takes.
    #[cfg(test)]
    fn lending_refused(&self, folder: &Path) -> Option<String> {
        match self.refused_by_path(folder) {
            Lending::Decided(answer) => answer,
            Lending::AskIdentities { real, exe } => self.identities.aliased(&real, exe.as_deref()),
        }
    }

    /// The path rules of [`lending_refused`]: the data by path, the
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
        hidden.mask(DataFolder::KattisData, &tests);
        hidden.mask(DataFolder::ProblemsFolder, &tests);
        hidden.mask(DataFolder::Submissions, Path::new("/"));
        hidden.mask(DataFolder::HandIn, Path::new("/usr/lib"));
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

        // Added from a value of its own (as `mask_data_folder` does), a
        // folder already masked keeps its first reason too.
        let mut more = Hidden::new();
        more.mask(DataFolder::Submissions, &tests);
        let other = root.join("other");
        fs_err::create_dir(&other).unwrap();
        more.mask(DataFolder::HandIn, &other);
        hidden.absorb(more);
        assert_eq!(hidden.reason_for(&tests), Some(DataFolder::KattisData));
        assert_eq!(hidden.reason_for(&other), Some(DataFolder::HandIn));
        assert!(hidden.lending_refused(&other).is_some());
        // A hand-in's folder refuses only a lent folder holding it.
        assert!(hidden.lending_refused(&root).is_some());
    }
}
