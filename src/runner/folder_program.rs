//! A program that is a folder (issue #15: the Kattis format's validators,
//! output validators and submissions may be folders): its files are copied
//! into the program's directory as they are laid out, and it is compiled as
//! one program. Only regular files are copied, a symbolic link as its
//! target's bytes when the link rule ([`super::links`]) lets it reach a
//! file (a link to a folder, a FIFO or a device is refused, never opened),
//! at most [`MAX_FOLDER_FILES`] files and [`MAX_FOLDER_BYTES`] in all.

use super::links::LinkScope;
use crate::config::judge::Language;
use crate::config::kattis_constants::Constants;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

/// The most files a folder program may hold.
pub(super) const MAX_FOLDER_FILES: usize = 1000;

/// The most bytes a folder program may hold in all.
pub(super) const MAX_FOLDER_BYTES: u64 = 64 << 20;

/// Why a folder program cannot be used: the program's fault (a
/// submission's CE, a package's refused program), with the reason.
#[derive(Debug, thiserror::Error)]
pub(crate) enum FolderRefused {
    #[error("cannot read `{}`: {error}", path.display())]
    Unreadable {
        path: PathBuf,
        error: walkdir::Error,
    },
    #[error(
        "refused `{}`: a folder program holds only regular files, folders and links to files \
         (no link to a folder, FIFO or device)",
        .0.display()
    )]
    NotRegular(PathBuf),
    #[error(
        "refused `{}`: a folder program holds at most {MAX_FOLDER_FILES} files and {} MiB",
        .0.display(),
        MAX_FOLDER_BYTES >> 20
    )]
    TooLarge(PathBuf),
    #[error("`{}` is not inside `{}`", file.display(), folder.display())]
    Outside { file: PathBuf, folder: PathBuf },
    #[error("failed to copy the program: {0}")]
    Copy(std::io::Error),
    /// One of its files, as [`super::read_submission`] refused it.
    #[error(transparent)]
    File(super::SubmissionRefused),
    /// A link among its files points where it may not.
    #[error(transparent)]
    Link(#[from] super::links::LinkRefused),
    #[error("the folder holds no `{language}` source ({extensions})")]
    NoSource {
        language: String,
        extensions: String,
    },
    /// No entry point by the language's `folder-entry` rules; `needs`
    /// says what would be one (see [`entry_needs`]).
    #[error("the folder's entry point is ambiguous: a {language} folder program needs {needs}")]
    AmbiguousEntry { language: String, needs: String },
    /// The entry point `submissions.yaml` states is no source at the
    /// folder's top.
    #[error(
        "the stated entry point `{entry}` (submissions.yaml `entrypoint`) is no source at the \
         folder's top"
    )]
    NoEntry { entry: String },
}

impl FolderRefused {
    /// The advice printed after the refusal: a refused link's.
    pub(crate) fn hint(&self) -> Option<crate::hint::Hint> {
        match self {
            FolderRefused::Link(refused) => refused.hint(),
            FolderRefused::File(refused) => refused.hint(),
            FolderRefused::Unreadable { .. }
            | FolderRefused::NotRegular(_)
            | FolderRefused::TooLarge(_)
            | FolderRefused::Outside { .. }
            | FolderRefused::Copy(_)
            | FolderRefused::NoSource { .. }
            | FolderRefused::AmbiguousEntry { .. }
            | FolderRefused::NoEntry { .. } => None,
        }
    }

    /// The refusal as one text, its hint after a blank line: a CE reason.
    pub(crate) fn with_hint(&self) -> String {
        crate::hint::with_hint(self, self.hint())
    }
}

