//! `judge grade`'s grading: a plan of what a class's submissions folder
//! holds (what is graded, what is ignored and why, every package loaded),
//! then one call that grades it into a [`Grade`]; and the command's one
//! call ([`run`]: the checks, the plan, the grade, the reports and what it
//! says).

use super::console::Console;
pub(crate) use super::problem::ClassEvent;
use super::problem::{grade_problem, ProblemGraded, ProblemJob, SharedResume};
use super::progress::Progress;
use super::reports::{self, Analysing, ClassPageAnalysis, ClassPageSection};
use super::settings::{self, Overrides};
use super::side_by_side::{grade_side_by_side, Job};
use super::stopped;
use super::ungraded::{not_graded_entry, unknown_problem};
use super::usage::{NoTestsIn, UsageError};
use super::{CommandError, GradingError};
use crate::config::judge::JudgeConfig;
use crate::config::ConfigError;
use crate::discovery::{self, Entry, Shard};
use crate::exit::Outcome;
use crate::grading::grade::{Grade, GradedResult, GradedWith, ShardInfo};
use crate::grading::resume::{Journal, Resume};
use crate::interrupt::Cancellation;
use crate::package::{package_exists, Package};
use crate::report::json::{BeforeTests, JUDGE_VERSION};
use crate::report::targets::Targets;
use crate::report::{Ignored, Missing, ReportError};
use crate::runner::LinkScope;
use crate::sandbox::{DataFolder, Hidden, Isolation};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// What `judge grade` (of a class) was given.
#[derive(Debug)]
pub(crate) struct GradeCommand<'a> {
    /// `--config FILE`.
    pub(crate) config: Option<&'a Path>,
    /// `--problems-dir DIR`.
    pub(crate) problems_dir: Option<&'a Path>,
    /// `--json FILE` and the report files asked for.
    pub(crate) reports: Targets<'a>,
    /// `--shard K/N`.
    pub(crate) shard: Option<Shard>,
    /// `--jobs N`.
    pub(crate) jobs: Option<u64>,
    /// `--all-tests`.
    pub(crate) all_tests: bool,
    /// `-q`: no table and no progress bar.
    pub(crate) quiet: bool,
    /// `--resume REPORT`.
    pub(crate) resume: Option<&'a Path>,
    /// `--student-view`.
    pub(crate) student_view: bool,
}

