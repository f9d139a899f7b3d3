//! What a submission scores on a package with test groups (issue #15): one
//! model for the legacy `testdata.yaml` graders, the 2025-09
//! `test_group.yaml` groups and our `problem.toml` groups. Pure: it sees
//! verdicts and validator scores, never a program.
//!
//! A group's children are judged in order; under `on_reject: break` the
//! first rejected child ends the group (the children after it are not
//! run). A test scores its group's `accept_score` (or its share of the
//! group's maximum) when accepted, scaled or replaced by the validator's
//! `score_multiplier.txt` / `score.txt`, and `reject_score` otherwise. A
//! group's verdict follows its verdict mode (`worst_error`, `first_error`,
//! `always_accept`, `accept_if_any_accepted`), its score its aggregation
//! (`pass-fail`, `sum`, `min`, `avg`, `max`); legacy packages score a
//! rejected group 0 and keep a score within `range`.
//!
//! [`ScorePlan::reached`] says which tests judging reaches, so the runner
//! skips the rest ([`crate::runner::TestGate`]).

use super::usage::{PlanError, UsageError};
use super::GradingError;
use crate::config::groups::{
    Aggregation, GroupNode, GroupRules, GroupTree, OnReject, ScoringStyle, TestGroup, VerdictMode,
};
use crate::package::Package;
use crate::runner::{GroupScore, SubmissionResult, TestCase, TestGate};
use crate::verdict::{Points, ValidatorScore, Verdict};
use std::collections::HashMap;

/// The groups that score `package`: its own, when the tests are its own
/// only (`own_tests_only`); `None` is pass-fail. A package with groups
/// graded otherwise deserves a warning (its groups go unused).
pub(crate) fn scoring_groups(package: &Package, own_tests_only: bool) -> Option<&GroupTree> {
    package.groups().filter(|_| own_tests_only)
}

/// Whether `package` has groups that do not score it: it is then scored as
/// the percent of tests passed, which [`groups_unused`] says.
pub(crate) fn groups_go_unused(package: &Package, own_tests_only: bool) -> bool {
    package.groups().is_some() && scoring_groups(package, own_tests_only).is_none()
}

/// The one wording of a package whose groups go unused: with `random`
/// tests of a class's grade (judge.toml's `random-tests`), or, for `None`,
/// a run with `--tests` or random tests.
pub(crate) fn groups_unused(package: &str, random: Option<u32>) -> String {
    let lead = format!("`{package}` scores by test groups, which hold its own tests only:");
    match random {
        Some(random) => format!(
            "{lead} with {random} random test(s) it is scored as the percent of tests passed \
             (set `random-tests = 0`, or pass `--random 0`, to score by its groups)"
        ),
        None => format!(
            "{lead} this run (with `--tests` or random tests) is scored as the percent of tests \
             passed"
        ),
    }
}

/// What a submission scored.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Scored {
    pub(crate) score: Points,
    pub(crate) max_score: Points,
    /// The root's verdict.
    pub(crate) verdict: Verdict,
    /// Every group below the root, depth first.
    pub(crate) groups: Vec<GroupScore>,
}

/// One test as judged: its verdict and what its validator said of its score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Observed {
    pub(crate) verdict: Verdict,
    pub(crate) score: Option<ValidatorScore>,
}

/// A [`GroupTree`] bound to a run's tests (by index), with every maximum
/// worked out.
#[derive(Clone, Debug)]
pub(crate) struct ScorePlan {
    style: ScoringStyle,
    root: PlanGroup,
    tests: usize,
}

#[derive(Clone, Debug)]
struct PlanGroup {
    name: String,
    rules: GroupRules,
    children: Vec<PlanNode>,
    max: f64,
    /// The maximum of a test directly in this group.
    test_max: f64,
    tests: Vec<String>,
}

#[derive(Clone, Debug)]
enum PlanNode {
    Test(usize),
    Group(PlanGroup),
}

