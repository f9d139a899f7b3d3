//! `judge stress`: random tests against one submission until it fails, then
//! the smallest failing input found by the problem's shrink steps.
//!
//! stdout carries only that input (data, ready for `judge validate` or a
//! bug report); what was found, the verdict and how to remake the test go
//! to stderr. The search itself is `runner::stress`'s; this file words it.
//!
//! Exit codes: 0 no failure in N tests, 1 a failing input was found (or the
//! submission did not compile: CE is the submission's fault, as in `judge
//! run`), 2 usage or configuration error, 3 the judge failed (JE), 130 / 143
//! stopped by SIGINT / SIGTERM (a failing input found before the stop is
//! still printed and written).

use super::{announce_isolation, parse_problem, profile_or_usage, say, say_settings};
use super::{write_stdout, PackageArgs};
use crate::config::judge::JudgeConfig;
use crate::error::{Error, UsageError};
use crate::exit;
use crate::grading::settings::{self, master_seed, Overrides};
use crate::grading::submission::classify;
use crate::interrupt::Cancellation;
use crate::report;
use crate::runner::stress::{self, Failure, StressOptions, StressOutcome};
use crate::runner::Workspace;
use crate::verdict::Verdict;
use std::path::PathBuf;

/// Arguments of `judge stress`.
#[derive(Debug, clap::Args)]
pub struct StressArgs {
    /// The problem id.
    #[arg(value_parser = parse_problem)]
    pub problem: String,
    /// The program to test: a source file in a configured language, or an executable.
    #[arg(value_name = "SUBMISSION")]
    pub submission: PathBuf,
    /// Master seed of the random tests (overrides judge.toml and problem.toml).
    #[arg(long, value_parser = super::parse_seed, allow_negative_numbers = true, value_name = "S")]
    pub seed: Option<u64>,
    /// Random tests to run at most before giving up on finding a failure.
    #[arg(long, value_name = "N", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub iterations: u64,
    /// Only this generator profile [default: every profile of the package, in turn].
    #[arg(long, value_name = "PROFILE")]
    pub profile: Option<String>,
    /// Smaller inputs to try at most while shrinking a failing input; 0 does not shrink.
    #[arg(long, value_name = "N", default_value_t = 500)]
    pub shrink_runs: usize,
    /// CPU time limit per test in milliseconds (overrides the problem's).
    #[arg(long, value_name = "MS", value_parser = super::parse_limit, allow_negative_numbers = true)]
    pub time_limit: Option<u64>,
    /// Memory limit per test in MiB (overrides the problem's).
    #[arg(long, value_name = "MB", value_parser = super::parse_limit, allow_negative_numbers = true)]
    pub memory_limit: Option<u64>,
    /// Tests run in parallel [default: `jobs` of judge.toml, else the number of cores].
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u64).range(0..1025))]
    pub jobs: Option<u64>,
    /// Also write the smallest failing input and its reference answer to
    /// `DIR/failing.in` and `DIR/failing.ans`.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// The judge configuration [default: ./judge.toml when it exists, else built-in defaults].
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    #[command(flatten)]
    pub packages: PackageArgs,
}

