//! `judge export --gradescope PROBLEM... OUT`: a Gradescope autograder zip
//! (issue #30), laid out as Gradescope's "Autograder Specifications" ask:
//! at the zip's root,
//!
//! - `setup.sh`: run once on Gradescope's Ubuntu image; installs from
//!   Ubuntu's own archive (`apt-get`) the toolchains of the languages the
//!   problems need: those of the packages' own programs (reference,
//!   generator, validator, checker, interactor) and those hand-ins may be
//!   in (every configured language, or `--languages`), and the judge from
//!   the zip (`judge`, this very binary: it must run on that image's
//!   glibc);
//! - `run_autograder`: grades `/autograder/submission` as a class of one
//!   student and writes `/autograder/results/results.json` with
//!   `--gradescope`. It never ends without that file: the judge runs under
//!   a time budget (`timeout`, below Gradescope's own), a judge cut short
//!   writes its interrupted result itself, and a judge that crashed or
//!   wrote nothing leaves a result of 0 that says what happened. Its
//!   paths are overridable (`AUTOGRADER_ROOT`, `JUDGE`,
//!   `JUDGE_TIME_BUDGET`) so a test runs it end to end outside Gradescope;
//! - `judge.toml`: the problems, `layout = "student/problem"`, no random
//!   tests (the same tests for every student), and the exporting
//!   judge.toml's `[report.gradescope] hidden-tests`;
//! - `problems/<id>/`: each package that is not built in.

use super::ExportError;
use crate::config::judge::{JudgeConfig, Language};
use crate::package::{Package, ProblemRef};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// What an export wrote: the zip, and each file in it.
#[derive(Debug)]
pub(crate) struct Autograder {
    pub(crate) zip: PathBuf,
    pub(crate) files: Vec<String>,
    /// What the teacher should know before uploading it ([`budget_warning`]).
    pub(crate) warnings: Vec<String>,
}

/// The default time budget of a grade (s): below Gradescope's default
/// autograder timeout (10 minutes), so the result is written in time.
const TIME_BUDGET_S: u32 = 540;

/// How long run_autograder, stopped by a signal (Gradescope ends a grader
/// with SIGTERM), waits for the judge to write its interrupted result (s).
const GRACE_S: u32 = 10;

/// The languages hand-ins may be in, by `config`'s names: `asked` (each
/// checked to be one of them), or every one when nothing is asked.
pub(crate) fn submission_languages<'a>(
    asked: &[String],
    config: &'a JudgeConfig,
) -> Result<Vec<(&'a str, &'a Language)>, ExportError> {
    if asked.is_empty() {
        return Ok(config
            .languages
            .iter()
            .map(|(name, language)| (name.as_str(), language))
            .collect());
    }
    asked
        .iter()
        .map(|name| {
            config
                .languages
                .get_key_value(name.trim())
                .map(|(name, language)| (name.as_str(), language))
                .ok_or_else(|| ExportError::UnknownLanguage {
                    name: crate::visible::visible(name),
                    known: config.known_languages(),
                    suggestion: crate::suggest::did_you_mean(
                        name.trim(),
                        config.languages.keys().map(String::as_str),
                    ),
                })
        })
        .collect()
}

/// The languages the autograder's image needs, by name: those of
/// `packages`' own programs (a built-in engine has none), then
/// `submissions`'.
fn needed_languages<'a>(
    packages: &'a [Package],
    submissions: &[(&'a str, &'a Language)],
) -> Vec<(&'a str, &'a Language)> {
    let mut needed: Vec<(&str, &Language)> = Vec::new();
    for package in packages {
        if let ProblemRef::Programs(problem) = package.problem() {
            needed.extend(problem.programs().into_iter().filter_map(|tool| {
                tool.language
                    .as_ref()
                    .map(|(name, language)| (name.as_str(), language))
            }));
        }
    }
    needed.extend(submissions.iter().copied());
    needed
}