/// `judge grade` of a class, in its order: the report paths checked, the
/// configuration loaded, no report among the hand-ins and no platform's
/// file that could not be written; a platform's student told when there is
/// nothing to grade ([`reports::write_nothing_to_grade`]); the signal
/// handlers installed; the class page's `analysis` made (`--similarity`)
/// and its lines said; the plan ([`plan`]: a platform's file of several
/// students refused) and what it ignores; when a signal stopped the
/// comparison, the search for hand-ins or the packages' load, the end of a
/// grade of nothing ([`stopped::end`], every report asked for written, a
/// resumed grade's earlier ones left as they were); the earlier report to
/// resume ([`super::resume::open`]); the grade with its
/// progress and the settings' warnings ([`grade_journaled`]); the resume's
/// summary; the end of a grade ([`reports::end_grade`]: the reports, the
/// table, the summary); the journal removed; what an interruption left.
/// Returns the outcome of the verdicts, or the interruption's.
pub(crate) fn run<A: ClassPageAnalysis>(
    command: &GradeCommand<'_>,
    analysis: &A,
    console: &mut dyn Console,
) -> Result<Outcome, CommandError<A::Error>> {
    let reports = &command.reports;
    reports.check()?;
    let problems_dir = command.problems_dir;
    let config = crate::package::load_config(command.config, problems_dir)?;
    reports.refuse_among(&[config.submissions.as_path()])?;
    reports::refuse_unwritable_platforms(&reports.files)?;
    let files = reports.files.clone().with_config(&config);
    // A platform's student gets a results file even when there is nothing
    // to grade; without one that says so, discovery's error stands.
    let (nothing, failures) = reports::write_nothing_to_grade(&config, &files);
    for error in failures {
        console.say(&reports::error_line(&error));
    }
    if let Some(nothing) = nothing {
        console.say(&nothing.line);
        return Ok(nothing.outcome);
    }
    let student_view = settings::student_view(command.student_view, &config);
    // Before the comparison (`--similarity`) and the packages' load: a
    // signal in either must still leave the reports, and a package's
    // programs that run as it loads (its validator checks its tests) must
    // be stopped too (issue #34).
    let cancel = Cancellation::on_signals()?;
    let analysed = analysis
        .analyse(&config, student_view, reports.files.has_pages(), &cancel)
        .map_err(CommandError::Analysis)?;
    let (section, compared) = match analysed {
        Analysing::NotAsked => (None, true),
        Analysing::Made(analysed) => {
            for line in analysed.lines {
                console.say(&line);
            }
            (Some(analysed.section), true)
        }
        Analysing::Stopped => (None, false),
    };
    let planned = plan(
        &config,
        problems_dir,
        command.shard,
        &cancel,
        &|id, hidden| Package::load_hiding(problems_dir, id, Some(&config), hidden),
    )?;
    // A comparison stopped leaves the plan stopped too, once discovery
    // has found what the reports list.
    let (plan, stopped_at) = match (planned, compared) {
        (Planned::Ready(plan), true) => (plan, None),
        (Planned::Stopped(plan, at), true) => (plan, Some(at)),
        (Planned::Ready(plan) | Planned::Stopped(plan, _), false) => {
            (plan, Some(StoppedAt::doing(BeforeTests::ComparingHandIns)))
        }
    };
    // A one-student platform file of a class: refused before anything runs.
    reports::refuse_several_students(&reports.files, &plan.students())?;
    // Said up front and in the JSON: what a teacher's folder held that is
    // not graded.
    for ignored in &plan.ignored {
        console.say(&crate::report::human::visible_name(&format!(
            "ignored: {}: {}",
            ignored.path, ignored.reason
        )));
    }
    if let Some(at) = stopped_at {
        let words = at.words();
        let ending = stopped::Ending {
            targets: &Targets {
                json: reports.json,
                files,
            },
            student_view: student_view.is_some(),
            sources: &LinkScope::HandIn,
            section: section
                .as_ref()
                .map(|section| section as &dyn ClassPageSection),
            quiet: command.quiet,
            resume: command.resume,
            doing: words.as_deref(),
        };
        let stopped = plan.stopped_grade(at.doing, &config);
        return Ok(stopped::end(&stopped, ending, &cancel, console)?);
    }
    let super::resume::Opened {
        mut resume,
        json,
        journal,
    } = super::resume::open(reports.json, command.resume, &mut |line| console.say(line))?;
    console.announce_isolation();
    console.start_progress(command.quiet);
    let mut progress = Progress::new();
    let overrides = Overrides {
        jobs: command.jobs,
        ..Overrides::default()
    };
    let (report, journal) = grade_journaled(
        &plan,
        &config,
        &overrides,
        command.all_tests,
        resume.as_mut(),
        &cancel,
        journal,
        &mut |event| {
            progress.observe(&event);
            console.progress(&progress.line());
            if let ClassEvent::Settings(warning) = event {
                console.warn(warning);
            }
        },
    )?;
    console.end_progress();
    if let Some(resume) = &resume {
        console.say(&resume.summary());
    }
    let journal = reports::end_grade(
        &report,
        &Targets { json, files },
        command.quiet,
        student_view.is_some(),
        section
            .as_ref()
            .map(|section| section as &dyn ClassPageSection),
        journal,
        console,
    )?;
    // The report holds every result now: the journal has done its work.
    if let Some(journal) = journal {
        journal.remove()?;
    }
    let stopped_by = cancel.signal();
    if let Some(signal) = stopped_by {
        let interrupted = crate::report::human::interrupted(
            &reports::Shown::of(&report).view(),
            signal.name(),
            json,
        );
        for line in &interrupted.lines {
            console.say(line);
        }
        if let Some(hint) = &interrupted.hint {
            console.hint(hint);
        }
    }
    Ok(super::policy::grade_outcome(&report).unless_stopped(stopped_by))
}

