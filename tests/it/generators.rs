//! `judge gen --package DIR`: a Kattis package's `data/` built from its
//! `generators/generators.yaml` as BAPCtools builds it (issue #29).

use crate::support::{copy_fixture, repository, Dir, PackageBuilder};
use std::collections::BTreeMap;
use std::path::Path;

/// Every file under `root`, by relative path.
fn tree(root: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(root)
        .into_iter()
        .map(Result::unwrap)
        .filter(|entry| entry.file_type().is_file())
        .map(|entry| {
            let relative = entry.path().strip_prefix(root).unwrap();
            (
                relative.to_string_lossy().into_owned(),
                fs_err::read(entry.path()).unwrap(),
            )
        })
        .collect()
}

/// BAPCtools' seed, computed by Python's own `hashlib` (an independent
/// writing of `generate.py`'s definition): `int(sha512(salt [+ ":" +
/// str(count - 1)] + command.strip()), 16) % 2**31`.
fn python_seed(salt: &str, count: i64, command: &str) -> String {
    let script = "import hashlib, sys\n\
        salt, count, command = sys.argv[1], int(sys.argv[2]), sys.argv[3]\n\
        text = salt + (f':{count - 1}' if count != 1 else '') + command.strip()\n\
        print(int(hashlib.sha512(text.encode()).hexdigest(), 16) % 2**31)\n";
    let output = std::process::Command::new("python3")
        .args(["-c", script, salt, &count.to_string(), command])
        .output()
        .expect("python3 runs");
    assert!(output.status.success());
    String::from_utf8(output.stdout).unwrap().trim().to_owned()
}

#[test]
fn builds_data_with_bapctools_names_and_seeds() {
    let dir = Dir::new();
    copy_fixture(&dir, "generators/sums", "sums");
    let run = dir.judge(&["gen", "--package", "sums"]);
    run.expect_code(0);
    assert!(
        run.stderr().contains("note: `visualizer` is ignored"),
        "{}",
        run.transcript()
    );
    let data = tree(&dir.path().join("sums/data"));
    let names: Vec<&str> = data.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "invalid_input/not_a_number.in",
            "invalid_input/test_group.yaml",
            "invalid_input/too_big.in",
            "invalid_output/off_by_one.ans",
            "invalid_output/off_by_one.in",
            "invalid_output/off_by_one.out",
            "sample/01.ans",
            "sample/01.in",
            "sample/02-copied.ans",
            "sample/02-copied.in",
            "secret/03-seeded.ans",
            "secret/03-seeded.in",
            "secret/04-salted.ans",
            "secret/04-salted.in",
            "secret/05-counted-1.ans",
            "secret/05-counted-1.in",
            "secret/06-counted-2.ans",
            "secret/06-counted-2.in",
            "secret/07-counted-3.ans",
            "secret/07-counted-3.in",
            "secret/08-ranged--1.ans",
            "secret/08-ranged--1.in",
            "secret/09-ranged-00.ans",
            "secret/09-ranged-00.in",
            "secret/1-group/02-copied.ans",
            "secret/1-group/02-copied.in",
            "secret/1-group/a.ans",
            "secret/1-group/a.in",
            "secret/1-group/b.ans",
            "secret/1-group/b.in",
            "secret/10-ranged-01.ans",
            "secret/10-ranged-01.in",
            "secret/11-random.ans",
            "secret/11-random.in",
            "secret/test_group.yaml",
            "valid_output/spaced.ans",
            "valid_output/spaced.in",
            "valid_output/spaced.out",
        ]
    );
    let text = |name: &str| String::from_utf8(data[name].clone()).unwrap();
    assert_eq!(
        text("secret/03-seeded.in"),
        format!("{}\n", python_seed("", 1, "echo.py {seed}"))
    );
    assert_eq!(
        text("secret/04-salted.in"),
        format!("{}\n", python_seed("pepper", 1, "echo.py {seed:1}"))
    );
    for count in 1..=3 {
        let command = format!("echo.py {{seed:2}} {count}");
        assert_eq!(
            text(&format!("secret/0{}-counted-{count}.in", count + 4)),
            format!("{} {count}\n", python_seed("", count, &command))
        );
    }
    // The solution answers what the yaml does not; the yaml's own files
    // get a final newline; `copy` takes every file there is.
    assert_eq!(text("sample/01.in"), "1 2 3\n");
    assert_eq!(text("sample/01.ans"), "6\n");
    assert_eq!(text("secret/1-group/a.ans"), "9\n");
    assert_eq!(text("sample/02-copied.ans"), "30\n");
    assert_eq!(
        data["secret/1-group/02-copied.in"],
        data["sample/02-copied.in"]
    );
}

