//! `judge run`: grade submissions against a problem's tests and random
//! tests, print the per-test table, and write `--json` / `--junit` reports.
//!
//! Exit codes (SPEC.md): 0 every verdict AC, 1 some verdict not AC, 2 usage
//! or configuration error (nothing run), 3 the judge failed (a JE verdict,
//! a sandbox or report failure).

use super::{parse_problem, say, write_stdout, PackageArgs, UsageError};
use crate::config::judge::JudgeConfig;
use crate::config::problem::Package;
use crate::exit;
use crate::problems::Problem;
use crate::report;
use crate::runner::{self, Event, Settings, Submission, SubmissionKind, Workspace};
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
    pub problem: &'static dyn Problem,
    /// Programs to grade: source files in a configured language, or executables.
    #[arg(required = true, value_name = "SUBMISSION")]
    pub submissions: Vec<PathBuf>,
    /// Folder of NAME.in + NAME.ans tests [default: problems/PROBLEM/tests when it exists].
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
    let problem = args.problem;
    let config = load_config(args.config.as_deref())?;
    let package = Package::load(&args.packages.problems_dir, problem)?;
    let submissions = args
        .submissions
        .iter()
        .map(|path| classify(path, &config))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let tests_dir = match &args.tests {
        Some(dir) if dir.is_dir() => Some(dir.clone()),
        Some(dir) => {
            return Err(UsageError::new(
                format!("the tests folder `{}` does not exist", dir.display()),
                None,
            )
            .into())
        }
        None => package.tests_dir().filter(|dir| dir.is_dir()),
    };
    let random = args.random.unwrap_or(config.random_tests);
    if tests_dir.is_none() && random == 0 {
        return Err(UsageError::new(
            format!(
                "no tests for `{}`: no tests folder and no random tests",
                problem.id()
            ),
            Some("pass `--tests DIR` or `--random N`".to_owned()),
        )
        .into());
    }
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

    announce_isolation();
    let workspace = Workspace::new()?;
    let tests = runner::load_tests(problem, tests_dir.as_deref(), random, seed, &workspace)?;
    let json_to_stdout = args.json.as_deref() == Some(Path::new("-"));
    let mut on_event = |event: Event<'_>| {
        if let Event::SubmissionFinished { result } = event {
            if !json_to_stdout {
                let _ = write_stdout(&report::human::render_submission(result));
            }
        }
    };
    let results = runner::run(
        problem,
        &submissions,
        &tests,
        &settings,
        &workspace,
        &mut on_event,
    )?;
    drop(workspace);

    let isolation = Isolation::detect();
    if let Some(path) = &args.json {
        let json = report::json::render(&results, isolation);
        if json_to_stdout {
            write_stdout(&json)?;
        } else {
            report::write_atomically(path, json.as_bytes())?;
        }
    }
    args.reports.write(&results)?;
    let verdicts: Vec<Verdict> = results.iter().map(|result| result.verdict).collect();
    if !json_to_stdout {
        let accepted = verdicts
            .iter()
            .filter(|verdict| verdict.is_accepted())
            .count();
        write_stdout(&format!(
            "{accepted}/{} submissions accepted\n",
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
    let jobs = args
        .jobs
        .map(|jobs| jobs as usize)
        .or((config.jobs > 0).then_some(config.jobs))
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
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
        compile_limits: Limits {
            cpu_time_ms: config.compile_time_limit_ms,
            wall_time_ms: wall(config.compile_time_limit_ms),
            memory_kib: config.compile_memory_limit_mib.saturating_mul(1024),
            stdout_bytes: STDERR_KEPT_BYTES,
            stderr_bytes: STDERR_KEPT_BYTES,
            // Compilers are several processes (gcc: cc1, as, ld) and JVMs
            // and rustc run many threads.
            processes: config.processes.max(256),
            open_files: config.open_files.max(1024),
            file_size_kib: config.file_size_kib.max(512 * 1024),
            scratch_kib: config.scratch_limit_mib.saturating_mul(1024),
        },
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
        return Ok(Submission {
            path: path.to_owned(),
            kind: SubmissionKind::Language {
                name: name.to_owned(),
                language: language.clone(),
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
