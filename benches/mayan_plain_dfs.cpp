// mayan, the baseline of `cargo bench --bench mayan_process`: the classic
// depth-first search of NOIP 2011 "Mayan" as it is usually taught, with no
// memory, no move ordering and no lower bound.
//
// Moves are tried by x, then y, then g = 1 before g = -1, so the first
// solution found is the lexicographically smallest. It has only the two
// textbook cuts:
// - a colour with 1 or 2 blocks left can never vanish, so the board is dead;
// - dragging (x, y) left onto a block is the swap of dragging (x-1, y)
//   right, which came first; a swap of two equal blocks changes nothing and
//   is skipped (the reading without same-colour swaps).
// Exactly n moves, as the judge's rules read the statement.
#include <cstdio>
#include <cstring>

static const int W = 5, H = 7;
static int n;
static int moves[5][3];

struct Board {
    int cell[W][H];  // cell[x][y], colour 1..10 or 0; columns have no gaps
};

static void fall(Board& b) {
    for (int x = 0; x < W; ++x) {
        int top = 0;
        for (int y = 0; y < H; ++y)
            if (b.cell[x][y]) b.cell[x][top++] = b.cell[x][y];
        while (top < H) b.cell[x][top++] = 0;
    }
}

// Every run of 3 or more vanishes at once; true when something vanished.
static bool vanish(Board& b) {
    bool gone[W][H];
    memset(gone, 0, sizeof gone);
    bool any = false;
    for (int x = 0; x < W; ++x)
        for (int y = 0; y < H; ++y) {
            int c = b.cell[x][y];
            if (!c) continue;
            if (x + 2 < W && b.cell[x + 1][y] == c && b.cell[x + 2][y] == c)
                gone[x][y] = gone[x + 1][y] = gone[x + 2][y] = any = true;
            if (y + 2 < H && b.cell[x][y + 1] == c && b.cell[x][y + 2] == c)
                gone[x][y] = gone[x][y + 1] = gone[x][y + 2] = any = true;
        }
    for (int x = 0; x < W; ++x)
        for (int y = 0; y < H; ++y)
            if (gone[x][y]) b.cell[x][y] = 0;
    return any;
}

static bool empty(const Board& b) {
    for (int x = 0; x < W; ++x)
        if (b.cell[x][0]) return false;
    return true;
}

static bool dead(const Board& b) {
    int count[11] = {0};
    for (int x = 0; x < W; ++x)
        for (int y = 0; y < H; ++y) ++count[b.cell[x][y]];
    for (int c = 1; c <= 10; ++c)
        if (count[c] == 1 || count[c] == 2) return true;
    return false;
}

static bool dfs(const Board& b, int step) {
    if (empty(b)) return step == n;
    if (step == n || dead(b)) return false;
    for (int x = 0; x < W; ++x)
        for (int y = 0; y < H && b.cell[x][y]; ++y)
            for (int g = 1; g >= -1; g -= 2) {
                int t = x + g;
                if (t < 0 || t >= W) continue;
                if (g == -1 && b.cell[t][y]) continue;
                if (b.cell[t][y] == b.cell[x][y]) continue;
                Board next = b;
                int c = next.cell[x][y];
                next.cell[x][y] = next.cell[t][y];
                next.cell[t][y] = c;
                fall(next);
                while (vanish(next)) fall(next);
                moves[step][0] = x;
                moves[step][1] = y;
                moves[step][2] = g;
                if (dfs(next, step + 1)) return true;
            }
    return false;
}

int main() {
    Board b;
    memset(&b, 0, sizeof b);
    if (scanf("%d", &n) != 1) return 1;
    for (int x = 0; x < W; ++x)
        for (int y = 0;; ++y) {
            int c;
            if (scanf("%d", &c) != 1) return 1;
            if (c == 0) break;
            if (y < H) b.cell[x][y] = c;
        }
    if (dfs(b, 0)) {
        for (int i = 0; i < n; ++i) printf("%d %d %d\n", moves[i][0], moves[i][1], moves[i][2]);
    } else {
        printf("-1\n");
    }
    return 0;
}
