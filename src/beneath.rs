//! The one rule for a path a package names, or a file under its test data
//! (issues #29, #34): it is resolved beneath the package's folder and never
//! leaves it. A symbolic link on the way may point anywhere inside the
//! package (BAPCtools' shared files, Polygon's `files/`), never out of it,
//! not even to a public file. A leaf module, so the `config` layer (a Kattis
//! package's `data/`) and the package formats use it alike.
//!
//! The rule is kept when the file is opened, not only checked before:
//! [`Beneath`] opens a file through a handle on the package's folder, so a
//! link swapped in between a check and the read (a hostile package, or a
//! generator that writes into it) is refused by the kernel at open time
//! (`openat2` with `RESOLVE_BENEATH`). Where that fails (a kernel without
//! `openat2`, `ENOSYS`; an absolute link that names a file inside the
//! package, which `RESOLVE_BENEATH` refuses outright; any other error, to
//! name the link at fault) the path is walked one component at a time with
//! `openat(O_NOFOLLOW)` from the folder's handle, each link read with
//! `readlinkat` and resolved by this module, so nothing outside is ever
//! opened either way.
//!
//! Not here: a program's files (a hand-in's links, a Kattis program's link
//! to a public header out of the package), whose rule is
//! `runner::links`'s.

use crate::hint::Hint;
use rustix::fs::{openat, openat2, readlinkat, Mode, OFlags, ResolveFlags, CWD};
use rustix::io::Errno;
use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStringExt as _;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// How many links one path may go through, as the kernel's `MAXSYMLINKS`:
/// past it the path is a loop.
const MAX_LINKS: usize = 40;

/// Why a symbolic link among a package's or a program's files was refused:
/// the package's or the program's fault, naming the link and, where it
/// resolves, its target. Its advice is a [`Hint`], kept apart from the
/// message: the one printer of errors prints it as `hint: ...`, and a
/// refusal shown as a CE reason carries it after a blank line
/// ([`LinkRefused::with_hint`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum LinkRefused {
    /// A loop or a missing target; `written` is where it points, when it
    /// could be read; `owner` whose file the link is, which the advice is
    /// for.
    #[error(
        "refused `{}`: it is a symbolic link (symlink){} that does not resolve (a loop or a \
         missing target)",
        link.display(),
        written.as_ref().map(|written| format!(" to `{}`", written.display())).unwrap_or_default()
    )]
    Dangling {
        link: PathBuf,
        written: Option<PathBuf>,
        owner: LinkOwner,
    },
    /// A link out of a package to what is not a public regular file (`why`
    /// says what it is).
    #[error(
        "refused `{}`: it is a symbolic link (symlink) to `{}`, which is outside the package \
         `{}` and {why}; its target was not read",
        link.display(),
        target.display(),
        package.display()
    )]
    NotPublic {
        link: PathBuf,
        target: PathBuf,
        package: PathBuf,
        why: String,
    },
    /// A hand-in's link out of the folder that holds it; `written` is
    /// where it points as it is written (the hand-in's own words: where
    /// that resolves on the judge's host is not said), when it could be
    /// read.
    #[error(
        "refused `{}`: it is a symbolic link (symlink) to a file outside its folder{}; its target \
         was not read",
        link.display(),
        written.as_ref().map(|written| format!(" (`{}`)", written.display())).unwrap_or_default()
    )]
    OutsideFolder {
        link: PathBuf,
        written: Option<PathBuf>,
    },
    /// A path a package names that is reached through a link out of the
    /// package (issue #29: a Polygon test that links to a host file).
    #[error(
        "refused `{}`: it is a symbolic link (symlink) to a file outside the package `{}`; its \
         target was not read",
        link.display(),
        package.display()
    )]
    OutsidePackage { link: PathBuf, package: PathBuf },
}

/// Whose file a refused link is, which decides who can mend it: a
/// package's setter or the student who handed it in (issue #34: a
/// student's dangling link got the advice to copy a package).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LinkOwner {
    /// A package's file: its test data, a file it names, its own programs.
    Package,
    /// A hand-in, or a program named on the command line.
    HandIn,
}

