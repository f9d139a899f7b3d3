//! Running one test of one prepared submission and deciding its verdict.
//!
//! The order of the decision is fixed: a limit the sandbox saw (OLE, MLE,
//! TLE), then a crash or non-zero exit (RE), and only then the checker, which
//! is not run when the program already failed (DMOJ issue 170).

use super::events::{Excerpt, TestResult, HOST_OVERLOADED};
use super::request::AtMargin;
use super::termination::{
    crash_verdict, limit_verdict, record_run, runtime_stderr, with_refused_call_note, TimeNotes,
};
use super::{Prepared, Settings, TestCase};
use crate::problems::{self, Problem};
use crate::sandbox::{
    Crossing, LimitExceeded, Limits, Measured, RunSpec, Sandbox, SandboxError, Trust, Watch,
};
use crate::verdict::Verdict;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The limits of one test's run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TestLimits<'a> {
    /// The limits its verdict is decided at.
    pub(crate) one_x: &'a Limits,
    /// A TLE example's margin (its CPU time and wall clock above
    /// `one_x`'s): the run goes on to these, and its verdict is still the
    /// one a run at `one_x` gives ([`Sandbox::run_marked`]). Not for an
    /// interactive test, whose runner decides at one set of limits: it
    /// runs at `one_x`.
    pub(crate) raised: Option<&'a Limits>,
}

