//! Issue #34, item 9: the export of a rooks package carries its input and
//! output validators whole, so a judging host without `judge` (Kattis,
//! DOMjudge, a contest's problemtools) runs them: each is run here with a
//! clean environment (no `judge` on `PATH`, no `$JUDGE`) and agrees with
//! `judge validate` / `judge check` on every input and output tried.

use crate::support::{repository, Dir};
use std::path::Path;
use std::process::{Command, Stdio};

/// Runs the exported Python `script` with `args` and `stdin`, with an
/// environment holding only a `PATH` of the system's folders (no `judge`
/// there, no `$JUDGE`): its exit code and stderr.
fn run_bare(dir: &Dir, script: &str, args: &[&Path], stdin: &[u8]) -> (i32, String) {
    use std::io::Write as _;
    let mut child = Command::new("python3")
        .arg(dir.path().join(script))
        .args(args)
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let output = child.wait_with_output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// No folder of the bare `PATH` has a `judge`: the scripts cannot lean on one.
fn assert_no_judge_on_the_bare_path() {
    for folder in ["/usr/local/bin", "/usr/bin", "/bin"] {
        assert!(
            !Path::new(folder).join("judge").exists(),
            "{folder}/judge exists: the test would not prove the export self-contained"
        );
    }
}

const VALIDATOR: &str = "input_validators/judge_validate/judge_validate.py";
const CHECKER: &str = "output_validator/judge_check.py";

/// Inputs that `judge validate rooks` refuses in its strict layout, one per
/// rule (problems/rooks/statement.md, Input), and some it accepts.
const INPUTS: &[&str] = &[
    "1\n.\n0\n",
    "4\n....\n....\n....\n....\n0\n",
    "2\nXX\n.X\n1\nX\n0\n",
    "5\n.....\n..X..\n.....\n.....\n.....\n0\n",
    "4\n.X..\n....\n..X..\n....\n0\n",
    "2\n.\n..\n0\n",
    "2\n.x\n..\n0\n",
    "2\n. \n..\n0\n",
    "2\n..\n",
    "1\n.\n",
    "",
    "0\n",
    "five\n",
    "1\n.\nn\n",
    "5\n",
    "-1\n",
    "01\n.\n0\n",
    "+1\n.\n0\n",
    "1\n.\n0\n1\n",
    "1\r\n.\n0\n",
    "1\n.\n0",
    "1\n.\n\n0\n",
    " 1\n.\n0\n",
    "1\n.\n00\n",
    "1\n.\n-0\n",
    "101\n",
    "1\n.\n0\n\n",
];

/// See: issue #34, item 9. The exported input validators of rooks (n <= 4)
/// and rooks-large (n <= 100) run with no `judge` anywhere and give every
/// input the verdict `judge validate` gives it (42 valid, 43 invalid with
/// the line), the package's own tests and freshly generated ones included.
#[test]
fn the_exported_rooks_input_validator_needs_no_judge_and_agrees_with_judge_validate() {
    assert_no_judge_on_the_bare_path();
    let dir = Dir::new();
    for (id, export) in [("rooks", "small"), ("rooks-large", "large")] {
        let said = dir.judge(&["export", "--kattis", id, export]);
        said.expect_code(0);
        assert!(
            said.stderr().contains(
                "its validators are self-contained Python scripts (the judging host needs no `judge`)"
            ),
            "{}",
            said.stderr()
        );
        let script = dir.read(&format!("{export}/{VALIDATOR}"));
        assert!(!script.contains("subprocess"), "{script}");
        let profile = if id == "rooks" { "small" } else { "large" };
        dir.judge(&[
            "gen",
            "rooks",
            "--profile",
            profile,
            "--count",
            "8",
            "--seed",
            "34",
            "--out",
            &format!("gen-{export}"),
        ])
        .expect_code(0);
        let mut inputs: Vec<Vec<u8>> = INPUTS.iter().map(|text| text.as_bytes().to_vec()).collect();
        for folder in [
            format!("{export}/data/sample"),
            format!("{export}/data/secret"),
            format!("gen-{export}"),
        ] {
            for entry in fs_err::read_dir(dir.path().join(folder)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|extension| extension == "in") {
                    inputs.push(fs_err::read(&path).unwrap());
                }
            }
        }
        inputs.push(b"1\n\xff\n0\n".to_vec());
        let (mut valid, mut invalid) = (0, 0);
        for input in &inputs {
            let shown = String::from_utf8_lossy(input);
            let judged = dir.judge_stdin(&["validate", id], &shown);
            let expected = match judged.code() {
                0 => 42,
                1 => 43,
                code => panic!("judge validate {id} exit {code} on {shown:?}"),
            };
            let (code, stderr) = run_bare(&dir, &format!("{export}/{VALIDATOR}"), &[], input);
            assert_eq!(code, expected, "{id} on {shown:?}: {stderr}");
            if code == 43 {
                assert!(stderr.starts_with("line "), "{id} on {shown:?}: {stderr}");
                invalid += 1;
            } else {
                valid += 1;
            }
        }
        assert!(
            valid >= 10 && invalid >= 20,
            "{id}: {valid} valid, {invalid} invalid"
        );
    }
}

