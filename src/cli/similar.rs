//! `judge similar`: pairs of hand-ins of each problem from most to least
//! similar, on the terminal, in JSON and in HTML. Evidence for a person,
//! never a verdict: the exit code says only whether the comparison ran
//! (0), the command line or configuration was wrong (2), or the judge
//! failed (3).

use super::reports::ReportArgs;
use super::{say, write_stdout};
use crate::config::judge::JudgeConfig;
use crate::error::Error;
use crate::exit::Outcome;
use crate::grading::reports;
use crate::report::human::visible;
use crate::similar::{self, command as similarity, run};
use std::path::PathBuf;

// Arguments of `judge similar`.
#[derive(Debug, clap::Args)]
pub(crate) struct SimilarArgs {
    /// The judge configuration: its `submissions` folder, `layout` and
    /// `problems` say what the class handed in [default: ./judge.toml when it
    /// exists, else built-in defaults].
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
    /// Compare only these problems [default: `problems` of judge.toml, else
    /// every problem handed in].
    #[arg(long, value_name = "P", num_args = 1.., value_parser = super::parse_id)]
    pub(crate) problems: Vec<String>,
    /// The teacher's starter code: `DIR/<problem>.<ext>` files (say
    /// `DIR/rooks.c`) whose code never counts as shared.
    #[arg(long, value_name = "DIR")]
    pub(crate) base: Option<PathBuf>,
    /// Write the JSON report here (`-` for stdout, instead of the table).
    #[arg(long, value_name = "FILE")]
    pub(crate) json: Option<PathBuf>,
    /// Write an HTML report here: the pairs of each problem and, in a folder
    /// beside it named after FILE (`similar.html`: `similar/`), a
    /// side-by-side page for each pair at or above 40%; `-` prints the one
    /// page.
    #[arg(long, value_name = "FILE")]
    pub(crate) html: Option<PathBuf>,
    /// The shortest run of common tokens that counts: shorter runs are the
    /// idioms everybody writes.
    #[arg(long, value_name = "N", default_value_t = similar::DEFAULT_MIN_TOKENS as u64,
          value_parser = clap::value_parser!(u64).range(2..=1000))]
    pub(crate) min_tokens: u64,
    /// Pairs shown per problem on the terminal.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub(crate) top: usize,
}

/// Runs `judge similar` and returns its exit code.
pub(super) fn run(args: &SimilarArgs) -> Result<Outcome, Error> {
    let reports = ReportArgs::only_pages(args.html.clone());
    reports.check(args.json.as_deref())?;
    if let Some(path) = &args.html {
        reports::refuse_special_html(path)?;
    }
    let config = JudgeConfig::load_or_defaults(args.config.as_deref())?;
    reports.refuse_among(args.json.as_deref(), &[config.submissions.as_path()])?;
    let request = run::Request {
        config: &config,
        problems: (!args.problems.is_empty()).then(|| args.problems.clone()),
        base: args.base.as_deref(),
        min_tokens: similarity::min_tokens(args.min_tokens),
        runnable: None,
    };
    let analysis = similarity::analyse(&request)?;
    for ignored in &analysis.ignored {
        say(&format!(
            "ignored: {}: {}",
            visible(&ignored.path.display().to_string()),
            ignored.reason
        ));
    }
    let report = &analysis.report;
    for line in similar::render_files(report, "", true) {
        say(&line);
    }
    similarity::write_reports(&analysis, args.json.as_deref(), args.html.as_deref())?;
    if similarity::table_on_stdout(args.json.as_deref(), args.html.as_deref()) {
        write_stdout(&similar::render_text(report, args.top))?;
    }
    Ok(Outcome::Success)
}
