//! What reading a package's `submissions/submissions.yaml` checks beyond
//! its shape (issue #34), once the submissions and tests it speaks of are
//! known:
//!
//! - a key that matches nothing is a warning, naming the file, the line
//!   and the key: a submission glob that matches no submission, a test
//!   group glob that matches no test (a typo such as `secret/gruop1` would
//!   silently drop the setter's expectation). BAPCtools does not refuse
//!   such a key either;
//! - the demands that apply to one submission that no result can meet
//!   together refuse the package, naming the submission and the line of
//!   every entry involved: verdicts permitted by every entry (the folder's
//!   default demand among them, unless a glob replaces it) that have none
//!   in common, or a `required` verdict none of them permits. BAPCtools
//!   warns of the second within one entry; a grade could only end in a
//!   MISMATCH, so the judge says so before anything runs.

use super::FolderExpectations;
use crate::config::kattis_submissions::{default_demand, Expectation, Rule, FILE};
use crate::config::ConfigError;
use crate::package::format::PackageSubmission;
use crate::verdict::Verdict;
use std::path::Path;

/// The warnings of `written`'s keys (the entries of the package in `dir`)
/// that match no submission of `submissions` or no test of `tests`.
pub(super) fn unmatched(
    dir: &Path,
    written: &[Expectation],
    submissions: &[PackageSubmission],
    tests: &[String],
) -> Vec<String> {
    let folder = dir.join("submissions");
    let mut warnings = Vec::new();
    for expectation in written {
        let matched = submissions.iter().any(|listed| {
            listed
                .path
                .strip_prefix(&folder)
                .is_ok_and(|relative| expectation.matches(relative))
        });
        if !matched {
            warnings.push(format!(
                "`{FILE}` line {}: `{}` matches no submission under `submissions/`, so what it \
                 states holds for none (a typo?)",
                expectation.line, expectation.glob
            ));
        }
        for rule in &expectation.rules {
            let Some(scope) = &rule.scope else {
                continue;
            };
            if !tests.iter().any(|test| rule.applies_to(test)) {
                warnings.push(format!(
                    "`{FILE}` line {}: the test group glob `{}` (under `{}`) matches no test \
                     group or test of the package, so what it states holds for none (a typo?)",
                    scope.line, scope.glob, expectation.glob
                ));
            }
        }
    }
    warnings
}

/// One demand that applies to a submission, and who states it.
struct Source<'a> {
    /// `` `accepted/*` line 3 `` or `` folder `accepted/` ``.
    who: String,
    /// The line of the entry (0 for a folder's or the format's default).
    line: usize,
    rule: std::borrow::Cow<'a, Rule>,
}

impl Source<'_> {
    /// `` `accepted/*` line 3 (permitted WA) ``.
    fn named(&self) -> String {
        format!("{} ({})", self.who, self.rule.demand())
    }
}

/// The demands that apply to `listed`: its folder's default (unless a
/// glob replaces it), then every matching entry's rules.
fn sources<'a>(
    expectations: &'a FolderExpectations,
    listed: &PackageSubmission,
) -> Vec<Source<'a>> {
    let matching = expectations.matching(listed);
    let replaced = matching
        .iter()
        .any(|expectation| expectation.replaces_folder == Some(listed.expected_as.as_str()));
    let folder = (!replaced)
        .then(|| default_demand(&listed.expected_as))
        .flatten()
        .map(|rule| Source {
            who: format!("folder `{}/`", listed.expected_as),
            line: 0,
            rule: std::borrow::Cow::Owned(rule),
        });
    let entries = matching.into_iter().flat_map(|expectation| {
        expectation
            .rules
            .iter()
            .filter(|rule| rule.demands())
            .map(|rule| Source {
                who: match expectation.line {
                    0 => format!("`{}` (the format's default)", expectation.glob),
                    line => format!("`{}` line {line}", expectation.glob),
                },
                line: rule
                    .scope
                    .as_ref()
                    .map_or(expectation.line, |scope| scope.line.max(expectation.line)),
                rule: std::borrow::Cow::Borrowed(rule),
            })
    });
    folder.into_iter().chain(entries).collect()
}

