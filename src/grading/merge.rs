//! `judge merge`'s work: reads the JSON reports of `judge grade --shard K/N`
//! runs and merges them into the report of the whole run, then ends it as a
//! grade ends (the command's one call, [`run`]). It runs nothing; a report
//! that cannot be read or merged is the user's to fix (exit 2).
//!
//! What combines and what is refused (overlapping pairs, mixed layouts,
//! settings or splits, a missing shard) is decided here, the one home of
//! the merge (issue #33), with the wording of a refusal (`refusal`,
//! [`MergeError`]);
//! the report's format is `report::json`'s, read into a grade once
//! ([`wire::parse`]).

pub(crate) mod refusal;

use super::console::Console;
use super::grade::{wire, Grade, GradedWith};
use super::usage::{Named, UsageError};
use super::{CommandError, GradingError};
use crate::config::judge::Layout;
use crate::exit::Outcome;
use crate::report::json::BeforeTests;
use crate::report::targets::Targets;
use refusal::MergeError;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What `judge merge` was given.
#[derive(Debug)]
pub(crate) struct MergeCommand<'a> {
    /// The shard reports.
    pub(crate) reports: &'a [PathBuf],
    /// `-o FILE` (the merged JSON report) and the report files asked for.
    pub(crate) targets: Targets<'a>,
    /// `-q`: no table.
    pub(crate) quiet: bool,
}

/// `judge merge`, in its order: the report paths checked, the shard
/// reports read and merged ([`read_and_merge`]), a warning for each shard
/// a signal stopped (how many of its pairs it left not graded, or, for one
/// stopped before it knew its pairs, that none was graded), then the end
/// of a grade ([`super::reports::end_grade`]: the reports, the table and
/// summary). Returns the outcome of the merged verdicts, a failure at best
/// when a shard was interrupted: an incomplete merge must not pass for a
/// whole run (issue #34), as a partial report does not under `judge
/// report`.
pub(crate) fn run(
    command: &MergeCommand<'_>,
    console: &mut dyn Console,
) -> Result<Outcome, CommandError> {
    command.targets.check()?;
    let Merged {
        grade: merged,
        stopped,
        interrupted,
    } = read_and_merge(command.reports)?;
    for shard in &interrupted {
        console.say(&shard.warning());
    }
    for shard in &stopped {
        console.say(&shard.warning());
    }
    super::reports::end_grade(
        &merged,
        &command.targets,
        command.quiet,
        false,
        None,
        Ok(None),
        console,
    )?;
    Ok(incomplete_fails(
        super::policy::grade_outcome(&merged),
        merged.interrupted || !stopped.is_empty(),
    ))
}

/// The outcome of a merge whose verdicts came to `outcome`: a success
/// becomes a failure when the merge is `incomplete` (a shard was stopped,
/// so some pair has no verdict); a judge's failure stays one.
fn incomplete_fails(outcome: Outcome, incomplete: bool) -> Outcome {
    match outcome {
        Outcome::Success if incomplete => Outcome::Failure,
        outcome => outcome,
    }
}

/// The merge of shard reports ([`read_and_merge`]).
#[derive(Debug)]
pub(crate) struct Merged {
    /// The report of the whole run.
    pub(crate) grade: Grade,
    /// The shards a signal stopped before they knew their pairs: theirs are
    /// in neither `results` nor `not_graded` of `grade`.
    pub(crate) stopped: Vec<StoppedShard>,
    /// The other reports a signal stopped: their pairs not graded are in
    /// `not_graded` of `grade`.
    pub(crate) interrupted: Vec<InterruptedShard>,
}

/// A shard (or a report of a whole run) a signal stopped once it knew its
/// pairs: some of them may be left not graded.
#[derive(Debug)]
pub(crate) struct InterruptedShard {
    pub(crate) path: PathBuf,
    /// Its `index` and `count`; `None` for a report of no shard.
    pub(crate) shard: Option<(usize, usize)>,
    /// Its pairs left not graded.
    pub(crate) not_graded: usize,
    /// Its pairs: those graded and those not.
    pub(crate) pairs: usize,
}

