// rooks, accepted (Rust): maximum bipartite matching with Kuhn's augmenting
// paths, seeded by a greedy matching.
//
// A rook blocks its whole maximal run of empty cells in its row and in its
// column and nothing else, so placements are matchings between row runs and
// column runs (one edge per empty cell). Kuhn is O(V E) in theory; on these
// grid graphs, after the greedy seed, few augmentations remain and n = 100
// runs in milliseconds. The search is iterative so that a long augmenting
// path cannot overflow the stack.
use std::io::{self, Read, Write};

fn max_matching(adj: &[Vec<usize>], right_count: usize) -> usize {
    const NONE: usize = usize::MAX;
    let left_count = adj.len();
    let mut match_left = vec![NONE; left_count];
    let mut match_right = vec![NONE; right_count];
    let mut size = 0;
    for u in 0..left_count {
        if let Some(&v) = adj[u].iter().find(|&&v| match_right[v] == NONE) {
            match_left[u] = v;
            match_right[v] = u;
            size += 1;
        }
    }
    // visited[v] == stamp: right vertex v was seen in the current search.
    let mut visited = vec![0usize; right_count];
    let mut stamp = 0;
    // Stack of (left vertex, next edge index to try).
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for root in 0..left_count {
        if match_left[root] != NONE {
            continue;
        }
        stamp += 1;
        stack.clear();
        stack.push((root, 0));
        while let Some(&mut (u, ref mut next)) = stack.last_mut() {
            if *next == adj[u].len() {
                stack.pop();
                continue;
            }
            let v = adj[u][*next];
            *next += 1;
            if visited[v] == stamp {
                continue;
            }
            visited[v] = stamp;
            if match_right[v] == NONE {
                // Flip the path: each left vertex on the stack takes the
                // right vertex its last tried edge points to.
                for &(w, edge) in stack.iter().rev() {
                    let target = adj[w][edge - 1];
                    match_left[w] = target;
                    match_right[target] = w;
                }
                size += 1;
                break;
            }
            stack.push((match_right[v], 0));
        }
    }
    size
}

fn main() {
    let mut text = String::new();
    io::stdin().read_to_string(&mut text).expect("stdin is readable");
    let mut tokens = text.split_ascii_whitespace();
    let mut out = String::new();
    while let Some(token) = tokens.next() {
        let n: usize = token.parse().expect("board size");
        if n == 0 {
            break;
        }
        let board: Vec<&[u8]> = (0..n).map(|_| tokens.next().expect("row").as_bytes()).collect();
        let empty = |r: usize, c: usize| board[r][c] == b'.';
        let mut row_run = vec![vec![0usize; n]; n];
        let mut col_run = vec![vec![0usize; n]; n];
        let (mut rows, mut cols) = (0, 0);
        for r in 0..n {
            for c in 0..n {
                if empty(r, c) {
                    row_run[r][c] = if c > 0 && empty(r, c - 1) {
                        row_run[r][c - 1]
                    } else {
                        rows += 1;
                        rows - 1
                    };
                    col_run[r][c] = if r > 0 && empty(r - 1, c) {
                        col_run[r - 1][c]
                    } else {
                        cols += 1;
                        cols - 1
                    };
                }
            }
        }
        let mut adj = vec![Vec::new(); rows];
        for r in 0..n {
            for c in 0..n {
                if empty(r, c) {
                    adj[row_run[r][c]].push(col_run[r][c]);
                }
            }
        }
        out.push_str(&format!("{}\n", max_matching(&adj, cols)));
    }
    io::stdout().write_all(out.as_bytes()).expect("stdout is writable");
}