/// The regular files under `folder`, in name order, without hidden ones,
/// and its links to files where `scope` lets them resolve; anything else
/// (a link elsewhere or to a folder, a FIFO), too many files or too many
/// bytes is refused with the reason.
pub(crate) fn folder_files(
    folder: &Path,
    scope: &LinkScope,
) -> Result<Vec<PathBuf>, FolderRefused> {
    let mut files = Vec::new();
    let mut bytes = 0u64;
    let walk = walkdir::WalkDir::new(folder)
        .sort_by_file_name()
        .follow_links(false)
        .min_depth(1)
        .into_iter()
        .filter_entry(|entry| !entry.file_name().to_string_lossy().starts_with('.'));
    for entry in walk {
        let entry = entry.map_err(|error| FolderRefused::Unreadable {
            path: folder.to_owned(),
            error,
        })?;
        let kind = entry.file_type();
        if kind.is_dir() {
            continue;
        }
        let size = if kind.is_symlink() {
            // A link is copied as its target's bytes, when the target is a
            // file where `scope` lets it resolve.
            let target = super::links::resolve_link(entry.path(), scope)?;
            let metadata = fs_err::metadata(&target).map_err(FolderRefused::Copy)?;
            if !metadata.is_file() {
                return Err(FolderRefused::NotRegular(entry.into_path()));
            }
            metadata.len()
        } else if kind.is_file() {
            entry
                .metadata()
                .map_err(|error| FolderRefused::Unreadable {
                    path: entry.path().to_owned(),
                    error,
                })?
                .len()
        } else {
            return Err(FolderRefused::NotRegular(entry.into_path()));
        };
        bytes = bytes.saturating_add(size);
        files.push(entry.into_path());
        if files.len() > MAX_FOLDER_FILES || bytes > MAX_FOLDER_BYTES {
            return Err(FolderRefused::TooLarge(folder.to_owned()));
        }
    }
    Ok(files)
}

/// Copies the folder `from` into `to` (which exists), keeping its layout,
/// its links followed where `scope` lets them, with `constants` replaced
/// in its text files (a package's own program: the format replaces them
/// in every file of it). Returns the copies, in name order.
pub(super) fn copy_folder(
    from: &Path,
    to: &Path,
    constants: Option<&Constants>,
    scope: &LinkScope,
) -> Result<Vec<PathBuf>, FolderRefused> {
    let mut copies = Vec::new();
    for file in folder_files(from, scope)? {
        let relative = file
            .strip_prefix(from)
            .map_err(|_| FolderRefused::Outside {
                file: file.clone(),
                folder: from.to_owned(),
            })?;
        let copy = to.join(relative);
        if let Some(parent) = copy.parent() {
            fs_err::create_dir_all(parent).map_err(FolderRefused::Copy)?;
        }
        let bytes = super::read_submission(&file, scope).map_err(FolderRefused::File)?;
        let bytes = match constants {
            Some(constants) => constants.substitute_bytes(bytes),
            None => bytes,
        };
        fs_err::write(&copy, bytes).map_err(FolderRefused::Copy)?;
        // An executable keeps its execute bit (a `build` or `run` script, a
        // helper it calls); everything else is plain data.
        let executable = fs_err::metadata(&file)
            .map(|metadata| metadata.permissions().mode() & 0o100 != 0)
            .map_err(FolderRefused::Copy)?;
        let mode = if executable { 0o755 } else { 0o644 };
        fs_err::set_permissions(&copy, std::fs::Permissions::from_mode(mode))
            .map_err(FolderRefused::Copy)?;
        copies.push(copy);
    }
    Ok(copies)
}

/// The scripts of a folder program that builds and runs itself (the
/// Kattis format's "other programs"): `build`, run once in a copy of the
/// folder, then `run`, the program.
pub(crate) const SCRIPTS: [&str; 2] = ["build", "run"];

/// Whether `folder` is a folder program with a `build` or a `run` script:
/// it is built and run by them, not by a language's commands. A `build`
/// or `run` that is not a regular file still counts: copying the folder
/// refuses it with the reason.
pub(crate) fn has_scripts(folder: &Path) -> bool {
    folder.is_dir()
        && SCRIPTS
            .iter()
            .any(|script| fs_err::symlink_metadata(folder.join(script)).is_ok())
}