/// See: issue #34, item 9. The exported output validator of rooks runs with
/// no `judge` anywhere and decides every output as `judge check` does (AC ->
/// 42; WA or PE -> 43, the board named in judgemessage.txt), and an answer
/// file that is not one integer per board is the judge's fault (exit 1).
#[test]
fn the_exported_rooks_output_validator_needs_no_judge_and_agrees_with_judge_check() {
    assert_no_judge_on_the_bare_path();
    let dir = Dir::new();
    dir.judge(&["export", "--kattis", "rooks", "rooks"])
        .expect_code(0);
    let script = dir.read(&format!("rooks/{CHECKER}"));
    assert!(!script.contains("subprocess"), "{script}");
    let input = dir.path().join("rooks/data/sample/sample-1.in");
    let answer = dir.path().join("rooks/data/sample/sample-1.ans");
    assert_eq!(
        dir.read("rooks/data/sample/sample-1.ans"),
        "5\n1\n5\n2\n4\n"
    );
    let feedback = dir.path().join("feedback");
    fs_err::create_dir(&feedback).unwrap();
    let outputs = [
        ("5\n1\n5\n2\n4\n", true),
        ("5 1 5 2 4", true),
        ("05\r\n1\n\n5\t2\n4\n", true),
        ("5\n1\n5\n2\n3\n", false),
        ("5\n1\n5\n2\n", false),
        ("5\n1\n5\n2\n4\n4\n", false),
        ("5\n1\nfive\n2\n4\n", false),
        ("5\n1\n5\n2\n+4\n", false),
        ("5\n1\n5\n2\n99999999999999999999999\n", false),
        ("", false),
        // See: issue #34 (found by review). Whitespace is what `judge
        // check` reads as such (Unicode's), no more and no less.
        ("5\u{a0}1\n5\n2\n4\n", true),
        ("5\u{3000}1\u{2028}5\u{85}2 4", true),
        ("5\u{1c}1\n5\n2\n4\n", false),
        ("5\n1\n5\n2\n4\u{200b}\n", false),
    ];
    for (output, accepted) in outputs {
        dir.create("out.txt", output);
        let judged = dir.judge(&["check", "rooks", "rooks/data/sample/sample-1.in", "out.txt"]);
        assert_eq!(judged.code() == 0, accepted, "judge check on {output:?}");
        assert!(
            judged.code() <= 2,
            "judge check on {output:?}: {}",
            judged.stdout()
        );
        let (code, stderr) = run_bare(
            &dir,
            &format!("rooks/{CHECKER}"),
            &[&input, &answer, &feedback],
            output.as_bytes(),
        );
        let message = fs_err::read_to_string(feedback.join("judgemessage.txt")).unwrap();
        assert_eq!(code, if accepted { 42 } else { 43 }, "{output:?}: {stderr}");
        if accepted {
            assert_eq!(message, "5 boards\n");
        } else {
            assert!(
                message.starts_with("board ") || message.starts_with("extra output"),
                "{message}"
            );
        }
    }
    // Output that is not UTF-8: a PE to `judge check`, rejected here.
    dir.create("out.txt", b"5\n1\n5\n2\n4\xff\n");
    dir.judge(&["check", "rooks", "rooks/data/sample/sample-1.in", "out.txt"])
        .expect_code(2);
    let (code, stderr) = run_bare(
        &dir,
        &format!("rooks/{CHECKER}"),
        &[&input, &answer, &feedback],
        b"5\n1\n5\n2\n4\xff\n",
    );
    assert_eq!(code, 43, "{stderr}");
    let broken = dir.create("broken.ans", "5\n1\nfive\n");
    let (code, stderr) = run_bare(
        &dir,
        &format!("rooks/{CHECKER}"),
        &[&input, &broken, &feedback],
        b"5\n1\n5\n2\n4\n",
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("the answer file is not one integer per board"),
        "{stderr}"
    );
}

/// Copies the repository's folder `relative` into `dir` under the same name.
fn copy_from_repository(dir: &Dir, relative: &str) {
    let from = repository().join(relative);
    for entry in walkdir::WalkDir::new(&from).into_iter().flatten() {
        if entry.file_type().is_file() {
            let inner = entry.path().strip_prefix(repository()).unwrap();
            dir.create(
                &inner.to_string_lossy(),
                fs_err::read(entry.path()).unwrap(),
            );
        }
    }
}

/// See: issue #34 (found by review). `judge export --kattis rooks
/// --problems-dir problems`, run where judge.toml files the examples by
/// verdict, read them from `<package>/submissions` (there are none) and
/// wrote a package without examples, with memory 256 and time 1; it now
/// takes them from judge.toml's `submissions/rooks/`, and writes what the
/// bundled export writes.
#[test]
fn an_export_from_a_problems_dir_keeps_the_repositorys_examples() {
    let dir = Dir::new();
    copy_from_repository(&dir, "problems/rooks");
    copy_from_repository(&dir, "submissions/rooks");
    dir.create(
        "judge.toml",
        fs_err::read(repository().join("judge.toml")).unwrap(),
    );
    dir.judge(&[
        "export",
        "--kattis",
        "rooks",
        "--problems-dir",
        "problems",
        "from-dir",
    ])
    .expect_code(0);
    dir.judge(&["export", "--kattis", "rooks", "bundled"])
        .expect_code(0);
    for example in [
        "submissions/accepted/matching.py",
        "submissions/wrong_answer/ignores_walls.py",
    ] {
        assert!(
            dir.path().join("from-dir").join(example).is_file(),
            "{example} left out"
        );
    }
    assert_eq!(
        dir.read("from-dir/problem.yaml"),
        dir.read("bundled/problem.yaml")
    );
}
