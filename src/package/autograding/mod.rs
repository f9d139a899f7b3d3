//! `judge import --autograding`: a GitHub Classroom `autograding.json`
//! (issue #30) written as a package of ours that grades its io tests as
//! GitHub Classroom did, in the sandbox and under limits.
//!
//! [`read`] reads the file and sorts its tests; this module writes the
//! package: `problem.toml`, `statement.md`, `checker.py` (GitHub's three
//! comparisons as a testlib checker) and `tests/NN-name.in` + `.ans`, each
//! test its own `[[groups]]` entry worth its `points` when any test has
//! points. It writes into a temporary folder beside the target and moves
//! it into place with one rename, so a failure leaves nothing half-written.
//! It runs nothing.

mod read;

use crate::config::ConfigError;
use read::{ClassroomTest, Comparison, Sorted};
use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The most CPU time a test of an imported package gets (ms). GitHub's
/// `timeout` is minutes of wall clock for compiling (`setup`) and running
/// a whole test, 1 at the least: as a per-test limit, a hand-in that loops
/// would run its tests for minutes each and exhaust a platform's budget
/// (Gradescope's run_autograder: 9 minutes for every test) before any TLE.
const TIME_LIMIT_CAP_MS: u64 = 10_000;

/// The checker every imported package carries.
const CHECKER: &str = include_str!("checker.py");

/// `python_pattern`: a `regex` test's JavaScript pattern as Python's `re`
/// (the checker's, and the import's check of each pattern).
const REGEX: &str = include_str!("regex.py");

/// Compiles each pattern of stdin's JSON list as the checker does and
/// prints a JSON list of the errors (`null` for a pattern that compiles).
const CHECK_PATTERNS: &str = "\nimport json, re, sys\nerrors = []\n\
    for pattern in json.load(sys.stdin):\n    try:\n        \
    re.compile(python_pattern(pattern), re.ASCII)\n        errors.append(None)\n    \
    except (re.error, RecursionError, OverflowError) as error:\n        \
    errors.append(str(error))\nprint(json.dumps(errors))\n";

/// Why nothing was imported.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ImportError {
    /// `autograding.json` cannot be read or is not in GitHub Classroom's
    /// shape (the user's to fix).
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The target folder's name is not a problem id, or the folder exists
    /// and is not empty (the user's to fix).
    #[error("{0}")]
    Target(String),
    /// No test of the file is an io test of one program.
    #[error(
        "`{}` holds no test the judge can run as an io test of one program: nothing imported{}",
        path.display(),
        skipped.iter().map(|line| format!("\n  {line}")).collect::<String>()
    )]
    Nothing { path: PathBuf, skipped: Vec<String> },
    /// A file of the package could not be written (the judge failed).
    #[error("failed to write `{}`", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Imports `json` into the new package folder `target` and returns what to
/// tell the user: each test skipped and why, each `setup` not run, then
/// what was written and how to grade with it.
pub(crate) fn import(json: &Path, target: &Path) -> Result<Vec<String>, ImportError> {
    let id = target
        .file_name()
        .and_then(|name| name.to_str())
        .ok_or_else(|| {
            ImportError::Target(format!(
                "`{}` has no folder name to be the package's id",
                target.display()
            ))
        })?;
    let id = crate::package::parse_id(id)
        .map_err(|bad| ImportError::Target(format!("the folder's name: {bad}")))?;
    // The folder it goes into may be made (`problems/` of a course's
    // repository), not a path of folders that do not exist.
    let parent = match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if !parent.is_dir() {
        let grandparent = match parent.parent() {
            Some(grandparent) if !grandparent.as_os_str().is_empty() => grandparent,
            _ => Path::new("."),
        };
        if parent.exists() || !grandparent.is_dir() {
            return Err(ImportError::Target(format!(
                "`{}` is no folder to import into (neither it nor `{}` exists as a folder); \
                 create it first",
                parent.display(),
                grandparent.display()
            )));
        }
    }
    if target.exists() && !is_empty_folder(target) {
        return Err(ImportError::Target(format!(
            "`{}` exists and is not an empty folder; import into a new folder",
            target.display()
        )));
    }
    let text = ConfigError::read_yaml_text(json)?;
    let sorted = read::sort(read::parse(json, &text)?);
    let skipped: Vec<String> = sorted
        .skipped
        .iter()
        .map(|skipped| {
            format!(
                "skipped: `{}`: line {}: test {} `{}`{}: {}",
                json.display(),
                skipped.test.line,
                skipped.test.number,
                skipped.test.name,
                points_note(skipped.test.points),
                skipped.reason
            )
        })
        .collect();
    let Some(program) = sorted
        .program
        .clone()
        .filter(|_| !sorted.imported.is_empty())
    else {
        return Err(ImportError::Nothing {
            path: json.to_owned(),
            skipped,
        });
    };
    check_patterns(json, &sorted.imported)?;
    let files = package_files(&id, json, &program, &sorted);
    write_folder(target, &files)?;
    let mut lines = skipped;
    lines.extend(setup_lines(&sorted.imported));
    lines.extend(timeout_line(&sorted.imported, target));
    lines.push(written(&id, target, &program, &sorted));
    Ok(lines)
}

