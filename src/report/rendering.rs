//! What every report format renders ([`Input`]: the rows, the shared
//! [`Context`], and the formats' own settings) and how rendering fails
//! ([`RenderError`]): apart from the list of formats
//! ([`super::formats`]), so a renderer and the list never import each
//! other.
//!
//! The shared context is what every format may need and the grading layer
//! decides; a setting of one format (Gradescope's `hidden-tests`) is that
//! format's, read from [`Input::settings`] by its own module, never a field
//! here (issue #33).

use super::Row;
use crate::config::report::ReportSettings;

/// What every format renders the rows with: the class around them and
/// the view asked for (all empty for `judge run`). Decided by the grading
/// layer; a format's own settings are not here but in
/// `Input::settings`, each format reading its own table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Context {
    /// For students: hidden tests show no input, expected or actual output,
    /// standard error or random origin (`--student-view`).
    pub(crate) student_view: bool,
    /// The class's (student, problem) pairs with no hand-in: `missing`
    /// cells of the matrix (a column even for a problem nobody handed in).
    pub(crate) missing: Vec<super::Missing>,
    /// Files under the submissions folder that were not graded, with the
    /// reason: the page's "Ignored files" section (issue #17: a teacher
    /// who reads only the page must see `eve/rook.py`, "did you mean
    /// `rooks`?").
    pub(crate) ignored: Vec<super::Ignored>,
    /// Stopped by a signal: every report says it is partial (issue #32).
    pub(crate) interrupted: bool,
    /// The pairs an interrupted run did not grade: a `not graded:
    /// interrupted` row each.
    pub(crate) not_graded: Vec<super::Ungraded>,
    /// What each submission's page shows of its source, by submission
    /// path (`crate::grading::sources`), read only when a format of pages
    /// is asked for; a submission not in it shows none.
    pub(crate) sources: std::collections::BTreeMap<String, super::source::SourceView>,
}

/// What every format renders: the results, one row per (student, problem)
/// graded, and the class around them.
pub(crate) struct Input<'a> {
    pub(crate) rows: &'a [&'a dyn Row],
    /// The student view, the pairs with no hand-in and the files not
    /// graded (all empty for `judge run`).
    pub(crate) context: &'a Context,
    /// Each format's own settings (judge.toml's `[report.<format>]`): a
    /// format reads its own table and no other.
    pub(crate) settings: &'a ReportSettings,
    /// Why nothing could be graded, when the grade found no hand-in at
    /// all: only the platforms' files are then written
    /// ([`super::formats::Format::platform`]).
    pub(crate) cannot_grade: &'a [String],
}

/// A report that could not be rendered (the writing's failures are
/// [`super::ReportError`]s).
#[derive(Debug, thiserror::Error)]
pub(crate) enum RenderError {
    /// A JUnit report.
    #[error("{0}")]
    Junit(#[from] quick_junit::SerializeError),
    /// A CSV gradebook.
    #[error("{0}")]
    Csv(#[from] csv::Error),
    /// A platform's JSON file.
    #[error("failed to serialise JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// A platform's file cannot hold this report.
    #[error("{0}")]
    Platform(String),
    /// The platform is set up wrong (the teacher's mistake, such as a
    /// grade scale that is no number): `message` for the teacher's log,
    /// and `said`, what the platform's file holds instead, for a platform
    /// that shows the student only that file (VPL drops the grader's
    /// standard error) and would otherwise show nothing at all.
    #[error("{message}")]
    Misconfigured { message: String, said: String },
}
