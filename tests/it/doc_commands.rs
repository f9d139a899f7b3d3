//! The docs are as true as the binary (issue #17): every `judge` command
//! line shown in a code block of README.md and docs/*.md runs (paths
//! adjusted only), each documented transcript line is printed, and every
//! flag the docs (and the `--help` examples) name for a command is one of
//! that command's options: an option line of its `--help`, not a mention
//! in its text or its examples, so a flag that vanished is missed.

use crate::support::repository;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Lines that are not run, with the reason. Each must match a documented
/// line (a stale entry fails the test), and no other line is skipped.
const SKIPPED: &[(&str, &str)] = &[
    (
        "judge grade --package sum",
        "grades the package `sum` that the text around it builds, not shown whole",
    ),
    (
        "man ./judge.1",
        "opens the page in `man`, an interactive pager",
    ),
];

/// Transcripts whose output depends on files the text does not show: the
/// command runs, its output is not compared.
const OUTPUT_UNCHECKED: &[(&str, &str)] = &[(
    "judge check matchsticks input.in output.txt",
    "the text does not show `input.in` and `output.txt`",
)];

/// Path adjustments for one line (a line containing the first, this
/// replacement): the docs use one name for two files.
const PATHS: &[(&str, &str, &str)] = &[(
    "judge check mayan input.in output.txt",
    "input.in output.txt",
    "mayan.in mayan.out",
)];

/// A command line of the docs.
#[derive(Debug)]
struct Shown {
    /// `README.md:80`.
    place: String,
    /// The document, for the folder it runs in.
    document: String,
    command: String,
    /// For a `console` transcript: the lines printed after it.
    output: Vec<String>,
}

fn documents() -> Vec<PathBuf> {
    let root = repository();
    let mut pages = vec![root.join("README.md")];
    let mut docs: Vec<PathBuf> = fs_err::read_dir(root.join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The `judge` command lines of the code blocks of `text` (`sh`,
/// `console` and unmarked blocks); a `# comment` is dropped.
fn shown_commands(name: &str, text: &str) -> Vec<Shown> {
    let mut shown: Vec<Shown> = Vec::new();
    let mut fence: Option<String> = None;
    // The transcript being read: its output lines belong to it.
    let mut transcript: Option<usize> = None;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if let Some(kind) = trimmed.strip_prefix("```") {
            fence = match fence {
                None => Some(kind.to_owned()),
                Some(_) => None,
            };
            transcript = None;
            continue;
        }
        let Some(kind) = fence.as_deref() else {
            continue;
        };
        if !matches!(kind, "" | "sh" | "console") {
            continue;
        }
        let command = if kind == "console" {
            match trimmed.strip_prefix("$ ") {
                Some(command) => command,
                None => {
                    if let Some(at) = transcript.filter(|_| !trimmed.is_empty()) {
                        shown[at].output.push(trimmed.to_owned());
                    }
                    continue;
                }
            }
        } else {
            trimmed
        };
        transcript = None;
        // `mkdir -p` lines run too (issue #32: the README's `judge man >
        // ~/.local/...` failed on a fresh home without one).
        if !command.starts_with("judge ") && !command.starts_with("mkdir -p ") {
            continue;
        }
        let command = match command.find(" # ") {
            Some(at) => &command[..at],
            None => command,
        };
        if kind == "console" {
            transcript = Some(shown.len());
        }
        shown.push(Shown {
            place: format!("{name}:{}", index + 1),
            document: name.to_owned(),
            command: command.trim().to_owned(),
            output: Vec::new(),
        });
    }
    shown
}

/// The `judge ...` code spans of the prose (outside code blocks; a span may
/// wrap across lines).
fn prose_commands(text: &str) -> Vec<String> {
    let mut prose = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            prose.push_str(line);
            prose.push('\n');
        }
    }
    prose
        .split('`')
        .skip(1)
        .step_by(2)
        .map(|span| span.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|span| span.starts_with("judge ") && !span.contains("..."))
        .collect()
}

