//! `judge grade --package DIR`'s grading: a package's own
//! `submissions/<verdict>/` against their folders, as the Kattis tools do
//! (issue #9). DIR is a Kattis / ICPC package (`problem.yaml`) or one of
//! ours (`problem.toml`).

use super::score::{Observed, ScorePlan};
use super::settings::{self, Overrides};
use super::submission::classify;
use super::GradingError;
use crate::config::groups::{self, GroupTree};
use crate::config::judge::JudgeConfig;
use crate::config::kattis::{self, PackageSubmission};
use crate::config::kattis_groups;
use crate::config::problem::LimitsToml;
use crate::grade::{kattis_folder_agrees, ACCEPTED_FOLDER};
use crate::interrupt::Cancellation;
use crate::package::{self, Package};
use crate::runner::{self, FixedTests, Submission, SubmissionResult, TestCase, Workspace};
use crate::verdict::{Points, Verdict};
use std::path::Path;

/// The CPU time accepted submissions get while the time limit is derived.
const DERIVING_LIMIT_MS: u64 = 10_000;

/// problemtools' default `time_multiplier` for a package of ours.
const OUR_TIME_MULTIPLIER: f64 = 5.0;

/// A package's submissions, sorted into those graded and those skipped.
#[derive(Debug)]
pub struct PackagePlan {
    pub package: Package,
    /// The time limit the package states, if it does.
    pub time_limit_ms: Option<u64>,
    /// problem.yaml's `time_multiplier`, to derive a time limit.
    pub time_multiplier: f64,
    pub graded: Vec<(PackageSubmission, Submission)>,
    /// Submissions not graded, with the reason.
    pub skipped: Vec<(PackageSubmission, String)>,
    /// The scored test groups (a Kattis `type: scoring` package, or a
    /// `problem.toml` with `[[groups]]`); `None`: pass-fail.
    pub groups: Option<GroupTree>,
}

/// The folder a partial solution of a scored package is in.
pub const PARTIAL_FOLDER: &str = "partially_accepted";

/// Loads the package in `dir` and sorts its submissions: a folder that is
/// not a verdict folder, a multi-file submission, or a file in a language
/// that is not configured is skipped with the reason.
pub fn plan(dir: &Path, config: &JudgeConfig) -> Result<PackagePlan, GradingError> {
    if !dir.is_dir() {
        return Err(GradingError::usage(
            format!("the package `{}` is not a folder", dir.display()),
            None,
        ));
    }
    let (package, time_limit_ms, time_multiplier) = if kattis::is_kattis_package(dir) {
        let loaded = package::kattis::load(dir, config)?;
        (loaded.package, loaded.time_limit_ms, loaded.time_multiplier)
    } else if dir.join("problem.toml").is_file() {
        let absolute = fs_err::canonicalize(dir)?;
        let (Some(parent), Some(id)) = (absolute.parent(), absolute.file_name()) else {
            return Err(GradingError::usage(
                format!("`{}` has no parent folder", dir.display()),
                None,
            ));
        };
        let package = Package::load_with(Some(parent), &id.to_string_lossy(), Some(config))?;
        let limit = package.manifest.limits.time_limit_ms;
        (package, Some(limit), OUR_TIME_MULTIPLIER)
    } else {
        return Err(GradingError::usage(
            format!(
                "`{}` holds neither `problem.yaml` (Kattis) nor `problem.toml`",
                dir.display()
            ),
            None,
        ));
    };
    let names: Vec<&str> = package
        .tests
        .iter()
        .map(|test| test.name.as_str())
        .collect();
    let groups = if kattis::is_kattis_package(dir) {
        let scoring = kattis::read_problem_yaml(dir)?.yaml.is_scoring();
        kattis_groups::read_groups(dir, &names, scoring)?
    } else {
        groups::from_toml(&package.manifest.groups, &names, &dir.join("problem.toml"))?
    };
    let mut graded = Vec::new();
    let mut skipped = Vec::new();
    for listed in kattis::package_submissions(dir)? {
        let partial = groups.is_some() && listed.folder == PARTIAL_FOLDER;
        if kattis_folder_agrees(&listed.folder, Verdict::Accepted).is_none() && !partial {
            let reason = format!(
                "`{}/` is not a verdict folder of the Kattis format",
                listed.folder
            );
            skipped.push((listed, reason));
        } else if listed.path.is_dir() {
            skipped.push((
                listed,
                "a folder: multi-file submissions are not supported".to_owned(),
            ));
        } else {
            match classify(&listed.path, config) {
                Ok(submission) => graded.push((listed, submission)),
                Err(_) => {
                    let extension = listed
                        .path
                        .extension()
                        .map_or_else(String::new, |extension| {
                            format!(" (`.{}`)", extension.to_string_lossy())
                        });
                    let reason = format!(
                        "its language{extension} is not configured in judge.toml (known: {})",
                        config.known_languages()
                    );
                    skipped.push((listed, reason));
                }
            }
        }
    }
    Ok(PackagePlan {
        package,
        time_limit_ms,
        time_multiplier,
        graded,
        skipped,
        groups,
    })
}

