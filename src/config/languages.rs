//! Which language runs a program, or whether it runs as an executable, by
//! judge.toml's `[languages]`; and the one wording of a program that runs
//! neither way.

use super::judge::{JudgeConfig, Language};
use std::path::Path;

impl JudgeConfig {
    /// The language of a submission, by its extension.
    pub fn language_for(&self, submission: &Path) -> Option<(&str, &Language)> {
        let extension = submission.extension()?.to_str()?;
        self.languages
            .iter()
            .find(|(_, language)| language.extensions.iter().any(|known| known == extension))
            .map(|(name, language)| (name.as_str(), language))
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

    /// A `.py` file is the configured Python whatever its `#!` line says:
    /// a student's file that begins `#!/usr/bin/env python2` and is valid
    /// Python 3 is graded as Python 3. A package's example submission is
    /// routed by its `#!` line, as problemtools routes it, in the grading
    /// layer (`grading::package`'s `python2`; issue #34).
    #[test]
    fn a_python2_shebang_leaves_a_py_file_in_the_configured_python() {
        let config = JudgeConfig::defaults().unwrap();
        let dir = tempfile::tempdir().unwrap();
        for text in [
            "#!/usr/bin/env python2
print(1)
",
            "#!/usr/bin/python2.7
print(1)
",
            "#!/usr/bin/env python3
print(1)
",
        ] {
            let path = dir.path().join("a.py");
            fs_err::write(&path, text).unwrap();
            assert_eq!(config.language_for(&path).unwrap().0, "python", "{text}");
        }
    }
}
