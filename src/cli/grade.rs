//! `judge grade`: every submission under judge.toml's `submissions` folder,
//! against its problem's tests and random tests, with the table, the
//! expected-verdict check (layout `expected`), time-limit warnings, shards
//! and the report files. `judge merge` (merge.rs) combines shard reports.
//!
//! Exit codes: SPEC.md's (0 every verdict AC, 1 some not, 2 usage or
//! configuration error with nothing run, 3 the judge failed), except that for
//! layout `expected` 0 means every example got its folder's verdict and 1
//! that one did not (CHANGELOG.md), and 130 / 143 when SIGINT / SIGTERM
//! stopped the run (the reports then hold what finished).

use super::run::{announce_isolation, classify, load_config, master_seed, settings, Overrides};
use super::{say, write_stdout, PackageArgs, UsageError};
use crate::config::judge::{JudgeConfig, Layout};
use crate::config::problem::{check_problems_dir, package_exists, Package};
use crate::exit;
use crate::grade::{self, Entry, Shard};
use crate::interrupt::Cancellation;
use crate::problems::Problem;
use crate::report::json::{
    Expected, GradeReport, GradedResult, GradedWith, IgnoredFile, NotGraded, ShardInfo,
    JUDGE_VERSION, VERSION,
};
use crate::report::{self, human};
use crate::resume::{self, Fingerprint, Resume};
use crate::runner::{
    self, CompileResult, Event, FixedTests, Settings, Submission, SubmissionResult, TestCase,
};
use crate::runner::{RunError, Workspace};
use crate::sandbox::Isolation;
use crate::verdict::Verdict;
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// How much more time a TLE example gets to see whether its verdict hangs on
/// the limit (problemtools' `time_safety_margin` idea).
const TLE_RETRY_FACTOR: f64 = 1.5;

/// Arguments of `judge grade`.
#[derive(Debug, clap::Args)]
pub struct GradeArgs {
    /// The judge configuration [default: ./judge.toml when it exists, else built-in defaults].
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Write the JSON report here (`-` for stdout, instead of the table).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    #[command(flatten)]
    pub reports: ReportArgs,
    /// Grade only part K of N: a deterministic 1/N of the sorted (submission,
    /// problem) pairs; the N parts are disjoint and cover the run.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Tests run in parallel [default: `jobs` of judge.toml, else the number of cores].
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u64).range(1..1025))]
    pub jobs: Option<u64>,
    /// No table and no progress bar: only the summary, disagreements and warnings.
    #[arg(long, short)]
    pub quiet: bool,
    /// Reuse the results of this earlier JSON report whose submission,
    /// language, package, limits and seed are unchanged; grade the rest.
    /// Without `--json`, the new report replaces this file.
    #[arg(long, value_name = "REPORT")]
    pub resume: Option<PathBuf>,
    /// Grade a package's own `submissions/<verdict>/` against their folders
    /// (a Kattis / ICPC package with `problem.yaml`, or one of ours), with
    /// Kattis' meanings; exit 0 when every one agrees.
    #[arg(long, value_name = "DIR")]
    pub package: Option<PathBuf>,
    /// Reports to hand to students: hidden tests (all but the samples,
    /// `sample*`) show verdict, time and the checker's message, but not the
    /// input, expected or actual output, in the HTML and the JSON report
    /// [default: `student-view` of judge.toml, else off].
    #[arg(long)]
    pub student_view: bool,
    #[command(flatten)]
    pub packages: PackageArgs,
}

/// Report files rendered from results, by `judge run`, `judge grade` and
/// `judge merge` alike.
#[derive(Debug, Clone, clap::Args)]
pub struct ReportArgs {
    /// Write a JUnit XML report here: one suite per submission and problem.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Write a CSV gradebook here: student, problem, score, verdict, passed, total.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write an HTML report here: the class page (matrix, per-problem
    /// summaries, students by score) and, in a folder beside it named after
    /// FILE (`grades.html`: `grades/`), a page per submission with each test's
    /// input, expected and actual output and a diff; `-` prints one page.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
}

