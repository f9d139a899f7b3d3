//! The report files of `judge run`, `judge grade` and `judge merge`: their
//! flags, the checks of their paths before anything runs, and the wording
//! of what writing them came to; writing them is
//! [`crate::grading::reports`]'s.

use crate::error::Error;
use crate::grading::class;
use crate::grading::reports::{self, ReportFiles, Written};
use crate::report;
use crate::report::json::GradeReport;
use crate::report::targets::{TargetError, Targets};
use crate::resume::{Journal, Resume};
use std::path::{Path, PathBuf};

// Report files rendered from results, by `judge run`, `judge grade` and
// `judge merge` alike.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct ReportArgs {
    /// Write a JUnit XML report here: one suite per submission and problem.
    #[arg(long, value_name = "FILE")]
    pub(crate) junit: Option<PathBuf>,
    /// Write a CSV gradebook here: student, problem, score, verdict, passed, total.
    #[arg(long, value_name = "FILE")]
    pub(crate) csv: Option<PathBuf>,
    /// Write an HTML report here: the class page (matrix, per-problem
    /// summaries, students by score) and, in a folder beside it named after
    /// FILE (`grades.html`: `grades/`), a page per submission with each test's
    /// input, expected and actual output and a diff; `-` prints one page.
    #[arg(long, value_name = "FILE")]
    pub(crate) html: Option<PathBuf>,
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

/// Says what writing a grade's reports came to ([`reports::settle`]) and
/// returns the journal to remove, or the error to end with. `show(quiet)`
/// prints the table (unless `quiet`) and the summary.
pub(super) fn settle(
    written: Written,
    report: &GradeReport,
    quiet: bool,
    show: &mut dyn FnMut(bool) -> Result<(), Error>,
) -> Result<Option<Journal>, Error> {
    let settled = reports::settle(written, quiet);
    if let Some(path) = &settled.journal_failed {
        super::say(&report::human::journal_failed(report, path));
    }
    for error in settled.said {
        super::say(&super::error_line(&error.into()));
    }
    let shown = settled.show.map_or(Ok(()), show);
    match settled.end {
        Ok(journal) => {
            shown?;
            Ok(journal)
        }
        Err(end) => {
            if let Err(other) = shown {
                super::say(&super::error_line(&other));
            }
            Err(end.into())
        }
    }
}

/// Loads the report of `--resume`, saying first when none of its results
/// can be reused and why ([`class::load_resume`]).
pub(super) fn load_resume(path: Option<&Path>) -> Result<Option<Resume>, Error> {
    let Some(path) = path else {
        return Ok(None);
    };
    let (resume, note) = class::load_resume(path)?;
    if let Some(note) = note {
        super::say(&note);
    }
    Ok(Some(resume))
}
