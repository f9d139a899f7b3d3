//! Issue #34, item 3: per-group input validator arguments of a Kattis
//! package, on `tests/fixtures/kattis/oddsum` (the shape of problemtools'
//! `oddecho`: two subtasks whose inputs one validator checks with each
//! subtask's `input_validator_flags`).

use crate::support::{copy_fixture, Dir, PackageBuilder};

/// Copies the fixture `oddsum` into `dir/oddsum`.
fn oddsum(dir: &Dir) {
    copy_fixture(dir, "kattis/oddsum", "oddsum");
}

/// See: issue #34, item 3. The legacy `input_validator_flags` of each group
/// reach the validator (it refuses an input without a `small=` flag), and
/// the package grades:
/// the full solution 100, the subtask-1 one 50, both as their folders say.
#[test]
fn per_group_input_validator_flags_reach_the_validator_and_the_package_grades() {
    let dir = Dir::new();
    oddsum(&dir);
    let graded = dir.judge(&["grade", "--package", "oddsum"]);
    let out = graded.stdout();
    graded.expect_code(0);
    assert!(
        out.contains("2 of 2 submissions got their folder's verdict"),
        "{out}"
    );
    assert!(out.contains("parity.py: AC, score 100 of 100"), "{out}");
    assert!(
        out.contains("small_only.py: AC, score 50 of 100 (folder partially_accepted)"),
        "{out}"
    );
}

/// See: issue #34, item 3. A test in subtask 1 that only subtask 2's flags
/// allow is refused at load, naming the test: the group's flags, not
/// another group's, are the ones passed.
#[test]
fn a_test_that_breaks_its_own_groups_flags_is_refused_naming_it() {
    let dir = Dir::new();
    oddsum(&dir);
    dir.create("oddsum/data/secret/subtask1/3.in", "1\n5000\n");
    dir.create("oddsum/data/secret/subtask1/3.ans", "even\n");
    let run = dir.judge(&["grade", "--package", "oddsum"]);
    run.expect_code(2);
    let said = run.stderr();
    assert!(said.contains("data/secret/subtask1/3.in"), "{said}");
    assert!(said.contains("out of range for small=1"), "{said}");
    // The same input in subtask 2 is valid.
    fs_err::rename(
        dir.path().join("oddsum/data/secret/subtask1/3.in"),
        dir.path().join("oddsum/data/secret/subtask2/3.in"),
    )
    .unwrap();
    fs_err::rename(
        dir.path().join("oddsum/data/secret/subtask1/3.ans"),
        dir.path().join("oddsum/data/secret/subtask2/3.ans"),
    )
    .unwrap();
    dir.judge(&["grade", "--package", "oddsum"]).expect_code(0);
}

