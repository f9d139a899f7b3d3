//! The command line (SPEC.md, "Commands"): one `Args` struct and one `run`
//! function per subcommand, and the one place where errors become exit codes.
//!
//! Only this module and `report/` print. stdout carries data (answers,
//! inputs, verdict lines, diffs); messages go to stderr.

mod check;
mod diff;
mod export;
mod folder;
mod gen;
pub mod grade;
mod grade_package;
mod list;
pub mod merge;
mod new;
mod output;
mod progress;
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
use std::io::Read;
use std::path::{Path, PathBuf};

/// A grading harness in the style of an online judge.
///
/// Reference solvers, generators, validators and checkers for three grid-search
/// problems; compiles and runs submissions against them under limits.
#[derive(Debug, Parser)]
#[command(
    name = "judge",
    version,
    max_term_width = 100,
    after_help = "Examples:\n  judge grade                       # grade submissions/ with ./judge.toml\n  judge run rooks sol.cpp --random 10\n  judge gen mayan --profile hard --seed 7 --count 20 --out data"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List problems, their limits and generator profiles.
    #[command(
        after_help = "Examples:\n  judge problems\n  judge problems --json\n  judge problems --problems-dir my-problems"
    )]
    Problems(list::ProblemsArgs),
    /// Print the reference answer for an input.
    ///
    /// Exit 1 for an invalid input, 3 for a file that cannot be read (a folder where
    /// a file is expected, unreadable, over the 256 MiB read limit).
    #[command(
        after_help = "Examples:\n  judge solve matchsticks problems/matchsticks/tests/sample-1.in\n  judge gen mayan --seed 7 | judge solve mayan\n  judge solve mayan data          # writes missing or stale data/NAME.ans"
    )]
    Solve(solve::SolveArgs),
    /// Generate random valid inputs (and answers, with --out).
    #[command(
        after_help = "Examples:\n  judge gen rooks-large --seed 7\n  judge gen mayan --profile hard --seed 7 --count 20 --out data --prefix hard-\n  judge gen matchsticks --count 5 --out data --append"
    )]
    Gen(gen::GenArgs),
    /// Check that an input is valid; exit 0 if so, else 1 and "line L: ..." on stderr.
    ///
    /// Numbers are read strictly: no leading zero (`02`), no `+` sign. A file that
    /// cannot be read (a folder where a file is expected, unreadable, over the
    /// 256 MiB read limit) is exit 3, never "invalid".
    #[command(
        after_help = "Examples:\n  judge validate rooks-large data.in\n  judge validate mayan data       # every data/NAME.in, one line each\n  judge gen mayan --profile edge | judge validate mayan --profile edge"
    )]
    Validate(validate::ValidateArgs),
    /// Decide one output: print the verdict line; exit 0 AC, 1 WA, 2 PE, 3 checker failure.
    ///
    /// Anything that is not a verdict on the output (a usage error, an unknown
    /// problem, a file that cannot be read, a bad problem.toml) is `JE reason` on
    /// stdout and exit 3, never the 2 of a presentation error.
    #[command(
        after_help = "Examples:\n  judge check matchsticks input.in output.txt\n  judge check mayan input.in output.txt answer.ans --any-solution\n  judge check mayan data outputs  # outputs/NAME.out for every data/NAME.in"
    )]
    Check(check::CheckArgs),
    /// Show a unified diff of two files; exit 0 if they are the same, 1 if not.
    ///
    /// Exit 3 when a file cannot be read (missing, a folder, over 256 MiB). Files
    /// that differ only in line endings, or that are binary, get one line saying
    /// so instead of a diff.
    #[command(
        after_help = "Examples:\n  judge diff expected.txt actual.txt\n  judge diff --color never expected.txt actual.txt > changes.diff"
    )]
    Diff(diff::DiffArgs),
    /// Compile and run submissions against a problem's tests under limits.
    #[command(
        after_help = "Without root, on a cgroup v2 host, `systemd-run --user --scope -p Delegate=yes judge ...` gives the judge a cgroup of its own (memory and process limits of the whole tree); docs/security.md says which layers hold on which host.\n\nExamples:\n  judge run rooks sol.cpp\n  judge run rooks sol.cpp --tests my-tests --random 20 --seed 3\n  judge run mayan a.py b.rs --json report.json --time-limit 2000"
    )]
    Run(run::RunArgs),
    /// Grade every submission under judge.toml's `submissions` folder.
    #[command(
        after_help = "Without root, on a cgroup v2 host, `systemd-run --user --scope -p Delegate=yes judge ...` gives the judge a cgroup of its own (memory and process limits of the whole tree); docs/security.md says which layers hold on which host.\n\nExamples:\n  judge grade\n  judge grade --config class/judge.toml --csv grades.csv --html grades.html --json grades.json\n  judge grade --shard 2/4 -q --json grade-2.json"
    )]
    Grade(grade::GradeArgs),
    /// Run random tests until a submission fails; print the smallest failing input found.
    #[command(
        after_help = "Examples:\n  judge stress rooks submissions/rooks/wrong_answer/ignores_walls.py --seed 1 > small.in\n  judge stress mayan sol.cpp --profile hard --iterations 200 --out failing"
    )]
    Stress(stress::StressArgs),
    /// Combine the JSON reports of `grade --shard` runs into one.
    #[command(
        after_help = "Examples:\n  judge merge grade-*.json -o grade.json\n  judge merge grade-1.json grade-2.json -o - --junit grade.xml --csv grades.csv"
    )]
    Merge(merge::MergeArgs),
    /// Write a package in the Kattis / ICPC problem package format.
    #[command(
        after_help = "Examples:\n  judge export --kattis rooks kattis/rooks\n  judge export --kattis mayan kattis/mayan"
    )]
    Export(export::ExportArgs),
    /// Scaffold a problem package that validates and grades out of the box.
    #[command(
        after_help = "Examples:\n  judge new sum-of-list\n  judge new sum-of-list --dir my-problems && judge gen sum-of-list --problems-dir my-problems"
    )]
    New(new::NewArgs),
    /// Print the man page (roff) on stdout.
    #[command(
        after_help = "Examples:\n  judge man > judge.1 && man ./judge.1\n  judge man | sudo tee /usr/local/share/man/man1/judge.1 > /dev/null"
    )]
    Man,
    /// Print shell completions for bash, zsh or fish on stdout.
    #[command(
        after_help = "Examples:\n  judge completions bash > ~/.local/share/bash-completion/completions/judge\n  judge completions zsh > ~/.zfunc/_judge\n  judge completions fish > ~/.config/fish/completions/judge.fish"
    )]
    Completions(CompletionsArgs),
    /// Print the JSON Schema of the JSON report (docs/report.schema.json).
    #[command(hide = true)]
    Schema,
}