/// Refuses a `regex` test whose pattern the checker cannot compile
/// (JavaScript syntax Python's `re` does not read, as `\cJ` or a lookbehind
/// of varying width): every hand-in would get a judge error at grading
/// time. The patterns are compiled by `python3` exactly as the checker,
/// which runs on it too, compiles them.
fn check_patterns(json: &Path, tests: &[ClassroomTest]) -> Result<(), ImportError> {
    let regex: Vec<&ClassroomTest> = tests
        .iter()
        .filter(|test| test.comparison == Comparison::Regex)
        .collect();
    let Some(first) = regex.first() else {
        return Ok(());
    };
    let invalid = |test: &ClassroomTest, message: String| {
        ImportError::Config(ConfigError {
            path: json.to_owned(),
            kind: crate::config::ConfigErrorKind::Invalid {
                key: format!("tests[{}].output", test.number - 1),
                message,
                line: Some(test.line),
            },
        })
    };
    let patterns: Vec<&str> = regex.iter().map(|test| test.output.as_str()).collect();
    let input = serde_json::to_string(&patterns).map_err(std::io::Error::other);
    let run = input.and_then(|input| {
        let mut child = std::process::Command::new("python3")
            .args(["-I", "-c", &format!("{REGEX}{CHECK_PATTERNS}")])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()?;
        if let Some(mut stdin) = child.stdin.take() {
            std::io::Write::write_all(&mut stdin, input.as_bytes())?;
        }
        child.wait_with_output()
    });
    let errors: Vec<Option<String>> = match run {
        Ok(output) if output.status.success() => serde_json::from_slice(&output.stdout)
            .map_err(|error| invalid(first, format!("cannot check the pattern: {error}")))?,
        Ok(output) => {
            return Err(invalid(
                first,
                format!(
                    "cannot check the pattern: python3 failed: {}",
                    String::from_utf8_lossy(&output.stderr).trim()
                ),
            ))
        }
        Err(error) => {
            return Err(invalid(
                first,
                format!(
                    "cannot check the pattern: `python3`, which the package's checker runs \
                     on too, cannot be started: {error}"
                ),
            ))
        }
    };
    for (test, error) in regex.iter().zip(errors) {
        if let Some(error) = error {
            return Err(invalid(
                test,
                format!(
                    "test {} `{}`: the pattern {:?} cannot run in the judge's checker (Python's \
                     `re`, which reads JavaScript's common syntax): {error}; write it in the \
                     syntax docs/classroom50.md lists",
                    test.number, test.name, test.output
                ),
            ));
        }
    }
    Ok(())
}

fn is_empty_folder(path: &Path) -> bool {
    path.is_dir() && fs_err::read_dir(path).is_ok_and(|mut entries| entries.next().is_none())
}

fn points_note(points: f64) -> String {
    if points == 1.0 {
        " (1 point)".to_owned()
    } else if points > 0.0 {
        format!(" ({points} points)")
    } else {
        String::new()
    }
}

