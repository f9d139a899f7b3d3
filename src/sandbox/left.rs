//! What a package's program left in its folder, read by the judge: an
//! output validator's `feedback/judgemessage.txt`, `score.txt` and
//! `nextpass.in`, a testlib interactor's `output` (issue #35).
//!
//! The program ran sandboxed, but the judge reads what it left with the
//! judge's own rights (root, as a rule), so every such file is opened here
//! and nowhere else, under these rules:
//!
//! - no symbolic link anywhere in the name (`openat2` with
//!   `RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH | RESOLVE_NO_XDEV` from the
//!   folder's descriptor; on a kernel without `openat2`, one `openat` with
//!   `O_NOFOLLOW` per component): a link to a root-only file, or to
//!   `/dev/zero`, is refused, never read;
//! - `O_NONBLOCK`, then `fstat` on the opened descriptor: only a regular
//!   file is read (a FIFO would block the judge in `open` or `read`
//!   forever);
//! - one name only (`st_nlink == 1`): a hard link is another file's
//!   content under the program's name. The judge takes the folder back
//!   after the run (every file becomes the judge's), so the owner no
//!   longer tells who may read the file; a file with one name in a folder
//!   only the program could write is one it made, so one it could read.
//!   This does not lean on `fs.protected_hardlinks`;
//! - at most a limit the caller names, read as `limit + 1` bytes at most
//!   and never the whole file first.
//!
//! A file that breaks a rule is the program's fault: the caller makes it
//! JE naming the program, with [`LeftFileError`] saying which file and
//! what was wrong, never a verdict against the submission.
//!
//! [`write_fresh`] is the other direction: a file the judge writes into
//! such a folder (the next pass's `input`, the submission's `output`)
//! replaces whatever name the program left there, link or not, and is
//! created anew (`O_CREAT | O_EXCL | O_NOFOLLOW`), so the judge never
//! writes through a link the program planted.

use rustix::fs::{Mode, OFlags, ResolveFlags};
use rustix::io::Errno;
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::OwnedFd;
use std::path::{Component, Path};

/// Why a file a program left was not read.
#[derive(Debug, thiserror::Error)]
#[error("`{name}` {kind}")]
pub(crate) struct LeftFileError {
    /// The file's name inside the program's folder (`feedback/score.txt`).
    name: String,
    kind: LeftFileErrorKind,
}

