//! The time limit an older Kattis / DOMjudge package states outside
//! `problem.yaml` (issue #34): a `.timelimit` file at the package's root
//! (older BAPCtools; NWERC 2022's archive: `8`), or `timelimit = '8'` in a
//! `domjudge-problem.ini`. Both are deprecated (BAPCtools warns of each and
//! its `upgrade` moves the value to `limits.time_limit`); the judge reads
//! them so such a package keeps the limit its authors chose instead of one
//! derived from its samples. Which one holds, and the warnings, are the
//! Kattis format's ([`crate::package`]); this module reads the files and
//! refuses a value that is no time limit, naming the file, its line and
//! what it holds.

use super::ConfigError;
use crate::visible::visible;
use std::path::Path;

/// The file older BAPCtools packages state their time limit in.
pub(crate) const TIMELIMIT_FILE: &str = ".timelimit";

/// DOMjudge's problem settings, whose `timelimit` is the time limit.
pub(crate) const DOMJUDGE_INI: &str = "domjudge-problem.ini";

/// The longest time limit such a file may state, in seconds: one hour. A
/// longer one is a typo (`1e300`, `8000` meant as milliseconds), and a
/// limit that is no limit would let a submission run for as long.
pub(crate) const MAX_SECONDS: f64 = 3600.0;

/// A time limit stated in one of the files.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct FileLimit {
    /// The file's name ([`TIMELIMIT_FILE`] or [`DOMJUDGE_INI`]).
    pub(crate) file: &'static str,
    pub(crate) seconds: f64,
}

/// The time limits the package in `dir` states in its `.timelimit` and its
/// `domjudge-problem.ini`, in that order (each only when the file states
/// one); a value that is not a number of seconds above 0 and at most
/// [`MAX_SECONDS`] is an error naming the file, the line and the value.
pub(crate) fn read(dir: &Path) -> Result<Vec<FileLimit>, ConfigError> {
    let mut limits = Vec::new();
    let path = dir.join(TIMELIMIT_FILE);
    // `exists`, not `is_file`: a FIFO or folder there is refused by name,
    // not passed over (issue #34).
    if path.exists() {
        let text = read_text(&path)?;
        let seconds = seconds(text.trim()).map_err(|message| invalid(&path, 1, message))?;
        limits.push(FileLimit {
            file: TIMELIMIT_FILE,
            seconds,
        });
    }
    let path = dir.join(DOMJUDGE_INI);
    if path.exists() {
        let text = read_text(&path)?;
        if let Some((line, value)) = ini_time_limit(&text) {
            let seconds = seconds(value).map_err(|message| invalid(&path, line, message))?;
            limits.push(FileLimit {
                file: DOMJUDGE_INI,
                seconds,
            });
        }
    }
    Ok(limits)
}

fn read_text(path: &Path) -> Result<String, ConfigError> {
    // A regular file within a configuration file's bound (issue #34).
    let bytes = ConfigError::read_yaml(path)?;
    String::from_utf8(bytes).map_err(|_| {
        invalid(
            path,
            1,
            "is not UTF-8 text: expected a number of seconds".into(),
        )
    })
}

fn invalid(path: &Path, line: usize, message: String) -> ConfigError {
    ConfigError::invalid_on(path, line, "timelimit", message)
}

/// The line and value of `timelimit` in an ini file's text, as DOMjudge
/// and BAPCtools read it: `key = value` lines, `;` comments, the value's
/// matching quotes removed; the last one written holds.
fn ini_time_limit(text: &str) -> Option<(usize, &str)> {
    text.lines()
        .enumerate()
        .filter_map(|(index, line)| {
            let line = line.trim();
            if line.starts_with([';', '#']) {
                return None;
            }
            let (key, value) = line.split_once('=')?;
            (key.trim() == "timelimit").then(|| (index + 1, unquoted(value.trim())))
        })
        .last()
}

