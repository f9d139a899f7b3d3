//! Reading a class's hand-ins and the teacher's starter code for `judge
//! similar`: each file read (or skipped with the reason), given its family
//! of languages and tokenized.
//!
//! Which files a class holds is not decided here: `discovery::discover` finds
//! them under judge.toml's layout, as for `judge grade`.

use super::tokens::{self, Grammar, Token, TokenizeError};
use super::{Note, Skipped};
use crate::config::judge::Language;
use crate::discovery::Entry;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Files larger than this are skipped: nobody writes a megabyte of code for
/// one problem, and comparing generated files tells nothing.
pub(crate) const MAX_FILE_BYTES: usize = 1024 * 1024;

/// How a file is read into tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reading {
    /// With a tree-sitter grammar.
    Grammar(Grammar),
    /// By plain tokens, for a language (its judge.toml name, or the file's
    /// extension) without a grammar.
    Plain(String),
}

impl Reading {
    /// How to read a file with this extension: a grammar when there is one,
    /// else plain tokens under the name of the judge.toml language that
    /// claims the extension (or the extension itself).
    pub(crate) fn for_path(path: &Path, languages: &BTreeMap<String, Language>) -> Reading {
        let extension = path
            .extension()
            .map(|extension| extension.to_string_lossy().into_owned())
            .unwrap_or_default();
        if let Some(grammar) = Grammar::for_extension(&extension) {
            return Reading::Grammar(grammar);
        }
        let named = languages
            .iter()
            .find(|(_, language)| language.extensions.contains(&extension))
            .map(|(name, _)| name.clone());
        Reading::Plain(named.unwrap_or_else(|| {
            if extension.is_empty() {
                "no extension".to_owned()
            } else {
                format!(".{extension}")
            }
        }))
    }

    /// The family of languages that compare with each other.
    pub(crate) fn family(&self) -> String {
        match self {
            Reading::Grammar(grammar) => grammar.family().to_owned(),
            Reading::Plain(name) => format!("{name} (plain tokens)"),
        }
    }
}

/// One hand-in, read and tokenized.
#[derive(Clone, Debug)]
pub struct HandIn {
    pub(crate) problem: String,
    pub(crate) student: String,
    pub(crate) path: PathBuf,
    /// The path as messages and reports show it.
    pub(crate) display: String,
    pub(crate) family: String,
    pub(crate) text: String,
    pub(crate) tokens: Vec<Token>,
}

impl HandIn {
    /// A hand-in from its text, read as its path's extension says (with no
    /// judge.toml languages: a file without a grammar reads as plain
    /// tokens). For tests, benchmarks and tools that hold the text already.
    pub fn from_text(
        problem: &str,
        student: &str,
        path: &Path,
        text: String,
    ) -> Result<HandIn, TokenizeError> {
        let reading = Reading::for_path(path, &BTreeMap::new());
        let (tokens, _) = tokenize(&reading, &text, path)?;
        Ok(HandIn {
            problem: problem.to_owned(),
            student: student.to_owned(),
            path: path.to_owned(),
            display: shown_path(path),
            family: reading.family(),
            text,
            tokens,
        })
    }
}

/// A hand-in's path as reports show it, without loss and without
/// ambiguity: a byte that is not UTF-8 as `\xNN`, and a backslash of the
/// name itself doubled (`\\`), so a folder named `r\xffx` (those six
/// characters) never shows as the folder `r` 0xFF `x` does.
pub(crate) fn shown_path(path: &Path) -> String {
    let mut text = String::new();
    for chunk in path.as_os_str().as_encoded_bytes().utf8_chunks() {
        text.push_str(&chunk.valid().replace('\\', "\\\\"));
        for byte in chunk.invalid() {
            text.push_str(&format!("\\x{byte:02x}"));
        }
    }
    text
}

/// A starter file of `--base`: `<problem>.<ext>`.
#[derive(Clone, Debug)]
pub struct BaseFile {
    pub(crate) problem: String,
    pub(crate) family: String,
    pub(crate) path: PathBuf,
    pub(crate) tokens: Vec<Token>,
}

