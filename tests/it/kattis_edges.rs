//! Kattis packages in the shapes of the edges of BAPCtools' test problems
//! `hello`, `pseudointeraction` and `boolfind` (issue #34), written here:
//! Java folder programs, a validator that closes its output early, and a
//! program the sandbox refuses a call. Each is graded with `grade
//! --package`, every submission expected to get its folder's verdict.

use crate::support::{assert_folder_verdicts, line_of, Dir, PackageBuilder};

/// A 2025-09 `problem.yaml` of `type`, named `name`, with a 2 s limit.
fn problem_yaml(name: &str, kind: &str) -> String {
    format!(
        "problem_format_version: 2025-09\ntype: {kind}\nname: {name}\n\
         uuid: 7d9f1b30-8a02-4ec5-a061-5c7d8e9f0a1b\nlicense: cc0\n\
         limits:\n  time_limit: 2\n"
    )
}

const HELLO_MAIN: &str = "public static void main(String[] args) { \
                          System.out.println(\"Hello world!\"); }";

/// See: issue #34 (DOMjudge's `hello` in BAPCtools' test problems). A Java
/// folder program runs the class of its entry file: its one source at the
/// top, whatever the class is called (`TestHello`, not public, beside a
/// text file), else the first source at the top, in name order, whose
/// class declares `main` (`hello.java` beside the `message.java` it uses;
/// `a.java` before `b.java`, both with `main`), as problemtools and
/// BAPCtools run it. They were `Could not find or load main class Main`
/// (RE) and "the folder's entry point is ambiguous" (CE).
#[test]
fn java_folder_programs_run_the_class_with_main() {
    let dir = Dir::new();
    let test_hello = format!("import java.io.*;\nclass TestHello {{ {HELLO_MAIN} }}\n");
    let hello = "public class hello {\n\
                 \x20 public static void main(String[] args) { new message().print(); }\n\
                 }\n";
    let message = "public class message {\n\
                   \x20 public void print() { System.out.println(\"Hello world!\"); }\n\
                   }\n";
    let first = format!("public class a {{ {HELLO_MAIN} }}\n");
    let second = "public class b { public static void main(String[] args) { \
                  System.out.println(\"Hello, this is class b\"); } }\n";
    PackageBuilder::kattis(&dir, "hello")
        .manifest(problem_yaml("hello", "pass-fail"))
        .test("sample/1", "1\n", "Hello world!\n")
        .file("input_validators/validate.py", "import sys\nsys.exit(42)\n")
        .submission("accepted/extra-file.java/TestHello.java", &test_hello)
        .submission(
            "accepted/extra-file.java/zz-random.txt",
            "This is a random text file! @*@!2<>>$#! %\n",
        )
        .submission("accepted/multifile.java/hello.java", hello)
        .submission("accepted/multifile.java/message.java", message)
        .submission("accepted/two-mains/a.java", &first)
        .submission("accepted/two-mains/b.java", second)
        .submission(
            "wrong_answer/b-first/a.java",
            "public class a { public void unused() {} }\n",
        )
        .submission("wrong_answer/b-first/b.java", second)
        .build();
    let graded = dir.judge(&["grade", "--package", "hello"]);
    let out = graded.stdout();
    assert_eq!(graded.code(), 0, "{}", graded.transcript());
    assert_folder_verdicts(
        &out,
        &[
            ("accepted/extra-file.java", "AC"),
            ("accepted/multifile.java", "AC"),
            ("accepted/two-mains", "AC"),
            ("wrong_answer/b-first", "WA"),
        ],
    );
    assert!(
        line_of(&out, "wrong_answer/b-first").contains("got `Hello,`"),
        "{out}"
    );
    assert!(
        out.contains("4 of 4 submissions got their folder's verdict"),
        "{out}"
    );
}

