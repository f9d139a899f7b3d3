//! `judge gen`'s work: random valid inputs, reproducible from a seed,
//! printed in order or written as a set of `NAME.in` and `NAME.ans`.
//!
//! Test `i` (0-based) of a run uses `problems::test_rng(seed, problem,
//! profile, i)`, so `--count 5` is the first five of `--count 50`, each test
//! can be regenerated alone, and `--append --count 5` after `--count 5` is
//! `--count 10`. Tests stream one by one ([`testset`]): memory stays flat and
//! the first test appears at once. Not responsible for printing: the
//! caller's callbacks do (`cli/gen.rs` only takes the arguments, makes one
//! call, [`gen`] or [`generators`], and prints).
//!
//! The one home of `judge gen` (issue #33): this file says what a run
//! makes, [`testset`] makes the tests and writes a set. Its failures are
//! [`GenError`]'s: the grading layer's (a usage error) or its own.

pub(crate) mod testset;

use crate::config::judge::JudgeConfig;
use crate::exit::Outcome;
use crate::grading::usage::UsageError;
use crate::grading::GradingError;
use crate::package::format::PrepareError;
use crate::package::Package;
use crate::problems;
use std::path::Path;
use testset::{Existing, SetWriter, Stats};

/// Why `judge gen` made nothing, or not all: the grading layer's errors
/// (the user's mistakes) and the command's own failures, each the judge's.
/// [`crate::error::Error`] takes it apart, so its exit code is decided in
/// the one `match` there.
#[derive(Debug, thiserror::Error)]
pub(crate) enum GenError {
    /// A usage error, or another failure of the grading layer.
    #[error(transparent)]
    Grading(#[from] GradingError),
    /// A data set could not be made, read or written.
    #[error(transparent)]
    TestSet(#[from] testset::TestSetError),
    /// A package offers no generator profile to make tests with.
    #[error("problem `{id}` has no generator profile")]
    NoProfile { id: String },
}

/// What to generate.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GenRequest<'a> {
    /// The generator profile; the package's first when `None`.
    pub(crate) profile: Option<&'a str>,
    pub(crate) seed: u64,
    pub(crate) count: u32,
    /// The 1-based number of the first test in the seed's sequence
    /// (`--from`): test 29 alone is `from: 29, count: 1` (issue #32: a
    /// stress failure's remake made 29 tests for one).
    pub(crate) from: u64,
    /// Threads; the number of cores when `None`.
    pub(crate) jobs: Option<u64>,
    /// Say what the tests hold even when printing them.
    pub(crate) stats: bool,
}

/// Where a set is written (`--out DIR`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct SetTarget<'a> {
    pub(crate) dir: &'a Path,
    /// Prefix of the file names, e.g. `large-`.
    pub(crate) prefix: &'a str,
    /// Replace the set `dir` holds.
    pub(crate) force: bool,
    /// Add tests after the highest-numbered one `dir` holds.
    pub(crate) append: bool,
    /// Digits of the test numbers in file names.
    pub(crate) width: u8,
}

/// The profile a request names, or a usage error listing the known ones.
fn profile(package: &Package, request: &GenRequest<'_>) -> Result<problems::Profile, GenError> {
    let default_profile = package
        .profiles()
        .first()
        .map(|name| (*name).to_owned())
        .ok_or_else(|| GenError::NoProfile {
            id: package.id().to_owned(),
        })?;
    let name = request.profile.unwrap_or(&default_profile);
    problems::find_profile(&**package.problem(), name)
        .map_err(|error| GradingError::from(UsageError::UnknownProfile(error)).into())
}

/// The 0-based index of the first test a request makes.
fn first(request: &GenRequest<'_>) -> u64 {
    request.from.saturating_sub(1)
}

fn jobs(request: &GenRequest<'_>) -> usize {
    // `--jobs 0` is one per core, as `jobs = 0` in judge.toml is.
    match request.jobs {
        None | Some(0) => std::thread::available_parallelism().map_or(1, usize::from),
        Some(jobs) => jobs as usize,
    }
}

