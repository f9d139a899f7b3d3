//! `judge problems` with a package that does not load (issue #32, found
//! by a review): the others are listed, and the broken one is named with
//! what is wrong.

use crate::support::Dir;

/// See: issue #32. One package's missing `.ans` blocked the whole list.
#[test]
fn r32_one_broken_package_does_not_hide_the_others() {
    let dir = Dir::new();
    dir.judge(&["new", "hello"]).expect_code(0);
    dir.judge(&["new", "world"]).expect_code(0);
    let answer = dir.path().join("problems/hello/tests/sample-1.ans");
    fs_err::remove_file(&answer).unwrap();
    for json in [false, true] {
        let mut args = vec!["problems", "--problems-dir", "problems"];
        if json {
            args.push("--json");
        }
        let run = dir.judge(&args);
        run.expect_code(2);
        let stdout = run.stdout();
        assert!(stdout.contains("world"), "{}", run.transcript());
        assert!(stdout.contains("rooks"), "{}", run.transcript());
        assert!(!stdout.contains("hello"), "{}", run.transcript());
        let stderr = run.stderr();
        assert!(
            stderr.contains("problems/hello/tests/sample-1.in") && stderr.contains("sample-1.ans"),
            "{stderr}"
        );
    }
    fs_err::write(
        &answer,
        dir.judge(&[
            "solve",
            "hello",
            "problems/hello/tests/sample-1.in",
            "--problems-dir",
            "problems",
        ])
        .stdout(),
    )
    .unwrap();
    let run = dir.judge(&["problems", "--problems-dir", "problems"]);
    run.expect_code(0);
    assert!(run.stdout().contains("hello"));
}
