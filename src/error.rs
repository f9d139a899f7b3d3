//! The one error type at the top: every failure a command can end with;
//! and [`exit_code`], the one place a command's end becomes an exit code
//! (docs/commands.md, "Exit codes"): the user's mistakes (usage, configuration) are 2, everything
//! else is the judge failing, 3. Interruptions (130 / 143) and verdicts
//! (0 / 1, and `judge check`'s testlib codes) are not errors: the commands
//! return them as an [`Outcome`], mapped in the same `match`.
//!
//! Every layer below keeps its own error type; this enum names each, so
//! the exit code is one exhaustive `match`, never a search of an error
//! chain.

use crate::config::ConfigError;
use crate::discovery::DiscoverError;
use crate::exit::Outcome;
use crate::export::ExportError;
use crate::gen::testset::TestSetError;
use crate::gen::GenError;
use crate::grading::validate_solve_check::CheckFailed;
use crate::grading::GradingError;
use crate::hint::Hint;
use crate::input_file::CannotRead;
use crate::interrupt::{InterruptError, Signal};
use crate::package::autograding::ImportError;
use crate::package::format::PrepareError;
use crate::package::scaffold::ScaffoldError;
use crate::report::targets::TargetError;
use crate::report::ReportError;
use crate::similar::command::SimilarError;
use crate::stress::StressError;

/// A mistake in the command line that the user can fix, found before any
/// layer is called: exit 2, nothing run. The layers' own refusals are
/// theirs ([`crate::grading::usage::UsageError`], [`TargetError`], ...).
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliUsageError {
    /// A judge started by a program a judge runs: it would be an answer key.
    #[error("judge does not run inside a judge's sandbox")]
    InsideASandbox,
    /// `judge export --gradescope` without problems, or without the zip.
    #[error("`judge export --gradescope PROBLEM... OUT` takes the problems, then the zip")]
    GradescopeTargets,
    /// `judge export --kattis` with other than one folder.
    #[error("`judge export --kattis PROBLEM DIR` takes one folder")]
    KattisTargets,
}

impl CliUsageError {
    /// The advice printed after the error, when there is a likely fix.
    fn hint(&self) -> Option<Hint> {
        match self {
            CliUsageError::GradescopeTargets => {
                Some(Hint::new("judge export --gradescope rooks autograder.zip"))
            }
            CliUsageError::InsideASandbox | CliUsageError::KattisTargets => None,
        }
    }
}

