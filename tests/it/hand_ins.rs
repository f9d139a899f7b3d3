//! Hand-ins that are not source code (issue #32, found by a review): an
//! empty file and a binary file are CE in every language, with the reason
//! alone.

use crate::support::Dir;
use serde_json::Value;

fn compile_of(dir: &Dir, file: &str) -> (String, String) {
    let run = dir.judge(&["run", "rooks", file, "--json", "report.json"]);
    run.expect_code(1);
    let report: Value = serde_json::from_str(&dir.read("report.json")).unwrap();
    let result = &report["results"][0];
    (
        result["verdict"].as_str().unwrap().to_owned(),
        result["compile"]["message"].as_str().unwrap().to_owned(),
    )
}

/// See: issue #32. An empty `rooks.py` was PE (it ran and printed
/// nothing); an empty `rooks.cpp` said "empty file" and then the linker's
/// error. Both are CE that says "empty file", and only that.
#[test]
fn r32_an_empty_hand_in_is_an_empty_file_in_every_language() {
    for file in ["rooks.py", "rooks.cpp", "rooks.c"] {
        let dir = Dir::new();
        dir.create(file, " \n\n");
        let (verdict, message) = compile_of(&dir, file);
        assert_eq!(verdict, "CE", "{file}");
        assert_eq!(message, "empty file: the submission has no code", "{file}");
    }
}

/// See: issue #32. A binary hand-in (a compiled program saved as
/// `rooks.cpp`, a zip) was graded as source and its CE message was full
/// of NULs: it is "not a source file", naming the file.
#[test]
fn r32_a_binary_hand_in_is_not_a_source_file() {
    for file in ["rooks.cpp", "rooks.py"] {
        let dir = Dir::new();
        let mut bytes = b"\x7fELF\x02\x01\x01\x00\x00\x00".to_vec();
        bytes.extend(std::iter::repeat_n(0u8, 300));
        bytes.extend(b"int main() {}\n");
        dir.create(file, bytes);
        let (verdict, message) = compile_of(&dir, file);
        assert_eq!(verdict, "CE", "{file}");
        assert!(
            message.starts_with(&format!("not a source file: `{file}` holds binary data")),
            "{message}"
        );
        assert!(!message.contains('\0'), "{message:?}");
    }
}