/// Each `judge` invocation of a command line: its subcommand (`None` for
/// `judge --help`) and the flags it uses.
pub(crate) fn invocations(command: &str) -> Vec<(Option<String>, Vec<String>)> {
    let mut found = Vec::new();
    for segment in command.split(['|', ';']).flat_map(|part| part.split("&&")) {
        let words: Vec<&str> = segment.split_whitespace().collect();
        let Some(start) = words.iter().position(|word| *word == "judge") else {
            continue;
        };
        let words = &words[start + 1..];
        let words: Vec<&str> = words
            .iter()
            .take_while(|word| !word.starts_with('>') && !word.starts_with('<'))
            .copied()
            .collect();
        let subcommand = words
            .first()
            .filter(|word| !word.starts_with('-'))
            .map(|word| (*word).to_owned());
        let flags = words
            .iter()
            .filter(|word| word.starts_with('-') && word.len() > 1 && **word != "--")
            .map(|word| {
                let word = word.trim_end_matches([',', '.', ')']);
                word.split('=').next().unwrap_or(word).to_owned()
            })
            .filter(|word| !word.chars().nth(1).is_some_and(|c| c.is_ascii_digit()))
            .collect();
        found.push((subcommand, flags));
    }
    found
}

/// Whether `help` defines `flag`: an option line of it (`  -j, --jobs <N>
/// ...`, `      --json <FILE> ...`) names it. A mention elsewhere (another
/// flag's text, the help's own examples) does not count, so a flag that
/// vanished is missed even where the help still cites it.
pub(crate) fn defines_flag(help: &str, flag: &str) -> bool {
    help.lines().any(|line| {
        let line = line.trim_start();
        if !line.starts_with('-') {
            return false;
        }
        // The definition ends where the description starts (two spaces),
        // or the line holds the definition alone.
        let definition = line.split("  ").next().unwrap_or(line);
        definition.split([',', ' ', '=']).any(|word| {
            word == flag
                || word
                    .strip_prefix(flag)
                    .is_some_and(|rest| rest.starts_with('['))
        })
    })
}

/// The `judge` command lines of a command's `--help` (its `Examples:`).
fn help_examples(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|line| !line.starts_with("Examples"))
        .map(str::trim)
        .filter(|line| line.starts_with("judge "))
        .map(|line| match line.find(" # ") {
            Some(at) => line[..at].trim().to_owned(),
            None => line.to_owned(),
        })
        .collect()
}

/// The subcommands `judge --help` lists.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// Lines of every code block, whatever its kind (`yaml`, a shell line
/// continued with `\`), that run the built binary (`target/release/judge
/// ...`): their flags are checked, though they are not run here.
fn built_binary_lines(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut found = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced && line.contains("target/release/judge ") {
            found.push(line.replace("target/release/judge ", "judge "));
        }
    }
    found
}

fn judge_binary() -> PathBuf {
    PathBuf::from(assert_cmd::cargo::cargo_bin!("judge"))
}

/// `judge [SUB] --help`, cached.
fn help<'a>(cache: &'a mut BTreeMap<String, Option<String>>, sub: Option<&str>) -> Option<&'a str> {
    let key = sub.unwrap_or("").to_owned();
    cache
        .entry(key)
        .or_insert_with(|| {
            let mut command = Command::new(judge_binary());
            command.args(sub).arg("--help");
            let output = command.output().unwrap();
            output
                .status
                .success()
                .then(|| String::from_utf8_lossy(&output.stdout).into_owned())
        })
        .as_deref()
}

/// Checks each flag of each `judge` invocation in `command` (shown at
/// `place`) against its command's `--help`, pushing what is wrong (`not_in`
/// words the missing flag) onto `wrong`; returns how many flags it checked.
fn check_flags(
    cache: &mut BTreeMap<String, Option<String>>,
    place: &str,
    command: &str,
    not_in: &str,
    wrong: &mut Vec<String>,
) -> usize {
    let mut checked = 0;
    for (sub, flags) in invocations(command) {
        let Some(help) = help(cache, sub.as_deref()) else {
            wrong.push(format!("{place}: `{command}`: no command `judge {sub:?}`"));
            continue;
        };
        for flag in flags {
            checked += 1;
            if !defines_flag(help, &flag) {
                wrong.push(format!(
                    "{place}: `{command}`: `{flag}` {not_in} `judge {} --help`",
                    sub.as_deref().unwrap_or("")
                ));
            }
        }
    }
    checked
}

