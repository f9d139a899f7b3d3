//! The words of `judge grade --package`: the table of submissions against
//! their folders, ending with the tally of those that agree
//! ([`super::agreement`]), and the line saying how a time limit was
//! derived.

use super::package::{DerivedLimit, PackagePlan, PackageReport};
use crate::runner::SubmissionResult;
use crate::visible::{visible, visible_name};
use std::fmt::Write as _;

/// How the time limit was derived from the slowest accepted submission;
/// in the student view without that submission's time (its slowest test
/// may be a hidden one: a figure a program chose from a hidden input).
/// The limit itself is the problem's, public anyway.
pub(crate) fn derived_line(
    derived: &DerivedLimit,
    resolution_ms: u64,
    student_view: bool,
) -> String {
    let rounding = if resolution_ms == 1000 {
        "rounded up to whole seconds".to_owned()
    } else {
        format!(
            "rounded up to a multiple of time_resolution {} s",
            resolution_ms as f64 / 1000.0
        )
    };
    let slowest = if student_view {
        format!("`{}`", visible_name(&derived.slowest))
    } else {
        format!(
            "`{}`, {} ms",
            visible_name(&derived.slowest),
            derived.slowest_ms
        )
    };
    format!(
        "time limit: {} s, derived from the slowest accepted submission ({slowest}) x \
         time_multiplier {}, {rounding}",
        derived.limit_ms as f64 / 1000.0,
        derived.multiplier
    )
}

/// Where a stated time limit is stated (`` time limit: 8 s, stated in
/// `.timelimit` (read as `limits.time_limit`) ``), when the package's
/// format says; `None` for a limit to be derived.
pub(crate) fn stated_line(plan: &PackagePlan) -> Option<String> {
    let limit_ms = plan.time_limit_ms?;
    let stated_in = plan.time_limit_stated_in.as_ref()?;
    Some(format!(
        "time limit: {} s, stated in {stated_in}",
        limit_ms as f64 / 1000.0
    ))
}

/// The table: one line per submission (with `quiet`, only those that
/// disagree), then the tally. With `student_view`, a hidden test's failure
/// is shown as students see it ([`crate::report::hide_test_data`]): its
/// verdict and where, no expected value, exit code or signal.
pub(crate) fn table(report: &PackageReport, quiet: bool, student_view: bool) -> String {
    let mut table = String::new();
    let agree = report.rows.iter().filter(|row| row.agrees).count();
    for row in report.rows.iter().filter(|row| !quiet || !row.agrees) {
        let score = match (
            &row.result.groups.is_empty(),
            row.result.score,
            row.result.max_score,
        ) {
            (false, Some(score), Some(max)) => format!(", score {score} of {max}"),
            _ => String::new(),
        };
        let by = &row.decided_by;
        let _ = writeln!(
            table,
            "{} {}: {}{score} ({by}){}",
            if row.agrees { "ok      " } else { "MISMATCH" },
            visible_name(&row.listed.path.display().to_string()),
            row.result.verdict,
            first_failure(&row.result, student_view)
        );
        for group in &row.result.groups {
            let _ = writeln!(
                table,
                "           {}: {} of {} ({})",
                visible_name(&group.name),
                group.score,
                group.max_score,
                group.verdict
            );
        }
    }
    let _ = writeln!(
        table,
        "{}; {} skipped; time limit {} ms",
        super::agreement::tally(agree, report.rows.len(), Some(report.key)),
        report.skipped,
        report.time_limit_ms
    );
    table
}

/// " on TEST: message", for a submission that did not pass.
fn first_failure(result: &SubmissionResult, student_view: bool) -> String {
    if let Some(verdict) = result.compile.verdict {
        return format!(
            " ({verdict} at compile: {})",
            visible(result.compile.message.lines().next().unwrap_or(""))
        );
    }
    result
        .tests
        .iter()
        .find(|test| !test.verdict.is_accepted())
        .map_or_else(String::new, |test| {
            let mut shown = test.clone();
            if student_view {
                crate::report::hide_test_data(&mut shown);
            }
            format!(
                " on {}: {}",
                visible_name(&shown.name),
                visible(&shown.message)
            )
        })
}

/// What an interrupted `judge grade --package` says.
pub(crate) fn interrupted(signal: &str) -> String {
    format!("interrupted by {signal}: the reports hold the submissions that finished")
}
