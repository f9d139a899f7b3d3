//! `judge stress`'s search: random tests against one submission, compiled
//! once, until a test is not accepted; then greedy shrinking of that input
//! with the problem's [`Problem::shrink`] steps.
//!
//! Like the rest of the runner it never prints: [`stress`] returns a
//! [`StressOutcome`] and the CLI words it, and reports its phases through a
//! [`StressProgress`] callback. Tests run in batches of one per worker, and
//! results are read in test order, so the failure found (and the input it
//! shrinks to) is the same for any `--jobs`, and the search stops at the
//! first failure rather than after a batch of several tests per worker.

use crate::config::judge::JudgeConfig;
use crate::interrupt::Cancellation;
use crate::problems::Problem;
use crate::report::progress::StressProgress;
use crate::runner::events::{CompileResult, RandomOrigin, TestResult};
use crate::runner::{
    compile, execute, generated_test, schedule, set_mode, written_test, Prepared, RunError,
    Settings, Submission, TestCase, Workspace,
};
use crate::sandbox::Hidden;
use crate::verdict::Verdict;
use std::sync::Arc;

/// Tests per worker in one batch: one, so nothing runs after a failure (issue
/// #10: with four, a sleeping program took four TLEs, 18 s, to report one).
/// A worker may wait for the slowest test of its batch; that is the price.
const TESTS_PER_WORKER: usize = 1;

/// What to search.
#[derive(Clone, Debug)]
pub(crate) struct StressOptions<'a> {
    /// The master seed of the random tests.
    pub(crate) seed: u64,
    /// Random tests to run at most.
    pub(crate) iterations: u64,
    /// Generator profiles, taken in turn (test t uses profile t mod len, as
    /// index t div len, like `judge run --random`).
    pub(crate) profiles: Vec<&'a str>,
    /// Candidate inputs to run while shrinking, at most; 0 disables it.
    pub(crate) shrink_runs: usize,
    /// The configuration the limits came from: a shorter CPU limit gets
    /// its wall-clock backstop from it ([`JudgeConfig::wall_time_ms`]).
    pub(crate) config: &'a JudgeConfig,
    /// What no run or compile of the submission may see: the command's
    /// one value (`crate::stress` gathers it).
    pub(crate) hidden: &'a Arc<Hidden>,
}

/// A failing test: its input, the reference answer and what the submission
/// did with it.
#[derive(Clone, Debug)]
pub(crate) struct FailingTest {
    pub(crate) input: String,
    /// The reference answer; `None` when the solver rejected the input (the
    /// verdict is then JE).
    pub(crate) answer: Option<String>,
    pub(crate) result: TestResult,
}

/// A random test that was not accepted, and the smallest failing input
/// shrinking found from it.
#[derive(Clone, Debug)]
pub(crate) struct Failure {
    /// 1-based: how many random tests had been taken when this one failed.
    pub(crate) iteration: u64,
    /// How to remake the failing random test with `judge gen`.
    pub(crate) origin: RandomOrigin,
    pub(crate) found: FailingTest,
    /// The smallest input that still fails with the same verdict; `found`
    /// when no step helped (or the verdict is JE, which is never shrunk).
    pub(crate) smallest: FailingTest,
    /// Candidates that still failed and were taken.
    pub(crate) shrink_steps: usize,
    /// Candidates tried, in order up to the one taken at each step (those a
    /// batch ran past it, to keep the workers busy, are not counted), so the
    /// count is the same for any `--jobs`.
    pub(crate) shrink_runs: usize,
    /// True when shrinking stopped at [`StressOptions::shrink_runs`] rather
    /// than because no candidate failed.
    pub(crate) shrink_budget_spent: bool,
    /// True when shrinking was cut short by a cancellation: `smallest` still
    /// fails, but a smaller input might.
    pub(crate) shrink_interrupted: bool,
}

/// How a stress run ended.
#[derive(Clone, Debug)]
pub(crate) enum StressOutcome {
    /// The submission could not be prepared: CE, or JE when the judge could
    /// not compile it.
    NotCompiled(CompileResult),
    /// Every test was accepted.
    Passed { iterations: u64 },
    /// Cancelled before any test failed: `iterations` random tests (the
    /// first ones, in order) were accepted; the rest did not run.
    Interrupted { iterations: u64 },
    /// A test was not accepted (JE included: the caller decides what a JE
    /// means, since it is the judge's fault).
    Failed(Box<Failure>),
}

