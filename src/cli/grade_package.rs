//! `judge grade --package DIR`: grade a package's own
//! `submissions/<verdict>/` against their folders, as the Kattis tools do
//! (issue #9). The grading is [`crate::grading::package`]'s; this file
//! words it.
//!
//! Exit codes: 0 every graded submission got its folder's verdict, 1 one
//! did not, 2 usage or configuration error (nothing run), 3 the judge
//! failed (a JE). Submissions in a language that is not configured are
//! listed as skipped with the reason, not counted. The reports (`--json`,
//! `--junit`, `--csv`, `--html`), `--shard`, `--resume` and `-q` work as
//! for `judge grade`.

use super::reports::ReportArgs;
use super::{announce_isolation, say, write_stdout};
use crate::config::judge::JudgeConfig;
use crate::error::Error;
use crate::grade::Shard;
use crate::grading::class::{self, ClassEvent};
use crate::grading::package::{self, PackageOptions};
use crate::grading::{package_table, progress::Progress};
use crate::interrupt::Cancellation;
use crate::report::progress::GradeBar;
use crate::resume;
use std::path::Path;

/// What `judge grade --package` was given besides the folder.
#[derive(Debug)]
pub(super) struct PackageRequest<'a> {
    /// `--config FILE`.
    pub config: Option<&'a Path>,
    /// `--jobs N`.
    pub jobs: Option<u64>,
    /// `--all-tests`.
    pub(crate) all_tests: bool,
    /// `--json FILE`.
    pub json: Option<&'a Path>,
    /// `--junit`, `--csv`, `--html`.
    pub reports: &'a ReportArgs,
    /// `--shard K/N`.
    pub shard: Option<Shard>,
    /// `--resume REPORT`.
    pub resume: Option<&'a Path>,
    /// `-q`.
    pub quiet: bool,
    /// `--similarity` (refused: a package's examples are no class).
    pub similarity: bool,
}

/// Grades the package in `dir`.
pub(super) fn run(request: &PackageRequest<'_>, dir: &Path) -> Result<u8, Error> {
    package::refuse_similarity(request.similarity)?;
    request.reports.refuse_among(request.json, &[dir])?;
    let config = JudgeConfig::load_or_defaults(request.config)?;
    let plan = package::plan(dir, &config)?;
    for (path, reason) in &plan.skipped_programs {
        say(&format!("skipped: {}: {reason}", path.display()));
    }
    for (listed, reason) in &plan.skipped {
        say(&format!("skipped: {}: {reason}", listed.path.display()));
    }
    plan.refuse_empty(dir)?;
    let resume = request.resume.map(class::load_resume).transpose()?;
    if let Some(note) = resume.as_ref().and_then(|(_, note)| note.clone()) {
        say(&note);
    }
    let mut resume = resume.map(|(resume, _)| resume);
    let (json, mut journal) = resume::report_and_journal(request.json, request.resume)?;
    let (mut journal_error, bar, mut progress) =
        (None, GradeBar::new(request.quiet), Progress::new());
    let cancel = Cancellation::on_signals()?;
    announce_isolation();
    let report = package::grade(
        &plan,
        dir,
        &config,
        PackageOptions {
            jobs: request.jobs,
            all_tests: request.all_tests,
            shard: request.shard,
            resume: resume.as_mut(),
            cancel: &cancel,
        },
        &mut |derived| {
            let line = package_table::derived_line(derived, plan.time_resolution_ms);
            bar.suspend(|| say(&line));
        },
        &mut |event| {
            progress.observe(&event);
            bar.show(&progress.line());
            if let ClassEvent::Finished(graded) = event {
                if let Some(writing) = journal.as_mut() {
                    if let Err(error) = writing.append(graded) {
                        cancel.cancel();
                        journal_error = Some(error);
                        journal = None;
                    }
                }
            }
        },
    )?;
    bar.finish();
    if let Some(resume) = &resume {
        say(&resume.summary());
    }
    if let Some(error) = journal_error {
        return Err(error.into());
    }
    // Each report that can be written is, even when another cannot.
    let failures = crate::grading::reports::write_grade(
        &report.report,
        json,
        &request.reports.files(),
        false,
        None,
    );
    if let Some(first) = failures.into_iter().next() {
        return Err(first.into());
    }
    if let Some(journal) = journal {
        journal.remove()?;
    }
    let to_stdout = request.reports.to_stdout(json);
    if !to_stdout {
        write_stdout(&package_table::table(&report, request.quiet))?;
    }
    if let Some(signal) = cancel.signal() {
        say(&package_table::interrupted(signal.name()));
        return Ok(signal.exit_code());
    }
    Ok(report.exit_code())
}
