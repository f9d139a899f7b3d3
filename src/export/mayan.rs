//! The self-contained validators of an exported mayan package (issue #34,
//! item 9): single-file C++ programs, standard library only, that the
//! judging host compiles from the package, where `judge` is not installed.
//!
//! - The input validator checks what `judge validate mayan` checks: the
//!   strict layout, `1 <= n <= 5` without a leading zero, five column lines
//!   of colours `1..=10` bottom-up (one whitespace character between
//!   numbers, at most 7 blocks) each ending in `0` with nothing after,
//!   nothing after the fifth, no run of three in the initial board and at
//!   least one block; exit 42 valid, 43 invalid with "line L: ..." on
//!   stderr.
//! - The output validator decides as `judge check mayan` does: `-1` is
//!   right only when the board cannot be cleared in exactly n moves without
//!   same-colour swaps; moves are replayed with the statement's rules (a
//!   swap with a block there, else a drop; runs of three or more vanish
//!   together, blocks fall, until nothing vanishes), and must clear the
//!   board in exactly n; with `lexmin` (the package's checker option) the
//!   moves must also be the smallest solution under either reading of
//!   same-colour swaps, found by the same search in the same order (x, then
//!   y, then g with 1 before -1). A wrong output is 43 with the reason in
//!   `judgemessage.txt`; an input or answer file the judge would not accept
//!   exits 1, the judge's fault, as `judge check` exits 3.

const TEXT: &str = include_str!("cpp/text.hpp");
const GAME: &str = include_str!("cpp/mayan_game.hpp");
const INPUT: &str = include_str!("cpp/mayan_input.hpp");

/// The input validator's source.
pub(super) fn input_validator(id: &str, marker: &str) -> String {
    super::cpp_program(
        id,
        marker,
        "Kattis input validator: the rules of the statement's Input section, as `judge \
         validate` checks them. Exit 42 valid, 43 invalid (\"line L: ...\" on stderr).",
        &[TEXT, GAME, INPUT, include_str!("cpp/mayan_validate.cpp")],
    )
}

/// The output validator's source; `lexmin` as the package's checker says.
pub(super) fn output_validator(id: &str, marker: &str, lexmin: bool) -> String {
    let lexmin = format!("static const bool LEXMIN = {lexmin};");
    super::cpp_program(
        id,
        marker,
        "Kattis output validator: the moves replayed, as `judge check` decides. Exit 42 \
         accepted, 43 wrong answer (the reason in FEEDBACK_DIR/judgemessage.txt), 1 when the \
         input or the answer file is wrong.",
        &[
            &lexmin,
            TEXT,
            GAME,
            INPUT,
            include_str!("cpp/mayan_check.cpp"),
        ],
    )
}
