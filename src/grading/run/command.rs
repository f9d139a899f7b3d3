//! `judge run`: submissions against one package's tests (or a `--tests`
//! folder) and random tests, into a [`Run`]; the command's one call
//! ([`run`]: the checks, the grading, the reports and what it says).

use super::{InvalidInput, RandomAskedBy, RecordedIsolation, Run, TestsRun};
use crate::config::judge::JudgeConfig;
use crate::exit::Outcome;
use crate::grading::class::ClassEvent;
use crate::grading::console::Console;
use crate::grading::progress::Progress;
use crate::grading::score::{groups_go_unused, groups_unused, ScorePlan};
use crate::grading::settings::{self, master_seed, random_tests, Overrides, Resolved};
use crate::grading::submission::classify;
use crate::grading::usage::{NoTestsIn, UsageError};
use crate::grading::{CommandError, GradingError};
use crate::interrupt::{Cancellation, Signal};
use crate::package::Package;
use crate::report;
use crate::report::json::BeforeTests;
use crate::report::targets::Targets;
use crate::runner::{self, Event, FixedTests, LinkScope, Submission, SubmissionResult, Workspace};
use crate::sandbox::{DataFolder, Hidden, Isolation};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What `judge run` was asked for.
#[derive(Clone, Debug, Default)]
pub(crate) struct RunRequest {
    pub(crate) submissions: Vec<PathBuf>,
    /// `--tests DIR`, run instead of the package's tests.
    pub(crate) tests: Option<PathBuf>,
    /// `--random N`.
    pub(crate) random: Option<u32>,
    /// `--seed S`.
    pub(crate) seed: Option<u64>,
    pub(crate) overrides: Overrides,
    /// A platform's results file is asked for (`--gradescope`, ...): the
    /// run grades what the platform's autograder grades.
    pub(crate) platform: bool,
}

/// Something about the plan the user should hear before it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RunNote {
    /// `--random N` asked for random tests of a package with no generator.
    NoGenerator { package: String },
    /// The package scores by test groups, but the run's tests are not
    /// (only) its own: it is scored as the percent of tests passed.
    GroupsUnused { package: String },
    /// A `--tests` input the package's validator rejects: it still runs.
    InvalidTest { package: String, test: InvalidInput },
}

impl RunNote {
    /// The line to show, with its `note:` or `warning:` prefix.
    pub(crate) fn line(&self) -> String {
        match self {
            RunNote::NoGenerator { .. } | RunNote::GroupsUnused { .. } => format!("note: {self}"),
            RunNote::InvalidTest { .. } => format!("warning: {self}"),
        }
    }
}

impl std::fmt::Display for RunNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunNote::NoGenerator { package } => {
                write!(f, "`{package}` has no generator: no random tests")
            }
            RunNote::GroupsUnused { package } => f.write_str(&groups_unused(package, None)),
            RunNote::InvalidTest { package, test } => write!(
                f,
                "`{}` is not a valid input of `{package}`: {}; it runs, but its verdict says \
                 nothing about the problem",
                crate::report::human::visible_name(&test.file),
                test.reason
            ),
        }
    }
}

/// A run ready to start: the submissions classified, the settings resolved.
#[derive(Debug)]
pub(crate) struct RunPlan<'a> {
    pub(crate) package: &'a Package,
    pub(crate) submissions: Vec<Submission>,
    pub(crate) tests: Option<PathBuf>,
    pub(crate) random: u32,
    pub(crate) random_asked_by: RandomAskedBy,
    pub(crate) seed: u64,
    pub(crate) resolved: Resolved,
    pub(crate) notes: Vec<RunNote>,
    /// The `--tests` inputs the package's validator rejects.
    pub(crate) invalid: Vec<InvalidInput>,
    /// What no run or compile may see (the package's programs' too): the
    /// package's secret folders, the `--tests` folder, the folder each
    /// submission was handed in from.
    pub(crate) hidden: Arc<Hidden>,
}

impl RunPlan<'_> {
    /// Who the run is of: each submission's student as the reports name it
    /// ([`crate::discovery::student_from_path`]).
    pub(crate) fn students(&self) -> Vec<String> {
        self.submissions
            .iter()
            .map(|submission| {
                crate::discovery::student_from_path(&display(&submission.path), self.package.id())
            })
            .collect()
    }
}

/// Whether a run's tests are the package's own only: no `--tests`
/// folder, no random tests (which no group names).
fn own_tests_only(tests_folder: bool, random: u32) -> bool {
    !tests_folder && random == 0
}

