//! A package's own submissions in verdict folders, `submissions/<verdict>/`,
//! and what `submissions/submissions.yaml` (2025-09) expects of them: how a
//! Kattis package lists its submissions (issue #9, #34), and a package of
//! ours too. The grading layer reads them through
//! [`Expectations`] and never asks which format a package came from.
//!
//! A submission outside the verdict folders may carry DOMjudge's
//! `@EXPECTED_RESULTS@:` marker ([`expected_results`]): it is then
//! expected to get one of the verdicts it names, unless an entry of
//! `submissions.yaml` the setter wrote matches it (the file wins, as in
//! BAPCtools, whose export writes the marker from it); the format's default
//! demand of `rejected/` gives way to a marker. In a verdict folder a marker
//! is ignored with a warning, as BAPCtools ignores it. Reading the list also
//! warns of `submissions.yaml` keys that match nothing and refuses
//! expectations no result can meet ([`checks`]).
//!
//! Not responsible for reading the files ([`crate::config::kattis`] lists
//! the folders, [`crate::config::kattis_submissions`] reads the yaml) nor
//! for the folders' meanings ([`crate::discovery`]).

use super::format::{
    Expectations, ExpectedKey, LimitSources, ListedSubmissions, LowerBound, OwnSubmissions,
    PackageSubmission, StatedLanguage,
};
use crate::config::judge::JudgeConfig;
use crate::config::kattis::package_submissions;
use crate::config::kattis_submissions::{self, Expectation, Rule, TimeLimitUse};
use crate::config::ConfigError;
use crate::discovery::{
    also_accepted, folder_agrees, kattis_folder_agrees, verdict_of_folder, ACCEPTED_FOLDER,
    PARTIAL_FOLDER,
};
use crate::runner::{LinkScope, SubmissionResult};
use crate::verdict::Verdict;
use expected_results::Marker;
use std::path::{Path, PathBuf};

/// The verdict folders of the package in `dir`, read when its submissions
/// are graded.
#[derive(Debug)]
pub(crate) struct VerdictFolders {
    dir: PathBuf,
    /// The package has scored test groups (`partially_accepted/` is then a
    /// verdict folder, and `accepted/` must score the maximum).
    scored: bool,
    /// The language standard the format's own tools compile its
    /// submissions with (a Kattis package's C++: `gnu++23`), in place of
    /// the configured one of that language family; `None`: as configured.
    standard: Option<&'static str>,
    /// The names of the package's tests (`secret/group1/3`), which a
    /// `submissions.yaml` test group glob must match one of.
    tests: Vec<String>,
}

impl VerdictFolders {
    pub(crate) fn new(
        dir: &Path,
        scored: bool,
        standard: Option<&'static str>,
        tests: Vec<String>,
    ) -> VerdictFolders {
        VerdictFolders {
            dir: dir.to_owned(),
            scored,
            standard,
            tests,
        }
    }
}

impl OwnSubmissions for VerdictFolders {
    /// `submissions.yaml` (with the format's defaults), then the folders
    /// and the markers of the submissions in them; warns of the file's
    /// keys that match nothing and refuses expectations no result meets.
    fn read(&self) -> Result<ListedSubmissions, ConfigError> {
        let written = kattis_submissions::read(&self.dir)?.unwrap_or_default();
        let submissions: Vec<PackageSubmission> = package_submissions(&self.dir)?
            .into_iter()
            .map(|file| PackageSubmission {
                path: file.path,
                expected_as: file.folder,
                standard: self.standard.map(str::to_owned),
            })
            .collect();
        let folder = self.dir.join("submissions");
        let mut warnings = checks::unmatched(&self.dir, &written, &submissions, &self.tests);
        let mut expectations = FolderExpectations {
            submissions: folder,
            scored: self.scored,
            expectations: kattis_submissions::with_defaults(written),
            markers: Vec::new(),
        };
        // The package's own submissions: their links may lead anywhere in
        // it, as when they are graded.
        let scope = LinkScope::package(&self.dir);
        for listed in &submissions {
            let Some(marker) = expected_results::find(&listed.path, &scope)? else {
                continue;
            };
            match expectations.marker_ignored(listed, &marker) {
                Some(why) => warnings.push(why),
                None => expectations.markers.push((listed.path.clone(), marker)),
            }
        }
        checks::refuse_contradictions(&self.dir, &expectations, &submissions)?;
        Ok(ListedSubmissions {
            submissions,
            expectations: Box::new(expectations),
            warnings,
        })
    }
}

/// What the verdict folders and `submissions.yaml` expect.
#[derive(Debug)]
struct FolderExpectations {
    /// `dir/submissions`, the folder the globs are relative to.
    submissions: PathBuf,
    scored: bool,
    /// `submissions/submissions.yaml`'s entries, and the format's defaults.
    expectations: Vec<Expectation>,
    /// The `@EXPECTED_RESULTS@:` markers that hold, by submission path,
    /// each as the `permitted` rule it is.
    markers: Vec<(PathBuf, Marker)>,
}