/// The sources of `language` among `copies` in `dir`, and the entry point:
/// Python's `__main__.py` (else its one `.py` file at the top), Java's
/// `Main.java` (else its one `.java` file at the top, else the first in name
/// order at the top whose class declares `main`), otherwise the first
/// source (C and C++ have no entry file: every source is compiled). For C
/// and C++ folders the C sources join the C++ ones.
///
/// Java's last rule is issue #34's (DOMjudge's `hello` in BAPCtools' test
/// problems: `hello.java` beside `message.java`, or `TestHello.java` beside
/// a text file): the format names `Main` the default entry point, and
/// problemtools and BAPCtools run the class of the first source in name
/// order (`main.*` first) instead of refusing; the first that has a `main`
/// is that one whenever that one can run.
pub(super) fn sources_and_entry(
    copies: &[PathBuf],
    dir: &Path,
    language_name: &str,
    language: &Language,
) -> Result<(Vec<PathBuf>, PathBuf), FolderRefused> {
    let has_extension = |path: &Path, extensions: &[&str]| {
        path.extension()
            .and_then(|extension| extension.to_str())
            .is_some_and(|extension| extensions.contains(&extension))
    };
    let own: Vec<&str> = language.extensions.iter().map(String::as_str).collect();
    let mut extensions = own.clone();
    extensions.extend(language.folder.also.iter().map(String::as_str));
    let sources: Vec<PathBuf> = copies
        .iter()
        .filter(|path| has_extension(path, &extensions))
        .cloned()
        .collect();
    if sources.is_empty() {
        return Err(FolderRefused::NoSource {
            language: language_name.to_owned(),
            extensions: own.join(", "),
        });
    }
    let top: Vec<&PathBuf> = sources
        .iter()
        .filter(|path| path.parent() == Some(dir))
        .collect();
    let named = |name: &str| top.iter().find(|path| path.ends_with(name)).copied();
    if let Some(stated) = &language.entry {
        // A stated entry point: the file, or Java's class by its file.
        let entry = named(stated)
            .or_else(|| {
                top.iter()
                    .find(|path| path.file_stem().is_some_and(|stem| stem == stated.as_str()))
                    .copied()
            })
            .ok_or_else(|| FolderRefused::NoEntry {
                entry: stated.clone(),
            })?;
        return Ok((sources.clone(), entry.clone()));
    }
    let rules = &language.folder;
    let entry = if rules.entry.is_none() && !rules.entry_declares_main {
        top.first().copied().or(sources.first())
    } else {
        rules
            .entry
            .as_deref()
            .and_then(named)
            .or(match top.as_slice() {
                [one] => Some(*one),
                _ => None,
            })
            .or_else(|| {
                rules
                    .entry_declares_main
                    .then(|| top.iter().find(|path| declares_main(path)).copied())
                    .flatten()
            })
    };
    let entry = entry
        .cloned()
        .ok_or_else(|| FolderRefused::AmbiguousEntry {
            language: language_name.to_owned(),
            needs: entry_needs(language),
        })?;
    Ok((sources, entry))
}

/// What makes an entry point of a folder program in `language`, for the
/// refusal of an ambiguous one: Python's "`__main__.py` or exactly one
/// `.py` file at its top", from its `folder-entry` rules.
fn entry_needs(language: &Language) -> String {
    let rules = &language.folder;
    let extension = language.extensions.first().map_or("", String::as_str);
    let mut ways: Vec<String> = rules
        .entry
        .iter()
        .map(|entry| format!("`{entry}`"))
        .collect();
    ways.push(format!("exactly one `.{extension}` file at its top"));
    if rules.entry_declares_main {
        ways.push("one at its top with a class declaring `main`".to_owned());
    }
    match ways.as_slice() {
        [init @ .., last] if init.len() >= 2 => format!("{}, or {last}", init.join(", ")),
        _ => ways.join(" or "),
    }
}

/// Whether the Java source at `path` (a copy in the program's directory,
/// which holds no link) has a top-level class declaring `main`; one that
/// cannot be read has none (compiling it says why).
fn declares_main(path: &Path) -> bool {
    super::read_submission(path, &LinkScope::HandIn)
        .is_ok_and(|bytes| super::java::has_main(&String::from_utf8_lossy(&bytes)))
}

/// The compile command of a folder program: every argument that is the
/// entry source becomes all the sources, and a C or C++ compiler gets the
/// folder on its include path.
pub(super) fn folder_compile_argv(
    argv: Vec<String>,
    entry: &Path,
    sources: &[PathBuf],
    dir: &Path,
) -> Vec<String> {
    let entry = entry.to_string_lossy();
    let mut expanded = Vec::with_capacity(argv.len() + sources.len() + 1);
    for (index, arg) in argv.into_iter().enumerate() {
        if arg == entry {
            expanded.extend(
                sources
                    .iter()
                    .map(|path| path.to_string_lossy().into_owned()),
            );
        } else {
            expanded.push(arg);
        }
        if index == 0 && is_c_compiler(&expanded[0]) {
            expanded.push(format!("-I{}", dir.display()));
        }
    }
    expanded
}

