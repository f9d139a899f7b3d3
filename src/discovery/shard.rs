//! `--shard auto`: the shard K/N of a run, read from the variables the job
//! engine that started this process sets (docs/sharding.md).
//!
//! | engine | K | N |
//! |---|---|---|
//! | Slurm array job | `SLURM_ARRAY_TASK_ID` − `SLURM_ARRAY_TASK_MIN` + 1 | `SLURM_ARRAY_TASK_COUNT` |
//! | Kubernetes Indexed Job | `JOB_COMPLETION_INDEX` + 1 | `JUDGE_SHARD_COUNT` (the manifest sets it to `completions`) |
//! | GitLab CI `parallel:` | `CI_NODE_INDEX` | `CI_NODE_TOTAL` |
//! | anything else (a GitHub Actions matrix) | `JUDGE_SHARD_INDEX` | `JUDGE_SHARD_COUNT` |
//!
//! The environment comes in as a map, so every engine is tested without
//! touching the process's own; only [`parse_arg`] reads the process's.

use crate::discovery::Shard;
use std::collections::BTreeMap;

/// The environment variables, by name.
pub(crate) type Env = BTreeMap<String, String>;

/// Why `--shard auto` found no shard.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum AutoShardError {
    /// No engine's index variable is set.
    #[error(
        "no job engine's shard variables are set: expected SLURM_ARRAY_TASK_ID and \
         SLURM_ARRAY_TASK_COUNT (a Slurm array job), JOB_COMPLETION_INDEX and JUDGE_SHARD_COUNT \
         (a Kubernetes Indexed Job), CI_NODE_INDEX and CI_NODE_TOTAL (GitLab CI `parallel:`), or \
         JUDGE_SHARD_INDEX and JUDGE_SHARD_COUNT (a GitHub Actions matrix, any other engine); or \
         give the shard as K/N"
    )]
    NoEngine,
    /// The index variables of two engines are set: which one started this
    /// job is not clear (a Slurm job submitted from a GitLab job inherits
    /// the GitLab variables).
    #[error(
        "both {first} ({first_engine}) and {second} ({second_engine}) are set, so the shard is \
         ambiguous: unset one, or give the shard as K/N"
    )]
    Ambiguous {
        first: &'static str,
        first_engine: &'static str,
        second: &'static str,
        second_engine: &'static str,
    },
    /// An engine's index is set but a variable it needs is not.
    #[error("{present} is set ({engine}) but {missing} is not{hint}")]
    Missing {
        present: &'static str,
        engine: &'static str,
        missing: &'static str,
        hint: &'static str,
    },
    /// A variable that is not a whole number.
    #[error("{name} is `{value}`, not a whole number")]
    NotANumber { name: &'static str, value: String },
    /// The index is outside the range the count allows.
    #[error("{index_name} is {index}, but with {count_name} = {count} it must be {low} to {high}")]
    OutOfRange {
        index_name: &'static str,
        index: u64,
        count_name: &'static str,
        count: u64,
        low: u64,
        high: u64,
    },
    /// A count of zero.
    #[error("{name} is 0: a run has at least one shard")]
    ZeroCount { name: &'static str },
    /// A Slurm array whose ids are not consecutive (`--array=1-7:2`,
    /// `--array=1,3`): its task ids cannot number the shards 1..N.
    #[error(
        "the Slurm array's ids are not consecutive: SLURM_ARRAY_TASK_MIN = {min} and \
         SLURM_ARRAY_TASK_MAX = {max} span {span} ids, but SLURM_ARRAY_TASK_COUNT = {count}; \
         submit a range without a step, like --array=1-{count}"
    )]
    SlurmGaps {
        min: u64,
        max: u64,
        span: u64,
        count: u64,
    },
}

/// The engines, in the order they are looked for, each by the variable that
/// says a job of it is running.
const ENGINES: &[(&str, &str)] = &[
    ("SLURM_ARRAY_TASK_ID", "a Slurm array job"),
    ("JOB_COMPLETION_INDEX", "a Kubernetes Indexed Job"),
    ("CI_NODE_INDEX", "GitLab CI `parallel:`"),
    ("JUDGE_SHARD_INDEX", "set for the judge"),
];

