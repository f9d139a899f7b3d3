//! Where a key path is written in a `generators.yaml`'s text: its line,
//! for messages, and the block below it, so a map written into a file
//! keeps the file's own style as BAPCtools keeps it.

/// The 1-based line where the key path `keys` is written: each key
/// searched for below the line of the one before it.
pub(super) fn line_of(text: &str, keys: &[&str]) -> Option<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let mut from = 0;
    let mut found = None;
    for key in keys {
        let matches = |line: &str| {
            let line = line.trim_start();
            let line = line.strip_prefix("- ").map_or(line, str::trim_start);
            [
                format!("{key}:"),
                format!("\"{key}\":"),
                format!("'{key}':"),
            ]
            .iter()
            .any(|written| line.starts_with(written.as_str()))
        };
        let index = (from..lines.len()).find(|&index| matches(lines[index]))?;
        found = Some(index + 1);
        from = index + 1;
    }
    found
}

/// The text of a map written into a file (`test_group.yaml:`, `yaml:`),
/// as BAPCtools writes it: its YAML round trip keeps the file's own style
/// (a flow list stays `[a, b]`, quotes and comments stay), so the block
/// below the key, moved to the left margin, is that text whenever it reads
/// as the same value; otherwise the value in YAML's block style.
pub(super) fn yaml_text(
    text: &str,
    keys: &[&str],
    value: &serde_norway::Value,
) -> Result<String, String> {
    if let Some(block) = source_block(text, keys) {
        if serde_norway::from_str::<serde_norway::Value>(&block).is_ok_and(|read| read == *value) {
            return Ok(block);
        }
    }
    serde_norway::to_string(value).map_err(|error| error.to_string())
}

/// The lines below the key path `keys` that are indented more than its
/// last key, moved left by their least indentation; `None` when the value
/// is written on the key's own line.
fn source_block(text: &str, keys: &[&str]) -> Option<String> {
    let line = line_of(text, keys)?;
    let lines: Vec<&str> = text.lines().collect();
    let key_line = lines.get(line - 1)?;
    let last = keys.last()?;
    let column = [
        format!("{last}:"),
        format!("\"{last}\":"),
        format!("'{last}':"),
    ]
    .iter()
    .find_map(|written| {
        key_line
            .find(written.as_str())
            .map(|at| (at, written.len()))
    })?;
    let rest = key_line[column.0 + column.1..].trim();
    if !rest.is_empty() && !rest.starts_with('#') {
        return None;
    }
    let indent = |line: &str| line.len() - line.trim_start().len();
    let mut block: Vec<&str> = lines[line..]
        .iter()
        .take_while(|line| line.trim().is_empty() || indent(line) > column.0)
        .copied()
        .collect();
    while block.last().is_some_and(|line| line.trim().is_empty()) {
        block.pop();
    }
    let margin = block
        .iter()
        .filter(|line| !line.trim().is_empty())
        .map(|line| indent(line))
        .min()?;
    Some(
        block
            .iter()
            .map(|line| format!("{}\n", line.get(margin..).unwrap_or("")))
            .collect(),
    )
}