/// Refuses the package in `dir` when the demands that apply to one of
/// `submissions` cannot all be met (see the module's doc). A submission
/// whose `@EXPECTED_RESULTS@` marker holds has that one demand, which
/// always can be.
pub(super) fn refuse_contradictions(
    dir: &Path,
    expectations: &FolderExpectations,
    submissions: &[PackageSubmission],
) -> Result<(), ConfigError> {
    for listed in submissions {
        if expectations.marker(listed).is_some() {
            continue;
        }
        let sources = sources(expectations, listed);
        if let Some((line, why)) = contradiction(&sources) {
            return Err(ConfigError::invalid_on(
                &dir.join(FILE),
                line,
                listed
                    .path
                    .strip_prefix(dir)
                    .unwrap_or(&listed.path)
                    .display()
                    .to_string(),
                format!("no result can meet what applies to this submission: {why}"),
            ));
        }
    }
    Ok(())
}

/// The line to name and the words, when `sources` cannot all be met: the
/// verdicts every whole-submission rule permits, then each `required`
/// against them, then each test group's rule against them.
fn contradiction(sources: &[Source<'_>]) -> Option<(usize, String)> {
    let names = |verdicts: &[Verdict]| {
        verdicts
            .iter()
            .map(Verdict::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (whole, groups): (Vec<&Source<'_>>, Vec<&Source<'_>>) = sources
        .iter()
        .partition(|source| source.rule.scope.is_none());
    let mut permitted: Vec<Verdict> = vec![
        Verdict::Accepted,
        Verdict::WrongAnswer,
        Verdict::TimeLimitExceeded,
        Verdict::RuntimeError,
    ];
    let mut narrowing: Vec<&Source<'_>> = Vec::new();
    let line_of = |involved: &[&Source<'_>]| {
        involved
            .iter()
            .map(|source| source.line)
            .max()
            .unwrap_or(0)
            .max(1)
    };
    let listed = |involved: &[&Source<'_>]| {
        involved
            .iter()
            .map(|source| source.named())
            .collect::<Vec<_>>()
            .join(" and ")
    };
    for source in &whole {
        let Some(allowed) = &source.rule.permitted else {
            continue;
        };
        permitted.retain(|verdict| allowed.contains(verdict));
        narrowing.push(source);
        if permitted.is_empty() {
            return Some((
                line_of(&narrowing),
                format!("{} permit no verdict in common", listed(&narrowing)),
            ));
        }
    }
    let permit = |involved: &[&Source<'_>]| {
        if involved.len() == 1 {
            "permits"
        } else {
            "permit"
        }
    };
    let permits = |narrowing: &[&Source<'_>], permitted: &[Verdict]| {
        if narrowing.is_empty() {
            String::new()
        } else {
            format!(
                ", but {} {} only {}",
                listed(narrowing),
                permit(narrowing),
                names(permitted)
            )
        }
    };
    for source in &whole {
        if let Some(required) = &source.rule.required {
            if !required.iter().any(|verdict| permitted.contains(verdict)) {
                let mut involved = narrowing.clone();
                involved.push(source);
                return Some((
                    line_of(&involved),
                    format!(
                        "{} requires one of {}{}",
                        source.who,
                        names(required),
                        permits(&narrowing, &permitted)
                    ),
                ));
            }
        }
    }
    for source in &groups {
        let mut here = permitted.clone();
        if let Some(allowed) = &source.rule.permitted {
            here.retain(|verdict| allowed.contains(verdict));
            if here.is_empty() {
                let mut involved = narrowing.clone();
                involved.push(source);
                return Some((
                    line_of(&involved),
                    format!("{} permit no verdict in common", listed(&involved)),
                ));
            }
        }
        if let Some(required) = &source.rule.required {
            if !required.iter().any(|verdict| here.contains(verdict)) {
                let mut involved = narrowing.clone();
                involved.push(source);
                return Some((
                    line_of(&involved),
                    format!(
                        "{} requires one of {} on its tests, but {} {} only {}",
                        source.who,
                        names(required),
                        listed(&involved),
                        permit(&involved),
                        names(&here)
                    ),
                ));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::kattis_submissions;
    use std::path::PathBuf;
    use test_case::test_case;

    fn checked(yaml: &str, path: &str, folder: &str) -> Result<(), String> {
        let expectations = FolderExpectations {
            submissions: PathBuf::from("/p/submissions"),
            scored: false,
            expectations: kattis_submissions::with_defaults(
                kattis_submissions::parse(yaml).unwrap(),
            ),
            markers: Vec::new(),
        };
        let listed = PackageSubmission {
            path: PathBuf::from("/p/submissions").join(path),
            expected_as: folder.to_owned(),
            standard: None,
        };
        refuse_contradictions(Path::new("/p"), &expectations, &[listed])
            .map_err(|error| error.to_string())
    }

    #[test_case("accepted/x.py:\n  permitted: [WA]\n", "accepted/x.py", "accepted", Err("line 1: `submissions/accepted/x.py`: no result can meet what applies to this submission: folder `accepted/` (permitted AC) and `accepted/x.py` line 1 (permitted WA) permit no verdict in common") ; "permitted against the folder")]
    #[test_case("accepted/x.py:\n  required: [TLE]\n", "accepted/x.py", "accepted", Err("line 1: `submissions/accepted/x.py`: no result can meet what applies to this submission: `accepted/x.py` line 1 requires one of TLE, but folder `accepted/` (permitted AC) permits only AC") ; "required against the folder")]
    #[test_case("mixed:\n  permitted: [AC, WA]\nmixed/x.py:\n  permitted: [TLE, RTE]\n", "mixed/x.py", "mixed", Err("line 3: `submissions/mixed/x.py`: no result can meet what applies to this submission: `mixed` line 1 (permitted AC, WA) and `mixed/x.py` line 3 (permitted TLE, RE) permit no verdict in common") ; "two entries")]
    #[test_case("mixed/x.py:\n  permitted: [AC]\n  secret:\n    required: [TLE]\n", "mixed/x.py", "mixed", Err("line 3: `submissions/mixed/x.py`: no result can meet what applies to this submission: `mixed/x.py` line 1 requires one of TLE on its tests") ; "a group's required")]
    #[test_case("accepted:\n  permitted: [AC, TLE]\naccepted/x.py:\n  required: [TLE]\n", "accepted/x.py", "accepted", Ok(()) ; "a glob replacing the folder")]
    #[test_case("rejected/x.py:\n  permitted: [AC]\n", "rejected/x.py", "rejected", Err("`rejected` (the format's default) requires one of RE, TLE, WA, but `rejected/x.py` line 1 (permitted AC) permits only AC") ; "the format's default of rejected")]
    #[test_case("mixed/x.py:\n  permitted: [AC, TLE]\n  required: [TLE]\n", "mixed/x.py", "mixed", Ok(()) ; "one that can be met")]
    #[test_case("wrong_answer/x.py:\n  permitted: [WA, TLE]\n", "wrong_answer/x.py", "wrong_answer", Ok(()) ; "narrowed but meetable")]
    fn contradictions(yaml: &str, path: &str, folder: &str, expected: Result<(), &str>) {
        match (checked(yaml, path, folder), expected) {
            (Ok(()), Ok(())) => {}
            (Err(message), Err(expected)) => {
                assert!(
                    message.contains(expected),
                    "{message}\nexpected: {expected}"
                );
            }
            (found, expected) => panic!("{found:?} against {expected:?}"),
        }
    }

    #[test]
    fn keys_that_match_nothing_are_named() {
        let written = kattis_submissions::parse(
            "accepted:\n  permitted: [AC]\nacepted/*:\n  permitted: [AC]\nmixed/x.py:\n  secret/gruop1:\n    permitted: [AC]\n  sample:\n    permitted: [AC]\n",
        )
        .unwrap();
        let listed = |path: &str| PackageSubmission {
            path: PathBuf::from("/p/submissions").join(path),
            expected_as: path.split('/').next().unwrap().to_owned(),
            standard: None,
        };
        let warnings = unmatched(
            Path::new("/p"),
            &written,
            &[listed("accepted/a.py"), listed("mixed/x.py")],
            &["sample/1".to_owned(), "secret/group1/1".to_owned()],
        );
        assert_eq!(
            warnings,
            [
                "`submissions/submissions.yaml` line 3: `acepted/*` matches no submission under \
                 `submissions/`, so what it states holds for none (a typo?)",
                "`submissions/submissions.yaml` line 6: the test group glob `secret/gruop1` \
                 (under `mixed/x.py`) matches no test group or test of the package, so what it \
                 states holds for none (a typo?)",
            ]
        );
    }
}
