//! Issue #34, item 9: the export of a built-in package carries its input
//! and output validators whole (rooks' as Python scripts, matchsticks' and
//! mayan's as single-file C++ the judging host compiles), so a judging host
//! without `judge` (Kattis, DOMjudge, a contest's problemtools) runs them:
//! each is run here with a clean environment (no `judge` on `PATH`, no
//! `$JUDGE`) and agrees with `judge validate` / `judge check` on every input
//! and output tried.

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
                "its validators are carried whole, as source the judging host runs (it needs no \
                 `judge`)"
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
        push_inputs_in(
            &dir,
            [
                format!("{export}/data/sample"),
                format!("{export}/data/secret"),
                format!("gen-{export}"),
            ],
            &mut inputs,
        );
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

/// The exported C++ program `source` (a path in `dir`), compiled once per
/// test run whatever the test that asks: the binaries are kept by the
/// source's digest under the target folder, so the tests that share a
/// source share one compile.
pub(crate) fn compiled(dir: &Dir, source: &str) -> std::path::PathBuf {
    use sha2::Digest as _;
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static BUILT: OnceLock<Mutex<HashMap<String, std::path::PathBuf>>> = OnceLock::new();
    let text = fs_err::read(dir.path().join(source)).unwrap();
    let digest = format!("{:x}", sha2::Sha256::digest(&text));
    let mut built = BUILT.get_or_init(Default::default).lock().unwrap();
    if let Some(binary) = built.get(&digest) {
        return binary.clone();
    }
    let folder = repository().join("target/exported-cpp");
    fs_err::create_dir_all(&folder).unwrap();
    let binary = folder.join(&digest[..16]);
    if !binary.is_file() {
        let staged = folder.join(format!("{}.cpp", &digest[..16]));
        fs_err::write(&staged, &text).unwrap();
        let building = folder.join(format!("{}.{}.tmp", &digest[..16], std::process::id()));
        let status = Command::new("g++")
            .args(["-std=gnu++17", "-O2", "-Wall", "-Wextra", "-Werror", "-o"])
            .arg(&building)
            .arg(&staged)
            .status()
            .expect("g++ runs");
        assert!(status.success(), "{source} does not compile");
        fs_err::rename(&building, &binary).unwrap();
    }
    built.insert(digest, binary.clone());
    binary
}

/// Runs a compiled exported program with a bare environment (no `judge`
/// on `PATH`, no `$JUDGE`): its exit code and stderr.
fn run_compiled(binary: &Path, args: &[&Path], stdin: &[u8]) -> (i32, String) {
    use std::io::Write as _;
    let mut child = Command::new(binary)
        .args(args)
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the exported program runs");
    // A program that decides before reading its stdin (an answer file it
    // refuses) closes it: the write may then fail, which is no fault.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    let output = child.wait_with_output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

const VALIDATOR_CPP: &str = "input_validators/judge_validate/judge_validate.cpp";
const CHECKER_CPP: &str = "output_validator/judge_check.cpp";

/// The matchsticks inputs tried on both validators besides the package's
/// and generated ones: one per rule of the statement's Input section.
const MATCHSTICKS_INPUTS: &[&str] = &[
    "1\n0000\n0000\n0000\n",
    "2\n0111\n-000\n-000\n1111\n----\n0010\n",
    "1\n1-1-\n-1-1\n1-1-\n",
    "1\n1-1-\n-1-1\n1-10\n",
    "0\n",
    "100\n",
    "99\n0000\n",
    "01\n0000\n0000\n0000\n",
    "-1\n",
    "+1\n0000\n0000\n0000\n",
    "1\n0000\n0000\n000\n",
    "1\n0000\n0x00\n0000\n",
    "1\n0000\n0000\n0000\n0000\n",
    "1\n0000\n0000\n0000",
    "1\r\n0000\n0000\n0000\n",
    "1\n0000\n\n0000\n0000\n",
    " 1\n0000\n0000\n0000\n",
    "1\n0000 \n0000\n0000\n",
    "1\n0000\n0000\n0000\n\n",
    "1\n00\u{a0}0\n0000\n0000\n",
    "k\n",
    "",
];

/// See: issue #34, item 9. The exported matchsticks input validator (C++,
/// compiled as the judging host compiles it) runs with no `judge` anywhere
/// and gives every input the verdict `judge validate matchsticks` gives it.
/// An exported output validator (compiled) beside `judge check PROBLEM`.
struct Checkers<'a> {
    dir: &'a Dir,
    problem: &'a str,
    checker: &'a Path,
    feedback: &'a Path,
}

