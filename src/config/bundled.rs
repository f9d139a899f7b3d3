//! The problem packages built into the binary: every file under the
//! repository's `problems/` (manifest, statement, samples and fixed tests),
//! embedded by `build.rs`. An installed judge, or one run with `--config
//! elsewhere/judge.toml`, grades with the same tests as one run from the
//! repository; `--problems-dir` replaces them.
//!
//! This module only hands out bytes; [`crate::package::Package`] gives them
//! meaning.
//!
//! The bundled tests are fixed when the binary is built, so they are proved
//! valid once, by a test of `crate::package` (`cargo test` fails when a change under
//! `problems/` breaks one), and not each time a command starts: checking the
//! mayan tests' promises (no board clears in fewer than n moves) is a search
//! that took 50-80 ms of every command (issue #19). A package read from
//! `--problems-dir` can change between runs and is still checked at load.

// `FILES`: every bundled file, by its path under `problems/` with `/`
// separators; `EXAMPLES`: the example submissions, by their path under
// `submissions/` (`<id>/<verdict>/<file>`).
use std::path::Path;

include!(concat!(env!("OUT_DIR"), "/bundled.rs"));

/// The example submissions of the bundled package `id`: `(verdict folder,
/// file name, bytes)`, sorted.
pub(crate) fn examples(id: &str) -> Vec<(&'static str, &'static str, &'static [u8])> {
    let prefix = format!("{id}/");
    EXAMPLES
        .iter()
        .filter_map(|(path, bytes)| {
            let (folder, name) = path.strip_prefix(&prefix)?.split_once('/')?;
            (!name.contains('/')).then_some((folder, name, *bytes))
        })
        .collect()
}

/// The ids of the bundled packages (folders holding a `problem.toml`), in
/// the order `judge problems` lists them: by engine as registered in
/// [`crate::problems::PROBLEMS`], then by id.
pub fn package_ids() -> Vec<&'static str> {
    let mut ids: Vec<&'static str> = FILES
        .iter()
        .filter_map(|(path, _)| path.strip_suffix("/problem.toml"))
        .filter(|id| !id.contains('/'))
        .collect();
    let engine_rank = |id: &str| {
        crate::problems::PROBLEMS
            .iter()
            .position(|problem| id == problem.id() || id.starts_with(&format!("{}-", problem.id())))
            .unwrap_or(usize::MAX)
    };
    ids.sort_by_key(|id| (engine_rank(id), *id));
    ids
}

/// The ids of the bundled packages, comma-separated, for messages.
pub(crate) fn known_ids() -> String {
    package_ids().join(", ")
}

/// The bytes of `problems/<path>`, when bundled.
pub fn file(path: &str) -> Option<&'static [u8]> {
    FILES
        .iter()
        .find(|(name, _)| *name == path)
        .map(|(_, bytes)| *bytes)
}

/// The files directly in `problems/<folder>/`, by file name, sorted.
pub(crate) fn files_in(folder: &str) -> Vec<(&'static str, &'static [u8])> {
    let prefix = format!("{folder}/");
    FILES
        .iter()
        .filter_map(|(path, bytes)| {
            path.strip_prefix(&prefix)
                .filter(|name| !name.contains('/'))
                .map(|name| (name, *bytes))
        })
        .collect()
}

/// judge.toml's `problems` (at `path`): at least one, each one of
/// `known_packages` (the bundled packages when `None`).
pub(crate) fn check_problems(
    path: &Path,
    problems: &[String],
    known_packages: Option<&[String]>,
) -> Result<(), super::ConfigError> {
    use super::ConfigError;
    if problems.is_empty() {
        return Err(ConfigError::invalid(
            path,
            "problems",
            "must name at least one problem, or be left out for all",
        ));
    }
    let bundled: Vec<String>;
    let known = match known_packages {
        Some(known) => known,
        None => {
            bundled = package_ids().into_iter().map(str::to_owned).collect();
            &bundled
        }
    };
    match problems.iter().find(|id| !known.contains(id)) {
        Some(id) => Err(ConfigError::invalid(
            path,
            "problems",
            format!("unknown problem `{id}`; known: {}", known.join(", ")),
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_packages_are_embedded() {
        assert_eq!(
            package_ids(),
            [
                "rooks",
                "rooks-large",
                "matchsticks",
                "matchsticks-duel",
                "mayan"
            ]
        );
        assert!(file("rooks/statement.md").is_some());
        assert!(files_in("rooks/tests")
            .iter()
            .any(|(name, _)| *name == "sample-1.in"));
    }

    /// The bundled package's manifest and the engine it names agree:
    /// `config` reads the one, `problems` is the other, and only `config`
    /// names both (issue #33: no folder names the other back).
    #[test]
    fn matchsticks_manifest_title_and_profiles_agree_with_the_code() {
        use crate::problems::matchsticks::{Matchsticks, ProfileKind};
        use crate::problems::Problem as _;
        let text = file("matchsticks/problem.toml").unwrap();
        let manifest: toml::Table = toml::from_str(std::str::from_utf8(text).unwrap()).unwrap();
        assert_eq!(manifest["title"].as_str(), Some(Matchsticks.title()));
        let generated = manifest["tests"]["generated"].as_array().unwrap();
        for entry in generated {
            let name = entry["profile"].as_str().unwrap();
            assert!(ProfileKind::from_name(name).is_some(), "{name}");
        }
    }
}
