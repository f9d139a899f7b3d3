// matchsticks, compile error (C++): a type error.
//
// `best_move` returns a std::pair<int, char> (cell index, orientation), but
// main assigns it to an int: there is no conversion from std::pair to int, so
// g++ stops with "cannot convert 'std::pair<int, char>' to 'int' in
// initialization". Nothing runs: CE.
#include <algorithm>
#include <iostream>
#include <map>
#include <string>
#include <utility>
using namespace std;

const int ROWS = 3, COLS = 4;
char grid[ROWS][COLS];
map<string, bool> memo;

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
    string k(&grid[0][0], ROWS * COLS);
    auto it = memo.find(k);
    if (it != memo.end()) return it->second;
    bool result = false;
    for (int cell = 0; cell < ROWS * COLS && !result; ++cell)
        for (char d : {'-', '1'})
            if (legal(cell / COLS, cell % COLS, d)) {
                grid[cell / COLS][cell % COLS] = d;
                bool opponent_wins = wins();
                grid[cell / COLS][cell % COLS] = '0';
                if (!opponent_wins) { result = true; break; }
            }
    return memo[k] = result;
}

pair<int, char> best_move() {
    pair<int, char> fallback = {-1, 0};
    for (int cell = 0; cell < ROWS * COLS; ++cell)
        for (char d : {'-', '1'})
            if (legal(cell / COLS, cell % COLS, d)) {
                grid[cell / COLS][cell % COLS] = d;
                bool opponent_wins = wins();
                grid[cell / COLS][cell % COLS] = '0';
                if (!opponent_wins) return {cell, d};
                if (fallback.first < 0) fallback = {cell, d};
            }
    return fallback;
}

int main() {
    int k;
    cin >> k;
    while (k--) {
        for (auto& row : grid) {
            string line;
            cin >> line;
            copy(line.begin(), line.begin() + COLS, row);
        }
        int move = best_move();
        cout << move / COLS << move % COLS << '\n';
    }
}
