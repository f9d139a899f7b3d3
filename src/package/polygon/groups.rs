//! A Polygon testset's groups and points as the judge's [`GroupTree`].
//!
//! - No points and no groups: pass-fail (`None`).
//! - Points without groups: each test scores its own points.
//! - Groups: each is a child of the root, its tests in the testset's order
//!   (they must follow each other, as Polygon shows them). A
//!   `complete-group` group scores its points (the group's `points`, else
//!   the sum of its tests') only when every test passes, and stops at its
//!   first failure; an `each-test` group scores each passed test's points
//!   and runs them all. A group's dependencies must pass whole before it
//!   runs or scores (`require_pass`).
//! - A test that scores on its own (no groups, or in an `each-test` group)
//!   scores the points its checker gives with testlib's `quitp`, in place
//!   of its own (issue #29), at most its own; in a `complete-group` group
//!   an accepted test counts as passed, whatever points (at most the
//!   group's) it was given.

use super::xml::{PointsPolicy, TestsetXml};
use crate::config::groups::{
    Aggregation, GroupNode, GroupRules, GroupTree, OnReject, TestGroup, VerdictMode,
};
use crate::config::{ConfigError, ConfigErrorKind};
use std::path::Path;

/// The tree of `testset` (read from `path`), whose tests are named
/// `names` in order.
pub(crate) fn group_tree(
    path: &Path,
    testset: &TestsetXml,
    names: &[String],
) -> Result<Option<GroupTree>, ConfigError> {
    let invalid = |line: usize, element: &str, message: String| ConfigError {
        path: path.to_owned(),
        kind: ConfigErrorKind::Invalid {
            key: format!("<{element}>"),
            message,
            line: Some(line),
        },
    };
    let grouped = testset.tests.iter().any(|test| test.group.is_some());
    let scored = testset.tests.iter().any(|test| test.points.is_some());
    if !grouped && testset.groups.is_empty() {
        if !scored {
            return Ok(None);
        }
        let children = testset
            .tests
            .iter()
            .zip(names)
            .map(|(test, name)| single_test(name, test.points.unwrap_or(0.0)))
            .collect();
        return Ok(Some(tree(children)));
    }
    for group in &testset.groups {
        for dependency in &group.dependencies {
            if !testset.groups.iter().any(|known| &known.name == dependency) {
                return Err(invalid(
                    group.line,
                    "group",
                    format!(
                        "group `{}` depends on group `{dependency}`, which the testset does not \
                         define",
                        group.name
                    ),
                ));
            }
        }
    }
    let mut children: Vec<GroupNode> = Vec::new();
    let mut order: Vec<&str> = Vec::new();
    for (test, name) in testset.tests.iter().zip(names) {
        let Some(group_name) = test.group.as_deref() else {
            return Err(invalid(
                test.line,
                "test",
                format!("test {name} has no `group`, but the testset has groups"),
            ));
        };
        let Some(group) = testset.groups.iter().find(|group| group.name == group_name) else {
            return Err(invalid(
                test.line,
                "test",
                format!("test {name}: group `{group_name}` is not defined under `<groups>`"),
            ));
        };
        if order.last() != Some(&group_name) {
            if order.contains(&group_name) {
                return Err(invalid(
                    test.line,
                    "test",
                    format!(
                        "the tests of group `{group_name}` do not follow each other (test \
                         {name} comes after a test of another group)"
                    ),
                ));
            }
            // A group runs after the groups it depends on: a dependency on
            // itself, on a later group or in a circle would never have
            // passed when the group runs (a break-it review of issue #29
            // met a correct main solution scored WA).
            if let Some(later) = group
                .dependencies
                .iter()
                .find(|dependency| !order.contains(&dependency.as_str()))
            {
                return Err(invalid(
                    group.line,
                    "group",
                    format!(
                        "group `{}` depends on group `{later}`, whose tests do not all come \
                         before the group's first test ({name})",
                        group.name
                    ),
                ));
            }
            order.push(group_name);
            // A test directly in a `complete-group` group may be given
            // points by its checker up to the group's own: it passes.
            let (aggregation, on_reject, accept_score) = match group.policy {
                PointsPolicy::CompleteGroup => (Aggregation::PassFail, OnReject::Break, None),
                PointsPolicy::EachTest => (Aggregation::Sum, OnReject::Continue, Some(0.0)),
            };
            children.push(GroupNode::Group(TestGroup {
                name: group.name.clone(),
                rules: GroupRules {
                    aggregation,
                    verdict_mode: VerdictMode::FirstError,
                    on_reject,
                    accept_score,
                    max_score: Some(0.0),
                    require_pass: group.dependencies.clone(),
                    ..GroupRules::default()
                },
                children: Vec::new(),
            }));
        }
        let Some(GroupNode::Group(node)) = children.last_mut() else {
            continue;
        };
        let points = test.points.unwrap_or(0.0);
        node.rules.max_score = Some(node.rules.max_score.unwrap_or(0.0) + points);
        match group.policy {
            PointsPolicy::CompleteGroup => node.children.push(GroupNode::Test(name.clone())),
            PointsPolicy::EachTest => node.children.push(single_test(name, points)),
        }
    }
    // A group's own `points`, when given, is what it is worth whole.
    for child in &mut children {
        if let GroupNode::Group(node) = child {
            let stated = testset
                .groups
                .iter()
                .find(|group| group.name == node.name)
                .and_then(|group| group.points);
            if let Some(points) = stated {
                if node.rules.aggregation == Aggregation::PassFail {
                    node.rules.max_score = Some(points);
                }
            }
        }
    }
    Ok(Some(tree(children)))
}

