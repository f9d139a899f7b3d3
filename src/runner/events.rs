//! What the runner tells its subscribers, and the results it hands back.
//!
//! Events arrive in submission order and, within a submission, in test
//! order, whatever `--jobs` is: the scheduler re-orders completions before
//! they are emitted, so every report is the same for any number of workers.

use crate::verdict::Verdict;
use serde::{Deserialize, Serialize};

/// Something the runner finished.
#[derive(Clone, Copy, Debug)]
pub enum Event<'a> {
    /// A submission was compiled (or found not to need it).
    CompileFinished {
        submission: &'a str,
        compile: &'a CompileResult,
    },
    /// One test of one submission finished.
    TestFinished {
        submission: &'a str,
        test: &'a TestResult,
    },
    /// Every test of a submission finished.
    SubmissionFinished { result: &'a SubmissionResult },
}

/// How compiling went.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompileResult {
    pub ok: bool,
    /// The compiler's message (trimmed), or why there was no compile.
    pub message: String,
    /// `CE` when the compiler rejected the program, `JE` when the judge could
    /// not compile it (missing toolchain, sandbox failure); absent when ok.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
}

/// Where a random test came from: `judge gen <problem> --seed SEED
/// --profile PROFILE` makes it as test INDEX (0-based).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RandomOrigin {
    pub seed: u64,
    pub profile: String,
    pub index: u64,
}

/// One test of one submission (SPEC.md's `tests[]` entry).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestResult {
    pub name: String,
    pub verdict: Verdict,
    /// CPU time of the whole process tree.
    pub time_ms: u64,
    pub wall_ms: u64,
    /// Peak memory, measured as `isolation.memory` says.
    pub memory_kib: u64,
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    /// The checker's reason, or which limit or crash ended the run.
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub random: Option<RandomOrigin>,
}

/// One submission against every test (SPEC.md's `results[]` entry).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubmissionResult {
    pub problem: String,
    pub submission: String,
    pub language: String,
    /// The first non-AC test verdict in test order; CE or JE when it did not
    /// compile; AC otherwise.
    pub verdict: Verdict,
    pub passed: usize,
    pub total: usize,
    pub compile: CompileResult,
    pub tests: Vec<TestResult>,
}

impl SubmissionResult {
    /// SPEC.md: "the first non-AC test verdict in test order, or AC".
    pub fn overall(compile: &CompileResult, tests: &[TestResult]) -> Verdict {
        if let Some(verdict) = compile.verdict {
            return verdict;
        }
        tests
            .iter()
            .map(|test| test.verdict)
            .find(|verdict| !verdict.is_accepted())
            .unwrap_or(Verdict::Accepted)
    }
}
