//! Configuration files: their serde models, defaults and the one error type
//! that names the file, line and column of anything wrong in them.
//!
//! `problem.rs` models `problems/<id>/problem.toml`. This module reads and
//! validates; it never runs anything.

pub mod bundled;
pub(crate) mod groups;
pub mod judge;
pub(crate) mod kattis;
pub(crate) mod kattis_constants;
pub(crate) mod kattis_glob;
pub(crate) mod kattis_groups;
pub(crate) mod kattis_submissions;
pub(crate) mod kattis_time_limit_files;
pub(crate) mod kattis_validator_args;
pub(crate) mod kattis_yaml;
pub(crate) mod languages;
pub mod problem;
pub mod report;

use std::fmt;
use std::path::{Path, PathBuf};

/// A configuration file could not be used. Always a usage error (exit 2):
/// nothing is run with a half-understood configuration.
#[derive(Debug, thiserror::Error)]
#[error("failed to load `{}`: {kind}", path.display())]
pub struct ConfigError {
    /// The file.
    pub(crate) path: PathBuf,
    /// What was wrong with it.
    pub(crate) kind: ConfigErrorKind,
}

/// The ways a configuration file can be wrong.
#[derive(Debug)]
pub(crate) enum ConfigErrorKind {
    /// The file could not be read.
    Read(std::io::Error),
    /// TOML syntax, an unknown key or a value of the wrong type.
    Parse {
        /// 1-based line and column of the offending span, when toml gave one.
        position: Option<(usize, usize)>,
        message: String,
    },
    /// The file parsed, but a value is not allowed (e.g. an unknown profile).
    Invalid {
        key: String,
        message: String,
        /// The 1-based line of the key in the file, when it could be found.
        line: Option<usize>,
    },
    /// A package's test is not valid for any profile the package lists.
    InvalidTest {
        error: crate::problems::InputError,
        profiles: String,
    },
    /// [`ConfigErrorKind::Invalid`] with advice, printed after the error
    /// as `hint: ...` (a package's program refused for a link it holds).
    Refused {
        key: String,
        message: String,
        hint: crate::hint::Hint,
    },
    /// `--problems-dir` (or a path that must be a folder) is not a folder.
    NotAFolder,
    /// A file of a package reached through a symbolic link that leads out
    /// of the package or does not resolve, refused when it was opened
    /// ([`crate::beneath`], issue #34); the file is the link's.
    Link(Box<crate::beneath::LinkRefused>),
    /// A file refused unread by its kind (a FIFO, a device) or its size
    /// ([`crate::data_file`], issue #34).
    Unread(crate::data_file::Unread),
}

impl fmt::Display for ConfigErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigErrorKind::Read(error) => f.write_str(&io_reason(error)),
            ConfigErrorKind::Parse {
                position: Some((line, column)),
                message,
            } => write!(f, "line {line}, column {column}: {message}"),
            ConfigErrorKind::Parse {
                position: None,
                message,
            } => f.write_str(message),
            ConfigErrorKind::Invalid {
                key,
                message,
                line: Some(line),
            } => write!(f, "line {line}: `{key}`: {message}"),
            ConfigErrorKind::Invalid {
                key,
                message,
                line: None,
            } => write!(f, "`{key}`: {message}"),
            ConfigErrorKind::InvalidTest { error, profiles } => {
                write!(f, "{error} (the package's tests come from: {profiles})")
            }
            ConfigErrorKind::Refused { key, message, .. } => write!(f, "`{key}`: {message}"),
            ConfigErrorKind::NotAFolder => f.write_str("is not a folder"),
            ConfigErrorKind::Link(refused) => write!(f, "{refused}"),
            ConfigErrorKind::Unread(why) => write!(f, "{why}"),
        }
    }
}

impl ConfigError {
    /// A parse error from `toml`, with the span turned into line and column.
    pub(crate) fn parse(path: &Path, text: &str, error: &toml::de::Error) -> Self {
        let position = error.span().map(|span| line_column(text, span.start));
        ConfigError {
            path: path.to_owned(),
            kind: ConfigErrorKind::Parse {
                position,
                message: readable(error.message().trim_end()),
            },
        }
    }

    /// A value that parsed but is not allowed.
    pub(crate) fn invalid(path: &Path, key: impl Into<String>, message: impl Into<String>) -> Self {
        ConfigError {
            path: path.to_owned(),
            kind: ConfigErrorKind::Invalid {
                key: key.into(),
                message: message.into(),
                line: None,
            },
        }
    }

    /// [`ConfigError::invalid`] with advice when there is any.
    pub(crate) fn invalid_with_hint(
        path: &Path,
        key: impl Into<String>,
        message: impl Into<String>,
        hint: Option<crate::hint::Hint>,
    ) -> Self {
        let (key, message) = (key.into(), message.into());
        match hint {
            Some(hint) => ConfigError {
                path: path.to_owned(),
                kind: ConfigErrorKind::Refused { key, message, hint },
            },
            None => ConfigError::invalid(path, key, message),
        }
    }

