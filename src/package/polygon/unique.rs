//! What `problem.xml` must name once (issue #29 break-it): one `main`
//! solution, each solution and each group once, and no two executables
//! under one name.
//!
//! A test's `cmd` names a generator by its stem (`gen` for `files/gen.cpp`,
//! which Polygon's `doall.sh` runs as `files/gen.exe`): two executables with
//! one stem would each stand for the other.

use super::tags::SolutionTag;
use super::xml::{ProblemXml, TestsetXml};
use crate::config::ConfigError;
use std::collections::HashMap;
use std::path::Path;

/// Checks `problem` (read from `xml`), whose graded testset is `testset`.
pub(super) fn check(
    xml: &Path,
    problem: &ProblemXml,
    testset: &TestsetXml,
) -> Result<(), ConfigError> {
    let mut main: Option<(&str, usize)> = None;
    for solution in &problem.solutions {
        if solution.tag != SolutionTag::Main {
            continue;
        }
        if let Some((first, first_line)) = main {
            return Err(ConfigError::invalid_on(
                xml,
                solution.line,
                "<solution>",
                format!(
                    "`{}` and `{first}` (line {first_line}) are both tagged `main`; a package \
                     has one main solution, the one that answers the tests",
                    solution.source
                ),
            ));
        }
        main = Some((&solution.source, solution.line));
    }
    let mut groups: HashMap<&str, usize> = HashMap::new();
    for group in &testset.groups {
        if let Some(first_line) = groups.insert(&group.name, group.line) {
            return Err(ConfigError::invalid_on(
                xml,
                group.line,
                "<group>",
                format!(
                    "the group `{}` is defined twice in the testset `{}`, here and on line \
                     {first_line}",
                    group.name, testset.name
                ),
            ));
        }
    }
    let executables = problem
        .executables
        .iter()
        .map(|executable| (executable.value.as_str(), executable.line));
    one_per_stem(xml, "executable", executables, |stem| {
        format!("a test's `cmd` names a generator by it, so `{stem}` would stand for either")
    })?;
    // Solutions may share a stem (`sum.cpp` and `sum.py`, as in Polygon):
    // the judge compiles and reports each by its whole name. The same
    // file twice would be graded twice.
    let mut solutions: HashMap<&str, usize> = HashMap::new();
    for solution in &problem.solutions {
        if let Some(first_line) = solutions.insert(&solution.source, solution.line) {
            return Err(ConfigError::invalid_on(
                xml,
                solution.line,
                "<solution>",
                format!(
                    "`{}` is listed twice, here and on line {first_line}",
                    solution.source
                ),
            ));
        }
    }
    Ok(())
}

/// Refuses two of `sources` (path and line, under `element`) with one
/// stem; `why` says what the stem names. The same path twice is refused
/// as listed twice.
fn one_per_stem<'a>(
    xml: &Path,
    element: &str,
    sources: impl Iterator<Item = (&'a str, usize)>,
    why: impl Fn(&str) -> String,
) -> Result<(), ConfigError> {
    let mut seen: HashMap<String, (&str, usize)> = HashMap::new();
    for (path, line) in sources {
        let stem = Path::new(path)
            .file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
            .unwrap_or_default();
        let Some(&(first, first_line)) = seen.get(&stem) else {
            seen.insert(stem, (path, line));
            continue;
        };
        let message = if first == path {
            format!("`{path}` is listed twice, here and on line {first_line}")
        } else {
            format!(
                "`{path}` and `{first}` (line {first_line}) share the name `{stem}`: {}",
                why(&stem)
            )
        };
        return Err(ConfigError::invalid_on(
            xml,
            line,
            format!("<{element}>"),
            message,
        ));
    }
    Ok(())
}
