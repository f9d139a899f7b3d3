//! `judge similar` (issue #16): planted copies rank above independent work,
//! starter code is set aside, the JSON follows its schema, the HTML is
//! escaped and links what it says, bad files are skipped with a reason, and
//! renaming or reformatting a program changes nothing.

use crate::support::{repository, Dir};
use judge::similar::{self, class::HandIn};
use proptest::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// The class of tests/fixtures/similar/class.
fn fixture() -> PathBuf {
    repository().join("tests/fixtures/similar/class")
}

/// Who each planted copy comes from (by way of others, for a chain);
/// a student not listed wrote their own code.
const ORIGINS: &[(&str, &str)] = &[
    // The original and its copies, each disguised one way:
    ("ada", "ada"),
    ("ben", "ada"), // layout and comments
    ("cai", "ada"), // consistent renaming
    ("dan", "ada"), // functions reordered
    ("eve", "ada"), // for <-> while, i++ <-> i += 1
    ("fay", "ada"), // if/else swapped, condition negated
    ("gus", "ada"), // dead code, useless variables
    ("hal", "ada"), // a helper split in two
    ("ivy", "ada"), // made C++, scanf -> cin, printf -> cout
    // A chain of three: kim copies jon, lea copies kim.
    ("jon", "jon"),
    ("kim", "jon"),
    ("lea", "jon"),
    // Python: print -> sys.stdout.write, renamed.
    ("pam", "pam"),
    ("quin", "pam"),
    // Mayan on the teacher's starter code: wes copies tom; uma and vic share
    // only the starter with them. xan, yul and zed wrote mayan without it.
    ("tom", "tom"),
    ("wes", "tom"),
];

fn origin(student: &str) -> &str {
    ORIGINS
        .iter()
        .find(|(name, _)| *name == student)
        .map_or(student, |(_, origin)| origin)
}

/// `judge similar --json -` with `args`, checked against the schema.
fn similar_json(args: &[&str]) -> serde_json::Value {
    let config = fixture().join("judge.toml");
    let mut all = vec![
        "similar",
        "--config",
        config.to_str().unwrap(),
        "--json",
        "-",
    ];
    all.extend(args);
    let run = Dir::new().judge(&all);
    run.expect_code(0);
    validated(&run.stdout())
}

