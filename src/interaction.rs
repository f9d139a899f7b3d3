//! What an interactive or multi-pass problem hands the runner (issue #15):
//! its output validator, ready to run, and how to run it. Plain data, so
//! [`crate::problems`] can offer it and [`crate::runner`] can use it
//! without either knowing where it came from.

use crate::sandbox::Limits;
use std::ffi::OsString;
use std::path::PathBuf;

/// Passes when a multi-pass problem does not say (`validation_passes`).
pub const DEFAULT_PASSES: u32 = 2;

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
    /// A folder, mode 0711, under which run folders are made (the
    /// validator's sandbox lives there).
    pub workspace: PathBuf,
}
