//! `judge grade --package DIR`'s grading: a package's own
//! `submissions/<verdict>/` against their folders, as the Kattis tools do
//! (issue #9). DIR is a Kattis / ICPC package (`problem.yaml`) or one of
//! ours (`problem.toml`).

use super::class::{ClassEvent, ClassPlan};
use super::settings::{self, Overrides};
use super::submission::{classify, with_stated};
use super::GradingError;
use crate::config::groups::GroupTree;
use crate::config::judge::JudgeConfig;
use crate::config::kattis::{self, PackageSubmission};
use crate::config::kattis_submissions::{self, Expectation, TimeLimitUse};
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
use crate::sandbox::Hidden;
use crate::verdict::Verdict;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
    /// What loading the package did that a user should know, one line each.
    pub(crate) notes: Vec<String>,
    /// `submissions/submissions.yaml` (2025-09), when the package has one.
    pub(crate) expectations: Vec<Expectation>,
    /// What no run or compile may see (the package's programs' too): a
    /// `generators.yaml` package's folders, the package's secret folders,
    /// the folder each graded submission is in.
    pub(crate) hidden: Arc<Hidden>,
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

/// What building a package's `data/` from its `generators/generators.yaml`
/// said before grading (issue #34): one line per note and a summary, each
/// for stderr.
#[derive(Debug)]
pub(crate) struct DataGenerated {
    pub(crate) lines: Vec<String>,
}

/// Builds `dir/data/` from `dir/generators/generators.yaml` when there is
/// one, as BAPCtools' `bt run` generates before it runs: cached by content
/// (`dir/.judge/generated/`), so a second grade makes nothing, and `data/`
/// replaced only when every case was made. When the yaml cannot be read or
/// a case cannot be made, a package that has a `data/` is graded on it with
/// a warning naming each problem (BAPCtools' own test problems use keys it
/// only warns about); one without `data/` is a configuration error, nothing
/// graded. `None`: the package has no `generators.yaml`.
pub(crate) fn generate_data(
    dir: &Path,
    config: &JudgeConfig,
) -> Result<Option<DataGenerated>, crate::package::generators::GeneratorsError> {
    use crate::package::generators::{generate, GeneratorsError};
    let yaml = dir.join("generators").join("generators.yaml");
    if !yaml.is_file() {
        return Ok(None);
    }
    let data = dir.join("data");
    let has_data = data.is_dir();
    let kept = format!("grading the tests already in `{}`", data.display());
    // Nothing is hidden before it but what the package says.
    let generated = match generate(dir, config, &Hidden::new()) {
        Ok(generated) => generated,
        Err(GeneratorsError::Config(error)) if has_data => {
            return Ok(Some(DataGenerated {
                lines: vec![format!("warning: {}; {kept}", crate::causes::chain(&error))],
            }))
        }
        Err(error) => return Err(error),
    };
    let mut lines: Vec<String> = generated
        .lines
        .into_iter()
        .map(|line| format!("generators.yaml: {line}"))
        .collect();
    if generated.failures.is_empty() {
        return Ok(Some(DataGenerated { lines }));
    }
    let failures = format!(
        "{} test cases of `{}` could not be made:\n  {}",
        generated.failures.len(),
        yaml.display(),
        generated.failures.join("\n  ")
    );
    if has_data {
        lines.push(format!("warning: {failures}\n{kept}"));
        return Ok(Some(DataGenerated { lines }));
    }
    Err(GeneratorsError::Config(
        crate::config::ConfigError::invalid(
            &yaml,
            "data",
            format!("{failures}\nthe package has no `data/` to grade on instead"),
        ),
    ))
}

