//! `judge check`: decide one output with the problem's checker (testlib exit
//! codes: 0 AC, 1 WA, 2 PE, 3 checker failure).

use super::{parse_problem, say, write_stdout, PackageArgs, Source};
use crate::exit;
use crate::problems::{self, CheckerFailure};
use crate::verdict::Verdict;
use anyhow::Context as _;
use std::path::PathBuf;

/// Arguments of `judge check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// The problem id.
    #[arg(value_parser = parse_problem)]
    pub problem: String,
    /// The test's input.
    pub input: PathBuf,
    /// The contestant's output.
    pub output: PathBuf,
    /// The judge's answer; without it the checker uses the reference solver.
    pub answer: Option<PathBuf>,
    /// mayan: accept any valid solution, not only the smallest (overrides
    /// `[checker] lexmin` of problem.toml).
    #[arg(long)]
    pub any_solution: bool,
    #[command(flatten)]
    pub packages: PackageArgs,
}

/// Prints `VERDICT reason` and exits with the testlib code.
pub fn run(args: &CheckArgs) -> anyhow::Result<u8> {
    let package = args.packages.load(&args.problem)?;
    let mut options = package.check_options();
    if args.any_solution {
        options.lexmin = false;
    }
    let input = Source::read(Some(&args.input)).context("failed to read the input")?;
    let output = Source::read(Some(&args.output)).context("failed to read the output")?;
    let answer = match &args.answer {
        Some(path) => Some(Source::read(Some(path)).context("failed to read the answer")?),
        None => None,
    };
    let outcome = (|| {
        let input_text = input
            .text()
            .map_err(|error| CheckerFailure::new(format!("the input {}: {error}", input.name)))?;
        let answer_text = answer
            .as_ref()
            .map(|answer| {
                answer.text().map_err(|error| {
                    CheckerFailure::new(format!("the answer {}: {error}", answer.name))
                })
            })
            .transpose()?;
        problems::check_bytes(
            &*package.problem,
            input_text,
            &output.bytes,
            answer_text,
            &options,
        )
    })();
    match outcome {
        Ok(outcome) => {
            let line = if outcome.reason.is_empty() {
                format!("{}\n", outcome.verdict)
            } else {
                format!("{} {}\n", outcome.verdict, outcome.reason)
            };
            write_stdout(&line)?;
            Ok(match outcome.verdict {
                Verdict::Accepted => exit::SUCCESS,
                Verdict::PresentationError => exit::PRESENTATION_ERROR,
                _ => exit::WRONG_ANSWER,
            })
        }
        Err(failure) => {
            write_stdout(&format!("{} {failure}\n", Verdict::JudgeError))?;
            say(&format!("error: checker failure: {failure}"));
            Ok(exit::JUDGE_FAILED)
        }
    }
}
