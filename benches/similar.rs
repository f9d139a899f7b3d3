//! `judge similar` on generated classes: a 40-student class (aim: under
//! 2 s) and 1,000 hand-ins of one problem, about 500,000 pairs (aim: at
//! most 60 s on 2 cores). Each iteration is the whole library path of the
//! command: find the hand-ins, read and tokenize them, fingerprint, and
//! tile every candidate pair.
//!
//! Run: `cargo bench --bench similar`. The hand-ins are C programs made
//! from random statements (fixed seed), one in twenty a disguised copy of
//! another, so fingerprints find both real and chance candidates.

#![expect(
    clippy::unwrap_used,
    clippy::print_stdout,
    reason = "a benchmark binary"
)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use judge::config::judge::{JudgeConfig, Layout};
use judge::similar::{self, class};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

const NAMES: &[&str] = &[
    "a", "b", "c", "i", "j", "k", "n", "m", "x", "y", "sum", "count", "best", "total", "left",
    "right", "mid", "grid", "seen", "dist", "cost", "value", "tmp", "row", "col",
];

/// A random expression, nested up to `depth`: names, numbers, array
/// cells, calls and operators, so that programs differ in shape, not only
/// in names (names are all one token kind to the comparison).
fn expression(rng: &mut ChaCha8Rng, depth: u32) -> String {
    let name = NAMES[rng.random_range(0..NAMES.len())];
    match rng.random_range(0..if depth == 0 { 3 } else { 7 }) {
        0 => name.to_owned(),
        1 => rng.random_range(0..100).to_string(),
        2 => format!("{name}[{}]", NAMES[rng.random_range(0..NAMES.len())]),
        3 => format!(
            "f{}({})",
            rng.random_range(0..4),
            expression(rng, depth - 1)
        ),
        4 => format!("({})", expression(rng, depth - 1)),
        5 => format!("-{}", expression(rng, depth - 1)),
        _ => {
            let operator = ["+", "-", "*", "/", "%", "<<", "&", "|", "^"][rng.random_range(0..9)];
            format!(
                "{} {operator} {}",
                expression(rng, depth - 1),
                expression(rng, depth - 1)
            )
        }
    }
}

fn condition(rng: &mut ChaCha8Rng) -> String {
    let comparison = ["<", ">", "<=", ">=", "==", "!="][rng.random_range(0..6)];
    let depth = rng.random_range(0..3);
    let one = format!(
        "{} {comparison} {}",
        expression(rng, depth),
        expression(rng, 1)
    );
    if rng.random_bool(0.3) {
        format!("{one} && {}", expression(rng, 1))
    } else {
        one
    }
}

/// One random statement, nested up to `depth`.
fn statement(rng: &mut ChaCha8Rng, depth: u32, out: &mut String, indent: usize) {
    let name = |rng: &mut ChaCha8Rng| NAMES[rng.random_range(0..NAMES.len())];
    let pad = " ".repeat(indent);
    let body = |rng: &mut ChaCha8Rng, out: &mut String| {
        for _ in 0..rng.random_range(1..4) {
            statement(rng, depth.saturating_sub(1), out, indent + 4);
        }
    };
    match rng.random_range(0..if depth == 0 { 4 } else { 8 }) {
        0 => {
            let depth = rng.random_range(1..4);
            let _ = writeln!(out, "{pad}{} = {};", name(rng), expression(rng, depth));
        }
        1 => {
            let operator = ["+=", "-=", "*=", "|=", "^="][rng.random_range(0..5)];
            let depth = rng.random_range(0..3);
            let _ = writeln!(
                out,
                "{pad}{}[{}] {operator} {};",
                name(rng),
                name(rng),
                expression(rng, depth)
            );
        }
        2 => {
            let _ = writeln!(out, "{pad}printf(\"%d\\n\", {});", expression(rng, 2));
        }
        3 => {
            let _ = writeln!(
                out,
                "{pad}if ({}) return {};",
                condition(rng),
                expression(rng, 1)
            );
        }
        4 => {
            let v = name(rng);
            let _ = writeln!(
                out,
                "{pad}for (int {v} = {}; {v} < {}; {v}++) {{",
                expression(rng, 0),
                expression(rng, 1)
            );
            body(rng, out);
            let _ = writeln!(out, "{pad}}}");
        }
        5 => {
            let _ = writeln!(out, "{pad}while ({}) {{", condition(rng));
            body(rng, out);
            let _ = writeln!(out, "{pad}}}");
        }
        6 => {
            let _ = writeln!(
                out,
                "{pad}int {} = f{}({}, {});",
                name(rng),
                rng.random_range(0..4),
                expression(rng, 1),
                expression(rng, 2)
            );
        }
        _ => {
            let _ = writeln!(out, "{pad}if ({}) {{", condition(rng));
            body(rng, out);
            let _ = writeln!(out, "{pad}}} else {{");
            body(rng, out);
            let _ = writeln!(out, "{pad}}}");
        }
    }
}

