//! What each command that runs untrusted code keeps out of reach (issue
//! #33: the sandbox hides what the command gathers and hands it, so each
//! command is pinned on its own): `run`, `grade`, `grade --package`,
//! `stress`, the package's own programs under `validate`, `solve` and
//! `gen`, and a `generators.yaml` build. Every secret lies under
//! `/usr/local/share`, which Landlock lets every run read, world-readable
//! in folders anyone may enter, so only the folders the sandbox masks keep
//! a program from it. Each program that finds a secret exits 42 (a tool's
//! fault, or a submission's RE); one that finds none behaves. They need
//! root (they write under `/usr`), so they are `#[ignore]`d and CI, which
//! runs as root, runs them with `cargo test --test it -- --ignored`; run
//! otherwise they fail, saying so.

use crate::host_out_of_reach::{UnderUsr, UNDER_USR};
use crate::support::{require_root, Dir, Run};
use std::path::{Path, PathBuf};

/// Python that exits 42 when it can read any of `secrets`, then goes on
/// with `rest`.
fn probe(secrets: &[&Path], rest: &str) -> String {
    let listed: Vec<String> = secrets
        .iter()
        .map(|path| format!("{:?}", path.display().to_string()))
        .collect();
    format!(
        "import sys\n\
         for path in [{}]:\n    \
             try:\n        \
                 open(path).read()\n        \
                 sys.exit(42)\n    \
             except OSError:\n        \
                 pass\n\
         {rest}",
        listed.join(", ")
    )
}

/// What an honest submission of `probe` does: prints `a + b`.
const SUM: &str = "a, b = map(int, input().split())\nprint(a + b)\n";

/// Writes `contents` to `path` (creating its folders), readable by anyone.
fn write(path: &Path, contents: &str) {
    let share = Path::new("/usr/local/share");
    fs_err::create_dir_all(path.parent().unwrap()).unwrap();
    for folder in path.ancestors().skip(1) {
        if folder == share || !folder.starts_with(share) {
            break;
        }
        crate::support::readable_by_all(folder);
    }
    fs_err::write(path, contents).unwrap();
    crate::support::readable_by_all(path);
}

/// The secrets under one folder of `/usr/local/share` (removed when
/// dropped): a problems folder `probs/` for the package `probe` (a + b,
/// [`Secrets::package`]) beside `probs/sibling.txt`, which only the
/// problems folder's mask hides; a hand-in folder `hand/` holding
/// `honest.py` beside a neighbour's `neighbour.txt`; and a tests folder
/// `tests/` (`1.in` without its answer, `2.in` with `2.ans`).
struct Secrets {
    _root: UnderUsr,
    problems: PathBuf,
    /// The answer of the package's one test.
    answer: PathBuf,
    /// A file of the problems folder in no package.
    sibling: PathBuf,
    /// An honest submission under `hand/`, probing every secret here.
    honest: PathBuf,
    /// A neighbour's file beside it.
    neighbour: PathBuf,
    /// The tests folder, and an answer in it.
    tests: PathBuf,
    tests_answer: PathBuf,
}

impl Secrets {
    fn new(name: &str) -> Secrets {
        let root = UnderUsr::new(name);
        let problems = root.path.join("probs");
        let hand = root.path.join("hand");
        let tests = root.path.join("tests");
        let secrets = Secrets {
            answer: problems.join("probe/tests/secret.ans"),
            sibling: problems.join("sibling.txt"),
            honest: hand.join("honest.py"),
            neighbour: hand.join("neighbour.txt"),
            tests_answer: tests.join("2.ans"),
            tests,
            problems,
            _root: root,
        };
        write(&secrets.sibling, "SIBLING-SECRET\n");
        write(&secrets.neighbour, "NEIGHBOUR-SECRET\n");
        write(&secrets.tests.join("1.in"), "20 22\n");
        write(&secrets.tests.join("2.in"), "1 2\n");
        write(&secrets.tests_answer, "3\n");
        write(
            &secrets.honest,
            &probe(
                &[
                    &secrets.answer,
                    &secrets.sibling,
                    &secrets.neighbour,
                    &secrets.tests_answer,
                ],
                SUM,
            ),
        );
        secrets
    }

    /// Writes the package `probe` into the problems folder, its programs
    /// probing its answer and the problems folder, and its reference and
    /// generator (which never run while it loads) `also`.
    fn package(&self, also: &[&Path]) {
        let probed = [self.answer.as_path(), self.sibling.as_path()];
        let mut later = probed.to_vec();
        later.extend_from_slice(also);
        probe_package(&self.problems.join("probe"), &probed, &later);
    }

    /// `--problems-dir` and the problems folder, for a command's arguments.
    fn problems_dir(&self) -> [String; 2] {
        [
            "--problems-dir".to_owned(),
            self.problems.display().to_string(),
        ]
    }
}

