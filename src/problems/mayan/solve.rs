//! The reference solver: the lexicographically smallest way to clear the board
//! in exactly n moves, or none.
//!
//! A depth-first search that tries moves in problems/mayan/statement.md's order (x, then y,
//! then g with 1 before -1), so the first solution it meets is the smallest.
//! Three prunings keep it fast, each of which never skips the smallest
//! solution (see `Search::clears`). It does not read text or judge outputs.

use super::bits::Bits;
use super::input::{Board, Direction, Move, Puzzle, COLUMNS, MAX_COLOUR};
use super::spread::SPREAD_TABLE;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// Whether dragging a block onto a block of the same colour counts as a move.
///
/// problems/mayan/statement.md: (judge's rule) Same-colour swaps ... it is a legal
/// move; where the two readings (with or without such moves) give different
/// answers, the checker accepts the right answer under either.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Same-colour swaps are moves: they change nothing but use up a move.
    /// Pro: what the rules as written allow. Con: few published solutions
    /// make such moves, so answers can differ from theirs.
    WithSameColourSwaps,
    /// Same-colour swaps are never made.
    /// Pro: what most published solutions do. Con: misses solutions that
    /// waste a move on purpose.
    WithoutSameColourSwaps,
}

impl Reading {
    /// Both readings; the one without same-colour swaps first because it is
    /// the common one. The unit tests solve under each.
    #[cfg(test)]
    pub(crate) const BOTH: [Reading; 2] = [
        Reading::WithoutSameColourSwaps,
        Reading::WithSameColourSwaps,
    ];
}

/// The smallest sequence of exactly `moves` moves that clears `board` under
/// `reading`, or `None` when there is none.
///
/// problems/mayan/statement.md: among all such solutions the lexicographically
/// smallest sequence, comparing moves by x, then y, then g with 1 before -1.
pub fn solve(board: &Board, moves: usize, reading: Reading) -> Option<Vec<Move>> {
    if board.first_run().is_some() {
        // Not a board at rest, which `Bits` assumes: `Board` plays it as
        // it always has (only runs through changed cells vanish).
        return search(board, moves, reading);
    }
    search(&Bits::new(board), moves, reading)
}

fn search<P: Position>(board: &P, moves: usize, reading: Reading) -> Option<Vec<Move>> {
    let mut search = Search {
        reading,
        failed: HashSet::with_capacity_and_hasher(1 << 13, BuildHasherDefault::default()),
        path: Vec::with_capacity(moves),
    };
    search.clears(board, moves).then_some(search.path)
}

/// What the search needs of a board: [`Bits`] for speed, [`Board`] for a
/// board that is not at rest.
trait Position: Copy {
    fn is_empty(&self) -> bool;
    fn colour(&self, x: usize, y: usize) -> u8;
    /// Plays the drag of (x, y), which holds a block, to column `target`.
    fn play(&mut self, x: usize, y: usize, target: usize);
    /// For each colour, how many blocks of it each column holds, read as a
    /// base-8 number with column 0 as its highest digit (0: none at all).
    fn count_indexes(&self) -> [usize; MAX_COLOUR as usize + 1];
    /// The key of the board with `left` moves in the failed set; a board
    /// and its mirror image may share one (they clear alike).
    fn key(&self, left: usize) -> StateKey;
    /// Bit 4y set where (x, y) holds a block.
    fn occupied_rows(&self, x: usize) -> u32;
    /// Bit 4y set where (x, y) holds a block of one of `colours` (bit c for
    /// colour c).
    fn rows_of(&self, x: usize, colours: u16) -> u32;
}

impl Position for Bits {
    fn is_empty(&self) -> bool {
        Bits::is_empty(self)
    }

    fn colour(&self, x: usize, y: usize) -> u8 {
        Bits::colour(self, x, y)
    }

    fn play(&mut self, x: usize, y: usize, target: usize) {
        Bits::play(self, x, y, target);
    }

    fn count_indexes(&self) -> [usize; MAX_COLOUR as usize + 1] {
        let mut indexes = [0usize; MAX_COLOUR as usize + 1];
        for (x, &column) in self.columns().iter().enumerate() {
            let digit = 1 << (3 * (COLUMNS - 1 - x));
            let mut column = column;
            while column != 0 {
                indexes[(column & 15) as usize] += digit;
                column >>= 4;
            }
        }
        indexes
    }

    fn key(&self, left: usize) -> StateKey {
        StateKey(Bits::symmetric_key(self, left))
    }

    fn occupied_rows(&self, x: usize) -> u32 {
        Bits::occupied_rows(self, x)
    }

