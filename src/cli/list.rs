//! `judge problems`: the problems, their limits and generator profiles.

use super::{write_stdout, PackageArgs};
use crate::config::problem::Package;
use crate::exit;
use crate::problems::PROBLEMS;
use std::fmt::Write as _;

/// Arguments of `judge problems`.
#[derive(Debug, clap::Args)]
pub struct ProblemsArgs {
    #[command(flatten)]
    pub packages: PackageArgs,
}

/// Prints one row per problem.
pub fn run(args: &ProblemsArgs) -> anyhow::Result<u8> {
    let mut table = String::new();
    writeln!(
        table,
        "{:<12} {:<24} {:>8} {:>9} {:>9}  profiles",
        "problem", "title", "time", "memory", "output"
    )?;
    for problem in PROBLEMS {
        let package = Package::load(&args.packages.problems_dir, *problem)?;
        let limits = &package.manifest.limits;
        let profiles: Vec<_> = problem
            .profiles()
            .iter()
            .map(|profile| profile.name)
            .collect();
        writeln!(
            table,
            "{:<12} {:<24} {:>5} ms {:>5} MiB {:>5} KiB  {}",
            problem.id(),
            package.manifest.title,
            limits.time_limit_ms,
            limits.memory_limit_mib,
            limits.output_limit_kib,
            profiles.join(", ")
        )?;
    }
    write_stdout(&table)?;
    Ok(exit::SUCCESS)
}