/// A child's result while a group is judged.
#[derive(Clone, Copy, Debug)]
struct NodeResult {
    verdict: Verdict,
    score: f64,
    /// Every test below was run and accepted.
    all_accepted: bool,
}

/// JE before WA: the order `worst_error` ranks rejections in.
fn severity(verdict: Verdict) -> u8 {
    match verdict {
        Verdict::JudgeError => 9,
        Verdict::CompileError => 8,
        Verdict::RuntimeError => 7,
        Verdict::MemoryLimitExceeded => 6,
        Verdict::TimeLimitExceeded => 5,
        Verdict::OutputLimitExceeded => 4,
        Verdict::WrongAnswer => 3,
        Verdict::PresentationError => 2,
        Verdict::Accepted => 0,
    }
}

impl ScorePlan {
    /// The plan that scores `package` on `tests`: by its groups when the
    /// tests are its own only (`own_tests_only`: random tests and a
    /// `--tests` folder are in no group), else `None` (pass-fail). Groups
    /// that do not match the tests are a usage error naming the package.
    pub(crate) fn for_package(
        package: &Package,
        tests: &[TestCase],
        own_tests_only: bool,
    ) -> Result<Option<ScorePlan>, GradingError> {
        let Some(tree) = scoring_groups(package, own_tests_only) else {
            return Ok(None);
        };
        let names: Vec<&str> = tests.iter().map(|test| test.name.as_str()).collect();
        ScorePlan::new(tree, &names).map(Some).map_err(|error| {
            UsageError::TestGroups {
                id: package.id().to_owned(),
                error,
            }
            .into()
        })
    }

    /// Binds `tree` to the run's tests, named in run order. Every test of
    /// the tree must be one of them and every one of them in the tree, in
    /// the same order.
    pub(crate) fn new(tree: &GroupTree, test_names: &[&str]) -> Result<ScorePlan, PlanError> {
        let index: HashMap<&str, usize> = test_names
            .iter()
            .enumerate()
            .map(|(position, name)| (*name, position))
            .collect();
        let root = plan_group(&tree.root, &index)?;
        let order: Vec<usize> = leaves(&root);
        if order.len() != test_names.len() {
            let listed: std::collections::HashSet<usize> = order.iter().copied().collect();
            let missing = (0..test_names.len())
                .find(|position| !listed.contains(position))
                .and_then(|position| test_names.get(position))
                .map(|name| (*name).to_owned());
            return Err(PlanError::Count {
                held: order.len(),
                tests: test_names.len(),
                missing,
            });
        }
        if order.windows(2).any(|pair| pair[0] >= pair[1]) {
            return Err(PlanError::Order);
        }
        Ok(ScorePlan {
            style: tree.style,
            root,
            tests: test_names.len(),
        })
    }

    /// The highest score a submission can get.
    pub(crate) fn max_score(&self) -> Points {
        Points(self.root.max)
    }

    /// Scores one submission: `observed[i]` is test `i` as judged, `None`
    /// when it was not run. A test that judging reaches but that was not
    /// run counts as a judge error.
    pub(crate) fn evaluate(&self, observed: &[Option<Observed>]) -> Scored {
        let mut groups = Vec::new();
        let mut passed = HashMap::new();
        let lookup = |test: usize| {
            observed.get(test).copied().flatten().unwrap_or(Observed {
                verdict: Verdict::JudgeError,
                score: None,
            })
        };
        let result = self.judge(
            &self.root,
            &lookup,
            &mut |_| {},
            &mut passed,
            &mut Some(&mut groups),
        );
        Scored {
            score: Points(result.score),
            max_score: Points(self.root.max),
            verdict: result.verdict,
            groups,
        }
    }