/// Why a command failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Error {
    /// The command line asks for something that cannot be done.
    #[error(transparent)]
    Usage(#[from] CliUsageError),
    /// A grading call could not grade (`run`, `grade`, `stress`, `merge`,
    /// `gen`, the folder forms of `validate`, `solve` and `check`).
    #[error(transparent)]
    Grading(#[from] GradingError),
    /// `judge gen` could not make, read or write a data set.
    #[error(transparent)]
    TestSet(TestSetError),
    /// `judge gen`: a package offers no generator profile to make tests with.
    #[error("problem `{id}` has no generator profile")]
    NoProfile { id: String },
    /// `judge stress` met a judge error rather than a failing submission:
    /// nothing to shrink and no input to blame.
    #[error("the judge failed on {test}: {message}")]
    StressJudgeFailed { test: String, message: String },
    /// `judge similar` was asked to compare what it cannot: the submissions
    /// folder, `--base`, a problem named.
    #[error(transparent)]
    SimilarRefused(crate::similar::command::Refused),
    /// `judge similar`'s comparison failed (a grammar that would not load
    /// or parse): the judge's fault.
    #[error("{0}")]
    Similar(crate::similar::run::RunError),
    /// `judge similar`'s JSON report could not be serialised.
    #[error("{0}")]
    SimilarJson(serde_json::Error),
    /// A report path cannot be written.
    #[error(transparent)]
    Targets(#[from] TargetError),
    /// A configuration file is wrong.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The signal handlers could not be installed.
    #[error(transparent)]
    Interrupt(#[from] InterruptError),
    /// A report file could not be written.
    #[error(transparent)]
    Report(#[from] ReportError),
    /// A package could not be exported.
    #[error(transparent)]
    Export(#[from] ExportError),
    /// A file given as an input, output or answer could not be read.
    #[error(transparent)]
    CannotRead(#[from] CannotRead),
    /// `judge new` could not write its package.
    #[error(transparent)]
    Scaffold(#[from] ScaffoldError),
    /// `judge import` wrote no package.
    #[error(transparent)]
    Import(#[from] ImportError),
    /// `judge grade --package` or `judge gen --package` could not build
    /// what the package makes of itself (a Kattis package's `data/` from
    /// `generators.yaml`).
    #[error(transparent)]
    Prepare(#[from] PrepareError),
    /// A report could not be serialised.
    #[error("failed to serialise JSON")]
    Json(#[from] serde_json::Error),
    /// Standard output could not be written.
    #[error("failed to write to stdout: {0}")]
    Stdout(std::io::Error),
    /// A file of the judge's own could not be read or written.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The command line could not be parsed (clap's words say why).
    #[error(transparent)]
    CommandLine(clap::Error),
    /// `judge check` could not decide on the output: whatever the cause (a
    /// bad `problem.toml`, a file that cannot be read, a bad flag), the
    /// judge failed, testlib's 3, never the 2 of a presentation error.
    #[error(transparent)]
    Check(Box<CheckError>),
    /// `judge interact`'s command line could not be parsed: the judge
    /// failed (3), as for `judge check`; its stdout is the submission's
    /// input, so the reason goes to stderr only.
    #[error(transparent)]
    InteractCommandLine(clap::Error),
}

/// `judge export`'s error is the refusing layer's, as it was.
impl From<crate::export::command::CommandError> for Error {
    fn from(error: crate::export::command::CommandError) -> Self {
        use crate::export::command::CommandError;
        match error {
            CommandError::Grading(error) => Error::Grading(error),
            CommandError::Config(error) => Error::Config(error),
            CommandError::Export(error) => Error::Export(error),
        }
    }
}

/// A grading command's error (`run`, `grade`, `grade --package`, `merge`):
/// the error of the layer that refused or failed, as each was when the
/// command line made the call itself; the class page's analysis's is its
/// own command's (`E`: `judge grade --similarity`'s [`SimilarError`]).
impl<E> From<crate::grading::CommandError<E>> for Error
where
    Error: From<E>,
{
    fn from(error: crate::grading::CommandError<E>) -> Self {
        use crate::grading::CommandError;
        match error {
            CommandError::Grading(error) => Error::Grading(error),
            CommandError::Targets(error) => Error::Targets(error),
            CommandError::Config(error) => Error::Config(error),
            CommandError::Interrupt(error) => Error::Interrupt(error),
            CommandError::Prepare(error) => Error::Prepare(error),
            CommandError::Report(error) => Error::Report(error),
            CommandError::Stdout(error) => Error::Stdout(error),
            CommandError::Analysis(error) => Error::from(error),
        }
    }
}

/// The analysis of a command that has none: never an error.
impl From<std::convert::Infallible> for Error {
    fn from(never: std::convert::Infallible) -> Self {
        match never {}
    }
}

/// `judge gen`'s error: the grading layer's, or the command's own.
impl From<GenError> for Error {
    fn from(error: GenError) -> Self {
        match error {
            GenError::Grading(error) => Error::Grading(error),
            GenError::TestSet(error) => Error::TestSet(error),
            GenError::NoProfile { id } => Error::NoProfile { id },
        }
    }
}

/// `judge stress`'s error: the grading layer's, or the command's own.
impl From<StressError> for Error {
    fn from(error: StressError) -> Self {
        match error {
            StressError::Grading(error) => Error::Grading(error),
            StressError::JudgeError { test, message } => Error::StressJudgeFailed { test, message },
        }
    }
}

/// `judge similar`'s (and `grade --similarity`'s) error: the grading
/// layer's, or the command's own.
impl From<SimilarError> for Error {
    fn from(error: SimilarError) -> Self {
        match error {
            SimilarError::Grading(error) => Error::Grading(error),
            SimilarError::Refused(refused) => Error::SimilarRefused(refused),
            SimilarError::Compare(error) => Error::Similar(error),
            SimilarError::Json(error) => Error::SimilarJson(error),
        }
    }
}

impl From<CheckError> for Error {
    fn from(error: CheckError) -> Self {
        Error::Check(Box::new(error))
    }
}

/// Why `judge check` could not decide on the output.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CheckError {
    /// The command line could not be parsed.
    #[error(transparent)]
    CommandLine(clap::Error),
    /// The package's configuration is wrong.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A file cannot be read, a folder holds no test, stdout failed.
    #[error(transparent)]
    Failed(#[from] CheckFailed),
}

impl Error {
    /// The advice printed after the error as a `hint:` line, when there
    /// is one: the refusing layer's. Every kind is named, so a new one
    /// decides whether it has advice.
    pub(crate) fn hint(&self) -> Option<Hint> {
        match self {
            Error::Usage(usage) => usage.hint(),
            Error::Targets(target) => target.hint(),
            Error::Grading(grading) => grading.hint(),
            Error::SimilarRefused(refused) => refused.hint(),
            Error::Config(config) => config.hint(),
            Error::Export(ExportError::Refused { refused, .. }) => refused.hint(),
            Error::TestSet(_)
            | Error::NoProfile { .. }
            | Error::StressJudgeFailed { .. }
            | Error::Similar(_)
            | Error::SimilarJson(_)
            | Error::Interrupt(_)
            | Error::Report(_)
            | Error::Export(_)
            | Error::CannotRead(_)
            | Error::Scaffold(_)
            | Error::Import(_)
            | Error::Prepare(_)
            | Error::Json(_)
            | Error::Stdout(_)
            | Error::Io(_)
            | Error::CommandLine(_)
            | Error::Check(_)
            | Error::InteractCommandLine(_) => None,
        }
    }
}

/// The process exit code of a command's end: the one table of them
/// (docs/commands.md, "Exit codes"), one exhaustive `match` on the outcome and on
/// every error.
pub(crate) fn exit_code(end: &Result<Outcome, Error>) -> u8 {
    match end {
        Ok(Outcome::Success) => 0,
        Ok(Outcome::Failure) => 1,
        // `judge check` only (testlib `_pe`); 2 is a usage error elsewhere.
        Ok(Outcome::PresentationError) => 2,
        Ok(Outcome::JudgeFailed) => 3,
        // 128 + the signal number, as a shell reports a process it ended.
        Ok(Outcome::Interrupted(Signal::Interrupt)) => 130,
        Ok(Outcome::Interrupted(Signal::Terminate)) => 143,
        Err(
            Error::Usage(_)
            | Error::CommandLine(_)
            | Error::SimilarRefused(_)
            | Error::Targets(_)
            | Error::Config(_)
            | Error::Prepare(PrepareError::Config(_))
            | Error::Export(
                ExportError::Unsupported { .. }
                | ExportError::Refused { .. }
                | ExportError::UnknownLanguage { .. }
                | ExportError::NoPackage { .. },
            )
            | Error::Scaffold(ScaffoldError::Exists(_))
            | Error::Import(
                ImportError::Config(_) | ImportError::Target(_) | ImportError::Nothing { .. },
            )
            | Error::Grading(
                GradingError::Usage(_)
                | GradingError::Config(_)
                | GradingError::Resume(_)
                | GradingError::Discover(
                    DiscoverError::Missing { .. }
                    | DiscoverError::NotAFolder { .. }
                    | DiscoverError::Empty { .. },
                ),
            ),
        ) => 2,
        Err(
            Error::Grading(
                GradingError::Discover(DiscoverError::Walk(_))
                | GradingError::Run(_)
                | GradingError::Json(_)
                | GradingError::ReadFolder { .. }
                | GradingError::CannotRead(_)
                | GradingError::Io(_)
                | GradingError::Report(_)
                | GradingError::Stdout(_)
                | GradingError::Render(_)
                | GradingError::RunJson(_)
                | GradingError::UncheckedInputs(_)
                | GradingError::NoDerivedLimit(_),
            )
            | Error::TestSet(_)
            | Error::NoProfile { .. }
            | Error::StressJudgeFailed { .. }
            | Error::Similar(_)
            | Error::SimilarJson(_)
            | Error::Export(ExportError::Reference { .. } | ExportError::Write { .. })
            | Error::Prepare(PrepareError::Judge(_))
            | Error::Check(_)
            | Error::InteractCommandLine(_)
            | Error::Scaffold(ScaffoldError::Write(_))
            | Error::Import(ImportError::Write { .. })
            | Error::Interrupt(_)
            | Error::Report(_)
            | Error::CannotRead(_)
            | Error::Json(_)
            | Error::Stdout(_)
            | Error::Io(_),
        ) => 3,
    }
}

pub(crate) use crate::causes::chain;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grading::usage::{NoTestsIn, UsageError};
    use std::path::PathBuf;

    /// A usage error of the grading layer, with a hint.
    fn no_tests() -> GradingError {
        UsageError::NoTests {
            id: "rooks".to_owned(),
            missing: NoTestsIn::TestsFolder,
        }
        .into()
    }

    /// `judge check`'s verdicts exit with testlib's codes. Here rather than
    /// beside `check_outcome`, so the grading layer never names this one
    /// (issue #33: the folders depend one way).
    #[test]
    fn check_outcomes_exit_with_testlibs_codes() {
        use crate::grading::validate_solve_check::check_outcome;
        use crate::verdict::Verdict;
        let rows = [
            (Verdict::Accepted, 0),
            (Verdict::WrongAnswer, 1),
            (Verdict::PresentationError, 2),
            (Verdict::JudgeError, 3),
        ];
        for (verdict, code) in rows {
            let outcome = check_outcome(verdict);
            assert_eq!(exit_code(&Ok(outcome)), code, "{verdict}");
        }
    }

    /// See: issue #33. What a package could not build before its grade
    /// keeps whose fault it was: its files' (exit 2) or the judge's (3).
    #[test]
    fn a_package_build_failure_exits_by_whose_fault_it_is() {
        let wrong =
            ConfigError::invalid(std::path::Path::new("generators.yaml"), "data", "not a map");
        assert_eq!(
            exit_code(&Err(Error::Prepare(PrepareError::Config(wrong)))),
            2
        );
        let failed = PrepareError::Judge(Box::new(std::io::Error::other("disk full")));
        assert_eq!(exit_code(&Err(Error::Prepare(failed))), 3);
    }

    #[test]
    fn the_users_mistakes_are_2_and_the_judges_failures_3() {
        let config = ConfigError::invalid(std::path::Path::new("judge.toml"), "jobs", "bad");
        let rows: Vec<(Error, u8)> = vec![
            (CliUsageError::InsideASandbox.into(), 2),
            (config.into(), 2),
            (no_tests().into(), 2),
            (
                GradingError::from(DiscoverError::Missing {
                    path: PathBuf::from("s"),
                })
                .into(),
                2,
            ),
            (GenError::NoProfile { id: "x".to_owned() }.into(), 3),
            (
                GenError::from(GradingError::from(UsageError::BadPrefix {
                    prefix: "../x".to_owned(),
                }))
                .into(),
                2,
            ),
            (
                StressError::JudgeError {
                    test: "random-1".to_owned(),
                    message: "checker crashed".to_owned(),
                }
                .into(),
                3,
            ),
            (
                StressError::from(GradingError::from(UsageError::NoGenerator {
                    id: "x".to_owned(),
                }))
                .into(),
                2,
            ),
            (
                SimilarError::from(GradingError::from(UsageError::SimilarityWithoutHtml)).into(),
                2,
            ),
            (
                GradingError::UncheckedInputs("a .ctd validator".to_owned()).into(),
                3,
            ),
            (
                ExportError::Unsupported {
                    id: "x".to_owned(),
                    reason: "y".to_owned(),
                }
                .into(),
                2,
            ),
            (
                ExportError::UnknownLanguage {
                    name: "pyhton".to_owned(),
                    known: "c, python".to_owned(),
                    suggestion: String::new(),
                }
                .into(),
                2,
            ),
            (
                ExportError::NoPackage {
                    language: "zig".to_owned(),
                    program: "zig".to_owned(),
                }
                .into(),
                2,
            ),
            (std::io::Error::other("disk").into(), 3),
            (Error::Stdout(std::io::Error::other("pipe")), 3),
            (
                Error::CommandLine(clap::Error::new(clap::error::ErrorKind::UnknownArgument)),
                2,
            ),
            (ScaffoldError::Exists(PathBuf::from("problems/x")).into(), 2),
            (ImportError::Target("in the way".to_owned()).into(), 2),
            (
                ImportError::Nothing {
                    path: PathBuf::from("a.json"),
                    skipped: Vec::new(),
                }
                .into(),
                2,
            ),
            (
                ImportError::Write {
                    path: PathBuf::from("p"),
                    source: std::io::Error::other("disk"),
                }
                .into(),
                3,
            ),
            (
                ScaffoldError::Write(std::io::Error::other("disk")).into(),
                3,
            ),
        ];
        for (error, code) in rows {
            let name = error.to_string();
            assert_eq!(exit_code(&Err(error)), code, "{name}");
        }
        let usage: Error = CliUsageError::GradescopeTargets.into();
        assert_eq!(
            usage.hint(),
            Some(Hint::new("judge export --gradescope rooks autograder.zip"))
        );
        let grading: Error = no_tests().into();
        assert_eq!(grading.hint(), Some(Hint::new("pass `--random N`")));
    }

    /// `judge export`'s error becomes the top-level error of the layer that
    /// refused, so its exit code and hint are that layer's.
    #[test]
    fn an_export_command_error_is_the_refusing_layers() {
        use crate::export::command::CommandError;
        let usage: Error = CommandError::from(GradingError::from(UsageError::TargetNotEmpty {
            path: PathBuf::from("out"),
        }))
        .into();
        assert!(matches!(usage, Error::Grading(GradingError::Usage(_))));
        assert_eq!(usage.hint(), Some(Hint::new("export into a new folder")));
        assert_eq!(exit_code(&Err(usage)), 2);
        let config: Error = CommandError::from(ConfigError::invalid(
            std::path::Path::new("judge.toml"),
            "jobs",
            "bad",
        ))
        .into();
        assert!(matches!(config, Error::Config(_)));
        let write: Error = CommandError::from(ExportError::Write {
            path: PathBuf::from("a.zip"),
            source: std::io::Error::other("disk"),
        })
        .into();
        assert!(matches!(write, Error::Export(ExportError::Write { .. })));
        assert_eq!(exit_code(&Err(write)), 3);
    }

    /// `judge check` is testlib's: whatever keeps it from a verdict is the
    /// judge failing, 3, even the configuration mistake that is 2 elsewhere.
    #[test]
    fn anything_that_keeps_check_from_a_verdict_is_3() {
        let config = || ConfigError::invalid(std::path::Path::new("problem.toml"), "x", "bad");
        assert_eq!(exit_code(&Err(config().into())), 2);
        let rows: Vec<CheckError> = vec![
            config().into(),
            CheckError::CommandLine(clap::Error::new(clap::error::ErrorKind::UnknownArgument)),
            CheckFailed::from(GradingError::from(UsageError::NoInputs {
                path: PathBuf::from("tests"),
            }))
            .into(),
        ];
        for error in rows {
            let name = error.to_string();
            assert_eq!(exit_code(&Err(error.into())), 3, "{name}");
        }
    }

    #[test]
    fn a_chain_says_every_cause() {
        let error: Error = crate::report::ReportError {
            path: PathBuf::from("grades.csv"),
            source: std::io::Error::other("disk full"),
        }
        .into();
        assert_eq!(chain(&error), "failed to write `grades.csv`: disk full");
    }

    #[test]
    fn outcomes_are_0_and_1_testlibs_2_and_3_and_128_plus_the_signal() {
        let rows = [
            (Outcome::Success, 0),
            (Outcome::Failure, 1),
            (Outcome::PresentationError, 2),
            (Outcome::JudgeFailed, 3),
            (Outcome::Interrupted(Signal::Interrupt), 130),
            (Outcome::Interrupted(Signal::Terminate), 143),
        ];
        for (outcome, code) in rows {
            assert_eq!(exit_code(&Ok(outcome)), code, "{outcome:?}");
        }
    }
}
