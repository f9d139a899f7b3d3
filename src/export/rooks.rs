//! The self-contained validators of an exported rooks package (issue #34,
//! item 9): Python scripts that the judging host (Kattis, DOMjudge, a
//! contest's problemtools) runs with nothing but the package, where the
//! other engines' exports still run `judge`.
//!
//! - The input validator checks the strict layout of
//!   problems/rooks/statement.md (what `judge validate` checks): a size line
//!   `1 <= n <= max`, n rows of exactly n characters from `.X`, a final
//!   `0`, every line ending in `\n`, no blank line, no space, no `\r`, no
//!   leading zero; exit 42 valid, 43 invalid with "line L: ..." on stderr.
//! - The output validator compares one integer per board with the answer
//!   file's (the maximum is unique, and the export writes the answers from
//!   the reference solver): a leading zero reads as the same integer, as
//!   `judge check` reads it; tokens are split on what `judge check` reads
//!   as whitespace (Unicode's, NBSP included) and output that is not UTF-8
//!   is rejected, as there; a missing, extra or non-integer token, or a
//!   wrong count, is 43 with the board in `judgemessage.txt`; an answer
//!   file that is not one integer per board is the judge's fault (exit 1).
//!
//! Each carries the package's `# judge-engine:` line, so `judge`, reading
//! the export back, still grades with the engine.

use crate::interaction::{KATTIS_ACCEPT, KATTIS_REJECT};

/// The input validator for boards of side at most `max_size`.
pub(super) fn input_validator(id: &str, marker: &str, max_size: usize) -> String {
    format!(
        r#"#!/usr/bin/env python3
# Kattis input validator written by `judge export --kattis {id}`: the rules of
# the statement's Input section, as `judge validate` checks them, with boards
# of side 1 to {max_size}. Exit 42 valid, 43 invalid ("line L: ..." on stderr).
# Self-contained: it needs nothing but Python.
{marker}
import re, sys

MAX_SIZE = {max_size}
INTEGER = re.compile(r"-?[0-9]+")


def invalid(number, message):
    sys.stderr.write("line %d: %s\n" % (number, message))
    sys.exit({reject})


def main():
    data = sys.stdin.buffer.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        invalid(data[: error.start].count(b"\n") + 1, "the input is not UTF-8")
    lines = text.split("\n")
    terminated = text.endswith("\n")
    if terminated:
        lines.pop()
    position = [0]

    def next_line(what):
        index = position[0]
        number = index + 1
        if index >= len(lines):
            invalid(number, "expected %s, found end of file" % what)
        raw = lines[index]
        position[0] += 1
        if "\r" in raw:
            invalid(number, "expected a line ending in \\n, found \\r (Windows CRLF line ending)")
        if raw == "":
            invalid(number, "expected a line, found an empty line")
        if raw.strip() != raw:
            invalid(number, "expected no spaces at the start or end of a line, found %r" % raw)
        if index == len(lines) - 1 and not terminated:
            invalid(number, "expected a line ending in \\n, found end of file (the last line has no newline)")
        return number, raw

    boards = 0
    while True:
        what = "the board size n or the final 0" if boards else "the board size n"
        number, raw = next_line(what)
        digits = raw[1:] if raw.startswith("-") else raw
        leading_zero = (len(digits) > 1 and digits.startswith("0")) or raw == "-0"
        if not INTEGER.fullmatch(raw) or leading_zero:
            invalid(number, "expected %s (an integer), found %r" % (what, raw))
        size = int(raw)
        if size == 0:
            if boards == 0:
                invalid(number, "the input has no board: at least one must come before the final 0")
            break
        if not 1 <= size <= MAX_SIZE:
            invalid(number, "the board size n = %d is outside 1..=%d" % (size, MAX_SIZE))
        boards += 1
        for row in range(1, size + 1):
            number, raw = next_line("row %d of board %d" % (row, boards))
            if len(raw) != size:
                invalid(number, "expected %d cells of '.' or 'X', found %d (%r)" % (size, len(raw), raw))
            for column, character in enumerate(raw, 1):
                if character not in ".X":
                    invalid(number, "column %d: expected '.' or 'X', found %r" % (column, character))
    if position[0] < len(lines):
        number, raw = next_line("the end of the input")
        invalid(number, "expected the end of the input after the final 0, found %r" % raw)
    sys.exit({accept})


main()
"#,
        accept = KATTIS_ACCEPT,
        reject = KATTIS_REJECT,
    )
}

/// The output validator: one integer per board, as the answer file says.
pub(super) fn output_validator(id: &str, marker: &str) -> String {
    format!(
        r#"#!/usr/bin/env python3
# Kattis output validator written by `judge export --kattis {id}`: one integer
# per board, each the answer file's (the maximum is unique), as `judge check`
# grades it. Exit 42 accepted, 43 wrong answer (the board in
# FEEDBACK_DIR/judgemessage.txt), 1 when the answer file is not one integer
# per board. Self-contained: it needs nothing but Python.
{marker}
import os, re, sys

INTEGER = re.compile(rb"-?[0-9]+")
# What `judge check` reads as whitespace: Unicode's White_Space, as Rust's
# char::is_whitespace (Python's str.split() would also split on \x1c-\x1f).
WHITESPACE = re.compile("[\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+")
input_path, answer_path, feedback_dir = sys.argv[1:4]


def verdict(code, message):
    with open(os.path.join(feedback_dir, "judgemessage.txt"), "w") as feedback:
        feedback.write(message + "\n")
    sys.exit(code)


def shown(token):
    return repr(token.decode("utf-8", "replace"))[:40]


with open(answer_path, "rb") as answer_file:
    answers = answer_file.read().split()
if not answers or not all(INTEGER.fullmatch(token) for token in answers):
    sys.stderr.write("the answer file is not one integer per board\n")
    sys.exit(1)
try:
    text = sys.stdin.buffer.read().decode("utf-8")
except UnicodeDecodeError:
    verdict({reject}, "the output is not valid UTF-8 text")
tokens = [token.encode("utf-8") for token in WHITESPACE.split(text) if token]
for board, expected in enumerate(answers, 1):
    if board > len(tokens):
        verdict({reject}, "board %d: expected an integer, found end of output" % board)
    token = tokens[board - 1]
    if not INTEGER.fullmatch(token):
        verdict({reject}, "board %d: expected an integer, found %s" % (board, shown(token)))
    if int(token) != int(expected):
        verdict({reject}, "board %d: expected %d, got %s" % (board, int(expected), shown(token)))
if len(tokens) > len(answers):
    verdict({reject}, "extra output after the last board (board %d): found %s"
            % (len(answers), shown(tokens[len(answers)])))
verdict({accept}, "%d board%s" % (len(answers), "" if len(answers) == 1 else "s"))
"#,
        accept = KATTIS_ACCEPT,
        reject = KATTIS_REJECT,
    )
}
