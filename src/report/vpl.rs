//! Moodle VPL's evaluation output (`--vpl`; issue #30): the lines VPL
//! reads from an evaluation script's standard output, `Comment :=>>TEXT`
//! (one line of the comments the student sees; a `-` first makes it a
//! title) and one `Grade :=>>MARK`. The items and scores are
//! [`super::platform`]'s.
//!
//! VPL takes the mark as it is, on the activity's own scale, which its
//! evaluation environment names `VPL_GRADEMAX`: the judge's fraction of the
//! points is scaled to it, or, without it, the mark is the judge's own
//! points. A hand-in that cannot be graded gets comments saying why and
//! no `Grade` line, which VPL shows as "not graded" rather than a 0 that
//! reads as a wrong answer.
//!
//! A comment line is one line: a text's own line breaks become further
//! comment lines, so nothing the judge says can start a line VPL would
//! read as a grade.

use super::platform::{self, Graded};
use super::points::{self, hundredths_text, Unit};
use super::rendering::{Input, RenderError};

/// The most bytes of the evaluation's output: VPL shows every comment on
/// the student's page and keeps them with the grade, so the comments stay
/// a readable page (a hand-in of 20,000 files made 5.5 MB).
pub(crate) const SIZE_LIMIT: usize = 256 * 1024;

/// The text for VPL for the one student of `input`, on the scale of
/// `VPL_GRADEMAX` from the process's environment.
pub(crate) fn render(input: &Input<'_>) -> Result<String, RenderError> {
    render_with(input, std::env::var("VPL_GRADEMAX").ok().as_deref())
}

/// [`render`] on the scale of `grade_max` (VPL's `VPL_GRADEMAX`).
pub(crate) fn render_with(
    input: &Input<'_>,
    grade_max: Option<&str>,
) -> Result<String, RenderError> {
    let grade_max = match grade_max.map(str::trim) {
        None | Some("") => None,
        Some(text) => match text.parse::<f64>() {
            Ok(value) if value.is_finite() && value >= 0.0 => Some(points::hundredths(value)),
            _ => {
                let mut said = String::new();
                comment(
                    &mut said,
                    "-The grader is misconfigured: this hand-in was not graded; tell the teacher",
                );
                return Err(RenderError::Misconfigured {
                    message: format!("`VPL_GRADEMAX` is `{text}`, not a number of points"),
                    said,
                });
            }
        },
    };
    let graded = platform::graded(input, "VPL", Unit::Hundredths)?;
    Ok(lines(&graded, grade_max))
}

/// The comments and the grade; `grade_max` is the activity's scale in
/// hundredths.
fn lines(graded: &Graded, grade_max: Option<u64>) -> String {
    let mut out = String::new();
    let gradable = graded.format_errors.is_empty();
    if !gradable {
        comment(&mut out, "-This hand-in cannot be graded");
        for error in &graded.format_errors {
            if out.len() + error.len() > SIZE_LIMIT {
                comment(&mut out, "(more reasons were left out: too long)");
                break;
            }
            comment(&mut out, error);
        }
        return out;
    }
    if !graded.notes.is_empty() {
        comment(&mut out, "-Not graded");
        for note in &graded.notes {
            comment(&mut out, note);
        }
    }
    comment(&mut out, "-Summary");
    comment(&mut out, &graded.summary);
    let item_lines = |with_output: bool| -> Vec<String> {
        graded
            .items
            .iter()
            .map(|item| {
                let status = if item.passed { "passed" } else { "failed" };
                let shown = if item.sample { "" } else { " (hidden test)" };
                let mut lines = String::new();
                comment(
                    &mut lines,
                    &format!(
                        "-{}: {status}, {} of {}{shown}",
                        item.name,
                        hundredths_text(item.score),
                        hundredths_text(item.max_score)
                    ),
                );
                if with_output {
                    comment(&mut lines, &item.output);
                }
                lines
            })
            .collect()
    };
    // Under SIZE_LIMIT: the items' outputs left out when they would pass
    // it, then the items past it.
    let mut items = item_lines(true);
    let budget = SIZE_LIMIT.saturating_sub(out.len() + 256);
    if items.iter().map(String::len).sum::<usize>() > budget {
        items = item_lines(false);
        comment(&mut out, "(the tests' outputs were left out: too long)");
    }
    let mut used = 0;
    let mut listed = 0;
    for lines in &items {
        if used + lines.len() > budget {
            break;
        }
        used += lines.len();
        listed += 1;
    }
    for lines in &items[..listed] {
        out.push_str(lines);
    }
    if listed < items.len() {
        comment(
            &mut out,
            &format!("({} tests were left out: too many)", items.len() - listed),
        );
    }
    // In whole hundredths, rounded half up: the scaled grade of 4 of 7
    // tests on a scale of 10 is 5.71.
    let grade = match grade_max {
        Some(grade_max) if graded.max_score > 0 => {
            let scaled = points::divide_rounded(
                u128::from(graded.score) * u128::from(grade_max),
                u128::from(graded.max_score),
            );
            u64::try_from(scaled).unwrap_or(u64::MAX)
        }
        Some(_) => 0,
        None => graded.score,
    };
    out.push_str(&format!("Grade :=>>{}\n", hundredths_text(grade)));
    out
}

