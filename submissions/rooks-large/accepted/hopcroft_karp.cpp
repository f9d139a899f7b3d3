// rooks-large, accepted (C++): maximum bipartite matching, Hopcroft-Karp (the
// same program as submissions/rooks/accepted/hopcroft_karp.cpp).
//
// Every maximal horizontal run of empty cells can hold at most one rook, and
// so can every maximal vertical run; an empty cell is an edge between the row
// run and the column run through it. Non-attacking placements are exactly the
// matchings, so the answer is a maximum matching. Hopcroft-Karp is
// O(E sqrt V): with n = 100 that is at most 10^4 edges, far inside 1 s.
#include <iostream>
#include <queue>
#include <string>
#include <vector>
using namespace std;

struct HopcroftKarp {
    int left_count, right_count;
    vector<vector<int>> adj;
    vector<int> match_left, match_right, dist;

    HopcroftKarp(int l, int r)
        : left_count(l), right_count(r), adj(l), match_left(l, -1), match_right(r, -1), dist(l) {}

    bool bfs() {
        queue<int> q;
        bool found = false;
        for (int u = 0; u < left_count; ++u) {
            if (match_left[u] < 0) { dist[u] = 0; q.push(u); }
            else dist[u] = -1;
        }
        while (!q.empty()) {
            int u = q.front(); q.pop();
            for (int v : adj[u]) {
                int w = match_right[v];
                if (w < 0) found = true;
                else if (dist[w] < 0) { dist[w] = dist[u] + 1; q.push(w); }
            }
        }
        return found;
    }

    // Recursion depth is bounded by the BFS layer count, at most
    // sqrt(V)-ish in practice and V = 5000 in the worst case: fine.
    bool dfs(int u) {
        for (int v : adj[u]) {
            int w = match_right[v];
            if (w < 0 || (dist[w] == dist[u] + 1 && dfs(w))) {
                match_left[u] = v; match_right[v] = u;
                return true;
            }
        }
        dist[u] = -1;  // dead end for the rest of this phase
        return false;
    }

    int run() {
        int size = 0;
        while (bfs())
            for (int u = 0; u < left_count; ++u)
                if (match_left[u] < 0 && dfs(u)) ++size;
        return size;
    }
};

int main() {
    ios::sync_with_stdio(false);
    int n;
    while (cin >> n && n != 0) {
        vector<string> board(n);
        for (auto& row : board) cin >> row;
        vector<vector<int>> row_run(n, vector<int>(n, -1)), col_run(n, vector<int>(n, -1));
        int rows = 0, cols = 0;
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < n; ++c)
                if (board[r][c] == '.')
                    row_run[r][c] = (c > 0 && board[r][c - 1] == '.') ? row_run[r][c - 1] : rows++;
        for (int c = 0; c < n; ++c)
            for (int r = 0; r < n; ++r)
                if (board[r][c] == '.')
                    col_run[r][c] = (r > 0 && board[r - 1][c] == '.') ? col_run[r - 1][c] : cols++;
        HopcroftKarp matching(rows, cols);
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < n; ++c)
                if (board[r][c] == '.') matching.adj[row_run[r][c]].push_back(col_run[r][c]);
        cout << matching.run() << '\n';
    }
}