#[derive(Debug, thiserror::Error)]
enum LeftFileErrorKind {
    #[error("is a symbolic link, or has one in its path (links are not followed)")]
    Link,
    #[error("has a part that is not a folder (a link or a file where a folder belongs)")]
    NotAFolder,
    #[error("is {0}, not a regular file")]
    NotRegular(&'static str),
    #[error("has {0} names: a hard link to another file is not read")]
    HardLink(u64),
    #[error("holds more than the {limit} bytes the judge reads of it")]
    TooLarge { limit: u64 },
    #[error("could not be read: {0}")]
    Io(std::io::Error),
}

impl LeftFileError {
    fn new(name: &str, kind: LeftFileErrorKind) -> LeftFileError {
        LeftFileError {
            name: name.to_owned(),
            kind,
        }
    }
}

/// A regular file with one name that a program left, opened without
/// following links.
#[derive(Debug)]
pub(crate) struct LeftFile {
    name: String,
    file: File,
}

impl LeftFile {
    /// Its bytes, when there are at most `limit` of them.
    pub(crate) fn read(self, limit: u64) -> Result<Vec<u8>, LeftFileError> {
        let mut bytes = Vec::new();
        self.file
            .take(limit.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|error| LeftFileError::new(&self.name, LeftFileErrorKind::Io(error)))?;
        if bytes.len() as u64 > limit {
            return Err(LeftFileError::new(
                &self.name,
                LeftFileErrorKind::TooLarge { limit },
            ));
        }
        Ok(bytes)
    }
}

impl LeftFile {
    /// Its first `limit` bytes, and how many more it holds (by `fstat`,
    /// never read): a message cut rather than refused (issue #34).
    pub(crate) fn read_prefix(self, limit: u64) -> Result<(Vec<u8>, u64), LeftFileError> {
        let fail = |error| LeftFileError::new(&self.name, LeftFileErrorKind::Io(error));
        let size = self.file.metadata().map_err(fail)?.len();
        let mut bytes = Vec::new();
        (&self.file)
            .take(limit)
            .read_to_end(&mut bytes)
            .map_err(fail)?;
        Ok((bytes, size.saturating_sub(limit)))
    }
}

/// Opens `name` (relative, without `..`) in `folder`, a folder the judge
/// made and lent to a program: `None` when there is no such file; an error
/// when there is one that breaks a rule of the module.
pub(crate) fn open_left(folder: &Path, name: &str) -> Result<Option<LeftFile>, LeftFileError> {
    let fail = |kind| LeftFileError::new(name, kind);
    let directory = open_folder(folder).map_err(|error| fail(LeftFileErrorKind::Io(error)))?;
    let fd = match open_beneath(&directory, name) {
        Ok(fd) => fd,
        Err(Errno::NOENT) => return Ok(None),
        // ELOOP: a link where NO_SYMLINKS or O_NOFOLLOW met one; EXDEV: a
        // mount crossed.
        Err(Errno::LOOP | Errno::XDEV) => return Err(fail(LeftFileErrorKind::Link)),
        // A link (O_NOFOLLOW | O_DIRECTORY) or a file where a folder is named.
        Err(Errno::NOTDIR) => return Err(fail(LeftFileErrorKind::NotAFolder)),
        // A socket cannot be opened; a device without its driver neither.
        Err(Errno::NXIO | Errno::NODEV) => {
            return Err(fail(LeftFileErrorKind::NotRegular("a socket or a device")))
        }
        Err(errno) => return Err(fail(LeftFileErrorKind::Io(errno.into()))),
    };
    let stat = rustix::fs::fstat(&fd).map_err(|errno| fail(LeftFileErrorKind::Io(errno.into())))?;
    let kind = rustix::fs::FileType::from_raw_mode(stat.st_mode);
    let what = match kind {
        rustix::fs::FileType::RegularFile => None,
        rustix::fs::FileType::Directory => Some("a folder"),
        rustix::fs::FileType::Fifo => Some("a named pipe (FIFO)"),
        rustix::fs::FileType::CharacterDevice | rustix::fs::FileType::BlockDevice => {
            Some("a device")
        }
        rustix::fs::FileType::Socket => Some("a socket"),
        _ => Some("not a plain file"),
    };
    if let Some(what) = what {
        return Err(fail(LeftFileErrorKind::NotRegular(what)));
    }
    #[expect(
        clippy::useless_conversion,
        reason = "st_nlink is u32 on some targets, u64 on x86_64"
    )]
    let links = u64::from(stat.st_nlink);
    if links != 1 {
        return Err(fail(LeftFileErrorKind::HardLink(links)));
    }
    Ok(Some(LeftFile {
        name: name.to_owned(),
        file: File::from(fd),
    }))
}

/// [`open_left`] and [`LeftFile::read`] at once: the bytes of `name`, or
/// `None` when the program left no such file.
pub(crate) fn read_left(
    folder: &Path,
    name: &str,
    limit: u64,
) -> Result<Option<Vec<u8>>, LeftFileError> {
    open_left(folder, name)?
        .map(|file| file.read(limit))
        .transpose()
}

