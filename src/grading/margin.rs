//! Verdicts that hang on the time limit: an accepted program whose slowest
//! test used more than half its limit, and a TLE example (folder
//! `time_limit_exceeded`) that passes its TLE tests with more time
//! (problemtools' `time_safety_margin` idea). A TLE example's tests run
//! once, at the margin, their verdicts decided against the 1x limits from
//! that run ([`margin_of`], `runner::Margin`); only a test that could not
//! run so (interactive, `--all-tests`) is re-run at the margin
//! ([`time_limit_warnings`]).

use super::grade::{Expected, GradedResult};
use super::policy::Selection;
use crate::config::judge::JudgeConfig;
use crate::interrupt::Cancellation;
use crate::problems::Problem;
use crate::runner::{
    self, Margin, RunError, RunRequest, Settings, Submission, TestCase, TestsToRun, Workspace,
};
use crate::sandbox::Hidden;
use crate::verdict::Verdict;
use std::sync::Arc;

/// How much more time a TLE example gets to see whether its verdict hangs on
/// the limit.
pub(crate) const TLE_RETRY_FACTOR: f64 = 1.5;

/// `ms` with [`TLE_RETRY_FACTOR`] more time, rounded up.
pub(crate) fn with_margin(ms: u64) -> u64 {
    (ms as f64 * TLE_RETRY_FACTOR).ceil() as u64
}

/// The warning for an accepted result whose slowest test used more than
/// half of `time_limit_ms`.
pub(crate) fn close_to_the_limit(graded: &GradedResult) -> Option<String> {
    let result = &graded.result;
    if !result.verdict.is_accepted() {
        return None;
    }
    let slowest = result.tests.iter().max_by_key(|test| test.time_ms)?;
    (slowest.time_ms * 2 > graded.time_limit_ms).then(|| {
        format!(
            "{}: accepted, but test {} used {} ms of its {} ms limit: \
             the verdict is sensitive to the time limit",
            result.submission, slowest.name, slowest.time_ms, graded.time_limit_ms
        )
    })
}

/// Whether `expected` is a TLE example's (expected verdict TLE).
pub(crate) fn expects_tle(expected: Option<&Expected>) -> bool {
    expected.is_some_and(|expected| expected.verdict == Some(Verdict::TimeLimitExceeded))
}

/// Whether `graded` is a TLE example that got TLE: its warnings include
/// whether it passes with more time.
pub(crate) fn needs_margin(graded: &GradedResult) -> bool {
    expects_tle(graded.expected.as_ref()) && graded.result.verdict == Verdict::TimeLimitExceeded
}

/// The TLE examples among the `expected`s of a runner call, run at the
/// margin in the same run as their verdict when `selection` stops at the
/// verdict (layout `expected`, without `--all-tests`): their 1x verdict
/// comes from the run at [`TLE_RETRY_FACTOR`] times the limit, so the
/// margin costs no second run. With every test run (`--all-tests`) they
/// run at the 1x limits, as every other submission does, and a TLE is
/// re-run at the margin ([`time_limit_warnings`]). `None` when no
/// submission runs at the margin.
pub(crate) fn margin_of(
    config: &JudgeConfig,
    settings: &Settings,
    selection: Selection,
    expected: impl Iterator<Item = Option<Expected>>,
) -> Option<Margin> {
    if selection == Selection::Tests(TestsToRun::All) {
        return None;
    }
    let which: Vec<bool> = expected
        .map(|expected| expects_tle(expected.as_ref()))
        .collect();
    which
        .contains(&true)
        .then(|| Margin::new(more_time(config, settings).limits, which))
}

/// The warnings of a TLE example that got TLE ([`needs_margin`]) from its
/// one run at the margin: "passes with more time" when every TLE test it
/// kept passed there. `None` when a TLE test was not run at the margin (an
/// interactive test, or `--all-tests`): [`time_limit_warnings`] re-runs
/// it. `passed(i)`: how the `i`-th of `tests` did at the margin.
pub(crate) fn warnings_of_the_run(
    graded: &GradedResult,
    tests: &[TestCase],
    passed: impl Fn(usize) -> Option<bool>,
) -> Option<Vec<String>> {
    let result = &graded.result;
    let mut slow = 0;
    let mut passes_all = true;
    for test in result
        .tests
        .iter()
        .filter(|test| test.verdict == Verdict::TimeLimitExceeded)
    {
        slow += 1;
        let index = tests.iter().position(|case| case.name == test.name)?;
        passes_all &= passed(index)?;
    }
    let mut warnings: Vec<String> = close_to_the_limit(graded).into_iter().collect();
    if passes_all && slow > 0 {
        warnings.push(passes_with_more_time(graded, slow));
    }
    Some(warnings)
}

