//! Reading GitHub Classroom's `.github/classroom/autograding.json` (the
//! file `education/autograding` ran) and sorting its tests into those a
//! package of ours can hold and those it cannot, each with the line it is
//! on. This module reads and decides; it writes nothing.
//!
//! The file is `{ "tests": [ { "name", "setup", "run", "input", "output",
//! "comparison", "timeout", "points" } ] }`. What GitHub made of each key
//! (read from `education/autograding`'s `src/runner.ts`, which this module
//! follows, never copies):
//!
//! - `run` is a shell command; `input`, when not empty, is written to its
//!   stdin; the test fails when the command exits non-zero;
//! - with neither `input` nor `output` the exit status is the whole test;
//! - else both the output and `output` have CRLF turned into LF and are
//!   trimmed (JavaScript's `trim`), then `exact` compares them, `included`
//!   looks for `output` in the output, and `regex` searches the output for
//!   the pattern `output`; any other or no `comparison` was `included`;
//! - `timeout` is in minutes of wall clock for `setup` and `run` together,
//!   1 when missing or 0;
//! - `points` count when the test passes; a test without them scores
//!   nothing.
//!
//! The judge is stricter where a mistake would grade silently: a
//! `comparison` other than the three, an unknown key (a misspelt `ouput`
//! would have made the test pass on any output) and a value of the wrong
//! type are errors naming the line and the key.

use crate::config::{ConfigError, ConfigErrorKind};
use serde_json::{Map, Value};
use std::path::Path;

/// The keys a test may have.
const TEST_KEYS: [&str; 8] = [
    "name",
    "setup",
    "run",
    "input",
    "output",
    "comparison",
    "timeout",
    "points",
];

/// The longest `timeout` that means anything: a GitHub Actions job ran
/// for 6 hours at most.
const MAX_TIMEOUT_MINUTES: f64 = 360.0;

/// How GitHub Classroom compared the output with the test's `output`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Comparison {
    /// Equal after CRLF became LF and both were trimmed.
    Exact,
    /// The trimmed `output` occurs in the trimmed output (GitHub's default).
    Included,
    /// The pattern `output` matches somewhere in the trimmed output.
    Regex,
    /// A test with neither `input` nor `output`: GitHub looked only at the
    /// exit status, whatever `comparison` said.
    ExitStatus,
}

impl Comparison {
    /// The name the package's checker knows it by.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Comparison::Exact => "exact",
            Comparison::Included => "included",
            Comparison::Regex => "regex",
            Comparison::ExitStatus => "exit-status",
        }
    }
}

/// One test of the file, as GitHub Classroom ran it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ClassroomTest {
    /// 1-based position in `tests`.
    pub(crate) number: usize,
    /// The line of the test's `{`.
    pub(crate) line: usize,
    pub(crate) name: String,
    pub(crate) setup: String,
    pub(crate) run: String,
    pub(crate) input: String,
    pub(crate) output: String,
    pub(crate) comparison: Comparison,
    /// `timeout` in milliseconds (1 minute when missing or 0).
    pub(crate) timeout_ms: u64,
    /// 0 when missing.
    pub(crate) points: f64,
}

/// Why a test cannot become a test of the package.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Skipped {
    pub(crate) test: ClassroomTest,
    pub(crate) reason: String,
}

/// The file's tests, sorted: what the package holds and what it cannot.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Sorted {
    /// The `run` command of the package's program (the first io test's).
    pub(crate) program: Option<String>,
    pub(crate) imported: Vec<ClassroomTest>,
    pub(crate) skipped: Vec<Skipped>,
}

