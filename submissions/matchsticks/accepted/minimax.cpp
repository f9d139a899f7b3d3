// matchsticks, accepted (C++): minimax over the whole game, memoised by the
// base-3 code of the grid (3^12 = 531441 entries).
//
// The player to move wins iff some legal placement leaves the opponent in a
// lost position. The answer is such a placement when one exists; otherwise
// every legal move is equally lost and any of them is accepted
// (the statement, the judge's rule on "optimal").
#include <iostream>
#include <string>
using namespace std;

const int ROWS = 3, COLS = 4;
char grid[ROWS][COLS];
signed char memo[531441];  // 0 unknown, 1 win, 2 loss for the player to move

int code() {
    int x = 0;
    for (int r = 0; r < ROWS; ++r)
        for (int c = 0; c < COLS; ++c)
            x = x * 3 + (grid[r][c] == '0' ? 0 : grid[r][c] == '-' ? 1 : 2);
    return x;
}

// A stick links to the nearest stick along its own line (the row for '-',
// the column for '1') when that stick has the same orientation; a stick of
// the other orientation in between breaks the line, empty cells do not.
bool legal(int r, int c, char d) {
    if (grid[r][c] != '0') return false;
    int dr = d == '1', dc = d == '-';
    for (int s = -1; s <= 1; s += 2) {
        for (int y = r + s * dr, x = c + s * dc; y >= 0 && y < ROWS && x >= 0 && x < COLS;
             y += s * dr, x += s * dc) {
            if (grid[y][x] == d) return false;
            if (grid[y][x] != '0') break;
        }
    }
    return true;
}

bool wins() {
    int key = code();
    if (memo[key]) return memo[key] == 1;
    bool result = false;
    for (int r = 0; r < ROWS && !result; ++r)
        for (int c = 0; c < COLS && !result; ++c)
            for (char d : {'-', '1'})
                if (legal(r, c, d)) {
                    grid[r][c] = d;
                    bool opponent_wins = wins();
                    grid[r][c] = '0';
                    if (!opponent_wins) { result = true; break; }
                }
    memo[key] = result ? 1 : 2;
    return result;
}

int main() {
    int k;
    cin >> k;
    for (int i = 0; i < k; ++i) {
        for (int r = 0; r < ROWS; ++r) {
            string row;
            cin >> row;
            for (int c = 0; c < COLS; ++c) grid[r][c] = row[c];
        }
        int best_r = -1, best_c = -1;
        char best_d = 0;
        bool found_win = false;
        for (int r = 0; r < ROWS && !found_win; ++r)
            for (int c = 0; c < COLS && !found_win; ++c)
                for (char d : {'-', '1'}) {
                    if (!legal(r, c, d)) continue;
                    grid[r][c] = d;
                    bool opponent_wins = wins();
                    grid[r][c] = '0';
                    if (best_r < 0 || !opponent_wins) best_r = r, best_c = c, best_d = d;
                    if (!opponent_wins) { found_win = true; break; }
                }
        cout << best_r << best_c << best_d << '\n';
    }
}