    #[inline]
    fn rows_of(&self, x: usize, colours: u16) -> u32 {
        Bits::rows_of(self, x, colours)
    }
}

impl Position for Board {
    fn is_empty(&self) -> bool {
        Board::is_empty(self)
    }

    fn colour(&self, x: usize, y: usize) -> u8 {
        Board::colour(self, x, y)
    }

    fn play(&mut self, x: usize, y: usize, target: usize) {
        let direction = if target > x {
            Direction::Right
        } else {
            Direction::Left
        };
        // (x, y) holds a block and `target` is on the board: it plays.
        let _ = Board::play(self, Move { x, y, direction });
    }

    fn count_indexes(&self) -> [usize; MAX_COLOUR as usize + 1] {
        let mut indexes = [0usize; MAX_COLOUR as usize + 1];
        for (x, column) in self.cells().iter().enumerate() {
            let digit = 1 << (3 * (COLUMNS - 1 - x));
            for &colour in column.iter().take_while(|&&colour| colour != 0) {
                indexes[usize::from(colour)] += digit;
            }
        }
        indexes
    }

    fn key(&self, left: usize) -> StateKey {
        // Packed as `Bits` packs it (only `Bits::play` needs a board at
        // rest), without the mirror image: nothing here checks that a board
        // not at rest clears as its mirror image does.
        StateKey(Bits::new(self).key(left))
    }

    fn occupied_rows(&self, x: usize) -> u32 {
        (0..Board::height(self, x)).fold(0, |rows, y| rows | 1 << (4 * y))
    }

    fn rows_of(&self, x: usize, colours: u16) -> u32 {
        (0..Board::height(self, x))
            .filter(|&y| colours >> Board::colour(self, x, y) & 1 != 0)
            .fold(0, |rows, y| rows | 1 << (4 * y))
    }
}

/// What the judge needs to know about a puzzle beyond its answer: whether
/// the two readings agree and whether it can be cleared in fewer moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The smallest solution without same-colour swaps.
    pub(crate) without_swaps: Option<Vec<Move>>,
    /// The smallest solution with same-colour swaps.
    pub(crate) with_swaps: Option<Vec<Move>>,
    /// The fewest moves below n that clear the board, same-colour swaps
    /// allowed (the reading with more solutions).
    pub(crate) fewer: Option<usize>,
}

impl Analysis {
    /// problems/mayan/statement.md: generators never emit a board whose answer
    /// depends on the reading — nor one that can be cleared in fewer than n
    /// moves. True for the boards they may emit.
    pub fn is_plain(&self) -> bool {
        self.without_swaps == self.with_swaps && self.fewer.is_none()
    }
}

/// Solves `puzzle` under both readings and for every smaller move count.
pub fn analyse(puzzle: &Puzzle) -> Analysis {
    let board = &puzzle.board;
    Analysis {
        without_swaps: solve(board, puzzle.moves, Reading::WithoutSameColourSwaps),
        with_swaps: solve(board, puzzle.moves, Reading::WithSameColourSwaps),
        fewer: (1..puzzle.moves)
            .find(|&moves| solve(board, moves, Reading::WithSameColourSwaps).is_some()),
    }
}

/// The reference output for a puzzle: n lines `x y g`, or `-1`.
pub(crate) fn render(solution: Option<&[Move]>) -> String {
    match solution {
        None => "-1\n".to_owned(),
        Some(moves) => moves.iter().map(|step| format!("{step}\n")).collect(),
    }
}

struct Search {
    reading: Reading,
    /// (board, moves left) pairs already shown to have no solution.
    failed: HashSet<StateKey, BuildHasherDefault<StateHasher>>,
    /// The moves made so far; the solution once `clears` returns true.
    path: Vec<Move>,
}