impl<'a> TestLimits<'a> {
    /// A run at `one_x` alone.
    pub(crate) fn at(one_x: &'a Limits) -> TestLimits<'a> {
        TestLimits {
            one_x,
            raised: None,
        }
    }
}

/// Runs `test` with the prepared program and decides the verdict at
/// `limits.one_x`; with `limits.raised`, also how the same run ended at
/// the margin (`None` when it ran at `one_x` only). A sandbox failure is
/// JE for this test, never the submission's fault.
///
/// With `watch` the run is ended at once when `watch.abandon` says so
/// (`None` comes back: the test is not reached), and a margin's crossing
/// is told as it happens. An interactive test ignores `watch`.
pub(crate) fn run_test(
    sandbox: &mut Sandbox,
    problem: &dyn Problem,
    prepared: &Prepared,
    test: &TestCase,
    test_limits: &TestLimits<'_>,
    settings: &Settings,
    watch: Option<&Watch<'_>>,
) -> Option<(TestResult, Option<AtMargin>)> {
    run_test_watched(
        sandbox,
        problem,
        prepared,
        test,
        test_limits,
        settings,
        watch,
    )
    .ok()
}

/// Whether a margin run's `crossing` of its 1x limit decides its 1x
/// verdict (TLE) as it happens: over the CPU time, always; over the wall
/// clock, unless it may be run again alone ([`alone_if_unfair`], as
/// [`wall_time_only`] tells from the same figures), which may pass.
pub(crate) fn crossing_decides(crossing: &Crossing) -> bool {
    match crossing.limit {
        LimitExceeded::CpuTime => true,
        LimitExceeded::WallTime => crossing.cpu_time_ms.saturating_mul(5) < crossing.wall_time_ms,
        _ => false,
    }
}

/// [`run_test`]; `Err(Abandoned)` when `watch` ended the run.
fn run_test_watched(
    sandbox: &mut Sandbox,
    problem: &dyn Problem,
    prepared: &Prepared,
    test: &TestCase,
    test_limits: &TestLimits<'_>,
    settings: &Settings,
    watch: Option<&Watch<'_>>,
) -> Result<(TestResult, Option<AtMargin>), Abandoned> {
    let limits = test_limits.one_x;
    let mut result = TestResult {
        name: test.name.clone(),
        verdict: Verdict::JudgeError,
        time_ms: 0,
        wall_ms: 0,
        memory_kib: 0,
        exit_code: None,
        signal: None,
        message: String::new(),
        random: test.random.clone(),
        excerpt: None,
        rerun: false,
        cpu_wait_ms: None,
        stderr: None,
        validator_score: None,
    };
    let Some((program, args)) = &prepared.program else {
        result.message = "the submission was not prepared".to_owned();
        return Ok((result, None));
    };
    let input = match &test.input {
        Ok(input) => input,
        Err(fault) => {
            result.message = fault.to_string();
            return Ok((result, None));
        }
    };
    if let Some(session) = problem.engine_session(&input.text) {
        let submission = super::interactive::SubmissionProgram {
            program,
            args,
            read_paths: &prepared.read_paths,
            limits,
        };
        super::interactive::run_engine_test(sandbox, session, &submission, input, &mut result);
        with_own_paths_in_stderr(&mut result, prepared);
        return Ok((result, None));
    }
    if let Some(interactor) = problem.interactor_for_test(&test.name) {
        let interactor = match interactor {
            Ok(interactor) => interactor,
            Err(error) => {
                result.message = error.to_string();
                return Ok((result, None));
            }
        };
        let answer = match &test.answer {
            Ok(answer) => answer.as_deref(),
            Err(fault) => {
                result.message = fault.to_string();
                return Ok((result, None));
            }
        };
        let submission = super::interactive::SubmissionProgram {
            program,
            args,
            read_paths: &prepared.read_paths,
            limits,
        };
        let for_checker = super::interactive::run_test(
            sandbox,
            &interactor,
            &submission,
            input,
            answer,
            &mut result,
        );
        with_own_paths_in_stderr(&mut result, prepared);
        // testlib: the checker reads what the interactor wrote.
        if let Some(output) = for_checker {
            match problem.check_test(
                &test.name,
                &input.text,
                &output,
                answer,
                &settings.check_options,
            ) {
                Ok(outcome) => {
                    result.verdict = outcome.verdict;
                    result.message = outcome.reason;
                    result.validator_score = outcome.score.or(result.validator_score);
                }
                Err(failure) => {
                    result.verdict = Verdict::JudgeError;
                    result.message = failure.to_string();
                }
            }
        }
        return Ok((result, None));
    }
    let spec = RunSpec {
        program: program.clone(),
        args: args.clone(),
        // A file of the run's own workspace, which `tests_load` writes
        // every input into: never a package's file opened again by its
        // name, which a link swapped in after the load could redirect
        // (issue #34).
        stdin: Some(input.path.clone()),
        workdir: None,
        env: Vec::new(),
        read_paths: prepared.read_paths.clone(),
        limits: *test_limits.raised.unwrap_or(limits),
        trust: Trust::Submission,
    };
    let ran = match (test_limits.raised, watch) {
        (Some(_), None) => sandbox.run_marked(&spec, limits).map(|marked| {
            let at_margin = marked.at_margin;
            (marked.at_one_x, Some(at_margin))
        }),
        (Some(_), Some(watch)) => sandbox
            .run_watched(&spec, Some(limits), watch)
            .map(|marked| (marked.at_one_x, Some(marked.at_margin))),
        (None, Some(watch)) => sandbox
            .run_watched(&spec, None, watch)
            .map(|marked| (marked.at_margin, None)),
        (None, None) => sandbox.run(&spec).map(|measured| (measured, None)),
    };
    let (measured, at_margin) = match ran {
        Ok(ran) => ran,
        Err(SandboxError::Abandoned) => return Err(Abandoned),
        Err(error) => {
            result.message = format!("sandbox failure: {error:#}");
            return Ok((result, None));
        }
    };
    record_run(&mut result, &measured);
    let expected = test.answer.as_ref().ok().and_then(Option::as_deref);
    result.excerpt = Some(Excerpt::new(
        input.text.as_bytes(),
        expected.map(str::as_bytes),
        &measured.stdout,
    ));
    let (verdict, message, validator_score) = decide(
        problem,
        &measured,
        test,
        input.text.as_str(),
        limits,
        settings,
    );
    result.stderr = runtime_stderr(verdict, &measured.stderr, measured.stderr_discarded_bytes);
    with_own_paths_in_stderr(&mut result, prepared);
    result.verdict = verdict;
    result.message = with_refused_call_note(verdict, message, &measured.stderr);
    result.validator_score = validator_score;
    // How the run ended at the margin matters only when the 1x verdict is
    // TLE ("passes with more time"); the checker then reads what it wrote
    // by the end. Any other 1x verdict is what the run at the margin got
    // too, since it stayed within 1x's times.
    let at_margin = match (at_margin, test_limits.raised) {
        (Some(at_margin), Some(raised)) if verdict == Verdict::TimeLimitExceeded => {
            let (verdict, _, _) = decide(problem, &at_margin, test, &input.text, raised, settings);
            let mut margin_result = result.clone();
            record_run(&mut margin_result, &at_margin);
            margin_result.verdict = verdict;
            Some(if verdict.is_accepted() {
                AtMargin::Passed
            } else if wall_time_only(&margin_result, raised) {
                AtMargin::WaitedForACore
            } else {
                AtMargin::Failed
            })
        }
        (Some(_), Some(_)) => Some(if verdict.is_accepted() {
            AtMargin::Passed
        } else {
            AtMargin::Failed
        }),
        _ => None,
    };
    Ok((result, at_margin))
}

/// A watched run was ended by its watch: the test is not reached.
struct Abandoned;

/// How many runs alone one submission may get for tests that may have
/// waited for a core beside other runs (issue 18; two since issue 32, as
/// a host loaded by others may starve the first run alone too).
pub(crate) const RUNS_ALONE: usize = 2;

/// The runs alone of a test whose answer may come from waiting for a core
/// beside other runs, at most [`RUNS_ALONE`] per submission (`runs_alone`
/// counts those taken):
///
/// - a TLE from the 1x wall clock alone while the host starved it
///   ([`wall_time_only`]): run alone again while it stays so and runs are
///   left, each result replacing the one before, marked `rerun`; one the
///   host starved to the last stays TLE, its message saying the host was
///   busy and how long it waited ([`host_overloaded`], issue 32);
/// - a TLE example's TLE whose run at the margin ran out of the raised wall
///   clock while it wanted a core ([`AtMargin::WaitedForACore`]): the 1x
///   verdict stands (it was decided by CPU time, which a neighbour does not
///   add to), and only the re-run's margin is taken. This is the one case
///   where a second run changes the margin's answer (the warning); every
///   other margin is decided by the one run.
///
/// A margin still [`AtMargin::WaitedForACore`] after this (alone, or with
/// no run alone left) did not pass: [`AtMargin::Failed`]. `None` when the
/// run alone was abandoned (its test is no longer reached).
pub(crate) fn alone_if_unfair(
    first: (TestResult, Option<AtMargin>),
    limits: &Limits,
    runs_alone: &AtomicUsize,
    mut alone: impl FnMut() -> Option<(TestResult, Option<AtMargin>)>,
) -> Option<(TestResult, Option<AtMargin>)> {
    let settled = |at_margin: Option<AtMargin>| {
        at_margin.map(|at_margin| match at_margin {
            AtMargin::WaitedForACore => AtMargin::Failed,
            other => other,
        })
    };
    let take = || {
        runs_alone
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |taken| {
                (taken < RUNS_ALONE).then_some(taken + 1)
            })
            .is_ok()
    };
    let (mut result, mut at_margin) = first;
    if !wall_time_only(&result, limits) {
        if at_margin == Some(AtMargin::WaitedForACore) && take() {
            let (_, again_at_margin) = alone()?;
            at_margin = again_at_margin;
        }
        return Some((result, settled(at_margin)));
    }
    let mut runs = 0;
    while wall_time_only(&result, limits) && take() {
        let (again, again_at_margin) = alone()?;
        result = again;
        result.rerun = true;
        at_margin = again_at_margin;
        runs += 1;
    }
    if wall_time_only(&result, limits) {
        host_overloaded(&mut result, limits, runs);
    }
    Some((result, settled(at_margin)))
}