/// See: issue #34, items 2 and 3. 2025-09: `input_validator_args` of
/// `test_group.yaml`, as a list and as a map by the validator's name, each
/// group's its own: as the format says, `secret`'s file is not inherited
/// by its test data groups.
#[test]
fn a_2025_09_package_passes_input_validator_args_by_group() {
    let dir = Dir::new();
    oddsum(&dir);
    for file in [
        "data/testdata.yaml",
        "data/sample/testdata.yaml",
        "data/secret/testdata.yaml",
        "data/secret/subtask1/testdata.yaml",
        "data/secret/subtask2/testdata.yaml",
    ] {
        fs_err::remove_file(dir.path().join("oddsum").join(file)).unwrap();
    }
    let yaml = dir
        .read("oddsum/problem.yaml")
        .replace("2023-07-draft", "2025-09")
        .replace(
            "name: Odd sum",
            "name: Odd sum\nsource:\n  name: judge tests",
        )
        .replace("source: judge tests\n", "")
        .replace("  time_limit: 2", "  time_limit: 2\n");
    dir.create("oddsum/problem.yaml", yaml);
    dir.create(
        "oddsum/data/sample/test_group.yaml",
        "input_validator_args: [small=0]\n",
    );
    // `subtask2` sets none: `secret`'s do not reach it, so its tests get
    // no `small=` flag and the validator refuses the first.
    dir.create(
        "oddsum/data/secret/test_group.yaml",
        "input_validator_args: [small=0]\n",
    );
    dir.create(
        "oddsum/data/secret/subtask1/test_group.yaml",
        "max_score: 50\nscore_aggregation: min\ninput_validator_args:\n  validator: [small=1]\n",
    );
    dir.create(
        "oddsum/data/secret/subtask2/test_group.yaml",
        "max_score: 50\nscore_aggregation: min\n",
    );
    let run = dir.judge(&["grade", "--package", "oddsum"]);
    run.expect_code(2);
    let said = run.stderr();
    assert!(said.contains("data/secret/subtask2/1.in"), "{said}");
    assert!(
        said.contains("the flag small=0 or small=1 is required"),
        "{said}"
    );
    dir.create(
        "oddsum/data/secret/subtask2/test_group.yaml",
        "max_score: 50\nscore_aggregation: min\ninput_validator_args: [small=0]\n",
    );
    let graded = dir.judge(&["grade", "--package", "oddsum"]);
    assert_eq!(graded.code(), 0, "{}{}", graded.stdout(), graded.stderr());
    dir.create("oddsum/data/secret/subtask1/3.in", "1\n5000\n");
    dir.create("oddsum/data/secret/subtask1/3.ans", "even\n");
    let run = dir.judge(&["grade", "--package", "oddsum"]);
    run.expect_code(2);
    assert!(
        run.stderr().contains("out of range for small=1"),
        "{}",
        run.stderr()
    );
    // See: issue #34 (break-it finding 8). A misspelt validator name in
    // the map is refused, naming the file, the line and the key, rather
    // than leaving the validator without its arguments.
    fs_err::remove_file(dir.path().join("oddsum/data/secret/subtask1/3.in")).unwrap();
    fs_err::remove_file(dir.path().join("oddsum/data/secret/subtask1/3.ans")).unwrap();
    dir.create(
        "oddsum/data/secret/subtask1/test_group.yaml",
        "max_score: 50\nscore_aggregation: min\ninput_validator_args:\n  validatr: [small=1]\n",
    );
    let run = dir.judge(&["grade", "--package", "oddsum"]);
    run.expect_code(2);
    let said = run.stderr();
    assert!(
        said.contains("data/secret/subtask1/test_group.yaml")
            && said.contains("line 4: `input_validator_args.validatr`: `validatr` names no input validator of the package (it has: `validator`;")
            && said.contains("did you mean `validator`?"),
        "{said}"
    );
}

/// A pass-fail 2025-09 package in the shape of BAPCtools' `fltcmp`: the
/// default output validator's tolerance in `data/test_group.yaml`, and
/// group files in `secret` that set no score.
fn halves(dir: &Dir) {
    let mut package = PackageBuilder::kattis(dir, "halves")
        .manifest(
            "problem_format_version: 2025-09\ntype: pass-fail\nname: Halves\n\
             uuid: 4a1f7c2e-0d5b-4c1e-9e2f-3b6a8d9c0e11\nlimits:\n  time_limit: 2\n",
        )
        .file(
            "data/test_group.yaml",
            "output_validator_args: [float_tolerance, 1e-3]\n",
        )
        .test("sample/1", "3\n", "1.5\n");
    for (group, input, answer) in [("small", "5\n", "2.5\n"), ("large", "1001\n", "500.5\n")] {
        package = package
            .file(
                &format!("data/secret/{group}/test_group.yaml"),
                "input_validator_args: []\n",
            )
            .test(&format!("secret/{group}/1"), input, answer);
    }
    package
        // Off by 1e-4: within the tolerance of `data/test_group.yaml` only.
        .submission("accepted/near.py", "print(int(input()) / 2 + 0.0001)\n")
        .submission("wrong_answer/floor.py", "print(int(input()) // 2)\n")
        .build();
}

/// See: issue #34, item 2. A pass-fail 2025-09 package with
/// `data/test_group.yaml` and group files was refused at load (scoring
/// rules were applied to it); now it grades, the tolerance set in `data`
/// reaching the tests of every group below it.
#[test]
fn a_pass_fail_2025_09_package_with_test_group_files_grades() {
    let dir = Dir::new();
    halves(&dir);
    let graded = dir.judge(&["grade", "--package", "halves"]);
    let out = graded.stdout();
    assert_eq!(graded.code(), 0, "{out}{}", graded.stderr());
    assert!(
        out.contains("2 of 2 submissions got their folder's verdict"),
        "{out}"
    );
    // Without the inherited tolerance the near answer is wrong.
    dir.create("halves/data/test_group.yaml", "");
    let graded = dir.judge(&["grade", "--package", "halves"]);
    assert_eq!(graded.code(), 1, "{}{}", graded.stdout(), graded.stderr());
}

