//! A `.py` submission in a package's verdict folders whose `#!` line asks
//! for Python 2 (problemtools' `different/submissions/accepted/different_py2.py`):
//! problemtools runs it as Python 2, so the judge runs it in judge.toml's
//! Python 2 language (the one that runs `.py2` files), and where that is
//! not installed it is not graded, with the reason, like a submission whose
//! compiler is missing; it used to run as Python 3 and fail as CE, charged
//! to the submission (issue #34). The rule is the Kattis format's, read by
//! [`super::FolderExpectations`]'s `stated` (a package of ours keeps its
//! submissions in the same folders): a Polygon solution states its language
//! in `problem.xml`, and a class's hand-ins keep the configured Python
//! whatever their `#!` line says (a student's Python 3 file that begins
//! `#!/usr/bin/env python2` is graded as written).

use crate::config::judge::{JudgeConfig, Language};
use std::io::Read as _;
use std::path::Path;

/// The `#!` line of the `.py` file at `path` when it asks for Python 2:
/// `python2` as a word in it (`#!/usr/bin/env python2`,
/// `#!/usr/bin/python2.7`), as problemtools' `languages.yaml` matches it.
pub(super) fn python2_shebang(path: &Path) -> Option<String> {
    if path.extension().is_none_or(|extension| extension != "py") || !path.is_file() {
        return None;
    }
    let mut start = Vec::with_capacity(256);
    fs_err::File::open(path)
        .ok()?
        .take(256)
        .read_to_end(&mut start)
        .ok()?;
    let first = start.split(|byte| *byte == b'\n').next()?;
    let line = String::from_utf8_lossy(first).trim_end().to_owned();
    asks_for_python2(&line).then_some(line)
}

/// Whether a first line is a `#!` line naming `python2` as a word.
fn asks_for_python2(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("#!") else {
        return false;
    };
    rest.match_indices("python2").any(|(index, _)| {
        rest[index + "python2".len()..]
            .chars()
            .next()
            .is_none_or(|next| !(next.is_alphanumeric() || next == '_'))
    })
}

/// judge.toml's language for Python 2: the one that runs `.py2` files.
pub(super) fn python2_language(config: &JudgeConfig) -> Option<(String, Language)> {
    config
        .language_for(Path::new("submission.py2"))
        .map(|(name, language)| (name.to_owned(), language.clone()))
}

/// Why a submission whose `#!` line is `line` is not graded when the
/// Python 2 language cannot run here; the toolchain's reason follows it in
/// parentheses ([`crate::package::format::StatedLanguage::unavailable`]).
pub(super) fn not_installed(line: &str) -> String {
    format!("its `{line}` line asks for Python 2, and Python 2 is not installed on this host")
}

/// Why it is not graded when judge.toml has no Python 2 language.
pub(super) fn not_configured(line: &str) -> String {
    format!(
        "its `{line}` line asks for Python 2, and judge.toml configures no language for it \
         (none runs `.py2` files)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    #[test_case("#!/usr/bin/env python2", true ; "env python2")]
    #[test_case("#!/usr/bin/python2.7", true ; "python2.7")]
    #[test_case("#! /usr/bin/env python2 -u", true ; "with a flag")]
    #[test_case("#!/usr/bin/env python3", false ; "python3")]
    #[test_case("#!/usr/bin/env python", false ; "bare python")]
    #[test_case("#!/usr/bin/env python25", false ; "another word")]
    #[test_case("# python2", false ; "a comment")]
    #[test_case("import sys  # python2", false ; "no shebang")]
    fn a_first_line_asks_for_python2(line: &str, asks: bool) {
        assert_eq!(asks_for_python2(line), asks);
    }

    #[test]
    fn only_a_py_file_is_read() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        for (name, text, found) in [
            ("a.py", "#!/usr/bin/env python2\nprint 1\n", true),
            ("b.py", "print(1)\n", false),
            ("c.py3", "#!/usr/bin/env python2\nprint 1\n", false),
        ] {
            let path = dir.path().join(name);
            fs_err::write(&path, text).expect("write");
            assert_eq!(python2_shebang(&path).is_some(), found, "{name}");
        }
    }
}