impl Search {
    /// True when `board` can be cleared in exactly `left` moves; the moves are
    /// then in `self.path`.
    ///
    /// Prunings, none of which can lose the smallest solution:
    /// - a colour with 1 or 2 blocks can never vanish (runs need 3, and only
    ///   whole runs leave the board), so the board is dead ([`spread_cost`](super::spread::spread_cost)
    ///   is `None` for it);
    /// - dragging a block left onto an occupied cell is the same swap as
    ///   dragging that cell's block right, which has a smaller x and so was
    ///   tried first with the same result board — under either reading, as
    ///   both moves are same-colour swaps or neither is;
    /// - a (board, moves left) pair that failed once fails again, and so
    ///   does its mirror image (column x as column 4 - x) with the same
    ///   moves left: mirroring every move of a solution of one clears the
    ///   other, under either reading;
    /// - the blocks must travel sideways further than `left` moves can take
    ///   them, and a move after which they must travel further than
    ///   `left - 1` moves can take them is useless, judged from the column
    ///   counts the drag leaves before anything vanishes (see
    ///   [`Search::spread`] and [`Search::shift_allowed`]);
    /// - dragging (x, y) into an empty cell when (x, y - 1) holds the same
    ///   colour and the cell beside it is empty too gives the board that
    ///   dragging (x, y - 1) the same way gave, and that move came first.
    /// - when some colour must travel sideways as far as the moves left can
    ///   take it, a move that shifts no block of it is useless (it still
    ///   must travel that far with one move fewer; [`Search::shift_allowed`]
    ///   rejects such moves); so only the cells holding such a colour, and
    ///   the cells left of them (a drag right swaps with it), are looked at.
    ///   This skips only moves that `shift_allowed` would reject, in the
    ///   same order, so it changes the speed and nothing else.
    fn clears<P: Position>(&mut self, board: &P, left: usize) -> bool {
        if board.is_empty() {
            return left == 0;
        }
        if left == 0 {
            return false;
        }
        // The failed set first: the parent's check of each move's spread
        // (below) leaves few boards the spread rejects, while most boards
        // with one move left were met before, by another order of the same
        // moves, and the lookup spares counting their colours. Both are
        // checks without side effects on the answer, so their order changes
        // nothing else; a board the spread rejects is not stored, as it is
        // cheaper to reject again than to keep.
        let key = board.key(left);
        if self.failed.contains(&key) {
            return false;
        }
        let Some(spread) = self.spread(board, left) else {
            return false;
        };
        if left == 1 {
            // The last move, tried without the generic machinery below
            // (issue #19: on the costliest hard board this level was more
            // than half the search).
            if let Some(step) = self.last_move(board, &spread) {
                self.path.push(step);
                return true;
            }
            self.failed.insert(key);
            return false;
        }
        // The cells of the colours that must travel as far as the moves
        // left can take them: one of the blocks a move shifts must be one
        // of them (see the pruning list above).
        let travelling: [u32; COLUMNS] = if spread.travelling == 0 {
            [0; COLUMNS]
        } else {
            std::array::from_fn(|x| board.rows_of(x, spread.travelling))
        };
        // The colours must travel as far as the moves left can take two
        // blocks: only a swap, which shifts two, can leave them within
        // `left - 1` moves, so only cells with a block on their right are
        // dragged, rightwards (`shift_allowed` rejects every other move;
        // skipping them changes nothing but the speed).
        let swaps_only = spread.total == 2 * left;
        for x in 0..COLUMNS {
            let mut rows = board.occupied_rows(x);
            if spread.travelling != 0 {
                // The dragged block, or the block it swaps with on its right.
                rows &= travelling[x] | travelling.get(x + 1).copied().unwrap_or(0);
            }
            if swaps_only {
                rows &= if x + 1 < COLUMNS {
                    board.occupied_rows(x + 1)
                } else {
                    0
                };
            }
            while rows != 0 {
                let y = rows.trailing_zeros() as usize / 4;
                rows &= rows - 1;
                for direction in Direction::BOTH {
                    let step = Move { x, y, direction };
                    if swaps_only && direction == Direction::Left {
                        continue;
                    }
                    let Some(target) = step.target_column() else {
                        continue;
                    };
                    let target_colour = board.colour(target, y);
                    if direction == Direction::Left && target_colour != 0 {
                        continue;
                    }
                    let colour = board.colour(x, y);
                    if self.reading == Reading::WithoutSameColourSwaps && target_colour == colour {
                        continue;
                    }
                    if target_colour == 0
                        && y > 0
                        && board.colour(x, y - 1) == colour
                        && board.colour(target, y - 1) == 0
                    {
                        continue;
                    }
                    if !self.shift_allowed(&spread, colour, target_colour, x, target, left) {
                        continue;
                    }
                    let mut next = *board;
                    next.play(x, y, target);
                    self.path.push(step);
                    if self.clears(&next, left - 1) {
                        return true;
                    }
                    self.path.pop();
                }
            }
        }
        self.failed.insert(key);
        false
    }

