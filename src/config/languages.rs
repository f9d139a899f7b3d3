//! Which language runs a program, or whether it runs as an executable, by
//! judge.toml's `[languages]`; and the one wording of a program that runs
//! neither way.

use super::judge::{JudgeConfig, Language};
use std::path::Path;

impl JudgeConfig {
    /// The language of a submission, by its extension; a `.py` file whose
    /// first line is a `#!` naming `python2` is Python 2 (the language
    /// `python2`, when it is configured), as problemtools has it.
    pub fn language_for(&self, submission: &Path) -> Option<(&str, &Language)> {
        let extension = submission.extension()?.to_str()?;
        let found = self
            .languages
            .iter()
            .find(|(_, language)| language.extensions.iter().any(|known| known == extension))
            .map(|(name, language)| (name.as_str(), language))?;
        if extension == "py" && found.0 != "python2" && python2_shebang(submission) {
            if let Some((name, language)) = self.languages.get_key_value("python2") {
                return Some((name.as_str(), language));
            }
        }
        Some(found)
    }

    /// Known language names, comma-separated, for hints.
    pub(crate) fn known_languages(&self) -> String {
        self.languages
            .keys()
            .cloned()
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// What to say of a program in no configured language: where languages
    /// are defined, and the known ones. The one wording, for submissions and
    /// a package's own programs alike.
    pub(crate) fn languages_hint(&self) -> String {
        format!(
            "languages are defined in `judge.toml` under [languages]; known: {}",
            self.known_languages()
        )
    }

    /// Why a program runs neither way (see [`Self::runs_as`]), naming its
    /// extension when one is given, with [`Self::languages_hint`]: the one
    /// wording, for submissions, a class's hand-ins and a package's own
    /// programs alike.
    pub(crate) fn not_runnable(&self, extension: Option<&str>) -> String {
        let extension = extension.map_or_else(String::new, |extension| {
            format!(" (extension `{extension}`)")
        });
        format!(
            "in no configured language{extension} and not executable; {}",
            self.languages_hint()
        )
    }

    /// Whether `path` runs: in a configured language, else as an
    /// executable. `None` when it is neither (then [`Self::languages_hint`]
    /// says what to do).
    pub(crate) fn runs_as(&self, path: &Path) -> Option<RunsAs<'_>> {
        use std::os::unix::fs::PermissionsExt as _;
        match self.language_for(path) {
            Some((name, language)) => Some(RunsAs::Language(name, language)),
            None if fs_err::metadata(path)
                .is_ok_and(|metadata| metadata.permissions().mode() & 0o111 != 0) =>
            {
                Some(RunsAs::Executable)
            }
            None => None,
        }
    }
}

/// Whether the file at `path` begins with a `#!` line naming `python2`
/// (`#!/usr/bin/env python2`), read up to its first 256 bytes.
fn python2_shebang(path: &Path) -> bool {
    use std::io::Read as _;
    let mut head = Vec::new();
    if fs_err::File::open(path)
        .and_then(|file| file.take(256).read_to_end(&mut head))
        .is_err()
    {
        return false;
    }
    let line = head.split(|byte| *byte == b'\n').next().unwrap_or_default();
    let line = String::from_utf8_lossy(line);
    line.starts_with("#!")
        && line
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '.'))
            .any(|word| word == "python2" || word.starts_with("python2."))
}

/// How a program runs (see [`JudgeConfig::runs_as`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum RunsAs<'a> {
    /// In the configured language of this name.
    Language(&'a str, &'a Language),
    /// As an executable.
    Executable,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// problemtools: a `.py` with a `python2` `#!` line is Python 2.
    #[test]
    fn a_python2_shebang_makes_a_py_file_python2() {
        let config = JudgeConfig::defaults().unwrap();
        let dir = tempfile::tempdir().unwrap();
        for (text, language) in [
            ("#!/usr/bin/env python2\nprint 1\n", "python2"),
            ("#!/usr/bin/python2.7\nprint 1\n", "python2"),
            ("#!/usr/bin/env python3\nprint(1)\n", "python"),
            ("print(1)  # python2\n", "python"),
            ("#!/usr/bin/env python22\n", "python"),
        ] {
            let path = dir.path().join("a.py");
            fs_err::write(&path, text).unwrap();
            assert_eq!(config.language_for(&path).unwrap().0, language, "{text}");
        }
    }
}