/// The warning of a TLE example that passes its `slow` TLE tests at the
/// margin.
fn passes_with_more_time(graded: &GradedResult, slow: usize) -> String {
    format!(
        "{}: TLE, but passes its {slow} TLE test(s) at {TLE_RETRY_FACTOR}x the limit \
         ({} ms): the verdict is sensitive to the time limit",
        graded.result.submission,
        with_margin(graded.time_limit_ms)
    )
}

/// The warnings of [`close_to_the_limit`] and, for a TLE example that got
/// TLE with TLE tests not run at the margin (an interactive problem, or
/// `--all-tests`), of its TLE tests re-run one at a time at
/// [`TLE_RETRY_FACTOR`] times the limit (stopping at the first still too
/// slow), their wall clock the one backstop of `config` for that CPU time.
/// An interactive test's runner decides at one set of limits, so it cannot
/// be decided at 1x from a run at the margin: this second run is its only
/// margin check. `None` when `cancel` stopped the re-runs before they
/// settled it. The re-runs hide `hidden`, as the first run did.
#[expect(
    clippy::too_many_arguments,
    reason = "the first run's parts, and how to stop"
)]
pub(crate) fn time_limit_warnings(
    config: &JudgeConfig,
    problem: &dyn Problem,
    submission: &Submission,
    graded: &GradedResult,
    tests: &[TestCase],
    settings: &Settings,
    hidden: &Arc<Hidden>,
    cancel: &Cancellation,
) -> Result<Option<Vec<String>>, RunError> {
    let result = &graded.result;
    let mut warnings: Vec<String> = close_to_the_limit(graded).into_iter().collect();
    if needs_margin(graded) {
        let slow: Vec<(&TestCase, bool)> = result
            .tests
            .iter()
            .filter(|test| test.verdict == Verdict::TimeLimitExceeded)
            .filter_map(|test| {
                let case = tests.iter().find(|case| case.name == test.name)?;
                Some((case, wants_a_core(test)))
            })
            .collect();
        let more_time = more_time(config, settings);
        // One test at a time, stopping at the first that is still too slow:
        // that one alone settles it, and each retry runs to a longer limit.
        let mut passes_all = !slow.is_empty();
        for &(test, wants_a_core) in &slow {
            if cancel.is_cancelled() {
                return Ok(None);
            }
            let workspace = Workspace::new()?;
            // Alone when its time is CPU time (a neighbour could slow it);
            // a program that was blocked waits the same beside others.
            let run = if wants_a_core {
                runner::run_alone
            } else {
                runner::run_cancellable
            };
            let request = RunRequest {
                problem,
                submissions: std::slice::from_ref(submission),
                tests: std::slice::from_ref(test),
                settings: &more_time,
                workspace: &workspace,
                hidden,
                cancel,
                margin: None,
            };
            let retried = run(&request, &mut |_| {})?;
            match retried.into_iter().next().flatten() {
                // Only an interrupted run leaves the one pair unfinished.
                None => return Ok(None),
                Some(retry) if retry.verdict.is_accepted() => {}
                Some(_) => {
                    passes_all = false;
                    break;
                }
            }
        }
        if passes_all {
            warnings.push(passes_with_more_time(graded, slow.len()));
        }
    }
    Ok(Some(warnings))
}

/// Whether a TLE test's first run wanted a core (the host starved it, by
/// the rule of the runner's runs alone: `runner::execute::starved`), so
/// that its re-run must be alone: one that slept or blocked waits as long
/// beside other runs.
pub(crate) fn wants_a_core(test: &crate::runner::TestResult) -> bool {
    crate::runner::execute::starved(test.time_ms, test.wall_ms, test.cpu_wait_ms)
}

