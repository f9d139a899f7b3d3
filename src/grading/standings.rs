//! A class's standings (issue #33: the report decides nothing): a
//! student's score on a problem is their best submission's (the
//! gradebook's score, [`Row::score_points`]), their total the sum over the
//! problems, out of the sum of the problems' maxima; a problem scored by
//! test groups is out of its groups' maximum, any other (pass-fail, or one
//! nobody handed in) out of 100, the percent model. The HTML ranking, a
//! student's own page and a platform's file show these figures as they
//! are handed them ([`Standings`]).

use super::grade::GradedResult;
use crate::report::{Missing, Ranked, Row, Standings};
use crate::runner::SubmissionResult;
use std::collections::BTreeMap;

/// The maximum of a problem no result gives one: the percent model.
const PERCENT: f64 = 100.0;

/// The standings of `rows` and the pairs `missing` (see the module's
/// documentation).
pub(crate) fn of(rows: &[&dyn Row], missing: &[Missing]) -> Standings {
    let mut problems: Vec<(String, Option<f64>)> = Vec::new();
    let mut known = |problem: &str| match problems.iter().position(|(p, _)| p == problem) {
        Some(index) => index,
        None => {
            problems.push((problem.to_owned(), None));
            problems.len() - 1
        }
    };
    let indices: Vec<usize> = rows
        .iter()
        .map(|row| known(&row.result().problem))
        .collect();
    for pair in missing {
        known(&pair.problem);
    }
    let mut scores: BTreeMap<(String, String), f64> = BTreeMap::new();
    for (row, index) in rows.iter().zip(indices) {
        let result = row.result();
        if let (Some(max), Some((_, maximum))) = (result.max_score, problems.get_mut(index)) {
            *maximum = Some(maximum.map_or(max.0, |known: f64| known.max(max.0)));
        }
        let score = row.score_points();
        scores
            .entry((row.student(), result.problem.clone()))
            .and_modify(|best| *best = best.max(score))
            .or_insert(score);
    }
    let problems: Vec<(String, f64)> = problems
        .into_iter()
        .map(|(problem, maximum)| (problem, maximum.unwrap_or(PERCENT)))
        .collect();
    let mut totals: BTreeMap<String, f64> = BTreeMap::new();
    // Summed in the problems' order, the order a reader adds them in.
    for (problem, _) in &problems {
        for ((student, scored), score) in &scores {
            if scored == problem {
                let total = totals.entry(student.clone()).or_insert(0.0);
                *total += score;
            }
        }
    }
    let most = problems.iter().map(|(_, maximum)| maximum).sum();
    Standings {
        problems,
        scores,
        totals,
        most,
    }
}

impl Ranked for [GradedResult] {
    fn standings(&self, missing: &[Missing]) -> Standings {
        let rows: Vec<&dyn Row> = self.iter().map(|row| row as &dyn Row).collect();
        of(&rows, missing)
    }
}

impl Ranked for [SubmissionResult] {
    fn standings(&self, missing: &[Missing]) -> Standings {
        let rows: Vec<&dyn Row> = self.iter().map(|row| row as &dyn Row).collect();
        of(&rows, missing)
    }
}

impl Ranked for [&dyn Row] {
    fn standings(&self, missing: &[Missing]) -> Standings {
        of(self, missing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::TestResult;
    use crate::verdict::{Points, Verdict};

    fn graded(student: &str, problem: &str, passed: usize, total: usize) -> GradedResult {
        let tests = (0..total)
            .map(|index| {
                let verdict = if index < passed {
                    Verdict::Accepted
                } else {
                    Verdict::WrongAnswer
                };
                TestResult::fixture(&format!("{index:03}"), verdict)
            })
            .collect();
        GradedResult::fixture(
            SubmissionResult::fixture(problem, &format!("{student}/{problem}.py"), tests),
            student,
        )
    }

    fn missing(student: &str, problem: &str) -> Missing {
        Missing {
            student: student.to_owned(),
            problem: problem.to_owned(),
        }
    }

    /// A student's best submission counts; the total is the sum over the
    /// problems, out of their maxima: 100 each without groups, a problem
    /// nobody handed in too.
    #[test]
    fn the_best_submission_counts_and_the_maxima_add_up() {
        let rows = [
            graded("ada", "rooks", 1, 4),
            graded("ada", "rooks", 3, 4),
            graded("ben", "rooks", 2, 4),
            graded("ben", "mayan", 4, 4),
        ];
        let standings = rows.standings(&[missing("ada", "mayan"), missing("cy", "matchsticks")]);
        assert_eq!(
            standings.problems().collect::<Vec<_>>(),
            ["rooks", "mayan", "matchsticks"]
        );
        assert_eq!(standings.score("ada", "rooks"), Some(75.0));
        assert_eq!(standings.score("ada", "mayan"), None);
        assert_eq!(standings.total("ada"), 75.0);
        assert_eq!(standings.total("ben"), 150.0);
        assert_eq!(standings.total("cy"), 0.0);
        assert_eq!(standings.maximum("matchsticks"), Some(100.0));
        assert_eq!(standings.maximum("nothing"), None);
        assert_eq!(standings.most, 300.0);
    }

    /// A problem scored by groups is out of its groups' maximum, the
    /// largest any of its results says.
    #[test]
    fn a_grouped_problem_is_out_of_its_groups_maximum() {
        let mut scored = graded("ada", "rooks", 1, 2);
        scored.result.score = Some(Points(30.0));
        scored.result.max_score = Some(Points(60.0));
        let rows = [
            scored,
            graded("ben", "rooks", 2, 2),
            graded("ben", "mayan", 0, 2),
        ];
        let standings = rows.standings(&[]);
        assert_eq!(standings.maximum("rooks"), Some(60.0));
        assert_eq!(standings.maximum("mayan"), Some(100.0));
        assert_eq!(standings.score("ada", "rooks"), Some(30.0));
        assert_eq!(standings.most, 160.0);
        // The same rows behind `&dyn Row`, as the platforms get them.
        let dyn_rows: Vec<&dyn Row> = rows.iter().map(|row| row as &dyn Row).collect();
        assert_eq!(dyn_rows.as_slice().standings(&[]), standings);
    }
}
