//! SPEC.md's JSON report (`--json`), `"version": 1`, plus the isolation in
//! force and, for random tests, where each came from.

use crate::runner::SubmissionResult;
use crate::sandbox::Isolation;
use serde::Serialize;

/// The report's format version (SPEC.md); bump it when a field changes
/// meaning, and say so in CHANGELOG.md.
pub const VERSION: u32 = 1;

#[derive(Serialize)]
struct Report<'a> {
    version: u32,
    isolation: &'a Isolation,
    results: &'a [SubmissionResult],
}

/// The JSON text of a report, pretty-printed, ending with a newline.
pub fn render(results: &[SubmissionResult], isolation: &Isolation) -> String {
    let report = Report {
        version: VERSION,
        isolation,
        results,
    };
    // Serialising plain structs of strings and numbers cannot fail.
    let mut text = serde_json::to_string_pretty(&report).unwrap_or_default();
    text.push('\n');
    text
}
