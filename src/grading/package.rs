//! `judge grade --package DIR`'s grading: a package's own submissions
//! against what the package expects of each, as the Kattis tools do
//! (issue #9). DIR is a package of any format; which submissions it holds
//! and what each expects are its format's to say
//! ([`crate::package::format::Expectations`]), never asked here.

use super::class::{ClassEvent, ClassPlan};
use super::grade::Grade;
use super::settings::{self, Overrides};
use super::submission::{classify, with_stated};
use super::GradingError;
use crate::config::judge::JudgeConfig;
use crate::discovery::{Entry, Shard};
use crate::exit::Outcome;
use crate::grading::resume::{Journal, Resume};
use crate::interrupt::Cancellation;
use crate::package::format::{
    Expectations, ExpectedKey, ListedSubmissions, PackageSubmission, StatedLanguage, TimeFactors,
};
use crate::package::{self, Package};
use crate::report::json::BeforeTests;
use crate::report::ReportError;
use crate::runner::{
    self, FixedTests, LinkScope, Submission, SubmissionResult, TestCase, Workspace,
};
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
    /// Where the package states it, in its format's words, when the
    /// format says.
    pub(crate) time_limit_stated_in: Option<String>,
    /// The slowest accepted run times this is a derived time limit.
    pub(crate) time_multiplier: f64,
    /// A derived time limit is rounded up to a multiple of this.
    pub(crate) time_resolution_ms: u64,
    /// Which languages' `time-factor`s multiply the time limit.
    pub(crate) time_factors: TimeFactors,
    pub(crate) graded: Vec<(PackageSubmission, Submission)>,
    /// Where the links of its own submissions may lead: anywhere in the
    /// package ([`LinkScope::Package`]); the HTML report's pages read their
    /// sources in it too.
    pub(crate) link_scope: LinkScope,
    /// Submissions not graded, with the reason.
    pub(crate) skipped: Vec<(PackageSubmission, String)>,
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
    /// What the package does that its format does not allow, and how it is
    /// read instead, one line each.
    pub(crate) warnings: Vec<String>,
    /// What the package expects of each of its submissions, in its
    /// format's terms.
    pub(crate) expectations: Box<dyn Expectations>,
    /// What no run or compile may see (the package's programs' too): what
    /// building the package kept from its programs (a `generators.yaml`
    /// package's folders), the package's secret folders,
    /// the folder each graded submission is in.
    pub(crate) hidden: Arc<Hidden>,
}

/// `--similarity` is refused: a package's examples are no class.
pub(crate) fn refuse_similarity(asked: bool) -> Result<(), GradingError> {
    if asked {
        return Err(super::usage::UsageError::PackageWithSimilarity.into());
    }
    Ok(())
}