/// Compiles `submission` once, runs random tests until one is not accepted
/// or `options.iterations` pass, and shrinks the failing input. `cancel`
/// stops the search between batches (`Interrupted`), or the shrinking with
/// the smallest failing input found so far.
pub(crate) fn stress(
    problem: &dyn Problem,
    submission: &Submission,
    settings: &Settings,
    workspace: &Workspace,
    options: &StressOptions<'_>,
    cancel: &Cancellation,
    progress: &mut dyn FnMut(StressProgress),
) -> Result<StressOutcome, RunError> {
    let Some(prepared) = prepare(submission, settings, workspace, options.hidden, cancel)? else {
        return Ok(StressOutcome::Interrupted { iterations: 0 });
    };
    if prepared.program.is_none() {
        return Ok(StressOutcome::NotCompiled(prepared.compile));
    }
    let runs = Runs {
        problem,
        submission,
        prepared: &prepared,
        settings,
        config: options.config,
        workspace,
        hidden: options.hidden,
        cancel,
    };
    // As `load_tests` does for a problem without profiles.
    let profiles: &[&str] = match options.profiles.as_slice() {
        [] => &["default"],
        profiles => profiles,
    };
    let profile_count = profiles.len() as u64;
    let batch_size = settings.jobs.max(1) * TESTS_PER_WORKER;
    let mut next = 0u64;
    while next < options.iterations {
        progress(StressProgress::Testing {
            done: next,
            total: options.iterations,
        });
        let end = options.iterations.min(next + batch_size as u64);
        let mut tests = Vec::with_capacity(batch_size);
        for test_number in next..end {
            let profile = profiles[(test_number % profile_count) as usize];
            let index = test_number / profile_count;
            tests.push(generated_test(
                problem,
                options.seed,
                profile,
                index,
                workspace,
            )?);
        }
        let results = runs.batch(&tests)?;
        remove_inputs(&tests);
        // After a cancellation, `results` is the prefix that finished: a
        // failure in it is real; without one, the search stops here.
        let accepted_prefix = results.len();
        let failed = tests
            .into_iter()
            .zip(results)
            .enumerate()
            .find(|(_, (_, result))| !result.verdict.is_accepted());
        if let Some((position, (test, result))) = failed {
            let iteration = next + position as u64 + 1;
            progress(StressProgress::Found {
                iteration,
                verdict: result.verdict,
            });
            let found = FailingTest {
                input: test.input.map(|input| input.text).unwrap_or_default(),
                answer: test.answer.ok().flatten(),
                result,
            };
            let origin = test.random.unwrap_or(RandomOrigin {
                seed: options.seed,
                profile: String::new(),
                index: 0,
            });
            let failure = shrink(
                &runs,
                options,
                progress,
                Failure {
                    iteration,
                    origin,
                    smallest: found.clone(),
                    found,
                    shrink_steps: 0,
                    shrink_runs: 0,
                    shrink_budget_spent: false,
                    shrink_interrupted: false,
                },
            )?;
            return Ok(StressOutcome::Failed(Box::new(failure)));
        }
        if cancel.is_cancelled() {
            return Ok(StressOutcome::Interrupted {
                iterations: next + accepted_prefix as u64,
            });
        }
        next = end;
    }
    Ok(StressOutcome::Passed {
        iterations: options.iterations,
    })
}

