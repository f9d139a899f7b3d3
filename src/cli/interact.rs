//! `judge interact`: a built-in engine that plays against the submission
//! (matchsticks-duel) as a stand-alone interactor over stdin and stdout, so
//! a Kattis installation can run the judge's own games (issue #15: the
//! output validator `judge export --kattis` writes for such a package runs
//! it). stdin is the submission's output, stdout its input; the verdict
//! line goes to stderr; exit 0 AC, 1 WA, 2 PE, 3 the judge failed (the
//! testlib codes of `judge check`).

use super::PackageArgs;
use crate::error::Error;
use crate::exit::Outcome;
use crate::grading::validate_solve_check::check_outcome;
use crate::interact::{play, session};
use crate::report::human::visible_name;
use crate::verdict::Verdict;
use std::path::PathBuf;

// Arguments of `judge interact`.
#[derive(Debug, clap::Args)]
pub(crate) struct InteractArgs {
    /// The problem id (one whose judge plays the submission: matchsticks-duel).
    #[arg(value_parser = super::parse_id)]
    pub(crate) problem: String,
    /// The test's input (the games to play).
    pub(crate) input: PathBuf,
    #[command(flatten)]
    pub(crate) packages: PackageArgs,
}

/// Plays the test over stdin and stdout; the verdict line on stderr.
pub(super) fn run(args: &InteractArgs) -> Result<Outcome, Error> {
    let problems_dir = args.packages.problems_dir.as_deref();
    let outcome = session(problems_dir, &args.problem, &args.input).map(|session| {
        let stdin = std::io::stdin();
        let (verdict, message) = play(session, stdin.lock(), std::io::stdout().lock());
        // The message quotes the submission's line: its control characters
        // are made visible, so none reaches a terminal or a judgemessage.txt.
        super::say(&format!("{verdict} {}", visible_name(&message)));
        check_outcome(verdict)
    });
    Ok(outcome.unwrap_or_else(|error| {
        let chain = crate::error::chain(&error);
        super::say(&format!(
            "{} {}",
            Verdict::JudgeError,
            chain.lines().next().unwrap_or_default()
        ));
        Outcome::JudgeFailed
    }))
}

/// A command line that cannot be parsed: `JE usage: ...` and clap's words,
/// both on stderr (stdout is the submission's input).
pub(super) fn say_usage(error: &clap::Error) {
    super::say(&format!(
        "{} usage: {}",
        Verdict::JudgeError,
        super::clap_reason(error)
    ));
    let _ = error.print();
}