impl LinkRefused {
    /// The advice printed after the refusal: where a package can be mended.
    pub(crate) fn hint(&self) -> Option<Hint> {
        match self {
            LinkRefused::Dangling {
                owner: LinkOwner::Package,
                ..
            } => Some(Hint::new(
                "copy the package together with the files its links point to, or put the file \
                 itself in the package",
            )),
            // A student's own file: nothing of a package is theirs to copy.
            LinkRefused::Dangling {
                owner: LinkOwner::HandIn,
                ..
            } => Some(Hint::new(
                "hand in the file itself, not a link to it (a hand-in's link is followed only to \
                 a file handed in beside it, in its own folder)",
            )),
            LinkRefused::NotPublic { .. } => Some(Hint::new(
                "a link out of a package is followed only to a regular file every user may read; \
                 copy the file into the package (a link may point anywhere inside it)",
            )),
            LinkRefused::OutsideFolder { .. } => None,
            LinkRefused::OutsidePackage { .. } => {
                Some(Hint::new("put the file itself in the package"))
            }
        }
    }

    /// The refusal as one text, its hint after a blank line: the reason a
    /// report gives for a refused program (CE), which no printer of errors
    /// sees.
    pub(crate) fn with_hint(&self) -> String {
        crate::hint::with_hint(self, self.hint())
    }
}

/// Why a file beneath a package's folder was not opened.
#[derive(Debug, thiserror::Error)]
pub(crate) enum BeneathError {
    /// A link on the way leads out of the package, or does not resolve.
    #[error(transparent)]
    Refused(#[from] LinkRefused),
    /// What the path names is no regular file (a folder, a FIFO, a
    /// device): never read, so it cannot block or flood the judge.
    #[error("`{}` is not a regular file", .0.display())]
    NotRegular(PathBuf),
    /// Larger than its bound ([`crate::data_file::MAX_TEST_BYTES`], say):
    /// refused by its size before it was read (issue #34: a 6 GiB sparse test aborted the
    /// judge).
    #[error("`{}` {}", .0.display(), crate::data_file::Unread::TooLarge { size: *.1, limit: *.2 })]
    TooLarge(PathBuf, u64, u64),
    /// It could not be opened or read (missing, not allowed).
    #[error("failed to read `{}`: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// What a path is opened for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// Its bytes: read only, and without blocking (a FIFO) or taking a
    /// terminal.
    Read,
    /// Only where it leads (`O_PATH`): nothing is read, not even opened.
    Look,
}

impl Purpose {
    fn flags(self) -> OFlags {
        match self {
            Purpose::Read => OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC,
            Purpose::Look => OFlags::PATH | OFlags::CLOEXEC,
        }
    }
}

/// How a path is resolved: by the kernel, else by the walk; or by the
/// walk alone (as on a kernel without `openat2`, and the tests of the
/// fallback).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Resolver {
    Kernel,
    Walk,
}

impl Resolver {
    /// The kernel, unless it said it has no `openat2`.
    fn now() -> Resolver {
        if OPENAT2_MISSING.load(Ordering::Relaxed) {
            Resolver::Walk
        } else {
            Resolver::Kernel
        }
    }
}

/// Whether `openat2` answered `ENOSYS`: every path is walked then.
static OPENAT2_MISSING: AtomicBool = AtomicBool::new(false);

/// A package's folder, held open: every file under it is opened through
/// this handle, beneath it (see the module's rule).
#[derive(Debug)]
pub(crate) struct Beneath {
    root: OwnedFd,
    /// The folder as the caller names it, for messages.
    shown: PathBuf,
    /// The folder's canonical path's names: an absolute link is inside
    /// when it names a path under it.
    canonical: Vec<OsString>,
}

/// One step of a walk: a name of the path (or of a link's target), or the
/// end of a link's target.
enum Step {
    Name(OsString),
    EndOfLink,
}

impl Beneath {
    /// The folder `root`, held open. The folder itself may be reached
    /// through links: it is the one the caller named.
    pub(crate) fn new(root: &Path) -> Result<Beneath, BeneathError> {
        let failed = |source: std::io::Error| BeneathError::Io {
            path: root.to_owned(),
            source,
        };
        let canonical = fs_err::canonicalize(root).map_err(failed)?;
        let handle = openat(
            CWD,
            &canonical,
            OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )
        .map_err(|errno| failed(errno.into()))?;
        Ok(Beneath {
            root: handle,
            shown: root.to_owned(),
            canonical: canonical
                .components()
                .filter_map(|component| match component {
                    Component::Normal(name) => Some(name.to_owned()),
                    _ => None,
                })
                .collect(),
        })
    }

