//! Loading a run's tests: a `--tests` folder's `NAME.in` files with their
//! `NAME.ans` (or the reference answer), a package's tests, then the
//! random tests of the run's profiles. Whatever the judge's own data gets
//! wrong is kept with the test as a judge error, never a verdict.

use super::*;

/// Why a test has no input or answer: a fault in the judge's own data (a
/// file, the generator, the reference solver), kept with the test and
/// shown as that test's JE, so one bad file does not stop the others.
/// Cloned with the test, so causes are kept as their text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TestFault {
    /// A test file could not be read.
    #[error("failed to read the judge's file: {0}")]
    Unreadable(String),
    /// A test file is not UTF-8.
    #[error("`{}` is not UTF-8", .0.display())]
    NotUtf8(PathBuf),
    /// The answer of a test whose input could not be read.
    #[error("the input could not be read")]
    NoInput,
    /// The reference solver refused the input.
    #[error("the reference solver rejected the input: {0}")]
    SolverRejected(String),
    /// The reference solver, a program of the package, failed on the
    /// input (crashed, ran out of a limit, exited with an error): the
    /// package's fault, named as its program and the test (issue #29:
    /// it was said as the input's).
    #[error("no answer for test {test}: {message}")]
    ReferenceFailed { test: String, message: String },
    /// A random test's generator failed or made an invalid input.
    #[error("the `{profile}` generator failed (seed {seed}, test {test}): {error}")]
    Generator {
        profile: String,
        seed: u64,
        test: u64,
        error: String,
    },
}

