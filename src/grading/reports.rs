//! Writing the report files of `judge run`, `judge grade` (and `--package`),
//! `judge merge` (and the one writer `judge similar` shares, [`write_report`]): each to its
//! path atomically, or to standard output for `-`, with a section a command adds to the
//! class page when asked ([`ClassPageSection`]: `judge grade --similarity`'s, made in
//! `crate::similar`, so this layer never names that command).

use super::console::Console;
use super::grade::{wire, Grade};
use super::run::{wire as run_wire, Run};
use super::usage::UsageError;
use super::GradingError;
use crate::atomic_file;
use crate::config::judge::JudgeConfig;
use crate::config::judge::Layout;
use crate::discovery::{self, DiscoverError};
use crate::exit::Outcome;
use crate::grading::resume::Journal;
use crate::package::format::ExpectedKey;
use crate::report;
use crate::report::formats::{Chosen, Context, Format, Input, RenderError, Writes};
use crate::report::stdout::write_stdout;
use crate::report::targets::{is_stdout, Targets};
use crate::report::ReportError;
use crate::runner::LinkScope;
use std::borrow::Cow;
use std::path::Path;

/// Writes one report to `path`, or to standard output for `-`.
pub(crate) fn write_report(path: &Path, text: &str) -> Result<(), GradingError> {
    if is_stdout(path) {
        write_stdout(text).map_err(GradingError::Stdout)
    } else {
        Ok(atomic_file::write_atomically(path, text.as_bytes())?)
    }
}

/// Renders and writes (atomically) every report file asked for; one that
/// cannot be written does not keep the others from being written (the first
/// failure is returned once all were tried). With `section`, the HTML class
/// page ends with it and the page folder holds its pages too.
pub(crate) fn write<R: report::Row>(
    files: &Chosen<'_>,
    rows: &[R],
    context: &Context,
    section: Option<&dyn ClassPageSection>,
) -> Result<(), GradingError> {
    match write_each(files, rows, context, section).into_iter().next() {
        Some(first) => Err(first),
        None => Ok(()),
    }
}

/// [`write`], returning every failure (in the order of the formats'
/// list) once all were tried.
fn write_each<R: report::Row>(
    files: &Chosen<'_>,
    rows: &[R],
    context: &Context,
    section: Option<&dyn ClassPageSection>,
) -> Vec<GradingError> {
    let rows: Vec<&dyn report::Row> = rows.iter().map(|row| row as &dyn report::Row).collect();
    let input = Input {
        rows: &rows,
        context,
        settings: &files.settings,
        cannot_grade: &[],
    };
    files
        .files
        .iter()
        .map(|(format, path)| match format.writes {
            Writes::Text(render) => render_and_write(format, render, &input, path),
            Writes::Pages => write_html(path, rows.as_slice(), context, section),
        })
        .filter_map(Result::err)
        .collect()
}

