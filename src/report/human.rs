//! The table `judge run` prints: per submission, a header line with the
//! overall verdict, then one row per test (verdict, CPU time, wall time,
//! memory, checker message), shaped like problemtools' results table.

use crate::runner::SubmissionResult;
use std::fmt::Write;

/// The longest checker message shown in a row; the JSON report has it all.
const MESSAGE_WIDTH: usize = 60;

/// One submission's block of the table.
pub fn render_submission(result: &SubmissionResult) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {} ({}): {} {}/{}",
        result.problem,
        result.submission,
        result.language,
        result.verdict,
        result.passed,
        result.total
    );
    if let Some(verdict) = result.compile.verdict {
        let _ = writeln!(out, "  {verdict}: compilation failed");
        let _ = writeln!(out, "  {}", "-".repeat(40));
        if result.compile.message.is_empty() {
            let _ = writeln!(out, "  <stderr is empty>");
        }
        for line in result.compile.message.lines() {
            let _ = writeln!(out, "  {line}");
        }
        let _ = writeln!(out, "  {}", "-".repeat(40));
        return out;
    }
    if result.tests.is_empty() {
        return out;
    }
    let width = result
        .tests
        .iter()
        .map(|test| test.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let _ = writeln!(
        out,
        "  {:width$}  {:7}  {:>9}  {:>9}  {:>11}  message",
        "test", "verdict", "cpu", "wall", "memory"
    );
    for test in &result.tests {
        let message: String = test
            .message
            .lines()
            .next()
            .unwrap_or("")
            .chars()
            .take(MESSAGE_WIDTH)
            .collect();
        let _ = writeln!(
            out,
            "  {:width$}  {:7}  {:>9}  {:>9}  {:>11}  {}",
            test.name,
            test.verdict.code(),
            format!("{} ms", test.time_ms),
            format!("{} ms", test.wall_ms),
            format!("{} KiB", test.memory_kib),
            message
        )
        .map(|()| ());
    }
    out
}
