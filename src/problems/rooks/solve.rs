//! The reference solver for rooks, and the naive search it replaces.
//!
//! Two rooks attack each other exactly when they stand in the same maximal
//! run of empty cells of a row (a *row segment*) or of a column (a *column
//! segment*). Every empty cell lies in one row segment and one column segment,
//! and a row segment meets a column segment in at most one cell, so a set of
//! non-attacking rooks is a matching between row segments and column segments
//! (problems/rooks/statement.md: the answer is a maximum bipartite matching between
//! maximal row segments and maximal column segments). Hopcroft-Karp finds it
//! in O(E sqrt(V)), E being the number of empty cells.
//!
//! This module does not parse: it takes [`Board`]s.

use super::input::{Board, Cell};

/// The largest number of non-attacking rooks on `board`.
pub fn max_rooks(board: &Board) -> usize {
    let graph = SegmentGraph::new(board);
    graph.maximum_matching()
}

/// The reference output for `boards`: one line per board with its maximum.
/// problems/rooks/statement.md: Output: one line per board with the maximum.
pub fn solve(boards: &[Board]) -> String {
    let mut output = String::new();
    for board in boards {
        output.push_str(&max_rooks(board).to_string());
        output.push('\n');
    }
    output
}

/// The classic exponential search of UVa 639 solutions: visit cells in row
/// order, and at each empty cell that no earlier rook attacks, try both
/// placing a rook and not. Kept for the benchmark, where it shows what the
/// `large` profile is there to reject; hopeless beyond about 8 x 8.
#[doc(hidden)]
pub fn max_rooks_backtracking(board: &Board) -> usize {
    let size = board.size();
    let mut rooks = vec![false; size * size];
    search_from(board, &mut rooks, 0)
}

fn search_from(board: &Board, rooks: &mut [bool], index: usize) -> usize {
    let size = board.size();
    if index >= size * size {
        return 0;
    }
    let (row, column) = (index / size, index % size);
    let without = search_from(board, rooks, index + 1);
    if !board.is_empty_cell(row, column) || attacked_from_before(board, rooks, row, column) {
        return without;
    }
    rooks[index] = true;
    let with = 1 + search_from(board, rooks, index + 1);
    rooks[index] = false;
    with.max(without)
}

/// Whether a rook already placed to the left or above (the only cells visited
/// before this one) sees (`row`, `column`) with no wall between.
fn attacked_from_before(board: &Board, rooks: &[bool], row: usize, column: usize) -> bool {
    let size = board.size();
    let left = (0..column)
        .rev()
        .take_while(|&other| board.is_empty_cell(row, other))
        .any(|other| rooks[row * size + other]);
    let above = (0..row)
        .rev()
        .take_while(|&other| board.is_empty_cell(other, column))
        .any(|other| rooks[other * size + column]);
    left || above
}

/// The bipartite graph of row segments (left) and column segments (right),
/// one edge per empty cell, in compressed adjacency form.
struct SegmentGraph {
    /// Edges of row segment `r` are `column_segments[offsets[r]..offsets[r + 1]]`.
    offsets: Vec<usize>,
    column_segments: Vec<usize>,
    column_segment_count: usize,
}

impl SegmentGraph {
    /// One pass over the rows: a row segment starts after a wall or the left
    /// edge, and the column segment a cell belongs to is the one most recently
    /// opened in its column, since walking rows in order visits each column
    /// top to bottom. Row segments' cells come consecutively, so the adjacency
    /// lists come out already grouped.
    fn new(board: &Board) -> SegmentGraph {
        const NONE: usize = usize::MAX;
        let mut open_column_segment = vec![NONE; board.size()];
        let mut column_segment_count = 0;
        // Capacities for an open board: a board never needs more, and growing
        // these vectors cost more than filling them.
        let cells = board.size() * board.size();
        let mut offsets = Vec::with_capacity(cells + 1);
        let mut column_segments = Vec::with_capacity(cells);
        for row in board.rows() {
            let mut in_row_segment = false;
            for (cell, open) in row.iter().zip(&mut open_column_segment) {
                if *cell == Cell::Wall {
                    in_row_segment = false;
                    *open = NONE;
                    continue;
                }
                if !in_row_segment {
                    in_row_segment = true;
                    offsets.push(column_segments.len());
                }
                if *open == NONE {
                    *open = column_segment_count;
                    column_segment_count += 1;
                }
                column_segments.push(*open);
            }
        }
        offsets.push(column_segments.len());
        SegmentGraph {
            offsets,
            column_segments,
            column_segment_count,
        }
    }

    fn row_segment_count(&self) -> usize {
        self.offsets.len() - 1
    }

    fn neighbours(&self, row_segment: usize) -> &[usize] {
        &self.column_segments[self.offsets[row_segment]..self.offsets[row_segment + 1]]
    }

