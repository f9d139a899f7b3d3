//! Grading submissions against a problem's tests: load the tests, compile
//! each distinct source once, just before its tests run (`compiled`), run
//! every test under limits, decide verdicts.
//!
//! The runner never prints: it emits [`Event`]s, in test order for any
//! `--jobs`, and returns the results; `report/` renders them. An `Err` from
//! [`run`] means the judge itself failed (exit 3); a submission that fails
//! is a verdict inside an `Ok`. `run_cancellable` stops early on a
//! `Cancellation` and then returns no verdict for what it did not finish.

pub(crate) mod compile;
mod compiled;
pub(crate) mod events;
pub(crate) mod execute;
mod folder_program;
pub mod interactive;
pub(crate) mod java;
mod links;
pub(crate) use links::{data_link_out_of_package, links_out_of_package, resolve_link, LinkScope};
pub(crate) mod program_message;
mod request;
pub(crate) mod schedule;
mod share;
pub(crate) mod termination;
mod tests_load;
mod workspace;

pub(crate) use compile::{missing_toolchain, read_submission, SubmissionRefused};
pub(crate) use events::HOST_OVERLOADED;
pub use events::{
    CompileResult, Event, Excerpt, GroupScore, RandomOrigin, SubmissionResult, TestResult,
    EXCERPT_LIMIT_BYTES,
};
pub(crate) use folder_program::{folder_files, has_scripts};
pub(crate) use request::{Margin, RunRequest};
pub(crate) use tests_load::{generated_test, written_test};
pub use tests_load::{load_tests, FixedTests, TestFault};
pub use workspace::Workspace;

use crate::config::judge::Language;
use crate::config::kattis_constants::Constants;
use crate::config::problem::PackageTest;
use crate::interrupt::Cancellation;
use crate::problems::{self, CheckOptions, Problem};
use crate::sandbox::{Limits, SandboxError};
use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// The judge failed (not a submission): exit 3.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The sandbox could not be set up.
    #[error("failed to set up the sandbox")]
    Sandbox(#[from] SandboxError),
    /// The run's working directory or a test file could not be used.
    #[error("failed to {action} `{}`", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl RunError {
    pub(crate) fn io(action: &'static str, path: &Path, source: std::io::Error) -> Self {
        RunError::Io {
            action,
            path: path.to_owned(),
            source,
        }
    }
}

/// A program to grade.
#[derive(Clone, Debug)]
pub struct Submission {
    /// The file, as given.
    pub path: PathBuf,
    /// How to prepare and run it.
    pub kind: SubmissionKind,
    /// The constants replaced in its files as they are copied to be
    /// compiled: a 2025-09 package's `{{name}}` in its own programs and
    /// example submissions (issue #34), never in a hand-in.
    pub(crate) constants: Option<Arc<Constants>>,
    /// Whose program it is, which decides where its links may lead: said
    /// by whoever made it (a hand-in's, or a package's own program's).
    pub(crate) link_scope: LinkScope,
}

/// How a submission is run.
#[derive(Clone, Debug)]
pub enum SubmissionKind {
    /// A ready executable, run as is.
    Executable,
    /// Source in a configured language.
    Language { name: String, language: Language },
    /// A folder with a `build` and/or a `run` script (the Kattis format's
    /// programs): `build` runs once in a copy of the folder, under the
    /// compile limits and sandbox, and `run` is then the program.
    Scripts,
}

impl Submission {
    /// The hand-in at `path`, run as `kind`, its files copied as they are
    /// (a link among them followed only inside the folder holding it).
    pub fn new(path: PathBuf, kind: SubmissionKind) -> Submission {
        Submission {
            path,
            kind,
            constants: None,
            link_scope: LinkScope::HandIn,
        }
    }

    /// The same program with `constants` replaced in its files.
    pub(crate) fn with_constants(self, constants: Option<Arc<Constants>>) -> Submission {
        Submission { constants, ..self }
    }

    /// The factor its language's `time-factor` puts on the time limits.
    pub(crate) fn time_factor(&self) -> f64 {
        match &self.kind {
            SubmissionKind::Executable | SubmissionKind::Scripts => 1.0,
            SubmissionKind::Language { language, .. } => language.time_factor(),
        }
    }