/// Words a TLE the host starved, after `runs` runs alone: "the host was
/// busy", how long the program waited for a CPU, and to grade it again on
/// a quieter host. The verdict stays TLE: a program can make itself wait
/// (threads or processes of its own contending for the CPUs, a lowered
/// priority), so a JE here would let any endless loop escape its TLE
/// (issue 32's review); the message and the run's warning tell the
/// teacher instead. It ends with the limit's own words ("wall-clock time
/// exceeded N ms"), which are all a student view keeps of it.
pub(crate) fn host_overloaded(result: &mut TestResult, limits: &Limits, runs: usize) {
    let waited = match result.cpu_wait_ms {
        Some(waited_ms) => format!("waited {waited_ms} ms for a CPU"),
        None => format!("was on a CPU for only {} ms", result.time_ms),
    };
    let alone = match runs {
        0 => "no run alone was left for it".to_owned(),
        1 => "also when run alone".to_owned(),
        runs => format!("also in {runs} runs alone"),
    };
    result.verdict = Verdict::TimeLimitExceeded;
    result.message = format!(
        "{HOST_OVERLOADED}: the program {waited} of its {} ms of wall clock \
         (CPU time {} ms of the {} ms limit), {alone}: wall-clock time exceeded {} ms; \
         grade it again on a quieter host (unless its own threads or processes, \
         more than the CPUs it may use, kept it waiting)",
        result.wall_ms, result.time_ms, limits.cpu_time_ms, limits.wall_time_ms
    );
}

/// An interactive run's stderr excerpt with the hand-in's own paths in
/// place of its copy's, as a run on a file shows it.
fn with_own_paths_in_stderr(result: &mut TestResult, prepared: &Prepared) {
    if let Some(stderr) = result.stderr.take() {
        result.stderr = Some(super::compile::with_own_paths(&stderr, &prepared.own_paths));
    }
}

