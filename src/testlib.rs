//! testlib's conventions that several layers read (a leaf: it imports
//! only [`crate::verdict`]): the exit code of `quitp` and the points its
//! message starts with. A package's checker ([`crate::external`]), a testlib
//! interactor ([`crate::runner`]'s interactive runs) and Polygon's
//! `problem.xml` points (`crate::package::polygon`) read them here, so none
//! of those layers has to name another for them (issue #33).
//! Not here: what the other exit codes mean to each protocol, which stays
//! with the layer that decides a verdict.

use crate::verdict::Points;

/// testlib's `POINTS_EXIT_CODE`: what `quitp(points, ...)` exits with.
pub(crate) const TESTLIB_POINTS: i32 = 7;

/// The points a testlib message starts with, as `quitp` writes it on
/// stderr: `points 7.5 ...` (the word `points`, then the number as testlib
/// prints it, `%d` or `%.10f` without its trailing zeros), a number of at
/// least 0. testlib writes nothing else, so a number without the word,
/// with an exponent (`1e1`), a sign (`+2`) or in hexadecimal is refused;
/// `-0` (what `quitp(-0.0)` prints) is 0.
pub(crate) fn testlib_points(message: &str) -> Option<Points> {
    let mut words = message.split_whitespace();
    if words.next()? != "points" {
        return None;
    }
    let number = words.next()?;
    let digits = number.strip_prefix('-').unwrap_or(number);
    if !is_plain_decimal(digits) {
        return None;
    }
    // `+ 0.0` makes -0 the 0 it is.
    Points::parse(number)
        .ok()
        .map(|points| Points(points.0 + 0.0))
}

/// Whether `text` is digits, then at most a `.` and more digits (`12`,
/// `2.5`): a number as testlib and Polygon's `problem.xml` write points.
pub(crate) fn is_plain_decimal(text: &str) -> bool {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, "0"));
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|byte| byte.is_ascii_digit());
    digits(whole) && digits(fraction)
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    #[test_case("12.5 no prefix" ; "no prefix")]
    #[test_case("points 1e1 exponent" ; "exponent")]
    #[test_case("points +12.5 plus" ; "plus sign")]
    #[test_case("points 0x10 hex" ; "hexadecimal")]
    #[test_case("points 12,5 comma" ; "comma")]
    #[test_case("points .5 no whole part" ; "no whole part")]
    #[test_case("points 5. no fraction" ; "no fraction")]
    #[test_case("points inf" ; "infinity")]
    fn points_testlib_would_not_write_are_refused(message: &str) {
        assert_eq!(testlib_points(message), None, "{message}");
    }
}