/// Runs `judge stress` and returns its exit code.
pub fn run(args: &StressArgs) -> Result<u8, Error> {
    let config = JudgeConfig::load_or_defaults(args.config.as_deref())?;
    let package = args.packages.load_with(&args.problem, &config)?;
    let problem = &*package.problem;
    if !problem.has_generator() {
        return Err(UsageError::new(
            format!(
                "`{}` has no generator: `judge stress` needs random tests",
                package.id
            ),
            Some("name one with `generator` in problem.toml".to_owned()),
        )
        .into());
    }
    let profiles: Vec<&str> = match &args.profile {
        Some(name) => vec![profile_or_usage(problem, name)?.name],
        None => package.profiles(),
    };
    let submission = classify(&args.submission, &config)?;
    let seed = master_seed(args.seed, &config, &package);
    let resolved = settings::resolve(
        &Overrides {
            time_limit_ms: args.time_limit,
            memory_limit_mib: args.memory_limit,
            jobs: args.jobs,
        },
        &config,
        &package,
    );
    for warning in &resolved.warnings {
        say_settings(warning);
    }
    let settings = resolved.settings;
    let options = StressOptions {
        seed,
        iterations: args.iterations,
        profiles: profiles.clone(),
        shrink_runs: args.shrink_runs,
    };

    let cancel = Cancellation::on_signals()?;
    announce_isolation();
    let workspace = Workspace::new()?;
    let mut reporter = super::progress::StressReporter::new();
    let outcome = stress::stress(
        problem,
        &submission,
        &settings,
        &workspace,
        &options,
        &cancel,
        &mut |event| reporter.show(event),
    )?;
    reporter.finish();
    drop(workspace);
    let stopped_by = cancel.signal();

    let name = args.submission.display();
    match outcome {
        StressOutcome::NotCompiled(compile) => {
            let verdict = compile.verdict.unwrap_or(Verdict::JudgeError);
            say(&format!("{name}: {verdict}: compilation failed"));
            say(&"-".repeat(40));
            if compile.message.is_empty() {
                say("<stderr is empty>");
            } else {
                say(&crate::report::human::visible(compile.message.trim_end()));
            }
            say(&"-".repeat(40));
            Ok(if verdict == Verdict::CompileError {
                exit::FAILURE
            } else {
                exit::JUDGE_FAILED
            })
        }
        StressOutcome::Passed { iterations } => {
            say(&format!(
                "{name}: no failure in {iterations} random tests (seed {seed}, profiles {})",
                profiles.join(", ")
            ));
            Ok(exit::SUCCESS)
        }
        StressOutcome::Interrupted { iterations } => {
            say(&format!(
                "{name}: interrupted: no failure in the first {iterations} random tests \
                 (seed {seed}, profiles {})",
                profiles.join(", ")
            ));
            Ok(stopped_by.map_or(exit::INTERRUPTED, |signal| signal.exit_code()))
        }
        StressOutcome::Failed(failure) => {
            let code = report_failure(args, &failure)?;
            Ok(match stopped_by {
                Some(signal) => signal.exit_code(),
                None => code,
            })
        }
    }
}

/// Words a failure on stderr, prints the smallest input on stdout and writes
/// `--out`.
fn report_failure(args: &StressArgs, failure: &Failure) -> Result<u8, Error> {
    let problem = &args.problem;
    let name = args.submission.display();
    let found = &failure.found;
    let origin = &failure.origin;
    say(&format!(
        "{name}: {} on {} (random test {} of this run): {}",
        found.result.verdict, found.result.name, failure.iteration, found.result.message
    ));
    // `judge gen --count N --out DIR` names test N `DIR/NNN.in`, at least 3
    // digits wide.
    let count = origin.index + 1;
    let width = count.to_string().len().max(3);
    say(&format!(
        "remake it: `judge gen {problem} --seed {} --profile {} --count {count} --out DIR` \
         writes it as `DIR/{count:0width$}.in`",
        origin.seed, origin.profile
    ));
    if found.result.verdict == Verdict::JudgeError {
        // The judge's own fault: nothing to shrink and no input to blame.
        return Err(Error::judge(format!(
            "the judge failed on {}: {}",
            found.result.name, found.result.message
        )));
    }
    let smallest = &failure.smallest;
    if args.shrink_runs == 0 {
        say("not shrunk (--shrink-runs 0)");
    } else if failure.shrink_interrupted {
        say(&format!(
            "interrupted while shrinking: after {} steps ({} inputs tried), {} bytes, \
             still {}: a smaller input may fail too",
            failure.shrink_steps,
            failure.shrink_runs,
            smallest.input.len(),
            smallest.result.verdict
        ));
    } else if failure.shrink_steps == 0 {
        say(&format!(
            "no smaller input fails with {} ({} tried)",
            found.result.verdict, failure.shrink_runs
        ));
    } else {
        say(&format!(
            "shrunk from {} bytes to {} bytes in {} ({} tried{}): {}: {}",
            found.input.len(),
            smallest.input.len(),
            crate::problems::text::plural(failure.shrink_steps as u64, "step", "steps"),
            crate::problems::text::plural(failure.shrink_runs as u64, "input", "inputs"),
            if failure.shrink_budget_spent {
                ", stopped at --shrink-runs"
            } else {
                ""
            },
            smallest.result.verdict,
            smallest.result.message
        ));
    }
    if let Some(dir) = &args.out {
        fs_err::create_dir_all(dir)?;
        let input_path = dir.join("failing.in");
        let answer_path = dir.join("failing.ans");
        report::write_atomically(&input_path, smallest.input.as_bytes())?;
        report::write_atomically(
            &answer_path,
            smallest.answer.as_deref().unwrap_or_default().as_bytes(),
        )?;
        say(&format!(
            "wrote `{}` and `{}`",
            input_path.display(),
            answer_path.display()
        ));
    }
    write_stdout(&smallest.input)?;
    Ok(exit::FAILURE)
}
