//! What `judge problems` lists: each package's engine, limits and the
//! generator profiles its tests come from, as the table and the JSON show
//! them. Not responsible for the table's layout (the command line's).

use crate::config::ConfigError;
use crate::package::{package_ids, Package, ProblemRef};
use std::path::Path;

/// One package, as `judge problems` shows it.
#[derive(Debug, serde::Serialize)]
pub(crate) struct Row {
    pub id: String,
    pub engine: &'static str,
    pub title: String,
    pub time_limit_ms: u64,
    pub memory_limit_mib: u64,
    pub output_limit_kib: u64,
    pub profiles: Vec<ProfileRow>,
}

/// One generator profile of a package.
#[derive(Debug, serde::Serialize)]
pub(crate) struct ProfileRow {
    pub name: String,
    pub about: &'static str,
}

/// A row per package: the bundled ones, then those of `problems_dir`.
pub(crate) fn rows(problems_dir: Option<&Path>) -> Result<Vec<Row>, ConfigError> {
    package_ids(problems_dir)
        .into_iter()
        .map(|id| Package::load(problems_dir, &id).map(|package| row(&package)))
        .collect()
}

fn row(package: &Package) -> Row {
    let limits = &package.manifest.limits;
    let engine_profiles = package.problem.profiles();
    Row {
        id: package.id.clone(),
        engine: match &package.problem {
            ProblemRef::Engine(engine) => engine.id(),
            ProblemRef::Programs(_) => "programs",
        },
        title: package.manifest.title.clone(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_packages_are_listed_with_their_engines_and_profiles() {
        let rows = rows(None).expect("the bundled packages load");
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
