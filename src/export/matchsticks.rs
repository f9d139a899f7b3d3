//! The self-contained validators of an exported matchsticks package
//! (issue #34, item 9): single-file C++ programs, standard library only,
//! that the judging host (Kattis, DOMjudge, a contest's problemtools)
//! compiles from the package, where `judge` is not installed.
//!
//! - The input validator checks what `judge validate matchsticks` checks:
//!   the strict layout (every line ends in `\n`, no `\r`, no blank line, no
//!   space at either end, UTF-8), `1 <= k <= 99` without a leading zero, k
//!   positions of three rows of four characters from `0`, `-`, `1`, nothing
//!   after, and a legal move in every position; exit 42 valid, 43 invalid
//!   with "line L: ..." on stderr.
//! - The output validator decides as `judge check matchsticks` does: one
//!   move per position, `rcd` (a token of three characters) or `r c d`,
//!   tokens split on Unicode whitespace as the judge reads them, output
//!   that is not UTF-8 rejected; a move must be legal, and when the position
//!   is won it must leave the opponent lost (any legal move of a lost
//!   position is right), by the same game solved over the 3^12 boards; a
//!   missing, malformed or extra move is 43 with the position in
//!   `judgemessage.txt`. An input or answer file the judge would not accept
//!   (an answer move that is not optimal included) exits 1, the judge's
//!   fault, as `judge check` exits 3.
//!
//! Each carries the package's `// judge-engine:` line, so `judge`, reading
//! the export back, still grades with the engine.

/// What every exported C++ program shares: reading text as the judge does.
const TEXT: &str = include_str!("cpp/text.hpp");
/// The game: board, placement rule, the solved table.
const GAME: &str = include_str!("cpp/matchsticks_game.hpp");

/// The input validator's source; `duel` for matchsticks-duel, whose games
/// must also be won for the side to move.
pub(super) fn input_validator(id: &str, marker: &str, duel: bool) -> String {
    let duel = format!("static const bool DUEL = {duel};");
    super::cpp_program(
        id,
        marker,
        "Kattis input validator: the rules of the statement's Input section, as `judge \
         validate` checks them. Exit 42 valid, 43 invalid (\"line L: ...\" on stderr).",
        &[
            &duel,
            TEXT,
            GAME,
            include_str!("cpp/matchsticks_validate.cpp"),
        ],
    )
}

/// The output validator's source.
pub(super) fn output_validator(id: &str, marker: &str) -> String {
    program(
        id,
        marker,
        "Kattis output validator: a move per position, legal and optimal, as `judge \
         check` decides. Exit 42 accepted, 43 wrong answer (the reason in \
         FEEDBACK_DIR/judgemessage.txt), 1 when the input or the answer file is wrong.",
        include_str!("cpp/matchsticks_check.cpp"),
    )
}

/// The interactor of matchsticks-duel: the judge's side of the games.
pub(super) fn interactor(id: &str, marker: &str) -> String {
    program(
        id,
        marker,
        "Kattis interactor: plays the games as `judge interact` does. Exit 42 when the \
         submission wins every game, 43 otherwise (the reason in \
         FEEDBACK_DIR/judgemessage.txt), 1 when the input is wrong.",
        include_str!("cpp/matchsticks_interact.cpp"),
    )
}

/// One C++ file: a header naming what it is, the marker, the shared parts
/// and `main`.
fn program(id: &str, marker: &str, about: &str, main: &str) -> String {
    super::cpp_program(id, marker, about, &[TEXT, GAME, main])
}