impl Checkers<'_> {
    /// Judges `output` of `input` with both: `judge check` decides (never
    /// failing), the exported validator must say the same in Kattis' codes
    /// (42 accepted, 43 rejected). Returns whether it was accepted.
    fn agree(&self, input: &str, input_path: &Path, answer_path: &Path, output: Vec<u8>) -> bool {
        let shown = String::from_utf8_lossy(&output).into_owned();
        let output_path = self.dir.create("out.txt", output.clone());
        let judged = self.dir.judge(&[
            "check",
            self.problem,
            &input_path.display().to_string(),
            &output_path.display().to_string(),
        ]);
        assert!(
            judged.code() <= 2,
            "judge check on {shown:?}: {}",
            judged.stdout()
        );
        let accepted = judged.code() == 0;
        let (code, stderr) = run_compiled(
            self.checker,
            &[input_path, answer_path, self.feedback],
            &output,
        );
        assert_eq!(
            code,
            if accepted { 42 } else { 43 },
            "{input:?} with {shown:?}: judge said {} {}",
            judged.stdout(),
            stderr
        );
        accepted
    }

    /// Each of `broken` as the answer to `input` is the judge's fault: the
    /// exported validator exits 1 naming the answer, whatever `output` is.
    fn fail_on_broken_answers(&self, input: &Path, broken: &[&str], output: &[u8]) {
        for broken in broken {
            let answer = self.dir.create("broken.ans", broken);
            let (code, stderr) =
                run_compiled(self.checker, &[input, &answer, self.feedback], output);
            assert_eq!(code, 1, "answer {broken:?}: {stderr}");
            assert!(stderr.contains("the answer"), "{stderr}");
        }
    }
}

#[test]
fn the_exported_matchsticks_input_validator_needs_no_judge_and_agrees_with_judge_validate() {
    assert_no_judge_on_the_bare_path();
    let dir = Dir::new();
    let said = dir.judge(&["export", "--kattis", "matchsticks", "m"]);
    said.expect_code(0);
    assert!(
        said.stderr()
            .contains("its validators are carried whole, as source the judging host runs"),
        "{}",
        said.stderr()
    );
    let validator = compiled(&dir, &format!("m/{VALIDATOR_CPP}"));
    let mut inputs: Vec<Vec<u8>> = MATCHSTICKS_INPUTS
        .iter()
        .map(|text| text.as_bytes().to_vec())
        .collect();
    for profile in ["random", "lost", "tricky"] {
        dir.judge(&[
            "gen",
            "matchsticks",
            "--profile",
            profile,
            "--count",
            "3",
            "--seed",
            "34",
            "--out",
            &format!("gen-{profile}"),
        ])
        .expect_code(0);
    }
    push_inputs_in(
        &dir,
        [
            "m/data/sample",
            "m/data/secret",
            "gen-random",
            "gen-lost",
            "gen-tricky",
        ],
        &mut inputs,
    );
    inputs.push(b"1\n0000\n00\xff0\n0000\n".to_vec());
    let (valid, invalid) =
        agrees_with_judge_validate(&dir, "matchsticks", &validator, &inputs, true);
    assert!(
        valid >= 15 && invalid >= 15,
        "{valid} valid, {invalid} invalid"
    );
}