    /// The first move, in the order `clears` tries them, that clears `board`
    /// (not empty) at once, when `spread` is its spread with one move left;
    /// `None` when no move does.
    ///
    /// The moves it tries are those `clears` would, with the same checks,
    /// in the same order; only the check of `shift_allowed` is written out
    /// for one move left, where its limit is 0: each colour's cost is then 0
    /// or 1, the colours at 1 are `spread.travelling` and the total is their
    /// number, so a move passes exactly when it shifts every travelling
    /// colour and leaves each colour it shifts at cost 0 (the total left is
    /// then 0 too). A test compares it with every move played on the cell
    /// board.
    fn last_move<P: Position>(&self, board: &P, spread: &Spread) -> Option<Move> {
        let travelling = spread.travelling;
        // Two travelling colours: only a swap of the two shifts both.
        let swaps_only = travelling.count_ones() == 2;
        // The travelling colours, one bit each (0: none).
        let first = travelling & travelling.wrapping_neg();
        let second = travelling & !first;
        let cells = |x: usize, colour: u16| {
            if x < COLUMNS && colour != 0 {
                board.rows_of(x, colour)
            } else {
                0
            }
        };
        let (mut firsts, mut seconds) = (cells(0, first), cells(0, second));
        for x in 0..COLUMNS {
            let occupied = board.occupied_rows(x);
            let (firsts_right, seconds_right) = (cells(x + 1, first), cells(x + 1, second));
            // The cells whose moves can shift every travelling colour: with
            // one, its cells and those a drag right swaps with one; with
            // two, the cells a drag right swaps one of them with the other.
            let mut rows = match travelling.count_ones() {
                0 => occupied,
                1 => firsts | firsts_right & occupied,
                _ => firsts & seconds_right | seconds & firsts_right,
            };
            (firsts, seconds) = (firsts_right, seconds_right);
            while rows != 0 {
                let y = rows.trailing_zeros() as usize / 4;
                rows &= rows - 1;
                let colour = board.colour(x, y);
                for direction in Direction::BOTH {
                    if swaps_only && direction == Direction::Left {
                        continue;
                    }
                    let step = Move { x, y, direction };
                    let Some(target) = step.target_column() else {
                        continue;
                    };
                    let other = board.colour(target, y);
                    if direction == Direction::Left && other != 0 {
                        continue;
                    }
                    if other == colour {
                        // A same-colour swap shifts nothing: it passes only
                        // when nothing must travel, as in `shift_allowed`.
                        if self.reading == Reading::WithoutSameColourSwaps || travelling != 0 {
                            continue;
                        }
                    } else {
                        if other == 0
                            && y > 0
                            && board.colour(x, y - 1) == colour
                            && board.colour(target, y - 1) == 0
                        {
                            continue;
                        }
                        let shifted = 1u16 << colour | if other == 0 { 0 } else { 1 << other };
                        if travelling & !shifted != 0 {
                            continue;
                        }
                        let index = spread.indexes[usize::from(colour)];
                        if self.cost_of(shifted_index(index, x, target)) != 0 {
                            continue;
                        }
                        if other != 0 {
                            let index = spread.indexes[usize::from(other)];
                            if self.cost_of(shifted_index(index, target, x)) != 0 {
                                continue;
                            }
                        }
                    }
                    let mut next = *board;
                    next.play(x, y, target);
                    if next.is_empty() {
                        return Some(step);
                    }
                }
            }
        }
        None
    }

    /// `None` when the blocks are too far apart sideways to all vanish within
    /// `left` moves; otherwise how far each colour must still travel.
    ///
    /// Why this is sound: every block must vanish in a run of 3 or more of
    /// its colour. At the moment it vanishes, its column either holds 3 or
    /// more blocks of that colour (a column run) or lies in a stretch of 3 or
    /// more neighbouring columns that all hold that colour (a row run); a
    /// union of such column counts keeps the property, so the counts of each
    /// colour, taken at each block's vanishing, must have it too. Falling
    /// moves blocks only down; a move shifts at most two blocks (of two
    /// different colours, or it changes nothing) by one column each. So the
    /// least total sideways travel of colour c, [`spread_cost`](super::spread::spread_cost), is at most
    /// `left` for each colour and their sum is at most `2 * left`.
    fn spread<P: Position>(&mut self, board: &P, left: usize) -> Option<Spread> {
        let indexes = board.count_indexes();
        let mut spread = Spread {
            total: 0,
            travelling: 0,
            indexes,
            costs: [0; MAX_COLOUR as usize + 1],
        };
        for (colour, &index) in indexes.iter().enumerate().skip(1) {
            if index == 0 {
                continue;
            }
            let cost = self.cost_of(index);
            if cost > left {
                return None;
            }
            spread.total += cost;
            // At most `left` (5), so it fits.
            spread.costs[colour] = cost as u8;
            if cost == left {
                spread.travelling |= 1 << colour;
            }
        }
        (spread.total <= 2 * left).then_some(spread)
    }

