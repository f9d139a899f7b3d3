// ---- The Mayan puzzle (problems/mayan/statement.md) ----
#include <unordered_set>
// 5 columns (x, left to right) of 7 rows (y, bottom up); colour 0 is empty.
static const int MCOLUMNS = 5, MROWS = 7, MAX_COLOUR = 10, MAX_MOVES = 5;

struct MBoard {
    unsigned char cells[MCOLUMNS][MROWS];
    bool operator==(const MBoard &other) const {
        for (int x = 0; x < MCOLUMNS; ++x)
            for (int y = 0; y < MROWS; ++y)
                if (cells[x][y] != other.cells[x][y]) return false;
        return true;
    }
};

static inline int height(const MBoard &board, int x) {
    int y = 0;
    while (y < MROWS && board.cells[x][y] != 0) ++y;
    return y;
}

static inline bool board_empty(const MBoard &board) {
    for (int x = 0; x < MCOLUMNS; ++x)
        if (board.cells[x][0] != 0) return false;
    return true;
}

static inline int block_count(const MBoard &board) {
    int count = 0;
    for (int x = 0; x < MCOLUMNS; ++x)
        for (int y = 0; y < MROWS; ++y)
            if (board.cells[x][y] != 0) ++count;
    return count;
}

// Marks every cell of a horizontal or vertical run of 3 or more blocks of
// one colour; false when there is none.
static inline bool mark_runs(const MBoard &board, bool marked[MCOLUMNS][MROWS]) {
    bool any = false;
    for (int x = 0; x < MCOLUMNS; ++x)
        for (int y = 0; y < MROWS; ++y) marked[x][y] = false;
    for (int x = 0; x < MCOLUMNS; ++x)
        for (int y = 0; y < MROWS; ++y) {
            int colour = board.cells[x][y];
            if (colour == 0) continue;
            if (x + 2 < MCOLUMNS && board.cells[x + 1][y] == colour && board.cells[x + 2][y] == colour) {
                marked[x][y] = marked[x + 1][y] = marked[x + 2][y] = true;
                any = true;
            }
            if (y + 2 < MROWS && board.cells[x][y + 1] == colour && board.cells[x][y + 2] == colour) {
                marked[x][y] = marked[x][y + 1] = marked[x][y + 2] = true;
                any = true;
            }
        }
    return any;
}

// Runs vanish together, blocks fall, until nothing vanishes.
static inline void settle(MBoard &board) {
    bool marked[MCOLUMNS][MROWS];
    while (mark_runs(board, marked)) {
        for (int x = 0; x < MCOLUMNS; ++x) {
            int kept = 0;
            for (int y = 0; y < MROWS; ++y) {
                int colour = board.cells[x][y];
                if (colour == 0) break;
                if (!marked[x][y]) board.cells[x][kept++] = (unsigned char)colour;
            }
            for (int y = kept; y < MROWS; ++y) board.cells[x][y] = 0;
        }
    }
}

// The first run of the board, for a message; false when there is none.
static inline bool has_run(const MBoard &board) {
    bool marked[MCOLUMNS][MROWS];
    return mark_runs(board, marked);
}

// Drags the block at (x, y) one cell right (g = 1) or left (g = -1): a swap
// with a block there, else it drops from the target cell; then settles.
// 0 played, 1 no block there, 2 off the board.
static inline int play(MBoard &board, int x, int y, int g) {
    if (board.cells[x][y] == 0) return 1;
    int target = x + g;
    if (target < 0 || target >= MCOLUMNS) return 2;
    unsigned char colour = board.cells[x][y];
    if (board.cells[target][y] != 0) {
        board.cells[x][y] = board.cells[target][y];
        board.cells[target][y] = colour;
    } else {
        for (int k = y; k + 1 < MROWS; ++k) board.cells[x][k] = board.cells[x][k + 1];
        board.cells[x][MROWS - 1] = 0;
        board.cells[target][height(board, target)] = colour;
    }
    settle(board);
    return 0;
}

static inline bool same_colour_swap(const MBoard &board, int x, int y, int g) {
    int target = x + g;
    if (target < 0 || target >= MCOLUMNS) return false;
    return board.cells[x][y] != 0 && board.cells[x][y] == board.cells[target][y];
}

struct MMove {
    int x, y, g;
    bool operator==(const MMove &other) const { return x == other.x && y == other.y && g == other.g; }
};

// The smallest solution of exactly `left` more moves (moves compare by x,
// then y, then g with 1 before -1), with or without same-colour swaps.
struct Solver {
    bool swaps;
    std::unordered_set<std::string> failed[MAX_MOVES + 1];
    std::vector<MMove> path;

    static std::string key(const MBoard &board) {
        return std::string((const char *)&board.cells[0][0], sizeof board.cells);
    }

    bool known_failed(const std::string &k, int left) { return failed[left].count(k) > 0; }

    bool search(const MBoard &board, int left) {
        if (left == 0) return board_empty(board);
        if (board_empty(board)) return false;
        int counts[MAX_COLOUR + 1] = {0};
        for (int x = 0; x < MCOLUMNS; ++x)
            for (int y = 0; y < MROWS; ++y) ++counts[board.cells[x][y]];
        for (int colour = 1; colour <= MAX_COLOUR; ++colour)
            if (counts[colour] == 1 || counts[colour] == 2) return false;
        std::string k = key(board);
        if (known_failed(k, left)) return false;
        for (int x = 0; x < MCOLUMNS; ++x)
            for (int y = 0; y < MROWS && board.cells[x][y] != 0; ++y)
                for (int g : {1, -1}) {
                    int target = x + g;
                    if (target < 0 || target >= MCOLUMNS) continue;
                    if (!swaps && same_colour_swap(board, x, y, g)) continue;
                    MBoard next = board;
                    play(next, x, y, g);
                    path.push_back({x, y, g});
                    if (search(next, left - 1)) return true;
                    path.pop_back();
                }
        failed[left].insert(k);
        return false;
    }
};

static inline bool solve(const MBoard &board, int moves, bool swaps, std::vector<MMove> &solution) {
    Solver solver;
    solver.swaps = swaps;
    if (!solver.search(board, moves)) return false;
    solution = solver.path;
    return true;
}

static inline std::string describe_moves(const std::vector<MMove> &moves) {
    std::string out;
    for (size_t i = 0; i < moves.size(); ++i) {
        if (i) out += ", ";
        out += std::to_string(moves[i].x) + " " + std::to_string(moves[i].y) + " " + std::to_string(moves[i].g);
    }
    return out;
}
