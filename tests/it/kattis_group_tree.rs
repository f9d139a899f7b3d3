//! Issue #34, item 2: the tree of a 2025-09 package's test data, as the
//! format has it: `test_group.yaml` in `data/sample`, `data/secret`, the
//! test data groups directly in `data/secret` (which may hold folders, not
//! groups) and the folders of the validators' own tests; each test gets
//! its own group's arguments, never those of `secret` above its group.
//! The package `divide` has the shape of BAPCtools' `divsort`, laid out as
//! the format allows; nested as `divsort` nests it, a pass-fail package is
//! graded with BAPCtools' inheritance and a warning (issue #34, item 1).

use crate::support::{Dir, PackageBuilder};

/// A pass-fail 2025-09 package in the shape of BAPCtools' `divsort`: two
/// input validators taking arguments by name, an answer validator, groups
/// with their own arguments (one holding a folder), the validators' own
/// tests with theirs.
fn divide(dir: &Dir) {
    let program = |rough: &str| {
        format!(
            "a, b, c, d = input().split()\n\
             x = float(a) / float(b)\n\
             print(('%.2f' if {rough} else '%.6f') % x, c + d)\n"
        )
    };
    PackageBuilder::kattis(dir, "divide")
        .manifest(
            "problem_format_version: 2025-09\ntype: pass-fail\nname: Divide\n\
             uuid: 5d0c7a4e-2b1f-4e8a-9c3d-7f6e5a4b3c21\nlimits:\n  time_limit: 2\n",
        )
        // `A B C D`: numbers A and B, words C and D. `--integer`: A and B are
        // whole; `small`: at most 100.
        .file(
            "input_validators/integers/validate.py",
            "import sys\n\
             words = sys.stdin.read().split()\n\
             if len(words) != 4:\n    sys.exit(43)\n\
             a, b = float(words[0]), float(words[1])\n\
             if '--integer' in sys.argv[1:] and (a != int(a) or b != int(b)):\n    \
             print('not whole', file=sys.stderr)\n    sys.exit(43)\n\
             if 'small' in sys.argv[1:] and max(a, b) > 100:\n    \
             print('not small', file=sys.stderr)\n    sys.exit(43)\n\
             sys.exit(42)\n",
        )
        .file(
            "input_validators/strings/validate.py",
            "import sys\n\
             words = sys.stdin.read().split()\n\
             sys.exit(42 if len(words) == 4 and words[2].isalpha() and words[3].isalpha() else 43)\n",
        )
        // BAPCtools' convention: `validate testcase.in [args] < testcase.ans`.
        .file(
            "answer_validators/format/validate.py",
            "import sys\n\
             words = sys.stdin.read().split()\n\
             if len(words) != 2 or not words[1].islower():\n    sys.exit(43)\n\
             if '--forbid_abcd' in sys.argv[2:] and words[1] == 'abcd':\n    \
             print('abcd forbidden', file=sys.stderr)\n    sys.exit(43)\n\
             sys.exit(42)\n",
        )
        .test("sample/1", "9 3 ab cd\n", "3.000000 abcd\n")
        // Would reject `large/1` (1000 is not small) if it reached the groups.
        .file(
            "data/secret/test_group.yaml",
            "input_validator_args:\n  integers: [small]\n",
        )
        .file(
            "data/secret/integers/test_group.yaml",
            "input_validator_args: [--integer]\n",
        )
        .test("secret/integers/1", "10 2 ba cd\n", "5.000000 bacd\n")
        // A folder inside a group belongs to it.
        .test("secret/integers/deep/2", "12 4 ab cd\n", "3.000000 abcd\n")
        .file(
            "data/secret/large/test_group.yaml",
            "output_validator_args: [float_tolerance, \"1e-2\"]\n",
        )
        .test("secret/large/1", "1000 3 ab cd\n", "333.333333 abcd\n")
        // The validators' own tests, each folder with its arguments.
        .file(
            "data/invalid_input/integers/test_group.yaml",
            "input_validator_args: [--integer]\n",
        )
        .file("data/invalid_input/integers/1.in", "10 2.5 ab cd\n")
        .file(
            "data/invalid_answer/strict/test_group.yaml",
            "answer_validator_args: [--forbid_abcd]\n",
        )
        .test("invalid_answer/strict/1", "10 3 ab cd\n", "3.333333 abcd\n")
        .file(
            "data/valid_output/test_group.yaml",
            "output_validator_args: [float_tolerance, \"1e-2\"]\n",
        )
        .test("valid_output/1", "10 3 ab cd\n", "3.333333 abcd\n")
        .file("data/valid_output/1.out", "3.33 abcd\n")
        .submission("accepted/exact.py", program("False"))
        // Right only where `large`'s tolerance holds: it rounds large ones.
        .submission("accepted/rough_when_large.py", program("x > 100"))
        .submission("wrong_answer/rough.py", program("True"))
        .build();
}