/// What is wrong with `--base`: the user's to fix (exit 2).
#[derive(Debug, thiserror::Error)]
pub(crate) enum BaseError {
    #[error("cannot read the --base folder `{}`: {source}", path.display())]
    Folder {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("--base file `{}` is for `{problem}`, which is not a problem of this class or of judge (known: {known})", path.display())]
    UnknownProblem {
        path: PathBuf,
        problem: String,
        known: String,
    },
    #[error("--base file `{}`: {reason}", path.display())]
    Unusable { path: PathBuf, reason: String },
    #[error(transparent)]
    Tokenize(#[from] TokenizeError),
}

/// Why a file is not compared (its `skipped` reason).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum NotCompared {
    /// A folder where a hand-in was expected.
    #[error("a folder, not a file")]
    Folder,
    /// The one reader of hand-ins refused it (a link out of its folder, a
    /// FIFO, a device): its own words.
    #[error("{0}")]
    Refused(String),
    /// It could not be read.
    #[error("cannot be read: {0}")]
    Unreadable(String),
    /// Over [`MAX_FILE_BYTES`].
    #[error("larger than {} MiB", MAX_FILE_BYTES / (1024 * 1024))]
    TooLarge,
    /// It holds NUL bytes.
    #[error("binary (it holds NUL bytes), not source code")]
    Binary,
    /// Only whitespace.
    #[error("empty")]
    Empty,
}

/// Reads a file as text, or says why it is not compared.
fn read_text(path: &Path) -> Result<String, NotCompared> {
    if path.is_dir() {
        return Err(NotCompared::Folder);
    }
    // The one reader of hand-ins (issue #7): a link out of its folder is
    // refused and never read, and only a regular file is opened, so a FIFO
    // or a device cannot block or flood the comparison.
    let bytes = crate::runner::read_submission(path, &crate::runner::LinkScope::HandIn).map_err(
        |refusal| match refusal {
            crate::runner::SubmissionRefused::Unreadable(message) => {
                NotCompared::Unreadable(message)
            }
            refused @ (crate::runner::SubmissionRefused::Link(_)
            | crate::runner::SubmissionRefused::Refused(_)) => {
                NotCompared::Refused(refused.with_hint())
            }
        },
    )?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(NotCompared::TooLarge);
    }
    if bytes.contains(&0) {
        return Err(NotCompared::Binary);
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(NotCompared::Empty);
    }
    // A comment in Latin-1 should not hide the code around it.
    Ok(String::from_utf8(bytes)
        .unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned()))
}

/// Tokens of `text` read as `reading`, and a note when they are not a
/// clean parse.
fn tokenize(
    reading: &Reading,
    text: &str,
    path: &Path,
) -> Result<(Vec<Token>, Option<String>), TokenizeError> {
    Ok(match reading {
        Reading::Grammar(grammar) => {
            let parsed = tokens::parse(*grammar, text, path)?;
            let note = parsed.had_errors.then(|| {
                "does not parse (a syntax error?): compared by the tokens the parser recovered"
                    .to_owned()
            });
            (parsed.tokens, note)
        }
        Reading::Plain(name) => (
            tokens::plain(text),
            Some(format!(
                "no grammar for {name}: compared by plain tokens with the other {name} hand-ins"
            )),
        ),
    })
}

/// What reading one file gave.
enum Read {
    HandIn(HandIn, Option<Note>),
    Skipped(Skipped),
}

/// The hand-ins read, the files skipped and the notes on files read.
pub(crate) type ReadClass = (Vec<HandIn>, Vec<Skipped>, Vec<Note>);

/// Reads every file of `entries` (a student's extra files for the same
/// problem too: each is compared with the other students' files), in
/// parallel on `jobs` threads, keeping the entries' order.
pub fn read_hand_ins(
    entries: &[Entry],
    languages: &BTreeMap<String, Language>,
    jobs: usize,
) -> Result<ReadClass, TokenizeError> {
    let files: Vec<(&Entry, &PathBuf)> = entries
        .iter()
        .flat_map(|entry| {
            std::iter::once(&entry.path)
                .chain(&entry.others)
                .map(move |path| (entry, path))
        })
        .collect();
    let read = super::parallel_map(&files, jobs, |(entry, path)| {
        let display = shown_path(path);
        let skipped = |reason: String| {
            Read::Skipped(Skipped {
                path: display.clone(),
                reason,
            })
        };
        let text = match read_text(path) {
            Ok(text) => text,
            Err(reason) => return Ok(skipped(reason.to_string())),
        };
        let reading = Reading::for_path(path, languages);
        let (tokens, note) = tokenize(&reading, &text, path)?;
        if tokens.is_empty() {
            return Ok(skipped(
                "no code once comments and layout are set aside".to_owned(),
            ));
        }
        let note = note.map(|note| Note {
            path: display.clone(),
            note,
        });
        Ok(Read::HandIn(
            HandIn {
                problem: entry.problem.clone(),
                student: entry.student.clone(),
                path: (*path).clone(),
                display,
                family: reading.family(),
                text,
                tokens,
            },
            note,
        ))
    });
    let mut hand_ins = Vec::new();
    let mut skipped = Vec::new();
    let mut notes = Vec::new();
    for read in read {
        match read? {
            Read::HandIn(hand_in, note) => {
                hand_ins.push(hand_in);
                notes.extend(note);
            }
            Read::Skipped(skip) => skipped.push(skip),
        }
    }
    Ok((hand_ins, skipped, notes))
}

