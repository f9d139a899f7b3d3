// ---- The matchstick game (problems/matchsticks/statement.md) ----
// A 3 x 4 board; cell 4 * row + column is base-3 digit number
// 4 * row + column of the board's code: empty 0, vertical 1, horizontal 2.
static const int ROWS = 3, COLUMNS = 4, CELLS = 12, BOARDS = 531441;
static int POWERS[CELLS];

struct Board {
    int cells[CELLS];
};

static inline int cell_of(char c) { return c == '0' ? 0 : c == '1' ? 1 : c == '-' ? 2 : -1; }

static inline int code_of(const Board &board) {
    int code = 0;
    for (int i = 0; i < CELLS; ++i) code += board.cells[i] * POWERS[i];
    return code;
}

static inline Board board_of(int code) {
    Board board;
    for (int i = 0; i < CELLS; ++i) { board.cells[i] = code % 3; code /= 3; }
    return board;
}

// The index in `line` of the stick that `stick` placed at `position` would
// be connected to (no stick of the other direction between them; empty
// cells do not separate), the side towards index 0 first; -1 when none.
static inline int connected_stick(const int *line, int length, int position, int stick) {
    for (int i = position - 1; i >= 0; --i) {
        if (line[i] == 0) continue;
        if (line[i] == stick) return i;
        break;
    }
    for (int i = position + 1; i < length; ++i) {
        if (line[i] == 0) continue;
        if (line[i] == stick) return i;
        break;
    }
    return -1;
}

// Why placing `stick` (1 vertical, 2 horizontal) at `row`, `column` is not
// allowed, or "" when it is.
static inline std::string illegal(const Board &board, long long row, long long column, int stick) {
    if (row < 0 || row >= ROWS) return "row " + std::to_string(row) + " is off the board";
    if (column < 0 || column >= COLUMNS) return "column " + std::to_string(column) + " is off the board";
    int r = (int)row, c = (int)column;
    if (board.cells[r * COLUMNS + c] != 0)
        return "cell " + std::to_string(r) + " " + std::to_string(c) + " is occupied";
    if (stick == 2) {
        int other = connected_stick(&board.cells[r * COLUMNS], COLUMNS, c, 2);
        if (other >= 0) return "connected to the stick at " + std::to_string(r) + " " + std::to_string(other);
    } else {
        int line[ROWS];
        for (int i = 0; i < ROWS; ++i) line[i] = board.cells[i * COLUMNS + c];
        int other = connected_stick(line, ROWS, r, 1);
        if (other >= 0) return "connected to the stick at " + std::to_string(other) + " " + std::to_string(c);
    }
    return "";
}

// Every legal move as (cell, stick), cells in reading order and in each the
// vertical stick before the horizontal one (the judge's order).
static inline std::vector<std::pair<int, int>> legal_moves(const Board &board) {
    std::vector<std::pair<int, int>> moves;
    for (int cell = 0; cell < CELLS; ++cell)
        for (int stick = 1; stick <= 2; ++stick)
            if (illegal(board, cell / COLUMNS, cell % COLUMNS, stick).empty()) moves.push_back({cell, stick});
    return moves;
}

// wins[code]: 1 when the player to move on that board can force a win
// (a player who cannot move loses); -1 not yet known.
static std::vector<signed char> wins;

static inline bool won(int code) {
    if (wins.empty()) wins.assign(BOARDS, -1);
    if (wins[code] >= 0) return wins[code] == 1;
    Board board = board_of(code);
    bool result = false;
    for (auto &move : legal_moves(board)) {
        if (!won(code + move.second * POWERS[move.first])) { result = true; break; }
    }
    wins[code] = result ? 1 : 0;
    return result;
}

static inline void init_game() {
    POWERS[0] = 1;
    for (int i = 1; i < CELLS; ++i) POWERS[i] = POWERS[i - 1] * 3;
}

static inline std::string move_text(int cell, int stick) {
    return std::to_string(cell / COLUMNS) + " " + std::to_string(cell % COLUMNS) + " " + (stick == 1 ? "1" : "-");
}

// The first move (in the judge's order) that leaves the opponent lost.
static inline bool best_move(const Board &board, std::pair<int, int> &chosen) {
    int code = code_of(board);
    for (auto &move : legal_moves(board)) {
        if (!won(code + move.second * POWERS[move.first])) { chosen = move; return true; }
    }
    return false;
}

// Reads positions from lines (each 4 characters of `0`, `1`, `-`); the
// message on failure.
static inline bool read_row(const std::vector<uint32_t> &points, int *cells) {
    if (points.size() != COLUMNS) return false;
    for (int i = 0; i < COLUMNS; ++i) {
        if (points[i] > 0x7F || cell_of((char)points[i]) < 0) return false;
        cells[i] = cell_of((char)points[i]);
    }
    return true;
}
