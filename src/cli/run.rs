//! `judge run`: grade submissions against a problem's tests and random
//! tests, print the per-test table, and write `--json` / `--junit` reports.
//!
//! Exit codes (SPEC.md): 0 every verdict AC, 1 some verdict not AC, 2 usage
//! or configuration error (nothing run), 3 the judge failed (a JE verdict,
//! a sandbox or report failure), 130 / 143 stopped by SIGINT / SIGTERM (the
//! reports then hold the submissions that finished).

use super::{parse_problem, say, write_stdout, PackageArgs, UsageError};
use crate::config::judge::JudgeConfig;
use crate::config::problem::Package;
use crate::exit;
use crate::interrupt::Cancellation;
use crate::report;
use crate::report::json::TestSelection;
use crate::runner::{self, Event, FixedTests, Settings, Submission, SubmissionKind, Workspace};
use crate::sandbox::{Isolation, Limits};
use crate::verdict::Verdict;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Once;

/// Bytes of a submission's stderr the judge keeps; the rest is discarded.
const STDERR_KEPT_BYTES: u64 = 64 * 1024;

/// Arguments of `judge run`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The problem id.
    #[arg(value_parser = parse_problem)]
    pub problem: String,
    /// Programs to grade: source files in a configured language, or executables.
    #[arg(required = true, value_name = "SUBMISSION")]
    pub submissions: Vec<PathBuf>,
    /// Folder of NAME.in + NAME.ans tests, run instead of the package's (and
    /// without random tests unless --random or judge.toml's `random-tests`
    /// asks for them) [default: the package's samples and fixed tests].
    #[arg(long, value_name = "DIR")]
    pub tests: Option<PathBuf>,
    /// Random tests to add (overrides `random-tests` of judge.toml).
    #[arg(long, value_name = "N")]
    pub random: Option<u32>,
    /// Master seed of the random tests (overrides judge.toml and problem.toml).
    #[arg(long, value_parser = super::parse_seed, allow_negative_numbers = true, value_name = "S")]
    pub seed: Option<u64>,
    /// CPU time limit per test in milliseconds (overrides the problem's).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub time_limit: Option<u64>,
    /// Memory limit per test in MiB (overrides the problem's).
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..))]
    pub memory_limit: Option<u64>,
    /// Tests run in parallel [default: `jobs` of judge.toml, else the number of cores].
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u64).range(1..1025))]
    pub jobs: Option<u64>,
    /// Write the JSON report here (`-` for stdout, instead of the table).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    #[command(flatten)]
    pub reports: super::grade::ReportArgs,
    /// The judge configuration [default: ./judge.toml when it exists, else built-in defaults].
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    #[command(flatten)]
    pub packages: PackageArgs,
}

