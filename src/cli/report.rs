//! `judge report`: renders a saved JSON report (`judge grade`, `judge
//! merge` or `judge run --json`) into any report format again, without
//! grading, and with `--baseline` says what changed against an earlier
//! report ([`crate::grading::saved`], [`crate::grading::compare`]).
//!
//! Exit codes: without `--baseline`, those of the run the report is of (0
//! every verdict AC, or every example its folder's; 1 not; 3 a JE), a
//! partial report never 0; with `--baseline`, 0 when nothing regressed, 1
//! when something did, 3 for a JE in the report; 2 when a report cannot be
//! read (not JSON, another version, neither kind of report) or a path
//! cannot be written; 3 when a report file cannot be written.

use super::reports::ReportArgs;
use super::terminal::Terminal;
use crate::error::Error;
use crate::exit::Outcome;
use crate::grading::saved::{self, ReportCommand};
use std::path::PathBuf;

// Arguments of `judge report`.
#[derive(Debug, clap::Args)]
pub(crate) struct ReportCommandArgs {
    /// The JSON report to render (`judge grade --json`, `judge merge -o`,
    /// `judge run --json`; `-` reads standard input).
    #[arg(value_name = "REPORT")]
    pub(crate) report: PathBuf,
    /// Write the JSON report again here (`-` for stdout): with
    /// `--student-view`, the report to hand to students.
    #[arg(long, value_name = "FILE")]
    pub(crate) json: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) render: ReportArgs,
    /// Render what students may see: hidden tests (all but the samples)
    /// without their input, expected and actual output.
    #[arg(long)]
    pub(crate) student_view: bool,
    /// Compare with this earlier JSON report (a committed baseline): one
    /// line per (problem, student) that changed, then a summary; exit 1
    /// when something that passed in the baseline does not now.
    #[arg(long, value_name = "OLD")]
    pub(crate) baseline: Option<PathBuf>,
    /// With `--baseline`: write the changes as JSON here (`-` for stdout).
    #[arg(long, value_name = "FILE", requires = "baseline")]
    pub(crate) changes: Option<PathBuf>,
    /// No table: only the summary and warnings.
    #[arg(long, short)]
    pub(crate) quiet: bool,
}

/// Runs `judge report` and returns its exit code: the order is
/// [`saved::run`]'s, the printing [`Terminal`]'s.
pub(crate) fn run(args: &ReportCommandArgs) -> Result<Outcome, Error> {
    let command = ReportCommand {
        report: &args.report,
        baseline: args.baseline.as_deref(),
        changes: args.changes.as_deref(),
        targets: args.render.targets(args.json.as_deref()),
        student_view: args.student_view,
        quiet: args.quiet,
    };
    Ok(saved::run(&command, &mut Terminal::default())?)
}