/// `settings` with [`TLE_RETRY_FACTOR`] more CPU time, and the wall-clock
/// backstop `config` gives that CPU time (the one formula of every limit).
fn more_time(config: &JudgeConfig, settings: &Settings) -> Settings {
    let mut more_time = settings.clone();
    more_time.limits.cpu_time_ms = with_margin(settings.limits.cpu_time_ms);
    // Never under the 1x wall clock (one set by hand can be longer): a run
    // at the margin must not stop before 1x's limits do.
    more_time.limits.wall_time_ms = config
        .wall_time_ms(more_time.limits.cpu_time_ms)
        .max(settings.limits.wall_time_ms);
    more_time
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::{SubmissionResult, TestResult};

    fn graded(verdict: Verdict, times: &[u64], limit: u64) -> GradedResult {
        let tests = times
            .iter()
            .enumerate()
            .map(|(index, &time_ms)| TestResult {
                time_ms,
                wall_ms: time_ms,
                ..TestResult::fixture(&format!("t{index}"), verdict)
            })
            .collect();
        let result = SubmissionResult {
            verdict,
            passed: 0,
            ..SubmissionResult::fixture("rooks", "a.py", tests)
        };
        GradedResult {
            time_limit_ms: limit,
            ..GradedResult::fixture(result, "ann")
        }
    }

    #[test]
    fn an_accepted_result_over_half_its_limit_is_close_to_it() {
        assert_eq!(
            close_to_the_limit(&graded(Verdict::Accepted, &[100, 501], 1000)).as_deref(),
            Some(
                "a.py: accepted, but test t1 used 501 ms of its 1000 ms limit: the verdict is \
                 sensitive to the time limit"
            )
        );
        assert_eq!(
            close_to_the_limit(&graded(Verdict::Accepted, &[500], 1000)),
            None
        );
        assert_eq!(
            close_to_the_limit(&graded(Verdict::WrongAnswer, &[900], 1000)),
            None
        );
        assert_eq!(
            close_to_the_limit(&graded(Verdict::Accepted, &[], 1000)),
            None
        );
    }

    /// A TLE test that was on the CPU for a fifth of its wall clock or
    /// more is re-run alone; one blocked (the duel's `no_flush.py`: 16 ms
    /// of CPU in 18 s) is re-run beside other runs.
    #[test]
    fn only_a_cpu_bound_tle_is_re_run_alone() {
        let test = |time_ms, wall_ms| TestResult {
            time_ms,
            wall_ms,
            ..TestResult::fixture("t", Verdict::TimeLimitExceeded)
        };
        assert!(wants_a_core(&test(9_001, 9_050)));
        assert!(wants_a_core(&test(3_600, 18_000)));
        assert!(!wants_a_core(&test(3_599, 18_000)));
        assert!(!wants_a_core(&test(16, 18_001)));
        // Where the kernel said how long it waited for a CPU, that decides
        // (issue 32): starved at 500 ms of CPU, blocked at 3_600.
        let waited = |time_ms, wall_ms, cpu_wait_ms| TestResult {
            cpu_wait_ms: Some(cpu_wait_ms),
            ..test(time_ms, wall_ms)
        };
        assert!(wants_a_core(&waited(500, 18_000, 17_000)));
        assert!(!wants_a_core(&waited(3_600, 18_000, 40)));
    }

    #[test]
    fn the_margin_is_half_as_much_again_rounded_up() {
        assert_eq!(with_margin(1000), 1500);
        assert_eq!(with_margin(3), 5);
    }

    /// The re-run's wall clock is judge.toml's backstop of its CPU time
    /// (`wall-time-factor` times it), not the old wall clock scaled.
    #[test]
    fn a_re_run_gets_the_wall_clock_of_its_cpu_time() {
        let mut config = JudgeConfig::defaults().unwrap();
        config.wall_time_factor = 4.0;
        let mut settings = rooks_settings(1000);
        settings.limits.wall_time_ms = 1234;
        let more = more_time(&config, &settings);
        assert_eq!(more.limits.cpu_time_ms, 1500);
        assert_eq!(more.limits.wall_time_ms, 6000);
    }

    /// A TLE example with no TLE test among the run's tests re-runs
    /// nothing and says nothing; one not expected to be TLE is not re-run.
    #[test]
    fn nothing_is_re_run_without_a_tle_test_to_re_run() {
        let problem = crate::problems::find("rooks").unwrap();
        let submission = Submission {
            path: "a.py".into(),
            constants: None,
            kind: crate::runner::SubmissionKind::Executable,
            link_scope: crate::runner::LinkScope::HandIn,
        };
        let settings = crate::grading::settings::resolve(
            &crate::grading::settings::Overrides::default(),
            &crate::config::judge::JudgeConfig::defaults().unwrap(),
            &crate::package::Package::bundled("rooks").unwrap(),
        )
        .settings;
        let mut tle = graded(Verdict::TimeLimitExceeded, &[1000], 1000);
        tle.expected = Some(Expected {
            folder: "time_limit_exceeded".to_owned(),
            kind: crate::package::format::ExpectedKey::Folder,
            verdict: Some(Verdict::TimeLimitExceeded),
            also: Vec::new(),
            agrees: None,
        });
        let cancel = Cancellation::new();
        assert_eq!(
            time_limit_warnings(
                &roomy(),
                problem,
                &submission,
                &tle,
                &[],
                &settings,
                &Arc::default(),
                &cancel
            )
            .unwrap(),
            Some(Vec::new())
        );
        let unexpected = graded(Verdict::TimeLimitExceeded, &[1000], 1000);
        assert_eq!(
            time_limit_warnings(
                &roomy(),
                problem,
                &submission,
                &unexpected,
                &[],
                &settings,
                &Arc::default(),
                &cancel
            )
            .unwrap(),
            Some(Vec::new())
        );
    }

    /// The defaults with a wall clock far beyond the CPU time, so that
    /// only CPU time decides a re-run.
    fn roomy() -> JudgeConfig {
        let mut config = JudgeConfig::defaults().unwrap();
        config.wall_time_factor = 20.0;
        config
    }

    /// The rooks settings with a CPU limit of `cpu_ms` and a wall limit
    /// far beyond it, so that only CPU time decides a re-run.
    fn rooks_settings(cpu_ms: u64) -> Settings {
        let mut settings = crate::grading::settings::resolve(
            &crate::grading::settings::Overrides::default(),
            &crate::config::judge::JudgeConfig::defaults().unwrap(),
            &crate::package::Package::bundled("rooks").unwrap(),
        )
        .settings;
        settings.limits.cpu_time_ms = cpu_ms;
        settings.limits.wall_time_ms = 20_000;
        settings
    }

    /// The bundled rooks solver as an executable that first burns
    /// `burn_ms` of its own CPU time, written into `dir`.
    fn burning_solver(dir: &std::path::Path, burn_ms: u64) -> Submission {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let solver =
            fs_err::read_to_string(root.join("submissions/rooks/accepted/matching.py")).unwrap();
        let path = dir.join("burn.py");
        fs_err::write(
            &path,
            format!(
                "#!/usr/bin/env python3\nimport time\nwhile time.process_time() < {}:\n    \
                 pass\n{solver}",
                burn_ms as f64 / 1000.0
            ),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        fs_err::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        Submission {
            path,
            constants: None,
            kind: crate::runner::SubmissionKind::Executable,
            link_scope: crate::runner::LinkScope::HandIn,
        }
    }

    /// Rooks' `sample-1`, and a TLE example's result on it under `limit_ms`.
    fn sample_and_tle(limit_ms: u64) -> (Vec<TestCase>, GradedResult) {
        let tests = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/rooks/tests");
        let read = |name: &str| fs_err::read_to_string(tests.join(name)).unwrap();
        let case = TestCase {
            name: "sample-1".to_owned(),
            input: Ok(crate::runner::TestInput {
                path: tests.join("sample-1.in"),
                text: read("sample-1.in"),
            }),
            answer: Ok(Some(read("sample-1.ans"))),
            random: None,
        };
        let mut tle = graded(Verdict::TimeLimitExceeded, &[limit_ms], limit_ms);
        tle.result.tests[0].name = "sample-1".to_owned();
        tle.expected = Some(Expected {
            folder: "time_limit_exceeded".to_owned(),
            kind: crate::package::format::ExpectedKey::Folder,
            verdict: Some(Verdict::TimeLimitExceeded),
            also: Vec::new(),
            agrees: None,
        });
        (vec![case], tle)
    }

    /// A TLE example that passes its TLE test at 1.5x the limit (1.1 s of
    /// CPU against 1.5 s) is warned about; one still too slow there (3 s
    /// of CPU) is not; a cancelled re-run settles nothing (`None`).
    #[test]
    fn a_tle_passing_with_more_time_is_warned_about_and_one_still_too_slow_is_not() {
        let problem = crate::problems::find("rooks").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let settings = rooks_settings(1000);
        let (tests, tle) = sample_and_tle(1000);
        let cancel = Cancellation::new();

        let near = burning_solver(dir.path(), 1_100);
        assert_eq!(
            time_limit_warnings(
                &roomy(),
                problem,
                &near,
                &tle,
                &tests,
                &settings,
                &Arc::default(),
                &cancel
            )
            .unwrap(),
            Some(vec![
                "a.py: TLE, but passes its 1 TLE test(s) at 1.5x the limit (1500 ms): the verdict \
                 is sensitive to the time limit"
                    .to_owned()
            ])
        );

        let far = burning_solver(dir.path(), 3_000);
        assert_eq!(
            time_limit_warnings(
                &roomy(),
                problem,
                &far,
                &tle,
                &tests,
                &settings,
                &Arc::default(),
                &cancel
            )
            .unwrap(),
            Some(Vec::new())
        );

        cancel.cancel();
        assert_eq!(
            time_limit_warnings(
                &roomy(),
                problem,
                &near,
                &tle,
                &tests,
                &settings,
                &Arc::default(),
                &cancel
            )
            .unwrap(),
            None
        );
    }

    /// One runner call at the margin (1.5 s of CPU for a 1 s limit): a
    /// program that needs 1.1 s is TLE at 1x, its time where the 1x limit
    /// fell, and passed at the margin; one that needs 3 s is TLE and did
    /// not; one within 1x is its own verdict (AC) — and every test ran
    /// once (one `TestFinished` each).
    #[test]
    fn a_run_at_the_margin_is_decided_at_1x_and_notes_the_margin() {
        let problem = crate::problems::find("rooks").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let settings = rooks_settings(1000);
        let (tests, _) = sample_and_tle(1000);
        let submissions: Vec<Submission> = [(1_100, "near"), (3_000, "far"), (0, "quick")]
            .iter()
            .map(|&(burn_ms, name)| {
                let folder = dir.path().join(name);
                fs_err::create_dir(&folder).unwrap();
                burning_solver(&folder, burn_ms)
            })
            .collect();
        let margin = Margin::new(more_time(&roomy(), &settings).limits, vec![true; 3]);
        let workspace = Workspace::new().unwrap();
        let cancel = Cancellation::new();
        let request = RunRequest {
            problem,
            submissions: &submissions,
            tests: &tests,
            settings: &settings,
            workspace: &workspace,
            hidden: &Arc::default(),
            cancel: &cancel,
            margin: Some(&margin),
        };
        let mut finished = 0;
        let results = runner::run_selected(&request, TestsToRun::UntilFirstFailure, &mut |event| {
            if let runner::Event::TestFinished { .. } = event {
                finished += 1;
            }
        })
        .unwrap();
        let results: Vec<_> = results.into_iter().map(Option::unwrap).collect();
        assert_eq!(finished, 3);
        let verdicts: Vec<Verdict> = results.iter().map(|result| result.verdict).collect();
        assert_eq!(
            verdicts,
            [
                Verdict::TimeLimitExceeded,
                Verdict::TimeLimitExceeded,
                Verdict::Accepted
            ]
        );
        for result in &results[..2] {
            let test = &result.tests[0];
            assert!((1000..1100).contains(&test.time_ms), "{test:?}");
            assert_eq!(test.message, "CPU time exceeded 1000 ms");
        }
        assert_eq!(margin.passed(0, 0), Some(true));
        assert_eq!(margin.passed(1, 0), Some(false));
        assert_eq!(margin.passed(2, 0), Some(true));
    }
}
