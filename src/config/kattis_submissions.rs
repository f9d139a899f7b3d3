//! `submissions/submissions.yaml` of a 2025-09 package (issue #15): what
//! the package's example submissions are expected to get. Its top-level
//! keys are globs over paths under `submissions/` (`accepted/*`,
//! `mixed/slow.py`); each maps to the expectations of every submission it
//! matches, and a submission must meet those of every glob that matches it.
//!
//! Read here, checked whole (a bad entry refuses the package with its file
//! and line); what a result must be to agree is
//! `crate::grading::package::expectations_agree`.

use super::kattis_yaml::without_location;
use super::{ConfigError, ConfigErrorKind};
use crate::verdict::Verdict;
use serde::Deserialize;
use std::path::Path;

/// The file, relative to the package.
pub(crate) const FILE: &str = "submissions/submissions.yaml";

/// One glob's entry as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryYaml {
    /// Only these verdicts may appear among the tests.
    #[serde(default)]
    permitted: Option<Vec<String>>,
    /// At least one of these verdicts must appear.
    #[serde(default)]
    required: Option<Vec<String>>,
    /// The score, or the inclusive range it must be in.
    #[serde(default)]
    score: Option<serde_norway::Value>,
    /// Text that some test's message must contain.
    #[serde(default)]
    message: Option<String>,
    /// Documentation only.
    #[serde(default)]
    author: Option<serde_norway::Value>,
    /// Documentation only.
    #[serde(default)]
    model_solution: Option<bool>,
    /// Refused: the judge runs a submission by its file's extension.
    #[serde(default)]
    language: Option<serde_norway::Value>,
    /// Refused, as `language`.
    #[serde(default)]
    entrypoint: Option<serde_norway::Value>,
    /// Refused: the time limit comes from `accepted/` as before.
    #[serde(default)]
    use_for_time_limit: Option<serde_norway::Value>,
}

/// What the submissions a glob matches must get.
#[derive(Clone, Debug)]
pub(crate) struct Expectation {
    /// The glob as written, and its line in the file (for messages).
    pub(crate) glob: String,
    pub(crate) line: usize,
    matcher: globset::GlobMatcher,
    /// Verdicts any test may have (`None`: any).
    pub(crate) permitted: Option<Vec<Verdict>>,
    /// Verdicts of which one test must have one (`None`: no demand).
    pub(crate) required: Option<Vec<Verdict>>,
    /// The inclusive range the score must be in.
    pub(crate) score: Option<(f64, f64)>,
    pub(crate) message: Option<String>,
}

impl Expectation {
    /// Whether the glob matches `relative`, a path under `submissions/`
    /// (`accepted/a.py`).
    pub(crate) fn matches(&self, relative: &Path) -> bool {
        self.matcher.is_match(relative)
    }