/// Checks `request` against `package` and `config` and resolves what runs;
/// a submission that cannot run or a missing `--tests` folder is a usage
/// error, before anything runs. What the run hides is gathered here and
/// given to the package's programs before its validator reads a `--tests`
/// input.
pub(crate) fn plan<'a>(
    request: &RunRequest,
    config: &JudgeConfig,
    package: &'a Package,
) -> Result<RunPlan<'a>, GradingError> {
    let submissions = request
        .submissions
        .iter()
        // Programs named on the command line are hand-ins, wherever they
        // are (one in a package's `submissions/` too): their links stay
        // in the folder holding them.
        .map(|path| classify(path, &LinkScope::HandIn, config))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(dir) = &request.tests {
        if !dir.is_dir() {
            return Err(UsageError::NoTestsFolder { path: dir.clone() }.into());
        }
    }
    let mut hidden = crate::grading::hidden::Gathering::new();
    hidden.package(package);
    if let Some(dir) = &request.tests {
        // No run may read the answers there.
        hidden.add(DataFolder::Tests, dir);
    }
    hidden.hand_ins(
        submissions
            .iter()
            .map(|submission| submission.path.as_path()),
    );
    let hidden = hidden.done([package]);
    let invalid = match &request.tests {
        Some(dir) => invalid_inputs(package, dir)?,
        None => Vec::new(),
    };
    let mut notes: Vec<RunNote> = invalid
        .iter()
        .map(|test| RunNote::InvalidTest {
            package: package.id().to_owned(),
            test: test.clone(),
        })
        .collect();
    let (random, random_asked_by) = if package.problem().has_generator() {
        random_tests(
            request.tests.is_some(),
            request.platform,
            request.random,
            config,
        )
    } else {
        if request.random.is_some_and(|count| count > 0) {
            notes.push(RunNote::NoGenerator {
                package: package.id().to_owned(),
            });
        }
        (0, RandomAskedBy::Nobody)
    };
    if groups_go_unused(package, own_tests_only(request.tests.is_some(), random)) {
        notes.push(RunNote::GroupsUnused {
            package: package.id().to_owned(),
        });
    }
    Ok(RunPlan {
        package,
        submissions,
        tests: request.tests.clone(),
        random,
        random_asked_by,
        seed: master_seed(request.seed, config, package),
        resolved: settings::resolve(&request.overrides, config, package),
        notes,
        invalid,
        hidden,
    })
}

/// The `NAME.in` files of `dir` (in name order, as the run takes them) that
/// `package`'s validator rejects, with its reason. A file that cannot be
/// read is left out here: the run makes it JE on its test.
fn invalid_inputs(package: &Package, dir: &Path) -> Result<Vec<InvalidInput>, GradingError> {
    let inputs = crate::test_files::list(dir).map_err(|error| UsageError::ReadTestsFolder {
        path: dir.to_owned(),
        error,
    })?;
    let mut invalid = Vec::new();
    for test in inputs {
        let Some(text) = crate::data_file::read(&test.input, crate::data_file::MAX_TEST_BYTES)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
        else {
            continue;
        };
        if let Err(error) = package.validate(&text) {
            invalid.push(InvalidInput {
                file: display(&test.input),
                name: test.name,
                reason: error.to_string(),
            });
        }
    }
    Ok(invalid)
}

/// What a run graded, and how it ended.
#[derive(Debug)]
pub(crate) struct Finished {
    /// What its reports hold.
    pub(crate) run: Run,
    /// The signal that stopped the run, if one did (the run is
    /// `interrupted` then).
    pub(crate) stopped_by: Option<Signal>,
    /// How many submissions were asked for.
    pub(crate) asked: usize,
}

/// What `judge run` was given.
#[derive(Debug)]
pub(crate) struct RunCommand<'a> {
    /// `--config FILE`.
    pub(crate) config: Option<&'a Path>,
    /// `--problems-dir DIR`.
    pub(crate) problems_dir: Option<&'a Path>,
    /// The problem id.
    pub(crate) problem: &'a str,
    /// The submissions, tests, random tests, seed and limits; whether it
    /// grades as a platform does is decided here, from `reports`.
    pub(crate) request: RunRequest,
    /// `--json FILE` and the report files asked for.
    pub(crate) reports: Targets<'a>,
}

