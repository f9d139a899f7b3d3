//! Issue #34, item 2: the `constants` of a 2025-09 `problem.yaml`, and
//! their `{{name}}` / `{{name.variant}}` replaced where the format says:
//! the validators (every file of a folder program), the example
//! submissions, `test_group.yaml`; as BAPCtools does, the generators and
//! the commands of `generators.yaml`. Never in test data or `problem.yaml`.
//! The package `bounded` has the shape of BAPCtools' `constants`.

use crate::support::{Dir, PackageBuilder};

/// A pass-fail 2025-09 package whose bound is the constant `MAX` (10):
/// the input validator has it in its source, the output validator (a
/// folder) in a file beside its entry, `secret`'s group file in an
/// argument, the accepted submission in its source.
fn bounded(dir: &Dir) {
    PackageBuilder::kattis(dir, "bounded")
        .manifest(
            "problem_format_version: 2025-09\ntype: pass-fail\nname: Bounded\n\
             uuid: 2f4e6a8c-1b3d-4f5a-8e7c-9d0b1a2c3e4f\nlimits:\n  time_limit: 2\n\
             constants:\n  MAX:\n    value: 10\n    tex: \"10^1\"\n  WORD: capped\n",
        )
        // The validator's own bound, and the one `secret`'s file gives it,
        // must both be MAX's value.
        .file(
            "input_validators/validate.py",
            "import sys\n\
             if '{{MAX.tex}}' != '10^1':\n    \
             print('constants not replaced', file=sys.stderr)\n    sys.exit(43)\n\
             n = int(sys.stdin.read())\n\
             bound = int(sys.argv[sys.argv.index('--max') + 1]) if '--max' in sys.argv else {{MAX}}\n\
             if bound != {{MAX.value}}:\n    \
             print('not the bound of problem.yaml', file=sys.stderr)\n    sys.exit(43)\n\
             sys.exit(42 if 0 <= n <= bound else 43)\n",
        )
        .file(
            "output_validator/__main__.py",
            "import sys\nfrom limits import WORD\n\
             answer = open(sys.argv[2]).read().split()\n\
             output = sys.stdin.read().split()\n\
             sys.exit(42 if output == answer and WORD == 'capped' else 43)\n",
        )
        .file("output_validator/limits.py", "WORD = '{{WORD}}'\n")
        .file(
            "data/secret/test_group.yaml",
            "input_validator_args: [--max, {{MAX}}]\n",
        )
        .test("sample/1", "3\n", "3 capped\n")
        .test("secret/1", "10\n", "10 capped\n")
        .test("secret/2", "0\n", "0 capped\n")
        .submission(
            "accepted/capped.py",
            "n = int(input())\nprint(min(n, {{MAX}}), '{{WORD}}')\n",
        )
        // Not a constant: left as written, so this one is wrong.
        .submission(
            "wrong_answer/undefined.py",
            "n = int(input())\nprint(n, '{{WORD.plural}}')\n",
        )
        .build();
}

/// See: issue #34, item 2 (BAPCtools' `constants`). The constants reach
/// the input validator, the output validator's every file, `secret`'s
/// `test_group.yaml` and the example submissions; a sequence that names no
/// constant is left as written, with a note naming the file and line.
#[test]
fn constants_are_replaced_in_validators_group_files_and_example_submissions() {
    let dir = Dir::new();
    bounded(&dir);
    let graded = dir.judge(&["grade", "--package", "bounded"]);
    let (out, err) = (graded.stdout(), graded.stderr());
    assert_eq!(graded.code(), 0, "{out}{err}");
    assert!(
        out.contains("2 of 2 submissions got their folder's verdict"),
        "{out}"
    );
    assert!(
        err.contains(
            "submissions/wrong_answer/undefined.py` line 2: `{{WORD.plural}}` names no constant \
             of `problem.yaml`; it is left as written"
        ),
        "{err}"
    );
    // Test data is not replaced in: an input `{{MAX}}` stays one (and is no
    // number).
    dir.create("bounded/data/secret/3.in", "{{MAX}}\n");
    dir.create("bounded/data/secret/3.ans", "10 capped\n");
    let run = dir.judge(&["grade", "--package", "bounded"]);
    run.expect_code(2);
    assert!(
        run.stderr().contains("data/secret/3.in"),
        "{}",
        run.stderr()
    );
}