/// Every flag of every command line and `judge ...` code span of the docs,
/// and of every flag table of docs/commands.md, is in its command's
/// `--help`; every subcommand named exists.
#[test]
fn every_documented_flag_is_in_the_help_of_its_command() {
    let root = repository();
    let mut cache = BTreeMap::new();
    let mut wrong = Vec::new();
    let mut checked = 0;
    for page in documents() {
        let name = page.strip_prefix(&root).unwrap().display().to_string();
        let text = fs_err::read_to_string(&page).unwrap();
        let mut lines: Vec<(String, String)> = shown_commands(&name, &text)
            .into_iter()
            .map(|shown| (shown.place, shown.command))
            .collect();
        lines.extend(
            prose_commands(&text)
                .into_iter()
                .map(|span| (format!("{name} (prose)"), span)),
        );
        lines.extend(
            built_binary_lines(&text)
                .into_iter()
                .map(|line| (format!("{name} (target/release/judge)"), line)),
        );
        for (place, command) in lines {
            checked += check_flags(&mut cache, &place, &command, "is not in", &mut wrong);
        }
    }
    // The examples of every `--help`, `judge --help`'s own included.
    let top = help(&mut cache, None).unwrap_or_default().to_owned();
    let mut examples: Vec<(String, String)> = help_examples(&top)
        .into_iter()
        .map(|line| ("judge --help".to_owned(), line))
        .collect();
    for sub in subcommands(&top) {
        let text = help(&mut cache, Some(&sub)).unwrap_or_default().to_owned();
        examples.extend(
            help_examples(&text)
                .into_iter()
                .map(|line| (format!("judge {sub} --help"), line)),
        );
    }
    assert!(
        examples.len() >= 10,
        "only {} examples in the helps: is the parser right?",
        examples.len()
    );
    for (place, command) in examples {
        checked += check_flags(
            &mut cache,
            &place,
            &command,
            "is not an option of",
            &mut wrong,
        );
    }
    // The flag tables of docs/commands.md, section by section.
    let commands = fs_err::read_to_string(root.join("docs/commands.md")).unwrap();
    let mut section: Option<String> = None;
    for (index, line) in commands.lines().enumerate() {
        if let Some(heading) = line.strip_prefix("## judge ") {
            section = heading.split_whitespace().next().map(str::to_owned);
            continue;
        }
        if line.starts_with("## ") {
            section = None;
            continue;
        }
        let (Some(sub), Some(cell)) = (&section, line.strip_prefix("| `-")) else {
            continue;
        };
        let cell = format!("`-{}", cell.split(" |").next().unwrap_or_default());
        let Some(help) = help(&mut cache, Some(sub)) else {
            wrong.push(format!("docs/commands.md: no command `judge {sub}`"));
            continue;
        };
        for span in cell.split('`').skip(1).step_by(2) {
            for flag in span
                .split([',', ' ', '/'])
                .filter(|word| word.starts_with('-') && word.len() > 1)
            {
                checked += 1;
                if !defines_flag(help, flag) {
                    wrong.push(format!(
                        "docs/commands.md:{}: `{flag}` is not in `judge {sub} --help`",
                        index + 1
                    ));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "flags and commands of the docs the binary does not have:\n{}",
        wrong.join("\n")
    );
    assert!(
        checked >= 150,
        "only {checked} flags found: is the parser right?"
    );
}

/// The folder a document's commands run in: a small class (`judge.toml`,
/// `hand-ins/`, and the same under `class/`), a starter, the files the
/// examples name (`sol.cpp`, `my-tests/`, `a.py`, `b.rs`, `data.in`,
/// `data/`, `input.in`, `output.txt`, `grade-N.json` of a run split into
/// `shards`, ...). Made with the binary itself.
fn folder(dir: &Path, shards: usize) {
    let root = repository();
    let copy = |from: &str, to: &str| {
        let to = dir.join(to);
        fs_err::create_dir_all(to.parent().unwrap()).unwrap();
        fs_err::copy(root.join(from), to).unwrap();
    };
    let class =
        "submissions = \"hand-ins\"\nlayout = \"student/problem\"\nproblems = [\"rooks\"]\n\
                 random-tests = 2\nseed = 2025\n";
    for base in ["", "class/"] {
        fs_err::create_dir_all(dir.join(format!("{base}hand-ins"))).unwrap();
        fs_err::write(dir.join(format!("{base}judge.toml")), class).unwrap();
        copy(
            "submissions/rooks/accepted/matching.py",
            &format!("{base}hand-ins/alice/rooks.py"),
        );
        copy(
            "submissions/rooks/wrong_answer/ignores_walls.py",
            &format!("{base}hand-ins/bob/rooks.py"),
        );
    }
    copy("submissions/rooks/accepted/matching.py", "starter/rooks.py");
    copy("submissions/rooks/accepted/backtracking.cpp", "sol.cpp");
    copy("submissions/mayan/accepted/dfs_memo.py", "a.py");
    copy("submissions/mayan/accepted/search.rs", "b.rs");
    fs_err::create_dir_all(dir.join("my-tests")).unwrap();
    fs_err::write(dir.join("my-tests/walls.in"), "2\nX.\n..\n0\n").unwrap();
    fs_err::write(dir.join("my-tests/walls.ans"), "2\n").unwrap();
    fs_err::write(dir.join("data.in"), "2\nX.\n..\n0\n").unwrap();
    fs_err::write(dir.join("expected.txt"), "1\n2\n").unwrap();
    fs_err::write(dir.join("actual.txt"), "1\n3\n").unwrap();
    let sample = root.join("problems/matchsticks/tests/sample-1.in");
    fs_err::copy(&sample, dir.join("input.in")).unwrap();
    // A GitHub Classroom assignment's tests and hand-in (`judge import`).
    fs_err::create_dir_all(dir.join(".github/classroom")).unwrap();
    fs_err::write(
        dir.join(".github/classroom/autograding.json"),
        r#"{"tests": [{"name": "Greets Jeff", "setup": "", "run": "python3 hello.py",
            "input": "Jeff", "output": "Hello Jeff", "comparison": "exact", "timeout": 1,
            "points": 1}]}"#,
    )
    .unwrap();
    fs_err::write(dir.join("hello.py"), "print('Hello', input())\n").unwrap();

    let run = |args: &[&str]| {
        let output = Command::new(judge_binary())
            .current_dir(dir)
            .args(args)
            .output()
            .unwrap();
        assert!(
            output.status.code().is_some_and(|code| code <= 1),
            "{args:?}: {output:?}"
        );
        output
    };
    run(&[
        "gen", "mayan", "--seed", "3", "--count", "2", "--out", "data",
    ]);
    fs_err::create_dir_all(dir.join("outputs")).unwrap();
    for stem in ["001", "002"] {
        fs_err::copy(
            dir.join(format!("data/{stem}.ans")),
            dir.join(format!("outputs/{stem}.out")),
        )
        .unwrap();
    }
    let moves = run(&["solve", "matchsticks", "input.in"]);
    fs_err::write(dir.join("output.txt"), &moves.stdout).unwrap();
    let mayan = run(&["gen", "mayan", "--seed", "3"]);
    fs_err::write(dir.join("mayan.in"), &mayan.stdout).unwrap();
    let answer = Command::new(judge_binary())
        .current_dir(dir)
        .args(["solve", "mayan", "mayan.in"])
        .output()
        .unwrap();
    fs_err::write(dir.join("mayan.out"), &answer.stdout).unwrap();
    for index in 1..=shards {
        let shard = format!("{index}/{shards}");
        let name = format!("grade-{index}.json");
        Command::new(judge_binary())
            .current_dir(dir)
            .args(["grade", "-q", "--shard", &shard, "--json", &name])
            .output()
            .unwrap();
    }
}

