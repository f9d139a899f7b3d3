//! `judge problems`: the packages, their engine, limits and the generator
//! profiles their tests come from, as an aligned table or (`--json`) for
//! scripts.

use super::{write_stdout, PackageArgs};
use crate::error::Error;
use crate::exit;
use crate::grading::catalog::{self, Row};
use std::fmt::Write as _;

/// Arguments of `judge problems`.
#[derive(Debug, clap::Args)]
pub struct ProblemsArgs {
    /// Print a JSON array instead of the table: id, engine, title, time_limit_ms,
    /// memory_limit_mib, output_limit_kib and profiles (name, about) of each.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub packages: PackageArgs,
}

/// Prints one row per package.
pub(super) fn run(args: &ProblemsArgs) -> Result<u8, Error> {
    let rows = catalog::rows(args.packages.problems_dir.as_deref())?;
    if args.json {
        write_stdout(&format!("{}\n", serde_json::to_string_pretty(&rows)?))?;
    } else {
        let mut table = render_table(&rows);
        let _ = writeln!(
            table,
            "\nRandom tests take a package's profiles in turn; `judge gen <problem> --profile P` \
             reaches the others."
        );
        write_stdout(&table)?;
    }
    Ok(exit::SUCCESS)
}

/// The table, each column as wide as its widest cell (issue #10: a long
/// title pushed the columns after it out of line).
fn render_table(rows: &[Row]) -> String {
    let cells: Vec<[String; 7]> = rows
        .iter()
        .map(|row| {
            [
                row.id.clone(),
                row.engine.to_owned(),
                row.title.clone(),
                format!("{} ms", row.time_limit_ms),
                format!("{} MiB", row.memory_limit_mib),
                format!("{} KiB", row.output_limit_kib),
                row.profiles
                    .iter()
                    .map(|profile| profile.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            ]
        })
        .collect();
    let header = [
        "problem", "engine", "title", "time", "memory", "output", "profiles",
    ];
    let width = |column: usize| {
        cells
            .iter()
            .map(|row| row[column].chars().count())
            .chain([header[column].len()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..7).map(width).collect();
    let mut table = String::new();
    for row in std::iter::once(header.map(str::to_owned)).chain(cells) {
        let line = format!(
            "{:<w0$}  {:<w1$}  {:<w2$}  {:>w3$}  {:>w4$}  {:>w5$}  {}",
            row[0],
            row[1],
            row[2],
            row[3],
            row[4],
            row[5],
            row[6],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
            w3 = widths[3],
            w4 = widths[4],
            w5 = widths[5],
        );
        let _ = writeln!(table, "{}", line.trim_end());
    }
    table
}
