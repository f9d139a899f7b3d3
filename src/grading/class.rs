//! `judge grade`'s grading: a plan of what a class's submissions folder
//! holds (what is graded, what is ignored and why, every package loaded),
//! then one call that grades it into a [`GradeReport`].

use super::margin::{close_to_the_limit, needs_reruns, time_limit_warnings};
use super::policy::Selection;
use super::score::ScorePlan;
use super::settings::{self, master_seed, Overrides, SettingsWarning};
use super::submission::{prepare_entry, Unrunnable};
use super::GradingError;
use crate::config::judge::JudgeConfig;
use crate::config::ConfigError;
use crate::grade::{self, Entry, Shard};
use crate::interrupt::Cancellation;
use crate::package::{package_exists, Package};
use crate::report::json::{
    Expected, GradeReport, GradedResult, GradedWith, IgnoredFile, MissingPair, NotGraded,
    ShardInfo, JUDGE_VERSION, VERSION,
};
use crate::report::ReportError;
use crate::resume::{self, Fingerprint, Journal, Resume};
use crate::runner::{
    self, CompileResult, Event, FixedTests, Settings, Submission, SubmissionResult, TestsToRun,
    Workspace,
};
use crate::sandbox::Isolation;
use crate::verdict::Verdict;
use std::collections::BTreeMap;
use std::path::Path;

/// What a class run will grade, and what it will not.
#[derive(Debug)]
pub(crate) struct ClassPlan {
    /// The (submission, problem) pairs of this run (of its shard).
    pub entries: Vec<Entry>,
    /// Files of the submissions folder that are not graded, and why.
    pub ignored: Vec<IgnoredFile>,
    /// The class's (student, problem) pairs with no hand-in (whole run).
    pub missing: Vec<MissingPair>,
    /// Pairs in the whole run, before `--shard`.
    pub pairs: usize,
    pub shard: Option<Shard>,
    /// Every package the entries name that exists, loaded.
    pub packages: BTreeMap<String, Package>,
}