/// See: issue #34, item 2. Without `constants` nothing is replaced: the
/// group file's `{{MAX}}` stays YAML's nested map, no argument, and the
/// package is refused naming that file; no note about sequences is given.
/// With the group file fixed, the validator's own `{{MAX.tex}}` stays and
/// it refuses the first test.
#[test]
fn without_constants_the_sequences_stay_and_nothing_is_replaced() {
    let dir = Dir::new();
    bounded(&dir);
    let yaml = dir.read("bounded/problem.yaml");
    let without = &yaml[..yaml.find("constants:").unwrap()];
    dir.create("bounded/problem.yaml", without);
    let run = dir.judge(&["grade", "--package", "bounded"]);
    run.expect_code(2);
    let said = run.stderr();
    assert!(said.contains("data/secret/test_group.yaml"), "{said}");
    assert!(said.contains("must be a list of strings"), "{said}");
    assert!(!said.contains("names no constant"), "{said}");
    dir.create(
        "bounded/data/secret/test_group.yaml",
        "input_validator_args: [--max, \"10\"]\n",
    );
    let run = dir.judge(&["grade", "--package", "bounded"]);
    run.expect_code(2);
    let said = run.stderr();
    assert!(said.contains("data/sample/1.in"), "{said}");
    assert!(said.contains("constants not replaced"), "{said}");
}

/// See: issue #34, item 2. A constant the format does not allow refuses the
/// package, naming `problem.yaml`, the line and the key.
#[test]
fn a_bad_constant_is_refused_naming_the_file_line_and_key() {
    for (constants, wanted) in [
        (
            "constants:\n  1st: 5\n",
            "line 7: `constants`: `1st` is not a constant name",
        ),
        (
            "constants:\n  MAX:\n    tex: \"10^1\"\n",
            "line 8: `constants.MAX`: a map needs its `value`",
        ),
        (
            "constants:\n  MAX:\n    value: 10\n    tex: [10]\n",
            "line 10: `constants.MAX.tex`: `MAX.tex` is a list",
        ),
    ] {
        let dir = Dir::new();
        bounded(&dir);
        let yaml = dir.read("bounded/problem.yaml");
        let kept = &yaml[..yaml.find("constants:").unwrap()];
        dir.create("bounded/problem.yaml", format!("{kept}{constants}"));
        let run = dir.judge(&["grade", "--package", "bounded"]);
        let said = run.stderr();
        assert_eq!(run.code(), 2, "{constants}: {said}");
        assert!(said.contains("bounded/problem.yaml"), "{constants}: {said}");
        assert!(said.contains(wanted), "{constants}: {said}");
    }
}

/// See: issue #34, item 2 (BAPCtools' `constants`): `generators.yaml`'s
/// commands and the generators' files get the constants, as BAPCtools
/// replaces them; the cases they make are checked by the validator, which
/// gets them too.
#[test]
fn generators_get_the_constants_in_their_commands_and_files() {
    let dir = Dir::new();
    bounded(&dir);
    dir.create(
        "bounded/generators/generators.yaml",
        "solution: /submissions/accepted/capped.py\n\
         data:\n  sample:\n    data:\n      - '': echo.py {{MAX}} {{MAX.value}}\n  \
         secret:\n    test_group.yaml:\n      input_validator_args: [--max, \"{{MAX}}\"]\n    \
         data:\n      - top: echo.py {{MAX}} {{MAX.value}}\n",
    );
    dir.create(
        "bounded/generators/echo.py",
        "import sys\n\
         values = sys.argv[1:] + ['{{MAX}}', '{{MAX.value}}', '10']\n\
         assert len(set(values)) == 1, values\n\
         print(values[0])\n",
    );
    let graded = dir.judge(&["grade", "--package", "bounded"]);
    let (out, err) = (graded.stdout(), graded.stderr());
    assert_eq!(graded.code(), 0, "{out}{err}");
    assert!(err.contains("generators.yaml: 2 test cases"), "{err}");
    // BAPCtools numbers the cases over the file: the sample is the first.
    assert_eq!(dir.read("bounded/data/secret/2-top.in"), "10\n");
    assert_eq!(dir.read("bounded/data/secret/2-top.ans"), "10 capped\n");
    assert!(
        out.contains("2 of 2 submissions got their folder's verdict"),
        "{out}"
    );
}