/// Arguments of `judge completions`.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
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

/// Parses the command line, or prints why not and returns the exit code.
///
/// Clap's usage errors exit 2, as SPEC.md wants for every command but one:
/// for `judge check` 2 means a presentation error, so there anything that is
/// not a verdict on the output is 3 (testlib's "fail") with a one-line reason
/// on stdout, like the other verdicts (issue #10).
pub fn parse() -> Result<Cli, u8> {
    use clap::{CommandFactory as _, FromArgMatches as _};
    let checking = is_check(std::env::args_os().skip(1));
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(parsed) => parsed,
        Err(error) if checking && error.use_stderr() => {
            // The message up to clap's blank line, on one line.
            let rendered = error.render().to_string();
            let reason = rendered
                .lines()
                .take_while(|line| !line.trim().is_empty())
                .map(str::trim)
                .collect::<Vec<_>>()
                .join(" ");
            let reason = reason.trim_start_matches("error: ");
            let _ = output::write_stdout(&format!("JE usage: {reason}\n"));
            let _ = error.print();
            return Err(exit::JUDGE_FAILED);
        }
        Err(error) => error.exit(),
    };
    Ok(cli)
}

/// Whether the command line is `judge check ...` (the judge has no global
/// options, so the first word that is not a flag is the subcommand).
fn is_check(mut args: impl Iterator<Item = std::ffi::OsString>) -> bool {
    args.find(|arg| !arg.to_string_lossy().starts_with('-'))
        .is_some_and(|command| command == "check")
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
        Command::Man => man(),
        Command::Completions(args) => completions(&args),
        Command::Schema => schema(),
    };
    match result {
        Ok(code) => code,
        Err(error) => report_error(&error),
    }
}