/// A test worth `points` when accepted, or the points its checker gives
/// (a sum over the one test, so the checker's score counts).
fn single_test(name: &str, points: f64) -> GroupNode {
    GroupNode::Group(TestGroup {
        name: format!("test {name}"),
        rules: GroupRules {
            aggregation: Aggregation::Sum,
            verdict_mode: VerdictMode::FirstError,
            accept_score: None,
            max_score: Some(points),
            ..GroupRules::default()
        },
        children: vec![GroupNode::Test(name.to_owned())],
    })
}

/// The root over `children`: the sum of their scores, every child run.
fn tree(children: Vec<GroupNode>) -> GroupTree {
    GroupTree::summed("tests", children)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::package::polygon::xml::{GroupXml, Method, TestXml};

    fn test(group: Option<&str>, points: Option<f64>) -> TestXml {
        TestXml {
            line: 1,
            method: Method::Manual,
            sample: false,
            group: group.map(str::to_owned),
            points,
        }
    }

    fn group(name: &str, policy: PointsPolicy, dependencies: &[&str]) -> GroupXml {
        GroupXml {
            name: name.to_owned(),
            line: 2,
            points: None,
            policy,
            dependencies: dependencies.iter().map(|name| (*name).to_owned()).collect(),
        }
    }

    fn testset(tests: Vec<TestXml>, groups: Vec<GroupXml>) -> TestsetXml {
        TestsetXml {
            name: "tests".to_owned(),
            line: 1,
            time_limit_ms: 1000,
            memory_limit_bytes: 1 << 28,
            input_path_pattern: "tests/%02d".to_owned(),
            answer_path_pattern: "tests/%02d.a".to_owned(),
            pattern_lines: (1, 2),
            tests,
            groups,
        }
    }

    fn names(count: usize) -> Vec<String> {
        (1..=count).map(|number| format!("{number:02}")).collect()
    }

    #[test]
    fn without_points_or_groups_the_package_is_pass_fail() {
        let set = testset(vec![test(None, None), test(None, None)], Vec::new());
        assert_eq!(
            group_tree(Path::new("p.xml"), &set, &names(2)).unwrap(),
            None
        );
    }

    #[test]
    fn groups_keep_their_policy_points_and_dependencies() {
        let set = testset(
            vec![
                test(Some("0"), Some(0.0)),
                test(Some("1"), Some(20.0)),
                test(Some("1"), Some(20.0)),
                test(Some("2"), Some(10.0)),
                test(Some("2"), Some(50.0)),
            ],
            vec![
                group("0", PointsPolicy::EachTest, &[]),
                group("1", PointsPolicy::CompleteGroup, &["0"]),
                group("2", PointsPolicy::EachTest, &["1"]),
            ],
        );
        let tree = group_tree(Path::new("p.xml"), &set, &names(5))
            .unwrap()
            .unwrap();
        let groups = tree.root.groups();
        let complete = groups.iter().find(|group| group.name == "1").unwrap();
        assert_eq!(complete.rules.aggregation, Aggregation::PassFail);
        assert_eq!(complete.rules.max_score, Some(40.0));
        assert_eq!(complete.rules.require_pass, vec!["0".to_owned()]);
        let each = groups.iter().find(|group| group.name == "2").unwrap();
        assert_eq!(each.rules.aggregation, Aggregation::Sum);
        assert_eq!(each.rules.max_score, Some(60.0));
        let fifty = groups.iter().find(|group| group.name == "test 05").unwrap();
        assert_eq!(fifty.rules.max_score, Some(50.0));
        // Its checker's points (testlib's `quitp`) are its score.
        assert_eq!(fifty.rules.aggregation, Aggregation::Sum);
        assert_eq!(tree.root.test_names(), vec!["01", "02", "03", "04", "05"]);
    }

    #[test]
    fn groups_are_checked() {
        for (set, wanted) in [
            (
                testset(
                    vec![test(Some("1"), None)],
                    vec![group("1", PointsPolicy::CompleteGroup, &["9"])],
                ),
                "line 2: `<group>`: group `1` depends on group `9`",
            ),
            (
                testset(
                    vec![test(Some("3"), None)],
                    vec![group("1", PointsPolicy::CompleteGroup, &[])],
                ),
                "line 1: `<test>`: test 01: group `3` is not defined",
            ),
            (
                testset(
                    vec![
                        test(Some("1"), None),
                        test(Some("2"), None),
                        test(Some("1"), None),
                    ],
                    vec![
                        group("1", PointsPolicy::CompleteGroup, &[]),
                        group("2", PointsPolicy::CompleteGroup, &[]),
                    ],
                ),
                "the tests of group `1` do not follow each other",
            ),
            // A dependency on a later group, on itself, or in a circle.
            (
                testset(
                    vec![test(Some("1"), None), test(Some("2"), None)],
                    vec![
                        group("1", PointsPolicy::CompleteGroup, &["2"]),
                        group("2", PointsPolicy::CompleteGroup, &[]),
                    ],
                ),
                "group `1` depends on group `2`, whose tests do not all come before the \
                 group's first test (01)",
            ),
            (
                testset(
                    vec![test(Some("1"), None)],
                    vec![group("1", PointsPolicy::CompleteGroup, &["1"])],
                ),
                "group `1` depends on group `1`, whose tests",
            ),
            (
                testset(
                    vec![test(Some("1"), None), test(Some("2"), None)],
                    vec![
                        group("1", PointsPolicy::CompleteGroup, &["2"]),
                        group("2", PointsPolicy::CompleteGroup, &["1"]),
                    ],
                ),
                "group `1` depends on group `2`, whose tests",
            ),
        ] {
            let count = set.tests.len();
            let error = group_tree(Path::new("p.xml"), &set, &names(count))
                .unwrap_err()
                .to_string();
            assert!(error.contains(wanted), "{error}");
        }
    }
}