fn is_c_compiler(program: &str) -> bool {
    let name = Path::new(program)
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    ["gcc", "g++", "cc", "c++", "clang", "clang++"]
        .iter()
        .any(|known| name == *known || name.starts_with(&format!("{known}-")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_compiles_all_its_sources_with_the_folder_on_the_include_path() {
        let dir = Path::new("/w/p");
        let argv = vec![
            "g++".to_owned(),
            "-O2".to_owned(),
            "-o".to_owned(),
            "/w/p/main".to_owned(),
            "/w/p/a.cc".to_owned(),
        ];
        let sources = [PathBuf::from("/w/p/a.cc"), PathBuf::from("/w/p/b.cpp")];
        assert_eq!(
            folder_compile_argv(argv, Path::new("/w/p/a.cc"), &sources, dir),
            [
                "g++",
                "-I/w/p",
                "-O2",
                "-o",
                "/w/p/main",
                "/w/p/a.cc",
                "/w/p/b.cpp"
            ]
        );
    }

    #[test]
    fn a_copy_keeps_the_execute_bits_and_scripts_are_found() {
        let from = tempfile::tempdir().unwrap();
        let to = tempfile::tempdir().unwrap();
        assert!(!has_scripts(from.path()));
        fs_err::write(from.path().join("run"), "#!/bin/sh\n").unwrap();
        fs_err::set_permissions(
            from.path().join("run"),
            std::fs::Permissions::from_mode(0o700),
        )
        .unwrap();
        fs_err::write(from.path().join("data.txt"), "1\n").unwrap();
        assert!(has_scripts(from.path()));
        assert!(
            !has_scripts(&from.path().join("run")),
            "a file is no folder"
        );
        copy_folder(from.path(), to.path(), None, &LinkScope::HandIn).unwrap();
        let mode = |name: &str| {
            fs_err::metadata(to.path().join(name))
                .unwrap()
                .permissions()
                .mode()
                & 0o777
        };
        assert_eq!(mode("run"), 0o755);
        assert_eq!(mode("data.txt"), 0o644);
    }

    /// The Java entry point of a folder, as problemtools and BAPCtools
    /// find it (issue #34): `Main.java`, else the one source at the top,
    /// else the first at the top (name order) with a class declaring
    /// `main`; a folder where no source at the top declares one is refused.
    #[test_case::test_case(&[("Main.java", "class Main {}"), ("A.java", MAIN)], Some("Main.java") ; "Main first")]
    #[test_case::test_case(&[("TestHello.java", "class TestHello {}"), ("notes.txt", "x")], Some("TestHello.java") ; "the one source")]
    #[test_case::test_case(&[("hello.java", MAIN), ("message.java", "public class message {}")], Some("hello.java") ; "the one with main")]
    #[test_case::test_case(&[("a.java", "class a {}"), ("b.java", MAIN)], Some("b.java") ; "a later one with main")]
    #[test_case::test_case(&[("b.java", MAIN), ("a.java", MAIN)], Some("a.java") ; "the first in name order of several")]
    #[test_case::test_case(&[("a.java", "class a {}"), ("b.java", "class b {}")], None ; "none declares main")]
    fn a_java_folder_s_entry_point(files: &[(&str, &str)], expected: Option<&str>) {
        let dir = tempfile::tempdir().unwrap();
        let mut copies: Vec<PathBuf> = files
            .iter()
            .map(|(name, text)| {
                let path = dir.path().join(name);
                fs_err::write(&path, text).unwrap();
                path
            })
            .collect();
        copies.sort();
        let config = crate::config::judge::JudgeConfig::defaults().unwrap();
        let java = &config.languages["java"];
        let found = sources_and_entry(&copies, dir.path(), "java", java);
        match (found, expected) {
            (Ok((_, entry)), Some(name)) => assert_eq!(entry, dir.path().join(name)),
            (Err(refused), None) => assert!(
                refused.to_string().contains("a class declaring `main`"),
                "{refused}"
            ),
            (found, _) => panic!("{:?}", found.map(|(_, entry)| entry)),
        }
    }

    const MAIN: &str = "public class X { public static void main(String[] a) {} }";

    /// Issue #33: the refusal of an ambiguous entry point words the
    /// language table's rules, as it did when the code named Python and
    /// Java.
    #[test_case::test_case("python", "`__main__.py` or exactly one `.py` file at its top" ; "python")]
    #[test_case::test_case("java", "`Main.java`, exactly one `.java` file at its top, or one at its top with a class declaring `main`" ; "java")]
    fn an_ambiguous_entry_says_what_the_language_table_asks(name: &str, needs: &str) {
        let config = crate::config::judge::JudgeConfig::defaults().unwrap();
        assert_eq!(entry_needs(&config.languages[name]), needs);
    }

    /// Issue #33: a folder's sources and entry point follow the language
    /// table's `folder-*` rules, whatever the language is called: C++
    /// takes `.c` files by its `folder-also`; a language of another name
    /// with Python's rules starts at `__main__.py` and refuses two sources;
    /// `python` without them starts at the first source.
    #[test]
    fn a_folder_s_sources_and_entry_follow_the_language_table_not_its_name() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str| {
            let path = dir.path().join(name);
            fs_err::write(&path, "x").unwrap();
            path
        };
        let config = crate::config::judge::JudgeConfig::defaults().unwrap();
        let cpp = &config.languages["cpp"];
        let c_and_cpp = [write("a.c"), write("b.cpp"), write("notes.txt")];
        let (sources, entry) = sources_and_entry(&c_and_cpp, dir.path(), "cpp", cpp).unwrap();
        assert_eq!(sources, [dir.path().join("a.c"), dir.path().join("b.cpp")]);
        assert_eq!(entry, dir.path().join("a.c"));

        let mut snake = config.languages["python"].clone();
        snake.extensions = vec!["snake".to_owned()];
        snake.folder.entry = Some("__main__.snake".to_owned());
        let two = [write("a.snake"), write("b.snake")];
        let refused = sources_and_entry(&two, dir.path(), "snake", &snake).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "the folder's entry point is ambiguous: a snake folder program needs \
             `__main__.snake` or exactly one `.snake` file at its top"
        );
        let with_main = [write("__main__.snake"), two[0].clone(), two[1].clone()];
        let (_, entry) = sources_and_entry(&with_main, dir.path(), "snake", &snake).unwrap();
        assert_eq!(entry, dir.path().join("__main__.snake"));

        let mut python = config.languages["python"].clone();
        *python.folder = Default::default();
        let two = [write("a.py"), write("b.py")];
        let (_, entry) = sources_and_entry(&two, dir.path(), "python", &python).unwrap();
        assert_eq!(entry, dir.path().join("a.py"));
    }

    /// A folder program's link that leaves its folder (outside a package)
    /// is refused unread; one to a file beside it is copied as that file;
    /// one to a folder is refused.
    #[test]
    fn a_link_out_of_a_folder_program_is_refused_and_one_inside_copied() {
        let dir = tempfile::tempdir().unwrap();
        let program = dir.path().join("program");
        fs_err::create_dir_all(program.join("sub")).unwrap();
        fs_err::write(program.join("a.py"), "print(1)\n").unwrap();
        std::os::unix::fs::symlink("a.py", program.join("b.py")).unwrap();
        let copy = dir.path().join("copy");
        fs_err::create_dir_all(&copy).unwrap();
        copy_folder(&program, &copy, None, &LinkScope::HandIn).unwrap();
        assert_eq!(
            fs_err::read_to_string(copy.join("b.py")).unwrap(),
            "print(1)\n"
        );
        assert!(!copy.join("b.py").is_symlink());

        std::os::unix::fs::symlink("sub", program.join("c")).unwrap();
        let error = folder_files(&program, &LinkScope::HandIn)
            .unwrap_err()
            .to_string();
        assert!(error.contains("no link to a folder"), "{error}");
        fs_err::remove_file(program.join("c")).unwrap();

        std::os::unix::fs::symlink("/etc/passwd", program.join("d.py")).unwrap();
        let error = folder_files(&program, &LinkScope::HandIn)
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("it is a symbolic link (symlink) to a file outside its folder"),
            "{error}"
        );
    }
}
