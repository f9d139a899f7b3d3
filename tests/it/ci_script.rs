//! `.ci/run`, the CI entry point, with `cargo`, `apt-get` and `apt-cache`
//! replaced by stubs: a failing step is recorded and the later steps still
//! run, the closing count is printed and the exit status says a step failed
//! (issue #32, item 9).

use crate::support::repository;
use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;
use std::process::Command;

/// A stub `cargo` that records its arguments (and `RUSTDOCFLAGS` for
/// `doc`) and prints what each test command of `.ci/run` prints; the steps
/// named in `$FAIL` (`fmt`, `tests`) fail.
const CARGO: &str = r#"#!/bin/sh
echo "$*" >> "$CALLS"
case "$*" in
  --version) echo "cargo 1.0.0 (stub)" ;;
  "fmt --all -- --check") case "$FAIL" in *fmt*) exit 1 ;; esac ;;
  *"--doc"*) echo "test result: ok. 2 passed; 0 failed; 0 ignored" ;;
  *"--lib --bins --tests"*)
    case "$FAIL" in
      *tests*) echo "test result: FAILED. 5 passed; 1 failed; 0 ignored"; exit 101 ;;
      *) echo "test result: ok. 6 passed; 0 failed; 0 ignored" ;;
    esac ;;
  *"--test it -- --ignored"*) echo "test result: ok. 3 passed; 0 failed;" ;;
  *"--lib -- --ignored"*) echo "test result: ok. 1 passed; 0 failed;" ;;
  doc*) echo "RUSTDOCFLAGS=$RUSTDOCFLAGS" >> "$CALLS" ;;
esac
exit 0
"#;

fn executable(path: &Path, text: &str) {
    fs_err::create_dir_all(path.parent().unwrap()).unwrap();
    fs_err::write(path, text).unwrap();
    fs_err::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Runs a copy of `.ci/run` in a temporary tree with the stubs first on
/// `PATH`, with `fail` naming the steps that fail: (exit code, stdout,
/// stderr, cargo's calls).
fn ci_run(fail: &str) -> (Option<i32>, String, String, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let script = fs_err::read_to_string(repository().join(".ci/run")).unwrap();
    executable(&root.join(".ci/run"), &script);
    let bin = root.join("stub-bin");
    executable(&bin.join("cargo"), CARGO);
    // Nothing is installed or downloaded: the package tools succeed
    // quietly, and no kernel package is found.
    for tool in ["apt-get", "dpkg-deb"] {
        executable(&bin.join(tool), "#!/bin/sh\nexit 0\n");
    }
    executable(&bin.join("apt-cache"), "#!/bin/sh\nexit 0\n");
    executable(&bin.join("id"), "#!/bin/sh\necho 0\n");
    // problemtools and BAPCtools are there already.
    executable(
        &root.join("target/problemtools/bin/verifyproblem"),
        "#!/bin/sh\n",
    );
    executable(&root.join("target/bapctools/bin/bt"), "#!/bin/sh\n");
    let calls = root.join("calls");
    let path = format!("{}:/usr/local/bin:/usr/bin:/bin", bin.display());
    let output = Command::new("bash")
        .arg(root.join(".ci/run"))
        .current_dir(root)
        .env("PATH", path)
        .env("CALLS", &calls)
        .env("FAIL", fail)
        .output()
        .unwrap();
    let calls = fs_err::read_to_string(&calls).unwrap_or_default();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        calls.lines().map(str::to_owned).collect(),
    )
}

/// Every cargo command `.ci/run` runs, in order.
const STEPS: [&str; 8] = [
    "--version",
    "fmt --all -- --check",
    "clippy --locked --all-targets -- -D warnings",
    "test --locked --doc",
    "test --locked --lib --bins --tests",
    "test --locked --test it -- --ignored",
    "test --locked --lib -- --ignored",
    "doc --no-deps --locked",
];

/// See: issue #32 (item 9). `cargo fmt` failing first and a failing test
/// run no longer stop the script: every later step runs, the failed steps
/// are named, the closing count counts every suite, and the exit status is
/// the first failure's.
#[test]
fn r32_ci_run_records_a_failing_step_and_runs_the_rest() {
    let (code, stdout, stderr, calls) = ci_run("fmt tests");
    let mut expected: Vec<String> = STEPS.iter().map(|step| (*step).to_owned()).collect();
    expected.push("RUSTDOCFLAGS=-D warnings".to_owned());
    assert_eq!(calls, expected, "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert_eq!(code, Some(1), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(
        stderr.contains("error: step 'cargo fmt' failed (exit status 1)"),
        "{stderr}"
    );
    assert!(
        stderr.contains("error: step 'tests' failed (exit status 101)"),
        "{stderr}"
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[lines.len() - 4..],
        [
            "failed steps (2):",
            "  cargo fmt",
            "  tests",
            "11 passed, 1 failed"
        ],
        "{stdout}"
    );
}

/// See: issue #32 (item 9). When every step passes the script exits 0 and
/// closes on the count.
#[test]
fn r32_ci_run_passes_when_every_step_passes() {
    let (code, stdout, stderr, calls) = ci_run("");
    assert_eq!(calls.len(), STEPS.len() + 1, "{calls:?}");
    assert_eq!(code, Some(0), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert_eq!(
        stdout.lines().last(),
        Some("12 passed, 0 failed"),
        "{stdout}"
    );
    assert!(!stdout.contains("failed steps"), "{stdout}");
}
