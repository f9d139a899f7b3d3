//! Kattis packages of every format version, with programs that are folders
//! and validators the judge cannot run (issue #15, items 1 and 2). The
//! packages are written here, in the shapes of public ones.

use crate::support::{Dir, PackageBuilder};

/// "Distance": print |a - b|. A legacy package with a custom output
/// validator that is a folder (a `.cc` and its header), a checktestdata
/// file beside a runnable input validator, and a Python submission that
/// needs 2.6 s of CPU under `time_limit: 2`.
fn distance_package(dir: &Dir, problem_yaml: &str) {
    PackageBuilder::kattis(dir, "distance")
        .manifest(problem_yaml)
        .test("sample/1", "3 10\n", "7\n")
        .test("secret/a", "10 3\n", "7\n")
        .test("secret/b", "-5 5\n", "10\n")
        .file(
            "input_validators/format.ctd",
            "INT(-1000,1000) SPACE INT(-1000,1000) NEWLINE\n",
        )
        .file(
            "input_validators/validate.py",
            "import sys\nparts = sys.stdin.read().split()\n\
             ok = len(parts) == 2 and all(p.lstrip('-').isdigit() for p in parts)\n\
             sys.exit(42 if ok else 43)\n",
        )
        .file(
            "output_validators/distance_check/compare.h",
            "#pragma once\n#include <cstdlib>\ninline bool same_number(long long a, long long b) { return a == b; }\n",
        )
        .file(
            "output_validators/distance_check/check.cc",
            "#include \"compare.h\"\n#include <cstdio>\n#include <string>\n\
             int main(int argc, char **argv) {\n\
               FILE *answer = std::fopen(argv[2], \"r\");\n\
               long long want = 0, got = 0;\n\
               if (!answer || std::fscanf(answer, \"%lld\", &want) != 1) return 1;\n\
               if (std::scanf(\"%lld\", &got) != 1) return 43;\n\
               if (!same_number(want, got)) {\n\
                 std::string path = std::string(argv[3]) + \"/judgemessage.txt\";\n\
                 FILE *message = std::fopen(path.c_str(), \"w\");\n\
                 if (message) { std::fprintf(message, \"expected %lld\", want); std::fclose(message); }\n\
                 return 43;\n\
               }\n\
               return 42;\n\
             }\n",
        )
        .submission(
            "accepted/distance.cpp",
            "#include <cstdio>\n#include <cstdlib>\nint main() { long long a, b; std::scanf(\"%lld %lld\", &a, &b); std::printf(\"%lld\\n\", std::llabs(a - b)); }\n",
        )
        .submission(
            "accepted/distance.py",
            "a, b = map(int, input().split())\nprint(abs(a - b))\n",
        )
        .submission(
            "wrong_answer/signed.py",
            "a, b = map(int, input().split())\nprint(b - a)\n",
        )
        .submission(
            "time_limit_exceeded/slow.py",
            "import time\na, b = map(int, input().split())\n\
             while time.process_time() < 2.6:\n    pass\nprint(abs(a - b))\n",
        )
        .build();
    // A generous wall-clock backstop: the verdicts here are about CPU time.
    dir.create("judge.toml", "[limits]\nwall-time-factor = 10\n");
}

/// See: issue #15: the output validator is a folder with a header; the
/// checktestdata file is skipped with the reason; the slow Python program is
/// TLE under `time_limit: 2` (Kattis gives every language the same limit).
#[test]
fn a_legacy_package_with_a_folder_validator_and_a_checktestdata_file_grades() {
    let dir = Dir::new();
    distance_package(
        &dir,
        "name: Distance\nsource: judge tests\nlicense: cc by-sa\nvalidation: custom\n\
         limits:\n  time_limit: 2\n  time_safety_margin: 4\n",
    );
    let run = dir.judge(&["grade", "--package", "distance"]);
    let out = run.stdout();
    let err = run.stderr();
    run.expect_code(0);
    assert!(
        err.contains(
            "skipped: distance/input_validators/format.ctd: a checktestdata script (`.ctd`): \
             the judge does not run checktestdata"
        ),
        "{err}"
    );
    for (path, verdict) in [
        ("accepted/distance.cpp", "AC"),
        ("accepted/distance.py", "AC"),
        ("wrong_answer/signed.py", "WA"),
        ("time_limit_exceeded/slow.py", "TLE"),
    ] {
        assert!(
            out.contains(&format!("ok       distance/submissions/{path}: {verdict}")),
            "{path}: {out}"
        );
    }
    assert!(
        out.contains("signed.py: WA (folder wrong_answer) on secret/a: expected 7"),
        "{out}"
    );
    assert!(out.contains("time limit 2000 ms"), "{out}");
}

