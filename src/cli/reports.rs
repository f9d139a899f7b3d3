//! The report files of `judge run`, `judge grade` and `judge merge`: their
//! flags, the checks of their paths before anything runs, and the wording
//! of what writing them came to; writing them is
//! [`crate::grading::reports`]'s.

use crate::error::Error;
use crate::grading::reports::{self, ReportFiles, Written};
use crate::report;
use crate::report::json::GradeReport;
use crate::report::targets::{TargetError, Targets};
use crate::resume::Journal;
use std::path::{Path, PathBuf};

/// Report files rendered from results, by `judge run`, `judge grade` and
/// `judge merge` alike.
#[derive(Debug, Clone, clap::Args)]
pub struct ReportArgs {
    /// Write a JUnit XML report here: one suite per submission and problem.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Write a CSV gradebook here: student, problem, score, verdict, passed, total.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write an HTML report here: the class page (matrix, per-problem
    /// summaries, students by score) and, in a folder beside it named after
    /// FILE (`grades.html`: `grades/`), a page per submission with each test's
    /// input, expected and actual output and a diff; `-` prints one page.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

impl ReportArgs {
    /// The report paths, with the command's `--json` (merge's `-o`).
    fn targets<'a>(&'a self, json: Option<&'a Path>) -> Targets<'a> {
        Targets {
            json,
            junit: self.junit.as_deref(),
            csv: self.csv.as_deref(),
            html: self.html.as_deref(),
        }
    }

    /// Checks every report path before anything runs ([`Targets::check`]).
    pub(crate) fn check(&self, json: Option<&Path>) -> Result<(), TargetError> {
        self.targets(json).check()
    }

    /// Refuses a report among the hand-ins ([`Targets::refuse_among`]).
    pub(crate) fn refuse_among(
        &self,
        json: Option<&Path>,
        protected: &[&Path],
    ) -> Result<(), TargetError> {
        self.targets(json).refuse_among(protected)
    }

    /// Whether one of these reports, or `json`, goes to standard output
    /// ([`Targets::any_to_stdout`]).
    pub(crate) fn to_stdout(&self, json: Option<&Path>) -> bool {
        self.targets(json).any_to_stdout()
    }

    /// The files asked for, as the library writes them.
    pub(crate) fn files(&self) -> ReportFiles<'_> {
        ReportFiles {
            junit: self.junit.as_deref(),
            csv: self.csv.as_deref(),
            html: self.html.as_deref(),
        }
    }
}

/// Writes one report to `path`, or to standard output for `-`.
pub(crate) fn write_report(path: &Path, text: &str) -> Result<(), Error> {
    Ok(reports::write_report(path, text)?)
}

/// Says what writing a grade's reports came to ([`Written`]) and returns
/// the journal to remove, or the error to end with. `show(quiet)` prints the
/// table and the summary: after every report was written, and without the
/// table (`quiet`) after the journal failed but the reports did not.
pub(super) fn settle(
    written: Written,
    report: &GradeReport,
    quiet: bool,
    show: &mut dyn FnMut(bool) -> Result<(), Error>,
) -> Result<Option<Journal>, Error> {
    let say_each = |also: Vec<crate::grading::GradingError>| {
        for other in also {
            super::say(&format!("error: {:#}", Error::from(other)));
        }
    };
    match written {
        Written::All { journal } => {
            show(quiet)?;
            Ok(journal)
        }
        Written::Failed { first, also } => {
            say_each(also);
            Err(first.into())
        }
        Written::JournalFailed { error, reports } => {
            super::say(&report::human::journal_failed(report, &error.path));
            let shown = match reports {
                Ok(()) => show(true),
                Err((first, also)) => {
                    say_each(also);
                    Err(first.into())
                }
            };
            if let Err(other) = shown {
                super::say(&format!("error: {:#}", anyhow::Error::from(other)));
            }
            Err(error.into())
        }
    }
}
