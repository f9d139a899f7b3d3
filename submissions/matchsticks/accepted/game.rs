// matchsticks, accepted (Rust): game-tree search with a memo over all
// (horizontal mask, vertical mask) pairs.
//
// Win for the player to move iff some legal placement leaves a lost position
// (no legal placement: lost, there is no passing). The answer is a winning
// placement when there is one, else any legal one: the statement accepts every
// legal move in a lost position. The memo is a flat table of 2^24 bytes
// (16 MiB), shared by all positions of the test.
use std::io::{self, Read, Write};

const ROWS: usize = 3;
const COLS: usize = 4;

#[derive(Clone, Copy)]
enum Stick {
    Horizontal,
    Vertical,
}

struct Game {
    memo: Vec<u8>, // 0 unknown, 1 win, 2 loss for the player to move
}

fn bit(r: usize, c: usize) -> u32 {
    1 << (r * COLS + c)
}

/// The cells on each side of (r, c) along the stick's own line, nearest first.
fn sides(r: usize, c: usize, stick: Stick) -> [Vec<u32>; 2] {
    match stick {
        Stick::Horizontal => [
            (0..c).rev().map(|k| bit(r, k)).collect(),
            (c + 1..COLS).map(|k| bit(r, k)).collect(),
        ],
        Stick::Vertical => [
            (0..r).rev().map(|k| bit(k, c)).collect(),
            (r + 1..ROWS).map(|k| bit(k, c)).collect(),
        ],
    }
}

/// A new stick may not link to a stick of its own orientation: the nearest
/// stick on each side along its line must be of the other orientation.
fn legal(h: u32, v: u32, r: usize, c: usize, stick: Stick) -> bool {
    if (h | v) & bit(r, c) != 0 {
        return false;
    }
    let (same, other) = match stick {
        Stick::Horizontal => (h, v),
        Stick::Vertical => (v, h),
    };
    sides(r, c, stick).iter().all(|side| {
        for &b in side {
            if same & b != 0 {
                return false;
            }
            if other & b != 0 {
                return true;
            }
        }
        true
    })
}

fn moves(h: u32, v: u32) -> Vec<(usize, usize, Stick, u32, u32)> {
    let mut out = Vec::new();
    for r in 0..ROWS {
        for c in 0..COLS {
            for stick in [Stick::Horizontal, Stick::Vertical] {
                if legal(h, v, r, c, stick) {
                    let (nh, nv) = match stick {
                        Stick::Horizontal => (h | bit(r, c), v),
                        Stick::Vertical => (h, v | bit(r, c)),
                    };
                    out.push((r, c, stick, nh, nv));
                }
            }
        }
    }
    out
}

impl Game {
    fn wins(&mut self, h: u32, v: u32) -> bool {
        let key = ((h << 12) | v) as usize;
        if self.memo[key] == 0 {
            let win = moves(h, v).into_iter().any(|(_, _, _, nh, nv)| !self.wins(nh, nv));
            self.memo[key] = if win { 1 } else { 2 };
        }
        self.memo[key] == 1
    }
}

fn main() {
    let mut text = String::new();
    io::stdin().read_to_string(&mut text).expect("stdin is readable");
    let mut tokens = text.split_ascii_whitespace();
    let k: usize = tokens.next().expect("k").parse().expect("k is a number");
    let mut game = Game { memo: vec![0; 1 << 24] };
    let mut out = String::new();
    for _ in 0..k {
        let (mut h, mut v) = (0u32, 0u32);
        for r in 0..ROWS {
            let row = tokens.next().expect("a row").as_bytes();
            for c in 0..COLS {
                match row[c] {
                    b'-' => h |= bit(r, c),
                    b'1' => v |= bit(r, c),
                    _ => {}
                }
            }
        }
        let all = moves(h, v);
        let chosen = all
            .iter()
            .find(|&&(_, _, _, nh, nv)| !game.wins(nh, nv))
            .or(all.first())
            .expect("inputs always have a legal move");
        let d = match chosen.2 {
            Stick::Horizontal => '-',
            Stick::Vertical => '1',
        };
        out.push_str(&format!("{}{}{}\n", chosen.0, chosen.1, d));
    }
    io::stdout().write_all(out.as_bytes()).expect("stdout is writable");
}
