//! Test groups as a package states them (issue #15): a tree whose leaves
//! are tests (by name) and whose nodes say how their results combine.
//!
//! Three sources build the same tree: a Kattis package's legacy
//! `data/**/testdata.yaml` and its 2025-09 `data/**/test_group.yaml` (read
//! by [`super::kattis_groups`]), and the `[[groups]]` of our own
//! `problem.toml`. This module holds data only; what a submission scores
//! is computed by `crate::grading::score`.

/// How a group's score comes from the scores of its children.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Aggregation {
    /// All or nothing: the group's maximum when every child is accepted,
    /// else 0.
    PassFail,
    Sum,
    Min,
    Avg,
    Max,
}

/// How a group's verdict comes from the verdicts of its children (the
/// legacy grader's verdict modes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VerdictMode {
    /// Accepted when every child is; else the worst rejection (JE, RE,
    /// MLE, TLE, OLE, WA, PE in that order).
    WorstError,
    /// Accepted when every child is; else the first rejection in order.
    FirstError,
    /// Always accepted.
    AlwaysAccept,
}

/// What judging does after a child is rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OnReject {
    /// Stop the group: its later children are not run.
    Break,
    /// Run the remaining children.
    Continue,
}

/// Which rules of scoring a tree follows where the formats differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ScoringStyle {
    /// Legacy and 2023-07 `testdata.yaml`: a rejected group scores 0 (the
    /// grader's score of a rejection is ignored) and its score is kept
    /// within `range`.
    Legacy,
    /// 2025-09 `test_group.yaml` and our `problem.toml`: a group's score
    /// is its aggregation of its children's scores, whatever its verdict.
    Current,
}

/// The rules of one group.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GroupRules {
    pub(crate) aggregation: Aggregation,
    pub(crate) verdict_mode: VerdictMode,
    /// The verdict is accepted when any child is accepted.
    pub(crate) accept_if_any_accepted: bool,
    /// At the root only: the first child (the samples) is left out of the
    /// verdict and the score.
    pub(crate) ignore_sample: bool,
    pub(crate) on_reject: OnReject,
    /// The score of an accepted test directly in this group without a
    /// score file; `None`: its share of the group's maximum (the whole
    /// maximum under `min`, `max` and `pass-fail`, an equal part under
    /// `sum` and `avg`).
    pub(crate) accept_score: Option<f64>,
    /// The score of a rejected test directly in this group.
    pub(crate) reject_score: f64,
    /// The lowest and highest score the group may have (legacy `range`).
    pub(crate) range: Option<(f64, f64)>,
    /// The group's maximum score; `None`: derived from its children (and
    /// `range`).
    pub(crate) max_score: Option<f64>,
    /// Groups (by name) whose every test must be accepted for this group
    /// to run and score (2025-09 `require_pass`).
    pub(crate) require_pass: Vec<String>,
}

impl Default for GroupRules {
    /// The legacy defaults: worst error, sum, break, accept 1, reject 0.
    fn default() -> Self {
        GroupRules {
            aggregation: Aggregation::Sum,
            verdict_mode: VerdictMode::WorstError,
            accept_if_any_accepted: false,
            ignore_sample: false,
            on_reject: OnReject::Break,
            accept_score: Some(1.0),
            reject_score: 0.0,
            range: None,
            max_score: None,
            require_pass: Vec::new(),
        }
    }
}

/// A child of a group.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum GroupNode {
    /// A test, by its name in the package (`secret/group1/001`).
    Test(String),
    Group(TestGroup),
}

/// A group: its name (`secret/group1`; the root is `data`), its rules and
/// its children in judging order.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TestGroup {
    pub(crate) name: String,
    pub(crate) rules: GroupRules,
    pub(crate) children: Vec<GroupNode>,
}

/// Every group of a package, from the root.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct GroupTree {
    pub(crate) style: ScoringStyle,
    pub(crate) root: TestGroup,
}

impl GroupTree {
    /// A tree whose root, `name`, sums its children's scores and goes on
    /// past a rejected one (the current scoring style).
    pub(crate) fn summed(name: &str, children: Vec<GroupNode>) -> GroupTree {
        GroupTree {
            style: ScoringStyle::Current,
            root: TestGroup {
                name: name.to_owned(),
                rules: GroupRules {
                    aggregation: Aggregation::Sum,
                    verdict_mode: VerdictMode::FirstError,
                    on_reject: OnReject::Continue,
                    accept_score: Some(0.0),
                    ..GroupRules::default()
                },
                children,
            },
        }
    }
}

impl TestGroup {
    /// The names of the tests in this group and below, in order.
    pub(crate) fn test_names(&self) -> Vec<&str> {
        let mut names = Vec::new();
        self.collect_tests(&mut names);
        names
    }

    fn collect_tests<'a>(&'a self, names: &mut Vec<&'a str>) {
        for child in &self.children {
            match child {
                GroupNode::Test(name) => names.push(name),
                GroupNode::Group(group) => group.collect_tests(names),
            }
        }
    }

    /// This group and every group below it, depth first.
    #[cfg(test)]
    pub(crate) fn groups(&self) -> Vec<&TestGroup> {
        let mut all = vec![self];
        for child in &self.children {
            if let GroupNode::Group(group) = child {
                all.extend(group.groups());
            }
        }
        all
    }
}