#[test]
fn the_same_yaml_gives_the_same_bytes_and_a_second_run_makes_nothing() {
    let dir = Dir::new();
    copy_fixture(&dir, "generators/sums", "sums");
    dir.judge(&["gen", "--package", "sums"]).expect_code(0);
    let first = tree(&dir.path().join("sums/data"));

    let elsewhere = Dir::new();
    copy_fixture(&elsewhere, "generators/sums", "sums");
    elsewhere
        .judge(&["gen", "--package", "sums"])
        .expect_code(0);
    assert_eq!(tree(&elsewhere.path().join("sums/data")), first);

    let again = dir.judge(&["gen", "--package", "sums"]);
    again.expect_code(0);
    assert!(
        again
            .stderr()
            .contains("(0 made, 17 from the cache, 1 included)")
            && again.stderr().contains("is up to date"),
        "{}",
        again.transcript()
    );
    assert_eq!(tree(&dir.path().join("sums/data")), first);

    // One changed entry is made again, alone.
    let yaml = dir.path().join("sums/generators/generators.yaml");
    let text = fs_err::read_to_string(&yaml).unwrap();
    fs_err::write(&yaml, text.replace("echo.py 7 8", "echo.py 7 9")).unwrap();
    let changed = dir.judge(&["gen", "--package", "sums"]);
    changed.expect_code(0);
    assert!(
        changed
            .stderr()
            .contains("(1 made, 16 from the cache, 1 included)")
            && changed.stderr().contains("written"),
        "{}",
        changed.transcript()
    );
    assert_eq!(dir.read("sums/data/secret/1-group/b.ans"), "16\n");
}

/// A package whose generator `gen.py` is `program`, with one case.
fn one_case_package(dir: &Dir, program: &str, extra_yaml: &str) {
    PackageBuilder::kattis(dir, "p")
        .manifest(
            "problem_format_version: 2025-09\nname: P\nlimits:\n  validation_time: 1\n",
        )
        .file(
            "generators/generators.yaml",
            format!(
                "solution: /submissions/accepted/echo.py\ndata:\n  secret:\n    data:\n      only: gen.py {{seed}}\n{extra_yaml}"
            ),
        )
        .file("generators/gen.py", program)
        .submission(
            "accepted/echo.py",
            "import sys\nsys.stdout.write(sys.stdin.read())\n",
        )
        .build();
}

#[test]
fn a_looping_generator_is_stopped_and_data_is_left_alone() {
    let dir = Dir::new();
    one_case_package(&dir, "while True:\n    pass\n", "");
    dir.create("p/data/secret/old.in", "kept\n");
    let run = dir.judge(&["gen", "--package", "p"]);
    run.expect_code(1);
    let stderr = run.stderr();
    assert!(
        stderr.contains("error: data/secret/only: generator `gen.py` timed out")
            && stderr.contains("`data/` is left as it was"),
        "{}",
        run.transcript()
    );
    assert_eq!(dir.read("p/data/secret/old.in"), "kept\n");
    assert!(!dir.path().join("p/data/secret/only.in").exists());
    assert!(crate::support::processes_mentioning(dir.path()).is_empty());
}

