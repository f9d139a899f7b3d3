//! The programs of a Kattis package as the format defines them (issue #15):
//! a validator, output validator or submission is one file or a folder. A
//! folder is one program: all its sources compiled together (the runner
//! copies the whole folder, so its headers are found), its language the one
//! its sources share (C and C++ together are C++), unless it has a `build`
//! or `run` script: then `build` makes it and `run` is the program, as the
//! format says (the runner's `SubmissionKind::Scripts`). Formats the judge
//! cannot run (checktestdata `.ctd`, VIVA `.viva`) are found and reported,
//! never run.

use crate::config::judge::{JudgeConfig, Language};
use crate::config::kattis::{all_entries, ignored_because};
use crate::config::languages::RunsAs;
use crate::config::ConfigError;
use crate::runner::LinkScope;
use std::path::{Path, PathBuf};

/// The C++ standard a Kattis package's programs compile with, its own
/// submissions and its validators, output validators, interactors and
/// generators alike: the one the format's tools use (problemtools' and
/// BAPCtools' `languages.yaml` compile C++ with `-std=gnu++23`), so a
/// setter's `std::ssize` or parenthesised aggregate is not a compile error
/// here (NWERC 2022's archive has nine such submissions).
pub(crate) const KATTIS_CXX_STANDARD: &str = "gnu++23";

/// A program of the package: how it runs, or why it cannot.
#[derive(Debug)]
pub(crate) enum FoundProgram {
    /// A file or folder in a configured language, or an executable
    /// (`None`).
    Runs {
        path: PathBuf,
        language: Option<(String, Language)>,
    },
    /// A file the judge cannot run (a validation script in another
    /// format, a file in no configured language, a language whose
    /// toolchain is not installed), with the reason.
    Unrunnable { path: PathBuf, reason: String },
    /// A file or folder the format says not to run (`*.disabled`, a
    /// dotfile, a README), with the reason.
    Ignored { path: PathBuf, reason: String },
}

/// The reason a validation script in `path`'s format cannot run, when it is
/// one.
fn validation_script(path: &Path) -> Option<String> {
    let extension = path.extension()?.to_str()?;
    let format = match extension {
        "ctd" => "checktestdata",
        "viva" => "VIVA",
        _ => return None,
    };
    Some(format!(
        "a {format} script (`.{extension}`): the judge does not run {format}"
    ))
}

/// Every program in `folder` (each entry a file or a folder, its links
/// leading where `scope` lets them: the package's), by name; what the
/// format says not to run is [`FoundProgram::Ignored`].
pub(crate) fn programs_in(
    folder: &Path,
    scope: &LinkScope,
    config: &JudgeConfig,
) -> Result<Vec<FoundProgram>, ConfigError> {
    if !folder.is_dir() {
        return Ok(Vec::new());
    }
    all_entries(folder)?
        .into_iter()
        .map(|path| match ignored_because(&path) {
            Some(reason) => Ok(FoundProgram::Ignored { path, reason }),
            None => program_at(&path, scope, config),
        })
        .collect()
}

/// `Runs` in `language` (a C++ compile with [`KATTIS_CXX_STANDARD`]), or
/// `Unrunnable` when its toolchain is not installed here.
fn runs_in(path: &Path, (name, language): (String, Language)) -> FoundProgram {
    let language = language
        .with_standard(KATTIS_CXX_STANDARD)
        .unwrap_or(language);
    let language = (name, language);
    match crate::runner::missing_toolchain(&language.0, &language.1) {
        Some(reason) => FoundProgram::Unrunnable {
            path: path.to_owned(),
            reason,
        },
        None => FoundProgram::Runs {
            path: path.to_owned(),
            language: Some(language),
        },
    }
}

/// How the file or folder `path` runs (or why not), its links leading
/// where `scope` lets them.
pub(crate) fn program_at(
    path: &Path,
    scope: &LinkScope,
    config: &JudgeConfig,
) -> Result<FoundProgram, ConfigError> {
    if let Some(reason) = validation_script(path) {
        return Ok(FoundProgram::Unrunnable {
            path: path.to_owned(),
            reason,
        });
    }
    if !path.is_dir() {
        return match config.runs_as(path) {
            Some(RunsAs::Language(name, language)) => {
                Ok(runs_in(path, (name.to_owned(), language.clone())))
            }
            Some(RunsAs::Executable) => Ok(FoundProgram::Runs {
                path: path.to_owned(),
                language: None,
            }),
            None => Ok(FoundProgram::Unrunnable {
                path: path.to_owned(),
                reason: config.not_runnable(None),
            }),
        };
    }
    if crate::runner::has_scripts(path) {
        // Built by its `build` script, run by its `run` script.
        return Ok(FoundProgram::Runs {
            path: path.to_owned(),
            language: None,
        });
    }
    let language = folder_language(path, scope, config)?;
    Ok(runs_in(path, language))
}

