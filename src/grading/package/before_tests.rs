//! A package's grade that SIGINT or SIGTERM stopped before any test ran
//! (issue #34): while its `data/` was built, while it loaded, while its
//! time limit was derived. SPEC asks for the reports all the same, marked
//! `interrupted`; this is the grade they hold, saying what was being done
//! and that nothing was graded (`crate::grading::stopped`, as a class's),
//! with what was known of the package by then. Not here: stopping the
//! programs (the sandbox kills what runs on the signal) and writing the
//! reports (`crate::grading::stopped::end`).

use super::{as_package_grade, entries, package_config, PackagePlan};
use crate::config::judge::JudgeConfig;
use crate::config::judge::Layout;
use crate::discovery::Shard;
use crate::grading::grade::{Grade, GradedWith, ShardInfo};
use crate::grading::stopped::nothing_graded;
use crate::grading::ungraded::not_graded_entry;
use crate::report::json::BeforeTests;

/// How a step before the tests ended: done, or stopped by SIGINT or
/// SIGTERM (the program it ran killed), so that nothing is graded.
#[derive(Debug)]
pub(crate) enum Before<T> {
    Done(T),
    /// Stopped while doing this.
    Stopped(BeforeTests),
}

/// The grade of a package stopped while `doing`, before any test ran: no
/// result, `interrupted`. With its `plan`, when it was loaded by then, the
/// pairs `shard` would have graded are not graded, and the files it does
/// not grade are ignored as in any grade of it; without one nothing of the
/// package is known, not even how many pairs a shard holds: its `shard`
/// says which shard it is, with no pairs (a merge then says that this
/// shard was stopped, not that it is missing).
pub(crate) fn stopped_grade(
    doing: BeforeTests,
    plan: Option<&PackagePlan>,
    config: &JudgeConfig,
    shard: Option<Shard>,
) -> Grade {
    let (not_graded, ignored, shard, graded_with) = match plan {
        Some(plan) => {
            let config = package_config(plan, config);
            let entries = entries(plan, &config);
            let pairs = entries.len();
            let entries = match shard {
                Some(shard) => shard.select(entries),
                None => entries,
            };
            (
                entries.iter().map(not_graded_entry).collect(),
                plan.not_graded(),
                shard.map(|shard| ShardInfo {
                    index: shard.index,
                    count: shard.count,
                    pairs: Some(pairs),
                }),
                GradedWith::of(&config),
            )
        }
        None => (
            Vec::new(),
            Vec::new(),
            shard.map(|shard| ShardInfo {
                index: shard.index,
                count: shard.count,
                pairs: None,
            }),
            GradedWith::of(&as_package_grade(config.clone())),
        ),
    };
    Grade {
        shard,
        not_graded,
        ignored,
        ..nothing_graded(doing, Layout::Expected, graded_with)
    }
}
