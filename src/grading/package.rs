//! `judge grade --package DIR`'s grading: a package's own
//! `submissions/<verdict>/` against their folders, as the Kattis tools do
//! (issue #9). DIR is a Kattis / ICPC package (`problem.yaml`) or one of
//! ours (`problem.toml`).

use super::class::{ClassEvent, ClassPlan};
use super::settings::{self, Overrides};
use super::submission::classify;
use super::GradingError;
use crate::config::groups::GroupTree;
use crate::config::judge::JudgeConfig;
use crate::config::kattis::{self, PackageSubmission};
use crate::config::kattis_submissions::{self, Expectation};
use crate::discovery::{
    also_accepted, folder_agrees, kattis_folder_agrees, verdict_of_folder, Entry, Shard,
    ACCEPTED_FOLDER, PARTIAL_FOLDER,
};
use crate::exit::Outcome;
use crate::grading::resume::{Journal, Resume};
use crate::interrupt::Cancellation;
use crate::package::format::{SolutionTags, TimeFactors};
use crate::package::{self, Package};
use crate::report::json::GradeReport;
use crate::report::ReportError;
use crate::runner::{self, FixedTests, Submission, SubmissionResult, TestCase, Workspace};
use crate::verdict::Verdict;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The CPU time accepted submissions get while the time limit is derived.
const DERIVING_LIMIT_MS: u64 = 10_000;

