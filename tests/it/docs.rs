//! What the repository and the binary tell users (issue #11): the JSON
//! Schema of the report, the man page, shell completions and the links of
//! the documentation.

use crate::support::{repository, Dir};

/// Every subcommand a user can call (the hidden `schema` is not listed).
const SUBCOMMANDS: &[&str] = &[
    "problems",
    "solve",
    "gen",
    "validate",
    "check",
    "diff",
    "run",
    "grade",
    "stress",
    "merge",
    "report",
    "export",
    "new",
    "import",
    "man",
    "completions",
];

/// The checked-in `docs/report.schema.json` is the one the Rust types make.
/// After changing a report type, regenerate it with
/// `JUDGE_UPDATE_SCHEMA=1 cargo test --test it report_schema` (or
/// `judge schema > docs/report.schema.json`), review the diff and say what
/// changed in CHANGELOG.md.
#[test]
fn report_schema_is_the_generated_one() {
    let generated = judge::report::json::schema_text().unwrap();
    let path = repository().join("docs/report.schema.json");
    if std::env::var_os("JUDGE_UPDATE_SCHEMA").is_some() {
        fs_err::write(&path, &generated).unwrap();
    }
    let checked_in = fs_err::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "docs/report.schema.json differs from the schema of the report types; regenerate it with \
         `JUDGE_UPDATE_SCHEMA=1 cargo test --test it report_schema` and review the diff"
    );
    // `judge schema` prints the same text, and it is a valid JSON Schema.
    let run = Dir::new().judge(&["schema"]);
    run.expect_code(0);
    assert_eq!(run.stdout(), generated);
    jsonschema::meta::validate(&crate::support::report_schema()).unwrap();
}

/// The schema tells a bad report from a good one: it is not `true`.
#[test]
fn report_schema_rejects_a_report_without_results() {
    let schema = crate::support::report_schema();
    let validator = jsonschema::validator_for(&schema).unwrap();
    assert!(!validator.is_valid(&serde_json::json!({ "version": 1 })));
    assert!(!validator.is_valid(&serde_json::json!({
        "version": 1, "layout": "expected", "results": [{ "problem": "rooks" }]
    })));
    assert!(validator.is_valid(&serde_json::json!({
        "version": 1, "layout": "expected", "results": []
    })));
}

#[test]
fn man_page_covers_every_subcommand() {
    let run = Dir::new().judge(&["man"]);
    run.expect_code(0);
    let page = run.stdout();
    assert!(
        page.starts_with(".ie") || page.contains(".TH judge 1"),
        "{page}"
    );
    for command in SUBCOMMANDS {
        assert!(
            page.contains(&format!(".TH judge-{command} 1")),
            "the man page has no section for `{command}`"
        );
    }
    assert!(
        !page.contains("judge-schema"),
        "hidden commands stay hidden"
    );
}

#[test]
fn completions_cover_every_subcommand() {
    // Every shell the help names, and only those (issue #17).
    let help = Dir::new().judge(&["completions", "--help"]).stdout();
    assert!(
        help.contains("bash, zsh, fish, elvish or powershell")
            && help.contains("[possible values: bash, elvish, fish, powershell, zsh]"),
        "{help}"
    );
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let run = Dir::new().judge(&["completions", shell]);
        run.expect_code(0);
        let script = run.stdout();
        for command in SUBCOMMANDS {
            assert!(
                script.contains(command),
                "{shell} completions do not mention `{command}`"
            );
        }
        assert!(
            script.contains("problems-dir"),
            "{shell}: flags complete too"
        );
    }
    Dir::new().judge(&["completions", "tcsh"]).expect_code(2);
}

/// Every relative link in README.md and docs/*.md names a file or folder of
/// the repository (an anchor after `#` is not checked); no link leaves the
/// repository through `..`.
#[test]
fn relative_links_in_the_docs_resolve() {
    let root = repository();
    let mut pages = vec![root.join("README.md"), root.join("CHANGELOG.md")];
    for entry in fs_err::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|extension| extension == "md") {
            pages.push(path);
        }
    }
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in &pages {
        let text = fs_err::read_to_string(page).unwrap();
        for target in markdown_links(&text) {
            if target.contains("://") || target.starts_with("mailto:") || target.starts_with('#') {
                continue;
            }
            let file = target.split('#').next().unwrap_or_default();
            let resolved = page.parent().unwrap().join(file);
            checked += 1;
            let inside = resolved
                .canonicalize()
                .is_ok_and(|path| path.starts_with(root.canonicalize().unwrap()));
            if !inside {
                broken.push(format!(
                    "{}: {target}",
                    page.strip_prefix(&root).unwrap().display()
                ));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links that do not resolve in the repository:\n{}",
        broken.join("\n")
    );
    assert!(
        checked >= 10,
        "only {checked} links found: is the parser right?"
    );
}

/// The targets of `[text](target)` links outside code blocks and spans.
fn markdown_links(text: &str) -> Vec<String> {
    let mut links = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Drop code spans, so `[a](b)` inside backticks is not a link.
        let mut plain = String::new();
        for (index, part) in line.split('`').enumerate() {
            if index % 2 == 0 {
                plain.push_str(part);
            }
        }
        let mut rest = plain.as_str();
        while let Some(start) = rest.find("](") {
            let after = &rest[start + 2..];
            let Some(end) = after.find(')') else { break };
            let target = after[..end].split_whitespace().next().unwrap_or_default();
            links.push(target.to_owned());
            rest = &after[end..];
        }
    }
    links
}

