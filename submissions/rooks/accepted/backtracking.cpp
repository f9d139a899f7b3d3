// rooks, accepted (C++): exhaustive backtracking.
//
// The classic UVa 639 solution: walk the cells in order and, for each empty
// cell that no placed rook attacks, try both with and without a rook. It is
// correct, and with n <= 4 (at most 2^16 branches) instant: UVa 639 as set
// accepts it. Its twin under submissions/rooks-large/time_limit_exceeded/
// shows the same program on boards up to 100 x 100.
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>
using namespace std;

int n, best;
vector<string> board;

// Looks outwards from (r, c) in the four directions until a wall or the edge.
bool attacked(int r, int c) {
    static const int dr[] = {-1, 1, 0, 0}, dc[] = {0, 0, -1, 1};
    for (int d = 0; d < 4; ++d)
        for (int y = r + dr[d], x = c + dc[d];
             y >= 0 && y < n && x >= 0 && x < n && board[y][x] != 'X';
             y += dr[d], x += dc[d])
            if (board[y][x] == 'R') return true;
    return false;
}

void search(int cell, int placed) {
    if (cell == n * n) {
        best = max(best, placed);
        return;
    }
    int r = cell / n, c = cell % n;
    if (board[r][c] == '.' && !attacked(r, c)) {
        board[r][c] = 'R';
        search(cell + 1, placed + 1);
        board[r][c] = '.';
    }
    search(cell + 1, placed);
}

int main() {
    while (cin >> n && n != 0) {
        board.assign(n, "");
        for (auto& row : board) cin >> row;
        best = 0;
        search(0, 0);
        cout << best << endl;
    }
}