/// Greedy shrinking: the first candidate (in the problem's order) that still
/// fails with the *same* verdict becomes the current input, until no
/// candidate does or the budget is spent. The same verdict, so the input
/// shown is a smaller case of the failure that was found, not of another
/// (a WA that shrinks into a crash on a degenerate input would mislead).
/// Candidates run in batches on the worker pool, but the first failing one
/// in order is taken, so the result does not depend on `--jobs`.
fn shrink(
    full_runs: &Runs<'_>,
    options: &StressOptions<'_>,
    progress: &mut dyn FnMut(StressProgress),
    mut failure: Failure,
) -> Result<Failure, RunError> {
    let verdict = failure.found.result.verdict;
    if verdict == Verdict::JudgeError || options.shrink_runs == 0 {
        return Ok(failure);
    }
    // A TLE candidate costs the whole limit: shrink at the shortest limit
    // at which the found input still times out, and confirm the result at
    // the real limit at the end (issue #10).
    let shorter = if verdict == Verdict::TimeLimitExceeded {
        shortest_failing_limit(full_runs, &failure.found.input)?
    } else {
        None
    };
    if let Some(shorter) = &shorter {
        progress(StressProgress::ShrinkTimeLimit {
            time_limit_ms: shorter.limits.cpu_time_ms,
        });
    }
    let shorter_runs = shorter.as_ref().map(|settings| Runs {
        settings,
        ..*full_runs
    });
    let runs = shorter_runs.as_ref().unwrap_or(full_runs);
    let Runs {
        problem,
        settings,
        workspace,
        cancel,
        ..
    } = *runs;
    let profile = failure.origin.profile.clone();
    let batch_size = settings.jobs.max(1) * TESTS_PER_WORKER;
    'steps: loop {
        let current = failure.smallest.input.clone();
        // A candidate is a valid input when it keeps the promise of the
        // profile it came from (rooks `large` boards above n = 4) or the
        // original constraints (a mayan `hard` board with fewer blocks).
        // Validated lazily, a batch at a time: a step offers hundreds of
        // candidates and usually takes one of the first.
        let mut candidates = ValidCandidates {
            problem,
            profile: &profile,
            candidates: problem
                .shrink(&current)
                .into_iter()
                .filter(|candidate| crate::problems::is_smaller(candidate, &current))
                .collect::<Vec<_>>()
                .into_iter(),
            width: settings.jobs.max(1),
            ready: std::collections::VecDeque::new(),
        };
        loop {
            let chunk: Vec<String> = candidates.take(batch_size);
            if chunk.is_empty() {
                break;
            }
            progress(StressProgress::Shrinking {
                steps: failure.shrink_steps,
                runs: failure.shrink_runs,
                budget: options.shrink_runs,
                bytes: current.len(),
                found_bytes: failure.found.input.len(),
            });
            if cancel.is_cancelled() {
                failure.shrink_interrupted = true;
                break 'steps;
            }
            let remaining = options.shrink_runs.saturating_sub(failure.shrink_runs);
            if remaining == 0 {
                failure.shrink_budget_spent = true;
                break 'steps;
            }
            let chunk = chunk.get(..remaining.min(chunk.len())).unwrap_or(&chunk);
            let mut tests = Vec::with_capacity(chunk.len());
            for candidate in chunk {
                let name = format!("shrink-{:04}", failure.shrink_runs + tests.len() + 1);
                tests.push(written_test(
                    problem,
                    name,
                    candidate.clone(),
                    None,
                    workspace,
                )?);
            }
            let results = runs.batch(&tests)?;
            remove_inputs(&tests);
            if results.len() < tests.len() {
                // Cancelled mid-batch: which candidate would have been taken
                // is unknown, so none is.
                failure.shrink_interrupted = true;
                break 'steps;
            }
            let tried = tests.len();
            let still_failing = tests
                .into_iter()
                .zip(results)
                .enumerate()
                .find(|(_, (_, result))| result.verdict == verdict);
            // Counted as if candidates ran one by one, so the count and the
            // budget do not depend on `--jobs`.
            failure.shrink_runs += still_failing
                .as_ref()
                .map_or(tried, |(position, _)| position + 1);
            if let Some((_, (test, result))) = still_failing {
                failure.smallest = FailingTest {
                    input: test.input.map(|input| input.text).unwrap_or_default(),
                    answer: test.answer.ok().flatten(),
                    result,
                };
                failure.shrink_steps += 1;
                continue 'steps;
            }
        }
        break;
    }
    if shorter_runs.is_some() && failure.shrink_steps > 0 && !cancel.is_cancelled() {
        let tests = [written_test(
            problem,
            "shrink-confirm".to_owned(),
            failure.smallest.input.clone(),
            None,
            workspace,
        )?];
        let results = full_runs.batch(&tests)?;
        remove_inputs(&tests);
        match results
            .into_iter()
            .next()
            .filter(|result| result.verdict == verdict)
        {
            Some(result) => failure.smallest.result = result,
            // Fails only at the shorter limit: the found input is the honest answer.
            None => {
                failure.smallest = failure.found.clone();
                failure.shrink_steps = 0;
            }
        }
    }
    Ok(failure)
}

/// The shrink candidates of one step that are valid inputs, in the
/// problem's order. They are validated `width` at a time side by side: a
/// package's validator is a program run in the sandbox, a few milliseconds
/// a run, and most candidates of the generic shrinker (a number dropped
/// from a counted list) are invalid, so validating one by one was most of
/// the time an attempt took (issue #32). The valid ones are handed out in
/// order, so a chunk is the same for any width.
struct ValidCandidates<'a> {
    problem: &'a dyn Problem,
    profile: &'a str,
    candidates: std::vec::IntoIter<String>,
    width: usize,
    /// Validated and valid, not yet handed out.
    ready: std::collections::VecDeque<String>,
}