/// See: issue #34, item 2 (BAPCtools' `divsort`). The package grades: each
/// group's own arguments reach its tests, the folder inside a group
/// included (`--integer`), `large`'s tolerance only `large`'s tests, and
/// `secret`'s `small` none of its groups' tests; the validators' own tests
/// pass with their folders' arguments, BAPCtools' `answer_validator_args`
/// included.
#[test]
fn a_package_in_divsorts_shape_grades_each_test_with_its_own_groups_arguments() {
    let dir = Dir::new();
    divide(&dir);
    let graded = dir.judge(&["grade", "--package", "divide"]);
    let (out, err) = (graded.stdout(), graded.stderr());
    assert_eq!(graded.code(), 0, "{out}{err}");
    assert!(
        out.contains("3 of 3 submissions got their folder's verdict"),
        "{out}"
    );
    // The answer validator rejects the answer only with its arguments.
    dir.create("divide/data/invalid_answer/strict/test_group.yaml", "");
    let run = dir.judge(&["grade", "--package", "divide"]);
    run.expect_code(2);
    let said = run.stderr();
    assert!(said.contains("data/invalid_answer/strict/1.ans"), "{said}");
    assert!(said.contains("every answer validator"), "{said}");
}

/// See: issue #34, item 2. A test in a folder of a group gets the group's
/// arguments: a number that is not whole there is refused at load, naming
/// the test; the same holds for the group's own folder.
#[test]
fn a_folder_inside_a_group_takes_the_groups_arguments() {
    let dir = Dir::new();
    divide(&dir);
    dir.create("divide/data/secret/integers/deep/3.in", "7.5 3 ab cd\n");
    dir.create("divide/data/secret/integers/deep/3.ans", "2.500000 abcd\n");
    let run = dir.judge(&["grade", "--package", "divide"]);
    run.expect_code(2);
    let said = run.stderr();
    assert!(said.contains("data/secret/integers/deep/3.in"), "{said}");
    assert!(said.contains("not whole"), "{said}");
}

/// See: issue #34, item 2. `secret`'s arguments do not reach its groups
/// (the format: a file is not inherited); the group's own file does.
#[test]
fn secrets_file_does_not_reach_its_groups_but_a_groups_own_does() {
    let dir = Dir::new();
    divide(&dir);
    dir.create(
        "divide/data/secret/large/test_group.yaml",
        "output_validator_args: [float_tolerance, \"1e-2\"]\n\
         input_validator_args:\n  integers: [small]\n",
    );
    let run = dir.judge(&["grade", "--package", "divide"]);
    run.expect_code(2);
    let said = run.stderr();
    assert!(said.contains("data/secret/large/1.in"), "{said}");
    assert!(said.contains("not small"), "{said}");
}