/// See: issue #34 (BAPCtools' `divsort`). Groups whose output validator
/// arguments differ were refused at load; now each test's group (or its
/// own `NAME.yaml`) gives the default output validator its flags: a
/// tolerance too tight for the near answer in `secret/large` makes it WA
/// there, and the test's own file loosening it again makes it AC.
#[test]
fn output_validator_args_differ_by_group_and_by_test() {
    let dir = Dir::new();
    halves(&dir);
    dir.create(
        "halves/data/secret/large/test_group.yaml",
        "output_validator_args: [float_tolerance, 1e-9]\n",
    );
    let graded = dir.judge(&["grade", "--package", "halves"]);
    let (out, err) = (graded.stdout(), graded.stderr());
    assert_eq!(graded.code(), 1, "{out}{err}");
    assert!(
        out.contains("1 of 2 submissions got their folder's verdict"),
        "{out}"
    );
    assert!(out.contains("secret/large/1"), "{out}");
    assert!(!out.contains("secret/small/1"), "{out}");
    dir.create(
        "halves/data/secret/large/1.yaml",
        "output_validator_args: [float_tolerance, 1e-3]\n",
    );
    let graded = dir.judge(&["grade", "--package", "halves"]);
    assert_eq!(graded.code(), 0, "{}{}", graded.stdout(), graded.stderr());
    // Flags the default output validator does not know are refused at
    // load, naming the group's folder and the test.
    dir.create(
        "halves/data/secret/large/1.yaml",
        "output_validator_args: [float_tolerance]\n",
    );
    let run = dir.judge(&["grade", "--package", "halves"]);
    run.expect_code(2);
    let said = run.stderr();
    assert!(said.contains("data/secret/large"), "{said}");
    assert!(said.contains("secret/large/1"), "{said}");
    assert!(said.contains("output_validator_args"), "{said}");
}

/// See: issue #34 (BAPCtools' `generatorincludes`). A package's own output
/// validator gets each group's `output_validator_args` after its three
/// files: `shout` makes it demand the answer in capitals, in that group
/// only.
#[test]
fn a_package_output_validator_gets_each_groups_arguments() {
    let dir = Dir::new();
    PackageBuilder::kattis(&dir, "shout")
        .manifest(
            "problem_format_version: 2025-09\ntype: pass-fail\nname: Shout\n\
             uuid: 0b7e3c52-9a4d-4f61-8c2e-5d1f0a7b9e33\nlimits:\n  time_limit: 2\n",
        )
        .file(
            "output_validator/validate.py",
            "import sys\n\
             answer = open(sys.argv[2]).read().split()\n\
             if 'shout' in sys.argv[4:]:\n    answer = [word.upper() for word in answer]\n\
             sys.exit(42 if sys.stdin.read().split() == answer else 43)\n",
        )
        .test("sample/1", "hello quiet\n", "hello\n")
        .test("secret/quiet/1", "judge quiet\n", "judge\n")
        .file(
            "data/secret/loud/test_group.yaml",
            "output_validator_args: [shout]\n",
        )
        .test("secret/loud/1", "judge loud\n", "judge\n")
        .file(
            "data/secret/quiet/test_group.yaml",
            "output_validator_args: []\n",
        )
        .submission(
            "accepted/mood.py",
            "word, mood = input().split()\nprint(word.upper() if mood == 'loud' else word)\n",
        )
        .submission("wrong_answer/plain.py", "print(input().split()[0])\n")
        .submission(
            "wrong_answer/always_loud.py",
            "print(input().split()[0].upper())\n",
        )
        .build();
    let graded = dir.judge(&["grade", "--package", "shout", "--all-tests"]);
    let (out, err) = (graded.stdout(), graded.stderr());
    assert_eq!(graded.code(), 0, "{out}{err}");
    assert!(
        out.contains("3 of 3 submissions got their folder's verdict"),
        "{out}"
    );
    // The output validator's self-tests get their group's arguments too:
    // a capital output is valid under `shout` (divsort's `valid_output`).
    dir.create(
        "shout/data/valid_output/test_group.yaml",
        "output_validator_args: [shout]\n",
    );
    dir.create("shout/data/valid_output/1.in", "word loud\n");
    dir.create("shout/data/valid_output/1.ans", "word\n");
    dir.create("shout/data/valid_output/1.out", "WORD\n");
    let graded = dir.judge(&["grade", "--package", "shout"]);
    assert_eq!(graded.code(), 0, "{}{}", graded.stdout(), graded.stderr());
    dir.create("shout/data/valid_output/test_group.yaml", "");
    let run = dir.judge(&["grade", "--package", "shout"]);
    run.expect_code(2);
    assert!(
        run.stderr().contains("valid_output/1.out"),
        "{}",
        run.stderr()
    );
}
