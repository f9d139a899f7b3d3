// ---- Text as the judge reads it (UTF-8, Unicode whitespace, integers) ----
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

static const int ACCEPT = 42;
static const int REJECT = 43;

// A file's bytes; false when it cannot be read.
static inline bool read_file(const char *path, std::string &out) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return false;
    out.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
    return true;
}

static inline std::string read_stdin() {
    std::string out;
    char buffer[65536];
    size_t count;
    while ((count = std::fread(buffer, 1, sizeof buffer, stdin)) > 0) out.append(buffer, count);
    return out;
}

// Decodes UTF-8 strictly (no overlong forms, no surrogates, nothing past
// U+10FFFF), as Rust's str::from_utf8; false on the first bad byte, whose
// offset goes to `bad`.
static inline bool decode_utf8(const std::string &bytes, std::vector<uint32_t> &out, size_t *bad = nullptr) {
    size_t i = 0, n = bytes.size();
    struct Mark { size_t *bad; size_t &i; ~Mark() { if (bad) *bad = i; } } mark{bad, i};
    out.clear();
    while (i < n) {
        unsigned char c = bytes[i];
        if (c < 0x80) { out.push_back(c); ++i; continue; }
        int extra;
        uint32_t point, min;
        if (c >= 0xC2 && c <= 0xDF) { extra = 1; point = c & 0x1F; min = 0x80; }
        else if (c >= 0xE0 && c <= 0xEF) { extra = 2; point = c & 0x0F; min = 0x800; }
        else if (c >= 0xF0 && c <= 0xF4) { extra = 3; point = c & 0x07; min = 0x10000; }
        else return false;
        if (n - i <= (size_t)extra) return false;
        for (int k = 1; k <= extra; ++k) {
            unsigned char d = bytes[i + k];
            if ((d & 0xC0) != 0x80) return false;
            point = (point << 6) | (d & 0x3F);
        }
        if (point < min || point > 0x10FFFF || (point >= 0xD800 && point <= 0xDFFF)) return false;
        out.push_back(point);
        i += extra + 1;
    }
    return true;
}

// Rust's char::is_whitespace (Unicode White_Space).
static inline bool is_space(uint32_t c) {
    return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
           c == 0x205F || c == 0x3000;
}

static inline std::string encode(const std::vector<uint32_t> &points) {
    std::string out;
    for (uint32_t c : points) {
        if (c < 0x80) out += (char)c;
        else if (c < 0x800) { out += (char)(0xC0 | (c >> 6)); out += (char)(0x80 | (c & 0x3F)); }
        else if (c < 0x10000) {
            out += (char)(0xE0 | (c >> 12)); out += (char)(0x80 | ((c >> 6) & 0x3F));
            out += (char)(0x80 | (c & 0x3F));
        } else {
            out += (char)(0xF0 | (c >> 18)); out += (char)(0x80 | ((c >> 12) & 0x3F));
            out += (char)(0x80 | ((c >> 6) & 0x3F)); out += (char)(0x80 | (c & 0x3F));
        }
    }
    return out;
}

// A whitespace-separated token and the line it starts on.
struct Token {
    std::vector<uint32_t> points;
    size_t line;
    std::string text() const { return encode(points); }
};

static inline std::vector<Token> tokens_of(const std::vector<uint32_t> &points) {
    std::vector<Token> tokens;
    size_t line = 1;
    Token current;
    bool in_token = false;
    for (uint32_t c : points) {
        if (is_space(c)) {
            if (in_token) { tokens.push_back(current); in_token = false; }
            if (c == '\n') ++line;
        } else {
            if (!in_token) { current.points.clear(); current.line = line; in_token = true; }
            current.points.push_back(c);
        }
    }
    if (in_token) tokens.push_back(current);
    return tokens;
}

