//! The report files of `judge run`, `judge grade` and `judge merge`: their
//! flags, the checks of their paths before anything runs, and writing them.

use super::write_stdout;
use crate::error::Error;
use crate::report;
use crate::report::targets::{is_stdout, TargetError, Targets};
use crate::runner::SubmissionResult;
use crate::similar::{self, html::Placement, run::Analysis};
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

    /// Whether one of these reports goes to standard output (then the table
    /// does not).
    pub(crate) fn to_stdout(&self) -> bool {
        [&self.junit, &self.csv, &self.html]
            .into_iter()
            .flatten()
            .any(|path| is_stdout(path))
    }

    /// Renders and writes (atomically) every report file asked for; one
    /// that cannot be written does not keep the others from being written
    /// (the first failure is returned once all were tried). With
    /// `similarity`, the HTML class page holds its section and the page
    /// folder its side-by-side pages.
    pub(crate) fn write<R: report::Row>(
        &self,
        rows: &[R],
        html: &report::html::Options,
        similarity: Option<&Analysis>,
    ) -> Result<(), Error> {
        let mut first_failure = None;
        if let Some(path) = &self.junit {
            let results: Vec<SubmissionResult> =
                rows.iter().map(|row| row.result().clone()).collect();
            let written = report::junit::render(&results)
                .map_err(Error::judge)
                .and_then(|xml| write_report(path, &xml));
            first_failure = first_failure.or(written.err());
        }
        if let Some(path) = &self.csv {
            let written = write_report(path, &report::csv::render(rows));
            first_failure = first_failure.or(written.err());
        }
        let html_written = self.write_html(rows, html, similarity);
        match first_failure {
            Some(error) => Err(error),
            None => html_written,
        }
    }

    fn write_html<R: report::Row>(
        &self,
        rows: &[R],
        html: &report::html::Options,
        similarity: Option<&Analysis>,
    ) -> Result<(), Error> {
        if let Some(path) = &self.html {
            if is_stdout(path) {
                let mut page = report::html::render_with(rows, html);
                if let Some(analysis) = similarity {
                    let placement = Placement {
                        folder: None,
                        summary_dir: None,
                        back: "",
                        prefix: SIMILAR_PAGE_PREFIX,
                    };
                    let section = similar::html::render_section(
                        &analysis.report,
                        &analysis.hand_ins,
                        &placement,
                    );
                    insert_section(&mut page, &section.summary);
                }
                write_stdout(&page)?;
            } else {
                let folder = report::page_folder(path);
                let name = |path: &Path| {
                    path.file_name()
                        .map(|name| name.to_string_lossy().into_owned())
                        .unwrap_or_default()
                };
                let mut pages = report::html::render_pages(rows, &name(path), &name(&folder), html);
                if let Some(analysis) = similarity {
                    let summary_dir = std::path::absolute(path)
                        .ok()
                        .and_then(|path| path.parent().map(Path::to_owned));
                    let folder_name = name(&folder);
                    let back = format!("../{}", similar::html::encode(&name(path)));
                    let placement = Placement {
                        folder: Some(&folder_name),
                        summary_dir: summary_dir.as_deref(),
                        back: &back,
                        prefix: SIMILAR_PAGE_PREFIX,
                    };
                    let section = similar::html::render_section(
                        &analysis.report,
                        &analysis.hand_ins,
                        &placement,
                    );
                    insert_section(&mut pages.class_page, &section.summary);
                    pages.submissions.extend(section.pairs);
                }
                report::write_page_set(
                    path,
                    &folder,
                    pages.class_page.as_bytes(),
                    &pages.submissions,
                )?;
            }
        }
        Ok(())
    }
}

/// Side-by-side pages of `judge grade --similarity` are named
/// `similar.pair-N.html`: a submission's page name never holds a `.` before
/// `.html` (`report::html::page_names`), so the two never clash.
const SIMILAR_PAGE_PREFIX: &str = "similar.pair-";

/// Puts `section` at the end of the page's body.
fn insert_section(page: &mut String, section: &str) {
    let at = page.rfind("</body>").unwrap_or(page.len());
    page.insert_str(at, section);
}

/// Writes one report to `path`, or to standard output for `-`.
pub(crate) fn write_report(path: &Path, text: &str) -> Result<(), Error> {
    if is_stdout(path) {
        write_stdout(text)
    } else {
        Ok(report::write_atomically(path, text.as_bytes())?)
    }
}
