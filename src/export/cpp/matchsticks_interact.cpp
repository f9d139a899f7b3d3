// ---- The interactor: `judge interact matchsticks-duel` ----
// Kattis: judge_interact INPUT ANSWER FEEDBACK_DIR, the submission's output
// on stdin, its input on stdout. The judge writes k and the k positions,
// then, game after game, answers each move of the submission with `win`
// (the move left it no legal move) or a reply of its own: a move that
// leaves the submission lost when there is one, else the first legal one,
// in the judge's order (`judge` picks among equal replies by the test's
// seed; this one takes the first). A submission left without a move gets
// `lose`. Exit 42 when it wins every game, 43 otherwise (the reason in
// FEEDBACK_DIR/judgemessage.txt), 1 when the input is wrong.
#include <csignal>

static const char *feedback_dir = ".";

static int finish(int code, const std::string &message) {
    write_feedback(feedback_dir, message);
    return code;
}

static void say(const std::string &text) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
}

// The submission's line as a message shows it: control characters as
// \xNN, so they never reach whoever reads the message, and so every byte
// past ASCII of a line that is not valid UTF-8 (judgemessage.txt stays
// UTF-8 text a host can store).
static std::string shown(const std::string &line) {
    std::vector<uint32_t> points;
    const bool text = decode_utf8(line, points);
    std::string out;
    char escaped[8];
    for (unsigned char c : line) {
        if (c < 0x20 || c == 0x7F || (!text && c >= 0x80)) {
            std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
            out += escaped;
        } else {
            out += (char)c;
        }
    }
    return out;
}

// One line of the submission's output (without its newline), at most
// 64 KiB of it; false at the end of its output.
static bool read_line(std::string &line) {
    line.clear();
    int c;
    bool any = false;
    while ((c = std::getchar()) != EOF) {
        any = true;
        if (c == '\n') return true;
        if (line.size() < 65536) line += (char)c;
    }
    return any;
}

// `r c d` or `rcd` (split on whitespace as the judge splits it); false when
// the line is not a move.
static bool parse_move(const std::string &line, long long &row, long long &column, int &stick) {
    std::vector<uint32_t> points;
    if (!decode_utf8(line, points)) {
        // The judge reads the line with the bad bytes replaced: not a move.
        return false;
    }
    std::vector<Token> words = tokens_of(points);
    auto orientation = [](const Token &word, int &out) {
        if (word.points.size() != 1 || (word.points[0] != '-' && word.points[0] != '1')) return false;
        out = word.points[0] == '1' ? 1 : 2;
        return true;
    };
    if (words.size() == 1) {
        const Token &compact = words[0];
        if (compact.text().size() != 3) return false;
        for (uint32_t c : compact.points) if (c > 0x7F) return false;
        uint32_t r = compact.points[0], c = compact.points[1];
        if (r < '0' || r > '9' || c < '0' || c > '9') return false;
        Token last;
        last.points = {compact.points[2]};
        if (!orientation(last, stick)) return false;
        row = r - '0';
        column = c - '0';
        return true;
    }
    if (words.size() != 3) return false;
    // Rust's i64 parse: an optional sign, then digits.
    auto integer = [](const Token &word, long long &out) {
        std::vector<uint32_t> digits = word.points;
        if (!digits.empty() && digits[0] == '+') digits.erase(digits.begin());
        if (!digits.empty() && digits[0] == '-' && word.points[0] == '+') return false;
        int64_t value;
        if (!parse_integer(digits, value)) return false;
        out = value;
        return true;
    };
    return integer(words[0], row) && integer(words[1], column) && orientation(words[2], stick);
}

