//! The matchsticks model: the 3 x 4 board, a move, the placement rule, and
//! the parser of an input file.
//!
//! This module owns the *rules of the game* (which placements are legal) so
//! the solver, the validator, the generator and the checker cannot disagree
//! about them. It does not know who wins: that is `solve.rs`.

use crate::problems::text::{describe, Layout, LineReader};
use crate::problems::InputError;
use std::fmt;

/// Rows of the board (problems/matchsticks/statement.md: A 3 x 4 grid ... Rows are numbered 0..2).
pub(crate) const ROWS: usize = 3;
/// Columns of the board ("columns 0..3 left to right").
pub(crate) const COLUMNS: usize = 4;
/// Cells of the board; cell `4 * row + column` is base-3 digit number
/// `4 * row + column` of [`Board::code`].
pub(crate) const CELLS: usize = ROWS * COLUMNS;
/// Number of distinct boards, 3^12: every cell empty, vertical or horizontal.
pub(crate) const BOARD_COUNT: usize = 531_441;

/// The largest number of positions in one input (problems/matchsticks/statement.md: 1 <= k < 100).
pub(crate) const MAX_POSITIONS: i64 = 99;

/// `3^i` for every cell index `i`.
pub(crate) const POWERS_OF_THREE: [u32; CELLS] = {
    let mut powers = [1; CELLS];
    let mut index = 1;
    while index < CELLS {
        powers[index] = powers[index - 1] * 3;
        index += 1;
    }
    powers
};

/// One cell of the board, written `0`, `1` or `-` (problems/matchsticks/statement.md: each cell is
/// empty `0`, holds a vertical stick `1`, or a horizontal stick `-`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    Empty,
    Vertical,
    Horizontal,
}

impl Cell {
    /// The cell written as `character`, if it is one of `0`, `1`, `-`.
    pub(crate) fn from_char(character: char) -> Option<Cell> {
        match character {
            '0' => Some(Cell::Empty),
            '1' => Some(Cell::Vertical),
            '-' => Some(Cell::Horizontal),
            _ => None,
        }
    }

    /// How the cell is written in an input.
    pub(crate) fn to_char(self) -> char {
        match self {
            Cell::Empty => '0',
            Cell::Vertical => '1',
            Cell::Horizontal => '-',
        }
    }

    /// The cell's base-3 digit in [`Board::code`]; a stick is never 0, so
    /// placing one only ever increases the code.
    pub(crate) fn digit(self) -> u32 {
        match self {
            Cell::Empty => 0,
            Cell::Vertical => 1,
            Cell::Horizontal => 2,
        }
    }

    fn from_digit(digit: u32) -> Cell {
        match digit {
            0 => Cell::Empty,
            1 => Cell::Vertical,
            _ => Cell::Horizontal,
        }
    }
}

/// Which way a placed stick lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Orientation {
    /// `-`: lies along its row.
    Horizontal,
    /// `1`: lies along its column. Tried first: see [`Board::legal_moves`].
    Vertical,
}

impl Orientation {
    /// Both orientations, in the order moves are tried.
    pub(crate) const ALL: [Orientation; 2] = [Orientation::Vertical, Orientation::Horizontal];

    /// The orientation written `character` (`-` or `1`).
    pub(crate) fn from_char(character: char) -> Option<Orientation> {
        match character {
            '-' => Some(Orientation::Horizontal),
            '1' => Some(Orientation::Vertical),
            _ => None,
        }
    }

    /// How the orientation is written in an output.
    pub fn to_char(self) -> char {
        self.stick().to_char()
    }

    /// The cell a stick of this orientation makes.
    pub(crate) fn stick(self) -> Cell {
        match self {
            Orientation::Horizontal => Cell::Horizontal,
            Orientation::Vertical => Cell::Vertical,
        }
    }
}

/// A move on the board: coordinates are in range by construction (use
/// `Board::legal_move` to turn contestant numbers into one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub row: u8,
    pub column: u8,
    pub orientation: Orientation,
}

impl Move {
    /// The move as the original writes it, e.g. `00-` (problems/matchsticks/statement.md:
    /// "written `00-` as in the original").
    pub fn compact(&self) -> String {
        format!("{}{}{}", self.row, self.column, self.orientation.to_char())
    }

