//! `judge merge`: combines the JSON reports of `judge grade --shard K/N`
//! runs into the report of the whole run, and renders the other formats
//! from it. It runs nothing.
//!
//! Exit codes: those of `judge grade` for the merged results; 2 when the
//! reports cannot be merged (another version, overlapping pairs, a shard
//! missing).

use super::reports::ReportArgs;
use super::terminal::Terminal;
use crate::error::Error;
use crate::exit::Outcome;
use crate::grading::merge::{self, MergeCommand};
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

/// Runs `judge merge` and returns its exit code: the order is
/// [`merge::run`]'s, the printing [`Terminal`]'s.
pub(crate) fn run(args: MergeArgs) -> Result<Outcome, Error> {
    let command = MergeCommand {
        reports: &args.reports,
        targets: args.render.targets(Some(&args.output)),
        quiet: args.quiet,
    };
    Ok(merge::run(&command, &mut Terminal::default())?)
}