    /// `limits` with the CPU and wall time scaled by [`Self::time_factor`].
    pub(crate) fn limits(&self, limits: &Limits) -> Limits {
        let factor = self.time_factor();
        let scale = |ms: u64| (ms as f64 * factor).ceil().max(1.0) as u64;
        Limits {
            cpu_time_ms: scale(limits.cpu_time_ms),
            wall_time_ms: scale(limits.wall_time_ms),
            ..*limits
        }
    }

    /// The language name reports show: the configured name, `executable`,
    /// or `build/run` for a folder with those scripts.
    pub(crate) fn language_name(&self) -> &str {
        match &self.kind {
            SubmissionKind::Executable => "executable",
            SubmissionKind::Scripts => "build/run",
            SubmissionKind::Language { name, .. } => name,
        }
    }
}

/// A test's input: the file the program reads and its text for the checker.
#[derive(Clone, Debug)]
pub struct TestInput {
    pub path: PathBuf,
    pub text: String,
}

/// One test. Faults in the judge's own data are kept as [`TestFault`]s and
/// become JE for that test, so one bad file does not stop the others.
#[derive(Clone, Debug)]
pub struct TestCase {
    pub name: String,
    pub input: Result<TestInput, TestFault>,
    /// The answer file's text; `Ok(None)` lets the checker decide alone.
    pub answer: Result<Option<String>, TestFault>,
    pub random: Option<RandomOrigin>,
}

/// Limits and options of a run, resolved from flags and config files.
#[derive(Clone, Debug)]
pub struct Settings {
    pub limits: Limits,
    pub compile_limits: Limits,
    /// Worker threads (at least 1).
    pub jobs: usize,
    pub(crate) check_options: CheckOptions,
}

/// A submission ready to run, or the reason it is not.
#[derive(Clone, Debug)]
pub(crate) struct Prepared {
    pub(crate) compile: CompileResult,
    /// The program and its arguments; `None` when preparation failed.
    pub(crate) program: Option<(PathBuf, Vec<OsString>)>,
    /// Paths the program may read (its own directory).
    read_paths: Vec<PathBuf>,
    /// (path in the judge's temporary folder, the hand-in's own path), most
    /// specific first: what a compile error or a traceback shows is
    /// rewritten with them (issue #17).
    own_paths: Vec<(String, String)>,
}

impl Prepared {
    pub(crate) fn failed(compile: CompileResult) -> Prepared {
        Prepared {
            compile,
            program: None,
            read_paths: Vec::new(),
            own_paths: Vec::new(),
        }
    }
}

/// A package's own program (reference, generator, validator or checker),
/// compiled and ready to run as a [`crate::sandbox::Trust::Tool`].
#[derive(Clone, Debug)]
pub(crate) struct PreparedTool {
    pub(crate) program: PathBuf,
    pub(crate) args: Vec<OsString>,
    pub(crate) read_paths: Vec<PathBuf>,
    /// As [`Prepared`]'s: the compiled copy's paths and the package's own.
    pub(crate) own_paths: Vec<(String, String)>,
}

impl PreparedTool {
    /// What the tool wrote (its traceback, its message) with the package's
    /// own paths in place of its copy's in the judge's temporary folder.
    pub(crate) fn own_bytes(&self, bytes: &[u8]) -> Vec<u8> {
        let text = String::from_utf8_lossy(bytes);
        if !self
            .own_paths
            .iter()
            .any(|(temporary, _)| text.contains(temporary.as_str()))
        {
            return bytes.to_vec();
        }
        compile::with_own_paths(&text, &self.own_paths).into_bytes()
    }
}

/// Compiles a package's program the way a submission is compiled (same
/// languages, same limits); a compile error is the package's fault, so it
/// comes back as a message, never a verdict.
pub(crate) fn prepare_tool(
    sandbox: &mut crate::sandbox::Sandbox,
    program: &Submission,
    dir: &Path,
    settings: &Settings,
) -> Result<PreparedTool, NotCompiled> {
    let prepared = compile::prepare(sandbox, program, dir, settings);
    match prepared.program {
        Some((program, args)) => Ok(PreparedTool {
            program,
            args,
            read_paths: prepared.read_paths,
            own_paths: prepared.own_paths,
        }),
        None => Err(NotCompiled {
            message: prepared.compile.message,
        }),
    }
}

