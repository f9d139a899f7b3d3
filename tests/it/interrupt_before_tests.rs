//! SIGINT and SIGTERM that come before any test runs (issue #34): while a
//! package's `data/` is built from its `generators.yaml`, while it loads
//! (its validator compiled, its tests checked), while `judge run` checks
//! the `--tests` inputs, while `grade --package` derives a time limit.
//! SPEC: "write the requested reports with `"interrupted": true`, exit 130
//! / 143"; here each report says that nothing was graded and what the
//! judge was doing, nothing is left running or half-written, and the
//! package's folder is as it was.

use crate::interrupt::{send, slowly_generated_package, wait_exit};
use crate::support::{processes_mentioning, Dir, PackageBuilder};
use serde_json::Value;
use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A test folder the sandbox user may pass through, with `tmp/` for the
/// judge's TMPDIR.
pub(crate) fn sandbox_ready_dir() -> Dir {
    let dir = Dir::new();
    fs_err::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let tmp = dir.path().join("tmp");
    fs_err::create_dir(&tmp).unwrap();
    fs_err::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// Every file and folder under `root`, by path, with each file's bytes and
/// mode: equal before and after means nothing was added, removed,
/// changed or left half-written.
pub(crate) fn folder_state(root: &Path) -> BTreeMap<String, (u32, Option<Vec<u8>>)> {
    let mut state = BTreeMap::new();
    let mut pending = vec![root.to_owned()];
    while let Some(folder) = pending.pop() {
        for entry in fs_err::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            let metadata = fs_err::symlink_metadata(&path).unwrap();
            let name = path.strip_prefix(root).unwrap().display().to_string();
            let mode = metadata.permissions().mode();
            if metadata.is_dir() {
                pending.push(path);
                state.insert(name, (mode, None));
            } else {
                state.insert(name, (mode, Some(fs_err::read(&path).unwrap())));
            }
        }
    }
    state
}

