//! Kattis packages in the shapes of BAPCtools' and problemtools' own test
//! problems (issue #34), written here: each test is one package a setter
//! brings, graded with `grade --package`, every submission expected to get
//! its folder's verdict.

use crate::support::{assert_folder_verdicts, Dir, PackageBuilder};

/// See: issue #34 (BAPCtools' `fltcmp`). With `float_tolerance` from
/// `data/test_group.yaml`, an answer token that is no finite number (`inf`,
/// `NaN`, `1e309`) is compared as text, without regard to case, as
/// problemtools' default output validator does: `inf` for `inf` is right,
/// `-inf` or a number for it is wrong, and a number where a number is
/// expected is held to the tolerance.
#[test]
fn float_answers_that_are_not_finite_are_compared_as_text() {
    let dir = Dir::new();
    // Each output line is 1/x, printed as C's `%.7lf` would, except where
    // a submission says otherwise: for 0, for an infinity, for a NaN, for a
    // reciprocal too large for a double.
    let reciprocal = |zero: &str, nan: &str, huge: &str, epsilon: &str| {
        format!(
            "import math\n\
             n = int(input())\n\
             for _ in range(n):\n\
             \x20   x = float(input())\n\
             \x20   if x == 0: print('{zero}')\n\
             \x20   elif math.isinf(x): print('0.0000000')\n\
             \x20   elif math.isnan(x): print('{nan}')\n\
             \x20   elif abs(x) < 1e-300: print('{huge}')\n\
             \x20   else: print('%.7f' % (1 / x + {epsilon}))\n"
        )
    };
    PackageBuilder::kattis(&dir, "fltcmp")
        .manifest(
            "problem_format_version: 2025-09\ntype: pass-fail\nname: fltcmp\n\
             uuid: 1d3b5f70-2a4c-4e6f-8a0b-9c1d2e3f4a5b\nlicense: cc0\n\
             limits:\n  time_limit: 2\n",
        )
        .file(
            "data/test_group.yaml",
            "output_validator_args: [float_tolerance, \"1E-6\"]\n",
        )
        .test(
            "sample/1",
            "3\n1.0\n2E0\n3\n",
            "1.0\n0.50000000001\n3.333333333E-1\n",
        )
        .test("sample/2", "3\n+0\nInf\nnan\n", "inf\n0\nNaN\n")
        .test("secret/big", "1\n1e-309\n", "1e309\n")
        .file(
            "input_validators/validate.py",
            "import sys\nlines = sys.stdin.read().split()\n\
             sys.exit(42 if int(lines[0]) == len(lines) - 1 else 43)\n",
        )
        .submission(
            "accepted/correct.py",
            reciprocal("inf", "nan", "1e309", "0"),
        )
        .submission(
            "accepted/shouting.py",
            reciprocal("INF", "NAN", "1E309", "0"),
        )
        .submission(
            "wrong_answer/negative_infinity.py",
            reciprocal("-inf", "nan", "1e309", "0"),
        )
        .submission(
            "wrong_answer/imprecise.py",
            reciprocal("inf", "nan", "1e309", "1e-4"),
        )
        .submission(
            "wrong_answer/infinity_for_overflow.py",
            reciprocal("inf", "nan", "inf", "0"),
        )
        .build();
    let graded = dir.judge(&["grade", "--package", "fltcmp"]);
    let out = graded.stdout();
    graded.expect_code(0);
    assert_folder_verdicts(
        &out,
        &[
            ("accepted/correct.py", "AC"),
            ("accepted/shouting.py", "AC"),
            ("wrong_answer/negative_infinity.py", "WA"),
            ("wrong_answer/imprecise.py", "WA"),
            ("wrong_answer/infinity_for_overflow.py", "WA"),
        ],
    );
    assert!(out.contains("token 1: expected `inf`, got `-inf`"), "{out}");
    assert!(
        out.contains("token 1: expected `1e309`, got `inf`"),
        "{out}"
    );
    assert!(
        out.contains("5 of 5 submissions got their folder's verdict"),
        "{out}"
    );
}

/// An interactive package in the shape of BAPCtools' `guessnoeofcheck`:
/// the validator says `correct` and accepts at once, never reading what the
/// submission writes after.
fn guess_package(dir: &Dir, submissions: &[(&str, &str)]) {
    PackageBuilder::kattis(dir, "guess")
        .manifest(
            "problem_format_version: 2025-09\nname: guess\ntype: interactive\n\
             uuid: 2e4c6a80-3b5d-4f70-9b1c-0d2e3f4a5b6c\nlicense: cc0\n\
             limits:\n  time_limit: 1\n",
        )
        .test("sample/1", "700\n", "700\n")
        .test("secret/1", "1\n", "1\n")
        .test("secret/2", "1000\n", "1000\n")
        .file(
            "input_validators/validate.py",
            "import sys\nn = int(sys.stdin.read())\nsys.exit(42 if 1 <= n <= 1000 else 43)\n",
        )
        .file(
            "output_validator/validate.py",
            "import sys\n\
             secret = int(open(sys.argv[1]).read())\n\
             for _ in range(10):\n\
             \x20   guess = int(sys.stdin.readline())\n\
             \x20   if guess == secret:\n\
             \x20       print('correct', flush=True)\n\
             \x20       sys.exit(42)\n\
             \x20   print('lower' if guess > secret else 'higher', flush=True)\n\
             sys.exit(43)\n",
        )
        .files(submissions)
        .build();
}

