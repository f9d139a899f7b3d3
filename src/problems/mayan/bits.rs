//! The board as the solver plays it: a column in one `u32`, 4 bits a cell
//! (row y at bits 4y..4y+4), so that finding every run of the board, making
//! it vanish and comparing boards are a few dozen word operations instead of
//! walks over cells (issue #19: `Board::runs_through` was a quarter of the
//! search's time).
//!
//! It plays exactly as [`Board::play`] on a board at rest (no run standing):
//! there, every run after a move passes through a cell the move or a vanish
//! changed, which is all `Board` looks at, so looking at the whole board
//! finds the same runs. A test plays both side by side on random boards.

use super::input::{Board, COLUMNS, ROWS};

/// The lowest bit of each of a column's 7 cells.
const CELL_LOW_BITS: u32 = 0x0111_1111;

/// A board at rest, packed; see the module documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Bits {
    columns: [u32; COLUMNS],
}

/// The highest bit of each of a column's 7 cells.
const CELL_HIGH_BITS: u32 = CELL_LOW_BITS << 3;

/// The three lower bits of each of a column's 7 cells.
const CELL_LOWER_BITS: u32 = CELL_LOW_BITS * 7;

/// Bit 4y + 3 set where cell y of `cells` is not 0: adding 7 to a cell's
/// three lower bits sets its highest bit exactly when one of them is set,
/// and never carries into the next cell (7 + 7 < 16).
fn nonzero(cells: u32) -> u32 {
    (((cells & CELL_LOWER_BITS) + CELL_LOWER_BITS) | cells) & CELL_HIGH_BITS
}

/// Bit 4y set where cell y of the column holds a block.
fn occupied(column: u32) -> u32 {
    nonzero(column) >> 3
}

/// Bit 4y set where cell y of `a` and of `b` hold the same colour (or are
/// both empty).
fn equal(a: u32, b: u32) -> u32 {
    (!nonzero(a ^ b) & CELL_HIGH_BITS) >> 3
}

/// The column without cell `y`: the cells above it fall by one.
fn without_cell(column: u32, y: usize) -> u32 {
    let below = (1u32 << (4 * y)) - 1;
    (column & below) | ((column >> 4) & !below)
}

impl Bits {
    pub(crate) fn new(board: &Board) -> Bits {
        let mut columns = [0u32; COLUMNS];
        for (x, column) in columns.iter_mut().enumerate() {
            for y in 0..ROWS {
                *column |= u32::from(board.colour(x, y)) << (4 * y);
            }
        }
        Bits { columns }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.columns.iter().all(|&column| column == 0)
    }

    pub(crate) fn height(&self, x: usize) -> usize {
        (32 - self.columns[x].leading_zeros() as usize).div_ceil(4)
    }

    pub(crate) fn colour(&self, x: usize, y: usize) -> u8 {
        (self.columns[x] >> (4 * y) & 15) as u8
    }

    /// Bit 4y set where (x, y) holds a block.
    pub(crate) fn occupied_rows(&self, x: usize) -> u32 {
        occupied(self.columns[x])
    }

    /// Bit 4y set where (x, y) holds a block of one of `colours` (bit c
    /// for colour c; colours 1..=15 fit a cell).
    #[inline]
    pub(crate) fn rows_of(&self, x: usize, colours: u16) -> u32 {
        let column = self.columns[x];
        let mut rows = 0;
        let mut rest = colours & !1;
        while rest != 0 {
            let colour = rest.trailing_zeros();
            rest &= rest - 1;
            rows |= equal(column, colour * CELL_LOW_BITS);
        }
        rows & occupied(column)
    }

    /// The columns, for counting colours.
    pub(crate) fn columns(&self) -> &[u32; COLUMNS] {
        &self.columns
    }

    /// Drags the block at (x, y), which must exist, to column `target`
    /// (x's neighbour), then vanishes runs until the board is at rest.
    pub(crate) fn play(&mut self, x: usize, y: usize, target: usize) {
        let shift = 4 * y;
        let colour = self.columns[x] >> shift & 15;
        let other = self.columns[target] >> shift & 15;
        if other != 0 {
            let cell = !(15u32 << shift);
            self.columns[x] = self.columns[x] & cell | other << shift;
            self.columns[target] = self.columns[target] & cell | colour << shift;
        } else {
            self.columns[x] = without_cell(self.columns[x], y);
            let height = self.height(target);
            self.columns[target] |= colour << (4 * height);
        }
        self.settle(1 << x | 1 << target);
    }