/// Writes the autograder zip for `packages` to `out`: the judge binary
/// `judge`, the toolchains of the packages' programs and of the
/// `submissions` languages ([`submission_languages`]), the packages found
/// in `problems_dir` (a built-in problem's code is in the judge).
pub(crate) fn gradescope(
    packages: &[Package],
    problems_dir: Option<&Path>,
    submissions: &[(&str, &Language)],
    all: bool,
    hidden_tests: &'static str,
    judge: &Path,
    out: &Path,
) -> Result<Autograder, ExportError> {
    let problems: Vec<String> = packages
        .iter()
        .map(|package| package.id().to_owned())
        .collect();
    let write_error = |source: std::io::Error| ExportError::Write {
        path: out.to_owned(),
        source,
    };
    // Refused before anything is written: a language whose toolchain no
    // package is known to give would leave the image without it.
    let apt = apt_packages(&needed_languages(packages, submissions))?;
    let mut entries: Vec<(String, Vec<u8>, u32)> = vec![
        (
            "setup.sh".to_owned(),
            setup_script(&apt).into_bytes(),
            0o755,
        ),
        (
            "run_autograder".to_owned(),
            run_script(problems_dir.is_some()).into_bytes(),
            0o755,
        ),
        (
            "judge.toml".to_owned(),
            judge_toml(
                &problems,
                hidden_tests,
                &only_languages(packages, submissions, all),
            )
            .into_bytes(),
            0o644,
        ),
    ];
    let binary = fs_err::read(judge).map_err(|source| ExportError::Write {
        path: judge.to_owned(),
        source,
    })?;
    entries.push(("judge".to_owned(), binary, 0o755));
    if let Some(dir) = problems_dir {
        for id in &problems {
            let package = dir.join(id);
            if !package.is_dir() {
                continue;
            }
            for entry in walkdir::WalkDir::new(&package).sort_by_file_name() {
                let entry = entry.map_err(|error| write_error(error.into()))?;
                if !entry.file_type().is_file() {
                    continue;
                }
                let relative = entry
                    .path()
                    .strip_prefix(dir)
                    .map_err(|error| write_error(std::io::Error::other(error)))?;
                let bytes = fs_err::read(entry.path()).map_err(write_error)?;
                entries.push((
                    format!("problems/{}", relative.to_string_lossy()),
                    bytes,
                    0o644,
                ));
            }
        }
    }
    // Written whole beside `out`, then renamed: never half a zip.
    let parent = out
        .parent()
        .filter(|parent| !parent.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut temporary = tempfile::NamedTempFile::new_in(parent).map_err(write_error)?;
    {
        let mut zip = zip::ZipWriter::new(temporary.as_file_mut());
        for (name, bytes, mode) in &entries {
            let options = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Stored)
                .unix_permissions(*mode);
            zip.start_file(name.as_str(), options)
                .map_err(|error| write_error(std::io::Error::other(error)))?;
            zip.write_all(bytes).map_err(write_error)?;
        }
        zip.finish()
            .map_err(|error| write_error(std::io::Error::other(error)))?;
    }
    temporary
        .persist(out)
        .map_err(|error| write_error(error.error))?;
    Ok(Autograder {
        zip: out.to_owned(),
        files: entries.into_iter().map(|(name, _, _)| name).collect(),
        warnings: budget_warning(packages, submissions).into_iter().collect(),
    })
}

/// A warning when the problems' tests, each run to its CPU limit (a
/// hand-in that loops, in the slowest of `submissions`' languages), one
/// after the other, take longer than the grade's budget
/// ([`TIME_BUDGET_S`]): such a hand-in would get "interrupted, not a
/// grade" instead of TLE and a score.
fn budget_warning(packages: &[Package], submissions: &[(&str, &Language)]) -> Option<String> {
    let (slowest, factor) = submissions
        .iter()
        .map(|(name, language)| (*name, language.time_factor()))
        .fold(("", 1.0), |slowest, language| {
            if language.1 > slowest.1 {
                language
            } else {
                slowest
            }
        });
    let tests: usize = packages.iter().map(|package| package.tests().len()).sum();
    let worst_ms: f64 = packages
        .iter()
        .map(|package| {
            package.tests().len() as f64 * package.manifest().limits.time_limit_ms as f64 * factor
        })
        .sum();
    if worst_ms <= f64::from(TIME_BUDGET_S) * 1000.0 {
        return None;
    }
    let slowest = if slowest.is_empty() {
        String::new()
    } else {
        format!(" (x{factor} for `{slowest}`)")
    };
    Some(format!(
        "a hand-in that loops runs {tests} tests to their time limit{slowest}: {:.0} s, more \
         than the autograder's {TIME_BUDGET_S} s budget, so it would be cut short with no grade \
         instead of TLE and a score; lower `time-limit-ms` in the problem's problem.toml, or \
         name faster languages with `--languages`",
        worst_ms / 1000.0
    ))
}

