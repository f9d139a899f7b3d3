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
mod tests;

#[cfg(test)]
mod spread_tests;