impl PackagePlan {
    /// A package with no submission to grade is a usage error (`dir`
    /// names it).
    pub fn refuse_empty(&self, dir: &Path) -> Result<(), GradingError> {
        if self.graded.is_empty() {
            return Err(GradingError::usage(
                format!(
                    "`{}` has no submission to grade under `submissions/<verdict>/`",
                    dir.display()
                ),
                None,
            ));
        }
        Ok(())
    }
}

/// A time limit derived from the slowest accepted submission.
#[derive(Clone, Debug, PartialEq)]
pub struct DerivedLimit {
    pub limit_ms: u64,
    pub slowest_ms: u64,
    pub slowest: String,
    pub multiplier: f64,
}

/// One graded submission and whether it got its folder's verdict.
#[derive(Debug)]
pub struct PackageRow {
    pub listed: PackageSubmission,
    pub result: SubmissionResult,
    pub agrees: bool,
}

/// What `judge grade --package` graded.
#[derive(Debug)]
pub struct PackageReport {
    pub rows: Vec<PackageRow>,
    pub skipped: usize,
    pub time_limit_ms: u64,
}

impl PackageReport {
    /// 3 for a JE, 0 when every submission got its folder's verdict, else 1.
    pub fn exit_code(&self) -> u8 {
        super::policy::verdict_exit(
            self.rows
                .iter()
                .any(|row| row.result.verdict == Verdict::JudgeError),
            self.rows.iter().all(|row| row.agrees),
        )
    }
}

/// Grades `plan` (`dir` names it in errors). Without a stated time limit,
/// one is derived from the accepted submissions first, as problemtools does,
/// and `on_derived` hears it before the real run. Each submission stops at
/// its first failing test unless `all_tests` (see
/// [`super::policy::tests_to_run`]); deriving the limit runs every test.
pub fn grade(
    plan: &PackagePlan,
    dir: &Path,
    config: &JudgeConfig,
    jobs: Option<u64>,
    all_tests: bool,
    on_derived: &mut dyn FnMut(&DerivedLimit),
) -> Result<PackageReport, GradingError> {
    plan.refuse_empty(dir)?;
    let package = &plan.package;
    let overrides = Overrides {
        time_limit_ms: None,
        memory_limit_mib: None,
        jobs,
    };
    let workspace = Workspace::new()?;
    let tests = runner::load_tests(
        &*package.problem,
        Some(FixedTests::Package(&package.tests)),
        &package.profiles(),
        0,
        0,
        &workspace,
    )?;
    let time_limit_ms = match plan.time_limit_ms {
        Some(limit) => limit,
        None => {
            let derived = derive_time_limit(plan, config, &overrides, &tests)?;
            on_derived(&derived);
            derived.limit_ms
        }
    };
    let limits = LimitsToml {
        time_limit_ms,
        ..package.manifest.limits
    };
    let settings =
        settings::resolve_with(&overrides, config, &limits, package.check_options()).settings;
    let submissions: Vec<Submission> = plan
        .graded
        .iter()
        .map(|(_, submission)| submission.clone())
        .collect();
    let scoring = match &plan.groups {
        Some(tree) => {
            let names: Vec<&str> = tests.iter().map(|test| test.name.as_str()).collect();
            let scoring = ScorePlan::new(tree, &names).map_err(|message| {
                GradingError::usage(
                    format!("the test groups of `{}`: {message}", dir.display()),
                    None,
                )
            })?;
            Some(scoring)
        }
        None => None,
    };
    let results = match (&scoring, all_tests) {
        (Some(scoring), false) => runner::run_gated(
            &*package.problem,
            &submissions,
            &tests,
            &settings,
            scoring,
            &workspace,
            &mut |_| {},
        )?,
        _ => {
            let never = Cancellation::new();
            runner::run_selected(
                &*package.problem,
                &submissions,
                &tests,
                &settings,
                super::policy::tests_to_run(crate::config::judge::Layout::Expected, all_tests),
                &workspace,
                &never,
                &mut |_| {},
            )?
            .into_iter()
            .flatten()
            .collect()
        }
    };
    let rows = plan
        .graded
        .iter()
        .zip(results)
        .map(|((listed, _), mut result)| {
            if let Some(scoring) = &scoring {
                apply_score(scoring, &tests, &mut result);
            }
            PackageRow {
                agrees: folder_agrees(&listed.folder, &result, scoring.is_some()),
                listed: listed.clone(),
                result,
            }
        })
        .collect();
    Ok(PackageReport {
        rows,
        skipped: plan.skipped.len(),
        time_limit_ms,
    })
}