/// Starts `judge ARGS` in `dir` (TMPDIR `dir/tmp`) in the background of a
/// non-interactive shell, as a wrapper script or a CI step does (such a
/// shell starts it with SIGINT ignored), waits until a process whose
/// command line names both the TMPDIR and `program` runs, sends `signal`
/// to the judge's pid alone and returns the judge's exit code and stderr.
/// Then checks that no process and no temporary file is left.
pub(crate) fn signal_while_running(
    dir: &Dir,
    args: &[&str],
    program: &str,
    signal: &str,
) -> (i32, String) {
    use std::io::BufRead;
    let tmp = dir.path().join("tmp");
    let mut child = Command::new("sh")
        .args(["-c", "\"$@\" & echo $!; wait $!", "sh"])
        .arg(assert_cmd::cargo::cargo_bin!("judge"))
        .args(args)
        .current_dir(dir.path())
        .env("TMPDIR", &tmp)
        .process_group(0)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Kept open to the end: the judge may write to stdout.
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut pid = String::new();
    stdout.read_line(&mut pid).unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !processes_mentioning(&tmp)
        .iter()
        .any(|command| command.contains(program))
    {
        if Instant::now() > deadline {
            send("KILL", pid.trim());
            panic!("`{program}` never started");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    send(signal, pid.trim());
    let (code, stderr, _) = wait_exit(child, Duration::from_secs(60));
    drop(stdout);
    let left: Vec<_> = fs_err::read_dir(&tmp).unwrap().collect();
    assert!(left.is_empty(), "left in TMPDIR: {left:?}\n{stderr}");
    let processes = processes_mentioning(&tmp);
    assert!(processes.is_empty(), "processes left: {processes:?}");
    (code, stderr)
}

/// The JSON report `name` in `dir`, checked against the schema: stopped
/// before any test ran, while `doing`, with no result and `not_graded`
/// naming exactly `not_graded`.
#[track_caller]
pub(crate) fn assert_stopped_before_tests(
    dir: &Dir,
    name: &str,
    doing: &str,
    not_graded: &[&str],
) -> Value {
    let report = crate::support::report(&dir.read(name));
    assert_eq!(report["version"], 1, "{report:#}");
    assert_eq!(report["interrupted"], true, "{report:#}");
    assert_eq!(report["interrupted_while"], doing, "{report:#}");
    assert_eq!(report["results"], serde_json::json!([]), "{report:#}");
    let listed: Vec<&str> = report["not_graded"]
        .as_array()
        .map(|pairs| {
            pairs
                .iter()
                .map(|pair| pair["submission"].as_str().unwrap())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(listed, not_graded, "{report:#}");
    report
}

/// The JUnit, CSV and HTML reports in `dir` (`grades.xml`, `grades.csv`,
/// `grades.html`) are written: the JUnit and HTML reports say the grade was interrupted,
/// the CSV gradebook has its header.
#[track_caller]
fn assert_other_reports_interrupted(dir: &Dir) {
    let junit = dir.read("grades.xml");
    assert!(junit.contains("interrupted"), "{junit}");
    let csv = dir.read("grades.csv");
    assert!(csv.starts_with("student,"), "{csv}");
    let html = dir.read("grades.html");
    assert!(html.contains("interrupted"), "{html}");
}

/// No journal and no report's temporary file is left beside the reports.
#[track_caller]
pub(crate) fn assert_nothing_half_written(dir: &Dir) {
    let left: Vec<String> = fs_err::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with('.') || name.ends_with(".journal"))
        .collect();
    assert!(left.is_empty(), "left beside the reports: {left:?}");
}

/// Every report a grade (of a class or a package) writes, `grades.*`.
const EVERY_REPORT: [&str; 8] = [
    "--json",
    "grades.json",
    "--junit",
    "grades.xml",
    "--csv",
    "grades.csv",
    "--html",
    "grades.html",
];

/// See: issue #34. SIGINT while `grade --package` builds `data/` from
/// generators.yaml: every report asked for is written, interrupted, with
/// nothing graded and `interrupted_while` saying what was being done; the
/// generator is killed, `data/` is not written, the package's folder is as
/// it was and nothing is left half-written. (Before, the grade ended with
/// 130 and no report at all.)
#[test]
fn r34_sigint_while_grade_package_builds_data_writes_every_report() {
    let dir = sandbox_ready_dir();
    slowly_generated_package(&dir);
    let before = folder_state(&dir.path().join("slow"));
    let (code, stderr) = signal_while_running(
        &dir,
        &[&["grade", "--package", "slow"][..], &EVERY_REPORT].concat(),
        "slow.py",
        "INT",
    );
    assert_eq!(code, 130, "{stderr}");
    assert!(
        stderr
            .contains("interrupted by SIGINT before grading: nothing graded; each report says so"),
        "{stderr}"
    );
    let report = assert_stopped_before_tests(&dir, "grades.json", "building_data", &[]);
    assert_eq!(report["layout"], "expected", "{report:#}");
    assert_other_reports_interrupted(&dir);
    assert!(!dir.path().join("slow/data").exists(), "{stderr}");
    assert_eq!(folder_state(&dir.path().join("slow")), before, "{stderr}");
    assert_nothing_half_written(&dir);
}

/// See: issue #34. The same for SIGTERM, with 143.
#[test]
fn r34_sigterm_while_grade_package_builds_data_writes_its_report() {
    let dir = sandbox_ready_dir();
    slowly_generated_package(&dir);
    let before = folder_state(&dir.path().join("slow"));
    let (code, stderr) = signal_while_running(
        &dir,
        &["grade", "--package", "slow", "--json", "grades.json"],
        "slow.py",
        "TERM",
    );
    assert_eq!(code, 143, "{stderr}");
    assert_stopped_before_tests(&dir, "grades.json", "building_data", &[]);
    assert_eq!(folder_state(&dir.path().join("slow")), before, "{stderr}");
    assert_nothing_half_written(&dir);
}

/// See: issue #34. SIGINT while `gen --package` builds `data/` over an
/// earlier one: the earlier `data/` is kept whole, nothing of the new one
/// is left (`data/` is swapped in whole, never half-written).
#[test]
fn r34_sigint_while_gen_package_rebuilds_data_keeps_the_old_data() {
    let dir = sandbox_ready_dir();
    slowly_generated_package(&dir);
    dir.create("slow/data/secret/old.in", "1\n");
    dir.create("slow/data/secret/old.ans", "1\n");
    let before = folder_state(&dir.path().join("slow"));
    let (code, stderr) =
        signal_while_running(&dir, &["gen", "--package", "slow"], "slow.py", "INT");
    assert_eq!(code, 130, "{stderr}");
    assert_eq!(folder_state(&dir.path().join("slow")), before, "{stderr}");
    assert_nothing_half_written(&dir);
}

/// judge.toml with a language `slow` whose compile never ends by itself:
/// a shell that names the source (so its command line names the TMPDIR)
/// and sleeps.
const SLOW_COMPILER: &str = "[limits]\ncompile-time-limit-ms = 600000\n\
     [languages.slow]\nextensions = [\"slow\"]\n\
     compile = [\"sh\", \"-c\", \"while :; do sleep 1; done\", \"{source}\"]\n\
     run = [\"{executable}\"]\n";

/// See: issue #34. SIGINT while `grade --package` compiles the package's
/// input validator (as the package loads, to check its tests): the reports
/// are written, interrupted while loading the package.
#[test]
fn r34_sigint_while_grade_package_compiles_the_validator_writes_its_report() {
    let dir = sandbox_ready_dir();
    dir.create("judge.toml", SLOW_COMPILER);
    PackageBuilder::kattis(&dir, "pk")
        .manifest(
            "problem_format_version: 2025-09\ntype: pass-fail\nname: Pk\n\
             uuid: 5b7d9f13-6e80-4ca3-8e4f-3a5b6c7d8e90\nlicense: cc0\n\
             limits:\n  time_limit: 2\n",
        )
        .test("secret/a", "1\n", "1\n")
        .file("input_validators/validate.slow", "never compiled\n")
        .submission("accepted/echo.py", "print(input())\n")
        .build();
    let before = folder_state(&dir.path().join("pk"));
    let (code, stderr) = signal_while_running(
        &dir,
        &["grade", "--package", "pk", "--json", "grades.json"],
        "validate.slow",
        "INT",
    );
    assert_eq!(code, 130, "{stderr}");
    assert!(!stderr.contains("error:"), "{stderr}");
    assert_stopped_before_tests(&dir, "grades.json", "loading_package", &[]);
    assert_eq!(folder_state(&dir.path().join("pk")), before, "{stderr}");
    assert_nothing_half_written(&dir);
}

/// See: issue #34. SIGINT while `grade --package` runs the accepted
/// submissions to derive the time limit the package does not state: the
/// report is written, interrupted while deriving it, every submission not
/// graded; no journal is left. (Before, the killed run made the derivation
/// fail: exit 3, "no accepted submission passed", and an empty journal.)
#[test]
fn r34_sigint_while_grade_package_derives_the_time_limit_writes_its_report() {
    let dir = sandbox_ready_dir();
    PackageBuilder::kattis(&dir, "pk")
        .manifest(
            "problem_format_version: 2025-09\ntype: pass-fail\nname: Pk\n\
             uuid: 5b7d9f13-6e80-4ca3-8e4f-3a5b6c7d8e90\nlicense: cc0\n",
        )
        .test("secret/a", "1\n", "1\n")
        .submission(
            "accepted/sleepy.py",
            "import time\ntime.sleep(120)\nprint(input())\n",
        )
        .submission("wrong_answer/zero.py", "print(0)\n")
        .build();
    let before = folder_state(&dir.path().join("pk"));
    let (code, stderr) = signal_while_running(
        &dir,
        &["grade", "--package", "pk", "--json", "grades.json"],
        "sleepy.py",
        "INT",
    );
    assert_eq!(code, 130, "{stderr}");
    assert!(!stderr.contains("error:"), "{stderr}");
    assert_stopped_before_tests(
        &dir,
        "grades.json",
        "deriving_time_limit",
        &[
            "pk/submissions/accepted/sleepy.py",
            "pk/submissions/wrong_answer/zero.py",
        ],
    );
    assert_eq!(folder_state(&dir.path().join("pk")), before, "{stderr}");
    assert_nothing_half_written(&dir);
}

/// What the validator of [`slowly_validated_package`] names on its command
/// line while it sleeps.
pub(crate) const SLOW_INPUT: &str = "checking-slow-input";

/// A package of ours, `sum` (a + b), in `dir/problems`, whose validator
/// sleeps on an input holding `slow` (started again with [`SLOW_INPUT`] as
/// its argument, so that only that check is waited for), and `sum.py`
/// solving it.
pub(crate) fn slowly_validated_package(dir: &Dir) {
    dir.create(
        "problems/sum/problem.toml",
        "title = \"Sum\"\norigin = \"judge tests\"\nprofiles = [\"small\"]\n\
         reference = \"reference.py\"\n[validator]\nprogram = \"validator.py\"\n\
         [limits]\ntime-limit-ms = 2000\nmemory-limit-mib = 256\noutput-limit-kib = 64\n\
         [checker]\n[tests]\nseed = 1\n",
    );
    dir.create(
        "problems/sum/reference.py",
        "print(sum(map(int, input().split())))\n",
    );
    dir.create(
        "problems/sum/validator.py",
        format!(
            "import os, sys, time\nif sys.argv[-1] == '{SLOW_INPUT}':\n    time.sleep(120)\n\
             if 'slow' in sys.stdin.read():\n    \
             os.execv(sys.executable, [sys.executable, sys.argv[0], '{SLOW_INPUT}'])\n"
        ),
    );
    dir.create("problems/sum/tests/a.in", "1 2\n");
    dir.create("problems/sum/tests/a.ans", "3\n");
    dir.create("sum.py", "print(sum(map(int, input().split())))\n");
}

/// See: issue #34. SIGTERM while `judge run` loads the package (its
/// validator checks the package's tests): the report is written,
/// interrupted while loading the package, the submission not graded, and
/// the exit code is 143. (Before, the signal's default action ended the
/// judge at once: no report, its temporary folder left.)
#[test]
fn r34_sigterm_while_run_loads_the_package_writes_its_report() {
    let dir = sandbox_ready_dir();
    slowly_validated_package(&dir);
    dir.create("problems/sum/tests/b.in", "slow\n");
    dir.create("problems/sum/tests/b.ans", "0\n");
    let (code, stderr) = signal_while_running(
        &dir,
        &[
            "run",
            "sum",
            "sum.py",
            "--problems-dir",
            "problems",
            "--json",
            "run.json",
            "--csv",
            "run.csv",
        ],
        SLOW_INPUT,
        "TERM",
    );
    assert_eq!(code, 143, "{stderr}");
    assert!(!stderr.contains("error:"), "{stderr}");
    let report = assert_stopped_before_tests(&dir, "run.json", "loading_package", &["sum.py"]);
    assert!(report.get("layout").is_none(), "{report:#}");
    assert!(dir.read("run.csv").starts_with("student,"));
    assert_nothing_half_written(&dir);
}

/// See: issue #34. SIGINT while `judge run --tests DIR` checks DIR's inputs
/// with the package's validator: the report is written, interrupted while
/// validating the tests, the submission not graded.
#[test]
fn r34_sigint_while_run_validates_the_tests_folder_writes_its_report() {
    let dir = sandbox_ready_dir();
    slowly_validated_package(&dir);
    dir.create("mine/x.in", "slow\n");
    dir.create("mine/x.ans", "0\n");
    let (code, stderr) = signal_while_running(
        &dir,
        &[
            "run",
            "sum",
            "sum.py",
            "--problems-dir",
            "problems",
            "--tests",
            "mine",
            "--json",
            "run.json",
        ],
        SLOW_INPUT,
        "INT",
    );
    assert_eq!(code, 130, "{stderr}");
    assert!(!stderr.contains("error:"), "{stderr}");
    assert_stopped_before_tests(&dir, "run.json", "validating_tests", &["sum.py"]);
    assert_nothing_half_written(&dir);
}

/// A class of `slowly_validated_package`'s `sum` whose package load
/// never ends by itself (the validator sleeps on its test `b`): alice and
/// bob hand in `sum.py`, carol's folder is empty, and alice's `notes.txt`
/// is no hand-in.
pub(crate) fn class_with_a_slowly_loading_package(dir: &Dir) {
    slowly_validated_package(dir);
    dir.create("problems/sum/tests/b.in", "slow\n");
    dir.create("problems/sum/tests/b.ans", "0\n");
    dir.create(
        "judge.toml",
        "submissions = \"hand-ins\"\nlayout = \"student/problem\"\nproblems = [\"sum\"]\n\
         random-tests = 0\n",
    );
    dir.create(
        "hand-ins/alice/sum.py",
        "print(sum(map(int, input().split())))\n",
    );
    dir.create("hand-ins/alice/notes.txt", "my notes\n");
    dir.create("hand-ins/bob/sum.py", "print(0)\n");
    fs_err::create_dir_all(dir.path().join("hand-ins/carol")).unwrap();
}

/// See: issue #34. SIGTERM while `judge grade` of a class loads a package
/// (its validator checks the package's tests): every report asked for is
/// written, interrupted while loading the package, nothing graded, every
/// pair discovery found not graded with its student, the pair with no
/// hand-in missing and the file that is no hand-in ignored; exit 143, the
/// validator killed, no temporary folder, journal or half-written report
/// left, the hand-ins as they were. (Before, the signal's default action
/// ended the judge at once: exit 143, no report, its temporary folder
/// left.)
#[test]
fn r34_sigterm_while_a_class_grade_loads_a_package_writes_every_report() {
    let dir = sandbox_ready_dir();
    class_with_a_slowly_loading_package(&dir);
    let before = folder_state(&dir.path().join("hand-ins"));
    let (code, stderr) = signal_while_running(
        &dir,
        &[&["grade", "--problems-dir", "problems"][..], &EVERY_REPORT].concat(),
        SLOW_INPUT,
        "TERM",
    );
    assert_eq!(code, 143, "{stderr}");
    assert!(!stderr.contains("error:"), "{stderr}");
    assert!(
        stderr.contains(
            "interrupted by SIGTERM before grading: nothing graded; each report says so \
             (while loading the package)"
        ),
        "{stderr}"
    );
    let report = assert_stopped_before_tests(
        &dir,
        "grades.json",
        "loading_package",
        &["hand-ins/alice/sum.py", "hand-ins/bob/sum.py"],
    );
    assert_eq!(report["layout"], "student/problem", "{report:#}");
    let students: Vec<&str> = report["not_graded"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| pair["student"].as_str().unwrap())
        .collect();
    assert_eq!(students, ["alice", "bob"], "{report:#}");
    assert_eq!(
        report["missing"],
        serde_json::json!([{ "student": "carol", "problem": "sum" }]),
        "{report:#}"
    );
    let ignored: Vec<&str> = report["ignored"]
        .as_array()
        .unwrap()
        .iter()
        .map(|file| file["path"].as_str().unwrap())
        .collect();
    assert_eq!(ignored, ["hand-ins/alice/notes.txt"], "{report:#}");
    assert!(report.get("shard").is_none(), "{report:#}");
    assert_other_reports_interrupted(&dir);
    assert_eq!(
        folder_state(&dir.path().join("hand-ins")),
        before,
        "{stderr}"
    );
    assert_nothing_half_written(&dir);
}

/// See: issue #34. The same for SIGINT (to a judge in a script's
/// background, started with SIGINT ignored), a shard of the class and a
/// journal that would have been started: the report carries its shard,
/// its pairs not graded, and exit 130.
#[test]
fn r34_sigint_while_a_sharded_class_grade_loads_a_package_writes_its_report() {
    let dir = sandbox_ready_dir();
    class_with_a_slowly_loading_package(&dir);
    let (code, stderr) = signal_while_running(
        &dir,
        &[
            "grade",
            "--problems-dir",
            "problems",
            "--shard",
            "2/2",
            "--json",
            "grades.json",
        ],
        SLOW_INPUT,
        "INT",
    );
    assert_eq!(code, 130, "{stderr}");
    assert!(!stderr.contains("error:"), "{stderr}");
    let report = assert_stopped_before_tests(
        &dir,
        "grades.json",
        "loading_package",
        &["hand-ins/bob/sum.py"],
    );
    assert_eq!(
        report["shard"],
        serde_json::json!({ "index": 2, "count": 2, "pairs": 2 }),
        "{report:#}"
    );
    assert_nothing_half_written(&dir);
}

/// A Kattis package `gen` whose one secret case is made by `generator`
/// (`generators/make.py`), with an accepted and a wrong example.
fn generated_package(dir: &Dir, generator: &str) {
    PackageBuilder::kattis(dir, "gen")
        .manifest(
            "problem_format_version: 2025-09\ntype: pass-fail\nname: Gen\n\
             uuid: 5b7d9f13-6e80-4ca3-8e4f-3a5b6c7d8e91\nlicense: cc0\n\
             limits:\n  time_limit: 2\n",
        )
        .file(
            "generators/generators.yaml",
            "data:\n  secret:\n    data:\n      \"s\":\n        generate: make.py\n",
        )
        .file("generators/make.py", generator)
        .file("input_validators/validate.py", "import sys\nsys.exit(42)\n")
        .submission("accepted/echo.py", "print(input())\n")
        .submission("wrong_answer/zero.py", "print(0)\n")
        .build();
}

/// See: issue #34. Shard 2 of a `grade --package` stopped while it builds
/// `data/` (before its package, and so its pairs, were known) still says
/// which shard it is, and `judge merge` of it with shard 1 says that shard
/// 2 was interrupted, not that it is missing: the merged report is
/// written, interrupted, and the merge does not pass (exit 1: the pairs of
/// shard 2 were never graded). (Before, the stopped shard's report had no
/// `shard`, and the merge refused it: "shard 2/2 is missing", exit 2.)
#[test]
fn r34_a_shard_stopped_before_its_package_loaded_is_merged_as_interrupted() {
    let first = sandbox_ready_dir();
    generated_package(&first, "print(1)\n");
    let run = first.judge(&[
        "grade",
        "--package",
        "gen",
        "--shard",
        "1/2",
        "--json",
        "shard-1.json",
    ]);
    run.expect_code(0);
    let second = sandbox_ready_dir();
    generated_package(&second, "import time\ntime.sleep(120)\nprint(1)\n");
    let (code, stderr) = signal_while_running(
        &second,
        &[
            "grade",
            "--package",
            "gen",
            "--shard",
            "2/2",
            "--json",
            "shard-2.json",
        ],
        "make.py",
        "TERM",
    );
    assert_eq!(code, 143, "{stderr}");
    let report = assert_stopped_before_tests(&second, "shard-2.json", "building_data", &[]);
    assert_eq!(
        report["shard"],
        serde_json::json!({ "index": 2, "count": 2 }),
        "{report:#}"
    );
    let stopped = second.path().join("shard-2.json");
    let merge = first.judge(&[
        "merge",
        "shard-1.json",
        stopped.to_str().unwrap(),
        "-o",
        "merged.json",
    ]);
    merge.expect_code(1);
    let said = merge.stderr();
    assert!(!said.contains("missing"), "{}", merge.transcript());
    assert!(
        said.contains(&format!(
            "warning: shard 2/2 (`{}`) was interrupted before its package loaded (while \
             building `data/` from `generators/generators.yaml`): none of its pairs was \
             graded, and which they are is not known; grade it again",
            stopped.display()
        )),
        "{}",
        merge.transcript()
    );
    let merged = crate::support::report(&first.read("merged.json"));
    assert_eq!(merged["interrupted"], true, "{merged:#}");
    assert_eq!(merged["results"].as_array().unwrap().len(), 1, "{merged:#}");
}

/// See: issue #34. A class graded once, then graded again with `--resume
/// grades.json --json grades.json` (the report brought up to date where it
/// is) and stopped by SIGINT while its package loads: the earlier report,
/// with every result graded before, is left as it was, not replaced by a
/// report of nothing graded (which a later `--resume` would reuse nothing
/// of).
#[test]
fn r34_a_resumed_class_grade_stopped_while_loading_keeps_the_earlier_report() {
    let dir = sandbox_ready_dir();
    class_with_a_slowly_loading_package(&dir);
    // Graded once while the package still loaded at once.
    fs_err::remove_file(dir.path().join("problems/sum/tests/b.in")).unwrap();
    fs_err::remove_file(dir.path().join("problems/sum/tests/b.ans")).unwrap();
    dir.judge(&[
        "grade",
        "--problems-dir",
        "problems",
        "--json",
        "grades.json",
    ])
    .expect_code(1);
    let earlier = dir.read("grades.json");
    let graded = crate::support::report(&earlier)["results"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(graded, 2, "{earlier}");
    dir.create("problems/sum/tests/b.in", "slow\n");
    dir.create("problems/sum/tests/b.ans", "0\n");
    let (code, stderr) = signal_while_running(
        &dir,
        &[
            "grade",
            "--problems-dir",
            "problems",
            "--resume",
            "grades.json",
            "--json",
            "grades.json",
        ],
        SLOW_INPUT,
        "INT",
    );
    assert_eq!(code, 130, "{stderr}");
    assert_eq!(dir.read("grades.json"), earlier, "{stderr}");
    assert_nothing_half_written(&dir);
}