/// `NN-slug`: the test's position (so name order is the file's order) and
/// its name in lowercase letters, digits and `-`: an accented letter
/// loses its accent (`é` is `e`), a letter of another script stays.
fn test_name(test: &ClassroomTest, width: usize) -> String {
    use unicode_normalization::{char::is_combining_mark, UnicodeNormalization as _};
    let mut slug = String::new();
    let mut letters = 0;
    for c in test
        .name
        .nfkd()
        .filter(|c| !is_combining_mark(*c))
        .flat_map(char::to_lowercase)
    {
        if c.is_alphanumeric() {
            slug.push(c);
            letters += 1;
        } else if !slug.ends_with('-') {
            slug.push('-');
        }
        if letters >= 40 {
            break;
        }
    }
    let slug = slug.trim_matches('-');
    let slug = if slug.is_empty() { "test" } else { slug };
    format!("{:0width$}-{slug}", test.number)
}

/// The checker's key of a test: the SHA-256 of the SHA-256 of its input
/// and the SHA-256 of its answer (checker.py computes the same).
fn checker_key(input: &str, answer: &str) -> String {
    let mut outer = Sha256::new();
    outer.update(Sha256::digest(input.as_bytes()));
    outer.update(Sha256::digest(answer.as_bytes()));
    outer
        .finalize()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// A TOML string literal of `text` (comments and checker.py use Rust's
/// `{:?}`, which is one line and reads the same in Python).
fn quoted(text: &str) -> String {
    toml::Value::String(text.to_owned()).to_string()
}

/// Every file of the package, by its path in the package.
fn package_files(id: &str, json: &Path, program: &str, sorted: &Sorted) -> Vec<(String, String)> {
    let tests = &sorted.imported;
    let last = tests.iter().map(|test| test.number).max().unwrap_or(1);
    let width = last.to_string().len().max(2);
    let time_limit_ms = time_limit_ms(tests);
    let largest_answer_kib = tests
        .iter()
        .map(|test| test.output.len() / 1024)
        .max()
        .unwrap_or(0);
    let output_limit_kib = (largest_answer_kib * 2 + 1).max(8192);
    let scored = tests.iter().any(|test| test.points > 0.0);
    let mut toml = String::new();
    let _ = writeln!(
        toml,
        "# Imported by `judge import --autograding` from GitHub Classroom's {:?} \
         (docs/classroom50.md).\n# GitHub Classroom ran each test as {:?}; grade a hand-in with\n\
         #   {}\n\
         title = {}\norigin = \"GitHub Classroom autograding.json\"\n\
         profiles = [\"github-classroom\"]  # no generator: the tests are the file's\n\n\
         [limits]\n\
         # CPU time per test: GitHub's `timeout` (minutes of wall clock for `setup` and\n\
         # `run` of a whole test) capped at {cap} s, so a hand-in that loops ends as TLE\n\
         # within a platform's budget; set it to what the problem needs.\n\
         time-limit-ms = {time_limit_ms}\n\
         memory-limit-mib = 1024       # GitHub Classroom had no memory limit\n\
         output-limit-kib = {output_limit_kib}      # nor an output limit\n\n\
         [checker]\n\
         kind = \"testlib\"\n\
         program = \"checker.py\"        # GitHub's exact, included and regex comparisons\n\n\
         [tests]\nseed = 1",
        json.display().to_string(),
        program,
        run_hint(id, "FOLDER-OF-THIS-PACKAGE"),
        quoted(id),
        cap = TIME_LIMIT_CAP_MS / 1000,
    );
    let mut comparisons = String::from("{\n");
    let mut files = Vec::new();
    for test in tests {
        let name = test_name(test, width);
        let _ = writeln!(
            comparisons,
            "    {:?}: {:?},  # {name}",
            checker_key(&test.input, &test.output),
            test.comparison.name()
        );
        if scored {
            let _ = write!(
                toml,
                "\n[[groups]]  # {:?}\nname = {}\npoints = {:?}\ntests = {}\n",
                test.name,
                quoted(&name),
                test.points,
                quoted(&name)
            );
        }
        files.push((format!("tests/{name}.in"), test.input.clone()));
        files.push((format!("tests/{name}.ans"), test.output.clone()));
    }
    comparisons.push('}');
    let first = tests.first().map(|test| test.comparison);
    let default = match first {
        Some(first) if tests.iter().all(|test| test.comparison == first) => {
            format!("{:?}", first.name())
        }
        _ => "None".to_owned(),
    };
    let checker = CHECKER
        .replace("{REGEX}", REGEX)
        .replace("{COMPARISONS}", &comparisons)
        .replace("{DEFAULT}", &default);
    let mut statement = format!(
        "# {id}\n\nImported from GitHub Classroom's `autograding.json`: each test runs \
         the hand-in (GitHub Classroom ran `{program}`) on the test's input and compares \
         its output as the file said.\n\n| test | comparison | points |\n|---|---|---|\n"
    );
    for test in tests {
        let _ = writeln!(
            statement,
            "| {} | {} | {} |",
            test.name.replace('|', "\\|").replace('\n', " "),
            test.comparison.name(),
            test.points
        );
    }
    files.push(("problem.toml".to_owned(), toml));
    files.push(("statement.md".to_owned(), statement));
    files.push(("checker.py".to_owned(), checker));
    files
}

/// Writes `files` into a new folder beside `target` and renames it to
/// `target` (absent or empty): the package appears whole or not at all.
fn write_folder(target: &Path, files: &[(String, String)]) -> Result<(), ImportError> {
    let write_error = |path: &Path| {
        let path = path.to_owned();
        move |source| ImportError::Write { path, source }
    };
    let parent = match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    if !parent.is_dir() {
        // One folder at most: `import` refused a deeper path.
        fs_err::create_dir(parent).map_err(write_error(parent))?;
    }
    let scratch = tempfile::Builder::new()
        .prefix(".judge-import-")
        .tempdir_in(parent)
        .map_err(write_error(parent))?;
    // Created the ordinary way, not with a temporary folder's 0700.
    let fresh = scratch.path().join("package");
    for (name, contents) in files {
        let path = fresh.join(name);
        if let Some(folder) = path.parent() {
            fs_err::create_dir_all(folder).map_err(write_error(folder))?;
        }
        fs_err::write(&path, contents).map_err(write_error(&path))?;
    }
    // One rename: it fails, leaving `target` alone, if something appeared
    // there meanwhile; dropping `scratch` removes what was written.
    fs_err::rename(&fresh, target).map_err(write_error(target))
}

/// One line per distinct `setup` of the imported tests: the judge does not
/// run it.
fn setup_lines(tests: &[ClassroomTest]) -> Vec<String> {
    let mut setups: Vec<(&str, Vec<usize>)> = Vec::new();
    for test in tests.iter().filter(|test| !test.setup.trim().is_empty()) {
        match setups.iter_mut().find(|(setup, _)| *setup == test.setup) {
            Some((_, numbers)) => numbers.push(test.number),
            None => setups.push((&test.setup, vec![test.number])),
        }
    }
    setups
        .into_iter()
        .map(|(setup, numbers)| {
            let numbers: Vec<String> = numbers.iter().map(ToString::to_string).collect();
            format!(
                "not run: `setup` `{setup}` (tests {}): the judge compiles a hand-in by its \
                 language (judge.toml [languages]) and runs it with nothing installed",
                numbers.join(", ")
            )
        })
        .collect()
}

/// The package's one time limit: the largest `timeout`, at most
/// [`TIME_LIMIT_CAP_MS`].
fn time_limit_ms(tests: &[ClassroomTest]) -> u64 {
    tests
        .iter()
        .map(|test| test.timeout_ms)
        .max()
        .unwrap_or(60_000)
        .min(TIME_LIMIT_CAP_MS)
}

/// The most tests a note names; more are counted.
const TESTS_NAMED: usize = 10;

/// A note naming the tests whose `timeout` was capped
/// ([`TIME_LIMIT_CAP_MS`]) and where to change the limit.
fn timeout_line(tests: &[ClassroomTest], target: &Path) -> Option<String> {
    let capped: Vec<&ClassroomTest> = tests
        .iter()
        .filter(|test| test.timeout_ms > TIME_LIMIT_CAP_MS)
        .collect();
    if capped.is_empty() {
        return None;
    }
    let minutes = |test: &ClassroomTest| {
        let minutes = test.timeout_ms as f64 / 60_000.0;
        if minutes == 1.0 {
            "1 minute".to_owned()
        } else {
            format!("{minutes} minutes")
        }
    };
    let mut named: Vec<String> = capped
        .iter()
        .take(TESTS_NAMED)
        .map(|test| format!("{} `{}` ({})", test.number, test.name, minutes(test)))
        .collect();
    if capped.len() > TESTS_NAMED {
        named.push(format!("and {} more", capped.len() - TESTS_NAMED));
    }
    Some(format!(
        "note: capped the time limit at {} s of CPU per test for tests {}: GitHub's `timeout` \
         was wall clock for `setup` and `run` of a whole test, and as a per-test limit a hand-in \
         that loops would use up a platform's time budget before any TLE; if a test needs more, \
         raise `time-limit-ms` in `{}`",
        TIME_LIMIT_CAP_MS / 1000,
        named.join(", "),
        target.join("problem.toml").display()
    ))
}

/// The last line: what was written and how to grade with it.
fn written(id: &str, target: &Path, program: &str, sorted: &Sorted) -> String {
    let points: f64 = sorted.imported.iter().map(|test| test.points).sum();
    let all: f64 = points + sorted.skipped.iter().map(|s| s.test.points).sum::<f64>();
    let points = if all > 0.0 {
        format!(" worth {points} of the file's {all} points")
    } else {
        String::new()
    };
    let exit_status = sorted
        .imported
        .iter()
        .filter(|test| test.comparison == Comparison::ExitStatus)
        .count();
    let exit_status = if exit_status > 0 {
        format!(" ({exit_status} of them check only that the program exits 0)")
    } else {
        String::new()
    };
    let folder = match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.display().to_string(),
        _ => ".".to_owned(),
    };
    format!(
        "wrote the package `{id}` in `{}`: {} of {} tests{points}{exit_status}; GitHub Classroom \
         ran them as `{program}`; try:\n  {}",
        target.display(),
        sorted.imported.len(),
        sorted.imported.len() + sorted.skipped.len(),
        run_hint(id, &folder),
    )
}

