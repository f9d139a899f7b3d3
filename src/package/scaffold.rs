//! `judge new <id>`: a problem package with programs of its own (a "sum
//! of a list" to start from) that `judge validate`s, `gen`s and grades out
//! of the box.

use crate::config::bundled;
use std::path::{Path, PathBuf};

const PROBLEM_TOML: &str = r#"# A problem package (README.md, "Packages with their own programs").
# Use it with `--problems-dir`: `judge run {id} SUBMISSION --problems-dir {dir}`.
title = "{id}"                  # shown by `judge problems`
origin = "written with judge new"  # where the problem comes from
# engine = "rooks"              # instead of the programs below: a built-in problem's code
profiles = ["small", "large"]   # generator profiles; random tests take them in turn
reference = "reference.py"      # the reference solution: answers generated tests
generator = "generator.py"      # `generator.py SEED PROFILE` prints one input; same seed, same bytes

[validator]
program = "validator.py"        # reads an input on stdin
exit-codes = "kattis"           # "kattis": 42 valid, 43 invalid (what Kattis expects); "testlib": 0 valid, else invalid

[limits]
time-limit-ms = 1000            # CPU time of one test (`--time-limit` overrides)
memory-limit-mib = 256          # peak memory of one test (`--memory-limit` overrides)
output-limit-kib = 64           # standard output of one test
# tool-time-limit-ms = 10000    # CPU time of one run of the programs above
# tool-memory-limit-mib = 1024  # memory of one run of the programs above

[checker]
kind = "tokens"                 # tokens, lines, float, case-insensitive, testlib or kattis
# program = "check.cpp"         # the checker program, for kind testlib or kattis
# absolute-tolerance = 1e-6     # float: largest absolute difference accepted
# relative-tolerance = 1e-6     # float: largest difference relative to the answer

[tests]
seed = 1                        # master seed of the fixed generated set in tests/
# generated = [{ profile = "small", count = 5 }]  # what `judge gen --out tests` made
"#;

const STATEMENT: &str = "# {id}\n\nGiven a list of integers, print their sum.\n\n\
## Input\n\nA line with n (1 <= n <= 100), then a line with n integers, each between -1000 and 1000.\n\n\
## Output\n\nOne line with the sum.\n\n## Sample\n\n    3\n    1 2 3\n\ngives `6`.\n";

const REFERENCE: &str = "n = int(input())\nprint(sum(map(int, input().split())))\n";

const GENERATOR: &str = "\
import random
import sys

# Every random choice comes from the seed: the same seed gives the same input.
seed, profile = int(sys.argv[1]), sys.argv[2]
rng = random.Random(seed)
n = rng.randint(1, 5 if profile == 'small' else 100)
print(n)
print(*[rng.randint(-1000, 1000) for _ in range(n)])
";

const VALIDATOR: &str = "\
import sys

# Kattis' exit codes: 42 valid, 43 invalid (with the reason on stderr).
def invalid(reason):
    print(reason, file=sys.stderr)
    sys.exit(43)

lines = sys.stdin.read().split('\\n')
if len(lines) != 3 or lines[2] != '':
    invalid('expected exactly two lines, each ended by a newline')
if not lines[0].isdigit() or not 1 <= int(lines[0]) <= 100:
    invalid(f'line 1: expected n in 1..=100, found {lines[0]!r}')
numbers = lines[1].split(' ')
# A space at an end or a doubled one would read as an extra empty number
# (\"found 4 numbers\" for `1 2 3 `): say what is really wrong.
if '' in numbers:
    invalid(f'line 2: expected numbers separated by single spaces, none at the start or end, found {lines[1]!r}')
if len(numbers) != int(lines[0]):
    invalid(f'line 2: expected {lines[0]} numbers, found {len(numbers)}')
for number in numbers:
    if not number.lstrip('-').isdigit() or not -1000 <= int(number) <= 1000:
        invalid(f'line 2: expected an integer in -1000..=1000, found {number!r}')
sys.exit(42)
";

