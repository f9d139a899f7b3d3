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
use crate::report::json::{BeforeTests, JUDGE_VERSION};
use crate::report::targets::Targets;
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
    /// Only where `--json` and the report flags say: the report given to
    /// `--resume` alone is left as it was (nothing graded would bring it
    /// up to date), and so is its journal, neither read nor started by
    /// then.
    pub(crate) targets: &'a Targets<'a>,
    pub(crate) student_view: bool,
    /// Where the links of the files the reports name may lead.
    pub(crate) sources: &'a LinkScope,
    /// A class page's added section (`--similarity`), made before the stop.
    pub(crate) section: Option<&'a dyn ClassPageSection>,
    /// `--resume REPORT`: when `--json` names that same file, it is left
    /// as it was too. It holds what earlier runs graded, which a report of
    /// nothing graded would erase (and a later `--resume` could not reuse).
    pub(crate) resume: Option<&'a Path>,
    /// `-q`.
    pub(crate) quiet: bool,
}

/// The end of a grade stopped before any test ran (`stopped`, as
/// [`nothing_graded`] began it): every report asked for is written, each
/// saying that nothing was graded (one that cannot be written is said and
/// is the error the grade ends with), with no table and no summary, and the
/// line that says what was being done ends it. Returns the interruption's
/// outcome.
pub(crate) fn end(
    stopped: &Grade,
    ending: Ending<'_>,
    cancel: &Cancellation,
    console: &mut dyn Console,
) -> Result<Outcome, EndError> {
    let targets = ending.targets;
    let json = targets
        .json
        .filter(|json| !ending.resume.is_some_and(|resume| same_file(json, resume)));
    if let (Some(resume), None) = (ending.resume, json) {
        if targets.json.is_some() {
            console.say(&format!(
                "note: `{}` is left as it was: it holds what earlier grades graded",
                resume.display()
            ));
        }
    }
    let written = reports::write_graded(
        stopped,
        json,
        &targets.files,
        ending.student_view,
        ending.sources,
        ending.section,
        Ok(None),
    );
    // Nothing graded: no table, no summary.
    reports::say_settled(written, stopped, ending.quiet, console, &mut |_, _| Ok(()))?;
    let signal = cancel.signal().unwrap_or(Signal::Interrupt);
    let any_written = json.is_some() || !targets.files.files.is_empty();
    if let Some(doing) = stopped.interrupted_while {
        console.say(&crate::report::human::interrupted_before_grading(
            signal.name(),
            doing,
            any_written,
        ));
    }
    Ok(Outcome::Interrupted(signal))
}

/// Whether `a` and `b` name one file (the same path, or one file reached
/// two ways); a path that names no file is no other's.
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    if a == b {
        return true;
    }
    match (fs_err::metadata(a), fs_err::metadata(b)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    }
}
