// ---- The output validator: `judge check matchsticks` ----
// Kattis: judge_check INPUT ANSWER FEEDBACK_DIR < OUTPUT; 42 accepted,
// 43 wrong answer (the reason in FEEDBACK_DIR/judgemessage.txt), 1 when the
// input or the answer file is not what the judge wrote (the judge's fault).
static int judge_fault(const std::string &message) {
    std::fprintf(stderr, "%s\n", message.c_str());
    return 1;
}

// Reads one move (`rcd` compact, or `r c d`) from tokens[at...]: false
// with the reason when the output is not a move.
static bool read_move(const std::vector<Token> &tokens, size_t &at, long long &row, long long &column,
                      int &stick, std::string &reason) {
    if (at >= tokens.size()) { reason = "expected a move `rcd` or `r c d`, found end of file"; return false; }
    const Token &first = tokens[at++];
    if (first.points.size() == 3) {
        uint32_t r = first.points[0], c = first.points[1], d = first.points[2];
        if (r >= '0' && r <= '9' && c >= '0' && c <= '9' && (d == '-' || d == '1')) {
            row = r - '0'; column = c - '0'; stick = d == '1' ? 1 : 2;
            return true;
        }
        reason = "expected a move `rcd` or `r c d`, found \"" + first.text() + "\"";
        return false;
    }
    int64_t value;
    if (!parse_integer(first.points, value)) {
        reason = "expected a move `rcd` or `r c d`, found \"" + first.text() + "\"";
        return false;
    }
    row = value;
    if (at >= tokens.size()) { reason = "expected the column of a move `r c d`, found end of file"; return false; }
    const Token &second = tokens[at++];
    if (!parse_integer(second.points, value)) {
        reason = "expected the column of a move `r c d` (an integer), found \"" + second.text() + "\"";
        return false;
    }
    column = value;
    if (at >= tokens.size()) { reason = "expected the orientation of a move `r c d`, found end of file"; return false; }
    const Token &third = tokens[at++];
    if (third.points.size() != 1 || (third.points[0] != '-' && third.points[0] != '1')) {
        reason = "expected an orientation `-` or `1`, found \"" + third.text() + "\"";
        return false;
    }
    stick = third.points[0] == '1' ? 1 : 2;
    return true;
}

// "" when the move is legal and optimal on `board`, else why not.
static std::string judge_move(const Board &board, long long row, long long column, int stick) {
    std::string shown = std::to_string(row) + " " + std::to_string(column) + " " + (stick == 1 ? "1" : "-");
    std::string why = illegal(board, row, column, stick);
    if (!why.empty()) return shown + " is illegal: " + why;
    int code = code_of(board);
    if (!won(code)) return "";
    int after = code + stick * POWERS[row * COLUMNS + column];
    if (!won(after)) return "";
    std::pair<int, int> reply;
    std::string shown_reply = best_move(board_of(after), reply) ? move_text(reply.first, reply.second) : "none";
    return shown + " leaves the opponent a win: " + shown_reply;
}

int main(int argc, char **argv) {
    if (argc < 4) return judge_fault("usage: judge_check INPUT ANSWER FEEDBACK_DIR < OUTPUT");
    init_game();
    std::string input_bytes, answer_bytes;
    if (!read_file(argv[1], input_bytes)) return judge_fault(std::string("cannot read ") + argv[1]);
    if (!read_file(argv[2], answer_bytes)) return judge_fault(std::string("cannot read ") + argv[2]);
    std::vector<uint32_t> points;
    if (!decode_utf8(input_bytes, points)) return judge_fault("the input is not valid UTF-8 text");
    auto lines = lenient_lines(points);
    int64_t k;
    if (lines.empty() || !parse_integer(lines[0].second, k) || k < 1 || k > 99)
        return judge_fault("the input's first line is not the number of positions k in 1..=99");
    if (lines.size() != (size_t)(1 + 3 * k)) return judge_fault("the input does not hold k positions");
    std::vector<Board> boards(k);
    for (int64_t p = 0; p < k; ++p) {
        for (int row = 0; row < ROWS; ++row)
            if (!read_row(lines[1 + 3 * p + row].second, &boards[p].cells[row * COLUMNS]))
                return judge_fault("the input's line " + std::to_string(lines[1 + 3 * p + row].first) +
                                   " is not a row of 4 characters from `0`, `-`, `1`");
        if (legal_moves(boards[p]).empty())
            return judge_fault("the input's position " + std::to_string(p + 1) + " has no legal move");
    }
    // The answer file must be an optimal move for each position, nothing more.
    if (!decode_utf8(answer_bytes, points)) return judge_fault("the answer is not valid UTF-8 text");
    std::vector<Token> answer = tokens_of(points);
    size_t at = 0;
    for (int64_t p = 0; p < k; ++p) {
        long long row, column;
        int stick;
        std::string reason;
        if (!read_move(answer, at, row, column, stick, reason))
            return judge_fault("the answer is malformed: position " + std::to_string(p + 1) + ": " + reason);
        reason = judge_move(boards[p], row, column, stick);
        if (!reason.empty())
            return judge_fault("the answer is stale or wrong: position " + std::to_string(p + 1) + ": " + reason);
    }
    if (at < answer.size()) return judge_fault("the answer is malformed: it has more than k moves");

    std::string output_bytes = read_stdin();
    if (!decode_utf8(output_bytes, points)) {
        write_feedback(argv[3], "the output is not valid UTF-8 text");
        return REJECT;
    }
    std::vector<Token> output = tokens_of(points);
    at = 0;
    for (int64_t p = 0; p < k; ++p) {
        long long row, column;
        int stick;
        std::string reason;
        if (!read_move(output, at, row, column, stick, reason)) {
            write_feedback(argv[3], "position " + std::to_string(p + 1) + ": " + reason);
            return REJECT;
        }
        reason = judge_move(boards[p], row, column, stick);
        if (!reason.empty()) {
            write_feedback(argv[3], "position " + std::to_string(p + 1) + ": " + reason);
            return REJECT;
        }
    }
    if (at < output.size()) {
        write_feedback(argv[3], "expected end of output after " + std::to_string(k) + " moves, found \"" +
                                    output[at].text() + "\" (line " + std::to_string(output[at].line) + ")");
        return REJECT;
    }
    write_feedback(argv[3], std::to_string(k) + (k == 1 ? " position" : " positions"));
    return ACCEPT;
}