    /// The advice printed after the error, when it has any.
    pub(crate) fn hint(&self) -> Option<crate::hint::Hint> {
        match &self.kind {
            ConfigErrorKind::Refused { hint, .. } => Some(hint.clone()),
            ConfigErrorKind::Link(refused) => refused.hint(),
            ConfigErrorKind::Read(_)
            | ConfigErrorKind::Parse { .. }
            | ConfigErrorKind::Invalid { .. }
            | ConfigErrorKind::InvalidTest { .. }
            | ConfigErrorKind::NotAFolder
            | ConfigErrorKind::Unread(_) => None,
        }
    }

    /// A file of a package that was not read by [`crate::data_file`]: a
    /// FIFO or device, a file over its bound (issue #34), or an I/O error.
    pub(crate) fn data_file(error: crate::data_file::DataFileError) -> Self {
        use crate::data_file::DataFileError;
        match error {
            DataFileError::Io { path, source } => ConfigError {
                path,
                kind: ConfigErrorKind::Read(source),
            },
            DataFileError::Unread { path, why } => ConfigError {
                path,
                kind: ConfigErrorKind::Unread(why),
            },
        }
    }

    /// A package's YAML (or TOML) file at `path`, read whole: a regular
    /// file of at most [`crate::data_file::MAX_YAML_BYTES`].
    pub(crate) fn read_yaml(path: &Path) -> Result<Vec<u8>, Self> {
        crate::data_file::read(path, crate::data_file::MAX_YAML_BYTES).map_err(Self::data_file)
    }

    /// [`Self::read_yaml`] as text, refused when it is not UTF-8 (in the
    /// words `fs_err::read_to_string` used before it).
    pub(crate) fn read_yaml_text(path: &Path) -> Result<String, Self> {
        String::from_utf8(Self::read_yaml(path)?).map_err(|_| ConfigError {
            path: path.to_owned(),
            kind: ConfigErrorKind::Read(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                "stream did not contain valid UTF-8",
            )),
        })
    }

    /// A file of a package at `path` that was not read beneath the
    /// package's folder ([`crate::beneath::Beneath`]): a refused link, or
    /// why it could not be read.
    pub(crate) fn beneath(path: &Path, error: crate::beneath::BeneathError) -> Self {
        use crate::beneath::BeneathError;
        let kind = match error {
            BeneathError::Refused(refused) => ConfigErrorKind::Link(Box::new(refused)),
            BeneathError::Io { source, .. } => ConfigErrorKind::Read(source),
            BeneathError::NotRegular(ref shown) => {
                let kind = fs_err::metadata(shown).map_or("not a regular file", |metadata| {
                    crate::data_file::kind_of(metadata.file_type())
                });
                ConfigErrorKind::Unread(crate::data_file::Unread::NotRegular { kind })
            }
            BeneathError::TooLarge(_, size, limit) => {
                ConfigErrorKind::Unread(crate::data_file::Unread::TooLarge { size, limit })
            }
        };
        ConfigError {
            path: path.to_owned(),
            kind,
        }
    }

    /// [`ConfigError::invalid`] on the 1-based `line` of the file.
    pub(crate) fn invalid_on(
        path: &Path,
        line: usize,
        key: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        ConfigError {
            path: path.to_owned(),
            kind: ConfigErrorKind::Invalid {
                key: key.into(),
                message: message.into(),
                line: Some(line),
            },
        }
    }
}

/// Whether `dir` holds `name` as anything but a folder: a package
/// format's marker, read without opening it. A marker that is no regular
/// file (a FIFO, a link to `/dev/zero` or to nothing) still counts, so the
/// format's load names it rather than "no package" (issue #34). The one
/// test of a marker, for the formats' detection
/// (`crate::package::format::PackageFormat::recognises`); where a
/// program's links may lead is never asked of a marker: its caller names
/// it (`crate::runner::LinkScope`).
pub(crate) fn holds_marker(dir: &Path, name: &str) -> bool {
    let marker = dir.join(name);
    std::fs::symlink_metadata(&marker).is_ok() && !marker.is_dir()
}

/// The 1-based line where the dotted `key` (`languages.python.time-factor`)
/// is written in TOML `text`: the line of `leaf = ...` inside the table
/// `[a.b]` of its prefix (or before any table for a top-level key), or the
/// table header itself for a key that names a table. `None` when the key is
/// written another way (inline tables, dotted keys).
pub(crate) fn key_line(text: &str, key: &str) -> Option<usize> {
    let key = key.split('[').next().unwrap_or(key);
    let (table, leaf) = match key.rsplit_once('.') {
        Some((table, leaf)) => (Some(table), leaf),
        None => (None, key),
    };
    let is_assignment = |line: &str, name: &str| {
        line.trim_start()
            .strip_prefix(name)
            .is_some_and(|rest| rest.trim_start().starts_with('='))
    };
    let is_header = |line: &str, name: &str| {
        let line = line.trim();
        line.strip_prefix('[')
            .and_then(|rest| rest.strip_suffix(']'))
            .is_some_and(|inner| inner.trim() == name)
    };
    let mut in_table = table.is_none();
    // A key that is missing from its table is named by the table's header.
    let mut header = None;
    for (index, line) in text.lines().enumerate() {
        if line.trim_start().starts_with('[') {
            if is_header(line, key) {
                return Some(index + 1);
            }
            in_table = table.is_some_and(|table| is_header(line, table));
            if in_table {
                header = Some(index + 1);
            }
            continue;
        }
        if in_table && is_assignment(line, leaf) {
            return Some(index + 1);
        }
    }
    header
}

