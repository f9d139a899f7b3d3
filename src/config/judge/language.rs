//! `[languages.<name>]` of judge.toml: how a language compiles and runs,
//! the folder rules of a folder program, and the placeholders its commands
//! may use.

use serde::Deserialize;
use std::path::Path;

/// `[languages.<name>]`.
#[derive(Clone, Deserialize, PartialEq)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
#[serde(expecting = "a table `[languages.<name>]`")]
pub struct Language {
    /// File extensions without the dot.
    pub extensions: Vec<String>,
    /// The file name the source is copied to (Java: `{class}.java`, the
    /// public class's name).
    pub source_name: Option<String>,
    /// Compiler argv with placeholders; absent for interpreted languages.
    pub compile: Option<Vec<String>>,
    /// Run argv with placeholders.
    pub run: Vec<String>,
    /// Multiplies the CPU (and so the wall) time limit for this language;
    /// absent means 1. Interpreted languages need more time for the same
    /// algorithm, and a problem's limit is set for compiled ones.
    pub time_factor: Option<f64>,
    /// The entry point of a folder program when a package states it (a
    /// 2025-09 `submissions.yaml` `entrypoint`: `main.py`, Java's `Main`);
    /// `None`: the language's default. Never read from judge.toml.
    #[serde(skip)]
    pub entry: Option<String>,
    /// How a folder program in this language is compiled and started
    /// (judge.toml's `folder-entry`, `folder-entry-declares-main` and
    /// `folder-also`): the language table says it, the code names no
    /// language (issue #33).
    /// Boxed: a `Language` travels in `runner::SubmissionKind`, beside a
    /// variant with no data.
    #[serde(skip)]
    pub folder: Box<FolderRules>,
}

/// What a folder program in one language compiles and where it starts
/// (issue #15), from the language's `folder-*` keys; all absent: every
/// source of the language is compiled and the first at the folder's top
/// (else the first) is the entry, as C and C++ have none.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FolderRules {
    /// The file the program starts at when its top holds it (Python's
    /// `__main__.py`, Java's `Main.java`); else its one source at the top,
    /// and a folder with several there is refused as ambiguous.
    pub entry: Option<String>,
    /// With `entry`: else the first source at the top, in name order,
    /// whose class declares `main` (Java's rule, issue #34).
    pub entry_declares_main: bool,
    /// Extensions (no dot) of another language's sources this language's
    /// folder program compiles with its own (C++: `c`), so a folder of both
    /// is a program in this language.
    pub also: Vec<String>,
}

/// Every field but [`Language::folder`], as the derived rendering had it
/// before the folder rules were the table's: a result's fingerprint
/// (`grading::resume::Fingerprint`) hashes this rendering, so a file
/// submission's stays what it was, and the fingerprint of a folder program
/// adds the rules itself.
impl std::fmt::Debug for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Language")
            .field("extensions", &self.extensions)
            .field("source_name", &self.source_name)
            .field("compile", &self.compile)
            .field("run", &self.run)
            .field("time_factor", &self.time_factor)
            .field("entry", &self.entry)
            .finish()
    }
}

impl Language {
    /// [`Language::time_factor`], 1 when absent.
    pub(crate) fn time_factor(&self) -> f64 {
        self.time_factor.unwrap_or(1.0)
    }

    /// The language compiling with `-std=STANDARD` (`c++20`) in place of
    /// the `-std=` its compile command names for the same language family
    /// (a C++ standard, one with `++`, replaces only a C++ `-std=`; a C
    /// standard only a C one); `None` when it names none of that family
    /// (the compiler is not known to take the flag, so nothing is added).
    pub(crate) fn with_standard(&self, standard: &str) -> Option<Language> {
        let compile = self.compile.as_ref()?;
        let family = |word: &str| {
            word.strip_prefix("-std=")
                .is_some_and(|named| named.contains("++") == standard.contains("++"))
        };
        if !compile.iter().any(|word| family(word)) {
            return None;
        }
        let mut language = self.clone();
        language.compile = Some(
            compile
                .iter()
                .map(|word| {
                    if family(word) {
                        format!("-std={standard}")
                    } else {
                        word.clone()
                    }
                })
                .collect(),
        );
        Some(language)
    }
}

/// Values a placeholder in `compile` or `run` stands for.
#[derive(Clone, Debug)]
pub(crate) struct Placeholders<'a> {
    pub(crate) source: &'a Path,
    pub(crate) executable: &'a Path,
    pub(crate) dir: &'a Path,
    pub(crate) memory_mib: u64,
    /// Java: the public top-level class, which names the file (`Main`
    /// when there is none and no class has `main`).
    pub(crate) class: &'a str,
    /// Java: the class with `main`, the one to run (`Main` when none has).
    pub(crate) main_class: &'a str,
}

impl Language {
    /// `argv` with every `{placeholder}` replaced.
    pub(crate) fn expand(argv: &[String], values: &Placeholders<'_>) -> Vec<String> {
        argv.iter()
            .map(|arg| {
                arg.replace("{source}", &values.source.to_string_lossy())
                    .replace("{executable}", &values.executable.to_string_lossy())
                    .replace("{dir}", &values.dir.to_string_lossy())
                    .replace("{memory_mib}", &values.memory_mib.to_string())
                    .replace("{main_class}", values.main_class)
                    .replace("{class}", values.class)
            })
            .collect()
    }
}

/// The placeholders `compile` and `run` may use.
pub(super) const PLACEHOLDERS: &[&str] = &[
    "{source}",
    "{executable}",
    "{dir}",
    "{memory_mib}",
    "{class}",
    "{main_class}",
];

/// The first `{...}` in `arg` that is not a known placeholder.
pub(super) fn unknown_placeholder(arg: &str) -> Option<&str> {
    let mut rest = arg;
    while let Some(start) = rest.find('{') {
        let after = &rest[start..];
        let end = after.find('}')?;
        let candidate = &after[..=end];
        if !PLACEHOLDERS.contains(&candidate) {
            return Some(candidate);
        }
        rest = &after[end + 1..];
    }
    None
}