/// See: issue #34 (BAPCtools' `pseudointeraction`). An interactor that
/// writes the whole test and closes its output at once, before it reads a
/// thing, gives the submission end of file after the last number: one that
/// reads to the end of its input and one that counts are accepted, one
/// that writes a line more is rejected by the interactor (WA, with its
/// message).
#[test]
fn a_validator_that_closes_its_output_gives_the_submission_end_of_file() {
    let dir = Dir::new();
    PackageBuilder::kattis(&dir, "pseudo")
        .manifest(problem_yaml("pseudo", "interactive"))
        .test("sample/1", "5\n1\n2\n3\n4\n", "10\n")
        .test("secret/big", "30000\n", "0\n")
        .file("input_validators/validate.py", "import sys\nsys.exit(42)\n")
        .file(
            "output_validator/interactor.py",
            "import os, pathlib, sys, threading\n\
             lines = pathlib.Path(sys.argv[1]).read_text().split()\n\
             n = int(lines[0])\n\
             numbers = [int(x) for x in lines[1:]] + list(range(n - len(lines) + 1))\n\
             def wrong(message):\n\
             \x20   (pathlib.Path(sys.argv[3]) / 'judgemessage.txt').write_text(message)\n\
             \x20   sys.exit(43)\n\
             def send():\n\
             \x20   sys.stdout.write('%d\\n%s\\n' % (n, '\\n'.join(map(str, numbers))))\n\
             \x20   sys.stdout.flush()\n\
             \x20   os.close(sys.stdout.fileno())\n\
             threading.Thread(target=send, daemon=True).start()\n\
             answer = sys.stdin.readline()\n\
             if not answer.strip().lstrip('-').isdigit(): wrong('not a number: %r' % answer)\n\
             if int(answer) != sum(numbers): wrong('got %s, expected %d' % (answer.strip(), sum(numbers)))\n\
             more = sys.stdin.read()\n\
             if more.strip(): wrong('extra input from team, starting with %r' % more[:10])\n\
             sys.exit(42)\n",
        )
        .submission(
            "accepted/eof.py",
            "input()\ntotal = 0\nwhile True:\n\
             \x20   try:\n        total += int(input())\n\
             \x20   except EOFError:\n        break\nprint(total)\n",
        )
        .submission(
            "accepted/read.py",
            "n = int(input())\nprint(sum(int(input()) for _ in range(n)))\n",
        )
        .submission(
            "wrong_answer/trailing.py",
            "n = int(input())\nprint(sum(int(input()) for _ in range(n)))\nprint('Hello')\n",
        )
        .build();
    let graded = dir.judge(&["grade", "--package", "pseudo", "--all-tests"]);
    let out = graded.stdout();
    assert_eq!(graded.code(), 0, "{}", graded.transcript());
    assert_folder_verdicts(
        &out,
        &[
            ("accepted/eof.py", "AC"),
            ("accepted/read.py", "AC"),
            ("wrong_answer/trailing.py", "WA"),
        ],
    );
    assert!(
        line_of(&out, "wrong_answer/trailing.py")
            .contains("extra input from team, starting with 'Hello\\n'"),
        "{out}"
    );
}

