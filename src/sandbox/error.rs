//! [`SandboxError`]: the sandbox itself failed. Always a judge error (JE,
//! exit 3), never the submission's fault: a program that crashes, loops or
//! floods is a [`Measured`](super::Measured) outcome, not an error.

use std::io;
use std::path::PathBuf;

/// The sandbox could not set up, run or clean up a process.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// A system call failed: which, and what it was for.
    #[error("`{syscall}` failed while {purpose}")]
    Syscall {
        syscall: &'static str,
        purpose: &'static str,
        #[source]
        source: io::Error,
    },
    /// A file or directory of the sandbox could not be used.
    #[error("failed to {action} `{path}`")]
    Path {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    /// The program to run could not be started (not found, not executable).
    #[error("failed to start `{program}`")]
    Spawn {
        program: PathBuf,
        #[source]
        source: io::Error,
    },
    /// Processes of a finished test were still alive after repeated kills.
    #[error("{count} process(es) of a finished test survived SIGKILL in `{cgroup}`")]
    Survivors { count: usize, cgroup: PathBuf },
    /// Sockets a finished test left in flight (or the files they held)
    /// outlived the kernel's unix garbage collector; the worker's network
    /// namespace is replaced before its next run.
    #[error(
        "{what} a finished test left in flight outlived the kernel's unix-socket garbage \
         collection"
    )]
    SocketsLeft { what: String },
    /// A step of making a worker's namespaces failed.
    #[error("failed to make the worker's namespaces: could not {step}")]
    Namespace {
        step: String,
        #[source]
        source: io::Error,
    },
    /// SIGINT or SIGTERM asked the judge to stop; the run was killed.
    #[error("the run was stopped because the judge was asked to stop")]
    Cancelled,
    /// The caller's watch abandoned the run (its result was no longer
    /// wanted); the run was killed and cleaned up.
    #[error("the run was ended because its result was no longer needed")]
    Abandoned,
    /// This platform has no sandbox implementation.
    #[error("running programs is only supported on Linux")]
    Unsupported,
}

impl SandboxError {
    /// A failed system call, with errno taken from the last OS error.
    pub(crate) fn last_os(syscall: &'static str, purpose: &'static str) -> Self {
        SandboxError::Syscall {
            syscall,
            purpose,
            source: io::Error::last_os_error(),
        }
    }

    /// A failed operation on a path.
    pub(crate) fn path(action: &'static str, path: impl Into<PathBuf>, source: io::Error) -> Self {
        SandboxError::Path {
            action,
            path: path.into(),
            source,
        }
    }
}
