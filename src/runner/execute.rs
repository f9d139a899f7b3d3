//! Running one test of one prepared submission and deciding its verdict.
//!
//! The order of the decision is fixed: a limit the sandbox saw (OLE, MLE,
//! TLE), then a crash or non-zero exit (RE), and only then the checker, which
//! is not run when the program already failed (DMOJ issue 170).

use super::ended::{crash_verdict, limit_verdict, record_run, runtime_stderr, TimeNotes};
use super::events::{Excerpt, TestResult};
use super::{Prepared, Settings, TestCase};
use crate::problems::{self, Problem};
use crate::sandbox::{Limits, Measured, RunSpec, Sandbox, Trust};
use crate::verdict::Verdict;

/// Runs `test` with the prepared program and decides the verdict. A sandbox
/// failure is JE for this test, never the submission's fault.
pub(crate) fn run_test(
    sandbox: &mut Sandbox,
    problem: &dyn Problem,
    prepared: &Prepared,
    test: &TestCase,
    limits: &Limits,
    settings: &Settings,
) -> TestResult {
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
        return result;
    };
    let input = match &test.input {
        Ok(input) => input,
        Err(fault) => {
            result.message = fault.to_string();
            return result;
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
        return result;
    }
    if let Some(interactor) = problem.interactor() {
        let interactor = match interactor {
            Ok(interactor) => interactor,
            Err(error) => {
                result.message = error.to_string();
                return result;
            }
        };
        let answer = match &test.answer {
            Ok(answer) => answer.as_deref(),
            Err(fault) => {
                result.message = fault.to_string();
                return result;
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
        return result;
    }
    let spec = RunSpec {
        program: program.clone(),
        args: args.clone(),
        stdin: Some(input.path.clone()),
        workdir: None,
        env: Vec::new(),
        read_paths: prepared.read_paths.clone(),
        limits: *limits,
        trust: Trust::Submission,
    };
    let measured = match sandbox.run(&spec) {
        Ok(measured) => measured,
        Err(error) => {
            result.message = format!("sandbox failure: {error:#}");
            return result;
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
    result
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