/// Renders `format`'s report and writes it to `path`. A report its format
/// cannot hold (a one-student platform file for a class of several) or a
/// platform set up wrong is the user's mistake, a usage error naming the
/// flag; the latter's file still says so, for the student who sees only
/// it. Any other failure is the judge's.
fn render_and_write(
    format: &Format,
    render: fn(&Input<'_>) -> Result<String, RenderError>,
    input: &Input<'_>,
    path: &Path,
) -> Result<(), GradingError> {
    let usage = |reason: String| {
        GradingError::from(UsageError::Platform {
            flag: format.flag(),
            reason,
        })
    };
    match render(input) {
        Ok(text) => write_report(path, &text),
        Err(RenderError::Platform(message)) => Err(usage(message)),
        Err(RenderError::Misconfigured { message, said }) => {
            write_report(path, &said)?;
            Err(usage(message))
        }
        Err(other) => Err(GradingError::Render(other)),
    }
}

/// Refuses a platform's one-student results file (`--gradescope`,
/// `--prairielearn`, `--classroom50`, `--coderunner`, `--vpl`) asked of
/// a grade of several `students`, as a usage error naming the flag, before
/// anything compiles or runs: discovery already knows who handed in (issue
/// #30). The renderers check again once the grade is done.
pub(crate) fn refuse_several_students<S: AsRef<str>>(
    files: &Chosen<'_>,
    students: &[S],
) -> Result<(), GradingError> {
    for (format, _) in &files.files {
        if let Some(platform) = format.platform {
            let students = students.iter().map(|student| student.as_ref().to_owned());
            report::platform::one_student(students, platform).map_err(|reason| {
                UsageError::Platform {
                    flag: format.flag(),
                    reason,
                }
            })?;
        }
    }
    Ok(())
}

/// Refuses, as a usage error naming the flag and before anything is
/// graded, a platform's file that could not be written once the grade is
/// done: Classroom 50's, without the identity its runner gives in the
/// environment (issue #30: checked only after the whole grade had run).
pub(crate) fn refuse_unwritable_platforms(files: &Chosen<'_>) -> Result<(), GradingError> {
    for (format, _) in &files.files {
        if let Some(precheck) = format.precheck {
            precheck().map_err(|error| UsageError::Platform {
                flag: format.flag(),
                reason: error.to_string(),
            })?;
        }
    }
    Ok(())
}

/// Whether `files` asks for a platform's results file
/// ([`crate::report::formats::Format::platform`]): `judge run` then grades
/// as a platform's autograder does.
pub(crate) fn asks_platform(files: &Chosen<'_>) -> bool {
    files
        .files
        .iter()
        .any(|(format, _)| format.platform.is_some())
}

/// Writes the platforms' results files asked for
/// ([`crate::report::formats::Format::platform`]) when `config`'s submissions folder holds no hand-in to
/// grade (nothing, or only files named after no problem of the
/// assignment): the grade then ends before any report, but the student's
/// platform must still show why, in the student's words
/// ([`super::hand_in::nothing_to_grade`]). Returns how the grade ends when
/// every results file asked for now tells the student so, and every
/// failure to write one; nothing is written when there is something to
/// grade.
pub(crate) fn write_nothing_to_grade(
    config: &JudgeConfig,
    files: &Chosen<'_>,
) -> (Option<NothingToGrade>, Vec<GradingError>) {
    let platforms: Vec<_> = files
        .files
        .iter()
        .filter(|(format, _)| format.platform.is_some())
        .collect();
    if platforms.is_empty() {
        return (None, Vec::new());
    }
    let problems = config.problems.as_deref();
    // What `class::plan` refuses as nothing to grade: no file of the
    // assignment's problems, or none of them in a language that runs
    // (`rooks.txt`).
    let nothing = match discovery::discover(&config.submissions, config.layout, problems) {
        Err(error @ DiscoverError::Empty { .. }) => error.to_string(),
        Ok(found)
            if found.entries.iter().all(|entry| {
                std::iter::once(&entry.path)
                    .chain(&entry.others)
                    .all(|path| config.runs_as(path).is_none())
            }) =>
        {
            format!(
                "the submissions folder `{}` holds no file that runs",
                config.submissions.display()
            )
        }
        _ => return (None, Vec::new()),
    };
    let reasons = super::hand_in::nothing_to_grade(config);
    let input = Input {
        rows: &[],
        context: &Context::default(),
        settings: &files.settings,
        cannot_grade: &reasons,
    };
    let failures: Vec<GradingError> = platforms
        .iter()
        .filter_map(|(format, path)| match format.writes {
            Writes::Text(render) => Some(render_and_write(format, render, &input, path)),
            Writes::Pages => None,
        })
        .filter_map(Result::err)
        .collect();
    let ended = NothingToGrade {
        line: format!("not graded: {nothing}"),
        // A hand-in with nothing to grade is the student's failing grade
        // (exit 1, as SPEC gives a submission that is not AC), not the
        // grader's failure: a platform reads exit 2 as a broken grader
        // (issue #30).
        outcome: Outcome::Failure,
    };
    (failures.is_empty().then_some(ended), failures)
}

/// How a grade ends when its platforms' results files say there was
/// nothing to grade ([`write_nothing_to_grade`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NothingToGrade {
    /// What the teacher's log says.
    pub(crate) line: String,
    /// The grade's exit.
    pub(crate) outcome: Outcome,
}

