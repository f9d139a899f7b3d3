//! `judge grade --package DIR`'s grading: a package's own
//! `submissions/<verdict>/` against their folders, as the Kattis tools do
//! (issue #9). DIR is a Kattis / ICPC package (`problem.yaml`) or one of
//! ours (`problem.toml`).

use super::class::{ClassEvent, ClassPlan};
use super::score::{Observed, ScorePlan};
use super::settings::{self, Overrides};
use super::submission::classify;
use super::GradingError;
use crate::config::groups::{self, GroupTree};
use crate::config::judge::JudgeConfig;
use crate::config::kattis::{self, PackageSubmission};
use crate::config::kattis_groups;
use crate::grade::{
    also_accepted, folder_agrees, kattis_folder_agrees, verdict_of_folder, Entry, Shard,
    ACCEPTED_FOLDER, PARTIAL_FOLDER,
};
use crate::interrupt::Cancellation;
use crate::package::{self, Package};
use crate::report::json::GradeReport;
use crate::resume::Resume;
use crate::runner::{self, FixedTests, Submission, SubmissionResult, TestCase, Workspace};
use crate::verdict::{Points, Verdict};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The CPU time accepted submissions get while the time limit is derived.
const DERIVING_LIMIT_MS: u64 = 10_000;

/// problemtools' default `time_multiplier` for a package of ours.
const OUR_TIME_MULTIPLIER: f64 = 5.0;

/// A package's submissions, sorted into those graded and those skipped.
#[derive(Debug)]
pub(crate) struct PackagePlan {
    pub package: Package,
    /// The time limit the package states, if it does.
    pub time_limit_ms: Option<u64>,
    /// problem.yaml's `time_multiplier`, to derive a time limit.
    pub time_multiplier: f64,
    /// `time_resolution` in ms (1 s for a package of ours).
    pub(crate) time_resolution_ms: u64,
    /// A Kattis package (`problem.yaml`): graded with Kattis' meanings.
    pub kattis: bool,
    pub graded: Vec<(PackageSubmission, Submission)>,
    /// Submissions not graded, with the reason.
    pub skipped: Vec<(PackageSubmission, String)>,
    /// The scored test groups (a Kattis `type: scoring` package, or a
    /// `problem.toml` with `[[groups]]`); `None`: pass-fail.
    pub groups: Option<GroupTree>,
    /// The package's programs the judge cannot run and does without (an
    /// input validator in checktestdata beside a runnable one), with the
    /// reason.
    pub(crate) skipped_programs: Vec<(PathBuf, String)>,
    /// Why the inputs cannot be checked, when no validator the judge runs
    /// checks them: grading is then a judge error.
    pub(crate) unchecked_inputs: Option<String>,
}

/// `--similarity` is refused: a package's examples are no class.
pub(crate) fn refuse_similarity(asked: bool) -> Result<(), GradingError> {
    if asked {
        return Err(GradingError::usage(
            "`--package` grades a package's own examples and takes no `--similarity`",
            None,
        ));
    }
    Ok(())
}

/// Loads the package in `dir` and sorts its submissions: a folder that is
/// not a verdict folder, a multi-file submission, or a file in a language
/// that is not configured is skipped with the reason.
pub(crate) fn plan(dir: &Path, config: &JudgeConfig) -> Result<PackagePlan, GradingError> {
    if !dir.is_dir() {
        return Err(GradingError::usage(
            format!("the package `{}` is not a folder", dir.display()),
            None,
        ));
    }
    let kattis = kattis::is_kattis_package(dir);
    let mut time_resolution_ms = 1000;
    let mut skipped_programs = Vec::new();
    let mut unchecked_inputs = None;
    let (package, time_limit_ms, time_multiplier) = if kattis {
        let loaded = package::kattis::load(dir, config)?;
        time_resolution_ms = loaded.time_resolution_ms;
        skipped_programs = loaded.skipped_validators;
        unchecked_inputs = loaded.unchecked_inputs;
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
        } else {
            match classify(&listed.path, config) {
                Ok(submission) => graded.push((listed, submission)),
                Err(error) if listed.path.is_dir() => {
                    let reason = format!("a folder program that cannot be built: {error}");
                    skipped.push((listed, reason));
                }
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
        time_resolution_ms,
        kattis,
        graded,
        skipped,
        groups,
        skipped_programs,
        unchecked_inputs,
    })
}

