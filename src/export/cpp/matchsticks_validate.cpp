// ---- The input validator: `judge validate matchsticks` (or, with DUEL,
// `judge validate matchsticks-duel`) ----
static int invalid(const std::string &message) {
    std::fprintf(stderr, "%s\n", message.c_str());
    return REJECT;
}

int main() {
    init_game();
    std::string bytes = read_stdin(), error;
    std::vector<std::string> lines;
    if (!strict_lines(bytes, lines, error)) return invalid(error);
    if (lines.empty()) return invalid("line 1: expected the number of positions k, found end of file");
    int64_t k;
    if (!strict_integer(lines[0], k))
        return invalid("line 1: expected the number of positions k (an integer, written without a "
                       "leading zero), found \"" + lines[0] + "\"");
    if (k < 1 || k > 99)
        return invalid("line 1: the number of positions k = " + std::to_string(k) + " is outside 1..=99");
    size_t next = 1;
    for (int64_t position = 1; position <= k; ++position) {
        Board board;
        size_t first = next + 1;
        for (int row = 0; row < ROWS; ++row, ++next) {
            std::string where = "line " + std::to_string(next + 1) + ": ";
            std::string what = "row " + std::to_string(row) + " of position " + std::to_string(position) +
                               " (4 characters from `0`, `-`, `1`)";
            if (next >= lines.size()) return invalid(where + "expected " + what + ", found end of file");
            std::vector<uint32_t> points;
            decode_utf8(lines[next], points);
            if (!read_row(points, &board.cells[row * COLUMNS]))
                return invalid(where + "expected " + what + ", found \"" + lines[next] + "\"");
        }
        if (legal_moves(board).empty())
            return invalid("line " + std::to_string(first) + ": position " + std::to_string(position) +
                           " has no legal move");
        // matchsticks-duel: every game is won for the side to move.
        if (DUEL && !won(code_of(board)))
            return invalid("line " + std::to_string(first) + ": game " + std::to_string(position) +
                           " is not won for the side to move");
    }
    if (next < lines.size())
        return invalid("line " + std::to_string(next + 1) + ": expected end of file, found \"" + lines[next] + "\"");
    return ACCEPT;
}
