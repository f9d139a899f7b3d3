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
use std::collections::HashMap;
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
    let bytes = crate::data_file::read(path, crate::data_file::MAX_ARCHIVE_BYTES)
        .map_err(ConfigError::data_file)?;
    let digest = hex(&Sha256::digest(&bytes));
    let parent = cache.join("archives");
    let target = parent.join(&digest);
    if !target.is_dir() {
        let cache_error =
            |error: std::io::Error| invalid(format!("cannot unpack it into the cache: {error}"));
        fs_err::create_dir_all(&parent).map_err(cache_error)?;
        let scratch = tempfile::tempdir_in(&parent).map_err(cache_error)?;
        // The zip crate keeps one entry per name (the last): a name held
        // twice is found in the central directory itself.
        if let Some((name, first, second)) = central_names(&bytes).as_deref().and_then(twice) {
            return Err(invalid(format!(
                "holds `{name}` twice (entries {first} and {second}): which one is the \
                 package's is not known"
            )));
        }
        let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes))
            .map_err(|error| invalid(format!("is not a zip archive: {error}")))?;
        if archive.len() > MAX_ENTRIES {
            return Err(invalid(format!(
                "holds {} entries, more than the {MAX_ENTRIES} a package may have",
                archive.len()
            )));
        }
        let mut unpacked: u64 = 0;
        // Each file's entry number (from 1), by where it lands.
        let mut files: HashMap<PathBuf, usize> = HashMap::new();
        for index in 0..archive.len() {
            let mut entry = archive
                .by_index(index)
                .map_err(|error| invalid(format!("entry {index}: {error}")))?;
            let relative = match entry.enclosed_name() {
                Some(relative) if stays_inside(entry.name()) => relative,
                _ => {
                    return Err(invalid(format!(
                        "the entry `{}` would be unpacked outside the package's folder (an \
                         absolute path, or one through `..`)",
                        entry.name()
                    )))
                }
            };
            if !entry.is_dir() {
                if let Some(first) = files.insert(relative.clone(), index + 1) {
                    return Err(invalid(format!(
                        "holds `{}` twice (entries {first} and {}): which one is the package's \
                         is not known",
                        entry.name(),
                        index + 1
                    )));
                }
            }
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
        // Checked before it is kept: a zip that is no package leaves
        // nothing in the cache.
        if package_root(scratch.path()).is_none() {
            return Err(no_problem_xml(path, scratch.path()));
        }
        if fs_err::rename(scratch.path(), &target).is_err() && !target.is_dir() {
            return Err(invalid(format!(
                "cannot move the unpacked package to `{}`",
                target.display()
            )));
        }
    }
    package_root(&target).ok_or_else(|| no_problem_xml(path, &target))
}

/// The first name `names` holds twice, with the entry numbers (from 1) of
/// both.
fn twice(names: &[String]) -> Option<(String, usize, usize)> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (index, name) in names.iter().enumerate() {
        if let Some(first) = seen.insert(name, index + 1) {
            return Some((name.clone(), first, index + 1));
        }
    }
    None
}

/// The entry names of the zip `bytes` in the order of its central
/// directory, read from its end of central directory record (zip64 too);
/// `None` when they cannot be read that way (the zip crate then judges
/// the archive).
fn central_names(bytes: &[u8]) -> Option<Vec<String>> {
    let u16_at = |at: usize| -> Option<u64> {
        Some(u64::from(u16::from_le_bytes(
            bytes.get(at..at + 2)?.try_into().ok()?,
        )))
    };
    let u32_at = |at: usize| -> Option<u64> {
        Some(u64::from(u32::from_le_bytes(
            bytes.get(at..at + 4)?.try_into().ok()?,
        )))
    };
    let u64_at = |at: usize| -> Option<u64> {
        Some(u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?))
    };
    // The record is 22 bytes and a comment of at most 65535.
    let earliest = bytes.len().saturating_sub(22 + 65_535);
    let end = (earliest..=bytes.len().checked_sub(22)?)
        .rev()
        .find(|&at| bytes[at..].starts_with(b"PK\x05\x06"))?;
    let (mut count, mut start) = (u16_at(end + 10)?, u32_at(end + 16)?);
    if count == 0xFFFF || start == 0xFFFF_FFFF {
        // zip64: the locator, 20 bytes before, gives the zip64 record.
        let locator = end.checked_sub(20)?;
        if !bytes[locator..].starts_with(b"PK\x06\x07") {
            return None;
        }
        let record = usize::try_from(u64_at(locator + 8)?).ok()?;
        if !bytes.get(record..)?.starts_with(b"PK\x06\x06") {
            return None;
        }
        count = u64_at(record + 32)?;
        start = u64_at(record + 48)?;
    }
    let mut at = usize::try_from(start).ok()?;
    let mut names = Vec::new();
    for _ in 0..count.min(MAX_ENTRIES as u64 + 1) {
        if !bytes.get(at..)?.starts_with(b"PK\x01\x02") {
            return None;
        }
        let name_length = usize::try_from(u16_at(at + 28)?).ok()?;
        let extra_length = usize::try_from(u16_at(at + 30)?).ok()?;
        let comment_length = usize::try_from(u16_at(at + 32)?).ok()?;
        let name = bytes.get(at + 46..at + 46 + name_length)?;
        names.push(String::from_utf8_lossy(name).into_owned());
        at += 46 + name_length + extra_length + comment_length;
    }
    Some(names)
}