    /// [`spread_cost`](super::spread::spread_cost) of the column counts packed in `index` (see
    /// [`Position::count_indexes`]), from the table built with the crate;
    /// [`SPREAD_NONE`](super::spread::SPREAD_NONE) for `None`.
    #[inline]
    fn cost_of(&self, index: usize) -> usize {
        usize::from(SPREAD_COSTS[index])
    }

    /// True when dragging a block of `colour` from column `x` to column
    /// `target`, onto a block of `other` there (0: an empty cell; the two
    /// swap), can still be part of a solution with `left` moves.
    ///
    /// The drag shifts the dragged block, and in a swap the other one, by
    /// one column; what vanishes and falls after it moves nothing sideways.
    /// So the column counts the drag leaves, taken before anything
    /// vanishes, must be within `left - 1` moves of vanishing, by the
    /// argument of [`Search::spread`] (which holds at any moment, at rest or
    /// not): each colour's [`spread_cost`](super::spread::spread_cost) at most `left - 1`, their sum at
    /// most `2 * (left - 1)`. Only the shifted colours' counts change: one
    /// block leaves a column and enters its neighbour, a change of the
    /// packed index by two digits ([`shifted_index`]).
    #[inline(always)]
    fn shift_allowed(
        &mut self,
        spread: &Spread,
        colour: u8,
        other: u8,
        x: usize,
        target: usize,
        left: usize,
    ) -> bool {
        let limit = left - 1;
        let mut shifted = 0u16;
        let mut moved = [(0u8, 0usize, 0usize); 2];
        let mut count = 0;
        if other != colour {
            shifted |= 1 << colour;
            moved[0] = (colour, x, target);
            count = 1;
            if other != 0 {
                shifted |= 1 << other;
                moved[1] = (other, target, x);
                count = 2;
            }
        }
        // A colour that must travel `left` and is not shifted still must.
        if spread.travelling & !shifted != 0 {
            return false;
        }
        let mut total = spread.total;
        for &(moving, from, to) in &moved[..count] {
            let moving = usize::from(moving);
            let cost = self.cost_of(shifted_index(spread.indexes[moving], from, to));
            if cost > limit {
                return false;
            }
            total = total - usize::from(spread.costs[moving]) + cost;
        }
        total <= 2 * limit
    }
}

/// A colour's packed column counts (see [`Position::count_indexes`]) after
/// one of its blocks leaves column `from` (which holds one) for column `to`
/// (which has room: a column holds at most 7 blocks).
fn shifted_index(index: usize, from: usize, to: usize) -> usize {
    let digit = |column: usize| 1usize << (3 * (COLUMNS - 1 - column));
    index - digit(from) + digit(to)
}

/// [`spread_cost`](super::spread::spread_cost) by column counts read as a base-8 number (a column holds
/// at most 7 blocks), [`SPREAD_NONE`](super::spread::SPREAD_NONE) for `None`: `build.rs` computes it
/// with `spread::table` (a test checks it is that table), so a solve only
/// reads it, where computing entries as counts occurred was a tenth of a
/// hard board's instructions and a hash map lookup before that more.
static SPREAD_COSTS: &[u8; SPREAD_TABLE] =
    include_bytes!(concat!(env!("OUT_DIR"), "/spread_costs.bin"));

/// How far the colours of a board must still travel sideways (see
/// [`Search::spread`]); colours are bits or indexes.
struct Spread {
    /// The least total travel of all colours.
    total: usize,
    /// Colours that must travel as far as the moves left can take them.
    travelling: u16,
    /// Each colour's packed column counts ([`Position::count_indexes`]).
    indexes: [usize; MAX_COLOUR as usize + 1],
    /// Each colour's least travel ([`spread_cost`](super::spread::spread_cost)); 0 for an absent one.
    costs: [u8; MAX_COLOUR as usize + 1],
}

/// True when some colour has 1 or 2 blocks left: they can never vanish.
pub(crate) fn has_doomed_colour(board: &Board) -> bool {
    board
        .colour_counts()
        .iter()
        .skip(1)
        .any(|&count| count == 1 || count == 2)
}

/// A board and a move count packed into 160 bits (see [`Bits::key`]): 20
/// bytes a key, which hashes and compares far faster than the cell array
/// and keeps more of the failed set in cache than a `u128` and a `u32` (32
/// bytes with padding).
#[derive(Clone, Copy, PartialEq, Eq)]
struct StateKey([u32; COLUMNS]);

