//! The command line (SPEC.md, "Commands"): one `Args` struct and one `run`
//! function per subcommand, and the one place where errors become exit codes.
//!
//! Only this module and `report/` print. stdout carries data (answers,
//! inputs, verdict lines, diffs); messages go to stderr.

mod check;
mod diff;
mod export;
mod gen;
pub mod grade;
mod grade_package;
mod list;
pub mod merge;
mod new;
pub mod run;
mod solve;
mod stress;
mod validate;

use crate::config::judge::JudgeConfig;
use crate::config::problem::Package;
use crate::config::ConfigError;
use crate::exit;
use crate::problems::{self, text, Problem};
use clap::{Parser, Subcommand};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// A grading harness in the style of an online judge.
///
/// Reference solvers, generators, validators and checkers for three grid-search
/// problems; compiles and runs submissions against them under limits.
#[derive(Debug, Parser)]
#[command(name = "judge", version, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List problems, their limits and generator profiles.
    Problems(list::ProblemsArgs),
    /// Print the reference answer for an input.
    Solve(solve::SolveArgs),
    /// Generate random valid inputs (and answers, with --out).
    Gen(gen::GenArgs),
    /// Check that an input is valid; exit 0 if so, else 1 and "line L: ..." on stderr.
    Validate(validate::ValidateArgs),
    /// Decide one output: print the verdict line; exit 0 AC, 1 WA, 2 PE, 3 checker failure.
    Check(check::CheckArgs),
    /// Show a unified diff of two files; exit 0 if they are the same, 1 if not.
    Diff(diff::DiffArgs),
    /// Compile and run submissions against a problem's tests under limits.
    Run(run::RunArgs),
    /// Grade every submission under judge.toml's `submissions` folder.
    Grade(grade::GradeArgs),
    /// Run random tests until a submission fails; print the smallest failing input found.
    Stress(stress::StressArgs),
    /// Combine the JSON reports of `grade --shard` runs into one.
    Merge(merge::MergeArgs),
    /// Write a package in the Kattis / ICPC problem package format.
    Export(export::ExportArgs),
    /// Scaffold a problem package that validates and grades out of the box.
    New(new::NewArgs),
}

/// Where problem packages live; shared by the commands that read them.
#[derive(Debug, Clone, clap::Args)]
pub struct PackageArgs {
    /// A folder of problem packages (`<DIR>/<id>/problem.toml`, `tests/`) used
    /// instead of the bundled ones of the same id [default: the packages built
    /// into judge].
    #[arg(long, value_name = "DIR")]
    pub problems_dir: Option<PathBuf>,
}

impl PackageArgs {
    /// The package `id`, from `--problems-dir` or the bundled ones.
    pub fn load(&self, id: &str) -> Result<Package, ConfigError> {
        Package::load(self.problems_dir.as_deref(), id)
    }

    /// [`Self::load`], compiling a package's own programs with `config`'s
    /// languages (`run` and `grade`, which take `--config`).
    pub fn load_with(&self, id: &str, config: &JudgeConfig) -> Result<Package, ConfigError> {
        Package::load_with(self.problems_dir.as_deref(), id, Some(config))
    }
}

/// A mistake in the command line or configuration that the user can fix:
/// exit 2, nothing run.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct UsageError {
    message: String,
    hint: Option<String>,
}

impl UsageError {
    /// A usage error with a message and an optional `hint:` line.
    pub fn new(message: impl Into<String>, hint: Option<String>) -> Self {
        UsageError {
            message: message.into(),
            hint,
        }
    }
}

/// Runs a parsed command line and returns the process exit code.
pub fn run(cli: Cli) -> u8 {
    let result = match cli.command {
        Command::Problems(args) => list::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Gen(args) => gen::run(&args),
        Command::Validate(args) => validate::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Diff(args) => diff::run(&args),
        Command::Run(args) => run::run(args),
        Command::Grade(args) => grade::run(args),
        Command::Stress(args) => stress::run(&args),
        Command::Merge(args) => merge::run(args),
        Command::Export(args) => export::run(&args),
        Command::New(args) => new::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(error) => report_error(&error),
    }
}

