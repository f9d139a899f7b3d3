//! A grade that SIGINT or SIGTERM stopped before any test ran (issue #34),
//! of a class (`judge grade`) or of a package (`grade --package`): the
//! grade its reports hold, with nothing graded and what the judge was
//! doing ([`nothing_graded`]), and the end that writes them and says so
//! ([`end`]). What each command knew of its pairs by then (its shard, the
//! pairs not graded, the files ignored, the pairs with no hand-in) is the
//! command's to add (`super::class`, `super::package`); stopping the
//! programs is the sandbox's (it kills what runs on the signal).

use super::console::Console;
use super::grade::{Grade, GradedWith};
use super::reports::{self, ClassPageSection, EndError};
use crate::config::judge::Layout;
use crate::exit::Outcome;
use crate::interrupt::{Cancellation, Signal};
use crate::report::formats::Chosen;
use crate::report::human::ReportsLeft;
use crate::report::json::{BeforeTests, JUDGE_VERSION};
use crate::report::targets::{is_stdout, Targets};
use crate::runner::LinkScope;
use crate::sandbox::Isolation;
use std::path::Path;

/// A grade under `layout` and `graded_with` that a signal stopped while
/// `doing`, before any test ran: interrupted, no result, and nothing else
/// known yet (no shard, no pair not graded, no file ignored, no pair
/// missing) until the caller adds what it knew.
pub(crate) fn nothing_graded(doing: BeforeTests, layout: Layout, graded_with: GradedWith) -> Grade {
    Grade {
        isolation: serde_json::to_value(Isolation::detect()).ok(),
        layout,
        shard: None,
        judge_version: Some(JUDGE_VERSION.to_owned()),
        interrupted: true,
        interrupted_while: Some(doing),
        not_graded: Vec::new(),
        graded_with: Some(graded_with),
        ignored: Vec::new(),
        missing: Vec::new(),
        results: Vec::new(),
    }
}

/// Where the reports of a stopped grade go and how they are written.
#[derive(Clone, Copy)]
pub(crate) struct Ending<'a> {
    /// Where `--json` and the report flags say: the report given to
    /// `--resume` alone is left as it was (nothing graded would bring it
    /// up to date), and so is its journal, neither read nor started by
    /// then.
    pub(crate) targets: &'a Targets<'a>,
    pub(crate) student_view: bool,
    /// Where the links of the files the reports name may lead.
    pub(crate) sources: &'a LinkScope,
    /// A class page's added section (`--similarity`), made before the stop.
    pub(crate) section: Option<&'a dyn ClassPageSection>,
    /// `--resume REPORT`: every report named that is there already (the
    /// JSON report, `REPORT` itself without `--json`, and each other one)
    /// is left as it was. It holds what earlier grades graded, which a
    /// report of nothing graded would erase: the results a later
    /// `--resume` reuses, the gradebook and pages a teacher has (issue
    /// #34).
    pub(crate) resume: Option<&'a Path>,
    /// What was being done, in the words of the line that ends the grade,
    /// when the grade's `interrupted_while` alone does not say it truly (a
    /// class loading one of several packages); `None`: as it says.
    pub(crate) doing: Option<&'a str>,
    /// `-q`.
    pub(crate) quiet: bool,
}

/// The end of a grade stopped before any test ran (`stopped`, as
/// [`nothing_graded`] began it): every report asked for is written, each
/// saying that nothing was graded (one that cannot be written is said and
/// is the error the grade ends with), but for a resumed grade's earlier
/// reports, left as they were and said to be; with no table and no
/// summary, and the line that says what was being done ends it. Returns
/// the interruption's outcome.
pub(crate) fn end(
    stopped: &Grade,
    ending: Ending<'_>,
    cancel: &Cancellation,
    console: &mut dyn Console,
) -> Result<Outcome, EndError> {
    let targets = ending.targets;
    let earlier =
        |path: &Path| ending.resume.is_some() && !is_stdout(path) && fs_err::metadata(path).is_ok();
    let mut kept: Vec<&Path> = Vec::new();
    // Without `--json`, the report given to `--resume` is the one a grade
    // brings up to date.
    let json = match (targets.json, ending.resume) {
        (Some(path), Some(_)) | (None, Some(path)) if earlier(path) => {
            kept.push(path);
            None
        }
        (json, _) => json,
    };
    let (earlier_files, files): (Vec<_>, Vec<_>) = targets
        .files
        .files
        .iter()
        .partition(|(_, path)| earlier(path));
    kept.extend(earlier_files.iter().map(|(_, path)| *path));
    let files = Chosen {
        files,
        settings: targets.files.settings.clone(),
    };
    if !kept.is_empty() {
        console.say(&kept_note(&kept));
    }
    let written = reports::write_graded(
        stopped,
        json,
        &files,
        ending.student_view,
        ending.sources,
        ending.section,
        Ok(None),
    );
    // Nothing graded: no table, no summary.
    reports::say_settled(written, stopped, ending.quiet, console, &mut |_, _| Ok(()))?;
    let signal = cancel.signal().unwrap_or(Signal::Interrupt);
    let reports_left = match (json.is_some() || !files.files.is_empty(), kept.is_empty()) {
        (true, true) => ReportsLeft::Written,
        (true, false) => ReportsLeft::SomeKept,
        (false, false) => ReportsLeft::AllKept,
        (false, true) => ReportsLeft::NoneAsked,
    };
    if let Some(doing) = stopped.interrupted_while {
        let doing = ending
            .doing
            .unwrap_or_else(|| crate::report::human::while_doing(doing));
        console.say(&crate::report::human::interrupted_before_grading(
            signal.name(),
            doing,
            reports_left,
        ));
    }
    Ok(Outcome::Interrupted(signal))
}

/// The note saying that the reports `kept` (a resumed grade's earlier
/// ones) are left as they were.
fn kept_note(kept: &[&Path]) -> String {
    let names: Vec<String> = kept
        .iter()
        .map(|path| format!("`{}`", path.display()))
        .collect();
    let (are, they_were, them) = if kept.len() == 1 {
        ("is", "it was", "it")
    } else {
        ("are", "they were", "them")
    };
    format!(
        "note: {} {are} left as {they_were}: nothing was graded to bring {them} up to date",
        names.join(", ")
    )
}
