use super::*;

#[test]
fn trims_long_messages_with_a_note() {
    let long = "é".repeat(MESSAGE_LIMIT_BYTES);
    let trimmed = trim_message(&long);
    assert!(trimmed.ends_with(&format!("({} more bytes not shown)", MESSAGE_LIMIT_BYTES)));
    assert_eq!(trim_message("short\n\n"), "short");
}