/// A package's program did not compile (the package's fault): what the
/// compile (or its `build` script) said, if anything, after "could not
/// be compiled", which follows the program's label.
#[derive(Debug, thiserror::Error)]
#[error(
    "could not be compiled{}",
    if message.is_empty() { String::new() } else { format!(":\n{message}") }
)]
pub(crate) struct NotCompiled {
    message: String,
}

pub(crate) fn set_mode(path: &Path, mode: u32) -> Result<(), RunError> {
    fs_err::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .map_err(|source| RunError::io("set permissions of", path, source))
}

/// How many workers run tests: what was asked, but never more than the
/// cores the judge may use, since more workers than cores only make every
/// test wait for a core and turn into wall-clock TLEs (issue #8). Returns
/// the count and whether it was capped.
pub(crate) fn cap_jobs(requested: usize, cores: usize) -> (usize, bool) {
    let cores = cores.max(1);
    let requested = requested.max(1);
    if requested > cores {
        (cores, true)
    } else {
        (requested, false)
    }
}

/// The cores this process may use (its CPU affinity and cgroup quota, as
/// the standard library reads them); 1 when unknown.
pub(crate) fn available_cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Compiles every submission once, runs every test of each, and returns one
/// result per submission in the order given. `on_event` sees each step in
/// that order, tests in test order, whatever `settings.jobs` is. No run or
/// compile sees what `hidden` holds (the caller's to gather: the tests'
/// folder, the folders the submissions were handed in from).
pub fn run(
    problem: &dyn Problem,
    submissions: &[Submission],
    tests: &[TestCase],
    settings: &Settings,
    workspace: &Workspace,
    hidden: &std::sync::Arc<crate::sandbox::Hidden>,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<Vec<SubmissionResult>, RunError> {
    let never = Cancellation::new();
    let request = RunRequest {
        problem,
        submissions,
        tests,
        settings,
        workspace,
        hidden,
        cancel: &never,
        margin: None,
    };
    let results = run_cancellable(&request, on_event)?;
    Ok(results.into_iter().flatten().collect())
}

/// Which tests of a submission run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum TestsToRun {
    /// Every test: scores need them (class grading, `judge run`).
    #[default]
    All,
    /// Tests up to the first that fails, in test order: the verdict is then
    /// decided, as problemtools stops (layout `expected`, `grade
    /// --package`). Pro: a TLE example costs one time limit, not one per
    /// test. Con: the result lists no test after the first failure, so its
    /// `passed` counts only the tests before it.
    UntilFirstFailure,
}

/// [`run`], stopping early when `request.cancel` is requested: one entry
/// per submission, `None` for a submission that was not completely graded
/// before the request (it was not compiled, or some of its tests did not
/// finish). Such a submission has no verdict and gets no
/// `SubmissionFinished` event; every `Some` is what an uninterrupted run
/// would have given.
///
/// Submissions with the same bytes, language and file name compile once
/// (see `compiled::compile_groups`).
pub(crate) fn run_cancellable(
    request: &RunRequest<'_>,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<Vec<Option<SubmissionResult>>, RunError> {
    run_selected(request, TestsToRun::All, on_event)
}