    fn cell_index(&self) -> usize {
        usize::from(self.row) * COLUMNS + usize::from(self.column)
    }
}

/// `r c d` with spaces: how moves are named in checker messages.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {}",
            self.row,
            self.column,
            self.orientation.to_char()
        )
    }
}

/// Why a placement is not allowed (problems/matchsticks/statement.md: An illegal move (occupied
/// cell, connected stick, off the board) is WA). Displays as the fragment
/// after "is illegal: ".
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("row {0} is off the board")]
    RowOffBoard(i64),
    #[error("column {0} is off the board")]
    ColumnOffBoard(i64),
    #[error("cell {row} {column} is occupied")]
    Occupied { row: u8, column: u8 },
    /// The stick named is the nearest one it would connect to, looking left
    /// (or up) first, then right (or down).
    #[error("connected to the stick at {row} {column}")]
    Connected { row: u8, column: u8 },
}

/// The index in `line` of the stick that a `stick` placed at `position` would
/// be connected to, or `None` when the placement is allowed.
///
/// problems/matchsticks/statement.md: a horizontal stick is connected to another horizontal stick
/// in the same row when every cell between them is empty or horizontal (i.e.
/// no vertical stick lies between them); likewise a vertical stick with
/// another vertical stick in the same column unless a horizontal stick lies
/// between them. Empty cells do not block. `line` is a row for a horizontal
/// stick and a column for a vertical one; the side towards index 0 is looked
/// at first.
pub(crate) fn connected_stick(line: &[Cell], position: usize, stick: Cell) -> Option<usize> {
    let scan = |indices: &mut dyn Iterator<Item = usize>| {
        for index in indices {
            match line[index] {
                Cell::Empty => {}
                cell if cell == stick => return Some(index),
                _ => return None,
            }
        }
        None
    };
    scan(&mut (0..position).rev()).or_else(|| scan(&mut (position + 1..line.len())))
}

/// One 3 x 4 board, row 0 at the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [Cell; CELLS],
}

impl Board {
    /// The board with every cell empty.
    pub(crate) const EMPTY: Board = Board {
        cells: [Cell::Empty; CELLS],
    };

    /// The board whose rows are `rows`, top first.
    pub(crate) fn from_rows(rows: [[Cell; COLUMNS]; ROWS]) -> Board {
        let mut cells = [Cell::Empty; CELLS];
        for (row, cells_of_row) in rows.iter().enumerate() {
            cells[row * COLUMNS..(row + 1) * COLUMNS].copy_from_slice(cells_of_row);
        }
        Board { cells }
    }

    /// Parses three rows written as in an input, e.g. `["0111", "-000", "-000"]`;
    /// `None` when a row is not 4 characters from `0`, `1`, `-`.
    pub fn parse_rows(rows: [&str; ROWS]) -> Option<Board> {
        let mut cells = [Cell::Empty; CELLS];
        for (row, text) in rows.iter().enumerate() {
            if text.chars().count() != COLUMNS {
                return None;
            }
            for (column, character) in text.chars().enumerate() {
                cells[row * COLUMNS + column] = Cell::from_char(character)?;
            }
        }
        Some(Board { cells })
    }

    /// The board with base-3 code `code` (see `Board::code`); digits beyond
    /// the 12 cells are ignored.
    pub fn from_code(code: u32) -> Board {
        let mut cells = [Cell::Empty; CELLS];
        let mut rest = code;
        for cell in &mut cells {
            *cell = Cell::from_digit(rest % 3);
            rest /= 3;
        }
        Board { cells }
    }

    /// The board's number in `0..3^12`: cell `4 * row + column` is base-3
    /// digit number `4 * row + column`, empty 0, vertical 1, horizontal 2.
    pub(crate) fn code(&self) -> u32 {
        self.cells
            .iter()
            .zip(POWERS_OF_THREE)
            .map(|(cell, power)| cell.digit() * power)
            .sum()
    }

    /// The cell at `row`, `column` (both in range).
    pub(crate) fn cell(&self, row: usize, column: usize) -> Cell {
        self.cells[row * COLUMNS + column]
    }