impl ValidCandidates<'_> {
    /// The next `count` valid candidates (fewer when the step has no more).
    fn take(&mut self, count: usize) -> Vec<String> {
        while self.ready.len() < count {
            let window: Vec<String> = self.candidates.by_ref().take(self.width).collect();
            if window.is_empty() {
                break;
            }
            let valid: Vec<bool> = match window.as_slice() {
                [one] => vec![self.is_valid(one)],
                several => std::thread::scope(|scope| {
                    let checks: Vec<_> = several
                        .iter()
                        .map(|candidate| scope.spawn(|| self.is_valid(candidate)))
                        .collect();
                    // A validation that panicked keeps its candidate out.
                    checks
                        .into_iter()
                        .map(|check| check.join().unwrap_or(false))
                        .collect()
                }),
            };
            self.ready.extend(
                window
                    .into_iter()
                    .zip(valid)
                    .filter_map(|(candidate, valid)| valid.then_some(candidate)),
            );
        }
        let count = count.min(self.ready.len());
        self.ready.drain(..count).collect()
    }

    /// A candidate is a valid input when it keeps the promise of the
    /// profile it came from or the original constraints.
    fn is_valid(&self, candidate: &str) -> bool {
        self.problem.validate(candidate, Some(self.profile)).is_ok()
            || (self.problem.validates_profiles() && self.problem.validate(candidate, None).is_ok())
    }
}

/// Settings with the shortest CPU limit among 1/8, 1/4 and 1/2 of the real
/// one (at least 50 ms) at which `input` still times out; `None` when none
/// does (the real limit is then used).
fn shortest_failing_limit(runs: &Runs<'_>, input: &str) -> Result<Option<Settings>, RunError> {
    let full = runs.settings.limits.cpu_time_ms;
    for divisor in [8, 4, 2] {
        let cpu_time_ms = (full / divisor).max(50);
        if cpu_time_ms >= full || runs.cancel.is_cancelled() {
            continue;
        }
        let mut shorter = runs.settings.clone();
        shorter.limits.cpu_time_ms = cpu_time_ms;
        shorter.limits.wall_time_ms = runs.config.wall_time_ms(cpu_time_ms);
        let tests = [written_test(
            runs.problem,
            format!("shrink-limit-{cpu_time_ms}"),
            input.to_owned(),
            None,
            runs.workspace,
        )?];
        let results = Runs {
            settings: &shorter,
            ..*runs
        }
        .batch(&tests)?;
        remove_inputs(&tests);
        if results
            .first()
            .is_some_and(|result| result.verdict == Verdict::TimeLimitExceeded)
        {
            return Ok(Some(shorter));
        }
    }
    Ok(None)
}

/// Compiles (or copies) the submission once into `submission-1/`; `None`
/// when cancelled first.
fn prepare(
    submission: &Submission,
    settings: &Settings,
    workspace: &Workspace,
    hidden: &Arc<Hidden>,
    cancel: &Cancellation,
) -> Result<Option<Prepared>, RunError> {
    let dir = workspace.path().join("submission-1");
    fs_err::create_dir(&dir).map_err(|source| RunError::io("create", &dir, source))?;
    set_mode(&dir, 0o755)?;
    let mut prepared = None;
    schedule::run_ordered(
        1,
        workspace.path(),
        hidden,
        &[()],
        cancel,
        |sandbox, ()| compile::prepare(sandbox, submission, &dir, settings),
        |_, result| prepared = Some(result),
    )?;
    if prepared.is_none() && cancel.is_cancelled() {
        return Ok(None);
    }
    Ok(Some(prepared.unwrap_or_else(|| {
        Prepared::failed(CompileResult::failed(
            Verdict::JudgeError,
            "the submission was not compiled".to_owned(),
        ))
    })))
}

/// What every batch of one stress run shares: the compiled submission and
/// where and how it runs.
#[derive(Clone, Copy)]
struct Runs<'a> {
    problem: &'a dyn Problem,
    submission: &'a Submission,
    prepared: &'a Prepared,
    settings: &'a Settings,
    config: &'a JudgeConfig,
    workspace: &'a Workspace,
    hidden: &'a Arc<Hidden>,
    cancel: &'a Cancellation,
}