/// Finds the submissions under `config`'s folder and layout, keeps
/// `shard`'s part, and loads every package they name with `load` before
/// anything runs: a broken problem.toml is a configuration error (exit 2).
pub(crate) fn plan(
    config: &JudgeConfig,
    problems_dir: Option<&Path>,
    shard: Option<Shard>,
    load: &dyn Fn(&str) -> Result<Package, ConfigError>,
) -> Result<ClassPlan, GradingError> {
    let discovery = grade::discover(
        &config.submissions,
        config.layout,
        config.problems.as_deref(),
    )
    .map_err(|error| match error {
        grade::DiscoverError::Missing { .. }
        | grade::DiscoverError::NotAFolder { .. }
        | grade::DiscoverError::Empty { .. } => GradingError::usage(
            error.to_string(),
            Some(match config.path.as_deref() {
                Some(path) => format!(
                    "`submissions` in `{}` names the folder, relative to that file",
                    path.display()
                ),
                None => "there is no judge.toml here, so the built-in defaults were used \
                         (`submissions = \"submissions\"`, `layout = \"problem/student\"`); \
                         write a judge.toml or pass `--config FILE`"
                    .to_owned(),
            }),
        ),
        error @ grade::DiscoverError::Walk(_) => GradingError::Discover(error),
    })?;
    // A file named after no problem (`README.txt`, `rook.py`) is not a
    // submission: ignored with the reason, never a gradebook row.
    let known = crate::package::package_ids(problems_dir);
    let mut ignored_files = discovery.ignored;
    let class = config.layout != crate::config::judge::Layout::Expected;
    let runs = |path: &Path| !class || config.runs_as(path).is_some();
    // A student folder, or a hand-in that runs named after the student,
    // makes a student of the class (with a row per problem).
    let students: Vec<String> = discovery
        .students
        .into_iter()
        .filter(|(_, files)| files.is_empty() || files.iter().any(|path| runs(path)))
        .map(|(student, _)| student)
        .collect();
    let (named, unknown): (Vec<Entry>, Vec<Entry>) = discovery
        .entries
        .into_iter()
        .partition(|entry| package_exists(problems_dir, &entry.problem));
    for entry in unknown {
        for path in std::iter::once(&entry.path).chain(&entry.others) {
            ignored_files.push(grade::Ignored {
                path: path.clone(),
                reason: format!(
                    "`{}` is not a problem (known: {}){}",
                    entry.problem,
                    known.join(", "),
                    crate::suggest::did_you_mean(&entry.problem, known.iter().map(String::as_str))
                ),
            });
        }
    }
    let mut entries = Vec::with_capacity(named.len());
    for entry in named {
        // A file in no configured language that is not executable
        // (`README.txt` in a problem folder) is not a hand-in: ignored.
        let (files, refused): (Vec<_>, Vec<_>) = std::iter::once(entry.path.clone())
            .chain(entry.others.iter().cloned())
            .partition(|path| runs(path));
        ignored_files.extend(refused.into_iter().map(|path| grade::Ignored {
            path,
            reason: format!(
                "in no configured language and not executable; {}",
                config.languages_hint()
            ),
        }));
        if let Some((first, others)) = files.split_first() {
            entries.push(Entry {
                path: first.clone(),
                others: others.to_vec(),
                ..entry
            });
        }
    }
    ignored_files.sort_by(|a, b| a.path.cmp(&b.path));
    if entries.is_empty() {
        return Err(GradingError::usage(
            format!(
                "the submissions folder `{}` holds no submissions of a known problem; {} file(s) ignored",
                config.submissions.display(),
                ignored_files.len()
            ),
            ignored_files
                .first()
                .map(|first| format!("`{}`: {}", first.path.display(), first.reason)),
        ));
    }
    let ignored = ignored_files
        .iter()
        .map(|ignored| IgnoredFile {
            path: ignored.path.display().to_string(),
            reason: ignored.reason.clone(),
        })
        .collect();
    let missing = missing_pairs(config, &entries, &students);
    let pairs = entries.len();
    let entries = match shard {
        Some(shard) => shard.select(entries),
        None => entries,
    };
    let mut packages: BTreeMap<String, Package> = BTreeMap::new();
    for entry in &entries {
        if packages.contains_key(&entry.problem) || !package_exists(problems_dir, &entry.problem) {
            continue;
        }
        let package = load(&entry.problem)?;
        if package.tests().is_empty() && config.random_tests == 0 {
            return Err(GradingError::usage(
                format!(
                    "no tests for `{}`: no tests in the package and no random tests",
                    package.id()
                ),
                Some("set `random-tests` in `judge.toml`".to_owned()),
            ));
        }
        packages.insert(entry.problem.clone(), package);
    }
    Ok(ClassPlan {
        entries,
        ignored,
        missing,
        pairs,
        shard,
        packages,
    })
}

/// Each (student, problem) of a class with no hand-in: the problems are
/// `problems` of judge.toml, else those someone handed in; the students,
/// `students` and everyone graded. None for layout `expected` (examples,
/// not a class).
fn missing_pairs(config: &JudgeConfig, entries: &[Entry], students: &[String]) -> Vec<MissingPair> {
    if config.layout == crate::config::judge::Layout::Expected {
        return Vec::new();
    }
    let handed_in: std::collections::BTreeSet<(&str, &str)> = entries
        .iter()
        .map(|entry| (entry.student.as_str(), entry.problem.as_str()))
        .collect();
    let students: std::collections::BTreeSet<&str> = entries
        .iter()
        .map(|entry| entry.student.as_str())
        .chain(students.iter().map(String::as_str))
        .collect();
    let problems: Vec<&str> = match &config.problems {
        Some(problems) => problems.iter().map(String::as_str).collect(),
        None => {
            let mut seen: Vec<&str> = entries.iter().map(|entry| entry.problem.as_str()).collect();
            seen.sort_unstable();
            seen.dedup();
            seen
        }
    };
    let mut missing = Vec::new();
    for student in &students {
        for problem in &problems {
            if !handed_in.contains(&(student, problem)) {
                missing.push(MissingPair {
                    student: (*student).to_owned(),
                    problem: (*problem).to_owned(),
                });
            }
        }
    }
    missing
}