    /// The folder as the caller named it.
    pub(crate) fn root(&self) -> &Path {
        &self.shown
    }

    /// The bytes of the regular file at `path` (under the folder, or
    /// relative to it), read through a handle opened beneath the folder.
    /// At most [`crate::data_file::MAX_TEST_BYTES`]: larger is refused by
    /// its size, unread.
    pub(crate) fn read(&self, path: &Path) -> Result<Vec<u8>, BeneathError> {
        self.read_at_most(path, crate::data_file::MAX_TEST_BYTES)
    }

    /// [`Beneath::read`] with the bound `limit` (a YAML file's, say).
    pub(crate) fn read_at_most(&self, path: &Path, limit: u64) -> Result<Vec<u8>, BeneathError> {
        self.read_bounded(path, Resolver::now(), limit)
    }

    /// [`Beneath::read`], as a UTF-8 text: `Ok(Err(bytes))` when it is not.
    pub(crate) fn read_text(&self, path: &Path) -> Result<Result<String, Vec<u8>>, BeneathError> {
        self.read(path)
            .map(|bytes| String::from_utf8(bytes).map_err(|error| error.into_bytes()))
    }

    /// Whether `path` is reached through no link that leads out of the
    /// folder or does not resolve; nothing is read, only where it leads. A
    /// path that is missing, or that cannot be opened, is no refusal: its
    /// reader says why.
    pub(crate) fn check(&self, path: &Path) -> Result<(), LinkRefused> {
        self.check_with(path, Resolver::now())
    }

    /// What `path` leads to, held open (`O_PATH`) and never read: `fstat` it
    /// to learn whether it is a folder.
    pub(crate) fn look(&self, path: &Path) -> Result<OwnedFd, BeneathError> {
        self.open(path, Purpose::Look, Resolver::now())
    }

    fn check_with(&self, path: &Path, resolver: Resolver) -> Result<(), LinkRefused> {
        match self.open(path, Purpose::Look, resolver) {
            Ok(_)
            | Err(
                BeneathError::NotRegular(_) | BeneathError::TooLarge(..) | BeneathError::Io { .. },
            ) => Ok(()),
            Err(BeneathError::Refused(refused)) => Err(refused),
        }
    }

    /// The regular file at `path`, opened beneath the folder for reading
    /// (a caller that reads only part of it).
    pub(crate) fn open_file(&self, path: &Path) -> Result<std::fs::File, BeneathError> {
        self.open_file_with(path, Resolver::now())
    }

    fn open_file_with(
        &self,
        path: &Path,
        resolver: Resolver,
    ) -> Result<std::fs::File, BeneathError> {
        let file = std::fs::File::from(self.open(path, Purpose::Read, resolver)?);
        let metadata = file.metadata().map_err(|source| BeneathError::Io {
            path: path.to_owned(),
            source,
        })?;
        if !metadata.is_file() {
            return Err(BeneathError::NotRegular(path.to_owned()));
        }
        Ok(file)
    }

    #[cfg(test)]
    fn read_with(&self, path: &Path, resolver: Resolver) -> Result<Vec<u8>, BeneathError> {
        self.read_bounded(path, resolver, crate::data_file::MAX_TEST_BYTES)
    }

    fn read_bounded(
        &self,
        path: &Path,
        resolver: Resolver,
        limit: u64,
    ) -> Result<Vec<u8>, BeneathError> {
        use crate::data_file::{read_opened, DataFileError, Unread};
        let file = self.open_file_with(path, resolver)?;
        read_opened(file, path, limit).map_err(|error| match error {
            DataFileError::Unread {
                path,
                why: Unread::TooLarge { size, limit },
            } => BeneathError::TooLarge(path, size, limit),
            DataFileError::Unread {
                path,
                why: Unread::NotRegular { .. },
            } => BeneathError::NotRegular(path),
            DataFileError::Io { path, source } => BeneathError::Io { path, source },
        })
    }