/// The command that grades a hand-in with the package `id` of `folder`: an
/// id that starts with `-` comes after `--`, so it is not read as a flag.
fn run_hint(id: &str, folder: &str) -> String {
    if id.starts_with('-') {
        format!("judge run --problems-dir {folder} -- {id} HAND-IN")
    } else {
        format!("judge run {id} HAND-IN --problems-dir {folder}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_names_keep_the_files_order_and_a_readable_name() {
        let mut test = read::ClassroomTest {
            number: 3,
            line: 1,
            name: "Hello, World! (part 2)".to_owned(),
            setup: String::new(),
            run: "./a".to_owned(),
            input: String::new(),
            output: String::new(),
            comparison: Comparison::Exact,
            timeout_ms: 1,
            points: 0.0,
        };
        assert_eq!(test_name(&test, 2), "03-hello-world-part-2");
        test.name = "???".to_owned();
        assert_eq!(test_name(&test, 3), "003-test");
        test.name = "Ünïcode".to_owned();
        assert_eq!(test_name(&test, 2), "03-unicode");
        test.name = "émoji ✓ / slash".to_owned();
        assert_eq!(test_name(&test, 2), "03-emoji-slash");
        test.name = "测试 1".to_owned();
        assert_eq!(test_name(&test, 2), "03-测试-1");
    }

    /// checker.py computes the same key (pinned by the end-to-end tests,
    /// which run it); here the key is stable and tells inputs from answers.
    #[test]
    fn checker_keys_tell_input_from_answer() {
        assert_ne!(checker_key("a", ""), checker_key("", "a"));
        assert_eq!(checker_key("a", "b"), checker_key("a", "b"));
        assert_eq!(checker_key("", "").len(), 64);
    }

    #[test]
    fn an_existing_folder_with_files_is_refused_and_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("hello");
        fs_err::create_dir(&target).unwrap();
        fs_err::write(target.join("keep"), "x").unwrap();
        let json = dir.path().join("a.json");
        fs_err::write(&json, "{\"tests\": []}").unwrap();
        let error = import(&json, &target).unwrap_err().to_string();
        assert!(
            error.contains("exists and is not an empty folder"),
            "{error}"
        );
        assert_eq!(fs_err::read_to_string(target.join("keep")).unwrap(), "x");
    }
}