int main(int argc, char **argv) {
    if (argc < 4) { std::fprintf(stderr, "usage: judge_interact INPUT ANSWER FEEDBACK_DIR\n"); return 1; }
    feedback_dir = argv[3];
    // A submission that stops reading must not kill the judge with SIGPIPE.
    std::signal(SIGPIPE, SIG_IGN);
    init_game();
    std::string input_bytes;
    if (!read_file(argv[1], input_bytes)) { std::fprintf(stderr, "cannot read %s\n", argv[1]); return 1; }
    std::vector<uint32_t> points;
    if (!decode_utf8(input_bytes, points)) { std::fprintf(stderr, "the input is not UTF-8\n"); return 1; }
    auto lines = lenient_lines(points);
    int64_t k;
    if (lines.empty() || !parse_integer(lines[0].second, k) || k < 1 || k > 100 ||
        lines.size() != (size_t)(1 + 3 * k)) {
        std::fprintf(stderr, "the input is not k positions\n");
        return 1;
    }
    std::vector<Board> games(k);
    std::string opening = std::to_string(k) + "\n";
    for (int64_t p = 0; p < k; ++p)
        for (int row = 0; row < ROWS; ++row) {
            if (!read_row(lines[1 + 3 * p + row].second, &games[p].cells[row * COLUMNS])) {
                std::fprintf(stderr, "the input's position %lld is not 3 rows of 4 characters\n", (long long)p + 1);
                return 1;
            }
            opening += encode(lines[1 + 3 * p + row].second) + "\n";
        }
    say(opening);
    std::string line;
    for (int64_t game = 0; game < k; ++game) {
        Board board = games[game];
        int moves = 0;
        std::string first_mistake;
        while (true) {
            std::string here = "game " + std::to_string(game + 1) + ", move " + std::to_string(moves + 1);
            bool got = false;
            while ((got = read_line(line))) {
                std::vector<uint32_t> text;
                bool blank = true;
                if (decode_utf8(line, text)) {
                    for (uint32_t c : text) if (!is_space(c)) { blank = false; break; }
                } else {
                    blank = false;
                }
                if (!blank) break;
            }
            if (!got) return finish(REJECT, here + ": the submission's output ended without a move");
            ++moves;
            here = "game " + std::to_string(game + 1) + ", move " + std::to_string(moves);
            if (line.size() > 64)
                return finish(REJECT, here + ": a line of " + std::to_string(line.size()) + " bytes is not a move");
            long long row = 0, column = 0;
            int stick = 0;
            if (!parse_move(line, row, column, stick))
                return finish(REJECT, here + ": `" + shown(line) + "` is not a move `r c d` or `rcd`");
            std::string why = illegal(board, row, column, stick);
            if (!why.empty()) return finish(REJECT, here + ": `" + shown(line) + "` is illegal: " + why);
            int before = code_of(board);
            int after = before + stick * POWERS[row * COLUMNS + column];
            bool mistake = first_mistake.empty() && won(before) && won(after);
            board = board_of(after);
            std::vector<std::pair<int, int>> replies = legal_moves(board);
            if (replies.empty()) {
                if (game + 1 == k) {
                    say("win\n");
                    return finish(ACCEPT, "won all " + std::to_string(k) + " games");
                }
                say("win\n");
                break;
            }
            std::pair<int, int> reply = replies[0];
            for (auto &candidate : replies)
                if (!won(after + candidate.second * POWERS[candidate.first])) { reply = candidate; break; }
            if (mistake) {
                std::pair<int, int> good;
                std::string keeps = best_move(board_of(before), good) ? "; " + move_text(good.first, good.second) + " keeps yours" : "";
                first_mistake = here + ", " + std::to_string(row) + " " + std::to_string(column) + " " +
                                (stick == 1 ? "1" : "-") + ": leaves the judge a win: " +
                                move_text(reply.first, reply.second) + keeps;
            }
            board = board_of(after + reply.second * POWERS[reply.first]);
            if (legal_moves(board).empty()) {
                say(move_text(reply.first, reply.second) + "\nlose\n");
                return finish(REJECT, "game " + std::to_string(game + 1) + " lost; " +
                                          (first_mistake.empty() ? here + ": the game was lost" : first_mistake));
            }
            say(move_text(reply.first, reply.second) + "\n");
        }
    }
    return finish(REJECT, "the games ended undecided");
}
