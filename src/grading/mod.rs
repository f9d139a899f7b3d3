//! The grading layer: what `judge run`, `judge grade`, `judge grade
//! --package` and `judge merge` decide, as library calls the command line
//! only words; also the short commands on a file or a folder (`validate`,
//! `solve`, `check`), `judge problems` and `judge report`. The commands with
//! a home of their own (`stress`, `gen`, `similar`, `export`, `interact`:
//! `crate::stress`, `crate::gen`, ...) use its settings and its error, and
//! keep their own failures in an error of their own that holds this one:
//! this layer never names them.
//!
//! - [`settings`] resolves the limits and jobs of a run (flags over
//!   judge.toml over problem.toml over the defaults, each value naming its
//!   source, warnings returned as data), the random tests and the seed.
//! - `submission` says how a file runs (a configured language, or an
//!   executable) or why it cannot.
//! - `run` grades submissions against one package (`judge run`).
//! - `class` plans a class (what is graded, what is ignored and why) and
//!   grades it into a `grade::Grade` (`judge grade`);
//!   `problem` is one problem's steps in it, `side_by_side` grades a
//!   class's problems side by side, their events passed on in the
//!   one-at-a-time order, and `ungraded` makes the rows of the pairs a grade
//!   did not run (a file that cannot run, an unknown problem, an
//!   interruption).
//! - `catalog` is what `judge problems` lists.
//! - `validate_solve_check` is `validate`, `solve` and `check`: a file or a
//!   folder of them, each with its outcome.
//! - `margin` finds verdicts that hang on the time limit, re-running TLE
//!   examples with more time.
//! - `hidden` gathers what a command keeps from every program it runs (its
//!   packages' secret folders, a class's submissions, a `--tests` folder,
//!   the hand-ins' folders) into the one value the runner and the
//!   packages' programs take.
//! - `merge` reads the reports of shards and merges them (`judge merge`):
//!   what combines and what is refused.
//! - `package` grades a package's own `submissions/<verdict>/`;
//!   `package_table` words it.
//! - `reports` writes the report files, to their paths or stdout;
//!   `hand_in` words, for a platform's student, why a hand-in holds
//!   nothing to grade.
//! - `resume` decides which results of an earlier report `judge grade
//!   --resume` may reuse, and keeps the results journal.
//! - `grade` holds what a grade came to (its domain types, apart from
//!   the JSON report's wire types, converted once each way in
//!   `grade::wire`).
//! - `score` scores a submission on a package's test groups; `graded`
//!   decides what a graded pair came to (whether it agrees with its verdict
//!   folder, its score in percent), the answers to every report's
//!   `report::Row`: the report renders, it decides nothing.
//! - `console` is where the grading commands' lines go: what the
//!   command line's terminal prints, in the order this layer says them.
//! - `progress` is what a progress line shows: submissions graded, the
//!   one that runs, its test.
//! - `usage` is the user's mistakes this layer refuses, one variant per
//!   kind, each with its hint.
//! - `policy` is the exit policy of the verdicts and the student view.
//! - `stopped` is a grade that a signal stopped before any test ran (of a
//!   class or of a package): its reports, saying that nothing was graded.
//! - `saved` reads a saved JSON report back and renders it again (`judge
//!   report`); `compare` says what changed against a baseline report.

mod agreement;
pub(crate) mod catalog;
pub(crate) mod class;
pub(crate) mod compare;
pub(crate) mod console;
pub(crate) mod grade;
pub(crate) mod graded;
mod hand_in;
pub(crate) mod hidden;
pub(crate) mod margin;
pub(crate) mod merge;
pub(crate) mod package;
pub(crate) mod package_table;
pub(crate) mod policy;
mod problem;
pub(crate) mod progress;
pub(crate) mod reports;
pub(crate) mod resume;
pub(crate) mod run;
pub(crate) mod saved;
pub(crate) mod score;
pub mod settings;
pub(crate) mod shares;
mod side_by_side;
pub(crate) mod sources;
pub(crate) mod standings;
mod stopped;
pub(crate) mod submission;
mod ungraded;
pub(crate) mod usage;
pub(crate) mod validate_solve_check;

use crate::config::ConfigError;
use crate::grading::resume::ResumeError;
use crate::grading::usage::{NoTimeLimit, UsageError};
use crate::hint::Hint;
use crate::runner::RunError;

