//! `judge problems`: the packages, their engine, limits and the generator
//! profiles their tests come from, as an aligned table or (`--json`) for
//! scripts.

use super::{write_stdout, PackageArgs};
use crate::error::Error;
use crate::exit::Outcome;
use crate::grading::catalog;

// Arguments of `judge problems`.
#[derive(Debug, clap::Args)]
pub(crate) struct ProblemsArgs {
    /// Print a JSON array instead of the table: id, engine, title, time_limit_ms,
    /// memory_limit_mib, output_limit_kib and profiles (name, about) of each.
    #[arg(long)]
    pub(crate) json: bool,
    #[command(flatten)]
    pub(crate) packages: PackageArgs,
}

/// Prints one row per package that loads; each other one is a
/// configuration error (exit 2), said after the list, one line each.
pub(super) fn run(args: &ProblemsArgs) -> Result<Outcome, Error> {
    let mut catalog = catalog::rows(args.packages.problems_dir.as_deref());
    if args.json {
        write_stdout(&format!(
            "{}\n",
            serde_json::to_string_pretty(&catalog.rows)?
        ))?;
    } else {
        write_stdout(&catalog::render_table(&catalog.rows))?;
    }
    let last = catalog.broken.pop();
    for (_, error) in &catalog.broken {
        super::say(&format!("error: {error:#}"));
    }
    match last {
        Some((_, error)) => Err(error.into()),
        None => Ok(Outcome::Success),
    }
}
