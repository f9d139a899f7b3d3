//! Running one test of one prepared submission and deciding its verdict.
//!
//! The order of the decision is fixed: a limit the sandbox saw (OLE, MLE,
//! TLE), then a crash or non-zero exit (RE), and only then the checker, which
//! is not run when the program already failed (DMOJ issue 170).

use super::events::{Excerpt, TestResult};
use super::request::AtMargin;
use super::termination::{crash_verdict, limit_verdict, record_run, runtime_stderr, TimeNotes};
use super::{Prepared, Settings, TestCase};
use crate::problems::{self, Problem};
use crate::sandbox::{
    Crossing, LimitExceeded, Limits, Measured, RunSpec, Sandbox, SandboxError, Trust, Watch,
};
use crate::verdict::Verdict;
use std::sync::atomic::{AtomicBool, Ordering};

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
    if let Some(interactor) = problem.interactor() {
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
            match problem.check(&input.text, &output, answer, &settings.check_options) {
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
    result.message = message;
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

/// The run alone, at most one per submission (`rerun_taken`, issue 18), of
/// a test whose answer may come from waiting for a core beside other runs:
///
/// - a TLE from the 1x wall clock alone ([`wall_time_only`]): the re-run's
///   result replaces it, marked `rerun`;
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
    rerun_taken: &AtomicBool,
    alone: impl FnOnce() -> Option<(TestResult, Option<AtMargin>)>,
) -> Option<(TestResult, Option<AtMargin>)> {
    let settled = |at_margin: Option<AtMargin>| {
        at_margin.map(|at_margin| match at_margin {
            AtMargin::WaitedForACore => AtMargin::Failed,
            other => other,
        })
    };
    let (result, at_margin) = first;
    let wall_only = wall_time_only(&result, limits);
    let margin_waited = at_margin == Some(AtMargin::WaitedForACore);
    if !(wall_only || margin_waited) || rerun_taken.swap(true, Ordering::SeqCst) {
        return Some((result, settled(at_margin)));
    }
    let (mut again, again_at_margin) = alone()?;
    if wall_only {
        again.rerun = true;
        Some((again, settled(again_at_margin)))
    } else {
        Some((result, settled(again_at_margin)))
    }
}

/// An interactive run's stderr excerpt with the hand-in's own paths in
/// place of its copy's, as a run on a file shows it.
fn with_own_paths_in_stderr(result: &mut TestResult, prepared: &Prepared) {
    if let Some(stderr) = result.stderr.take() {
        result.stderr = Some(super::compile::with_own_paths(&stderr, &prepared.own_paths));
    }
}

/// Whether `result` is a TLE from the wall-clock limit alone, its CPU time
/// under the CPU limit, and its CPU time shows it wanted a core: the
/// program may have waited for one rather than been slow, so it deserves a
/// run alone before the verdict stands. A program that used under a fifth
/// of the wall clock on the CPU was sleeping or blocked, not starved: a
/// run alone would only cost the wall limit again (issue 18).
pub(crate) fn wall_time_only(result: &TestResult, limits: &Limits) -> bool {
    result.verdict == Verdict::TimeLimitExceeded
        && result.wall_ms >= limits.wall_time_ms
        && result.time_ms < limits.cpu_time_ms
        && result.time_ms.saturating_mul(5) >= result.wall_ms
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
            Ok(answer) => match problems::check_bytes(
                problem,
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
        Some(limit) => Some(limit_verdict(
            limit,
            limits,
            measured.cpu_time_ms,
            &TimeNotes::default(),
        )),
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
            stderr: None,
            validator_score: None,
        }
    }

    #[test_case(700, 3000, true ; "waited for a core")]
    #[test_case(100, 3000, false ; "slept or blocked")]
    #[test_case(500, 3000, false ; "mostly slept")]
    #[test_case(1000, 3000, false ; "cpu limit reached")]
    #[test_case(1200, 1300, false ; "cpu limit exceeded before the wall")]
    #[test_case(100, 2999, false ; "under the wall limit")]
    fn only_wall_clock_tles_are_rerun(time_ms: u64, wall_ms: u64, expected: bool) {
        let limits = Limits {
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
        assert_eq!(wall_time_only(&tle(time_ms, wall_ms), &limits), expected);
    }
}