/// The report a grade's terminal shows: with the student view, what
/// students see (a CI job's log), so the table's slowest time and the
/// messages come from the view, never from the hidden tests
/// ([`super::policy::student_view`]); else `report` itself.
pub(crate) fn viewed(report: &Grade, student_view: bool) -> Cow<'_, Grade> {
    if student_view {
        Cow::Owned(super::policy::student_view(report))
    } else {
        Cow::Borrowed(report)
    }
}

/// A grade as the terminal shows it ([`Shown::view`]: what
/// `report::human`'s table, summary and messages render): its rows, each
/// answering `report::Row` from the grading layer ([`super::graded`]).
pub(crate) struct Shown<'a> {
    grade: &'a Grade,
    rows: Vec<&'a dyn report::Row>,
}

impl<'a> Shown<'a> {
    pub(crate) fn of(grade: &'a Grade) -> Shown<'a> {
        Shown {
            grade,
            rows: grade
                .results
                .iter()
                .map(|graded| graded as &dyn report::Row)
                .collect(),
        }
    }

    /// The view the terminal's renderers take, with the summary's tally of
    /// examples for layout `expected` in the words of what they were
    /// expected by ([`super::agreement::tally`]).
    pub(crate) fn view(&self) -> report::human::GradeView<'_> {
        let agreement = (self.grade.layout == Layout::Expected).then(|| {
            let agreeing = self
                .rows
                .iter()
                .filter(|row| row.agrees() == Some(true))
                .count();
            super::agreement::tally(agreeing, self.rows.len(), self.expected_by())
        });
        report::human::GradeView {
            layout: self.grade.layout,
            rows: &self.rows,
            missing: &self.grade.missing,
            not_graded: &self.grade.not_graded,
            interrupted: self.grade.interrupted,
            agreement,
        }
    }

    /// What the grade's examples were expected by: the one key they all
    /// share (a verdict folder when none says), `None` when they differ
    /// (a report edited by hand, or made of two packages' reports).
    fn expected_by(&self) -> Option<ExpectedKey> {
        let mut keys = self
            .grade
            .results
            .iter()
            .filter_map(|graded| graded.expected.as_ref().map(|expected| expected.kind));
        match keys.next() {
            None => Some(ExpectedKey::Folder),
            Some(first) => keys.all(|key| key == first).then_some(first),
        }
    }
}

/// Writes `judge run`'s reports: the JSON report to `json` (with the
/// isolation it records, the tests run, and marked `interrupted`, with the
/// submissions not graded, when a signal stopped the run), then the files
/// asked for. A JSON report that cannot be written is returned at once.
pub(crate) fn write_run(
    run: &Run,
    json: Option<&Path>,
    files: &Chosen<'_>,
) -> Result<(), GradingError> {
    if let Some(path) = json {
        let text = run_wire::render(run).map_err(GradingError::RunJson)?;
        write_report(path, &text)?;
    }
    let options = Context {
        interrupted: run.interrupted,
        interrupted_while: run.interrupted_while,
        not_graded: run.not_graded.clone(),
        ..Context::default()
    };
    write(files, &run.results, &options, None)
}

/// Writes a grade's reports (`judge grade` and `judge merge`): the JSON
/// report to `json` and the files asked for, in the student view when
/// `student_view`, the pages' sources read in the scope `sources` (a
/// package's, for its own submissions; else a hand-in's). Each that can be
/// written is written, even when another cannot (a full disk may still
/// take a small CSV); every failure is returned, the JSON report's first,
/// once all were tried.
pub(crate) fn write_grade(
    report: &Grade,
    json: Option<&Path>,
    files: &Chosen<'_>,
    student_view: bool,
    sources: &LinkScope,
    section: Option<&dyn ClassPageSection>,
) -> Vec<GradingError> {
    let for_students;
    let written = if student_view {
        for_students = super::policy::student_view(report);
        &for_students
    } else {
        report
    };
    let json_written = match json {
        Some(path) => wire::render(written)
            .map_err(GradingError::from)
            .and_then(|text| write_report(path, &text)),
        None => Ok(()),
    };
    let others_written = write_each(
        files,
        &written.results,
        &Context {
            student_view,
            missing: written.missing.clone(),
            ignored: written.ignored.clone(),
            interrupted: written.interrupted,
            interrupted_while: written.interrupted_while,
            not_graded: written.not_graded.clone(),
            sources: if files.files.iter().any(|(format, _)| format.is_pages()) {
                super::sources::read(&written.results, written.layout, student_view, sources)
            } else {
                std::collections::BTreeMap::new()
            },
        },
        section,
    );
    json_written
        .err()
        .into_iter()
        .chain(others_written)
        .collect()
}

