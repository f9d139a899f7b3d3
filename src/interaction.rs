//! What an interactive or multi-pass problem hands the runner (issue #15):
//! its output validator, ready to run, and how to run it. Plain data, so
//! [`crate::problems`] can offer it and [`crate::runner`] can use it
//! without either knowing where it came from.

use crate::sandbox::{Limits, SandboxPool};
use std::ffi::OsString;
use std::path::PathBuf;

/// The Kattis protocol's exit code for an accepted output (or a valid
/// input): output validators, interactors and input validators alike.
pub(crate) const KATTIS_ACCEPT: i32 = 42;
/// The Kattis protocol's exit code for a wrong answer (or an invalid input).
pub(crate) const KATTIS_REJECT: i32 = 43;

/// Passes when a multi-pass problem does not say (`validation_passes`).
pub(crate) const DEFAULT_PASSES: u32 = 2;

/// Why a problem's interactor (or the output validator it runs pass after
/// pass) cannot be used: the package's fault, JE on the test.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InteractorError {
    /// The program could not be prepared (did not compile, ...): the tool's
    /// own sentence, which names it.
    #[error("{0}")]
    Tool(String),
    /// An interactive or multi-pass problem names no output validator
    /// program.
    #[error(
        "the {} problem `{problem}` has no output validator program",
        if *interactive { "interactive" } else { "multi-pass" }
    )]
    NoValidator { problem: String, interactive: bool },
}

/// The output validator of an interactive or multi-pass problem, compiled.
#[derive(Clone, Debug)]
pub struct InteractorSpec {
    /// How messages name it: "output validator `validate.cpp`".
    pub label: String,
    /// The program and the arguments before the protocol's own.
    pub program: PathBuf,
    pub args: Vec<OsString>,
    /// Paths it may read (its own folder, an interpreter's files).
    pub read_paths: Vec<PathBuf>,
    /// (its compiled copy's path, the package's own path), most specific
    /// first: its traceback and messages name the package's file.
    pub own_paths: Vec<(String, String)>,
    /// Its own limits (the package's tool limits); its wall clock runs from
    /// the end of the submission, so time spent waiting does not count.
    pub limits: Limits,
    /// `validator_flags`, after `input answer feedback_dir`.
    pub flags: Vec<String>,
    /// The validator talks to the submission while it runs; `false` for a
    /// multi-pass problem whose validator reads the submission's output
    /// after it ended.
    pub interactive: bool,
    /// Passes at most: 1 unless the problem is multi-pass.
    pub passes: u32,
    /// A folder, mode 0711, under which run folders are made.
    pub workspace: PathBuf,
    /// What the program's arguments and exit codes are.
    pub protocol: InteractorProtocol,
    /// The sandboxes the validator runs in, lent by its package and
    /// reused from test to test (never a submission's).
    pub sandboxes: SandboxPool,
}

/// The protocol an interactor speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InteractorProtocol {
    /// Kattis: `validator input answer feedback_dir [flags]`, exit 42
    /// accepted, 43 wrong answer, the message in
    /// `feedback_dir/judgemessage.txt`; multi-pass through `nextpass.in`.
    Kattis,
    /// testlib (Codeforces, Polygon): `interactor input output answer`,
    /// exit 0 ok, 1 wrong answer, 2 presentation error, 3 failure (the
    /// interactor's own fault: JE), 7 points (the score is the first number
    /// of its message); the message on stderr. It writes `output`, which
    /// the problem's checker then reads as the contestant's output when
    /// `checker` (`checker input output answer`, after an ok).
    Testlib { checker: bool },
}

impl InteractorProtocol {
    /// Whether `code` is an exit code that accepts the interaction so far.
    pub(crate) fn accepts(self, code: i32) -> bool {
        match self {
            InteractorProtocol::Kattis => code == KATTIS_ACCEPT,
            InteractorProtocol::Testlib { .. } => code == 0 || code == 7,
        }
    }
}

/// A judge that plays the other side itself (a built-in engine, e.g.
/// `matchsticks-duel`): it answers each line the submission writes at once
/// and never waits, so it needs no sandbox of its own.
pub trait EngineSession: Send {
    /// What the engine writes before the submission's first line.
    fn start(&mut self) -> String;
    /// The engine's answer to one line of the submission (without its
    /// newline).
    fn reply(&mut self, line: &str) -> EngineStep;
    /// The submission's output ended before the engine finished.
    fn ended(&mut self) -> (crate::verdict::Verdict, String);
}

/// What the engine does after a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineStep {
    /// Writes this and waits for the next line.
    Continue(String),
    /// Writes `reply`, then ends with `verdict` (AC, WA, PE) and `message`;
    /// the submission's input closes.
    Finish {
        reply: String,
        verdict: crate::verdict::Verdict,
        message: String,
    },
}
