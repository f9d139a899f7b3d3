//! A 2025-09 package's `submissions/submissions.yaml` (issue #15): where it
//! states expectations, a submission agrees when its verdicts, score and
//! messages are within them; a bad entry refuses the package with its line.

use crate::support::{copy_fixture, Dir, PackageBuilder};

/// Doubles a number. `mixed/` is no verdict folder: only submissions.yaml
/// says what its programs must get.
fn double_package(dir: &Dir, submissions_yaml: &str) {
    PackageBuilder::kattis(dir, "double")
        .manifest(
            "problem_format_version: 2025-09\nname: Double\nuuid: 0f6c6a52-3b8e-4d0c-9a57-2d41c1f0b7e3\n\
             limits:\n  time_limit: 2\n",
        )
        .test("sample/1", "1\n", "2\n")
        .test("secret/1", "5\n", "10\n")
        .test("secret/2", "-4\n", "-8\n")
        .file(
            "input_validators/check.py",
            "import sys\nint(sys.stdin.read())\nsys.exit(42)\n",
        )
        .submission("accepted/double.py", "print(2 * int(input()))\n")
        // Right for positive numbers only.
        .submission(
            "mixed/positive.py",
            "n = int(input())\nprint(2 * n if n > 0 else 0)\n",
        )
        .file("submissions/submissions.yaml", submissions_yaml)
        .build();
}

#[test]
fn a_submission_agrees_when_it_is_within_its_expectations() {
    let dir = Dir::new();
    double_package(
        &dir,
        "accepted/*:\n  permitted: [AC]\nmixed/positive.py:\n  authors: Ann\n  permitted: [AC, WA]\n  \
         required: [WA]\n  message: expected\n",
    );
    let run = dir.judge(&["grade", "--package", "double"]);
    let out = run.stdout();
    assert_eq!(run.code(), 0, "{out}{}", run.stderr());
    assert!(
        out.contains("ok       double/submissions/mixed/positive.py: WA (submissions.yaml `mixed/positive.py` line 3: permitted AC, WA; required WA; message \"expected\") on secret/2"),
        "{out}"
    );
    assert!(
        out.contains("ok       double/submissions/accepted/double.py: AC (submissions.yaml `accepted/*` line 1: permitted AC)"),
        "{out}"
    );
}

#[test]
fn a_submission_outside_its_expectations_is_a_mismatch() {
    let dir = Dir::new();
    // The partial program gets a WA, which is not permitted.
    double_package(&dir, "mixed/*:\n  permitted: [AC, TLE]\n");
    let run = dir.judge(&["grade", "--package", "double"]);
    let out = run.stdout();
    run.expect_code(1);
    assert!(
        out.contains(
            "MISMATCH double/submissions/mixed/positive.py: WA (submissions.yaml `mixed/*` line 1: permitted AC, TLE)"
        ),
        "{out}"
    );
    // The accepted program is judged by its folder, as without the file.
    assert!(
        out.contains("ok       double/submissions/accepted/double.py: AC (folder accepted)"),
        "{out}"
    );
}

#[test]
fn without_an_expectation_a_folder_that_is_no_verdict_is_skipped() {
    let dir = Dir::new();
    double_package(&dir, "accepted/*:\n  permitted: [AC]\n");
    let run = dir.judge(&["grade", "--package", "double"]);
    run.expect_code(0);
    assert!(
        run.stdout()
            .contains("1 of 1 submissions got their folder's verdict; 1 skipped"),
        "{}",
        run.stdout()
    );
}

#[test]
fn a_bad_entry_refuses_the_package_with_its_file_and_line() {
    let dir = Dir::new();
    double_package(
        &dir,
        "accepted/*:\n  permitted: [AC]\nmixed/*:\n  permitted: [AC, PE]\n",
    );
    let run = dir.judge(&["grade", "--package", "double"]);
    run.expect_code(2);
    let err = run.stderr();
    assert!(err.contains("double/submissions/submissions.yaml"), "{err}");
    assert!(
        err.contains("line 4: `mixed/*`: `permitted`: `PE` is not a verdict of the format (AC, WA, RTE, TLE)"),
        "{err}"
    );
}