/// Reads the text of `path` (an `autograding.json`): every test, or the
/// first thing wrong with the file, naming its line and key.
pub(crate) fn parse(path: &Path, text: &str) -> Result<Vec<ClassroomTest>, ConfigError> {
    let value: Value = serde_json::from_str(text).map_err(|error| ConfigError {
        path: path.to_owned(),
        kind: ConfigErrorKind::Parse {
            position: (error.line() > 0).then(|| (error.line(), error.column())),
            message: without_position(&error),
        },
    })?;
    let spans = scan(text);
    let invalid = |key: String, line: Option<usize>, message: String| ConfigError {
        path: path.to_owned(),
        kind: ConfigErrorKind::Invalid { key, message, line },
    };
    let Value::Object(top) = value else {
        return Err(invalid(
            "(the file)".to_owned(),
            Some(1),
            "expected an object `{ \"tests\": [...] }`".to_owned(),
        ));
    };
    if let Some(key) = top.keys().find(|key| *key != "tests") {
        return Err(invalid(
            key.clone(),
            spans
                .top_keys
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, l)| *l),
            "unknown key; the file holds only `tests`".to_owned(),
        ));
    }
    let Some(tests) = top.get("tests") else {
        return Err(invalid(
            "tests".to_owned(),
            None,
            "missing: the file holds no `tests` list".to_owned(),
        ));
    };
    let Value::Array(tests) = tests else {
        return Err(invalid(
            "tests".to_owned(),
            spans
                .top_keys
                .iter()
                .find(|(k, _)| k == "tests")
                .map(|(_, l)| *l),
            format!("expected a list of tests, found {}", kind_of(tests)),
        ));
    };
    let mut parsed = Vec::new();
    for (index, test) in tests.iter().enumerate() {
        let span = spans.tests.get(index);
        let line = span.map(|span| span.line);
        let Value::Object(fields) = test else {
            return Err(invalid(
                format!("tests[{index}]"),
                line,
                format!("expected a test object, found {}", kind_of(test)),
            ));
        };
        let key_line = |key: &str| {
            span.and_then(|span| span.keys.iter().find(|(k, _)| k == key))
                .map(|(_, line)| *line)
                .or(line)
        };
        let fail = |key: &str, message: String| {
            invalid(format!("tests[{index}].{key}"), key_line(key), message)
        };
        parsed.push(read_test(index, line.unwrap_or(0), fields, &fail)?);
    }
    Ok(parsed)
}

/// One test object; `fail` words an error about one of its keys.
fn read_test(
    index: usize,
    line: usize,
    fields: &Map<String, Value>,
    fail: &dyn Fn(&str, String) -> ConfigError,
) -> Result<ClassroomTest, ConfigError> {
    if let Some(key) = fields.keys().find(|key| !TEST_KEYS.contains(&key.as_str())) {
        return Err(fail(
            key,
            format!("unknown key; a test has {}", TEST_KEYS.join(", ")),
        ));
    }
    // A missing key and `null` are the same to GitHub (both falsy).
    let text = |key: &str, required: bool| -> Result<String, ConfigError> {
        match fields.get(key) {
            Some(Value::String(text)) => Ok(text.clone()),
            None | Some(Value::Null) if !required => Ok(String::new()),
            None | Some(Value::Null) => Err(fail(key, "missing: every test needs it".to_owned())),
            Some(other) => Err(fail(
                key,
                format!("expected text, found {}", kind_of(other)),
            )),
        }
    };
    let number = |key: &str, unit: &str| -> Result<Option<f64>, ConfigError> {
        match fields.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(number)) => match number.as_f64() {
                Some(value) if value.is_finite() && value >= 0.0 => Ok(Some(value)),
                _ => Err(fail(
                    key,
                    format!("expected {unit} (a number of at least 0), found {number}"),
                )),
            },
            Some(other) => Err(fail(
                key,
                format!("expected {unit} (a number), found {}", kind_of(other)),
            )),
        }
    };
    let name = text("name", true)?;
    let run = text("run", true)?;
    if run.trim().is_empty() {
        return Err(fail("run", "is empty: a test runs a command".to_owned()));
    }
    let input = text("input", false)?;
    let output = text("output", false)?;
    let stated = match fields.get("comparison") {
        None | Some(Value::Null) => Comparison::Included,
        Some(Value::String(name)) => match name.as_str() {
            "exact" => Comparison::Exact,
            "included" => Comparison::Included,
            "regex" => Comparison::Regex,
            other => {
                return Err(fail(
                    "comparison",
                    format!("`{other}` is not `exact`, `included` or `regex`"),
                ))
            }
        },
        Some(other) => {
            return Err(fail(
                "comparison",
                format!(
                    "expected `exact`, `included` or `regex`, found {}",
                    kind_of(other)
                ),
            ))
        }
    };
    let comparison = if input.is_empty() && output.is_empty() {
        Comparison::ExitStatus
    } else {
        stated
    };
    let minutes = number("timeout", "minutes")?.filter(|minutes| *minutes > 0.0);
    let timeout_ms = minutes.map_or(60_000, |minutes| {
        // At least 1 ms, at most the 6 hours a GitHub Actions job could run.
        ((minutes.min(MAX_TIMEOUT_MINUTES) * 60_000.0).ceil() as u64).max(1)
    });
    Ok(ClassroomTest {
        number: index + 1,
        line,
        name,
        setup: text("setup", false)?,
        run,
        input,
        output,
        comparison,
        timeout_ms,
        points: number("points", "points")?.unwrap_or(0.0),
    })
}

