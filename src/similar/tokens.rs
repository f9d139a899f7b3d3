//! Turning a hand-in into the token sequence that similarity compares.
//!
//! A file in a language with a grammar (C, C++, Python, Java, Rust) is
//! parsed with tree-sitter and its leaves are read in order: comments and
//! layout are dropped, every identifier becomes `ID`, every literal `NUM` or
//! `STR`, built-in type names `TYPE`, so renaming, reformatting and
//! re-commenting leave the sequence as it was. A few disguises students use
//! are undone on the way: `i++`, `++i` and `i += 1` give the same tokens,
//! `for` and `while` are one keyword, and braces are dropped (a one-line
//! `if` body with or without them reads the same). A file that does not
//! parse still gives the tokens the parser recovered.
//!
//! A file in any other language is read by [`plain`]: words, numbers,
//! strings and symbols, with a few common keywords kept as written.
//!
//! This module reads text; it never decides how similar two files are.

use std::path::Path;

/// One token: its kind (a hash of its normalised text) and the 1-based line
/// it starts on, for the regions a person reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub(crate) kind: u32,
    pub(crate) line: u32,
}

/// The languages tree-sitter parses for us.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grammar {
    C,
    Cpp,
    Python,
    Java,
    Rust,
}

impl Grammar {
    /// The grammar for a file extension (without the dot), if there is one.
    pub(crate) fn for_extension(extension: &str) -> Option<Grammar> {
        Some(match extension.to_ascii_lowercase().as_str() {
            "c" | "h" => Grammar::C,
            "cpp" | "cc" | "cxx" | "c++" | "hpp" | "hh" | "hxx" => Grammar::Cpp,
            "py" => Grammar::Python,
            "java" => Grammar::Java,
            "rs" => Grammar::Rust,
            _ => return None,
        })
    }

    /// Which hand-ins compare with each other: C and C++ are one family (a C
    /// program made C++ keeps its structure), every other language its own.
    pub(crate) fn family(self) -> &'static str {
        match self {
            Grammar::C | Grammar::Cpp => "c/c++",
            Grammar::Python => "python",
            Grammar::Java => "java",
            Grammar::Rust => "rust",
        }
    }

    fn language(self) -> tree_sitter::Language {
        match self {
            Grammar::C => tree_sitter_c::LANGUAGE.into(),
            Grammar::Cpp => tree_sitter_cpp::LANGUAGE.into(),
            Grammar::Python => tree_sitter_python::LANGUAGE.into(),
            Grammar::Java => tree_sitter_java::LANGUAGE.into(),
            Grammar::Rust => tree_sitter_rust::LANGUAGE.into(),
        }
    }

    fn has_braces(self) -> bool {
        self != Grammar::Python
    }
}

/// The parser of a grammar could not be used: the judge's fault (a grammar
/// built for another tree-sitter), never the hand-in's.
#[derive(Debug, thiserror::Error)]
pub enum TokenizeError {
    #[error("the {grammar:?} grammar does not load: {source}")]
    Grammar {
        grammar: Grammar,
        source: tree_sitter::LanguageError,
    },
    #[error("the {grammar:?} parser gave no tree for `{}`", path.display())]
    NoTree {
        grammar: Grammar,
        path: std::path::PathBuf,
    },
}

/// What parsing a file gave.
#[derive(Debug)]
pub(crate) struct Parsed {
    pub(crate) tokens: Vec<Token>,
    /// The parser met code it could not read (a syntax error); the tokens
    /// are what it recovered.
    pub(crate) had_errors: bool,
}

/// The kind of a normalised token text. FNV-1a: stable across runs and
/// machines, so the same files always give the same report.
pub(crate) fn kind_of(text: &str) -> u32 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    (hash ^ (hash >> 32)) as u32
}

/// Parses `text` with `grammar` and returns its normalised tokens. `path`
/// only names the file in an error.
pub(crate) fn parse(grammar: Grammar, text: &str, path: &Path) -> Result<Parsed, TokenizeError> {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&grammar.language())
        .map_err(|source| TokenizeError::Grammar { grammar, source })?;
    let tree = parser
        .parse(text, None)
        .ok_or_else(|| TokenizeError::NoTree {
            grammar,
            path: path.to_owned(),
        })?;
    let root = tree.root_node();
    let mut tokens = Vec::new();
    let mut push = |text: &str, row: usize| {
        tokens.push(Token {
            kind: kind_of(text),
            line: u32::try_from(row + 1).unwrap_or(u32::MAX),
        });
    };
    // An explicit walk, not recursion: a hostile file nests as deep as it
    // likes.
    let mut cursor = root.walk();
    'walk: loop {
        let node = cursor.node();
        let descend = enter(grammar, node, &mut push);
        if descend && cursor.goto_first_child() {
            continue;
        }
        leave(node, &mut push);
        loop {
            if cursor.goto_next_sibling() {
                continue 'walk;
            }
            if !cursor.goto_parent() {
                break 'walk;
            }
            leave(cursor.node(), &mut push);
        }
    }
    Ok(Parsed {
        tokens,
        had_errors: root.has_error(),
    })
}