/// `value` without one pair of matching quotes around it.
fn unquoted(value: &str) -> &str {
    for quote in ['\'', '"'] {
        if let Some(inner) = value
            .strip_prefix(quote)
            .and_then(|rest| rest.strip_suffix(quote))
        {
            return inner;
        }
    }
    value
}

/// The seconds `value` states, or why it states none.
fn seconds(value: &str) -> Result<f64, String> {
    let shown = || {
        let cut: String = value.chars().take(40).collect();
        let more = if cut.len() < value.len() { "..." } else { "" };
        format!("`{}{more}`", visible(&cut))
    };
    match value.parse::<f64>() {
        Ok(seconds) if seconds > 0.0 && seconds <= MAX_SECONDS => Ok(seconds),
        Ok(seconds) if seconds > MAX_SECONDS => Err(format!(
            "{} seconds is more than the judge allows ({MAX_SECONDS} s, one hour): a typo?",
            shown()
        )),
        _ => Err(format!(
            "{} is not a time limit: expected a number of seconds above 0 (`8`, `2.5`)",
            shown()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    #[test_case(Some(".timelimit"), "8\n", None, Ok(vec![(".timelimit", 8.0)]) ; "nwerc's file")]
    #[test_case(Some(".timelimit"), " 2.5 ", None, Ok(vec![(".timelimit", 2.5)]) ; "fraction with spaces")]
    #[test_case(None, "", Some("probid='A'\ntimelimit='3'\n"), Ok(vec![("domjudge-problem.ini", 3.0)]) ; "ini quoted")]
    #[test_case(None, "", Some("; timelimit = 9\ntimelimit = \"4\"\n"), Ok(vec![("domjudge-problem.ini", 4.0)]) ; "ini comment skipped")]
    #[test_case(None, "", Some("name='x'\n"), Ok(vec![]) ; "ini without a limit")]
    #[test_case(Some(".timelimit"), "5", Some("timelimit=6"), Ok(vec![(".timelimit", 5.0), ("domjudge-problem.ini", 6.0)]) ; "both")]
    #[test_case(Some(".timelimit"), "eight\n", None, Err("/.timelimit`: line 1: `timelimit`: `eight` is not a time limit: expected a number of seconds above 0") ; "a word")]
    #[test_case(Some(".timelimit"), "0", None, Err("`0` is not a time limit") ; "zero")]
    #[test_case(Some(".timelimit"), "-1", None, Err("`-1` is not a time limit") ; "negative")]
    #[test_case(Some(".timelimit"), "NaN", None, Err("`NaN` is not a time limit") ; "not a number")]
    #[test_case(Some(".timelimit"), "", None, Err("`` is not a time limit") ; "empty")]
    #[test_case(Some(".timelimit"), "1e300", None, Err("`1e300` seconds is more than the judge allows (3600 s, one hour)") ; "absurd")]
    #[test_case(None, "", Some("name='x'\ntimelimit='8s'\n"), Err("/domjudge-problem.ini`: line 2: `timelimit`: `8s` is not a time limit") ; "ini with a unit")]
    fn a_file_s_time_limit(
        timelimit: Option<&str>,
        text: &str,
        ini: Option<&str>,
        expected: Result<Vec<(&str, f64)>, &str>,
    ) {
        let dir = tempfile::tempdir().unwrap();
        if let Some(name) = timelimit {
            fs_err::write(dir.path().join(name), text).unwrap();
        }
        if let Some(ini) = ini {
            fs_err::write(dir.path().join(DOMJUDGE_INI), ini).unwrap();
        }
        match (read(dir.path()), expected) {
            (Ok(found), Ok(expected)) => assert_eq!(
                found
                    .iter()
                    .map(|limit| (limit.file, limit.seconds))
                    .collect::<Vec<_>>(),
                expected
            ),
            (Err(error), Err(expected)) => {
                let message = error.to_string();
                assert!(message.contains(expected), "{message}");
            }
            (found, expected) => panic!("{found:?} against {expected:?}"),
        }
    }
}