#[test]
fn a_generator_that_is_not_deterministic_fails_its_case() {
    let dir = Dir::new();
    one_case_package(&dir, "import os\nprint(os.urandom(8).hex())\n", "");
    let run = dir.judge(&["gen", "--package", "p"]);
    run.expect_code(1);
    assert!(
        run.stderr()
            .contains("generator `gen.py` is not deterministic"),
        "{}",
        run.transcript()
    );
    assert!(!dir.path().join("p/data").exists());
}

#[test]
fn a_generator_cannot_read_the_solutions_or_write_outside_its_folder() {
    let dir = Dir::new();
    let package = dir.path().join("p");
    let program = format!(
        "import sys\n\
         found = []\n\
         try:\n    found.append(open({solution:?}).read())\n\
         except OSError:\n    found.append('unreadable')\n\
         try:\n    open({outside:?}, 'w').write('x')\n    found.append('wrote')\n\
         except OSError:\n    found.append('unwritable')\n\
         print(' '.join(word for text in found for word in text.split()))\n",
        solution = package
            .join("submissions/accepted/echo.py")
            .display()
            .to_string(),
        outside = package.join("generators/planted.txt").display().to_string(),
    );
    one_case_package(&dir, &program, "");
    let run = dir.judge(&["gen", "--package", "p"]);
    run.expect_code(0);
    assert_eq!(dir.read("p/data/secret/only.in"), "unreadable unwritable\n");
    assert!(!package.join("generators/planted.txt").exists());
}

#[test]
fn an_invalid_input_the_validator_accepts_fails() {
    let dir = Dir::new();
    one_case_package(
        &dir,
        "print(1)\n",
        "  invalid_input:\n    data:\n      fine: {in: '5'}\n",
    );
    dir.create(
        "p/input_validators/validate.py",
        "import sys\nsys.exit(42 if sys.stdin.read().strip().isdigit() else 43)\n",
    );
    let run = dir.judge(&["gen", "--package", "p"]);
    run.expect_code(1);
    assert!(
        run.stderr().contains(
            "error: data/invalid_input/fine: is under `invalid_input`, but the input validator \
             accepts its input"
        ),
        "{}",
        run.transcript()
    );
}

#[test]
fn bad_yaml_is_an_error_naming_file_line_and_key() {
    let dir = Dir::new();
    one_case_package(
        &dir,
        "print(1)\n",
        "      two:\n        generat: gen.py 2\n",
    );
    let run = dir.judge(&["gen", "--package", "p"]);
    run.expect_code(2);
    let stderr = run.stderr();
    assert!(
        stderr.contains("generators/generators.yaml")
            && stderr.contains("line 7")
            && stderr.contains("unknown field `generat`"),
        "{}",
        run.transcript()
    );

    one_case_package(&dir, "print(1)\n", "    include:\n      - nowhere\n");
    let run = dir.judge(&["gen", "--package", "p"]);
    run.expect_code(2);
    assert!(
        run.stderr()
            .contains("line 6: `data.secret.include`: `nowhere` names no test case or group"),
        "{}",
        run.transcript()
    );
    assert!(!dir.path().join("p/data").exists());
}

#[test]
fn a_valid_output_is_checked_with_its_groups_output_validator_args() {
    let dir = Dir::new();
    let close = "  valid_output:\n    test_group.yaml:\n      output_validator_args: [float_tolerance, '0.01']\n    data:\n      close: {in: '2', ans: '2', out: '2.001'}\n";
    one_case_package(&dir, "print(1)\n", close);
    dir.judge(&["gen", "--package", "p"]).expect_code(0);
    assert_eq!(dir.read("p/data/valid_output/close.out"), "2.001\n");

    let far = close.replace("2.001", "2.1");
    one_case_package(&dir, "print(1)\n", &far);
    let run = dir.judge(&["gen", "--package", "p"]);
    run.expect_code(1);
    assert!(
        run.stderr()
            .contains("is under `valid_output`, but the output validator rejects its `.out`"),
        "{}",
        run.transcript()
    );
}