/// Every `--help` ends with examples (two or three command lines).
#[test]
fn every_help_ends_with_examples() {
    let dir = Dir::new();
    let mut commands: Vec<Vec<&str>> = vec![vec!["--help"]];
    commands.extend(SUBCOMMANDS.iter().map(|command| vec![*command, "--help"]));
    for args in commands {
        let run = dir.judge(&args);
        run.expect_code(0);
        let help = run.stdout();
        let (_, examples) = help
            .rsplit_once("\nExamples:\n")
            .unwrap_or_else(|| panic!("`judge {}` has no examples:\n{help}", args.join(" ")));
        let lines = examples
            .lines()
            .filter(|line| line.starts_with("  judge "))
            .count();
        assert!(
            (2..=3).contains(&lines) && examples.lines().all(|line| line.starts_with("  judge ")),
            "`judge {}`: the help should end with two or three examples:\n{examples}",
            args.join(" ")
        );
    }
}

/// The exit codes of docs/commands.md's table are in `judge --help` and in
/// `judge man` (issue #17).
#[test]
fn exit_codes_are_in_the_help_and_the_man_page() {
    let table = fs_err::read_to_string(repository().join("docs/commands.md")).unwrap();
    let codes: Vec<String> = table
        .lines()
        .skip_while(|line| *line != "## Exit codes")
        .take_while(|line| !line.starts_with("Common flags"))
        .filter_map(|line| line.strip_prefix("| "))
        .filter_map(|row| row.split(" |").next())
        .filter(|code| code.starts_with(|c: char| c.is_ascii_digit()))
        .map(|code| code.replace(' ', ""))
        .collect();
    assert_eq!(codes, ["0", "1", "2", "3", "130/143"]);
    let help = Dir::new().judge(&["--help"]).stdout();
    let man = Dir::new().judge(&["man"]).stdout();
    for code in &codes {
        assert!(help.contains(&format!("\n  {code}  ")), "{code}:\n{help}");
        assert!(man.contains(&format!("\n  {code}  ")), "{code}:\n{man}");
    }
    assert!(help.contains("Exit codes"), "{help}");
}

/// Every key of the report is snake_case, the spelling docs/report.md uses
/// (issue #17: `landlock-abi` was the only kebab-case one); values such as
/// `fresh-tmpfs` are not keys.
#[test]
fn every_report_key_is_snake_case() {
    fn keys(value: &serde_json::Value, into: &mut Vec<String>) {
        match value {
            serde_json::Value::Object(map) => {
                if let Some(serde_json::Value::Object(properties)) = map.get("properties") {
                    into.extend(properties.keys().cloned());
                }
                map.values().for_each(|value| keys(value, into));
            }
            serde_json::Value::Array(items) => items.iter().for_each(|value| keys(value, into)),
            _ => {}
        }
    }
    let mut all = Vec::new();
    keys(&crate::support::report_schema(), &mut all);
    assert!(all.len() > 50, "{all:?}");
    let kebab: Vec<&String> = all.iter().filter(|key| key.contains('-')).collect();
    assert!(kebab.is_empty(), "kebab-case keys: {kebab:?}");
    assert!(all.iter().any(|key| key == "landlock_abi"));
    let report = fs_err::read_to_string(repository().join("docs/report.md")).unwrap();
    for key in ["landlock_abi", "pid_namespace", "scratch_per_run"] {
        assert!(report.contains(&format!("`{key}`")), "{key}");
    }
}

/// The text files under `dir`, recursively.
fn text_files(dir: &std::path::Path, found: &mut Vec<std::path::PathBuf>) {
    for entry in fs_err::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            text_files(&path, found);
        } else if fs_err::read_to_string(&path).is_ok() {
            found.push(path);
        }
    }
}

