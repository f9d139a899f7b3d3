//! `judge merge`: combines the JSON reports of `judge grade --shard K/N`
//! runs into the report of the whole run, and renders the other formats
//! from it. It runs nothing.
//!
//! Exit codes: those of `judge grade` for the merged results; 2 when the
//! reports cannot be merged (another version, overlapping pairs, a shard
//! missing).

use super::grade::finish;
use super::reports::ReportArgs;
use crate::error::{Error, UsageError};
use crate::report::json::{merge, parse_grade};
use std::path::PathBuf;

/// Arguments of `judge merge`.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// The shard reports (`judge grade --shard K/N --json FILE`).
    #[arg(required = true, value_name = "REPORT")]
    pub reports: Vec<PathBuf>,
    /// Write the merged JSON report here (`-` for stdout, instead of the table).
    #[arg(long, short, value_name = "FILE")]
    pub output: PathBuf,
    #[command(flatten)]
    pub render: ReportArgs,
    /// No table: only the summary, disagreements and warnings.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Runs `judge merge` and returns its exit code.
pub fn run(args: MergeArgs) -> Result<u8, Error> {
    args.render.check(Some(&args.output))?;
    let mut reports = Vec::with_capacity(args.reports.len());
    for path in &args.reports {
        let text = fs_err::read_to_string(path).map_err(|error| {
            UsageError::new(
                format!(
                    "cannot read the report `{}`: {}",
                    path.display(),
                    crate::config::io_reason(&error)
                ),
                None,
            )
        })?;
        let report =
            parse_grade(path, &text).map_err(|error| UsageError::new(error.to_string(), None))?;
        reports.push((path.clone(), report));
    }
    let merged = merge(reports).map_err(|error| UsageError::new(error.to_string(), None))?;
    if merged.interrupted {
        super::say(&format!(
            "warning: an interrupted shard left {} pair(s) not graded (`not_graded` in the report)",
            merged.not_graded.len()
        ));
    }
    finish(
        &merged,
        Some(&args.output),
        &args.render,
        args.quiet,
        false,
        None,
    )
}