/// The binary search of a guessing submission in C, then `after` once it
/// read `correct`.
fn guessing_c(after: &str) -> String {
    format!(
        "#include <stdio.h>\n#include <string.h>\n#include <unistd.h>\n\
         int main(void) {{\n\
           int lo = 1, hi = 1000; char reply[64];\n\
           for (;;) {{\n\
             int m = (lo + hi) / 2;\n\
             printf(\"%d\\n\", m); fflush(stdout);\n\
             if (scanf(\"%63s\", reply) != 1) return 3;\n\
             if (!strcmp(reply, \"correct\")) break;\n\
             if (!strcmp(reply, \"lower\")) hi = m - 1; else lo = m + 1;\n\
           }}\n\
           {after}\n\
         }}\n"
    )
}

/// See: issue #34 (BAPCtools' `guessnoeofcheck`). Once the validator has
/// accepted and exited, what the submission writes is no fault of its own:
/// it neither dies of SIGPIPE nor gets EPIPE (problemtools holds the pipe
/// open for this), so a last line, even a flood, is AC; how it ends still
/// counts (an exit code is RE, spinning is TLE), and a wrong guess is WA.
#[test]
fn what_a_submission_writes_after_the_validator_accepted_is_no_fault() {
    let dir = Dir::new();
    let late_line = guessing_c("usleep(300000); printf(\"0\\n\"); return 0;");
    let late_flood =
        guessing_c("usleep(300000); for (int i = 0; i < (1 << 21); ++i) putchar('x'); return 0;");
    let late_crash = guessing_c("usleep(300000); printf(\"0\\n\"); fflush(stdout); return 1;");
    let late_spin = guessing_c("for (volatile unsigned long x = 0;; x++) {}");
    let python_late_line = "import sys, time\n\
         lo, hi = 1, 1000\n\
         while True:\n\
         \x20   m = (lo + hi) // 2\n\
         \x20   print(m, flush=True)\n\
         \x20   reply = input()\n\
         \x20   if reply == 'correct': break\n\
         \x20   if reply == 'lower': hi = m - 1\n\
         \x20   else: lo = m + 1\n\
         time.sleep(0.3)\n\
         print(0, flush=True)\n";
    guess_package(
        &dir,
        &[
            ("submissions/accepted/plain.c", &guessing_c("return 0;")),
            ("submissions/accepted/late_line.c", &late_line),
            ("submissions/accepted/late_line.py", python_late_line),
            ("submissions/accepted/late_flood.c", &late_flood),
            ("submissions/run_time_error/late_crash.c", &late_crash),
            ("submissions/time_limit_exceeded/late_spin.c", &late_spin),
            (
                "submissions/wrong_answer/always_500.py",
                "while True:\n    print(500, flush=True)\n    input()\n",
            ),
        ],
    );
    let graded = dir.judge(&["grade", "--package", "guess"]);
    let out = graded.stdout();
    graded.expect_code(0);
    assert_folder_verdicts(
        &out,
        &[
            ("accepted/plain.c", "AC"),
            ("accepted/late_line.c", "AC"),
            ("accepted/late_line.py", "AC"),
            ("accepted/late_flood.c", "AC"),
            ("run_time_error/late_crash.c", "RE"),
            ("time_limit_exceeded/late_spin.c", "TLE"),
            ("wrong_answer/always_500.py", "WA"),
        ],
    );
    assert!(
        out.contains("7 of 7 submissions got their folder's verdict"),
        "{out}"
    );
}

