//! Unit tests of [`super`]: names and key lines as BAPCtools has them.

use super::*;
use test_case::test_case;

#[test]
fn finds_a_key_path_line() {
    let text = "data:\n  secret:\n    data:\n      - a: x\n      - \"b\": y\n";
    assert_eq!(line_of(text, &["data", "secret", "data", "b"]), Some(5));
    assert_eq!(line_of(text, &["data", "nothing"]), None);
}

fn plan_of(text: &str) -> Result<Plan, ConfigError> {
    let root = super::super::yaml::parse(text).unwrap();
    plan(Path::new("generators.yaml"), text, &root, Constants::none())
}

#[test]
fn numbers_cases_over_the_file_and_groups_per_directory() {
    let text = "data:\n  secret:\n    data:\n      - small:\n          data:\n            - a: g.py 1\n            - b: g.py 2\n      - big:\n          data:\n            - c: g.py 3\n          include:\n            - a\n";
    let plan = plan_of(text).unwrap();
    let paths: Vec<&str> = plan.cases.iter().map(|case| case.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "secret/1-small/1-a",
            "secret/1-small/2-b",
            "secret/2-big/3-c"
        ]
    );
    assert_eq!(plan.includes, [("secret/2-big/1-a".to_owned(), 0)]);
}

#[test]
fn names_counted_cases_with_padded_values() {
    let text = "data:\n  sample:\n    data:\n      - r:\n          generate: g.py {count}\n          count: -2..=10\n";
    let plan = plan_of(text).unwrap();
    let names: Vec<&str> = plan.cases.iter().map(|case| case.path.as_str()).collect();
    assert_eq!(names[0], "sample/01-r--2");
    assert_eq!(names[2], "sample/03-r-00");
    assert_eq!(names[12], "sample/13-r-10");
    let command = plan.cases[3].generate.as_ref().unwrap();
    assert_eq!(command.args(command.seed), ["1"]);
}

#[test_case("data:\n  secrets:\n    data: {}\n", 2, "did you mean `secret`" ; "a plural root folder")]
#[test_case("data:\n  secret:\n    include:\n      - nowhere\n", 3, "names no test case" ; "an unknown include")]
#[test_case("data:\n  secret:\n    data:\n      a:\n        solution: sol.py\n        in: '1'\n", 4, "starting with `/`" ; "a relative solution")]
#[test_case("data:\n  secret:\n    data:\n      a:\n", 4, "is empty" ; "an empty case")]
#[test_case("data:\n  secret:\n    data:\n      a: g.py {seed} {seed:2}\n", 4, "at most once" ; "two seeds")]
fn refuses_with_file_line_and_key(text: &str, line: usize, reason: &str) {
    let error = plan_of(text).unwrap_err();
    let message = error.to_string();
    assert!(message.contains(&format!("line {line}:")), "{message}");
    assert!(message.contains(reason), "{message}");
}
