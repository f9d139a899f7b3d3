//! `judge merge`'s work: reads the JSON reports of `judge grade --shard K/N`
//! runs and merges them into the report of the whole run. It runs nothing;
//! a report that cannot be read or merged is the user's to fix (exit 2).

use super::GradingError;
use crate::report::json::{merge, parse_grade, GradeReport};
use std::path::PathBuf;

/// Reads every report and merges them (another version, overlapping pairs
/// or a missing shard is refused, naming the file).
pub(crate) fn read_and_merge(paths: &[PathBuf]) -> Result<GradeReport, GradingError> {
    let mut reports = Vec::with_capacity(paths.len());
    for path in paths {
        let text = fs_err::read_to_string(path).map_err(|error| {
            GradingError::usage(
                format!(
                    "cannot read the report `{}`: {}",
                    path.display(),
                    crate::config::io_reason(&error)
                ),
                None,
            )
        })?;
        let report = parse_grade(path, &text)
            .map_err(|error| GradingError::usage(error.to_string(), None))?;
        reports.push((path.clone(), report));
    }
    merge(reports).map_err(|error| GradingError::usage(error.to_string(), None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_or_broken_report_is_a_usage_error_naming_it() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let missing = dir.path().join("missing.json");
        let error = read_and_merge(std::slice::from_ref(&missing)).expect_err("refused");
        assert!(matches!(error, GradingError::Usage { .. }), "{error}");
        assert!(error.to_string().contains("missing.json"), "{error}");
        let broken = dir.path().join("broken.json");
        fs_err::write(&broken, "{").expect("write");
        let error = read_and_merge(&[broken]).expect_err("refused");
        assert!(matches!(error, GradingError::Usage { .. }), "{error}");
        assert!(error.to_string().contains("broken.json"), "{error}");
    }
}
