//! The one error type at the top: every failure a command can end with;
//! and [`exit_code`], the one place a command's end becomes an exit code
//! (SPEC.md): the user's mistakes (usage, configuration) are 2, everything
//! else is the judge failing, 3. Interruptions (130 / 143) and verdicts
//! (0 / 1, and `judge check`'s testlib codes) are not errors: the commands
//! return them as an [`Outcome`], mapped in the same `match`.
//!
//! Every layer below keeps its own error type; this enum names each, so
//! the exit code is one exhaustive `match`, never a search of an error
//! chain.

use crate::config::ConfigError;
use crate::exit::Outcome;
use crate::export::ExportError;
use crate::grade::DiscoverError;
use crate::grading::GradingError;
use crate::interrupt::{InterruptError, Signal};
use crate::report::targets::TargetError;
use crate::report::ReportError;
use crate::resume::ResumeError;
use crate::runner::RunError;
use crate::source::CannotRead;
use crate::testset::TestSetError;

/// A mistake in the command line or configuration that the user can fix:
/// exit 2, nothing run.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct UsageError {
    message: String,
    hint: Option<String>,
}

impl UsageError {
    /// A usage error with a message and an optional `hint:` line.
    pub fn new(message: impl Into<String>, hint: Option<String>) -> Self {
        UsageError {
            message: message.into(),
            hint,
        }
    }
}

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The command line asks for something that cannot be done.
    #[error(transparent)]
    Usage(#[from] UsageError),
    /// A report path cannot be written.
    #[error(transparent)]
    Targets(#[from] TargetError),
    /// A configuration file is wrong.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The report given to `--resume` cannot be used.
    #[error(transparent)]
    Resume(#[from] ResumeError),
    /// The submissions folder could not be searched.
    #[error(transparent)]
    Discover(#[from] DiscoverError),
    /// The runner failed: the sandbox or the workspace.
    #[error(transparent)]
    Run(#[from] RunError),
    /// The signal handlers could not be installed.
    #[error(transparent)]
    Interrupt(#[from] InterruptError),
    /// A report file could not be written.
    #[error(transparent)]
    Report(#[from] ReportError),
    /// A data set could not be made or written (`judge gen`).
    #[error(transparent)]
    TestSet(#[from] TestSetError),
    /// A package could not be exported.
    #[error(transparent)]
    Export(#[from] ExportError),
    /// A file given as an input, output or answer could not be read.
    #[error(transparent)]
    CannotRead(#[from] CannotRead),
    /// A report could not be serialised.
    #[error("failed to serialise JSON")]
    Json(#[from] serde_json::Error),
    /// Standard output could not be written.
    #[error("failed to write to stdout: {0}")]
    Stdout(std::io::Error),
    /// A file of the judge's own could not be read or written.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// Anything else the judge could not do (rendering a report, a man
    /// page): its own fault.
    #[error("{0}")]
    Judge(String),
}

impl Error {
    /// The `hint:` line printed after the error, when there is one.
    pub fn hint(&self) -> Option<&str> {
        match self {
            Error::Usage(usage) => usage.hint.as_deref(),
            Error::Targets(target) => target.hint.as_deref(),
            _ => None,
        }
    }

    /// A failure of the judge's own, worded.
    pub fn judge(message: impl std::fmt::Display) -> Self {
        Error::Judge(message.to_string())
    }
}

impl From<GradingError> for Error {
    fn from(error: GradingError) -> Self {
        match error {
            GradingError::Usage { message, hint } => Error::Usage(UsageError { message, hint }),
            GradingError::Config(error) => Error::Config(error),
            GradingError::Resume(error) => Error::Resume(error),
            GradingError::Discover(error) => Error::Discover(error),
            GradingError::Run(error) => Error::Run(error),
            GradingError::Interrupt(error) => Error::Interrupt(error),
            GradingError::Json(error) => Error::Json(error),
            GradingError::Io(error) => Error::Io(error),
            GradingError::TestSet(error) => Error::TestSet(error),
            GradingError::CannotRead(error) => Error::CannotRead(error),
            GradingError::Report(error) => Error::Report(error),
            GradingError::Stdout(error) => Error::Stdout(error),
            GradingError::Judge(message) => Error::Judge(message),
        }
    }
}

/// The process exit code of a command's end: the one table of them
/// (SPEC.md, "Exit codes"), one exhaustive `match` on the outcome and on
/// every error.
pub(crate) fn exit_code(end: &Result<Outcome, Error>) -> u8 {
    match end {
        Ok(Outcome::Success) => 0,
        Ok(Outcome::Failure) => 1,
        // `judge check` only (testlib `_pe`); 2 is a usage error elsewhere.
        Ok(Outcome::PresentationError) => 2,
        Ok(Outcome::JudgeFailed) => 3,
        // 128 + the signal number, as a shell reports a process it ended.
        Ok(Outcome::Interrupted(Signal::Interrupt)) => 130,
        Ok(Outcome::Interrupted(Signal::Terminate)) => 143,
        Err(
            Error::Usage(_)
            | Error::Targets(_)
            | Error::Config(_)
            | Error::Resume(_)
            | Error::Export(ExportError::Unsupported { .. })
            | Error::Discover(
                DiscoverError::Missing { .. }
                | DiscoverError::NotAFolder { .. }
                | DiscoverError::Empty { .. },
            ),
        ) => 2,
        Err(
            Error::Discover(DiscoverError::Walk(_))
            | Error::Export(ExportError::Reference { .. } | ExportError::Write { .. })
            | Error::Run(_)
            | Error::Interrupt(_)
            | Error::Report(_)
            | Error::TestSet(_)
            | Error::CannotRead(_)
            | Error::Json(_)
            | Error::Stdout(_)
            | Error::Io(_)
            | Error::Judge(_),
        ) => 3,
    }
}

/// An error and its causes, `: `-separated.
pub(crate) fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(next) = cause {
        text.push_str(": ");
        text.push_str(&next.to_string());
        cause = next.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn the_users_mistakes_are_2_and_the_judges_failures_3() {
        let config = ConfigError::invalid(std::path::Path::new("judge.toml"), "jobs", "bad");
        let rows: Vec<(Error, u8)> = vec![
            (UsageError::new("no", Some("do this".to_owned())).into(), 2),
            (config.into(), 2),
            (GradingError::usage("no tests", None).into(), 2),
            (
                DiscoverError::Missing {
                    path: PathBuf::from("s"),
                }
                .into(),
                2,
            ),
            (
                ExportError::Unsupported {
                    id: "x".to_owned(),
                    reason: "y".to_owned(),
                }
                .into(),
                2,
            ),
            (std::io::Error::other("disk").into(), 3),
            (Error::Stdout(std::io::Error::other("pipe")), 3),
            (Error::judge("rendering"), 3),
        ];
        for (error, code) in rows {
            let name = error.to_string();
            assert_eq!(exit_code(&Err(error)), code, "{name}");
        }
        let usage: Error = UsageError::new("no", Some("do this".to_owned())).into();
        assert_eq!(usage.hint(), Some("do this"));
    }

    #[test]
    fn outcomes_are_0_and_1_testlibs_2_and_3_and_128_plus_the_signal() {
        let rows = [
            (Outcome::Success, 0),
            (Outcome::Failure, 1),
            (Outcome::PresentationError, 2),
            (Outcome::JudgeFailed, 3),
            (Outcome::Interrupted(Signal::Interrupt), 130),
            (Outcome::Interrupted(Signal::Terminate), 143),
        ];
        for (outcome, code) in rows {
            assert_eq!(exit_code(&Ok(outcome)), code, "{outcome:?}");
        }
    }
}
