//! Unit tests of [`super`]: seeds and arguments as BAPCtools has them.

use super::*;
use test_case::test_case;

/// Values from BAPCtools' own test problem `testseed`: its committed
/// `data/sample/` holds what `bt generate` printed for each command.
#[test_case("", 1, "stdout.py {seed}", 162_981_470 ; "a plain seed")]
#[test_case("", 2, "stdout.py {seed:1} 2", 2_075_121_131 ; "a count value")]
fn seeds_as_bapctools(salt: &str, count: i64, text: &str, expected: u32) {
    assert_eq!(seed(salt, count, text), expected);
}

#[test]
fn replaces_seed_and_name_once() {
    let (command, _) = command("gen.py {seed:3} {name}.in x", None, "").unwrap();
    assert_eq!(command.program, "gen.py");
    assert_eq!(
        command.args(command.seed),
        [
            command.seed.to_string(),
            "testcase.in".to_owned(),
            "x".to_owned()
        ]
    );
    assert!(command.uses_seed);
    assert!(super::command("gen.py {seed} {seed:1}", None, "").is_err());
}
