//! A refusal's advice is printed the same way whichever layer refuses:
//! `error: ...`, a blank line, `hint: ...` on stderr, exit 2; a refusal
//! without advice is the error line alone (issue #33, item 5: hints any
//! error can carry).

use crate::support::Dir;

/// One refusal per layer that carries a hint: the command line's own, a
/// report path, the grading layer's, and `judge similar`'s.
#[test]
fn every_layer_prints_its_hint_after_a_blank_line() {
    let dir = Dir::new();
    dir.create("out/notes.txt", "mine\n");
    dir.create("old.json", "{\"version\": 99, \"results\": []}\n");
    let rows: [(&[&str], &str); 4] = [
        (
            &["export", "--gradescope", "rooks"],
            "error: `judge export --gradescope PROBLEM... OUT` takes the problems, then the zip\n\n\
             hint: judge export --gradescope rooks autograder.zip\n",
        ),
        (
            &["grade", "--html", "out.html"],
            "error: cannot write --html `out.html`: its pages go in `out`, which exists and \
             does not hold judge's HTML pages\n\n\
             hint: move it away or choose another --html file\n",
        ),
        (
            &["report", "old.json"],
            "error: `old.json` has report version 99; this judge reads version 1\n\n\
             hint: render it with the judge that wrote it\n",
        ),
        (
            &["similar"],
            "error: the submissions folder `submissions` does not exist\n\n\
             hint: `submissions` in `judge.toml` names the folder, relative to that file\n",
        ),
    ];
    for (args, stderr) in rows {
        let run = dir.judge(args);
        run.expect_code(2);
        assert_eq!(run.stderr(), stderr, "judge {}", args.join(" "));
        assert_eq!(run.stdout(), "", "judge {}", args.join(" "));
    }
}

/// Without advice there is no `hint:` line, nor the blank line before it.
#[test]
fn a_refusal_without_advice_is_one_line() {
    let dir = Dir::new();
    dir.create("a/x", "x\n");
    let run = dir.judge(&["export", "--kattis", "rooks", "a", "b"]);
    run.expect_code(2);
    assert_eq!(
        run.stderr(),
        "error: `judge export --kattis PROBLEM DIR` takes one folder\n"
    );
}
