//! What a package's program leaves in its folder, read by the judge
//! (issue #35): an output validator's `judgemessage.txt`, `score.txt` and
//! `nextpass.in`, and a testlib interactor's `output`. A link there (to a
//! root-only file, to `/dev/zero`), a FIFO or a folder is the package's
//! fault, JE naming the file; the judge never reads through the link,
//! never blocks on it, never writes through one it finds; honest packages
//! stay AC. As whoever runs the tests (root in CI) and, where it differs,
//! as an ordinary user.

use crate::support::{open_dir, ordinary_user};
use crate::support::{repository, require_root};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;
use test_case::test_case;

/// What the secret file holds: no report may show it.
const SECRET: &str = "TOPSECRET-4242";

/// A file only its owner may read (root's, when the tests run as root),
/// outside every package: the target of the links.
fn secret_file(dir: &Path, owner: Option<(u32, u32)>) -> String {
    let path = dir.join("secret.txt");
    fs_err::write(&path, format!("{SECRET}\n")).unwrap();
    if let Some((uid, gid)) = owner {
        std::os::unix::fs::chown(&path, Some(uid), Some(gid)).unwrap();
    }
    fs_err::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    path.display().to_string()
}

/// Writes `files` under `dir/name`, readable by anyone.
fn package(dir: &Path, name: &str, files: &[(&str, String)]) -> String {
    for (file, contents) in files {
        let path = dir.join(name).join(file);
        fs_err::create_dir_all(path.parent().unwrap()).unwrap();
        fs_err::write(&path, contents).unwrap();
    }
    for entry in walkdir::WalkDir::new(dir.join(name)) {
        let entry = entry.unwrap();
        let mode = if entry.file_type().is_dir() {
            0o755
        } else {
            0o644
        };
        fs_err::set_permissions(entry.path(), std::fs::Permissions::from_mode(mode)).unwrap();
    }
    dir.join(name).display().to_string()
}

/// A Kattis package "sum" whose output validator runs `attack` (Python,
/// with `feedback` the feedback folder) and then exits 43.
fn sum_package(dir: &Path, attack: &str) -> String {
    package(
        dir,
        "sum",
        &[
            (
                "problem.yaml",
                "name: Sum\nvalidation: custom\nlimits:\n  time_limit: 1\n".to_owned(),
            ),
            ("data/secret/a.in", "5 7\n".to_owned()),
            ("data/secret/a.ans", "12\n".to_owned()),
            (
                "submissions/accepted/sum.py",
                "a, b = map(int, input().split())\nprint(a + b)\n".to_owned(),
            ),
            (
                "output_validators/v/validate.py",
                format!("import os, sys\nfeedback = sys.argv[3]\n{attack}\nsys.exit(43)\n"),
            ),
        ],
    )
}

/// A two-pass Kattis package "echo": the submission prints its input; the
/// validator's first pass runs `attack` (Python, in its folder, with
/// `feedback`), the second says what it got and accepts `second 6`.
fn echo_package(dir: &Path, attack: &str) -> String {
    let validator = format!(
        "import os, sys\n\
         feedback = sys.argv[3]\n\
         got = sys.stdin.read().strip()\n\
         state = os.path.join(feedback, 'state')\n\
         if os.path.exists(state):\n    \
             open(os.path.join(feedback, 'judgemessage.txt'), 'w').write('pass 2 got ' + got)\n    \
             sys.exit(42 if got == 'second 6' else 43)\n\
         open(state, 'w').write('1')\n\
         {attack}\n\
         sys.exit(42)\n"
    );
    package(
        dir,
        "echo",
        &[
            (
                "problem.yaml",
                "problem_format_version: 2023-07-draft\nname: Echo\ntype: multi-pass\n\
                 limits:\n  time_limit: 1\n  validation_passes: 2\n"
                    .to_owned(),
            ),
            ("data/secret/a.in", "first 5\n".to_owned()),
            ("data/secret/a.ans", "\n".to_owned()),
            (
                "submissions/accepted/echo.py",
                "import sys\nprint(sys.stdin.read().strip())\n".to_owned(),
            ),
            ("output_validators/v/validate.py", validator),
        ],
    )
}

/// The honest first pass of [`echo_package`]'s validator.
const NEXT_PASS: &str = "open(os.path.join(feedback, 'nextpass.in'), 'w').write('second 6\\n')";

