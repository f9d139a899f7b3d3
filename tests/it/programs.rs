//! Packages backed by their own programs (issue #9): generated, validated
//! and graded end to end; checker faults are JE; bad packages are refused
//! with file and line before anything runs.

use crate::support::{Dir, PackageBuilder, Run};

const LIMITS: &str =
    "[limits]\ntime-limit-ms = 2000\nmemory-limit-mib = 256\noutput-limit-kib = 64\n";

/// `judge ARGS... --problems-dir problems`.
fn judge(dir: &Dir, args: &[&str]) -> Run {
    let mut all = args.to_vec();
    all.extend_from_slice(&["--problems-dir", "problems"]);
    dir.judge(&all)
}

const SUM_REFERENCE: &str = "n = int(input())\nprint(sum(map(int, input().split())))\n";
const SUM_GENERATOR: &str = "\
import random, sys
rng = random.Random(int(sys.argv[1]))
top = 1000 if sys.argv[2] == 'large' else 9
n = rng.randint(1, 8)
print(n)
print(*[rng.randint(-top, top) for _ in range(n)])
";
const SUM_VALIDATOR: &str = "\
import sys
lines = sys.stdin.read().split('\\n')
if len(lines) != 3 or lines[2] != '':
    sys.exit('expected two lines')
n = int(lines[0])
numbers = lines[1].split()
if not 1 <= n <= 10 or len(numbers) != n:
    sys.exit(f'line 2: expected {n} numbers, found {len(numbers)}')
if any(abs(int(x)) > 1000 for x in numbers):
    sys.exit('line 2: a number is outside -1000..1000')
";
/// A hand-written checker speaking the testlib protocol (no testlib.h).
const SUM_CHECKER: &str = r#"#include <cstdio>
int main(int argc, char** argv) {
    if (argc < 4) { fprintf(stderr, "usage: check input output answer\n"); return 3; }
    FILE* out = fopen(argv[2], "r");
    FILE* ans = fopen(argv[3], "r");
    long long got, expected;
    if (!ans || fscanf(ans, "%lld", &expected) != 1) { fprintf(stderr, "bad answer file\n"); return 3; }
    if (!out || fscanf(out, "%lld", &got) != 1) { fprintf(stderr, "expected an integer\n"); return 2; }
    if (got != expected) { fprintf(stderr, "expected %lld, got %lld\n", expected, got); return 1; }
    fprintf(stderr, "ok the sum is %lld\n", got);
    return 0;
}
"#;

fn sum_manifest(checker: &str) -> String {
    format!(
        "title = \"Sum of a list\"\norigin = \"judge tests\"\nprofiles = [\"small\", \"large\"]\n\
         reference = \"reference.py\"\ngenerator = \"generator.py\"\n\
         [validator]\nprogram = \"validator.py\"\n{LIMITS}[checker]\n{checker}\n[tests]\nseed = 1\n"
    )
}

fn sum_package(dir: &Dir, id: &str, checker_toml: &str, checker: Option<(&str, &str)>) {
    PackageBuilder::ours(dir, &format!("problems/{id}"))
        .manifest(sum_manifest(checker_toml))
        .file("reference.py", SUM_REFERENCE)
        .file("generator.py", SUM_GENERATOR)
        .file("validator.py", SUM_VALIDATOR)
        .test("sample", "3\n1 2 3\n", "6\n")
        .files(checker.as_slice())
        .build();
    dir.create(
        "right.py",
        "input()\nprint(sum(map(int, input().split())))\n",
    );
    dir.create(
        "off_by_one.py",
        "input()\nprint(sum(map(int, input().split())) + 1)\n",
    );
    dir.create("words.py", "print('six')\n");
}