/// The package `probe` in `dir`: a + b, its validator exiting 42 when it
/// can read one of `secrets`, its reference and generator when they can
/// read one of `later`.
fn probe_package(dir: &Path, secrets: &[&Path], later: &[&Path]) {
    write(
        &dir.join("problem.toml"),
        "title = \"Probe\"\norigin = \"judge tests\"\nprofiles = [\"small\"]\n\
         reference = \"reference.py\"\ngenerator = \"generator.py\"\n\
         [validator]\nprogram = \"validator.py\"\n\
         [limits]\ntime-limit-ms = 2000\nmemory-limit-mib = 256\noutput-limit-kib = 64\n\
         [checker]\n[tests]\nseed = 1\n",
    );
    write(&dir.join("reference.py"), &probe(later, SUM));
    write(
        &dir.join("generator.py"),
        &probe(
            later,
            "import random\nrng = random.Random(int(sys.argv[1]))\n\
             print(rng.randint(0, 100), rng.randint(0, 100))\n",
        ),
    );
    write(
        &dir.join("validator.py"),
        &probe(
            secrets,
            "text = sys.stdin.read()\n\
             if not text.endswith('\\n') or len(text.split()) != 2:\n    \
                 sys.exit('expected two numbers on one line')\n",
        ),
    );
    write(&dir.join("tests/secret.in"), "20 22\n");
    write(&dir.join("tests/secret.ans"), "42\n");
}