/// Reads `--base DIR`: every file in it (hidden ones aside) is
/// `<problem>.<ext>`, for a problem in `known`.
pub(crate) fn read_base(
    dir: &Path,
    known: &[String],
    languages: &BTreeMap<String, Language>,
) -> Result<Vec<BaseFile>, BaseError> {
    let folder = |source| BaseError::Folder {
        path: dir.to_owned(),
        source,
    };
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(folder)? {
        let entry = entry.map_err(folder)?;
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        paths.push(entry.path());
    }
    paths.sort();
    let mut base = Vec::new();
    for path in paths {
        let unusable = |reason: String| BaseError::Unusable {
            path: path.clone(),
            reason,
        };
        let problem = path
            .file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !known.contains(&problem) {
            return Err(BaseError::UnknownProblem {
                path,
                problem,
                known: known.join(", "),
            });
        }
        let text = read_text(&path).map_err(|reason| unusable(reason.to_string()))?;
        let reading = Reading::for_path(&path, languages);
        let (tokens, _) = tokenize(&reading, &text, &path)?;
        base.push(BaseFile {
            problem,
            family: reading.family(),
            path,
            tokens,
        });
    }
    Ok(base)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_files_are_skipped_with_the_reason() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, bytes: &[u8]| {
            let path = dir.path().join(name);
            fs_err::write(&path, bytes).unwrap();
            path
        };
        let huge = vec![b'x'; MAX_FILE_BYTES + 1];
        let cases = [
            (write("empty.c", b" \n\t"), "empty"),
            (
                write("binary.c", b"int\0main"),
                "binary (it holds NUL bytes), not source code",
            ),
            (write("huge.c", &huge), "larger than 1 MiB"),
        ];
        for (path, reason) in cases {
            assert_eq!(read_text(&path).unwrap_err().to_string(), reason);
        }
        // A FIFO would block a plain read, and a link out of the folder
        // would show another file's text (adversarial review of issue #16).
        let fifo = dir.path().join("fifo.c");
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        let refused = read_text(&fifo).unwrap_err().to_string();
        assert!(refused.contains("fifo.c"), "{refused}");
        let outside = tempfile::tempdir().unwrap();
        let secret = outside.path().join("secret.c");
        fs_err::write(&secret, "int secret;").unwrap();
        let link = dir.path().join("link.c");
        std::os::unix::fs::symlink(&secret, &link).unwrap();
        let refused = read_text(&link).unwrap_err().to_string();
        assert!(refused.contains("symbolic link"), "{refused}");
        let missing = read_text(&dir.path().join("missing.c"))
            .unwrap_err()
            .to_string();
        assert!(missing.starts_with("cannot be read: "), "{missing}");
        let latin = write("latin.c", b"/* caf\xe9 */ int x;");
        assert!(read_text(&latin).unwrap().contains("int x;"));
    }

    #[test]
    fn c_and_cpp_are_one_family_and_others_read_plain() {
        let languages = crate::config::judge::JudgeConfig::defaults()
            .unwrap()
            .languages;
        let family = |name: &str| Reading::for_path(Path::new(name), &languages).family();
        assert_eq!(family("a.c"), family("b.cpp"));
        assert_ne!(family("a.c"), family("a.py"));
        // A built-in language with no grammar here reads plain, by its name;
        // an extension in no language by the extension.
        assert_eq!(family("a.go"), "go (plain tokens)");
        assert_eq!(family("a.zig"), ".zig (plain tokens)");
        assert_eq!(family("Makefile"), "no extension (plain tokens)");
    }
}
