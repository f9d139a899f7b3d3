//! The mayan input model — the board, its moves and the rules that play them —
//! and the parser that reads an input into it.
//!
//! The rules live here, beside the model, because the solver, the generator
//! and the checker must all play moves in exactly the same way. This module
//! does not search (`solve.rs`) and does not judge outputs (`check.rs`).

use crate::problems::text::{describe, has_leading_zero, parse_integer_in, Layout, LineReader};
use crate::problems::InputError;
use std::fmt;

/// Columns of the board (x = 0..5, left to right).
pub const COLUMNS: usize = 5;
/// Rows of the board (y = 0..7, bottom to top).
pub const ROWS: usize = 7;
/// The largest colour; colours are 1..=MAX_COLOUR and 0 is an empty cell.
pub(crate) const MAX_COLOUR: u8 = 10;
/// The most moves an input may ask for (problems/mayan/statement.md: 1 <= n <= 5).
pub(crate) const MAX_MOVES: usize = 5;

/// Which way a block is dragged.
///
/// The variant order is the order problems/mayan/statement.md compares moves in: g with 1
/// before -1, so `Right < Left` and a derived `Ord` on [`Move`] is right.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Direction {
    /// g = 1.
    Right,
    /// g = -1.
    Left,
}

impl Direction {
    /// Both directions, in the order the solver tries them.
    pub const BOTH: [Direction; 2] = [Direction::Right, Direction::Left];

    /// The g of the output format.
    pub fn offset(self) -> i64 {
        match self {
            Direction::Right => 1,
            Direction::Left => -1,
        }
    }
}

/// One move `x y g`: drag the block at column x, row y one cell left or right.
///
/// problems/mayan/statement.md: moves compare by x, then y, then g with 1 before -1;
/// the field order makes the derived `Ord` exactly that.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move {
    pub x: usize,
    pub y: usize,
    pub direction: Direction,
}

impl Move {
    /// The column the block is dragged to, if it is on the board.
    pub(crate) fn target_column(self) -> Option<usize> {
        match self.direction {
            Direction::Right => (self.x + 1 < COLUMNS).then_some(self.x + 1),
            Direction::Left => self.x.checked_sub(1),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.x, self.y, self.direction.offset())
    }
}

/// Writes moves as the checker quotes them: `0 0 1, 1 2 -1`.
pub(crate) fn describe_moves(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Why a move cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The cell holds no block (or is not a cell of the board).
    NoBlock,
    /// The target cell is outside the board.
    OffBoard,
}

/// A board of [`COLUMNS`] x [`ROWS`] cells, always at rest: no block floats
/// and, between moves, no run of 3 is left standing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Board {
    /// `cells[x][y]`, 0 for an empty cell; the blocks of a column are packed
    /// at the bottom.
    cells: [[u8; ROWS]; COLUMNS],
}

impl Board {
    /// A board from its columns, bottom-up. `None` when a column is too tall,
    /// a colour is out of range, or a column holds an empty cell.
    pub fn from_columns<C: AsRef<[u8]>>(columns: &[C]) -> Option<Board> {
        if columns.len() != COLUMNS {
            return None;
        }
        let mut board = Board::default();
        for (x, column) in columns.iter().enumerate() {
            let column = column.as_ref();
            if column.len() > ROWS {
                return None;
            }
            for (y, &colour) in column.iter().enumerate() {
                if !(1..=MAX_COLOUR).contains(&colour) {
                    return None;
                }
                board.cells[x][y] = colour;
            }
        }
        Some(board)
    }

    /// The columns bottom-up, without empty cells.
    pub fn columns(&self) -> Vec<Vec<u8>> {
        (0..COLUMNS)
            .map(|x| self.cells[x][..self.height(x)].to_vec())
            .collect()
    }

    /// The colour at (x, y), 0 when empty or off the board.
    pub(crate) fn colour(&self, x: usize, y: usize) -> u8 {
        if x < COLUMNS && y < ROWS {
            self.cells[x][y]
        } else {
            0
        }
    }

