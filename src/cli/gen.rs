//! `judge gen`: random valid inputs, reproducible from a seed.
//!
//! Test `i` (0-based) of a run uses `problems::test_rng(seed, problem,
//! profile, i)`, so `--count 5` is the first five of `--count 50`, each test
//! can be regenerated alone, and `--append --count 5` after `--count 5` is
//! `--count 10`. Tests stream one by one (`testset`): memory stays flat and
//! the first test appears at once.

use super::output::stdout_closed;
use super::{parse_problem, profile_or_usage, say, write_stdout, PackageArgs};
use crate::error::{Error, UsageError};
use crate::exit;
use crate::testset::{self, Existing, SetWriter, Stats};
use std::path::PathBuf;

/// Arguments of `judge gen`.
#[derive(Debug, clap::Args)]
pub struct GenArgs {
    /// The problem id.
    #[arg(value_parser = parse_problem)]
    pub problem: String,
    /// The master seed: the same seed gives the same bytes on every machine.
    #[arg(long, value_parser = super::parse_seed, allow_negative_numbers = true, default_value_t = 1)]
    pub seed: u64,
    /// How many inputs. Without --out they are printed in order, separated by
    /// one empty line (no valid input holds one), so they can be split.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub count: u32,
    /// The generator profile (see `judge problems`); the package's first by default.
    #[arg(long, value_name = "PROFILE")]
    pub profile: Option<String>,
    /// Write `DIR/<prefix>NNN.in` and `.ans` (the reference answer) instead of
    /// printing. The set appears whole or not at all: it is written into a
    /// folder beside DIR and moved in at the end.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// With --out: replace the set DIR already holds (`<prefix>NNN.in` and
    /// `.ans`); other files, other prefixes and samples included, stay.
    #[arg(long, requires = "out", conflicts_with = "append")]
    pub force: bool,
    /// With --out: add tests after the highest-numbered one DIR holds, continuing
    /// the seed's sequence (`--count 5` then `--append --count 5` is `--count 10`).
    #[arg(long, requires = "out")]
    pub append: bool,
    /// Prefix of the file names written with --out, e.g. `large-`.
    #[arg(long, requires = "out", default_value = "")]
    pub prefix: String,
    /// Digits of the test numbers in file names; a number that needs more keeps
    /// them all (and gen says so), so test 1 is `001` in any set.
    #[arg(long, value_name = "W", default_value_t = 3,
          value_parser = clap::value_parser!(u8).range(1..=9))]
    pub width: u8,
    /// Print on stderr what the tests hold: sizes, solvable / -1 (mayan), won /
    /// lost positions (matchsticks), boards (rooks). Always shown after --out.
    #[arg(long)]
    pub stats: bool,
    /// Tests generated in parallel (output stays in test order) [default: the number of cores].
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u64).range(0..1025))]
    pub jobs: Option<u64>,
    #[command(flatten)]
    pub packages: PackageArgs,
}

/// Generates, validates, solves and writes test by test.
pub fn run(args: &GenArgs) -> Result<u8, Error> {
    let package = args.packages.load(&args.problem)?;
    let problem = &*package.problem;
    let default_profile = package
        .profiles()
        .first()
        .map(|name| (*name).to_owned())
        .ok_or_else(|| {
            Error::judge(format!("problem `{}` has no generator profile", package.id))
        })?;
    let profile = profile_or_usage(problem, args.profile.as_deref().unwrap_or(&default_profile))?;
    if args.prefix.contains(['/', '\\']) || args.prefix.starts_with('.') {
        return Err(UsageError::new(
            format!(
                "`--prefix {}` must be a plain file-name prefix",
                args.prefix
            ),
            None,
        )
        .into());
    }
    // `--jobs 0` is one per core, as `jobs = 0` in judge.toml is.
    let jobs = match args.jobs {
        None | Some(0) => std::thread::available_parallelism().map_or(1, usize::from),
        Some(jobs) => jobs as usize,
    };
    let mut stats = Stats::default();
    let Some(dir) = &args.out else {
        testset::generate_ordered(
            problem,
            profile.name,
            args.seed,
            0..u64::from(args.count),
            jobs,
            args.stats,
            |index, test| {
                let separator = if index == 0 { "" } else { "\n" };
                write_stdout(&format!("{separator}{}", test.input)).map_err(|error| {
                    testset::TestSetError::Generate {
                        index: index + 1,
                        message: error.to_string(),
                    }
                })?;
                stats.add(problem.id(), &test);
                Ok(!stdout_closed())
            },
        )?;
        if args.stats {
            say(&stats.to_string());
        }
        return Ok(exit::SUCCESS);
    };

    let existing = if args.append {
        Existing::Append
    } else {
        if testset::holds_set(dir, &args.prefix)? && !args.force {
            return Err(UsageError::new(
                format!(
                    "`{}` already holds tests `{}NNN.in`",
                    dir.display(),
                    args.prefix
                ),
                Some(
                    "pass --force to replace them, --append to add tests after them, \
                     or --prefix P for another set beside them"
                        .to_owned(),
                ),
            )
            .into());
        }
        Existing::Replace
    };
    let first = if args.append {
        testset::highest_number(dir, &args.prefix)?
    } else {
        0
    };
    let last = first + u64::from(args.count);
    let width = usize::from(args.width);
    let writer = SetWriter::new(dir, &args.prefix, existing)?;
    testset::generate_ordered(
        problem,
        profile.name,
        args.seed,
        first..last,
        jobs,
        true,
        |index, test| {
            let stem = testset::stem(&args.prefix, index + 1, width);
            writer.write(&format!("{stem}.in"), &test.input)?;
            writer.write(
                &format!("{stem}.ans"),
                test.answer.as_deref().unwrap_or_default(),
            )?;
            stats.add(problem.id(), &test);
            Ok(true)
        },
    )?;
    writer.commit()?;
    let digits = last.to_string().len();
    if digits > width {
        say(&format!(
            "note: tests after {} have {digits}-digit names (--width {width}); \
             pass --width {digits} for names of one width",
            "9".repeat(width)
        ));
    }
    say(&format!(
        "wrote {} ({} profile, seed {}) to `{}`{}: {}",
        testset::plural(u64::from(args.count), "test", "tests"),
        profile.name,
        args.seed,
        dir.display(),
        if args.append {
            format!(", after test {first}")
        } else {
            String::new()
        },
        stats.details()
    ));
    Ok(exit::SUCCESS)
}
