//! `judge problems`: the packages, their engine, limits and the generator
//! profiles their tests come from.

use super::{write_stdout, PackageArgs};
use crate::config::problem::package_ids;
use crate::exit;
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
        "{:<12} {:<12} {:<28} {:>8} {:>9} {:>9}  profiles",
        "problem", "engine", "title", "time", "memory", "output"
    )?;
    for id in package_ids(args.packages.problems_dir.as_deref()) {
        let package = args.packages.load(&id)?;
        let limits = &package.manifest.limits;
        let profiles = package.profiles();
        writeln!(
            table,
            "{:<12} {:<12} {:<28} {:>5} ms {:>5} MiB {:>5} KiB  {}",
            package.id,
            match &package.problem {
                crate::config::problem::ProblemRef::Engine(engine) => engine.id(),
                crate::config::problem::ProblemRef::Programs(_) => "programs",
            },
            package.manifest.title,
            limits.time_limit_ms,
            limits.memory_limit_mib,
            limits.output_limit_kib,
            profiles.join(", ")
        )?;
    }
    writeln!(
        table,
        "\nRandom tests take a package's profiles in turn; `judge gen <problem> --profile P` \
         reaches the others."
    )?;
    write_stdout(&table)?;
    Ok(exit::SUCCESS)
}