/// `judge merge` of the shards decides by the expectations as
/// `grade --package` does: the WA that `mixed/positive.py` is permitted
/// agrees, and the merge exits 0 with 2 of 2 agreeing.
#[test]
fn merged_shards_agree_by_the_expectations() {
    let dir = Dir::new();
    double_package(
        &dir,
        "mixed/positive.py:\n  permitted: [AC, WA]\n  required: [WA]\n",
    );
    let merged = dir.grade_package_in_halves("double");
    let out = merged.stdout();
    assert_eq!(merged.code(), 0, "{out}{}", merged.stderr());
    assert!(
        out.contains("2 of 2 submissions got their folder's verdict"),
        "{out}"
    );
    assert_eq!(merged.stderr(), "", "no disagreement is said");
}

/// See: issue #34, item 4. `tests/fixtures/kattis/expectations` (the shape
/// of BAPCtools' `testexpectations`) uses every key of the 2025-09 file:
/// `authors` and `model_solution`, a folder's own demand (`mixed`), demands
/// by test group with braces (`mixed/odd.py`), `language` and `entrypoint`
/// (a folder of two sources that is ambiguous without them),
/// `use_for_time_limit` by group (`tle`), and `rejected/`'s default
/// demand. Every submission agrees.
#[test]
fn every_key_of_the_2025_09_file_is_read_and_each_submission_agrees() {
    let dir = Dir::new();
    copy_fixture(&dir, "kattis/expectations", "echo");
    let run = dir.judge(&["grade", "--package", "echo"]);
    let out = run.stdout();
    assert_eq!(run.code(), 0, "{out}{}", run.stderr());
    assert!(
        out.contains("5 of 5 submissions got their folder's verdict; 0 skipped"),
        "{out}"
    );
    for line in [
        "ok       echo/submissions/mixed/multi: AC (submissions.yaml `mixed` line 7: permitted AC, WA, `mixed/multi` line 21: permitted AC)",
        "ok       echo/submissions/mixed/odd.py: WA (submissions.yaml `mixed` line 7: permitted AC, WA, `mixed/odd.py` line 12: on `sample`: permitted AC; on `secret/{1, 3}`: permitted AC; on `secret/*2`: required WA) on secret/12",
        "ok       echo/submissions/rejected/never.py: WA (submissions.yaml `rejected` (the format's default): required RE, TLE, WA)",
        "ok       echo/submissions/tle/sleepy.py: TLE (submissions.yaml `tle` line 27: on `sample`: permitted AC, WA, RE; on `secret`: required TLE) on secret/12",
    ] {
        assert!(out.contains(line), "{line}\n{out}");
    }
}

/// A test group's demand is checked on that group's tests only: `odd.py`
/// is right on `secret/1`, so a demand of a WA there is a mismatch (though
/// it is wrong on `secret/12`), and a glob that is exactly `accepted`
/// replaces the folder's demand.
#[test]
fn a_test_group_demand_is_checked_on_its_tests() {
    let dir = Dir::new();
    copy_fixture(&dir, "kattis/expectations", "echo");
    dir.create(
        "echo/submissions/submissions.yaml",
        "accepted:\n  permitted: [AC, WA]\n  required: [AC]\nmixed/odd.py:\n  secret/1:\n    required: [WA]\n",
    );
    let run = dir.judge(&["grade", "--package", "echo"]);
    let out = run.stdout();
    run.expect_code(1);
    assert!(
        out.contains("MISMATCH echo/submissions/mixed/odd.py: WA (submissions.yaml `mixed/odd.py` line 4: on `secret/1`: required WA)"),
        "{out}"
    );
    assert!(
        out.contains("ok       echo/submissions/accepted/echo.py: AC (submissions.yaml `accepted` line 1: permitted AC, WA; required AC)"),
        "{out}"
    );
}