impl FolderExpectations {
    /// Why the marker of `listed` does not hold, when it does not: it is
    /// in a verdict folder (BAPCtools ignores it there, DOMjudge issue
    /// 1861), or a `submissions.yaml` entry the setter wrote states what it
    /// must get (the file wins).
    fn marker_ignored(&self, listed: &PackageSubmission, marker: &Marker) -> Option<String> {
        let at = format!(
            "`{}` line {}: `@EXPECTED_RESULTS@` is ignored",
            marker.file.display(),
            marker.line
        );
        let partial = self.scored && listed.expected_as == PARTIAL_FOLDER;
        if kattis_folder_agrees(&listed.expected_as, Verdict::Accepted).is_some() || partial {
            return Some(format!(
                "{at}: `{}/` is a verdict folder, which says what it must get (as in BAPCtools)",
                listed.expected_as
            ));
        }
        let written = self
            .matching(listed)
            .into_iter()
            .find(|expectation| expectation.line > 0)?;
        Some(format!(
            "{at}: submissions.yaml `{}` line {} states what it must get, and the file wins \
             (as in BAPCtools, which writes the marker from it)",
            written.glob, written.line
        ))
    }

    /// The marker that holds for `listed`, if one does.
    fn marker(&self, listed: &PackageSubmission) -> Option<&Marker> {
        self.markers
            .iter()
            .find(|(path, _)| *path == listed.path)
            .map(|(_, marker)| marker)
    }

    /// The entries whose glob matches `listed`.
    fn matched(&self, listed: &PackageSubmission) -> Vec<&Expectation> {
        let Ok(relative) = listed.path.strip_prefix(&self.submissions) else {
            return Vec::new();
        };
        self.expectations
            .iter()
            .filter(|expectation| expectation.matches(relative))
            .collect()
    }

    /// The entries whose glob matches `listed` and that state a demand.
    fn matching(&self, listed: &PackageSubmission) -> Vec<&Expectation> {
        self.matched(listed)
            .into_iter()
            .filter(|expectation| expectation.demands())
            .collect()
    }

    /// What decided the expectation of `listed` when the folder alone did
    /// not (`` `mixed/*` line 3: permitted AC, WA ``), one line each.
    fn expected_by(&self, listed: &PackageSubmission) -> Vec<String> {
        if self.marker(listed).is_some() {
            return Vec::new();
        }
        self.matching(listed)
            .iter()
            .map(|expectation| match expectation.line {
                0 => format!(
                    "`{}` (the format's default): {}",
                    expectation.glob,
                    expectation.demand()
                ),
                line => format!(
                    "`{}` line {line}: {}",
                    expectation.glob,
                    expectation.demand()
                ),
            })
            .collect()
    }
}

impl Expectations for FolderExpectations {
    /// A folder that is not a verdict folder (nor `partially_accepted/` of
    /// a scored package) and that no demanding entry matches.
    fn not_graded(&self, listed: &PackageSubmission) -> Option<String> {
        let partial = self.scored && listed.expected_as == PARTIAL_FOLDER;
        let expected = !self.matching(listed).is_empty() || self.marker(listed).is_some();
        (kattis_folder_agrees(&listed.expected_as, Verdict::Accepted).is_none()
            && !partial
            && !expected)
            .then(|| {
                format!(
                    "`{}/` is not a verdict folder of the Kattis format",
                    listed.expected_as
                )
            })
    }

