//! `judge grade --package DIR`: grade a package's own
//! `submissions/<verdict>/` against their folders, as the Kattis tools do
//! (issue #9). The grading is [`crate::grading::package`]'s; this file
//! words it.
//!
//! Exit codes: 0 every graded submission got its folder's verdict, 1 one
//! did not, 2 usage or configuration error (nothing run), 3 the judge
//! failed (a JE). Submissions in a language that is not configured are
//! listed as skipped with the reason, not counted. The reports (`--json`,
//! `--junit`, `--csv`, `--html`), `--shard`, `--resume`, `--student-view`
//! and `-q` work as for `judge grade`.

use super::reports::ReportArgs;
use super::{announce_isolation, say, say_hint};
use crate::config::judge::JudgeConfig;
use crate::discovery::Shard;
use crate::error::Error;
use crate::exit::Outcome;
use crate::grading::package::{self, PackageOptions};
use crate::grading::resume;
use crate::grading::settings;
use crate::grading::{package_table, progress::Progress, reports};
use crate::interrupt::Cancellation;
use crate::report::progress::GradeBar;
use std::path::Path;

/// What `judge grade --package` was given besides the folder.
#[derive(Debug)]
pub(super) struct PackageRequest<'a> {
    /// `--config FILE`.
    pub(crate) config: Option<&'a Path>,
    /// `--jobs N`.
    pub(crate) jobs: Option<u64>,
    /// `--all-tests`.
    pub(crate) all_tests: bool,
    /// `--json FILE`.
    pub(crate) json: Option<&'a Path>,
    /// `--junit`, `--csv`, `--html`.
    pub(crate) reports: &'a ReportArgs,
    /// `--shard K/N`.
    pub(crate) shard: Option<Shard>,
    /// `--resume REPORT`.
    pub(crate) resume: Option<&'a Path>,
    /// `-q`.
    pub(crate) quiet: bool,
    /// `--student-view`.
    pub(crate) student_view: bool,
    /// `--similarity` (refused: a package's examples are no class).
    pub(crate) similarity: bool,
}

/// Grades the package in `dir`.
pub(super) fn run(request: &PackageRequest<'_>, dir: &Path) -> Result<Outcome, Error> {
    package::refuse_similarity(request.similarity)?;
    request.reports.refuse_among(request.json, &[dir])?;
    reports::refuse_unwritable_platforms(&request.reports.files())?;
    let config = JudgeConfig::load_or_defaults(request.config)?;
    let student_view = settings::student_view(request.student_view, &config);
    let plan = package::start(dir, &config, &mut say)?;
    if let Some(line) = package_table::stated_line(&plan) {
        say(&line);
    }
    let resume::Opened {
        mut resume,
        json,
        journal,
    } = resume::open(request.json, request.resume, &mut say)?;
    let (bar, mut progress) = (GradeBar::new(request.quiet), Progress::new());
    let cancel = Cancellation::on_signals()?;
    announce_isolation();
    let (graded, journal) = package::grade(
        &plan,
        dir,
        &config,
        PackageOptions {
            jobs: request.jobs,
            all_tests: request.all_tests,
            shard: request.shard,
            resume: resume.as_mut(),
            journal,
            cancel: &cancel,
        },
        &mut |derived| {
            let line = package_table::derived_line(
                derived,
                plan.time_resolution_ms,
                student_view.is_some(),
            );
            bar.suspend(|| say(&line));
        },
        &mut |event| {
            progress.observe(&event);
            bar.show(&progress.line());
        },
    )?;
    bar.finish();
    if let Some(resume) = &resume {
        say(&resume.summary());
    }
    // Each report that can be written is, even when another (or the
    // journal) cannot, as for `judge grade`.
    let written = reports::write_graded(
        &graded.report,
        json,
        &request.reports.files().with_config(&config),
        student_view.is_some(),
        None,
        journal,
    );
    let to_stdout = request.reports.to_stdout(json);
    let journal = reports::say_settled(
        written,
        &graded.report,
        request.quiet,
        &mut super::terminal::Terminal::default(),
        &mut |console, quiet| {
            if !to_stdout {
                console.write(&package_table::table(
                    &graded,
                    quiet,
                    student_view.is_some(),
                ))?;
            }
            Ok(())
        },
    )
    .map_err(crate::grading::CommandError::<std::convert::Infallible>::from)?;
    if let Some(journal) = journal {
        journal.remove()?;
    }
    for hint in &graded.hints {
        say_hint(hint);
    }
    let stopped_by = cancel.signal();
    if let Some(signal) = stopped_by {
        say(&package_table::interrupted(signal.name()));
    }
    Ok(graded.outcome().unless_stopped(stopped_by))
}
