//! What a grade came to, as the grading layer holds it (issue #33): the
//! domain types of `judge grade`, `judge grade --package` and `judge
//! merge`, apart from the JSON report's wire types (`report::json`, the
//! schema), which are built from them in one conversion and read back into
//! them once at the edge ([`wire`]). Nothing here is serialised.
//!
//! A plain fact with no decision in it — a pair with no hand-in
//! ([`Missing`]), a file not graded ([`Ignored`]), a pair an interrupt left
//! ungraded with its student ([`Ungraded`]) — is the report layer's render
//! value, held here as is; what a pair came to beyond its facts (whether
//! it agrees with its folder, its score) is [`super::graded`]'s answer to
//! `report::Row`.

pub(crate) mod wire;

use crate::config::judge::{JudgeConfig, Layout};
use crate::report::json::{BeforeTests, JUDGE_VERSION};
use crate::report::{Ignored, Missing, Ungraded};
use crate::runner::SubmissionResult;
use crate::verdict::Verdict;

/// A grade: its results, the class around them, and what they depend on.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Grade {
    /// The isolation in force, kept as written: a merged grade may come
    /// from other machines.
    pub(crate) isolation: Option<serde_json::Value>,
    /// judge.toml's `layout`.
    pub(crate) layout: Layout,
    /// Which part of a split run this is; `None` for a whole run.
    pub(crate) shard: Option<ShardInfo>,
    /// The judge that graded it; `None` for a report of an older judge.
    pub(crate) judge_version: Option<String>,
    /// Stopped by SIGINT or SIGTERM: `results` holds the pairs that
    /// finished, `not_graded` the others.
    pub(crate) interrupted: bool,
    /// Interrupted before any test ran: what the grade was doing; `None`
    /// when tests ran (or it was not interrupted).
    pub(crate) interrupted_while: Option<BeforeTests>,
    pub(crate) not_graded: Vec<Ungraded>,
    /// What the results depend on besides the submissions; `None` for a
    /// report of an older judge.
    pub(crate) graded_with: Option<GradedWith>,
    /// Files not graded, and why.
    pub(crate) ignored: Vec<Ignored>,
    /// A class's (student, problem) pairs with no hand-in.
    pub(crate) missing: Vec<Missing>,
    /// In the unsharded order: by submission path, then problem.
    pub(crate) results: Vec<GradedResult>,
}

/// Which part of a split run a grade is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ShardInfo {
    /// 1-based.
    pub(crate) index: usize,
    pub(crate) count: usize,
    /// (submission, problem) pairs of the whole run, so a merge can tell
    /// that a shard is missing; `None` when the shard did not know them (a
    /// signal stopped it before its package was loaded).
    pub(crate) pairs: Option<usize>,
}

/// The judge and the judge.toml settings that decide which tests run and
/// under which limits: shards that differ in any of it are not merged.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GradedWith {
    pub(crate) judge_version: String,
    /// judge.toml's master seed; `None`: each package's own.
    pub(crate) seed: Option<u64>,
    /// Random tests per package.
    pub(crate) random_tests: u32,
    /// judge.toml's `[limits]` that replace the packages' (`None`: the
    /// package's own), and the wall-clock factor.
    pub(crate) time_limit_ms: Option<u64>,
    pub(crate) memory_limit_mib: Option<u64>,
    pub(crate) output_limit_kib: Option<u64>,
    pub(crate) wall_time_factor: f64,
}

impl GradedWith {
    /// What `config` grades with, by this judge.
    pub(crate) fn of(config: &JudgeConfig) -> GradedWith {
        GradedWith {
            judge_version: JUDGE_VERSION.to_owned(),
            seed: config.seed,
            random_tests: config.random_tests,
            time_limit_ms: config.limits.time_limit_ms,
            memory_limit_mib: config.limits.memory_limit_mib,
            output_limit_kib: config.limits.output_limit_kib,
            wall_time_factor: config.wall_time_factor,
        }
    }
}

/// One (submission, problem) pair of a grade.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GradedResult {
    /// The runner's result.
    pub(crate) result: SubmissionResult,
    /// The student (a class's layouts) or the example's file stem
    /// (`expected`), as discovery found it.
    pub(crate) student: String,
    /// Layout `expected`, `grade --package`: what the submission had to get.
    pub(crate) expected: Option<Expected>,
    /// The CPU time limit of each test, after the language's `time-factor`.
    pub(crate) time_limit_ms: u64,
    pub(crate) memory_limit_mib: u64,
    /// Verdicts sensitive to the time limit, and similar notes.
    pub(crate) warnings: Vec<String>,
    /// SHA-256 of the submission's bytes (hex), when it could be read.
    pub(crate) submission_sha256: Option<String>,
    /// SHA-256 (hex) of everything else that decided the result
    /// (`super::resume::Fingerprint`).
    pub(crate) fingerprint: Option<String>,
    /// Taken from the report given to `--resume` instead of graded again.
    pub(crate) reused: bool,
    /// Every file handed in for the pair when there were several (none was
    /// run), else empty.
    pub(crate) handed_in: Vec<String>,
}

/// What a submission had to get: its verdict folder, the verdict it
/// demands, and what else it accepts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Expected {
    pub(crate) folder: String,
    /// What `folder` names, as the package's format says it: a verdict
    /// folder, or a Polygon solution's tag.
    pub(crate) kind: crate::package::format::ExpectedKey,
    /// `None` for a folder that names no verdict.
    pub(crate) verdict: Option<Verdict>,
    /// Other verdicts the folder accepts (Kattis' meanings).
    pub(crate) also: Vec<Verdict>,
    /// Whether the submission met what its folder demands, decided when it
    /// was graded where the verdict alone does not decide it; `None`: the
    /// verdict decides ([`super::graded::agrees`]).
    pub(crate) agrees: Option<bool>,
}

/// A pair not graded whose student nobody recorded (`judge run` has no
/// layout; an older judge's grade report did not write it): the student
/// is the one its path names under the layouts, decided here for every
/// report.
pub(crate) fn unrecorded(problem: String, submission: String) -> Ungraded {
    Ungraded {
        student: crate::discovery::student_from_path(&submission, &problem),
        problem,
        submission,
        recorded: false,
    }
}

/// Graded pairs for unit tests: one constructor, so a new field is added
/// in one place.
#[cfg(test)]
impl GradedResult {
    /// `result` graded for `student`: no expectation, a 1 s and 256 MiB
    /// limit, no warning, no digest, not reused.
    pub(crate) fn fixture(result: SubmissionResult, student: &str) -> GradedResult {
        GradedResult {
            result,
            student: student.to_owned(),
            expected: None,
            time_limit_ms: 1000,
            memory_limit_mib: 256,
            warnings: Vec::new(),
            submission_sha256: None,
            fingerprint: None,
            reused: false,
            handed_in: Vec::new(),
        }
    }
}

/// Grades for unit tests, beside [`GradedResult::fixture`]: one
/// constructor, so a new field is added in one place.
#[cfg(test)]
impl Grade {
    /// A whole, unsharded grade under `layout` holding `results`: no
    /// isolation, no judge version, no `graded_with`, nothing ignored,
    /// missing or left ungraded, not interrupted.
    pub(crate) fn fixture(layout: Layout, results: Vec<GradedResult>) -> Grade {
        Grade {
            isolation: None,
            layout,
            shard: None,
            judge_version: None,
            interrupted: false,
            interrupted_while: None,
            not_graded: Vec::new(),
            graded_with: None,
            ignored: Vec::new(),
            missing: Vec::new(),
            results,
        }
    }
}

#[cfg(test)]
mod tests;