    /// Every run of 3 or more vanishes at once, then blocks fall; again
    /// until nothing vanishes. `changed` has bit x set for each column
    /// whose cells changed since the board was last at rest: only those can
    /// hold a column run (a row run can pass through any column, as the
    /// cells of a changed column move up or down).
    fn settle(&mut self, mut changed: u32) {
        loop {
            let Some(marked) = self.runs(changed) else {
                return;
            };
            changed = 0;
            for (x, (column, mut marks)) in self.columns.iter_mut().zip(marked).enumerate() {
                if marks == 0 {
                    continue;
                }
                changed |= 1 << x;
                // Highest first, so the rows of the marks below stay put.
                while marks != 0 {
                    let top = 31 - marks.leading_zeros() as usize;
                    *column = without_cell(*column, top / 4);
                    marks &= !(1 << top);
                }
            }
        }
    }

    /// The cells of every run of 3 or more, as the lowest bit of each cell,
    /// looking for column runs only in the columns of `columns` (bit x);
    /// `None` when there is none. Written out for the 5 columns (issue #19:
    /// this is most of a move's cost, and the search plays tens of
    /// thousands of moves on a dense board).
    fn runs(&self, columns: u32) -> Option<[u32; COLUMNS]> {
        let [c0, c1, c2, c3, c4] = self.columns;
        // Worked on the highest bit of each cell (see `nonzero`), each
        // column's occupied cells found once: issue #19, this is most of a
        // move's cost.
        let (o0, o1, o2, o3, o4) = (
            nonzero(c0),
            nonzero(c1),
            nonzero(c2),
            nonzero(c3),
            nonzero(c4),
        );
        // Occupied cells of `a` holding the colour of the same cell of `b`.
        let same = |a: u32, b: u32, occupied: u32| !nonzero(a ^ b) & occupied;
        let column_run = |x: usize, column: u32, occupied: u32| {
            if columns >> x & 1 == 0 {
                return 0;
            }
            // Cell y equal to cell y + 1, then to y + 2 as well.
            let pairs = same(column, column >> 4, occupied);
            let starts = pairs & pairs >> 4;
            starts | starts << 4 | starts << 8
        };
        // Cell y of column x equal to cell y of x + 1, then of x + 2.
        let p0 = same(c0, c1, o0);
        let p1 = same(c1, c2, o1);
        let p2 = same(c2, c3, o2);
        let p3 = same(c3, c4, o3);
        let (s0, s1, s2) = (p0 & p1, p1 & p2, p2 & p3);
        let marked = [
            (column_run(0, c0, o0) | s0) >> 3,
            (column_run(1, c1, o1) | s0 | s1) >> 3,
            (column_run(2, c2, o2) | s0 | s1 | s2) >> 3,
            (column_run(3, c3, o3) | s1 | s2) >> 3,
            (column_run(4, c4, o4) | s2) >> 3,
        ];
        (marked != [0; COLUMNS]).then_some(marked)
    }

    /// The board and a move count in 160 bits: the columns (28 bits each)
    /// with the count in the top bits of column 0.
    pub(crate) fn key(&self, left: usize) -> [u32; COLUMNS] {
        Self::key_of(self.columns, left)
    }

    /// The smaller of the keys of the board and of its mirror image (column
    /// x as column 4 - x): one key for both, since a board and its mirror
    /// image clear in the same number of moves (mirror every move).
    pub(crate) fn symmetric_key(&self, left: usize) -> [u32; COLUMNS] {
        let mut mirrored = self.columns;
        mirrored.reverse();
        Self::key_of(self.columns, left).min(Self::key_of(mirrored, left))
    }

