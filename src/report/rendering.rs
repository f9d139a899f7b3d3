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
    /// Stopped before any test ran: what was being done, said where a
    /// format has room for it (issue #34).
    pub(crate) interrupted_while: Option<super::json::BeforeTests>,
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

/// What a class's rows came to together: each student's score on each
/// problem (their best submission's), their total, and each problem's
/// maximum. Decided by the grading layer (`crate::grading::standings`),
/// which answers [`Ranked`]; the HTML ranking, a student's own page and a
/// platform's file only show it (issue #33).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standings {
    /// The problems, in order of first appearance (the rows', then those
    /// only missing), each with its maximum.
    pub(crate) problems: Vec<(String, f64)>,
    /// `(student, problem)`: the score that counts.
    pub(crate) scores: std::collections::BTreeMap<(String, String), f64>,
    /// Each student's total, the sum of their scores.
    pub(crate) totals: std::collections::BTreeMap<String, f64>,
    /// The sum of the problems' maxima.
    pub(crate) most: f64,
}

impl Standings {
    /// The problems, in order.
    pub(crate) fn problems(&self) -> impl Iterator<Item = &str> {
        self.problems.iter().map(|(problem, _)| problem.as_str())
    }

    /// `problem`'s maximum, when it is one of the class's.
    pub(crate) fn maximum(&self, problem: &str) -> Option<f64> {
        self.problems
            .iter()
            .find(|(known, _)| known == problem)
            .map(|(_, maximum)| *maximum)
    }

    /// `student`'s score on `problem`, `None` when nothing was graded.
    pub(crate) fn score(&self, student: &str, problem: &str) -> Option<f64> {
        self.scores
            .get(&(student.to_owned(), problem.to_owned()))
            .copied()
    }

    /// `student`'s total (0 with nothing graded).
    pub(crate) fn total(&self, student: &str) -> f64 {
        self.totals.get(student).copied().unwrap_or(0.0)
    }
}

/// The rows of a class, which the grading layer ranks
/// (`crate::grading::standings`): implemented for the rows every format
/// renders (a grade's, `judge run`'s, and `&dyn Row`).
pub trait Ranked {
    /// The standings of these rows and of the pairs with no hand-in.
    fn standings(&self, missing: &[super::Missing]) -> Standings;
}