/// Nothing a user is given cites a file users do not have (the rules file,
/// the spec and the style guide the team wrote the judge from): not
/// README.md, docs/, the bundled packages, the example submissions, the
/// deploy files, nor what `judge export` (of every problem it exports) and
/// `judge new` write (issue #17, item 8); nor anything else of the
/// repository someone who clones it reads: the sources, benchmarks, tests
/// (this one included), CHANGELOG.md and the build files (review of
/// issue #17).
#[test]
fn r17_nothing_users_get_cites_files_they_lack() {
    let root = repository();
    let dir = Dir::new();
    let mut files: Vec<_> = [
        "README.md",
        "CHANGELOG.md",
        "Cargo.toml",
        "build.rs",
        "judge.toml",
        "clippy.toml",
    ]
    .iter()
    .map(|name| root.join(name))
    .collect();
    for folder in [
        "docs",
        "problems",
        "submissions",
        "deploy",
        "src",
        "benches",
        "tests",
    ] {
        text_files(&root.join(folder), &mut files);
    }
    for problem in ["rooks", "rooks-large", "matchsticks", "mayan"] {
        dir.judge(&["export", "--kattis", problem, &format!("export-{problem}")])
            .expect_code(0);
    }
    dir.judge(&["new", "hello", "--dir", "new"]).expect_code(0);
    text_files(dir.path(), &mut files);
    assert!(files.len() > 300, "only {} files read", files.len());
    assert!(
        files.iter().any(|file| file.ends_with("tests/it/docs.rs")),
        "this test's own file is read"
    );
    // Spelt in pieces, so this file does not cite them itself.
    let names: Vec<String> = ["PROBLEMS", "SPEC", "STYLE"]
        .iter()
        .map(|stem| format!("{stem}.md"))
        .collect();
    let mut citing = Vec::new();
    for file in &files {
        let text = fs_err::read_to_string(file).unwrap();
        for (index, line) in text.lines().enumerate() {
            if names.iter().any(|name| line.contains(name.as_str())) {
                citing.push(format!("{}:{}: {}", file.display(), index + 1, line.trim()));
            }
        }
    }
    assert!(
        citing.is_empty(),
        "files users get cite files they do not have:\n{}",
        citing.join("\n")
    );
}

/// The Markdown files users read: README.md and docs/*.md.
fn markdown_pages() -> Vec<std::path::PathBuf> {
    let root = repository();
    let mut pages = vec![root.join("README.md")];
    for entry in fs_err::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|extension| extension == "md") {
            pages.push(path);
        }
    }
    pages.sort();
    pages
}

/// See: issue #32 (item 9). A table is never broken by a paragraph: a row
/// that does not follow a row starts a table, so it follows a blank line
/// and is a header (the separator row comes next); a row after prose
/// renders as text. And no sentence of a paragraph repeats the end of an
/// earlier one (`` `tests:` line saying what ran. `` was said twice).
#[test]
fn r32_tables_are_whole_and_no_paragraph_repeats_itself() {
    let mut wrong = Vec::new();
    for page in markdown_pages() {
        let text = fs_err::read_to_string(&page).unwrap();
        let name = page.file_name().unwrap().to_string_lossy().into_owned();
        let lines: Vec<&str> = text.lines().collect();
        let mut fenced = false;
        let mut paragraph: Vec<&str> = Vec::new();
        let check_paragraph = |paragraph: &mut Vec<&str>, at: usize, wrong: &mut Vec<String>| {
            let text = paragraph.join(" ");
            let sentences: Vec<Vec<&str>> = text
                .split(". ")
                .map(|sentence| sentence.trim_end_matches('.').split_whitespace().collect())
                .collect();
            for (index, sentence) in sentences.iter().enumerate() {
                let said = sentence.len() >= 4
                    && sentences[..index]
                        .iter()
                        .any(|earlier| earlier.ends_with(sentence));
                if said {
                    wrong.push(format!(
                        "{name}:{at}: a paragraph says `{}` twice",
                        sentence.join(" ")
                    ));
                }
            }
            paragraph.clear();
        };
        for (index, line) in lines.iter().enumerate() {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                check_paragraph(&mut paragraph, index, &mut wrong);
                continue;
            }
            if fenced {
                continue;
            }
            let previous = index.checked_sub(1).map_or("", |before| lines[before]);
            if line.starts_with('|') {
                check_paragraph(&mut paragraph, index, &mut wrong);
                let starts = !previous.starts_with('|');
                let header = lines
                    .get(index + 1)
                    .is_some_and(|next| next.starts_with("|---") || next.starts_with("| ---"));
                if starts && !(previous.trim().is_empty() && header) {
                    wrong.push(format!(
                        "{name}:{}: a table row outside a table (a paragraph broke it)",
                        index + 1
                    ));
                }
            } else if line.trim().is_empty() || line.starts_with('#') {
                check_paragraph(&mut paragraph, index, &mut wrong);
            } else {
                paragraph.push(line);
            }
        }
        check_paragraph(&mut paragraph, lines.len(), &mut wrong);
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