/// The Ubuntu 22.04 ("jammy", Gradescope's base image) package that gives
/// the program `name` (a compiler or an interpreter), from Ubuntu's own
/// archive (main or universe).
fn apt_package(name: &str) -> Option<&'static str> {
    Some(match name {
        "gcc" | "cc" => "gcc",
        "g++" | "c++" => "g++",
        "clang" | "clang++" => "clang",
        "python3" => "python3",
        // `/usr/bin/python` is no Python on Ubuntu without this.
        "python" => "python-is-python3",
        "python2" | "python2.7" => "python2",
        "pypy3" => "pypy3",
        "pypy" => "pypy",
        "javac" | "java" => "default-jdk-headless",
        "rustc" => "rustc",
        "go" => "golang-go",
        "kotlinc" | "kotlin" => "kotlin",
        "bash" | "sh" => "bash",
        "node" | "nodejs" => "nodejs",
        "ruby" => "ruby",
        "php" => "php-cli",
        "ghc" => "ghc",
        "mcs" => "mono-mcs",
        "mono" => "mono-runtime",
        "ocamlopt" | "ocamlc" | "ocaml" => "ocaml-nox",
        "fpc" => "fp-compiler",
        "perl" => "perl",
        _ => return None,
    })
}

/// The program an argv runs: its first word, past `env` and its
/// `NAME=value` settings (`env GOCACHE=... go build`); `None` for the
/// program a compile made (`{executable}`), which needs no package.
fn program_of(argv: &[String]) -> Option<String> {
    let mut words = argv.iter().peekable();
    if words
        .peek()
        .is_some_and(|word| Path::new(word.as_str()).file_name() == Some("env".as_ref()))
    {
        words.next();
        while words
            .peek()
            .is_some_and(|word| word.contains('=') || word.starts_with('-'))
        {
            words.next();
        }
    }
    let program = words.next()?;
    if program.contains('{') {
        return None;
    }
    Some(Path::new(program).file_name().map_or_else(
        || program.clone(),
        |name| name.to_string_lossy().into_owned(),
    ))
}

/// The Ubuntu packages that give the programs of `languages` (their
/// compiler and what runs the result), each once, after `coreutils`
/// (`run_autograder`'s `timeout`). A program no package is known to give
/// is an error naming its language: the image would lack it, and every
/// hand-in in that language would fail for the grader's fault.
fn apt_packages(languages: &[(&str, &Language)]) -> Result<Vec<&'static str>, ExportError> {
    let mut packages = vec!["coreutils"];
    for (name, language) in languages {
        let programs = language
            .compile
            .as_deref()
            .and_then(program_of)
            .into_iter()
            .chain(program_of(&language.run));
        for program in programs {
            let package = apt_package(&program).ok_or_else(|| ExportError::NoPackage {
                language: crate::visible::visible(name),
                program: crate::visible::visible(&program),
            })?;
            if !packages.contains(&package) {
                packages.push(package);
            }
        }
    }
    Ok(packages)
}

fn setup_script(packages: &[&str]) -> String {
    format!(
        "#!/usr/bin/env bash\n\
         # Gradescope runs this once, as root, when it builds the autograder image.\n\
         set -euo pipefail\n\
         export DEBIAN_FRONTEND=noninteractive\n\
         apt-get update\n\
         apt-get install -y --no-install-recommends {}\n\
         install -m 0755 /autograder/source/judge /usr/local/bin/judge\n\
         judge --version\n",
        packages.join(" ")
    )
}