/// `command` with its paths adjusted: `~/` is a folder of the test's, and
/// a path of the repository (`submissions/...`, `problems/...`) that the
/// folder does not hold is the repository's.
fn adjusted(command: &str, dir: &Path) -> String {
    let root = repository();
    let mut command = command.replace("~/", &format!("{}/home/", dir.display()));
    for (line, from, to) in PATHS {
        if command.contains(line) {
            command = command.replace(from, to);
        }
    }
    command
        .split(' ')
        .map(|word| {
            let repository_path = ["submissions/", "problems/", "deploy/", "tests/fixtures/"]
                .iter()
                .any(|prefix| word.starts_with(prefix))
                && root.join(word).exists()
                && !dir.join(word).exists();
            if repository_path {
                root.join(word).display().to_string()
            } else {
                word.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every `judge` command line of the code blocks of README.md and
/// docs/*.md runs in a folder made for its document (in the order shown,
/// so one line may use what an earlier one wrote) and exits 0 or 1 (a
/// negative result, as many examples are): never 2 (a usage error, the
/// docs name a flag or form the binary lacks) or 3. A transcript's lines
/// are each printed. Lines that cannot run here are in `SKIPPED`, with the
/// reason, and counted.
#[test]
fn every_documented_command_line_runs() {
    let root = repository();
    let binary = judge_binary();
    let path = format!(
        "{}:{}",
        binary.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut failures = Vec::new();
    let mut skipped: BTreeMap<&str, usize> = BTreeMap::new();
    let mut ran = 0;
    let mut folders: BTreeMap<String, tempfile::TempDir> = BTreeMap::new();
    for page in documents() {
        let name = page.strip_prefix(&root).unwrap().display().to_string();
        let text = fs_err::read_to_string(&page).unwrap();
        for shown in shown_commands(&name, &text) {
            if let Some((line, _)) = SKIPPED
                .iter()
                .find(|(line, _)| shown.command.contains(line))
            {
                *skipped.entry(line).or_default() += 1;
                continue;
            }
            // What a time limit's message says (which limit, the CPU time
            // had, wall clock added for a wait for a CPU) depends on the
            // host's load: a transcript showing one fails on a busy host.
            if let Some(line) = shown
                .output
                .iter()
                .find(|line| line.contains("time exceeded"))
            {
                failures.push(format!(
                    "{}: a documented line shows a time limit's message, which depends on \
                     the host's load:\n  {line}",
                    shown.place
                ));
            }
            let dir = folders.entry(shown.document.clone()).or_insert_with(|| {
                let dir = tempfile::tempdir().unwrap();
                // The reports of the split the document shows.
                folder(dir.path(), if text.contains("--shard 2/4") { 4 } else { 2 });
                dir
            });
            let dir = dir.path();
            let command = adjusted(&shown.command, dir);
            let output = Command::new("sh")
                .arg("-c")
                .arg(&command)
                .current_dir(dir)
                .env("PATH", &path)
                .env_remove("NO_COLOR")
                .output()
                .unwrap();
            ran += 1;
            let code = output.status.code().unwrap_or(-1);
            let printed = format!(
                "{}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
            if !(0..=1).contains(&code) {
                failures.push(format!(
                    "{}: `{command}` exited {code}:\n{printed}",
                    shown.place
                ));
                continue;
            }
            if OUTPUT_UNCHECKED
                .iter()
                .any(|(line, _)| shown.command.contains(line))
            {
                continue;
            }
            // The repository's paths, as the docs write them.
            let printed = printed.replace(&format!("{}/", root.display()), "");
            let mut printed_lines = printed
                .lines()
                .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "));
            // Each documented line, in the order shown (progress lines of a
            // pipe between them are not shown on a terminal).
            for line in &shown.output {
                let want = line.split_whitespace().collect::<Vec<_>>().join(" ");
                if !printed_lines.any(|printed| printed == want) {
                    failures.push(format!(
                        "{}: `{command}` did not print the documented line (in this order)\n  \
                         {line}\nit printed:\n{printed}",
                        shown.place
                    ));
                    break;
                }
            }
        }
    }
    let stale: Vec<&str> = SKIPPED
        .iter()
        .filter(|(line, _)| !skipped.contains_key(line))
        .map(|(line, _)| *line)
        .collect();
    assert!(
        stale.is_empty(),
        "skipped lines no document shows: {stale:?}"
    );
    let skipped_lines: usize = skipped.values().sum();
    assert!(
        failures.is_empty(),
        "{} of {ran} documented command lines do not do what the docs show ({skipped_lines} skipped):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(
        ran >= 50,
        "only {ran} command lines ran: is the parser right?"
    );
    assert_eq!(
        skipped_lines,
        SKIPPED.len(),
        "each skip reason covers one line: {skipped:?}"
    );
}