/// The same package, but judge.toml gives Python its factor explicitly: the
/// slow program then passes, and the grade says it disagrees.
#[test]
fn a_time_factor_judge_toml_sets_itself_applies_to_a_kattis_package() {
    let dir = Dir::new();
    distance_package(
        &dir,
        "name: Distance\nvalidation: custom\nlimits:\n  time_limit: 2\n",
    );
    dir.create(
        "judge.toml",
        "[limits]\nwall-time-factor = 10\n\n[languages.python]\ntime-factor = 3\n",
    );
    let run = dir.judge(&["grade", "--package", "distance"]);
    run.expect_code(1);
    assert!(
        run.stdout()
            .contains("MISMATCH distance/submissions/time_limit_exceeded/slow.py: AC"),
        "{}",
        run.stdout()
    );
}

/// See: issue #15: a checktestdata file that is the only input validator is
/// a judge error naming it, never a grade against unchecked inputs.
#[test]
fn a_checktestdata_file_as_the_only_validator_is_a_judge_error_naming_it() {
    let dir = Dir::new();
    distance_package(
        &dir,
        "name: Distance\nvalidation: custom\nlimits:\n  time_limit: 2\n",
    );
    fs_err::remove_file(dir.path().join("distance/input_validators/validate.py")).unwrap();
    let run = dir.judge(&["grade", "--package", "distance"]);
    run.expect_code(3);
    let err = run.stderr();
    assert!(
        err.contains(
            "the input validator `distance/input_validators/format.ctd` is a checktestdata script"
        ),
        "{err}"
    );
    assert!(
        err.contains("no other input validator checks the inputs"),
        "{err}"
    );
}

/// See: issue #15: with no time limit and no accepted submission passing,
/// the error names what each accepted submission got.
#[test]
fn no_time_limit_and_no_passing_accepted_submission_names_the_cause() {
    let dir = Dir::new();
    distance_package(&dir, "name: Distance\nvalidation: custom\n");
    // The validator's header is missing: it cannot compile.
    fs_err::remove_file(
        dir.path()
            .join("distance/output_validators/distance_check/compare.h"),
    )
    .unwrap();
    let run = dir.judge(&["grade", "--package", "distance"]);
    run.expect_code(3);
    let err = run.stderr();
    assert!(
        err.contains("no accepted submission passed to derive one from: `distance/submissions/accepted/distance.cpp` JE"),
        "{err}"
    );
    assert!(err.contains("compare.h"), "{err}");
}

