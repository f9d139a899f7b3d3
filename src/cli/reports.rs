//! The report files of `judge run`, `judge grade` and `judge merge`: their
//! flags and the checks of their paths before anything runs; writing them
//! is [`crate::grading::reports`]'s.

use crate::error::Error;
use crate::grading::reports::{self, ReportFiles};
use crate::report;
use crate::report::targets::{TargetError, Targets};
use crate::similar::run::Analysis;
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

    /// Renders and writes every report file asked for ([`reports::write`]).
    pub(crate) fn write<R: report::Row>(
        &self,
        rows: &[R],
        html: &report::html::Options,
        similarity: Option<&Analysis>,
    ) -> Result<(), Error> {
        Ok(reports::write(&self.files(), rows, html, similarity)?)
    }
}

/// Writes one report to `path`, or to standard output for `-`.
pub(crate) fn write_report(path: &Path, text: &str) -> Result<(), Error> {
    Ok(reports::write_report(path, text)?)
}