impl Runs<'_> {
    /// Runs every test of `tests` and returns the results in test order
    /// (only the prefix that finished, after a cancellation).
    fn batch(&self, tests: &[TestCase]) -> Result<Vec<TestResult>, RunError> {
        let limits = self.submission.limits(&self.settings.limits);
        let mut results = Vec::with_capacity(tests.len());
        schedule::run_ordered(
            self.settings.jobs,
            self.workspace.path(),
            self.hidden,
            tests,
            self.cancel,
            |sandbox, test| {
                execute::run_test(
                    sandbox,
                    self.problem,
                    self.prepared,
                    test,
                    &execute::TestLimits::at(&limits),
                    self.settings,
                    None,
                )
                .map(|(result, _)| result)
            },
            // Never `None`: nothing watches these runs.
            |_, result| results.extend(result),
        )?;
        Ok(results)
    }
}

/// Input files of a finished batch are not needed again (their text is kept
/// in memory); removing them keeps a long run's workspace small.
fn remove_inputs(tests: &[TestCase]) {
    for test in tests {
        if let Ok(input) = &test.input {
            let _ = fs_err::remove_file(&input.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::{CheckOptions, CheckOutcome, CheckerFailure, GenerateError, InputError};
    use rand_chacha::ChaCha8Rng;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Valid inputs are those with an even length; each call to `validate`
    /// is counted.
    struct Even {
        profiles_matter: bool,
        calls: AtomicUsize,
    }

    impl Problem for Even {
        fn id(&self) -> &'static str {
            "even"
        }
        fn title(&self) -> &'static str {
            "even"
        }
        fn profiles(&self) -> &'static [crate::problems::Profile] {
            &[]
        }
        fn validate(&self, input: &str, _profile: Option<&str>) -> Result<(), InputError> {
            self.calls.fetch_add(1, Ordering::Relaxed);
            if input.len() % 2 == 0 {
                Ok(())
            } else {
                Err(InputError::constraint(1, "odd"))
            }
        }
        fn solve(&self, _input: &str) -> Result<String, InputError> {
            unreachable!("not solved here")
        }
        fn generate(&self, _profile: &str, _rng: &mut ChaCha8Rng) -> Result<String, GenerateError> {
            unreachable!("not generated here")
        }
        fn check(
            &self,
            _input: &str,
            _output: &str,
            _answer: Option<&str>,
            _options: &CheckOptions,
        ) -> Result<CheckOutcome, CheckerFailure> {
            unreachable!("not checked here")
        }
        fn validates_profiles(&self) -> bool {
            self.profiles_matter
        }
    }

    fn chunks(problem: &Even, width: usize, size: usize) -> Vec<Vec<String>> {
        let candidates: Vec<String> = (1..=9).map(|length| "x".repeat(length)).collect();
        let mut valid = ValidCandidates {
            problem,
            profile: "small",
            candidates: candidates.into_iter(),
            width,
            ready: std::collections::VecDeque::new(),
        };
        std::iter::from_fn(|| Some(valid.take(size)).filter(|chunk| !chunk.is_empty())).collect()
    }

    /// The chunks handed out are the valid candidates in order, the same
    /// for any number of side-by-side validations.
    #[test]
    fn valid_candidates_come_in_order_whatever_the_width() {
        let expected = [vec!["xx", "xxxx"], vec!["xxxxxx", "xxxxxxxx"]];
        for width in [1, 2, 3, 8] {
            let problem = Even {
                profiles_matter: true,
                calls: AtomicUsize::new(0),
            };
            assert_eq!(chunks(&problem, width, 2), expected, "width {width}");
        }
    }

    /// See: issue #32. A problem whose validation ignores the profile (a
    /// package's validator program) is asked once per candidate, not twice
    /// for each invalid one.
    #[test]
    fn a_profile_blind_validator_runs_once_per_candidate() {
        let blind = Even {
            profiles_matter: false,
            calls: AtomicUsize::new(0),
        };
        chunks(&blind, 1, 2);
        assert_eq!(blind.calls.load(Ordering::Relaxed), 9);
        let profiled = Even {
            profiles_matter: true,
            calls: AtomicUsize::new(0),
        };
        chunks(&profiled, 1, 2);
        // Five odd lengths asked twice, four even ones once.
        assert_eq!(profiled.calls.load(Ordering::Relaxed), 14);
    }
}