/// The checked-in schema of `judge similar --json`.
fn schema() -> serde_json::Value {
    let text = fs_err::read_to_string(repository().join("docs/similar.schema.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn validated(text: &str) -> serde_json::Value {
    let report: serde_json::Value = serde_json::from_str(text).unwrap();
    let schema = schema();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&report)
        .map(|error| format!("{error} at {}", error.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{}\n{text}", errors.join("\n"));
    report
}

/// (a, b) -> similarity of one problem's pairs.
fn similarities(report: &serde_json::Value, problem: &str) -> BTreeMap<(String, String), f64> {
    report["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|pair| pair["problem"] == problem)
        .map(|pair| {
            let a = pair["a"].as_str().unwrap().to_owned();
            let b = pair["b"].as_str().unwrap().to_owned();
            let key = if a < b { (a, b) } else { (b, a) };
            (key, pair["similarity"].as_f64().unwrap())
        })
        .collect()
}

/// Every pair of students of `problem` in the same family, from the files.
fn students_of(problem: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for entry in fs_err::read_dir(fixture().join("hand-ins")).unwrap() {
        let entry = entry.unwrap();
        for file in fs_err::read_dir(entry.path()).unwrap() {
            let file = file.unwrap().path();
            if file.file_stem().unwrap() == problem {
                let family = match file.extension().unwrap().to_str().unwrap() {
                    "c" | "cpp" => "c",
                    other => other,
                };
                found.push((
                    entry.file_name().to_str().unwrap().to_owned(),
                    family.to_owned(),
                ));
            }
        }
    }
    found.sort();
    found
}

#[test]
fn every_planted_copy_ranks_above_every_independent_pair() {
    let report = similar_json(&["--problems", "rooks"]);
    let scores = similarities(&report, "rooks");
    let students = students_of("rooks");
    let mut planted = Vec::new();
    let mut independent = Vec::new();
    for (index, (a, family_a)) in students.iter().enumerate() {
        for (b, family_b) in &students[index + 1..] {
            if family_a != family_b {
                assert!(
                    !scores.contains_key(&(a.clone(), b.clone())),
                    "{a} and {b}: languages apart"
                );
                continue;
            }
            let score = scores.get(&(a.clone(), b.clone())).copied().unwrap_or(0.0);
            if origin(a) == origin(b) {
                planted.push((score, a.clone(), b.clone()));
            } else {
                independent.push((score, a.clone(), b.clone()));
            }
        }
    }
    planted.sort_by(|x, y| x.0.total_cmp(&y.0));
    independent.sort_by(|x, y| x.0.total_cmp(&y.0));
    assert!(
        planted.len() >= 38 && independent.len() >= 50,
        "{planted:?}"
    );
    let weakest = &planted[0];
    let strongest = independent.last().unwrap();
    assert!(
        weakest.0 > strongest.0,
        "planted {weakest:?} does not rank above independent {strongest:?}"
    );
    // The pairs come most similar first.
    let listed: Vec<f64> = report["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| pair["similarity"].as_f64().unwrap())
        .collect();
    assert!(
        listed.windows(2).all(|pair| pair[0] >= pair[1]),
        "{listed:?}"
    );
    // A C and a C++ hand-in of the same program compare.
    assert!(
        scores[&("ada".to_owned(), "ivy".to_owned())] > 0.8,
        "{scores:?}"
    );
}

#[test]
fn starter_code_pairs_fall_among_the_independent_ones_with_base() {
    let base = fixture().join("base");
    let without = similarities(&similar_json(&["--problems", "mayan"]), "mayan");
    let with_report = similar_json(&["--problems", "mayan", "--base", base.to_str().unwrap()]);
    let with = similarities(&with_report, "mayan");
    assert_eq!(with_report["base"].as_array().unwrap().len(), 1);
    let key = |a: &str, b: &str| (a.to_owned(), b.to_owned());
    let copied = with[&key("tom", "wes")];
    assert!(copied > 0.95, "{with:?}");
    let rooks = similarities(&similar_json(&["--problems", "rooks"]), "rooks");
    let weakest_planted = rooks
        .iter()
        .filter(|((a, b), _)| origin(a) == origin(b))
        .map(|(_, score)| *score)
        .fold(f64::INFINITY, f64::min);
    // uma and vic wrote their own code on the starter, in styles of their
    // own; xan, yul and zed wrote theirs from scratch, each differently.
    let starter_only = [
        ("tom", "uma"),
        ("tom", "vic"),
        ("uma", "vic"),
        ("uma", "wes"),
        ("vic", "wes"),
    ];
    let students: Vec<String> = students_of("mayan")
        .into_iter()
        .map(|(student, _)| student)
        .collect();
    assert!(students.len() >= 7, "{students:?}");
    let mut independent_with = Vec::new();
    let mut independent_without = Vec::new();
    for (index, a) in students.iter().enumerate() {
        for b in &students[index + 1..] {
            let starter = starter_only.contains(&(a.as_str(), b.as_str()));
            if origin(a) != origin(b) && !starter {
                independent_with.push(with.get(&key(a, b)).copied().unwrap_or(0.0));
                independent_without.push(without.get(&key(a, b)).copied().unwrap_or(0.0));
            }
        }
    }
    assert!(independent_with.len() >= 10, "{independent_with:?}");
    let highest = |scores: &[f64]| scores.iter().copied().fold(0.0, f64::max);
    let lowest = |scores: &[f64]| scores.iter().copied().fold(f64::INFINITY, f64::min);
    for (a, b) in starter_only {
        let before = without[&key(a, b)];
        let after = with.get(&key(a, b)).copied().unwrap_or(0.0);
        assert!(
            after < before - 0.1,
            "{a}, {b}: {before} without --base, {after} with"
        );
        assert!(
            after < copied && after < weakest_planted,
            "{a}, {b}: {after}"
        );
        // With --base, among the independent pairs: neither above nor
        // below all of them.
        assert!(
            lowest(&independent_with) < after && after < highest(&independent_with),
            "{a}, {b}: {after} with --base, independent pairs {independent_with:?}"
        );
        // Without it, the starter alone lifts them above every one.
        assert!(
            before > highest(&independent_without),
            "{a}, {b}: {before} without --base, independent pairs {independent_without:?}"
        );
    }
}

/// The checked-in `docs/similar.schema.json` is the one the Rust types make.
/// After changing a type, regenerate it with
/// `JUDGE_UPDATE_SCHEMA=1 cargo test --test it similar_schema`.
#[test]
fn similar_schema_is_the_generated_one() {
    let generated = similar::schema_text();
    let path = repository().join("docs/similar.schema.json");
    if std::env::var_os("JUDGE_UPDATE_SCHEMA").is_some() {
        fs_err::write(&path, &generated).unwrap();
    }
    let checked_in = fs_err::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "docs/similar.schema.json differs from the report types; regenerate it with \
         `JUDGE_UPDATE_SCHEMA=1 cargo test --test it similar_schema` and review the diff"
    );
    jsonschema::meta::validate(&schema()).unwrap();
    let validator = jsonschema::validator_for(&schema()).unwrap();
    assert!(!validator.is_valid(&serde_json::json!({ "version": 1 })));
    assert!(!validator.is_valid(&serde_json::json!({
        "version": 1, "min_tokens": 12, "problems": [], "skipped": [],
        "pairs": [{ "problem": "rooks", "a": "x" }]
    })));
}

#[test]
fn json_pairs_carry_students_files_and_line_regions() {
    let report = similar_json(&["--problems", "rooks"]);
    assert_eq!(report["version"], 1);
    assert_eq!(report["min_tokens"], 12);
    let pair = report["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|pair| pair["a"] == "ada" && pair["b"] == "dan")
        .unwrap();
    assert!(pair["files"][0]
        .as_str()
        .unwrap()
        .ends_with("hand-ins/ada/rooks.c"));
    assert!(pair["files"][1]
        .as_str()
        .unwrap()
        .ends_with("hand-ins/dan/rooks.c"));
    // dan moved main() to the top: ada's main (lines 34-43) matches at dan's 10-19.
    let regions = pair["regions"].as_array().unwrap();
    assert!(
        regions
            .iter()
            .any(|region| region["a"][0].as_u64().unwrap() >= 33
                && region["b"][1].as_u64().unwrap() <= 19),
        "{regions:?}"
    );
    let summary = &report["problems"][0];
    assert_eq!(summary["problem"], "rooks");
    assert_eq!(summary["hand_ins"], 19);
}

#[test]
fn the_terminal_shows_top_pairs_and_says_it_is_not_a_verdict() {
    let config = fixture().join("judge.toml");
    let run = Dir::new().judge(&[
        "similar",
        "--config",
        config.to_str().unwrap(),
        "--top",
        "3",
    ]);
    run.expect_code(0);
    let out = run.stdout();
    assert!(
        out.starts_with("Similarity is evidence for a person to read, never a verdict"),
        "{out}"
    );
    assert!(out.contains("rooks: 19 hand-ins, "), "{out}");
    let rows: Vec<&str> = out.lines().filter(|line| line.contains('%')).collect();
    assert_eq!(rows.len(), 6, "{out}");
    assert!(out.contains("... "), "{out}");
}

#[test]
fn html_pairs_link_students_and_side_by_side_pages_share_colours() {
    let dir = Dir::new();
    let config = fixture().join("judge.toml");
    dir.judge(&[
        "similar",
        "--config",
        config.to_str().unwrap(),
        "--html",
        "similar.html",
    ])
    .expect_code(0);
    let page = dir.read("similar.html");
    let html = scraper::Html::parse_document(&page);
    let select = |html: &scraper::Html, css: &str| {
        html.select(&scraper::Selector::parse(css).unwrap())
            .map(|element| element.html())
            .collect::<Vec<_>>()
    };
    assert!(select(&html, "script").is_empty());
    assert!(page.contains("never a verdict"));
    assert!(select(&html, "span.bar span").len() >= 50);
    let student_links: Vec<String> = html
        .select(&scraper::Selector::parse("td a[title]").unwrap())
        .map(|link| link.value().attr("href").unwrap().to_owned())
        .collect();
    assert!(!student_links.is_empty());
    for href in &student_links {
        assert!(
            dir.path().join(href).is_file(),
            "{href} does not lead to the hand-in"
        );
    }
    let pages: Vec<String> = html
        .select(&scraper::Selector::parse("a").unwrap())
        .filter(|link| link.text().collect::<String>() == "side by side")
        .map(|link| link.value().attr("href").unwrap().to_owned())
        .collect();
    assert!(pages.len() >= 38, "{}", pages.len());
    let first = fs_err::read_to_string(dir.path().join(&pages[0])).unwrap();
    let pair = scraper::Html::parse_document(&first);
    assert!(select(&pair, "script").is_empty());
    let sides: Vec<scraper::ElementRef> = pair
        .select(&scraper::Selector::parse("div.side").unwrap())
        .collect();
    assert_eq!(sides.len(), 2);
    let colours = |side: &scraper::ElementRef| -> Vec<String> {
        let mut found: Vec<String> = side
            .select(&scraper::Selector::parse("span.line").unwrap())
            .filter_map(|line| {
                line.value()
                    .classes()
                    .find(|class| class.starts_with('m'))
                    .map(str::to_owned)
            })
            .collect();
        found.sort();
        found.dedup();
        found
    };
    assert!(!colours(&sides[0]).is_empty());
    assert_eq!(colours(&sides[0]), colours(&sides[1]));
}

#[test]
fn hostile_names_and_code_are_escaped() {
    let dir = Dir::new();
    dir.create(
        "judge.toml",
        "submissions = \"class\"\nlayout = \"student/problem\"\n",
    );
    let code = "int main() { /* </pre><script>alert(1)</script> */ int a = 1, b = 2; for (int i = 0; i < 10; i++) { a += b * i; b -= a; } return a + b; }\n";
    dir.create("class/<img src=x>/rooks.c", code);
    dir.create("class/bob/rooks.c", code);
    dir.judge(&["similar", "--html", "out.html"]).expect_code(0);
    let page = dir.read("out.html");
    assert!(!page.contains("<img src=x>"), "{page}");
    assert!(page.contains("&lt;img src=x&gt;"));
    let pair_page = fs_err::read_dir(dir.path().join("out"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|path| path.extension().is_some_and(|ext| ext == "html"))
        .unwrap();
    let text = fs_err::read_to_string(pair_page).unwrap();
    assert!(!text.contains("<script>"), "{text}");
    assert!(text.contains("&lt;script&gt;"));
    // `--html -`: the one page on stdout.
    let run = dir.judge(&["similar", "--html", "-"]);
    run.expect_code(0);
    assert!(run.stdout().starts_with("<!DOCTYPE html>"));
}

#[test]
fn bad_files_are_skipped_or_noted_and_the_rest_compared() {
    let dir = Dir::new();
    // Go is a language of this class (grade would run it), with no grammar.
    dir.create(
        "judge.toml",
        "submissions = \"class\"\nlayout = \"student/problem\"\n\
         [languages.go]\nextensions = [\"go\"]\n\
         compile = [\"go\", \"build\", \"-o\", \"{executable}\", \"{source}\"]\n\
         run = [\"{executable}\"]\n",
    );
    let program = fs_err::read_to_string(fixture().join("hand-ins/ada/rooks.c")).unwrap();
    dir.create("class/ada/rooks.c", &program);
    // Does not parse (a missing brace), still compared.
    dir.create(
        "class/bad/rooks.c",
        program.replacen(
            "int can_place(int r, int c) {",
            "int can_place(int r, int c) ",
            1,
        ),
    );
    dir.create("class/empty/rooks.c", "\n  \n");
    dir.create("class/binary/rooks.c", b"\x7fELF\0\0\0binary");
    dir.create("class/huge/rooks.c", "x".repeat(1024 * 1024 + 1));
    std::os::unix::fs::symlink("nowhere", dir.path().join("class/gone/rooks.c"))
        .or_else(|_| {
            fs_err::create_dir_all(dir.path().join("class/gone"))?;
            std::os::unix::fs::symlink("nowhere", dir.path().join("class/gone/rooks.c"))
        })
        .unwrap();
    let go = "package main\nfunc main() {\n\tfor i := 0; i < 10; i++ {\n\t\tprintln(i * i + 1, i - 2, i / 3)\n\t}\n\tfor j := 0; j < 10; j++ {\n\t\tprintln(j * j + 1, j - 2, j / 3)\n\t}\n}\n";
    dir.create("class/gia/rooks.go", go);
    dir.create("class/gil/rooks.go", go.replace('i', "k"));
    let run = dir.judge(&["similar", "--json", "report.json"]);
    run.expect_code(0);
    let report = validated(&dir.read("report.json"));
    let reasons: HashMap<String, String> = report["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|skipped| {
            let path = skipped["path"].as_str().unwrap();
            let student = path.split('/').nth(1).unwrap().to_owned();
            (student, skipped["reason"].as_str().unwrap().to_owned())
        })
        .collect();
    assert_eq!(reasons["empty"], "empty");
    assert_eq!(
        reasons["binary"],
        "binary (it holds NUL bytes), not source code"
    );
    assert_eq!(reasons["huge"], "larger than 1 MiB");
    assert!(
        // A dangling link is refused by the one hand-in reader, naming it.
        reasons["gone"].contains("does not resolve"),
        "{reasons:?}"
    );
    assert_eq!(reasons.len(), 4);
    let stderr = run.stderr();
    assert!(
        stderr.contains("skipped: class/empty/rooks.c: empty"),
        "{stderr}"
    );
    let notes: Vec<String> = report["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|note| {
            format!(
                "{}: {}",
                note["path"].as_str().unwrap(),
                note["note"].as_str().unwrap()
            )
        })
        .collect();
    assert!(
        notes
            .iter()
            .any(|note| note.starts_with("class/bad/rooks.c: does not parse")),
        "{notes:?}"
    );
    assert!(
        notes.iter().any(|note| note
            .starts_with("class/gia/rooks.go: no grammar for go: compared by plain tokens")),
        "{notes:?}"
    );
    let scores = similarities(&report, "rooks");
    assert!(
        scores[&("ada".to_owned(), "bad".to_owned())] > 0.9,
        "{scores:?}"
    );
    assert_eq!(scores[&("gia".to_owned(), "gil".to_owned())], 1.0);
    assert_eq!(scores.len(), 2, "{scores:?}");
}

#[test]
fn a_base_file_for_an_unknown_problem_is_a_usage_error_naming_it() {
    let dir = Dir::new();
    let config = fixture().join("judge.toml");
    dir.create("starter/rooks.c", "int main() { return 0; }\n");
    dir.create("starter/knights.c", "int main() { return 0; }\n");
    let run = dir.judge(&[
        "similar",
        "--config",
        config.to_str().unwrap(),
        "--base",
        "starter",
    ]);
    run.expect_code(2);
    assert!(
        run.stderr()
            .contains("--base file `starter/knights.c` is for `knights`, which is not a problem"),
        "{}",
        run.stderr()
    );
    let run = dir.judge(&[
        "similar",
        "--config",
        config.to_str().unwrap(),
        "--base",
        "nowhere",
    ]);
    run.expect_code(2);
    assert!(
        run.stderr()
            .contains("cannot read the --base folder `nowhere`"),
        "{}",
        run.stderr()
    );
}

#[test]
fn usage_errors_exit_2_before_anything_is_read() {
    let dir = Dir::new();
    let config = fixture().join("judge.toml");
    let config = config.to_str().unwrap();
    dir.judge(&["similar", "--config", config, "--min-tokens", "1"])
        .expect_code(2);
    let run = dir.judge(&["similar", "--config", config, "--problems", "knights"]);
    run.expect_code(2);
    assert!(
        run.stderr().contains("unknown problem: knights (known: "),
        "{}",
        run.stderr()
    );
    let run = dir.judge(&["similar", "--config", config, "--json", "no/such/dir.json"]);
    run.expect_code(2);
    // Never among the hand-ins.
    let inside = fixture().join("hand-ins/ada/report.json");
    let run = dir.judge(&[
        "similar",
        "--config",
        config,
        "--json",
        inside.to_str().unwrap(),
    ]);
    run.expect_code(2);
    assert!(!inside.exists());
}

#[test]
fn help_man_and_completions_know_the_command() {
    let run = Dir::new().judge(&["similar", "--help"]);
    run.expect_code(0);
    let help = run.stdout();
    assert!(
        help.contains("--min-tokens <N>") && help.contains("--base <DIR>"),
        "{help}"
    );
    assert!(help.contains("never a verdict"), "{help}");
    let man = Dir::new().judge(&["man"]).stdout();
    assert!(man.contains(".TH judge-similar 1"));
    let bash = Dir::new().judge(&["completions", "bash"]).stdout();
    assert!(bash.contains("similar") && bash.contains("--min-tokens"));
}

/// The similarity of two texts, each read as its file name says.
fn similarity(a: (&str, &str), b: (&str, &str)) -> f64 {
    let class = [
        HandIn::from_text("p", "a", Path::new(a.0), a.1.to_owned()).unwrap(),
        HandIn::from_text("p", "b", Path::new(b.0), b.1.to_owned()).unwrap(),
    ];
    let options = similar::Options {
        min_tokens: similar::DEFAULT_MIN_TOKENS,
        jobs: 1,
    };
    let (pairs, _) = similar::compare(&class, &[], &options);
    pairs.first().map_or(0.0, |pair| pair.similarity)
}

/// `text` with every identifier renamed (consistently, by `seed`) and, when
/// `reformat`, every token separated by a whitespace or comment picked by
/// `seed` (preprocessor lines and literals kept whole).
fn disguise(name: &str, text: &str, seed: u64, reformat: bool) -> String {
    let language: tree_sitter::Language =
        match Path::new(name).extension().unwrap().to_str().unwrap() {
            "c" => tree_sitter_c::LANGUAGE.into(),
            "cpp" => tree_sitter_cpp::LANGUAGE.into(),
            "py" => tree_sitter_python::LANGUAGE.into(),
            "rs" => tree_sitter_rust::LANGUAGE.into(),
            other => panic!("no grammar for {other}"),
        };
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&language).unwrap();
    let tree = parser.parse(text, None).unwrap();
    let mut pieces: Vec<(usize, usize, bool)> = Vec::new();
    let mut cursor = tree.walk();
    'walk: loop {
        let node = cursor.node();
        let kind = node.kind();
        let whole = kind.starts_with("preproc")
            || (node.is_named()
                && (kind.contains("string") || kind.contains("char") || kind.contains("literal")));
        if !whole && !kind.contains("comment") && cursor.goto_first_child() {
            continue;
        }
        if !kind.contains("comment") && node.end_byte() > node.start_byte() {
            let identifier = node.is_named() && kind.ends_with("identifier");
            pieces.push((node.start_byte(), node.end_byte(), identifier));
        }
        loop {
            if cursor.goto_next_sibling() {
                continue 'walk;
            }
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    let mut names: HashMap<&str, String> = HashMap::new();
    let separators = [" ", "\n", "  ", "\n\n\t", " /* note */ ", "\n// note\n"];
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    let mut out = String::new();
    let mut last = 0;
    for (start, end, identifier) in pieces {
        if reformat {
            let preproc = out.ends_with('\n')
                || text[last..start].contains('\n')
                    && text[..start]
                        .trim_end()
                        .rsplit('\n')
                        .next()
                        .is_some_and(|line| line.trim_start().starts_with('#'));
            out.push_str(if preproc {
                "\n"
            } else {
                separators[next() % separators.len()]
            });
        } else {
            out.push_str(&text[last..start]);
        }
        let piece = &text[start..end];
        if identifier {
            let count = names.len();
            let fresh = names
                .entry(piece)
                .or_insert_with(|| format!("zq{}_{count}", next() % 1000));
            out.push_str(fresh);
        } else {
            out.push_str(piece);
            if reformat && piece.starts_with('#') && !piece.ends_with('\n') {
                out.push('\n');
            }
        }
        last = end;
    }
    out.push_str(&text[last..]);
    out
}

/// Files for the properties: C, C++, Python and Rust, from the fixture
/// class and the bundled solutions.
fn samples() -> Vec<(String, String)> {
    [
        "tests/fixtures/similar/class/hand-ins/ada/rooks.c",
        "tests/fixtures/similar/class/hand-ins/jon/rooks.cpp",
        "tests/fixtures/similar/class/hand-ins/nia/rooks.cpp",
        "tests/fixtures/similar/class/hand-ins/pam/rooks.py",
        "submissions/rooks/accepted/kuhn.rs",
    ]
    .iter()
    .map(|path| {
        let name = Path::new(path)
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .to_owned();
        (
            name,
            fs_err::read_to_string(repository().join(path)).unwrap(),
        )
    })
    .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Renaming every identifier consistently, in any language, leaves the
    /// similarity with any other file as it was, and the renamed copy is the
    /// same code.
    #[test]
    fn consistent_renaming_changes_no_similarity(seed in any::<u64>(), pick in 0usize..5, other in 0usize..5) {
        let samples = samples();
        let (name, text) = &samples[pick];
        let (other_name, other_text) = &samples[other];
        let renamed = disguise(name, text, seed, false);
        prop_assert_ne!(&renamed, text);
        prop_assert_eq!(similarity((name, text), (name, &renamed)), 1.0);
        prop_assert_eq!(
            similarity((name, text), (other_name, other_text)),
            similarity((name, &renamed), (other_name, other_text))
        );
    }

    /// Renaming and reformatting (tokens split over lines, comments between
    /// them) a C, C++ or Rust file leaves its similarities unchanged.
    #[test]
    fn reformatting_and_renaming_change_no_similarity(seed in any::<u64>(), pick in 0usize..4, other in 0usize..5) {
        let samples = samples();
        let pick = [0, 1, 2, 4][pick];
        let (name, text) = &samples[pick];
        let (other_name, other_text) = &samples[other];
        let disguised = disguise(name, text, seed, true);
        prop_assert_eq!(similarity((name, text), (name, &disguised)), 1.0, "{}", disguised);
        prop_assert_eq!(
            similarity((name, text), (other_name, other_text)),
            similarity((name, &disguised), (other_name, other_text))
        );
    }
}

/// Independent solutions of the bundled problems (submissions/*/accepted/,
/// written apart) score low against each other, whichever problem.
#[test]
fn independent_bundled_solutions_score_low() {
    let mut files: Vec<(String, String)> = Vec::new();
    for problem in ["rooks", "mayan", "matchsticks"] {
        let folder = repository()
            .join("submissions")
            .join(problem)
            .join("accepted");
        for entry in fs_err::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            let name = format!("{problem}/{}", path.file_name().unwrap().to_str().unwrap());
            files.push((name, fs_err::read_to_string(path).unwrap()));
        }
    }
    files.sort();
    let mut compared = 0;
    for (index, (a, text_a)) in files.iter().enumerate() {
        for (b, text_b) in &files[index + 1..] {
            let score = similarity((a, text_a), (b, text_b));
            assert!(score < 0.25, "{a} and {b}: {score}");
            compared += 1;
        }
    }
    assert!(compared >= 30);
}

/// Decodes the percent-escapes of a relative link.
fn decode_href(href: &str) -> String {
    let bytes = href.as_bytes();
    let mut decoded = Vec::new();
    let mut index = 0;
    while let Some(&byte) = bytes.get(index) {
        if byte == b'%' {
            decoded.push(u8::from_str_radix(&href[index + 1..index + 3], 16).unwrap());
            index += 3;
        } else {
            decoded.push(byte);
            index += 1;
        }
    }
    String::from_utf8(decoded).unwrap()
}

/// A small class to grade: ada's rooks, a disguised copy of it by a student
/// with an awkward name, and max's own rooks; each file from the fixture.
fn small_class() -> Dir {
    let dir = Dir::new();
    dir.create(
        "judge.toml",
        "layout = \"student/problem\"\nrandom-tests = 1\njobs = 2\n",
    );
    for (student, from) in [("ada", "ada"), ("o'brien x", "ben"), ("max", "max")] {
        let text = fs_err::read_to_string(fixture().join(format!("hand-ins/{from}/rooks.c")));
        dir.create(&format!("submissions/{student}/rooks.c"), text.unwrap());
    }
    dir
}

/// (submission, verdict, passed, total) of every result of a grade report.
fn grades(dir: &Dir, name: &str) -> Vec<(String, String, u64, u64)> {
    let report: serde_json::Value = serde_json::from_str(&dir.read(name)).unwrap();
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| {
            (
                result["submission"].as_str().unwrap().to_owned(),
                result["verdict"].as_str().unwrap().to_owned(),
                result["passed"].as_u64().unwrap(),
                result["total"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// `judge grade --similarity --html` puts the pairs on the class page, with
/// links to the hand-ins and to side-by-side pages in the class page's
/// folder that lead back; the grades are those of a run without it, and
/// without the flag the page has no such section.
#[test]
fn grade_similarity_adds_the_section_to_the_class_page_and_changes_no_grade() {
    let dir = small_class();
    fs_err::create_dir(dir.path().join("out")).unwrap();
    let plain = dir.judge(&[
        "grade",
        "-q",
        "--json",
        "plain.json",
        "--html",
        "out/plain.html",
    ]);
    let with = dir.judge(&[
        "grade",
        "-q",
        "--similarity",
        "--json",
        "with.json",
        "--html",
        "out/grades.html",
    ]);
    assert_eq!(with.code(), plain.code(), "{}", with.transcript());
    assert_eq!(grades(&dir, "with.json"), grades(&dir, "plain.json"));
    assert_eq!(grades(&dir, "with.json").len(), 3);

    let without = dir.read("out/plain.html");
    assert!(!without.contains("Similarity of hand-ins"));
    assert!(!without.contains("class=\"similarity\""));
    assert!(fs_err::read_dir(dir.path().join("out/plain"))
        .unwrap()
        .all(|entry| !entry
            .unwrap()
            .file_name()
            .to_string_lossy()
            .contains("similar")));

    let page = dir.read("out/grades.html");
    let html = scraper::Html::parse_document(&page);
    let select = |css: &str| {
        html.select(&scraper::Selector::parse(css).unwrap())
            .collect::<Vec<_>>()
    };
    assert!(select("script").is_empty());
    // The class page is still the class page, with the section below it.
    assert_eq!(select("table.matrix a.cell").len(), 3);
    let section = select("section.similarity");
    assert_eq!(section.len(), 1, "{page}");
    let text: String = section[0].text().collect();
    assert!(text.contains("never a verdict"), "{text}");
    assert!(text.contains("rooks"), "{text}");
    assert!(!select("section.similarity span.bar span").is_empty());
    let student_links: Vec<String> = select("section.similarity td a[title]")
        .iter()
        .map(|link| link.value().attr("href").unwrap().to_owned())
        .collect();
    assert!(!student_links.is_empty());
    for href in &student_links {
        let path = dir.path().join("out").join(decode_href(href));
        assert!(path.is_file(), "{href} does not lead to the hand-in");
    }
    assert!(
        student_links
            .iter()
            .any(|href| href.contains("o%27brien%20x")),
        "{student_links:?}"
    );
    let pages: Vec<String> = select("section.similarity a")
        .iter()
        .filter(|link| link.text().collect::<String>() == "side by side")
        .map(|link| link.value().attr("href").unwrap().to_owned())
        .collect();
    // ada and her copy are far above the threshold.
    assert!(!pages.is_empty(), "{text}");
    for href in &pages {
        assert!(href.starts_with("grades/"), "{href}");
        let path = dir.path().join("out").join(decode_href(href));
        let pair = fs_err::read_to_string(&path).unwrap();
        let pair = scraper::Html::parse_document(&pair);
        let back: Vec<&str> = pair
            .select(&scraper::Selector::parse("a").unwrap())
            .filter(|link| link.text().collect::<String>() == "all pairs")
            .map(|link| link.value().attr("href").unwrap())
            .collect();
        assert_eq!(back, ["../grades.html"]);
        let sides = pair
            .select(&scraper::Selector::parse("div.side").unwrap())
            .count();
        assert_eq!(sides, 2);
        for link in pair.select(&scraper::Selector::parse("div.side p a").unwrap()) {
            let href = link.value().attr("href").unwrap();
            let file = path.parent().unwrap().join(decode_href(href));
            assert!(file.is_file(), "{href} from {}", path.display());
        }
    }
    // The submissions' pages are all still there, beside the pair pages.
    let written = fs_err::read_dir(dir.path().join("out/grades"))
        .unwrap()
        .count();
    assert_eq!(
        written,
        3 + pages.len() + 1,
        "pages, pair pages and the mark"
    );
}

/// For students the similarity is never shown: `--similarity` with
/// `--student-view` (or judge.toml's `student-view`) is refused before
/// anything runs, as is `--similarity` with no HTML report.
#[test]
fn grade_similarity_is_refused_for_students_and_without_html() {
    let dir = small_class();
    let run = dir.judge(&[
        "grade",
        "--similarity",
        "--student-view",
        "--html",
        "grades.html",
    ]);
    run.expect_code(2);
    assert!(
        run.stderr()
            .contains("`--similarity` is not for students: refused with `--student-view`"),
        "{}",
        run.transcript()
    );
    assert!(!dir.path().join("grades.html").exists());

    dir.create(
        "judge.toml",
        "layout = \"student/problem\"\nrandom-tests = 1\nstudent-view = true\n",
    );
    let run = dir.judge(&["grade", "--similarity", "--html", "grades.html"]);
    run.expect_code(2);
    assert!(
        run.stderr()
            .contains("refused with `student-view = true` in judge.toml"),
        "{}",
        run.transcript()
    );
    assert!(!dir.path().join("grades.html").exists());

    let dir = small_class();
    let run = dir.judge(&["grade", "--similarity", "--json", "grades.json"]);
    run.expect_code(2);
    assert!(
        run.stderr().contains("no `--html` is given"),
        "{}",
        run.transcript()
    );
    assert!(!dir.path().join("grades.json").exists());
}

/// A class of `student/problem` hand-ins of rooks: (student folder, text).
fn class_of(hand_ins: &[(&str, &str)]) -> Dir {
    let dir = Dir::new();
    dir.create("judge.toml", "layout = \"student/problem\"\njobs = 2\n");
    for (student, text) in hand_ins {
        dir.create(&format!("submissions/{student}/rooks.c"), text);
    }
    dir
}

fn fixture_text(student: &str) -> String {
    fs_err::read_to_string(fixture().join(format!("hand-ins/{student}/rooks.c"))).unwrap()
}

/// A control character in a student's folder name reaches neither the
/// terminal of `judge similar` nor the table of `judge grade` raw.
/// See: issue #16.
#[test]
fn r16_control_characters_in_names_are_shown_visible() {
    let (ada, max) = (fixture_text("ada"), fixture_text("max"));
    let dir = class_of(&[("ada", &ada), ("eve\u{1b}[2J", &ada), ("max", &max)]);
    let run = dir.judge(&["similar"]);
    run.expect_code(0);
    assert!(!run.stdout().contains('\u{1b}'), "{}", run.transcript());
    assert!(run.stdout().contains("eve\\x1b[2J"), "{}", run.transcript());
    dir.create(
        "judge.toml",
        "layout = \"student/problem\"\nrandom-tests = 1\njobs = 2\n",
    );
    let run = dir.judge(&["grade"]);
    assert!(!run.stdout().contains('\u{1b}'), "{}", run.transcript());
    assert!(run.stdout().contains("eve\\x1b[2J"), "{}", run.transcript());
}

/// `--problems rooks nobody` (or `problems` of judge.toml) names a problem
/// that is neither known nor handed in: refused, naming it and the known
/// ones, never compared without it. See: issue #16.
#[test]
fn r16_an_unknown_problem_is_refused_naming_it() {
    let ada = fixture_text("ada");
    let dir = class_of(&[("ada", &ada), ("ben", &ada)]);
    let run = dir.judge(&["similar", "--problems", "rooks", "nobody"]);
    run.expect_code(2);
    let stderr = run.stderr();
    assert!(
        stderr.contains("unknown problem: nobody"),
        "{}",
        run.transcript()
    );
    assert!(
        stderr.contains("known: ") && stderr.contains("rooks"),
        "{stderr}"
    );
    assert!(run.stdout().is_empty(), "{}", run.transcript());

    dir.create(
        "judge.toml",
        "layout = \"student/problem\"\nrandom-tests = 1\nproblems = [\"rooks\", \"nobody\"]\n",
    );
    for args in [&["similar"][..], &["grade"][..]] {
        let run = dir.judge(args);
        run.expect_code(2);
        assert!(run.stderr().contains("nobody"), "{}", run.transcript());
        assert!(run.stderr().contains("rooks"), "{}", run.transcript());
    }
}

/// A folder name that is not UTF-8 is shown with its bytes visible (never
/// a lossy `\u{fffd}`) and linked by its own bytes. See: issue #16.
#[cfg(unix)]
#[test]
fn r16_a_folder_name_that_is_not_utf8_is_linked_and_shown_losslessly() {
    use std::os::unix::ffi::OsStrExt as _;
    let ada = fixture_text("ada");
    let dir = class_of(&[("ada", &ada)]);
    let folder = dir
        .path()
        .join("submissions")
        .join(std::ffi::OsStr::from_bytes(b"caf\xe9"));
    fs_err::create_dir_all(&folder).unwrap();
    fs_err::write(folder.join("rooks.c"), &ada).unwrap();
    dir.judge(&["similar", "--html", "similar.html"])
        .expect_code(0);
    let page = dir.read("similar.html");
    assert!(page.contains("caf\\xe9"), "{page}");
    assert!(!page.contains('\u{fffd}'), "{page}");
    assert!(
        page.contains("href=\"submissions/caf%E9/rooks.c\""),
        "{page}"
    );
    let run = dir.judge(&["similar"]);
    assert!(run.stdout().contains("caf\\xe9"), "{}", run.transcript());
}

/// Highly repetitive code (one line 400 times) copied with a line inserted
/// in the middle and another ending still scores as a copy: the tiling finds the runs past
/// the insertion, not only those through the first occurrences of each
/// gram. And one pair is `1 pair`. See: issue #16.
#[test]
fn r16_a_copy_of_repetitive_code_scores_high() {
    let body: String = "    x = x + 1;\n".repeat(400);
    let original = format!("int main(void) {{\n    int x = 0;\n{body}    return x;\n}}\n");
    let half = "    x = x + 1;\n".repeat(200);
    // The copy ends otherwise too, so no gram after its second half is
    // shared to anchor that half from the end.
    let copy = format!(
        "#include <stdio.h>\nint main(void) {{\n    int x = 0;\n{half}    if (x < 0) {{ x = -x; }}\n\
         {half}    printf(\"%d\\n\", x);\n    return 0;\n}}\n"
    );
    let dir = class_of(&[("ada", &original), ("ben", &copy)]);
    let run = dir.judge(&["similar", "--json", "similar.json"]);
    run.expect_code(0);
    let report = validated(&dir.read("similar.json"));
    let similarity = report["pairs"][0]["similarity"].as_f64().unwrap();
    assert!(similarity >= 0.9, "{similarity}: {report}");
    let run = dir.judge(&["similar"]);
    assert!(
        run.stdout().contains("rooks: 2 hand-ins, 1 pair, "),
        "{}",
        run.transcript()
    );
}

/// `judge grade --similarity` takes `--base` and `--min-tokens` as `judge
/// similar` does; without `--similarity` they are usage errors.
#[test]
fn grade_similarity_takes_base_and_min_tokens() {
    let dir = small_class();
    dir.create("base/rooks.c", fixture_text("ada"));
    let run = dir.judge(&[
        "grade",
        "--similarity",
        "--base",
        "base",
        "--min-tokens",
        "40",
        "--html",
        "grades.html",
    ]);
    assert!([0, 1].contains(&run.code()), "{}", run.transcript());
    let page = dir.read("grades.html");
    assert!(
        page.contains("Common runs of at least 40 tokens count."),
        "{page}"
    );
    assert!(!page.contains("No starter code was set aside."), "{page}");
    assert!(page.contains("rooks.c"), "{page}");
    for flag in [&["--base", "base"][..], &["--min-tokens", "40"][..]] {
        let mut args = vec!["grade", "--html", "grades.html"];
        args.extend(flag);
        let run = dir.judge(&args);
        run.expect_code(2);
        assert!(
            run.stderr().contains("--similarity"),
            "{}",
            run.transcript()
        );
    }
}

/// An `--html` path through `..` (`out/../z.html`) keeps every link to the
/// students' files; a side-by-side page's "all pairs" leads to the summary
/// page itself, and one common run is `1 region`. See: issue #16.
#[test]
fn r16_html_through_dotdot_keeps_links_and_pair_pages_lead_back() {
    let (ada, max) = (fixture_text("ada"), fixture_text("max"));
    let dir = class_of(&[("ada", &ada), ("ben", &ada), ("max", &max)]);
    fs_err::create_dir(dir.path().join("out")).unwrap();
    dir.judge(&["similar", "--html", "./out/../z.html"])
        .expect_code(0);
    let page = dir.read("z.html");
    let html = scraper::Html::parse_document(&page);
    let links: Vec<String> = html
        .select(&scraper::Selector::parse("td a[title]").unwrap())
        .map(|link| link.value().attr("href").unwrap().to_owned())
        .collect();
    assert!(links.len() >= 2, "no links to the hand-ins: {page}");
    for href in &links {
        assert!(dir.path().join(decode_href(href)).is_file(), "{href}");
    }
    let pair_pages: Vec<String> = html
        .select(&scraper::Selector::parse("a").unwrap())
        .filter(|link| link.text().collect::<String>() == "side by side")
        .map(|link| link.value().attr("href").unwrap().to_owned())
        .collect();
    assert!(!pair_pages.is_empty(), "{page}");
    let first = fs_err::read_to_string(dir.path().join(&pair_pages[0])).unwrap();
    let pair = scraper::Html::parse_document(&first);
    let hrefs: Vec<(String, String)> = pair
        .select(&scraper::Selector::parse("a").unwrap())
        .map(|link| {
            (
                link.text().collect::<String>(),
                link.value().attr("href").unwrap().to_owned(),
            )
        })
        .collect();
    assert!(
        hrefs.contains(&("all pairs".to_owned(), "../z.html".to_owned())),
        "{hrefs:?}"
    );
    let side_links: Vec<&(String, String)> = hrefs
        .iter()
        .filter(|(text, _)| text != "all pairs")
        .collect();
    assert_eq!(side_links.len(), 2, "{hrefs:?}");
    for (_, href) in side_links {
        let file = dir.path().join("z").join(decode_href(href));
        assert!(file.is_file(), "{href}");
    }
    // ada and ben hand in the same file: one common run.
    assert!(first.contains("matched tokens · 1 region</p>"), "{first}");
    assert!(!first.contains("1 regions"), "{first}");
}

/// A known problem that nobody handed in is compared as nothing: exit 0,
/// a line saying so, and in the JSON its summary of 0 hand-ins and no
/// pairs. See: issue #16.
#[test]
fn r16_a_known_problem_nobody_handed_in_is_no_hand_ins() {
    let ada = fixture_text("ada");
    let dir = class_of(&[("ada", &ada), ("ben", &ada)]);
    let run = dir.judge(&["similar", "--problems", "mayan"]);
    run.expect_code(0);
    assert!(
        run.stdout().contains("mayan: no hand-ins"),
        "{}",
        run.transcript()
    );
    let run = dir.judge(&["similar", "--problems", "rooks", "mayan", "--json", "-"]);
    run.expect_code(0);
    let report = validated(&run.stdout());
    let problems = report["problems"].as_array().unwrap();
    let mayan = problems
        .iter()
        .find(|summary| summary["problem"] == "mayan")
        .unwrap_or_else(|| panic!("{report}"));
    assert_eq!(mayan["hand_ins"], 0, "{report}");
    assert_eq!(mayan["pairs"], 0, "{report}");
    let pairs = report["pairs"].as_array().unwrap();
    assert!(pairs.iter().all(|pair| pair["problem"] == "rooks"));
    assert!(!pairs.is_empty(), "{report}");
    let run = dir.judge(&["similar", "--problems", "mayan", "--html", "-"]);
    run.expect_code(0);
    assert!(
        run.stdout().contains("No hand-ins."),
        "{}",
        run.transcript()
    );
}

/// Control characters in a hand-in's code (ESC, BEL) reach the side-by-side
/// page visible (`\x1b`), never raw. See: issue #16.
#[test]
fn r16_control_characters_in_code_are_shown_visible_on_pair_pages() {
    let code = fixture_text("ada").replacen('\n', "\n// \u{1b}[2J\u{7} bell\n", 1);
    let dir = class_of(&[("ada", &code), ("ben", &code)]);
    dir.judge(&["similar", "--html", "s.html"]).expect_code(0);
    let page = fs_err::read_to_string(dir.path().join("s/pair-1.html")).unwrap();
    assert!(
        !page.contains('\u{1b}') && !page.contains('\u{7}'),
        "{page}"
    );
    assert!(page.contains("\\x1b[2J\\x07 bell"), "{page}");
}

/// Two students whose names would show alike (a folder `r` 0xFF `x` and a
/// folder literally named `r\xffx`) are told apart in what is shown: their
/// paths differ in the JSON (a backslash of a name is doubled). `judge
/// grade` takes them for one student with two files and runs neither, so
/// neither is compared. See: issue #16.
#[cfg(unix)]
#[test]
fn r16_names_that_look_alike_keep_their_own_paths() {
    use std::os::unix::ffi::OsStrExt as _;
    let ada = fixture_text("ada");
    let dir = class_of(&[("ben", &ada), ("max", &ada)]);
    for name in [&b"r\xffx"[..], &b"r\\xffx"[..]] {
        let folder = dir
            .path()
            .join("submissions")
            .join(std::ffi::OsStr::from_bytes(name));
        fs_err::create_dir_all(&folder).unwrap();
        fs_err::write(folder.join("rooks.c"), &ada).unwrap();
    }
    let run = dir.judge(&["similar", "--json", "-"]);
    run.expect_code(0);
    let report = validated(&run.stdout());
    let skipped: Vec<&str> = report["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|skipped| skipped["path"].as_str().unwrap())
        .collect();
    assert_eq!(skipped.len(), 2, "{report}");
    assert_ne!(skipped[0], skipped[1], "{report}");
    assert!(skipped.contains(&"submissions/r\\xffx/rooks.c"), "{report}");
    assert!(
        skipped.contains(&"submissions/r\\\\xffx/rooks.c"),
        "{report}"
    );
    let pairs = report["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 1, "{report}");
}

/// `judge similar` compares the class `judge grade` runs: two files of one
/// student for a problem, or a file in no language, are not compared but
/// listed as skipped with grade's reason. See: issue #16.
#[test]
fn r16_files_grade_would_not_run_are_not_compared() {
    let ada = fixture_text("ada");
    let dir = Dir::new();
    dir.create("judge.toml", "layout = \"problem/student\"\n");
    for name in ["alice.c", "alice.cpp", "noext", "bob.c", "carol.c"] {
        dir.create(&format!("submissions/rooks/{name}"), &ada);
    }
    let run = dir.judge(&["similar", "--json", "-"]);
    run.expect_code(0);
    let report = validated(&run.stdout());
    let skipped: BTreeMap<&str, &str> = report["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|skipped| {
            (
                skipped["path"].as_str().unwrap(),
                skipped["reason"].as_str().unwrap(),
            )
        })
        .collect();
    for file in ["alice.c", "alice.cpp"] {
        let reason = skipped[format!("submissions/rooks/{file}").as_str()];
        assert!(reason.contains("2 files for student `alice`"), "{reason}");
    }
    let reason = skipped["submissions/rooks/noext"];
    assert!(reason.contains("no language"), "{reason}");
    let pairs = report["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 1, "{report}");
    assert_eq!(
        (pairs[0]["a"].as_str(), pairs[0]["b"].as_str()),
        (Some("bob"), Some("carol")),
        "{report}"
    );
}

/// The page says its caps as they are: with 595 pairs all at 100%, it
/// shows 500 rows, 200 side-by-side pages, and says that 95 more pairs are
/// in the JSON and 395 more at or above 40% have no page. See: issue #16.
#[test]
fn r16_the_page_says_its_caps() {
    let code = "int main(void) {\n    int total = 0;\n    for (int i = 0; i < 10; i++) {\n        \
                total += i * i;\n    }\n    return total % 7;\n}\n";
    let names: Vec<String> = (0..35).map(|n| format!("s{n:02}")).collect();
    let hand_ins: Vec<(&str, &str)> = names.iter().map(|name| (name.as_str(), code)).collect();
    let dir = class_of(&hand_ins);
    dir.judge(&["similar", "--html", "s.html"]).expect_code(0);
    let page = dir.read("s.html");
    let html = scraper::Html::parse_document(&page);
    let rows = html
        .select(&scraper::Selector::parse("table tr").unwrap())
        .count();
    assert_eq!(rows, 501, "a heading and 500 rows");
    let pages = html
        .select(&scraper::Selector::parse("a").unwrap())
        .filter(|link| link.text().collect::<String>() == "side by side")
        .count();
    assert_eq!(pages, 200);
    assert!(
        page.contains("the 200 most similar of each problem at most"),
        "{page}"
    );
    assert!(
        page.contains("Only the 500 most similar pairs are shown: 95 more"),
        "{page}"
    );
    assert!(
        page.contains("Only the 200 most similar pairs have a side-by-side page: 395 more"),
        "{page}"
    );
    assert!(!page.contains("less similar pairs"), "{page}");
}

/// N near-identical functions, past the bound of the complete search
/// (4,096 tokens), copied with `(int x)` made `(long v)` in each: the copy
/// scores high at any N (it scored 21% at 150 functions, 10% at 300).
/// See: issue #16.
#[test]
fn r16_many_near_identical_functions_copied_score_high() {
    let function = |k: usize, parameter: &str| {
        format!(
            "int f{k}{parameter} {{\n    int s = 0;\n    for (int i = 0; i < 10; i++) {{\n        \
             s += i * {k};\n    }}\n    return s;\n}}\n"
        )
    };
    for n in [150, 300] {
        let original: String = (0..n).map(|k| function(k, "(int x)")).collect();
        let copy: String = (0..n).map(|k| function(k, "(long v)")).collect();
        let dir = class_of(&[("ada", &original), ("ben", &copy)]);
        let run = dir.judge(&["similar", "--json", "-"]);
        run.expect_code(0);
        let report = validated(&run.stdout());
        let similarity = report["pairs"][0]["similarity"].as_f64().unwrap();
        assert!(similarity >= 0.9, "N = {n}: {similarity}");
    }
}

/// See: issue #32 (item 10). Four copies of one hand-in were six pairs in
/// the table, and each pair with a fifth hand-in four rows: the copies are
/// one group, listed once with every student and file, and a fifth
/// hand-in's pair with them one row; the JSON keeps every pair and names
/// the group in `same_code`.
#[test]
fn r32_copies_of_one_hand_in_are_one_group_not_every_pair() {
    let dir = Dir::new();
    dir.create("judge.toml", "layout = \"problem/student\"\n");
    let copy = fs_err::read_to_string(repository().join("submissions/rooks/accepted/matching.py"))
        .unwrap();
    for student in ["dan", "ann", "cat", "bea"] {
        dir.create(&format!("submissions/rooks/{student}.py"), &copy);
    }
    dir.create(
        "submissions/rooks/eve.py",
        fs_err::read_to_string(
            repository().join("submissions/rooks/wrong_answer/ignores_walls.py"),
        )
        .unwrap(),
    );
    let run = dir.judge(&["similar"]);
    run.expect_code(0);
    let out = run.stdout();
    let rows: Vec<&str> = out
        .lines()
        .skip_while(|line| !line.starts_with("rooks:"))
        .skip(1)
        .collect();
    assert_eq!(rows.len(), 3, "{out}");
    assert_eq!(
        rows[0],
        "  100.0%  same code in 4 hand-ins (6 pairs): ann, bea, cat, dan"
    );
    assert_eq!(
        rows[1].split_whitespace().collect::<Vec<_>>(),
        [
            "submissions/rooks/ann.py",
            "submissions/rooks/bea.py",
            "submissions/rooks/cat.py",
            "submissions/rooks/dan.py"
        ]
    );
    assert!(
        rows[2].contains("  ann (+3 same code)  eve  ")
            && rows[2].ends_with("submissions/rooks/ann.py  submissions/rooks/eve.py"),
        "{out}"
    );

    let report = similar_json_in(&dir);
    assert_eq!(report["pairs"].as_array().unwrap().len(), 10);
    assert_eq!(
        report["same_code"],
        serde_json::json!([{
            "problem": "rooks",
            "students": ["ann", "bea", "cat", "dan"],
            "files": [
                "submissions/rooks/ann.py",
                "submissions/rooks/bea.py",
                "submissions/rooks/cat.py",
                "submissions/rooks/dan.py"
            ]
        }])
    );
}

fn similar_json_in(dir: &Dir) -> serde_json::Value {
    let run = dir.judge(&["similar", "--json", "-"]);
    run.expect_code(0);
    validated(&run.stdout())
}
