//! A test case's `generate:` command, as BAPCtools reads it: `{count}`
//! replaced, split as a shell would, its `{seed}` from the whole text, and
//! the arguments a run of it is given.

use sha2::{Digest, Sha512};

/// A `generate:` command, ready to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Command {
    /// As written, after `{count}` is replaced (what the seed hashes).
    pub(crate) text: String,
    /// The program's name, relative to `generators/`.
    pub(crate) program: String,
    /// The arguments as split, `{seed}` and `{name}` not yet replaced.
    pub(crate) words: Vec<String>,
    pub(crate) seed: u32,
    pub(crate) uses_seed: bool,
}

impl Command {
    /// The arguments with `{name}` as `testcase` and `{seed}` (or
    /// `{seed:N}`) as `seed`: the command's own seed, or the next ones
    /// when a run is retried.
    pub(crate) fn args(&self, seed: u32) -> Vec<String> {
        self.words
            .iter()
            .map(|word| {
                let mut arg = word.replace("{name}", "testcase");
                if let Some(&(start, end)) = seed_spans(&arg).first() {
                    arg.replace_range(start..end, &seed.to_string());
                }
                arg
            })
            .collect()
    }
}

/// The seed BAPCtools gives a command: `int(sha512(salt [+ ":" + (count
/// - 1)] + command.strip()), 16) % 2**31`, the low 31 bits of the digest.
pub(crate) fn seed(random_salt: &str, count_value: i64, command: &str) -> u32 {
    let mut text = random_salt.to_owned();
    if count_value != 1 {
        text.push_str(&format!(":{}", count_value.saturating_sub(1)));
    }
    text.push_str(command.trim());
    let digest = Sha512::digest(text.as_bytes());
    let low = [digest[60], digest[61], digest[62], digest[63]];
    u32::from_be_bytes(low) & 0x7fff_ffff
}

/// `{seed}` or `{seed:N}` in `arg`: where each starts and ends.
fn seed_spans(arg: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut from = 0;
    while let Some(start) = arg[from..].find("{seed").map(|offset| from + offset) {
        let rest = &arg[start + 5..];
        let end = if rest.starts_with('}') {
            Some(start + 6)
        } else if let Some(digits) = rest.strip_prefix(':') {
            let count = digits.bytes().take_while(u8::is_ascii_digit).count();
            (count > 0 && digits[count..].starts_with('}')).then_some(start + 5 + 1 + count + 1)
        } else {
            None
        };
        match end {
            Some(end) => {
                spans.push((start, end));
                from = end;
            }
            None => from = start + 5,
        }
    }
    spans
}

/// Parses a command as BAPCtools does: `{count}` replaced, split as a
/// shell would, the seed from the whole text.
pub(super) fn command(
    text: &str,
    count_value: Option<i64>,
    random_salt: &str,
) -> Result<(Command, Option<String>), String> {
    let mut note = None;
    let text = if text.contains("{count}") {
        match count_value {
            Some(value) => text.replace("{count}", &value.to_string()),
            None => {
                note = Some(
                    "uses `{count}` but has no `count`: it is left as written (as BAPCtools does)"
                        .to_owned(),
                );
                text.to_owned()
            }
        }
    } else {
        text.to_owned()
    };
    if text.trim().is_empty() {
        return Err("`generate` must not be empty".to_owned());
    }
    let words = shlex::split(&text).ok_or_else(|| {
        format!(
            "cannot split `{}` into arguments (an unclosed quote?)",
            text.trim()
        )
    })?;
    let Some((program, args)) = words.split_first() else {
        return Err("`generate` must name a program".to_owned());
    };
    if program.starts_with('/') {
        return Err(format!(
            "the generator `{program}` must be a name in `generators/`, not an absolute path"
        ));
    }
    let uses = args.iter().map(|arg| seed_spans(arg).len()).sum::<usize>();
    if uses > 1 {
        return Err("`{seed}` (or `{seed:N}`) may appear at most once".to_owned());
    }
    let seed = seed(random_salt, count_value.unwrap_or(1), &text);
    Ok((
        Command {
            text,
            program: program.clone(),
            words: args.to_vec(),
            seed,
            uses_seed: uses == 1,
        },
        note,
    ))
}

#[cfg(test)]
mod tests;