impl InterruptedShard {
    /// The warning a merge says of it: `warning: shard 2/2 (`b.json`) was
    /// interrupted: 1 of its 2 pairs not graded (...)`.
    fn warning(&self) -> String {
        let which = match self.shard {
            Some((index, count)) => format!("shard {index}/{count} (`{}`)", self.path.display()),
            None => format!("`{}`", self.path.display()),
        };
        let again = if self.shard.is_some() {
            "grade that shard again and merge anew"
        } else {
            "grade it again"
        };
        format!(
            "warning: {which} was interrupted: {} of its {} pairs not graded (`not_graded` in \
             the merged report); {again}",
            self.not_graded, self.pairs
        )
    }
}

/// A shard a signal stopped before its package was loaded (issue #34):
/// which pairs it holds is not known, and none of them was graded.
#[derive(Debug)]
pub(crate) struct StoppedShard {
    pub(crate) path: PathBuf,
    pub(crate) index: usize,
    pub(crate) count: usize,
    /// What it was doing, as its report says.
    pub(crate) doing: Option<BeforeTests>,
}

impl StoppedShard {
    /// The warning a merge says of it: `warning: shard 2/2 (`b.json`) was
    /// interrupted before its pairs were known (while building ...)`.
    fn warning(&self) -> String {
        let doing = self.doing.map_or_else(String::new, |doing| {
            format!(" ({})", crate::report::human::while_doing(doing))
        });
        format!(
            "warning: shard {}/{} (`{}`) was interrupted before its package loaded{doing}: \
             none of its pairs was graded, and which they are is not known; grade it again",
            self.index,
            self.count,
            self.path.display()
        )
    }
}

/// Reads every report and merges them (another version, overlapping pairs
/// or a missing shard is refused, naming the file), and names the shards
/// stopped before they knew their pairs.
pub(crate) fn read_and_merge(paths: &[PathBuf]) -> Result<Merged, GradingError> {
    let mut reports = Vec::with_capacity(paths.len());
    for path in paths {
        let text = fs_err::read_to_string(path).map_err(|error| UsageError::CannotRead {
            what: Named::Report,
            path: path.clone(),
            error,
        })?;
        let report = wire::parse(path, &text)
            .map_err(|error| UsageError::Merge(Box::new(MergeError::from(error))))?;
        reports.push((path.clone(), report));
    }
    let mut stopped = Vec::new();
    let mut interrupted = Vec::new();
    for (path, report) in &reports {
        match report.shard {
            Some(shard) if shard.pairs.is_none() => stopped.push(StoppedShard {
                path: path.clone(),
                index: shard.index,
                count: shard.count,
                doing: report.interrupted_while,
            }),
            shard if report.interrupted => interrupted.push(InterruptedShard {
                path: path.clone(),
                shard: shard.map(|shard| (shard.index, shard.count)),
                not_graded: report.not_graded.len(),
                pairs: report.results.len() + report.not_graded.len(),
            }),
            _ => {}
        }
    }
    let pairs = reports
        .iter()
        .find_map(|(_, report)| report.shard.and_then(|shard| shard.pairs));
    let grade = merge(reports).map_err(|error| UsageError::Merge(error.into()))?;
    if stopped.is_empty() {
        pairs_accounted(&grade, pairs).map_err(|error| UsageError::Merge(error.into()))?;
    }
    Ok(Merged {
        grade,
        stopped,
        interrupted,
    })
}

/// Whether the merge `merged` of every shard of a run of `pairs` pairs
/// (as its shards say; `None` for no shard) holds each of them, graded or
/// not: a shard report that lost results (edited, or cut short) must not
/// pass for a whole run (issue #34). Only for shards that all knew their
/// pairs: one stopped before holds none of its own.
fn pairs_accounted(merged: &Grade, pairs: Option<usize>) -> Result<(), MergeError> {
    let found = merged.results.len() + merged.not_graded.len();
    match pairs {
        Some(pairs) if pairs != found => Err(MergeError::PairsLost { found, pairs }),
        _ => Ok(()),
    }
}