    /// The language a matching entry states for `listed`, with the entry
    /// point it states; the reason to skip it when judge.toml has no
    /// language for the stated code, or two entries state different ones.
    fn stated(
        &self,
        listed: &PackageSubmission,
        config: &JudgeConfig,
    ) -> Result<StatedLanguage, String> {
        let matched = self.matched(listed);
        let stated = |pick: fn(&Expectation) -> Option<&String>, key: &str| {
            let mut values: Vec<(&String, &Expectation)> = matched
                .iter()
                .filter_map(|expectation| pick(expectation).map(|value| (value, *expectation)))
                .collect();
            values.dedup_by(|a, b| a.0 == b.0);
            match values.as_slice() {
                [] => Ok(None),
                [(value, expectation)] => Ok(Some(((*value).clone(), expectation.line))),
                [(first, a), (second, b), ..] => Err(format!(
                    "submissions.yaml states two `{key}`s for it: `{first}` (line {}) and \
                     `{second}` (line {})",
                    a.line, b.line
                )),
            }
        };
        let language = stated(|expectation| expectation.language.as_ref(), "language")?;
        let entrypoint = stated(|expectation| expectation.entrypoint.as_ref(), "entrypoint")?;
        let language = match language {
            Some((code, line)) => {
                let extension = kattis_submissions::extension_of_code(&code).unwrap_or_default();
                let probe = Path::new("submission").with_extension(extension);
                let (name, language) = config.language_for(&probe).ok_or_else(|| {
                    format!(
                        "its `language: {code}` (submissions.yaml line {line}) is none of \
                         judge.toml's (no language runs `.{extension}` files; known: {})",
                        config.known_languages()
                    )
                })?;
                Some((name.to_owned(), language.clone()))
            }
            None => None,
        };
        // A `.py` file whose `#!` line asks for Python 2 runs as that
        // (problemtools' rule, issue #34), unless submissions.yaml states
        // its language or entry point.
        if language.is_none() && entrypoint.is_none() {
            if let Some(line) = python2::python2_shebang(&listed.path) {
                let language = python2::python2_language(config)
                    .ok_or_else(|| python2::not_configured(&line))?;
                return Ok(StatedLanguage {
                    language: Some(language),
                    entry: None,
                    unavailable: Some(python2::not_installed(&line)),
                });
            }
        }
        Ok(StatedLanguage {
            language,
            entry: entrypoint.map(|(entry, _)| entry),
            unavailable: None,
        })
    }

    fn names_language(&self, listed: &PackageSubmission) -> bool {
        self.matched(listed)
            .iter()
            .any(|expectation| expectation.language.is_some())
    }

    /// The folder's verdict, and the others Kattis' meanings let it get.
    fn verdicts(&self, folder: &str) -> (Option<Verdict>, Vec<Verdict>) {
        let own = verdict_of_folder(folder);
        (own, also_accepted(folder, own))
    }

    fn key(&self) -> ExpectedKey {
        ExpectedKey::Folder
    }

    /// A marker that holds is the whole demand (it replaces `rejected/`'s
    /// default): the submission's verdict, as DOMjudge judges it (its first
    /// failing test's, AC when every test passes; a compile error's when
    /// it names `COMPILER-ERROR`), is one it names. Else the folder and
    /// `submissions.yaml`.
    fn agrees(&self, listed: &PackageSubmission, result: &SubmissionResult) -> bool {
        if let Some(marker) = self.marker(listed) {
            let verdict = if result.compile.verdict.is_some() {
                result.compile.verdict
            } else {
                format_verdict(result.verdict)
            };
            return verdict.is_some_and(|verdict| marker.verdicts.contains(&verdict));
        }
        package_agrees(listed, &self.matching(listed), result, self.scored)
    }

    /// The folder, or the `submissions.yaml` entries that demand something
    /// of `listed` (the format's defaults among them).
    fn decided_by(&self, listed: &PackageSubmission) -> String {
        if let Some(marker) = self.marker(listed) {
            let file = marker
                .file
                .strip_prefix(&self.submissions)
                .unwrap_or(&marker.file);
            let names: Vec<String> = marker.verdicts.iter().map(Verdict::to_string).collect();
            return format!(
                "@EXPECTED_RESULTS@ in {} line {}: one of {}",
                file.display(),
                marker.line,
                names.join(", ")
            );
        }
        let entries = self.expected_by(listed);
        if entries.is_empty() {
            format!("{} {}", self.key().word(), listed.expected_as)
        } else {
            format!("submissions.yaml {}", entries.join(", "))
        }
    }

    /// A Kattis package states its limit in `problem.yaml` (a package of
    /// ours always states one in `problem.toml`, so it never derives one).
    fn limit_sources(&self) -> LimitSources {
        LimitSources {
            stated_in: crate::config::kattis::MARKER,
            derived_from: "`submissions/accepted/`",
        }
    }

    /// An accepted submission unless a matching `use_for_time_limit: false`
    /// keeps it out, and any submission a matching `use_for_time_limit:
    /// lower` puts in, whole or on a test group. An accepted one whose
    /// folder demand `submissions.yaml` replaced need not pass, only not
    /// run out of time.
    fn lower_bound(&self, listed: &PackageSubmission) -> LowerBound<'_> {
        let accepted = listed.expected_as == ACCEPTED_FOLDER;
        if listed.path.strip_prefix(&self.submissions).is_err() {
            return if accepted {
                LowerBound::All { must_pass: true }
            } else {
                LowerBound::None
            };
        }
        let matched = self.matched(listed);
        let own = |wanted: TimeLimitUse| {
            matched
                .iter()
                .any(|expectation| expectation.use_for_time_limit() == Some(wanted))
        };
        if own(TimeLimitUse::Excluded) {
            return LowerBound::None;
        }
        if accepted {
            let replaced = matched
                .iter()
                .any(|expectation| expectation.replaces_folder == Some(ACCEPTED_FOLDER));
            return LowerBound::All {
                must_pass: !replaced,
            };
        }
        if own(TimeLimitUse::Lower) {
            return LowerBound::All { must_pass: false };
        }
        let groups: Vec<&Rule> = matched
            .iter()
            .flat_map(|expectation| &expectation.rules)
            .filter(|rule| {
                rule.scope.is_some() && rule.use_for_time_limit == Some(TimeLimitUse::Lower)
            })
            .collect();
        if groups.is_empty() {
            LowerBound::None
        } else {
            LowerBound::Groups(groups)
        }
    }

    fn runs_every_test(&self) -> bool {
        self.expectations.iter().any(Expectation::has_group_rules)
    }
}

