//! `judge grade --package DIR`'s one call, [`run`]: the checks, the
//! package built and loaded, the grade, the reports, the table and what it
//! says, in the order the command line prints them.

use super::before_tests::stopped_grade;
use super::{
    grade, refuse_similarity, start, time_limit, Before, PackageOptions, PackagePlan, StartError,
};
use crate::config::judge::JudgeConfig;
use crate::discovery::Shard;
use crate::exit::Outcome;
use crate::grading::console::Console;
use crate::grading::progress::Progress;
use crate::grading::{package_table, reports, resume, settings, stopped, CommandError};
use crate::interrupt::Cancellation;
use crate::report::json::BeforeTests;
use crate::report::targets::Targets;
use crate::runner::LinkScope;
use std::path::Path;

/// What `judge grade --package DIR` was given.
#[derive(Debug)]
pub(crate) struct PackageCommand<'a> {
    /// The package's folder.
    pub(crate) dir: &'a Path,
    /// `--config FILE`.
    pub(crate) config: Option<&'a Path>,
    /// `--json FILE` and the report files asked for.
    pub(crate) reports: Targets<'a>,
    /// `--jobs N`.
    pub(crate) jobs: Option<u64>,
    /// `--all-tests`.
    pub(crate) all_tests: bool,
    /// `--shard K/N`.
    pub(crate) shard: Option<Shard>,
    /// `--resume REPORT`.
    pub(crate) resume: Option<&'a Path>,
    /// `-q`.
    pub(crate) quiet: bool,
    /// `--student-view`.
    pub(crate) student_view: bool,
    /// `--similarity` (refused: a package's examples are no class).
    pub(crate) similarity: bool,
}

/// The package's build or the grading layer refused it before anything ran.
impl From<StartError> for CommandError {
    fn from(error: StartError) -> Self {
        match error {
            StartError::Grading(error) => CommandError::Grading(error),
            StartError::Prepare(error) => CommandError::Prepare(error),
        }
    }
}

/// `judge grade --package DIR`, in its order: the report paths checked,
/// `--similarity` refused, no report inside the package and no platform's
/// file that could not be written; the configuration loaded; the package
/// built and loaded ([`start`]) and its stated time limit said; its time
/// limit derived when it states none, and said ([`time_limit`]); the
/// earlier report to resume; the grade with its progress ([`grade`]); the
/// resume's summary; every report that can be written written, then what
/// that came to and the table ([`reports::say_settled`]); the journal
/// removed; the format's hints; what an interruption left. A signal before
/// any test ran ends it with the reports of a grade of nothing
/// ([`end_before_tests`]). Returns whether every submission got what its
/// folder demands, or the interruption.
pub(crate) fn run(
    command: &PackageCommand<'_>,
    console: &mut dyn Console,
) -> Result<Outcome, CommandError> {
    let (dir, reports) = (command.dir, &command.reports);
    reports.check()?;
    refuse_similarity(command.similarity)?;
    reports.refuse_among(&[dir])?;
    reports::refuse_unwritable_platforms(&reports.files)?;
    let config = JudgeConfig::load_or_defaults(command.config)?;
    let student_view = settings::student_view(command.student_view, &config);
    // Before the package builds its `data/` (generators.yaml), whose
    // programs a signal must stop too (issue #34).
    let cancel = Cancellation::on_signals()?;
    let plan = match start(dir, &config, &cancel, &mut |line| console.say(line))? {
        Before::Done(plan) => plan,
        Before::Stopped(doing) => {
            return end_before_tests(command, &config, doing, None, &cancel, console)
        }
    };
    if let Some(line) = package_table::stated_line(&plan) {
        console.say(&line);
    }
    console.announce_isolation();
    // Derived before `--resume` is read and the journal started: a signal
    // now leaves both as they were.
    let time_limit_ms =
        match time_limit(&plan, dir, &config, command.jobs, &cancel, &mut |derived| {
            console.say(&package_table::derived_line(
                derived,
                plan.time_resolution_ms,
                student_view.is_some(),
            ));
        })? {
            Before::Done(limit) => limit,
            Before::Stopped(doing) => {
                return end_before_tests(command, &config, doing, Some(&plan), &cancel, console)
            }
        };
    let resume::Opened {
        mut resume,
        json,
        journal,
    } = resume::open(reports.json, command.resume, &mut |line| console.say(line))?;
    console.start_progress(command.quiet);
    let mut progress = Progress::new();
    let (graded, journal) = grade(
        &plan,
        dir,
        &config,
        PackageOptions {
            time_limit_ms,
            jobs: command.jobs,
            all_tests: command.all_tests,
            shard: command.shard,
            resume: resume.as_mut(),
            journal,
            cancel: &cancel,
        },
        &mut |event| {
            progress.observe(&event);
            console.progress(&progress.line());
        },
    )?;
    console.end_progress();
    if let Some(resume) = &resume {
        console.say(&resume.summary());
    }
    // Each report that can be written is, even when another (or the
    // journal) cannot, as for `judge grade`.
    let written = reports::write_graded(
        &graded.report,
        json,
        &reports.files.clone().with_config(&config),
        student_view.is_some(),
        &plan.link_scope,
        None,
        journal,
    );
    let to_stdout = Targets {
        json,
        files: reports.files.clone(),
    }
    .any_to_stdout();
    let journal = reports::say_settled(
        written,
        &graded.report,
        command.quiet,
        console,
        &mut |console, quiet| {
            if !to_stdout {
                console.write(&package_table::table(
                    &graded,
                    quiet,
                    student_view.is_some(),
                ))?;
            }
            Ok(())
        },
    )?;
    if let Some(journal) = journal {
        journal.remove()?;
    }
    for hint in &graded.hints {
        console.hint(hint);
    }
    let stopped_by = cancel.signal();
    if let Some(signal) = stopped_by {
        console.say(&package_table::interrupted(signal.name()));
    }
    Ok(graded.outcome().unless_stopped(stopped_by))
}

/// The end of a grade that SIGINT or SIGTERM stopped before any test ran,
/// while `doing` (with the package's `plan` when it was loaded by then):
/// every report asked for is written, holding [`stopped_grade`], each
/// saying that nothing was graded ([`stopped::end`]).
fn end_before_tests(
    command: &PackageCommand<'_>,
    config: &JudgeConfig,
    doing: BeforeTests,
    plan: Option<&PackagePlan>,
    cancel: &Cancellation,
    console: &mut dyn Console,
) -> Result<Outcome, CommandError> {
    let stopped = stopped_grade(doing, plan, config, command.shard);
    let reports = &command.reports;
    let targets = Targets {
        json: reports.json,
        files: reports.files.clone().with_config(config),
    };
    // Nothing was graded, so no source is shown; a hand-in's rule where no
    // package was loaded.
    let sources = plan.map_or(LinkScope::HandIn, |plan| plan.link_scope.clone());
    let ending = stopped::Ending {
        targets: &targets,
        student_view: settings::student_view(command.student_view, config).is_some(),
        sources: &sources,
        section: None,
        quiet: command.quiet,
        resume: command.resume,
        doing: None,
    };
    Ok(stopped::end(&stopped, ending, cancel, console)?)
}