/// Why a grading call could not grade: its own refusals and failures, and
/// the errors of the layers it calls. The command line's error wraps it
/// whole ([`crate::error::Error::Grading`]); its exit code is decided there.
#[derive(Debug, thiserror::Error)]
pub(crate) enum GradingError {
    /// A mistake in the command line, its files or a package the user can
    /// fix: nothing was graded.
    #[error(transparent)]
    Usage(#[from] UsageError),
    /// A configuration file (judge.toml, problem.toml, problem.yaml) is wrong.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The report given to `--resume` could not be used.
    #[error(transparent)]
    Resume(#[from] ResumeError),
    /// The submissions folder could not be searched.
    #[error(transparent)]
    Discover(#[from] crate::discovery::DiscoverError),
    /// The runner failed (the sandbox, the workspace): the judge's fault.
    #[error(transparent)]
    Run(#[from] RunError),
    /// A fingerprint could not be serialised.
    #[error("failed to serialise a fingerprint")]
    Json(#[from] serde_json::Error),
    /// A file given as an input, output or answer could not be read.
    #[error(transparent)]
    CannotRead(#[from] crate::input_file::CannotRead),
    /// A file the judge needs could not be read.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// A folder of tests could not be read (`validate`, `solve` and
    /// `check` on a folder).
    #[error("failed to read the folder `{}`", path.display())]
    ReadFolder {
        path: std::path::PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A report or data file could not be written.
    #[error(transparent)]
    Report(#[from] crate::report::ReportError),
    /// Standard output could not be written.
    #[error("failed to write to stdout: {0}")]
    Stdout(std::io::Error),
    /// A report file (JUnit, CSV, a platform's) could not be rendered.
    #[error(transparent)]
    Render(#[from] crate::report::formats::RenderError),
    /// `judge run`'s JSON report could not be serialised.
    #[error("failed to serialise JSON: {0}")]
    RunJson(serde_json::Error),
    /// A package's only input validator is in a format the judge does not
    /// run (the reason names it).
    #[error("{0}")]
    UncheckedInputs(String),
    /// No time limit could be derived from a package's accepted
    /// submissions because one met a judge error (the reason says which).
    #[error("{0}")]
    NoDerivedLimit(NoTimeLimit),
}

impl GradingError {
    /// The advice printed after the error: a usage error's, a configuration
    /// error's. Every kind is
    /// named, so a new one decides whether it has advice.
    pub(crate) fn hint(&self) -> Option<Hint> {
        match self {
            GradingError::Usage(usage) => usage.hint(),
            GradingError::Config(config) => config.hint(),
            GradingError::Resume(_)
            | GradingError::Discover(_)
            | GradingError::Run(_)
            | GradingError::Json(_)
            | GradingError::CannotRead(_)
            | GradingError::Io(_)
            | GradingError::ReadFolder { .. }
            | GradingError::Report(_)
            | GradingError::Stdout(_)
            | GradingError::Render(_)
            | GradingError::RunJson(_)
            | GradingError::UncheckedInputs(_)
            | GradingError::NoDerivedLimit(_) => None,
        }
    }
}

/// Why `judge run`, `judge grade` (and `--package`) or `judge merge`
/// ended in an error: this layer's, or that of a layer it called, kept as
/// it is so the command ends as it did when the command line made each
/// call (a report path refused, a configuration file, the signal handlers,
/// a package's build of its data, a report file, standard output). `E` is
/// the error of the class page's analysis (`judge grade --similarity`'s,
/// [`reports::ClassPageAnalysis`], which this layer never names); the other
/// commands have none.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CommandError<E = std::convert::Infallible> {
    #[error(transparent)]
    Grading(#[from] GradingError),
    #[error(transparent)]
    Targets(#[from] crate::report::targets::TargetError),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Interrupt(#[from] crate::interrupt::InterruptError),
    #[error(transparent)]
    Prepare(#[from] crate::package::format::PrepareError),
    #[error(transparent)]
    Report(#[from] crate::report::ReportError),
    /// Standard output could not be written.
    #[error("failed to write to stdout: {0}")]
    Stdout(std::io::Error),
    /// The class page's analysis failed or was refused.
    #[error(transparent)]
    Analysis(E),
}

/// A grade's end failed ([`reports::end_grade`]): a report or the journal,
/// or standard output, whatever the command's analysis.
impl<E> From<reports::EndError> for CommandError<E> {
    fn from(error: reports::EndError) -> Self {
        match error {
            reports::EndError::Grading(error) => CommandError::Grading(error),
            reports::EndError::Stdout(error) => CommandError::Stdout(error),
        }
    }
}
