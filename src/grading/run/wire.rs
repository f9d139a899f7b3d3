//! The one conversion between a run and its JSON report (issue #33):
//! [`Run`] to `report::json::RunReport` when `judge run` (or `judge
//! report`) writes one, and back once at the edge when `judge report`
//! reads one. Every field is named on both sides (no `..`), so a field
//! added to either cannot be dropped silently.
//!
//! Reading back keeps the isolation as written, byte for byte, and gives
//! a pair not graded the student its path names (a run records none), as
//! a grade's reading does (`super::super::grade::wire`).

use super::{InvalidInput, RandomAskedBy, RecordedIsolation, Run, TestsRun};
use crate::report::json;
use crate::report::Ungraded;

impl From<&Run> for json::RunReport {
    fn from(run: &Run) -> json::RunReport {
        let Run {
            isolation,
            interrupted,
            interrupted_while,
            not_graded,
            tests,
            results,
        } = run;
        json::RunReport {
            version: json::VERSION,
            isolation: isolation.as_ref().map(json::RunIsolation::from),
            interrupted: *interrupted,
            interrupted_while: *interrupted_while,
            not_graded: not_graded.iter().map(json::NotGraded::from).collect(),
            tests: tests.as_ref().map(json::TestSelection::from),
            results: results.clone(),
        }
    }
}

/// A report already checked to be of this version (`super::super::saved`):
/// its `version` says nothing more.
impl From<json::RunReport> for Run {
    fn from(report: json::RunReport) -> Run {
        let json::RunReport {
            version: _,
            isolation,
            interrupted,
            interrupted_while,
            not_graded,
            tests,
            results,
        } = report;
        Run {
            isolation: isolation.map(RecordedIsolation::from),
            interrupted,
            interrupted_while,
            not_graded: not_graded.into_iter().map(Ungraded::from).collect(),
            tests: tests.map(TestsRun::from),
            results,
        }
    }
}

impl From<&RecordedIsolation> for json::RunIsolation {
    fn from(isolation: &RecordedIsolation) -> json::RunIsolation {
        match isolation {
            RecordedIsolation::InForce(isolation) => json::RunIsolation::InForce(isolation.clone()),
            RecordedIsolation::AsWritten(text) => json::RunIsolation::AsWritten(text.clone()),
        }
    }
}

impl From<json::RunIsolation> for RecordedIsolation {
    fn from(isolation: json::RunIsolation) -> RecordedIsolation {
        match isolation {
            json::RunIsolation::InForce(isolation) => RecordedIsolation::InForce(isolation),
            json::RunIsolation::AsWritten(text) => RecordedIsolation::AsWritten(text),
        }
    }
}

impl From<&TestsRun> for json::TestSelection {
    fn from(tests: &TestsRun) -> json::TestSelection {
        let TestsRun {
            fixed,
            fixed_count,
            random,
            random_asked_by,
            invalid,
        } = tests;
        json::TestSelection {
            fixed: fixed.clone(),
            fixed_count: *fixed_count,
            random: *random,
            random_from: json::RandomFrom::from(*random_asked_by),
            invalid: invalid.iter().map(json::InvalidTest::from).collect(),
        }
    }
}

impl From<json::TestSelection> for TestsRun {
    fn from(tests: json::TestSelection) -> TestsRun {
        let json::TestSelection {
            fixed,
            fixed_count,
            random,
            random_from,
            invalid,
        } = tests;
        TestsRun {
            fixed,
            fixed_count,
            random,
            random_asked_by: RandomAskedBy::from(random_from),
            invalid: invalid.into_iter().map(InvalidInput::from).collect(),
        }
    }
}

impl From<RandomAskedBy> for json::RandomFrom {
    fn from(asked_by: RandomAskedBy) -> json::RandomFrom {
        match asked_by {
            RandomAskedBy::Flag => json::RandomFrom::Flag,
            RandomAskedBy::JudgeToml => json::RandomFrom::JudgeToml,
            RandomAskedBy::Default => json::RandomFrom::Default,
            RandomAskedBy::Nobody => json::RandomFrom::None,
            RandomAskedBy::Platform => json::RandomFrom::Platform,
        }
    }
}

impl From<json::RandomFrom> for RandomAskedBy {
    fn from(random_from: json::RandomFrom) -> RandomAskedBy {
        match random_from {
            json::RandomFrom::Flag => RandomAskedBy::Flag,
            json::RandomFrom::JudgeToml => RandomAskedBy::JudgeToml,
            json::RandomFrom::Default => RandomAskedBy::Default,
            json::RandomFrom::None => RandomAskedBy::Nobody,
            json::RandomFrom::Platform => RandomAskedBy::Platform,
        }
    }
}

impl From<&InvalidInput> for json::InvalidTest {
    fn from(input: &InvalidInput) -> json::InvalidTest {
        let InvalidInput { name, file, reason } = input;
        json::InvalidTest {
            name: name.clone(),
            file: file.clone(),
            reason: reason.clone(),
        }
    }
}

impl From<json::InvalidTest> for InvalidInput {
    fn from(input: json::InvalidTest) -> InvalidInput {
        let json::InvalidTest { name, file, reason } = input;
        InvalidInput { name, file, reason }
    }
}

/// The JSON text of a run's report, pretty-printed, ending with a newline.
pub(crate) fn render(run: &Run) -> Result<String, serde_json::Error> {
    json::render_run(&json::RunReport::from(run))
}

/// Reads a run's report, whose version the caller has checked, into a run.
pub(crate) fn parse(text: &str) -> Result<Run, serde_json::Error> {
    json::parse_run(text).map(Run::from)
}