    /// How many blocks column x holds.
    pub(crate) fn height(&self, x: usize) -> usize {
        self.cells[x]
            .iter()
            .take_while(|&&colour| colour != 0)
            .count()
    }

    /// How many blocks the board holds.
    pub fn block_count(&self) -> usize {
        self.cells
            .iter()
            .flatten()
            .filter(|&&colour| colour != 0)
            .count()
    }

    /// True when every block has vanished.
    pub fn is_empty(&self) -> bool {
        self.cells.iter().all(|column| column[0] == 0)
    }

    /// How many blocks of each colour (index 0 unused).
    pub(crate) fn colour_counts(&self) -> [u8; MAX_COLOUR as usize + 1] {
        let mut counts = [0; MAX_COLOUR as usize + 1];
        for &colour in self.cells.iter().flatten() {
            counts[usize::from(colour)] += 1;
        }
        counts
    }

    /// True when the move drags a block onto a block of the same colour.
    /// problems/mayan/statement.md: (judge's rule) Same-colour swaps ... it is a legal
    /// move that changes nothing; only the solver's [`Reading`] may skip it.
    ///
    /// [`Reading`]: super::solve::Reading
    pub fn is_same_colour_swap(&self, step: Move) -> bool {
        match step.target_column() {
            Some(target) => {
                let colour = self.colour(step.x, step.y);
                colour != 0 && colour == self.colour(target, step.y)
            }
            None => false,
        }
    }

    /// Plays one move and everything it sets off.
    ///
    /// problems/mayan/statement.md: if the target cell holds a block the two swap;
    /// otherwise the dragged block leaves its column (the blocks above it
    /// fall) and drops from the target cell until it rests, then runs vanish
    /// and blocks fall "until nothing vanishes".
    pub fn play(&mut self, step: Move) -> Result<(), MoveError> {
        if self.colour(step.x, step.y) == 0 {
            return Err(MoveError::NoBlock);
        }
        let target = step.target_column().ok_or(MoveError::OffBoard)?;
        let mut changed = [ROWS; COLUMNS];
        changed[step.x] = step.y;
        changed[target] = step.y.min(self.height(target));
        self.drag(step.x, step.y, target);
        self.settle(changed);
        Ok(())
    }

    /// Drags a block without letting anything vanish: for generators that
    /// scramble a board made of runs (the result may hold runs).
    pub(crate) fn drag_without_vanishing(&mut self, step: Move) -> Result<(), MoveError> {
        if self.colour(step.x, step.y) == 0 {
            return Err(MoveError::NoBlock);
        }
        let target = step.target_column().ok_or(MoveError::OffBoard)?;
        self.drag(step.x, step.y, target);
        Ok(())
    }

    /// True when the runs of the board cover exactly `cells`: for
    /// generators that build boards out of runs.
    pub(crate) fn runs_are_exactly(&self, cells: &[(usize, usize)]) -> bool {
        let expected = cells.iter().fold(0, |marked, &(x, y)| marked | bit(x, y));
        self.runs_through(&[0; COLUMNS]) == expected
    }

    /// Puts a block on top of column x; false when the column is full.
    pub(crate) fn push(&mut self, x: usize, colour: u8) -> bool {
        let height = self.height(x);
        if height >= ROWS {
            return false;
        }
        self.cells[x][height] = colour;
        true
    }

    /// The drag alone, without eliminations; `(x, y)` holds a block and
    /// `target` is x's neighbour.
    fn drag(&mut self, x: usize, y: usize, target: usize) {
        let colour = self.cells[x][y];
        if self.cells[target][y] != 0 {
            self.cells[x][y] = self.cells[target][y];
            self.cells[target][y] = colour;
            return;
        }
        // The block leaves its column: the ones above it fall by one.
        self.cells[x].copy_within(y + 1.., y);
        self.cells[x][ROWS - 1] = 0;
        let rest = self.height(target);
        self.cells[target][rest] = colour;
    }

