//! Java as students write it: the copied source is named after its public
//! class (`Solution.java` for `public class Solution`), and the class with
//! `main` is the one run (issue #17).

/// The classes a Java source names for the judge: the file name's (the
/// public top-level type, else the type with `main`) and the one to run
/// (the type with `main`, public first). `Main` stands in for what the
/// source does not say (no public type, no `main`, a syntax error), so
/// such a file still compiles as `Main.java`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct JavaClasses {
    /// The file is `{file}.java`.
    pub(crate) file: String,
    /// `java -cp DIR {main}`.
    pub(crate) main: String,
}

/// The top-level types of `source` that [`JavaClasses`] is made from. A
/// `package hw1;` line (IDEs write one) makes the class to run
/// `hw1.Solution`: `javac -d DIR` puts it under `DIR/hw1/`.
pub(crate) fn classes(source: &str) -> JavaClasses {
    let (package, types) = top_level_types(source);
    let with_main = types
        .iter()
        .filter(|found| found.has_main)
        .max_by_key(|found| found.public);
    let public = types.iter().find(|found| found.public);
    let main = with_main.map_or_else(|| "Main".to_owned(), |found| found.name.clone());
    let file = public.map_or_else(|| main.clone(), |found| found.name.clone());
    let main = match (package, with_main) {
        (Some(package), Some(_)) => format!("{package}.{main}"),
        _ => main,
    };
    JavaClasses { file, main }
}

/// Whether a top-level type of `source` declares `main`: in a folder of
/// Java sources, the files that could be the entry point (issue #34).
pub(crate) fn has_main(source: &str) -> bool {
    top_level_types(source).1.iter().any(|found| found.has_main)
}

struct TopLevel {
    name: String,
    public: bool,
    has_main: bool,
}

const TYPE_KINDS: &[&str] = &[
    "class_declaration",
    "interface_declaration",
    "enum_declaration",
    "record_declaration",
];

/// The package `source` declares (its dotted name, each part an
/// identifier), and its top-level types.
fn top_level_types(source: &str) -> (Option<String>, Vec<TopLevel>) {
    let mut parser = tree_sitter::Parser::new();
    if parser
        .set_language(&tree_sitter_java::LANGUAGE.into())
        .is_err()
    {
        return (None, Vec::new());
    }
    let Some(tree) = parser.parse(source, None) else {
        return (None, Vec::new());
    };
    let text = |node: tree_sitter::Node<'_>| source.get(node.byte_range()).unwrap_or("");
    let root = tree.root_node();
    let mut cursor = root.walk();
    let mut found = Vec::new();
    let mut package = None;
    for node in root.named_children(&mut cursor) {
        if node.kind() == "package_declaration" {
            let mut names = node.walk();
            package = node
                .named_children(&mut names)
                .find(|child| matches!(child.kind(), "identifier" | "scoped_identifier"))
                .map(|name| text(name).split_whitespace().collect::<String>())
                .filter(|name| name.split('.').all(is_identifier));
            continue;
        }
        if !TYPE_KINDS.contains(&node.kind()) {
            continue;
        }
        let Some(name) = node.child_by_field_name("name").map(text) else {
            continue;
        };
        if !is_identifier(name) {
            continue;
        }
        let mut modifiers_cursor = node.walk();
        let public = node
            .named_children(&mut modifiers_cursor)
            .filter(|child| child.kind() == "modifiers")
            .any(|modifiers| {
                text(modifiers)
                    .split_whitespace()
                    .any(|word| word == "public")
            });
        let has_main = node.child_by_field_name("body").is_some_and(|body| {
            let mut body_cursor = body.walk();
            let has_main = body.named_children(&mut body_cursor).any(|member| {
                member.kind() == "method_declaration"
                    && member.child_by_field_name("name").map(text) == Some("main")
            });
            has_main
        });
        found.push(TopLevel {
            name: name.to_owned(),
            public,
            has_main,
        });
    }
    (package, found)
}

/// A name safe as a file name and a `java` argument: letters, digits, `_`
/// and `$`, not starting with a digit.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|first| first.is_alphabetic() || first == '_' || first == '$')
        && chars.all(|next| next.is_alphanumeric() || next == '_' || next == '$')
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    fn pair(file: &str, main: &str) -> JavaClasses {
        JavaClasses {
            file: file.to_owned(),
            main: main.to_owned(),
        }
    }

    #[test_case("public class Solution { public static void main(String[] a) {} }", "Solution", "Solution" ; "public with main")]
    #[test_case("public class hello { public static void main(String[] a) {} }", "hello", "hello" ; "lower case")]
    #[test_case("class Main { public static void main(String[] a) {} }", "Main", "Main" ; "no public class")]
    #[test_case("class Solver { static void main(String[] a) {} }", "Solver", "Solver" ; "no public class, other name")]
    #[test_case("import java.util.*;\nclass Helper {}\npublic final class A { public static void main(String... a) {} }", "A", "A" ; "helper first")]
    #[test_case("public class Helper {}\nclass Main { public static void main(String[] a) {} }", "Helper", "Main" ; "public without main")]
    #[test_case("// public class Fake\n/* public class Fake2 */ class Main { public static void main(String[] a) {} }", "Main", "Main" ; "comments are not code")]
    #[test_case("public class {", "Main", "Main" ; "syntax error")]
    #[test_case("", "Main", "Main" ; "empty")]
    #[test_case("package hw1;\npublic class Solution { public static void main(String[] a) {} }", "Solution", "hw1.Solution" ; "in a package")]
    #[test_case("package a.b ;\nclass Main { public static void main(String[] a) {} }", "Main", "a.b.Main" ; "in a nested package")]
    #[test_case("package hw1;\npublic class Helper {}", "Helper", "Main" ; "in a package without main")]
    fn names_the_file_and_the_class_to_run(source: &str, file: &str, main: &str) {
        assert_eq!(classes(source), pair(file, main));
    }

    #[test_case("class TestHello { public static void main(String[] args) {} }", true ; "a class of another name")]
    #[test_case("public class message { public void print() {} }", false ; "no main")]
    #[test_case("// static void main(String[] a)\nclass A {}", false ; "a comment is no main")]
    #[test_case("public class {", false ; "syntax error")]
    fn tells_a_source_with_main(source: &str, expected: bool) {
        assert_eq!(has_main(source), expected);
    }
}
