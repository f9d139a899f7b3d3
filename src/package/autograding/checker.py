"""GitHub Classroom's output comparisons, as `judge import --autograding` wrote them.

A testlib checker: `checker.py INPUT OUTPUT ANSWER`; exit 0 accepted, 1 wrong
answer, 3 a failure of the checker's own (the judge's JE), the reason on stderr.
The answer is the test's `output` of autograding.json (for `regex`, the pattern).

As GitHub Classroom's autograding did: CRLF becomes LF and both texts are
trimmed (JavaScript's `trim`); `exact` wants them equal, `included` wants the
expected text somewhere in the output, `regex` searches the output for the
pattern (Python's `re` with ASCII classes and JavaScript's named groups;
JavaScript's common syntax reads the same);
`exit-status` (a test with no input and no output) accepts any output of a
program that exited 0.
"""

import hashlib
import re
import sys

# Each imported test's comparison, by the SHA-256 of the SHA-256 of its input
# followed by the SHA-256 of its answer: the checker is not told a test's name.
COMPARISONS = {COMPARISONS}

# The comparison of a test not in the table (one added by hand), when every
# imported test had the same; else None, and such a test is a checker failure.
DEFAULT = {DEFAULT}

{REGEX}

# What JavaScript's String.prototype.trim removes.
JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def normalize(text):
    return text.replace("\r\n", "\n").strip(JS_WHITESPACE)


def shown(text, limit=200):
    text = repr(text)
    return text if len(text) <= limit else text[:limit] + "..."


def verdict(code, message):
    print(message, file=sys.stderr)
    sys.exit(code)


def main():
    if len(sys.argv) < 4:
        verdict(3, "usage: checker.py INPUT OUTPUT ANSWER")
    with open(sys.argv[1], "rb") as file:
        input_bytes = file.read()
    with open(sys.argv[2], "rb") as file:
        output = file.read().decode("utf-8", errors="replace")
    with open(sys.argv[3], "rb") as file:
        answer_bytes = file.read()
    answer = answer_bytes.decode("utf-8", errors="replace")
    key = hashlib.sha256(
        hashlib.sha256(input_bytes).digest() + hashlib.sha256(answer_bytes).digest()
    ).hexdigest()
    comparison = COMPARISONS.get(key, DEFAULT)
    if comparison is None:
        verdict(
            3,
            "this test's input and answer are not those of a test judge import wrote, and its "
            "tests compare in more than one way: add the test's key and comparison to "
            "COMPARISONS in checker.py",
        )
    actual = normalize(output)
    if comparison == "exit-status":
        verdict(0, "the program exited 0 (GitHub Classroom looked at nothing else)")
    if comparison == "exact":
        expected = normalize(answer)
        if actual == expected:
            verdict(0, "the output is the expected output")
        got, want = actual.split("\n"), expected.split("\n")
        for number, (a, b) in enumerate(zip(got, want), start=1):
            if a != b:
                verdict(1, "line %d: expected %s, got %s" % (number, shown(b), shown(a)))
        verdict(
            1,
            "expected %d lines (trimmed), got %d; the last expected: %s"
            % (len(want), len(got), shown(want[-1]))
            if len(got) < len(want)
            else "expected %d lines (trimmed), got %d; the first extra: %s"
            % (len(want), len(got), shown(got[len(want)])),
        )
    if comparison == "included":
        expected = normalize(answer)
        if expected in actual:
            verdict(0, "the output includes the expected text")
        verdict(1, "the output does not include %s" % shown(expected))
    if comparison == "regex":
        # `\d`, `\w` and `\b` are ASCII in JavaScript.
        try:
            pattern = re.compile(python_pattern(answer), re.ASCII)
        except re.error as error:
            verdict(3, "the test's pattern %s is not a regular expression: %s" % (shown(answer), error))
        if pattern.search(actual):
            verdict(0, "the output matches the pattern")
        verdict(1, "the output does not match the pattern %s" % shown(answer))
    verdict(3, "unknown comparison %s" % shown(comparison))


main()