    /// Vanishes runs and lets blocks fall until the board is at rest.
    /// problems/mayan/statement.md: all runs vanish at the same time ... then blocks
    /// above gaps fall; repeat until nothing vanishes. No block vanishes while
    /// falling — so runs are looked for only once every column is packed.
    ///
    /// `changed[x]` is the lowest row of column x that may differ from the
    /// last board at rest (`ROWS` for none). A board at rest has no run, so
    /// every new run passes through a changed cell and only those are looked
    /// at: this is most of the solver's speed.
    fn settle(&mut self, mut changed: [usize; COLUMNS]) {
        loop {
            let marked = self.runs_through(&changed);
            if marked == 0 {
                return;
            }
            for (x, (column, lowest)) in self.cells.iter_mut().zip(&mut changed).enumerate() {
                *lowest = ROWS;
                let mut kept = 0;
                for y in 0..ROWS {
                    let colour = column[y];
                    if colour == 0 {
                        break;
                    }
                    if marked & bit(x, y) == 0 {
                        column[kept] = colour;
                        kept += 1;
                    } else if *lowest == ROWS {
                        *lowest = y;
                    }
                }
                column[kept..].fill(0);
            }
        }
    }

    /// The cells of the runs of 3 or more through the cells at or above
    /// `changed[x]` in each column x, as a bit per cell.
    fn runs_through(&self, changed: &[usize; COLUMNS]) -> u64 {
        let mut marked = 0u64;
        for (x, &lowest) in changed.iter().enumerate() {
            let column = &self.cells[x];
            if lowest >= ROWS || column[lowest] == 0 {
                continue;
            }
            // Column runs reaching row `lowest` or above: walk the runs of
            // equal colours from the one that holds row `lowest`.
            let mut start = lowest;
            while start > 0 && column[start - 1] == column[lowest] {
                start -= 1;
            }
            while start < ROWS && column[start] != 0 {
                let colour = column[start];
                let mut end = start + 1;
                while end < ROWS && column[end] == colour {
                    end += 1;
                }
                if end - start >= 3 {
                    marked |= ((1u64 << (end - start)) - 1) << (x * ROWS + start);
                }
                start = end;
            }
            // Row runs through each changed cell.
            for (y, &colour) in column.iter().enumerate().skip(lowest) {
                if colour == 0 {
                    break;
                }
                let mut left = x;
                while left > 0 && self.cells[left - 1][y] == colour {
                    left -= 1;
                }
                let mut right = x;
                while right + 1 < COLUMNS && self.cells[right + 1][y] == colour {
                    right += 1;
                }
                if right - left >= 2 {
                    for column in left..=right {
                        marked |= bit(column, y);
                    }
                }
            }
        }
        marked
    }

    /// The cells, `[x][y]`, for the solver's counting loops.
    pub(crate) fn cells(&self) -> &[[u8; ROWS]; COLUMNS] {
        &self.cells
    }

    /// The first maximal run of 3 or more (in order of x, then y, a row run
    /// before a column run), as its cells. For naming a run in an error.
    pub fn first_run(&self) -> Option<(u8, Vec<(usize, usize)>)> {
        for x in 0..COLUMNS {
            for y in 0..ROWS {
                let colour = self.cells[x][y];
                if colour == 0 {
                    continue;
                }
                if x == 0 || self.cells[x - 1][y] != colour {
                    let cells: Vec<_> = (x..COLUMNS)
                        .take_while(|&column| self.cells[column][y] == colour)
                        .map(|column| (column, y))
                        .collect();
                    if cells.len() >= 3 {
                        return Some((colour, cells));
                    }
                }
                if y == 0 || self.cells[x][y - 1] != colour {
                    let cells: Vec<_> = (y..ROWS)
                        .take_while(|&row| self.cells[x][row] == colour)
                        .map(|row| (x, row))
                        .collect();
                    if cells.len() >= 3 {
                        return Some((colour, cells));
                    }
                }
            }
        }
        None
    }

    /// The board as 5 input lines, column 0 first, each ended by `0`.
    pub(crate) fn to_lines(self) -> String {
        let mut text = String::new();
        for column in self.columns() {
            for colour in column {
                text.push_str(&colour.to_string());
                text.push(' ');
            }
            text.push_str("0\n");
        }
        text
    }
}

