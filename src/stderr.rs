//! The one writer of message lines to stderr: one line, one write. A leaf
//! every layer that must say a line may use (the runner's note on a folder
//! a compile is not lent, the command line's messages, the progress of a
//! pipe), so saying a line never makes a layer depend on `report`.

/// Writes one message line to stderr in a single `write` (stderr is
/// unbuffered, and `eprintln!` writes the text and its newline apart: a
/// process sharing the judge's stderr — a CI step, a container's shell — could
/// put its own line between them, as one did in the VM test of a shared
/// container root). Errors writing a message have nowhere to go and are
/// dropped.
pub(crate) fn say_line(message: &str) {
    let _ = line_to(&mut std::io::stderr().lock(), message);
}

/// `message` and its newline, handed to `out` in one `write_all`.
fn line_to(out: &mut impl std::io::Write, message: &str) -> std::io::Result<()> {
    let mut line = String::with_capacity(message.len() + 1);
    line.push_str(message);
    line.push('\n');
    out.write_all(line.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::line_to;

    /// Records every `write` it is handed.
    #[derive(Default)]
    struct Writes(Vec<Vec<u8>>);

    impl std::io::Write for Writes {
        fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
            self.0.push(data.to_vec());
            Ok(data.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_message_line_is_one_write_with_its_newline() {
        let mut writes = Writes::default();
        line_to(&mut writes, "note: cgroup v2: moved 4 other process(es)").unwrap();
        assert_eq!(
            writes.0,
            [b"note: cgroup v2: moved 4 other process(es)\n".to_vec()],
            "a line in pieces lets another process's line in between"
        );
    }
}