    /// `path` below the folder: a path under the folder as the caller named
    /// it (or its canonical form), or one relative to it.
    fn relative<'a>(&self, path: &'a Path) -> Result<&'a Path, BeneathError> {
        if path.is_relative() && !path.starts_with(&self.shown) {
            return Ok(path);
        }
        let canonical: PathBuf = std::iter::once(OsStr::new("/"))
            .chain(self.canonical.iter().map(OsString::as_os_str))
            .collect();
        path.strip_prefix(&self.shown)
            .or_else(|_| path.strip_prefix(&canonical))
            .map_err(|_| BeneathError::Io {
                path: path.to_owned(),
                source: std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    format!("it is not inside `{}`", self.shown.display()),
                ),
            })
    }

    fn open(
        &self,
        path: &Path,
        purpose: Purpose,
        resolver: Resolver,
    ) -> Result<OwnedFd, BeneathError> {
        let relative = self.relative(path)?;
        if resolver == Resolver::Kernel {
            let name = if relative.as_os_str().is_empty() {
                Path::new(".")
            } else {
                relative
            };
            // Any failure is decided again by the walk, which names the
            // link at fault and follows an absolute link that names a file
            // inside (`RESOLVE_BENEATH` refuses every absolute link).
            match self.open_by_kernel(name, purpose) {
                Ok(handle) => return Ok(handle),
                // A kernel older than 5.6 (or a seccomp filter that hides
                // the call): the walk alone from now on.
                Err(Errno::NOSYS) => OPENAT2_MISSING.store(true, Ordering::Relaxed),
                Err(_) => {}
            }
        }
        self.walk(path, relative, purpose)
    }

    /// `relative` opened by the kernel, which refuses any way out of the
    /// folder (`..` past it, an absolute link, a magic link of `/proc`)
    /// as it resolves the path, with `EXDEV` (or `ELOOP`).
    fn open_by_kernel(&self, relative: &Path, purpose: Purpose) -> rustix::io::Result<OwnedFd> {
        openat2(
            &self.root,
            relative,
            purpose.flags(),
            Mode::empty(),
            ResolveFlags::BENEATH | ResolveFlags::NO_MAGICLINKS,
        )
    }

    /// Resolves `relative` one name at a time from the folder's handle
    /// (see the module's rule), then opens it for `purpose`.
    fn walk(
        &self,
        path: &Path,
        relative: &Path,
        purpose: Purpose,
    ) -> Result<OwnedFd, BeneathError> {
        let mut steps: VecDeque<Step> = VecDeque::new();
        for component in relative.components() {
            match component {
                Component::Normal(name) => steps.push_back(Step::Name(name.to_owned())),
                Component::ParentDir => steps.push_back(Step::Name("..".into())),
                Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
            }
        }
        let mut walk = Walk {
            beneath: self,
            path,
            folders: Vec::new(),
            above: 0,
            taken: PathBuf::new(),
            link: None,
            left_by: None,
            open_links: 0,
            links: 0,
        };
        while let Some(step) = steps.pop_front() {
            let name = match step {
                Step::EndOfLink => {
                    walk.open_links -= 1;
                    if walk.open_links == 0 {
                        walk.link = None;
                    }
                    continue;
                }
                Step::Name(name) => name,
            };
            if walk.open_links == 0 {
                walk.taken.push(&name);
            }
            if name == ".." {
                walk.up();
                continue;
            }
            if walk.above > 0 {
                walk.down_towards_root(&name)?;
                continue;
            }
            let last = !steps.iter().any(|step| matches!(step, Step::Name(_)));
            let folder = walk.folder();
            match readlinkat(folder, name.as_os_str(), Vec::new()) {
                Ok(target) => {
                    let target = PathBuf::from(OsString::from_vec(target.into_bytes()));
                    walk.follow(&target, &mut steps)?;
                }
                Err(Errno::INVAL) => {
                    let flags = if last {
                        purpose.flags() | OFlags::NOFOLLOW
                    } else {
                        OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC
                    };
                    match openat(folder, name.as_os_str(), flags, Mode::empty()) {
                        Ok(handle) if last => return Ok(handle),
                        Ok(handle) => walk.folders.push(handle),
                        // Made a link since `readlinkat` looked: look again
                        // (counted, so a package that keeps swapping ends).
                        Err(Errno::LOOP | Errno::NOTDIR)
                            if readlinkat(folder, name.as_os_str(), Vec::new()).is_ok() =>
                        {
                            walk.links += 1;
                            if walk.links > MAX_LINKS {
                                return Err(walk.failed(Errno::LOOP));
                            }
                            if walk.open_links == 0 {
                                walk.taken.pop();
                            }
                            steps.push_front(Step::Name(name));
                        }
                        Err(errno) => return Err(walk.failed(errno)),
                    }
                }
                Err(errno) => return Err(walk.failed(errno)),
            }
        }
        if walk.above > 0 {
            return Err(walk.outside());
        }
        // The path ends in a folder reached by `..` or a link's target.
        openat(walk.folder(), ".", purpose.flags(), Mode::empty())
            .map_err(|errno| walk.failed(errno))
    }
}