impl PackagePlan {
    /// A package with no submission to grade is a usage error (`dir`
    /// names it).
    pub(crate) fn refuse_empty(&self, dir: &Path) -> Result<(), GradingError> {
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
pub(crate) struct DerivedLimit {
    pub(crate) limit_ms: u64,
    pub(crate) slowest_ms: u64,
    pub slowest: String,
    pub(crate) multiplier: f64,
}

/// One graded submission and whether it got its folder's verdict.
#[derive(Debug)]
pub(crate) struct PackageRow {
    pub listed: PackageSubmission,
    pub result: SubmissionResult,
    pub agrees: bool,
}

/// What `judge grade --package` graded: the rows of its table, and the
/// same results as a grade report (layout `expected`, each result with its
/// folder and the verdicts the folder accepts) for `--json`, `--junit`,
/// `--csv` and `--html`.
#[derive(Debug)]
pub(crate) struct PackageReport {
    pub rows: Vec<PackageRow>,
    pub skipped: usize,
    pub time_limit_ms: u64,
    pub report: GradeReport,
}

impl PackageReport {
    /// 3 for a JE, 0 when every submission got its folder's verdict, else 1.
    pub(crate) fn exit_code(&self) -> u8 {
        super::policy::verdict_exit(
            self.rows
                .iter()
                .any(|row| row.result.verdict == Verdict::JudgeError),
            self.rows.iter().all(|row| row.agrees),
        )
    }
}

/// How to grade a package besides its plan.
pub(crate) struct PackageOptions<'a> {
    pub jobs: Option<u64>,
    /// Run every test of a submission that already failed one.
    pub(crate) all_tests: bool,
    /// Grade only this part of the submissions.
    pub shard: Option<Shard>,
    /// Results of an earlier report to reuse.
    pub resume: Option<&'a mut Resume>,
    pub(crate) cancel: &'a Cancellation,
}

/// The configuration a Kattis package grades under: Kattis' meanings (one
/// time limit for every language: no `time-factor` that the user's
/// judge.toml does not set itself), layout `expected`, no random tests.
pub(crate) fn package_config(plan: &PackagePlan, config: &JudgeConfig) -> JudgeConfig {
    let mut config = if plan.kattis {
        config.without_default_time_factors()
    } else {
        config.clone()
    };
    config.layout = crate::config::judge::Layout::Expected;
    config.random_tests = 0;
    config
}

/// Grades `plan` (`dir` names it in errors). Without a stated time limit,
/// one is derived from the accepted submissions first, as problemtools does,
/// and `on_derived` hears it before the real run. Each submission stops at
/// its first failing test unless `all_tests` (see
/// [`super::policy::tests_to_run`]); deriving the limit runs every test.
/// The grading itself is a class's ([`super::class::grade`]), so shards,
/// `--resume` and the reports work as for `judge grade`.
pub(crate) fn grade(
    plan: &PackagePlan,
    dir: &Path,
    config: &JudgeConfig,
    options: PackageOptions<'_>,
    on_derived: &mut dyn FnMut(&DerivedLimit),
    on_event: &mut dyn FnMut(ClassEvent<'_>),
) -> Result<PackageReport, GradingError> {
    plan.refuse_empty(dir)?;
    if let Some(reason) = &plan.unchecked_inputs {
        return Err(GradingError::Judge(reason.clone()));
    }
    let config = package_config(plan, config);
    let package = &plan.package;
    let overrides = Overrides {
        time_limit_ms: None,
        memory_limit_mib: None,
        jobs: options.jobs,
    };
    let time_limit_ms = match plan.time_limit_ms {
        Some(limit) => limit,
        None => {
            let workspace = Workspace::new()?;
            let tests = runner::load_tests(
                &*package.problem,
                Some(FixedTests::Package(&package.tests)),
                &package.profiles(),
                0,
                0,
                &workspace,
            )?;
            let derived = derive_time_limit(plan, &config, &overrides, &tests)?;
            on_derived(&derived);
            derived.limit_ms
        }
    };
    // A scored package is judged on every test its groups reach, so the
    // examples' stop at the first failure does not apply: a partial
    // solution's later groups must run to be scored.
    let scoring = match &plan.groups {
        Some(tree) => {
            let workspace = Workspace::new()?;
            let tests = runner::load_tests(
                &*package.problem,
                Some(FixedTests::Package(&package.tests)),
                &package.profiles(),
                0,
                0,
                &workspace,
            )?;
            let names: Vec<&str> = tests.iter().map(|test| test.name.as_str()).collect();
            let scoring = ScorePlan::new(tree, &names).map_err(|message| {
                GradingError::usage(
                    format!("the test groups of `{}`: {message}", dir.display()),
                    None,
                )
            })?;
            Some((scoring, tests))
        }
        None => None,
    };
    let mut package = package.clone();
    package.manifest.limits.time_limit_ms = time_limit_ms;
    let entries: Vec<Entry> = plan
        .graded
        .iter()
        .map(|(listed, _)| Entry {
            path: listed.path.clone(),
            problem: package.id.clone(),
            student: listed
                .path
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default(),
            expected: Some((listed.folder.clone(), verdict_of_folder(&listed.folder))),
            others: Vec::new(),
        })
        .collect();
    let pairs = entries.len();
    let entries = match options.shard {
        Some(shard) => shard.select(entries),
        None => entries,
    };
    let class_plan = ClassPlan {
        entries,
        ignored: Vec::new(),
        missing: Vec::new(),
        pairs,
        shard: options.shard,
        packages: BTreeMap::from([(package.id.clone(), package)]),
    };
    let mut report = super::class::grade(
        &class_plan,
        &config,
        &overrides,
        options.all_tests || scoring.is_some(),
        options.resume,
        options.cancel,
        on_event,
    )?;
    let mut rows = Vec::with_capacity(report.results.len());
    for graded in &mut report.results {
        let Some(expected) = &mut graded.expected else {
            continue;
        };
        expected.also = also_accepted(&expected.folder, expected.verdict);
        if let Some((scoring, tests)) = &scoring {
            apply_score(scoring, tests, &mut graded.result);
        }
        let Some((listed, _)) = plan
            .graded
            .iter()
            .find(|(listed, _)| listed.path.display().to_string() == graded.result.submission)
        else {
            continue;
        };
        rows.push(PackageRow {
            agrees: folder_agrees(&listed.folder, &graded.result, scoring.is_some()),
            listed: listed.clone(),
            result: graded.result.clone(),
        });
    }
    Ok(PackageReport {
        rows,
        skipped: plan.skipped.len(),
        time_limit_ms,
        report,
    })
}

/// Scores `result` through the groups: its `score`, `max_score`,
/// `groups`, and the root's verdict (a submission that did not compile
/// keeps its CE or JE and scores 0).
pub(crate) fn apply_score(scoring: &ScorePlan, tests: &[TestCase], result: &mut SubmissionResult) {
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

/// Runs the accepted submissions with a generous limit and derives the
/// time limit from the slowest. When none passes, the error says what
/// each got (a judge error when one was the judge's fault).
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
        let why: Vec<String> = results.iter().map(failure_of).collect();
        let message = if why.is_empty() {
            "no time limit in problem.yaml, and `submissions/accepted/` holds no submission in \
             a configured language to derive one from"
                .to_owned()
        } else {
            format!(
                "no time limit in problem.yaml, and no accepted submission passed to derive one \
                 from: {}",
                why.join("; ")
            )
        };
        return Err(
            if results
                .iter()
                .any(|result| result.verdict == Verdict::JudgeError)
            {
                GradingError::Judge(message)
            } else {
                GradingError::usage(message, None)
            },
        );
    };
    Ok(DerivedLimit {
        limit_ms: derived_time_limit_ms(slowest_ms, plan.time_multiplier, plan.time_resolution_ms),
        slowest_ms,
        slowest: slowest.clone(),
        multiplier: plan.time_multiplier,
    })
}

/// "`path` VERDICT (first line of why)", for the error of a derivation.
fn failure_of(result: &SubmissionResult) -> String {
    let why = if result.compile.verdict.is_some() {
        result
            .compile
            .message
            .lines()
            .next()
            .unwrap_or("")
            .to_owned()
    } else {
        result
            .tests
            .iter()
            .find(|test| !test.verdict.is_accepted())
            .map(|test| format!("on {}: {}", test.name, test.message))
            .unwrap_or_default()
    };
    let why = why.trim();
    if why.is_empty() {
        format!("`{}` {}", result.submission, result.verdict)
    } else {
        format!("`{}` {} ({why})", result.submission, result.verdict)
    }
}

/// problemtools: the slowest accepted run times `time_multiplier`, rounded
/// up to a multiple of `resolution_ms` (`time_resolution`; 1 s by
/// default), at least one of it.
pub(crate) fn derived_time_limit_ms(slowest_ms: u64, multiplier: f64, resolution_ms: u64) -> u64 {
    let resolution_ms = resolution_ms.max(1);
    let exact = slowest_ms as f64 * multiplier / resolution_ms as f64;
    (exact.ceil().max(1.0) as u64).saturating_mul(resolution_ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derives_the_time_limit_as_problemtools_does() {
        assert_eq!(derived_time_limit_ms(12, 5.0, 1000), 1000);
        assert_eq!(derived_time_limit_ms(300, 5.0, 1000), 2000);
        assert_eq!(derived_time_limit_ms(400, 5.0, 1000), 2000);
        assert_eq!(derived_time_limit_ms(401, 5.0, 1000), 3000);
        // `time_resolution: 0.25` rounds to quarter seconds.
        assert_eq!(derived_time_limit_ms(101, 2.0, 250), 250);
        assert_eq!(derived_time_limit_ms(130, 2.0, 250), 500);
    }
}
