//! Grading one problem's submissions, the step of [`super::class::grade`]
//! run once per problem, in named steps: [`ProblemJob::mode`] (how tests are
//! chosen and scored), [`ProblemJob::sort`] (reused, runnable, unrunnable),
//! [`ProblemJob::load`] (the tests and their scoring), [`run_pool`] (one
//! runner call) and [`settle`] (the TLE examples' margin re-runs).

use super::grade::GradedResult;
use super::margin::{
    close_to_the_limit, margin_of, needs_margin, time_limit_warnings, warnings_of_the_run,
};
use super::policy::Selection;
use super::score::{groups_go_unused, scoring_groups, ScorePlan};
use super::settings::{master_seed, SettingsWarning};
use super::submission::{prepare_entry, Unrunnable};
use super::ungraded::{expected_of, not_graded_entry, unrunnable};
use super::GradingError;
use crate::config::groups::GroupTree;
use crate::config::judge::JudgeConfig;
use crate::discovery::Entry;
use crate::grading::resume::{self, Fingerprint, Resume};
use crate::interrupt::Cancellation;
use crate::package::Package;
use crate::report::Ungraded;
use crate::runner::{
    self, Event, FixedTests, Settings, Submission, SubmissionResult, TestCase, TestsToRun,
    Workspace,
};
use crate::sandbox::Hidden;
use std::sync::Arc;

/// What a class run tells its observer as it goes.
#[derive(Debug)]
pub(crate) enum ClassEvent<'a> {
    /// This many pairs (submissions) are to be graded in all.
    Pairs(usize),
    /// Grading of this problem's submissions begins.
    Problem(&'a str),
    /// The settings of a problem deserve a warning.
    Settings(&'a SettingsWarning),
    /// The submissions of the problem begun run this many tests each.
    Tests(usize),
    /// What the runner did (a compile, a test, a submission finished).
    Run(Event<'a>),
    /// One more pair is graded (or reused, or found unrunnable).
    Graded,
    /// A pair's result is final, as the report will hold it (for the
    /// results journal); it comes as soon as the pair is done, before the
    /// rest of its problem.
    Finished(&'a GradedResult),
}

/// The results of `--resume`, shared by the problems graded side by side:
/// each takes its own pairs' results from it.
pub(super) type SharedResume<'a> = std::sync::Mutex<Option<&'a mut Resume>>;

/// What grading one problem needs: the package, its submissions (entries
/// naming it) and the settings resolved for it.
pub(super) struct ProblemJob<'a> {
    pub(crate) package: &'a Package,
    pub(crate) entries: &'a [&'a Entry],
    pub(crate) config: &'a JudgeConfig,
    pub(crate) settings: &'a Settings,
    /// What no run or compile of the grade may see (the grade's one value).
    pub(crate) hidden: &'a Arc<Hidden>,
    /// `--all-tests`.
    pub(crate) all_tests: bool,
}

/// One problem's graded pairs, and those an interruption left ungraded.
#[derive(Debug)]
pub(super) struct ProblemGraded {
    pub(crate) results: Vec<GradedResult>,
    pub(crate) not_graded: Vec<Ungraded>,
}

/// How a problem's tests are chosen and scored.
#[derive(Debug, PartialEq)]
struct Mode<'a> {
    /// The groups that score it; `None`: pass-fail.
    groups: Option<&'a GroupTree>,
    /// The package has groups, but random tests (in no group) make the
    /// grade pass-fail: worth a warning.
    groups_unused: bool,
    selection: Selection,
    /// The tests each submission runs when not [`Selection::Reached`].
    which: TestsToRun,
    seed: u64,
}

/// A pair to run: its entry, the submission, the file's SHA-256 and the
/// fingerprint of what its result depends on.
pub(super) struct Runnable<'a> {
    pub(crate) entry: &'a Entry,
    pub(crate) submission: Submission,
    pub(crate) sha256: Option<String>,
    pub(crate) fingerprint: String,
}

/// The problem's entries sorted by what happens to them.
#[derive(Default)]
struct Sorted<'a> {
    /// Results of `--resume` taken as they are, final.
    reused: Vec<GradedResult>,
    /// Pairs to run.
    runnable: Vec<Runnable<'a>>,
    /// Pairs that cannot run, with the reason.
    unrunnable: Vec<(&'a Entry, Unrunnable)>,
}