/// `text` as comment lines, one per line of it.
fn comment(out: &mut String, text: &str) {
    for line in text.lines() {
        out.push_str("Comment :=>>");
        out.push_str(line);
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::platform::Item;

    fn graded() -> Graded {
        Graded {
            score: 5000,
            max_score: 10_000,
            summary: "rooks: 50.00 of 100.00 (WA)".to_owned(),
            items: vec![Item {
                name: "rooks: 001".to_owned(),
                number: "1.1".to_owned(),
                score: 0,
                max_score: 5000,
                passed: false,
                sample: false,
                whole: false,
                output: "001: WA\nGrade :=>>100".to_owned(),
            }],
            ..Graded::default()
        }
    }

    /// See: issue #30. A line of a program's words that looks like VPL's
    /// grade line stays a comment: only the judge's own last line grades.
    #[test]
    fn r30_no_text_can_start_a_grade_line() {
        let text = lines(&graded(), None);
        let grades: Vec<&str> = text
            .lines()
            .filter(|line| line.starts_with("Grade :=>>"))
            .collect();
        assert_eq!(grades, ["Grade :=>>50.00"], "{text}");
        assert!(text
            .lines()
            .all(|line| line.starts_with("Comment :=>>") || line.starts_with("Grade :=>>")));
    }

    #[test]
    fn the_grade_is_on_the_activitys_scale() {
        assert!(lines(&graded(), Some(1000)).ends_with("Grade :=>>5.00\n"));
        let four_of_seven = Graded {
            score: 5714,
            ..graded()
        };
        assert!(lines(&four_of_seven, Some(1000)).ends_with("Grade :=>>5.71\n"));
    }

    /// See: issue #30. Thousands of items of a page each stay under the
    /// cap, and the grade line is still the last.
    #[test]
    fn r30_the_comments_stay_under_their_cap() {
        let item = graded().items[0].clone();
        let many = Graded {
            items: (0..2000)
                .map(|index| Item {
                    name: format!("rooks: {index:05}"),
                    output: "x".repeat(4096),
                    ..item.clone()
                })
                .collect(),
            ..graded()
        };
        let text = lines(&many, None);
        assert!(text.len() < SIZE_LIMIT, "{} bytes", text.len());
        assert!(text.ends_with("Grade :=>>50.00\n"), "{text}");
        assert!(text.contains("outputs were left out"));
        let more = Graded {
            items: (0..20_000)
                .map(|index| Item {
                    name: format!("rooks: {index:05}"),
                    ..item.clone()
                })
                .collect(),
            ..graded()
        };
        let text = lines(&more, None);
        assert!(text.len() < SIZE_LIMIT, "{} bytes", text.len());
        assert!(text.contains("tests were left out: too many"));
    }

    #[test]
    fn a_hand_in_that_cannot_be_graded_has_no_grade_line() {
        let graded = Graded {
            format_errors: vec!["no file for problem `rooks`".to_owned()],
            ..graded()
        };
        let text = lines(&graded, Some(1000));
        assert!(!text.contains("Grade :=>>"), "{text}");
        assert!(text.contains("Comment :=>>no file for problem `rooks`"));
    }
}