/// Scores `result` through the groups: its `score`, `max_score`,
/// `groups`, and the root's verdict (a submission that did not compile
/// keeps its CE or JE and scores 0).
pub fn apply_score(scoring: &ScorePlan, tests: &[TestCase], result: &mut SubmissionResult) {
    result.max_score = Some(scoring.max_score());
    if result.compile.verdict.is_some() {
        result.score = Some(Points(0.0));
        return;
    }
    let mut observed: Vec<Option<Observed>> = vec![None; tests.len()];
    for test in &result.tests {
        if let Some(position) = tests.iter().position(|case| case.name == test.name) {
            observed[position] = Some(Observed {
                verdict: test.verdict,
                score: test.validator_score,
            });
        }
    }
    let scored = scoring.evaluate(&observed);
    result.score = Some(scored.score);
    result.verdict = scored.verdict;
    result.groups = scored.groups;
}

/// Whether a graded submission got what its folder demands. With groups,
/// `accepted/` must score the maximum (and be accepted), and
/// `partially_accepted/` must score strictly between 0 and the maximum;
/// every other folder is judged by the verdict alone.
pub fn folder_agrees(folder: &str, result: &SubmissionResult, scored: bool) -> bool {
    let (score, max) = (
        result.score.unwrap_or(Points(0.0)).0,
        result.max_score.unwrap_or(Points(0.0)).0,
    );
    let full = (score - max).abs() < 1e-9;
    match folder {
        PARTIAL_FOLDER if scored => score > 1e-9 && score < max - 1e-9,
        ACCEPTED_FOLDER if scored => result.verdict == Verdict::Accepted && full,
        _ => kattis_folder_agrees(folder, result.verdict).unwrap_or(false),
    }
}

/// Runs the accepted submissions with a generous limit and derives the
/// time limit from the slowest.
fn derive_time_limit(
    plan: &PackagePlan,
    config: &JudgeConfig,
    overrides: &Overrides,
    tests: &[TestCase],
) -> Result<DerivedLimit, GradingError> {
    let package = &plan.package;
    let accepted: Vec<Submission> = plan
        .graded
        .iter()
        .filter(|(listed, _)| listed.folder == ACCEPTED_FOLDER)
        .map(|(_, submission)| submission.clone())
        .collect();
    let generous = settings::resolve(
        &Overrides {
            time_limit_ms: Some(DERIVING_LIMIT_MS),
            ..*overrides
        },
        config,
        package,
    )
    .settings;
    // Each run of the runner needs a workspace of its own.
    let scratch = Workspace::new()?;
    let results = runner::run(
        &*package.problem,
        &accepted,
        tests,
        &generous,
        &scratch,
        &mut |_| {},
    )?;
    let slowest = results
        .iter()
        .filter(|result| result.verdict == Verdict::Accepted)
        .flat_map(|result| {
            result
                .tests
                .iter()
                .map(move |test| (test.time_ms, &result.submission))
        })
        .max();
    let Some((slowest_ms, slowest)) = slowest else {
        return Err(GradingError::usage(
            "no time limit in problem.yaml, and no accepted submission passed to derive one from",
            None,
        ));
    };
    Ok(DerivedLimit {
        limit_ms: derived_time_limit_ms(slowest_ms, plan.time_multiplier),
        slowest_ms,
        slowest: slowest.clone(),
        multiplier: plan.time_multiplier,
    })
}

/// problemtools: the slowest accepted run times `time_multiplier`, rounded
/// up to whole seconds, at least one second.
pub fn derived_time_limit_ms(slowest_ms: u64, multiplier: f64) -> u64 {
    let exact_seconds = slowest_ms as f64 * multiplier / 1000.0;
    (exact_seconds.ceil().max(1.0) as u64) * 1000
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derives_the_time_limit_as_problemtools_does() {
        assert_eq!(derived_time_limit_ms(12, 5.0), 1000);
        assert_eq!(derived_time_limit_ms(300, 5.0), 2000);
        assert_eq!(derived_time_limit_ms(400, 5.0), 2000);
        assert_eq!(derived_time_limit_ms(401, 5.0), 3000);
    }
}