/// Where a report goes: `-` is standard output for every report flag.
fn is_stdout(path: &Path) -> bool {
    path == Path::new("-")
}

impl ReportArgs {
    /// Checks every report path before anything runs (issue #8: a typo in
    /// `--json nodir/r.json` used to surface after the whole class was
    /// graded): its folder must exist, and no two reports may share a path
    /// (`-`, standard output, included). `json` is the command's `--json`
    /// (merge's `-o`).
    pub(super) fn check(&self, json: Option<&Path>) -> Result<(), UsageError> {
        let mut seen: Vec<(&str, &Path)> = Vec::new();
        let flags = [
            ("--json", json),
            ("--junit", self.junit.as_deref()),
            ("--csv", self.csv.as_deref()),
            ("--html", self.html.as_deref()),
        ];
        for (flag, path) in flags {
            let Some(path) = path else { continue };
            if let Some((other, _)) = seen.iter().find(|(_, seen)| *seen == path) {
                return Err(UsageError::new(
                    format!(
                        "{other} and {flag} both write `{}`; give each report its own file",
                        path.display()
                    ),
                    None,
                ));
            }
            seen.push((flag, path));
            if is_stdout(path) {
                continue;
            }
            let parent = match path.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent,
                _ => Path::new("."),
            };
            if !parent.is_dir() {
                return Err(UsageError::new(
                    format!(
                        "cannot write {flag} `{}`: the folder `{}` does not exist",
                        path.display(),
                        parent.display()
                    ),
                    None,
                ));
            }
            if path.is_dir() {
                return Err(UsageError::new(
                    format!("cannot write {flag} `{}`: it is a folder", path.display()),
                    None,
                ));
            }
            if flag == "--html" {
                let folder = report::page_folder(path);
                if let Some((other, _)) = seen.iter().find(|(_, seen)| *seen == folder) {
                    return Err(UsageError::new(
                        format!(
                            "{other} writes `{}`, where --html `{}` keeps its pages; give \
                             each report its own name",
                            folder.display(),
                            path.display()
                        ),
                        None,
                    ));
                }
                if folder.exists() && !report::is_replaceable_page_folder(&folder) {
                    return Err(UsageError::new(
                        format!(
                            "cannot write --html `{}`: its pages go in `{}`, which exists and \
                             does not hold judge's HTML pages",
                            path.display(),
                            folder.display()
                        ),
                        Some("move it away or choose another --html file".to_owned()),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Refuses a report that would be written over or among the hand-ins
    /// (`protected`: the submissions folder, or the submission files): one
    /// typo in `--csv` must not replace a student's source (adversarial
    /// review of issue #8). Paths are compared after resolving links.
    pub(super) fn refuse_among(
        &self,
        json: Option<&Path>,
        protected: &[&Path],
    ) -> Result<(), UsageError> {
        let resolved: Vec<PathBuf> = protected
            .iter()
            .filter_map(|path| fs_err::canonicalize(path).ok())
            .collect();
        let flags = [
            ("--json", json),
            ("--junit", self.junit.as_deref()),
            ("--csv", self.csv.as_deref()),
            ("--html", self.html.as_deref()),
        ];
        for (flag, path) in flags {
            let Some(path) = path.filter(|path| !is_stdout(path)) else {
                continue;
            };
            let parent = match path.parent() {
                Some(parent) if !parent.as_os_str().is_empty() => parent,
                _ => Path::new("."),
            };
            let Some(target) = fs_err::canonicalize(parent)
                .ok()
                .zip(path.file_name())
                .map(|(parent, name)| parent.join(name))
            else {
                continue;
            };
            if let Some(inside) = resolved.iter().find(|guarded| target.starts_with(guarded)) {
                return Err(UsageError::new(
                    format!(
                        "refusing to write {flag} `{}`: it is among the submissions (`{}`)",
                        path.display(),
                        inside.display()
                    ),
                    Some("write reports outside the submissions folder".to_owned()),
                ));
            }
        }
        Ok(())
    }

    /// Whether one of these reports goes to standard output (then the table
    /// does not).
    pub(super) fn to_stdout(&self) -> bool {
        [&self.junit, &self.csv, &self.html]
            .into_iter()
            .flatten()
            .any(|path| is_stdout(path))
    }

    /// Renders and writes (atomically) every report file asked for.
    pub(super) fn write<R: report::Row>(
        &self,
        rows: &[R],
        html: &report::html::Options,
    ) -> anyhow::Result<()> {
        if let Some(path) = &self.junit {
            let results: Vec<SubmissionResult> =
                rows.iter().map(|row| row.result().clone()).collect();
            let xml = report::junit::render(&results)?;
            write_report(path, &xml)?;
        }
        if let Some(path) = &self.csv {
            write_report(path, &report::csv::render(rows))?;
        }
        if let Some(path) = &self.html {
            if is_stdout(path) {
                write_stdout(&report::html::render_with(rows, html))?;
            } else {
                let folder = report::page_folder(path);
                let name = |path: &Path| {
                    path.file_name()
                        .map(|name| name.to_string_lossy().into_owned())
                        .unwrap_or_default()
                };
                let pages = report::html::render_pages(rows, &name(path), &name(&folder), html);
                report::write_page_set(
                    path,
                    &folder,
                    pages.class_page.as_bytes(),
                    &pages.submissions,
                )?;
            }
        }
        Ok(())
    }
}

/// Writes one report to `path`, or to standard output for `-`.
pub(super) fn write_report(path: &Path, text: &str) -> anyhow::Result<()> {
    if is_stdout(path) {
        write_stdout(text)
    } else {
        Ok(report::write_atomically(path, text.as_bytes())?)
    }
}

/// Runs `judge grade` and returns its exit code.
pub fn run(args: GradeArgs) -> anyhow::Result<u8> {
    args.reports.check(args.json.as_deref())?;
    if let Some(dir) = &args.package {
        return super::grade_package::run(&args, dir);
    }
    let config = load_config(args.config.as_deref())?;
    args.reports
        .refuse_among(args.json.as_deref(), &[config.submissions.as_path()])?;
    let problems_dir = args.packages.problems_dir.as_deref();
    if let Some(dir) = problems_dir {
        check_problems_dir(dir)?;
    }
    let discovery = grade::discover(
        &config.submissions,
        config.layout,
        config.problems.as_deref(),
    )
    .map_err(|error| match error {
        grade::DiscoverError::Missing { .. }
        | grade::DiscoverError::NotAFolder { .. }
        | grade::DiscoverError::Empty { .. } => anyhow::Error::from(UsageError::new(
            error.to_string(),
            Some(format!(
                "`submissions` in `{}` names the folder, relative to that file",
                config
                    .path
                    .as_deref()
                    .unwrap_or(Path::new("judge.toml"))
                    .display()
            )),
        )),
        grade::DiscoverError::Walk(_) => anyhow::Error::from(error),
    })?;
    // Said up front and in the JSON: what a teacher's folder held that is
    // not graded.
    for ignored in &discovery.ignored {
        say(&format!(
            "ignored: {}: {}",
            ignored.path.display(),
            ignored.reason
        ));
    }
    let ignored: Vec<IgnoredFile> = discovery
        .ignored
        .iter()
        .map(|ignored| IgnoredFile {
            path: ignored.path.display().to_string(),
            reason: ignored.reason.clone(),
        })
        .collect();
    let entries = discovery.entries;
    let pairs = entries.len();
    let entries = match args.shard {
        Some(shard) => shard.select(entries),
        None => entries,
    };

    // Every package is loaded before anything runs: a broken problem.toml is
    // a configuration error, exit 2.
    let mut packages: BTreeMap<String, Package> = BTreeMap::new();
    for entry in &entries {
        if packages.contains_key(&entry.problem) || !package_exists(problems_dir, &entry.problem) {
            continue;
        }
        let package = args.packages.load_with(&entry.problem, &config)?;
        if package.tests.is_empty() && config.random_tests == 0 {
            return Err(UsageError::new(
                format!(
                    "no tests for `{}`: no tests in the package and no random tests",
                    package.id
                ),
                Some("set `random-tests` in `judge.toml`".to_owned()),
            )
            .into());
        }
        packages.insert(entry.problem.clone(), package);
    }

    let mut resume = match &args.resume {
        Some(path) => {
            let resume =
                resume::load(path).map_err(|error| UsageError::new(format!("{error:#}"), None))?;
            if let Some(reason) = resume.refused() {
                say(&format!(
                    "note: reusing no result of `{}`: {reason}",
                    path.display()
                ));
            }
            Some(resume)
        }
        None => None,
    };
    let cancel = Cancellation::on_signals()?;

    announce_isolation();
    let progress = progress_bar(entries.len() as u64, args.quiet);
    let overrides = Overrides {
        jobs: args.jobs,
        ..Overrides::default()
    };
    let mut results = Vec::with_capacity(entries.len());
    let mut not_graded = Vec::new();
    let mut by_problem: BTreeMap<&str, Vec<&Entry>> = BTreeMap::new();
    for entry in &entries {
        by_problem.entry(&entry.problem).or_default().push(entry);
    }
    for (id, group) in by_problem {
        match packages.get(id) {
            Some(package) => {
                progress.set_message(id.to_owned());
                let settings = settings(&overrides, &config, package);
                let graded = grade_problem(
                    package,
                    &group,
                    &config,
                    &settings,
                    &progress,
                    resume.as_mut(),
                    &cancel,
                )?;
                results.extend(graded.results);
                not_graded.extend(graded.not_graded);
            }
            None => {
                for entry in group {
                    results.push(unknown_problem(entry, &config));
                    progress.inc(1);
                }
            }
        }
    }
    progress.finish_and_clear();
    results.sort_by(|a, b| {
        grade::order_key(Path::new(&a.result.submission), &a.result.problem).cmp(&grade::order_key(
            Path::new(&b.result.submission),
            &b.result.problem,
        ))
    });
    not_graded.sort_by(|a, b| {
        grade::order_key(Path::new(&a.submission), &a.problem)
            .cmp(&grade::order_key(Path::new(&b.submission), &b.problem))
    });
    if let Some(resume) = &resume {
        say_reuse(resume);
    }
    let stopped_by = cancel.signal();
    let report = GradeReport {
        version: VERSION,
        isolation: serde_json::to_value(Isolation::detect()).ok(),
        layout: config.layout.name().to_owned(),
        shard: args.shard.map(|shard| ShardInfo {
            index: shard.index,
            count: shard.count,
            pairs,
        }),
        judge_version: Some(JUDGE_VERSION.to_owned()),
        interrupted: stopped_by.is_some(),
        not_graded,
        ignored,
        graded_with: Some(GradedWith {
            judge_version: JUDGE_VERSION.to_owned(),
            seed: config.seed,
            random_tests: config.random_tests,
            time_limit_ms: config.limits.time_limit_ms,
            memory_limit_mib: config.limits.memory_limit_mib,
            output_limit_kib: config.limits.output_limit_kib,
            wall_time_factor: config.wall_time_factor,
        }),
        results,
    };
    // `--resume FILE` alone brings FILE up to date.
    let json = args.json.as_deref().or(args.resume.as_deref());
    let student_view = args.student_view || config.student_view;
    let code = finish(&report, json, &args.reports, args.quiet, student_view)?;
    match stopped_by {
        Some(signal) => {
            say_interrupted(&report, signal.name(), json);
            Ok(signal.exit_code())
        }
        None => Ok(code),
    }
}

/// An entry an interrupted run did not grade.
fn not_graded_entry(entry: &Entry) -> NotGraded {
    NotGraded {
        problem: entry.problem.clone(),
        submission: entry.path.display().to_string(),
        student: Some(entry.student.clone()),
    }
}

/// How much of `--resume`'s report was reused, and why the rest was not.
fn say_reuse(resume: &Resume) {
    let tally = resume.tally();
    let mut reasons = Vec::new();
    if !tally.changed_submissions.is_empty() {
        const SHOWN: usize = 5;
        let mut names = tally
            .changed_submissions
            .iter()
            .take(SHOWN)
            .map(|name| format!("`{name}`"))
            .collect::<Vec<_>>()
            .join(", ");
        if tally.changed_submissions.len() > SHOWN {
            names.push_str(", ...");
        }
        reasons.push(format!(
            "{} changed submission(s): {names}",
            tally.changed_submissions.len()
        ));
    }
    if tally.changed_settings > 0 {
        reasons.push(format!(
            "{} with another language, package, limits or seed",
            tally.changed_settings
        ));
    }
    if tally.judge_errors > 0 {
        reasons.push(format!("{} judge error(s) (JE)", tally.judge_errors));
    }
    if tally.absent > 0 {
        reasons.push(format!("{} not in the report", tally.absent));
    }
    let mut line = format!(
        "note: `{}`: reused {} result(s), graded {} again",
        resume.path().display(),
        tally.reused,
        tally.regraded()
    );
    if !reasons.is_empty() {
        line.push_str(&format!(" ({})", reasons.join("; ")));
    }
    say(&line);
}

/// What an interrupted run finished, and how to go on from there.
fn say_interrupted(report: &GradeReport, signal: &str, json: Option<&Path>) {
    let total = report.results.len() + report.not_graded.len();
    say(&format!(
        "interrupted by {signal}: {} of {total} pairs graded, {} not graded",
        report.results.len(),
        report.not_graded.len()
    ));
    match json {
        Some(path) if path == Path::new("-") => say(
            "hint: save the JSON from stdout to a file and continue with \
             `judge grade --resume FILE` (with the same other options)",
        ),
        Some(path) => say(&format!(
            "resume: `judge grade --resume {}` (with the same other options) grades only \
             what is missing",
            path.display()
        )),
        None => say(
            "hint: no JSON report was asked for, so there is nothing to resume from; \
             `--json FILE` keeps one",
        ),
    }
}

/// Writes the report files, prints the table, the summary, disagreements
/// and warnings, and returns the exit code (`judge grade` and `judge merge`).
pub(super) fn finish(
    report: &GradeReport,
    json: Option<&Path>,
    reports: &ReportArgs,
    quiet: bool,
    student_view: bool,
) -> anyhow::Result<u8> {
    let to_stdout = json.is_some_and(is_stdout) || reports.to_stdout();
    let for_students;
    let written = if student_view {
        let mut hidden = report.clone();
        // The master seed (and the fingerprint, which a small seed can be
        // recovered from) would let a student remake every hidden random
        // test with `judge gen` (adversarial review of issue #11).
        hidden.graded_with = None;
        for graded in &mut hidden.results {
            graded.fingerprint = None;
            graded
                .result
                .tests
                .iter_mut()
                .for_each(report::hide_test_data);
        }
        for_students = hidden;
        &for_students
    } else {
        report
    };
    if let Some(path) = json {
        write_report(path, &report::json::render_grade(written))?;
    }
    reports.write(&written.results, &report::html::Options { student_view })?;
    if !to_stdout {
        if !quiet {
            write_stdout(&human::render_grade_table(report, super::colour_stdout()))?;
        }
        write_stdout(&human::render_grade_summary(report))?;
    }
    for graded in &report.results {
        for warning in &graded.warnings {
            say(&format!("warning: {warning}"));
        }
    }
    // A judge error is never the student's fault: say why on stderr, as
    // `judge run`'s table does (issue #8: a missing compiler).
    for graded in &report.results {
        let result = &graded.result;
        if result.compile.verdict == Some(Verdict::JudgeError) {
            say(&format!(
                "error: {}: JE: {}",
                crate::report::human::visible(&result.submission),
                crate::report::human::visible(result.compile.message.trim_end())
            ));
        }
    }
    for graded in &report.results {
        if let Some(line) = human::render_disagreement(graded) {
            say(&line);
        }
    }
    Ok(exit_code(report))
}

/// JE anywhere is the judge failing (3); layout `expected` passes when every
/// example got its folder's verdict; the others when every verdict is AC.
fn exit_code(report: &GradeReport) -> u8 {
    let results = &report.results;
    if results
        .iter()
        .any(|graded| graded.result.verdict == Verdict::JudgeError)
    {
        exit::JUDGE_FAILED
    } else if report.layout == Layout::Expected.name() {
        if results.iter().all(|graded| graded.agrees() == Some(true)) {
            exit::SUCCESS
        } else {
            exit::FAILURE
        }
    } else if results
        .iter()
        .all(|graded| graded.result.verdict.is_accepted())
    {
        exit::SUCCESS
    } else {
        exit::FAILURE
    }
}

/// A bar on stderr when stderr is a terminal; hidden otherwise, so CI logs
/// stay clean.
fn progress_bar(length: u64, quiet: bool) -> indicatif::ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(length);
    let style = indicatif::ProgressStyle::with_template(
        "{bar:30} {pos}/{len} submissions graded, {elapsed} ({msg})",
    )
    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}

/// One problem's graded pairs, and those an interruption left ungraded.
struct ProblemGraded {
    results: Vec<GradedResult>,
    not_graded: Vec<NotGraded>,
}

/// Grades one problem's submissions: one runner call, so each is compiled
/// once and the tests are shared. Results `resume` may reuse are taken from
/// it instead.
fn grade_problem(
    package: &Package,
    entries: &[&Entry],
    config: &JudgeConfig,
    settings: &Settings,
    progress: &indicatif::ProgressBar,
    mut resume: Option<&mut Resume>,
    cancel: &Cancellation,
) -> anyhow::Result<ProblemGraded> {
    let problem = &*package.problem;
    let seed = master_seed(None, config, package);
    let package_sha256 = resume::package_sha256(package)?;
    let mut graded = Vec::with_capacity(entries.len());
    let mut not_graded = Vec::new();
    let mut unrunnable_entries = Vec::new();
    let mut runnable: Vec<(&Entry, Submission, Option<String>, String)> = Vec::new();
    for entry in entries {
        match prepare_entry(entry, config) {
            Ok(submission) => {
                // Unreadable or refused now: compiling reports why; never
                // reused. Read as compiling reads it (never a link's target
                // outside its folder).
                let sha256 = runner::read_submission(&entry.path)
                    .ok()
                    .map(|bytes| resume::sha256_hex(&bytes));
                let fingerprint = Fingerprint::new(
                    problem,
                    &package_sha256,
                    &submission,
                    settings,
                    seed,
                    config.random_tests,
                )
                .digest();
                let earlier = resume.as_deref_mut().and_then(|resume| {
                    resume.take(
                        &entry.path.display().to_string(),
                        problem.id(),
                        sha256.as_deref(),
                        &fingerprint,
                    )
                });
                match earlier {
                    Some(earlier) => {
                        graded.push(GradedResult {
                            student: entry.student.clone(),
                            expected: expected_of(entry),
                            ..earlier
                        });
                        progress.inc(1);
                    }
                    None => runnable.push((entry, submission, sha256, fingerprint)),
                }
            }
            Err(message) => unrunnable_entries.push((entry, message)),
        }
    }
    // Interrupted before this problem: the results reused above are kept
    // (nothing to run), the rest waits for the next `--resume`.
    if cancel.is_cancelled() {
        not_graded.extend(
            unrunnable_entries
                .iter()
                .map(|(entry, _)| **entry)
                .chain(runnable.iter().map(|(entry, ..)| *entry))
                .map(not_graded_entry),
        );
        return Ok(ProblemGraded {
            results: graded,
            not_graded,
        });
    }
    let workspace = Workspace::new()?;
    let tests = runner::load_tests(
        problem,
        Some(FixedTests::Package(&package.tests)),
        &package.profiles(),
        config.random_tests,
        seed,
        &workspace,
    )?;
    for (entry, message) in unrunnable_entries {
        graded.push(unrunnable(entry, config, message, tests.len(), settings));
        progress.inc(1);
    }
    let submissions: Vec<Submission> = runnable
        .iter()
        .map(|(_, submission, _, _)| submission.clone())
        .collect();
    let mut on_event = |event: Event<'_>| {
        if let Event::SubmissionFinished { .. } = event {
            progress.inc(1);
        }
    };
    let results = runner::run_cancellable(
        problem,
        &submissions,
        &tests,
        settings,
        &workspace,
        cancel,
        &mut on_event,
    )?;
    for ((entry, submission, sha256, fingerprint), result) in runnable.iter().zip(results) {
        let Some(mut result) = result else {
            not_graded.push(not_graded_entry(entry));
            continue;
        };
        // The runner names the engine (`rooks`); reports name the package.
        result.problem.clone_from(&package.id);
        let limits = submission.limits(&settings.limits);
        let mut graded_result = GradedResult {
            result,
            student: entry.student.clone(),
            expected: expected_of(entry),
            time_limit_ms: limits.cpu_time_ms,
            memory_limit_mib: limits.memory_kib / 1024,
            warnings: Vec::new(),
            submission_sha256: sha256.clone(),
            fingerprint: Some(fingerprint.clone()),
            reused: false,
        };
        // Warnings are part of the result (a resumed report must equal a
        // full run's): a pair interrupted while they were found is not graded.
        match time_limit_warnings(
            problem,
            submission,
            &graded_result,
            &tests,
            settings,
            cancel,
        )? {
            Some(warnings) => {
                graded_result.warnings = warnings;
                graded.push(graded_result);
            }
            None => not_graded.push(not_graded_entry(entry)),
        }
    }
    Ok(ProblemGraded {
        results: graded,
        not_graded,
    })
}

/// The submission to run, or why it cannot be (unreadable, no language):
/// that is the submission's fault, reported as CE with the reason.
fn prepare_entry(entry: &Entry, config: &JudgeConfig) -> Result<Submission, String> {
    if !entry.others.is_empty() {
        let files: Vec<String> = std::iter::once(&entry.path)
            .chain(&entry.others)
            .map(|path| format!("`{}`", path.display()))
            .collect();
        return Err(format!(
            "{} files for student `{}`, problem `{}`: {}; hand in one",
            files.len(),
            entry.student,
            entry.problem,
            files.join(", ")
        ));
    }
    if let Err(error) = fs_err::File::open(&entry.path) {
        return Err(format!(
            "cannot read the submission `{}`: {}",
            entry.path.display(),
            crate::config::io_reason(&error)
        ));
    }
    classify(&entry.path, config).map_err(|error| format!("{error:#}"))
}

fn expected_of(entry: &Entry) -> Option<Expected> {
    entry.expected.as_ref().map(|(folder, verdict)| Expected {
        folder: folder.clone(),
        verdict: *verdict,
    })
}

/// A result for a file that was not run, with the reason as its compile
/// message.
fn unrunnable(
    entry: &Entry,
    config: &JudgeConfig,
    message: String,
    total: usize,
    settings: &Settings,
) -> GradedResult {
    let language = config
        .language_for(&entry.path)
        .map_or("unknown", |(name, _)| name);
    GradedResult {
        result: SubmissionResult {
            problem: entry.problem.clone(),
            submission: entry.path.display().to_string(),
            language: language.to_owned(),
            verdict: Verdict::CompileError,
            passed: 0,
            total,
            compile: CompileResult {
                ok: false,
                message,
                verdict: Some(Verdict::CompileError),
            },
            tests: Vec::new(),
        },
        student: entry.student.clone(),
        expected: expected_of(entry),
        time_limit_ms: settings.limits.cpu_time_ms,
        memory_limit_mib: settings.limits.memory_kib / 1024,
        warnings: Vec::new(),
        submission_sha256: None,
        fingerprint: None,
        reused: false,
    }
}

/// A file whose path names no problem this judge knows, or that is not where
/// the layout puts submissions.
fn unknown_problem(entry: &Entry, config: &JudgeConfig) -> GradedResult {
    let message = if entry.problem.is_empty() {
        format!(
            "`{}` is not where layout `{}` puts submissions",
            entry.path.display(),
            config.layout.name()
        )
    } else {
        format!(
            "`{}` is not a problem; known: {}",
            entry.problem,
            crate::config::bundled::known_ids()
        )
    };
    let language = config
        .language_for(&entry.path)
        .map_or("unknown", |(name, _)| name);
    GradedResult {
        result: SubmissionResult {
            problem: entry.problem.clone(),
            submission: entry.path.display().to_string(),
            language: language.to_owned(),
            verdict: Verdict::CompileError,
            passed: 0,
            total: 0,
            compile: CompileResult {
                ok: false,
                message,
                verdict: Some(Verdict::CompileError),
            },
            tests: Vec::new(),
        },
        student: entry.student.clone(),
        expected: expected_of(entry),
        time_limit_ms: 0,
        memory_limit_mib: 0,
        warnings: Vec::new(),
        submission_sha256: None,
        fingerprint: None,
        reused: false,
    }
}

/// Verdicts that hang on the time limit: an accepted program whose slowest
/// test used more than half its limit, and a TLE example (folder
/// `time_limit_exceeded`) that passes its TLE tests at 1.5x the limit.
/// `None` when `cancel` stopped the re-runs before they settled it.
fn time_limit_warnings(
    problem: &dyn Problem,
    submission: &Submission,
    graded: &GradedResult,
    tests: &[TestCase],
    settings: &Settings,
    cancel: &Cancellation,
) -> Result<Option<Vec<String>>, RunError> {
    let result = &graded.result;
    let mut warnings = Vec::new();
    if result.verdict.is_accepted() {
        if let Some(slowest) = result.tests.iter().max_by_key(|test| test.time_ms) {
            if slowest.time_ms * 2 > graded.time_limit_ms {
                warnings.push(format!(
                    "{}: accepted, but test {} used {} ms of its {} ms limit: \
                     the verdict is sensitive to the time limit",
                    result.submission, slowest.name, slowest.time_ms, graded.time_limit_ms
                ));
            }
        }
    }
    let expects_tle = graded
        .expected
        .as_ref()
        .is_some_and(|expected| expected.verdict == Some(Verdict::TimeLimitExceeded));
    if expects_tle && result.verdict == Verdict::TimeLimitExceeded {
        let slow: Vec<&TestCase> = result
            .tests
            .iter()
            .filter(|test| test.verdict == Verdict::TimeLimitExceeded)
            .filter_map(|test| tests.iter().find(|case| case.name == test.name))
            .collect();
        let mut more_time = settings.clone();
        let scale = |ms: u64| (ms as f64 * TLE_RETRY_FACTOR).ceil() as u64;
        more_time.limits.cpu_time_ms = scale(settings.limits.cpu_time_ms);
        more_time.limits.wall_time_ms = scale(settings.limits.wall_time_ms);
        // One test at a time, stopping at the first that is still too slow:
        // that one alone settles it, and each retry runs to a longer limit.
        let mut passes_all = !slow.is_empty();
        for test in &slow {
            if cancel.is_cancelled() {
                return Ok(None);
            }
            let workspace = Workspace::new()?;
            let retried = runner::run_cancellable(
                problem,
                std::slice::from_ref(submission),
                std::slice::from_ref(*test),
                &more_time,
                &workspace,
                cancel,
                &mut |_| {},
            )?;
            match retried.into_iter().next().flatten() {
                // Only an interrupted run leaves the one pair unfinished.
                None => return Ok(None),
                Some(retry) if retry.verdict.is_accepted() => {}
                Some(_) => {
                    passes_all = false;
                    break;
                }
            }
        }
        if passes_all {
            warnings.push(format!(
                "{}: TLE, but passes its {} TLE test(s) at {TLE_RETRY_FACTOR}x the limit \
                 ({} ms): the verdict is sensitive to the time limit",
                result.submission,
                slow.len(),
                scale(graded.time_limit_ms)
            ));
        }
    }
    Ok(Some(warnings))
}
