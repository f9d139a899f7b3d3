//! `judge grade --package DIR`: grade a package's own
//! `submissions/<verdict>/` against their folders, as the Kattis tools do
//! (issue #9). The grading is [`crate::grading::package`]'s; this file
//! words it.
//!
//! Exit codes: 0 every graded submission got its folder's verdict, 1 one
//! did not, 2 usage or configuration error (nothing run), 3 the judge
//! failed (a JE). Submissions in a language that is not configured are
//! listed as skipped with the reason, not counted.

use super::{announce_isolation, say, write_stdout};
use crate::config::judge::JudgeConfig;
use crate::error::{Error, UsageError};
use crate::grading::package::{self, PackageReport};
use crate::runner::SubmissionResult;
use std::fmt::Write as _;
use std::path::Path;

/// What `judge grade --package` was given besides the folder.
#[derive(Debug)]
pub(super) struct PackageRequest<'a> {
    /// `--config FILE`.
    pub config: Option<&'a Path>,
    /// `--jobs N`.
    pub jobs: Option<u64>,
    /// `--all-tests`.
    pub all_tests: bool,
    /// Whether a report, `--resume` or `--shard` flag was given (refused).
    pub reports_asked: bool,
}

/// Grades the package in `dir`.
pub(super) fn run(request: &PackageRequest<'_>, dir: &Path) -> Result<u8, Error> {
    if request.reports_asked {
        return Err(UsageError::new(
            "`--package` prints its own table and takes no report, `--resume`, `--shard` or \
             `--similarity` flag",
            None,
        )
        .into());
    }
    let config = JudgeConfig::load_or_defaults(request.config)?;
    let plan = package::plan(dir, &config)?;
    for (listed, reason) in &plan.skipped {
        say(&format!("skipped: {}: {reason}", listed.path.display()));
    }
    plan.refuse_empty(dir)?;
    announce_isolation();
    let report = package::grade(
        &plan,
        dir,
        &config,
        request.jobs,
        request.all_tests,
        &mut |derived| {
            say(&format!(
                "time limit: {} s, derived from the slowest accepted submission (`{}`, \
             {} ms) x time_multiplier {}, rounded up to whole seconds",
                derived.limit_ms / 1000,
                derived.slowest,
                derived.slowest_ms,
                derived.multiplier
            ));
        },
    )?;
    write_stdout(&render(&report))?;
    Ok(report.exit_code())
}

/// The table: one line per submission, then the tally.
fn render(report: &PackageReport) -> String {
    let mut table = String::new();
    let agree = report.rows.iter().filter(|row| row.agrees).count();
    for row in &report.rows {
        let score = match (
            &row.result.groups.is_empty(),
            row.result.score,
            row.result.max_score,
        ) {
            (false, Some(score), Some(max)) => format!(", score {score} of {max}"),
            _ => String::new(),
        };
        let _ = writeln!(
            table,
            "{} {}: {}{score} (folder {}){}",
            if row.agrees { "ok      " } else { "MISMATCH" },
            row.listed.path.display(),
            row.result.verdict,
            row.listed.folder,
            first_failure(&row.result)
        );
        for group in &row.result.groups {
            let _ = writeln!(
                table,
                "           {}: {} of {} ({})",
                group.name, group.score, group.max_score, group.verdict
            );
        }
    }
    let _ = writeln!(
        table,
        "{agree} of {} submissions got their folder's verdict; {} skipped; time limit {} ms",
        report.rows.len(),
        report.skipped,
        report.time_limit_ms
    );
    table
}

/// " on TEST: message", for a submission that did not pass.
fn first_failure(result: &SubmissionResult) -> String {
    if let Some(verdict) = result.compile.verdict {
        return format!(
            " ({verdict} at compile: {})",
            result.compile.message.lines().next().unwrap_or("")
        );
    }
    result
        .tests
        .iter()
        .find(|test| !test.verdict.is_accepted())
        .map_or_else(String::new, |test| {
            format!(" on {}: {}", test.name, test.message)
        })
}