/// What a class run will grade, and what it will not.
#[derive(Debug)]
pub(crate) struct ClassPlan {
    /// The (submission, problem) pairs of this run (of its shard).
    pub(crate) entries: Vec<Entry>,
    /// Files of the submissions folder that are not graded, and why.
    pub(crate) ignored: Vec<Ignored>,
    /// The class's (student, problem) pairs with no hand-in (whole run).
    pub(crate) missing: Vec<Missing>,
    /// Pairs in the whole run, before `--shard`.
    pub(crate) pairs: usize,
    pub(crate) shard: Option<Shard>,
    /// Every package the entries name that exists, loaded.
    pub(crate) packages: BTreeMap<String, Package>,
    /// What no run or compile of the grade may see (`super::hidden`),
    /// given to every package's programs already.
    pub(crate) hidden: Arc<Hidden>,
}

impl ClassPlan {
    /// Who the grade is of: the students of this run's hand-ins and of the
    /// class's pairs with none (with repeats).
    pub(crate) fn students(&self) -> Vec<&str> {
        self.entries
            .iter()
            .map(|entry| entry.student.as_str())
            .chain(self.missing.iter().map(|pair| pair.student.as_str()))
            .collect()
    }

    /// Which part of a split run this is, with the pairs of the whole run.
    fn shard_info(&self) -> Option<ShardInfo> {
        self.shard.map(|shard| ShardInfo {
            index: shard.index,
            count: shard.count,
            pairs: Some(self.pairs),
        })
    }

    /// The grade of this class stopped while `doing`, before any test ran
    /// (issue #34): nothing graded, and all discovery found: every pair of
    /// this run (of its shard) not graded, with its student; the files
    /// ignored; the class's pairs with no hand-in.
    fn stopped_grade(&self, doing: BeforeTests, config: &JudgeConfig) -> Grade {
        Grade {
            shard: self.shard_info(),
            not_graded: self.entries.iter().map(not_graded_entry).collect(),
            ignored: self.ignored.clone(),
            missing: self.missing.clone(),
            ..stopped::nothing_graded(doing, config.layout, GradedWith::of(config))
        }
    }
}

/// What planning a class came to ([`plan`]).
#[derive(Debug)]
pub(crate) enum Planned {
    /// Every package loaded: ready to grade.
    Ready(ClassPlan),
    /// SIGINT or SIGTERM stopped it there (issue #34): what discovery
    /// found is whole, the packages are not all loaded, and nothing is to
    /// be graded.
    Stopped(ClassPlan, StoppedAt),
}

/// Where a grade of a class was when a signal stopped it before any test
/// ran.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct StoppedAt {
    /// The step, as the reports name it.
    pub(crate) doing: BeforeTests,
    /// The package that was loading, its place among the packages the
    /// grade loads and how many they are: (`sum`, 2, 3).
    pub(crate) loading: Option<(String, usize, usize)>,
}

impl StoppedAt {
    /// Stopped while `doing`, no package loading.
    fn doing(doing: BeforeTests) -> StoppedAt {
        StoppedAt {
            doing,
            loading: None,
        }
    }

    /// The words of the line that ends the grade, when the step's own do
    /// not say it truly: which of several packages was loading.
    fn words(&self) -> Option<String> {
        self.loading
            .as_ref()
            .map(|(id, place, count)| crate::report::human::while_loading(id, *place, *count))
    }
}