/// What a class run tells its observer as it goes.
#[derive(Debug)]
pub(crate) enum ClassEvent<'a> {
    /// This many pairs (submissions) are to be graded in all.
    Pairs(usize),
    /// Grading of this problem's submissions begins.
    Problem(&'a str),
    /// The settings of a problem deserve a warning.
    Settings(&'a SettingsWarning),
    /// The submissions of the problem begun run this many tests each.
    Tests(usize),
    /// What the runner did (a compile, a test, a submission finished).
    Run(Event<'a>),
    /// One more pair is graded (or reused, or found unrunnable).
    Graded,
    /// A pair's result is final, as the report will hold it (for the
    /// results journal); it comes as soon as the pair is done, before the
    /// rest of its problem.
    Finished(&'a GradedResult),
}

/// Reads the report of `--resume`, with the note to say when it reuses
/// nothing of it.
pub(crate) fn load_resume(path: &Path) -> Result<(Resume, Option<String>), GradingError> {
    let resume = resume::load(path)?;
    let note = resume
        .refused()
        .map(|reason| format!("note: reusing no result of `{}`: {reason}", path.display()));
    Ok((resume, note))
}

/// [`grade`], appending each finished pair to `journal` as it finishes (so
/// `--resume` can read them after a kill). A journal that cannot be written
/// stops the grade at once: a grade that cannot keep its results must not
/// run on and lose them at the end. Returns the report of what finished and
/// the journal, or the journal's error.
#[expect(
    clippy::too_many_arguments,
    reason = "grade's arguments and the journal"
)]
pub(crate) fn grade_journaled(
    plan: &ClassPlan,
    config: &JudgeConfig,
    overrides: &Overrides,
    all_tests: bool,
    resume: Option<&mut Resume>,
    cancel: &Cancellation,
    mut journal: Option<Journal>,
    on_event: &mut dyn FnMut(ClassEvent<'_>),
) -> Result<(GradeReport, Result<Option<Journal>, ReportError>), GradingError> {
    let mut journal_error = None;
    let report = grade(
        plan,
        config,
        overrides,
        all_tests,
        resume,
        cancel,
        &mut |event| {
            if let (ClassEvent::Finished(graded), Some(writing)) = (&event, journal.as_mut()) {
                if let Err(error) = writing.append(graded) {
                    cancel.cancel();
                    journal_error = Some(error);
                    journal = None;
                }
            }
            on_event(event);
        },
    )?;
    Ok((report, journal_error.map_or(Ok(journal), Err)))
}

/// Grades `plan`: each problem's submissions in one runner call (each
/// compiled once, the tests shared, running the tests
/// [`super::policy::tests_to_run`] says for the layout and `all_tests`),
/// results `resume` may reuse taken from it, then the time-limit warnings;
/// the report in the unsharded order.
pub(crate) fn grade(
    plan: &ClassPlan,
    config: &JudgeConfig,
    overrides: &Overrides,
    all_tests: bool,
    mut resume: Option<&mut Resume>,
    cancel: &Cancellation,
    on_event: &mut dyn FnMut(ClassEvent<'_>),
) -> Result<GradeReport, GradingError> {
    let mut results = Vec::with_capacity(plan.entries.len());
    let mut not_graded = Vec::new();
    on_event(ClassEvent::Pairs(plan.entries.len()));
    let mut by_problem: BTreeMap<&str, Vec<&Entry>> = BTreeMap::new();
    for entry in &plan.entries {
        by_problem.entry(&entry.problem).or_default().push(entry);
    }
    for (id, group) in by_problem {
        match plan.packages.get(id) {
            Some(package) => {
                on_event(ClassEvent::Problem(id));
                let resolved = settings::resolve(overrides, config, package);
                for warning in &resolved.warnings {
                    on_event(ClassEvent::Settings(warning));
                }
                let graded = grade_problem(
                    package,
                    &group,
                    config,
                    &resolved.settings,
                    all_tests,
                    resume.as_deref_mut(),
                    cancel,
                    on_event,
                )?;
                results.extend(graded.results);
                not_graded.extend(graded.not_graded);
            }
            None => {
                for entry in group {
                    let graded = unknown_problem(entry, config);
                    on_event(ClassEvent::Graded);
                    on_event(ClassEvent::Finished(&graded));
                    results.push(graded);
                }
            }
        }
    }
    results.sort_by(|a, b| {
        grade::order_key(Path::new(&a.result.submission), &a.result.problem).cmp(&grade::order_key(
            Path::new(&b.result.submission),
            &b.result.problem,
        ))
    });
    not_graded.sort_by(|a, b| {
        grade::order_key(Path::new(&a.submission), &a.problem)
            .cmp(&grade::order_key(Path::new(&b.submission), &b.problem))
    });
    Ok(GradeReport {
        version: VERSION,
        isolation: serde_json::to_value(Isolation::detect()).ok(),
        layout: config.layout,
        shard: plan.shard.map(|shard| ShardInfo {
            index: shard.index,
            count: shard.count,
            pairs: plan.pairs,
        }),
        judge_version: Some(JUDGE_VERSION.to_owned()),
        interrupted: cancel.signal().is_some(),
        not_graded,
        ignored: plan.ignored.clone(),
        missing: plan.missing.clone(),
        graded_with: Some(GradedWith {
            judge_version: JUDGE_VERSION.to_owned(),
            seed: config.seed,
            random_tests: config.random_tests,
            time_limit_ms: config.limits.time_limit_ms,
            memory_limit_mib: config.limits.memory_limit_mib,
            output_limit_kib: config.limits.output_limit_kib,
            wall_time_factor: config.wall_time_factor,
        }),
        results,
    })
}

/// One problem's graded pairs, and those an interruption left ungraded.
struct ProblemGraded {
    results: Vec<GradedResult>,
    not_graded: Vec<NotGraded>,
}

/// A pair to run: its entry, the submission, the file's SHA-256 and the
/// fingerprint of what its result depends on.
struct Runnable<'a> {
    entry: &'a Entry,
    submission: Submission,
    sha256: Option<String>,
    fingerprint: String,
}

/// Grades one problem's submissions: one runner call, so each is compiled
/// once and the tests are shared. Results `resume` may reuse are taken from
/// it instead. A package with test groups is scored by them, running only
/// the tests they reach unless `all_tests` (see
/// [`super::policy::selection`]).
#[expect(
    clippy::too_many_arguments,
    reason = "the problem, its settings and observers"
)]
fn grade_problem(
    package: &Package,
    entries: &[&Entry],
    config: &JudgeConfig,
    settings: &Settings,
    all_tests: bool,
    mut resume: Option<&mut Resume>,
    cancel: &Cancellation,
    on_event: &mut dyn FnMut(ClassEvent<'_>),
) -> Result<ProblemGraded, GradingError> {
    let problem = &**package.problem();
    // Random tests are in no group: such a grade is scored pass-fail.
    let groups = package.groups().filter(|_| config.random_tests == 0);
    if package.groups().is_some() && groups.is_none() {
        on_event(ClassEvent::Settings(&SettingsWarning::GroupsUnused {
            package: package.id().to_owned(),
            random: config.random_tests,
        }));
    }
    let selection = super::policy::selection(config.layout, all_tests, groups.is_some());
    let which = match selection {
        Selection::Tests(which) => which,
        Selection::Reached => TestsToRun::All,
    };
    let seed = master_seed(None, config, package);
    let package_sha256 = resume::package_sha256(package)?;
    let mut graded = Vec::with_capacity(entries.len());
    let mut not_graded = Vec::new();
    let mut unrunnable_entries: Vec<(&Entry, Unrunnable)> = Vec::new();
    let mut runnable: Vec<Runnable<'_>> = Vec::new();
    for entry in entries {
        match prepare_entry(entry, config) {
            Ok(submission) => {
                // Unreadable or refused now: compiling reports why; never
                // reused. Read as compiling reads it (never a link's target
                // outside its folder).
                let sha256 = runner::read_submission(&entry.path)
                    .ok()
                    .map(|bytes| resume::sha256_hex(&bytes));
                let fingerprint = Fingerprint::new(
                    problem,
                    &package_sha256,
                    &submission,
                    settings,
                    which,
                    seed,
                    config.random_tests,
                )
                .reached_only(selection == Selection::Reached)
                .digest()?;
                let earlier = resume.as_deref_mut().and_then(|resume| {
                    resume.take(
                        &entry.path.display().to_string(),
                        problem.id(),
                        sha256.as_deref(),
                        &fingerprint,
                    )
                });
                match earlier {
                    Some(earlier) => {
                        let reused = GradedResult {
                            student: entry.student.clone(),
                            expected: expected_of(entry),
                            ..earlier
                        };
                        on_event(ClassEvent::Graded);
                        on_event(ClassEvent::Finished(&reused));
                        graded.push(reused);
                    }
                    None => runnable.push(Runnable {
                        entry,
                        submission,
                        sha256,
                        fingerprint,
                    }),
                }
            }
            Err(why) => unrunnable_entries.push((entry, why)),
        }
    }
    // Interrupted before this problem: the results reused above are kept
    // (nothing to run), the rest waits for the next `--resume`.
    if cancel.is_cancelled() {
        not_graded.extend(
            unrunnable_entries
                .iter()
                .map(|(entry, _)| *entry)
                .chain(runnable.iter().map(|runnable| runnable.entry))
                .map(not_graded_entry),
        );
        return Ok(ProblemGraded {
            results: graded,
            not_graded,
        });
    }
    let workspace = Workspace::new()?;
    let tests = runner::load_tests(
        problem,
        Some(FixedTests::Package(package.tests())),
        &package.profiles(),
        config.random_tests,
        seed,
        &workspace,
    )?;
    let scoring = match groups {
        Some(tree) => {
            let names: Vec<&str> = tests.iter().map(|test| test.name.as_str()).collect();
            Some(ScorePlan::new(tree, &names).map_err(|message| {
                GradingError::usage(
                    format!("the test groups of `{}`: {message}", package.id()),
                    None,
                )
            })?)
        }
        None => None,
    };
    let score = |result: &mut SubmissionResult| {
        if let Some(scoring) = &scoring {
            scoring.apply(&tests, result);
        }
    };
    on_event(ClassEvent::Tests(tests.len()));
    for (entry, why) in unrunnable_entries {
        let mut result = unrunnable(entry, config, &why, tests.len(), settings);
        score(&mut result.result);
        on_event(ClassEvent::Graded);
        on_event(ClassEvent::Finished(&result));
        graded.push(result);
    }
    let submissions: Vec<Submission> = runnable
        .iter()
        .map(|runnable| runnable.submission.clone())
        .collect();
    let position: std::collections::HashMap<String, usize> = runnable
        .iter()
        .enumerate()
        .map(|(index, runnable)| (runnable.entry.path.display().to_string(), index))
        .collect();
    // Final as each submission finishes, so the journal has it before the
    // rest of the problem runs; a TLE example's margin re-runs wait until
    // the pool is done (they must not share the machine with other tests).
    let mut finished: Vec<Option<GradedResult>> = vec![None; runnable.len()];
    let mut on_run_event = |event: Event<'_>| {
        on_event(ClassEvent::Run(event));
        let Event::SubmissionFinished { result } = event else {
            return;
        };
        let Some(&index) = position.get(&result.submission) else {
            return;
        };
        let mut graded_result = graded_result(&runnable[index], package, settings, result);
        score(&mut graded_result.result);
        on_event(ClassEvent::Graded);
        if !needs_reruns(&graded_result) {
            graded_result.warnings = close_to_the_limit(&graded_result).into_iter().collect();
            on_event(ClassEvent::Finished(&graded_result));
        }
        finished[index] = Some(graded_result);
    };
    let results = match (&scoring, selection) {
        (Some(gate), Selection::Reached) => runner::run_gated(
            problem,
            &submissions,
            &tests,
            settings,
            gate,
            &workspace,
            cancel,
            &mut on_run_event,
        )?,
        _ => runner::run_selected(
            problem,
            &submissions,
            &tests,
            settings,
            which,
            &workspace,
            cancel,
            &mut on_run_event,
        )?,
    };
    for ((runnable, result), graded_result) in runnable.iter().zip(results).zip(finished) {
        let (Some(_), Some(mut graded_result)) = (result, graded_result) else {
            not_graded.push(not_graded_entry(runnable.entry));
            continue;
        };
        if !needs_reruns(&graded_result) {
            graded.push(graded_result);
            continue;
        }
        // Warnings are part of the result (a resumed report must equal a
        // full run's): a pair interrupted while they were found is not graded.
        match time_limit_warnings(
            problem,
            &runnable.submission,
            &graded_result,
            &tests,
            settings,
            cancel,
        )? {
            Some(warnings) => {
                graded_result.warnings = warnings;
                on_event(ClassEvent::Finished(&graded_result));
                graded.push(graded_result);
            }
            None => not_graded.push(not_graded_entry(runnable.entry)),
        }
    }
    Ok(ProblemGraded {
        results: graded,
        not_graded,
    })
}