    fn judge(
        &self,
        group: &PlanGroup,
        lookup: &dyn Fn(usize) -> Observed,
        visit: &mut dyn FnMut(usize),
        passed: &mut HashMap<String, bool>,
        out: &mut Option<&mut Vec<GroupScore>>,
    ) -> NodeResult {
        let is_root = std::ptr::eq(group, &self.root);
        let slot = out.as_mut().map(|groups| {
            groups.push(GroupScore {
                name: group.name.clone(),
                score: Points(0.0),
                max_score: Points(group.max),
                verdict: Verdict::Accepted,
                tests: group.tests.clone(),
            });
            groups.len() - 1
        });
        let unmet = group
            .rules
            .require_pass
            .iter()
            .find(|name| !passed.get(*name).copied().unwrap_or(false));
        let result = if unmet.is_some() {
            NodeResult {
                verdict: Verdict::WrongAnswer,
                score: 0.0,
                all_accepted: false,
            }
        } else {
            self.judge_children(group, lookup, visit, passed, out)
        };
        passed.insert(group.name.clone(), result.all_accepted);
        if let (Some(groups), Some(slot)) = (out.as_mut(), slot) {
            if let Some(entry) = groups.get_mut(slot) {
                entry.score = Points(result.score);
                entry.verdict = result.verdict;
            }
        }
        if is_root {
            if let (Some(groups), Some(slot)) = (out.as_mut(), slot) {
                groups.remove(slot);
            }
        }
        result
    }

    fn judge_children(
        &self,
        group: &PlanGroup,
        lookup: &dyn Fn(usize) -> Observed,
        visit: &mut dyn FnMut(usize),
        passed: &mut HashMap<String, bool>,
        out: &mut Option<&mut Vec<GroupScore>>,
    ) -> NodeResult {
        let rules = &group.rules;
        let mut results: Vec<NodeResult> = Vec::with_capacity(group.children.len());
        let mut all_accepted = true;
        for (position, child) in group.children.iter().enumerate() {
            let result = match child {
                PlanNode::Test(test) => {
                    visit(*test);
                    self.judge_test(group, lookup(*test))
                }
                PlanNode::Group(inner) => self.judge(inner, lookup, visit, passed, out),
            };
            let ignored = rules.ignore_sample && position == 0;
            all_accepted &= result.all_accepted;
            if ignored {
                continue;
            }
            results.push(result);
            if result.verdict != Verdict::Accepted && rules.on_reject == OnReject::Break {
                break;
            }
        }
        let counted = if rules.ignore_sample { 1 } else { 0 };
        all_accepted &= results.len() + counted == group.children.len();
        let any_accepted = results.iter().any(|r| r.verdict == Verdict::Accepted);
        let first_rejection = results
            .iter()
            .map(|r| r.verdict)
            .find(|verdict| *verdict != Verdict::Accepted);
        let verdict = match (rules.verdict_mode, first_rejection) {
            (VerdictMode::AlwaysAccept, _) | (_, None) => Verdict::Accepted,
            _ if rules.accept_if_any_accepted && any_accepted => Verdict::Accepted,
            (VerdictMode::FirstError, Some(first)) => first,
            (VerdictMode::WorstError, Some(first)) => results
                .iter()
                .map(|r| r.verdict)
                .max_by_key(|verdict| severity(*verdict))
                .unwrap_or(first),
        };
        let scores: Vec<f64> = results.iter().map(|r| r.score).collect();
        let mut score = match rules.aggregation {
            Aggregation::PassFail => {
                if results.iter().all(|r| r.verdict == Verdict::Accepted) {
                    group.max
                } else {
                    0.0
                }
            }
            Aggregation::Sum => scores.iter().sum(),
            Aggregation::Min => scores.iter().copied().reduce(f64::min).unwrap_or(0.0),
            Aggregation::Max => scores.iter().copied().reduce(f64::max).unwrap_or(0.0),
            Aggregation::Avg => match scores.len() {
                0 => 0.0,
                count => scores.iter().sum::<f64>() / count as f64,
            },
        };
        if self.style == ScoringStyle::Legacy {
            if verdict != Verdict::Accepted {
                score = 0.0;
            }
            if let Some((low, high)) = rules.range {
                score = score.clamp(low, high);
            }
        }
        NodeResult {
            verdict,
            score,
            all_accepted,
        }
    }

