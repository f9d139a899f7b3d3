//! The time limit of a package that states none (issue #9, #34): derived
//! from the slowest run of the submissions that bound it from below, as
//! problemtools does (`accepted/`), and as a 2025-09 `submissions.yaml`
//! says (`use_for_time_limit`); which those are is the package's to say
//! ([`crate::package::format::Expectations::lower_bound`]).

use super::*;
use crate::package::format::LowerBound;

/// The CPU time accepted submissions get while the time limit is derived.
const DERIVING_LIMIT_MS: u64 = 10_000;

/// A time limit derived from the slowest accepted submission.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct DerivedLimit {
    pub(crate) limit_ms: u64,
    pub(crate) slowest_ms: u64,
    pub(crate) slowest: String,
    pub(crate) multiplier: f64,
}

/// The run times of `result` that bound the limit from below, by `bound`:
/// none when a run that must pass did not, or one that must not run out of
/// time did.
fn bounding_times<'a>(
    bound: &LowerBound<'_>,
    result: &'a SubmissionResult,
) -> Vec<(u64, &'a String)> {
    let in_time = |verdict: Verdict| {
        !matches!(
            verdict,
            Verdict::TimeLimitExceeded | Verdict::CompileError | Verdict::JudgeError
        )
    };
    let tests: Vec<&crate::runner::TestResult> = match bound {
        LowerBound::None => Vec::new(),
        LowerBound::All { must_pass: true } if result.verdict != Verdict::Accepted => Vec::new(),
        LowerBound::All { must_pass: false } if !in_time(result.verdict) => Vec::new(),
        LowerBound::All { .. } => result.tests.iter().collect(),
        LowerBound::Groups(rules) => {
            let tests: Vec<_> = result
                .tests
                .iter()
                .filter(|test| rules.iter().any(|rule| rule.applies_to(&test.name)))
                .collect();
            if tests.iter().all(|test| in_time(test.verdict)) && result.compile.verdict.is_none() {
                tests
            } else {
                Vec::new()
            }
        }
    };
    tests
        .into_iter()
        .map(|test| (test.time_ms, &result.submission))
        .collect()
}

/// Runs the accepted submissions with a generous limit and derives the
/// time limit from the slowest. When none passes, the error says what
/// each got (a judge error when one was the judge's fault).
pub(super) fn derive_time_limit(
    plan: &PackagePlan,
    config: &JudgeConfig,
    overrides: &Overrides,
    tests: &[TestCase],
) -> Result<DerivedLimit, GradingError> {
    let package = &plan.package;
    let accepted: Vec<Submission> = plan
        .graded
        .iter()
        .filter(|(listed, _)| !matches!(plan.expectations.lower_bound(listed), LowerBound::None))
        .map(|(_, submission)| submission.clone())
        .collect();
    let generous = settings::resolve(
        &Overrides {
            time_limit_ms: Some(DERIVING_LIMIT_MS),
            ..*overrides
        },
        config,
        package,
    )
    .settings;
    // Each run of the runner needs a workspace of its own.
    let scratch = Workspace::new()?;
    let results = runner::run(
        &**package.problem(),
        &accepted,
        tests,
        &generous,
        &scratch,
        &plan.hidden,
        &mut |_| {},
    )?;
    let slowest = results
        .iter()
        .flat_map(|result| {
            let bound = plan
                .graded
                .iter()
                .find(|(listed, _)| listed.path.display().to_string() == result.submission)
                .map_or(LowerBound::None, |(listed, _)| {
                    plan.expectations.lower_bound(listed)
                });
            bounding_times(&bound, result)
        })
        .max();
    let Some((slowest_ms, slowest)) = slowest else {
        let no_limit = crate::grading::usage::NoTimeLimit {
            failures: results.iter().map(failure_of).collect(),
            sources: plan.expectations.limit_sources(),
        };
        return Err(
            if results
                .iter()
                .any(|result| result.verdict == Verdict::JudgeError)
            {
                GradingError::NoDerivedLimit(no_limit)
            } else {
                crate::grading::usage::UsageError::NoTimeLimit(no_limit).into()
            },
        );
    };
    Ok(DerivedLimit {
        limit_ms: derived_time_limit_ms(slowest_ms, plan.time_multiplier, plan.time_resolution_ms),
        slowest_ms,
        slowest: slowest.clone(),
        multiplier: plan.time_multiplier,
    })
}

