// matchsticks, run-time error (C++): correct moves, wrong exit status.
//
// The search is right (memoised minimax, as in accepted/minimax.cpp), but
// main ends with `return k;`, a habit from a template that returned a count.
// k >= 1, so the process exits with a non-zero status after printing every
// answer, and a non-zero exit is RE whatever the output says.
#include <iostream>
#include <map>
#include <string>
using namespace std;

const int ROWS = 3, COLS = 4;
char grid[ROWS][COLS];
map<string, bool> memo;

string key() { return string(&grid[0][0], ROWS * COLS); }

bool legal(int r, int c, char d) {
    if (grid[r][c] != '0') return false;
    int dr = d == '1', dc = d == '-';
    for (int s = -1; s <= 1; s += 2)
        for (int y = r + s * dr, x = c + s * dc; y >= 0 && y < ROWS && x >= 0 && x < COLS;
             y += s * dr, x += s * dc) {
            if (grid[y][x] == d) return false;
            if (grid[y][x] != '0') break;
        }
    return true;
}

bool wins() {
    string k = key();
    auto it = memo.find(k);
    if (it != memo.end()) return it->second;
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
    return memo[k] = result;
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
        string answer;
        for (int r = 0; r < ROWS; ++r)
            for (int c = 0; c < COLS; ++c)
                for (char d : {'-', '1'}) {
                    if (!legal(r, c, d)) continue;
                    grid[r][c] = d;
                    bool opponent_wins = wins();
                    grid[r][c] = '0';
                    string move = {char('0' + r), char('0' + c), d};
                    if (answer.empty()) answer = move;
                    if (!opponent_wins) { answer = move; goto found; }
                }
    found:
        cout << answer << '\n';
    }
    return k;
}
