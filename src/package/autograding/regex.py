def python_pattern(pattern):
    """A JavaScript pattern (GitHub Classroom's `regex`) as Python's `re`."""
    # Named groups `(?<name>...)` are Python's `(?P<name>...)`, and their
    # back-references `\k<name>` are `(?P=name)`; `[^]` (any character) is
    # `[\s\S]`. An escaped backslash is kept as it is.
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("\\k<", i):
            end = pattern.find(">", i)
            if end > i:
                out.append("(?P=" + pattern[i + 3:end] + ")")
                i = end + 1
                continue
        if pattern[i] == "\\":
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if pattern.startswith("(?<", i) and pattern[i + 3:i + 4] not in ("=", "!"):
            out.append("(?P<")
            i += 3
            continue
        if pattern.startswith("[^]", i):
            out.append("[\\s\\S]")
            i += 3
            continue
        out.append(pattern[i])
        i += 1
    return "".join(out)
