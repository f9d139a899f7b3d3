//! The command line (docs/commands.md): one `Args` struct and one `run`
//! function per subcommand, each returning the command's `Outcome` or
//! its error, which `crate::error::exit_code` maps to the exit code.
//!
//! Only this module and `report/` print. stdout carries data (answers,
//! inputs, verdict lines, diffs); messages go to stderr.

mod check;
mod commands;
mod diff;
mod export;
mod gen;
pub(crate) mod grade;
mod import;
mod interact;
mod list;
pub(crate) mod merge;
mod new;
mod report;
mod reports;
pub(crate) mod run;
mod similar;
mod solve;
mod stress;
mod terminal;
mod validate;

use crate::config::judge::JudgeConfig;
use crate::config::ConfigError;
use crate::error::{CheckError, CliUsageError, Error};
use crate::exit::Outcome;
use crate::grading::settings::SettingsWarning;
use crate::grading::settings::{parse_limit, parse_seed};
use crate::input_file::Source;
use crate::package::{parse_id, Package};
use crate::sandbox::Isolation;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::{Mutex, Once};

pub(crate) use commands::{Cli, Command};

// Where problem packages live; shared by the commands that read them.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct PackageArgs {
    /// A folder of problem packages (`<DIR>/<id>/problem.toml`, `tests/`) used
    /// instead of the bundled ones of the same id [default: the packages built
    /// into judge].
    #[arg(long, value_name = "DIR")]
    pub(crate) problems_dir: Option<PathBuf>,
}

// The limits a run may override; shared by `judge run` and `judge stress`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct LimitArgs {
    /// CPU time limit per test in milliseconds (overrides the problem's).
    #[arg(long, value_name = "MS", value_parser = parse_limit, allow_negative_numbers = true)]
    pub(crate) time_limit: Option<u64>,
    /// Memory limit per test in MiB (overrides the problem's).
    #[arg(long, value_name = "MB", value_parser = parse_limit, allow_negative_numbers = true)]
    pub(crate) memory_limit: Option<u64>,
    /// Tests run in parallel [default: `jobs` of judge.toml, else the number of cores].
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u64).range(0..1025))]
    pub(crate) jobs: Option<u64>,
}

impl LimitArgs {
    /// The flags, as the settings resolver takes them.
    fn overrides(&self) -> crate::grading::settings::Overrides {
        crate::grading::settings::Overrides {
            time_limit_ms: self.time_limit,
            memory_limit_mib: self.memory_limit,
            jobs: self.jobs,
        }
    }
}

impl PackageArgs {
    /// [`Package::load_without_answers`]: for a command that reads no
    /// fixed test's answer (`gen`, `validate`, `stress`, `export`).
    pub(crate) fn load_without_answers(
        &self,
        id: &str,
        config: Option<&JudgeConfig>,
    ) -> Result<Package, ConfigError> {
        Package::load_without_answers(self.problems_dir.as_deref(), id, config)
    }

    /// [`Package::load_problem`]: the problem and checker options of `id`,
    /// for a command that judges one input.
    pub(crate) fn load_problem(
        &self,
        id: &str,
    ) -> Result<(crate::package::ProblemRef, crate::problems::CheckOptions), ConfigError> {
        Package::load_problem(self.problems_dir.as_deref(), id)
    }
}

/// The `judge` binary: parses the command line, runs it, says how it
/// failed if it did, and returns the exit code of its end (from
/// `crate::error::exit_code`, the one table of them).
pub fn main() -> std::process::ExitCode {
    crate::sandbox::seal_inherited_descriptors();
    let end = start();
    if let Err(error) = &end {
        report_error(error);
    }
    std::process::ExitCode::from(crate::error::exit_code(&end))
}

/// Parses the command line and runs it. Inside a judge's run, a judge would
/// be an answer key: refused.
fn start() -> Result<Outcome, Error> {
    if crate::sandbox::inside_a_run() {
        return Err(CliUsageError::InsideASandbox.into());
    }
    match parse()? {
        Some(cli) => dispatch(cli),
        None => Ok(Outcome::Success),
    }
}

/// Parses the command line: the command, or `None` once clap printed the
/// help or the version asked for, or why it cannot be parsed.
///
/// A usage error is 2, as docs/commands.md says for every command but one: for
/// `judge check` 2 means a presentation error, so there anything that is
/// not a verdict on the output is 3 (testlib's "fail") with a one-line
/// reason on stdout, like the other verdicts (issue #10); so for `judge
/// interact`, whose reason goes to stderr (its stdout is the submission's
/// input).
fn parse() -> Result<Option<Cli>, Error> {
    use clap::{CommandFactory as _, FromArgMatches as _};
    let command = first_command(std::env::args_os().skip(1));
    let checking = command.as_deref() == Some("check");
    let interacting = command.as_deref() == Some("interact");
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches));
    match parsed {
        Ok(cli) => Ok(Some(cli)),
        Err(error) if !error.use_stderr() => {
            // `--help`, `--version`: what was asked for, on stdout.
            let _ = error.print();
            Ok(None)
        }
        Err(error) if interacting => Err(Error::InteractCommandLine(error)),
        Err(error) if checking => Err(CheckError::CommandLine(error).into()),
        Err(error) => Err(Error::CommandLine(error)),
    }
}