/// See: issue #34, item 1 (BAPCtools' `divsort`, which nests files so).
/// A pass-fail package whose `test_group.yaml` files lie deeper than the
/// format allows grades, with one warning naming the files, each test
/// taking BAPCtools' inheritance: key by key, the nearest file at or above
/// its folder. `secret`'s `small` now reaches what sets no input arguments
/// of its own (`large` and `nested_2` hide it, as `nested_2` does in
/// `divsort`), the nested files' arguments reach their tests (`nested_2`'s
/// tolerance lets the rounding submission pass there), and
/// `secret/general`, no group, holds them.
#[test]
fn nesting_as_bapctools_does_grades_with_its_inheritance_and_one_warning() {
    let dir = Dir::new();
    divide(&dir);
    let case = |name: &str, input: &str, answer: &str| {
        dir.create(&format!("divide/data/{name}.in"), format!("{input}\n"));
        dir.create(&format!("divide/data/{name}.ans"), format!("{answer}\n"));
    };
    dir.create(
        "divide/data/secret/large/test_group.yaml",
        "output_validator_args: [float_tolerance, \"1e-2\"]\n\
         input_validator_args:\n  integers: []\n",
    );
    dir.create(
        "divide/data/secret/general/nested_1/test_group.yaml",
        "input_validator_args: [--integer]\n",
    );
    case("secret/general/nested_1/1", "12 4 ab cd", "3.000000 abcd");
    dir.create(
        "divide/data/secret/general/nested_2/test_group.yaml",
        "input_validator_args:\n  integers: []\n\
         output_validator_args: [float_tolerance, \"1e-2\"]\n",
    );
    case(
        "secret/general/nested_2/1",
        "1000 8 ab cd",
        "125.000000 abcd",
    );
    let graded = dir.judge(&["grade", "--package", "divide"]);
    let (out, err) = (graded.stdout(), graded.stderr());
    assert_eq!(graded.code(), 0, "{out}{err}");
    assert!(
        out.contains("3 of 3 submissions got their folder's verdict"),
        "{out}"
    );
    let warnings: Vec<&str> = err
        .lines()
        .filter(|line| line.starts_with("warning:"))
        .collect();
    assert_eq!(warnings.len(), 1, "{err}");
    for named in [
        "`data/secret/general/nested_1/test_group.yaml` (deeper than 2025-09 allows)",
        "`data/secret/general/nested_2/test_group.yaml` (deeper than 2025-09 allows)",
        "`data/secret/general` (in no test data group",
        "graded with BAPCtools' inheritance",
    ] {
        assert!(warnings[0].contains(named), "{named}: {err}");
    }

    // `nested_1`'s `--integer` reaches its tests.
    case("secret/general/nested_1/2", "7.5 3 ab cd", "2.500000 abcd");
    let run = dir.judge(&["grade", "--package", "divide"]);
    run.expect_code(2);
    let said = run.stderr();
    assert!(said.contains("data/secret/general/nested_1/2.in"), "{said}");
    assert!(said.contains("not whole"), "{said}");
    fs_err::remove_file(dir.path().join("divide/data/secret/general/nested_1/2.in")).unwrap();
    fs_err::remove_file(dir.path().join("divide/data/secret/general/nested_1/2.ans")).unwrap();

    // `secret`'s `small` reaches a folder that sets nothing itself.
    case("secret/general/3", "1000 4 ab cd", "250.000000 abcd");
    let run = dir.judge(&["grade", "--package", "divide"]);
    run.expect_code(2);
    let said = run.stderr();
    assert!(said.contains("data/secret/general/3.in"), "{said}");
    assert!(said.contains("not small"), "{said}");
}

