//! Generic shrinking for a package without a shrinker of its own (issue
//! #9): drop a line, drop a token, halve a number. The candidates know
//! nothing about the problem; `judge stress` keeps only those the package's
//! validator accepts, so every shrunk input is still a valid one.

/// Candidates smaller than `input`, the boldest first: each line dropped,
/// then each token dropped, then each number halved (towards zero).
pub(crate) fn generic(input: &str) -> Vec<String> {
    let lines: Vec<&str> = input.lines().collect();
    let trailing_newline = input.ends_with('\n');
    let join = |lines: &[String]| {
        let mut text = lines.join("\n");
        if trailing_newline && !text.is_empty() {
            text.push('\n');
        }
        text
    };
    let mut candidates = Vec::new();
    if lines.len() > 1 {
        for skip in 0..lines.len() {
            let kept: Vec<String> = lines
                .iter()
                .enumerate()
                .filter(|(index, _)| *index != skip)
                .map(|(_, line)| (*line).to_owned())
                .collect();
            candidates.push(join(&kept));
        }
    }
    for (index, line) in lines.iter().enumerate() {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.len() < 2 {
            continue;
        }
        for skip in 0..tokens.len() {
            let line: Vec<&str> = tokens
                .iter()
                .enumerate()
                .filter(|(position, _)| *position != skip)
                .map(|(_, token)| *token)
                .collect();
            let mut all: Vec<String> = lines.iter().map(|line| (*line).to_owned()).collect();
            all[index] = line.join(" ");
            candidates.push(join(&all));
        }
    }
    for (index, line) in lines.iter().enumerate() {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        for (position, token) in tokens.iter().enumerate() {
            let Ok(number) = token.parse::<i64>() else {
                continue;
            };
            if number == 0 {
                continue;
            }
            let mut changed: Vec<String> = tokens.iter().map(|token| (*token).to_owned()).collect();
            changed[position] = (number / 2).to_string();
            let mut all: Vec<String> = lines.iter().map(|line| (*line).to_owned()).collect();
            all[index] = changed.join(" ");
            candidates.push(join(&all));
        }
    }
    candidates.retain(|candidate| candidate.len() < input.len() || candidate != input);
    candidates.dedup();
    candidates
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_lines_then_tokens_then_halves_numbers() {
        assert_eq!(
            generic("2\n5 7\n"),
            ["5 7\n", "2\n", "2\n7\n", "2\n5\n", "1\n5 7\n", "2\n2 7\n", "2\n5 3\n"]
        );
    }

    #[test]
    fn a_single_token_only_halves() {
        assert_eq!(generic("9"), ["4"]);
        assert!(generic("0").is_empty());
    }
}
