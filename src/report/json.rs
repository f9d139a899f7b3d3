//! SPEC.md's JSON report (`--json`), `"version": 1`, plus the isolation in
//! force and, for random tests, where each came from; `judge grade`'s
//! report with what grading adds, and merging the reports of shards.

use crate::runner::SubmissionResult;
use crate::sandbox::Isolation;
use crate::verdict::Verdict;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The report's format version (SPEC.md); bump it when a field changes
/// meaning, and say so in CHANGELOG.md.
pub const VERSION: u32 = 1;

#[derive(Serialize)]
struct Report<'a> {
    version: u32,
    isolation: &'a Isolation,
    #[serde(skip_serializing_if = "Option::is_none")]
    tests: Option<&'a TestSelection>,
    results: &'a [SubmissionResult],
}

/// Which tests `judge run` ran, and why that many random ones.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestSelection {
    /// Where the fixed tests came from: the `--tests` folder, or `package
    /// <id>`.
    pub fixed: String,
    /// How many fixed tests.
    pub fixed_count: usize,
    /// How many random tests were added.
    pub random: u32,
    /// Who asked for them: `--random`, `judge.toml`, `default` (no
    /// `--tests`: the built-in `random-tests`), or `none`.
    pub random_from: String,
}

impl TestSelection {
    /// One line for the table's footer, e.g. `tests: 4 from my-tests only
    /// (no random tests: --tests runs exactly its folder unless --random N
    /// or judge.toml's random-tests asks for more)`.
    pub fn describe(&self) -> String {
        if self.random == 0 {
            let why = if self.random_from != "none" {
                String::new()
            } else {
                " (no random tests: --tests runs exactly its folder unless --random N or \
                 judge.toml's random-tests asks for more)"
                    .to_owned()
            };
            format!("tests: {} from {} only{why}", self.fixed_count, self.fixed)
        } else {
            format!(
                "tests: {} from {} + {} random (from {})",
                self.fixed_count, self.fixed, self.random, self.random_from
            )
        }
    }
}

/// The JSON text of a report, pretty-printed, ending with a newline.
pub fn render(
    results: &[SubmissionResult],
    isolation: &Isolation,
    tests: Option<&TestSelection>,
) -> String {
    let report = Report {
        version: VERSION,
        isolation,
        tests,
        results,
    };
    // Serialising plain structs of strings and numbers cannot fail.
    let mut text = serde_json::to_string_pretty(&report).unwrap_or_default();
    text.push('\n');
    text
}

/// `judge grade`'s JSON report: SPEC.md's `version` and `results`, each
/// result with what grading adds (the student, the expected verdict, the
/// limits after the language's time factor, time-limit warnings), and which
/// shard of a split run it is. `judge merge` reads these back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GradeReport {
    pub version: u32,
    /// The isolation in force (see `judge run`'s report); kept as written,
    /// since a merged report may come from other machines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub isolation: Option<serde_json::Value>,
    /// judge.toml's `layout`.
    pub layout: String,
    /// Which part of a split run this is; absent for a whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardInfo>,
    /// In the unsharded order: by submission path, then problem.
    pub results: Vec<GradedResult>,
}

/// `shard` of a [`GradeReport`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardInfo {
    /// 1-based.
    pub index: usize,
    pub count: usize,
    /// (submission, problem) pairs of the whole run, so a merge can tell
    /// that a shard is missing.
    pub pairs: usize,
}

/// One (submission, problem) pair of `judge grade`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GradedResult {
    #[serde(flatten)]
    pub result: SubmissionResult,
    /// The student (layouts `problem/student`, `student/problem`) or the
    /// example's file stem (`expected`).
    pub student: String,
    /// Layout `expected`: the verdict folder and the verdict it demands
    /// (absent for a folder that names no verdict).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<Expected>,
    /// The CPU time limit of each test, after the language's `time-factor`.
    pub time_limit_ms: u64,
    pub memory_limit_mib: u64,
    /// Verdicts sensitive to the time limit, and similar notes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// `expected` of a [`GradedResult`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Expected {
    pub folder: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
}

impl GradedResult {
    /// Layout `expected`: whether the verdict is the one its folder demands
    /// (`None` when the layout has no expectations).
    pub fn agrees(&self) -> Option<bool> {
        self.expected
            .as_ref()
            .map(|expected| expected.verdict == Some(self.result.verdict))
    }