#[test]
fn sum_of_a_list_with_a_testlib_checker_is_generated_validated_and_graded() {
    let dir = Dir::new();
    sum_package(
        &dir,
        "sum",
        "kind = \"testlib\"\nprogram = \"check.cpp\"",
        Some(("check.cpp", SUM_CHECKER)),
    );
    judge(
        &dir,
        &[
            "gen",
            "sum",
            "--seed",
            "5",
            "--count",
            "4",
            "--profile",
            "large",
            "--out",
            "gen",
        ],
    )
    .expect_code(0);
    for name in ["001", "002", "003", "004"] {
        let input = format!("gen/{name}.in");
        judge(&dir, &["validate", "sum", &input]).expect_code(0);
        let solved = judge(&dir, &["solve", "sum", &input]);
        solved.expect_code(0);
        assert_eq!(solved.stdout(), dir.read(&format!("gen/{name}.ans")));
    }
    // The same seed makes the same bytes.
    let once = judge(&dir, &["gen", "sum", "--seed", "5", "--profile", "large"]);
    let again = judge(&dir, &["gen", "sum", "--seed", "5", "--profile", "large"]);
    assert_eq!(once.stdout(), again.stdout());

    let invalid = judge(&dir, &["validate", "sum", "-"]);
    invalid.expect_code(1);
    let invalid = dir.judge_stdin(&["validate", "sum", "--problems-dir", "problems"], "2\n1\n");
    invalid.expect_code(1);
    assert!(
        invalid.stderr().contains(
            "the validator `validator.py` rejected the input: line 2: expected 2 numbers, found 1"
        ),
        "{}",
        invalid.stderr()
    );

    let run = judge(
        &dir,
        &[
            "run",
            "sum",
            "right.py",
            "off_by_one.py",
            "words.py",
            "--random",
            "3",
            "--seed",
            "2",
        ],
    );
    run.expect_code(1);
    let out = run.stdout();
    assert!(out.contains("sum right.py (python): AC 4/4"), "{out}");
    assert!(out.contains("sum off_by_one.py (python): WA 0/4"), "{out}");
    assert!(out.contains("expected 6, got 7"), "{out}");
    assert!(out.contains("sum words.py (python): PE"), "{out}");
    assert!(out.contains("ok the sum is 6"), "{out}");

    let listed = judge(&dir, &["problems"]);
    listed.expect_code(0);
    assert!(
        listed
            .stdout()
            .lines()
            .any(|line| line.split_whitespace().take(5).collect::<Vec<_>>()
                == ["sum", "programs", "Sum", "of", "a"]),
        "{}",
        listed.stdout()
    );
}

#[test]
fn a_kattis_output_validator_decides_outputs() {
    let dir = Dir::new();
    let validator = "\
import sys
answer = int(open(sys.argv[2]).read())
got = sys.stdin.read().split()
if len(got) != 1 or got[0].lstrip('-').isdigit() is False or int(got[0]) != answer:
    open(sys.argv[3] + 'judgemessage.txt', 'w').write(f'expected {answer}, got {\" \".join(got)}')
    sys.exit(43)
sys.exit(42)
";
    sum_package(
        &dir,
        "kattis-sum",
        "kind = \"kattis\"\nprogram = \"output_validator.py\"",
        Some(("output_validator.py", validator)),
    );
    judge(
        &dir,
        &[
            "gen",
            "kattis-sum",
            "--seed",
            "1",
            "--count",
            "2",
            "--out",
            "gen",
        ],
    )
    .expect_code(0);
    judge(&dir, &["validate", "kattis-sum", "gen/001.in"]).expect_code(0);
    let run = judge(
        &dir,
        &[
            "run",
            "kattis-sum",
            "right.py",
            "off_by_one.py",
            "--random",
            "2",
        ],
    );
    run.expect_code(1);
    let out = run.stdout();
    assert!(
        out.contains("kattis-sum right.py (python): AC 3/3"),
        "{out}"
    );
    assert!(
        out.contains("kattis-sum off_by_one.py (python): WA 0/3"),
        "{out}"
    );
    assert!(out.contains("expected 6, got 7"), "{out}");
    dir.create("seven", "7\n");
    let check = judge(
        &dir,
        &[
            "check",
            "kattis-sum",
            "problems/kattis-sum/tests/sample.in",
            "seven",
        ],
    );
    check.expect_code(1);
    assert_eq!(check.stdout(), "WA expected 6, got 7\n");
}

#[test]
fn the_float_checker_accepts_within_its_tolerance() {
    let dir = Dir::new();
    let manifest = format!(
        "title = \"Average\"\norigin = \"judge tests\"\nprofiles = [\"any\"]\n\
         reference = \"reference.py\"\ngenerator = \"generator.py\"\n{LIMITS}\
         [checker]\nkind = \"float\"\nabsolute-tolerance = 1e-3\nrelative-tolerance = 1e-3\n[tests]\nseed = 1\n"
    );
    PackageBuilder::ours(&dir, "problems/average")
        .manifest(&manifest)
        .file(
            "reference.py",
            "xs = list(map(float, open(0).read().split()))\nprint(f'{sum(xs) / len(xs):.9f}')\n",
        )
        .file(
            "generator.py",
            "import random, sys\nrng = random.Random(int(sys.argv[1]))\nprint(*[rng.randint(1, 100) for _ in range(7)])\n",
        )
        .test("sample", "1 2 2\n", "1.666666667\n")
        .build();
    dir.create(
        "rounded.py",
        "xs = list(map(float, input().split()))\nprint(round(sum(xs) / len(xs), 4))\n",
    );
    dir.create(
        "truncated.py",
        "xs = list(map(int, input().split()))\nprint(sum(xs) // len(xs))\n",
    );
    judge(&dir, &["gen", "average", "--count", "3", "--out", "gen"]).expect_code(0);
    let run = judge(
        &dir,
        &[
            "run",
            "average",
            "rounded.py",
            "truncated.py",
            "--random",
            "3",
        ],
    );
    run.expect_code(1);
    let out = run.stdout();
    assert!(out.contains("average rounded.py (python): AC 4/4"), "{out}");
    assert!(out.contains("average truncated.py (python): WA"), "{out}");
    assert!(
        out.contains("token 1: expected 1.666666667, got 1 (difference"),
        "{out}"
    );
}