/// BAPCtools' own `bt generate` and `judge gen --package` write the same
/// `data/` for the fixture, byte for byte (BAPCtools links an included
/// case where the judge copies it; the comparison reads through links).
#[test]
#[ignore = "needs BAPCtools: .ci/run installs it into target/bapctools and runs the ignored tests"]
fn writes_the_bytes_bapctools_writes() {
    let bt = repository().join("target/bapctools/bin/bt");
    assert!(
        bt.is_file(),
        "BAPCtools is not installed at `{}` (`.ci/run` installs it)",
        bt.display()
    );
    let theirs = Dir::new();
    copy_fixture(&theirs, "generators/sums", "sums");
    let output = std::process::Command::new(&bt)
        .args(["generate", "--no-bar"])
        .current_dir(theirs.path().join("sums"))
        .env("HOME", theirs.path())
        // Under `CI` or `GITLAB_CI`, `bt` keeps its colour codes even when
        // its output is not a terminal (CI runs with `CI=true`).
        .env_remove("CI")
        .env_remove("GITLAB_CI")
        .output()
        .unwrap();
    // `bt` exits 1 on its warnings (no statement, no answer validator);
    // its summary says whether every case was generated. Colour codes are
    // dropped before reading it, should some other variable bring them back.
    let summary = String::from_utf8_lossy(&strip_ansi_escapes::strip(&output.stderr)).into_owned();
    assert!(
        summary.contains("18 cases generated (unique: 17)"),
        "{output:?}"
    );
    let ours = Dir::new();
    copy_fixture(&ours, "generators/sums", "sums");
    ours.judge(&["gen", "--package", "sums"]).expect_code(0);
    let read = |root: &Path| -> BTreeMap<String, Vec<u8>> {
        walkdir::WalkDir::new(root)
            .follow_links(true)
            .into_iter()
            .map(Result::unwrap)
            .filter(|entry| entry.file_type().is_file())
            .map(|entry| {
                let relative = entry.path().strip_prefix(root).unwrap();
                let bytes = fs_err::read(entry.path()).unwrap();
                (relative.to_string_lossy().into_owned(), bytes)
            })
            .collect()
    };
    let theirs = read(&theirs.path().join("sums/data"));
    assert_eq!(theirs.len(), 38, "{:?}", theirs.keys());
    assert_eq!(read(&ours.path().join("sums/data")), theirs);
}

/// See: issue #34. `grade --package` builds `data/` from
/// `generators.yaml` first, as BAPCtools' `bt run` does, says so on
/// stderr, and a second grade takes every case from the cache.
#[test]
fn grade_package_builds_data_from_generators_yaml_first() {
    let dir = Dir::new();
    copy_fixture(&dir, "generators/sums", "sums");
    assert!(!dir.path().join("sums/data").exists());
    let first = dir.judge(&["grade", "--package", "sums"]);
    first.expect_code(0);
    assert!(
        first
            .stderr()
            .contains("generators.yaml: 18 test cases (17 made, 0 from the cache, 1 included)"),
        "{}",
        first.transcript()
    );
    assert!(dir.path().join("sums/data/secret/1-group/b.in").is_file());
    let second = dir.judge(&["grade", "--package", "sums"]);
    second.expect_code(0);
    assert!(
        second
            .stderr()
            .contains("(0 made, 17 from the cache, 1 included)")
            && second.stderr().contains("is up to date"),
        "{}",
        second.transcript()
    );
    assert_eq!(first.stdout(), second.stdout());
}