    /// The rows as written in an input, top first.
    pub fn rows(&self) -> [String; ROWS] {
        std::array::from_fn(|row| {
            self.cells[row * COLUMNS..(row + 1) * COLUMNS]
                .iter()
                .map(|cell| cell.to_char())
                .collect()
        })
    }

    /// Number of empty cells.
    pub fn empty_cells(&self) -> usize {
        self.cells
            .iter()
            .filter(|&&cell| cell == Cell::Empty)
            .count()
    }

    /// Decides whether placing `orientation` at `row`, `column` is allowed.
    /// The numbers are the contestant's, so any value is answered, never a
    /// panic; off the board is checked row first, then column.
    pub(crate) fn legal_move(
        &self,
        row: i64,
        column: i64,
        orientation: Orientation,
    ) -> Result<Move, IllegalMove> {
        let row = u8::try_from(row)
            .ok()
            .filter(|&row| usize::from(row) < ROWS)
            .ok_or(IllegalMove::RowOffBoard(row))?;
        let column = u8::try_from(column)
            .ok()
            .filter(|&column| usize::from(column) < COLUMNS)
            .ok_or(IllegalMove::ColumnOffBoard(column))?;
        let candidate = Move {
            row,
            column,
            orientation,
        };
        if self.cells[candidate.cell_index()] != Cell::Empty {
            return Err(IllegalMove::Occupied { row, column });
        }
        let (row_index, column_index) = (usize::from(row), usize::from(column));
        let connected = match orientation {
            Orientation::Horizontal => {
                let line = &self.cells[row_index * COLUMNS..(row_index + 1) * COLUMNS];
                connected_stick(line, column_index, Cell::Horizontal)
                    .map(|other| (row_index, other))
            }
            Orientation::Vertical => {
                let line: [Cell; ROWS] = std::array::from_fn(|r| self.cell(r, column_index));
                connected_stick(&line, row_index, Cell::Vertical).map(|other| (other, column_index))
            }
        };
        match connected {
            None => Ok(candidate),
            // Both indices come from a line of the board, so they fit a u8.
            Some((other_row, other_column)) => Err(IllegalMove::Connected {
                row: other_row as u8,
                column: other_column as u8,
            }),
        }
    }

    /// Every legal move, in the order the solver tries them: cells in reading
    /// order (row 0 first, left to right), and in each cell the vertical stick
    /// `1` before the horizontal `-`. With this order the reference answers
    /// to problems/matchsticks/statement.md's sample are `001` and `201`, answers the original lists.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        for row in 0..ROWS as i64 {
            for column in 0..COLUMNS as i64 {
                for orientation in Orientation::ALL {
                    if let Ok(legal) = self.legal_move(row, column, orientation) {
                        moves.push(legal);
                    }
                }
            }
        }
        moves
    }

    /// True when at least one stick can be placed.
    pub fn has_legal_move(&self) -> bool {
        !self.legal_moves().is_empty()
    }

    /// The board after `placed` (which must be legal: the placement rule is
    /// not checked again here).
    pub fn with(&self, placed: Move) -> Board {
        let mut next = *self;
        next.cells[placed.cell_index()] = placed.orientation.stick();
        next
    }
}

/// Three lines, as in an input (without a final newline).
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [first, second, third] = self.rows();
        write!(f, "{first}\n{second}\n{third}")
    }
}

/// One position of an input and where it was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// 1-based number of the position in the input.
    pub(crate) number: usize,
    /// Line of the input where its first row is.
    pub(crate) first_line: usize,
    pub board: Board,
}

impl Position {
    /// The error for a position on which nobody can move. problems/matchsticks/statement.md: Inputs
    /// always have at least one legal move; the validator rejects a position with
    /// none.
    pub(crate) fn no_legal_move(&self) -> InputError {
        InputError::constraint(
            self.first_line,
            format!("{} has no legal move", self.describe()),
        )
    }

    /// "position 2 (lines 5-7: "1111", "----", "0010")": how validator
    /// messages name a position.
    pub(crate) fn describe(&self) -> String {
        let rows = self.board.rows().map(|row| format!("{row:?}")).join(", ");
        format!(
            "position {} (lines {}-{}: {rows})",
            self.number,
            self.first_line,
            self.first_line + ROWS - 1
        )
    }
}

