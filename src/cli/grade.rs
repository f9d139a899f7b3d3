//! `judge grade`: every submission under judge.toml's `submissions` folder,
//! against its problem's tests and random tests, with the table, the
//! expected-verdict check (layout `expected`), time-limit warnings, shards
//! and the report files. `judge merge` (merge.rs) combines shard reports.
//! The command is [`crate::grading::class`]'s one call; this file holds
//! its arguments. With `--package DIR` it grades a package's own
//! submissions against their folders, as the Kattis tools do (issue #9):
//! [`crate::grading::package`]'s one call; a submission in a language that
//! is not configured is listed as skipped with the reason, not counted.
//!
//! Exit codes: docs/commands.md's (0 every verdict AC, 1 some not, 2 usage or
//! configuration error with nothing run, 3 the judge failed), except that for
//! layout `expected` 0 means every example got its folder's verdict and 1
//! that one did not (CHANGELOG.md; so for `--package`), and 130 / 143 when SIGINT / SIGTERM
//! stopped the run (the reports then hold what finished).

use super::reports::ReportArgs;
use super::terminal::Terminal;
use super::PackageArgs;
use crate::discovery::Shard;
use crate::error::Error;
use crate::exit::Outcome;
use crate::grading::class::{self, GradeCommand};
use crate::grading::package::{self, PackageCommand};
use crate::similar::command::{self as similarity, Similarity};
use std::path::PathBuf;

// Arguments of `judge grade`.
#[derive(Debug, clap::Args)]
pub(crate) struct GradeArgs {
    /// The judge configuration [default: ./judge.toml when it exists, else built-in defaults].
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
    /// Write the JSON report here (`-` for stdout, instead of the table).
    #[arg(long, value_name = "FILE")]
    pub(crate) json: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) reports: ReportArgs,
    /// Grade only part K of N: a deterministic 1/N of the sorted (submission,
    /// problem) pairs; the N parts are disjoint and cover the run. `auto`
    /// reads K and N from the job engine: a Slurm array, a Kubernetes
    /// Indexed Job (with JUDGE_SHARD_COUNT), GitLab's `parallel:`, or
    /// JUDGE_SHARD_INDEX and JUDGE_SHARD_COUNT (docs/sharding.md).
    #[arg(long, value_name = "K/N|auto", value_parser = crate::discovery::shard::parse_arg)]
    pub(crate) shard: Option<Shard>,
    /// Tests run in parallel [default: `jobs` of judge.toml, else the number of cores].
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u64).range(0..1025))]
    pub(crate) jobs: Option<u64>,
    /// With layout `expected` (and `--package`), run every test of a
    /// submission that already failed one [default: stop at its first
    /// failing test, as problemtools does; a class always runs every test].
    #[arg(long)]
    pub(crate) all_tests: bool,
    /// No table and no progress bar: only the summary, disagreements and warnings.
    #[arg(long, short)]
    pub(crate) quiet: bool,
    /// Reuse the results of this earlier JSON report whose submission,
    /// language, package, limits and seed are unchanged; grade the rest.
    /// Without `--json`, the new report replaces this file.
    #[arg(long, value_name = "REPORT")]
    pub(crate) resume: Option<PathBuf>,
    /// Grade a package's own submissions against what its format says each
    /// should get, with Kattis' meanings; exit 0 when every one agrees. Any
    /// format the judge reads, for example `submissions/<verdict>/` of one
    /// of ours (`problem.toml`) or of a Kattis / ICPC package
    /// (`problem.yaml`; its `data/` built first from
    /// `generators/generators.yaml` when there is one), each solution's tag
    /// of a Polygon package (`problem.xml`, or its zip).
    #[arg(long, value_name = "DIR")]
    pub(crate) package: Option<PathBuf>,
    /// Reports to hand to students: hidden tests (all but the samples,
    /// `sample*`) show verdict, time and the checker's message, but not the
    /// input, expected or actual output, in the HTML and the JSON report
    /// [default: `student-view` of judge.toml, else off].
    #[arg(long)]
    pub(crate) student_view: bool,
    /// Add the similarity of the hand-ins of each problem to the HTML class
    /// page (`judge similar`'s pairs and side-by-side pages): evidence for a
    /// person, never a grade. Needs `--html`; refused with `--student-view`.
    #[arg(long)]
    pub(crate) similarity: bool,
    /// With `--similarity`: the teacher's starter code, `DIR/<problem>.<ext>`
    /// files whose code never counts as shared (as `judge similar --base`).
    #[arg(long, value_name = "DIR", requires = "similarity")]
    pub(crate) base: Option<PathBuf>,
    /// With `--similarity`: the shortest run of common tokens that counts (as
    /// `judge similar --min-tokens`).
    #[arg(long, value_name = "N", requires = "similarity",
          default_value_t = similarity::DEFAULT_MIN_TOKENS as u64,
          value_parser = clap::value_parser!(u64).range(2..=1000))]
    pub(crate) min_tokens: u64,
    #[command(flatten)]
    pub(crate) packages: PackageArgs,
}

/// Runs `judge grade` and returns its exit code: the order is
/// [`class::run`]'s (with `--package`, [`package::run`]'s),
/// the printing [`Terminal`]'s.
pub(crate) fn run(args: GradeArgs) -> Result<Outcome, Error> {
    if let Some(dir) = &args.package {
        let command = PackageCommand {
            dir,
            config: args.config.as_deref(),
            reports: args.reports.targets(args.json.as_deref()),
            jobs: args.jobs,
            all_tests: args.all_tests,
            shard: args.shard,
            resume: args.resume.as_deref(),
            quiet: args.quiet,
            student_view: args.student_view,
            similarity: args.similarity,
        };
        return Ok(package::run(&command, &mut Terminal::default())?);
    }
    let command = GradeCommand {
        config: args.config.as_deref(),
        problems_dir: args.packages.problems_dir.as_deref(),
        reports: args.reports.targets(args.json.as_deref()),
        shard: args.shard,
        jobs: args.jobs,
        all_tests: args.all_tests,
        quiet: args.quiet,
        resume: args.resume.as_deref(),
        student_view: args.student_view,
    };
    let similarity = Similarity {
        asked: args.similarity,
        base: args.base.as_deref(),
        min_tokens: similarity::min_tokens(args.min_tokens),
    };
    Ok(class::run(&command, &similarity, &mut Terminal::default())?)
}