/// A `judge check` of the sum package with a checker `check.py` that
/// misbehaves as `script` says.
fn faulty_check(script: &str, tool_limit: bool) -> Run {
    let dir = Dir::new();
    sum_package(
        &dir,
        "faulty",
        "kind = \"testlib\"\nprogram = \"check.py\"",
        Some(("check.py", script)),
    );
    if tool_limit {
        let manifest = dir.read("problems/faulty/problem.toml").replace(
            "output-limit-kib = 64\n",
            "output-limit-kib = 64\ntool-time-limit-ms = 500\n",
        );
        dir.create("problems/faulty/problem.toml", manifest);
    }
    dir.create("six", "6\n");
    judge(
        &dir,
        &["check", "faulty", "problems/faulty/tests/sample.in", "six"],
    )
}

#[test]
fn checker_faults_are_judge_errors_naming_the_checker() {
    let cases = [
        (
            "import os\nos.abort()\n",
            false,
            "checker `check.py` was killed by signal 6",
        ),
        (
            "import sys\nprint('confused', file=sys.stderr)\nsys.exit(5)\n",
            false,
            "checker `check.py` exited with code 5, which the testlib protocol does not define",
        ),
        // Exit 7 is testlib's points (issue #29): its message must start
        // with them.
        (
            "import sys\nprint('confused', file=sys.stderr)\nsys.exit(7)\n",
            false,
            "checker `check.py` exited with code 7 (points) but its message does not start with \
             a score of at least 0: confused",
        ),
        (
            "pass\n",
            false,
            "checker `check.py` exited with code 0 but wrote no message on stderr",
        ),
        (
            "import time\ntime.sleep(60)\n",
            true,
            "checker `check.py` timed out",
        ),
        (
            "while True:\n    pass\n",
            true,
            "checker `check.py` timed out",
        ),
        (
            "import sys\nsys.stderr.write('x' * 200000)\nsys.exit(1)\n",
            false,
            "checker `check.py` wrote a message of",
        ),
        (
            "import sys\nprint('cannot read the answer', file=sys.stderr)\nsys.exit(3)\n",
            false,
            "checker `check.py` reported a failure (exit code 3): cannot read the answer",
        ),
    ];
    for (script, tool_limit, expected) in cases {
        let check = faulty_check(script, tool_limit);
        check.expect_code(3);
        assert!(
            check.stdout().starts_with("JE "),
            "{script}: {}",
            check.stdout()
        );
        assert!(
            check.stderr().contains(expected),
            "{script}: {}",
            check.stderr()
        );
        assert!(
            check.stderr().len() < 8000,
            "{script}: the message is not cut"
        );
    }
}

#[test]
fn a_checker_fault_during_a_run_is_je_not_a_verdict_on_the_submission() {
    let dir = Dir::new();
    sum_package(
        &dir,
        "faulty",
        "kind = \"testlib\"\nprogram = \"check.py\"",
        Some(("check.py", "import sys\nsys.exit(7)\n")),
    );
    let run = judge(&dir, &["run", "faulty", "right.py", "--random", "0"]);
    run.expect_code(3);
    assert!(run.stdout().contains("JE"), "{}", run.stdout());
    assert!(
        run.stdout()
            .contains("checker `check.py` exited with code 7"),
        "{}",
        run.stdout()
    );
}

#[test]
fn a_generator_that_is_not_reproducible_is_refused_naming_the_seed() {
    let dir = Dir::new();
    sum_package(&dir, "flaky", "kind = \"tokens\"", None);
    dir.create(
        "problems/flaky/generator.py",
        "import os\nn = 1 + os.urandom(1)[0] % 8\nprint(n)\nprint(*[os.urandom(1)[0] % 9 for _ in range(n)])\n",
    );
    let run = judge(&dir, &["gen", "flaky", "--seed", "3"]);
    run.expect_code(3);
    assert!(
        run.stderr()
            .contains("generator `generator.py` is not reproducible: seed "),
        "{}",
        run.stderr()
    );
    assert!(
        run.stderr().contains("(profile `small`)"),
        "{}",
        run.stderr()
    );
}

/// A name, a way to spoil the sum package, the error expected.
type BadCase<'a> = (&'a str, &'a dyn Fn(&Dir), &'a str);