/// Every test verdict of every result in `report`.
fn verdicts(report: &serde_json::Value) -> Vec<String> {
    report["results"]
        .as_array()
        .unwrap_or_else(|| panic!("{report:#}"))
        .iter()
        .flat_map(|result| result["tests"].as_array().cloned().unwrap_or_default())
        .map(|test| test["verdict"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// `run` passed and every test of its report is AC: no probe found a
/// secret (a submission that did exits 42, RE; a package program that did
/// fails the command).
#[track_caller]
fn all_accepted(dir: &Dir, run: &Run) {
    run.expect_code(0);
    let report = crate::support::report(&dir.read("report.json"));
    let verdicts = verdicts(&report);
    assert!(
        !verdicts.is_empty() && verdicts.iter().all(|verdict| verdict == "AC"),
        "a program read a secret: {verdicts:?}\n{report:#}"
    );
}

/// `judge run --tests DIR`: the submission reads neither its package's
/// answer, nor the problems folder, nor its neighbour's file where it was
/// handed in, nor the answers in DIR; nor do the package's programs (its
/// validator as the package loads the first two; its reference answering
/// `1.in`, its generator and reference for the random tests, given the
/// run's whole value, none of them).
#[test]
#[ignore = "needs root: it writes under /usr; CI runs it as root with --ignored"]
fn run_keeps_the_problems_the_tests_and_the_hand_in_folders_out_of_reach() {
    require_root(UNDER_USR);
    let secrets = Secrets::new("per-command-run");
    secrets.package(&[&secrets.neighbour, &secrets.tests_answer]);
    let dir = Dir::new();
    let honest = secrets.honest.display().to_string();
    let tests = secrets.tests.display().to_string();
    let mut args = vec![
        "run",
        "probe",
        honest.as_str(),
        "--tests",
        tests.as_str(),
        "--random",
        "2",
        "--json",
        "report.json",
    ];
    let problems_dir = secrets.problems_dir();
    args.extend(problems_dir.iter().map(String::as_str));
    let run = dir.judge(&args);
    all_accepted(&dir, &run);
    let report = crate::support::report(&dir.read("report.json"));
    assert_eq!(verdicts(&report).len(), 4, "{report:#}");
}

/// `judge grade` with `--problems-dir`: alice's program reads neither the
/// package's answer, nor the problems folder, nor bob's hand-in in the
/// class folder.
#[test]
#[ignore = "needs root: it writes under /usr; CI runs it as root with --ignored"]
fn grade_keeps_the_problems_folder_and_the_class_out_of_reach() {
    require_root(UNDER_USR);
    let secrets = Secrets::new("per-command-grade");
    secrets.package(&[]);
    let class = secrets.problems.with_file_name("class");
    let bob = class.join("probe/bob.py");
    write(&bob, &format!("# BOB-SECRET\n{SUM}"));
    write(
        &class.join("probe/alice.py"),
        &probe(&[&secrets.answer, &secrets.sibling, &bob], SUM),
    );
    let dir = Dir::new();
    dir.create(
        "judge.toml",
        format!("submissions = \"{}\"\nrandom-tests = 2\n", class.display()),
    );
    let mut args = vec!["grade", "--json", "report.json"];
    let problems_dir = secrets.problems_dir();
    args.extend(problems_dir.iter().map(String::as_str));
    all_accepted(&dir, &dir.judge(&args));
}

/// `judge grade --package DIR`: the package's own submission reads
/// neither the package's answer nor anything else of the folder holding
/// the package.
#[test]
#[ignore = "needs root: it writes under /usr; CI runs it as root with --ignored"]
fn grade_package_keeps_the_folder_holding_the_package_out_of_reach() {
    require_root(UNDER_USR);
    let secrets = Secrets::new("per-command-package");
    secrets.package(&[]);
    let package = secrets.problems.join("probe");
    write(
        &package.join("submissions/accepted/honest.py"),
        &probe(&[&secrets.answer, &secrets.sibling], SUM),
    );
    let dir = Dir::new();
    let package = package.display().to_string();
    let run = dir.judge(&["grade", "--package", &package, "--json", "report.json"]);
    all_accepted(&dir, &run);
}

/// `judge stress`: the submission reads neither the package's answer nor
/// the problems folder, in any of its random tests; nor do the package's
/// generator, validator and reference that make and answer them.
#[test]
#[ignore = "needs root: it writes under /usr; CI runs it as root with --ignored"]
fn stress_keeps_the_problems_folder_out_of_reach() {
    require_root(UNDER_USR);
    let secrets = Secrets::new("per-command-stress");
    secrets.package(&[]);
    let stressed = secrets.problems.with_file_name("stressed.py");
    write(&stressed, &probe(&[&secrets.answer, &secrets.sibling], SUM));
    let dir = Dir::new();
    let stressed = stressed.display().to_string();
    let mut args = vec![
        "stress",
        "probe",
        stressed.as_str(),
        "--iterations",
        "6",
        "--seed",
        "1",
    ];
    let problems_dir = secrets.problems_dir();
    args.extend(problems_dir.iter().map(String::as_str));
    let run = dir.judge(&args);
    run.expect_code(0);
    assert!(
        run.stderr().contains("no failure in 6 random tests"),
        "{}",
        run.transcript()
    );
}

/// `judge validate`, `judge solve` and `judge gen`: the package's own
/// validator, reference and generator read neither the package's answer
/// nor the problems folder (nor, while the package loads, the answer its
/// validator checks the test of).
#[test]
#[ignore = "needs root: it writes under /usr; CI runs it as root with --ignored"]
fn a_packages_own_programs_keep_the_problems_folder_out_of_reach() {
    require_root(UNDER_USR);
    let secrets = Secrets::new("per-command-programs");
    secrets.package(&[]);
    let dir = Dir::new();
    dir.create("input.in", "1 2\n");
    let problems_dir = secrets.problems_dir();
    let with_problems = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(problems_dir.iter().map(String::as_str));
        dir.judge(&all)
    };
    with_problems(&["validate", "probe", "input.in"]).expect_code(0);
    let solved = with_problems(&["solve", "probe", "input.in"]);
    solved.expect_code(0);
    assert_eq!(solved.stdout(), "3\n", "{}", solved.transcript());
    with_problems(&["gen", "probe", "--count", "2", "--out", "made"]).expect_code(0);
    assert!(dir.path().join("made").read_dir().unwrap().count() >= 2);
    // What the probes look for is there, readable by anyone: only the
    // sandbox kept it from them.
    for secret in [&secrets.answer, &secrets.sibling, &secrets.neighbour] {
        assert!(
            fs_err::read_to_string(secret).is_ok(),
            "{}",
            secret.display()
        );
    }
}

/// `judge gen --package DIR` of a `generators.yaml` package: its generator
/// reads neither the package's submissions nor its old data, though the
/// folder holding the package is no problems folder (nothing else hides
/// them).
#[test]
#[ignore = "needs root: it writes under /usr; CI runs it as root with --ignored"]
fn a_generators_build_keeps_the_submissions_and_the_data_out_of_reach() {
    require_root(UNDER_USR);
    let root = UnderUsr::new("per-command-generators");
    let package = root.path.join("p");
    let solution = package.join("submissions/accepted/echo.py");
    let old = package.join("data/secret/old.ans");
    write(
        &package.join("problem.yaml"),
        "problem_format_version: 2025-09\nname: P\nlimits:\n  validation_time: 1\n",
    );
    write(
        &package.join("generators/generators.yaml"),
        "solution: /submissions/accepted/echo.py\ndata:\n  secret:\n    data:\n      only: gen.py {seed}\n",
    );
    write(
        &package.join("generators/gen.py"),
        &probe(&[&solution, &old], "print(5)\n"),
    );
    write(
        &solution,
        "import sys\nsys.stdout.write(sys.stdin.read())\n",
    );
    write(&package.join("data/secret/old.in"), "4\n");
    write(&old, "4\n");
    let dir = Dir::new();
    let path = package.display().to_string();
    let run = dir.judge(&["gen", "--package", &path]);
    run.expect_code(0);
    assert_eq!(
        fs_err::read_to_string(package.join("data/secret/only.in")).unwrap(),
        "5\n",
        "{}",
        run.transcript()
    );
}