/// An unknown key, at the top of an entry or under a test group, refuses
/// the package with the file, the line of the key and the key.
#[test]
fn an_unknown_key_is_refused_with_its_file_line_and_key() {
    for (yaml, wanted) in [
        (
            "mixed:\n  permitted: [AC, WA]\n  model_soluton: true\n",
            "line 3: `mixed`: unknown key `model_soluton`: expected one of",
        ),
        (
            "mixed:\n  sample:\n    permitted: [AC]\n    requird: [WA]\n",
            "line 4: `mixed`: `sample`: unknown key `requird`",
        ),
    ] {
        let dir = Dir::new();
        copy_fixture(&dir, "kattis/expectations", "echo");
        dir.create("echo/submissions/submissions.yaml", yaml);
        let run = dir.judge(&["grade", "--package", "echo"]);
        run.expect_code(2);
        let err = run.stderr();
        assert!(err.contains("echo/submissions/submissions.yaml"), "{err}");
        assert!(err.contains(wanted), "{wanted}\n{err}");
    }
}

/// See: issue #34. The format's `use_for_time_limit` is "Bool or string":
/// `true` (the default, no opt-out) is accepted, and the accepted
/// submission still agrees.
#[test]
fn use_for_time_limit_true_is_accepted_as_the_default() {
    let dir = Dir::new();
    double_package(
        &dir,
        "accepted/*:\n  permitted: [AC]\n  use_for_time_limit: true\n",
    );
    let run = dir.judge(&["grade", "--package", "double"]);
    let out = run.stdout();
    assert_eq!(run.code(), 0, "{out}{}", run.stderr());
    assert!(
        out.contains("ok       double/submissions/accepted/double.py: AC"),
        "{out}"
    );
}

/// See: issue #34. `score` is "only for scoring problems": on a pass-fail
/// one it refuses the package at load, naming the file, line and glob.
#[test]
fn a_score_on_a_pass_fail_problem_is_refused_with_its_line() {
    let dir = Dir::new();
    double_package(
        &dir,
        "mixed/*:\n  permitted: [AC, WA]\naccepted:\n  permitted: [AC]\n  score: 5\n",
    );
    let run = dir.judge(&["grade", "--package", "double"]);
    run.expect_code(2);
    let err = run.stderr();
    assert!(
        err.contains("double/submissions/submissions.yaml`: line 5: `accepted`: `score` is only for scoring problems"),
        "{err}"
    );
}

/// See: issue #33. `judge report` of a saved package report says how many
/// submissions got what they were expected to get as `grade --package`
/// said it, counting by what the report recorded (here a
/// `submissions.yaml` entry decided that `mixed/positive.py` disagrees),
/// never "the verdict their folder names" for a folder that names none;
/// a report whose `expected.kind` is `tag` counts tags, and one that
/// mixes kinds names neither.
#[test]
fn a_saved_package_report_is_summed_up_as_the_grade_said_it() {
    let dir = Dir::new();
    double_package(&dir, "mixed/*:\n  permitted: [AC, TLE]\n");
    let graded = dir.judge(&["grade", "--package", "double", "--json", "grade.json"]);
    graded.expect_code(1);
    let tally = "1 of 2 submissions got their folder's verdict";
    assert!(graded.stdout().contains(tally), "{}", graded.stdout());

    let rendered = dir.judge(&["report", "grade.json"]);
    rendered.expect_code(1);
    let out = rendered.stdout();
    assert!(out.contains(&format!("{tally}\n")), "{out}");
    assert!(!out.contains("examples got the verdict"), "{out}");

    let mut report: serde_json::Value =
        serde_json::from_str(&dir.read("grade.json")).expect("a JSON report");
    let results = report["results"].as_array_mut().expect("results");
    assert_eq!(results.len(), 2);
    for result in results.iter_mut() {
        result["expected"]["kind"] = "tag".into();
    }
    dir.create("tags.json", serde_json::to_string(&report).expect("JSON"));
    let rendered = dir.judge(&["report", "tags.json", "-q"]);
    rendered.expect_code(1);
    assert!(
        rendered
            .stdout()
            .contains("1 of 2 submissions got their tag's verdict\n"),
        "{}",
        rendered.stdout()
    );

    report["results"][0]["expected"]["kind"] = "folder".into();
    dir.create("mixed.json", serde_json::to_string(&report).expect("JSON"));
    let rendered = dir.judge(&["report", "mixed.json", "-q"]);
    rendered.expect_code(1);
    assert!(
        rendered
            .stdout()
            .contains("1 of 2 submissions got their expected verdict\n"),
        "{}",
        rendered.stdout()
    );
}