/// Finds the submissions under `config`'s folder and layout, keeps
/// `shard`'s part, and loads every package they name with `load` before
/// anything runs: a broken problem.toml is a configuration error (exit 2).
/// `load` is given what the grade hides so far, for the package's programs
/// that run while it loads. What the whole grade hides is gathered on the
/// way: the submissions folder, every package's secret folders, each
/// hand-in's folder. A `problems_dir` that is not a folder is a
/// configuration error before anything is searched. SIGINT or SIGTERM
/// (`cancel`) that came before the hand-ins were all found, or while a
/// package loads (the program it ran killed, its failure then no error),
/// stops the plan before any other package loads: what was found is
/// returned as [`Planned::Stopped`], saying where, to be graded by nobody
/// (issue #34).
pub(crate) fn plan(
    config: &JudgeConfig,
    problems_dir: Option<&Path>,
    shard: Option<Shard>,
    cancel: &Cancellation,
    load: &dyn Fn(&str, &Hidden) -> Result<Package, ConfigError>,
) -> Result<Planned, GradingError> {
    if let Some(dir) = problems_dir {
        crate::package::check_problems_dir(dir)?;
    }
    let discovery = discovery::discover(
        &config.submissions,
        config.layout,
        config.problems.as_deref(),
    )
    .map_err(|error| match error {
        discovery::DiscoverError::Missing { .. }
        | discovery::DiscoverError::NotAFolder { .. }
        | discovery::DiscoverError::Empty { .. } => UsageError::SubmissionsFolder {
            error,
            config: config.path.clone(),
        }
        .into(),
        error @ discovery::DiscoverError::Walk(_) => GradingError::Discover(error),
    })?;
    // No run sees the class's hand-ins where they were handed in (only its
    // own copy in the judge's workspace).
    let mut hidden = super::hidden::Gathering::new();
    hidden.add(DataFolder::Submissions, &config.submissions);
    // A file named after no problem (`README.txt`, `rook.py`) is not a
    // submission: ignored with the reason, never a gradebook row.
    let known = crate::package::package_ids(problems_dir);
    let mut ignored_files = discovery.ignored;
    let class = config.layout != crate::config::judge::Layout::Expected;
    let runs = |path: &Path| !class || config.runs_as(path).is_some();
    // A student folder, or a hand-in that runs named after the student,
    // makes a student of the class (with a row per problem).
    let students: Vec<String> = discovery
        .students
        .into_iter()
        .filter(|(_, files)| files.is_empty() || files.iter().any(|path| runs(path)))
        .map(|(student, _)| student)
        .collect();
    let (named, unknown): (Vec<Entry>, Vec<Entry>) = discovery
        .entries
        .into_iter()
        .partition(|entry| package_exists(problems_dir, &entry.problem));
    for entry in unknown {
        for path in std::iter::once(&entry.path).chain(&entry.others) {
            ignored_files.push(discovery::Ignored {
                path: path.clone(),
                reason: format!(
                    "`{}` is not a problem (known: {}){}",
                    entry.problem,
                    known.join(", "),
                    crate::suggest::did_you_mean(&entry.problem, known.iter().map(String::as_str))
                ),
            });
        }
    }
    let mut entries = Vec::with_capacity(named.len());
    for entry in named {
        // A file in no configured language that is not executable
        // (`README.txt` in a problem folder) is not a hand-in: ignored.
        let (files, refused): (Vec<_>, Vec<_>) = std::iter::once(entry.path.clone())
            .chain(entry.others.iter().cloned())
            .partition(|path| runs(path));
        ignored_files.extend(refused.into_iter().map(|path| discovery::Ignored {
            path,
            reason: config.not_runnable(None),
        }));
        if let Some((first, others)) = files.split_first() {
            entries.push(Entry {
                path: first.clone(),
                others: others.to_vec(),
                ..entry
            });
        }
    }
    ignored_files.sort_by(|a, b| a.path.cmp(&b.path));
    if entries.is_empty() {
        return Err(UsageError::NoKnownProblem {
            folder: config.submissions.clone(),
            ignored: ignored_files.len(),
            first_ignored: ignored_files.first().cloned(),
        }
        .into());
    }
    let ignored = ignored_files
        .iter()
        .map(|ignored| Ignored {
            path: ignored.path.display().to_string(),
            reason: ignored.reason.clone(),
        })
        .collect();
    let missing = missing_pairs(config, &entries, &students);
    let pairs = entries.len();
    let entries = match shard {
        Some(shard) => shard.select(entries),
        None => entries,
    };
    // Each package once, in the order of the run.
    let mut to_load: Vec<&str> = Vec::new();
    for entry in &entries {
        if !to_load.contains(&entry.problem.as_str())
            && package_exists(problems_dir, &entry.problem)
        {
            to_load.push(&entry.problem);
        }
    }
    let mut packages: BTreeMap<String, Package> = BTreeMap::new();
    // A signal while the hand-ins were found: no package is loaded.
    let mut stopped = cancel
        .is_cancelled()
        .then(|| StoppedAt::doing(BeforeTests::FindingHandIns));
    let loading = if stopped.is_some() {
        &[][..]
    } else {
        &to_load[..]
    };
    for (place, id) in loading.iter().enumerate() {
        // A signal before the load starts stops it too; one while it loads
        // makes what it cut short fail (a validator killed): the
        // interruption is what ends the plan, not that failure.
        let loaded = (!cancel.is_cancelled()).then(|| load(id, hidden.so_far()));
        let package = match loaded {
            Some(loaded) if !cancel.is_cancelled() => loaded?,
            _ => {
                stopped = Some(StoppedAt {
                    doing: BeforeTests::LoadingPackage,
                    loading: Some(((*id).to_owned(), place + 1, to_load.len())),
                });
                break;
            }
        };
        hidden.package(&package);
        if package.tests().is_empty() && config.random_tests == 0 {
            return Err(UsageError::NoTests {
                id: package.id().to_owned(),
                missing: NoTestsIn::Package,
            }
            .into());
        }
        packages.insert((*id).to_owned(), package);
    }
    hidden.hand_ins(entries.iter().map(|entry| entry.path.as_path()));
    let hidden = hidden.done(packages.values());
    let plan = ClassPlan {
        entries,
        ignored,
        missing,
        pairs,
        shard,
        packages,
        hidden,
    };
    Ok(match stopped {
        Some(doing) => Planned::Stopped(plan, doing),
        None => Planned::Ready(plan),
    })
}