/// The subcommand of the command line (the judge has no global options, so
/// the first word that is not a flag is the subcommand).
fn first_command(mut args: impl Iterator<Item = std::ffi::OsString>) -> Option<String> {
    args.find(|arg| !arg.to_string_lossy().starts_with('-'))
        .map(|command| command.to_string_lossy().into_owned())
}

/// Runs a parsed command line to its end.
fn dispatch(cli: Cli) -> Result<Outcome, Error> {
    use clap::CommandFactory as _;
    match cli.command {
        Command::Problems(args) => list::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Gen(args) => gen::run(&args),
        Command::Validate(args) => validate::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Interact(args) => interact::run(&args),
        Command::Diff(args) => diff::run(&args),
        Command::Run(args) => run::run(args),
        Command::Grade(args) => grade::run(args),
        Command::Stress(args) => stress::run(&args),
        Command::Merge(args) => merge::run(args),
        Command::Report(args) => report::run(&args),
        Command::Similar(args) => similar::run(&args),
        Command::Export(args) => export::run(&args),
        Command::New(args) => new::run(&args),
        Command::Import(args) => import::run(&args),
        Command::Man => print(crate::manual::man_page(Cli::command()).map_err(Error::from)),
        Command::Completions(args) => {
            print(Ok(crate::manual::completions(args.shell, Cli::command())))
        }
        Command::Schema => print(crate::report::json::schema_text().map_err(Error::from)),
    }
}

/// `judge man`, `judge completions`, `judge schema`: a text the library
/// makes (from the clap definitions, or the report's schema), on stdout.
fn print(text: Result<String, Error>) -> Result<Outcome, Error> {
    write_stdout(&text?)?;
    Ok(Outcome::Success)
}

/// Prints how a command failed: clap's own words for a command line it
/// cannot parse; for `judge check`, also `JE reason` on stdout (one line),
/// like its verdicts; else the error chain the way ripgrep does, and the
/// hint.
fn report_error(error: &Error) {
    match error {
        Error::CommandLine(error) => {
            let _ = error.print();
        }
        Error::InteractCommandLine(error) => interact::say_usage(error),
        Error::Check(failed) => {
            let reason = match &**failed {
                CheckError::CommandLine(error) => format!("usage: {}", clap_reason(error)),
                other => crate::error::chain(other)
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .to_owned(),
            };
            let _ = crate::report::stdout::write_stdout(&format!(
                "{} {reason}\n",
                crate::verdict::Verdict::JudgeError
            ));
            match &**failed {
                CheckError::CommandLine(error) => {
                    let _ = error.print();
                }
                other => say(&format!("error: {}", crate::error::chain(other))),
            }
        }
        _ => {
            say(&error_line(error));
            if let Some(hint) = error.hint() {
                say_hint(&hint);
            }
        }
    }
}

/// An error as a line of stderr: `error: ` and every cause, `: `-separated.
fn error_line(error: &Error) -> String {
    format!("error: {}", crate::error::chain(error))
}

/// Clap's message up to its blank line, on one line, without `error: `.
fn clap_reason(error: &clap::Error) -> String {
    let rendered = error.render().to_string();
    let reason = rendered
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ");
    reason.trim_start_matches("error: ").to_owned()
}

/// Writes data to stdout; a closed pipe is remembered, never an error (see
/// [`crate::report::stdout`]), so the exit code stays the one the result deserves.
fn write_stdout(data: &str) -> Result<(), Error> {
    crate::report::stdout::write_stdout(data).map_err(Error::Stdout)
}

/// Prints a line of a folder command: results on stdout, messages on stderr.
fn emit_line(line: crate::grading::validate_solve_check::Line) -> std::io::Result<()> {
    match line {
        crate::grading::validate_solve_check::Line::Result(text) => {
            crate::report::stdout::write_stdout(&text)
        }
        crate::grading::validate_solve_check::Line::Message(text) => {
            say(&text);
            Ok(())
        }
    }
}

/// Writes one message line to stderr.
fn say(message: &str) {
    crate::stderr::say_line(message);
}

/// The one printer of hints, whichever layer's they are: `hint: ...` on
/// stderr after a blank line (uv's style guide), for an error's hint and
/// for the advice a command gives at its end alike.
fn say_hint(hint: &crate::hint::Hint) {
    say(&format!("\nhint: {hint}"));
}

/// Says a warning about the settings, each distinct one once per process
/// (`judge grade` resolves settings per problem: one about `--jobs` comes
/// for every problem, one about a package's groups for that package).
fn say_settings(warning: &SettingsWarning) {
    static SAID: Mutex<BTreeSet<String>> = Mutex::new(BTreeSet::new());
    let line = format!("warning: {warning}");
    let mut said = SAID
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if said.insert(line.clone()) {
        say(&line);
    }
}

/// Says once per process which isolation layers are missing.
fn announce_isolation() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let isolation = Isolation::detect();
        for note in isolation.notes() {
            say(&format!("note: {note}"));
        }
    });
}