/// A 2023-07-draft package: `name` per language, `time_multipliers`,
/// `output_validator/` (one program), `input_format_validators/`, a
/// statement in `statement/`; `.desc`, `.hint` and a test's `.files/`
/// folder are documentation, not tests; a submission that is a folder
/// (`__main__.py` and a module) is one program.
#[test]
fn a_2023_07_package_with_a_folder_submission_grades() {
    let dir = Dir::new();
    PackageBuilder::kattis(&dir, "double")
        .manifest(
            "problem_format_version: 2023-07-draft\nname:\n  en: Double\n  sv: Dubbel\n\
             uuid: 5d1b0a2e-93c4-4f7a-8e21-6c0f2b9d4a11\ntype: pass-fail\ncredits:\n  authors: \
             Ann Author <ann@example.com>\nsource:\n  name: Judge tests\n  url: \
             https://example.com\nlicense: cc0\nkeywords: [easy]\nlanguages: all\nlimits:\n  \
             time_multipliers:\n    ac_to_time_limit: 2\n    time_limit_to_tle: 4\n  memory: 512\n",
        )
        .file(
            "statement/problem.en.md",
            "# Double\n\nPrint twice the number.\n",
        )
        .test("sample/1", "4\n", "8\n")
        .file("data/sample/1.desc", "the smallest example\n")
        .test("secret/2", "21\n", "42\n")
        .file("data/secret/2.hint", "no trick\n")
        .file("data/secret/2.files/extra.in", "not a test\n")
        .file(
            "input_format_validators/validate.py",
            "import sys\ntext = sys.stdin.read()\nsys.exit(42 if text.strip().isdigit() else 43)\n",
        )
        .file(
            "output_validator/check.py",
            "import sys\nwant = open(sys.argv[2]).read().split()\ngot = sys.stdin.read().split()\n\
             sys.exit(42 if want == got else 43)\n",
        )
        .submission("accepted/double.py", "print(2 * int(input()))\n")
        .submission(
            "accepted/modular/__main__.py",
            "from twice import twice\nprint(twice(int(input())))\n",
        )
        .submission(
            "accepted/modular/twice.py",
            "def twice(n):\n    return 2 * n\n",
        )
        .submission("wrong_answer/square.py", "n = int(input())\nprint(n * n)\n")
        .build();
    let run = dir.judge(&["grade", "--package", "double"]);
    let out = run.stdout();
    run.expect_code(0);
    assert!(
        out.contains("ok       double/submissions/accepted/modular: AC"),
        "{out}"
    );
    assert!(
        out.contains("ok       double/submissions/wrong_answer/square.py: WA"),
        "{out}"
    );
    assert!(
        run.stderr().contains("x time_multiplier 2"),
        "{}",
        run.stderr()
    );
    // Two tests: `2.files/extra.in` is not one.
    let json = dir.judge(&["grade", "--package", "double", "--json", "-"]);
    let report: serde_json::Value = serde_json::from_str(&json.stdout()).unwrap();
    assert_eq!(report["results"][0]["total"], 2, "{report}");
}

/// See: issue #15: interactive problems parse into the model and need
/// their output validator; `submit-answer` is refused as not supported.
#[test]
fn problem_types_the_judge_does_not_grade_are_refused_clearly() {
    for (yaml, expected) in [
        (
            "problem_format_version: 2025-09\nname: G\nuuid: 5d1b0a2e-93c4-4f7a-8e21-6c0f2b9d4a11\ntype: [pass-fail, interactive]\n",
            "an interactive problem needs its output validator",
        ),
        (
            "problem_format_version: 2025-09\nname: G\ntype: submit-answer\n",
            "line 3: `type`: `submit-answer` problems (answers handed in instead of programs) are not supported",
        ),
        (
            "name: G\nvalidation: custom interactive\n",
            "line 2: `validation`: `custom` needs a program in `output_validators/`",
        ),
    ] {
        let dir = Dir::new();
        PackageBuilder::kattis(&dir, "g")
            .manifest(yaml)
            .test("secret/1", "1\n", "1\n")
            .submission("accepted/a.py", "print(1)\n")
            .build();
        let run = dir.judge(&["grade", "--package", "g"]);
        run.expect_code(2);
        assert!(run.stderr().contains(expected), "{yaml}: {}", run.stderr());
    }
}

