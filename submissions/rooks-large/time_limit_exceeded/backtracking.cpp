// rooks-large, time limit exceeded (C++): exhaustive backtracking.
//
// The classic UVa 639 solution, the same program as
// submissions/rooks/accepted/backtracking.cpp: walk the cells in order and,
// for each empty cell that no placed rook attacks, try both with and without
// a rook. It is correct, and with n <= 4 instant. With n up to 100 the number
// of non-attacking placements to enumerate is astronomically large, so it
// never finishes: TLE by any margin on the first large board.
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