/// The format's verdict for one of the judge's: a presentation error and
/// an output overrun are wrong answers, a memory overrun a run-time error;
/// CE and JE are none of the format's.
fn format_verdict(verdict: Verdict) -> Option<Verdict> {
    use Verdict::*;
    match verdict {
        Accepted => Some(Accepted),
        WrongAnswer | PresentationError | OutputLimitExceeded => Some(WrongAnswer),
        RuntimeError | MemoryLimitExceeded => Some(RuntimeError),
        TimeLimitExceeded => Some(TimeLimitExceeded),
        CompileError | JudgeError => None,
    }
}

/// Whether `result` meets every one of `expectations` (2025-09
/// `submissions.yaml`), each rule over the tests it applies to (all, or a
/// test group's): each such test run has a `permitted` verdict, one of them
/// a `required` one, some message contains `message`, and the score is
/// within `score` (the submission's; under a group glob, each matched
/// group's). A submission that did not compile meets none (and no
/// expectation is met by anything).
fn expectations_agree(expectations: &[&Expectation], result: &SubmissionResult) -> bool {
    if expectations.is_empty() {
        return true;
    }
    let rules: Vec<&Rule> = expectations
        .iter()
        .flat_map(|expectation| &expectation.rules)
        .collect();
    rules_agree(&rules, result)
}

/// Whether `result` meets every one of `rules` (see
/// [`expectations_agree`]); a submission that did not compile meets none.
fn rules_agree(rules: &[&Rule], result: &SubmissionResult) -> bool {
    if result.compile.verdict.is_some() {
        return false;
    }
    let score = result.score.unwrap_or_else(|| result.pass_fail_score()).0;
    let within = |(low, high): (f64, f64), score: f64| score >= low - 1e-9 && score <= high + 1e-9;
    rules.iter().all(|rule| {
        let tests: Vec<&crate::runner::TestResult> = result
            .tests
            .iter()
            .filter(|test| rule.applies_to(&test.name))
            .collect();
        let verdicts = || tests.iter().map(|test| format_verdict(test.verdict));
        let permitted = rule.permitted.as_ref().is_none_or(|permitted| {
            verdicts().all(|verdict| verdict.is_some_and(|verdict| permitted.contains(&verdict)))
        });
        let required = rule.required.as_ref().is_none_or(|required| {
            verdicts().any(|verdict| verdict.is_some_and(|verdict| required.contains(&verdict)))
        });
        let scored = rule.score.is_none_or(|range| match rule.scope {
            None => within(range, score),
            Some(_) => {
                let mut groups = result
                    .groups
                    .iter()
                    .filter(|group| rule.bounds_group(&group.name))
                    .peekable();
                groups.peek().is_some() && groups.all(|group| within(range, group.score.0))
            }
        });
        let said = rule.message.as_ref().is_none_or(|message| {
            tests
                .iter()
                .any(|test| test.message.contains(message.as_str()))
        });
        permitted && required && scored && said
    })
}

/// Whether `result` agrees with what `listed`'s folder and the matching
/// `expectations` demand. The format: a glob that is exactly the folder's
/// name (`accepted`) replaces the folder's demand; any other matching glob
/// adds to it (`accepted/*` must hold as well as `accepted`'s rule).
/// `rejected/` and `brute_force/` have the format's default demand.
fn package_agrees(
    listed: &PackageSubmission,
    expectations: &[&Expectation],
    result: &SubmissionResult,
    scored: bool,
) -> bool {
    let replaced = expectations
        .iter()
        .any(|expectation| expectation.replaces_folder == Some(listed.expected_as.as_str()));
    let folder_rule = kattis_folder_agrees(&listed.expected_as, Verdict::Accepted).is_some()
        || (scored && listed.expected_as == PARTIAL_FOLDER);
    let by_folder = replaced || !folder_rule || folder_agrees(&listed.expected_as, result, scored);
    by_folder && expectations_agree(expectations, result)
}

mod checks;
pub(crate) mod expected_results;
mod python2;

#[cfg(test)]
mod tests;