/// What a JSON value is, for a message.
fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "true or false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// serde_json's message without its ` at line L column C` (the error
/// keeps them as data).
fn without_position(error: &serde_json::Error) -> String {
    let text = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    text.strip_suffix(&suffix).unwrap_or(&text).to_owned()
}

/// Where things are in the file: the lines of its top-level keys, and of
/// each object in a list at the top level with the lines of its keys.
#[derive(Debug, Default, PartialEq)]
struct Spans {
    top_keys: Vec<(String, usize)>,
    tests: Vec<TestSpan>,
}

#[derive(Debug, PartialEq)]
struct TestSpan {
    line: usize,
    keys: Vec<(String, usize)>,
}

/// Finds [`Spans`] in `text`, which serde_json has read as valid JSON:
/// only strings, nesting and the `{`/`,` before a key matter.
fn scan(text: &str) -> Spans {
    let mut spans = Spans::default();
    let mut stack: Vec<u8> = Vec::new();
    let mut line = 1;
    let mut expecting_key = false;
    // At the start of an element of the top-level list, whatever it is:
    // `[42]` is an element too, and the next one's index follows it.
    let mut expecting_element = false;
    let mut chars = text.char_indices();
    while let Some((start, c)) = chars.next() {
        if expecting_element && !c.is_whitespace() && c != ']' {
            spans.tests.push(TestSpan {
                line,
                keys: Vec::new(),
            });
            expecting_element = false;
        }
        match c {
            '\n' => line += 1,
            '{' => {
                stack.push(b'{');
                expecting_key = true;
            }
            '[' => {
                stack.push(b'[');
                expecting_key = false;
                expecting_element = stack == b"{[";
            }
            '}' | ']' => {
                stack.pop();
                expecting_key = false;
                expecting_element = false;
            }
            ',' => {
                expecting_key = stack.last() == Some(&b'{');
                expecting_element = stack == b"{[";
            }
            '"' => {
                let mut end = start + 1;
                let mut escaped = false;
                for (at, c) in chars.by_ref() {
                    end = at;
                    match c {
                        '\\' if !escaped => escaped = true,
                        '"' if !escaped => break,
                        _ => escaped = false,
                    }
                }
                if expecting_key {
                    let key = text.get(start + 1..end).unwrap_or_default().to_owned();
                    if stack == b"{" {
                        spans.top_keys.push((key, line));
                    } else if stack == b"{[{" {
                        if let Some(test) = spans.tests.last_mut() {
                            test.keys.push((key, line));
                        }
                    }
                }
                expecting_key = false;
            }
            _ => {}
        }
    }
    spans
}