/// Emits what `node` stands for when it is a leaf (or a literal, read as
/// one token); returns whether to read its children.
fn enter(
    grammar: Grammar,
    node: tree_sitter::Node<'_>,
    push: &mut impl FnMut(&str, usize),
) -> bool {
    if node.is_missing() {
        return false;
    }
    let kind = node.kind();
    let row = node.start_position().row;
    if kind.contains("comment") {
        return false;
    }
    if node.is_named() && kind != "boolean_literal" {
        if kind.contains("string") || kind.contains("char") || kind == "text_block" {
            push("STR", row);
            return false;
        }
        if kind.contains("literal") || matches!(kind, "integer" | "float") {
            push("NUM", row);
            return false;
        }
    }
    if node.child_count() > 0 {
        return true;
    }
    let text = match kind {
        // Undone at the end of the update expression (see `leave`).
        "++" | "--" => return false,
        "{" | "}" if grammar.has_braces() => return false,
        "for" | "while" => "loop",
        "primitive_type" => "TYPE",
        "ERROR" => return false,
        _ if node.is_named() && (kind.ends_with("identifier") || kind == "self") => "ID",
        _ => kind,
    };
    push(text, row);
    false
}

/// After the operand of `i++` or `--i`: the tokens of `i += 1` / `i -= 1`.
fn leave(node: tree_sitter::Node<'_>, push: &mut impl FnMut(&str, usize)) {
    if node.kind() != "update_expression" {
        return;
    }
    let mut cursor = node.walk();
    let decrement = node.children(&mut cursor).any(|child| child.kind() == "--");
    let row = node.end_position().row;
    push(if decrement { "-=" } else { "+=" }, row);
    push("NUM", row);
}

/// Words that keep their text in [`plain`]: the keywords most languages
/// share, so that loops and branches still shape the sequence.
const PLAIN_KEYWORDS: &[&str] = &[
    "if", "else", "elif", "for", "while", "do", "loop", "return", "break", "continue", "switch",
    "case", "match", "when", "function", "func", "fun", "fn", "def", "let", "var", "val", "const",
    "class", "struct", "new", "in", "and", "or", "not", "end", "then", "try", "catch",
];