/// A program of a few functions, about 300 to 500 tokens.
fn program(rng: &mut ChaCha8Rng) -> String {
    let mut out = String::from("#include <stdio.h>\n\n");
    for function in 0..rng.random_range(2..5) {
        let _ = writeln!(out, "int f{function}(int a, int b) {{\n    int c = 0, i = 0, j = 0, k = 0, n = a, m = b, x = 0, y = 0;");
        for _ in 0..rng.random_range(3..7) {
            statement(rng, 2, &mut out, 4);
        }
        out.push_str("    return c;\n}\n\n");
    }
    out.push_str("int main(void) {\n    int n;\n    scanf(\"%d\", &n);\n    printf(\"%d\\n\", f0(n, n));\n    return 0;\n}\n");
    out
}

/// Writes a class of `students` hand-ins of `problem` under `root`
/// (layout student/problem); every twentieth copies an earlier one, renamed
/// and re-indented.
fn write_class(root: &Path, students: usize, problem: &str) {
    let mut rng = ChaCha8Rng::seed_from_u64(16);
    let mut programs: Vec<String> = Vec::with_capacity(students);
    for student in 0..students {
        let text = if student % 20 == 19 {
            let original = &programs[rng.random_range(0..programs.len())];
            original
                .replace("total", "acc")
                .replace("best", "top")
                .replace("    ", "  ")
        } else {
            program(&mut rng)
        };
        let folder = root.join(format!("s{student:04}"));
        fs_err::create_dir_all(&folder).unwrap();
        fs_err::write(folder.join(format!("{problem}.c")), &text).unwrap();
        programs.push(text);
    }
}

/// `judge similar` over the class in `root`, as the command does it.
fn run(root: &Path, jobs: usize) -> usize {
    let languages = JudgeConfig::defaults().unwrap().languages;
    let discovery = judge::discovery::discover(root, Layout::StudentProblem, None).unwrap();
    let (hand_ins, _, _) = class::read_hand_ins(&discovery.entries, &languages, jobs).unwrap();
    let options = similar::Options {
        min_tokens: similar::DEFAULT_MIN_TOKENS,
        jobs,
    };
    let (pairs, _) = similar::compare(&hand_ins, &[], &options);
    pairs.len()
}

fn classes(c: &mut Criterion) {
    let jobs = std::thread::available_parallelism().map_or(1, usize::from);
    // One timed run of each class, without criterion's repetitions (the
    // 1,000-hand-in class takes long enough that ten samples are minutes).
    if std::env::var_os("JUDGE_BENCH_ONCE").is_some() {
        for students in [40usize, 1000] {
            let dir = tempfile::tempdir().unwrap();
            write_class(dir.path(), students, "rooks");
            let start = std::time::Instant::now();
            let pairs = run(dir.path(), jobs);
            println!(
                "{students} hand-ins ({} pairs) on {jobs} threads: {:.2} s, {pairs} pairs share a run",
                students * (students - 1) / 2,
                start.elapsed().as_secs_f64()
            );
        }
        return;
    }
    let mut group = c.benchmark_group("judge similar, generated class");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1));
    for students in [40usize, 1000] {
        let dir = tempfile::tempdir().unwrap();
        write_class(dir.path(), students, "rooks");
        group.throughput(Throughput::Elements((students * (students - 1) / 2) as u64));
        group.bench_with_input(BenchmarkId::new("hand-ins", students), &students, |b, _| {
            b.iter(|| run(dir.path(), jobs));
        });
    }
    group.finish();
}

criterion_group!(benches, classes);
criterion_main!(benches);
