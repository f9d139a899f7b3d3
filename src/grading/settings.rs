//! The settings resolver: what one grading run is allowed (limits, jobs,
//! checker options), from the command line's flags over judge.toml over
//! problem.toml over the built-in defaults. Each value says which of them
//! it came from, and what deserves a warning is returned as data for the
//! caller to word.

use crate::config::judge::JudgeConfig;
use crate::config::problem::LimitsToml;
use crate::grading::run::RandomAskedBy;
use crate::package::Package;
use crate::problems::CheckOptions;
use crate::runner::{self, Settings};
use crate::sandbox::Limits;
use std::fmt;

/// Bytes of a submission's stderr the judge keeps; the rest is discarded.
pub(crate) const STDERR_KEPT_BYTES: u64 = 64 * 1024;

/// The flags that override judge.toml's limits and jobs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Overrides {
    pub time_limit_ms: Option<u64>,
    pub memory_limit_mib: Option<u64>,
    pub jobs: Option<u64>,
}

/// Where a setting came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// A command-line flag (`--time-limit`, `--memory-limit`, `--jobs`, ...).
    Flag,
    /// The judge configuration (`--config FILE` or `./judge.toml`).
    JudgeToml,
    /// The package's `problem.toml` (or `problem.yaml`).
    ProblemToml,
    /// The judge's built-in default (for jobs: the cores it may use).
    Default,
}

/// Which source each resolved value came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sources {
    pub(crate) time_limit: Source,
    pub(crate) memory_limit: Source,
    pub(crate) output_limit: Source,
    pub(crate) jobs: Source,
}

/// Something about the settings the user should hear.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SettingsWarning {
    /// More jobs were asked for than the machine lets the judge use.
    JobsCapped {
        requested: usize,
        cores: usize,
        jobs: usize,
    },
    /// A package with scored test groups is graded with random tests too,
    /// which are in no group: it is scored as a pass-fail problem.
    GroupsUnused { package: String, random: u32 },
}

impl fmt::Display for SettingsWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingsWarning::JobsCapped {
                requested,
                cores,
                jobs,
            } => write!(
                f,
                "{requested} jobs asked for, but this machine lets the judge use {cores} \
                 core(s): running {jobs} at a time, so no test waits for a core"
            ),
            SettingsWarning::GroupsUnused { package, random } => {
                f.write_str(&super::score::groups_unused(package, Some(*random)))
            }
        }
    }
}

/// The settings of a run, where each came from, and what to warn about.
#[derive(Clone, Debug)]
pub struct Resolved {
    pub settings: Settings,
    #[cfg_attr(
        not(test),
        expect(
            dead_code,
            reason = "the resolver names each setting's source; the precedence \
                      table tests read it, no command shows it yet"
        )
    )]
    pub(crate) sources: Sources,
    pub(crate) warnings: Vec<SettingsWarning>,
}

/// Flags over judge.toml over `package`'s problem.toml over the defaults.
pub(crate) fn resolve(flags: &Overrides, config: &JudgeConfig, package: &Package) -> Resolved {
    resolve_with(
        flags,
        config,
        &package.manifest().limits,
        package.check_options(),
    )
}

/// `resolve` with the package's limits given: `judge grade --package`
/// derives a time limit the package does not state.
pub fn resolve_with(
    flags: &Overrides,
    config: &JudgeConfig,
    package_limits: &LimitsToml,
    check_options: CheckOptions,
) -> Resolved {
    resolve_on(
        flags,
        config,
        package_limits,
        check_options,
        runner::available_cores(),
    )
}

