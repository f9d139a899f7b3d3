//! A testlib program's `main`, moved into a namespace by the export, ends
//! with `return 0;`: a `main` may flow off its end (it then returns 0),
//! an ordinary function may not (undefined behaviour: g++ -O2 made a
//! validator that ends `inf.readEof(); }` exit non-zero on every valid
//! input, a review of issue #29).

/// `source` with `return 0;` before the closing brace of its `int main(...)`
/// (or `signed main(...)`)
/// definition, or `None` when no such definition is found whole (the
/// export then refuses the program rather than guess). Comments, string
/// and character literals (raw strings included) are skipped while the
/// braces are matched.
pub(super) fn with_main_returning_zero(source: &str) -> Option<String> {
    let bytes = source.as_bytes();
    let mut search = 0;
    while let Some(found) = source[search..].find("main") {
        let at = search + found;
        search = at + 4;
        let before_ok = at == 0 || !is_word(bytes[at - 1]);
        let after_ok = bytes.get(at + 4).is_none_or(|&b| !is_word(b));
        if !before_ok || !after_ok || in_comment_or_literal(source, at) {
            continue;
        }
        // `int` or `signed` (with any spacing) right before `main`.
        let head = source[..at].trim_end();
        let typed = ["int", "signed"].iter().any(|word| {
            head.strip_suffix(word)
                .is_some_and(|before| before.as_bytes().last().is_none_or(|&b| !is_word(b)))
        });
        if !typed {
            continue;
        }
        let rest = &source[at + 4..];
        if !rest.trim_start().starts_with('(') {
            continue;
        }
        let open_paren = at + 4 + rest.find('(')?;
        let close_paren = matching(source, open_paren, b'(', b')')?;
        let after = &source[close_paren + 1..];
        let trimmed = after.trim_start();
        if !trimmed.starts_with('{') {
            // A declaration (`int main();`), not the definition.
            continue;
        }
        let open_brace = close_paren + 1 + (after.len() - trimmed.len());
        let close_brace = matching(source, open_brace, b'{', b'}')?;
        let mut out = String::with_capacity(source.len() + 16);
        out.push_str(&source[..close_brace]);
        out.push_str("\nreturn 0;\n");
        out.push_str(&source[close_brace..]);
        return Some(out);
    }
    None
}

fn is_word(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// Whether `at` lies inside a comment or a literal of `source`.
fn in_comment_or_literal(source: &str, at: usize) -> bool {
    let mut index = 0;
    while index < at {
        match skip(source, index) {
            Some(end) if end > index => {
                if end > at {
                    return true;
                }
                index = end;
            }
            _ => index += 1,
        }
    }
    false
}

/// The end of the comment or literal that starts at `index`, if one does.
fn skip(source: &str, index: usize) -> Option<usize> {
    let bytes = source.as_bytes();
    let rest = &source[index..];
    if rest.starts_with("//") {
        return Some(rest.find('\n').map_or(source.len(), |end| index + end));
    }
    if let Some(comment) = rest.strip_prefix("/*") {
        return Some(
            comment
                .find("*/")
                .map_or(source.len(), |end| index + 2 + end + 2),
        );
    }
    if rest.starts_with("R\"") && (index == 0 || !is_word(bytes[index - 1])) {
        let open = rest.find('(')?;
        let delimiter = &rest[2..open];
        let close = format!("){delimiter}\"");
        return Some(
            rest[open..]
                .find(&close)
                .map_or(source.len(), |end| index + open + end + close.len()),
        );
    }
    let quote = bytes[index];
    if quote == b'"' || quote == b'\'' {
        // A digit separator (`1'000`) is no literal.
        if quote == b'\'' && index > 0 && bytes[index - 1].is_ascii_alphanumeric() {
            return None;
        }
        let mut end = index + 1;
        while end < bytes.len() && bytes[end] != quote && bytes[end] != b'\n' {
            end += if bytes[end] == b'\\' { 2 } else { 1 };
        }
        return Some((end + 1).min(bytes.len()));
    }
    None
}

/// The index of the bracket that closes the one at `open`.
fn matching(source: &str, open: usize, opening: u8, closing: u8) -> Option<usize> {
    let bytes = source.as_bytes();
    let mut depth = 0usize;
    let mut index = open;
    while index < bytes.len() {
        if let Some(end) = skip(source, index) {
            if end > index {
                index = end;
                continue;
            }
        }
        if bytes[index] == opening {
            depth += 1;
        } else if bytes[index] == closing {
            depth = depth.checked_sub(1)?;
            if depth == 0 {
                return Some(index);
            }
        }
        index += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::with_main_returning_zero;

    #[test]
    fn main_gets_a_return_before_its_closing_brace() {
        let source = "#include \"testlib.h\"\n// int main() { in a comment }\n\
                      const char* s = \"int main() {\";\nint f() { return '}'; }\n\
                      int main(int argc, char* argv[]) {\n    registerValidation(argc, argv);\n\
                      if (1) { inf.readEof(); }\n    auto r = R\"x(})x\";\n}\nint after;\n";
        let out = with_main_returning_zero(source).unwrap();
        assert!(
            out.ends_with("    auto r = R\"x(})x\";\n\nreturn 0;\n}\nint after;\n"),
            "{out}"
        );
        // Everything before is kept as it was.
        assert!(out.starts_with(&source[..source.find("    auto r").unwrap()]));
    }

    #[test]
    fn a_declaration_and_other_names_are_not_main() {
        let source = "int main();\nint domain(int x) { return x; }\nint main ( ) { go(); }\n";
        assert_eq!(
            with_main_returning_zero(source).unwrap(),
            "int main();\nint domain(int x) { return x; }\nint main ( ) { go(); \nreturn 0;\n}\n"
        );
        assert_eq!(with_main_returning_zero("void run() {}\n"), None);
        // Competitive programmers' `signed main()` (with `#define int long long`).
        assert_eq!(
            with_main_returning_zero("signed main() { go(); }").unwrap(),
            "signed main() { go(); \nreturn 0;\n}"
        );
        assert_eq!(with_main_returning_zero("uint main() { go(); }"), None);
        assert_eq!(with_main_returning_zero("int main() { unclosed(\n"), None);
        // `1'000`'s separator opens no character literal.
        assert_eq!(
            with_main_returning_zero("int main() { int n = 1'000; }").unwrap(),
            "int main() { int n = 1'000; \nreturn 0;\n}"
        );
    }
}