/// Whether `result` is a TLE from the wall-clock limit alone, its CPU time
/// under the CPU limit, while the host starved it ([`starved`]): the
/// program waited for a core rather than was slow, so it deserves a run
/// alone before the verdict stands. A program that slept or blocked stays
/// TLE at once: a run alone would only cost the wall limit again (issues
/// 18, 32).
pub(crate) fn wall_time_only(result: &TestResult, limits: &Limits) -> bool {
    result.verdict == Verdict::TimeLimitExceeded
        && result.wall_ms >= limits.wall_time_ms
        && result.time_ms < limits.cpu_time_ms
        && starved(result.time_ms, result.wall_ms, result.cpu_wait_ms)
}

/// Whether a run that took `wall_ms` was starved by the host rather than
/// sleeping or blocked: its threads waited for a CPU (runnable, not
/// running) for at least a quarter of its wall clock, and for no more than
/// the wall clock itself (more is threads or processes of its own
/// contending for the CPUs, not the host: a fork bomb waits minutes in
/// seconds). Where the kernel does
/// not say how long it waited (`cpu_wait_ms` is `None`), the old rule: it
/// was on a CPU for at least a fifth of its wall clock (issue 18), which
/// misses a program the host starved harder (issue 32).
pub(crate) fn starved(time_ms: u64, wall_ms: u64, cpu_wait_ms: Option<u64>) -> bool {
    match cpu_wait_ms {
        Some(waited_ms) => waited_ms.saturating_mul(4) >= wall_ms && waited_ms <= wall_ms,
        None => time_ms.saturating_mul(5) >= wall_ms,
    }
}

fn decide(
    problem: &dyn Problem,
    measured: &Measured,
    test: &TestCase,
    input: &str,
    limits: &Limits,
    settings: &Settings,
) -> (Verdict, String, Option<crate::verdict::ValidatorScore>) {
    let (verdict, message) = match decide_limits(measured, limits) {
        Some(decided) => decided,
        None => match &test.answer {
            Ok(answer) => match problems::check_test_bytes(
                problem,
                &test.name,
                input,
                &measured.stdout,
                answer.as_deref(),
                &settings.check_options,
            ) {
                Ok(outcome) => return (outcome.verdict, outcome.reason, outcome.score),
                Err(failure) => (Verdict::JudgeError, format!("checker failure: {failure}")),
            },
            Err(fault) => (Verdict::JudgeError, fault.to_string()),
        },
    };
    (verdict, message, None)
}

