//! `judge stress`'s work and wording: random tests against one submission
//! until it fails, then the smallest failing input found by the problem's
//! shrink steps. The one home of the command (issue #33): this file is its
//! request and wording, [`search`] the search and the shrinking on the
//! runner's compile, execute and schedule steps; `cli/stress.rs` only takes
//! the arguments and prints.
//!
//! What was found, the verdict and how to remake the test are
//! [`StressEvent::Message`]s for stderr; the smallest input is returned for
//! stdout (data, ready for `judge validate` or a bug report). Outcomes:
//! success, no failure in N tests (exit 0); failure, a failing input was
//! found (or the submission did not compile: CE is the submission's fault,
//! as in `judge run`; exit 1); the judge failed (JE, exit 3); interrupted by
//! SIGINT / SIGTERM (130 / 143; a failing input found before the stop is
//! still returned and written).

pub(crate) mod search;

use crate::atomic_file;
use crate::config::judge::JudgeConfig;
use crate::exit::Outcome;
use crate::grading::settings::{self, master_seed, Overrides, SettingsWarning};
use crate::grading::submission::classify;
use crate::grading::usage::UsageError;
use crate::grading::GradingError;
use crate::interrupt::{Cancellation, Signal};
use crate::package::Package;
use crate::problems::{self, text::plural};
use crate::report;
use crate::report::progress::StressProgress;
use crate::runner::events::CompileState;
use crate::runner::Workspace;
use crate::verdict::Verdict;
use search::{Failure, StressOptions, StressOutcome};
use std::path::Path;

/// Why `judge stress` could not end with an outcome: the grading layer's
/// errors (the user's mistakes, the runner failing) and the command's own.
/// [`crate::error::Error`] takes it apart, so its exit code is decided in
/// the one `match` there.
#[derive(Debug, thiserror::Error)]
pub(crate) enum StressError {
    /// A usage error, or another failure of the grading layer.
    #[error(transparent)]
    Grading(#[from] GradingError),
    /// The search met a judge error rather than a failing submission:
    /// nothing to shrink and no input to blame.
    #[error("the judge failed on {test}: {message}")]
    JudgeError { test: String, message: String },
}

/// The failures of the layers below (the runner, a file of `--out`) reach
/// the caller as the grading layer's, as they did before stress had its own
/// error.
macro_rules! through_grading {
    ($($error:ty),*) => {$(
        impl From<$error> for StressError {
            fn from(error: $error) -> Self {
                StressError::Grading(error.into())
            }
        }
    )*};
}
through_grading!(
    crate::runner::RunError,
    std::io::Error,
    crate::atomic_file::WriteError
);

/// What to stress.
#[derive(Debug)]
pub(crate) struct StressRequest<'a> {
    pub(crate) config: &'a JudgeConfig,
    pub(crate) package: &'a Package,
    /// The program: a source file in a configured language, or an executable.
    pub(crate) submission: &'a Path,
    /// The master seed flag (over judge.toml and problem.toml).
    pub(crate) seed: Option<u64>,
    /// Random tests to run at most.
    pub(crate) iterations: u64,
    /// Only this profile; every profile of the package in turn when `None`.
    pub(crate) profile: Option<&'a str>,
    /// Smaller inputs to try at most while shrinking; 0 does not shrink.
    pub(crate) shrink_runs: usize,
    pub(crate) overrides: Overrides,
    /// Also write `DIR/failing.in` and `DIR/failing.ans` here.
    pub(crate) out: Option<&'a Path>,
}

/// What a stress run tells its caller as it goes.
#[derive(Debug)]
pub(crate) enum StressEvent<'a> {
    /// A warning about the settings.
    Settings(&'a SettingsWarning),
    /// The tests are about to run (say which isolation layers are missing).
    Starting,
    /// The search moved on.
    Progress(StressProgress),
    /// The search is over: nothing more is shown on a progress line.
    Searched,
    /// A line for a person (stderr).
    Message(String),
}

/// How a stress run ended.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct StressEnd {
    /// The smallest failing input, for stdout.
    pub(crate) smallest: Option<String>,
    pub(crate) outcome: Outcome,
}

