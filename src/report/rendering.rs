//! What every report format renders ([`Input`]) and how rendering fails
//! ([`RenderError`]): apart from the list of formats
//! ([`super::formats`]), so a renderer and the list never import each
//! other.

use super::html::Options;
use super::Row;

/// What every format renders: the results, one row per (student, problem)
/// graded, and the class around them.
pub(crate) struct Input<'a> {
    pub(crate) rows: &'a [&'a dyn Row],
    /// The student view, the pairs with no hand-in and the files not
    /// graded (all empty for `judge run`).
    pub(crate) options: &'a Options,
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
