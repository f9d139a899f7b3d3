//! The glob patterns of a 2025-09 `submissions.yaml` (issue #34): over
//! submissions (paths under `submissions/`) and over test cases and groups
//! (paths under `data/`, without `.in`). The format's rules, which are
//! narrower than a shell's: `*` matches within one name (never `/`),
//! braces expand (`{simple,complex}.py`, spaces around an alternative
//! ignored), and a path is matched when it or one of its parent folders
//! is. `**` and `[xyz]` are "not supported" by the format and refused here,
//! so a setter's glob never means something else than they read.

/// A glob, expanded into its brace alternatives, each split into names.
#[derive(Clone, Debug)]
pub(crate) struct Glob {
    alternatives: Vec<Vec<String>>,
}

impl Glob {
    /// Parses `text`; the error says what the format does not allow.
    pub(crate) fn parse(text: &str) -> Result<Glob, String> {
        if text.contains("**") {
            return Err(
                "`**` is not supported by the format (a `*` matches within one name)".into(),
            );
        }
        if text.contains(['[', ']']) {
            return Err("`[...]` is not supported by the format; use braces: `{a,b}`".into());
        }
        let alternatives = expand_braces(text)?
            .into_iter()
            .map(|alternative| {
                alternative
                    .trim_end_matches('/')
                    .split('/')
                    .map(str::to_owned)
                    .collect::<Vec<String>>()
            })
            .collect::<Vec<_>>();
        if alternatives
            .iter()
            .any(|names| names.iter().any(String::is_empty))
        {
            return Err("an empty name (`//`, or a leading `/`) matches nothing".into());
        }
        Ok(Glob { alternatives })
    }

    /// Whether the glob matches `path` (names joined by `/`) or one of its
    /// parent folders.
    pub(crate) fn matches(&self, path: &str) -> bool {
        let names: Vec<&str> = path.split('/').collect();
        self.alternatives.iter().any(|pattern| {
            pattern.len() <= names.len()
                && pattern
                    .iter()
                    .zip(&names)
                    .all(|(pattern, name)| name_matches(pattern, name))
        })
    }

    /// Whether the glob matches `path` itself (a test group's score).
    pub(crate) fn matches_exactly(&self, path: &str) -> bool {
        let names: Vec<&str> = path.split('/').collect();
        self.alternatives.iter().any(|pattern| {
            pattern.len() == names.len()
                && pattern
                    .iter()
                    .zip(&names)
                    .all(|(pattern, name)| name_matches(pattern, name))
        })
    }

    /// The first name of every alternative (`secret` of `secret/*-hard`).
    pub(crate) fn first_names(&self) -> impl Iterator<Item = &str> {
        self.alternatives
            .iter()
            .filter_map(|names| names.first().map(String::as_str))
    }
}

/// Whether `name` matches `pattern`, in which `*` is any run of characters.
fn name_matches(pattern: &str, name: &str) -> bool {
    let mut pieces = pattern.split('*');
    let Some(first) = pieces.next() else {
        return name.is_empty();
    };
    let Some(mut rest) = name.strip_prefix(first) else {
        return false;
    };
    let pieces: Vec<&str> = pieces.collect();
    let Some((last, middle)) = pieces.split_last() else {
        // No `*`: the whole name.
        return rest.is_empty();
    };
    for piece in middle {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Every expansion of the braces in `text`, in order (a cartesian product
/// for several braces). Braces do not nest.
fn expand_braces(text: &str) -> Result<Vec<String>, String> {
    let mut expanded = vec![String::new()];
    let mut rest = text;
    while let Some(open) = rest.find(['{', '}']) {
        if rest[open..].starts_with('}') {
            return Err("a `}` without its `{`".into());
        }
        let after = &rest[open + 1..];
        let close = after.find(['{', '}']).ok_or("a `{` without its `}`")?;
        if after[close..].starts_with('{') {
            return Err("braces do not nest".into());
        }
        let literal = &rest[..open];
        let choices: Vec<&str> = after[..close].split(',').map(str::trim).collect();
        expanded = expanded
            .iter()
            .flat_map(|prefix| {
                choices
                    .iter()
                    .map(move |choice| format!("{prefix}{literal}{choice}"))
            })
            .collect();
        rest = &after[close + 1..];
    }
    Ok(expanded
        .into_iter()
        .map(|prefix| format!("{prefix}{rest}"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    #[test_case("accepted", "accepted/a.py", true ; "a folder matches what it holds")]
    #[test_case("accepted/*", "accepted/a.py", true ; "a star matches a name")]
    #[test_case("accepted/", "accepted/a.py", true ; "a trailing slash is the folder")]
    #[test_case("*/nested_wa.py", "match/nested/nested_wa.py", false ; "a star never matches a slash")]
    #[test_case("match_wa.py", "match/match_wa.py", false ; "a glob is anchored at the top")]
    #[test_case("match/match", "match/match_wa.py", false ; "a name matches whole")]
    #[test_case("wa/ac*", "wa/ac.py", true ; "a star at the end")]
    #[test_case("expansion/ac.{py,cpp}", "expansion/ac.cpp", true ; "braces expand")]
    #[test_case("secret/*{ 4 }{ 2 }", "secret/42", true ; "spaces around an alternative are ignored")]
    #[test_case("secret/*{,0,1}{0,2}", "secret/12", true ; "braces multiply")]
    #[test_case("secret/*{,0,1}{0,2}", "secret/13", false ; "braces multiply and exclude")]
    #[test_case("secret/*-easy", "secret/g-easy/3", true ; "a group matches its cases")]
    #[test_case("s*c*t", "secret", true ; "several stars")]
    #[test_case("s*c*t", "sect", true ; "stars match nothing")]
    #[test_case("a*a", "a", false ; "pieces do not overlap")]
    fn matches_as_the_format_says(glob: &str, path: &str, wanted: bool) {
        assert_eq!(Glob::parse(glob).unwrap().matches(path), wanted);
    }

    #[test]
    fn matches_a_group_exactly_only_by_its_own_name() {
        let glob = Glob::parse("secret/group1").unwrap();
        assert!(glob.matches_exactly("secret/group1"));
        assert!(!glob.matches_exactly("secret/group1/1"));
        assert!(!glob.matches_exactly("secret"));
    }

    #[test_case("a/**/b.py", "`**` is not supported" ; "double star")]
    #[test_case("a/[xy].py", "`[...]` is not supported" ; "a class")]
    #[test_case("a/{x,{y}}", "braces do not nest" ; "nested braces")]
    #[test_case("a/{x", "a `{` without its `}`" ; "an open brace")]
    #[test_case("a/x}", "a `}` without its `{`" ; "a close brace")]
    #[test_case("a//b", "an empty name" ; "an empty name")]
    fn refuses_what_the_format_does_not_support(glob: &str, wanted: &str) {
        let error = Glob::parse(glob).unwrap_err();
        assert!(error.contains(wanted), "{error}");
    }
}
