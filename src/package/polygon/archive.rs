//! A Polygon package as the zip Polygon hands out: unpacked once into the
//! cache (under a digest of the zip's bytes, so the same zip is unpacked
//! once) and read as a folder.
//!
//! An archive is the package author's data, not trusted: an entry whose
//! name leaves the folder (`../x`, an absolute path) is refused, links are
//! not made, and the whole unpacked size and the number of entries are
//! capped, so a zip bomb fills no disk.

use super::programs::hex;
use crate::config::ConfigError;
use sha2::{Digest as _, Sha256};
use std::path::{Path, PathBuf};

/// The most an archive may unpack to.
const MAX_UNPACKED_BYTES: u64 = 2 << 30;

/// The most entries an archive may hold.
const MAX_ENTRIES: usize = 100_000;

/// Whether `path` is a zip file (by its name).
pub(crate) fn is_zip(path: &Path) -> bool {
    path.is_file()
        && path
            .extension()
            .is_some_and(|extension| extension.eq_ignore_ascii_case("zip"))
}

/// The folder holding `problem.xml` of the zip at `path`, unpacked under
/// `cache`.
pub(crate) fn unpack(path: &Path, cache: &Path) -> Result<PathBuf, ConfigError> {
    let invalid = |message: String| ConfigError::invalid(path, "zip", message);
    let bytes = fs_err::read(path).map_err(|error| ConfigError {
        path: path.to_owned(),
        kind: crate::config::ConfigErrorKind::Read(error),
    })?;
    let digest = hex(&Sha256::digest(&bytes));
    let parent = cache.join("archives");
    let target = parent.join(&digest);
    if !target.is_dir() {
        let cache_error =
            |error: std::io::Error| invalid(format!("cannot unpack it into the cache: {error}"));
        fs_err::create_dir_all(&parent).map_err(cache_error)?;
        let scratch = tempfile::tempdir_in(&parent).map_err(cache_error)?;
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes))
            .map_err(|error| invalid(format!("is not a zip archive: {error}")))?;
        if archive.len() > MAX_ENTRIES {
            return Err(invalid(format!(
                "holds {} entries, more than the {MAX_ENTRIES} a package may have",
                archive.len()
            )));
        }
        let mut unpacked: u64 = 0;
        for index in 0..archive.len() {
            let mut entry = archive
                .by_index(index)
                .map_err(|error| invalid(format!("entry {index}: {error}")))?;
            let Some(relative) = entry.enclosed_name() else {
                return Err(invalid(format!(
                    "the entry `{}` would be unpacked outside the package's folder",
                    entry.name()
                )));
            };
            let destination = scratch.path().join(relative);
            if entry.is_dir() {
                fs_err::create_dir_all(&destination).map_err(cache_error)?;
                continue;
            }
            if entry.is_symlink() {
                return Err(invalid(format!(
                    "the entry `{}` is a symbolic link; a package's files are plain files",
                    entry.name()
                )));
            }
            if let Some(folder) = destination.parent() {
                fs_err::create_dir_all(folder).map_err(cache_error)?;
            }
            let mut file = fs_err::File::create(&destination).map_err(cache_error)?;
            let left = MAX_UNPACKED_BYTES.saturating_sub(unpacked);
            let copied = std::io::copy(&mut std::io::Read::take(&mut entry, left + 1), &mut file)
                .map_err(|error| invalid(format!("entry `{}`: {error}", entry.name())))?;
            unpacked += copied;
            if unpacked > MAX_UNPACKED_BYTES {
                return Err(invalid(format!(
                    "unpacks to more than {} MiB",
                    MAX_UNPACKED_BYTES >> 20
                )));
            }
        }
        if fs_err::rename(scratch.path(), &target).is_err() && !target.is_dir() {
            return Err(invalid(format!(
                "cannot move the unpacked package to `{}`",
                target.display()
            )));
        }
    }
    package_root(&target).ok_or_else(|| {
        invalid("holds no `problem.xml`, at its top or in its one top folder".to_owned())
    })
}

/// The folder of `unpacked` holding `problem.xml`: the top, or the one
/// folder at the top.
fn package_root(unpacked: &Path) -> Option<PathBuf> {
    if unpacked.join("problem.xml").is_file() {
        return Some(unpacked.to_owned());
    }
    let entries: Vec<PathBuf> = fs_err::read_dir(unpacked)
        .ok()?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .collect();
    match entries.as_slice() {
        [one] if one.join("problem.xml").is_file() => Some(one.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write as _;

    fn zip_of(entries: &[(&str, &str)]) -> Vec<u8> {
        let mut buffer = std::io::Cursor::new(Vec::new());
        {
            let mut writer = zip::ZipWriter::new(&mut buffer);
            for (name, contents) in entries {
                writer
                    .start_file(*name, zip::write::SimpleFileOptions::default())
                    .unwrap();
                writer.write_all(contents.as_bytes()).unwrap();
            }
            writer.finish().unwrap();
        }
        buffer.into_inner()
    }

    #[test]
    fn unpacks_once_and_finds_the_package_in_its_top_folder() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sum-3$linux.zip");
        fs_err::write(
            &path,
            zip_of(&[("sum/problem.xml", "<problem/>"), ("sum/tests/01", "1 2\n")]),
        )
        .unwrap();
        assert!(is_zip(&path));
        let cache = dir.path().join("cache");
        let root = unpack(&path, &cache).unwrap();
        assert_eq!(
            fs_err::read_to_string(root.join("tests/01")).unwrap(),
            "1 2\n"
        );
        // A second unpack finds it.
        fs_err::write(root.join("marker"), "").unwrap();
        assert_eq!(unpack(&path, &cache).unwrap(), root);
        assert!(root.join("marker").is_file());
    }

    #[test]
    fn refuses_an_entry_outside_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("evil.zip");
        fs_err::write(
            &path,
            zip_of(&[("../escape", "x"), ("problem.xml", "<problem/>")]),
        )
        .unwrap();
        let error = unpack(&path, &dir.path().join("cache"))
            .unwrap_err()
            .to_string();
        assert!(error.contains("outside the package's folder"), "{error}");
        assert!(!dir.path().join("escape").exists());
    }
}
