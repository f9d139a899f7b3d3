//! The score model as tables: each row a tree, the verdicts of its tests,
//! and the score, maximum and verdict it must give.

use super::*;
use crate::config::groups::{GroupRules, GroupTree, TestGroup};
use test_case::test_case;

const AC: Verdict = Verdict::Accepted;
const WA: Verdict = Verdict::WrongAnswer;
const TLE: Verdict = Verdict::TimeLimitExceeded;
const RE: Verdict = Verdict::RuntimeError;

fn group(name: &str, rules: GroupRules, children: Vec<GroupNode>) -> GroupNode {
    GroupNode::Group(TestGroup {
        name: name.to_owned(),
        rules,
        children,
    })
}

fn test(name: &str) -> GroupNode {
    GroupNode::Test(name.to_owned())
}

/// The shape of a legacy scoring package with two subtasks: samples worth
/// 0, `secret` with `first_error accept_if_any_accepted`, each subtask
/// `min` with `accept_score: 50`, `range: 0 50`, `on_reject: break`.
fn subtasks() -> GroupTree {
    let subtask = GroupRules {
        aggregation: Aggregation::Min,
        accept_score: Some(50.0),
        range: Some((0.0, 50.0)),
        ..GroupRules::default()
    };
    let secret = GroupRules {
        verdict_mode: VerdictMode::FirstError,
        accept_if_any_accepted: true,
        ..GroupRules::default()
    };
    let sample = GroupRules {
        accept_score: Some(0.0),
        ..GroupRules::default()
    };
    GroupTree {
        style: ScoringStyle::Legacy,
        root: TestGroup {
            name: "data".to_owned(),
            rules: GroupRules::default(),
            children: vec![
                group("sample", sample, vec![test("sample/1")]),
                group(
                    "secret",
                    secret,
                    vec![
                        group(
                            "secret/subtask1",
                            subtask.clone(),
                            vec![test("secret/subtask1/1"), test("secret/subtask1/2")],
                        ),
                        group(
                            "secret/subtask2",
                            subtask,
                            vec![test("secret/subtask2/1"), test("secret/subtask2/2")],
                        ),
                    ],
                ),
            ],
        },
    }
}

const SUBTASK_TESTS: [&str; 5] = [
    "sample/1",
    "secret/subtask1/1",
    "secret/subtask1/2",
    "secret/subtask2/1",
    "secret/subtask2/2",
];

fn observed(verdicts: &[Option<Verdict>]) -> Vec<Option<Observed>> {
    verdicts
        .iter()
        .map(|verdict| {
            verdict.map(|verdict| Observed {
                verdict,
                score: None,
            })
        })
        .collect()
}

#[test_case(&[Some(AC), Some(AC), Some(AC), Some(AC), Some(AC)], 100.0, AC ; "all accepted scores full")]
#[test_case(&[Some(AC), Some(AC), Some(AC), Some(WA), None], 50.0, AC ; "the first subtask alone")]
#[test_case(&[Some(AC), Some(WA), None, None, None], 0.0, WA ; "a break in the first subtask ends secret")]
#[test_case(&[Some(AC), Some(AC), Some(TLE), None, None], 0.0, TLE ; "the first error is the verdict")]
#[test_case(&[Some(WA), None, None, None, None], 0.0, WA ; "a failed sample stops the root")]
fn legacy_subtasks(verdicts: &[Option<Verdict>], score: f64, verdict: Verdict) {
    let plan = ScorePlan::new(&subtasks(), &SUBTASK_TESTS).unwrap();
    assert_eq!(plan.max_score(), Points(100.0));
    let scored = plan.evaluate(&observed(verdicts));
    assert_eq!(scored.score, Points(score));
    assert_eq!(scored.verdict, verdict);
    assert_eq!(scored.max_score, Points(100.0));
}

