//! `judge grade --package DIR`: grade a package's own
//! `submissions/<verdict>/` against their folders, as the Kattis tools do
//! (issue #9). DIR is a Kattis / ICPC package (`problem.yaml`) or one of
//! ours (`problem.toml`).
//!
//! Exit codes: 0 every graded submission got its folder's verdict, 1 one
//! did not, 2 usage or configuration error (nothing run), 3 the judge
//! failed (a JE). Submissions in a language that is not configured are
//! listed as skipped with the reason, not counted.

use super::run::{announce_isolation, classify, load_config, settings, Overrides};
use super::{say, write_stdout, UsageError};
use crate::config::kattis::{self, PackageSubmission};
use crate::config::problem::Package;
use crate::exit;
use crate::grade::kattis_folder_agrees;
use crate::runner::{self, FixedTests, Submission, SubmissionResult, Workspace};
use crate::verdict::Verdict;
use std::fmt::Write as _;
use std::path::Path;

/// The CPU time accepted submissions get while the time limit is derived.
const DERIVING_LIMIT_MS: u64 = 10_000;

/// Grades the package in `dir`.
pub fn run(args: &super::grade::GradeArgs, dir: &Path) -> anyhow::Result<u8> {
    if args.json.is_some()
        || args.reports.junit.is_some()
        || args.reports.csv.is_some()
        || args.reports.html.is_some()
        || args.resume.is_some()
        || args.shard.is_some()
    {
        return Err(UsageError::new(
            "`--package` prints its own table and takes no report, `--resume` or `--shard` flag",
            None,
        )
        .into());
    }
    let config = load_config(args.config.as_deref())?;
    if !dir.is_dir() {
        return Err(UsageError::new(
            format!("the package `{}` is not a folder", dir.display()),
            None,
        )
        .into());
    }
    let (mut package, explicit_ms, multiplier) = if kattis::is_kattis_package(dir) {
        let loaded = kattis::load(dir, &config)?;
        (loaded.package, loaded.time_limit_ms, loaded.time_multiplier)
    } else if dir.join("problem.toml").is_file() {
        let absolute = fs_err::canonicalize(dir)?;
        let (Some(parent), Some(id)) = (absolute.parent(), absolute.file_name()) else {
            return Err(
                UsageError::new(format!("`{}` has no parent folder", dir.display()), None).into(),
            );
        };
        let package = Package::load_with(Some(parent), &id.to_string_lossy(), Some(&config))?;
        let limit = package.manifest.limits.time_limit_ms;
        (package, Some(limit), 5.0)
    } else {
        return Err(UsageError::new(
            format!(
                "`{}` holds neither `problem.yaml` (Kattis) nor `problem.toml`",
                dir.display()
            ),
            None,
        )
        .into());
    };

    let mut graded: Vec<(PackageSubmission, Submission)> = Vec::new();
    let mut skipped: Vec<(PackageSubmission, String)> = Vec::new();
    for listed in kattis::package_submissions(dir)? {
        if kattis_folder_agrees(&listed.folder, Verdict::Accepted).is_none() {
            let reason = format!(
                "`{}/` is not a verdict folder of the Kattis format",
                listed.folder
            );
            skipped.push((listed, reason));
        } else if listed.path.is_dir() {
            skipped.push((
                listed,
                "a folder: multi-file submissions are not supported".to_owned(),
            ));
        } else {
            match classify(&listed.path, &config) {
                Ok(submission) => graded.push((listed, submission)),
                Err(_) => {
                    let extension = listed
                        .path
                        .extension()
                        .map_or_else(String::new, |extension| {
                            format!(" (`.{}`)", extension.to_string_lossy())
                        });
                    let reason = format!(
                        "its language{extension} is not configured in judge.toml (known: {})",
                        config.known_languages()
                    );
                    skipped.push((listed, reason));
                }
            }
        }
    }
    for (listed, reason) in &skipped {
        say(&format!("skipped: {}: {reason}", listed.path.display()));
    }
    if graded.is_empty() {
        return Err(UsageError::new(
            format!(
                "`{}` has no submission to grade under `submissions/<verdict>/`",
                dir.display()
            ),
            None,
        )
        .into());
    }

    announce_isolation();
    let overrides = Overrides {
        time_limit_ms: None,
        memory_limit_mib: None,
        jobs: args.jobs,
    };
    let workspace = Workspace::new()?;
    let tests = runner::load_tests(
        &*package.problem,
        Some(FixedTests::Package(&package.tests)),
        &package.profiles(),
        0,
        0,
        &workspace,
    )?;
    let time_limit_ms = match explicit_ms {
        Some(limit) => limit,
        None => {
            let accepted: Vec<Submission> = graded
                .iter()
                .filter(|(listed, _)| listed.folder == "accepted")
                .map(|(_, submission)| submission.clone())
                .collect();
            let generous = settings(
                &Overrides {
                    time_limit_ms: Some(DERIVING_LIMIT_MS),
                    ..overrides
                },
                &config,
                &package,
            );
            // Each run of the runner needs a workspace of its own.
            let scratch = Workspace::new()?;
            let results = runner::run(
                &*package.problem,
                &accepted,
                &tests,
                &generous,
                &scratch,
                &mut |_| {},
            )?;
            let slowest = results
                .iter()
                .filter(|result| result.verdict == Verdict::Accepted)
                .flat_map(|result| {
                    result
                        .tests
                        .iter()
                        .map(move |test| (test.time_ms, &result.submission))
                })
                .max();
            let Some((slowest_ms, slowest_name)) = slowest else {
                return Err(UsageError::new(
                    "no time limit in problem.yaml, and no accepted submission passed to derive one from",
                    None,
                )
                .into());
            };
            let limit = derived_time_limit_ms(slowest_ms, multiplier);
            say(&format!(
                "time limit: {} s, derived from the slowest accepted submission (`{slowest_name}`, \
                 {slowest_ms} ms) x time_multiplier {multiplier}, rounded up to whole seconds",
                limit / 1000
            ));
            limit
        }
    };
    package.manifest.limits.time_limit_ms = time_limit_ms;
    let settings = settings(&overrides, &config, &package);
    let submissions: Vec<Submission> = graded
        .iter()
        .map(|(_, submission)| submission.clone())
        .collect();
    let results = runner::run(
        &*package.problem,
        &submissions,
        &tests,
        &settings,
        &workspace,
        &mut |_| {},
    )?;

    let mut table = String::new();
    let mut agree = 0;
    let mut judge_error = false;
    for ((listed, _), result) in graded.iter().zip(&results) {
        let ok = kattis_folder_agrees(&listed.folder, result.verdict).unwrap_or(false);
        judge_error |= result.verdict == Verdict::JudgeError;
        agree += usize::from(ok);
        writeln!(
            table,
            "{} {}: {} (folder {}){}",
            if ok { "ok      " } else { "MISMATCH" },
            listed.path.display(),
            result.verdict,
            listed.folder,
            first_failure(result)
        )?;
    }
    writeln!(
        table,
        "{agree} of {} submissions got their folder's verdict; {} skipped; time limit {} ms",
        results.len(),
        skipped.len(),
        time_limit_ms
    )?;
    write_stdout(&table)?;
    Ok(if judge_error {
        exit::JUDGE_FAILED
    } else if agree == results.len() {
        exit::SUCCESS
    } else {
        exit::FAILURE
    })
}

/// problemtools: the slowest accepted run times `time_multiplier`, rounded
/// up to whole seconds, at least one second.
pub fn derived_time_limit_ms(slowest_ms: u64, multiplier: f64) -> u64 {
    let exact_seconds = slowest_ms as f64 * multiplier / 1000.0;
    (exact_seconds.ceil().max(1.0) as u64) * 1000
}

/// " on TEST: message", for a submission that did not pass.
fn first_failure(result: &SubmissionResult) -> String {
    if let Some(verdict) = result.compile.verdict {
        return format!(
            " ({verdict} at compile: {})",
            result.compile.message.lines().next().unwrap_or("")
        );
    }
    result
        .tests
        .iter()
        .find(|test| !test.verdict.is_accepted())
        .map_or_else(String::new, |test| {
            format!(" on {}: {}", test.name, test.message)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derives_the_time_limit_as_problemtools_does() {
        assert_eq!(derived_time_limit_ms(12, 5.0), 1000);
        assert_eq!(derived_time_limit_ms(300, 5.0), 2000);
        assert_eq!(derived_time_limit_ms(400, 5.0), 2000);
        assert_eq!(derived_time_limit_ms(401, 5.0), 3000);
    }
}
