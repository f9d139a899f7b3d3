//! Reading a package's file whole (a test's input or answer, a YAML file)
//! with two rules (issue #34, break-it findings 5 and 7): only a regular
//! file is read, opened with `O_NONBLOCK` and checked on the opened handle,
//! so a FIFO cannot block the judge and a device (`/dev/zero`) cannot feed
//! it forever; and a file larger than its kind's bound is refused by its
//! size (`fstat`) before a byte is read, so a huge sparse file cannot make
//! the judge allocate it and abort. Not here: what a caller makes of the
//! refusal (a configuration error, or JE on one test).

use std::io::Read as _;
use std::os::unix::fs::{FileTypeExt as _, OpenOptionsExt as _};
use std::path::{Path, PathBuf};

/// The most bytes a test's input or answer may hold (as `judge validate`
/// reads one input).
pub(crate) const MAX_TEST_BYTES: u64 = crate::problems::text::MAX_TEXT_BYTES as u64;

/// The most bytes a package's zip archive (a Polygon package) may hold.
pub(crate) const MAX_ARCHIVE_BYTES: u64 = 1 << 30;

/// The most bytes a package's YAML file (problem.yaml, submissions.yaml,
/// test_group.yaml, ...) may hold.
pub(crate) const MAX_YAML_BYTES: u64 = 16 << 20;

/// Why a file was refused unread: said after its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Unread {
    /// A FIFO, a device, a socket or a folder: never read.
    #[error("is {kind}, not a regular file: the judge reads only regular files (it was not read)")]
    NotRegular { kind: &'static str },
    /// Larger than the bound: refused by its size before it was read.
    #[error(
        "holds {size} bytes, more than the {} the judge reads of such a file (it was not read)",
        shown_bytes(*limit)
    )]
    TooLarge { size: u64, limit: u64 },
}

/// Why a file was not read.
#[derive(Debug, thiserror::Error)]
pub(crate) enum DataFileError {
    /// Refused by its kind or size, before a byte was read.
    #[error("`{}` {why}", path.display())]
    Unread { path: PathBuf, why: Unread },
    /// It could not be opened or read (missing, not allowed).
    #[error("failed to read `{}`: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// `limit` in the largest unit that divides it.
fn shown_bytes(limit: u64) -> String {
    if limit >= 1 << 30 && limit % (1 << 30) == 0 {
        format!("{} GiB", limit >> 30)
    } else if limit >= 1 << 20 && limit % (1 << 20) == 0 {
        format!("{} MiB", limit >> 20)
    } else {
        format!("{limit} bytes")
    }
}

/// What a file of `file_type` is, in words.
pub(crate) fn kind_of(file_type: std::fs::FileType) -> &'static str {
    if file_type.is_fifo() {
        "a FIFO (named pipe)"
    } else if file_type.is_char_device() {
        "a character device"
    } else if file_type.is_block_device() {
        "a block device"
    } else if file_type.is_socket() {
        "a socket"
    } else if file_type.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

/// The regular file at `path`, opened without blocking (a FIFO) and
/// checked on the handle.
pub(crate) fn open(path: &Path) -> Result<std::fs::File, DataFileError> {
    let io = |source| DataFileError::Io {
        path: path.to_owned(),
        source,
    };
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc_flags())
        .open(path)
        .map_err(io)?;
    let file_type = file.metadata().map_err(io)?.file_type();
    if !file_type.is_file() {
        return Err(DataFileError::Unread {
            path: path.to_owned(),
            why: Unread::NotRegular {
                kind: kind_of(file_type),
            },
        });
    }
    Ok(file)
}

/// `O_NONBLOCK | O_NOCTTY`: a FIFO opens at once, a terminal is not taken.
fn libc_flags() -> i32 {
    (rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOCTTY).bits() as i32
}

/// The bytes of `file` (opened at `path`), refused by its size when it
/// holds more than `limit`; a file that grows past it while read is
/// refused too.
pub(crate) fn read_opened(
    mut file: std::fs::File,
    path: &Path,
    limit: u64,
) -> Result<Vec<u8>, DataFileError> {
    let io = |source| DataFileError::Io {
        path: path.to_owned(),
        source,
    };
    let size = file.metadata().map_err(io)?.len();
    let too_large = |size| DataFileError::Unread {
        path: path.to_owned(),
        why: Unread::TooLarge { size, limit },
    };
    if size > limit {
        return Err(too_large(size));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    (&mut file)
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// The bytes of the regular file at `path`, at most `limit` of them.
pub(crate) fn read(path: &Path, limit: u64) -> Result<Vec<u8>, DataFileError> {
    read_opened(open(path)?, path, limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_a_fifo_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.in");
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            &path,
            rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
        )
        .unwrap();
        let error = read(&path, MAX_TEST_BYTES).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("is a FIFO (named pipe), not a regular file"),
            "{error}"
        );
    }

    #[test]
    fn refuses_a_character_device() {
        let error = read(Path::new("/dev/zero"), MAX_TEST_BYTES).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("`/dev/zero` is a character device"),
            "{error}"
        );
    }

    #[test]
    fn refuses_a_file_over_the_bound_by_its_size() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.in");
        let file = fs_err::File::create(&path).unwrap();
        file.set_len(6 << 30).unwrap();
        let error = read(&path, MAX_TEST_BYTES).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "`{}` holds 6442450944 bytes, more than the 256 MiB the judge reads of such a \
                 file (it was not read)",
                path.display()
            )
        );
    }

    #[test]
    fn reads_a_file_at_the_bound() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.ans");
        fs_err::write(&path, "12345").unwrap();
        assert_eq!(read(&path, 5).unwrap(), b"12345");
        assert!(matches!(
            read(&path, 4),
            Err(DataFileError::Unread {
                why: Unread::TooLarge { size: 5, limit: 4 },
                ..
            })
        ));
    }
}