/// See: issue #34 (BAPCtools' `boolfind`, whose interactor's `run` script
/// calls `touch` on a file in its feedback folder). The sandbox refuses
/// every program to set a file's times, a channel between runs (the times
/// of `/dev/null` are shared): `touch` then makes its file but fails. The
/// verdicts stay the validator's; a message quoting a program's stderr
/// that says `Operation not permitted` (the interactor's WA without a
/// `judgemessage.txt`, the submission's RE) says that this is how the
/// sandbox refuses calls. An interactor that writes `judgemessage.txt` has
/// its own words alone.
#[test]
fn a_call_the_sandbox_refuses_is_noted_in_the_message() {
    let dir = Dir::new();
    PackageBuilder::kattis(&dir, "touching")
        .manifest(problem_yaml("touching", "interactive"))
        .test("sample/1", "7\n", "7\n")
        .file("input_validators/validate.py", "import sys\nsys.exit(42)\n")
        .file(
            "output_validator/validate.py",
            "import sys\n\
             secret = open(sys.argv[1]).read().strip()\n\
             print('go', flush=True)\n\
             said = sys.stdin.readline().strip()\n\
             if said == secret: sys.exit(42)\n\
             if said == 'quiet':\n\
             \x20   open(sys.argv[3] + '/judgemessage.txt', 'w').write('a quiet wrong answer')\n\
             print('wrong: %s' % said, file=sys.stderr)\n\
             sys.exit(43)\n",
        )
        .submission("accepted/right.py", "input()\nprint(7)\n")
        .submission("wrong_answer/wrong.py", "input()\nprint(8)\n")
        .submission("wrong_answer/quiet.py", "input()\nprint('quiet')\n")
        .submission(
            "run_time_error/touches.sh",
            "read line\ntouch made || exit 3\necho 7\n",
        )
        .script(
            "output_validator/run",
            "#!/bin/sh\ntouch \"$3/out\"\nexec python3 \"$(dirname \"$0\")/validate.py\" \"$@\"\n",
        )
        .build();
    let graded = dir.judge(&["grade", "--package", "touching"]);
    let out = graded.stdout();
    assert_eq!(graded.code(), 0, "{}", graded.transcript());
    assert_folder_verdicts(
        &out,
        &[
            ("accepted/right.py", "AC"),
            ("wrong_answer/wrong.py", "WA"),
            ("wrong_answer/quiet.py", "WA"),
            ("run_time_error/touches.sh", "RE"),
        ],
    );
    let note = "note: its stderr says `Operation not permitted`, which is how the sandbox \
                refuses every program some calls: setting a file's times";
    let wrong = &out[out.find("wrong_answer/wrong.py").unwrap()..];
    let wrong = &wrong[..wrong.find("\nok ").unwrap_or(wrong.len())];
    assert!(wrong.contains("setting times of"), "{out}");
    assert!(wrong.contains("wrong: 8"), "{out}");
    assert!(wrong.contains(note), "{out}");
    let quiet = line_of(&out, "wrong_answer/quiet.py");
    assert!(quiet.contains(": a quiet wrong answer"), "{out}");
    assert!(!quiet.contains("note:"), "{out}");
    let touches = line_of(&out, "run_time_error/touches.sh");
    assert!(touches.contains("exit code 3; "), "{out}");
    assert!(touches.contains(note), "{out}");
}

/// See: issue #34. A package without `data/` says the folder is missing,
/// not that it holds no test.
#[test]
fn a_package_without_data_says_data_is_missing() {
    let dir = crate::support::Dir::new();
    crate::support::copy_fixture(&dir, "kattis/linked", "linked");
    fs_err::remove_dir_all(dir.path().join("linked/data")).unwrap();
    let run = dir.judge(&["grade", "--package", "linked"]);
    run.expect_code(2);
    let err = run.stderr();
    assert!(
        err.contains("linked/data`: `data`: is missing") && !err.contains("holds no"),
        "{err}"
    );
}

/// See: issue #34. A problem.yaml that is not UTF-8 names the line and
/// byte of its first bad byte.
#[test]
fn a_problem_yaml_that_is_not_utf8_names_its_line() {
    let dir = crate::support::Dir::new();
    crate::support::copy_fixture(&dir, "kattis/linked", "linked");
    fs_err::write(
        dir.path().join("linked/problem.yaml"),
        b"problem_format_version: 2025-09\r\nname: h\xe9llo\r\n",
    )
    .unwrap();
    let run = dir.judge(&["grade", "--package", "linked"]);
    run.expect_code(2);
    let err = run.stderr();
    assert!(
        err.contains("linked/problem.yaml`: line 2, byte 8: is not UTF-8"),
        "{err}"
    );
}