/// [`resolve_with`] on a machine of `cores` cores.
fn resolve_on(
    flags: &Overrides,
    config: &JudgeConfig,
    package_limits: &LimitsToml,
    check_options: CheckOptions,
    cores: usize,
) -> Resolved {
    let pick = |flag: Option<u64>, judge: Option<u64>, problem: u64| match (flag, judge) {
        (Some(value), _) => (value, Source::Flag),
        (None, Some(value)) => (value, Source::JudgeToml),
        (None, None) => (problem, Source::ProblemToml),
    };
    let (time_limit_ms, time_source) = pick(
        flags.time_limit_ms,
        config.limits.time_limit_ms,
        package_limits.time_limit_ms,
    );
    let (memory_limit_mib, memory_source) = pick(
        flags.memory_limit_mib,
        config.limits.memory_limit_mib,
        package_limits.memory_limit_mib,
    );
    let (output_limit_kib, output_source) = pick(
        None,
        config.limits.output_limit_kib,
        package_limits.output_limit_kib,
    );
    let (requested, jobs_source) = match flags.jobs {
        // `--jobs 0` is one per core, as `jobs = 0` in judge.toml is.
        Some(0) => (cores, Source::Flag),
        Some(jobs) => (jobs as usize, Source::Flag),
        None if config.jobs > 0 => (config.jobs, Source::JudgeToml),
        None => (cores, Source::Default),
    };
    let (jobs, capped) = runner::cap_jobs(requested, cores);
    let mut warnings = Vec::new();
    if capped {
        warnings.push(SettingsWarning::JobsCapped {
            requested,
            cores,
            jobs,
        });
    }
    Resolved {
        settings: Settings {
            limits: Limits {
                cpu_time_ms: time_limit_ms,
                wall_time_ms: config.wall_time_ms(time_limit_ms),
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
            check_options,
        },
        sources: Sources {
            time_limit: time_source,
            memory_limit: memory_source,
            output_limit: output_source,
            jobs: jobs_source,
        },
        warnings,
    }
}

/// The checker options of `judge check`: `--any-solution` (mayan: any
/// valid solution, not only the smallest) over problem.toml's `[checker]
/// lexmin`.
/// `package` is the package's own options.
pub(crate) fn check_options(package: CheckOptions, any_solution: bool) -> CheckOptions {
    let mut options = package;
    if any_solution {
        options.lexmin = false;
    }
    options
}

/// Whether a grade's reports are for students, and who asked:
/// `--student-view` over judge.toml's `student-view`; `None` when off.
pub(crate) fn student_view(flag: bool, config: &JudgeConfig) -> Option<Source> {
    if flag {
        Some(Source::Flag)
    } else if config.student_view {
        Some(Source::JudgeToml)
    } else {
        None
    }
}

/// How many random tests a run adds, and who asked: `--random N` first;
/// a run that writes a platform's results file (`platform`) none, as the
/// platform's autograder grades (issue #30: its preview must give the
/// autograder's grade); with `--tests DIR`, only judge.toml's own
/// `random-tests` adds more (the built-in default does not: issue #8, a
/// teacher's folder is run exactly); without it, `random-tests` as
/// configured or by default.
pub(crate) fn random_tests(
    tests_folder: bool,
    platform: bool,
    flag: Option<u32>,
    config: &JudgeConfig,
) -> (u32, RandomAskedBy) {
    match (flag, config.random_tests_set) {
        (Some(count), _) => (count, RandomAskedBy::Flag),
        (None, _) if platform => (0, RandomAskedBy::Platform),
        (None, Some(count)) => (count, RandomAskedBy::JudgeToml),
        (None, None) if tests_folder => (0, RandomAskedBy::Nobody),
        (None, None) => (config.random_tests, RandomAskedBy::Default),
    }
}

/// The master seed of random tests: `--seed`, else judge.toml's `seed`, else
/// the seed problem.toml records for the package's fixed set. One rule for
/// `run`, `grade` and `stress`, so the same config makes the same tests.
pub(crate) fn master_seed(flag: Option<u64>, config: &JudgeConfig, package: &Package) -> u64 {
    flag.or(config.seed)
        .unwrap_or(package.manifest().tests.seed)
}

/// A flag's value that is not what it must be (the clap value parsers'
/// errors, which clap prints after the flag's name).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum FlagError {
    /// `--seed`: not a `u64`.
    #[error("expected a whole number from 0 to {max}, found `{0}`", max = u64::MAX)]
    Seed(String),
    /// A limit: not a whole number of at least 1.
    #[error("expected a whole number of at least 1, found `{0}`")]
    Limit(String),
}

