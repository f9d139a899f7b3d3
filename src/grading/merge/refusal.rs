//! The wording of `judge merge`'s refusals: reports that are no grade
//! report of this judge, or that do not combine. Its own file so that the
//! grading layer's user errors (`grading::usage`) can hold it without
//! naming the merge itself.

use crate::report::json::ReadError;
use std::path::PathBuf;

/// Reports `judge merge` (and `judge report`) could not read or combine.
/// A usage error: the user gave the wrong files.
#[derive(Debug, thiserror::Error)]
pub(crate) enum MergeError {
    /// A file that is no grade report of this judge's version, as
    /// `report::json::parse_grade` says.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// Reports of runs with different layouts.
    #[error("`{}` is of layout `{found}`, but `{}` is of layout `{expected}`", path.display(), first.display())]
    Layout {
        path: PathBuf,
        found: String,
        first: PathBuf,
        expected: String,
    },
    /// The same pair graded in two reports: shards of different splits, or a
    /// report given twice.
    #[error("`{submission}` ({problem}) is in both `{}` and `{}`", first.display(), second.display())]
    Overlap {
        submission: String,
        problem: String,
        first: PathBuf,
        second: PathBuf,
    },
    /// Shards of a split run, but not all of them: every missing one is
    /// named (issue #32).
    #[error(
        "{} missing: the reports hold {}",
        missing_shards(missing, *count),
        held(*found, *pairs)
    )]
    MissingShard {
        missing: Vec<usize>,
        count: usize,
        found: usize,
        /// `None` when no shard knew them (each was stopped before its
        /// package was loaded).
        pairs: Option<usize>,
    },
    /// Shards graded with different settings or judges: their results are
    /// not comparable.
    #[error(
        "`{}` was graded with {what} {found}, but `{}` with {expected}: shards must be \
         graded alike",
        path.display(),
        first.display()
    )]
    Settings {
        path: PathBuf,
        what: String,
        found: String,
        first: PathBuf,
        expected: String,
    },
    /// Two shards graded one problem and language under different limits.
    #[error(
        "`{}` graded {pair} with limits {found}, but `{}` with {expected}",
        path.display(),
        first.display()
    )]
    Limits {
        path: PathBuf,
        /// `rooks in python`.
        pair: String,
        found: String,
        first: PathBuf,
        expected: String,
    },
    /// One shard in two reports: a report given twice, or a stopped try's
    /// report beside the shard graded again (issue #34).
    #[error(
        "shard {index}/{count} is in both `{}` and `{}`: give one report of each shard (the \
         newest, when a shard was graded again)",
        first.display(),
        second.display()
    )]
    SameShard {
        index: usize,
        count: usize,
        first: PathBuf,
        second: PathBuf,
    },
    /// A shard whose index is not one of its split's (`3/2`, `0/2`): a
    /// report edited by hand, or one of another split (issue #34).
    #[error("`{}` is shard {index}/{count}, but {}", path.display(), shards_of(*count))]
    ShardIndex {
        path: PathBuf,
        index: usize,
        count: usize,
    },
    /// Every shard of the split, but not every pair of the run: a shard
    /// report lost results (issue #34).
    #[error(
        "the shards hold {found} of the run's {pairs} pairs, graded or not: a shard report \
         lost some; grade its shard again"
    )]
    PairsLost { found: usize, pairs: usize },
    /// Shards of splits into different numbers of parts.
    #[error("`{}` is shard {index}/{count}, but `{}` is of a split into {expected}", path.display(), first.display())]
    ShardCount {
        path: PathBuf,
        index: usize,
        count: usize,
        first: PathBuf,
        expected: usize,
    },
}

/// `3 of the run's 7 pairs`, or `3 pairs (no report says how many the run
/// has)`.
fn held(found: usize, pairs: Option<usize>) -> String {
    match pairs {
        Some(pairs) => format!("{found} of the run's {pairs} pairs"),
        None => format!("{found} pairs (no report says how many the run has)"),
    }
}

/// The shards a split into `count` parts has: `a split into 4 has shards
/// 1/4 to 4/4`.
fn shards_of(count: usize) -> String {
    match count {
        0 => "a split has at least one shard".to_owned(),
        1 => "a split into 1 has only shard 1/1".to_owned(),
        count => format!("a split into {count} has shards 1/{count} to {count}/{count}"),
    }
}

/// `shard 3/4 is`, `shards 2/4 and 4/4 are`, `shards 1/5, 2/5 and 4/5 are`.
fn missing_shards(missing: &[usize], count: usize) -> String {
    let names: Vec<String> = missing
        .iter()
        .map(|index| format!("{index}/{count}"))
        .collect();
    match names.as_slice() {
        [one] => format!("shard {one} is"),
        [init @ .., last] => format!("shards {} and {last} are", init.join(", ")),
        [] => "no shard is".to_owned(),
    }
}