#[test]
fn bad_packages_are_refused_with_file_and_line() {
    let cases: [BadCase; 6] = [
        (
            "missing reference",
            &|dir| {
                let manifest = sum_manifest("kind = \"tokens\"")
                    .replace("reference = \"reference.py\"\n", "");
                dir.create("problems/bad/problem.toml", manifest);
            },
            "problem.toml`: `reference`: a package with a generator needs a reference solution",
        ),
        (
            "reference file missing",
            &|dir| {
                let manifest =
                    sum_manifest("kind = \"tokens\"").replace("reference.py", "solution.py");
                dir.create("problems/bad/problem.toml", manifest);
            },
            "problem.toml`: line 4: `reference`: `solution.py` is not a file in the package",
        ),
        (
            "checker in an unknown language",
            &|dir| {
                dir.create("problems/bad/problem.toml", sum_manifest("kind = \"testlib\"\nprogram = \"check.zig\""));
                dir.create("problems/bad/check.zig", "pub fn main() void {}\n");
            },
            "problem.toml`: line 14: `checker.program`: `check.zig` is in no configured language (extension `zig`)",
        ),
        (
            "checker in a language whose compiler is missing",
            &|dir| {
                dir.create("problems/bad/problem.toml", sum_manifest("kind = \"testlib\"\nprogram = \"check.zz\""));
                dir.create("problems/bad/check.zz", "main\n");
                dir.create("judge.toml", "[languages.zz]\nextensions = [\"zz\"]\ncompile = [\"zz-compiler-not-installed\", \"{source}\"]\nrun = [\"{executable}\"]\n");
            },
            "problem.toml`: line 14: `checker.program`: `check.zz` cannot run here: language `zz`: the compiler `zz-compiler-not-installed` is not installed",
        ),
        (
            "a test without its answer",
            &|dir| {
                dir.create("problems/bad/tests/lonely.in", "1\n5\n");
            },
            "lonely.in`: `answer`: the test has no answer `lonely.ans` beside it",
        ),
        (
            "unsupported key",
            &|dir| {
                let manifest = sum_manifest("kind = \"tokens\"").replace("[tests]", "[tests]\nseeds = 2");
                dir.create("problems/bad/problem.toml", manifest);
            },
            "problem.toml`: line 15, column 1: unknown field `seeds`",
        ),
    ];
    for (name, spoil, expected) in cases {
        let dir = Dir::new();
        sum_package(&dir, "bad", "kind = \"tokens\"", None);
        spoil(&dir);
        let run = judge(&dir, &["run", "bad", "right.py"]);
        run.expect_code(2);
        assert!(run.stderr().contains(expected), "{name}: {}", run.stderr());
        assert!(run.stdout().is_empty(), "{name}: nothing is graded");
    }
}

#[test]
fn stress_shrinks_a_package_without_a_shrinker_by_lines_and_tokens() {
    let dir = Dir::new();
    let manifest = format!(
        "title = \"Largest\"\norigin = \"judge tests\"\nprofiles = [\"any\"]\n\
         reference = \"reference.py\"\ngenerator = \"generator.py\"\n\
         [validator]\nprogram = \"validator.py\"\nexit-codes = \"kattis\"\n{LIMITS}[tests]\nseed = 1\n"
    );
    PackageBuilder::ours(&dir, "problems/largest")
        .manifest(&manifest)
        .file(
            "reference.py",
            "print(max(map(int, open(0).read().split())))\n",
        )
        .file(
            "generator.py",
            "import random, sys\nrng = random.Random(int(sys.argv[1]))\n\
             for _ in range(rng.randint(3, 6)):\n    print(*[rng.randint(-50, 50) for _ in range(rng.randint(2, 5))])\n",
        )
        .file(
            "validator.py",
            "import sys\ntext = sys.stdin.read()\n\
             ok = text.endswith('\\n') and all(line.split() and all(t.lstrip('-').isdigit() for t in line.split()) for line in text.split('\\n')[:-1])\n\
             sys.exit(42 if ok else 43)\n",
        )
        .build();
    // Wrong whenever a negative number is in the input.
    dir.create(
        "negative_blind.py",
        "xs = list(map(int, open(0).read().split()))\nprint(max(xs) if min(xs) >= 0 else max(xs) + 1)\n",
    );
    let run = judge(
        &dir,
        &["stress", "largest", "negative_blind.py", "--seed", "1"],
    );
    run.expect_code(1);
    let smallest = run.stdout();
    assert!(run.stderr().contains("shrunk from"), "{}", run.stderr());
    assert_eq!(smallest.lines().count(), 1, "{smallest}");
    assert_eq!(smallest.split_whitespace().count(), 1, "{smallest}");
    assert!(smallest.trim().starts_with('-'), "{smallest}");
    dir.create("smallest.in", &smallest);
    judge(&dir, &["validate", "largest", "smallest.in"]).expect_code(0);
}