/// Combines shard reports into the report of the whole run: results in the
/// unsharded order, no `shard`. Refuses overlapping pairs, mixed layouts or
/// splits, and a split run with a shard missing.
fn merge(reports: Vec<(PathBuf, Grade)>) -> Result<Grade, MergeError> {
    let Some((first_path, first)) = reports.first().cloned() else {
        return Ok(Grade {
            isolation: None,
            layout: Layout::ProblemStudent,
            shard: None,
            judge_version: None,
            interrupted: false,
            interrupted_while: None,
            not_graded: Vec::new(),
            results: Vec::new(),
            graded_with: None,
            ignored: Vec::new(),
            missing: Vec::new(),
        });
    };
    let mut limits_seen: BTreeMap<(String, String), ((u64, u64), PathBuf)> = BTreeMap::new();
    let mut owners: BTreeMap<(String, String), PathBuf> = BTreeMap::new();
    let mut results = Vec::new();
    // Each shard seen, with the report that holds it.
    let mut shards_seen: BTreeMap<usize, PathBuf> = BTreeMap::new();
    // The run's pairs, as the shards that knew them say.
    let mut pairs_known: Option<usize> = None;
    let mut interrupted = false;
    let mut interrupted_while = None;
    let mut not_graded = Vec::new();
    for (path, report) in reports {
        if let Some(shard) = report.shard {
            if !(1..=shard.count).contains(&shard.index) {
                return Err(MergeError::ShardIndex {
                    path,
                    index: shard.index,
                    count: shard.count,
                });
            }
        }
        interrupted |= report.interrupted;
        interrupted_while = interrupted_while.or(report.interrupted_while);
        not_graded.extend(report.not_graded);
        match (&report.graded_with, &first.graded_with) {
            (Some(this), Some(expected)) => {
                if let Some((what, found, expected)) = difference(this, expected) {
                    return Err(MergeError::Settings {
                        path,
                        what: what.to_owned(),
                        found,
                        first: first_path,
                        expected,
                    });
                }
            }
            (None, None) => {}
            (this, _) => {
                let describe = |with: &Option<GradedWith>| match with {
                    Some(with) => format!("judge {}", with.judge_version),
                    None => "an older judge that does not record its settings".to_owned(),
                };
                return Err(MergeError::Settings {
                    path,
                    what: "judge version".to_owned(),
                    found: describe(this),
                    first: first_path,
                    expected: describe(&first.graded_with),
                });
            }
        }
        if report.layout != first.layout {
            return Err(MergeError::Layout {
                path,
                found: report.layout.name().to_owned(),
                first: first_path,
                expected: first.layout.name().to_owned(),
            });
        }
        if let (Some(shard), Some(expected)) = (report.shard, first.shard) {
            // A shard stopped before it knew the run's pairs is compared
            // on its split alone.
            let pairs_differ = matches!(
                (shard.pairs, pairs_known),
                (Some(pairs), Some(known)) if pairs != known
            );
            if shard.count != expected.count || pairs_differ {
                return Err(MergeError::ShardCount {
                    path,
                    index: shard.index,
                    count: shard.count,
                    first: first_path,
                    expected: expected.count,
                });
            }
            pairs_known = pairs_known.or(shard.pairs);
        }
        let this_shard = report.shard.filter(|_| first.shard.is_some());
        for graded in report.results {
            let key = (
                graded.result.submission.clone(),
                graded.result.problem.clone(),
            );
            if let Some(first) = owners.get(&key) {
                return Err(MergeError::Overlap {
                    submission: key.0,
                    problem: key.1,
                    first: first.clone(),
                    second: path,
                });
            }
            owners.insert(key, path.clone());
            let limits = (graded.time_limit_ms, graded.memory_limit_mib);
            let kind = (
                graded.result.problem.clone(),
                graded.result.language.clone(),
            );
            // Pairs that did not run record no limits (0).
            if limits != (0, 0) {
                match limits_seen.get(&kind) {
                    Some((seen, seen_path)) if *seen != limits && seen_path != &path => {
                        return Err(MergeError::Limits {
                            path,
                            pair: format!("{} in {}", kind.0, kind.1),
                            found: format!("{} ms, {} MiB", limits.0, limits.1),
                            first: seen_path.clone(),
                            expected: format!("{} ms, {} MiB", seen.0, seen.1),
                        });
                    }
                    Some(_) => {}
                    None => {
                        limits_seen.insert(kind, (limits, path.clone()));
                    }
                }
            }
            results.push(graded);
        }
        // One report a shard (after its pairs, so that a report given
        // twice names a pair it holds): a stopped try's report kept beside
        // the shard graded again would deny its results (issue #34).
        if let Some(shard) = this_shard {
            if let Some(first) = shards_seen.get(&shard.index) {
                return Err(MergeError::SameShard {
                    index: shard.index,
                    count: shard.count,
                    first: first.clone(),
                    second: path,
                });
            }
            shards_seen.insert(shard.index, path);
        }
    }
    if let Some(shard) = first.shard {
        let missing: Vec<usize> = (1..=shard.count)
            .filter(|index| !shards_seen.contains_key(index))
            .collect();
        if !missing.is_empty() {
            return Err(MergeError::MissingShard {
                missing,
                count: shard.count,
                found: results.len(),
                pairs: pairs_known,
            });
        }
    }
    results.sort_by(|a, b| {
        crate::discovery::order_key(Path::new(&a.result.submission), &a.result.problem).cmp(
            &crate::discovery::order_key(Path::new(&b.result.submission), &b.result.problem),
        )
    });
    Ok(Grade {
        isolation: first.isolation,
        layout: first.layout,
        shard: None,
        judge_version: first.judge_version,
        interrupted,
        // Before any test ran only when no shard ran one.
        interrupted_while: interrupted_while.filter(|_| results.is_empty()),
        not_graded,
        graded_with: first.graded_with,
        ignored: first.ignored,
        missing: first.missing,
        results,
    })
}