/// The verdict of a run that exceeded a limit or crashed; `None` when the
/// checker decides.
fn decide_limits(measured: &Measured, limits: &Limits) -> Option<(Verdict, String)> {
    match measured.limit_exceeded {
        Some(limit) => {
            let granted = super::termination::granted_note(measured.wall_granted_ms);
            let notes = TimeNotes {
                wall: &granted,
                ..TimeNotes::default()
            };
            Some(limit_verdict(limit, limits, measured.cpu_time_ms, &notes))
        }
        None => crash_verdict(measured.termination),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    fn tle(time_ms: u64, wall_ms: u64) -> TestResult {
        TestResult {
            name: "t".to_owned(),
            verdict: Verdict::TimeLimitExceeded,
            time_ms,
            wall_ms,
            memory_kib: 0,
            exit_code: None,
            signal: Some(9),
            message: String::new(),
            random: None,
            excerpt: None,
            rerun: false,
            cpu_wait_ms: None,
            stderr: None,
            validator_score: None,
        }
    }

    const LIMITS: Limits = Limits {
        cpu_time_ms: 1000,
        wall_time_ms: 3000,
        memory_kib: 1,
        stdout_bytes: 1,
        stderr_bytes: 1,
        processes: 1,
        open_files: 1,
        file_size_kib: 1,
        scratch_kib: 1,
    };

    /// A wall-clock TLE of a run given more wall clock for its wait for a
    /// CPU says how much was added; one given none says nothing of it.
    #[test]
    fn a_wall_clock_tle_says_the_wall_clock_added() {
        let timed_out = |wall_granted_ms| Measured {
            termination: crate::sandbox::Termination::Signaled(libc::SIGKILL),
            limit_exceeded: Some(crate::sandbox::LimitExceeded::WallTime),
            cpu_time_ms: 700,
            wall_time_ms: 3000 + wall_granted_ms,
            memory_kib: 1,
            stdout: Vec::new(),
            stderr: Vec::new(),
            stderr_discarded_bytes: 0,
            deadlocked: false,
            run_queue_wait_ms: Some(900),
            wall_granted_ms,
        };
        let (verdict, message) = decide_limits(&timed_out(1200), &LIMITS).unwrap();
        assert_eq!(verdict, Verdict::TimeLimitExceeded);
        assert_eq!(
            message,
            "wall-clock time exceeded 3000 ms (CPU time 700 ms); 1200 ms of wall clock were \
             added to the limit for the time the program waited for a CPU"
        );
        let (_, message) = decide_limits(&timed_out(0), &LIMITS).unwrap();
        assert_eq!(
            message,
            "wall-clock time exceeded 3000 ms (CPU time 700 ms)"
        );
    }

    fn waited(time_ms: u64, wall_ms: u64, cpu_wait_ms: Option<u64>) -> TestResult {
        TestResult {
            cpu_wait_ms,
            ..tle(time_ms, wall_ms)
        }
    }

    // Without the kernel's run-queue wait: the CPU time's share (issue 18).
    #[test_case(700, 3000, None, true ; "waited for a core")]
    #[test_case(100, 3000, None, false ; "slept or blocked")]
    #[test_case(500, 3000, None, false ; "mostly slept")]
    #[test_case(1000, 3000, None, false ; "cpu limit reached")]
    #[test_case(1200, 1300, None, false ; "cpu limit exceeded before the wall")]
    #[test_case(100, 2999, None, false ; "under the wall limit")]
    // With it (issue 32): the share of the wall clock spent waiting.
    #[test_case(541, 3000, Some(2400), true ; "starved by a busy host")]
    #[test_case(50, 3000, Some(2900), true ; "starved harder")]
    #[test_case(584, 3000, Some(750), true ; "a quarter of the wall clock waiting")]
    #[test_case(584, 3000, Some(749), false ; "under a quarter waiting")]
    #[test_case(700, 3000, Some(12), false ; "busy then asleep")]
    #[test_case(0, 3000, Some(0), false ; "a sleep")]
    #[test_case(1000, 3000, Some(2000), false ; "starved but at the cpu limit")]
    #[test_case(715, 3007, Some(19768), false ; "sixty threads of its own contending")]
    #[test_case(80, 3817, Some(199_930), false ; "a fork bomb")]
    fn only_wall_clock_tles_are_rerun(
        time_ms: u64,
        wall_ms: u64,
        cpu_wait_ms: Option<u64>,
        expected: bool,
    ) {
        assert_eq!(
            wall_time_only(&waited(time_ms, wall_ms, cpu_wait_ms), &LIMITS),
            expected
        );
    }

    /// A starved test runs alone while it stays starved and runs are left
    /// ([`RUNS_ALONE`] per submission); one starved to the last stays TLE,
    /// saying the host was busy; a sleeper is TLE with no run alone.
    #[test]
    fn a_starved_test_runs_alone_then_says_the_host_was_busy() {
        let starved = || waited(541, 3000, Some(2400));
        let runs = AtomicUsize::new(0);
        let mut calls = 0;
        let (result, _) = alone_if_unfair((starved(), None), &LIMITS, &runs, || {
            calls += 1;
            Some((starved(), None))
        })
        .unwrap();
        assert_eq!(calls, RUNS_ALONE);
        assert_eq!(result.verdict, Verdict::TimeLimitExceeded);
        assert!(result.rerun);
        assert!(
            result.message.starts_with(
                "the host was busy: the program waited 2400 ms for a CPU of its 3000 ms"
            ),
            "{}",
            result.message
        );
        assert!(
            result
                .message
                .contains("unless its own threads or processes"),
            "{}",
            result.message
        );
        // The submission's runs alone are spent: the next starved test is
        // the host's fault at once.
        let (next, _) =
            alone_if_unfair((starved(), None), &LIMITS, &runs, || unreachable!()).unwrap();
        assert_eq!(next.verdict, Verdict::TimeLimitExceeded);
        assert!(
            next.message.contains("no run alone was left"),
            "{}",
            next.message
        );

        // Alone, it passes: its verdict is the run alone's.
        let runs = AtomicUsize::new(0);
        let (passed, _) = alone_if_unfair((starved(), None), &LIMITS, &runs, || {
            let mut accepted = tle(560, 600);
            accepted.verdict = Verdict::Accepted;
            Some((accepted, None))
        })
        .unwrap();
        assert_eq!((passed.verdict, passed.rerun), (Verdict::Accepted, true));

        // A sleeper: TLE, no run alone.
        let runs = AtomicUsize::new(0);
        let (slept, _) = alone_if_unfair(
            (waited(1, 3000, Some(3)), None),
            &LIMITS,
            &runs,
            || unreachable!(),
        )
        .unwrap();
        assert_eq!(
            (slept.verdict, slept.rerun),
            (Verdict::TimeLimitExceeded, false)
        );
    }
}