/// The tests of a problem and the plan that scores them by groups.
struct Loaded {
    tests: Vec<TestCase>,
    scoring: Option<ScorePlan>,
}

impl Loaded {
    fn score(&self, result: &mut SubmissionResult) {
        if let Some(scoring) = &self.scoring {
            scoring.apply(&self.tests, result);
        }
    }
}

impl<'a> ProblemJob<'a> {
    /// Random tests are in no group: such a grade is scored pass-fail.
    fn mode(&self) -> Mode<'a> {
        let package = self.package;
        // A class's grade runs the package's tests and judge.toml's random
        // ones (never a `--tests` folder).
        let own_tests_only = self.config.random_tests == 0;
        let groups = scoring_groups(package, own_tests_only);
        let selection =
            super::policy::selection(self.config.layout, self.all_tests, groups.is_some());
        Mode {
            groups_unused: groups_go_unused(package, own_tests_only),
            groups,
            selection,
            which: match selection {
                Selection::Tests(which) => which,
                Selection::Reached => TestsToRun::All,
            },
            seed: master_seed(None, self.config, package),
        }
    }

    /// Sorts the entries: a result `resume` may reuse is taken from it
    /// (reported as graded and finished at once), a file that cannot run is
    /// kept with the reason, the rest is to run.
    fn sort(
        &self,
        mode: &Mode<'_>,
        resume: &SharedResume<'_>,
        on_event: &mut dyn FnMut(ClassEvent<'_>),
    ) -> Result<Sorted<'a>, GradingError> {
        let problem = &**self.package.problem();
        let package_sha256 = resume::package_sha256(self.package)?;
        let mut sorted = Sorted::default();
        for &entry in self.entries {
            let submission = match prepare_entry(entry, self.config) {
                Ok(submission) => submission,
                Err(why) => {
                    sorted.unrunnable.push((entry, why));
                    continue;
                }
            };
            // Unreadable or refused now: compiling reports why; never
            // reused. Read as compiling reads it (never a link's target
            // where its scope does not let it lead).
            let sha256 = runner::read_submission(&entry.path, &submission.link_scope)
                .ok()
                .map(|bytes| {
                    // What is compiled: with a package's constants replaced.
                    resume::sha256_hex(&match &submission.constants {
                        Some(constants) => constants.substitute_bytes(bytes),
                        None => bytes,
                    })
                });
            let fingerprint = Fingerprint::new(
                problem,
                &package_sha256,
                &submission,
                self.settings,
                mode.which,
                mode.seed,
                self.config.random_tests,
            )
            .reached_only(mode.selection == Selection::Reached)
            .digest()?;
            let mut resume = resume
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let earlier = resume.as_deref_mut().and_then(|resume| {
                resume.take(
                    &entry.path.display().to_string(),
                    problem.id(),
                    sha256.as_deref(),
                    &fingerprint,
                )
            });
            drop(resume);
            match earlier {
                Some(earlier) => {
                    let reused = GradedResult {
                        student: entry.student.clone(),
                        expected: expected_of(entry),
                        ..earlier
                    };
                    on_event(ClassEvent::Graded);
                    on_event(ClassEvent::Finished(&reused));
                    sorted.reused.push(reused);
                }
                None => sorted.runnable.push(Runnable {
                    entry,
                    submission,
                    sha256,
                    fingerprint,
                }),
            }
        }
        Ok(sorted)
    }

    /// The problem's tests (the package's and the random ones) written
    /// under `workspace`, and the plan scoring them by `mode`'s groups.
    fn load(&self, mode: &Mode<'_>, workspace: &Workspace) -> Result<Loaded, GradingError> {
        let package = self.package;
        let tests = runner::load_tests(
            &**package.problem(),
            Some(FixedTests::Package(package.tests())),
            &package.profiles(),
            self.config.random_tests,
            mode.seed,
            workspace,
        )?;
        let scoring = ScorePlan::for_package(package, &tests, mode.groups.is_some())?;
        Ok(Loaded { tests, scoring })
    }

    /// The graded result of `runnable` from the runner's `result`, warnings
    /// not yet found.
    fn graded_result(&self, runnable: &Runnable<'_>, result: &SubmissionResult) -> GradedResult {
        let mut result = result.clone();
        // The runner names the engine (`rooks`); reports name the package.
        result.problem.clone_from(&self.package.id().to_owned());
        let limits = runnable.submission.limits(&self.settings.limits);
        GradedResult {
            result,
            student: runnable.entry.student.clone(),
            expected: expected_of(runnable.entry),
            time_limit_ms: limits.cpu_time_ms,
            memory_limit_mib: limits.memory_kib / 1024,
            warnings: Vec::new(),
            submission_sha256: runnable.sha256.clone(),
            fingerprint: Some(runnable.fingerprint.clone()),
            reused: false,
            handed_in: Vec::new(),
        }
    }
}