/// See: issue #34, item 9. The exported matchsticks output validator decides
/// every output as `judge check matchsticks` does: on the sample and on a
/// won and a lost position, every one of the 24 placements (legal or not;
/// in a won position only the moves that leave the opponent lost, in a lost
/// one any legal move), both move forms, malformed, missing and extra
/// moves, Unicode whitespace and output that is not UTF-8; and an answer
/// file that is not an optimal move per position is the judge's fault.
#[test]
fn the_exported_matchsticks_output_validator_needs_no_judge_and_agrees_with_judge_check() {
    assert_no_judge_on_the_bare_path();
    let dir = Dir::new();
    dir.judge(&["export", "--kattis", "matchsticks", "m"])
        .expect_code(0);
    let checker = compiled(&dir, &format!("m/{CHECKER_CPP}"));
    let feedback = dir.path().join("feedback");
    fs_err::create_dir(&feedback).unwrap();
    let checkers = Checkers {
        dir: &dir,
        problem: "matchsticks",
        checker: &checker,
        feedback: &feedback,
    };
    // (input, the reference answer).
    let cases = [
        ("2\n0111\n-000\n-000\n1111\n----\n0010\n", "001\n201\n"),
        ("1\n0000\n0000\n000-\n", "03-\n"),
        ("1\n0000\n0000\n0000\n", "00-\n"),
        ("1\n1-1-\n-1-1\n1-00\n", "221\n"),
    ];
    let (mut accepted_count, mut rejected_count) = (0, 0);
    for (number, (input, answer)) in cases.iter().enumerate() {
        let input_path = dir.create(&format!("in{number}.in"), *input);
        let answer_path = dir.create(&format!("in{number}.ans"), *answer);
        let answers: Vec<&str> = answer.lines().collect();
        let mut outputs: Vec<Vec<u8>> = vec![
            answer.as_bytes().to_vec(),
            answers.join(" ").into_bytes(),
            answers
                .iter()
                .map(|written| {
                    written
                        .chars()
                        .map(String::from)
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect::<Vec<_>>()
                .join("\u{a0}\u{2028}")
                .into_bytes(),
            format!("{answer}{}", answers[0]).into_bytes(),
            answers[..answers.len() - 1].join("\n").into_bytes(),
            Vec::new(),
            b"x0-\n".to_vec(),
            b"0 0 x\n".to_vec(),
            b"0 a -\n".to_vec(),
            b"3 0 -\n".to_vec(),
            b"0 -1 1\n".to_vec(),
            b"99999999999999999999 0 -\n".to_vec(),
            b"0 0 -\xff\n".to_vec(),
            b"00-\x1c\n".to_vec(),
            b"0\x0b0 -\n".to_vec(),
        ];
        // Every placement on the last position, the others as answered.
        for row in 0..3 {
            for column in 0..4 {
                for direction in ["-", "1"] {
                    let mut moves: Vec<String> = answers
                        .iter()
                        .map(|written| (*written).to_owned())
                        .collect();
                    if let Some(last) = moves.last_mut() {
                        *last = format!("{row}{column}{direction}");
                    }
                    outputs.push(moves.join("\n").into_bytes());
                }
            }
        }
        for output in outputs {
            if checkers.agree(input, &input_path, &answer_path, output) {
                accepted_count += 1;
            } else {
                rejected_count += 1;
            }
        }
    }
    assert!(
        accepted_count >= 20 && rejected_count >= 40,
        "{accepted_count} accepted, {rejected_count} rejected"
    );
    // A won position's answer that lets the opponent win, and one short of
    // moves: the judge's fault (exit 1), as `judge check` fails on them.
    let input = dir.create("won.in", "1\n0000\n0000\n000-\n");
    checkers.fail_on_broken_answers(&input, &["00-\n", "", "03-\n03-\n"], b"03-\n");
}

/// The mayan inputs tried on both validators besides the package's and
/// generated ones: one per rule of the statement's Input section.
const MAYAN_INPUTS: &[&str] = &[
    "3\n1 0\n2 1 0\n2 3 4 0\n3 1 0\n2 4 3 4 0\n",
    "1\n1 0\n0\n0\n0\n0\n",
    "1\n0\n0\n0\n0\n0\n",
    "0\n1 0\n0\n0\n0\n0\n",
    "6\n1 0\n0\n0\n0\n0\n",
    "01\n1 0\n0\n0\n0\n0\n",
    "1\n01 0\n0\n0\n0\n0\n",
    "1\n1  0\n0\n0\n0\n0\n",
    "1\n1\t0\n0\n0\n0\n0\n",
    "1\n1 0 2\n0\n0\n0\n0\n",
    "1\n1\n0\n0\n0\n0\n",
    "1\n11 0\n0\n0\n0\n0\n",
    "1\n-1 0\n0\n0\n0\n0\n",
    "1\n1 2 3 4 5 6 7 8 0\n0\n0\n0\n0\n",
    "1\n1 2 3 4 5 6 7 0\n0\n0\n0\n0\n",
    "1\n1 1 1 0\n0\n0\n0\n0\n",
    "1\n1 0\n1 0\n1 0\n0\n0\n",
    "1\n1 0\n0\n0\n0\n",
    "1\n1 0\n0\n0\n0\n0\n0\n",
    "1\n1 0\n0\n0\n0\n0",
    "1\r\n1 0\n0\n0\n0\n0\n",
    "1\n1 0 \n0\n0\n0\n0\n",
    "1\n\n1 0\n0\n0\n0\n0\n",
    "1\n1\u{a0}0\n0\n0\n0\n0\n",
    "1\n+1 0\n0\n0\n0\n0\n",
    "",
];

/// See: issue #34, item 9. The exported mayan input validator (C++) runs
/// with no `judge` anywhere and gives every input the verdict `judge
/// validate mayan` gives it, generated inputs of every profile included.
#[test]
fn the_exported_mayan_input_validator_needs_no_judge_and_agrees_with_judge_validate() {
    assert_no_judge_on_the_bare_path();
    let dir = Dir::new();
    dir.judge(&["export", "--kattis", "mayan", "y"])
        .expect_code(0);
    let validator = compiled(&dir, &format!("y/{VALIDATOR_CPP}"));
    let mut inputs: Vec<Vec<u8>> = MAYAN_INPUTS
        .iter()
        .map(|text| text.as_bytes().to_vec())
        .collect();
    for profile in ["random", "bottom-row", "hard", "edge"] {
        dir.judge(&[
            "gen",
            "mayan",
            "--profile",
            profile,
            "--count",
            "2",
            "--seed",
            "34",
            "--out",
            &format!("gen-{profile}"),
        ])
        .expect_code(0);
    }
    push_inputs_in(
        &dir,
        [
            "y/data/sample",
            "y/data/secret",
            "gen-random",
            "gen-bottom-row",
            "gen-hard",
            "gen-edge",
        ],
        &mut inputs,
    );
    inputs.push(b"1\n1 0\n\xff 0\n0\n0\n0\n".to_vec());
    let (valid, invalid) = agrees_with_judge_validate(&dir, "mayan", &validator, &inputs, true);
    assert!(
        valid >= 15 && invalid >= 15,
        "{valid} valid, {invalid} invalid"
    );
}

/// See: issue #34, item 9. The exported mayan output validator decides every
/// output as `judge check mayan` does (lexmin, as the package says): the
/// reference answers, `-1`, the smallest solution under either reading of
/// same-colour swaps, valid solutions that are not the smallest, moves that
/// go wrong, malformed output; and an answer file the reference disagrees
/// with is the judge's fault.
#[test]
fn the_exported_mayan_output_validator_needs_no_judge_and_agrees_with_judge_check() {
    assert_no_judge_on_the_bare_path();
    let dir = Dir::new();
    dir.judge(&["export", "--kattis", "mayan", "y"])
        .expect_code(0);
    let script = dir.read(&format!("y/{CHECKER_CPP}"));
    assert!(
        script.contains("static const bool LEXMIN = true;"),
        "{script}"
    );
    let checker = compiled(&dir, &format!("y/{CHECKER_CPP}"));
    let feedback = dir.path().join("feedback");
    fs_err::create_dir(&feedback).unwrap();
    let checkers = Checkers {
        dir: &dir,
        problem: "mayan",
        checker: &checker,
        feedback: &feedback,
    };
    const SAMPLE: &str = "3\n1 0\n2 1 0\n2 3 4 0\n3 1 0\n2 4 3 4 0\n";
    const READINGS_DIFFER: &str = "2\n1 0\n1 0\n0\n1 0\n0\n";
    const ONLY_WITH_SWAPS: &str = "3\n0\n2 2 0\n2 0\n0\n2 0\n";
    const UNSOLVABLE: &str = "1\n1 0\n2 1 0\n2 3 4 0\n3 1 0\n2 4 3 4 0\n";
    let common = [
        "-1\n",
        "",
        "abc\n",
        "2 1 1\n3 1\n",
        "-1 -1\n",
        "2 1 1\n3 1 1\n3 0 1\n",
        "  2 1 1 3 1 1\r\n\n3 0 1",
        "2\u{a0}1 1\u{2028}3 1 1 3 0 1",
        "3 1 -1\n3 1 1\n3 0 1\n",
        "2 1 1\n4 1 -1\n3 0 1\n",
        "2 1 1\n4 1 -1\n4 0 -1\n",
        "1 0 1\n0 0 1\n",
        "0 0 1\n3 0 -1\n",
        "1 0 -1\n3 0 -1\n",
        "1 0 1\n1 1 1\n2 0 1\n",
        "0 0 1\n1 0 1\n",
        "2 1 1\n3 1 1\n",
        "2 1 1\n3 1 1\n3 0 1\n0 0 1\n",
        "0 1 1\n3 1 1\n3 0 1\n",
        "2 1 1\n3 1 1\n9 0 1\n",
        "2 1 1\n3 -1 1\n3 0 1\n",
        "4 0 1\n3 1 1\n3 0 1\n",
        "0 0 -1\n3 1 1\n3 0 1\n",
        "2 1 0\n3 1 1\n3 0 1\n",
        "2 1 1\n3 1 1\n0 0 1\n",
        "2 1 1\n3 1 1\n3 0 99999999999999999999\n",
        "2 1 1\n3 1 1\n3 0 +1\n",
    ];
    let mut cases: Vec<(String, String)> = [SAMPLE, READINGS_DIFFER, ONLY_WITH_SWAPS, UNSOLVABLE]
        .iter()
        .map(|input| ((*input).to_owned(), String::new()))
        .collect();
    for folder in ["y/data/sample", "y/data/secret"] {
        for entry in fs_err::read_dir(dir.path().join(folder)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|extension| extension == "in") {
                cases.push((
                    fs_err::read_to_string(&path).unwrap(),
                    fs_err::read_to_string(path.with_extension("ans")).unwrap(),
                ));
            }
        }
    }
    let (mut accepted_count, mut rejected_count) = (0, 0);
    for (number, (input, answer)) in cases.iter().enumerate() {
        let input_path = dir.create(&format!("in{number}.in"), input);
        let answer = if answer.is_empty() {
            let solved = dir.judge(&["solve", "mayan", &input_path.display().to_string()]);
            solved.expect_code(0);
            solved.stdout()
        } else {
            answer.clone()
        };
        let answer_path = dir.create(&format!("in{number}.ans"), &answer);
        // The hand-written boards get every output; the package's tests
        // (slower to solve) their answer and its near misses.
        let mut outputs: Vec<Vec<u8>> = if number < 4 {
            common.iter().map(|text| text.as_bytes().to_vec()).collect()
        } else {
            let lines: Vec<&str> = answer.lines().collect();
            vec![
                b"-1\n".to_vec(),
                lines[..lines.len() - 1].join("\n").into_bytes(),
                format!("{answer}0 0 1\n").into_bytes(),
                format!("0 0 1\n{}", lines[1..].join("\n")).into_bytes(),
                format!("{}\n1 0 1\n", lines[..lines.len() - 1].join("\n")).into_bytes(),
            ]
        };
        outputs.push(answer.clone().into_bytes());
        outputs.push(format!("{answer}\u{ff}").into_bytes());
        outputs.push(b"2 1 1\n3 1 1\n3 0 1\xff\n".to_vec());
        for output in outputs {
            if checkers.agree(input, &input_path, &answer_path, output) {
                accepted_count += 1;
            } else {
                rejected_count += 1;
            }
        }
    }
    assert!(
        accepted_count >= 20 && rejected_count >= 100,
        "{accepted_count} accepted, {rejected_count} rejected"
    );
    let input = dir.create("sample.in", SAMPLE);
    checkers.fail_on_broken_answers(
        &input,
        &["-1\n", "3 1 -1\n3 1 1\n3 0 1\n", "2 1 1\n3 1 x\n"],
        b"2 1 1\n3 1 1\n3 0 1\n",
    );
}

/// See: issue #34, item 9. The exported matchsticks-duel input validator
/// (C++) agrees with `judge validate matchsticks-duel`: the matchsticks
/// rules, and every game won for the side to move.
#[test]
fn the_exported_duel_input_validator_agrees_with_judge_validate() {
    assert_no_judge_on_the_bare_path();
    let dir = Dir::new();
    dir.judge(&["export", "--kattis", "matchsticks-duel", "d"])
        .expect_code(0);
    let validator = compiled(&dir, &format!("d/{VALIDATOR_CPP}"));
    let mut inputs: Vec<Vec<u8>> = MATCHSTICKS_INPUTS
        .iter()
        .map(|text| text.as_bytes().to_vec())
        .collect();
    // Won, lost, and a won game after a lost one.
    inputs.push(b"1\n0000\n0000\n000-\n".to_vec());
    inputs.push(b"2\n0000\n0000\n000-\n1-1-\n-1-1\n1-00\n".to_vec());
    push_inputs_in(&dir, ["d/data/sample", "d/data/secret"], &mut inputs);
    let (valid, invalid) =
        agrees_with_judge_validate(&dir, "matchsticks-duel", &validator, &inputs, false);
    assert!(
        valid >= 5 && invalid >= 15,
        "{valid} valid, {invalid} invalid"
    );
}

/// Adds the `.in` files of each folder (in `dir`) to `inputs`.
fn push_inputs_in<F: AsRef<Path>>(
    dir: &Dir,
    folders: impl IntoIterator<Item = F>,
    inputs: &mut Vec<Vec<u8>>,
) {
    for folder in folders {
        for entry in fs_err::read_dir(dir.path().join(folder)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|extension| extension == "in") {
                inputs.push(fs_err::read(&path).unwrap());
            }
        }
    }
}

/// Runs the compiled exported input validator on every input and asserts
/// it decides as `judge validate PROBLEM` does (valid -> 42, invalid ->
/// 43; with `line_messages`, a rejection's stderr names its line).
/// Returns how many were valid and how many invalid.
fn agrees_with_judge_validate(
    dir: &Dir,
    problem: &str,
    validator: &Path,
    inputs: &[Vec<u8>],
    line_messages: bool,
) -> (usize, usize) {
    let (mut valid, mut invalid) = (0, 0);
    for input in inputs {
        let shown = String::from_utf8_lossy(input);
        let stdin = dir.create("stdin.txt", input.clone());
        let judged = dir.judge(&["validate", problem, &stdin.display().to_string()]);
        let expected = match judged.code() {
            0 => 42,
            1 => 43,
            code => panic!("judge validate {problem} exit {code} on {shown:?}"),
        };
        let (code, stderr) = run_compiled(validator, &[], input);
        assert_eq!(code, expected, "on {shown:?}: {stderr}");
        if code == 43 {
            if line_messages {
                assert!(stderr.starts_with("line "), "on {shown:?}: {stderr}");
            }
            invalid += 1;
        } else {
            valid += 1;
        }
    }
    (valid, invalid)
}