/// `judge gen PROBLEM`: the tests of `request`, written as a set when
/// `target` is given ([`write_set`]), else each input given to `emit`
/// ([`print`]). Returns the lines to say.
pub(crate) fn gen(
    package: &Package,
    request: &GenRequest<'_>,
    target: Option<&SetTarget<'_>>,
    emit: &mut dyn FnMut(&str) -> std::io::Result<bool>,
) -> Result<Vec<String>, GenError> {
    match target {
        Some(target) => write_set(package, request, target),
        None => Ok(print(package, request, emit)?.into_iter().collect()),
    }
}

/// What `judge gen --package` came to: the lines to say and the outcome.
#[derive(Debug)]
pub(crate) struct FromGenerators {
    /// What the build said, in order, then one `error:` line per case that
    /// could not be made or failed its check.
    pub(crate) lines: Vec<String>,
    /// A failure when a case failed (`data/` is then untouched).
    pub(crate) outcome: Outcome,
}

/// `judge gen --package DIR`: builds what the package in `DIR` makes of
/// itself through its format ([`crate::package::build_folder`]: a Kattis
/// package's `data/` from its `generators/generators.yaml`), whose programs
/// hide the package's folders the build says are secret, and nothing else
/// runs.
pub(crate) fn generators(dir: &Path, config: &JudgeConfig) -> Result<FromGenerators, PrepareError> {
    let generated = crate::package::build_folder(dir, config)?;
    let outcome = if generated.failures.is_empty() {
        Outcome::Success
    } else {
        Outcome::Failure
    };
    let mut lines = generated.lines;
    lines.extend(
        generated
            .failures
            .iter()
            .map(|failure| format!("error: {failure}")),
    );
    Ok(FromGenerators { lines, outcome })
}

/// Generates the tests and gives each input to `emit`, separated by one empty
/// line (no valid input holds one); `emit` returns `false` when its reader
/// went away. Returns what the tests hold when `request.stats` asks.
fn print(
    package: &Package,
    request: &GenRequest<'_>,
    emit: &mut dyn FnMut(&str) -> std::io::Result<bool>,
) -> Result<Option<String>, GenError> {
    let profile = profile(package, request)?;
    let problem = &**package.problem();
    let mut stats = Stats::default();
    testset::generate_ordered(
        problem,
        profile.name,
        request.seed,
        first(request)..first(request) + u64::from(request.count),
        jobs(request),
        request.stats,
        |index, test| {
            let separator = if index == first(request) { "" } else { "\n" };
            let more = emit(&format!("{separator}{}", test.input)).map_err(|error| {
                testset::TestSetError::Generate {
                    index: index + 1,
                    message: error.to_string(),
                }
            })?;
            stats.add(package.engine_id(), &test);
            Ok(more)
        },
    )?;
    Ok(request.stats.then(|| stats.to_string()))
}