/// Each (student, problem) of a class with no hand-in: the problems are
/// `problems` of judge.toml, else those someone handed in; the students,
/// `students` and everyone graded. None for layout `expected` (examples,
/// not a class).
fn missing_pairs(config: &JudgeConfig, entries: &[Entry], students: &[String]) -> Vec<Missing> {
    if config.layout == crate::config::judge::Layout::Expected {
        return Vec::new();
    }
    let handed_in: std::collections::BTreeSet<(&str, &str)> = entries
        .iter()
        .map(|entry| (entry.student.as_str(), entry.problem.as_str()))
        .collect();
    let students: std::collections::BTreeSet<&str> = entries
        .iter()
        .map(|entry| entry.student.as_str())
        .chain(students.iter().map(String::as_str))
        .collect();
    let problems: Vec<&str> = match &config.problems {
        Some(problems) => problems.iter().map(String::as_str).collect(),
        None => {
            let mut seen: Vec<&str> = entries.iter().map(|entry| entry.problem.as_str()).collect();
            seen.sort_unstable();
            seen.dedup();
            seen
        }
    };
    let mut missing = Vec::new();
    for student in &students {
        for problem in &problems {
            if !handed_in.contains(&(student, problem)) {
                missing.push(Missing {
                    student: (*student).to_owned(),
                    problem: (*problem).to_owned(),
                });
            }
        }
    }
    missing
}