/// The graded result of `runnable` from the runner's `result`, warnings
/// not yet found.
fn graded_result(
    runnable: &Runnable<'_>,
    package: &Package,
    settings: &Settings,
    result: &SubmissionResult,
) -> GradedResult {
    let mut result = result.clone();
    // The runner names the engine (`rooks`); reports name the package.
    package.id().clone_into(&mut result.problem);
    let limits = runnable.submission.limits(&settings.limits);
    GradedResult {
        result,
        student: runnable.entry.student.clone(),
        expected: expected_of(runnable.entry),
        time_limit_ms: limits.cpu_time_ms,
        memory_limit_mib: limits.memory_kib / 1024,
        warnings: Vec::new(),
        submission_sha256: runnable.sha256.clone(),
        fingerprint: Some(runnable.fingerprint.clone()),
        reused: false,
    }
}

/// An entry an interrupted run did not grade.
fn not_graded_entry(entry: &Entry) -> NotGraded {
    NotGraded {
        problem: entry.problem.clone(),
        submission: entry.path.display().to_string(),
        student: Some(entry.student.clone()),
    }
}

fn expected_of(entry: &Entry) -> Option<Expected> {
    entry.expected.as_ref().map(|(folder, verdict)| Expected {
        folder: folder.clone(),
        verdict: *verdict,
        also: Vec::new(),
    })
}

