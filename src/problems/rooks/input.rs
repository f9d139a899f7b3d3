//! The rooks input model ([`Board`], [`Cell`]), its parser and its printer.
//!
//! This module owns the syntax of problems/rooks/statement.md, Input: a size line,
//! that many rows of `.`/`X`, and a final `0`. Which sizes are allowed depends
//! on the profile, so the caller passes `max_size` in; choosing it is
//! [`super::validate`]'s job, not this module's.

use crate::problems::text::{
    describe, integer_shape, parse_integer_in, InputError, Layout, LineReader,
};
use std::fmt;

/// The largest board any profile allows. problems/rooks/statement.md: a profile
/// `large` with n up to 100.
pub const MAX_SIZE: usize = 100;

/// One cell of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// `.`: a rook may stand here.
    Empty,
    /// `X`: blocks attacks along its row and column.
    Wall,
}

impl Cell {
    /// The cell written as `character`. problems/rooks/statement.md: characters from
    /// `.X` (uppercase X, no spaces).
    pub fn from_char(character: char) -> Option<Cell> {
        match character {
            '.' => Some(Cell::Empty),
            'X' => Some(Cell::Wall),
            _ => None,
        }
    }

    /// How the cell is written in an input.
    pub(crate) fn to_char(self) -> char {
        match self {
            Cell::Empty => '.',
            Cell::Wall => 'X',
        }
    }
}

/// A square board, stored row by row.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    size: usize,
    cells: Vec<Cell>,
}

impl Board {
    /// A board of side `size` whose cell at (`row`, `column`) is
    /// `cell(row, column)`, both 0-based.
    pub fn from_fn(size: usize, mut cell: impl FnMut(usize, usize) -> Cell) -> Board {
        let mut cells = Vec::with_capacity(size * size);
        for row in 0..size {
            for column in 0..size {
                cells.push(cell(row, column));
            }
        }
        Board { size, cells }
    }

    /// The side n.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The cell at (`row`, `column`), or `None` outside the board.
    pub(crate) fn cell(&self, row: usize, column: usize) -> Option<Cell> {
        if row < self.size && column < self.size {
            self.cells.get(row * self.size + column).copied()
        } else {
            None
        }
    }

    /// True when (`row`, `column`) is on the board and empty.
    pub fn is_empty_cell(&self, row: usize, column: usize) -> bool {
        self.cell(row, column) == Some(Cell::Empty)
    }

    /// The rows, top to bottom.
    pub(crate) fn rows(&self) -> impl Iterator<Item = &[Cell]> {
        // `max(1)` because `chunks(0)` panics; an empty board has no cells anyway.
        self.cells.chunks(self.size.max(1))
    }
}

/// The board as it appears in an input: the size line, then the rows, each
/// ending in `\n`.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.size)?;
        for row in self.rows() {
            let text: String = row.iter().map(|cell| cell.to_char()).collect();
            writeln!(f, "{text}")?;
        }
        Ok(())
    }
}

/// A whole input file in the strict layout: every board, then the final `0`.
pub fn print_input(boards: &[Board]) -> String {
    let mut text = String::new();
    for board in boards {
        text.push_str(&board.to_string());
    }
    text.push_str("0\n");
    text
}

