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
use crate::report;
use crate::similar::{self, run};
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
    let request = run::Request {
        config: &config,
        problems: (!args.problems.is_empty()).then(|| args.problems.clone()),
        base: args.base.as_deref(),
        min_tokens: usize::try_from(args.min_tokens).unwrap_or(similar::DEFAULT_MIN_TOKENS),
    };
    let analysis = analyse(&request, &hint)?;
    for ignored in &analysis.ignored {
        say(&format!(
            "ignored: {}: {}",
            ignored.path.display(),
            ignored.reason
        ));
    }
    let (report, hand_ins) = (analysis.report, analysis.hand_ins);
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

/// Runs the comparison, with the user's mistakes as usage errors (exit 2)
/// and a failed grammar as the judge's (exit 3); `judge grade --similarity`
/// too.
pub(super) fn analyse(
    request: &run::Request<'_>,
    hint: &dyn Fn() -> String,
) -> Result<run::Analysis, Error> {
    run::run(request).map_err(|error| match error {
        run::RunError::Discover(walk @ crate::grade::DiscoverError::Walk(_)) => Error::from(walk),
        run::RunError::Base(similar::class::BaseError::Tokenize(_))
        | run::RunError::Tokenize(_) => Error::judge(error),
        run::RunError::Base(_) => UsageError::new(
            error.to_string(),
            Some("--base holds one `<problem>.<ext>` file per problem and language".to_owned()),
        )
        .into(),
        run::RunError::Discover(_) | run::RunError::NoHandIns { .. } => {
            UsageError::new(error.to_string(), Some(hint())).into()
        }
    })
}

/// `judge grade --similarity`: the comparison for the class page, run
/// before anything is graded so that a mistake costs nothing. Refused
/// without an HTML report, and for students (`--student-view`, which
/// `from_flag` says, or `student-view` of judge.toml).
pub(super) fn for_grade(
    asked: bool,
    config: &JudgeConfig,
    reports: &ReportArgs,
    from_flag: bool,
) -> Result<Option<run::Analysis>, Error> {
    if !asked {
        return Ok(None);
    }
    if from_flag || config.student_view {
        let why = if from_flag {
            "`--student-view`"
        } else {
            "`student-view = true` in judge.toml"
        };
        return Err(UsageError::new(
            format!(
                "`--similarity` is not for students: refused with {why} (the similarity of \
                 hand-ins is evidence for the teacher)"
            ),
            Some(
                "grade once for the students and once with `--similarity` for yourself".to_owned(),
            ),
        )
        .into());
    }
    if reports.html.is_none() {
        return Err(UsageError::new(
            "`--similarity` adds a section to the HTML class page, and no `--html` is given",
            Some("add `--html FILE` (say `--html grades.html`)".to_owned()),
        )
        .into());
    }
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
    let request = run::Request {
        config,
        problems: None,
        base: None,
        min_tokens: similar::DEFAULT_MIN_TOKENS,
    };
    let analysis = analyse(&request, &hint)?;
    for skipped in &analysis.report.skipped {
        say(&format!(
            "similarity: skipped: {}: {}",
            skipped.path, skipped.reason
        ));
    }
    Ok(Some(analysis))
}