/// "`path` VERDICT (first line of why)", for the error of a derivation.
fn failure_of(result: &SubmissionResult) -> String {
    let why = if result.compile.verdict.is_some() {
        result
            .compile
            .message
            .lines()
            .next()
            .unwrap_or("")
            .to_owned()
    } else {
        result
            .tests
            .iter()
            .find(|test| !test.verdict.is_accepted())
            .map(|test| format!("on {}: {}", test.name, test.message))
            .unwrap_or_default()
    };
    let why = why.trim();
    if why.is_empty() {
        format!("`{}` {}", result.submission, result.verdict)
    } else {
        format!("`{}` {} ({why})", result.submission, result.verdict)
    }
}

/// problemtools: the slowest accepted run times `time_multiplier`, rounded
/// up to a multiple of `resolution_ms` (`time_resolution`; 1 s by
/// default), at least one of it.
pub(crate) fn derived_time_limit_ms(slowest_ms: u64, multiplier: f64, resolution_ms: u64) -> u64 {
    let resolution_ms = resolution_ms.max(1);
    let exact = slowest_ms as f64 * multiplier / resolution_ms as f64;
    (exact.ceil().max(1.0) as u64).saturating_mul(resolution_ms)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::kattis_submissions;
    use crate::runner::TestResult;

    fn result(tests: &[(&str, Verdict, u64)]) -> SubmissionResult {
        let tests = tests
            .iter()
            .map(|(name, verdict, time_ms)| TestResult {
                time_ms: *time_ms,
                ..TestResult::fixture(name, *verdict)
            })
            .collect();
        let mut result = SubmissionResult::fixture("p", "s.py", tests);
        result.verdict = result
            .tests
            .iter()
            .map(|test| test.verdict)
            .find(|verdict| !verdict.is_accepted())
            .unwrap_or(Verdict::Accepted);
        result
    }

    /// See: issue #34 (BAPCtools' `testexpectations`, `tle`): a test
    /// group's `use_for_time_limit: lower` bounds the limit by that group's
    /// times only, and only when none of them ran out of time.
    #[test]
    fn a_group_lower_bound_counts_its_own_tests() {
        let expectations =
            kattis_submissions::parse("tle:\n  sample:\n    use_for_time_limit: lower\n").unwrap();
        let bound = LowerBound::Groups(expectations[0].rules.iter().skip(1).collect());
        let slow_secret = result(&[
            ("sample/1", Verdict::Accepted, 30),
            ("sample/3", Verdict::Accepted, 3000),
            ("secret/1", Verdict::TimeLimitExceeded, 10_000),
        ]);
        let times: Vec<u64> = bounding_times(&bound, &slow_secret)
            .into_iter()
            .map(|(time_ms, _)| time_ms)
            .collect();
        assert_eq!(times, [30, 3000]);
        let slow_sample = result(&[("sample/1", Verdict::TimeLimitExceeded, 10_000)]);
        assert!(bounding_times(&bound, &slow_sample).is_empty());
    }

    #[test]
    fn an_accepted_run_must_pass_unless_its_demand_was_replaced() {
        let wrong = result(&[("sample/1", Verdict::WrongAnswer, 40)]);
        assert!(bounding_times(&LowerBound::All { must_pass: true }, &wrong).is_empty());
        assert_eq!(
            bounding_times(&LowerBound::All { must_pass: false }, &wrong).len(),
            1
        );
        assert!(bounding_times(&LowerBound::None, &wrong).is_empty());
    }
}