/// Runs `judge run` and returns its exit code.
pub fn run(args: RunArgs) -> anyhow::Result<u8> {
    args.reports.check(args.json.as_deref())?;
    let submission_paths: Vec<&Path> = args.submissions.iter().map(PathBuf::as_path).collect();
    args.reports
        .refuse_among(args.json.as_deref(), &submission_paths)?;
    let config = load_config(args.config.as_deref())?;
    let package = args.packages.load_with(&args.problem, &config)?;
    let problem = &*package.problem;
    let submissions = args
        .submissions
        .iter()
        .map(|path| classify(path, &config))
        .collect::<anyhow::Result<Vec<_>>>()?;
    if let Some(dir) = &args.tests {
        if !dir.is_dir() {
            return Err(UsageError::new(
                format!("the tests folder `{}` does not exist", dir.display()),
                None,
            )
            .into());
        }
    }
    let (random, random_from) = if problem.has_generator() {
        random_tests(args.tests.is_some(), args.random, &config)
    } else {
        if args.random.is_some_and(|count| count > 0) {
            say(&format!(
                "note: `{}` has no generator: no random tests",
                package.id
            ));
        }
        (0, "none")
    };
    let fixed = match &args.tests {
        Some(dir) => FixedTests::Folder(dir),
        None => FixedTests::Package(&package.tests),
    };
    let seed = master_seed(args.seed, &config, &package);
    let settings = settings(
        &Overrides {
            time_limit_ms: args.time_limit,
            memory_limit_mib: args.memory_limit,
            jobs: args.jobs,
        },
        &config,
        &package,
    );

    let cancel = Cancellation::on_signals()?;
    announce_isolation();
    let workspace = Workspace::new()?;
    let tests = runner::load_tests(
        problem,
        Some(fixed),
        &package.profiles(),
        random,
        seed,
        &workspace,
    )?;
    if tests.is_empty() {
        return Err(UsageError::new(
            format!(
                "no tests for `{}`: the tests folder is empty and no random tests",
                package.id
            ),
            Some("pass `--random N`".to_owned()),
        )
        .into());
    }
    let selection = TestSelection {
        fixed: match &args.tests {
            Some(dir) => dir.display().to_string(),
            None => format!("package {}", package.id),
        },
        fixed_count: tests.len() - random as usize,
        random,
        random_from: random_from.to_owned(),
    };
    let json_to_stdout = args.json.as_deref() == Some(Path::new("-")) || args.reports.to_stdout();
    let mut on_event = |event: Event<'_>| {
        if let Event::SubmissionFinished { result } = event {
            if !json_to_stdout {
                let _ = write_stdout(&report::human::render_submission(result));
            }
        }
    };
    let outcome = runner::run_cancellable(
        problem,
        &submissions,
        &tests,
        &settings,
        &workspace,
        &cancel,
        &mut on_event,
    )?;
    drop(workspace);
    let mut results = Vec::with_capacity(outcome.len());
    let mut not_graded = Vec::new();
    for (submission, result) in submissions.iter().zip(outcome) {
        match result {
            Some(result) => results.push(result),
            None => not_graded.push(report::json::NotGraded {
                problem: package.id.clone(),
                submission: submission.path.display().to_string(),
                student: None,
            }),
        }
    }
    let stopped_by = cancel.signal();
    // The runner names the engine (`rooks`); reports name the package
    // (`rooks-large`).
    for result in &mut results {
        result.problem.clone_from(&package.id);
    }

    let isolation = Isolation::detect();
    if let Some(path) = &args.json {
        let json = report::json::render_run(
            &results,
            isolation,
            Some(&selection),
            stopped_by.is_some(),
            &not_graded,
        );
        super::grade::write_report(path, &json)?;
    }
    args.reports
        .write(&results, &report::html::Options::default())?;
    let verdicts: Vec<Verdict> = results.iter().map(|result| result.verdict).collect();
    if let Some(signal) = stopped_by {
        say(&format!(
            "interrupted by {}: {} of {} submissions graded",
            signal.name(),
            results.len(),
            submissions.len()
        ));
        if !not_graded.is_empty() {
            let names: Vec<&str> = not_graded
                .iter()
                .map(|pair| pair.submission.as_str())
                .collect();
            say(&format!("not graded (run them again): {}", names.join(" ")));
        }
        return Ok(signal.exit_code());
    }
    if !json_to_stdout {
        let accepted = verdicts
            .iter()
            .filter(|verdict| verdict.is_accepted())
            .count();
        write_stdout(&format!(
            "{}\n{accepted}/{} submissions accepted\n",
            selection.describe(),
            verdicts.len()
        ))?;
    }
    Ok(if verdicts.contains(&Verdict::JudgeError) {
        exit::JUDGE_FAILED
    } else if verdicts.iter().all(|verdict| verdict.is_accepted()) {
        exit::SUCCESS
    } else {
        exit::FAILURE
    })
}

/// How many random tests a run adds, and who asked: `--random N` first;
/// with `--tests DIR`, only judge.toml's own `random-tests` adds more (the
/// built-in default does not: issue #8, a teacher's folder is run exactly);
/// without it, `random-tests` as configured or by default.
pub(super) fn random_tests(
    tests_folder: bool,
    flag: Option<u32>,
    config: &JudgeConfig,
) -> (u32, &'static str) {
    match (flag, config.random_tests_set) {
        (Some(count), _) => (count, "--random"),
        (None, Some(count)) => (count, "judge.toml"),
        (None, None) if tests_folder => (0, "none"),
        (None, None) => (config.random_tests, "default"),
    }
}

/// `--config FILE`, else `./judge.toml` when it exists, else the built-in
/// defaults (`judge run` and `judge grade`).
pub(super) fn load_config(path: Option<&Path>) -> anyhow::Result<JudgeConfig> {
    Ok(match path {
        Some(path) => JudgeConfig::load(path)?,
        None if Path::new("judge.toml").is_file() => JudgeConfig::load(Path::new("judge.toml"))?,
        None => JudgeConfig::defaults()?,
    })
}

