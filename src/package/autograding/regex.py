JS_LETTER_ESCAPES = "bBdDwWsSfnrtvxuk"
JS_GROUP_STARTS = ("(?:", "(?=", "(?!", "(?<=", "(?<!")
# JavaScript's `\s` (Unicode spaces and line ends) and what `.` does not match.
JS_SPACES = "\\s\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
JS_LINE_ENDS = "\\n\\r\\u2028\\u2029"


def python_pattern(pattern):
    """A JavaScript pattern (GitHub Classroom's `regex`) as Python's `re`.

    Read as `new RegExp(pattern)` reads it (no flags, not Unicode mode), so
    what compiles here means what it meant to GitHub: named groups
    `(?<name>...)` are Python's `(?P<name>...)` and `\\k<name>` is
    `(?P=name)`; `[^]` (any character) is `[\\s\\S]` and `[]` (nothing) is
    `(?!)`; `.` matches no line end (`\\r`, U+2028, U+2029 either) and `\\s`
    Unicode's spaces too; a `]` or `[` inside a class is the character; a `{` that does
    not start `{n}`, `{n,}` or `{n,m}` is the character; an escaped letter
    JavaScript gives no meaning (`\\A`, `\\Z`, `\\N`, `\\e`) is the letter.
    What JavaScript refuses, and Python would read otherwise (`(?P<x>`,
    `(?#...)`, inline flags, `\\c`), raises `re.error`.
    """
    out = []
    i = 0
    n = len(pattern)
    in_class = False
    while i < n:
        c = pattern[i]
        if c == "\\":
            if i + 1 >= n:
                raise re.error("the pattern ends with a lone `\\`")
            e = pattern[i + 1]
            if e == "k" and not in_class and pattern.startswith("\\k<", i):
                end = pattern.find(">", i)
                if end > i:
                    out.append("(?P=" + pattern[i + 3:end] + ")")
                    i = end + 1
                    continue
            if e == "s":
                out.append(JS_SPACES if in_class else "[" + JS_SPACES + "]")
                i += 2
                continue
            if e == "S" and not in_class:
                out.append("[^" + JS_SPACES + "]")
                i += 2
                continue
            if e == "c":
                raise re.error("`\\c` (a control character) is not read: write `\\xNN`")
            if e.isascii() and e.isalpha() and e not in JS_LETTER_ESCAPES:
                # JavaScript's identity escape: the letter itself.
                out.append(e)
            else:
                out.append(pattern[i:i + 2])
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
                out.append(c)
            elif c == "[":
                out.append("\\[")
            else:
                out.append(c)
            i += 1
            continue
        if c == "[":
            if pattern.startswith("[^]", i):
                out.append("[\\s\\S]")
                i += 3
                continue
            if pattern.startswith("[]", i):
                out.append("(?!)")
                i += 2
                continue
            in_class = True
            if pattern.startswith("[^", i):
                out.append("[^")
                i += 2
            else:
                out.append("[")
                i += 1
            continue
        if c == "]":
            out.append("\\]")
            i += 1
            continue
        if c == ".":
            out.append("[^" + JS_LINE_ENDS + "]")
            i += 1
            continue
        if c == "{":
            m = re.match(r"\{[0-9]+(,[0-9]*)?\}", pattern[i:])
            if m:
                out.append(m.group(0))
                i += len(m.group(0))
            else:
                out.append("\\{")
                i += 1
            continue
        if c == "(" and pattern.startswith("(?", i):
            if pattern.startswith("(?<", i) and pattern[i + 3:i + 4] not in ("=", "!"):
                out.append("(?P<")
                i += 3
                continue
            if not pattern.startswith(JS_GROUP_STARTS, i):
                raise re.error(
                    "`%s` is not JavaScript (which reads only `(?:`, `(?=`, `(?!`, `(?<=`, "
                    "`(?<!` and `(?<name>`)" % pattern[i:i + 3]
                )
        out.append(c)
        i += 1
    return "".join(out)
