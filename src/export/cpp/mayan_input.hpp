// ---- Reading a Mayan input: n, then 5 columns bottom-up ending in 0 ----
struct Puzzle {
    int moves;
    MBoard board;
};

// Reads the puzzle from `lines` ((number, text) each; strict: the exact
// layout's lines, one whitespace character between numbers, no leading
// zero). false with "line L: ..." on failure.
static inline bool read_puzzle(const std::vector<std::pair<size_t, std::vector<uint32_t>>> &lines,
                               size_t end_line, bool strict, Puzzle &puzzle, std::string &error) {
    auto integer = [&](const std::vector<uint32_t> &points, int64_t &value) {
        if (strict) {
            std::string text = encode(points);
            for (char c : text) if ((unsigned char)c >= 0x80) return false;
            return strict_integer(text, value);
        }
        return parse_integer(points, value);
    };
    if (lines.empty()) { error = "line " + std::to_string(end_line) + ": expected the number of moves n, found end of file"; return false; }
    int64_t n;
    std::string where = "line " + std::to_string(lines[0].first) + ": ";
    if (!integer(lines[0].second, n)) { error = where + "expected n (an integer), found \"" + encode(lines[0].second) + "\""; return false; }
    if (n < 1 || n > MAX_MOVES) { error = where + "n = " + std::to_string(n) + " is outside 1..=5"; return false; }
    puzzle.moves = (int)n;
    for (int x = 0; x < MCOLUMNS; ++x)
        for (int y = 0; y < MROWS; ++y) puzzle.board.cells[x][y] = 0;
    for (int x = 0; x < MCOLUMNS; ++x) {
        if ((size_t)x + 1 >= lines.size()) {
            error = "line " + std::to_string(end_line) +
                    ": expected the line of column " + std::to_string(x) + ", found end of file";
            return false;
        }
        const auto &line = lines[x + 1];
        where = "line " + std::to_string(line.first) + ": ";
        const std::vector<uint32_t> &points = line.second;
        int count = 0;
        bool terminated = false;
        size_t i = 0;
        size_t previous_end = 0;
        bool first = true;
        while (true) {
            size_t start = i;
            while (start < points.size() && is_space(points[start])) ++start;
            if (start >= points.size()) break;
            size_t stop = start;
            while (stop < points.size() && !is_space(points[stop])) ++stop;
            std::vector<uint32_t> token(points.begin() + start, points.begin() + stop);
            i = stop;
            if (terminated) { error = where + "expected nothing after the terminating 0, found \"" + encode(token) + "\""; return false; }
            if (strict && !first && start != previous_end + 1) { error = where + "expected one space between numbers"; return false; }
            first = false;
            previous_end = stop;
            int64_t value;
            if (!integer(token, value)) { error = where + "expected a colour 1..=10 or the terminating 0, found \"" + encode(token) + "\""; return false; }
            if (value == 0) { terminated = true; continue; }
            if (value < 1 || value > MAX_COLOUR) { error = where + "colour " + std::to_string(value) + " is outside 1..=10"; return false; }
            if (count == MROWS) { error = where + "column " + std::to_string(x) + " has more than 7 blocks (the board has 7 rows)"; return false; }
            puzzle.board.cells[x][count++] = (unsigned char)value;
        }
        if (!terminated) { error = where + "expected the line to end with the terminating 0, found \"" + encode(points) + "\""; return false; }
    }
    if (lines.size() > (size_t)MCOLUMNS + 1) {
        error = "line " + std::to_string(lines[MCOLUMNS + 1].first) + ": expected end of file, found \"" + encode(lines[MCOLUMNS + 1].second) + "\"";
        return false;
    }
    if (has_run(puzzle.board)) { error = "line 2: the initial board has a run of 3 or more blocks of one colour; it must have none"; return false; }
    return true;
}