/// [`grade`], appending each finished pair to `journal` as it finishes (so
/// `--resume` can read them after a kill). A journal that cannot be written
/// stops the grade at once: a grade that cannot keep its results must not
/// run on and lose them at the end. Returns the report of what finished and
/// the journal, or the journal's error.
#[expect(
    clippy::too_many_arguments,
    reason = "grade's arguments and the journal"
)]
pub(crate) fn grade_journaled(
    plan: &ClassPlan,
    config: &JudgeConfig,
    overrides: &Overrides,
    all_tests: bool,
    resume: Option<&mut Resume>,
    cancel: &Cancellation,
    mut journal: Option<Journal>,
    on_event: &mut dyn FnMut(ClassEvent<'_>),
) -> Result<(Grade, Result<Option<Journal>, ReportError>), GradingError> {
    let mut journal_error = None;
    let report = grade(
        plan,
        config,
        overrides,
        all_tests,
        resume,
        cancel,
        &mut |graded| {
            if let Some(writing) = journal.as_mut() {
                if let Err(error) = writing.append(graded) {
                    cancel.cancel();
                    journal_error = Some(error);
                    journal = None;
                }
            }
        },
        on_event,
    )?;
    Ok((report, journal_error.map_or(Ok(journal), Err)))
}

/// Grades `plan`: each problem's submissions in one runner call (each
/// problem on its own thread, side by side, as `super::side` says; each
/// compiled once, the tests shared, running the tests
/// [`super::policy::tests_to_run`] says for the layout and `all_tests`),
/// results `resume` may reuse taken from it, then the time-limit warnings;
/// the report in the unsharded order. `on_finished` sees each finished
/// pair as it finishes, whichever problem it is of; `on_event` sees the
/// events in the order of a grade one problem at a time.
#[expect(
    clippy::too_many_arguments,
    reason = "grade's arguments and its two sinks"
)]
pub(crate) fn grade(
    plan: &ClassPlan,
    config: &JudgeConfig,
    overrides: &Overrides,
    all_tests: bool,
    resume: Option<&mut Resume>,
    cancel: &Cancellation,
    on_finished: &mut dyn FnMut(&GradedResult),
    on_event: &mut dyn FnMut(ClassEvent<'_>),
) -> Result<Grade, GradingError> {
    let mut results = Vec::with_capacity(plan.entries.len());
    let mut not_graded = Vec::new();
    on_event(ClassEvent::Pairs(plan.entries.len()));
    let mut by_problem: BTreeMap<&str, Vec<&Entry>> = BTreeMap::new();
    for entry in &plan.entries {
        by_problem.entry(&entry.problem).or_default().push(entry);
    }
    // Each problem on its own thread, their events passed on in this order
    // (see `super::side`); the runner keeps all their runs within `jobs`.
    let resume = SharedResume::new(resume);
    let mut jobs: Vec<Job<'_>> = Vec::with_capacity(by_problem.len());
    for (id, group) in by_problem {
        let resume = &resume;
        jobs.push(match plan.packages.get(id) {
            Some(package) => Box::new(move |on_event: &mut dyn FnMut(ClassEvent<'_>)| {
                on_event(ClassEvent::Problem(id));
                let resolved = settings::resolve(overrides, config, package);
                for warning in &resolved.warnings {
                    on_event(ClassEvent::Settings(warning));
                }
                let job = ProblemJob {
                    package,
                    entries: &group,
                    config,
                    settings: &resolved.settings,
                    hidden: &plan.hidden,
                    all_tests,
                };
                grade_problem(&job, resume, cancel, on_event)
            }),
            None => Box::new(move |on_event: &mut dyn FnMut(ClassEvent<'_>)| {
                let mut results = Vec::with_capacity(group.len());
                for entry in group {
                    let graded = unknown_problem(entry, config);
                    on_event(ClassEvent::Graded);
                    on_event(ClassEvent::Finished(&graded));
                    results.push(graded);
                }
                Ok(ProblemGraded {
                    results,
                    not_graded: Vec::new(),
                })
            }),
        });
    }
    // One more problem than cores: enough to overlap one problem's waits,
    // few enough that the sandboxes set up at once stay bounded.
    let at_once = crate::runner::available_cores() + 1;
    for graded in grade_side_by_side(jobs, at_once, &|| cancel.cancel(), on_finished, on_event)? {
        results.extend(graded.results);
        not_graded.extend(graded.not_graded);
    }
    results.sort_by(|a, b| {
        discovery::order_key(Path::new(&a.result.submission), &a.result.problem).cmp(
            &discovery::order_key(Path::new(&b.result.submission), &b.result.problem),
        )
    });
    not_graded.sort_by(|a, b| {
        discovery::order_key(Path::new(&a.submission), &a.problem)
            .cmp(&discovery::order_key(Path::new(&b.submission), &b.problem))
    });
    Ok(Grade {
        isolation: serde_json::to_value(Isolation::detect()).ok(),
        layout: config.layout,
        shard: plan.shard_info(),
        judge_version: Some(JUDGE_VERSION.to_owned()),
        interrupted: cancel.signal().is_some(),
        // Its tests ran, or were about to: a signal that came before is
        // the caller's to record.
        interrupted_while: None,
        not_graded,
        ignored: plan.ignored.clone(),
        missing: plan.missing.clone(),
        graded_with: Some(GradedWith::of(config)),
        results,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problems_folder_that_is_not_there_is_refused_before_any_search() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let mut config = JudgeConfig::defaults().expect("the defaults");
        // A submissions folder that is not there either: the problems
        // folder is what the error names.
        config.submissions = dir.path().join("no-submissions");
        let problems = dir.path().join("no-problems");
        let error = plan(
            &config,
            Some(&problems),
            None,
            &Cancellation::new(),
            &|id, _| Package::load(None, id),
        )
        .expect_err("refused");
        assert!(matches!(error, GradingError::Config(_)), "{error}");
        assert!(error.to_string().contains("no-problems"), "{error}");
    }

    /// A class of layout `problem/student` in a temporary folder: `alice`
    /// and `bob` hand in `rooks`, `alice` `mayan` too.
    fn class_of_two_problems() -> (tempfile::TempDir, JudgeConfig) {
        let dir = tempfile::tempdir().expect("a temporary folder");
        for file in ["rooks/alice.py", "rooks/bob.py", "mayan/alice.py"] {
            let path = dir.path().join("submissions").join(file);
            fs_err::create_dir_all(path.parent().expect("a folder")).expect("the folder");
            fs_err::write(&path, "print(0)\n").expect("the hand-in");
        }
        let mut config = JudgeConfig::defaults().expect("the defaults");
        config.submissions = dir.path().join("submissions");
        config.layout = crate::config::judge::Layout::ProblemStudent;
        (dir, config)
    }

    /// See: issue #34. A signal that came while the hand-ins were found
    /// stops the plan there: no package is loaded, and the plan holds
    /// every pair discovery found, for the reports to list. (Before, the
    /// first package was loaded and the stop said "loading the package".)
    #[test]
    fn a_signal_while_the_hand_ins_are_found_loads_no_package() {
        let (_dir, config) = class_of_two_problems();
        let cancel = Cancellation::new();
        cancel.cancel();
        let loads = std::cell::Cell::new(0);
        let planned = plan(&config, None, None, &cancel, &|id, _| {
            loads.set(loads.get() + 1);
            Package::load(None, id)
        })
        .expect("planned");
        let Planned::Stopped(plan, at) = planned else {
            panic!("not stopped: {planned:?}");
        };
        assert_eq!(at, StoppedAt::doing(BeforeTests::FindingHandIns));
        assert_eq!(at.words(), None);
        assert_eq!(loads.get(), 0);
        assert!(plan.packages.is_empty());
        assert_eq!(plan.entries.len(), 3);
    }

    /// See: issue #34. A signal while the second of two packages loads
    /// says which one, of how many: the line is not "the package".
    #[test]
    fn a_signal_while_one_of_two_packages_loads_names_it() {
        let (_dir, config) = class_of_two_problems();
        let cancel = Cancellation::new();
        let planned = plan(&config, None, None, &cancel, &|id, _| {
            if id == "rooks" {
                cancel.cancel();
            }
            Package::load(None, id)
        })
        .expect("planned");
        let Planned::Stopped(plan, at) = planned else {
            panic!("not stopped: {planned:?}");
        };
        assert_eq!(at.doing, BeforeTests::LoadingPackage);
        assert_eq!(at.loading, Some(("rooks".to_owned(), 2, 2)));
        assert_eq!(
            at.words().as_deref(),
            Some("while loading the packages: `rooks`, 2 of 2")
        );
        assert_eq!(plan.packages.keys().collect::<Vec<_>>(), ["mayan"]);
    }
}