/// What writing a grade's reports came to, under [`write_graded`]'s policy.
#[derive(Debug)]
pub(crate) enum Written {
    /// Every report was written: show the table and the summary, then
    /// remove the journal (the reports hold every result now).
    All { journal: Option<Journal> },
    /// A report could not be written (the others were): say `also`, and
    /// end with `first`; the journal stays for `--resume`.
    Failed {
        first: GradingError,
        also: Vec<GradingError>,
    },
    /// The journal could not be written, so the grade stopped at once: the
    /// reports that can be written were (`reports`: the first failure and
    /// the others, if any), the summary may be shown but not the table, and
    /// the journal's error is the one the grade ends with.
    JournalFailed {
        error: ReportError,
        reports: Result<(), (GradingError, Vec<GradingError>)>,
    },
}

/// Writes a grade's reports once the grading is over (`judge grade`,
/// `grade --package`, `judge merge`), whatever happened to the journal
/// (`journal`, as [`super::class::grade_journaled`] returns it): each report
/// that can be written is ([`write_grade`]), and the journal's failure, if
/// any, comes before the reports' (see [`Written`]).
pub(crate) fn write_graded(
    report: &Grade,
    json: Option<&Path>,
    files: &Chosen<'_>,
    student_view: bool,
    sources: &LinkScope,
    section: Option<&dyn ClassPageSection>,
    journal: Result<Option<Journal>, ReportError>,
) -> Written {
    let mut failures = write_grade(report, json, files, student_view, sources, section).into_iter();
    let reports = match failures.next() {
        Some(first) => Err((first, failures.collect())),
        None => Ok(()),
    };
    match (journal, reports) {
        (Err(error), reports) => Written::JournalFailed { error, reports },
        (Ok(_), Err((first, also))) => Written::Failed { first, also },
        (Ok(journal), Ok(())) => Written::All { journal },
    }
}

/// What a grade's end comes to once its reports were written
/// ([`Written`]), in the order it is said: the journal's failure, the
/// reports' failures, the table and the summary, then the end.
#[derive(Debug)]
pub(crate) struct Settled {
    /// The journal that could not be written, said first.
    pub(crate) journal_failed: Option<std::path::PathBuf>,
    /// The reports that could not be written and are not the error ended
    /// with, said as errors in this order.
    pub(crate) said: Vec<GradingError>,
    /// Show the summary and, unless `Some(true)` (quiet), the table; `None`
    /// shows nothing (a report is missing, so the table is not the end).
    pub(crate) show: Option<bool>,
    /// The journal to remove, or the error to end with: the journal's own
    /// when it failed, else the first report's.
    pub(crate) end: Result<Option<Journal>, GradingError>,
}

/// Settles a grade's end under [`write_graded`]'s policy: every report
/// written shows the table (unless `quiet`) and the summary and removes the
/// journal; a report not written is said and ends the grade, the journal
/// kept for `--resume`; a journal not written is said first and is the
/// end, after the summary without the table when every report was written,
/// after saying each report not written when not.
pub(crate) fn settle(written: Written, quiet: bool) -> Settled {
    match written {
        Written::All { journal } => Settled {
            journal_failed: None,
            said: Vec::new(),
            show: Some(quiet),
            end: Ok(journal),
        },
        Written::Failed { first, also } => Settled {
            journal_failed: None,
            said: also,
            show: None,
            end: Err(first),
        },
        Written::JournalFailed { error, reports } => {
            let (said, show) = match reports {
                Ok(()) => (Vec::new(), Some(true)),
                Err((first, also)) => (also.into_iter().chain([first]).collect(), None),
            };
            Settled {
                journal_failed: Some(error.path.clone()),
                said,
                show,
                end: Err(error.into()),
            }
        }
    }
}

