//! Kattis' default output validator as problemtools runs it (issue #34).

use crate::support::{assert_folder_verdicts, Dir, PackageBuilder};

/// See: issue #34 (break-it finding 18). problemtools' default output
/// validator ends tokens at ASCII whitespace only (C's `isspace`): a
/// no-break space is part of its token, so `a b` is not `a<NBSP>b`, and a
/// vertical tab or form feed still separates tokens.
#[test]
fn the_default_output_validator_splits_tokens_at_ascii_whitespace_only() {
    let dir = Dir::new();
    PackageBuilder::kattis(&dir, "nbsp")
        .manifest(
            "problem_format_version: 2025-09\ntype: pass-fail\nname: nbsp\n\
             uuid: 3f5d7b91-4c6e-4a81-8c2d-1e3f4a5b6c7d\nlicense: cc0\n\
             limits:\n  time_limit: 2\n",
        )
        .test("sample/1", "1\n", "a\u{a0}b 2\n")
        .file(
            "input_validators/validate.py",
            "import sys\nsys.exit(42 if sys.stdin.read() == '1\\n' else 43)\n",
        )
        .submission("accepted/nbsp.py", "input()\nprint('A\\u00a0B\\x0b2')\n")
        .submission("wrong_answer/space.py", "input()\nprint('a b 2')\n")
        .submission(
            "wrong_answer/em_space.py",
            "input()\nprint('a\\u2003b 2')\n",
        )
        .build();
    let graded = dir.judge(&["grade", "--package", "nbsp"]);
    let out = graded.stdout();
    graded.expect_code(0);
    assert_folder_verdicts(
        &out,
        &[
            ("accepted/nbsp.py", "AC"),
            ("wrong_answer/space.py", "WA"),
            ("wrong_answer/em_space.py", "WA"),
        ],
    );
    // The report shows the no-break space escaped.
    assert!(
        out.contains("token 1: expected `a\\u{00a0}b`, got `a`"),
        "{out}"
    );
    assert!(
        out.contains("3 of 3 submissions got their folder's verdict"),
        "{out}"
    );
}