/// See: issue #34 (BAPCtools' `testseed`). A test's own `NAME.yaml` gives
/// its input validator arguments, over its groups' (`data/test_group.yaml`
/// here), an empty string and a literal `{seed}` included, each one word
/// of the validator's argv.
#[test]
fn a_test_cases_yaml_gives_its_input_validator_arguments() {
    let dir = Dir::new();
    PackageBuilder::kattis(&dir, "seeded")
        .manifest(
            "problem_format_version: 2025-09\ntype: pass-fail\nname: Test Seed\n\
             uuid: 3f5d7b90-4c6e-4a81-8c2d-1e3f4a5b6c7d\nlicense: cc0\n",
        )
        .file(
            "data/test_group.yaml",
            "input_validator_args: [\"\", \"from the group\"]\n",
        )
        .test(
            "sample/01-basic",
            "stdout.py {seed}\n",
            "stdout.py {seed}\n",
        )
        .file(
            "data/sample/01-basic.yaml",
            "input_validator_args: [\"\", \"stdout.py {seed}\"]\ndescription: seeded\n",
        )
        .test("secret/plain", "from the group\n", "from the group\n")
        .file(
            "input_validators/input_validator.py",
            "import sys\n\
             salt, command = sys.argv[1], sys.argv[2]\n\
             sys.exit(42 if salt == '' and len(sys.argv) == 3 and \
             sys.stdin.read() == command + '\\n' else 43)\n",
        )
        .submission(
            "accepted/echo.py",
            "import sys\nsys.stdout.write(sys.stdin.read())\n",
        )
        .build();
    let graded = dir.judge(&["grade", "--package", "seeded"]);
    graded.expect_code(0);
    assert_folder_verdicts(&graded.stdout(), &[("accepted/echo.py", "AC")]);

    // A key the test case configuration does not define is refused,
    // naming the file and the key.
    dir.create(
        "seeded/data/secret/plain.yaml",
        "input_validator_flags: x\n",
    );
    let refused = dir.judge(&["grade", "--package", "seeded"]);
    refused.expect_code(2);
    let err = refused.stderr();
    assert!(
        err.contains("plain.yaml") && err.contains("input_validator_flags"),
        "{err}"
    );
}

/// See: issue #34 (BAPCtools' `hellounix`): a package whose only
/// submissions are expected to fail, with no accepted one, grades when its
/// time limit is stated and every test has its `.ans`.
#[test]
fn a_package_without_an_accepted_submission_grades() {
    let dir = Dir::new();
    PackageBuilder::kattis(&dir, "unix")
        .manifest(
            "problem_format_version: 2025-09\ntype: pass-fail\nname: hellounix\n\
             uuid: 4a6c8e00-5d7f-4b92-9d3e-2f4a5b6c7d8e\nlicense: cc0\n\
             limits:\n  time_limit: 2\n",
        )
        .test("sample/1", "", "Hello world!\n")
        .file("input_validators/validate.py", "import sys\nsys.exit(42)\n")
        .submission(
            "run_time_error/sigsegv.c",
            "#include <signal.h>\nint main(void) { raise(SIGSEGV); return 0; }\n",
        )
        .submission("wrong_answer/hello.py", "print('Hello unix!')\n")
        .build();
    let graded = dir.judge(&["grade", "--package", "unix"]);
    graded.expect_code(0);
    assert_folder_verdicts(
        &graded.stdout(),
        &[
            ("run_time_error/sigsegv.c", "RE"),
            ("wrong_answer/hello.py", "WA"),
        ],
    );
}

/// See: issue #34 (BAPCtools' `alternativeencryption`, whose `validate.h`
/// keeps `feedback/.pass` and `.state0`): a multi-pass output validator
/// rewrites in a later pass the files it left in `feedback/` in an
/// earlier one, and removes them.
#[test]
fn a_multi_pass_validator_rewrites_its_own_feedback_files() {
    let dir = Dir::new();
    PackageBuilder::kattis(&dir, "passes")
        .manifest(
            "problem_format_version: 2025-09\ntype: multi-pass\nname: passes\n\
             uuid: 6c8e0a20-7f91-4db4-9f50-4b6c7d8e9f0a\nlicense: cc0\n\
             limits:\n  time_limit: 2\n",
        )
        .test("sample/1", "1\n", "1\n")
        .file("input_validators/validate.py", "import sys\nsys.exit(42)\n")
        .file(
            "output_validator/validate.py",
            "import os, sys\n\
             feedback = sys.argv[3]\n\
             state = os.path.join(feedback, '.pass')\n\
             got = sys.stdin.read().split()\n\
             if os.path.exists(state):\n\
             \x20   os.remove(os.path.join(feedback, '.state0'))\n\
             \x20   with open(state, 'w') as f: f.write('2')\n\
             \x20   sys.exit(42 if got == ['2'] else 43)\n\
             with open(state, 'w') as f: f.write('1')\n\
             with open(os.path.join(feedback, '.state0'), 'w') as f: f.write('x')\n\
             with open(os.path.join(feedback, 'nextpass.in'), 'w') as f: f.write('2\\n')\n\
             sys.exit(42 if got == ['1'] else 43)\n",
        )
        .submission("accepted/echo.py", "print(input())\n")
        .submission("wrong_answer/one.py", "input()\nprint(1)\n")
        .build();
    let graded = dir.judge(&["grade", "--package", "passes"]);
    let out = graded.stdout();
    assert_eq!(graded.code(), 0, "{}", graded.transcript());
    assert_folder_verdicts(
        &out,
        &[("accepted/echo.py", "AC"), ("wrong_answer/one.py", "WA")],
    );
}