/// `judge run`, in its order: the report paths checked (none among the
/// submissions; a platform's file that could not be written refused), the
/// configuration and the package loaded, the plan ([`plan`]: a platform's
/// file of several students refused) and its notes and warnings, the
/// grading with its progress and each submission's tests (unless a report
/// takes stdout), the reports written ([`crate::grading::reports::write_run`]),
/// then the host-load warning and the summary, or what an interruption
/// left. Returns how the run came out ([`Finished::outcome`]).
pub(crate) fn run(
    command: RunCommand<'_>,
    console: &mut dyn Console,
) -> Result<Outcome, CommandError> {
    let RunCommand {
        config,
        problems_dir,
        problem,
        mut request,
        reports,
    } = command;
    reports.check()?;
    let submission_paths: Vec<&Path> = request.submissions.iter().map(PathBuf::as_path).collect();
    reports.refuse_among(&submission_paths)?;
    crate::grading::reports::refuse_unwritable_platforms(&reports.files)?;
    let config = JudgeConfig::load_or_defaults(config)?;
    let json_to_stdout = reports.any_to_stdout();
    // Before the package loads: its validator checks its tests then, and
    // the `--tests` inputs next; a signal must stop those programs too and
    // still leave the reports (issue #34).
    let cancel = Cancellation::on_signals()?;
    let loaded = Package::load_with(problems_dir, problem, Some(&config));
    // A signal makes what it cut short fail (a validator killed): the
    // interruption is what ends the run, not that failure.
    let outcome = match loaded {
        _ if cancel.is_cancelled() => {
            stopped_before_tests(&request, problem, BeforeTests::LoadingPackage, &cancel)
        }
        Err(error) => return Err(error.into()),
        Ok(package) => {
            request.platform = crate::grading::reports::asks_platform(&reports.files);
            let planned = plan(&request, &config, &package);
            if cancel.is_cancelled() {
                // The one program a plan runs: the validator over `--tests`.
                stopped_before_tests(&request, problem, BeforeTests::ValidatingTests, &cancel)
            } else {
                let plan = planned?;
                // A one-student platform file of several students: refused
                // before anything runs.
                crate::grading::reports::refuse_several_students(&reports.files, &plan.students())?;
                for note in &plan.notes {
                    console.say(&note.line());
                }
                for warning in &plan.resolved.warnings {
                    console.warn(warning);
                }
                console.announce_isolation();
                console.start_progress(false);
                let mut progress = Progress::new();
                let outcome = grade_plan(&plan, &cancel, &mut |event| {
                    progress.observe(&event);
                    console.progress(&progress.line());
                    if let (ClassEvent::Run(Event::SubmissionFinished { result }), false) =
                        (event, json_to_stdout)
                    {
                        let _ = console.write(&report::human::render_submission(result));
                    }
                })?;
                console.end_progress();
                outcome
            }
        }
    };
    crate::grading::reports::write_run(
        &outcome.run,
        reports.json,
        &reports.files.clone().with_config(&config),
    )?;
    if let Some(line) = report::human::host_load_warning(outcome.run.results.iter()) {
        console.say(&line);
    }
    if let Some(signal) = outcome.stopped_by {
        let lines = report::human::run_interrupted(
            signal.name(),
            outcome.run.results.len(),
            outcome.asked,
            &outcome.run.not_graded,
            outcome.run.interrupted_while,
        );
        for line in lines {
            console.say(&line);
        }
    } else if !json_to_stdout {
        let verdicts: Vec<crate::verdict::Verdict> = outcome
            .run
            .results
            .iter()
            .map(|result| result.verdict)
            .collect();
        console
            .write(&report::human::run_summary(
                &outcome.run.describe_tests(),
                &verdicts,
            ))
            .map_err(CommandError::Stdout)?;
    }
    Ok(outcome.outcome())
}

/// What a run stopped by a signal before any test ran (issue #34), while
/// `doing`, comes to: no result, every submission of `request` not graded
/// (its student the one its path names, as for any run), no tests said.
fn stopped_before_tests(
    request: &RunRequest,
    problem: &str,
    doing: BeforeTests,
    cancel: &Cancellation,
) -> Finished {
    Finished {
        run: Run {
            isolation: Some(RecordedIsolation::InForce(Isolation::detect().clone())),
            interrupted: true,
            interrupted_while: Some(doing),
            not_graded: request
                .submissions
                .iter()
                .map(|path| crate::grading::grade::unrecorded(problem.to_owned(), display(path)))
                .collect(),
            tests: None,
            results: Vec::new(),
        },
        stopped_by: Some(cancel.signal().unwrap_or(Signal::Interrupt)),
        asked: request.submissions.len(),
    }
}