/// A whole input: problems/matchsticks/statement.md k (1 <= k < 100), then k positions of 3 lines
/// of 4 characters from `0-1`, no blank lines between positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub positions: Vec<Position>,
}

impl Input {
    /// The input file for `boards`, as the generator writes it.
    pub(crate) fn render(boards: &[Board]) -> String {
        let mut text = format!("{}\n", boards.len());
        for board in boards {
            text.push_str(&board.to_string());
            text.push('\n');
        }
        text
    }
}

/// Parses an input. Syntax and the range of k are checked here; rules about
/// the positions themselves are `validate.rs`'s.
pub fn parse(text: &str, layout: Layout) -> Result<Input, InputError> {
    let mut lines = LineReader::new(text, layout);
    let count = lines.expect_line("the number of positions k")?.integer_in(
        "the number of positions k",
        1..=MAX_POSITIONS,
        layout,
    )?;
    let mut positions = Vec::new();
    for number in 1..=count as usize {
        let mut cells = [[Cell::Empty; COLUMNS]; ROWS];
        let mut first_line = 0;
        for (row, cells_of_row) in cells.iter_mut().enumerate() {
            let what = format!("row {row} of position {number} (4 characters from `0`, `-`, `1`)");
            let line = lines.expect_line(&what)?;
            if row == 0 {
                first_line = line.number;
            }
            if line.text.chars().count() != COLUMNS {
                return Err(line.expected(what));
            }
            for (column, character) in line.text.chars().enumerate() {
                cells_of_row[column] = Cell::from_char(character).ok_or_else(|| {
                    InputError::expected(
                        line.number,
                        what.clone(),
                        format!(
                            "{} in {}",
                            describe(&character.to_string()),
                            describe(line.text)
                        ),
                    )
                    .at_column(column + 1)
                })?;
            }
        }
        positions.push(Position {
            number,
            first_line,
            board: Board::from_rows(cells),
        });
    }
    lines.expect_end()?;
    Ok(Input { positions })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use test_case::test_case;

    fn board(rows: [&str; 3]) -> Board {
        Board::parse_rows(rows).unwrap()
    }

    #[test_case(["0000", "0000", "0000"], 0, 1, Orientation::Horizontal, Ok(()) ; "empty board")]
    #[test_case(["-000", "0000", "0000"], 0, 3, Orientation::Horizontal, Err(IllegalMove::Connected { row: 0, column: 0 }) ; "empty cells do not block")]
    #[test_case(["-010", "0000", "0000"], 0, 3, Orientation::Horizontal, Ok(()) ; "vertical stick blocks a row")]
    #[test_case(["-0-0", "0000", "0000"], 0, 1, Orientation::Horizontal, Err(IllegalMove::Connected { row: 0, column: 0 }) ; "left side is named first")]
    #[test_case(["01-0", "0000", "0000"], 0, 0, Orientation::Horizontal, Ok(()) ; "horizontal behind a vertical")]
    #[test_case(["1000", "0000", "1000"], 1, 0, Orientation::Vertical, Err(IllegalMove::Connected { row: 0, column: 0 }) ; "vertical between verticals")]
    #[test_case(["1000", "-000", "0000"], 2, 0, Orientation::Vertical, Ok(()) ; "horizontal stick blocks a column")]
    #[test_case(["0000", "0000", "0010"], 0, 2, Orientation::Vertical, Err(IllegalMove::Connected { row: 2, column: 2 }) ; "vertical below")]
    #[test_case(["0000", "0000", "0010"], 2, 2, Orientation::Vertical, Err(IllegalMove::Occupied { row: 2, column: 2 }) ; "occupied")]
    #[test_case(["0000", "0000", "0000"], 3, 0, Orientation::Vertical, Err(IllegalMove::RowOffBoard(3)) ; "row off the board")]
    #[test_case(["0000", "0000", "0000"], -1, 9, Orientation::Vertical, Err(IllegalMove::RowOffBoard(-1)) ; "negative row is checked first")]
    #[test_case(["0000", "0000", "0000"], 0, 4, Orientation::Vertical, Err(IllegalMove::ColumnOffBoard(4)) ; "column off the board")]
    fn placement_rule(
        rows: [&str; 3],
        row: i64,
        column: i64,
        orientation: Orientation,
        expected: Result<(), IllegalMove>,
    ) {
        assert_eq!(
            board(rows).legal_move(row, column, orientation).map(|_| ()),
            expected
        );
    }

    #[test]
    fn given_connected_sticks_do_not_forbid_other_placements() {
        // The original sample: row `----` is already connected.
        let sample = board(["1111", "----", "0010"]);
        let moves: Vec<String> = sample.legal_moves().iter().map(Move::compact).collect();
        assert_eq!(moves, ["201", "20-", "211", "21-", "231", "23-"]);
    }

    #[test]
    fn illegal_move_reasons_read_as_fragments() {
        assert_eq!(
            IllegalMove::Connected { row: 1, column: 0 }.to_string(),
            "connected to the stick at 1 0"
        );
        assert_eq!(
            IllegalMove::Occupied { row: 1, column: 2 }.to_string(),
            "cell 1 2 is occupied"
        );
        assert_eq!(
            IllegalMove::RowOffBoard(3).to_string(),
            "row 3 is off the board"
        );
    }

    #[test_case("1\n0000\n0000\n000\n", "line 4: expected row 2 of position 1 (4 characters from `0`, `-`, `1`), found \"000\"" ; "short row")]
    #[test_case("1\n0000\n0x00\n0000\n", "line 3, column 2: expected row 1 of position 1 (4 characters from `0`, `-`, `1`), found \"x\" in \"0x00\"" ; "bad character")]
    #[test_case("2\n0000\n0000\n0000\n", "line 5: expected row 0 of position 2 (4 characters from `0`, `-`, `1`), found end of file" ; "missing position")]
    #[test_case("1\n0000\n0000\n0000\n0000\n", "line 5: expected end of file, found \"0000\"" ; "extra line")]
    #[test_case("0\n", "line 1: the number of positions k = 0 is outside 1..=99" ; "k zero")]
    #[test_case("100\n", "line 1: the number of positions k = 100 is outside 1..=99" ; "k too large")]
    #[test_case("k\n", "line 1: expected the number of positions k (an integer), found \"k\"" ; "k not a number")]
    #[test_case("", "line 1: expected the number of positions k, found end of file" ; "empty file")]
    fn parse_rejects(text: &str, message: &str) {
        assert_eq!(
            parse(text, Layout::Strict).unwrap_err().to_string(),
            message
        );
    }

    #[test]
    fn parse_reads_positions_and_their_lines() {
        let input = parse("2\r\n0111\n-000\n-000\n\n1111\n----\n0010", Layout::Lenient).unwrap();
        assert_eq!(input.positions.len(), 2);
        assert_eq!(input.positions[1].first_line, 6);
        assert_eq!(input.positions[1].board, board(["1111", "----", "0010"]));
        assert_eq!(
            input.positions[1].describe(),
            "position 2 (lines 6-8: \"1111\", \"----\", \"0010\")"
        );
    }

    fn any_board() -> impl Strategy<Value = Board> {
        (0..BOARD_COUNT as u32).prop_map(Board::from_code)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Rendering boards and parsing them back gives the same boards, and a
        /// board's code round-trips.
        #[test]
        fn parse_of_render_is_identity(boards in prop::collection::vec(any_board(), 1..=20)) {
            let input = parse(&Input::render(&boards), Layout::Strict).unwrap();
            let parsed: Vec<Board> = input.positions.iter().map(|position| position.board).collect();
            prop_assert_eq!(&parsed, &boards);
            for board in boards {
                prop_assert_eq!(Board::from_code(board.code()), board);
            }
        }

        /// Placing a legal stick only increases the code (what lets the solver
        /// fill its table in one pass from the top code down).
        #[test]
        fn placing_a_stick_increases_the_code(board in any_board()) {
            for legal in board.legal_moves() {
                prop_assert!(board.with(legal).code() > board.code());
                prop_assert_eq!(board.with(legal).empty_cells() + 1, board.empty_cells());
            }
        }
    }
}