#[test]
fn groups_are_reported_with_their_tests_and_maxima() {
    let plan = ScorePlan::new(&subtasks(), &SUBTASK_TESTS).unwrap();
    let scored = plan.evaluate(&observed(&[Some(AC), Some(AC), Some(AC), Some(WA), None]));
    let summary: Vec<(&str, f64, f64, Verdict)> = scored
        .groups
        .iter()
        .map(|group| {
            (
                group.name.as_str(),
                group.score.0,
                group.max_score.0,
                group.verdict,
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            ("sample", 0.0, 0.0, AC),
            ("secret", 50.0, 100.0, AC),
            ("secret/subtask1", 50.0, 50.0, AC),
            ("secret/subtask2", 0.0, 50.0, WA),
        ]
    );
    assert_eq!(
        scored.groups[3].tests,
        vec!["secret/subtask2/1", "secret/subtask2/2"]
    );
}

#[test_case(0, &[], true ; "the first test is always reached")]
#[test_case(2, &[Some(AC), Some(WA)], false ; "a break skips the rest of its group")]
#[test_case(3, &[Some(AC), Some(AC), Some(AC)], true ; "the next subtask runs after a pass")]
#[test_case(3, &[Some(AC), Some(WA), None], false ; "a rejected subtask breaks secret")]
#[test_case(4, &[Some(AC), Some(AC), None, Some(WA)], false ; "an unknown test counts as accepted")]
#[test_case(3, &[Some(AC), None, None], true ; "unknown tests never skip")]
fn which_tests_are_reached(test: usize, known: &[Option<Verdict>], reached: bool) {
    let plan = ScorePlan::new(&subtasks(), &SUBTASK_TESTS).unwrap();
    assert_eq!(plan.reached(test, known), reached);
}

fn flat(rules: GroupRules, style: ScoringStyle) -> ScorePlan {
    let tree = GroupTree {
        style,
        root: TestGroup {
            name: "data".to_owned(),
            rules,
            children: vec![test("a"), test("b"), test("c"), test("d")],
        },
    };
    ScorePlan::new(&tree, &["a", "b", "c", "d"]).unwrap()
}

fn continuing(aggregation: Aggregation) -> GroupRules {
    GroupRules {
        aggregation,
        on_reject: OnReject::Continue,
        verdict_mode: VerdictMode::AlwaysAccept,
        ..GroupRules::default()
    }
}

#[test_case(Aggregation::Sum, 3.0, 4.0 ; "sum")]
#[test_case(Aggregation::Min, 0.0, 1.0 ; "min")]
#[test_case(Aggregation::Max, 1.0, 1.0 ; "max")]
#[test_case(Aggregation::Avg, 0.75, 1.0 ; "avg")]
#[test_case(Aggregation::PassFail, 0.0, 4.0 ; "pass fail is all or nothing")]
fn aggregations(aggregation: Aggregation, score: f64, max: f64) {
    let plan = flat(continuing(aggregation), ScoringStyle::Legacy);
    let scored = plan.evaluate(&observed(&[Some(AC), Some(WA), Some(AC), Some(AC)]));
    assert_eq!(scored.score, Points(score));
    assert_eq!(scored.max_score, Points(max));
}

#[test_case(VerdictMode::WorstError, false, RE ; "worst error ranks a crash above a timeout")]
#[test_case(VerdictMode::FirstError, false, TLE ; "first error keeps the first")]
#[test_case(VerdictMode::AlwaysAccept, false, AC ; "always accept")]
#[test_case(VerdictMode::FirstError, true, AC ; "accepted if any accepted")]
fn verdict_modes(mode: VerdictMode, any: bool, verdict: Verdict) {
    let rules = GroupRules {
        verdict_mode: mode,
        accept_if_any_accepted: any,
        on_reject: OnReject::Continue,
        ..GroupRules::default()
    };
    let plan = flat(rules, ScoringStyle::Legacy);
    let scored = plan.evaluate(&observed(&[Some(AC), Some(TLE), Some(RE), Some(WA)]));
    assert_eq!(scored.verdict, verdict);
}

#[test]
fn a_rejected_legacy_group_scores_nothing_a_current_one_its_sum() {
    let rules = GroupRules {
        on_reject: OnReject::Continue,
        accept_score: None,
        max_score: Some(40.0),
        verdict_mode: VerdictMode::FirstError,
        ..GroupRules::default()
    };
    let verdicts = observed(&[Some(AC), Some(WA), Some(AC), Some(AC)]);
    let legacy = flat(rules.clone(), ScoringStyle::Legacy).evaluate(&verdicts);
    assert_eq!((legacy.score, legacy.verdict), (Points(0.0), WA));
    let current = flat(rules, ScoringStyle::Current).evaluate(&verdicts);
    assert_eq!(
        (current.score, current.max_score),
        (Points(30.0), Points(40.0))
    );
}

#[test]
fn range_keeps_a_legacy_score_within_it() {
    let rules = GroupRules {
        range: Some((0.0, 2.5)),
        ..continuing(Aggregation::Sum)
    };
    let plan = flat(rules, ScoringStyle::Legacy);
    assert_eq!(plan.max_score(), Points(2.5));
    let scored = plan.evaluate(&observed(&[Some(AC); 4]));
    assert_eq!(scored.score, Points(2.5));
}

#[test]
fn validator_scores_replace_or_scale_a_tests_score() {
    let rules = GroupRules {
        accept_score: None,
        max_score: Some(100.0),
        ..continuing(Aggregation::Sum)
    };
    let plan = flat(rules, ScoringStyle::Current);
    let with = |score| {
        Some(Observed {
            verdict: AC,
            score: Some(score),
        })
    };
    let scored = plan.evaluate(&[
        with(ValidatorScore::Multiplier(Points(0.5))),
        with(ValidatorScore::Score(Points(10.0))),
        Some(Observed {
            verdict: AC,
            score: None,
        }),
        Some(Observed {
            verdict: WA,
            score: None,
        }),
    ]);
    // 12.5 + 10 + 25 + 0.
    assert_eq!(scored.score, Points(47.5));
    // A score above the test's maximum (25) is the validator's fault.
    let over = plan.evaluate(&[with(ValidatorScore::Score(Points(30.0))), None, None, None]);
    assert_eq!(over.verdict, AC, "always_accept keeps the verdict");
    assert_eq!(over.score, Points(0.0));
    // ... and says why, naming the file, the value and the maximum.
    let faults = plan.score_faults(&[with(ValidatorScore::Score(Points(30.0))), None, None, None]);
    assert_eq!(faults.len(), 1, "{faults:?}");
    assert_eq!(faults[0].0, 0);
    assert!(
        faults[0]
            .1
            .contains("(score.txt, or testlib's `quitp`) gives 30 points, more than the 25 a test"),
        "{faults:?}"
    );
    let within = plan.score_faults(&[with(ValidatorScore::Score(Points(25.0))), None, None, None]);
    assert!(within.is_empty(), "{within:?}");
}

#[test]
fn ignore_sample_leaves_the_samples_out() {
    let mut tree = subtasks();
    tree.root.rules.ignore_sample = true;
    let plan = ScorePlan::new(&tree, &SUBTASK_TESTS).unwrap();
    let scored = plan.evaluate(&observed(&[
        Some(WA),
        Some(AC),
        Some(AC),
        Some(AC),
        Some(AC),
    ]));
    assert_eq!((scored.score, scored.verdict), (Points(100.0), AC));
}

#[test]
fn require_pass_scores_nothing_and_runs_nothing_when_unmet() {
    let pass_fail = |max: f64, require: &[&str]| GroupRules {
        aggregation: Aggregation::PassFail,
        on_reject: OnReject::Break,
        verdict_mode: VerdictMode::FirstError,
        accept_score: None,
        max_score: Some(max),
        require_pass: require.iter().map(|name| (*name).to_owned()).collect(),
        ..GroupRules::default()
    };
    let tree = GroupTree {
        style: ScoringStyle::Current,
        root: TestGroup {
            name: "secret".to_owned(),
            rules: GroupRules {
                on_reject: OnReject::Continue,
                accept_score: None,
                max_score: Some(100.0),
                verdict_mode: VerdictMode::FirstError,
                ..GroupRules::default()
            },
            children: vec![
                group("secret/a", pass_fail(30.0, &[]), vec![test("a")]),
                group("secret/b", pass_fail(70.0, &["secret/a"]), vec![test("b")]),
            ],
        },
    };
    let plan = ScorePlan::new(&tree, &["a", "b"]).unwrap();
    assert!(!plan.reached(1, &[Some(WA)]));
    assert!(plan.reached(1, &[Some(AC)]));
    let scored = plan.evaluate(&observed(&[Some(WA), None]));
    assert_eq!(scored.score, Points(0.0));
    let scored = plan.evaluate(&observed(&[Some(AC), Some(AC)]));
    assert_eq!(scored.score, Points(100.0));
}

#[test]
fn a_tree_must_hold_every_test_in_order() {
    let error = ScorePlan::new(&subtasks(), &["sample/1"]).unwrap_err();
    assert!(error.to_string().contains("names no test"), "{error}");
    assert!(matches!(error, PlanError::NoSuchTest { .. }), "{error:?}");
    let mut names = SUBTASK_TESTS.to_vec();
    names.push("secret/extra");
    let error = ScorePlan::new(&subtasks(), &names).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "the groups hold {} tests, the package {} (`secret/extra` is in none)",
            SUBTASK_TESTS.len(),
            names.len()
        )
    );
}
