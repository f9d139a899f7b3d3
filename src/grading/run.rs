//! What `judge run` came to, as the grading layer holds it (issue #33):
//! the domain types of a run's report, apart from the JSON report's wire
//! types (`report::json`, the schema), which are built from them in one
//! conversion and read back into them once at the edge ([`wire`]: `judge
//! report`). Nothing here is serialised. The command itself, from its
//! request to its exit, is [`command`].
//!
//! The words a run says about its tests ([`TestsRun::describe`], the
//! footer under the table) are decided here, from these types, whether the
//! run just happened or its report was read back.

mod command;
pub(crate) mod wire;

pub(crate) use self::command::{run, RunCommand, RunRequest};
use crate::report::Ungraded;
use crate::runner::SubmissionResult;
use crate::sandbox::Isolation;

/// A run's report: its results, what an interrupt left, the tests it ran
/// and the isolation they ran under.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Run {
    /// The isolation the results were measured under; `None` for a report
    /// that recorded none.
    pub(crate) isolation: Option<RecordedIsolation>,
    /// Stopped by a signal: `results` holds what finished, `not_graded`
    /// the rest.
    pub(crate) interrupted: bool,
    /// Interrupted before any test ran: what the run was doing; `None`
    /// when tests ran (or it was not interrupted).
    pub(crate) interrupted_while: Option<crate::report::json::BeforeTests>,
    /// Submissions an interrupted run did not finish, each with the
    /// student its path names (a run records none).
    pub(crate) not_graded: Vec<Ungraded>,
    /// Which tests ran; `None` for a report that does not say.
    pub(crate) tests: Option<TestsRun>,
    /// One per submission that finished, in the order given.
    pub(crate) results: Vec<SubmissionResult>,
}

impl Run {
    /// The footer's line about the tests ([`TestsRun::describe`]), or
    /// nothing for a report that does not say which ran.
    pub(crate) fn describe_tests(&self) -> String {
        self.tests
            .as_ref()
            .map(TestsRun::describe)
            .unwrap_or_default()
    }
}

/// The isolation a run's report records.
#[derive(Clone, Debug)]
pub(crate) enum RecordedIsolation {
    /// This process's, as the sandbox describes it: a run just graded.
    InForce(Isolation),
    /// As a saved report wrote it, kept byte for byte: it was another
    /// machine's, or another moment's, and this judge does not read it.
    AsWritten(Box<serde_json::value::RawValue>),
}

/// The same isolation in force, or the same text as written.
impl PartialEq for RecordedIsolation {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (RecordedIsolation::InForce(left), RecordedIsolation::InForce(right)) => left == right,
            (RecordedIsolation::AsWritten(left), RecordedIsolation::AsWritten(right)) => {
                left.get() == right.get()
            }
            (RecordedIsolation::InForce(_), RecordedIsolation::AsWritten(_))
            | (RecordedIsolation::AsWritten(_), RecordedIsolation::InForce(_)) => false,
        }
    }
}

/// Which tests a run ran, and why that many random ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TestsRun {
    /// Where the fixed tests came from: the `--tests` folder, or `package
    /// <id>`.
    pub(crate) fixed: String,
    /// How many fixed tests.
    pub(crate) fixed_count: usize,
    /// How many random tests were added.
    pub(crate) random: u32,
    /// Who asked for them.
    pub(crate) random_asked_by: RandomAskedBy,
    /// The `--tests` inputs the problem's validator rejects (they still
    /// run: their verdicts say nothing about the problem).
    pub(crate) invalid: Vec<InvalidInput>,
}

/// Who asked for a run's random tests
/// ([`crate::grading::settings::random_tests`] decides).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RandomAskedBy {
    /// `--random N`.
    Flag,
    /// judge.toml's own `random-tests`.
    JudgeToml,
    /// The built-in `random-tests` (no `--tests` folder).
    Default,
    /// Nobody: a `--tests` folder runs exactly, or no generator.
    Nobody,
    /// Nobody: a platform's results file grades the package's own tests,
    /// as the platform's autograder does.
    Platform,
}

impl RandomAskedBy {
    /// Its name in the footer and in the JSON report's `random_from`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            RandomAskedBy::Flag => "--random",
            RandomAskedBy::JudgeToml => "judge.toml",
            RandomAskedBy::Default => "default",
            RandomAskedBy::Nobody => "none",
            RandomAskedBy::Platform => "platform",
        }
    }
}

/// A `--tests` input that is not a valid input of the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct InvalidInput {
    /// The test's name (its file's stem).
    pub(crate) name: String,
    /// The input file, as given under `--tests`.
    pub(crate) file: String,
    /// What the validator says is wrong (`line L: ...`).
    pub(crate) reason: String,
}

impl TestsRun {
    /// One line for the table's footer, e.g. `tests: 4 from my-tests only
    /// (no random tests: --tests runs exactly its folder unless --random N
    /// or judge.toml's random-tests asks for more)`.
    pub(crate) fn describe(&self) -> String {
        if self.random == 0 {
            let why = match self.random_asked_by {
                RandomAskedBy::Platform => {
                    " (no random tests: a platform's results file grades the package's own \
                     tests, as its autograder does, unless --random N asks for more)"
                }
                // No `--tests` folder: the package has no generator.
                RandomAskedBy::Nobody if self.fixed.starts_with("package ") => {
                    " (no random tests: the package has no generator of random tests)"
                }
                RandomAskedBy::Nobody => {
                    " (no random tests: --tests runs exactly its folder unless --random N or \
                     judge.toml's random-tests asks for more)"
                }
                RandomAskedBy::Flag | RandomAskedBy::JudgeToml | RandomAskedBy::Default => "",
            };
            format!(
                "tests: {} from {} only{}{why}",
                self.fixed_count,
                self.fixed,
                self.invalid_note()
            )
        } else {
            format!(
                "tests: {} from {}{} + {} random (from {})",
                self.fixed_count,
                self.fixed,
                self.invalid_note(),
                self.random,
                self.random_asked_by.name()
            )
        }
    }

    /// `, 1 of them invalid for the problem (big)`, or nothing.
    fn invalid_note(&self) -> String {
        if self.invalid.is_empty() {
            return String::new();
        }
        let names: Vec<String> = self
            .invalid
            .iter()
            .map(|test| crate::visible::visible_name(&test.name))
            .collect();
        format!(
            ", {} of them invalid for the problem ({})",
            self.invalid.len(),
            names.join(", ")
        )
    }
}

#[cfg(test)]
mod tests;