/// Commands that run a repository's own tests, a build or a linter, or
/// look at its files: never one program reading a test's input. The
/// first word (its file name), and the subcommand when only that one
/// tests (`cargo test`, not `cargo run`).
const NOT_A_PROGRAM: &[(&str, Option<&str>, &str)] = &[
    ("make", None, "runs the repository's own build or tests"),
    ("cmake", None, "runs the repository's own build or tests"),
    ("ctest", None, "runs the repository's own tests"),
    ("pytest", None, "runs the repository's own tests"),
    ("py.test", None, "runs the repository's own tests"),
    ("tox", None, "runs the repository's own tests"),
    ("npm", None, "runs the repository's own scripts or tests"),
    ("npx", None, "runs the repository's own scripts or tests"),
    ("yarn", None, "runs the repository's own scripts or tests"),
    ("pnpm", None, "runs the repository's own scripts or tests"),
    ("jest", None, "runs the repository's own tests"),
    ("mocha", None, "runs the repository's own tests"),
    ("mvn", None, "runs the repository's own build or tests"),
    ("gradle", None, "runs the repository's own build or tests"),
    ("gradlew", None, "runs the repository's own build or tests"),
    ("mvnw", None, "runs the repository's own build or tests"),
    ("ant", None, "runs the repository's own build or tests"),
    ("sbt", None, "runs the repository's own build or tests"),
    ("rspec", None, "runs the repository's own tests"),
    ("rake", None, "runs the repository's own tasks or tests"),
    ("phpunit", None, "runs the repository's own tests"),
    ("bats", None, "runs the repository's own tests"),
    ("check50", None, "runs CS50's checks of the repository"),
    ("cargo", Some("test"), "runs the repository's own tests"),
    ("go", Some("test"), "runs the repository's own tests"),
    ("go", Some("vet"), "checks the repository's code"),
    ("dotnet", Some("test"), "runs the repository's own tests"),
    ("ruff", None, "checks the repository's code"),
    ("flake8", None, "checks the repository's code"),
    ("pylint", None, "checks the repository's code"),
    ("mypy", None, "checks the repository's code"),
    ("golangci-lint", None, "checks the repository's code"),
    ("test", None, "looks at the repository's files"),
    ("[", None, "looks at the repository's files"),
    ("grep", None, "looks at the repository's files"),
    ("diff", None, "compares the repository's files"),
    ("cmp", None, "compares the repository's files"),
    ("cat", None, "prints the repository's files"),
    ("ls", None, "lists the repository's files"),
    ("echo", None, "prints a fixed text"),
];

/// Build wrappers a repository carries, run as `./gradlew`.
const REPOSITORY_WRAPPERS: [&str; 2] = ["gradlew", "mvnw"];

/// Python modules that run tests when called as `python -m MODULE`.
const TEST_MODULES: [&str; 3] = ["pytest", "unittest", "doctest"];

/// Why `run` is not one program reading the test's input, if it is not.
fn not_a_program(run: &str) -> Option<String> {
    let Some(words) = shlex::split(run) else {
        return Some("cannot be read as a shell command (an unclosed quote?)".to_owned());
    };
    if let Some(operator) = words
        .iter()
        .find(|word| matches!(word.as_str(), "|" | "<" | ">" | ">>" | "<<" | "<<<"))
        .or_else(|| words.iter().find(|word| word.contains(['<', '>', '|'])))
    {
        return Some(format!(
            "redirects or pipes (`{operator}`): it reads or writes files of the repository, or \
             runs more than one program, and the judge runs one program on the test's input"
        ));
    }
    // `VAR=value command ...`: the command is the first word without `=`.
    let mut words = words.iter().skip_while(|word| {
        word.split_once('=')
            .is_some_and(|(name, _)| !name.is_empty() && !name.contains('/'))
    });
    let first = words.next()?;
    let base = Path::new(first)
        .file_name()
        .map_or(first.as_str(), |name| name.to_str().unwrap_or(first));
    // `./test` is the repository's own program, not the shell's `test`;
    // only the build wrappers a repository carries are known by path.
    if first.contains('/') && !first.starts_with('/') && !REPOSITORY_WRAPPERS.contains(&base) {
        return None;
    }
    let second = words.next().map(String::as_str);
    if base.starts_with("python") && second == Some("-m") {
        let module = words.next().map(String::as_str).unwrap_or_default();
        if TEST_MODULES.contains(&module) {
            return Some(format!(
                "`{base} -m {module}` runs the repository's own tests, not one program on an input"
            ));
        }
    }
    NOT_A_PROGRAM
        .iter()
        .find(|(word, sub, _)| *word == base && sub.is_none_or(|sub| second == Some(sub)))
        .map(|(word, sub, what)| {
            let command = sub.map_or_else(|| (*word).to_owned(), |sub| format!("{word} {sub}"));
            format!("`{command}` {what}, not one program reading the test's input")
        })
}

