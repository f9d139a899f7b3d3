//! [`InteractionError`]: the judge's own failure while a submission talks
//! to a validator, interactor or engine. Never the submission's fault: it
//! is the test's JE, with this as its message.

use crate::sandbox::left::LeftFileError;
use crate::sandbox::SandboxError;
use std::io;

/// Why an interactive test (or a pass of a multi-pass one) could not be
/// judged. The Display is the JE message the test shows, whole: each
/// variant says its cause inline, as one line.
#[derive(Debug, thiserror::Error)]
pub(crate) enum InteractionError {
    /// A pipe, write or relay of the interaction failed.
    #[error("failed to {what}: {error}")]
    Io {
        what: &'static str,
        error: io::Error,
    },
    /// The test's folder for the validator could not be made.
    #[error("failed to prepare the {label}'s folder: {error}")]
    Folder { label: String, error: io::Error },
    /// A file the validator (or interactor) left in its folder breaks the
    /// rules of [`crate::sandbox::left`] (a link, a FIFO, a hard link, too
    /// large), or a name the judge writes there is taken by a folder: the
    /// program's fault (issue #35).
    #[error("{label} left a file the judge does not read: {error}")]
    LeftFile { label: String, error: LeftFileError },
    /// The validator asked for a pass after the last one.
    #[error("{label} asked for more than {passes} passes")]
    TooManyPasses { label: String, passes: u32 },
    /// The submission's sandbox failed.
    #[error("sandbox failure: {0}")]
    Sandbox(SandboxError),
    /// The validator (or interactor) could not be run.
    #[error("failed to run the {label}: {error}")]
    Validator { label: String, error: SandboxError },
    /// No sandbox could be lent to the validator.
    #[error("failed to set up the sandbox for the {label}: {error}")]
    ValidatorSandbox { label: String, error: SandboxError },
    /// A thread of the judge's own (the supervisor, the game) panicked.
    #[error("the {0} panicked")]
    Panicked(&'static str),
    /// The judge's engine failed mid-game.
    #[error("failed to play the game: {0}")]
    Game(io::Error),
}

impl InteractionError {
    /// An I/O failure while doing `what` ("make the game's pipes").
    pub(super) fn io(what: &'static str) -> impl Fn(io::Error) -> Self {
        move |error| InteractionError::Io { what, error }
    }
}