    /// Score in percent: tests passed of tests run (0 when none ran).
    pub fn score_percent(&self) -> u32 {
        match self.result.total {
            0 => 0,
            total => (self.result.passed * 100 / total) as u32,
        }
    }

    /// The slowest test's CPU time, if any test ran.
    pub fn slowest_ms(&self) -> Option<u64> {
        self.result.tests.iter().map(|test| test.time_ms).max()
    }
}

/// The JSON text of a grade report, pretty-printed, ending with a newline.
pub fn render_grade(report: &GradeReport) -> String {
    // Plain structs of strings, numbers and a JSON value: cannot fail.
    let mut text = serde_json::to_string_pretty(report).unwrap_or_default();
    text.push('\n');
    text
}

/// Reports `judge merge` could not combine. A usage error: the user gave
/// the wrong files.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A file is not a grade report.
    #[error("`{}` is not a `judge grade` JSON report: {message}", path.display())]
    Parse { path: PathBuf, message: String },
    /// A report of another format version.
    #[error("`{}` has report version {found}; this judge reads version {VERSION}", path.display())]
    Version { path: PathBuf, found: u32 },
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
    /// Shards of a split run, but not all of them.
    #[error(
        "shard {index}/{count} is missing: the reports hold {found} of the run's {pairs} pairs"
    )]
    MissingShard {
        index: usize,
        count: usize,
        found: usize,
        pairs: usize,
    },
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

/// Parses one grade report; `path` names it in errors.
pub fn parse_grade(path: &Path, text: &str) -> Result<GradeReport, MergeError> {
    // The version first, so a report of another version is named as such
    // rather than as a parse error on a field that changed.
    #[derive(Deserialize)]
    struct Versioned {
        version: u32,
    }
    let parse_error = |error: serde_json::Error| MergeError::Parse {
        path: path.to_owned(),
        message: error.to_string(),
    };
    let versioned: Versioned = serde_json::from_str(text).map_err(parse_error)?;
    if versioned.version != VERSION {
        return Err(MergeError::Version {
            path: path.to_owned(),
            found: versioned.version,
        });
    }
    serde_json::from_str(text).map_err(parse_error)
}

/// Combines shard reports into the report of the whole run: results in the
/// unsharded order, no `shard`. Refuses overlapping pairs, mixed layouts or
/// splits, and a split run with a shard missing.
pub fn merge(reports: Vec<(PathBuf, GradeReport)>) -> Result<GradeReport, MergeError> {
    let Some((first_path, first)) = reports.first().cloned() else {
        return Ok(GradeReport {
            version: VERSION,
            isolation: None,
            layout: String::new(),
            shard: None,
            results: Vec::new(),
        });
    };
    let mut owners: BTreeMap<(String, String), PathBuf> = BTreeMap::new();
    let mut results = Vec::new();
    let mut shards_seen = BTreeSet::new();
    for (path, report) in reports {
        if report.layout != first.layout {
            return Err(MergeError::Layout {
                path,
                found: report.layout,
                first: first_path,
                expected: first.layout,
            });
        }
        if let (Some(shard), Some(expected)) = (report.shard, first.shard) {
            if shard.count != expected.count || shard.pairs != expected.pairs {
                return Err(MergeError::ShardCount {
                    path,
                    index: shard.index,
                    count: shard.count,
                    first: first_path,
                    expected: expected.count,
                });
            }
            shards_seen.insert(shard.index);
        }
        for graded in report.results {
            let key = (
                graded.result.submission.clone(),
                graded.result.problem.clone(),
            );
            if let Some(first) = owners.get(&key) {
                return Err(MergeError::Overlap {
                    submission: key.0,
                    problem: key.1,
                    first: first.clone(),
                    second: path,
                });
            }
            owners.insert(key, path.clone());
            results.push(graded);
        }
    }
    if let Some(shard) = first.shard {
        if let Some(index) = (1..=shard.count).find(|index| !shards_seen.contains(index)) {
            return Err(MergeError::MissingShard {
                index,
                count: shard.count,
                found: results.len(),
                pairs: shard.pairs,
            });
        }
    }
    results.sort_by(|a, b| {
        crate::grade::order_key(Path::new(&a.result.submission), &a.result.problem).cmp(
            &crate::grade::order_key(Path::new(&b.result.submission), &b.result.problem),
        )
    });
    Ok(GradeReport {
        version: VERSION,
        isolation: first.isolation,
        layout: first.layout,
        shard: None,
        results,
    })
}