    fn key_of(mut columns: [u32; COLUMNS], left: usize) -> [u32; COLUMNS] {
        // A column's 7 cells take 28 bits; the count (at most 5) goes above.
        columns[0] |= (left as u32) << 28;
        columns
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::mayan::input::{Direction, Move};
    use proptest::prelude::*;

    fn to_board(bits: &Bits) -> Board {
        let columns: Vec<Vec<u8>> = (0..COLUMNS)
            .map(|x| (0..bits.height(x)).map(|y| bits.colour(x, y)).collect())
            .collect();
        Board::from_columns(&columns).unwrap()
    }

    /// Columns of up to 7 blocks from a small palette (runs are frequent),
    /// with no run standing.
    fn board_at_rest() -> impl Strategy<Value = Board> {
        (
            2u8..=5,
            prop::collection::vec(prop::collection::vec(1u8..=5, 0..=7), 5),
        )
            .prop_map(|(palette, raw)| {
                let mut board = Board::default();
                for y in 0..ROWS {
                    for (x, column) in raw.iter().enumerate() {
                        let Some(&wanted) = column.get(y) else {
                            continue;
                        };
                        if board.height(x) != y {
                            continue;
                        }
                        let mut colour = (wanted - 1) % palette + 1;
                        for _ in 0..palette {
                            let mut next = board;
                            if next.push(x, colour) && next.first_run().is_none() {
                                board = next;
                                break;
                            }
                            colour = colour % palette + 1;
                        }
                    }
                }
                board
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

        /// Invariant: any sequence of moves plays to the same boards on
        /// `Bits` as on `Board`.
        #[test]
        fn plays_as_the_board_does(
            board in board_at_rest(),
            steps in prop::collection::vec((0usize..COLUMNS, 0usize..ROWS, any::<bool>()), 1..8),
        ) {
            let mut board = board;
            let mut bits = Bits::new(&board);
            prop_assert_eq!(to_board(&bits), board);
            for (x, y, right) in steps {
                let direction = if right { Direction::Right } else { Direction::Left };
                let step = Move { x, y, direction };
                let Some(target) = step.target_column() else { continue };
                if board.colour(x, y) == 0 {
                    continue;
                }
                board.play(step).unwrap();
                bits.play(x, y, target);
                prop_assert_eq!(to_board(&bits), board);
                prop_assert_eq!(bits.is_empty(), board.is_empty());
                for x in 0..COLUMNS {
                    prop_assert_eq!(bits.height(x), board.height(x));
                }
            }
        }
    }

    proptest! {
        /// Invariant: `occupied` and `equal` mark exactly the cells that
        /// hold a block, and that hold the same colour, cell by cell.
        #[test]
        fn cell_masks_compare_cell_by_cell(
            a in prop::collection::vec(0u32..16, 7),
            b in prop::collection::vec(0u32..16, 7),
        ) {
            let pack = |cells: &[u32]| cells.iter().rev().fold(0u32, |column, &cell| column << 4 | cell);
            let (column_a, column_b) = (pack(&a), pack(&b));
            let mark = |wanted: &dyn Fn(usize) -> bool| {
                (0..7).filter(|&y| wanted(y)).fold(0u32, |rows, y| rows | 1 << (4 * y))
            };
            prop_assert_eq!(occupied(column_a), mark(&|y| a[y] != 0));
            prop_assert_eq!(equal(column_a, column_b), mark(&|y| a[y] == b[y]));
        }
    }

    #[test]
    fn a_chain_clears_the_board_as_board_does() {
        // The sample's solution: the last move sets off a chain.
        let board = Board::from_columns(&[
            vec![1],
            vec![2, 1],
            vec![2, 3, 4],
            vec![3, 1],
            vec![2, 4, 3, 4],
        ])
        .unwrap();
        let mut bits = Bits::new(&board);
        for (x, y) in [(2, 1), (3, 1), (3, 0)] {
            bits.play(x, y, x + 1);
        }
        assert!(bits.is_empty());
    }

    /// Mirror images share a symmetric key; other boards, and other move
    /// counts, do not.
    #[test]
    fn symmetric_keys_join_exactly_mirror_images() {
        let board = Board::from_columns(&[vec![1, 2], vec![3], vec![], vec![], vec![2]]).unwrap();
        let mirror = Board::from_columns(&[vec![2], vec![], vec![], vec![3], vec![1, 2]]).unwrap();
        let shifted = Board::from_columns(&[vec![], vec![1, 2], vec![3], vec![], vec![2]]).unwrap();
        let (board, mirror, shifted) = (Bits::new(&board), Bits::new(&mirror), Bits::new(&shifted));
        assert_eq!(board.symmetric_key(3), mirror.symmetric_key(3));
        assert_ne!(board.symmetric_key(3), mirror.symmetric_key(2));
        assert_ne!(board.symmetric_key(3), shifted.symmetric_key(3));
        assert_ne!(board.key(3), mirror.key(3));
    }

    #[test]
    fn keys_differ_by_board_and_moves_left() {
        let board = Board::from_columns(&[vec![1], vec![], vec![], vec![], vec![2]]).unwrap();
        let bits = Bits::new(&board);
        assert_ne!(bits.key(1), bits.key(2));
        let other = Board::from_columns(&[vec![2], vec![], vec![], vec![], vec![1]]).unwrap();
        assert_ne!(Bits::new(&other).key(1), bits.key(1));
    }
}