fn bit(x: usize, y: usize) -> u64 {
    1 << (x * ROWS + y)
}

/// One input: the number of moves and the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Puzzle {
    /// n: the board must be cleared in exactly this many moves.
    pub moves: usize,
    pub board: Board,
}

impl fmt::Display for Puzzle {
    /// The input exactly as problems/mayan/statement.md lays it out (the strict layout).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.moves)?;
        f.write_str(&self.board.to_lines())
    }
}

/// Reads an input and checks the original constraints of problems/mayan/statement.md: n in
/// 1..=5, exactly 5 column lines each ending with `0`, at most 7 blocks a
/// column, colours 1..=10 and no run of 3 on the initial board.
pub fn parse(text: &str, layout: Layout) -> Result<Puzzle, InputError> {
    let mut reader = LineReader::new(text, layout);
    let first = reader.expect_line("the number of moves n")?;
    let moves = first.integer_in("n", 1..=MAX_MOVES as i64, layout)?;
    let mut columns: Vec<Vec<u8>> = Vec::with_capacity(COLUMNS);
    // Where each block was written, to point at it when it is part of a run.
    let mut positions: Vec<(usize, Vec<usize>)> = Vec::with_capacity(COLUMNS);
    for x in 0..COLUMNS {
        let line = reader.expect_line(&format!(
            "the line of column {x} (its colours bottom-up, ending with 0)"
        ))?;
        let mut column = Vec::new();
        let mut token_columns = Vec::new();
        let mut terminated = false;
        let mut previous_end: Option<usize> = None;
        for (position, token) in line.tokens() {
            if terminated {
                return Err(InputError::expected(
                    line.number,
                    "nothing after the terminating 0",
                    describe(token),
                )
                .at_column(position));
            }
            if layout == Layout::Strict && previous_end.is_some_and(|end| position != end + 1) {
                return Err(InputError::expected(
                    line.number,
                    "one space between numbers",
                    describe(line.text),
                )
                .at_column(position));
            }
            previous_end = Some(position + token.chars().count());
            let value = parse_integer_in(token, layout).ok_or_else(|| {
                InputError::expected(
                    line.number,
                    format!(
                        "a colour 1..={MAX_COLOUR} or the terminating 0{}",
                        if has_leading_zero(token) {
                            " (written without a leading zero)"
                        } else {
                            ""
                        }
                    ),
                    describe(token),
                )
                .at_column(position)
            })?;
            if value == 0 {
                terminated = true;
                continue;
            }
            let colour = u8::try_from(value)
                .ok()
                .filter(|colour| (1..=MAX_COLOUR).contains(colour))
                .ok_or_else(|| {
                    InputError::constraint(
                        line.number,
                        format!("colour {value} is outside 1..={MAX_COLOUR}"),
                    )
                    .at_column(position)
                })?;
            if column.len() == ROWS {
                return Err(InputError::constraint(
                    line.number,
                    format!("column {x} has more than {ROWS} blocks (the board has {ROWS} rows)"),
                )
                .at_column(position));
            }
            column.push(colour);
            token_columns.push(position);
        }
        if !terminated {
            return Err(InputError::expected(
                line.number,
                "the line to end with the terminating 0",
                describe(line.text),
            ));
        }
        columns.push(column);
        positions.push((line.number, token_columns));
    }
    reader.expect_end()?;
    let board = Board::from_columns(&columns).ok_or_else(|| {
        // Every column was checked above; this names the whole file if not.
        InputError::constraint(0, "the columns do not form a board")
    })?;
    if let Some((colour, cells)) = board.first_run() {
        let (x, y) = cells[0];
        let (line, token_columns) = &positions[x];
        let named = cells
            .iter()
            .map(|(x, y)| format!("({x},{y})"))
            .collect::<Vec<_>>()
            .join(", ");
        return Err(InputError::constraint(
            *line,
            format!(
                "the initial board has a run of {} blocks of colour {colour} at {named}; \
                 it must have none",
                cells.len()
            ),
        )
        .at_column(token_columns[y]));
    }
    Ok(Puzzle {
        moves: moves as usize,
        board,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    fn board(columns: &[&[u8]]) -> Board {
        Board::from_columns(columns).expect("a test board fits")
    }

    fn step(x: usize, y: usize, g: i64) -> Move {
        let direction = if g == 1 {
            Direction::Right
        } else {
            Direction::Left
        };
        Move { x, y, direction }
    }

    fn played(columns: &[&[u8]], x: usize, y: usize, g: i64) -> Vec<Vec<u8>> {
        let mut board = board(columns);
        board.play(step(x, y, g)).expect("a legal move");
        board.columns()
    }

    #[test]
    fn moving_onto_a_block_swaps_the_two() {
        assert_eq!(
            played(&[&[1, 2], &[3], &[], &[], &[]], 0, 0, 1),
            [vec![3, 2], vec![1], vec![], vec![], vec![]]
        );
        assert_eq!(
            played(&[&[1, 2], &[3, 4], &[], &[], &[]], 1, 1, -1),
            [vec![1, 4], vec![3, 2], vec![], vec![], vec![]]
        );
    }

    #[test]
    fn moving_into_an_empty_cell_drops_the_block_and_its_column_falls() {
        // (0,0) leaves column 0, whose blocks fall; it lands on column 1's floor.
        assert_eq!(
            played(&[&[1, 2, 3], &[], &[4], &[], &[]], 0, 0, 1),
            [vec![2, 3], vec![1], vec![4], vec![], vec![]]
        );
        // From row 2 it drops onto column 1's only block.
        assert_eq!(
            played(&[&[1, 2, 3], &[4], &[], &[], &[]], 0, 2, 1),
            [vec![1, 2], vec![4, 3], vec![], vec![], vec![]]
        );
    }

    #[test]
    fn crossing_row_and_column_runs_vanish_together() {
        // (1,3) drops onto column 0 at (0,2): a column run (0,0)-(0,2) and a
        // row run (0,2)-(2,2) cross there, and all five blocks vanish.
        assert_eq!(
            played(&[&[1, 1], &[2, 3, 1, 1], &[3, 2, 1], &[], &[]], 1, 3, -1),
            [vec![], vec![2, 3], vec![3, 2], vec![], vec![]]
        );
    }

    #[test]
    fn a_fall_after_a_vanish_sets_off_a_chain() {
        // The row run 1 1 1 on row 1 vanishes; column 0 falls to 4 4 4,
        // which vanishes in turn.
        assert_eq!(
            played(&[&[4, 1, 4, 4], &[2, 1], &[3, 5], &[2, 1], &[]], 3, 1, -1),
            [vec![], vec![2], vec![3], vec![2, 5], vec![]]
        );
    }

    #[test_case(&[&[1], &[1, 1], &[], &[1], &[1]], &[&[], &[], &[], &[], &[]] ; "run of five")]
    #[test_case(&[&[1], &[1, 1], &[], &[1], &[2]], &[&[], &[], &[], &[], &[2]] ; "run of four")]
    #[test_case(&[&[1], &[1, 1], &[], &[2], &[2]], &[&[], &[], &[], &[2], &[2]] ; "run of three")]
    fn runs_longer_than_three_vanish_whole(before: &[&[u8]], after: &[&[u8]]) {
        // (1,1) drops into the empty column 2, completing row 0.
        let after: Vec<Vec<u8>> = after.iter().map(|column| column.to_vec()).collect();
        assert_eq!(played(before, 1, 1, 1), after);
    }

    #[test]
    fn a_vertical_run_of_four_vanishes_whole() {
        // The 3 in 2 2 3 2 2 leaves; the 2s above it fall and make 2 2 2 2.
        assert_eq!(
            played(&[&[2, 2, 3, 2, 2], &[1], &[], &[], &[]], 0, 2, 1),
            [vec![], vec![1, 3], vec![], vec![], vec![]]
        );
    }

    #[test]
    fn moves_that_cannot_be_played_say_why() {
        let mut board = board(&[&[1], &[], &[], &[], &[2]]);
        assert_eq!(board.play(step(1, 0, 1)), Err(MoveError::NoBlock));
        assert_eq!(board.play(step(0, 1, 1)), Err(MoveError::NoBlock));
        assert_eq!(board.play(step(0, 0, -1)), Err(MoveError::OffBoard));
        assert_eq!(board.play(step(4, 0, 1)), Err(MoveError::OffBoard));
        assert_eq!(board.columns(), [vec![1], vec![], vec![], vec![], vec![2]]);
    }

    #[test]
    fn moves_order_by_x_then_y_then_right_before_left() {
        let mut moves = vec![step(1, 0, -1), step(0, 2, 1), step(1, 0, 1), step(0, 1, -1)];
        moves.sort();
        assert_eq!(describe_moves(&moves), "0 1 -1, 0 2 1, 1 0 1, 1 0 -1");
    }

    #[test]
    fn parse_reads_the_sample_and_prints_it_back() {
        let text = "3\n1 0\n2 1 0\n2 3 4 0\n3 1 0\n2 4 3 4 0\n";
        let puzzle = parse(text, Layout::Strict).expect("the sample is valid");
        assert_eq!(puzzle.moves, 3);
        assert_eq!(puzzle.board.colour(2, 2), 4);
        assert_eq!(puzzle.board.block_count(), 12);
        assert_eq!(puzzle.to_string(), text);
    }

    #[test]
    fn lenient_layout_forgives_spacing() {
        let text = " 3\r\n1   0\n\n2 1 0\n2 3 4 0\n3 1 0\n2 4 3 4 0";
        let puzzle = parse(text, Layout::Lenient).expect("lenient reading");
        assert_eq!(puzzle.board.columns()[0], vec![1]);
    }

    #[test_case("0\n0\n0\n0\n0\n0\n", "line 1: n = 0 is outside 1..=5" ; "n too small")]
    #[test_case("x\n", "line 1: expected n (an integer), found \"x\"" ; "n not a number")]
    #[test_case("1\n1 0\n2 0\n", "line 4: expected the line of column 2 (its colours bottom-up, ending with 0), found end of file" ; "too few columns")]
    #[test_case("1\n0\n0\n0\n0\n0\n0\n", "line 7: expected end of file, found \"0\"" ; "too many columns")]
    #[test_case("1\n1 2\n0\n0\n0\n0\n", "line 2: expected the line to end with the terminating 0, found \"1 2\"" ; "missing zero")]
    #[test_case("1\n1 0 2\n0\n0\n0\n0\n", "line 2, column 5: expected nothing after the terminating 0, found \"2\"" ; "zero not last")]
    #[test_case("1\n0\n1 11 0\n0\n0\n0\n", "line 3, column 3: colour 11 is outside 1..=10" ; "colour too large")]
    #[test_case("1\n0\n1 -2 0\n0\n0\n0\n", "line 3, column 3: colour -2 is outside 1..=10" ; "negative colour")]
    #[test_case("1\n0\n1 a 0\n0\n0\n0\n", "line 3, column 3: expected a colour 1..=10 or the terminating 0, found \"a\"" ; "colour not a number")]
    #[test_case("1\n0\n1 2 1 2 1 2 1 2 0\n0\n0\n0\n", "line 3, column 15: column 1 has more than 7 blocks (the board has 7 rows)" ; "column too tall")]
    #[test_case("1\n0\n1  2 0\n0\n0\n0\n", "line 3, column 4: expected one space between numbers, found \"1  2 0\"" ; "two spaces")]
    #[test_case("1\n2 0\n1 0\n1 0\n1 0\n0\n", "line 3, column 1: the initial board has a run of 3 blocks of colour 1 at (1,0), (2,0), (3,0); it must have none" ; "row run")]
    #[test_case("1\n0\n0\n0\n2 5 5 5 5 0\n0\n", "line 5, column 3: the initial board has a run of 4 blocks of colour 5 at (3,1), (3,2), (3,3), (3,4); it must have none" ; "column run")]
    fn parse_rejects(text: &str, message: &str) {
        let error = parse(text, Layout::Strict).expect_err("an invalid input");
        assert_eq!(error.to_string(), message);
    }
}