/// `judge man`: the man page, from the clap definitions.
fn man() -> anyhow::Result<u8> {
    use clap::CommandFactory as _;
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut page)?;
    // Each subcommand's page too, so the one page covers every command.
    for sub in Cli::command()
        .get_subcommands()
        .filter(|sub| !sub.is_hide_set())
    {
        let sub = sub
            .clone()
            .display_name(format!("judge-{}", sub.get_name()))
            .bin_name(format!("judge {}", sub.get_name()));
        clap_mangen::Man::new(sub).render(&mut page)?;
    }
    write_stdout(&String::from_utf8_lossy(&page))?;
    Ok(exit::SUCCESS)
}

/// `judge completions SHELL`: the completion script, from the clap definitions.
fn completions(args: &CompletionsArgs) -> anyhow::Result<u8> {
    use clap::CommandFactory as _;
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "judge", &mut script);
    write_stdout(&String::from_utf8_lossy(&script))?;
    Ok(exit::SUCCESS)
}

/// `judge schema` (hidden): the JSON Schema of the JSON report, as checked
/// in at `docs/report.schema.json`.
fn schema() -> anyhow::Result<u8> {
    write_stdout(&crate::report::json::schema_text())?;
    Ok(exit::SUCCESS)
}

/// Prints an error chain the way ripgrep does and decides its exit code.
#[expect(clippy::print_stderr, reason = "the CLI's last word on an error")]
fn report_error(error: &anyhow::Error) -> u8 {
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

/// Clap value parser for `--seed`: a bad value says the range (issue #10).
fn parse_seed(text: &str) -> Result<u64, String> {
    text.parse().map_err(|_| {
        format!(
            "expected a whole number from 0 to {}, found `{text}`",
            u64::MAX
        )
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

/// A file given where the judge expects one could not be read: a folder, a
/// missing or unreadable file, or one beyond [`text::MAX_TEXT_BYTES`]. Not a
/// verdict on its contents: `validate`, `solve` and `check` exit 3.
#[derive(Debug, thiserror::Error)]
#[error("cannot read `{name}`: {reason}")]
pub struct CannotRead {
    name: String,
    reason: String,
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
    /// Reads `path`, or stdin when `None` or `-`. A folder, a file that cannot
    /// be opened or read, and a file larger than [`text::MAX_TEXT_BYTES`] are
    /// [`CannotRead`] (exit 3), never an invalid input. Reads at most one byte
    /// more than the limit, so a huge file is refused quickly and the judge's
    /// memory stays bounded.
    fn read(path: Option<&Path>) -> Result<Source, CannotRead> {
        let limit = text::MAX_TEXT_BYTES as u64 + 1;
        let mut bytes = Vec::new();
        let name = match path {
            Some(path) if path != Path::new("-") => {
                let name = path.display().to_string();
                let cannot = |reason: String| CannotRead {
                    name: name.clone(),
                    reason,
                };
                if path.is_dir() {
                    return Err(cannot("it is a folder, not a file".to_owned()));
                }
                // `OpenOptions` rather than `fs_err`: `CannotRead` already names the path.
                let file = std::fs::OpenOptions::new()
                    .read(true)
                    .open(path)
                    .map_err(|error| cannot(error.to_string()))?;
                file.take(limit)
                    .read_to_end(&mut bytes)
                    .map_err(|error| cannot(error.to_string()))?;
                name
            }
            _ => {
                std::io::stdin()
                    .lock()
                    .take(limit)
                    .read_to_end(&mut bytes)
                    .map_err(|error| CannotRead {
                        name: "<stdin>".to_owned(),
                        reason: error.to_string(),
                    })?;
                "<stdin>".to_owned()
            }
        };
        if bytes.len() > text::MAX_TEXT_BYTES {
            return Err(CannotRead {
                name,
                reason: format!(
                    "it is larger than the {} MiB the judge reads",
                    text::MAX_TEXT_BYTES / (1024 * 1024)
                ),
            });
        }
        Ok(Source { name, bytes })
    }

    /// The text, or the reason it is not text.
    fn text(&self) -> Result<&str, text::InputError> {
        text::decode(&self.bytes)
    }
}

/// Writes data to stdout; a closed pipe is remembered, never an error (see
/// [`output`]), so the exit code stays the one the result deserves.
fn write_stdout(data: &str) -> anyhow::Result<()> {
    output::write_stdout(data)
        .map_err(|error| anyhow::anyhow!("failed to write to stdout: {error}"))
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