/// Why `grade --package` stopped before anything ran ([`start`]): the
/// package could not build what it makes of itself, or the grading layer
/// refused it. Each becomes the error it was (`super::CommandError`).
#[derive(Debug, thiserror::Error)]
pub(crate) enum StartError {
    #[error(transparent)]
    Grading(#[from] GradingError),
    #[error(transparent)]
    Prepare(#[from] crate::package::format::PrepareError),
}

/// What `judge grade --package DIR` does before anything is graded, in
/// order: the package builds what it makes of itself (its format's
/// [`crate::package::prepare_folder`]: a Kattis package's `data/` from its
/// `generators.yaml`), is loaded and its submissions sorted ([`plan`]:
/// its validator may be compiled and check its tests then); `say` hears
/// each line for stderr (the build's, then
/// [`PackagePlan::loading_lines`]); a package with nothing to grade is
/// refused ([`PackagePlan::refuse_empty`]). SIGINT or SIGTERM during the
/// build (`data/` left as it was) or the load stops it there (issue #34):
/// what the signal cut short failing is then no error.
pub(crate) fn start(
    dir: &Path,
    config: &JudgeConfig,
    cancel: &Cancellation,
    say: &mut dyn FnMut(&str),
) -> Result<Before<PackagePlan>, StartError> {
    let prepared = package::prepare_folder(dir, config);
    if let Ok(Some(prepared)) = &prepared {
        for line in &prepared.lines {
            say(line);
        }
    }
    if cancel.is_cancelled() {
        return Ok(Before::Stopped(BeforeTests::BuildingData));
    }
    prepared?;
    let plan = plan(dir, config);
    if cancel.is_cancelled() {
        return Ok(Before::Stopped(BeforeTests::LoadingPackage));
    }
    let plan = plan?;
    for line in plan.loading_lines() {
        say(&line);
    }
    plan.refuse_empty(dir)?;
    Ok(Before::Done(plan))
}

/// Loads the package in `dir` and sorts its submissions: a folder that is
/// not a verdict folder, a multi-file submission, or a file in a language
/// that is not configured is skipped with the reason. What the grade hides
/// is gathered on the way.
pub(crate) fn plan(dir: &Path, config: &JudgeConfig) -> Result<PackagePlan, GradingError> {
    if !dir.is_dir() && package::detect(dir).is_none() {
        return Err(super::usage::UsageError::WrongKind {
            what: super::usage::Named::Package,
            path: dir.to_owned(),
        }
        .into());
    }
    let mut hidden = super::hidden::Gathering::new();
    // What building the package kept from its programs stays hidden.
    hidden.folders(&package::prepared_folders(dir));
    let Some(loaded) = package::load_folder(dir, config, hidden.so_far())? else {
        return Err(super::usage::UsageError::NotAPackage {
            path: dir.to_owned(),
            markers: package::markers(),
        }
        .into());
    };
    let package = loaded.package;
    hidden.package(&package);
    // The package's own submissions: their links may lead anywhere in it
    // (a Polygon zip's, in the folder it was unpacked into).
    let scope = LinkScope::package(package.dir().unwrap_or(dir));
    let ListedSubmissions {
        submissions: listed_all,
        expectations,
        warnings: listed_warnings,
    } = loaded.submissions.read()?;
    let mut warnings = loaded.warnings;
    warnings.extend(listed_warnings);
    let mut graded = Vec::new();
    let mut skipped = Vec::new();
    for listed in listed_all {
        if let Some(reason) = expectations.not_graded(&listed) {
            skipped.push((listed, reason));
            continue;
        }
        let (stated, unavailable) = match expectations.stated(&listed, config) {
            Ok(stated) => {
                let unavailable = stated.unavailable.clone();
                let stated = stated_language(stated, &listed.path, &scope, config)
                    .or_else(|| with_standard(&listed, config));
                (stated, unavailable)
            }
            Err(reason) => {
                skipped.push((listed, reason));
                continue;
            }
        };
        let classified = classify(&listed.path, &scope, config);
        match with_stated(classified, &listed.path, &scope, stated) {
            Ok(submission) => match missing_toolchain(&submission) {
                Some(reason) => {
                    let reason = match &unavailable {
                        Some(why) => format!("{why} ({reason})"),
                        None => reason,
                    };
                    skipped.push((listed, reason));
                }
                // The format replaces a package's constants in its
                // example submissions (issue #34).
                None => graded.push((
                    listed,
                    submission.with_constants(loaded.example_constants.clone()),
                )),
            },
            Err(error) if listed.path.is_dir() => {
                // A folder the judge cannot copy (a FIFO or a device in it,
                // a link out, too many files or bytes) is the package's
                // defect, not a toolchain missing here: refused, so that a
                // CI gate never passes with an example that was never run
                // (issue #34).
                if runner::folder_files(&listed.path, &scope).is_err() {
                    return Err(error);
                }
                let reason = format!("a folder program that cannot be built: {error}");
                skipped.push((listed, reason));
            }
            Err(GradingError::Usage(super::usage::UsageError::NoLanguage { .. })) => {
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
            // Not a language missing here but a file that cannot be read
            // (a link that leads nowhere): said as it is, not called a
            // language that is not configured (issue #34).
            Err(error) => return Err(error),
        }
    }
    hidden.hand_ins(graded.iter().map(|(listed, _)| listed.path.as_path()));
    let hidden = hidden.done([&package]);
    Ok(PackagePlan {
        package,
        hidden,
        time_limit_ms: loaded.time_limit_ms,
        time_limit_stated_in: loaded.time_limit_stated_in,
        time_multiplier: loaded.time_multiplier,
        time_resolution_ms: loaded.time_resolution_ms,
        time_factors: loaded.time_factors,
        graded,
        link_scope: scope,
        skipped,
        skipped_programs: loaded.skipped_programs,
        ignored_files: loaded.ignored_files,
        unchecked_inputs: loaded.unchecked_inputs,
        notes: loaded.notes,
        warnings,
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
    /// What loading the package did that a user should know, one line
    /// each: its warnings, its notes, the files its format says not to run, the
    /// programs it does without, and the submissions skipped, each with
    /// why.
    pub(crate) fn loading_lines(&self) -> Vec<String> {
        let warnings = self
            .warnings
            .iter()
            .map(|warning| format!("warning: {warning}"));
        let notes = self.notes.iter().map(|note| format!("note: {note}"));
        let ignored = self
            .ignored_files
            .iter()
            .map(|(path, reason)| format!("ignored: {}: {reason}", path.display()));
        let programs = self
            .skipped_programs
            .iter()
            .map(|(path, reason)| format!("skipped: {}: {reason}", path.display()));
        let submissions = self
            .skipped
            .iter()
            .map(|(listed, reason)| format!("skipped: {}: {reason}", listed.path.display()));
        warnings
            .chain(notes)
            .chain(ignored)
            .chain(programs)
            .chain(submissions)
            .collect()
    }

    /// Every file of the package that is not graded or used, and why: the
    /// files its format says not to run, the programs it does without,
    /// and the submissions skipped; by path. The JSON report's `ignored`.
    pub(crate) fn not_graded(&self) -> Vec<crate::report::Ignored> {
        let mut files: Vec<crate::report::Ignored> = self
            .ignored_files
            .iter()
            .chain(&self.skipped_programs)
            .map(|(path, reason)| (path, reason.clone()))
            .chain(
                self.skipped
                    .iter()
                    .map(|(listed, reason)| (&listed.path, format!("skipped: {reason}"))),
            )
            .map(|(path, reason)| crate::report::Ignored {
                path: path.display().to_string(),
                reason,
            })
            .collect();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        files
    }
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

/// The language `stated` names for the submission at `path` (in `scope`),
/// with the entry point it states: the stated language, else (an entry
/// point alone) the one `path` runs in; `None` when it states neither.
fn stated_language(
    stated: StatedLanguage,
    path: &Path,
    scope: &LinkScope,
    config: &JudgeConfig,
) -> Option<(String, crate::config::judge::Language)> {
    let (name, mut language) = match (stated.language, &stated.entry) {
        (Some(found), _) => found,
        (None, Some(_)) => match classify(path, scope, config) {
            Ok(Submission {
                kind: runner::SubmissionKind::Language { name, language },
                ..
            }) => (name, language),
            _ => return None,
        },
        (None, None) => return None,
    };
    language.entry = stated.entry;
    Some((name, language))
}

impl PackagePlan {
    /// A package with no submission to grade is a usage error (`dir`
    /// names it).
    pub(crate) fn refuse_empty(&self, dir: &Path) -> Result<(), GradingError> {
        if self.graded.is_empty() {
            return Err(super::usage::UsageError::NoExamples {
                path: dir.to_owned(),
            }
            .into());
        }
        Ok(())
    }

    /// A package that cannot be graded is refused: one with no submission
    /// to grade ([`PackagePlan::refuse_empty`]), or whose inputs nothing
    /// checks (a judge error).
    fn refuse_ungradable(&self, dir: &Path) -> Result<(), GradingError> {
        self.refuse_empty(dir)?;
        match &self.unchecked_inputs {
            Some(reason) => Err(GradingError::UncheckedInputs(reason.clone())),
            None => Ok(()),
        }
    }
}

/// One graded submission and whether it got its folder's verdict.
#[derive(Debug)]
pub(crate) struct PackageRow {
    pub(crate) listed: PackageSubmission,
    /// What decided what it was expected to get, in its format's words
    /// (`folder accepted`, `` submissions.yaml `mixed/*` line 3: ... ``).
    pub(crate) decided_by: String,
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
    /// What the format's submissions are expected by, for the tally's words.
    pub(crate) key: ExpectedKey,
    /// What the package's format suggests about the rows that disagree,
    /// each printed as every hint is.
    pub(crate) hints: Vec<crate::hint::Hint>,
    pub(crate) skipped: usize,
    pub(crate) time_limit_ms: u64,
    pub(crate) report: Grade,
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
    /// The time limit of each test ([`time_limit`]).
    pub(crate) time_limit_ms: u64,
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
    as_package_grade(plan.time_factors.apply(config))
}

/// `config` as any package grades under: layout `expected`, no random
/// tests.
fn as_package_grade(mut config: JudgeConfig) -> JudgeConfig {
    config.layout = crate::config::judge::Layout::Expected;
    config.random_tests = 0;
    config
}

/// The overrides a package grades with: `--jobs`, nothing else.
fn package_overrides(jobs: Option<u64>) -> Overrides {
    Overrides {
        time_limit_ms: None,
        memory_limit_mib: None,
        jobs,
    }
}

/// The time limit `plan` grades with (`dir` names it in errors): the one
/// it states, else one derived from its accepted submissions, as
/// problemtools does, which `on_derived` hears. A package whose inputs
/// nothing checks is refused first. SIGINT or SIGTERM while the limit is
/// derived stops it there (issue #34): the runs it killed say nothing
/// about the limit.
pub(crate) fn time_limit(
    plan: &PackagePlan,
    dir: &Path,
    config: &JudgeConfig,
    jobs: Option<u64>,
    cancel: &Cancellation,
    on_derived: &mut dyn FnMut(&DerivedLimit),
) -> Result<Before<u64>, GradingError> {
    plan.refuse_ungradable(dir)?;
    if let Some(limit) = plan.time_limit_ms {
        return Ok(Before::Done(limit));
    }
    let config = package_config(plan, config);
    let package = &plan.package;
    let workspace = Workspace::new()?;
    let derived = runner::load_tests(
        &**package.problem(),
        Some(FixedTests::Package(package.tests())),
        &package.profiles(),
        0,
        0,
        &workspace,
    )
    .map_err(GradingError::from)
    .and_then(|tests| {
        time_limit::derive_time_limit(plan, &config, &package_overrides(jobs), &tests)
    });
    if cancel.is_cancelled() {
        return Ok(Before::Stopped(BeforeTests::DerivingTimeLimit));
    }
    let derived = derived?;
    on_derived(&derived);
    Ok(Before::Done(derived.limit_ms))
}

/// The (submission, problem) pairs of `plan`, each submission's student
/// its file's name, before `--shard` chooses.
fn entries(plan: &PackagePlan, config: &JudgeConfig) -> Vec<Entry> {
    let package = &plan.package;
    plan.graded
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
                listed.expected_as.clone(),
                plan.expectations.verdicts(&listed.expected_as).0,
            )),
            others: Vec::new(),
            constants: submission.constants.clone(),
            link_scope: submission.link_scope.clone(),
            standard: listed.standard.clone(),
            stated: match &submission.kind {
                // A language other than its extension's: stated, or asked
                // for by a `#!` line (Python 2).
                runner::SubmissionKind::Language { name, language }
                    if language.entry.is_some()
                        || plan.expectations.names_language(listed)
                        || config
                            .language_for(&listed.path)
                            .is_some_and(|(by_extension, _)| by_extension != name) =>
                {
                    Some((name.clone(), language.entry.clone()))
                }
                _ => None,
            },
        })
        .collect()
}

/// Grades `plan` (`dir` names it in errors) with the time limit of
/// `options` ([`time_limit`]). Each submission stops at its first failing
/// test unless `all_tests` (see [`super::policy::tests_to_run`]). The
/// grading itself is a class's ([`super::class::grade_journaled`]), so
/// shards, `--resume`, the journal and the reports work as for `judge
/// grade`; the journal comes back as that call returns it.
pub(crate) fn grade(
    plan: &PackagePlan,
    dir: &Path,
    config: &JudgeConfig,
    options: PackageOptions<'_>,
    on_event: &mut dyn FnMut(ClassEvent<'_>),
) -> Result<(PackageReport, Result<Option<Journal>, ReportError>), GradingError> {
    plan.refuse_ungradable(dir)?;
    let config = package_config(plan, config);
    let overrides = package_overrides(options.jobs);
    let time_limit_ms = options.time_limit_ms;
    let package = plan.package.with_time_limit_ms(time_limit_ms);
    let entries = entries(plan, &config);
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
        options.all_tests || plan.expectations.runs_every_test(),
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
        expected.also = plan.expectations.verdicts(&expected.folder).1;
        expected.kind = plan.expectations.key();
        let Some((listed, _)) = plan
            .graded
            .iter()
            .find(|(listed, _)| listed.path.display().to_string() == graded.result.submission)
        else {
            continue;
        };
        let agrees = plan.expectations.agrees(listed, &graded.result);
        expected.agrees = Some(agrees);
        rows.push(PackageRow {
            decided_by: plan.expectations.decided_by(listed),
            agrees,
            listed: listed.clone(),
            result: graded.result.clone(),
        });
    }
    let hints = rows
        .iter()
        .filter(|row| !row.agrees)
        .filter_map(|row| plan.expectations.hint(&row.listed, &row.result))
        .collect();
    let graded = PackageReport {
        key: plan.expectations.key(),
        hints,
        rows,
        skipped: plan.skipped.len(),
        time_limit_ms,
        report,
    };
    Ok((graded, journal))
}

mod before_tests;
mod command;
mod time_limit;

pub(crate) use before_tests::Before;
pub(crate) use command::{run, PackageCommand};
pub(crate) use time_limit::DerivedLimit;

#[cfg(test)]
mod tests;