const WRONG: &str = "n = int(input())\nprint(sum(map(int, input().split())) + 1)\n";

/// Why `judge new` wrote no package, or not all of it.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ScaffoldError {
    /// `dir/<id>` exists: it is never touched (the user's mistake).
    #[error("`{}` already exists", .0.display())]
    Exists(PathBuf),
    /// A file of the package could not be written (the judge failed).
    #[error(transparent)]
    Write(#[from] std::io::Error),
}

/// `judge new`: writes the package `id` into `dir/<id>`, refusing a folder
/// (or file) that exists, and returns what to tell the user
/// ([`written`]).
pub(crate) fn create(dir: &Path, id: &str) -> Result<Vec<String>, ScaffoldError> {
    let root = dir.join(id);
    if root.exists() {
        return Err(ScaffoldError::Exists(root));
    }
    write(&root, id, dir)?;
    Ok(written(&root, id, dir))
}

/// Writes the package `id` into `root` (`dir/<id>`, which must not exist:
/// [`create`] checks), each file with its folders.
fn write(root: &Path, id: &str, dir: &Path) -> std::io::Result<()> {
    let dir = dir.display().to_string();
    let fill = |text: &str| text.replace("{id}", id).replace("{dir}", &dir);
    let files: [(&str, String); 11] = [
        ("problem.toml", fill(PROBLEM_TOML)),
        ("statement.md", fill(STATEMENT)),
        ("reference.py", REFERENCE.to_owned()),
        ("generator.py", GENERATOR.to_owned()),
        ("validator.py", VALIDATOR.to_owned()),
        ("tests/sample-1.in", "3\n1 2 3\n".to_owned()),
        ("tests/sample-1.ans", "6\n".to_owned()),
        ("tests/edges-1.in", "5\n-3 7 0 1000 -1000\n".to_owned()),
        ("tests/edges-1.ans", "4\n".to_owned()),
        ("submissions/accepted/reference.py", REFERENCE.to_owned()),
        ("submissions/wrong_answer/off_by_one.py", WRONG.to_owned()),
    ];
    for (name, contents) in &files {
        let path = root.join(name);
        if let Some(parent) = path.parent() {
            fs_err::create_dir_all(parent)?;
        }
        fs_err::write(&path, contents)?;
    }
    Ok(())
}

/// What `judge new` tells its user after writing `root` (`dir/<id>`): where
/// the package is, the commands to try, and a warning first when `id` is
/// also a built-in package, which this one replaces under `--problems-dir
/// dir`.
fn written(root: &Path, id: &str, dir: &Path) -> Vec<String> {
    let (root, dir) = (root.display(), dir.display());
    let mut lines = Vec::new();
    if bundled::file(&format!("{id}/problem.toml")).is_some() {
        lines.push(format!(
            "warning: `{id}` is also a built-in problem: with `--problems-dir {dir}` the package \
             `{root}` replaces the built-in `{id}` (pick another id to keep both)"
        ));
    }
    lines.push(format!(
        "wrote the package `{id}` in `{root}`; try:\n  judge validate {id} \
         {root}/tests/sample-1.in --problems-dir {dir}\n  judge gen {id} --problems-dir \
         {dir}\n  judge grade --package {root}"
    ));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_package_is_written_once_and_an_existing_folder_is_refused_untouched() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let lines = create(dir.path(), "hello").expect("writes");
        assert!(lines
            .iter()
            .any(|line| line.contains("judge grade --package")));
        assert!(dir.path().join("hello/problem.toml").is_file());
        let kept = dir.path().join("hello/problem.toml");
        fs_err::write(&kept, "kept").expect("writes");
        let again = create(dir.path(), "hello");
        let root = dir.path().join("hello");
        assert!(
            matches!(&again, Err(ScaffoldError::Exists(path)) if *path == root),
            "{again:?}"
        );
        assert_eq!(
            again.map_err(|error| error.to_string()).err(),
            Some(format!("`{}` already exists", root.display()))
        );
        assert_eq!(fs_err::read_to_string(&kept).expect("reads"), "kept");
    }
}