    /// Hopcroft-Karp: breadth-first layers from every free row segment, then
    /// vertex-disjoint shortest augmenting paths along those layers, until no
    /// augmenting path is left. The depth-first part keeps an explicit stack
    /// because a path can be thousands of segments long on a 100 x 100 board.
    fn maximum_matching(&self) -> usize {
        const FREE: usize = usize::MAX;
        const UNREACHED: usize = usize::MAX;
        let left_count = self.row_segment_count();
        let mut partner_of_row = vec![FREE; left_count];
        let mut partner_of_column = vec![FREE; self.column_segment_count];
        let mut layer = vec![UNREACHED; left_count];
        let mut next_edge = vec![0; left_count];
        let mut queue = Vec::with_capacity(left_count);
        let mut path = Vec::new();
        let mut matched = 0;
        loop {
            queue.clear();
            for row_segment in 0..left_count {
                if partner_of_row[row_segment] == FREE {
                    layer[row_segment] = 0;
                    queue.push(row_segment);
                } else {
                    layer[row_segment] = UNREACHED;
                }
            }
            // The layer of the row segments that see a free column segment:
            // only paths of that length are augmented in this phase, which is
            // what bounds Hopcroft-Karp to O(sqrt V) phases.
            let mut shortest = UNREACHED;
            let mut head = 0;
            while let Some(&row_segment) = queue.get(head) {
                head += 1;
                if layer[row_segment] >= shortest {
                    // The queue is in layer order: every shortest path is known.
                    break;
                }
                for &column_segment in self.neighbours(row_segment) {
                    let partner = partner_of_column[column_segment];
                    if partner == FREE {
                        shortest = layer[row_segment];
                    } else if layer[partner] == UNREACHED {
                        layer[partner] = layer[row_segment] + 1;
                        queue.push(partner);
                    }
                }
            }
            if shortest == UNREACHED {
                return matched;
            }
            next_edge.copy_from_slice(&self.offsets[..left_count]);
            for root in 0..left_count {
                if partner_of_row[root] != FREE {
                    continue;
                }
                path.clear();
                path.push(root);
                while let Some(&row_segment) = path.last() {
                    if next_edge[row_segment] == self.offsets[row_segment + 1] {
                        // Dead end: no later search in this phase may enter it.
                        layer[row_segment] = UNREACHED;
                        path.pop();
                        continue;
                    }
                    let column_segment = self.column_segments[next_edge[row_segment]];
                    let partner = partner_of_column[column_segment];
                    if partner == FREE {
                        // Augmentations only ever take free column segments, so
                        // this one was free during the search too and is seen
                        // only from the `shortest` layer. Each row segment on
                        // the path takes the column segment its current edge
                        // points at.
                        for &on_path in &path {
                            let taken = self.column_segments[next_edge[on_path]];
                            partner_of_row[on_path] = taken;
                            partner_of_column[taken] = on_path;
                        }
                        matched += 1;
                        break;
                    }
                    if layer[row_segment] < shortest && layer[partner] == layer[row_segment] + 1 {
                        // Keep this edge: if `partner` turns out a dead end it
                        // is marked unreached and the edge is skipped then.
                        path.push(partner);
                    } else {
                        next_edge[row_segment] += 1;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::rooks::input::{parse_input, MAX_SIZE};
    use crate::problems::text::Layout;

    fn board(rows: &[&str]) -> Board {
        Board::from_fn(rows.len(), |row, column| {
            if rows[row].as_bytes()[column] == b'X' {
                Cell::Wall
            } else {
                Cell::Empty
            }
        })
    }

    #[test]
    fn solves_the_sample() {
        let text = include_str!("../../../problems/rooks/tests/sample-1.in");
        let boards = parse_input(text, Layout::Strict, 4).unwrap();
        assert_eq!(solve(&boards), "5\n1\n5\n2\n4\n");
        let backtracking: Vec<_> = boards.iter().map(max_rooks_backtracking).collect();
        assert_eq!(backtracking, [5, 1, 5, 2, 4]);
    }

    #[test]
    fn counts_segments_not_cells() {
        assert_eq!(max_rooks(&board(&["X"])), 0);
        assert_eq!(max_rooks(&board(&["."])), 1);
        // Walls in a checkerboard: every empty cell is its own segment.
        assert_eq!(max_rooks(&board(&[".X.", "X.X", ".X."])), 5);
        // One wall splits a row but no column: the split row gains a rook.
        assert_eq!(max_rooks(&board(&["...", ".X.", "..."])), 4);
    }

    #[test]
    fn open_board_holds_one_rook_per_row() {
        let open = Board::from_fn(MAX_SIZE, |_, _| Cell::Empty);
        assert_eq!(max_rooks(&open), MAX_SIZE);
        let walled = Board::from_fn(MAX_SIZE, |_, _| Cell::Wall);
        assert_eq!(max_rooks(&walled), 0);
    }

    #[test]
    fn checkerboard_of_walls_fills_every_empty_cell() {
        // As many segments as empty cells, on both sides of the graph.
        let board = Board::from_fn(MAX_SIZE, |row, column| {
            if (row + column) % 2 == 0 {
                Cell::Empty
            } else {
                Cell::Wall
            }
        });
        assert_eq!(max_rooks(&board), MAX_SIZE * MAX_SIZE / 2);
    }
}