// An optional '-' then ASCII digits, within 64 bits (Rust's i64 parse of
// the shape the judge reads); leading zeros read as the same number.
static inline bool parse_integer(const std::vector<uint32_t> &points, int64_t &value) {
    size_t start = 0;
    bool negative = false;
    if (!points.empty() && points[0] == '-') { negative = true; start = 1; }
    if (start == points.size()) return false;
    unsigned long long limit = negative ? 9223372036854775808ULL : 9223372036854775807ULL;
    unsigned long long magnitude = 0;
    for (size_t i = start; i < points.size(); ++i) {
        uint32_t c = points[i];
        if (c < '0' || c > '9') return false;
        unsigned long long digit = c - '0';
        if (magnitude > (limit - digit) / 10) return false;
        magnitude = magnitude * 10 + digit;
    }
    if (negative) value = magnitude == 9223372036854775808ULL ? INT64_MIN : -(int64_t)magnitude;
    else value = (int64_t)magnitude;
    return true;
}

// The lines of a text read leniently, as the judge's checkers read inputs:
// each trimmed of whitespace, blank ones skipped; (line number, content).
static inline std::vector<std::pair<size_t, std::vector<uint32_t>>> lenient_lines(
    const std::vector<uint32_t> &points) {
    std::vector<std::pair<size_t, std::vector<uint32_t>>> lines;
    std::vector<uint32_t> current;
    size_t number = 1;
    auto flush = [&]() {
        size_t a = 0, b = current.size();
        while (a < b && is_space(current[a])) ++a;
        while (b > a && is_space(current[b - 1])) --b;
        if (a < b) lines.push_back({number, std::vector<uint32_t>(current.begin() + a, current.begin() + b)});
        current.clear();
    };
    for (uint32_t c : points) {
        if (c == '\n') { flush(); ++number; }
        else current.push_back(c);
    }
    flush();
    return lines;
}

// The strict layout of `judge validate`: every line ends in \n, no \r, no
// blank line, no space at either end; the lines as bytes, or a message.
static inline bool strict_lines(const std::string &bytes, std::vector<std::string> &lines, std::string &error) {
    std::vector<uint32_t> points;
    size_t bad = 0;
    if (!decode_utf8(bytes, points, &bad)) {
        size_t line = 1;
        for (size_t k = 0; k < bad; ++k) if (bytes[k] == '\n') ++line;
        error = "line " + std::to_string(line) + ": the file is not valid UTF-8 text";
        return false;
    }
    size_t start = 0, number = 1;
    lines.clear();
    while (start < bytes.size()) {
        size_t end = bytes.find('\n', start);
        bool terminated = end != std::string::npos;
        std::string raw = bytes.substr(start, terminated ? end - start : std::string::npos);
        std::string where = "line " + std::to_string(number) + ": ";
        if (raw.find('\r') != std::string::npos) {
            error = where + "expected a line ending in \\n, found \\r (Windows CRLF line ending)";
            return false;
        }
        if (raw.empty()) { error = where + "expected a line, found an empty line"; return false; }
        std::vector<uint32_t> line_points;
        decode_utf8(raw, line_points);
        if (is_space(line_points.front()) || is_space(line_points.back())) {
            error = where + "expected no spaces at the start or end of a line, found \"" + raw + "\"";
            return false;
        }
        if (!terminated) {
            error = where + "expected a line ending in \\n, found end of file (the last line has no newline)";
            return false;
        }
        lines.push_back(raw);
        start = end + 1;
        ++number;
    }
    return true;
}

// The integer of a whole strict line: no leading zero, no '+'.
static inline bool strict_integer(const std::string &text, int64_t &value) {
    std::vector<uint32_t> points(text.begin(), text.end());
    for (char c : text) if ((unsigned char)c >= 0x80) return false;
    std::string digits = text[0] == '-' ? text.substr(1) : text;
    if ((digits.size() > 1 && digits[0] == '0') || text == "-0") return false;
    return parse_integer(points, value);
}

static inline void write_feedback(const char *feedback_dir, const std::string &message) {
    std::string path = std::string(feedback_dir) + "/judgemessage.txt";
    std::ofstream file(path.c_str(), std::ios::binary);
    file << message << "\n";
}
