//! `judge gen`: random valid inputs, reproducible from a seed.
//!
//! Test `i` (0-based) of a run uses `problems::test_rng(seed, problem,
//! profile, i)`, so `--count 5` is the first five of `--count 50` and each test
//! can be regenerated alone.

use super::{parse_problem, profile_or_usage, say, write_stdout, PackageArgs, UsageError};
use crate::exit;
use crate::problems;
use crate::report::write_atomically;
use anyhow::anyhow;
use std::path::{Path, PathBuf};

/// Arguments of `judge gen`.
#[derive(Debug, clap::Args)]
pub struct GenArgs {
    /// The problem id.
    #[arg(value_parser = parse_problem)]
    pub problem: String,
    /// The master seed: the same seed gives the same bytes on every machine.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How many inputs; without --out they are printed one after another.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub count: u32,
    /// The generator profile (see `judge problems`); the package's first by default.
    #[arg(long, value_name = "PROFILE")]
    pub profile: Option<String>,
    /// Write `DIR/<prefix>NNN.in` and `.ans` (the reference answer) instead of
    /// printing; files appear whole or not at all.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Prefix of the file names written with --out, e.g. `large-`.
    #[arg(long, requires = "out", default_value = "")]
    pub prefix: String,
    #[command(flatten)]
    pub packages: PackageArgs,
}

/// One generated test, ready to write.
struct Generated {
    input: String,
    answer: String,
}

/// Generates every input (and, with --out, answer) before writing anything.
pub fn run(args: &GenArgs) -> anyhow::Result<u8> {
    let package = args.packages.load(&args.problem)?;
    let problem = &*package.problem;
    let default_profile = package
        .profiles()
        .first()
        .map(|name| (*name).to_owned())
        .ok_or_else(|| anyhow!("problem `{}` has no generator profile", package.id))?;
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
    let mut tests = Vec::with_capacity(args.count as usize);
    for index in 0..u64::from(args.count) {
        let mut rng = problems::test_rng(args.seed, problem.id(), profile.name, index);
        let input = problem.generate(profile.name, &mut rng)?;
        // A generator bug must never reach a problem setter's test data.
        problem
            .validate(&input, Some(profile.name))
            .map_err(|error| {
                anyhow!(
                    "the `{}` generator made an invalid input (seed {}, test {}): {error}",
                    profile.name,
                    args.seed,
                    index + 1
                )
            })?;
        let answer = if args.out.is_some() {
            problem.solve(&input).map_err(|error| {
                anyhow!("the reference solver rejected a generated input: {error}")
            })?
        } else {
            String::new()
        };
        tests.push(Generated { input, answer });
    }
    match &args.out {
        None => {
            let all: String = tests.iter().map(|test| test.input.as_str()).collect();
            write_stdout(&all)?;
        }
        Some(dir) => {
            write_tests(dir, &args.prefix, &tests)?;
            say(&format!(
                "wrote {} tests ({} profile, seed {}) to `{}`",
                tests.len(),
                profile.name,
                args.seed,
                dir.display()
            ));
        }
    }
    Ok(exit::SUCCESS)
}

/// Writes `<prefix>NNN.in` and `.ans` for every test, each file through a
/// temporary file renamed into place, so no file is ever half-written.
fn write_tests(dir: &Path, prefix: &str, tests: &[Generated]) -> anyhow::Result<()> {
    fs_err::create_dir_all(dir)?;
    let width = tests.len().to_string().len().max(3);
    for (index, test) in tests.iter().enumerate() {
        let stem = format!("{prefix}{:0width$}", index + 1);
        write_atomically(&dir.join(format!("{stem}.in")), test.input.as_bytes())?;
        write_atomically(&dir.join(format!("{stem}.ans")), test.answer.as_bytes())?;
    }
    Ok(())
}