impl StressEnd {
    fn nothing_found(outcome: Outcome) -> StressEnd {
        StressEnd {
            smallest: None,
            outcome,
        }
    }
}

/// Runs `judge stress`: checks the request, searches, shrinks and words the
/// outcome.
pub(crate) fn stress(
    request: &StressRequest<'_>,
    cancel: &Cancellation,
    observer: &mut dyn FnMut(StressEvent<'_>),
) -> Result<StressEnd, StressError> {
    let package = request.package;
    let problem = &**package.problem();
    if !problem.has_generator() {
        return Err(GradingError::from(UsageError::NoGenerator {
            id: package.id().to_owned(),
        })
        .into());
    }
    let profiles: Vec<&str> = match request.profile {
        Some(name) => vec![
            problems::find_profile(problem, name)
                .map_err(|error| GradingError::from(UsageError::UnknownProfile(error)))?
                .name,
        ],
        None => package.profiles(),
    };
    // A program named on the command line: a hand-in.
    let submission = classify(
        request.submission,
        &crate::runner::LinkScope::HandIn,
        request.config,
    )?;
    let seed = master_seed(request.seed, request.config, package);
    let resolved = settings::resolve(&request.overrides, request.config, package);
    for warning in &resolved.warnings {
        observer(StressEvent::Settings(warning));
    }
    // What no run sees: the package's secret folders (its programs hide
    // them already, since it loaded).
    let mut hidden = crate::grading::hidden::Gathering::new();
    hidden.package(package);
    let hidden = hidden.done([package]);
    let options = StressOptions {
        seed,
        iterations: request.iterations,
        profiles: profiles.clone(),
        shrink_runs: request.shrink_runs,
        config: request.config,
        hidden: &hidden,
    };
    observer(StressEvent::Starting);
    let workspace = Workspace::new()?;
    let outcome = search::stress(
        problem,
        &submission,
        &resolved.settings,
        &workspace,
        &options,
        cancel,
        &mut |event| observer(StressEvent::Progress(event)),
    )?;
    observer(StressEvent::Searched);
    drop(workspace);
    let stopped_by = cancel.signal();

    let name = request.submission.display();
    let mut say = |line: String| observer(StressEvent::Message(line));
    match outcome {
        StressOutcome::NotCompiled(compile) => {
            let verdict = match compile.state() {
                CompileState::Failed(verdict) => verdict,
                CompileState::Compiled | CompileState::NotRun => Verdict::JudgeError,
            };
            let heading = if compile.toolchain_missing {
                "not compiled: the judging host has no compiler for it"
            } else {
                "compilation failed"
            };
            say(format!("{name}: {verdict}: {heading}"));
            say("-".repeat(40));
            if compile.message.is_empty() {
                say("<stderr is empty>".to_owned());
            } else {
                say(report::human::visible(compile.message.trim_end()));
            }
            say("-".repeat(40));
            Ok(StressEnd::nothing_found(Outcome::of(
                verdict != Verdict::CompileError,
                false,
            )))
        }
        StressOutcome::Passed { iterations } => {
            say(format!(
                "{name}: no failure in {iterations} random tests (seed {seed}, profiles {})",
                profiles.join(", ")
            ));
            Ok(StressEnd::nothing_found(Outcome::Success))
        }
        StressOutcome::Interrupted { iterations } => {
            say(format!(
                "{name}: interrupted: no failure in the first {iterations} random tests \
                 (seed {seed}, profiles {})",
                profiles.join(", ")
            ));
            Ok(StressEnd::nothing_found(Outcome::Interrupted(
                stopped_by.unwrap_or(Signal::Interrupt),
            )))
        }
        StressOutcome::Failed(failure) => {
            let mut end = report_failure(request, &failure, &mut say)?;
            end.outcome = end.outcome.unless_stopped(stopped_by);
            Ok(end)
        }
    }
}

/// Words a failure, writes `--out` and returns the smallest input.
fn report_failure(
    request: &StressRequest<'_>,
    failure: &Failure,
    say: &mut dyn FnMut(String),
) -> Result<StressEnd, StressError> {
    let problem = &request.package.id();
    let name = request.submission.display();
    let found = &failure.found;
    let origin = &failure.origin;
    say(format!(
        "{name}: {} on {} (random test {} of this run): {}",
        found.result.verdict, found.result.name, failure.iteration, found.result.message
    ));
    say(remake_line(
        problem,
        &origin.profile,
        origin.seed,
        origin.index,
    ));
    if found.result.verdict == Verdict::JudgeError {
        // The judge's own fault: nothing to shrink and no input to blame.
        return Err(StressError::JudgeError {
            test: found.result.name.clone(),
            message: found.result.message.clone(),
        });
    }
    say(shrink_line(request.shrink_runs, failure));
    let smallest = &failure.smallest;
    if let Some(dir) = request.out {
        fs_err::create_dir_all(dir)?;
        let input_path = dir.join("failing.in");
        let answer_path = dir.join("failing.ans");
        atomic_file::write_atomically(&input_path, smallest.input.as_bytes())?;
        atomic_file::write_atomically(
            &answer_path,
            smallest.answer.as_deref().unwrap_or_default().as_bytes(),
        )?;
        say(format!(
            "wrote `{}` and `{}`",
            input_path.display(),
            answer_path.display()
        ));
    }
    Ok(StressEnd {
        smallest: Some(smallest.input.clone()),
        outcome: Outcome::Failure,
    })
}

/// How to remake test `index` (0-based) of a run, alone: `judge gen
/// --from N --out DIR` names test N `DIR/NNN.in`, at least 3 digits wide
/// (issue #32: `--count N` made every test before it too).
fn remake_line(problem: &str, profile: &str, seed: u64, index: u64) -> String {
    let number = index + 1;
    let width = number.to_string().len().max(3);
    format!(
        "remake it: `judge gen {problem} --seed {seed} --profile {profile} --from {number} \
         --out DIR` writes it alone as `DIR/{number:0width$}.in`"
    )
}

/// What shrinking did.
fn shrink_line(shrink_runs: usize, failure: &Failure) -> String {
    let (found, smallest) = (&failure.found, &failure.smallest);
    if shrink_runs == 0 {
        "not shrunk (--shrink-runs 0)".to_owned()
    } else if failure.shrink_interrupted {
        format!(
            "interrupted while shrinking: after {} steps ({} inputs tried), {} bytes, \
             still {}: a smaller input may fail too",
            failure.shrink_steps,
            failure.shrink_runs,
            smallest.input.len(),
            smallest.result.verdict
        )
    } else if failure.shrink_steps == 0 {
        format!(
            "no smaller input fails with {} ({} tried)",
            found.result.verdict, failure.shrink_runs
        )
    } else {
        format!(
            "shrunk from {} bytes to {} bytes in {} ({} tried{}): {}: {}",
            found.input.len(),
            smallest.input.len(),
            plural(failure.shrink_steps as u64, "step", "steps"),
            plural(failure.shrink_runs as u64, "input", "inputs"),
            if failure.shrink_budget_spent {
                ", stopped at --shrink-runs"
            } else {
                ""
            },
            smallest.result.verdict,
            smallest.result.message
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_remake_line_names_the_file_gen_writes() {
        assert_eq!(
            remake_line("rooks", "small", 9, 6),
            "remake it: `judge gen rooks --seed 9 --profile small --from 7 --out DIR` \
             writes it alone as `DIR/007.in`"
        );
        assert!(remake_line("rooks", "large", 1, 12344).ends_with("`DIR/12345.in`"));
    }

    #[test]
    fn an_unknown_profile_is_a_usage_error_before_anything_runs() {
        let config = JudgeConfig::defaults().expect("the built-in defaults parse");
        let package = Package::load(None, "rooks").expect("rooks is bundled");
        let request = StressRequest {
            config: &config,
            package: &package,
            submission: Path::new("does-not-exist.c"),
            seed: None,
            iterations: 1,
            profile: Some("huge"),
            shrink_runs: 0,
            overrides: Overrides::default(),
            out: None,
        };
        let cancel = Cancellation::new();
        let error = stress(&request, &cancel, &mut |_| {}).expect_err("refused");
        assert!(
            matches!(
                error,
                StressError::Grading(GradingError::Usage(UsageError::UnknownProfile(_)))
            ),
            "{error}"
        );
        assert!(error.to_string().contains("huge"), "{error}");
    }
}