/// Loads the package in `dir` and sorts its submissions: a folder that is
/// not a verdict folder, a multi-file submission, or a file in a language
/// that is not configured is skipped with the reason. What the grade hides
/// is gathered on the way.
pub(crate) fn plan(dir: &Path, config: &JudgeConfig) -> Result<PackagePlan, GradingError> {
    if !dir.is_dir() && package::detect(dir).is_none() {
        return Err(GradingError::usage(
            format!("the package `{}` is not a folder", dir.display()),
            None,
        ));
    }
    let mut hidden = super::hidden::Gathering::new();
    if dir.join("generators").join("generators.yaml").is_file() {
        // What building its `data/` kept from the generators stays hidden.
        hidden.folders(&crate::package::generators::secret_folders(dir));
    }
    let Some(loaded) = package::load_folder(dir, config, hidden.so_far())? else {
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
    hidden.package(&package);
    let tags = loaded.tagged.as_ref().map(|tagged| tagged.tags);
    let groups = package.groups().cloned();
    let expectations =
        kattis_submissions::with_defaults(kattis_submissions::read(dir)?.unwrap_or_default());
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
            let stated = match stated_language(&expectations, dir, &listed, config) {
                Ok(stated) => stated.or_else(|| with_standard(&listed, config)),
                Err(reason) => {
                    skipped.push((listed, reason));
                    continue;
                }
            };
            match with_stated(classify(&listed.path, config), &listed.path, stated) {
                Ok(submission) => match missing_toolchain(&submission) {
                    Some(reason) => skipped.push((listed, reason)),
                    // The format replaces a package's constants in its
                    // example submissions (issue #34).
                    None => graded.push((
                        listed,
                        submission.with_constants(loaded.example_constants.clone()),
                    )),
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
    hidden.hand_ins(graded.iter().map(|(listed, _)| listed.path.as_path()));
    let hidden = hidden.done([&package]);
    Ok(PackagePlan {
        package,
        hidden,
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
        notes: loaded.notes,
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

/// Whether a `submissions.yaml` entry matching `listed` states its
/// language.
fn stated_names(plan: &PackagePlan, dir: &Path, listed: &PackageSubmission) -> bool {
    listed
        .path
        .strip_prefix(dir.join("submissions"))
        .is_ok_and(|relative| {
            plan.expectations
                .iter()
                .any(|expectation| expectation.matches(relative) && expectation.language.is_some())
        })
}

/// The language of `listed` compiling with the standard its package states
/// for it (a Polygon solution's `type`), when it states one and the
/// language's compile command names a `-std=`.
fn with_standard(
    listed: &PackageSubmission,
    config: &JudgeConfig,
) -> Option<(String, crate::config::judge::Language)> {
    let standard = listed.standard.as_deref()?;
    let (name, language) = config.language_for(&listed.path)?;
    Some((name.to_owned(), language.with_standard(standard)?))
}

/// The language a matching `submissions.yaml` entry states for `listed`,
/// with the entry point it states (`None`: none states one); the reason to
/// skip it when judge.toml has no language for the stated code, or two
/// entries state different ones.
fn stated_language(
    expectations: &[Expectation],
    dir: &Path,
    listed: &PackageSubmission,
    config: &JudgeConfig,
) -> Result<Option<(String, crate::config::judge::Language)>, String> {
    let Ok(relative) = listed.path.strip_prefix(dir.join("submissions")) else {
        return Ok(None);
    };
    let matched: Vec<&Expectation> = expectations
        .iter()
        .filter(|expectation| expectation.matches(relative))
        .collect();
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
                "submissions.yaml states two `{key}`s for it: `{first}` (line {}) and `{second}` \
                 (line {})",
                a.line, b.line
            )),
        }
    };
    let language = stated(|expectation| expectation.language.as_ref(), "language")?;
    let entrypoint = stated(|expectation| expectation.entrypoint.as_ref(), "entrypoint")?;
    let (name, mut language) = match (language, &entrypoint) {
        (Some((code, line)), _) => {
            let extension = kattis_submissions::extension_of_code(&code).unwrap_or_default();
            let probe = Path::new("submission").with_extension(extension);
            let (name, language) = config.language_for(&probe).ok_or_else(|| {
                format!(
                    "its `language: {code}` (submissions.yaml line {line}) is none of judge.toml's \
                     (no language runs `.{extension}` files; known: {})",
                    config.known_languages()
                )
            })?;
            (name.to_owned(), language.clone())
        }
        (None, Some(_)) => match classify(&listed.path, config) {
            Ok(Submission {
                kind: runner::SubmissionKind::Language { name, language },
                ..
            }) => (name, language),
            _ => return Ok(None),
        },
        (None, None) => return Ok(None),
    };
    language.entry = entrypoint.map(|(entry, _)| entry);
    Ok(Some((name, language)))
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
pub(crate) fn expectations_agree(expectations: &[&Expectation], result: &SubmissionResult) -> bool {
    if expectations.is_empty() {
        return true;
    }
    if result.compile.verdict.is_some() {
        return false;
    }
    let score = result.score.unwrap_or_else(|| result.pass_fail_score()).0;
    let within = |(low, high): (f64, f64), score: f64| score >= low - 1e-9 && score <= high + 1e-9;
    expectations
        .iter()
        .flat_map(|expectation| &expectation.rules)
        .all(|rule| {
            let tests: Vec<&crate::runner::TestResult> = result
                .tests
                .iter()
                .filter(|test| rule.applies_to(&test.name))
                .collect();
            let verdicts = || tests.iter().map(|test| format_verdict(test.verdict));
            let permitted = rule.permitted.as_ref().is_none_or(|permitted| {
                verdicts()
                    .all(|verdict| verdict.is_some_and(|verdict| permitted.contains(&verdict)))
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
        .any(|expectation| expectation.replaces_folder == Some(listed.folder.as_str()));
    let folder_rule = kattis_folder_agrees(&listed.folder, Verdict::Accepted).is_some()
        || (scored && listed.folder == PARTIAL_FOLDER);
    let by_folder = replaced || !folder_rule || folder_agrees(&listed.folder, result, scored);
    by_folder && expectations_agree(expectations, result)
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
    /// What the package's format suggests about the rows that disagree,
    /// one line each.
    pub(crate) hints: Vec<String>,
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
            let derived = time_limit::derive_time_limit(plan, dir, &config, &overrides, &tests)?;
            on_derived(&derived);
            derived.limit_ms
        }
    };
    let package = package.with_time_limit_ms(time_limit_ms);
    let entries: Vec<Entry> = plan
        .graded
        .iter()
        .map(|(listed, submission)| Entry {
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
            constants: submission.constants.clone(),
            standard: listed.standard.clone(),
            stated: match &submission.kind {
                runner::SubmissionKind::Language { name, language }
                    if language.entry.is_some() || stated_names(plan, dir, listed) =>
                {
                    Some((name.clone(), language.entry.clone()))
                }
                _ => None,
            },
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
        hidden: Arc::clone(&plan.hidden),
    };
    let (mut report, journal) = super::class::grade_journaled(
        &class_plan,
        &config,
        &overrides,
        // A test group's demand needs that group's tests run, not only
        // those up to the first failure.
        options.all_tests || plan.expectations.iter().any(Expectation::has_group_rules),
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
        } else {
            package_agrees(listed, &expectations, &graded.result, plan.groups.is_some())
        };
        expected.agrees = Some(agrees);
        rows.push(PackageRow {
            expected_by: expectations
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
                .collect(),
            agrees,
            listed: listed.clone(),
            result: graded.result.clone(),
        });
    }
    let hints = match plan.tags {
        Some(tags) => rows
            .iter()
            .filter(|row| !row.agrees)
            .filter_map(|row| tags.hint(&row.listed.folder, &row.result))
            .collect(),
        None => Vec::new(),
    };
    let graded = PackageReport {
        hints,
        rows,
        skipped: plan.skipped.len(),
        time_limit_ms,
        report,
    };
    Ok((graded, journal))
}

mod time_limit;

pub(crate) use time_limit::DerivedLimit;

#[cfg(test)]
mod tests;
