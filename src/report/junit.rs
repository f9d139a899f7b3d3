//! JUnit XML (`--junit`) through quick-junit: one test suite per (problem,
//! submission), one test case per test. JE is an error (the judge failed);
//! every other non-AC verdict is a failure whose type is the verdict
//! (nextest's `non_success_kind_and_type`).

use super::visible::{visible, visible_name};
use crate::runner::SubmissionResult;
use crate::verdict::Verdict;
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
use std::time::Duration;

/// The XML text of a report.
pub fn render(results: &[SubmissionResult]) -> Result<String, quick_junit::SerializeError> {
    let mut report = Report::new("judge");
    for result in results {
        let submission = visible_name(&result.submission);
        let mut suite = TestSuite::new(format!("{} {submission}", visible_name(&result.problem)));
        if let Some(verdict) = result.compile.verdict {
            let mut case = TestCase::new("compile", status(verdict, &result.compile.message));
            case.set_classname(&submission);
            suite.add_test_case(case);
        }
        for test in &result.tests {
            let mut case = TestCase::new(
                visible_name(&test.name),
                status(test.verdict, &test.message),
            );
            case.set_classname(&submission)
                .set_time(Duration::from_millis(test.wall_ms));
            suite.add_test_case(case);
        }
        report.add_test_suite(suite);
    }
    report.to_string()
}

fn status(verdict: Verdict, message: &str) -> TestCaseStatus {
    let kind = match verdict {
        Verdict::Accepted => return TestCaseStatus::success(),
        Verdict::JudgeError => NonSuccessKind::Error,
        Verdict::WrongAnswer
        | Verdict::PresentationError
        | Verdict::TimeLimitExceeded
        | Verdict::MemoryLimitExceeded
        | Verdict::OutputLimitExceeded
        | Verdict::RuntimeError
        | Verdict::CompileError => NonSuccessKind::Failure,
    };
    let mut status = TestCaseStatus::non_success(kind);
    status
        .set_type(verdict.code())
        .set_message(visible(message));
    status
}