    /// A test directly in `group`: a judge error when its validator's score
    /// breaks the group's rules.
    fn judge_test(&self, group: &PlanGroup, observed: Observed) -> NodeResult {
        let rules = &group.rules;
        if observed.verdict != Verdict::Accepted {
            return NodeResult {
                verdict: observed.verdict,
                score: rules.reject_score,
                all_accepted: false,
            };
        }
        if self.score_fault(group, observed).is_some() {
            return NodeResult {
                verdict: Verdict::JudgeError,
                score: 0.0,
                all_accepted: false,
            };
        }
        let score = match observed.score {
            None => group.test_max,
            Some(ValidatorScore::Multiplier(Points(share))) => share * group.test_max,
            Some(ValidatorScore::Score(Points(value))) => value,
        };
        NodeResult {
            verdict: Verdict::Accepted,
            score,
            all_accepted: true,
        }
    }
}

impl ScorePlan {
    /// Why the validator's score of an accepted test directly in `group`
    /// breaks the group's rules (a judge error), naming the file, the value
    /// and the maximum; `None` when it keeps them.
    fn score_fault(&self, group: &PlanGroup, observed: Observed) -> Option<String> {
        if observed.verdict != Verdict::Accepted {
            return None;
        }
        let max = Points(group.test_max);
        let name = &group.name;
        match observed.score? {
            ValidatorScore::Multiplier(share) if !(0.0..=1.0).contains(&share.0) => Some(format!(
                "the output validator's score_multiplier.txt says {share}, not a share between 0 \
                 and 1 of the {max} a test of group `{name}` may score"
            )),
            ValidatorScore::Score(value)
                if self.style == ScoringStyle::Current && value.0 > max.0 + 1e-9 =>
            {
                Some(format!(
                    "the output validator's score (score.txt, or testlib's `quitp`) gives {value} \
                     points, more than the {max} a test of group `{name}` may score (the \
                     validator's fault, not the submission's)"
                ))
            }
            _ => None,
        }
    }

    /// Each test whose validator score breaks its group's rules, by index,
    /// with the reason.
    fn score_faults(&self, observed: &[Option<Observed>]) -> Vec<(usize, String)> {
        let mut faults = Vec::new();
        let mut groups = vec![&self.root];
        while let Some(group) = groups.pop() {
            for child in &group.children {
                match child {
                    PlanNode::Test(test) => {
                        let fault = observed
                            .get(*test)
                            .copied()
                            .flatten()
                            .and_then(|seen| self.score_fault(group, seen));
                        if let Some(reason) = fault {
                            faults.push((*test, reason));
                        }
                    }
                    PlanNode::Group(inner) => groups.push(inner),
                }
            }
        }
        faults
    }

    /// Scores `result` (run on `tests`) through the groups: its `score`,
    /// `max_score`, `groups`, and the root's verdict (a submission that did
    /// not compile keeps its CE or JE and scores 0).
    pub(crate) fn apply(&self, tests: &[TestCase], result: &mut SubmissionResult) {
        result.max_score = Some(self.max_score());
        result.groups.clear();
        if result.compile.verdict.is_some() {
            result.score = Some(Points(0.0));
            return;
        }
        let mut observed: Vec<Option<Observed>> = vec![None; tests.len()];
        for test in &result.tests {
            if let Some(position) = tests.iter().position(|case| case.name == test.name) {
                observed[position] = Some(Observed {
                    verdict: test.verdict,
                    score: test.validator_score,
                });
            }
        }
        // A validator's score the groups cannot take is a judge error of
        // that test, with the reason.
        for (position, reason) in self.score_faults(&observed) {
            let name = tests.get(position).map(|case| case.name.as_str());
            if let Some(test) = result
                .tests
                .iter_mut()
                .find(|test| Some(test.name.as_str()) == name)
            {
                if test.verdict.is_accepted() {
                    result.passed = result.passed.saturating_sub(1);
                }
                test.verdict = Verdict::JudgeError;
                test.message = reason;
            }
        }
        let scored = self.evaluate(&observed);
        result.score = Some(scored.score);
        result.verdict = scored.verdict;
        result.groups = scored.groups;
    }
}