/// Where a run's fixed tests come from.
#[derive(Clone, Copy, Debug)]
pub enum FixedTests<'a> {
    /// A folder of `NAME.in` (+ `NAME.ans`) given with `--tests DIR`.
    Folder(&'a Path),
    /// A package's samples and fixed tests, already read and validated.
    Package(&'a [PackageTest]),
}

/// The tests of a run: the fixed tests (a folder's `NAME.in` files with
/// `NAME.ans`, or the reference answer when there is none, in name order; or
/// a package's tests), then `random` generated tests taking `profiles` in
/// turn.
pub fn load_tests(
    problem: &dyn Problem,
    fixed: Option<FixedTests<'_>>,
    profiles: &[&str],
    random: u32,
    seed: u64,
    workspace: &Workspace,
) -> Result<Vec<TestCase>, RunError> {
    let mut tests = Vec::new();
    match fixed {
        Some(FixedTests::Folder(dir)) => tests.extend(folder_tests(problem, dir)?),
        Some(FixedTests::Package(package_tests)) => {
            for (index, test) in package_tests.iter().enumerate() {
                let answer = match &test.answer {
                    Some(answer) => Ok(Some(answer.clone())),
                    None => reference_answer(problem, &test.name, &test.input),
                };
                // The text the package layer read (beneath the package's
                // folder, issue #34), written out for the program: the
                // package's file is never opened again by its name, so a
                // link swapped in after the load cannot hand a host file
                // to a run. Named by its place, as a test's name may hold
                // `/` (a Kattis group's).
                let input = workspace
                    .path()
                    .join("inputs")
                    .join(format!("package-{:04}.in", index + 1));
                fs_err::write(&input, &test.input)
                    .map_err(|source| RunError::io("write", &input, source))?;
                tests.push(TestCase {
                    name: test.name.clone(),
                    input: Ok(TestInput {
                        path: input,
                        text: test.input.clone(),
                    }),
                    answer,
                    random: None,
                });
            }
        }
        None => {}
    }
    let profiles: Vec<&str> = match (profiles, problem.profiles()) {
        ([], []) => vec!["default"],
        ([], engine) => engine.iter().map(|profile| profile.name).collect(),
        (profiles, _) => profiles.to_vec(),
    };
    let random = if problem.has_generator() { random } else { 0 };
    for test_number in 0..u64::from(random) {
        // Profiles in turn, so a handful of random tests already reaches
        // every generator the package uses.
        let count = profiles.len() as u64;
        let profile = profiles[(test_number % count) as usize];
        let index = test_number / count;
        tests.push(generated_test(problem, seed, profile, index, workspace)?);
    }
    Ok(tests)
}

/// Every `NAME.in` of `dir`, in name order; a file the judge cannot use is
/// JE on that test, not an `Err`.
fn folder_tests(problem: &dyn Problem, dir: &Path) -> Result<Vec<TestCase>, RunError> {
    let mut tests = Vec::new();
    let inputs =
        crate::test_files::list(dir).map_err(|source| RunError::io("read", dir, source))?;
    for test in inputs {
        let answer_path = test.answer();
        let (name, path) = (test.name, test.input);
        let input = read_text(&path).map(|text| TestInput {
            path: path.clone(),
            text,
        });
        let answer = match &input {
            Err(_) => Err(TestFault::NoInput),
            Ok(_) if answer_path.exists() => read_text(&answer_path).map(Some),
            Ok(input) => reference_answer(problem, &name, &input.text),
        };
        tests.push(TestCase {
            name,
            input,
            answer,
            random: None,
        });
    }
    Ok(tests)
}

/// Random test `index` (0-based) of `profile` under `seed`, written into the
/// workspace and answered by the reference solver: what `judge gen <problem>
/// --seed SEED --profile PROFILE` makes as its test `index + 1`. A generator
/// or solver fault becomes a JE message on the test, not an `Err`.
pub(crate) fn generated_test(
    problem: &dyn Problem,
    seed: u64,
    profile: &str,
    index: u64,
    workspace: &Workspace,
) -> Result<TestCase, RunError> {
    // Named by profile and index within it, so the name alone says how
    // to remake the test, and never clashes with a package test such as
    // matchsticks' `random-001`.
    let name = format!("gen-{profile}-{:03}", index + 1);
    let mut rng = problems::test_rng(seed, problem.id(), profile, index);
    let origin = RandomOrigin {
        seed,
        profile: profile.to_owned(),
        index,
    };
    let generated = problem
        .generate(profile, &mut rng)
        .map_err(|error| error.to_string())
        .and_then(|text| {
            // A generator bug must surface as JE, never as a verdict on a
            // submission.
            problem
                .validate(&text, Some(profile))
                .map(|()| text)
                .map_err(|error| format!("made an invalid input: {error}"))
        });
    match generated {
        Ok(text) => written_test(problem, name, text, Some(origin), workspace),
        Err(error) => {
            let fault = TestFault::Generator {
                profile: profile.to_owned(),
                seed,
                test: index + 1,
                error,
            };
            Ok(TestCase {
                name,
                input: Err(fault.clone()),
                answer: Err(fault),
                random: Some(origin),
            })
        }
    }
}

/// A test of `text`, written to `inputs/<name>.in` in the workspace and
/// answered by the reference solver.
pub(crate) fn written_test(
    problem: &dyn Problem,
    name: String,
    text: String,
    random: Option<RandomOrigin>,
    workspace: &Workspace,
) -> Result<TestCase, RunError> {
    let path = workspace.path().join("inputs").join(format!("{name}.in"));
    fs_err::write(&path, &text).map_err(|source| RunError::io("write", &path, source))?;
    let answer = reference_answer(problem, &name, &text);
    Ok(TestCase {
        name,
        input: Ok(TestInput { path, text }),
        answer,
        random,
    })
}

fn read_text(path: &Path) -> Result<String, TestFault> {
    let bytes = crate::data_file::read(path, crate::data_file::MAX_TEST_BYTES)
        .map_err(|error| TestFault::Unreadable(error.to_string()))?;
    String::from_utf8(bytes).map_err(|_| TestFault::NotUtf8(path.to_owned()))
}

/// The reference answer of the test `name`, whose input is `input`.
fn reference_answer(
    problem: &dyn Problem,
    name: &str,
    input: &str,
) -> Result<Option<String>, TestFault> {
    problem
        .solve(input)
        .map(Some)
        .map_err(|error| match error.kind {
            problems::InputErrorKind::ProgramFailed(message) => TestFault::ReferenceFailed {
                test: name.to_owned(),
                message,
            },
            _ => TestFault::SolverRejected(error.to_string()),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue #34: a package's test reaches a run as the text the package
    /// layer read, written into the workspace; the package's file is not
    /// opened again by its name, so a link swapped in after the load
    /// (here: the file itself replaced) changes nothing a run sees.
    #[test]
    fn a_package_test_runs_from_the_workspace_not_the_package() {
        let problem = problems::find("rooks").expect("a bundled problem");
        let package = tempfile::tempdir().expect("a temporary folder");
        let path = package.path().join("secret/1.in");
        let test = PackageTest {
            name: "secret/1".to_owned(),
            path: path.clone(),
            input: "as loaded\n".to_owned(),
            answer: Some("1\n".to_owned()),
        };
        fs_err::create_dir_all(package.path().join("secret")).expect("mkdir");
        fs_err::write(&path, "swapped after the load\n").expect("write");
        let workspace = Workspace::new().expect("a workspace");
        let tests = load_tests(
            problem,
            Some(FixedTests::Package(std::slice::from_ref(&test))),
            &[],
            0,
            1,
            &workspace,
        )
        .expect("loaded");
        let input = tests[0].input.as_ref().expect("an input");
        assert!(input.path.starts_with(workspace.path()), "{input:?}");
        assert_eq!(
            fs_err::read_to_string(&input.path).expect("written"),
            "as loaded\n"
        );
    }
}