/// The operating system's reason for an I/O error, without the path that
/// `fs_err` adds (the caller names the path once).
pub(crate) fn io_reason(error: &std::io::Error) -> String {
    error
        .get_ref()
        .and_then(|inner| std::error::Error::source(inner))
        .map_or_else(|| error.to_string(), ToString::to_string)
}

/// 1-based line and column (in characters) of byte `offset` in `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = text.get(..offset).unwrap_or(text);
    let line = 1 + before.matches('\n').count();
    let column = 1 + before
        .rsplit('\n')
        .next()
        .map_or(0, |last| last.chars().count());
    (line, column)
}

/// A message of serde's in words a teacher reads: `expected usize` says
/// "a whole number", and an unknown key or value one edit from a known one
/// gets "did you mean" (`random_tests` -> `random-tests`).
fn readable(message: &str) -> String {
    let mut message = message.to_owned();
    for (rust, words) in [
        ("expected usize", "expected a whole number, 0 or more"),
        ("expected u64", "expected a whole number, 0 or more"),
        ("expected u32", "expected a whole number, 0 or more"),
        ("expected f64", "expected a number"),
    ] {
        message = message.replace(rust, words);
    }
    for prefix in ["unknown field `", "unknown variant `"] {
        let Some(rest) = message.strip_prefix(prefix) else {
            continue;
        };
        let Some((word, known)) = rest.split_once('`') else {
            continue;
        };
        let candidates: Vec<&str> = known.split('`').skip(1).step_by(2).collect();
        let hint = crate::suggest::did_you_mean(word, candidates);
        message.push_str(&hint);
    }
    message
}

/// Parses TOML text into `T`, naming `path` in any error.
pub(crate) fn parse_toml<T: serde::de::DeserializeOwned>(
    path: &Path,
    text: &str,
) -> Result<T, ConfigError> {
    toml::from_str(text).map_err(|error| ConfigError::parse(path, text, &error))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one marker rule of the formats' detection: anything but a
    /// folder (a FIFO or a link to nothing too, which the format's load
    /// then names), never a folder or nothing.
    #[test]
    fn a_marker_is_anything_named_so_but_a_folder() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let root = dir.path();
        assert!(!holds_marker(root, "problem.yaml"), "nothing there");
        fs_err::create_dir(root.join("problem.yaml")).expect("a folder");
        assert!(!holds_marker(root, "problem.yaml"), "a folder");
        fs_err::remove_dir(root.join("problem.yaml")).expect("removed");
        std::os::unix::fs::symlink("nowhere", root.join("problem.yaml")).expect("a link");
        assert!(holds_marker(root, "problem.yaml"), "a link to nothing");
        fs_err::remove_file(root.join("problem.yaml")).expect("removed");
        fs_err::write(root.join("problem.yaml"), "name: x\n").expect("a file");
        assert!(holds_marker(root, "problem.yaml"), "a file");
    }

    #[test]
    fn serde_messages_read_as_words_with_a_guess() {
        assert_eq!(
            readable("unknown field `random_tests`, expected one of `seed`, `random-tests`, `jobs`"),
            "unknown field `random_tests`, expected one of `seed`, `random-tests`, `jobs`; did you mean `random-tests`?"
        );
        assert_eq!(
            readable("unknown field `colour`, expected one of `seed`, `jobs`"),
            "unknown field `colour`, expected one of `seed`, `jobs`"
        );
        assert_eq!(
            readable("invalid type: string \"one\", expected usize"),
            "invalid type: string \"one\", expected a whole number, 0 or more"
        );
    }

    #[test]
    fn key_line_finds_keys_in_tables() {
        let text =
            "seed = 1\n[limits]\nwall-time-factor = 2\n[languages.python]\ntime-factor = 5\n";
        assert_eq!(key_line(text, "seed"), Some(1));
        assert_eq!(key_line(text, "limits.wall-time-factor"), Some(3));
        assert_eq!(key_line(text, "languages.python.time-factor"), Some(5));
        assert_eq!(key_line(text, "languages.python"), Some(4));
        assert_eq!(key_line(text, "languages.java.run"), None);
        assert_eq!(key_line(text, "languages.python.run"), Some(4));
    }

    #[test]
    fn line_column_counts_from_one() {
        assert_eq!(line_column("a\nbc\n", 0), (1, 1));
        assert_eq!(line_column("a\nbc\n", 3), (2, 2));
        assert_eq!(line_column("a\nbc\n", 99), (3, 1));
    }
}
