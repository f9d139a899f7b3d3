//! The rows of pairs a grade did not run: a file that cannot run, a
//! problem this judge does not know, a pair an interruption left ungraded.

use super::grade::{Expected, GradedResult};
use super::submission::Unrunnable;
use crate::config::judge::JudgeConfig;
use crate::discovery::Entry;
use crate::report::Ungraded;
use crate::runner::{CompileResult, Settings, SubmissionResult};
use crate::verdict::Verdict;
use std::path::Path;

/// An entry an interrupted run did not grade.
pub(super) fn not_graded_entry(entry: &Entry) -> Ungraded {
    Ungraded {
        problem: entry.problem.clone(),
        submission: entry.path.display().to_string(),
        student: entry.student.clone(),
        recorded: true,
    }
}

pub(super) fn expected_of(entry: &Entry) -> Option<Expected> {
    entry.expected.as_ref().map(|(folder, verdict)| Expected {
        folder: folder.clone(),
        // A verdict folder until a package's format says otherwise
        // (`super::package`).
        kind: crate::package::format::ExpectedKey::Folder,
        verdict: *verdict,
        also: Vec::new(),
        agrees: None,
    })
}

/// The language reports name for `path`: its configured one, else
/// `unknown`.
pub(super) fn language_name(config: &JudgeConfig, path: &Path) -> String {
    config
        .language_for(path)
        .map_or("unknown", |(name, _)| name)
        .to_owned()
}

/// A CE row with `message` as its compile message, for a pair that was not
/// run.
pub(super) fn not_run(
    entry: &Entry,
    language: String,
    message: String,
    total: usize,
) -> SubmissionResult {
    SubmissionResult {
        problem: entry.problem.clone(),
        submission: entry.path.display().to_string(),
        language,
        verdict: Verdict::CompileError,
        passed: 0,
        total,
        compile: CompileResult {
            ok: false,
            message,
            verdict: Some(Verdict::CompileError),
            toolchain_missing: false,
        },
        tests: Vec::new(),
        score: Some(crate::verdict::Points(0.0)),
        max_score: Some(crate::verdict::Points(100.0)),
        groups: Vec::new(),
    }
}

/// A result for a file that was not run, with the reason as its compile
/// message.
pub(super) fn unrunnable(
    entry: &Entry,
    config: &JudgeConfig,
    why: &Unrunnable,
    total: usize,
    settings: &Settings,
) -> GradedResult {
    GradedResult {
        result: not_run(
            entry,
            language_name(config, &entry.path),
            why.to_string(),
            total,
        ),
        student: entry.student.clone(),
        expected: expected_of(entry),
        time_limit_ms: settings.limits.cpu_time_ms,
        memory_limit_mib: settings.limits.memory_kib / 1024,
        warnings: Vec::new(),
        submission_sha256: None,
        fingerprint: None,
        reused: false,
        handed_in: match why {
            Unrunnable::SeveralFiles { files, .. } => files
                .iter()
                .map(|path| path.display().to_string())
                .collect(),
            _ => Vec::new(),
        },
    }
}

/// A file whose path names no problem this judge knows, or that is not where
/// the layout puts submissions.
pub(super) fn unknown_problem(entry: &Entry, config: &JudgeConfig) -> GradedResult {
    let message = if entry.problem.is_empty() {
        format!(
            "`{}` is not where layout `{}` puts submissions",
            entry.path.display(),
            config.layout.name()
        )
    } else {
        format!(
            "`{}` is not a problem; known: {}",
            entry.problem,
            crate::config::bundled::known_ids()
        )
    };
    GradedResult {
        result: not_run(entry, language_name(config, &entry.path), message, 0),
        student: entry.student.clone(),
        expected: expected_of(entry),
        time_limit_ms: 0,
        memory_limit_mib: 0,
        warnings: Vec::new(),
        submission_sha256: None,
        fingerprint: None,
        reused: false,
        handed_in: Vec::new(),
    }
}