/// The language of a folder program: the one language its sources are in
/// (sources of a second language the first compiles with its own, by its
/// `folder-also`, make a program of the first: C beside C++ is C++). A
/// folder with no
/// source, or with sources of two languages, is an error naming it (one
/// with `build` or `run` scripts is not asked: its scripts build and run
/// it), and so is one with a link `scope` does not let it follow.
pub(crate) fn folder_language(
    folder: &Path,
    scope: &LinkScope,
    config: &JudgeConfig,
) -> Result<(String, Language), ConfigError> {
    let refuse = |message: String| ConfigError::invalid(folder, "program", message);
    let mut languages: Vec<(String, Language)> = Vec::new();
    // The extensions of each language's files found, in `languages`' order.
    let mut found: Vec<Vec<String>> = Vec::new();
    let files = crate::runner::folder_files(folder, scope).map_err(|refused| {
        ConfigError::invalid_with_hint(folder, "program", refused.to_string(), refused.hint())
    })?;
    for file in &files {
        if let Some((name, language)) = config.language_for(file) {
            let index = match languages.iter().position(|(known, _)| known == name) {
                Some(index) => index,
                None => {
                    languages.push((name.to_owned(), language.clone()));
                    found.push(Vec::new());
                    languages.len() - 1
                }
            };
            if let Some(extension) = file.extension() {
                found[index].push(extension.to_string_lossy().into_owned());
            }
        }
    }
    if let [(_, first), (_, second)] = languages.as_slice() {
        let takes = |language: &Language, extensions: &[String]| {
            extensions
                .iter()
                .all(|extension| language.folder.also.contains(extension))
        };
        if takes(first, &found[1]) {
            languages.truncate(1);
        } else if takes(second, &found[0]) {
            languages.remove(0);
        }
    }
    match languages.len() {
        1 => Ok(languages.remove(0)),
        0 => Err(refuse(no_source(folder, &files).unwrap_or_else(|| {
            format!(
                "holds no source in a configured language; {}",
                config.languages_hint()
            )
        }))),
        _ => Err(refuse(format!(
            "holds sources of several languages ({}); a folder program is in one",
            languages
                .iter()
                .map(|(name, _)| name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// Why the folder program `folder`, whose `files` are in no configured
/// language, has no source, when the languages are not why: it is empty,
/// its files are all switched off by a `.disabled` name, or a `build` /
/// `run` script lies one folder too deep (`output_validator/v/run`, the
/// legacy layout under the 2023-07 name). A message listing the languages
/// sent the setter to judge.toml for these (issue #34).
fn no_source(folder: &Path, files: &[PathBuf]) -> Option<String> {
    let relative: Vec<String> = files
        .iter()
        .map(|file| {
            file.strip_prefix(folder)
                .unwrap_or(file)
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    if relative.is_empty() {
        return Some(
            "holds no file: a folder program needs its sources, or `build` and `run` scripts"
                .to_owned(),
        );
    }
    if let Some(script) = files.iter().zip(&relative).find_map(|(file, shown)| {
        let name = file.file_name()?.to_str()?;
        let depth = file.strip_prefix(folder).ok()?.components().count();
        (depth == 2 && matches!(name, "build" | "run")).then_some(shown)
    }) {
        let inner = Path::new(script)
            .parent()
            .map_or_else(String::new, |parent| parent.to_string_lossy().into_owned());
        return Some(format!(
            "holds no source, but `{script}` is a script one folder too deep: the folder \
             itself is the program, so its `build` and `run` belong at its top; move the \
             files of `{inner}/` up into `{}`",
            folder.display()
        ));
    }
    if relative.iter().all(|name| name.ends_with(".disabled")) {
        return Some(format!(
            "holds only files switched off by a name ending in `.disabled` ({}): rename one \
             to use it, or end the folder's own name in `.disabled` to switch the program off",
            relative
                .iter()
                .map(|name| format!("`{name}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    /// Issue #33: which language a folder program is in comes from the
    /// language table (C++'s `folder-also` takes `.c`), never from names in
    /// the code; a third language still makes the folder ambiguous.
    #[test_case(&["a.c", "b.cpp"], Ok("cpp") ; "C beside C++ is C++")]
    #[test_case(&["a.cpp", "z.c", "y.c"], Ok("cpp") ; "several C files beside C++")]
    #[test_case(&["a.c", "b.c"], Ok("c") ; "C alone")]
    #[test_case(&["a.c", "b.py"], Err("holds sources of several languages (c, python)") ; "C beside Python")]
    #[test_case(&["a.c", "b.cpp", "c.py"], Err("holds sources of several languages (c, cpp, python)") ; "three languages")]
    // Issue #34: what is there, when the languages are not why.
    #[test_case(&["notes.txt"], Err("holds no source in a configured language; languages are defined") ; "no source")]
    #[test_case(&[], Err("holds no file: a folder program needs its sources") ; "empty")]
    #[test_case(&["run.disabled"], Err("holds only files switched off by a name ending in `.disabled` (`run.disabled`)") ; "only disabled files")]
    #[test_case(&["b.py.disabled", "notes.txt"], Err("holds no source in a configured language") ; "a disabled file beside another")]
    #[test_case(&["v/run", "v/build"], Err("holds no source, but `v/build` is a script one folder too deep") ; "scripts one folder too deep")]
    fn a_folder_program_s_language(files: &[&str], expected: Result<&str, &str>) {
        let dir = tempfile::tempdir().unwrap();
        for name in files {
            let path = dir.path().join(name);
            fs_err::create_dir_all(path.parent().unwrap()).unwrap();
            fs_err::write(path, "x").unwrap();
        }
        let config = JudgeConfig::defaults().unwrap();
        match (
            folder_language(dir.path(), &LinkScope::HandIn, &config),
            expected,
        ) {
            (Ok((name, _)), Ok(expected)) => assert_eq!(name, expected),
            (Err(error), Err(expected)) => {
                let message = error.to_string();
                assert!(message.contains(expected), "{message}");
            }
            (found, _) => panic!("{:?}", found.map(|(name, _)| name)),
        }
    }
}