/// The language reports name for `path`: its configured one, else
/// `unknown`.
fn language_name(config: &JudgeConfig, path: &Path) -> String {
    config
        .language_for(path)
        .map_or("unknown", |(name, _)| name)
        .to_owned()
}

/// A CE row with `message` as its compile message, for a pair that was not
/// run.
fn not_run(entry: &Entry, language: String, message: String, total: usize) -> SubmissionResult {
    SubmissionResult {
        problem: entry.problem.clone(),
        submission: entry.path.display().to_string(),
        language,
        verdict: Verdict::CompileError,
        passed: 0,
        total,
        compile: CompileResult {
            ok: false,
            message,
            verdict: Some(Verdict::CompileError),
        },
        tests: Vec::new(),
        score: Some(crate::verdict::Points(0.0)),
        max_score: Some(crate::verdict::Points(100.0)),
        groups: Vec::new(),
    }
}

/// A result for a file that was not run, with the reason as its compile
/// message.
fn unrunnable(
    entry: &Entry,
    config: &JudgeConfig,
    why: &Unrunnable,
    total: usize,
    settings: &Settings,
) -> GradedResult {
    GradedResult {
        result: not_run(
            entry,
            language_name(config, &entry.path),
            why.to_string(),
            total,
        ),
        student: entry.student.clone(),
        expected: expected_of(entry),
        time_limit_ms: settings.limits.cpu_time_ms,
        memory_limit_mib: settings.limits.memory_kib / 1024,
        warnings: Vec::new(),
        submission_sha256: None,
        fingerprint: None,
        reused: false,
    }
}

/// A file whose path names no problem this judge knows, or that is not where
/// the layout puts submissions.
fn unknown_problem(entry: &Entry, config: &JudgeConfig) -> GradedResult {
    let message = if entry.problem.is_empty() {
        format!(
            "`{}` is not where layout `{}` puts submissions",
            entry.path.display(),
            config.layout.name()
        )
    } else {
        format!(
            "`{}` is not a problem; known: {}",
            entry.problem,
            crate::config::bundled::known_ids()
        )
    };
    GradedResult {
        result: not_run(entry, language_name(config, &entry.path), message, 0),
        student: entry.student.clone(),
        expected: expected_of(entry),
        time_limit_ms: 0,
        memory_limit_mib: 0,
        warnings: Vec::new(),
        submission_sha256: None,
        fingerprint: None,
        reused: false,
    }
}