/// The tree of a `problem.toml`'s `[[groups]]` (`path` names the file in
/// errors), or `None` without groups. Every test must be in exactly one
/// group, and each group's tests must follow each other in name order
/// (that order is the judging order).
pub(crate) fn from_toml(
    groups: &[super::problem::GroupToml],
    test_names: &[&str],
    path: &std::path::Path,
) -> Result<Option<GroupTree>, super::ConfigError> {
    use super::ConfigError;
    if groups.is_empty() {
        return Ok(None);
    }
    let invalid = |message: String| ConfigError::invalid(path, "groups", message);
    let mut member: Vec<Option<usize>> = vec![None; test_names.len()];
    let mut seen = std::collections::HashSet::new();
    for (position, group) in groups.iter().enumerate() {
        if !seen.insert(group.name.as_str()) {
            return Err(invalid(format!("two groups are named `{}`", group.name)));
        }
        if !group.points.is_finite() || group.points < 0.0 {
            return Err(invalid(format!(
                "group `{}`: `points` must be a number of at least 0",
                group.name
            )));
        }
        let glob = globset::Glob::new(&group.tests)
            .map_err(|error| invalid(format!("group `{}`: `tests`: {error}", group.name)))?
            .compile_matcher();
        let mut matched = false;
        for (test, name) in test_names.iter().enumerate() {
            if !glob.is_match(name) {
                continue;
            }
            matched = true;
            if let Some(other) = member[test] {
                return Err(invalid(format!(
                    "test `{name}` is in group `{}` and in group `{}`",
                    groups[other].name, group.name
                )));
            }
            member[test] = Some(position);
        }
        if !matched {
            return Err(invalid(format!(
                "group `{}`: `{}` matches no test",
                group.name, group.tests
            )));
        }
    }
    let mut children: Vec<GroupNode> = Vec::new();
    let mut order: Vec<usize> = Vec::new();
    for (test, name) in test_names.iter().enumerate() {
        let Some(position) = member[test] else {
            return Err(invalid(format!("test `{name}` is in no group")));
        };
        if order.last() != Some(&position) {
            if order.contains(&position) {
                return Err(invalid(format!(
                    "the tests of group `{}` do not follow each other in name order \
                     (`{name}` comes after a test of another group)",
                    groups[position].name
                )));
            }
            let group = &groups[position];
            let aggregation = match group.aggregation.as_deref() {
                None | Some("pass-fail") => Aggregation::PassFail,
                Some("sum") => Aggregation::Sum,
                Some("min") => Aggregation::Min,
                Some(other) => {
                    return Err(invalid(format!(
                        "group `{}`: aggregation `{other}` is not `pass-fail`, `sum` or `min`",
                        group.name
                    )))
                }
            };
            order.push(position);
            children.push(GroupNode::Group(TestGroup {
                name: group.name.clone(),
                rules: GroupRules {
                    aggregation,
                    verdict_mode: VerdictMode::FirstError,
                    on_reject: match aggregation {
                        Aggregation::Sum => OnReject::Continue,
                        _ => OnReject::Break,
                    },
                    accept_score: None,
                    max_score: Some(group.points),
                    ..GroupRules::default()
                },
                children: Vec::new(),
            }));
        }
        if let Some(GroupNode::Group(group)) = children.last_mut() {
            group.children.push(GroupNode::Test((*name).to_owned()));
        }
    }
    Ok(Some(GroupTree::summed("package", children)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::problem::GroupToml;

    fn toml_group(name: &str, points: f64, tests: &str, aggregation: Option<&str>) -> GroupToml {
        GroupToml {
            name: name.to_owned(),
            points,
            tests: tests.to_owned(),
            aggregation: aggregation.map(str::to_owned),
        }
    }

    const NAMES: [&str; 4] = ["a-1", "a-2", "b-1", "b-2"];

    #[test]
    fn problem_toml_groups_become_a_tree() {
        let tree = from_toml(
            &[
                toml_group("easy", 30.0, "a-*", None),
                toml_group("hard", 70.0, "b-*", Some("sum")),
            ],
            &NAMES,
            std::path::Path::new("problem.toml"),
        )
        .unwrap()
        .unwrap();
        assert_eq!(tree.root.test_names(), NAMES.to_vec());
        let groups = tree.root.groups();
        assert_eq!(groups[1].name, "easy");
        assert_eq!(groups[1].rules.aggregation, Aggregation::PassFail);
        assert_eq!(groups[2].rules.max_score, Some(70.0));
        assert_eq!(groups[2].rules.on_reject, OnReject::Continue);
    }

    #[test]
    fn problem_toml_groups_are_checked() {
        for (groups, wanted) in [
            (
                vec![toml_group("a", 10.0, "a-*", None)],
                "test `b-1` is in no group",
            ),
            (
                vec![
                    toml_group("a", 10.0, "*", None),
                    toml_group("b", 1.0, "b-*", None),
                ],
                "is in group `a` and in group `b`",
            ),
            (vec![toml_group("a", 10.0, "z*", None)], "matches no test"),
            (vec![toml_group("a", -1.0, "*", None)], "at least 0"),
            (
                vec![toml_group("a", 1.0, "*", Some("max"))],
                "is not `pass-fail`",
            ),
            (
                vec![
                    toml_group("odd", 1.0, "*-1", None),
                    toml_group("even", 1.0, "*-2", None),
                ],
                "do not follow each other",
            ),
        ] {
            let error = from_toml(&groups, &NAMES, std::path::Path::new("problem.toml"))
                .unwrap_err()
                .to_string();
            assert!(error.contains(wanted), "{error}");
        }
    }
}
