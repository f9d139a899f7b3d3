//! What `judge problems` lists: each package's engine, limits and the
//! generator profiles its tests come from, as the table and the JSON show
//! them.

use crate::config::ConfigError;
use crate::package::{package_ids, Package, ProblemRef};
use std::fmt::Write as _;
use std::path::Path;

/// One package, as `judge problems` shows it.
#[derive(Debug, serde::Serialize)]
pub(crate) struct Row {
    pub(crate) id: String,
    pub(crate) engine: &'static str,
    pub(crate) title: String,
    pub(crate) time_limit_ms: u64,
    pub(crate) memory_limit_mib: u64,
    pub(crate) output_limit_kib: u64,
    pub(crate) profiles: Vec<ProfileRow>,
}

/// One generator profile of a package.
#[derive(Debug, serde::Serialize)]
pub(crate) struct ProfileRow {
    pub(crate) name: String,
    pub(crate) about: &'static str,
}

/// The packages `judge problems` lists, and those it cannot.
#[derive(Debug, Default)]
pub(crate) struct Catalog {
    /// A row per package that loads: the bundled ones, then those of
    /// `problems_dir`.
    pub(crate) rows: Vec<Row>,
    /// Each package that does not load, with why: one broken package (a
    /// missing `.ans`, a typo in its problem.toml) does not hide the others
    /// (issue #32, found by a review).
    pub(crate) broken: Vec<(String, ConfigError)>,
}

/// The packages: the bundled ones, then those of `problems_dir`. The
/// programs of each (checking its tests as it loads) hide what the packages
/// loaded before it say is secret, and its own.
pub(crate) fn rows(problems_dir: Option<&Path>) -> Catalog {
    let mut catalog = Catalog::default();
    let mut hidden = super::hidden::Gathering::new();
    for id in package_ids(problems_dir) {
        match Package::load_hiding(problems_dir, &id, None, hidden.so_far()) {
            Ok(package) => {
                hidden.package(&package);
                catalog.rows.push(row(&package));
            }
            Err(error) => catalog.broken.push((id, error)),
        }
    }
    catalog
}

fn row(package: &Package) -> Row {
    let limits = &package.manifest().limits;
    let engine_profiles = package.problem().profiles();
    Row {
        id: package.id().to_owned(),
        engine: match &package.problem() {
            ProblemRef::Engine(engine) => engine.id(),
            ProblemRef::Programs(_) => "programs",
        },
        title: package.manifest().title.clone(),
        time_limit_ms: limits.time_limit_ms,
        memory_limit_mib: limits.memory_limit_mib,
        output_limit_kib: limits.output_limit_kib,
        profiles: package
            .profiles()
            .iter()
            .map(|name| ProfileRow {
                name: (*name).to_owned(),
                about: engine_profiles
                    .iter()
                    .find(|profile| profile.name == *name)
                    .map_or("", |profile| profile.about),
            })
            .collect(),
    }
}

/// The table, each column as wide as its widest cell (issue #10: a long
/// title pushed the columns after it out of line), and the note on the
/// profiles under it.
pub(crate) fn render_table(rows: &[Row]) -> String {
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
    let _ = writeln!(
        table,
        "\nRandom tests take a package's profiles in turn; `judge gen <problem> --profile P` \
         reaches the others."
    );
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_packages_are_listed_with_their_engines_and_profiles() {
        let catalog = rows(None);
        assert!(catalog.broken.is_empty(), "{:?}", catalog.broken);
        let rows = catalog.rows;
        let rooks = rows.iter().find(|row| row.id == "rooks").expect("rooks");
        assert_eq!(rooks.engine, "rooks");
        assert!(rooks.time_limit_ms > 0);
        assert!(!rooks.profiles.is_empty());
        assert!(rooks
            .profiles
            .iter()
            .all(|profile| !profile.about.is_empty()));
        for id in ["rooks", "matchsticks", "mayan"] {
            assert!(rows.iter().any(|row| row.id == id), "{id} is listed");
        }
    }
}