/// Why the zip at `path`, unpacked in `unpacked`, is no package: no
/// `problem.xml` at all, or several top folders each holding one (issue
/// #29 break-it: two packages in one zip were said to hold none).
fn no_problem_xml(path: &Path, unpacked: &Path) -> ConfigError {
    const SHAPES: &str = "a zip is read as one package: `problem.xml` at its top, or in its one \
                          top folder";
    let mut holding: Vec<String> = fs_err::read_dir(unpacked)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter(|entry| entry.path().join("problem.xml").is_file())
        .map(|entry| format!("`{}/`", entry.file_name().to_string_lossy()))
        .collect();
    holding.sort();
    let message = if holding.len() > 1 {
        format!(
            "holds {} top folders with a `problem.xml` ({}): {SHAPES}; zip each package on its \
             own",
            holding.len(),
            holding.join(", ")
        )
    } else {
        format!("holds no `problem.xml` where one is looked for: {SHAPES}")
    };
    ConfigError::invalid(path, "zip", message)
}

/// Whether the entry `name` lands inside the folder it is unpacked in, as
/// the archive spells it: not absolute (`/x`, `\\x`, `C:x`) and never
/// through `..` (even one that would come back, `a/../b`).
fn stays_inside(name: &str) -> bool {
    let absolute = name.starts_with(['/', '\\']) || name.as_bytes().get(1) == Some(&b':');
    !absolute && name.split(['/', '\\']).all(|part| part != "..")
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

    /// See: issue #29 break-it. A zip with two packages at its top was
    /// said to hold no `problem.xml`.
    #[test]
    fn two_packages_at_the_top_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("two.zip");
        fs_err::write(
            &path,
            zip_of(&[
                ("b/problem.xml", "<problem/>"),
                ("a/problem.xml", "<problem/>"),
            ]),
        )
        .unwrap();
        let error = unpack(&path, &dir.path().join("cache"))
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("holds 2 top folders with a `problem.xml` (`a/`, `b/`)")
                && error.contains("`problem.xml` at its top, or in its one top folder"),
            "{error}"
        );
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

    /// See: issue #29 break-it. An absolute entry was unpacked as a
    /// relative one beside the package, which then held "no problem.xml",
    /// and the half-made folder stayed in the cache.
    #[test]
    fn refuses_an_absolute_entry_and_keeps_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("abs.zip");
        fs_err::write(
            &path,
            zip_of(&[("sum/problem.xml", "<problem/>"), ("/tmp/pwned", "x")]),
        )
        .unwrap();
        let cache = dir.path().join("cache");
        let error = unpack(&path, &cache).unwrap_err().to_string();
        assert!(
            error.contains("the entry `/tmp/pwned` would be unpacked outside the package's folder"),
            "{error}"
        );
        let archives = cache.join("archives");
        assert_eq!(fs_err::read_dir(&archives).unwrap().count(), 0);
    }

    #[test]
    fn refuses_a_file_held_twice() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("dup.zip");
        // The zip crate refuses to write a name twice; the second differs
        // by a `./`, which lands on the same file.
        fs_err::write(
            &path,
            zip_of(&[
                ("sum/problem.xml", "<problem/>"),
                ("sum/tests/01", "1 2\n"),
                ("sum/./tests/01", "3 4\n"),
            ]),
        )
        .unwrap();
        let error = unpack(&path, &dir.path().join("cache"))
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("holds `sum/./tests/01` twice (entries 2 and 3)"),
            "{error}"
        );
    }

    /// See: issue #29 break-it. The zip crate keeps the last of two
    /// entries with one name: the package's test was whichever came last.
    #[test]
    fn refuses_a_name_held_twice() {
        let mut bytes = zip_of(&[
            ("sum/problem.xml", "<problem/>"),
            ("sum/tests/01", "1 2\n"),
            ("sum/tests/0X", "3 4\n"),
        ]);
        // The same name twice, as a zip tool can write it: the third
        // entry's name in its local and central headers becomes the
        // second's.
        let from = b"sum/tests/0X";
        let to = b"sum/tests/01";
        let mut at = 0;
        while let Some(found) = bytes[at..]
            .windows(from.len())
            .position(|window| window == from)
        {
            bytes[at + found..at + found + to.len()].copy_from_slice(to);
            at += found + to.len();
        }
        assert_eq!(
            twice(&central_names(&bytes).unwrap()),
            Some(("sum/tests/01".to_owned(), 2, 3))
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("dup.zip");
        fs_err::write(&path, bytes).unwrap();
        let error = unpack(&path, &dir.path().join("cache"))
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("holds `sum/tests/01` twice (entries 2 and 3)"),
            "{error}"
        );
    }

    #[test]
    fn central_names_are_read_in_order() {
        let bytes = zip_of(&[("a/problem.xml", "x"), ("a/tests/01", "y")]);
        assert_eq!(
            central_names(&bytes).unwrap(),
            vec!["a/problem.xml".to_owned(), "a/tests/01".to_owned()]
        );
    }

    #[test]
    fn a_zip_without_problem_xml_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("two.zip");
        fs_err::write(
            &path,
            zip_of(&[("a/problem.xml", "<problem/>"), ("b/x", "")]),
        )
        .unwrap();
        let cache = dir.path().join("cache");
        let error = unpack(&path, &cache).unwrap_err().to_string();
        assert!(error.contains("holds no `problem.xml`"), "{error}");
        assert_eq!(fs_err::read_dir(cache.join("archives")).unwrap().count(), 0);
    }

    #[test]
    fn names_through_dot_dot_or_rooted_are_outside() {
        for name in ["/x", "\\x", "C:x", "a/../b", "a\\..\\b", ".."] {
            assert!(!stays_inside(name), "{name}");
        }
        for name in ["a/b", "sum/tests/01", "a..b/c"] {
            assert!(stays_inside(name), "{name}");
        }
    }
}