/// Writes the set: `DIR/<prefix>NNN.in` and `.ans`, whole or not at all.
/// Returns the lines to say: a note on names wider than `width`, and what
/// was written.
fn write_set(
    package: &Package,
    request: &GenRequest<'_>,
    target: &SetTarget<'_>,
) -> Result<Vec<String>, GenError> {
    let profile = profile(package, request)?;
    let problem = &**package.problem();
    let (dir, prefix) = (target.dir, target.prefix);
    if prefix.contains(['/', '\\']) || prefix.starts_with('.') {
        return Err(GradingError::from(UsageError::BadPrefix {
            prefix: prefix.to_owned(),
        })
        .into());
    }
    let existing = if target.append {
        Existing::Append
    } else {
        if testset::holds_set(dir, prefix)? && !target.force {
            return Err(GradingError::from(UsageError::TestsExist {
                dir: dir.to_owned(),
                prefix: prefix.to_owned(),
            })
            .into());
        }
        Existing::Replace
    };
    let first = if target.append {
        testset::highest_number(dir, prefix)?
    } else {
        first(request)
    };
    let last = first + u64::from(request.count);
    let width = usize::from(target.width);
    let writer = SetWriter::new(dir, prefix, existing)?;
    let mut stats = Stats::default();
    testset::generate_ordered(
        problem,
        profile.name,
        request.seed,
        first..last,
        jobs(request),
        true,
        |index, test| {
            let stem = testset::stem(prefix, index + 1, width);
            writer.write(&format!("{stem}.in"), &test.input)?;
            writer.write(
                &format!("{stem}.ans"),
                test.answer.as_deref().unwrap_or_default(),
            )?;
            stats.add(package.engine_id(), &test);
            Ok(true)
        },
    )?;
    writer.commit()?;
    let mut said = Vec::new();
    let digits = last.to_string().len();
    if digits > width {
        said.push(format!(
            "note: tests after {} have {digits}-digit names (--width {width}); \
             pass --width {digits} for names of one width",
            "9".repeat(width)
        ));
    }
    said.push(format!(
        "wrote {} ({} profile, seed {}) to `{}`{}: {}",
        testset::plural(u64::from(request.count), "test", "tests"),
        profile.name,
        request.seed,
        dir.display(),
        if target.append {
            format!(", after test {first}")
        } else if first > 0 {
            format!(", from test {}", first + 1)
        } else {
            String::new()
        },
        stats.details()
    ));
    Ok(said)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rooks() -> Package {
        Package::load(None, "rooks").expect("rooks is bundled")
    }

    /// A plain set in `dir`: no prefix, three digits, neither forced nor
    /// appended.
    fn set_in(dir: &Path) -> SetTarget<'_> {
        SetTarget {
            dir,
            prefix: "",
            force: false,
            append: false,
            width: 3,
        }
    }

    fn request(count: u32) -> GenRequest<'static> {
        GenRequest {
            profile: None,
            seed: 7,
            count,
            from: 1,
            jobs: Some(2),
            stats: false,
        }
    }

    #[test]
    fn printed_tests_are_a_prefix_of_a_longer_run() {
        let package = rooks();
        let collect = |count| {
            let mut text = String::new();
            print(&package, &request(count), &mut |data| {
                text.push_str(data);
                Ok(true)
            })
            .expect("generates");
            text
        };
        let (three, five) = (collect(3), collect(5));
        assert!(five.starts_with(&three), "{three:?} / {five:?}");
        assert_eq!(three.matches("\n\n").count(), 2);
    }

    #[test]
    fn a_set_appends_and_refuses_to_overwrite_without_force() {
        let package = rooks();
        let dir = tempfile::tempdir().expect("a temporary folder");
        let target = set_in(dir.path());
        let said = write_set(&package, &request(2), &target).expect("writes");
        assert!(
            said[0].starts_with("wrote 2 tests (small profile, seed 7)"),
            "{said:?}"
        );
        assert!(dir.path().join("002.ans").is_file());
        let again = write_set(&package, &request(2), &target).expect_err("refused");
        assert!(
            matches!(
                again,
                GenError::Grading(GradingError::Usage(UsageError::TestsExist { .. }))
            ),
            "{again}"
        );
        let appended = SetTarget {
            append: true,
            ..target
        };
        let said = write_set(&package, &request(1), &appended).expect("appends");
        assert!(said[0].contains(", after test 2"), "{said:?}");
        assert!(dir.path().join("003.in").is_file());
    }

    /// `judge gen`'s one call: without a target the inputs go to `emit` and
    /// the only line is the stats asked for; with one, nothing is emitted
    /// and the lines say what was written.
    #[test]
    fn gen_prints_without_a_target_and_writes_a_set_with_one() {
        let package = rooks();
        let mut printed = String::new();
        let quiet = gen(&package, &request(2), None, &mut |data| {
            printed.push_str(data);
            Ok(true)
        })
        .expect("prints");
        assert!(quiet.is_empty(), "{quiet:?}");
        assert_eq!(printed.matches("\n\n").count(), 1, "{printed:?}");
        let with_stats = GenRequest {
            stats: true,
            ..request(2)
        };
        let said = gen(&package, &with_stats, None, &mut |_| Ok(true)).expect("prints");
        assert_eq!(said.len(), 1, "{said:?}");
        let dir = tempfile::tempdir().expect("a temporary folder");
        let target = set_in(dir.path());
        let said = gen(&package, &request(2), Some(&target), &mut |_| {
            panic!("a set is written, not printed")
        })
        .expect("writes");
        assert!(said[0].starts_with("wrote 2 tests"), "{said:?}");
        assert!(dir.path().join("002.in").is_file());
    }

    #[test]
    fn a_prefix_with_a_slash_is_a_usage_error() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let target = SetTarget {
            dir: dir.path(),
            prefix: "../x",
            force: false,
            append: false,
            width: 3,
        };
        let error = write_set(&rooks(), &request(1), &target).expect_err("refused");
        assert!(error
            .to_string()
            .contains("must be a plain file-name prefix"));
    }
}