/// How a grade ends once graded (`judge grade`, `judge merge`): its
/// reports written to `targets` ([`write_graded`]'s policy, whatever
/// happened to `journal`), in the student view when `student_view`, and
/// what that came to said ([`say_settled`]); then the table (unless
/// `quiet`) and the summary, unless a report takes standard output, and
/// the disagreements and warnings. The terminal shows what students see
/// when `student_view` ([`viewed`]). Returns the journal to remove.
pub(crate) fn end_grade(
    report: &Grade,
    targets: &Targets<'_>,
    quiet: bool,
    student_view: bool,
    section: Option<&dyn ClassPageSection>,
    journal: Result<Option<Journal>, ReportError>,
    console: &mut dyn Console,
) -> Result<Option<Journal>, EndError> {
    let to_stdout = targets.any_to_stdout();
    // A class's files are hand-ins; a merge's report names no owner of
    // its files, so they are read as hand-ins too.
    let written = write_graded(
        report,
        targets.json,
        &targets.files,
        student_view,
        &LinkScope::HandIn,
        section,
        journal,
    );
    let report = &*viewed(report, student_view);
    let shown = Shown::of(report);
    let view = shown.view();
    say_settled(written, report, quiet, console, &mut |console, quiet| {
        if !to_stdout {
            if !quiet {
                let table =
                    report::human::render_grade_table(&view, report::stdout::colour_stdout());
                console.write(&table)?;
            }
            console.write(&report::human::render_grade_summary(&view))?;
        }
        for line in report::human::grade_messages(&view) {
            console.say(&line);
        }
        Ok(())
    })
}

/// Says what writing a grade's reports came to ([`settle`]), in its
/// order: the journal's failure, the reports not written, then `show(quiet)`
/// (the table, unless `quiet`, and the summary) when the end allows it.
/// Returns the journal to remove, or the error to end with: a failure of
/// `show` is then said before it.
pub(crate) fn say_settled(
    written: Written,
    report: &Grade,
    quiet: bool,
    console: &mut dyn Console,
    show: &mut dyn FnMut(&mut dyn Console, bool) -> std::io::Result<()>,
) -> Result<Option<Journal>, EndError> {
    let settled = settle(written, quiet);
    if let Some(path) = &settled.journal_failed {
        let shown = Shown::of(report);
        console.say(&report::human::journal_failed(&shown.view(), path));
    }
    for error in settled.said {
        console.say(&error_line(&error));
    }
    let shown = settled
        .show
        .map_or(Ok(()), |quiet| show(&mut *console, quiet))
        .map_err(EndError::Stdout);
    match settled.end {
        Ok(journal) => {
            shown?;
            Ok(journal)
        }
        Err(end) => {
            if let Err(other) = shown {
                console.say(&error_line(&other));
            }
            Err(end.into())
        }
    }
}