/// The words of `run`, so that spacing and quoting do not make two
/// commands differ.
fn words(run: &str) -> Vec<String> {
    shlex::split(run).unwrap_or_else(|| vec![run.to_owned()])
}

/// Sorts `tests`: the package's program is the `run` of the first test
/// that is one program's io test (it has an `input` or an `output`); a
/// test is imported when it runs that same command, else skipped with why.
pub(crate) fn sort(tests: Vec<ClassroomTest>) -> Sorted {
    let program = tests
        .iter()
        .find(|test| {
            test.comparison != Comparison::ExitStatus && not_a_program(&test.run).is_none()
        })
        .map(|test| test.run.clone());
    let mut imported: Vec<ClassroomTest> = Vec::new();
    let mut skipped = Vec::new();
    for test in tests {
        let reason = if let Some(why) = not_a_program(&test.run) {
            Some(format!("`run` {why}"))
        } else {
            match &program {
                Some(program) if words(program) == words(&test.run) => None,
                Some(program) if test.comparison == Comparison::ExitStatus => Some(format!(
                    "no `input` and no `output`: GitHub Classroom graded only the exit status of \
                     `{}`, which is not the package's program `{program}`",
                    test.run
                )),
                Some(program) => Some(format!(
                    "runs `{}`, not the package's program `{program}` (the first io test's \
                     `run`): a package holds the tests of one program",
                    test.run
                )),
                None => Some(format!(
                    "no `input` and no `output`: GitHub Classroom graded only the exit status of \
                     `{}`, and no test of the file is an io test",
                    test.run
                )),
            }
        };
        let reason = reason.or_else(|| {
            imported
                .iter()
                .find(|other| {
                    other.input == test.input
                        && other.output == test.output
                        && other.comparison != test.comparison
                })
                .map(|other| {
                    format!(
                        "has the `input` and `output` of test {} `{}` but compares them \
                         `{}`, not `{}`: the package's checker could not tell the two apart",
                        other.number,
                        other.name,
                        test.comparison.name(),
                        other.comparison.name()
                    )
                })
        });
        match reason {
            Some(reason) => skipped.push(Skipped { test, reason }),
            None => imported.push(test),
        }
    }
    Sorted {
        program,
        imported,
        skipped,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    fn parse_text(text: &str) -> Result<Vec<ClassroomTest>, String> {
        parse(Path::new("a.json"), text).map_err(|error| error.to_string())
    }

    /// The shape of `education/autograding`'s own example and its Java
    /// test (no `comparison`, `timeout` or `points`).
    #[test]
    fn reads_githubs_examples() {
        let text = "{\n  \"tests\": [\n    {\n      \"name\": \"Test 1\",\n      \"setup\": \"\",\n      \
                    \"run\": \"python3 hello.py\",\n      \"input\": \"\",\n      \"output\": \"Test 1\",\n      \
                    \"comparison\": \"exact\",\n      \"timeout\": 10,\n      \"points\": 5\n    },\n    \
                    {\"name\": \"Hello Test\", \"setup\": \"javac *.java\", \"run\": \"java -cp . Hello\", \
                    \"input\": \"Jeff\", \"output\": \"Hello Jeff\"}\n  ]\n}\n";
        let tests = parse_text(text).unwrap();
        assert_eq!(tests.len(), 2);
        assert_eq!(tests[0].line, 3);
        assert_eq!(tests[0].comparison, Comparison::Exact);
        assert_eq!(tests[0].timeout_ms, 600_000);
        assert_eq!(tests[0].points, 5.0);
        assert_eq!(tests[1].line, 13);
        assert_eq!(tests[1].comparison, Comparison::Included);
        assert_eq!(tests[1].timeout_ms, 60_000);
        assert_eq!(tests[1].points, 0.0);
        assert_eq!(tests[1].setup, "javac *.java");
    }

    #[test_case("0", 60_000 ; "zero is GitHub's one minute")]
    #[test_case("0.5", 30_000 ; "half a minute")]
    #[test_case("1e300", 21_600_000 ; "at most six hours")]
    #[test_case("null", 60_000 ; "null is missing")]
    fn timeouts_are_minutes(timeout: &str, expected_ms: u64) {
        let text = format!(
            "{{\"tests\": [{{\"name\": \"a\", \"run\": \"./a\", \"timeout\": {timeout}}}]}}"
        );
        assert_eq!(parse_text(&text).unwrap()[0].timeout_ms, expected_ms);
    }

    #[test_case("{\"tests\": [}", "failed to load `a.json`: line 1, column 12: expected value" ; "not json")]
    #[test_case("[]", "failed to load `a.json`: line 1: `(the file)`: expected an object" ; "a list")]
    #[test_case("{}", "failed to load `a.json`: `tests`: missing" ; "no tests")]
    #[test_case("{\"tests\": {}}", "failed to load `a.json`: line 1: `tests`: expected a list of tests, found an object" ; "tests not a list")]
    #[test_case("{\"test\": []}", "failed to load `a.json`: line 1: `test`: unknown key" ; "unknown top key")]
    #[test_case("{\"tests\": [\n 3]}", "failed to load `a.json`: line 2: `tests[0]`: expected a test object, found a number" ; "test not an object")]
    #[test_case("{\"tests\": [\n{\"name\": \"a\"}]}", "failed to load `a.json`: line 2: `tests[0].run`: missing: every test needs it" ; "missing run")]
    #[test_case("{\"tests\": [\n{\"name\": \"a\",\n \"run\": \"./a\",\n \"comparison\": \"fuzzy\"}]}", "failed to load `a.json`: line 4: `tests[0].comparison`: `fuzzy` is not `exact`, `included` or `regex`" ; "unknown comparison")]
    #[test_case("{\"tests\": [\n{\"name\": \"a\", \"run\": \"./a\",\n \"ouput\": \"x\"}]}", "failed to load `a.json`: line 3: `tests[0].ouput`: unknown key; a test has name, setup" ; "misspelt key")]
    #[test_case("{\"tests\": [{\"name\": \"a\", \"run\": \"./a\", \"timeout\": \"10\"}]}", "failed to load `a.json`: line 1: `tests[0].timeout`: expected minutes (a number), found text" ; "timeout as text")]
    #[test_case("{\"tests\": [{\"name\": \"a\", \"run\": \"./a\", \"points\": -1}]}", "failed to load `a.json`: line 1: `tests[0].points`: expected points (a number of at least 0), found -1" ; "negative points")]
    #[test_case("{\"tests\": [{\"name\": \"a\", \"run\": \" \"}]}", "failed to load `a.json`: line 1: `tests[0].run`: is empty" ; "empty run")]
    #[test_case("{\"tests\": [{\"name\": \"a\", \"run\": \"./a\", \"input\": 5}]}", "failed to load `a.json`: line 1: `tests[0].input`: expected text, found a number" ; "input as a number")]
    fn bad_files_name_line_and_key(text: &str, expected: &str) {
        let message = parse_text(text).unwrap_err();
        assert!(message.starts_with(expected), "{message}");
    }

    #[test]
    fn keys_inside_strings_and_nested_values_do_not_confuse_the_lines() {
        let text = "{\"tests\": [\n{\"name\": \"a{[\\\"\", \"run\": \"./a\", \"input\": \"\\\"points\\\": 1\"},\n\
                    {\"name\": \"b\",\n \"run\": \"./a\",\n \"points\": \"x\"}]}";
        let message = parse_text(text).unwrap_err();
        assert!(
            message.starts_with("failed to load `a.json`: line 5: `tests[1].points`"),
            "{message}"
        );
    }

    fn test(
        number: usize,
        run: &str,
        input: &str,
        output: &str,
        comparison: Comparison,
    ) -> ClassroomTest {
        ClassroomTest {
            number,
            line: number,
            name: format!("t{number}"),
            setup: String::new(),
            run: run.to_owned(),
            input: input.to_owned(),
            output: output.to_owned(),
            comparison,
            timeout_ms: 60_000,
            points: 1.0,
        }
    }

    #[test_case("python3 hello.py", None ; "a program")]
    #[test_case("gcc hello.c -o hello && ./hello", None ; "compiled and run")]
    #[test_case("make test", Some("`run` `make` runs the repository's own build or tests") ; "make")]
    #[test_case("python3 -m pytest tests/", Some("`run` `python3 -m pytest` runs") ; "python -m pytest")]
    #[test_case("cargo test", Some("`run` `cargo test` runs") ; "cargo test")]
    #[test_case("CI=1 /usr/bin/pytest -q", Some("`run` `pytest` runs") ; "variables and a path")]
    #[test_case("./test", None ; "the repository's program named like a tool")]
    #[test_case("./gradlew run", Some("`run` `gradlew` runs") ; "a build wrapper")]
    #[test_case("python3 hello.py < in.txt", Some("`run` redirects or pipes (`<`)") ; "redirect")]
    #[test_case("cat in.txt | python3 hello.py", Some("`run` redirects or pipes (`|`)") ; "pipe")]
    #[test_case("python3 hello.py 2>&1", Some("`run` redirects or pipes (`2>&1`)") ; "stderr into stdout")]
    #[test_case("python3 'hello.py", Some("`run` cannot be read as a shell command") ; "bad quoting")]
    fn which_commands_are_one_program(run: &str, reason: Option<&str>) {
        let sorted = sort(vec![test(1, run, "1", "1", Comparison::Exact)]);
        let skipped = sorted
            .skipped
            .first()
            .map(|skipped| skipped.reason.as_str());
        match (reason, skipped) {
            (None, None) => assert_eq!(sorted.program.as_deref(), Some(run)),
            (Some(reason), Some(skipped)) => {
                assert!(skipped.starts_with(reason), "{skipped}");
                assert_eq!(sorted.program, None);
            }
            _ => panic!("expected {reason:?}, skipped {skipped:?}"),
        }
    }

    #[test]
    fn the_program_is_the_first_io_tests_and_others_are_skipped_with_why() {
        let sorted = sort(vec![
            test(1, "make test", "", "", Comparison::ExitStatus),
            test(2, "python3  'hello.py'", "1", "1", Comparison::Included),
            test(3, "python3 hello.py", "", "", Comparison::ExitStatus),
            test(4, "python3 other.py", "1", "2", Comparison::Exact),
            test(5, "./lint.sh", "", "", Comparison::ExitStatus),
            test(6, "python3 hello.py", "1", "1", Comparison::Exact),
        ]);
        assert_eq!(sorted.program.as_deref(), Some("python3  'hello.py'"));
        let imported: Vec<usize> = sorted.imported.iter().map(|test| test.number).collect();
        assert_eq!(imported, [2, 3]);
        let reasons: Vec<(usize, &str)> = sorted
            .skipped
            .iter()
            .map(|skipped| (skipped.test.number, skipped.reason.as_str()))
            .collect();
        assert_eq!(reasons.len(), 4);
        assert!(reasons[0].1.starts_with("`run` `make` runs"), "{reasons:?}");
        assert!(
            reasons[1]
                .1
                .starts_with("runs `python3 other.py`, not the package's program"),
            "{reasons:?}"
        );
        assert!(reasons[2].1.starts_with("no `input` and no `output`: GitHub Classroom graded only the exit status of `./lint.sh`"), "{reasons:?}");
        assert!(
            reasons[3]
                .1
                .starts_with("has the `input` and `output` of test 2"),
            "{reasons:?}"
        );
    }

    #[test]
    fn no_io_test_means_no_program() {
        let sorted = sort(vec![test(1, "pytest", "", "", Comparison::ExitStatus)]);
        assert_eq!(sorted.program, None);
        assert!(sorted.imported.is_empty());
        assert_eq!(sorted.skipped.len(), 1);
    }
}