/// The master seed of random tests: `--seed`, else judge.toml's `seed`, else
/// the seed problem.toml records for the package's fixed set. One rule for
/// `run`, `grade` and `stress`, so the same config makes the same tests.
pub(super) fn master_seed(flag: Option<u64>, config: &JudgeConfig, package: &Package) -> u64 {
    flag.or(config.seed).unwrap_or(package.manifest.tests.seed)
}

/// The flags that override judge.toml's limits and jobs.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Overrides {
    pub time_limit_ms: Option<u64>,
    pub memory_limit_mib: Option<u64>,
    pub jobs: Option<u64>,
}

/// Flags over judge.toml over problem.toml.
pub(super) fn settings(args: &Overrides, config: &JudgeConfig, package: &Package) -> Settings {
    let manifest = &package.manifest.limits;
    let time_limit_ms = args
        .time_limit_ms
        .or(config.limits.time_limit_ms)
        .unwrap_or(manifest.time_limit_ms);
    let memory_limit_mib = args
        .memory_limit_mib
        .or(config.limits.memory_limit_mib)
        .unwrap_or(manifest.memory_limit_mib);
    let output_limit_kib = config
        .limits
        .output_limit_kib
        .unwrap_or(manifest.output_limit_kib);
    let wall = |cpu_ms: u64| (cpu_ms as f64 * config.wall_time_factor).ceil() as u64;
    let cores = runner::available_cores();
    let requested = args
        .jobs
        .map(|jobs| jobs as usize)
        .or((config.jobs > 0).then_some(config.jobs))
        .unwrap_or(cores);
    let (jobs, capped) = runner::cap_jobs(requested, cores);
    if capped {
        static ONCE: Once = Once::new();
        ONCE.call_once(|| {
            say(&format!(
                "warning: {requested} jobs asked for, but this machine lets the judge use \
                 {cores} core(s): running {jobs} at a time, so no test waits for a core"
            ));
        });
    }
    Settings {
        limits: Limits {
            cpu_time_ms: time_limit_ms,
            wall_time_ms: wall(time_limit_ms),
            memory_kib: memory_limit_mib.saturating_mul(1024),
            stdout_bytes: output_limit_kib.saturating_mul(1024),
            stderr_bytes: STDERR_KEPT_BYTES,
            processes: config.processes,
            open_files: config.open_files,
            file_size_kib: config.file_size_kib,
            scratch_kib: config.scratch_limit_mib.saturating_mul(1024),
        },
        compile_limits: config.compile_limits(),
        jobs,
        check_options: package.check_options(),
    }
}

/// A submission's language by extension, or an executable; anything else is
/// a usage error naming the known languages.
pub(super) fn classify(path: &Path, config: &JudgeConfig) -> anyhow::Result<Submission> {
    let metadata = fs_err::metadata(path).map_err(|error| {
        UsageError::new(
            format!(
                "cannot read the submission `{}`: {}",
                path.display(),
                crate::config::io_reason(&error)
            ),
            None,
        )
    })?;
    if !metadata.is_file() {
        return Err(UsageError::new(
            format!("the submission `{}` is not a file", path.display()),
            None,
        )
        .into());
    }
    if let Some((name, language)) = config.language_for(path) {
        let mut language = language.clone();
        // Compile and run commands are text: a file name that is not UTF-8
        // (`ren\xe9.py`) would reach the compiler mangled and end as CE
        // (issue #8). The sandboxed copy gets a plain name instead; the
        // reports keep the real path.
        if language.source_name.is_none() && path.file_name().and_then(|n| n.to_str()).is_none() {
            let extension = path
                .extension()
                .and_then(|extension| extension.to_str())
                .unwrap_or("txt");
            language.source_name = Some(format!("submission.{extension}"));
        }
        return Ok(Submission {
            path: path.to_owned(),
            kind: SubmissionKind::Language {
                name: name.to_owned(),
                language,
            },
        });
    }
    if metadata.permissions().mode() & 0o111 != 0 {
        return Ok(Submission {
            path: path.to_owned(),
            kind: SubmissionKind::Executable,
        });
    }
    Err(UsageError::new(
        format!(
            "no language for `{}`: its extension is not configured and it is not executable",
            path.display()
        ),
        Some(format!(
            "languages are defined in `judge.toml` under [languages]; known: {}",
            config.known_languages()
        )),
    )
    .into())
}

/// Says once per process which isolation layers are missing.
pub(super) fn announce_isolation() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let isolation = Isolation::detect();
        for note in isolation.notes() {
            say(&format!("note: {note}"));
        }
    });
}