/// Tokens of a file in a language without a grammar: words (identifiers
/// become `ID` unless one of [`PLAIN_KEYWORDS`]), numbers, strings and
/// symbols; `//` and `/* */` comments and blank space are dropped.
pub(crate) fn plain(text: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let bytes = text.as_bytes();
    let mut line: u32 = 1;
    let mut at = 0;
    let push = |tokens: &mut Vec<Token>, text: &str, line: u32| {
        tokens.push(Token {
            kind: kind_of(text),
            line,
        });
    };
    while at < bytes.len() {
        let byte = bytes[at];
        if byte == b'\n' {
            line = line.saturating_add(1);
            at += 1;
        } else if byte.is_ascii_whitespace() {
            at += 1;
        } else if bytes[at..].starts_with(b"//") {
            while at < bytes.len() && bytes[at] != b'\n' {
                at += 1;
            }
        } else if bytes[at..].starts_with(b"/*") {
            at += 2;
            while at < bytes.len() && !bytes[at..].starts_with(b"*/") {
                if bytes[at] == b'\n' {
                    line = line.saturating_add(1);
                }
                at += 1;
            }
            at = (at + 2).min(bytes.len());
        } else if byte.is_ascii_digit() {
            push(&mut tokens, "NUM", line);
            while at < bytes.len() && (bytes[at].is_ascii_alphanumeric() || bytes[at] == b'.') {
                at += 1;
            }
        } else if byte.is_ascii_alphabetic() || byte == b'_' || byte >= 0x80 {
            let start = at;
            while at < bytes.len()
                && (bytes[at].is_ascii_alphanumeric() || bytes[at] == b'_' || bytes[at] >= 0x80)
            {
                at += 1;
            }
            let word = &text[start..at];
            let keyword = PLAIN_KEYWORDS.contains(&word);
            push(&mut tokens, if keyword { word } else { "ID" }, line);
        } else if byte == b'"' || byte == b'\'' {
            push(&mut tokens, "STR", line);
            at += 1;
            while at < bytes.len() && bytes[at] != byte && bytes[at] != b'\n' {
                at += if bytes[at] == b'\\' { 2 } else { 1 };
            }
            // Past the closing quote; an unterminated string ends at the
            // line's end, which still counts as a line.
            if at < bytes.len() && bytes[at] == byte {
                at += 1;
            }
        } else {
            // One symbol; `at` stays on a character boundary because every
            // byte >= 0x80 was taken as part of a word above.
            push(&mut tokens, &text[at..at + 1], line);
            at += 1;
        }
    }
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(grammar: Grammar, text: &str) -> Vec<u32> {
        parse(grammar, text, Path::new("test"))
            .unwrap()
            .tokens
            .iter()
            .map(|token| token.kind)
            .collect()
    }

    #[test]
    fn every_grammar_loads_with_this_tree_sitter() {
        for grammar in [
            Grammar::C,
            Grammar::Cpp,
            Grammar::Python,
            Grammar::Java,
            Grammar::Rust,
        ] {
            let parsed = parse(grammar, "x", Path::new("test")).unwrap();
            assert!(!parsed.tokens.is_empty(), "{grammar:?}");
        }
    }

    #[test]
    fn renaming_layout_and_comments_change_nothing() {
        let one = "int main() { int count = 0; // count\n for (int i = 0; i < 10; i++) count += i; return count; }";
        let two = "int main()\n{\n  /* total */ int total=5;\n  for(int k=1;k<99;++k)\n    total+=k;\n  return total;\n}\n";
        assert_eq!(kinds(Grammar::C, one), kinds(Grammar::C, two));
        assert_eq!(kinds(Grammar::C, one), kinds(Grammar::Cpp, two));
    }

    #[test]
    fn increments_loops_and_braces_are_normalised() {
        assert_eq!(
            kinds(Grammar::C, "f(){i++;}"),
            kinds(Grammar::C, "f(){i += 1;}")
        );
        assert_eq!(
            kinds(Grammar::C, "f(){--i;}"),
            kinds(Grammar::C, "f(){i -= 1;}")
        );
        assert_eq!(
            kinds(Grammar::C, "f(){if (a) b();}"),
            kinds(Grammar::C, "f(){if (a) { b(); }}")
        );
        for (grammar, text) in [
            (Grammar::C, "f(){while(x) y();}"),
            (Grammar::Java, "class B { void g() { for (;z;) { w(); } } }"),
            (Grammar::Python, "for x in y:\n    pass\n"),
            (Grammar::Rust, "fn f() { while x { y(); } }"),
        ] {
            let found = kinds(grammar, text);
            assert!(found.contains(&kind_of("loop")), "{text}");
            assert!(!found.contains(&kind_of("for")) && !found.contains(&kind_of("while")));
        }
    }

    #[test]
    fn python_strings_and_names_are_kinds() {
        assert_eq!(
            kinds(Grammar::Python, "def f(a):\n    # hi\n    return a + 'x'\n"),
            kinds(
                Grammar::Python,
                "def g(b):\n    return b + \"yy\"  # there\n"
            )
        );
    }

    #[test]
    fn a_file_that_does_not_parse_still_gives_tokens() {
        let parsed = parse(Grammar::C, "int main( { return 0 }", Path::new("test")).unwrap();
        assert!(parsed.had_errors);
        assert!(parsed.tokens.len() >= 5, "{:?}", parsed.tokens);
    }

    #[test]
    fn lines_are_one_based() {
        let parsed = parse(Grammar::Python, "x = 1\n\ny = 2\n", Path::new("t")).unwrap();
        let lines: Vec<u32> = parsed.tokens.iter().map(|token| token.line).collect();
        assert_eq!(lines, [1, 1, 1, 3, 3, 3]);
    }

    #[test]
    fn plain_tokens_drop_comments_and_rename_words() {
        let one: Vec<u32> = plain("let x = 10 // ten\nif x { y(\"a\") }")
            .iter()
            .map(|token| token.kind)
            .collect();
        let two: Vec<u32> = plain("let  count=3 /* three */\nif count { z('b') }")
            .iter()
            .map(|token| token.kind)
            .collect();
        assert_eq!(one, two);
        assert_eq!(plain("a\nb\u{e9}c \"unterminated").len(), 3);
        let lines: Vec<u32> = plain("x = \"open\ny\n")
            .iter()
            .map(|token| token.line)
            .collect();
        assert_eq!(lines, [1, 1, 1, 2]);
    }
}