/// Grades one problem's submissions: one runner call, so each is compiled
/// once and the tests are shared. Results `resume` may reuse are taken from
/// it instead. A package with test groups is scored by them, running only
/// the tests they reach unless `all_tests` (see
/// [`super::policy::selection`]).
pub(super) fn grade_problem(
    job: &ProblemJob<'_>,
    resume: &SharedResume<'_>,
    cancel: &Cancellation,
    on_event: &mut dyn FnMut(ClassEvent<'_>),
) -> Result<ProblemGraded, GradingError> {
    let mode = job.mode();
    if mode.groups_unused {
        on_event(ClassEvent::Settings(&SettingsWarning::GroupsUnused {
            package: job.package.id().to_owned(),
            random: job.config.random_tests,
        }));
    }
    let sorted = job.sort(&mode, resume, on_event)?;
    let mut graded = ProblemGraded {
        results: sorted.reused,
        not_graded: Vec::new(),
    };
    // Interrupted before this problem: the results reused above are kept
    // (nothing to run), the rest waits for the next `--resume`.
    if cancel.is_cancelled() {
        graded.not_graded.extend(
            sorted
                .unrunnable
                .iter()
                .map(|(entry, _)| *entry)
                .chain(sorted.runnable.iter().map(|runnable| runnable.entry))
                .map(not_graded_entry),
        );
        return Ok(graded);
    }
    let workspace = Workspace::new()?;
    let loaded = job.load(&mode, &workspace)?;
    on_event(ClassEvent::Tests(loaded.tests.len()));
    for (entry, why) in sorted.unrunnable {
        let mut result = unrunnable(entry, job.config, &why, loaded.tests.len(), job.settings);
        loaded.score(&mut result.result);
        on_event(ClassEvent::Graded);
        on_event(ClassEvent::Finished(&result));
        graded.results.push(result);
    }
    let ran = run_pool(
        job,
        &mode,
        &sorted.runnable,
        &loaded,
        &workspace,
        cancel,
        on_event,
    )?;
    settle(
        job,
        &sorted.runnable,
        ran,
        &loaded.tests,
        cancel,
        &mut graded,
        on_event,
    )?;
    Ok(graded)
}

/// Per runnable pair, in order: the runner's result (`None`: interrupted)
/// and its graded result, with whether it is final (else a TLE example
/// whose margin [`time_limit_warnings`] re-runs).
type Ran = Vec<(Option<SubmissionResult>, Option<(GradedResult, bool)>)>;

/// Runs every runnable pair in one runner call (each distinct source
/// compiled once, the tests shared), the tests `mode` selects. A pair's
/// graded result is final as it finishes, so the journal has it before the
/// rest of the problem runs. A TLE example runs at the margin, its verdict
/// decided at 1x from the same run ([`margin_of`]); one with a TLE test
/// that could not run so (interactive) waits for its margin re-runs in
/// [`settle`] (they must not share the machine with other tests).
fn run_pool(
    job: &ProblemJob<'_>,
    mode: &Mode<'_>,
    runnable: &[Runnable<'_>],
    loaded: &Loaded,
    workspace: &Workspace,
    cancel: &Cancellation,
    on_event: &mut dyn FnMut(ClassEvent<'_>),
) -> Result<Ran, GradingError> {
    let problem = &**job.package.problem();
    let submissions: Vec<Submission> = runnable
        .iter()
        .map(|runnable| runnable.submission.clone())
        .collect();
    let position: std::collections::HashMap<String, usize> = runnable
        .iter()
        .enumerate()
        .map(|(index, runnable)| (runnable.entry.path.display().to_string(), index))
        .collect();
    let margin = margin_of(
        job.config,
        job.settings,
        mode.selection,
        runnable.iter().map(|runnable| expected_of(runnable.entry)),
    );
    let mut finished: Vec<Option<(GradedResult, bool)>> = vec![None; runnable.len()];
    let mut on_run_event = |event: Event<'_>| {
        on_event(ClassEvent::Run(event));
        let Event::SubmissionFinished { result } = event else {
            return;
        };
        let Some(&index) = position.get(&result.submission) else {
            return;
        };
        let mut graded_result = job.graded_result(&runnable[index], result);
        loaded.score(&mut graded_result.result);
        on_event(ClassEvent::Graded);
        let warnings = if needs_margin(&graded_result) {
            margin.as_ref().and_then(|margin| {
                warnings_of_the_run(&graded_result, &loaded.tests, |test| {
                    margin.passed(index, test)
                })
            })
        } else {
            Some(close_to_the_limit(&graded_result).into_iter().collect())
        };
        let settled = warnings.is_some();
        if let Some(warnings) = warnings {
            graded_result.warnings = warnings;
            on_event(ClassEvent::Finished(&graded_result));
        }
        finished[index] = Some((graded_result, settled));
    };
    let request = runner::RunRequest {
        problem,
        submissions: &submissions,
        tests: &loaded.tests,
        settings: job.settings,
        workspace,
        hidden: job.hidden,
        cancel,
        margin: margin.as_ref(),
    };
    let results = match (&loaded.scoring, mode.selection) {
        (Some(gate), Selection::Reached) => runner::run_gated(&request, gate, &mut on_run_event)?,
        _ => runner::run_selected(&request, mode.which, &mut on_run_event)?,
    };
    Ok(results.into_iter().zip(finished).collect())
}

/// Puts each pair [`run_pool`] ran into `graded`: final results as they
/// are, a TLE example's after its margin re-runs
/// ([`time_limit_warnings`]); a pair the interruption left unfinished (or
/// whose re-runs it stopped) is not graded.
fn settle(
    job: &ProblemJob<'_>,
    runnable: &[Runnable<'_>],
    ran: Ran,
    tests: &[TestCase],
    cancel: &Cancellation,
    graded: &mut ProblemGraded,
    on_event: &mut dyn FnMut(ClassEvent<'_>),
) -> Result<(), GradingError> {
    for (runnable, (result, graded_result)) in runnable.iter().zip(ran) {
        let (Some(_), Some((mut graded_result, settled))) = (result, graded_result) else {
            graded.not_graded.push(not_graded_entry(runnable.entry));
            continue;
        };
        if settled {
            graded.results.push(graded_result);
            continue;
        }
        // Warnings are part of the result (a resumed report must equal a
        // full run's): a pair interrupted while they were found is not graded.
        match time_limit_warnings(
            job.config,
            &**job.package.problem(),
            &runnable.submission,
            &graded_result,
            tests,
            job.settings,
            job.hidden,
            cancel,
        )? {
            Some(warnings) => {
                graded_result.warnings = warnings;
                on_event(ClassEvent::Finished(&graded_result));
                graded.results.push(graded_result);
            }
            None => graded.not_graded.push(not_graded_entry(runnable.entry)),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::groups::{GroupNode, GroupRules, GroupTree, ScoringStyle, TestGroup};
    use crate::config::judge::Layout;
    use crate::grading::settings::{self, Overrides};
    use std::path::PathBuf;

    fn config(layout: Layout, random_tests: u32) -> JudgeConfig {
        let mut config = JudgeConfig::defaults().unwrap();
        config.layout = layout;
        config.random_tests = random_tests;
        config.seed = Some(7);
        config
    }

    fn entry(path: PathBuf, others: Vec<PathBuf>) -> Entry {
        Entry {
            path,
            problem: "rooks".to_owned(),
            student: "alice".to_owned(),
            expected: None,
            others,
            stated: None,
            standard: None,
            constants: None,
            link_scope: crate::runner::LinkScope::HandIn,
        }
    }

    /// One group holding every test of `package`.
    fn one_group(package: &Package) -> GroupTree {
        GroupTree {
            style: ScoringStyle::Legacy,
            root: TestGroup {
                name: "data".to_owned(),
                rules: GroupRules::default(),
                children: package
                    .tests()
                    .iter()
                    .map(|test| GroupNode::Test(test.name.clone()))
                    .collect(),
            },
        }
    }

    fn settings_of(package: &Package, config: &JudgeConfig) -> Settings {
        settings::resolve(&Overrides::default(), config, package).settings
    }

    fn job<'a>(
        package: &'a Package,
        config: &'a JudgeConfig,
        settings: &'a Settings,
        entries: &'a [&'a Entry],
        all_tests: bool,
    ) -> ProblemJob<'a> {
        ProblemJob {
            package,
            entries,
            config,
            settings,
            hidden: Box::leak(Box::default()),
            all_tests,
        }
    }

    #[test]
    fn the_mode_follows_the_layout_and_all_tests() {
        let package = Package::bundled("rooks").unwrap();
        let cases = [
            (Layout::Expected, false, TestsToRun::UntilFirstFailure),
            (Layout::Expected, true, TestsToRun::All),
            (Layout::StudentProblem, false, TestsToRun::All),
            (Layout::ProblemStudent, false, TestsToRun::All),
        ];
        for (layout, all_tests, which) in cases {
            let config = config(layout, 0);
            let settings = settings_of(&package, &config);
            let mode = job(&package, &config, &settings, &[], all_tests).mode();
            assert_eq!(mode.selection, Selection::Tests(which), "{layout:?}");
            assert_eq!(mode.which, which);
            assert_eq!(mode.seed, 7, "judge.toml's seed");
            assert!(mode.groups.is_none() && !mode.groups_unused);
        }
    }

    #[test]
    fn groups_score_unless_random_tests_make_the_grade_pass_fail() {
        let mut package = Package::bundled("rooks").unwrap();
        package.set_groups(Some(one_group(&package)));
        let scored = config(Layout::StudentProblem, 0);
        let settings = settings_of(&package, &scored);
        let mode = job(&package, &scored, &settings, &[], false).mode();
        assert!(mode.groups.is_some() && !mode.groups_unused);
        assert_eq!(mode.selection, Selection::Reached);
        assert_eq!(mode.which, TestsToRun::All);
        let random = config(Layout::StudentProblem, 3);
        let settings = settings_of(&package, &random);
        let mode = job(&package, &random, &settings, &[], false).mode();
        assert!(mode.groups.is_none() && mode.groups_unused);
        assert_eq!(mode.selection, Selection::Tests(TestsToRun::All));
    }

    #[test]
    fn loading_writes_the_package_and_random_tests_and_plans_the_groups() {
        let mut package = Package::bundled("rooks").unwrap();
        let fixed = package.tests().len();
        let config = config(Layout::StudentProblem, 2);
        let workspace = Workspace::new().unwrap();
        let settings = settings_of(&package, &config);
        let scored = job(&package, &config, &settings, &[], false);
        let loaded = scored.load(&scored.mode(), &workspace).unwrap();
        assert_eq!(loaded.tests.len(), fixed + 2);
        assert_eq!(
            loaded
                .tests
                .iter()
                .filter(|test| test.random.is_some())
                .count(),
            2
        );
        assert!(loaded.scoring.is_none());
        package.set_groups(Some(one_group(&package)));
        let config = self::config(Layout::StudentProblem, 0);
        let settings = settings_of(&package, &config);
        let grouped = job(&package, &config, &settings, &[], false);
        let loaded = grouped.load(&grouped.mode(), &workspace).unwrap();
        assert_eq!(loaded.tests.len(), fixed);
        assert!(loaded.scoring.is_some());
    }

    /// A python hand-in under a temporary folder.
    fn hand_in(dir: &std::path::Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        fs_err::write(&path, text).unwrap();
        path
    }

    #[test]
    fn sorting_keeps_unrunnable_pairs_apart_and_reuses_what_resume_holds() {
        let dir = tempfile::tempdir().unwrap();
        let alone = entry(hand_in(dir.path(), "a.py", "print(0)\n"), Vec::new());
        let twice = entry(
            hand_in(dir.path(), "b.py", "print(1)\n"),
            vec![hand_in(dir.path(), "b2.py", "print(2)\n")],
        );
        let package = Package::bundled("rooks").unwrap();
        let config = config(Layout::StudentProblem, 0);
        let entries = [&alone, &twice];
        let settings = settings_of(&package, &config);
        let job = job(&package, &config, &settings, &entries, false);
        let mut events = 0;
        let sorted = job
            .sort(&job.mode(), &SharedResume::new(None), &mut |_| events += 1)
            .unwrap();
        assert_eq!(events, 0, "nothing reused, nothing reported yet");
        assert!(sorted.reused.is_empty());
        assert_eq!(sorted.unrunnable.len(), 1);
        assert!(matches!(
            sorted.unrunnable[0].1,
            Unrunnable::SeveralFiles { .. }
        ));
        let [runnable] = &sorted.runnable[..] else {
            panic!("one runnable pair");
        };
        assert_eq!(runnable.entry.path, alone.path);
        assert_eq!(
            runnable.sha256.as_deref(),
            Some(resume::sha256_hex(b"print(0)\n").as_str())
        );

        // A journal holding that pair's result, same bytes and fingerprint:
        // reused, reported graded and finished at once.
        let earlier = {
            let result = SubmissionResult {
                language: "python".to_owned(),
                verdict: crate::verdict::Verdict::Accepted,
                passed: 1,
                total: 1,
                ..SubmissionResult::fixture("rooks", &alone.path.display().to_string(), Vec::new())
            };
            job.graded_result(runnable, &result)
        };
        let journal = dir.path().join("grades.json.journal");
        fs_err::write(
            &journal,
            format!(
                "{}\n",
                serde_json::to_string(&crate::report::json::GradedResult::from(&earlier)).unwrap()
            ),
        )
        .unwrap();
        let mut resume = resume::load_journal(&journal).unwrap();
        let mut seen = Vec::new();
        let sorted = job
            .sort(
                &job.mode(),
                &SharedResume::new(Some(&mut resume)),
                &mut |event| {
                    seen.push(format!("{event:?}").split('(').next().unwrap().to_owned());
                },
            )
            .unwrap();
        assert_eq!(seen, ["Graded", "Finished"]);
        assert!(sorted.runnable.is_empty());
        assert_eq!(sorted.unrunnable.len(), 1);
        let [reused] = &sorted.reused[..] else {
            panic!("one reused result");
        };
        assert!(reused.reused);
        assert_eq!(reused.student, "alice");

        // Another seed changes the fingerprint: run again.
        let mut resume = resume::load_journal(&journal).unwrap();
        let mut reseeded = config.clone();
        reseeded.seed = Some(8);
        let settings = settings_of(&package, &reseeded);
        let reseeded_job = self::job(&package, &reseeded, &settings, &entries, false);
        let sorted = reseeded_job
            .sort(
                &reseeded_job.mode(),
                &SharedResume::new(Some(&mut resume)),
                &mut |_| {},
            )
            .unwrap();
        assert!(sorted.reused.is_empty());
        assert_eq!(sorted.runnable.len(), 1);
    }

    #[test]
    fn settling_keeps_final_results_and_leaves_interrupted_pairs_ungraded() {
        let dir = tempfile::tempdir().unwrap();
        let done = entry(hand_in(dir.path(), "a.py", "print(0)\n"), Vec::new());
        let cut = entry(hand_in(dir.path(), "b.py", "print(1)\n"), Vec::new());
        let package = Package::bundled("rooks").unwrap();
        let config = config(Layout::StudentProblem, 0);
        let entries = [&done, &cut];
        let settings = settings_of(&package, &config);
        let job = &job(&package, &config, &settings, &entries, false);
        {
            let sorted = job
                .sort(&job.mode(), &SharedResume::new(None), &mut |_| {})
                .unwrap();
            let result = SubmissionResult {
                language: "python".to_owned(),
                verdict: crate::verdict::Verdict::WrongAnswer,
                passed: 0,
                total: 1,
                ..SubmissionResult::fixture("rooks", &done.path.display().to_string(), Vec::new())
            };
            let graded_result = job.graded_result(&sorted.runnable[0], &result);
            let ran: Ran = vec![(Some(result), Some((graded_result, true))), (None, None)];
            let mut graded = ProblemGraded {
                results: Vec::new(),
                not_graded: Vec::new(),
            };
            let mut events = 0;
            settle(
                job,
                &sorted.runnable,
                ran,
                &[],
                &Cancellation::new(),
                &mut graded,
                &mut |_| events += 1,
            )
            .unwrap();
            assert_eq!(events, 0, "a final result was reported as it finished");
            let [kept] = &graded.results[..] else {
                panic!("one result");
            };
            assert_eq!(kept.result.verdict, crate::verdict::Verdict::WrongAnswer);
            let [ungraded] = &graded.not_graded[..] else {
                panic!("one pair not graded");
            };
            assert_eq!(ungraded.submission, cut.path.display().to_string());
        }
    }
}
