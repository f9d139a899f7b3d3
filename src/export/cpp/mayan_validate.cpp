// ---- The input validator: `judge validate mayan` ----
int main() {
    std::string bytes = read_stdin(), error;
    std::vector<std::string> raw;
    if (!strict_lines(bytes, raw, error)) { std::fprintf(stderr, "%s\n", error.c_str()); return REJECT; }
    std::vector<std::pair<size_t, std::vector<uint32_t>>> lines;
    for (size_t i = 0; i < raw.size(); ++i) {
        std::vector<uint32_t> points;
        decode_utf8(raw[i], points);
        lines.push_back({i + 1, points});
    }
    Puzzle puzzle;
    if (!read_puzzle(lines, raw.size() + 1, true, puzzle, error)) { std::fprintf(stderr, "%s\n", error.c_str()); return REJECT; }
    if (board_empty(puzzle.board)) {
        std::fprintf(stderr, "line 2: the board is empty: every input holds at least one block (judge's rule)\n");
        return REJECT;
    }
    return ACCEPT;
}
