//! The whole comparison of a class, as `judge similar` and `judge grade
//! --similarity` both run it: find the hand-ins under judge.toml's layout,
//! keep the problems asked for, read the starter code and the hand-ins, and
//! compare them. One pipeline, so both commands show the same pairs.

use super::class::{self, BaseError, HandIn};
use super::tokens::TokenizeError;
use super::{compare_stopping, Options, Report, VERSION};
use crate::config::judge::JudgeConfig;
use crate::discovery::{self, DiscoverError, Entry, Ignored};
use std::path::{Path, PathBuf};

/// Whether `judge grade` would run an entry.
pub(crate) type Runnable = fn(&Entry, &JudgeConfig) -> WouldGrade;

/// What `judge grade` would do with an entry: a decision, not an error
/// (an entry grade skips is listed as skipped, with the reason).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum WouldGrade {
    Runs,
    /// Grade would not run it: why, as grade says it.
    Skips(String),
}

/// What to compare.
#[derive(Clone, Debug)]
pub(crate) struct Request<'a> {
    pub(crate) config: &'a JudgeConfig,
    /// Only these problems (`None`: judge.toml's `problems`, else every
    /// problem handed in).
    pub(crate) problems: Option<Vec<String>>,
    /// The teacher's starter code (`--base DIR`).
    pub base: Option<&'a Path>,
    pub min_tokens: usize,
    /// Whether `judge grade` would run an entry (why not, as grade says
    /// it); an entry it would not run is not compared but listed as
    /// skipped, so the class compared is the one grade sees. `None`: every
    /// entry is compared.
    pub(crate) runnable: Option<Runnable>,
}

/// The comparison done: the report, the hand-ins it read (their texts go on
/// the side-by-side pages) and the files the layout ignored.
#[derive(Debug)]
pub(crate) struct Analysis {
    pub(crate) report: Report,
    pub(crate) hand_ins: Vec<HandIn>,
    pub(crate) ignored: Vec<Ignored>,
}

/// Why the comparison could not run.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RunError {
    /// The submissions folder is missing or unfit (the user's to fix).
    #[error(transparent)]
    Discover(#[from] DiscoverError),
    /// Nothing to compare and no problem named (the user's to fix).
    #[error("the submissions folder `{}` holds no hand-ins{which}", folder.display())]
    NoHandIns { folder: PathBuf, which: String },
    /// A problem asked for is neither a known problem nor handed in (the
    /// user's to fix: a typo must not compare fewer problems in silence).
    #[error("unknown {}: {} (known: {})", if unknown.len() == 1 { "problem" } else { "problems" }, unknown.join(", "), known.join(", "))]
    UnknownProblems {
        unknown: Vec<String>,
        known: Vec<String>,
    },
    /// `--base` is wrong (the user's to fix, unless a grammar failed).
    #[error(transparent)]
    Base(#[from] BaseError),
    /// A grammar failed on a hand-in: the judge's fault.
    #[error(transparent)]
    Tokenize(#[from] TokenizeError),
}

/// Runs the comparison `request` asks for.
pub(crate) fn run(request: &Request<'_>) -> Result<Analysis, RunError> {
    run_stopping(request, &|| false).map(|(analysis, _)| analysis)
}

/// [`run`], given up as soon as `stop` says so (SIGINT or SIGTERM to
/// `judge grade --similarity`, issue #34): `None` then.
pub(crate) fn run_until(
    request: &Request<'_>,
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Option<Analysis>, RunError> {
    run_stopping(request, stop).map(|(analysis, stopped)| (!stopped).then_some(analysis))
}

/// [`run`], and whether `stop` cut it short (then the analysis is not the
/// comparison asked for, and must not be shown).
fn run_stopping(
    request: &Request<'_>,
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<(Analysis, bool), RunError> {
    let config = request.config;
    let discovery = discovery::discover(&config.submissions, config.layout, None)?;
    let mut known: Vec<String> = crate::config::bundled::package_ids()
        .into_iter()
        .map(str::to_owned)
        .collect();
    known.extend(discovery.entries.iter().map(|entry| entry.problem.clone()));
    known.sort();
    known.dedup();
    let wanted = request.problems.clone().or_else(|| config.problems.clone());
    if let Some(wanted) = &wanted {
        let unknown: Vec<String> = wanted
            .iter()
            .filter(|name| !known.contains(name))
            .cloned()
            .collect();
        if !unknown.is_empty() {
            return Err(RunError::UnknownProblems { unknown, known });
        }
    }
    let entries: Vec<Entry> = discovery
        .entries
        .into_iter()
        .filter(|entry| {
            wanted
                .as_ref()
                .is_none_or(|wanted| wanted.contains(&entry.problem))
        })
        .collect();
    let mut refused = Vec::new();
    let entries: Vec<Entry> = match request.runnable {
        Some(runnable) => entries
            .into_iter()
            .filter(|entry| match runnable(entry, config) {
                WouldGrade::Runs => true,
                WouldGrade::Skips(reason) => {
                    for path in std::iter::once(&entry.path).chain(&entry.others) {
                        refused.push(super::Skipped {
                            path: class::shown_path(path),
                            reason: format!("judge grade does not run it: {reason}"),
                        });
                    }
                    false
                }
            })
            .collect(),
        None => entries,
    };
    // A problem asked for that nobody handed in is compared as nothing (a
    // summary of 0 hand-ins); only a folder with no hand-ins at all, when no
    // problem is named, is refused.
    if entries.is_empty() && wanted.is_none() {
        return Err(RunError::NoHandIns {
            folder: config.submissions.clone(),
            which: String::new(),
        });
    }
    let base = match request.base {
        Some(dir) => class::read_base(dir, &known, &config.languages)?,
        None => Vec::new(),
    };
    let jobs = match config.jobs {
        0 => crate::runner::available_cores(),
        jobs => jobs,
    };
    // Nothing read once a signal came: reading is the comparison's first
    // step.
    let stopped_before = stop();
    let read = if stopped_before {
        (Vec::new(), Vec::new(), Vec::new())
    } else {
        class::read_hand_ins(&entries, &config.languages, jobs)?
    };
    let (hand_ins, mut skipped, notes) = read;
    skipped.extend(refused);
    skipped.sort_by(|a, b| a.path.cmp(&b.path));
    let options = Options {
        min_tokens: request.min_tokens,
        jobs,
    };
    let (pairs, mut problems, stopped) = compare_stopping(&hand_ins, &base, &options, stop);
    for problem in wanted.iter().flatten() {
        if !problems.iter().any(|summary| &summary.problem == problem) {
            problems.push(super::ProblemSummary {
                problem: problem.clone(),
                hand_ins: 0,
                pairs: 0,
                candidates: 0,
            });
        }
    }
    problems.sort_by(|a, b| a.problem.cmp(&b.problem));
    problems.dedup_by(|a, b| a.problem == b.problem);
    let report = Report {
        version: VERSION,
        min_tokens: options.min_tokens,
        base: base
            .iter()
            .map(|file| file.path.display().to_string())
            .collect(),
        problems,
        same_code: super::same_code(&pairs),
        pairs,
        skipped,
        notes,
    };
    let analysis = Analysis {
        report,
        hand_ins,
        ignored: discovery.ignored,
    };
    Ok((analysis, stopped_before || stopped))
}