/// The shard the job engine described by `env` gives this process.
pub(crate) fn from_env(env: &Env) -> Result<Shard, AutoShardError> {
    let mut present = ENGINES.iter().filter(|(name, _)| env.contains_key(*name));
    let Some(&(marker, engine)) = present.next() else {
        // A GitLab job without `parallel:` has CI_NODE_TOTAL = 1 and no
        // CI_NODE_INDEX: it is the whole run.
        if env.get("CI_NODE_TOTAL").map(String::as_str) == Some("1") {
            return Ok(Shard { index: 1, count: 1 });
        }
        return Err(AutoShardError::NoEngine);
    };
    if let Some(&(second, second_engine)) = present.next() {
        return Err(AutoShardError::Ambiguous {
            first: marker,
            first_engine: engine,
            second,
            second_engine,
        });
    }
    let number = |name: &'static str, hint: &'static str| -> Result<u64, AutoShardError> {
        let value = env.get(name).ok_or(AutoShardError::Missing {
            present: marker,
            engine,
            missing: name,
            hint,
        })?;
        // Digits only: `+3` and ` 3` are not what an engine writes.
        if value.is_empty() || !value.bytes().all(|byte| byte.is_ascii_digit()) {
            return Err(AutoShardError::NotANumber {
                name,
                value: value.clone(),
            });
        }
        value.parse().map_err(|_| AutoShardError::NotANumber {
            name,
            value: value.clone(),
        })
    };
    match marker {
        "SLURM_ARRAY_TASK_ID" => slurm(&number),
        "JOB_COMPLETION_INDEX" => {
            let index = number(marker, "")?;
            let count = number(
                "JUDGE_SHARD_COUNT",
                ": set it in the Job's container env to the Job's `completions`",
            )?;
            shard(marker, index, "JUDGE_SHARD_COUNT", count, 0)
        }
        "CI_NODE_INDEX" => {
            let index = number(marker, "")?;
            let count = number("CI_NODE_TOTAL", "")?;
            shard(marker, index, "CI_NODE_TOTAL", count, 1)
        }
        _ => {
            let index = number(marker, "")?;
            let count = number("JUDGE_SHARD_COUNT", "")?;
            shard(marker, index, "JUDGE_SHARD_COUNT", count, 1)
        }
    }
}

/// A Slurm array task: K counts from the array's lowest id, so `--array=0-3`
/// and `--array=1-4` both make shards 1/4 to 4/4.
fn slurm(
    number: &dyn Fn(&'static str, &'static str) -> Result<u64, AutoShardError>,
) -> Result<Shard, AutoShardError> {
    let id = number("SLURM_ARRAY_TASK_ID", "")?;
    let count = number("SLURM_ARRAY_TASK_COUNT", "")?;
    let min = number("SLURM_ARRAY_TASK_MIN", "")?;
    let max = number("SLURM_ARRAY_TASK_MAX", "")?;
    if count == 0 {
        return Err(AutoShardError::ZeroCount {
            name: "SLURM_ARRAY_TASK_COUNT",
        });
    }
    if min > max || max - min + 1 != count {
        return Err(AutoShardError::SlurmGaps {
            min,
            max,
            span: max.saturating_sub(min).saturating_add(1),
            count,
        });
    }
    if id < min || id > max {
        return Err(AutoShardError::OutOfRange {
            index_name: "SLURM_ARRAY_TASK_ID",
            index: id,
            count_name: "SLURM_ARRAY_TASK_COUNT",
            count,
            low: min,
            high: max,
        });
    }
    to_shard(id - min + 1, count)
}

/// K/N from an index counted from `base` (0 or 1) and a count.
fn shard(
    index_name: &'static str,
    index: u64,
    count_name: &'static str,
    count: u64,
    base: u64,
) -> Result<Shard, AutoShardError> {
    if count == 0 {
        return Err(AutoShardError::ZeroCount { name: count_name });
    }
    let high = count - 1 + base;
    if index < base || index > high {
        return Err(AutoShardError::OutOfRange {
            index_name,
            index,
            count_name,
            count,
            low: base,
            high,
        });
    }
    to_shard(index - base + 1, count)
}

fn to_shard(index: u64, count: u64) -> Result<Shard, AutoShardError> {
    // A count past usize is past any run's number of pairs; saturating keeps
    // 1 <= K <= N.
    let count = usize::try_from(count).unwrap_or(usize::MAX);
    let index = usize::try_from(index).unwrap_or(usize::MAX).min(count);
    Ok(Shard { index, count })
}