impl TestGate for ScorePlan {
    /// Whether judging reaches `test` when the tests before it ended as
    /// `known` says (`None`: not known yet, taken as accepted, so a test
    /// is only skipped once it surely is not reached).
    fn reached(&self, test: usize, known: &[Option<Verdict>]) -> bool {
        if test >= self.tests {
            return false;
        }
        let lookup = |index: usize| Observed {
            verdict: known
                .get(index)
                .copied()
                .flatten()
                .unwrap_or(Verdict::Accepted),
            score: None,
        };
        let mut reached = false;
        let mut passed = HashMap::new();
        self.judge(
            &self.root,
            &lookup,
            &mut |visited| reached |= visited == test,
            &mut passed,
            &mut None,
        );
        reached
    }
}

fn leaves(group: &PlanGroup) -> Vec<usize> {
    let mut all = Vec::new();
    for child in &group.children {
        match child {
            PlanNode::Test(test) => all.push(*test),
            PlanNode::Group(inner) => all.extend(leaves(inner)),
        }
    }
    all
}

/// `group` bound to test indices, with its maximum and its tests' maximum.
fn plan_group(group: &TestGroup, index: &HashMap<&str, usize>) -> Result<PlanGroup, PlanError> {
    let rules = group.rules.clone();
    let mut children = Vec::with_capacity(group.children.len());
    for child in &group.children {
        children.push(match child {
            GroupNode::Test(name) => PlanNode::Test(*index.get(name.as_str()).ok_or_else(
                || PlanError::NoSuchTest {
                    group: group.name.clone(),
                    test: name.clone(),
                },
            )?),
            GroupNode::Group(inner) => PlanNode::Group(plan_group(inner, index)?),
        });
    }
    let direct_tests = children
        .iter()
        .filter(|child| matches!(child, PlanNode::Test(_)))
        .count();
    // A test's maximum: `accept_score`, else its share of the stated maximum.
    let share = |max: f64| match rules.aggregation {
        Aggregation::Sum if direct_tests > 0 => max / direct_tests as f64,
        _ => max,
    };
    let test_max = match (rules.accept_score, rules.max_score) {
        (Some(score), _) => score,
        (None, Some(max)) => share(max),
        (None, None) => {
            return Err(PlanError::NoMaximum {
                group: group.name.clone(),
            })
        }
    };
    let max = match rules.max_score {
        Some(max) => max,
        None => {
            let maxima: Vec<f64> = children
                .iter()
                .enumerate()
                .filter(|(position, _)| !(rules.ignore_sample && *position == 0))
                .map(|(_, child)| match child {
                    PlanNode::Test(_) => test_max,
                    PlanNode::Group(inner) => inner.max,
                })
                .collect();
            let derived = match rules.aggregation {
                Aggregation::Sum | Aggregation::PassFail => maxima.iter().sum(),
                Aggregation::Min => maxima.iter().copied().reduce(f64::min).unwrap_or(0.0),
                Aggregation::Max => maxima.iter().copied().reduce(f64::max).unwrap_or(0.0),
                Aggregation::Avg => match maxima.len() {
                    0 => 0.0,
                    count => maxima.iter().sum::<f64>() / count as f64,
                },
            };
            match rules.range {
                Some((low, high)) => derived.clamp(low.min(high), high),
                None => derived,
            }
        }
    };
    Ok(PlanGroup {
        name: group.name.clone(),
        tests: group.test_names().into_iter().map(str::to_owned).collect(),
        rules,
        children,
        max,
        test_max,
    })
}

#[cfg(test)]
mod tests;