/// Prints an error chain the way ripgrep does and decides its exit code.
#[expect(clippy::print_stderr, reason = "the CLI's last word on an error")]
fn report_error(error: &anyhow::Error) -> u8 {
    if is_broken_pipe(error) {
        // `judge gen ... | head` is not an error.
        return exit::SUCCESS;
    }
    eprintln!("error: {error:#}");
    if let Some(hint) = error
        .chain()
        .find_map(|cause| cause.downcast_ref::<UsageError>())
        .and_then(|usage| usage.hint.as_deref())
    {
        eprintln!("\nhint: {hint}");
    }
    exit_code(error)
}

/// The one place an error becomes an exit code (SPEC.md): the user's mistakes
/// are 2, everything else is the judge failing, 3.
fn exit_code(error: &anyhow::Error) -> u8 {
    let usage = error
        .chain()
        .any(|cause| cause.is::<UsageError>() || cause.is::<ConfigError>());
    if usage {
        exit::USAGE
    } else {
        exit::JUDGE_FAILED
    }
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Clap value parser for a problem (package) id, e.g. `rooks` or
/// `rooks-large`: only its shape is checked here, since a package of
/// `--problems-dir` may have any id (issue #9); loading it says whether it
/// exists.
fn parse_problem(id: &str) -> Result<String, String> {
    let plain = id
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if !id.is_empty() && plain && !id.starts_with('.') {
        Ok(id.to_owned())
    } else {
        Err(format!(
            "`{id}` is not a problem id (letters, digits, `-`, `_` and `.`, not starting with `.`)"
        ))
    }
}

/// What `judge validate` and `judge solve` do with an input error: a
/// package program's failure is the judge's (exit 3), anything else is the
/// input's (exit 1).
fn input_error_code(error: &problems::InputError) -> u8 {
    match error.kind {
        problems::InputErrorKind::ProgramFailed(_) => exit::JUDGE_FAILED,
        _ => exit::FAILURE,
    }
}

/// A file (or stdin) read whole, with the name messages use for it.
struct Source {
    /// `path` as given, or `<stdin>`.
    name: String,
    bytes: Vec<u8>,
}

impl Source {
    /// Reads `path`, or stdin when `None` or `-`. Reads at most one byte more
    /// than [`text::MAX_TEXT_BYTES`], so a huge file is refused quickly and the
    /// judge's memory stays bounded.
    fn read(path: Option<&Path>) -> anyhow::Result<Source> {
        let limit = text::MAX_TEXT_BYTES as u64 + 1;
        let mut bytes = Vec::new();
        match path {
            Some(path) if path != Path::new("-") => {
                let file = fs_err::File::open(path)?;
                file.take(limit).read_to_end(&mut bytes)?;
                Ok(Source {
                    name: path.display().to_string(),
                    bytes,
                })
            }
            _ => {
                std::io::stdin()
                    .lock()
                    .take(limit)
                    .read_to_end(&mut bytes)
                    .map_err(|error| anyhow::anyhow!("failed to read standard input: {error}"))?;
                Ok(Source {
                    name: "<stdin>".to_owned(),
                    bytes,
                })
            }
        }
    }

    /// The text, or the reason it is not text.
    fn text(&self) -> Result<&str, text::InputError> {
        text::decode(&self.bytes)
    }
}

/// Writes data to stdout (a broken pipe surfaces as an error that
/// [`report_error`] treats as a quiet exit).
fn write_stdout(data: &str) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(data.as_bytes())?;
    stdout.flush()?;
    Ok(())
}

/// Whether to colour stdout when the user left it to the judge: only on a
/// terminal, and never with `NO_COLOR` set to something (no-color.org:
/// "present and not an empty string"). The one reading of `NO_COLOR`.
fn colour_stdout() -> bool {
    use std::io::IsTerminal as _;
    std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty())
}

/// Writes one message line to stderr.
#[expect(clippy::print_stderr, reason = "the CLI's messages to the user")]
fn say(message: &str) {
    eprintln!("{message}");
}

/// Finds a profile by name, or a usage error listing the known ones.
fn profile_or_usage(problem: &dyn Problem, name: &str) -> anyhow::Result<problems::Profile> {
    problems::find_profile(problem, name)
        .map_err(|error| UsageError::new(error.to_string(), None).into())
}
