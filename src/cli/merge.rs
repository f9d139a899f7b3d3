//! `judge merge`: combines the JSON reports of `judge grade --shard K/N`
//! runs into the report of the whole run, and renders the other formats
//! from it. It runs nothing.
//!
//! Exit codes: those of `judge grade` for the merged results; 2 when the
//! reports cannot be merged (another version, overlapping pairs, a shard
//! missing).

use super::grade::finish;
use super::reports::ReportArgs;
use crate::error::Error;
use crate::exit::Outcome;
use crate::grading::merge::read_and_merge;
use std::path::PathBuf;

// Arguments of `judge merge`.
#[derive(Debug, clap::Args)]
pub(crate) struct MergeArgs {
    /// The shard reports (`judge grade --shard K/N --json FILE`).
    #[arg(required = true, value_name = "REPORT")]
    pub(crate) reports: Vec<PathBuf>,
    /// Write the merged JSON report here (`-` for stdout, instead of the table).
    #[arg(long, short, value_name = "FILE")]
    pub(crate) output: PathBuf,
    #[command(flatten)]
    pub(crate) render: ReportArgs,
    /// No table: only the summary, disagreements and warnings.
    #[arg(long, short)]
    pub(crate) quiet: bool,
}

/// Runs `judge merge` and returns its exit code.
pub(crate) fn run(args: MergeArgs) -> Result<Outcome, Error> {
    args.render.check(Some(&args.output))?;
    let merged = read_and_merge(&args.reports)?;
    if merged.interrupted {
        super::say(&format!(
            "warning: an interrupted shard left {} pair(s) not graded (`not_graded` in the report)",
            merged.not_graded.len()
        ));
    }
    finish(
        &merged,
        Some(&args.output),
        &args.render.files(),
        args.quiet,
        false,
        None,
        Ok(None),
    )?;
    Ok(crate::grading::policy::grade_outcome(&merged))
}