/// Runs `plan`: loads the tests, grades every submission (`on_event` sees
/// each step, in order, as a class's observer does: the problem, the
/// number of tests, the runner's events, each submission graded), and
/// names the package in the results.
fn grade_plan(
    plan: &RunPlan<'_>,
    cancel: &Cancellation,
    on_event: &mut dyn FnMut(ClassEvent<'_>),
) -> Result<Finished, GradingError> {
    let package = plan.package;
    let problem = &**package.problem();
    let fixed = match &plan.tests {
        Some(dir) => FixedTests::Folder(dir),
        None => FixedTests::Package(package.tests()),
    };
    let workspace = Workspace::new()?;
    let tests = runner::load_tests(
        problem,
        Some(fixed),
        &package.profiles(),
        plan.random,
        plan.seed,
        &workspace,
    )?;
    if tests.is_empty() {
        return Err(UsageError::NoTests {
            id: package.id().to_owned(),
            missing: NoTestsIn::TestsFolder,
        }
        .into());
    }
    let tests_run = TestsRun {
        fixed: match &plan.tests {
            Some(dir) => dir.display().to_string(),
            None => format!("package {}", package.id()),
        },
        fixed_count: tests.len() - plan.random as usize,
        random: plan.random,
        random_asked_by: plan.random_asked_by,
        invalid: plan.invalid.clone(),
    };
    // Scored by the groups when the tests are the package's own (the
    // groups name no other test).
    let scoring = ScorePlan::for_package(
        package,
        &tests,
        own_tests_only(plan.tests.is_some(), plan.random),
    )?;
    // A scored package on other tests: one group of them all, so the run
    // shows its score (the percent of tests passed) as a scored run does.
    let percent_group = match (&package.groups(), &scoring) {
        (Some(_), None) => Some(tests.iter().map(|test| test.name.clone()).collect()),
        _ => None,
    };
    on_event(ClassEvent::Pairs(plan.submissions.len()));
    on_event(ClassEvent::Problem(package.id()));
    on_event(ClassEvent::Tests(tests.len()));
    let mut on_run_event = |event: Event<'_>| {
        match (event, &scoring) {
            (Event::SubmissionFinished { result }, Some(scoring)) => {
                let mut scored = result.clone();
                scoring.apply(&tests, &mut scored);
                on_event(ClassEvent::Run(Event::SubmissionFinished {
                    result: &scored,
                }));
            }
            (Event::SubmissionFinished { result }, None) if percent_group.is_some() => {
                let mut scored = result.clone();
                score_as_percent(percent_group.as_ref(), &mut scored);
                on_event(ClassEvent::Run(Event::SubmissionFinished {
                    result: &scored,
                }));
            }
            (event, _) => on_event(ClassEvent::Run(event)),
        }
        if let Event::SubmissionFinished { .. } = event {
            on_event(ClassEvent::Graded);
        }
    };
    let request = runner::RunRequest {
        problem,
        submissions: &plan.submissions,
        tests: &tests,
        settings: &plan.resolved.settings,
        workspace: &workspace,
        hidden: &plan.hidden,
        cancel,
        margin: None,
    };
    let outcome = runner::run_cancellable(&request, &mut on_run_event)?;
    drop(workspace);
    let mut results = Vec::with_capacity(outcome.len());
    let mut not_graded = Vec::new();
    for (submission, result) in plan.submissions.iter().zip(outcome) {
        match result {
            Some(mut result) => {
                if let Some(scoring) = &scoring {
                    scoring.apply(&tests, &mut result);
                }
                score_as_percent(percent_group.as_ref(), &mut result);
                // The runner names the engine (`rooks`); reports name the
                // package (`rooks-large`).
                package.id().clone_into(&mut result.problem);
                results.push(result);
            }
            None => not_graded.push(crate::grading::grade::unrecorded(
                package.id().to_owned(),
                display(&submission.path),
            )),
        }
    }
    let stopped_by = cancel.signal();
    Ok(Finished {
        run: Run {
            isolation: Some(RecordedIsolation::InForce(Isolation::detect().clone())),
            interrupted: stopped_by.is_some(),
            interrupted_while: None,
            not_graded,
            tests: Some(tests_run),
            results,
        },
        stopped_by,
        asked: plan.submissions.len(),
    })
}

impl Finished {
    /// How the run came out: interrupted when a signal stopped it, else
    /// [`crate::grading::policy::run_outcome`] of the verdicts.
    pub(crate) fn outcome(&self) -> Outcome {
        crate::grading::policy::run_outcome(&self.run.results).unless_stopped(self.stopped_by)
    }
}

/// The name of the one group a scored package's run on other tests than
/// its own is scored by.
pub(crate) const PERCENT_GROUP: &str = "all tests (percent passed)";

/// A scored package's result on other tests than its own (`--tests`,
/// random tests): its score stays the percent of tests passed, of 100,
/// shown as one group of all the run's tests (`tests`), so every report
/// carries the score as a run on the package's own tests does.
fn score_as_percent(tests: Option<&Vec<String>>, result: &mut SubmissionResult) {
    let Some(tests) = tests else {
        return;
    };
    let score = result.pass_fail_score();
    result.score = Some(score);
    result.max_score = Some(crate::verdict::Points(100.0));
    result.groups = vec![runner::GroupScore {
        name: PERCENT_GROUP.to_owned(),
        score,
        max_score: crate::verdict::Points(100.0),
        verdict: result.verdict,
        tests: tests.clone(),
    }];
}

fn display(path: &Path) -> String {
    path.display().to_string()
}