/// "Plus one", 2025-09 `scoring`: `secret/g1` (30 points) and `secret/g2`
/// (70), both `min`, g2 with `require_pass` of g1 given as `require`.
fn plus_one_package(dir: &Dir, require: &str) {
    PackageBuilder::kattis(dir, "plus")
        .manifest(
            "problem_format_version: 2025-09\nname: Plus One\n\
             uuid: 1f0b5c3e-7c1e-4b9a-9f53-0d2f6a1e2b11\ntype: scoring\nlimits:\n  time_limit: 2\n",
        )
        .test("sample/1", "1\n", "2\n")
        .test("secret/g1/1", "3\n", "4\n")
        .test("secret/g1/2", "5\n", "6\n")
        .file(
            "data/secret/g1/test_group.yaml",
            "max_score: 30\nscore_aggregation: min\n",
        )
        .test("secret/g2/1", "300\n", "301\n")
        .file(
            "data/secret/g2/test_group.yaml",
            format!("max_score: 70\nscore_aggregation: min\nrequire_pass: {require}\n"),
        )
        .file(
            "input_validators/check.py",
            "import sys\nint(sys.stdin.read())\nsys.exit(42)\n",
        )
        .submission("accepted/plus.py", "print(int(input()) + 1)\n")
        // Right below 10 only: g1's 30 points.
        .submission(
            "partially_accepted/small.py",
            "n = int(input())\nprint(n + 1 if n < 10 else 0)\n",
        )
        // Right above 10 only: g1 fails, so g2 is not run and scores 0.
        .submission(
            "wrong_answer/large.py",
            "n = int(input())\nprint(n + 1 if n > 10 or n == 1 else 0)\n",
        )
        .build();
}

/// See: issue #15. A 2025-09 scoring package grades with the scores its
/// `test_group.yaml` files give; a `require_pass` naming no group (`g1`,
/// where the format's name is `secret/g1`) refuses the package with its
/// file and line instead of scoring every submission 0 on the group.
#[test]
fn a_2025_09_scored_package_grades_and_a_require_pass_of_no_group_is_refused() {
    let dir = Dir::new();
    plus_one_package(&dir, "secret/g1");
    let run = dir.judge(&["grade", "--package", "plus"]);
    let out = run.stdout();
    assert_eq!(run.code(), 0, "{out}{}", run.stderr());
    for wanted in [
        "ok       plus/submissions/accepted/plus.py: AC, score 100 of 100",
        "ok       plus/submissions/partially_accepted/small.py: WA, score 30 of 100",
        "ok       plus/submissions/wrong_answer/large.py: WA, score 0 of 100",
    ] {
        assert!(out.contains(wanted), "{wanted}: {out}");
    }
    let dir = Dir::new();
    plus_one_package(&dir, "g1");
    let run = dir.judge(&["grade", "--package", "plus"]);
    run.expect_code(2);
    let stderr = run.stderr();
    assert!(
        stderr.contains("test_group.yaml")
            && stderr.contains("line 3: `require_pass`: `g1` is no test group"),
        "{stderr}"
    );
}

/// See: issue #34 (NWERC 2022's archive): a Kattis package's own C++
/// submissions compile as the Kattis tools compile them (`-std=gnu++23`),
/// so one using `std::ssize` and a parenthesised aggregate is AC; a C
/// submission still compiles as C.
#[test]
fn a_kattis_package_compiles_its_cpp_submissions_as_the_kattis_tools_do() {
    let dir = Dir::new();
    distance_package(&dir, "name: Distance\nvalidation: custom\n");
    dir.create(
        "distance/submissions/accepted/modern.cpp",
        "#include <cstdio>\n#include <cstdlib>\n#include <iterator>\n#include <vector>\n\
         struct pair_of { long long a, b; };\n\
         int main() {\n\
           long long a, b; std::scanf(\"%lld %lld\", &a, &b);\n\
           std::vector<pair_of> v; v.emplace_back(a, b);\n\
           if (std::ssize(v) != 1) return 1;\n\
           std::printf(\"%lld\\n\", std::llabs(v[0].a - v[0].b));\n\
         }\n",
    );
    dir.create(
        "distance/submissions/accepted/plain.c",
        "#include <stdio.h>\n#include <stdlib.h>\n\
         int main(void) { long long a, b; if (scanf(\"%lld %lld\", &a, &b) != 2) return 1; \
         printf(\"%lld\\n\", llabs(a - b)); return 0; }\n",
    );
    let run = dir.judge(&["grade", "--package", "distance"]);
    assert!(
        run.stdout()
            .contains("ok       distance/submissions/accepted/modern.cpp: AC"),
        "{}\n{}",
        run.stdout(),
        run.stderr()
    );
    assert!(
        run.stdout()
            .contains("ok       distance/submissions/accepted/plain.c: AC"),
        "{}\n{}",
        run.stdout(),
        run.stderr()
    );
}