/// A package's submissions, sorted into those graded and those skipped.
#[derive(Debug)]
pub(crate) struct PackagePlan {
    pub(crate) package: Package,
    /// The time limit the package states, if it does.
    pub(crate) time_limit_ms: Option<u64>,
    /// The slowest accepted run times this is a derived time limit.
    pub(crate) time_multiplier: f64,
    /// A derived time limit is rounded up to a multiple of this.
    pub(crate) time_resolution_ms: u64,
    /// Which languages' `time-factor`s multiply the time limit.
    pub(crate) time_factors: TimeFactors,
    /// What the package's own solution tags mean (Polygon), when its
    /// submissions are tagged rather than in verdict folders.
    pub(crate) tags: Option<&'static dyn SolutionTags>,
    pub(crate) graded: Vec<(PackageSubmission, Submission)>,
    /// Submissions not graded, with the reason.
    pub(crate) skipped: Vec<(PackageSubmission, String)>,
    /// The scored test groups (a Kattis `type: scoring` package, or a
    /// `problem.toml` with `[[groups]]`); `None`: pass-fail.
    pub(crate) groups: Option<GroupTree>,
    /// The package's programs the judge cannot run and does without (an
    /// input validator in checktestdata beside a runnable one), with the
    /// reason.
    pub(crate) skipped_programs: Vec<(PathBuf, String)>,
    /// The package's files its format says not to run (`*.disabled`,
    /// dotfiles, a README), with the reason.
    pub(crate) ignored_files: Vec<(PathBuf, String)>,
    /// Why the inputs cannot be checked, when no validator the judge runs
    /// checks them: grading is then a judge error.
    pub(crate) unchecked_inputs: Option<String>,
    /// `submissions/submissions.yaml` (2025-09), when the package has one.
    pub(crate) expectations: Vec<Expectation>,
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
    if !dir.is_dir() && package::detect(dir).is_none() {
        return Err(GradingError::usage(
            format!("the package `{}` is not a folder", dir.display()),
            None,
        ));
    }
    let Some(loaded) = package::load_folder(dir, config)? else {
        return Err(GradingError::usage(
            format!(
                "`{}` is no package: it holds none of {}",
                dir.display(),
                package::markers()
            ),
            None,
        ));
    };
    let package = loaded.package;
    let tags = loaded.tagged.as_ref().map(|tagged| tagged.tags);
    let groups = package.groups().cloned();
    let expectations = kattis_submissions::read(dir)?.unwrap_or_default();
    let mut graded = Vec::new();
    let mut skipped = Vec::new();
    let listed_all = match loaded.tagged {
        Some(tagged) => tagged.solutions,
        None => kattis::package_submissions(dir)?,
    };
    for listed in listed_all {
        if let Some(reason) = tags.and_then(|tags| tags.not_graded(&listed.folder)) {
            skipped.push((listed, reason));
            continue;
        }
        let partial = groups.is_some() && listed.folder == PARTIAL_FOLDER;
        let expected = !matching(&expectations, dir, &listed).is_empty();
        if kattis_folder_agrees(&listed.folder, Verdict::Accepted).is_none()
            && !partial
            && !expected
            && tags.is_none()
        {
            let reason = format!(
                "`{}/` is not a verdict folder of the Kattis format",
                listed.folder
            );
            skipped.push((listed, reason));
        } else {
            match classify(&listed.path, config) {
                Ok(submission) => match missing_toolchain(&submission) {
                    Some(reason) => skipped.push((listed, reason)),
                    None => graded.push((listed, submission)),
                },
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
        time_limit_ms: loaded.time_limit_ms,
        time_multiplier: loaded.time_multiplier,
        time_resolution_ms: loaded.time_resolution_ms,
        time_factors: loaded.time_factors,
        tags,
        graded,
        skipped,
        groups,
        skipped_programs: loaded.skipped_programs,
        ignored_files: loaded.ignored_files,
        unchecked_inputs: loaded.unchecked_inputs,
        expectations,
    })
}

/// Why `submission` cannot run here: its language's compiler or
/// interpreter is not installed (see [`runner::missing_toolchain`]).
fn missing_toolchain(submission: &Submission) -> Option<String> {
    match &submission.kind {
        runner::SubmissionKind::Language { name, language } => {
            runner::missing_toolchain(name, language)
        }
        // A script names its own interpreter (`#!`); what it lacks shows
        // as its build's or its run's failure, named.
        runner::SubmissionKind::Executable | runner::SubmissionKind::Scripts => None,
    }
}

impl PackagePlan {
    /// Every file of the package that is not graded or used, and why: the
    /// files its format says not to run, the programs it does without,
    /// and the submissions skipped; by path. The JSON report's `ignored`.
    pub(crate) fn not_graded(&self) -> Vec<crate::report::json::IgnoredFile> {
        let mut files: Vec<crate::report::json::IgnoredFile> = self
            .ignored_files
            .iter()
            .chain(&self.skipped_programs)
            .map(|(path, reason)| (path, reason.clone()))
            .chain(
                self.skipped
                    .iter()
                    .map(|(listed, reason)| (&listed.path, format!("skipped: {reason}"))),
            )
            .map(|(path, reason)| crate::report::json::IgnoredFile {
                path: path.display().to_string(),
                reason,
            })
            .collect();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        files
    }
}

/// The entries of `submissions.yaml` whose glob matches `listed` (its
/// path under `dir/submissions/`) and that state a demand.
fn matching<'a>(
    expectations: &'a [Expectation],
    dir: &Path,
    listed: &PackageSubmission,
) -> Vec<&'a Expectation> {
    let Ok(relative) = listed.path.strip_prefix(dir.join("submissions")) else {
        return Vec::new();
    };
    expectations
        .iter()
        .filter(|expectation| expectation.matches(relative) && expectation.demands())
        .collect()
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
/// `submissions.yaml`): each test run has a `permitted` verdict, some test
/// a `required` one, the score is within `score`, and some test's message
/// contains `message`. A submission that did not compile meets none.
pub(crate) fn expectations_agree(expectations: &[&Expectation], result: &SubmissionResult) -> bool {
    if result.compile.verdict.is_some() {
        return false;
    }
    let verdicts: Vec<Option<Verdict>> = result
        .tests
        .iter()
        .map(|test| format_verdict(test.verdict))
        .collect();
    let score = result.score.unwrap_or_else(|| result.pass_fail_score()).0;
    expectations.iter().all(|expectation| {
        let permitted = expectation.permitted.as_ref().is_none_or(|permitted| {
            verdicts
                .iter()
                .all(|verdict| verdict.is_some_and(|verdict| permitted.contains(&verdict)))
        });
        let required = expectation.required.as_ref().is_none_or(|required| {
            verdicts
                .iter()
                .any(|verdict| verdict.is_some_and(|verdict| required.contains(&verdict)))
        });
        let scored = expectation
            .score
            .is_none_or(|(low, high)| score >= low - 1e-9 && score <= high + 1e-9);
        let said = expectation.message.as_ref().is_none_or(|message| {
            result
                .tests
                .iter()
                .any(|test| test.message.contains(message.as_str()))
        });
        permitted && required && scored && said
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
    pub(crate) slowest: String,
    pub(crate) multiplier: f64,
}

/// One graded submission and whether it got its folder's verdict.
#[derive(Debug)]
pub(crate) struct PackageRow {
    pub(crate) listed: PackageSubmission,
    /// The `submissions.yaml` entries that decided it (`` `mixed/*` line
    /// 3``); empty when its folder did.
    pub(crate) expected_by: Vec<String>,
    pub(crate) result: SubmissionResult,
    pub(crate) agrees: bool,
}

/// What `judge grade --package` graded: the rows of its table, and the
/// same results as a grade report (layout `expected`, each result with its
/// folder and the verdicts the folder accepts) for `--json`, `--junit`,
/// `--csv` and `--html`.
#[derive(Debug)]
pub(crate) struct PackageReport {
    pub(crate) rows: Vec<PackageRow>,
    pub(crate) skipped: usize,
    pub(crate) time_limit_ms: u64,
    pub(crate) report: GradeReport,
}

impl PackageReport {
    /// The report's outcome, by the rule `judge grade` and `judge merge`
    /// use ([`super::policy::grade_outcome`]): a JE is the judge failing;
    /// success when every submission got what its folder demands.
    pub(crate) fn outcome(&self) -> Outcome {
        super::policy::grade_outcome(&self.report)
    }
}

/// How to grade a package besides its plan.
pub(crate) struct PackageOptions<'a> {
    pub(crate) jobs: Option<u64>,
    /// Run every test of a submission that already failed one.
    pub(crate) all_tests: bool,
    /// Grade only this part of the submissions.
    pub(crate) shard: Option<Shard>,
    /// Results of an earlier report to reuse.
    pub(crate) resume: Option<&'a mut Resume>,
    /// The journal of finished results (beside the JSON report).
    pub(crate) journal: Option<Journal>,
    pub(crate) cancel: &'a Cancellation,
}

/// The configuration a package grades under: the time factors its format
/// means (Kattis: one time limit for every language, no `time-factor` that
/// the user's judge.toml does not set itself), layout `expected`, no
/// random tests.
pub(crate) fn package_config(plan: &PackagePlan, config: &JudgeConfig) -> JudgeConfig {
    let mut config = plan.time_factors.apply(config);
    config.layout = crate::config::judge::Layout::Expected;
    config.random_tests = 0;
    config
}

/// Grades `plan` (`dir` names it in errors). Without a stated time limit,
/// one is derived from the accepted submissions first, as problemtools does,
/// and `on_derived` hears it before the real run. Each submission stops at
/// its first failing test unless `all_tests` (see
/// [`super::policy::tests_to_run`]); deriving the limit runs every test.
/// The grading itself is a class's ([`super::class::grade_journaled`]), so
/// shards, `--resume`, the journal and the reports work as for `judge
/// grade`; the journal comes back as that call returns it.
pub(crate) fn grade(
    plan: &PackagePlan,
    dir: &Path,
    config: &JudgeConfig,
    options: PackageOptions<'_>,
    on_derived: &mut dyn FnMut(&DerivedLimit),
    on_event: &mut dyn FnMut(ClassEvent<'_>),
) -> Result<(PackageReport, Result<Option<Journal>, ReportError>), GradingError> {
    plan.refuse_empty(dir)?;
    if let Some(reason) = &plan.unchecked_inputs {
        return Err(GradingError::UncheckedInputs(reason.clone()));
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
                &**package.problem(),
                Some(FixedTests::Package(package.tests())),
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
    let package = package.with_time_limit_ms(time_limit_ms);
    let entries: Vec<Entry> = plan
        .graded
        .iter()
        .map(|(listed, _)| Entry {
            path: listed.path.clone(),
            problem: package.id().to_owned(),
            student: listed
                .path
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default(),
            expected: Some((
                listed.folder.clone(),
                match plan.tags {
                    Some(tags) => tags.verdicts(&listed.folder).first().copied(),
                    None => verdict_of_folder(&listed.folder),
                },
            )),
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
        ignored: plan.not_graded(),
        missing: Vec::new(),
        pairs,
        shard: options.shard,
        packages: BTreeMap::from([(package.id().to_owned(), package)]),
    };
    let (mut report, journal) = super::class::grade_journaled(
        &class_plan,
        &config,
        &overrides,
        options.all_tests,
        options.resume,
        options.cancel,
        options.journal,
        on_event,
    )?;
    let mut rows = Vec::with_capacity(report.results.len());
    for graded in &mut report.results {
        let Some(expected) = &mut graded.expected else {
            continue;
        };
        expected.also = match plan.tags {
            Some(tags) => tags
                .verdicts(&expected.folder)
                .into_iter()
                .skip(1)
                .collect(),
            None => also_accepted(&expected.folder, expected.verdict),
        };
        let Some((listed, _)) = plan
            .graded
            .iter()
            .find(|(listed, _)| listed.path.display().to_string() == graded.result.submission)
        else {
            continue;
        };
        let expectations = matching(&plan.expectations, dir, listed);
        let agrees = if let Some(tags) = plan.tags {
            tags.agrees(&listed.folder, &graded.result)
        } else if expectations.is_empty() {
            folder_agrees(&listed.folder, &graded.result, plan.groups.is_some())
        } else {
            expectations_agree(&expectations, &graded.result)
        };
        expected.agrees = Some(agrees);
        rows.push(PackageRow {
            expected_by: expectations
                .iter()
                .map(|expectation| {
                    format!(
                        "`{}` line {}: {}",
                        expectation.glob,
                        expectation.line,
                        expectation.demand()
                    )
                })
                .collect(),
            agrees,
            listed: listed.clone(),
            result: graded.result.clone(),
        });
    }
    let graded = PackageReport {
        rows,
        skipped: plan.skipped.len(),
        time_limit_ms,
        report,
    };
    Ok((graded, journal))
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
        &**package.problem(),
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
                GradingError::NoDerivedLimit(message)
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
    use crate::runner::{CompileResult, TestResult};
    use crate::verdict::Points;
    use test_case::test_case;

    fn result(verdicts: &[Verdict], score: Option<f64>, compiled: bool) -> SubmissionResult {
        let tests: Vec<TestResult> = verdicts
            .iter()
            .enumerate()
            .map(|(index, verdict)| TestResult {
                message: format!("test {index} said {verdict}"),
                ..TestResult::fixture(&format!("{index}"), *verdict)
            })
            .collect();
        let mut result = SubmissionResult::fixture("p", "s.py", tests);
        if !compiled {
            result.compile = CompileResult::failed(Verdict::CompileError, "no".to_owned());
        }
        result.score = score.map(Points);
        result.max_score = score.map(|_| Points(100.0));
        result
    }

    use Verdict::*;

    /// (submissions.yaml entry, test verdicts, score) → agrees.
    #[test_case("permitted: [AC]", &[Accepted, Accepted], None, true ; "all permitted")]
    #[test_case("permitted: [AC]", &[Accepted, WrongAnswer], None, false ; "a verdict not permitted")]
    #[test_case("permitted: [AC, WA]", &[Accepted, PresentationError], None, true ; "pe counts as wa")]
    #[test_case("permitted: [AC, RTE]", &[MemoryLimitExceeded], None, true ; "mle counts as rte")]
    #[test_case("permitted: [AC, WA, RTE, TLE]", &[JudgeError], None, false ; "je is never permitted")]
    #[test_case("required: [TLE]", &[Accepted, TimeLimitExceeded], None, true ; "required seen")]
    #[test_case("required: [TLE, RTE]", &[Accepted, WrongAnswer], None, false ; "required not seen")]
    #[test_case("score: [20, 60]", &[Accepted], Some(40.0), true ; "score in range")]
    #[test_case("score: [20, 60]", &[Accepted], Some(60.0), true ; "range is inclusive")]
    #[test_case("score: [20, 60]", &[Accepted], Some(61.0), false ; "score above range")]
    #[test_case("score: 50", &[Accepted], Some(50.0), true ; "exact score")]
    #[test_case("score: 0", &[WrongAnswer, Accepted], None, false ; "pass-fail percent is the score")]
    #[test_case("message: said WA", &[Accepted, WrongAnswer], None, true ; "message seen")]
    #[test_case("message: said TLE", &[Accepted, WrongAnswer], None, false ; "message not seen")]
    fn expectations_decide_agreement(
        entry: &str,
        verdicts: &[Verdict],
        score: Option<f64>,
        agrees: bool,
    ) {
        let text = format!("\"*\":\n  {entry}\n");
        let expectations = kattis_submissions::parse(&text).unwrap();
        let refs: Vec<&Expectation> = expectations.iter().collect();
        assert_eq!(
            expectations_agree(&refs, &result(verdicts, score, true)),
            agrees
        );
    }

    #[test]
    fn every_matching_entry_must_hold_and_a_compile_error_meets_none() {
        let expectations = kattis_submissions::parse(
            "a/*:\n  permitted: [AC, WA]\n\"*/x.py\":\n  required: [WA]\n",
        )
        .unwrap();
        let both: Vec<&Expectation> = expectations.iter().collect();
        assert!(expectations_agree(
            &both,
            &result(&[Accepted, WrongAnswer], None, true)
        ));
        assert!(!expectations_agree(&both, &result(&[Accepted], None, true)));
        assert!(!expectations_agree(&both[..1], &result(&[], None, false)));
    }

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
