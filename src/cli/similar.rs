//! `judge similar`: pairs of hand-ins of each problem from most to least
//! similar, on the terminal, in JSON and in HTML. Evidence for a person,
//! never a verdict: the exit code says only whether the comparison ran
//! (0), the command line or configuration was wrong (2), or the judge
//! failed (3).

use super::reports::{write_report, ReportArgs};
use super::{say, write_stdout};
use crate::config::judge::JudgeConfig;
use crate::error::{Error, UsageError};
use crate::exit;
use crate::grade;
use crate::report;
use crate::similar::{self, class, Report};
use std::path::{Path, PathBuf};

/// Arguments of `judge similar`.
#[derive(Debug, clap::Args)]
pub struct SimilarArgs {
    /// The judge configuration: its `submissions` folder, `layout` and
    /// `problems` say what the class handed in [default: ./judge.toml when it
    /// exists, else built-in defaults].
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Compare only these problems [default: `problems` of judge.toml, else
    /// every problem handed in].
    #[arg(long, value_name = "P", num_args = 1.., value_parser = super::parse_problem)]
    pub problems: Vec<String>,
    /// The teacher's starter code: `DIR/<problem>.<ext>` files (say
    /// `DIR/rooks.c`) whose code never counts as shared.
    #[arg(long, value_name = "DIR")]
    pub base: Option<PathBuf>,
    /// Write the JSON report here (`-` for stdout, instead of the table).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write an HTML report here: the pairs of each problem and, in a folder
    /// beside it named after FILE (`similar.html`: `similar/`), a
    /// side-by-side page for each pair at or above 40%; `-` prints the one
    /// page.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// The shortest run of common tokens that counts: shorter runs are the
    /// idioms everybody writes.
    #[arg(long, value_name = "N", default_value_t = similar::DEFAULT_MIN_TOKENS as u64,
          value_parser = clap::value_parser!(u64).range(2..=1000))]
    pub min_tokens: u64,
    /// Pairs shown per problem on the terminal.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub top: usize,
}

/// Runs `judge similar` and returns its exit code.
pub fn run(args: &SimilarArgs) -> Result<u8, Error> {
    let reports = ReportArgs {
        junit: None,
        csv: None,
        html: args.html.clone(),
    };
    reports.check(args.json.as_deref())?;
    let config = JudgeConfig::load_or_defaults(args.config.as_deref())?;
    reports.refuse_among(args.json.as_deref(), &[config.submissions.as_path()])?;
    let hint = || {
        format!(
            "`submissions` in `{}` names the folder, relative to that file",
            config
                .path
                .as_deref()
                .unwrap_or(Path::new("judge.toml"))
                .display()
        )
    };
    let discovery =
        grade::discover(&config.submissions, config.layout, None).map_err(|error| match error {
            grade::DiscoverError::Walk(_) => Error::from(error),
            _ => UsageError::new(error.to_string(), Some(hint())).into(),
        })?;
    let mut known: Vec<String> = crate::config::bundled::package_ids()
        .into_iter()
        .map(str::to_owned)
        .collect();
    known.extend(discovery.entries.iter().map(|entry| entry.problem.clone()));
    known.sort();
    known.dedup();
    let wanted = if args.problems.is_empty() {
        config.problems.clone()
    } else {
        Some(args.problems.clone())
    };
    let entries: Vec<grade::Entry> = discovery
        .entries
        .into_iter()
        .filter(|entry| {
            wanted
                .as_ref()
                .is_none_or(|wanted| wanted.contains(&entry.problem))
        })
        .collect();
    if entries.is_empty() {
        let which = wanted.map_or_else(String::new, |wanted| format!(" for {}", wanted.join(", ")));
        return Err(UsageError::new(
            format!(
                "the submissions folder `{}` holds no hand-ins{which}",
                config.submissions.display()
            ),
            Some(hint()),
        )
        .into());
    }
    for ignored in &discovery.ignored {
        say(&format!(
            "ignored: {}: {}",
            ignored.path.display(),
            ignored.reason
        ));
    }
    let base = match &args.base {
        Some(dir) => {
            class::read_base(dir, &known, &config.languages).map_err(|error| match error {
                class::BaseError::Tokenize(_) => Error::judge(error),
                _ => UsageError::new(
                    error.to_string(),
                    Some(
                        "--base holds one `<problem>.<ext>` file per problem and language"
                            .to_owned(),
                    ),
                )
                .into(),
            })?
        }
        None => Vec::new(),
    };
    let jobs = match config.jobs {
        0 => crate::runner::available_cores(),
        jobs => jobs,
    };
    let (hand_ins, skipped, notes) =
        class::read_hand_ins(&entries, &config.languages, jobs).map_err(Error::judge)?;
    let options = similar::Options {
        min_tokens: usize::try_from(args.min_tokens).unwrap_or(similar::DEFAULT_MIN_TOKENS),
        jobs,
    };
    let (pairs, problems) = similar::compare(&hand_ins, &base, &options);
    let report = Report {
        version: similar::VERSION,
        min_tokens: options.min_tokens,
        base: base
            .iter()
            .map(|file| file.path.display().to_string())
            .collect(),
        problems,
        pairs,
        skipped,
        notes,
    };
    for skipped in &report.skipped {
        say(&format!("skipped: {}: {}", skipped.path, skipped.reason));
    }
    for note in &report.notes {
        say(&format!("note: {}: {}", note.path, note.note));
    }
    let to_stdout = |path: &Option<PathBuf>| path.as_deref() == Some(Path::new("-"));
    if let Some(path) = &args.json {
        let mut text = serde_json::to_string_pretty(&report).map_err(Error::judge)?;
        text.push('\n');
        write_report(path, &text)?;
    }
    if let Some(path) = &args.html {
        if to_stdout(&args.html) {
            let pages = similar::html::render(&report, &hand_ins, None, None);
            write_stdout(&pages.summary)?;
        } else {
            let folder = report::page_folder(path);
            let folder_name = folder
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_default();
            let summary_dir = std::path::absolute(path)
                .ok()
                .and_then(|path| path.parent().map(Path::to_owned));
            let pages = similar::html::render(
                &report,
                &hand_ins,
                Some(&folder_name),
                summary_dir.as_deref(),
            );
            report::write_page_set(path, &folder, pages.summary.as_bytes(), &pages.pairs)?;
        }
    }
    if !to_stdout(&args.json) && !to_stdout(&args.html) {
        write_stdout(&similar::render_text(&report, args.top))?;
    }
    Ok(exit::SUCCESS)
}