/// See: issue #34, items 1 and 2. In a scoring package the layouts the
/// format forbids are still refused at load, naming the file and the key:
/// its scores need the format's groups, and BAPCtools scores nothing. A
/// `test_group.yaml` inside a group, one in a folder of `secret` that is no
/// group (BAPCtools' `divsort`), and a folder of `secret` without one
/// beside groups (BAPCtools' `generatorincludes`).
#[test]
fn a_scoring_package_nesting_as_the_format_forbids_is_refused_naming_the_file() {
    for (files, named, wanted) in [
        (
            vec![("divide/data/secret/integers/deep/test_group.yaml", "")],
            "data/secret/integers/deep/test_group.yaml`: `test_group.yaml`:",
            "is inside the test data group `secret/integers`; a group may hold folders but no \
             further groups",
        ),
        (
            vec![
                ("divide/data/secret/general/nested/test_group.yaml", ""),
                ("divide/data/secret/general/nested/1.in", "1 1 ab cd\n"),
                ("divide/data/secret/general/nested/1.ans", "1.000000 abcd\n"),
            ],
            "data/secret/general/nested/test_group.yaml`: `test_group.yaml`:",
            "is inside `data/secret/general`, which is no test data group",
        ),
        (
            vec![
                ("divide/data/secret/loose/1.in", "1 1 ab cd\n"),
                ("divide/data/secret/loose/1.ans", "1.000000 abcd\n"),
            ],
            "data/secret/loose`: `secret`:",
            "is a folder of `data/secret` without a `test_group.yaml`, but \
             `data/secret/integers` is a test data group",
        ),
    ] {
        let dir = Dir::new();
        divide(&dir);
        let yaml = dir
            .read("divide/problem.yaml")
            .replace("type: pass-fail", "type: scoring");
        dir.create("divide/problem.yaml", yaml);
        dir.create(
            "divide/data/secret/integers/test_group.yaml",
            "max_score: 50\ninput_validator_args: [--integer]\n",
        );
        dir.create(
            "divide/data/secret/large/test_group.yaml",
            "max_score: 50\noutput_validator_args: [float_tolerance, \"1e-2\"]\n",
        );
        for (name, text) in &files {
            dir.create(name, text);
        }
        let run = dir.judge(&["grade", "--package", "divide"]);
        let said = run.stderr();
        assert_eq!(run.code(), 2, "{files:?}: {said}");
        assert!(said.contains(named), "{files:?}: {said}");
        assert!(said.contains(wanted), "{files:?}: {said}");
        assert!(
            said.contains("a scoring one needs the format's test data groups"),
            "{files:?}: {said}"
        );
        assert!(!run.stdout().contains("submissions got"), "{files:?}");
    }
}

/// See: issue #34, item 2. A scoring 2025-09 package: a group's folder
/// counts toward the group's score, and a package without any
/// `test_group.yaml` has the format's default, `secret` summing its tests
/// to 100 (it had the legacy one, a point per test).
#[test]
fn a_groups_folders_score_with_it_and_no_files_give_the_formats_default() {
    let dir = Dir::new();
    PackageBuilder::kattis(&dir, "halving")
        .manifest(
            "problem_format_version: 2025-09\ntype: scoring\nname: Halving\n\
             uuid: 9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b\nlimits:\n  time_limit: 2\n",
        )
        .test("sample/1", "4\n", "2\n")
        .test("secret/easy/1", "8\n", "4\n")
        .test("secret/easy/deep/2", "10\n", "5\n")
        .test("secret/hard/1", "1000000\n", "500000\n")
        .file("data/secret/easy/test_group.yaml", "max_score: 40\n")
        .file("data/secret/hard/test_group.yaml", "max_score: 60\n")
        .submission("accepted/half.py", "print(int(input()) // 2)\n")
        // Wrong past 100: the easy group, deep folder included, only.
        .submission(
            "partially_accepted/small.py",
            "n = int(input())\nprint(n // 2 if n <= 100 else 0)\n",
        )
        .build();
    let graded = dir.judge(&["grade", "--package", "halving"]);
    let out = graded.stdout();
    assert_eq!(graded.code(), 0, "{out}{}", graded.stderr());
    assert!(
        out.contains("small.py: WA, score 40 of 100 (folder partially_accepted)"),
        "{out}"
    );
    // No files: `secret` sums its three tests to 100.
    for group in ["easy", "hard"] {
        fs_err::remove_file(
            dir.path()
                .join(format!("halving/data/secret/{group}/test_group.yaml")),
        )
        .unwrap();
    }
    let graded = dir.judge(&["grade", "--package", "halving", "--all-tests"]);
    let out = graded.stdout();
    assert_eq!(graded.code(), 0, "{out}{}", graded.stderr());
    assert!(out.contains("half.py: AC, score 100 of 100"), "{out}");
    assert!(
        out.contains("small.py: WA, score 66.67 of 100 (folder partially_accepted)"),
        "{out}"
    );
}