/// [`run_cancellable`] running `which` tests of each submission.
///
/// With [`TestsToRun::UntilFirstFailure`] a worker does not start a test
/// that comes after a test of the same submission already known to fail,
/// and a run of such a test already going is ended at once (a test is
/// known to fail when it ended so, or when its run at a margin went past
/// its 1x CPU time). A test later in order may have failed first; that
/// decides nothing: the result keeps
/// exactly the tests up to the first failure in test order, so it is the
/// same for any `--jobs` and any timing.
pub(crate) fn run_selected(
    request: &RunRequest<'_>,
    which: TestsToRun,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<Vec<Option<SubmissionResult>>, RunError> {
    let stop = match which {
        TestsToRun::All => Stop::Never,
        TestsToRun::UntilFirstFailure => Stop::FirstFailure,
    };
    run_stopping(request, stop, false, on_event)
}

/// [`run_cancellable`] with each test run alone: no other run of the
/// process beside it (a TLE example's margin re-run, whose CPU time must
/// not lose to a neighbour's).
pub(crate) fn run_alone(
    request: &RunRequest<'_>,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<Vec<Option<SubmissionResult>>, RunError> {
    run_stopping(request, Stop::Never, true, on_event)
}

/// Which tests judging reaches, for problems whose groups stop at their
/// first rejection (`on_reject: break`, see `crate::grading::score`).
pub(crate) trait TestGate: Sync {
    /// Whether `test` is reached when the tests before it ended as `known`
    /// says (`known[i]`: test `i`'s verdict, `None` when not known or not
    /// run). Taking an unknown test as accepted must never skip a test
    /// that the real verdicts reach.
    fn reached(&self, test: usize, known: &[Option<crate::verdict::Verdict>]) -> bool;
}

/// [`run_cancellable`] running, of each submission, only the tests `gate`
/// says are reached. As with [`TestsToRun::UntilFirstFailure`], a worker
/// skips a test once it is surely not reached, and the result keeps
/// exactly the tests reached given the verdicts in test order, for any
/// `--jobs`.
pub(crate) fn run_gated(
    request: &RunRequest<'_>,
    gate: &dyn TestGate,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<Vec<Option<SubmissionResult>>, RunError> {
    run_stopping(request, Stop::Gate(gate), false, on_event)
}

/// Which tests of a submission run (see [`TestsToRun`], [`TestGate`]).
#[derive(Clone, Copy)]
enum Stop<'a> {
    Never,
    FirstFailure,
    Gate(&'a dyn TestGate),
}

#[expect(
    clippy::too_many_lines,
    reason = "one pool of compiles and tests, and their hand-back in order"
)]
fn run_stopping(
    request: &RunRequest<'_>,
    stop: Stop<'_>,
    alone: bool,
    on_event: &mut dyn FnMut(Event<'_>),
) -> Result<Vec<Option<SubmissionResult>>, RunError> {
    let RunRequest {
        problem,
        submissions,
        tests,
        settings,
        workspace,
        hidden,
        cancel,
        margin,
    } = *request;
    let mut directories = Vec::with_capacity(submissions.len());
    for index in 0..submissions.len() {
        let dir = workspace.path().join(format!("submission-{}", index + 1));
        fs_err::create_dir(&dir).map_err(|source| RunError::io("create", &dir, source))?;
        set_mode(&dir, 0o755)?;
        directories.push(dir);
    }
    let names: Vec<String> = submissions
        .iter()
        .map(|submission| submission.path.display().to_string())
        .collect();

    // One pool for the compiles and the tests: each submission compiled
    // shortly before its tests (issue 32), so results are final as the
    // grade goes, not only after every submission compiled.
    let first_of_group = compiled::compile_groups(submissions);
    let items = compiled::interleave(&first_of_group, tests.len(), settings.jobs.max(1));
    let compiled = compiled::Compiled::new(submissions.len());
    let mut results: Vec<SubmissionResult> = submissions
        .iter()
        .zip(&names)
        .map(|(submission, name)| SubmissionResult {
            problem: problem.id().to_owned(),
            submission: name.clone(),
            language: submission.language_name().to_owned(),
            verdict: crate::verdict::Verdict::Accepted,
            passed: 0,
            total: tests.len(),
            // Set when the compile is announced; an unannounced one (an
            // interrupted run) is never reported.
            compile: CompileResult::not_run(),
            tests: Vec::with_capacity(tests.len()),
            score: None,
            max_score: None,
            groups: Vec::new(),
        })
        .collect();
    // The compile of each submission as its tests see it (its group's), or
    // `None` while not compiled.
    let prepared_of = |index: usize| compiled.get(first_of_group[index]);
    // The compiles announced so far, in submission order (each before the
    // submission's first test and its result).
    let mut announced = 0;
    let mut announce_until =
        |results: &mut Vec<SubmissionResult>, upto: usize, on_event: &mut dyn FnMut(Event<'_>)| {
            // While the run goes every compile up to `upto` has finished; at
            // its end after a stop, one that did not is never told.
            while announced < upto {
                if let Some(prepared) = prepared_of(announced) {
                    results[announced].compile = prepared.compile.clone();
                    on_event(Event::CompileFinished {
                        submission: &names[announced],
                        compile: &prepared.compile,
                    });
                }
                announced += 1;
            }
        };
    // Per submission: the test items handed back so far (run or skipped),
    // and the first failing test in test order a worker has seen (only
    // ever lowered; `usize::MAX` while none).
    let mut handed_back = vec![0usize; submissions.len()];
    let first_failure: Vec<AtomicUsize> = (0..submissions.len())
        .map(|_| AtomicUsize::new(usize::MAX))
        .collect();
    // Complete: prepared, and either not runnable (CE, JE) or every test
    // handed back. Only an interrupted run has incomplete submissions.
    let complete = |index: usize, handed_back: &[usize]| {
        prepared_of(index)
            .is_some_and(|prepared| prepared.program.is_none() || handed_back[index] == tests.len())
    };
    let mut finished = vec![false; submissions.len()];
    let mut next_to_finish = 0;
    let mut finish_until = |results: &mut Vec<SubmissionResult>,
                            handed_back: &[usize],
                            finished: &mut Vec<bool>,
                            upto: usize,
                            on_event: &mut dyn FnMut(Event<'_>)| {
        while next_to_finish < upto {
            if complete(next_to_finish, handed_back) {
                let result = &mut results[next_to_finish];
                result.verdict = SubmissionResult::overall(&result.compile, &result.tests);
                result.passed = result
                    .tests
                    .iter()
                    .filter(|test| test.verdict.is_accepted())
                    .count();
                result.score = Some(result.pass_fail_score());
                result.max_score = Some(crate::verdict::Points(100.0));
                on_event(Event::SubmissionFinished { result });
                finished[next_to_finish] = true;
            }
            next_to_finish += 1;
        }
    };
    // Per submission, for a gate: the verdicts workers have seen so far
    // (any order), and those kept in test order at hand-back.
    let seen: Vec<std::sync::Mutex<Vec<Option<crate::verdict::Verdict>>>> = (0..submissions.len())
        .map(|_| std::sync::Mutex::new(vec![None; tests.len()]))
        .collect();
    let mut kept: Vec<Vec<Option<crate::verdict::Verdict>>> =
        vec![vec![None; tests.len()]; submissions.len()];
    let runs_alone: Vec<std::sync::atomic::AtomicUsize> = (0..submissions.len())
        .map(|_| std::sync::atomic::AtomicUsize::new(0))
        .collect();
    schedule::run_ordered_watched(
        settings.jobs,
        workspace.path(),
        hidden,
        &items,
        cancel,
        |sandbox, &item| {
            let (index, test) = match item {
                compiled::Item::Compile(index) => {
                    // A compile is a run too: within `jobs`, and never
                    // beside a run alone of another problem.
                    let prepared = share::ALONE.shared(|| {
                        share::SLOTS.with(settings.jobs, || {
                            compile::prepare(
                                sandbox,
                                &submissions[index],
                                &directories[index],
                                settings,
                            )
                        })
                    });
                    // One that ends after a stop may have been cut short:
                    // not a compile's result, so never kept (as a test's).
                    if !cancel.is_cancelled() {
                        compiled.set(index, prepared);
                    }
                    return None;
                }
                compiled::Item::Test(index, test) => (index, test),
            };
            // Its compile may still be running on another worker (a stop
            // may have dropped it: then the test is not run either).
            let prepared = compiled.wait(first_of_group[index], cancel)?;
            // Nothing to run where it did not compile.
            prepared.program.as_ref()?;
            // Whether the test is surely not reached, from what workers
            // have seen: then it is not started, and a run of it already
            // going is ended (`abandon`), as its result would be dropped.
            let not_reached = || match stop {
                Stop::Never => false,
                Stop::FirstFailure => first_failure[index].load(Ordering::SeqCst) < test,
                Stop::Gate(gate) => {
                    let known = seen[index]
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .clone();
                    !gate.reached(test, &known)
                }
            };
            if not_reached() {
                return None;
            }
            // A margin run going past its 1x CPU time (or wall clock, when
            // no run alone may follow) has its 1x verdict, TLE, from that
            // moment: later tests need not wait for its end at the margin.
            let crossed = |crossing: &crate::sandbox::Crossing| {
                if !execute::crossing_decides(crossing) {
                    return;
                }
                first_failure[index].fetch_min(test, Ordering::SeqCst);
                if let Some(slot) = seen[index]
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .get_mut(test)
                {
                    slot.get_or_insert(crate::verdict::Verdict::TimeLimitExceeded);
                }
            };
            let watch = crate::sandbox::Watch {
                abandon: &not_reached,
                crossed: &crossed,
            };
            let watch = (!matches!(stop, Stop::Never)).then_some(&watch);
            let limits = submissions[index].limits(&settings.limits);
            let raised = margin.and_then(|margin| margin.limits_for(index, &submissions[index]));
            let run = |sandbox: &mut crate::sandbox::Sandbox| {
                execute::run_test(
                    sandbox,
                    problem,
                    prepared,
                    &tests[test],
                    &execute::TestLimits {
                        one_x: &limits,
                        raised: raised.as_ref(),
                    },
                    settings,
                    watch,
                )
            };
            // Every run of the process counts against `jobs` (problems
            // graded side by side share the cores); a run asked for alone
            // has the machine to itself.
            let first = if alone {
                share::ALONE.exclusive(|| run(sandbox))
            } else {
                share::ALONE.shared(|| share::SLOTS.with(settings.jobs, || run(sandbox)))
            }?;
            let (result, at_margin) =
                execute::alone_if_unfair(first, &limits, &runs_alone[index], || {
                    share::ALONE.exclusive(|| run(sandbox))
                })?;
            if let (Some(margin), Some(at_margin)) = (margin, at_margin) {
                margin.note(index, test, at_margin == request::AtMargin::Passed);
            }
            if !result.verdict.is_accepted() {
                first_failure[index].fetch_min(test, Ordering::SeqCst);
            }
            if let Some(slot) = seen[index]
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .get_mut(test)
            {
                *slot = Some(result.verdict);
            }
            Some(result)
        },
        |handed| {
            let (position, result) = match handed {
                schedule::Handed::Output(position, result) => (position, result),
                schedule::Handed::Started(position) | schedule::Handed::Ended(position) => {
                    // A test (a compile is not told as running). It may be
                    // taken before its compile ends, so whether it runs
                    // anything is not known yet: each is told, started and
                    // ended (one of a submission that did not compile ends
                    // at once).
                    if let Some(&compiled::Item::Test(index, _)) = items.get(position) {
                        on_event(Event::TestRunning {
                            submission: &names[index],
                            started: matches!(handed, schedule::Handed::Started(_)),
                        });
                    }
                    return;
                }
            };
            let compiled::Item::Test(index, test) = items[position] else {
                // A compile: told with its submission's first test, in
                // submission order.
                return;
            };
            // Every compile before this item in order has finished, which
            // is every compile of this submission and the ones before it.
            announce_until(&mut results, index + 1, on_event);
            // Submissions before this one (and any that did not compile)
            // are complete once a later submission's test arrives.
            finish_until(&mut results, &handed_back, &mut finished, index, on_event);
            handed_back[index] += 1;
            // In test order, so a failure already kept means the verdict
            // is decided: what comes after it is dropped, run or not. A
            // test is only skipped after a failure earlier in order, which
            // arrives first.
            let decided = match stop {
                Stop::Never => false,
                Stop::FirstFailure => results[index]
                    .tests
                    .last()
                    .is_some_and(|test| !test.verdict.is_accepted()),
                Stop::Gate(gate) => !gate.reached(test, &kept[index]),
            };
            if let (Some(result), false) = (result, decided) {
                if let Some(slot) = kept[index].get_mut(test) {
                    *slot = Some(result.verdict);
                }
                on_event(Event::TestFinished {
                    submission: &names[index],
                    test: &result,
                });
                results[index].tests.push(result);
            }
        },
    )?;
    // Only a stop leaves a submission uncompiled; an uninterrupted run
    // that did is the judge's fault.
    if !cancel.is_cancelled() {
        for (index, &first) in first_of_group.iter().enumerate() {
            if prepared_of(index).is_none() {
                compiled.set(
                    first,
                    Prepared::failed(CompileResult::failed(
                        crate::verdict::Verdict::JudgeError,
                        "the submission was not compiled".to_owned(),
                    )),
                );
            }
        }
    }
    announce_until(&mut results, submissions.len(), on_event);
    finish_until(
        &mut results,
        &handed_back,
        &mut finished,
        submissions.len(),
        on_event,
    );
    Ok(results
        .into_iter()
        .zip(finished)
        .map(|(result, finished)| finished.then_some(result))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    #[test_case(1, 2, (1, false) ; "under")]
    #[test_case(2, 2, (2, false) ; "equal")]
    #[test_case(8, 2, (2, true) ; "capped")]
    #[test_case(0, 2, (1, false) ; "zero is one")]
    #[test_case(4, 0, (1, true) ; "unknown cores is one")]
    fn caps_jobs_at_the_cores(requested: usize, cores: usize, expected: (usize, bool)) {
        assert_eq!(cap_jobs(requested, cores), expected);
    }
}