/// Clap value parser for `--seed`: a bad value says the range (issue #10).
pub(crate) fn parse_seed(text: &str) -> Result<u64, FlagError> {
    text.parse().map_err(|_| FlagError::Seed(text.to_owned()))
}

/// Clap value parser for a limit (`--time-limit MS`, `--memory-limit MB`):
/// a whole number of at least 1, said in words (`0` and `-5` included,
/// with `allow_negative_numbers`).
pub(crate) fn parse_limit(text: &str) -> Result<u64, FlagError> {
    match text.parse::<u64>() {
        Ok(value) if value >= 1 => Ok(value),
        _ => Err(FlagError::Limit(text.to_owned())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_seed_or_limit_says_what_was_expected() {
        assert_eq!(parse_seed("7"), Ok(7));
        assert_eq!(
            parse_seed("-1").map_err(|error| error.to_string()),
            Err(format!(
                "expected a whole number from 0 to {}, found `-1`",
                u64::MAX
            ))
        );
        assert_eq!(parse_limit("1"), Ok(1));
        for bad in ["0", "-5", "x"] {
            assert_eq!(
                parse_limit(bad).map_err(|error| error.to_string()),
                Err(format!(
                    "expected a whole number of at least 1, found `{bad}`"
                ))
            );
        }
    }

    fn package_limits() -> LimitsToml {
        LimitsToml {
            time_limit_ms: 1000,
            memory_limit_mib: 256,
            output_limit_kib: 64,
            tool_time_limit_ms: None,
            tool_memory_limit_mib: None,
        }
    }

    fn config(toml: &str) -> JudgeConfig {
        JudgeConfig::parse(std::path::Path::new("judge.toml"), toml).unwrap()
    }

    /// Each row: flags, judge.toml, then the time limit, memory limit,
    /// output limit and jobs expected, with their sources.
    #[test]
    fn flags_over_judge_toml_over_problem_toml_over_defaults() {
        use Source::*;
        let none = Overrides::default();
        let flags = Overrides {
            time_limit_ms: Some(3000),
            memory_limit_mib: Some(64),
            jobs: Some(2),
        };
        let judge = "jobs = 3\n[limits]\ntime-limit-ms = 2000\nmemory-limit-mib = 128\noutput-limit-kib = 32\n";
        type Row<'a> = (
            &'a str,
            Overrides,
            &'a str,
            (u64, Source),
            (u64, Source),
            (u64, Source),
            (usize, Source),
        );
        let rows: [Row<'_>; 4] = [
            (
                "problem.toml and the cores",
                none,
                "",
                (1000, ProblemToml),
                (256, ProblemToml),
                (64, ProblemToml),
                (4, Default),
            ),
            (
                "judge.toml over problem.toml",
                none,
                judge,
                (2000, JudgeToml),
                (128, JudgeToml),
                (32, JudgeToml),
                (3, JudgeToml),
            ),
            (
                "flags over judge.toml",
                flags,
                judge,
                (3000, Flag),
                (64, Flag),
                (32, JudgeToml),
                (2, Flag),
            ),
            (
                "flags over problem.toml",
                flags,
                "",
                (3000, Flag),
                (64, Flag),
                (64, ProblemToml),
                (2, Flag),
            ),
        ];
        for (name, flags, toml, time, memory, output, jobs) in rows {
            let config = config(toml);
            let resolved = resolve_on(
                &flags,
                &config,
                &package_limits(),
                CheckOptions::default(),
                4,
            );
            let limits = &resolved.settings.limits;
            assert_eq!(
                (limits.cpu_time_ms, resolved.sources.time_limit),
                time,
                "{name}"
            );
            assert_eq!(
                (limits.memory_kib / 1024, resolved.sources.memory_limit),
                memory,
                "{name}"
            );
            assert_eq!(
                (limits.stdout_bytes / 1024, resolved.sources.output_limit),
                output,
                "{name}"
            );
            assert_eq!(
                (resolved.settings.jobs, resolved.sources.jobs),
                jobs,
                "{name}"
            );
            assert_eq!(limits.wall_time_ms, config.wall_time_ms(time.0), "{name}");
            assert!(resolved.warnings.is_empty(), "{name}");
        }
    }

    #[test]
    fn more_jobs_than_cores_are_capped_with_a_warning() {
        let flags = Overrides {
            jobs: Some(16),
            ..Overrides::default()
        };
        let resolved = resolve_on(
            &flags,
            &config(""),
            &package_limits(),
            CheckOptions::default(),
            2,
        );
        assert_eq!(resolved.settings.jobs, 2);
        assert_eq!(
            resolved.warnings,
            vec![SettingsWarning::JobsCapped {
                requested: 16,
                cores: 2,
                jobs: 2
            }]
        );
        assert_eq!(
            resolved.warnings[0].to_string(),
            "16 jobs asked for, but this machine lets the judge use 2 core(s): running 2 at a \
             time, so no test waits for a core"
        );
    }

    /// Each row: a `--tests` folder or not, `--random`, judge.toml, then the
    /// count and who asked.
    #[test]
    fn random_tests_follow_the_flag_then_judge_toml_then_the_default() {
        let rows = [
            (
                false,
                Some(5),
                "random-tests = 7\n",
                (5, RandomAskedBy::Flag),
            ),
            (true, Some(5), "", (5, RandomAskedBy::Flag)),
            (
                true,
                None,
                "random-tests = 7\n",
                (7, RandomAskedBy::JudgeToml),
            ),
            (
                false,
                None,
                "random-tests = 7\n",
                (7, RandomAskedBy::JudgeToml),
            ),
            (true, None, "", (0, RandomAskedBy::Nobody)),
        ];
        for (folder, flag, toml, expected) in rows {
            assert_eq!(
                random_tests(folder, false, flag, &config(toml)),
                expected,
                "{folder} {flag:?} {toml:?}"
            );
        }
        let defaults = config("");
        assert_eq!(
            random_tests(false, false, None, &defaults),
            (defaults.random_tests, RandomAskedBy::Default)
        );
        // A platform's results file: none, unless `--random` asks.
        assert_eq!(
            random_tests(false, true, None, &config("random-tests = 7\n")),
            (0, RandomAskedBy::Platform)
        );
        assert_eq!(
            random_tests(false, true, Some(3), &defaults),
            (3, RandomAskedBy::Flag)
        );
    }

    #[test]
    fn the_student_view_flag_comes_before_judge_toml() {
        let rows = [
            (false, "", None),
            (true, "", Some(Source::Flag)),
            (false, "student-view = true\n", Some(Source::JudgeToml)),
            (true, "student-view = true\n", Some(Source::Flag)),
            (false, "student-view = false\n", None),
        ];
        for (flag, toml, expected) in rows {
            assert_eq!(
                student_view(flag, &config(toml)),
                expected,
                "{flag} {toml:?}"
            );
        }
    }

    #[test]
    fn any_solution_overrides_the_packages_lexmin() {
        let package = Package::bundled("mayan").unwrap();
        assert!(
            package.check_options().lexmin,
            "mayan asks for the smallest"
        );
        assert!(check_options(package.check_options(), false).lexmin);
        assert!(!check_options(package.check_options(), true).lexmin);
    }

    #[test]
    fn the_seed_is_the_flag_then_judge_toml_then_problem_toml() {
        let package = Package::bundled("rooks").unwrap();
        let recorded = package.manifest().tests.seed;
        assert_eq!(master_seed(Some(1), &config("seed = 2\n"), &package), 1);
        assert_eq!(master_seed(None, &config("seed = 2\n"), &package), 2);
        assert_eq!(master_seed(None, &config(""), &package), recorded);
    }
}