/// See: issue #34. A case that cannot be made stops `grade --package`
/// before anything runs (exit 2), naming the case, when the package has
/// no `data/`; with one, it is graded on that `data/`, left as it was, with
/// a warning naming the case.
#[test]
fn grade_package_refuses_data_a_generator_cannot_make() {
    let dir = Dir::new();
    one_case_package(&dir, "import sys\nsys.exit(3)\n", "");
    let run = dir.judge(&["grade", "--package", "p"]);
    run.expect_code(2);
    let stderr = run.stderr();
    assert!(
        stderr.contains("generators.yaml")
            && stderr.contains("data/secret/only")
            && stderr.contains("no `data/` to grade on"),
        "{}",
        run.transcript()
    );
    assert!(run.stdout().is_empty(), "{}", run.transcript());

    dir.create("p/data/secret/old.in", "kept\n");
    dir.create("p/data/secret/old.ans", "kept\n");
    let graded = dir.judge(&["grade", "--package", "p"]);
    graded.expect_code(0);
    let stderr = graded.stderr();
    assert!(
        stderr.contains("warning: 1 test cases of")
            && stderr.contains("data/secret/only")
            && stderr.contains("grading the tests already in"),
        "{}",
        graded.transcript()
    );
    assert_eq!(dir.read("p/data/secret/old.in"), "kept\n");
    assert!(graded
        .stdout()
        .contains("1 of 1 submissions got their folder's verdict"));
}

/// See: issue #33. Building `data/` before a grade is the Kattis format's
/// step: a package of ours (`problem.toml`) with a `generators.yaml`, here
/// one that cannot be read, is graded on its own tests, and nothing is
/// built or said of the yaml.
#[test]
fn grade_package_builds_data_only_for_a_kattis_package() {
    let dir = Dir::new();
    dir.judge(&["new", "hello"]).expect_code(0);
    dir.create(
        "problems/hello/generators/generators.yaml",
        "data: [not, a, map\n",
    );
    let run = dir.judge(&["grade", "--package", "problems/hello"]);
    run.expect_code(0);
    assert!(
        !run.stderr().contains("generators.yaml"),
        "{}",
        run.transcript()
    );
    assert!(!dir.path().join("problems/hello/data").exists());
    assert!(!dir.path().join("problems/hello/.judge").exists());

    // The same yaml in a Kattis package is read, and refused.
    dir.create("p/generators/generators.yaml", "data: [not, a, map\n");
    dir.create(
        "p/problem.yaml",
        "problem_format_version: 2025-09\nname: P\n",
    );
    let refused = dir.judge(&["grade", "--package", "p"]);
    refused.expect_code(2);
    assert!(
        refused.stderr().contains("generators.yaml"),
        "{}",
        refused.transcript()
    );
}

/// See: issue #34 (BAPCtools' `alternativeencryption`): `in.download:
/// {link: in}` writes a copy of the case's `.in`; a link to a file the
/// case does not make fails that case, naming it.
#[test]
fn a_link_entry_writes_a_copy_of_the_linked_file() {
    let dir = Dir::new();
    PackageBuilder::kattis(&dir, "p")
        .manifest("problem_format_version: 2025-09\nname: P\n")
        .file(
            "generators/generators.yaml",
            "solution: /submissions/accepted/echo.py\ndata:\n  sample:\n    data:\n      - '':\n          in: |\n            1 2\n          in.download: {link: in}\n          ans.download: {link: ans}\n  secret:\n    data:\n      - x:\n          in: '3'\n",
        )
        .submission(
            "accepted/echo.py",
            "import sys\nsys.stdout.write(sys.stdin.read())\n",
        )
        .build();
    let made = dir.judge(&["gen", "--package", "p"]);
    made.expect_code(0);
    assert_eq!(dir.read("p/data/sample/1.in.download"), "1 2\n");
    assert_eq!(dir.read("p/data/sample/1.ans.download"), "1 2\n");
    assert!(!dir.path().join("p/data/sample/1.in.download").is_symlink());

    let yaml = dir.path().join("p/generators/generators.yaml");
    let text = fs_err::read_to_string(&yaml).unwrap();
    fs_err::write(&yaml, text.replace("{link: ans}", "{link: out}")).unwrap();
    let failed = dir.judge(&["gen", "--package", "p"]);
    failed.expect_code(1);
    assert!(
        failed
            .stderr()
            .contains("`ans.download: {link: out}` links to a file the case does not make"),
        "{}",
        failed.transcript()
    );
}