/// Where a [`Beneath::walk`] is.
struct Walk<'a> {
    beneath: &'a Beneath,
    /// The path being resolved, as the caller named it.
    path: &'a Path,
    /// The folders below the root the walk is in, each held open.
    folders: Vec<OwnedFd>,
    /// How many folders above the root a link's target has led (only on
    /// the way back into it, by the names of the root's own path).
    above: usize,
    /// The names of the path walked so far, links not expanded.
    taken: PathBuf,
    /// The outermost link being followed, named as a path of the caller.
    link: Option<PathBuf>,
    /// The link that led the walk above the root, while it is there.
    left_by: Option<PathBuf>,
    /// How many links' targets are being walked, one inside another.
    open_links: usize,
    /// How many links were followed in all.
    links: usize,
}

impl Walk<'_> {
    fn folder(&self) -> BorrowedFd<'_> {
        self.folders
            .last()
            .map_or(self.beneath.root.as_fd(), |folder| folder.as_fd())
    }

    fn up(&mut self) {
        let depth = self.beneath.canonical.len();
        if self.above > 0 {
            self.above = (self.above + 1).min(depth);
        } else if self.folders.pop().is_none() && depth > 0 {
            self.above = 1;
            self.left_by = self.link.clone();
        }
    }

    /// One name while above the root: only the root's own path leads back.
    fn down_towards_root(&mut self, name: &OsStr) -> Result<(), BeneathError> {
        let canonical = &self.beneath.canonical;
        if canonical[canonical.len() - self.above] != name {
            return Err(self.outside());
        }
        self.above -= 1;
        if self.above == 0 {
            self.left_by = None;
        }
        Ok(())
    }

    /// Walks on into the link's `target`, found where the walk is.
    fn follow(&mut self, target: &Path, steps: &mut VecDeque<Step>) -> Result<(), BeneathError> {
        self.links += 1;
        if self.open_links == 0 {
            self.link = Some(self.beneath.shown.join(&self.taken));
        }
        if self.links > MAX_LINKS {
            return Err(self.failed(Errno::LOOP));
        }
        self.open_links += 1;
        steps.push_front(Step::EndOfLink);
        for component in target.components().rev() {
            match component {
                Component::Normal(name) => steps.push_front(Step::Name(name.to_owned())),
                Component::ParentDir => steps.push_front(Step::Name("..".into())),
                Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
            }
        }
        if target.is_absolute() {
            self.folders.clear();
            self.above = self.beneath.canonical.len();
            if self.above > 0 {
                self.left_by = self.link.clone();
            }
        }
        Ok(())
    }

    /// The refusal of a path that leads out of the folder, naming the link
    /// that leads there (or the path itself, when it names `..`).
    fn outside(&self) -> BeneathError {
        BeneathError::Refused(LinkRefused::OutsidePackage {
            link: self
                .left_by
                .clone()
                .or_else(|| self.link.clone())
                .unwrap_or_else(|| self.beneath.shown.join(&self.taken)),
            package: self.beneath.shown.clone(),
        })
    }

    /// A failed call: a link that does not resolve (a loop, a missing
    /// target) is refused naming it; else the path could not be opened.
    fn failed(&self, errno: Errno) -> BeneathError {
        match &self.link {
            Some(link) if matches!(errno, Errno::NOENT | Errno::LOOP | Errno::NOTDIR) => {
                BeneathError::Refused(LinkRefused::Dangling {
                    link: link.clone(),
                    written: fs_err::read_link(link).ok(),
                    owner: LinkOwner::Package,
                })
            }
            _ => BeneathError::Io {
                path: self.path.to_owned(),
                source: errno.into(),
            },
        }
    }
}

#[cfg(test)]
mod tests;