fn run_script(own_packages: bool) -> String {
    let problems_dir = if own_packages {
        " --problems-dir \"$ROOT/source/problems\""
    } else {
        ""
    };
    format!(
        r#"#!/usr/bin/env bash
# Grades the hand-in in $ROOT/submission and writes $ROOT/results/results.json,
# whatever happens. The paths are Gradescope's; the variables are for tests.
ROOT="${{AUTOGRADER_ROOT:-/autograder}}"
JUDGE="${{JUDGE:-judge}}"
BUDGET="${{JUDGE_TIME_BUDGET:-{TIME_BUDGET_S}}}"
GRACE="${{JUDGE_GRACE:-{GRACE_S}}}"
RESULTS="$ROOT/results/results.json"
mkdir -p "$ROOT/results"
rm -f "$RESULTS"
fallback() {{
    printf '{{"score": 0, "output": "%s", "output_format": "text", "visibility": "visible", "stdout_visibility": "hidden", "tests": []}}\n' "$1" > "$RESULTS"
}}
WORK="$(mktemp -d)"
mkdir -p "$WORK/class/student"
cp -R "$ROOT/submission/." "$WORK/class/student/" 2>/dev/null
sed 's|^submissions = .*|submissions = "class"|' "$ROOT/source/judge.toml" > "$WORK/judge.toml"
status=0
stopped=""
started=$SECONDS
# --foreground keeps the judge in this script's process group, so nothing
# outlives the script; a signal sent to the script is passed on to the
# judge (through `timeout`), which then writes its interrupted result.
timeout --foreground --signal=TERM --kill-after=15 "$BUDGET" \
    "$JUDGE" grade --config "$WORK/judge.toml"{problems_dir} --quiet --gradescope "$RESULTS" &
pid=$!
stop() {{
    stopped="$1"
    kill -s "$1" "$pid" 2>/dev/null
}}
trap 'stop TERM' TERM
trap 'stop INT' INT
trap 'stop HUP' HUP
while :; do
    wait "$pid"
    status=$?
    # A trapped signal ends `wait` early: wait again for the judge.
    if [ -n "$stopped" ] || ! kill -0 "$pid" 2>/dev/null; then
        break
    fi
done
if [ -n "$stopped" ]; then
    trap '' TERM INT HUP
    # The judge's grace to write its interrupted result, then nothing is left.
    waited=0
    while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt $((GRACE * 10)) ]; do
        sleep 0.1
        waited=$((waited + 1))
    done
    if kill -0 "$pid" 2>/dev/null; then
        pkill -KILL -P "$pid" 2>/dev/null
        kill -KILL "$pid" 2>/dev/null
    fi
    wait "$pid" 2>/dev/null
    status=$?
fi
if [ ! -s "$RESULTS" ] || ! grep -q '"score"' "$RESULTS"; then
    # 124: the budget ran out; 137 (SIGKILL) is the budget's only when it
    # ran out, else something else killed the grader (the kernel, out of memory).
    if [ -n "$stopped" ]; then
        fallback "The grader was stopped (SIG$stopped, as when the platform ends a grade) before it could write a result; this is not a grade. Submit again or tell your teacher."
    elif [ "$status" -eq 124 ] || {{ [ "$status" -eq 137 ] && [ $((SECONDS - started)) -ge "$BUDGET" ]; }}; then
        fallback "The grader ran out of time ($BUDGET s) before it could write a result; this is not a grade. Submit again or tell your teacher."
    elif [ "$status" -eq 137 ]; then
        fallback "The grader was killed (SIGKILL, as when the machine runs out of memory) before it could write a result; this is not a grade. Submit again or tell your teacher."
    else
        fallback "The grader failed (exit status $status) before it could write a result; this is not a grade. Tell your teacher."
    fi
fi
rm -rf "$WORK"
exit 0
"#
    )
}

/// The languages the autograder's judge.toml keeps (`only-languages`):
/// none named when hand-ins may be in `all` of them, else the languages
/// of the hand-ins and of the packages' own programs, each once.
fn only_languages(
    packages: &[Package],
    submissions: &[(&str, &Language)],
    all: bool,
) -> Vec<String> {
    if all {
        return Vec::new();
    }
    let mut names: Vec<String> = needed_languages(packages, submissions)
        .into_iter()
        .map(|(name, _)| name.to_owned())
        .collect();
    names.sort();
    names.dedup();
    names
}

fn judge_toml(problems: &[String], hidden_tests: &'static str, only: &[String]) -> String {
    let list: Vec<String> = problems.iter().map(|id| format!("\"{id}\"")).collect();
    let only = if only.is_empty() {
        String::new()
    } else {
        let names: Vec<String> = only.iter().map(|name| format!("\"{name}\"")).collect();
        format!(
            "# The languages hand-ins may be in (`--languages`), and the packages' own.\n\
             only-languages = [{}]\n",
            names.join(", ")
        )
    };
    format!(
        "# The autograder's judge.toml: one student's hand-in, laid out\n\
         # `student/problem`, a file per problem named `<problem>.<ext>`.\n\
         submissions = \"class\"\n\
         layout = \"student/problem\"\n\
         problems = [{}]\n\
         random-tests = 0\n\
         {only}\
         [report.gradescope]\n\
         hidden-tests = \"{}\"\n",
        list.join(", "),
        hidden_tests
    )
}