/// Why a grade's end failed ([`end_grade`], [`say_settled`]).
#[derive(Debug, thiserror::Error)]
pub(crate) enum EndError {
    /// A report or the journal could not be written.
    #[error(transparent)]
    Grading(#[from] GradingError),
    /// Standard output could not be written.
    #[error("failed to write to stdout: {0}")]
    Stdout(std::io::Error),
}

/// An error as a line of stderr: `error: ` and every cause, `: `-separated
/// (as the command line says the error a command ends with).
pub(crate) fn error_line(error: &dyn std::error::Error) -> String {
    format!("error: {}", crate::causes::chain(error))
}

/// Refuses an HTML report to a path that exists and is not a regular file
/// (`/dev/null`, a FIFO): the report's pages need a folder beside it, which
/// must not be made beside a device. Standard output (`-`) is fine.
pub(crate) fn refuse_special_html(path: &Path) -> Result<(), GradingError> {
    if is_stdout(path) || !atomic_file::is_special_file(path) {
        return Ok(());
    }
    Err(UsageError::HtmlNotAFile {
        path: path.to_owned(),
    }
    .into())
}

/// A file name as a page links to it.
pub(crate) fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// What a grade's class page gains from an analysis of the class made
/// before anything is graded, so that a mistake costs nothing: `judge grade
/// --similarity`'s comparison, made in `crate::similar` (this layer never
/// names that command).
pub(crate) trait ClassPageAnalysis {
    /// The section it adds to the class page.
    type Section: ClassPageSection;
    /// Why it could not be made, or is refused: its command's own error.
    type Error;
    /// The section of `config`'s class and the lines to say of it, none
    /// when it was not asked for, or that `cancel` (SIGINT, SIGTERM)
    /// stopped it; refused, as its command decides, for students' reports
    /// (`student_view`, and who asked for it) or without a class page
    /// (`pages`).
    fn analyse(
        &self,
        config: &JudgeConfig,
        student_view: Option<super::settings::Source>,
        pages: bool,
        cancel: &crate::interrupt::Cancellation,
    ) -> Result<Analysing<Self::Section>, Self::Error>;
}

/// What a class page's analysis came to ([`ClassPageAnalysis::analyse`]).
#[derive(Debug)]
pub(crate) enum Analysing<S> {
    /// It was not asked for.
    NotAsked,
    /// It was made.
    Made(Analysed<S>),
    /// A signal stopped it before it was done (issue #34): the grade ends
    /// there, graded by nobody.
    Stopped,
}

/// A class page's analysis, made ([`ClassPageAnalysis::analyse`]).
#[derive(Debug)]
pub(crate) struct Analysed<S> {
    /// The section the class page gains.
    pub(crate) section: S,
    /// What to say of it before the grade (the files it skipped).
    pub(crate) lines: Vec<String>,
}

/// A section a command adds at the end of the HTML class page, and the
/// pages it links to (`judge grade --similarity`'s, rendered by
/// `crate::similar`): the grading layer writes them with the class page's
/// own pages and never asks what they hold.
pub(crate) trait ClassPageSection {
    /// The section for a class page at `page` (`None`: the one page on
    /// standard output, without pages of its own).
    fn render(&self, page: Option<&ClassPage<'_>>) -> Section;
}

/// Where the class page a section goes on is written.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClassPage<'a> {
    /// The class page's path (a link's target, where the page is).
    pub(crate) path: &'a Path,
    /// The name of its page folder, as the page links to it.
    pub(crate) folder_name: &'a str,
}

/// A rendered section: its HTML and the pages it adds to the page folder
/// (file name, contents).
#[derive(Clone, Debug, Default)]
pub(crate) struct Section {
    pub(crate) html: String,
    pub(crate) pages: Vec<(String, String)>,
}

fn write_html<R: report::Row>(
    path: &Path,
    rows: &[R],
    context: &Context,
    section: Option<&dyn ClassPageSection>,
) -> Result<(), GradingError>
where
    [R]: report::Ranked,
{
    refuse_special_html(path)?;
    if is_stdout(path) {
        let mut page = report::html::render_with(rows, context);
        if let Some(section) = section {
            insert_section(&mut page, &section.render(None).html);
        }
        return write_stdout(&page).map_err(GradingError::Stdout);
    }
    let target = atomic_file::final_target(path)?;
    let path = target.as_path();
    let folder = report::page_folder(path);
    let folder_name = file_name(&folder);
    let mut pages = report::html::render_pages(rows, &file_name(path), &folder_name, context);
    if let Some(section) = section {
        let section = section.render(Some(&ClassPage {
            path,
            folder_name: &folder_name,
        }));
        insert_section(&mut pages.class_page, &section.html);
        pages.submissions.extend(section.pages);
    }
    report::write_page_set(
        path,
        &folder,
        pages.class_page.as_bytes(),
        &pages.submissions,
    )?;
    Ok(())
}

/// Puts `section` at the end of the page's body.
fn insert_section(page: &mut String, section: &str) {
    let at = page.rfind("</body>").unwrap_or(page.len());
    page.insert_str(at, section);
}

#[cfg(test)]
mod tests;
