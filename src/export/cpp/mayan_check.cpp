// ---- The output validator: `judge check mayan` ----
// Kattis: judge_check INPUT ANSWER FEEDBACK_DIR < OUTPUT; 42 accepted,
// 43 wrong answer (the reason in FEEDBACK_DIR/judgemessage.txt), 1 when the
// input or the answer file is not what the judge would accept.
static int judge_fault(const std::string &message) {
    std::fprintf(stderr, "%s\n", message.c_str());
    return 1;
}

// -1 (no_solution), or moves of three integers; false with the reason.
static bool read_claim(const std::string &bytes, const char *stream, bool &no_solution,
                       std::vector<int64_t> &numbers, std::string &reason) {
    std::vector<uint32_t> points;
    if (!decode_utf8(bytes, points)) { reason = std::string("the ") + stream + " is not valid UTF-8 text"; return false; }
    numbers.clear();
    for (const Token &token : tokens_of(points)) {
        int64_t value;
        if (!parse_integer(token.points, value)) {
            reason = "line " + std::to_string(token.line) + ": expected an integer, found \"" + token.text() + "\"";
            return false;
        }
        numbers.push_back(value);
    }
    if (numbers.empty()) { reason = std::string("the ") + stream + " is empty: expected -1 or the moves"; return false; }
    no_solution = numbers.size() == 1 && numbers[0] == -1;
    if (!no_solution && numbers.size() % 3 != 0) {
        reason = "expected moves of 3 numbers each (x y g) or -1, found " + std::to_string(numbers.size()) + " numbers";
        return false;
    }
    return true;
}

struct Reference {
    bool has_without, has_with;
    std::vector<MMove> without_swaps, with_swaps;
};

// 0 accepted, 1 wrong answer, 2 the judge's fault; the reason in `reason`.
static int decide(const Puzzle &puzzle, const Reference &reference, bool no_solution,
                  const std::vector<int64_t> &numbers, std::string &reason) {
    if (no_solution) {
        if (!reference.has_without) { reason = "-1: the board cannot be cleared in exactly n moves"; return 0; }
        reason = "-1, but the board can be cleared: " + describe_moves(reference.without_swaps);
        return 1;
    }
    size_t count = numbers.size() / 3;
    if (count != (size_t)puzzle.moves) {
        reason = "expected " + std::to_string(puzzle.moves) + " moves, found " + std::to_string(count);
        return 1;
    }
    MBoard board = puzzle.board;
    std::vector<MMove> moves;
    bool swapped = false;
    for (size_t i = 0; i < count; ++i) {
        int64_t x = numbers[3 * i], y = numbers[3 * i + 1], g = numbers[3 * i + 2];
        std::string shown = "move " + std::to_string(i + 1) + ": " + std::to_string(x) + " " + std::to_string(y) + " " + std::to_string(g);
        if (g != 1 && g != -1) { reason = shown + ": g must be 1 or -1"; return 1; }
        if (x < 0 || y < 0 || x >= MCOLUMNS || y >= MROWS) { reason = shown + ": no block there"; return 1; }
        swapped = swapped || same_colour_swap(board, (int)x, (int)y, (int)g);
        int played = play(board, (int)x, (int)y, (int)g);
        if (played == 1) { reason = shown + ": no block there"; return 1; }
        if (played == 2) { reason = shown + ": moves off the board"; return 1; }
        moves.push_back({(int)x, (int)y, (int)g});
    }
    int left = block_count(board);
    if (left > 0) { reason = "after " + std::to_string(count) + " moves " + std::to_string(left) + " blocks remain"; return 1; }
    reason = "cleared in " + std::to_string(puzzle.moves) + " moves";
    if (!LEXMIN) return 0;
    if ((reference.has_without && reference.without_swaps == moves) ||
        (reference.has_with && reference.with_swaps == moves))
        return 0;
    bool has = swapped ? reference.has_with : reference.has_without;
    const std::vector<MMove> &smallest = swapped ? reference.with_swaps : reference.without_swaps;
    if (!has) { reason = "the output clears the board but the reference solver found no solution"; return 2; }
    reason = "valid but not the smallest: expected " + describe_moves(smallest);
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 4) return judge_fault("usage: judge_check INPUT ANSWER FEEDBACK_DIR < OUTPUT");
    std::string input_bytes, answer_bytes, error;
    if (!read_file(argv[1], input_bytes)) return judge_fault(std::string("cannot read ") + argv[1]);
    if (!read_file(argv[2], answer_bytes)) return judge_fault(std::string("cannot read ") + argv[2]);
    std::vector<uint32_t> points;
    if (!decode_utf8(input_bytes, points)) return judge_fault("the input is not valid UTF-8 text");
    auto lines = lenient_lines(points);
    Puzzle puzzle;
    if (!read_puzzle(lines, 0, false, puzzle, error)) return judge_fault("the input is invalid: " + error);
    Reference reference;
    reference.has_without = solve(puzzle.board, puzzle.moves, false, reference.without_swaps);
    reference.has_with = solve(puzzle.board, puzzle.moves, true, reference.with_swaps);

    bool no_solution = false;
    std::vector<int64_t> numbers;
    std::string reason;
    if (!read_claim(answer_bytes, "answer", no_solution, numbers, reason))
        return judge_fault("the answer is malformed: " + reason);
    if (decide(puzzle, reference, no_solution, numbers, reason) != 0)
        return judge_fault("the answer disagrees with the reference solver: " + reason);

    if (!read_claim(read_stdin(), "output", no_solution, numbers, reason)) {
        write_feedback(argv[3], reason);
        return REJECT;
    }
    int decided = decide(puzzle, reference, no_solution, numbers, reason);
    if (decided == 2) return judge_fault(reason);
    write_feedback(argv[3], reason);
    return decided == 0 ? ACCEPT : REJECT;
}
