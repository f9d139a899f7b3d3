//! `judge run`'s grading: submissions against one package's tests (or a
//! `--tests` folder) and random tests, into a typed report.

use super::settings::{self, master_seed, random_tests, Overrides, RandomFrom, Resolved};
use super::submission::classify;
use super::GradingError;
use crate::config::judge::JudgeConfig;
use crate::interrupt::{Cancellation, Signal};
use crate::package::Package;
use crate::report::json::{NotGraded, TestSelection};
use crate::runner::{self, Event, FixedTests, Submission, SubmissionResult, Workspace};
use std::path::{Path, PathBuf};

/// What `judge run` was asked for.
#[derive(Clone, Debug, Default)]
pub(crate) struct RunRequest {
    pub submissions: Vec<PathBuf>,
    /// `--tests DIR`, run instead of the package's tests.
    pub tests: Option<PathBuf>,
    /// `--random N`.
    pub random: Option<u32>,
    /// `--seed S`.
    pub seed: Option<u64>,
    pub(crate) overrides: Overrides,
}

/// Something about the plan the user should hear before it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RunNote {
    /// `--random N` asked for random tests of a package with no generator.
    NoGenerator { package: String },
}

impl std::fmt::Display for RunNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunNote::NoGenerator { package } => {
                write!(f, "`{package}` has no generator: no random tests")
            }
        }
    }
}

/// A run ready to start: the submissions classified, the settings resolved.
#[derive(Debug)]
pub(crate) struct RunPlan<'a> {
    pub package: &'a Package,
    pub submissions: Vec<Submission>,
    pub tests: Option<PathBuf>,
    pub random: u32,
    pub random_from: RandomFrom,
    pub seed: u64,
    pub resolved: Resolved,
    pub notes: Vec<RunNote>,
}

/// Checks `request` against `package` and `config` and resolves what runs;
/// a submission that cannot run or a missing `--tests` folder is a usage
/// error, before anything runs.
pub(crate) fn plan<'a>(
    request: &RunRequest,
    config: &JudgeConfig,
    package: &'a Package,
) -> Result<RunPlan<'a>, GradingError> {
    let submissions = request
        .submissions
        .iter()
        .map(|path| classify(path, config))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(dir) = &request.tests {
        if !dir.is_dir() {
            return Err(GradingError::usage(
                format!("the tests folder `{}` does not exist", dir.display()),
                None,
            ));
        }
    }
    let mut notes = Vec::new();
    let (random, random_from) = if package.problem.has_generator() {
        random_tests(request.tests.is_some(), request.random, config)
    } else {
        if request.random.is_some_and(|count| count > 0) {
            notes.push(RunNote::NoGenerator {
                package: package.id.clone(),
            });
        }
        (0, RandomFrom::None)
    };
    Ok(RunPlan {
        package,
        submissions,
        tests: request.tests.clone(),
        random,
        random_from,
        seed: master_seed(request.seed, config, package),
        resolved: settings::resolve(&request.overrides, config, package),
        notes,
    })
}

/// What a run graded.
#[derive(Debug)]
pub(crate) struct RunReport {
    /// One per submission that finished, in the order given.
    pub results: Vec<SubmissionResult>,
    /// Submissions an interruption left ungraded.
    pub not_graded: Vec<NotGraded>,
    pub selection: TestSelection,
    /// The signal that stopped the run, if one did.
    pub(crate) stopped_by: Option<Signal>,
    /// How many submissions were asked for.
    pub asked: usize,
}

/// Runs `plan`: loads the tests, grades every submission (`on_event` sees
/// each step, in order), and names the package in the results.
pub(crate) fn run(
    plan: &RunPlan<'_>,
    cancel: &Cancellation,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<RunReport, GradingError> {
    let package = plan.package;
    let problem = &*package.problem;
    let fixed = match &plan.tests {
        Some(dir) => FixedTests::Folder(dir),
        None => FixedTests::Package(&package.tests),
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
        return Err(GradingError::usage(
            format!(
                "no tests for `{}`: the tests folder is empty and no random tests",
                package.id
            ),
            Some("pass `--random N`".to_owned()),
        ));
    }
    let selection = TestSelection {
        fixed: match &plan.tests {
            Some(dir) => dir.display().to_string(),
            None => format!("package {}", package.id),
        },
        fixed_count: tests.len() - plan.random as usize,
        random: plan.random,
        random_from: plan.random_from,
    };
    let outcome = runner::run_cancellable(
        problem,
        &plan.submissions,
        &tests,
        &plan.resolved.settings,
        &workspace,
        cancel,
        on_event,
    )?;
    drop(workspace);
    let mut results = Vec::with_capacity(outcome.len());
    let mut not_graded = Vec::new();
    for (submission, result) in plan.submissions.iter().zip(outcome) {
        match result {
            Some(mut result) => {
                // The runner names the engine (`rooks`); reports name the
                // package (`rooks-large`).
                result.problem.clone_from(&package.id);
                results.push(result);
            }
            None => not_graded.push(NotGraded {
                problem: package.id.clone(),
                submission: display(&submission.path),
                student: None,
            }),
        }
    }
    Ok(RunReport {
        results,
        not_graded,
        selection,
        stopped_by: cancel.signal(),
        asked: plan.submissions.len(),
    })
}

fn display(path: &Path) -> String {
    path.display().to_string()
}