/// An input validator that takes `--max N` and rejects a number above N.
const MAX_VALIDATOR: &str = "import sys\n\
    args = sys.argv[1:]\n\
    n = int(sys.stdin.read())\n\
    if '--max' in args and n > int(args[args.index('--max') + 1]):\n    \
    print(f'{n} is above the maximum', file=sys.stderr)\n    sys.exit(43)\n\
    sys.exit(42)\n";

/// See: issue #34, item 3. The cache key holds the validators' arguments: a
/// changed `input_validator_args` in a group's `test_group.yaml` checks the
/// case again (it was taken from the cache, unchecked, and `data/` written
/// with an input the validator now rejects).
#[test]
fn changed_validator_arguments_check_a_cached_case_again() {
    let dir = Dir::new();
    let with_max =
        |max: &str| format!("    test_group.yaml:\n      input_validator_args: [--max, '{max}']\n");
    one_case_package(&dir, "print(5)\n", &with_max("10"));
    dir.create("p/input_validators/validate.py", MAX_VALIDATOR);
    let first = dir.judge(&["gen", "--package", "p"]);
    first.expect_code(0);
    assert!(
        first.stderr().contains("(1 made, 0 from the cache"),
        "{}",
        first.transcript()
    );
    let same = dir.judge(&["gen", "--package", "p"]);
    same.expect_code(0);
    assert!(
        same.stderr().contains("(0 made, 1 from the cache"),
        "{}",
        same.transcript()
    );

    one_case_package(&dir, "print(5)\n", &with_max("3"));
    let tighter = dir.judge(&["gen", "--package", "p"]);
    tighter.expect_code(1);
    assert!(
        tighter
            .stderr()
            .contains("error: data/secret/only: the input validator rejects its input"),
        "{}",
        tighter.transcript()
    );

    // The case's own `.yaml` overrides the group's, and is part of the key
    // as well.
    let own = format!(
        "{}    data:\n      only:\n        generate: gen.py {{seed}}\n        yaml:\n          \
         input_validator_args: [--max, '7']\n",
        with_max("3")
    );
    dir.create(
        "p/generators/generators.yaml",
        format!("solution: /submissions/accepted/echo.py\ndata:\n  secret:\n{own}"),
    );
    let overridden = dir.judge(&["gen", "--package", "p"]);
    overridden.expect_code(0);
    assert_eq!(dir.read("p/data/secret/only.in"), "5\n");
}

/// A package whose `secret` caps inputs at 3, and whose group `big` (its
/// own file setting another key) holds a 5.
fn capped_package(dir: &Dir, more: &str) {
    PackageBuilder::kattis(dir, "p")
        .manifest(
            "problem_format_version: 2025-09\ntype: pass-fail\nname: P\nlimits:\n  \
             validation_time: 1\n",
        )
        .file(
            "generators/generators.yaml",
            format!(
                "solution: /submissions/accepted/echo.py\ndata:\n  sample:\n    data:\n      \
                 one: {{in: '1'}}\n  secret:\n    test_group.yaml:\n      input_validator_args: \
                 [--max, '3']\n    data:\n      big:\n        test_group.yaml:\n          \
                 output_validator_args: []\n        data:\n          five: {{in: '5'}}\n{more}"
            ),
        )
        .file("input_validators/validate.py", MAX_VALIDATOR)
        .submission(
            "accepted/echo.py",
            "import sys\nsys.stdout.write(sys.stdin.read())\n",
        )
        .build();
}

