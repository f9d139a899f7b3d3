//! The command line (SPEC.md, "Commands"): one `Args` struct and one `run`
//! function per subcommand, and the one place where errors become exit codes.

use clap::{Parser, Subcommand};

/// A grading harness in the style of an online judge.
#[derive(Debug, Parser)]
#[command(name = "judge", version, about, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {}

/// Runs a parsed command line and returns the process exit code.
pub fn run(cli: Cli) -> u8 {
    match cli.command {}
}