/// Reads every board of an input.
///
/// Enforces problems/rooks/statement.md: one or more boards. Each: a line with n, then
/// n lines of n characters from `.X` ... A line `0` ends the input, with
/// 1 <= n <= `max_size`, and nothing after the `0`.
pub fn parse_input(text: &str, layout: Layout, max_size: usize) -> Result<Vec<Board>, InputError> {
    let mut reader = LineReader::new(text, layout);
    let mut boards = Vec::new();
    loop {
        let what = if boards.is_empty() {
            "the board size n"
        } else {
            "the board size n or the final 0"
        };
        let line = reader.expect_line(what)?;
        let size = parse_integer_in(line.text, layout)
            .ok_or_else(|| line.expected(format!("{what} {}", integer_shape(line.text))))?;
        if size == 0 {
            if boards.is_empty() {
                return Err(InputError::constraint(
                    line.number,
                    "the input has no board: at least one must come before the final 0",
                ));
            }
            break;
        }
        let size = usize::try_from(size)
            .ok()
            .filter(|size| (1..=max_size).contains(size))
            .ok_or_else(|| {
                InputError::constraint(
                    line.number,
                    format!("the board size n = {size} is outside 1..={max_size}"),
                )
            })?;
        let board_number = boards.len() + 1;
        let mut cells = Vec::with_capacity(size * size);
        for row in 1..=size {
            let line = reader.expect_line(&format!("row {row} of board {board_number}"))?;
            let count = line.text.chars().count();
            if count != size {
                return Err(InputError::expected(
                    line.number,
                    format!("{size} cells of '.' or 'X'"),
                    format!("{count} ({})", describe(line.text)),
                ));
            }
            for (index, character) in line.text.chars().enumerate() {
                let cell = Cell::from_char(character).ok_or_else(|| {
                    InputError::expected(line.number, "'.' or 'X'", format!("{character:?}"))
                        .at_column(index + 1)
                })?;
                cells.push(cell);
            }
        }
        boards.push(Board { size, cells });
    }
    if let Some(line) = reader.next_line()? {
        return Err(line.expected("the end of the input after the final 0"));
    }
    Ok(boards)
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    #[test]
    fn reads_the_sample() {
        let boards = parse_input("2\nXX\n.X\n1\n.\n0\n", Layout::Strict, 4).unwrap();
        assert_eq!(boards.len(), 2);
        assert_eq!(boards[0].size(), 2);
        assert_eq!(boards[0].cell(0, 0), Some(Cell::Wall));
        assert_eq!(boards[0].cell(1, 0), Some(Cell::Empty));
        assert_eq!(boards[0].cell(2, 0), None);
        assert_eq!(boards[1], Board::from_fn(1, |_, _| Cell::Empty));
    }

    #[test]
    fn lenient_layout_forgives_crlf_spaces_blank_lines_and_no_final_newline() {
        let boards = parse_input(" 2 \r\n\r\nXX\r\n .X\n0", Layout::Lenient, 4).unwrap();
        assert_eq!(
            boards,
            parse_input("2\nXX\n.X\n0\n", Layout::Strict, 4).unwrap()
        );
    }

    #[test]
    fn printing_gives_back_the_text() {
        let text = "3\n.X.\nX.X\n.X.\n1\nX\n0\n";
        let boards = parse_input(text, Layout::Strict, 4).unwrap();
        assert_eq!(print_input(&boards), text);
    }

    #[test_case("4\n.X..\n....\n..X..\n....\n0\n", "line 4: expected 4 cells of '.' or 'X', found 5 (\"..X..\")" ; "row too long")]
    #[test_case("2\n.\n..\n0\n", "line 2: expected 2 cells of '.' or 'X', found 1 (\".\")" ; "row too short")]
    #[test_case("2\n.x\n..\n0\n", "line 2, column 2: expected '.' or 'X', found 'x'" ; "lowercase x")]
    #[test_case("2\n. \n..\n0\n", "line 2: expected no spaces at the start or end of a line, found \". \"" ; "trailing space")]
    #[test_case("2\n..\n", "line 3: expected row 2 of board 1, found end of file" ; "missing row")]
    #[test_case("1\n.\n", "line 3: expected the board size n or the final 0, found end of file" ; "missing final zero")]
    #[test_case("", "line 1: expected the board size n, found end of file" ; "empty file")]
    #[test_case("0\n", "line 1: the input has no board: at least one must come before the final 0" ; "no board")]
    #[test_case("five\n", "line 1: expected the board size n (an integer), found \"five\"" ; "size not a number")]
    #[test_case("1\n.\nn\n", "line 3: expected the board size n or the final 0 (an integer), found \"n\"" ; "second size not a number")]
    #[test_case("5\n", "line 1: the board size n = 5 is outside 1..=4" ; "size too large")]
    #[test_case("-1\n", "line 1: the board size n = -1 is outside 1..=4" ; "negative size")]
    #[test_case("1\n.\n0\n1\n", "line 4: expected the end of the input after the final 0, found \"1\"" ; "text after the final zero")]
    #[test_case("1\r\n.\n0\n", "line 1, column 2: expected a line ending in \\n, found \\r (Windows CRLF line ending)" ; "crlf")]
    fn strict_layout_rejects(text: &str, message: &str) {
        assert_eq!(
            parse_input(text, Layout::Strict, 4).map_err(|error| error.to_string()),
            Err(message.to_owned())
        );
    }

    #[test]
    fn lenient_layout_still_rejects_text_after_the_final_zero() {
        assert_eq!(
            parse_input("1\n.\n0\n\n junk \n", Layout::Lenient, MAX_SIZE)
                .map_err(|error| error.to_string()),
            Err(
                "line 5: expected the end of the input after the final 0, found \"junk\""
                    .to_owned()
            )
        );
    }
}