/// `judge grade --package PACKAGE --json report.json` in `dir`, as `user`
/// when given, killed after two minutes (a judge blocked on a FIFO must
/// fail the test, not hang it) and, with `bounded`, under a 4 GiB address
/// space (a judge reading `/dev/zero` whole must fail, not eat the host).
/// Returns the only test's report and the whole report as text.
fn grade(
    dir: &Path,
    user: Option<(u32, u32)>,
    package: &str,
    bounded: bool,
) -> (serde_json::Value, String) {
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let mut command = match user {
        Some((uid, gid)) => {
            let mut command = Command::new("setpriv");
            command.args([
                &format!("--reuid={uid}"),
                &format!("--regid={gid}"),
                "--clear-groups",
                "timeout",
            ]);
            command
        }
        None => Command::new("timeout"),
    };
    command.args(["-s", "KILL", "120"]);
    if bounded {
        command.arg("prlimit").arg("--as=4294967296");
    }
    let output = command
        .arg(judge)
        .args(["grade", "--package", package, "--json", "report.json"])
        .current_dir(dir)
        .env("HOME", dir)
        .env("TMPDIR", dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let text = fs_err::read_to_string(dir.join("report.json")).unwrap_or_else(|_| {
        panic!(
            "no report (the judge ended with {:?}: killed after blocking, or out of memory?)\n\
             {stderr}",
            output.status
        )
    });
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    let tests = report["results"][0]["tests"].as_array().unwrap();
    assert_eq!(tests.len(), 1, "{report:#}");
    (tests[0].clone(), text)
}

/// Asserts a JE whose message names the file and says what was wrong, and
/// a report without the secret.
#[track_caller]
fn assert_refused(test: &serde_json::Value, text: &str, reason: &str) {
    assert_eq!(test["verdict"], "JE", "{test:#}");
    let message = test["message"].as_str().unwrap();
    assert!(
        message.contains("left a file the judge does not read") && message.contains(reason),
        "{message}"
    );
    assert!(
        !text.contains(SECRET),
        "the secret reached the report: {text}"
    );
}

/// The attacks on an output validator's feedback folder: a link to the
/// secret as the message or the score, a FIFO (the judge blocked in
/// `open` for good), a link to `/dev/zero` (read whole before its size was
/// checked), and a folder.
#[test_case("os.symlink(SECRET, os.path.join(feedback, 'judgemessage.txt'))", "`feedback/judgemessage.txt` is a symbolic link", false ; "message linked to a root-only file")]
#[test_case("os.symlink(SECRET, os.path.join(feedback, 'score.txt')); sys.exit(42)", "`feedback/score.txt` is a symbolic link", false ; "score linked to a root-only file")]
#[test_case("os.mkfifo(os.path.join(feedback, 'judgemessage.txt'))", "`feedback/judgemessage.txt` is a named pipe (FIFO), not a regular file", false ; "message as a fifo")]
#[test_case("os.symlink('/dev/zero', os.path.join(feedback, 'judgemessage.txt'))", "`feedback/judgemessage.txt` is a symbolic link", true ; "message linked to dev zero")]
#[test_case("os.mkdir(os.path.join(feedback, 'judgemessage.txt'))", "`feedback/judgemessage.txt` is a folder, not a regular file", false ; "message as a folder")]
fn r35_an_output_validators_bad_feedback_file_is_je_and_never_read(
    attack: &str,
    reason: &str,
    bounded: bool,
) {
    // See: issue #35.
    let dir = tempfile::tempdir().unwrap();
    let secret = secret_file(dir.path(), None);
    let attack = format!("SECRET = {secret:?}\n{attack}");
    let package = sum_package(dir.path(), &attack);
    let (test, text) = grade(dir.path(), None, &package, bounded);
    assert_refused(&test, &text, reason);
}

/// The same file in a multi-pass validator's folder, and `nextpass.in` as
/// a link to the secret: renamed to the next input and opened as root
/// for the submission, which printed it to the validator.
#[test_case("os.symlink(SECRET, os.path.join(feedback, 'judgemessage.txt')); sys.exit(43)", "`feedback/judgemessage.txt` is a symbolic link" ; "message linked to a root-only file")]
#[test_case("os.symlink(SECRET, os.path.join(feedback, 'nextpass.in'))", "`feedback/nextpass.in` is a symbolic link" ; "next pass linked to a root-only file")]
#[test_case("os.mkfifo(os.path.join(feedback, 'judgemessage.txt')); sys.exit(43)", "`feedback/judgemessage.txt` is a named pipe (FIFO)" ; "message as a fifo")]
#[test_case("os.mkfifo(os.path.join(feedback, 'nextpass.in'))", "`feedback/nextpass.in` is a named pipe (FIFO)" ; "next pass as a fifo")]
fn r35_a_multi_pass_validators_bad_feedback_file_is_je_and_never_read(attack: &str, reason: &str) {
    // See: issue #35.
    let dir = tempfile::tempdir().unwrap();
    let secret = secret_file(dir.path(), None);
    let package = echo_package(dir.path(), &format!("SECRET = {secret:?}\n{attack}"));
    let (test, text) = grade(dir.path(), None, &package, false);
    assert_refused(&test, &text, reason);
}

/// The control: the honest validator of the attacks above is AC, in two
/// passes.
#[test]
fn an_honest_multi_pass_validator_is_accepted_in_two_passes() {
    let dir = tempfile::tempdir().unwrap();
    let package = echo_package(dir.path(), NEXT_PASS);
    let (test, _) = grade(dir.path(), None, &package, false);
    assert_eq!(test["verdict"], "AC", "{test:#}");
    assert_eq!(test["message"], "accepted after 2 of at most 2 passes");
}

/// A validator that leaves `output` (the submission's output, which the
/// judge writes again for the next pass) as a link to a file it may not
/// write: the judge wrote the next pass's output through it, as root.
/// Now the link is replaced, the target untouched, and the test is AC.
#[test]
fn r35_the_judge_never_writes_the_next_output_through_a_planted_link() {
    // See: issue #35.
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim.txt");
    fs_err::write(&victim, "intact\n").unwrap();
    fs_err::set_permissions(&victim, std::fs::Permissions::from_mode(0o644)).unwrap();
    let attack = format!(
        "os.remove('output'); os.symlink({:?}, 'output')\n{NEXT_PASS}",
        victim.display().to_string()
    );
    let package = echo_package(dir.path(), &attack);
    let (test, _) = grade(dir.path(), None, &package, false);
    assert_eq!(fs_err::read_to_string(&victim).unwrap(), "intact\n");
    assert_eq!(test["verdict"], "AC", "{test:#}");
}

/// A testlib interactor that leaves its `output` (what its checker reads)
/// as a link to the secret.
#[test]
fn r35_a_testlib_interactors_output_as_a_link_is_je_and_never_read() {
    // See: issue #35.
    let dir = tempfile::tempdir().unwrap();
    let secret = secret_file(dir.path(), None);
    let source = repository().join("tests/fixtures/interactive/testlib-guess");
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(&source) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let relative = entry.path().strip_prefix(&source).unwrap();
            let text = fs_err::read_to_string(entry.path()).unwrap();
            files.push((relative.display().to_string(), text));
        }
    }
    let interactor = files
        .iter_mut()
        .find(|(name, _)| name == "interactor.cpp")
        .unwrap();
    let honest = "std::ofstream output(argv[2]);\n            output << secret << \" \" << guesses << \"\\n\";";
    assert!(
        interactor.1.contains(honest),
        "the fixture writes its output so"
    );
    interactor.1 = format!(
        "#include <unistd.h>\n{}",
        interactor.1.replace(
            honest,
            &format!("unlink(argv[2]); if (symlink({secret:?}, argv[2]) != 0) return 3;")
        )
    );
    let files: Vec<(&str, String)> = files
        .iter()
        .map(|(name, text)| (name.as_str(), text.clone()))
        .collect();
    let package_dir = package(dir.path(), "guess", &files);
    let judge = assert_cmd::cargo::cargo_bin!("judge");
    let output = Command::new("timeout")
        .args(["-s", "KILL", "120"])
        .arg(judge)
        .args(["run", "guess", "guess/submissions/accepted/binary.py"])
        .args(["--problems-dir", ".", "--json", "run.json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let text = fs_err::read_to_string(dir.path().join("run.json"))
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&output.stderr)));
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    let tests = report["results"][0]["tests"].as_array().unwrap();
    assert!(!tests.is_empty(), "{report:#} {package_dir}");
    for test in tests {
        assert_refused(test, &text, "`output` is a symbolic link");
    }
}