    /// What it demands, for messages: `permitted AC, TLE; score 60 to 70`.
    pub(crate) fn demand(&self) -> String {
        let names = |verdicts: &[Verdict]| {
            verdicts
                .iter()
                .map(|verdict| verdict.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut parts = Vec::new();
        if let Some(permitted) = &self.permitted {
            parts.push(format!("permitted {}", names(permitted)));
        }
        if let Some(required) = &self.required {
            parts.push(format!("required {}", names(required)));
        }
        if let Some((low, high)) = self.score {
            parts.push(format!("score {low} to {high}"));
        }
        if let Some(message) = &self.message {
            parts.push(format!("message {message:?}"));
        }
        parts.join("; ")
    }

    /// Whether it demands anything of a result (an entry with only an
    /// `author` leaves the folder's rule in force).
    pub(crate) fn demands(&self) -> bool {
        self.permitted.is_some()
            || self.required.is_some()
            || self.score.is_some()
            || self.message.is_some()
    }
}

/// The verdicts the format names, as the judge's.
fn verdict_of(name: &str) -> Option<Verdict> {
    match name {
        "AC" => Some(Verdict::Accepted),
        "WA" => Some(Verdict::WrongAnswer),
        "RTE" => Some(Verdict::RuntimeError),
        "TLE" => Some(Verdict::TimeLimitExceeded),
        _ => None,
    }
}

/// The 1-based line where the top-level key `key` is written.
fn line_of(text: &str, key: &str) -> Option<usize> {
    text.lines()
        .position(|line| {
            let unquoted = line
                .trim_start_matches(['"', '\''])
                .strip_prefix(key)
                .map(|rest| rest.trim_start_matches(['"', '\'']));
            !line.starts_with([' ', '\t', '#'])
                && unquoted.is_some_and(|rest| rest.starts_with(':'))
        })
        .map(|index| index + 1)
}

/// Reads `submissions/submissions.yaml` of the package in `dir`; `None`
/// when there is none.
pub(crate) fn read(dir: &Path) -> Result<Option<Vec<Expectation>>, ConfigError> {
    let path = dir.join(FILE);
    if !path.is_file() {
        return Ok(None);
    }
    let text = fs_err::read_to_string(&path).map_err(|error| ConfigError {
        path: path.clone(),
        kind: ConfigErrorKind::Read(error),
    })?;
    parse(&text)
        .map(Some)
        .map_err(|kind| ConfigError { path, kind })
}

/// The expectations `text` states, in the order written.
pub(crate) fn parse(text: &str) -> Result<Vec<Expectation>, ConfigErrorKind> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let mapping: serde_norway::Mapping =
        serde_norway::from_str(text).map_err(|error| ConfigErrorKind::Parse {
            position: error
                .location()
                .map(|location| (location.line(), location.column())),
            message: without_location(&error.to_string()),
        })?;
    let mut expectations = Vec::with_capacity(mapping.len());
    for (key, value) in mapping {
        let Some(glob) = key.as_str().map(str::to_owned) else {
            return Err(ConfigErrorKind::Invalid {
                key: format!("{key:?}"),
                message: "a key must be a glob over paths under `submissions/`".to_owned(),
                line: None,
            });
        };
        let line = line_of(text, &glob);
        let invalid = |message: String| ConfigErrorKind::Invalid {
            key: glob.clone(),
            message,
            line,
        };
        let entry: EntryYaml = serde_norway::from_value(value)
            .map_err(|error| invalid(without_location(&error.to_string())))?;
        for (name, given) in [
            ("language", entry.language.is_some()),
            ("entrypoint", entry.entrypoint.is_some()),
        ] {
            if given {
                return Err(invalid(format!(
                    "`{name}` is not carried out: the judge runs a submission by its file's \
                     extension (or a folder by its files), as judge.toml configures"
                )));
            }
        }
        if entry.use_for_time_limit.is_some() {
            return Err(invalid(
                "`use_for_time_limit` is not carried out: the time limit is problem.yaml's, or \
                 derived from `submissions/accepted/`"
                    .to_owned(),
            ));
        }
        let verdicts = |key: &str, names: Option<Vec<String>>| -> Result<_, ConfigErrorKind> {
            names
                .map(|names| {
                    if names.is_empty() {
                        return Err(invalid(format!("`{key}` lists no verdict")));
                    }
                    names
                        .iter()
                        .map(|name| {
                            verdict_of(name).ok_or_else(|| {
                                invalid(format!(
                                    "`{key}`: `{name}` is not a verdict of the format (AC, WA, \
                                     RTE, TLE)"
                                ))
                            })
                        })
                        .collect()
                })
                .transpose()
        };
        let permitted = verdicts("permitted", entry.permitted)?;
        let required = verdicts("required", entry.required)?;
        let score = entry
            .score
            .as_ref()
            .map(|score| {
                score_range(score).ok_or_else(|| {
                    invalid(
                        "`score` must be a number of at least 0, or `[LOW, HIGH]` with LOW <= HIGH"
                            .to_owned(),
                    )
                })
            })
            .transpose()?;
        let matcher = globset::GlobBuilder::new(&glob)
            .literal_separator(true)
            .build()
            .map_err(|error| invalid(format!("not a glob: {error}")))?
            .compile_matcher();
        let _ = (entry.author, entry.model_solution);
        expectations.push(Expectation {
            line: line.unwrap_or(0),
            glob,
            matcher,
            permitted,
            required,
            score,
            message: entry.message,
        });
    }
    Ok(expectations)
}

/// `score: 50` or `score: [20, 60]`.
fn score_range(value: &serde_norway::Value) -> Option<(f64, f64)> {
    let number =
        |value: &serde_norway::Value| value.as_f64().filter(|v| v.is_finite() && *v >= 0.0);
    match value {
        serde_norway::Value::Sequence(pair) => match pair.as_slice() {
            [low, high] => {
                let (low, high) = (number(low)?, number(high)?);
                (low <= high).then_some((low, high))
            }
            _ => None,
        },
        single => number(single).map(|score| (score, score)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    #[test]
    fn reads_globs_and_their_expectations() {
        let text = "accepted/*:\n  permitted: [AC]\nmixed/slow.py:\n  permitted: [AC, TLE]\n  \
                    required: [TLE]\n  score: [20, 60]\n  message: too slow\n  author: Ann\n";
        let read = parse(text).unwrap();
        assert_eq!(read.len(), 2);
        assert_eq!(read[0].glob, "accepted/*");
        assert_eq!(read[0].line, 1);
        assert!(read[0].matches(Path::new("accepted/a.py")));
        assert!(!read[0].matches(Path::new("accepted/deep/a.py")));
        assert_eq!(read[1].line, 3);
        assert_eq!(
            read[1].permitted,
            Some(vec![Verdict::Accepted, Verdict::TimeLimitExceeded])
        );
        assert_eq!(read[1].required, Some(vec![Verdict::TimeLimitExceeded]));
        assert_eq!(read[1].score, Some((20.0, 60.0)));
        assert_eq!(read[1].message.as_deref(), Some("too slow"));
    }

    #[test_case("a/*:\n  permited: [AC]\n", "line 1: `a/*`: unknown field `permited`, expected one of" ; "an unknown key")]
    #[test_case("a/*:\n  permitted: [AC]\nb/*:\n  required: [OK]\n", "line 3: `b/*`: `required`: `OK` is not a verdict of the format (AC, WA, RTE, TLE)" ; "an unknown verdict")]
    #[test_case("a/*:\n  permitted: []\n", "line 1: `a/*`: `permitted` lists no verdict" ; "no verdict")]
    #[test_case("a/*:\n  score: [60, 20]\n", "line 1: `a/*`: `score` must be a number" ; "a backwards range")]
    #[test_case("a/*:\n  score: -1\n", "line 1: `a/*`: `score` must be a number" ; "a negative score")]
    #[test_case("a/*:\n  language: kotlin\n", "line 1: `a/*`: `language` is not carried out" ; "a language")]
    #[test_case("a/*:\n  use_for_time_limit: lower\n", "line 1: `a/*`: `use_for_time_limit` is not carried out" ; "time limit use")]
    #[test_case("a/[:\n  permitted: [AC]\n", "line 1: `a/[`: not a glob" ; "a bad glob")]
    #[test_case("a/*:\n  permitted: [AC\n", "line 3, column 1: did not find expected" ; "bad yaml")]
    fn refuses_a_bad_entry_with_its_line(text: &str, wanted: &str) {
        let error = parse(text).unwrap_err().to_string();
        assert!(error.contains(wanted), "{error}");
    }
}