impl std::hash::Hash for StateKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let [a, b, c, d, e] = self.0;
        state.write_u64(u64::from(a) | u64::from(b) << 32);
        state.write_u64(u64::from(c) | u64::from(d) << 32);
        state.write_u32(e);
    }
}

/// A small multiplicative hasher (FxHash's mixing) for [`StateKey`]s: the
/// keys are not attacker-chosen, so SipHash's protection buys nothing here.
#[derive(Default)]
struct StateHasher {
    hash: u64,
}

impl Hasher for StateHasher {
    fn finish(&self) -> u64 {
        self.hash
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.hash = (self.hash.rotate_left(5) ^ value).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u128(&mut self, value: u128) {
        self.write_u64(value as u64);
        self.write_u64((value >> 64) as u64);
    }

    fn write_u32(&mut self, value: u32) {
        self.write_u64(u64::from(value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::mayan::input::{describe_moves, parse};
    use crate::problems::text::Layout;

    fn puzzle(text: &str) -> Puzzle {
        parse(text, Layout::Strict).expect("a valid test input")
    }

    #[test]
    fn solves_the_sample() {
        let sample = puzzle("3\n1 0\n2 1 0\n2 3 4 0\n3 1 0\n2 4 3 4 0\n");
        for reading in Reading::BOTH {
            let solution = solve(&sample.board, 3, reading).expect("the sample is solvable");
            assert_eq!(describe_moves(&solution), "2 1 1, 3 1 1, 3 0 1");
        }
        assert_eq!(solve(&sample.board, 1, Reading::WithSameColourSwaps), None);
        assert_eq!(render(None), "-1\n");
    }

    #[test]
    fn the_readings_differ_where_a_wasted_swap_is_smaller() {
        let board = puzzle("2\n1 0\n1 0\n0\n1 0\n0\n").board;
        let without = solve(&board, 2, Reading::WithoutSameColourSwaps).expect("solvable");
        let with = solve(&board, 2, Reading::WithSameColourSwaps).expect("solvable");
        assert_eq!(describe_moves(&without), "1 0 1, 0 0 1");
        assert_eq!(describe_moves(&with), "0 0 1, 3 0 -1");
        assert_eq!(render(Some(&with)), "0 0 1\n3 0 -1\n");
    }

    #[test]
    fn analysis_names_boards_that_clear_in_fewer_moves() {
        let analysis = analyse(&puzzle("2\n1 0\n1 0\n0\n1 0\n0\n"));
        assert_eq!(analysis.fewer, Some(1));
        assert!(!analysis.is_plain());
        let sample = analyse(&puzzle("3\n1 0\n2 1 0\n2 3 4 0\n3 1 0\n2 4 3 4 0\n"));
        assert!(sample.is_plain() && sample.with_swaps.is_some());
    }

    /// Invariant: the packed board and the cell board lead the same search
    /// to the same answer, at full n, under both readings, on boards of
    /// every profile (the packed one is what `solve` uses on them).
    #[test]
    fn the_packed_search_answers_as_the_cell_board_search() {
        use crate::problems::mayan::generate::generate;
        use crate::problems::test_rng;
        let mut solvable = 0;
        for (profile, count) in [
            ("random", 12),
            ("bottom-row", 12),
            ("edge", 12),
            ("hard", 6),
        ] {
            for index in 0..count {
                let input = generate(profile, &mut test_rng(19, "mayan", profile, index)).unwrap();
                let puzzle = puzzle(&input);
                for reading in Reading::BOTH {
                    let packed = search(&Bits::new(&puzzle.board), puzzle.moves, reading);
                    let cells = search(&puzzle.board, puzzle.moves, reading);
                    assert_eq!(packed, cells, "{profile} #{index}, {reading:?}:\n{input}");
                    assert_eq!(solve(&puzzle.board, puzzle.moves, reading), packed);
                    solvable += usize::from(packed.is_some());
                }
            }
        }
        assert!(solvable > 10, "the comparison should meet solvable boards");
    }

    /// Invariant behind the failed set's symmetric key: a board and its
    /// mirror image are solvable alike, their smallest solutions mirror
    /// each other's moves when the mirrored list is also the smallest, and
    /// the solver (which shares failures between the two) answers as the
    /// cell board search, which does not.
    #[test]
    fn mirror_images_clear_alike() {
        use crate::problems::mayan::generate::generate;
        use crate::problems::test_rng;
        let mut solvable = 0;
        for (profile, count) in [("random", 16), ("bottom-row", 16), ("hard", 4)] {
            for index in 0..count {
                let input = generate(profile, &mut test_rng(23, "mayan", profile, index)).unwrap();
                let board = puzzle(&input).board;
                let moves = puzzle(&input).moves;
                let columns = board.columns();
                let mirror =
                    Board::from_columns(&columns.iter().rev().cloned().collect::<Vec<_>>())
                        .expect("the same columns fit");
                for reading in Reading::BOTH {
                    let ours = solve(&board, moves, reading);
                    let theirs = solve(&mirror, moves, reading);
                    assert_eq!(
                        ours.is_some(),
                        theirs.is_some(),
                        "{profile} #{index}:\n{input}"
                    );
                    assert_eq!(ours, search(&board, moves, reading), "{profile} #{index}");
                    assert_eq!(
                        theirs,
                        search(&mirror, moves, reading),
                        "{profile} #{index}"
                    );
                    if let Some(solution) = &ours {
                        let mut played = mirror;
                        for step in solution {
                            let direction = match step.direction {
                                Direction::Right => Direction::Left,
                                Direction::Left => Direction::Right,
                            };
                            let x = COLUMNS - 1 - step.x;
                            played
                                .play(Move {
                                    x,
                                    y: step.y,
                                    direction,
                                })
                                .expect("a legal move");
                        }
                        assert!(played.is_empty(), "{profile} #{index}: mirrored moves");
                    }
                    solvable += usize::from(ours.is_some());
                }
            }
        }
        assert!(solvable > 4, "the comparison should meet solvable boards");
    }

    /// A board with a run standing is not at rest: `solve` plays it on the
    /// cell board, where only runs a move touches vanish, as before.
    #[test]
    fn a_board_with_a_standing_run_is_solved_as_before() {
        let board = Board::from_columns(&[vec![1], vec![1], vec![1], vec![2, 2, 3], vec![3, 3, 2]])
            .expect("fits");
        let reading = Reading::WithoutSameColourSwaps;
        // The packed board would let the standing row run vanish with the
        // column runs that `3 2 1` makes; the cell board never touches it.
        assert!(search(&Bits::new(&board), 1, reading).is_some());
        assert_eq!(search(&board, 1, reading), None);
        assert_eq!(solve(&board, 1, reading), None);
    }

    /// Every move in problems/mayan/statement.md's order (x, then y, then g
    /// with 1 before -1), each played on the cell board: the first whose
    /// `moves - 1` moves after it clear too, under `reading`. Written apart
    /// from the search, with none of its prunings.
    fn every_move(board: &Board, moves: usize, reading: Reading) -> Option<Vec<Move>> {
        if moves == 0 {
            return board.is_empty().then(Vec::new);
        }
        for x in 0..COLUMNS {
            for y in 0..Board::height(board, x) {
                for direction in [Direction::Right, Direction::Left] {
                    let step = Move { x, y, direction };
                    let Some(target) = step.target_column() else {
                        continue;
                    };
                    if reading == Reading::WithoutSameColourSwaps
                        && board.colour(target, y) == board.colour(x, y)
                    {
                        continue;
                    }
                    let mut next = *board;
                    if next.play(step).is_err() {
                        continue;
                    }
                    if let Some(mut rest) = every_move(&next, moves - 1, reading) {
                        rest.insert(0, step);
                        return Some(rest);
                    }
                }
            }
        }
        None
    }

    /// Columns of up to `height` blocks from a palette of 2 or 3 colours
    /// (runs, and boards that clear in a move or two, are frequent), with no
    /// run standing: blocks that would make one are skipped.
    fn board_at_rest(height: usize) -> impl proptest::strategy::Strategy<Value = Board> {
        use proptest::strategy::Strategy;
        (
            2u8..=3,
            proptest::collection::vec(proptest::collection::vec(1u8..=3, 0..=height), 5),
        )
            .prop_map(move |(palette, raw)| {
                let mut board = Board::default();
                for y in 0..height {
                    for (x, column) in raw.iter().enumerate() {
                        let Some(&wanted) = column.get(y) else {
                            continue;
                        };
                        let mut next = board;
                        if Board::height(&board, x) == y
                            && next.push(x, (wanted - 1) % palette + 1)
                            && next.first_run().is_none()
                        {
                            board = next;
                        }
                    }
                }
                board
            })
    }

    /// Invariant behind `Search::last_move`: with one or two moves, the
    /// solver's answer on a board at rest is the first solution of a plain
    /// walk over every move on the cell board, under both readings; a board
    /// the last move's checks refute is one no move clears. The counts of
    /// solvable boards met are checked in `the_last_move_tests_meet_solutions`.
    fn assert_as_every_move(board: &Board, moves: usize) -> usize {
        let mut solvable = 0;
        for reading in Reading::BOTH {
            let expected = every_move(board, moves, reading);
            assert_eq!(
                solve(board, moves, reading),
                expected,
                "{moves} moves, {reading:?}: {:?}",
                board.columns()
            );
            solvable += usize::from(expected.is_some());
        }
        solvable
    }

    /// The boards of the two properties below are solvable often enough for
    /// the comparison to mean something: the same strategy, seeded.
    #[test]
    fn the_last_move_tests_meet_solutions() {
        use proptest::strategy::{Strategy, ValueTree};
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let (mut one, mut two) = (0, 0);
        for round in 0..1000 {
            let board = board_at_rest(3)
                .new_tree(&mut runner)
                .expect("a board")
                .current();
            one += assert_as_every_move(&board, 1);
            if round % 4 == 0 {
                two += assert_as_every_move(&board, 2);
            }
        }
        assert!(
            one >= 20 && two >= 20,
            "solvable: {one} in one move, {two} in two"
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 300, ..Default::default() })]

        /// See `assert_as_every_move`: one move left, boards up to 3 high.
        #[test]
        fn the_last_move_is_the_first_that_clears(board in board_at_rest(3)) {
            assert_as_every_move(&board, 1);
        }

        /// See `assert_as_every_move`: two moves, so the last move's checks
        /// meet the boards the first move leaves, chains included.
        #[test]
        fn two_moves_are_the_first_pair_that_clears(board in board_at_rest(5)) {
            assert_as_every_move(&board, 2);
        }

        /// Invariant behind the search's choice of cells: on both boards,
        /// `occupied_rows` and `rows_of` mark exactly the cells (bit 4y)
        /// that hold a block, and a block of one of the colours asked for.
        #[test]
        fn rows_of_marks_the_cells_of_the_colours_asked_for(
            columns in proptest::collection::vec(proptest::collection::vec(1u8..=10, 0..=7), 5),
            colours in 0u16..1 << 11,
        ) {
            let board = Board::from_columns(&columns).expect("at most 7 blocks a column");
            let bits = Bits::new(&board);
            for (x, column) in columns.iter().enumerate() {
                let cells = |wanted: &dyn Fn(u8) -> bool| {
                    column
                        .iter()
                        .enumerate()
                        .filter(|&(_, &colour)| wanted(colour))
                        .fold(0u32, |rows, (y, _)| rows | 1 << (4 * y))
                };
                let all = cells(&|_| true);
                let asked = cells(&|colour| colours >> colour & 1 != 0);
                proptest::prop_assert_eq!(Position::occupied_rows(&bits, x), all);
                proptest::prop_assert_eq!(Position::occupied_rows(&board, x), all);
                proptest::prop_assert_eq!(Position::rows_of(&bits, x, colours), asked);
                proptest::prop_assert_eq!(Position::rows_of(&board, x, colours), asked);
            }
        }

        /// Invariant behind [`Search::shift_allowed`]: the packed column
        /// counts it derives for a drag are those of the board the drag
        /// leaves before anything vanishes, for the dragged colour and, in a
        /// swap, the other one; every other colour's are unchanged.
        #[test]
        fn shifted_indexes_are_the_dragged_boards_counts(
            columns in proptest::collection::vec(proptest::collection::vec(1u8..=4, 0..=7), 5),
            x in 0usize..COLUMNS,
            y in 0usize..7,
            right: bool,
        ) {
            let board = Board::from_columns(&columns).expect("at most 7 blocks a column");
            let direction = if right { Direction::Right } else { Direction::Left };
            let step = Move { x, y, direction };
            let Some(target) = step.target_column() else { return Ok(()) };
            let colour = board.colour(x, y);
            proptest::prop_assume!(colour != 0);
            let other = board.colour(target, y);
            let mut dragged = board;
            dragged.drag_without_vanishing(step).expect("a block to drag");
            let mut expected = board.count_indexes();
            if other != colour {
                let colour = usize::from(colour);
                expected[colour] = shifted_index(expected[colour], x, target);
                if other != 0 {
                    let other = usize::from(other);
                    expected[other] = shifted_index(expected[other], target, x);
                }
            }
            proptest::prop_assert_eq!(dragged.count_indexes(), expected);
        }
    }
}

#[cfg(test)]
#[path = "spread_tests.rs"]
mod spread_tests;