/// As an ordinary user the judge runs the validator as itself, in a
/// sandbox that cannot reach the user's own private files: the link to
/// one was read by the judge all the same.
#[test_case(true ; "an output validators message")]
#[test_case(false ; "a multi pass validators next pass")]
#[ignore = "needs root (it creates a user and runs the judge as it); CI runs it as root: `cargo test --test it -- --ignored`"]
fn r35_as_an_ordinary_user_a_link_left_by_a_validator_is_je(checker: bool) {
    // See: issue #35.
    require_root("it creates a user and runs the judge as it");
    let user = ordinary_user();
    let dir = open_dir();
    let private = dir.path().join("private");
    fs_err::create_dir(&private).unwrap();
    std::os::unix::fs::chown(&private, Some(user.0), Some(user.1)).unwrap();
    fs_err::set_permissions(&private, std::fs::Permissions::from_mode(0o700)).unwrap();
    let secret = secret_file(&private, Some(user));
    let (package, reason) = if checker {
        let attack = format!("os.symlink({secret:?}, os.path.join(feedback, 'judgemessage.txt'))");
        (
            sum_package(dir.path(), &attack),
            "`feedback/judgemessage.txt` is a symbolic link",
        )
    } else {
        let attack = format!("os.symlink({secret:?}, os.path.join(feedback, 'nextpass.in'))");
        (
            echo_package(dir.path(), &attack),
            "`feedback/nextpass.in` is a symbolic link",
        )
    };
    let (test, text) = grade(dir.path(), Some(user), &package, false);
    assert_refused(&test, &text, reason);
}
