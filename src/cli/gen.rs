//! `judge gen`: random valid inputs, reproducible from a seed. The work is
//! [`crate::gen`]'s; this file takes the arguments and prints.

use super::{say, PackageArgs};
use crate::config::judge::JudgeConfig;
use crate::error::Error;
use crate::exit::Outcome;
use crate::gen::{self, GenRequest, SetTarget};
use crate::interrupt::Cancellation;
use std::path::{Path, PathBuf};

// Arguments of `judge gen`.
#[derive(Debug, clap::Args)]
pub(crate) struct GenArgs {
    /// The problem id.
    #[arg(value_parser = super::parse_id, required_unless_present = "package")]
    pub(crate) problem: Option<String>,
    /// Build a Kattis package's `data/` from its `generators/generators.yaml`,
    /// as BAPCtools' `bt generate` does (the same yaml gives the same bytes),
    /// instead of generating a problem's random tests. Made cases are kept in
    /// `DIR/.judge/generated/`; `data/` is replaced whole, and only when every
    /// case was made and passed its checks.
    #[arg(long, value_name = "DIR", conflicts_with_all = [
        "problem", "count", "from", "profile", "out", "force", "append", "prefix", "width", "stats",
        "seed"
    ])]
    pub(crate) package: Option<PathBuf>,
    /// With --package: the judge.toml whose languages run the package's
    /// programs [default: ./judge.toml when it exists, else the built-in ones].
    #[arg(long, value_name = "FILE", requires = "package")]
    pub(crate) config: Option<PathBuf>,
    /// The master seed: the same seed gives the same bytes on every machine.
    #[arg(long, value_parser = super::parse_seed, allow_negative_numbers = true, default_value_t = 1)]
    pub(crate) seed: u64,
    /// How many inputs. Without --out they are printed in order, separated by
    /// one empty line (no valid input holds one), so they can be split.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub(crate) count: u32,
    /// Start at test N of the seed's sequence (1-based): `--from 29` makes
    /// test 29 alone, the 29th of `--count 29`; with --out it is written as
    /// `DIR/029.in`.
    #[arg(long, value_name = "N", default_value_t = 1, conflicts_with = "append",
          value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    pub(crate) from: u64,
    /// The generator profile (see `judge problems`); the package's first by default.
    #[arg(long, value_name = "PROFILE")]
    pub(crate) profile: Option<String>,
    /// Write `DIR/<prefix>NNN.in` and `.ans` (the reference answer) instead of
    /// printing. The set appears whole or not at all: it is written into a
    /// folder beside DIR and moved in at the end.
    #[arg(long, value_name = "DIR")]
    pub(crate) out: Option<PathBuf>,
    /// With --out: replace the set DIR already holds (`<prefix>NNN.in` and
    /// `.ans`); other files, other prefixes and samples included, stay.
    #[arg(long, requires = "out", conflicts_with = "append")]
    pub(crate) force: bool,
    /// With --out: add tests after the highest-numbered one DIR holds, continuing
    /// the seed's sequence (`--count 5` then `--append --count 5` is `--count 10`).
    #[arg(long, requires = "out")]
    pub(crate) append: bool,
    /// Prefix of the file names written with --out, e.g. `large-`.
    #[arg(long, requires = "out", default_value = "")]
    pub(crate) prefix: String,
    /// Digits of the test numbers in file names; a number that needs more keeps
    /// them all (and gen says so), so test 1 is `001` in any set.
    #[arg(long, value_name = "W", default_value_t = 3,
          value_parser = clap::value_parser!(u8).range(1..=9))]
    pub(crate) width: u8,
    /// Print on stderr what the tests hold: sizes, solvable / -1 (mayan), won /
    /// lost positions (matchsticks), boards (rooks). Always shown after --out.
    #[arg(long)]
    pub(crate) stats: bool,
    /// Tests generated in parallel (output stays in test order) [default: the number of cores].
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u64).range(0..1025))]
    pub(crate) jobs: Option<u64>,
    #[command(flatten)]
    pub(crate) packages: PackageArgs,
}

/// Generates, validates, solves and writes test by test (or, with
/// `--package`, builds a package's `data/`).
pub(super) fn run(args: &GenArgs) -> Result<Outcome, Error> {
    let Some(problem) = &args.problem else {
        let dir = args.package.as_deref().unwrap_or(Path::new("."));
        let config = JudgeConfig::load_or_defaults(args.config.as_deref())?;
        // SIGINT / SIGTERM stop it as they stop `grade` (issue #34): the
        // running program is killed, no case is started after, `data/` is
        // left as it was, and the exit code is 130 / 143.
        let cancel = Cancellation::on_signals()?;
        let generated = gen::generators(dir, &config)?;
        for line in &generated.lines {
            say(line);
        }
        return Ok(generated.outcome.unless_stopped(cancel.signal()));
    };
    let package = args.packages.load_without_answers(problem, None)?;
    let request = GenRequest {
        profile: args.profile.as_deref(),
        seed: args.seed,
        count: args.count,
        from: args.from,
        jobs: args.jobs,
        stats: args.stats,
    };
    let target = args.out.as_deref().map(|dir| SetTarget {
        dir,
        prefix: &args.prefix,
        force: args.force,
        append: args.append,
        width: args.width,
    });
    let lines = gen::gen(&package, &request, target.as_ref(), &mut |data| {
        crate::report::stdout::write_stdout(data)?;
        Ok(!crate::report::stdout::stdout_closed())
    })?;
    for line in &lines {
        say(line);
    }
    Ok(Outcome::Success)
}