/// Writes `bytes` as `name` in `folder` (a folder lent to a program), as a
/// new file of mode 0644: whatever the program left under that name (a
/// file, a link) is removed first, and the new file is created with
/// `O_EXCL | O_NOFOLLOW`, so nothing is written through a link.
pub(crate) fn write_fresh(folder: &Path, name: &str, bytes: &[u8]) -> Result<(), LeftFileError> {
    let fail = |error: std::io::Error| LeftFileError::new(name, LeftFileErrorKind::Io(error));
    let directory = open_folder(folder).map_err(fail)?;
    let (parent, last) = match name.rsplit_once('/') {
        Some((parent, last)) => (
            Some(open_beneath_dir(&directory, parent).map_err(|errno| fail(errno.into()))?),
            last,
        ),
        None => (None, name),
    };
    let parent = parent.as_ref().unwrap_or(&directory);
    match rustix::fs::unlinkat(parent, last, rustix::fs::AtFlags::empty()) {
        Ok(()) | Err(Errno::NOENT) => {}
        Err(Errno::ISDIR) => {
            return Err(LeftFileError::new(
                name,
                LeftFileErrorKind::NotRegular("a folder"),
            ))
        }
        Err(errno) => return Err(fail(errno.into())),
    }
    let fd = rustix::fs::openat(
        parent,
        last,
        OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::from_raw_mode(0o644),
    )
    .map_err(|errno| fail(errno.into()))?;
    File::from(fd).write_all(bytes).map_err(fail)
}

/// The folder the judge made, by the path the judge knows (no part of it
/// is the program's).
fn open_folder(folder: &Path) -> std::io::Result<OwnedFd> {
    rustix::fs::open(
        folder,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )
    .map_err(std::io::Error::from)
}

/// The flags every left file is opened with: never blocks, never becomes
/// the judge's terminal, never follows a link in its last component.
fn read_flags() -> OFlags {
    OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::NOFOLLOW | OFlags::CLOEXEC
}

/// `name` opened beneath `directory` without following any link.
fn open_beneath(directory: &OwnedFd, name: &str) -> Result<OwnedFd, Errno> {
    if !plain_relative(name) {
        return Err(Errno::INVAL);
    }
    match openat2_beneath(directory, name, read_flags()) {
        // No openat2 (Linux < 5.6), or a filter that refuses it.
        Err(Errno::NOSYS | Errno::PERM) => open_by_components(directory, name, read_flags()),
        opened => opened,
    }
}

/// The folder `name` beneath `directory`, without following any link.
fn open_beneath_dir(directory: &OwnedFd, name: &str) -> Result<OwnedFd, Errno> {
    if !plain_relative(name) {
        return Err(Errno::INVAL);
    }
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    match openat2_beneath(directory, name, flags) {
        Err(Errno::NOSYS | Errno::PERM) => open_by_components(directory, name, flags),
        opened => opened,
    }
}

fn openat2_beneath(directory: &OwnedFd, name: &str, flags: OFlags) -> Result<OwnedFd, Errno> {
    if cfg!(test) && FORCE_FALLBACK.with(std::cell::Cell::get) {
        return Err(Errno::NOSYS);
    }
    rustix::fs::openat2(
        directory,
        name,
        flags,
        Mode::empty(),
        ResolveFlags::NO_SYMLINKS
            | ResolveFlags::NO_MAGICLINKS
            | ResolveFlags::BENEATH
            | ResolveFlags::NO_XDEV,
    )
}

/// The fallback of `openat2`: each folder of the path opened with
/// `O_NOFOLLOW | O_DIRECTORY` from the one before, the last component with
/// `flags` (which hold `O_NOFOLLOW`).
fn open_by_components(directory: &OwnedFd, name: &str, flags: OFlags) -> Result<OwnedFd, Errno> {
    let parts: Vec<&str> = name.split('/').filter(|part| !part.is_empty()).collect();
    let Some((last, folders)) = parts.split_last() else {
        return Err(Errno::INVAL);
    };
    let mut current: Option<OwnedFd> = None;
    for folder in folders {
        let from = current.as_ref().unwrap_or(directory);
        let next = rustix::fs::openat(
            from,
            *folder,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        current = Some(next);
    }
    rustix::fs::openat(
        current.as_ref().unwrap_or(directory),
        *last,
        flags,
        Mode::empty(),
    )
}

/// A name of plain parts: relative, no `.` or `..`.
fn plain_relative(name: &str) -> bool {
    !name.is_empty()
        && Path::new(name)
            .components()
            .all(|component| matches!(component, Component::Normal(_)))
}

thread_local! {
    /// Makes this thread's opens take the path of a kernel without
    /// `openat2` (set by the unit tests only).
    static FORCE_FALLBACK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(test)]
mod tests;