/// Why a `--shard` value gives no shard.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ShardArgError {
    /// Not `K/N`.
    #[error(transparent)]
    Shape(#[from] crate::discovery::BadShard),
    /// `auto`, and the environment says no shard.
    #[error(transparent)]
    Auto(#[from] AutoShardError),
}

/// The value of `--shard`: `K/N`, or `auto` to read it from the process's
/// environment with [`from_env`].
pub(crate) fn parse_arg(text: &str) -> Result<Shard, ShardArgError> {
    if text != "auto" {
        return Ok(text.parse()?);
    }
    let env: Env = std::env::vars_os()
        .map(|(name, value)| {
            (
                name.to_string_lossy().into_owned(),
                value.to_string_lossy().into_owned(),
            )
        })
        .collect();
    Ok(from_env(&env)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    fn env(pairs: &[(&str, &str)]) -> Env {
        pairs
            .iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
            .collect()
    }

    fn slurm_task(id: &str, min: &str, max: &str, count: &str) -> Env {
        env(&[
            ("SLURM_ARRAY_JOB_ID", "41"),
            ("SLURM_ARRAY_TASK_ID", id),
            ("SLURM_ARRAY_TASK_MIN", min),
            ("SLURM_ARRAY_TASK_MAX", max),
            ("SLURM_ARRAY_TASK_COUNT", count),
            ("SLURM_JOB_ID", "42"),
        ])
    }

    #[test_case(slurm_task("1", "1", "4", "4"), 1, 4 ; "slurm first of 1-4")]
    #[test_case(slurm_task("4", "1", "4", "4"), 4, 4 ; "slurm last of 1-4")]
    #[test_case(slurm_task("0", "0", "3", "4"), 1, 4 ; "slurm 0-based array")]
    #[test_case(slurm_task("1000", "1", "1000", "1000"), 1000, 1000 ; "slurm largest default array")]
    #[test_case(slurm_task("7", "5", "9", "5"), 3, 5 ; "slurm array from 5")]
    #[test_case(env(&[("JOB_COMPLETION_INDEX", "0"), ("JUDGE_SHARD_COUNT", "4")]), 1, 4 ; "kubernetes first")]
    #[test_case(env(&[("JOB_COMPLETION_INDEX", "3"), ("JUDGE_SHARD_COUNT", "4")]), 4, 4 ; "kubernetes last")]
    #[test_case(env(&[("CI_NODE_INDEX", "2"), ("CI_NODE_TOTAL", "5"), ("CI", "true")]), 2, 5 ; "gitlab parallel")]
    #[test_case(env(&[("CI_NODE_TOTAL", "1"), ("CI", "true")]), 1, 1 ; "gitlab without parallel")]
    #[test_case(env(&[("JUDGE_SHARD_INDEX", "3"), ("JUDGE_SHARD_COUNT", "4"), ("GITHUB_ACTIONS", "true")]), 3, 4 ; "github matrix")]
    #[test_case(env(&[("JUDGE_SHARD_INDEX", "1"), ("JUDGE_SHARD_COUNT", "1")]), 1, 1 ; "one shard")]
    fn reads_each_engine(env: Env, index: usize, count: usize) {
        assert_eq!(from_env(&env), Ok(Shard { index, count }));
    }

    #[test_case(env(&[]), "no job engine's shard variables are set: expected SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (a Slurm array job), JOB_COMPLETION_INDEX and JUDGE_SHARD_COUNT (a Kubernetes Indexed Job), CI_NODE_INDEX and CI_NODE_TOTAL (GitLab CI `parallel:`), or JUDGE_SHARD_INDEX and JUDGE_SHARD_COUNT (a GitHub Actions matrix, any other engine); or give the shard as K/N" ; "nothing set")]
    #[test_case(env(&[("SLURM_JOB_ID", "42"), ("CI_NODE_TOTAL", "3"), ("JUDGE_SHARD_COUNT", "4")]), "no job engine's shard variables are set: expected SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (a Slurm array job), JOB_COMPLETION_INDEX and JUDGE_SHARD_COUNT (a Kubernetes Indexed Job), CI_NODE_INDEX and CI_NODE_TOTAL (GitLab CI `parallel:`), or JUDGE_SHARD_INDEX and JUDGE_SHARD_COUNT (a GitHub Actions matrix, any other engine); or give the shard as K/N" ; "a slurm job that is not an array, counts without an index")]
    #[test_case(slurm_task("5", "1", "4", "4"), "SLURM_ARRAY_TASK_ID is 5, but with SLURM_ARRAY_TASK_COUNT = 4 it must be 1 to 4" ; "slurm id past max")]
    #[test_case(slurm_task("3", "1", "7", "4"), "the Slurm array's ids are not consecutive: SLURM_ARRAY_TASK_MIN = 1 and SLURM_ARRAY_TASK_MAX = 7 span 7 ids, but SLURM_ARRAY_TASK_COUNT = 4; submit a range without a step, like --array=1-4" ; "slurm array with a step")]
    #[test_case(slurm_task("3", "4", "1", "4"), "the Slurm array's ids are not consecutive: SLURM_ARRAY_TASK_MIN = 4 and SLURM_ARRAY_TASK_MAX = 1 span 1 ids, but SLURM_ARRAY_TASK_COUNT = 4; submit a range without a step, like --array=1-4" ; "slurm min past max")]
    #[test_case(slurm_task("1", "1", "0", "0"), "SLURM_ARRAY_TASK_COUNT is 0: a run has at least one shard" ; "slurm zero count")]
    #[test_case(env(&[("SLURM_ARRAY_TASK_ID", "1"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_MAX", "4")]), "SLURM_ARRAY_TASK_ID is set (a Slurm array job) but SLURM_ARRAY_TASK_COUNT is not" ; "slurm without count")]
    #[test_case(slurm_task("x", "1", "4", "4"), "SLURM_ARRAY_TASK_ID is `x`, not a whole number" ; "slurm id not a number")]
    #[test_case(env(&[("JOB_COMPLETION_INDEX", "0")]), "JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job) but JUDGE_SHARD_COUNT is not: set it in the Job's container env to the Job's `completions`" ; "kubernetes without count")]
    #[test_case(env(&[("JOB_COMPLETION_INDEX", "4"), ("JUDGE_SHARD_COUNT", "4")]), "JOB_COMPLETION_INDEX is 4, but with JUDGE_SHARD_COUNT = 4 it must be 0 to 3" ; "kubernetes index is 0-based")]
    #[test_case(env(&[("CI_NODE_INDEX", "0"), ("CI_NODE_TOTAL", "4")]), "CI_NODE_INDEX is 0, but with CI_NODE_TOTAL = 4 it must be 1 to 4" ; "gitlab index is 1-based")]
    #[test_case(env(&[("CI_NODE_INDEX", "1")]), "CI_NODE_INDEX is set (GitLab CI `parallel:`) but CI_NODE_TOTAL is not" ; "gitlab without total")]
    #[test_case(env(&[("JUDGE_SHARD_INDEX", "5"), ("JUDGE_SHARD_COUNT", "4")]), "JUDGE_SHARD_INDEX is 5, but with JUDGE_SHARD_COUNT = 4 it must be 1 to 4" ; "github index past count")]
    #[test_case(env(&[("JUDGE_SHARD_INDEX", ""), ("JUDGE_SHARD_COUNT", "4")]), "JUDGE_SHARD_INDEX is ``, not a whole number" ; "empty matrix value")]
    #[test_case(env(&[("JUDGE_SHARD_INDEX", "+2"), ("JUDGE_SHARD_COUNT", "4")]), "JUDGE_SHARD_INDEX is `+2`, not a whole number" ; "signed")]
    #[test_case(env(&[("JUDGE_SHARD_INDEX", "1"), ("JUDGE_SHARD_COUNT", "0")]), "JUDGE_SHARD_COUNT is 0: a run has at least one shard" ; "zero count")]
    #[test_case(env(&[("JUDGE_SHARD_INDEX", "1"), ("JUDGE_SHARD_COUNT", "99999999999999999999999")]), "JUDGE_SHARD_COUNT is `99999999999999999999999`, not a whole number" ; "count past u64")]
    #[test_case(env(&[("SLURM_ARRAY_TASK_ID", "1"), ("CI_NODE_INDEX", "1")]), "both SLURM_ARRAY_TASK_ID (a Slurm array job) and CI_NODE_INDEX (GitLab CI `parallel:`) are set, so the shard is ambiguous: unset one, or give the shard as K/N" ; "two engines")]
    fn refuses_with_the_variables_named(env: Env, message: &str) {
        let error = from_env(&env).unwrap_err();
        assert_eq!(error.to_string(), message);
    }

    #[test]
    fn k_slash_n_still_parses_and_auto_is_only_auto() {
        assert_eq!(parse_arg("2/4"), Ok(Shard { index: 2, count: 4 }));
        assert!(parse_arg("Auto").is_err());
        assert!(parse_arg("auto/4").is_err());
    }
}