/// See: issue #34, item 4. The build checks a case with the arguments the
/// package is graded with: under the format, `secret`'s file does not reach
/// its group `big`, so its 5 is valid both when built and when graded (the
/// build used to apply `secret`'s `--max 3` and refuse it). Once a file
/// lies deeper than the format allows, both read the tree as BAPCtools
/// does, and `secret`'s cap reaches `big` in both.
#[test]
fn generators_check_cases_with_the_arguments_loading_gives_them() {
    let dir = Dir::new();
    capped_package(&dir, "");
    let graded = dir.judge(&["grade", "--package", "p"]);
    graded.expect_code(0);
    assert!(
        graded
            .stdout()
            .contains("1 of 1 submissions got their folder's verdict"),
        "{}",
        graded.transcript()
    );
    assert!(
        !graded.stderr().contains("warning:"),
        "{}",
        graded.transcript()
    );

    let nested = "      other:\n        data:\n          deep:\n            test_group.yaml:\n              \
                  input_validator_args: [--max, '9']\n            data:\n              \
                  two: {in: '2'}\n";
    capped_package(&dir, nested);
    let run = dir.judge(&["gen", "--package", "p"]);
    run.expect_code(1);
    assert!(
        run.stderr()
            .contains("error: data/secret/big/five: the input validator rejects its input"),
        "{}",
        run.transcript()
    );
    // `deep`'s own cap is its tests': 2 passes under 9.
    assert!(
        !run.stderr().contains("data/secret/other/deep/two"),
        "{}",
        run.transcript()
    );
}

/// See: issue #29 break-it (BAPCtools' `alternativeencryption`): `gen`
/// deleted the committed `data/sample/01.interaction`, which BAPCtools
/// writes by running the solution and the judge does not make. A committed
/// file of a case the judge does not make (`.interaction`, `.hint`,
/// `.png`) is kept byte for byte, and said to be; a file the judge makes
/// is written again.
#[test]
fn gen_keeps_committed_files_it_does_not_make() {
    let dir = Dir::new();
    one_case_package(&dir, "import sys\nprint(int(sys.argv[1]) % 100)\n", "");
    let kept = [
        ("p/data/secret/only.interaction", "<1\n>1\n"),
        ("p/data/secret/only.hint", "a hint\n"),
        ("p/data/secret/only.png", "\u{1}PNG"),
    ];
    for (path, text) in kept {
        dir.create(path, text);
    }
    dir.create("p/data/secret/only.in", "stale\n");
    let run = dir.judge(&["gen", "--package", "p"]);
    run.expect_code(0);
    for (path, text) in kept {
        assert_eq!(dir.read(path), text, "{}", run.transcript());
        let relative = path.trim_start_matches("p/");
        assert!(
            run.stderr().contains(&format!(
                "kept `{relative}` as it was: the judge does not make it"
            )),
            "{}",
            run.transcript()
        );
    }
    assert_ne!(dir.read("p/data/secret/only.in"), "stale\n");
    // A second run finds the data up to date.
    let again = dir.judge(&["gen", "--package", "p"]);
    again.expect_code(0);
    assert!(
        again.stderr().contains("is up to date"),
        "{}",
        again.transcript()
    );
}

/// See: issue #33. `gen --package` builds through the package's format:
/// a package whose format builds nothing (ours, `problem.toml`) or a
/// folder of no format is refused naming the folder, nothing written; a
/// Kattis package without `generators.yaml` names the file it lacks.
#[test]
fn r33_gen_package_builds_only_what_the_format_builds() {
    let dir = Dir::new();
    dir.create("ours/problem.toml", "title = \"Ours\"\n");
    dir.create("plain/notes.txt", "no package\n");
    for folder in ["ours", "plain"] {
        let run = dir.judge(&["gen", "--package", folder]);
        run.expect_code(2);
        assert_eq!(
            run.stderr(),
            format!(
                "error: failed to load `{folder}`: `generators/generators.yaml`: the folder is no \
                 package whose format builds its tests from it (a Kattis package, with \
                 `problem.yaml`, builds its `data/` so)\n"
            )
        );
        assert!(!dir.path().join(folder).join("data").exists());
    }
    dir.create("kattis/problem.yaml", "name: K\n");
    let run = dir.judge(&["gen", "--package", "kattis"]);
    run.expect_code(2);
    assert!(
        run.stderr()
            .starts_with("error: failed to load `kattis/generators/generators.yaml`"),
        "{}",
        run.stderr()
    );
}