/// The first setting in which two shards' `graded_with` differ: its name
/// and both values, for a message.
fn difference(this: &GradedWith, other: &GradedWith) -> Option<(&'static str, String, String)> {
    fn show<T: std::fmt::Debug>(value: &Option<T>) -> String {
        match value {
            Some(value) => format!("{value:?}"),
            None => "the package's".to_owned(),
        }
    }
    let pairs = [
        (
            "judge version",
            this.judge_version.clone(),
            other.judge_version.clone(),
        ),
        ("seed", show(&this.seed), show(&other.seed)),
        (
            "random-tests",
            this.random_tests.to_string(),
            other.random_tests.to_string(),
        ),
        (
            "limits.time-limit-ms",
            show(&this.time_limit_ms),
            show(&other.time_limit_ms),
        ),
        (
            "limits.memory-limit-mib",
            show(&this.memory_limit_mib),
            show(&other.memory_limit_mib),
        ),
        (
            "limits.output-limit-kib",
            show(&this.output_limit_kib),
            show(&other.output_limit_kib),
        ),
        (
            "limits.wall-time-factor",
            this.wall_time_factor.to_string(),
            other.wall_time_factor.to_string(),
        ),
    ];
    pairs.into_iter().find(|(_, left, right)| left != right)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grading::grade::GradedResult;
    use crate::grading::grade::ShardInfo;
    use crate::report::json::{BeforeTests, JUDGE_VERSION};
    use crate::report::Ungraded;

    fn report(shard: usize, interrupted: bool, not_graded: &[&str]) -> Grade {
        Grade {
            shard: Some(ShardInfo {
                index: shard,
                count: 2,
                pairs: Some(1),
            }),
            judge_version: Some(JUDGE_VERSION.to_owned()),
            interrupted,
            not_graded: not_graded
                .iter()
                .map(|submission| Ungraded {
                    problem: "rooks".to_owned(),
                    submission: (*submission).to_owned(),
                    student: "b".to_owned(),
                    recorded: true,
                })
                .collect(),
            ..Grade::fixture(Layout::ProblemStudent, Vec::new())
        }
    }

    /// A merge of shards is interrupted when any shard was, and lists every
    /// shard's ungraded pairs: none may pass for graded.
    #[test]
    fn merging_keeps_interruptions_and_ungraded_pairs() {
        let merged = merge(vec![
            (PathBuf::from("1.json"), report(1, false, &[])),
            (PathBuf::from("2.json"), report(2, true, &["s/rooks/b.c"])),
        ])
        .unwrap();
        assert!(merged.interrupted);
        assert_eq!(merged.not_graded.len(), 1);
        assert_eq!(merged.judge_version.as_deref(), Some(JUDGE_VERSION));
    }

    /// A merge says what a shard was doing when it was stopped before any
    /// test ran only when no shard ran one: else the merged report holds
    /// results, and `interrupted_while` would deny them.
    #[test]
    fn a_shard_stopped_before_its_tests_marks_the_merge_only_when_nothing_ran() {
        let stopped = |shard| Grade {
            interrupted_while: Some(BeforeTests::DerivingTimeLimit),
            ..report(shard, true, &["s/rooks/b.c"])
        };
        let graded = Grade {
            results: vec![GradedResult::fixture(
                crate::runner::SubmissionResult::fixture("rooks", "s/rooks/a.c", Vec::new()),
                "a",
            )],
            ..report(1, false, &[])
        };
        let merged = merge(vec![
            (PathBuf::from("1.json"), graded),
            (PathBuf::from("2.json"), stopped(2)),
        ])
        .unwrap();
        assert!(merged.interrupted);
        assert_eq!(merged.interrupted_while, None);
        let merged = merge(vec![
            (PathBuf::from("1.json"), stopped(1)),
            (PathBuf::from("2.json"), stopped(2)),
        ])
        .unwrap();
        assert_eq!(
            merged.interrupted_while,
            Some(BeforeTests::DerivingTimeLimit)
        );
    }

    /// See: issue #34. One shard in two reports is refused, naming both:
    /// the report of a try stopped before its package loaded, kept beside
    /// the report of the shard graded again (`grade-*.json`), would make the
    /// merge say that shard was never graded; two stopped tries of one shard
    /// would stand for a shard the merge never saw twice.
    #[test]
    fn one_shard_in_two_reports_is_refused_naming_both() {
        let unknown = |shard| Grade {
            shard: Some(ShardInfo {
                index: shard,
                count: 2,
                pairs: None,
            }),
            interrupted_while: Some(BeforeTests::BuildingData),
            ..report(shard, true, &[])
        };
        let cases = [
            [report(1, false, &[]), report(2, false, &[]), unknown(2)],
            [report(1, false, &[]), unknown(2), unknown(2)],
            [unknown(1), report(1, false, &[]), report(2, false, &[])],
        ];
        for reports in cases {
            let error = merge(
                ["a.json", "b.json", "c.json"]
                    .into_iter()
                    .map(PathBuf::from)
                    .zip(reports)
                    .collect(),
            )
            .expect_err("one shard twice");
            let said = error.to_string();
            assert!(said.contains("is in both"), "{said}");
            assert!(said.contains("shard"), "{said}");
        }
    }

    /// See: issue #34. A shard stopped before it knew the run's pairs is a
    /// shard seen, not a missing one; a shard that is missing is named even
    /// when no report knows the run's pairs.
    #[test]
    fn a_shard_that_did_not_know_its_pairs_is_seen_not_missing() {
        let unknown = |shard| Grade {
            shard: Some(ShardInfo {
                index: shard,
                count: 2,
                pairs: None,
            }),
            interrupted_while: Some(BeforeTests::BuildingData),
            ..report(shard, true, &[])
        };
        let merged = merge(vec![
            (PathBuf::from("1.json"), report(1, false, &[])),
            (PathBuf::from("2.json"), unknown(2)),
        ])
        .unwrap();
        assert!(merged.interrupted);
        let error = merge(vec![(PathBuf::from("2.json"), unknown(2))]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "shard 1/2 is missing: the reports hold 0 pairs (no report says how many the run has)"
        );
    }

    /// See: issue #34. A merge with a pair some shard left not graded
    /// never passes; what the verdicts say otherwise stands.
    #[test_case::test_case(Outcome::Success, false, Outcome::Success ; "a whole run passes")]
    #[test_case::test_case(Outcome::Success, true, Outcome::Failure ; "an incomplete one does not")]
    #[test_case::test_case(Outcome::Failure, true, Outcome::Failure ; "a failure stays one")]
    #[test_case::test_case(Outcome::JudgeFailed, true, Outcome::JudgeFailed ; "so does the judge's")]
    fn an_incomplete_merge_never_passes(outcome: Outcome, incomplete: bool, expected: Outcome) {
        assert_eq!(incomplete_fails(outcome, incomplete), expected);
    }

    /// See: issue #34. Every shard there, yet fewer pairs than the run
    /// has (a shard report with results removed): refused, not a pass.
    #[test]
    fn a_merge_missing_pairs_of_its_run_is_refused() {
        let merged = merge(vec![
            (PathBuf::from("1.json"), report(1, false, &[])),
            (PathBuf::from("2.json"), report(2, true, &["s/rooks/b.c"])),
        ])
        .expect("merged");
        assert!(pairs_accounted(&merged, Some(1)).is_ok());
        assert!(pairs_accounted(&merged, None).is_ok());
        let error = pairs_accounted(&merged, Some(4)).expect_err("refused");
        assert_eq!(
            error.to_string(),
            "the shards hold 1 of the run's 4 pairs, graded or not: a shard report lost some; \
             grade its shard again"
        );
    }

    /// See: issue #34. A shard whose index is not one of its split's is
    /// refused, naming its report, whatever else the merge holds.
    #[test_case::test_case(3, 2, "`b.json` is shard 3/2, but a split into 2 has shards 1/2 to 2/2" ; "past the count")]
    #[test_case::test_case(0, 2, "`b.json` is shard 0/2, but a split into 2 has shards 1/2 to 2/2" ; "zero")]
    #[test_case::test_case(2, 1, "`b.json` is shard 2/1, but a split into 1 has only shard 1/1" ; "one part")]
    fn a_shard_index_outside_its_split_is_refused(index: usize, count: usize, said: &str) {
        let outside = Grade {
            shard: Some(ShardInfo {
                index,
                count,
                pairs: Some(1),
            }),
            ..report(1, false, &[])
        };
        let first = Grade {
            shard: Some(ShardInfo {
                index: 1,
                count,
                pairs: Some(1),
            }),
            ..report(1, false, &[])
        };
        let error = merge(vec![
            (PathBuf::from("a.json"), first),
            (PathBuf::from("b.json"), outside),
        ])
        .expect_err("refused");
        assert_eq!(error.to_string(), said);
    }

    #[test]
    fn a_missing_or_broken_report_is_a_usage_error_naming_it() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let missing = dir.path().join("missing.json");
        let error = read_and_merge(std::slice::from_ref(&missing)).expect_err("refused");
        assert!(
            matches!(error, GradingError::Usage(UsageError::CannotRead { .. })),
            "{error}"
        );
        assert!(error.to_string().contains("missing.json"), "{error}");
        let broken = dir.path().join("broken.json");
        fs_err::write(&broken, "{").expect("write");
        let error = read_and_merge(&[broken]).expect_err("refused");
        assert!(
            matches!(error, GradingError::Usage(UsageError::Merge(_))),
            "{error}"
        );
        assert!(error.to_string().contains("broken.json"), "{error}");
    }
}
