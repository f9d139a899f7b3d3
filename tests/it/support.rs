//! Test support: a temporary directory per test and a `judge` command that
//! runs in it (the shape of ripgrep's `Dir` + `TestCommand`).

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Mutex;

/// A temporary directory, removed when dropped.
pub struct Dir {
    root: tempfile::TempDir,
}

impl Dir {
    pub fn new() -> Dir {
        Dir {
            root: tempfile::tempdir().expect("a temporary directory"),
        }
    }

    pub fn path(&self) -> &Path {
        self.root.path()
    }

    /// Writes `contents` to `name` (creating parent folders) and returns its path.
    pub fn create(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.root.path().join(name);
        if let Some(parent) = path.parent() {
            fs_err::create_dir_all(parent).unwrap();
        }
        fs_err::write(&path, contents).unwrap();
        path
    }

    pub fn read(&self, name: &str) -> String {
        fs_err::read_to_string(self.root.path().join(name)).unwrap()
    }

    /// `judge ARGS...` with this directory as the working directory.
    pub fn judge(&self, args: &[&str]) -> Run {
        let mut command = assert_cmd::cargo::cargo_bin_cmd!("judge");
        command.current_dir(self.root.path()).args(args);
        command.env_remove("NO_COLOR");
        Run {
            args: args.iter().map(|arg| (*arg).to_owned()).collect(),
            output: command.output().expect("judge runs"),
        }
    }

    /// `judge grade --package PACKAGE` in two shards (`shard-1.json`,
    /// `shard-2.json`, each exiting 0), then `judge merge` of them into
    /// `merged.json`: the merge's run.
    pub fn grade_package_in_halves(&self, package: &str) -> Run {
        for shard in ["1", "2"] {
            let file = format!("shard-{shard}.json");
            let shard = format!("{shard}/2");
            let args = [
                "grade",
                "--package",
                package,
                "--shard",
                &shard,
                "--json",
                &file,
            ];
            self.judge(&args).expect_code(0);
        }
        self.judge(&["merge", "shard-1.json", "shard-2.json", "-o", "merged.json"])
    }

    /// `judge ARGS...` with `env` added to its environment.
    pub fn judge_env(&self, args: &[&str], env: &[(&str, &str)]) -> Run {
        let mut command = assert_cmd::cargo::cargo_bin_cmd!("judge");
        command.current_dir(self.root.path()).args(args);
        command.env_remove("NO_COLOR");
        command.envs(env.iter().copied());
        Run {
            args: args.iter().map(|arg| (*arg).to_owned()).collect(),
            output: command.output().expect("judge runs"),
        }
    }

    /// `judge ARGS...` with `stdin` on standard input.
    pub fn judge_stdin(&self, args: &[&str], stdin: &str) -> Run {
        let mut command = assert_cmd::cargo::cargo_bin_cmd!("judge");
        command
            .current_dir(self.root.path())
            .args(args)
            .write_stdin(stdin.to_owned());
        Run {
            args: args.iter().map(|arg| (*arg).to_owned()).collect(),
            output: command.output().expect("judge runs"),
        }
    }
}

impl Dir {
    /// `judge ARGS...` whose reader of stdout goes away at once: the pipe's
    /// read end is closed right after the spawn, so every write to stdout
    /// meets EPIPE. Returns the exit code and stderr.
    pub fn judge_closed_stdout(&self, args: &[&str]) -> (i32, String) {
        use std::io::Read as _;
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("judge"))
            .current_dir(self.root.path())
            .args(args)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("judge starts");
        drop(child.stdout.take());
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        let status = child.wait().unwrap();
        (status.code().unwrap_or(-1), stderr)
    }
}

/// Where a package keeps its manifest and its tests.
#[derive(Clone, Copy)]
enum PackageKind {
    /// Ours: `problem.toml`, tests as `tests/NAME.in` and `tests/NAME.ans`.
    Ours,
    /// Kattis: `problem.yaml`, tests as `data/NAME.in` and `data/NAME.ans`.
    Kattis,
}

/// A problem package that [`PackageBuilder::build`] writes under `ROOT` of
/// a [`Dir`]: one of ours or a Kattis one, the kind saying where its
/// manifest and its tests go. Any other file is named by its path in the
/// package; nothing is written before `build`, which refuses a path given
/// twice (a setup that overwrites itself says one thing and tests another).
///
/// ```ignore
/// PackageBuilder::kattis(&dir, "sum")
///     .manifest("name: Sum\n")
///     .test("sample/1", "1 2\n", "3\n")
///     .file("input_validators/validate.py", VALIDATOR)
///     .submission("accepted/sum.py", SUM)
///     .build();
/// ```
#[must_use = "nothing is written before `build`"]
pub struct PackageBuilder<'a> {
    dir: &'a Dir,
    root: String,
    kind: PackageKind,
    /// Path in the package, contents, and whether it is executable (0755).
    files: Vec<(String, Vec<u8>, bool)>,
}

impl<'a> PackageBuilder<'a> {
    /// A package of ours (`problem.toml`, `tests/`) at `dir/root`.
    pub fn ours(dir: &'a Dir, root: &str) -> Self {
        Self::new(dir, root, PackageKind::Ours)
    }

    /// A Kattis package (`problem.yaml`, `data/`) at `dir/root`.
    pub fn kattis(dir: &'a Dir, root: &str) -> Self {
        Self::new(dir, root, PackageKind::Kattis)
    }

    fn new(dir: &'a Dir, root: &str, kind: PackageKind) -> Self {
        PackageBuilder {
            dir,
            root: root.to_owned(),
            kind,
            files: Vec::new(),
        }
    }

    /// The manifest: `problem.toml` of ours, `problem.yaml` of a Kattis one.
    pub fn manifest(self, text: impl AsRef<[u8]>) -> Self {
        let name = match self.kind {
            PackageKind::Ours => "problem.toml",
            PackageKind::Kattis => "problem.yaml",
        };
        self.file(name, text)
    }

    /// The test `name` (`sample/1` in a Kattis package, `a-1` in ours): its
    /// `.in` and its `.ans`.
    pub fn test(self, name: &str, input: impl AsRef<[u8]>, answer: impl AsRef<[u8]>) -> Self {
        let folder = match self.kind {
            PackageKind::Ours => "tests",
            PackageKind::Kattis => "data",
        };
        self.file(&format!("{folder}/{name}.in"), input)
            .file(&format!("{folder}/{name}.ans"), answer)
    }

    /// The example `submissions/PATH` (`accepted/sum.py`).
    pub fn submission(self, path: &str, text: impl AsRef<[u8]>) -> Self {
        self.file(&format!("submissions/{path}"), text)
    }

    /// The file `path` of the package.
    pub fn file(self, path: &str, text: impl AsRef<[u8]>) -> Self {
        self.add(path, text.as_ref(), false)
    }

    /// Every `(path, text)` of `files`, as [`file`](Self::file) writes one.
    pub fn files(self, files: &[(&str, &str)]) -> Self {
        files
            .iter()
            .fold(self, |package, (path, text)| package.file(path, text))
    }

    /// The file `path` of the package, executable by all (0755): a `build`
    /// or `run` script.
    pub fn script(self, path: &str, text: impl AsRef<[u8]>) -> Self {
        self.add(path, text.as_ref(), true)
    }

    fn add(mut self, path: &str, text: &[u8], executable: bool) -> Self {
        self.files
            .push((path.to_owned(), text.to_vec(), executable));
        self
    }

    /// Writes every file, creating folders, and returns the package's path.
    pub fn build(self) -> PathBuf {
        let mut seen = std::collections::HashSet::new();
        for (path, text, executable) in &self.files {
            assert!(
                seen.insert(path),
                "`{}/{path}` is given twice to one package",
                self.root
            );
            let written = self.dir.create(&format!("{}/{path}", self.root), text);
            if *executable {
                fs_err::set_permissions(&written, std::fs::Permissions::from_mode(0o755)).unwrap();
            }
        }
        self.dir.path().join(&self.root)
    }
}

/// A Kattis package at `dir/root` whose one test, `secret/hello`, answers
/// an empty line with `Hello World!`, with `problem_yaml` and the accepted
/// `exact.py`: more may be added before it is built.
pub fn hello_world_package<'a>(dir: &'a Dir, root: &str, problem_yaml: &str) -> PackageBuilder<'a> {
    PackageBuilder::kattis(dir, root)
        .manifest(problem_yaml)
        .test("secret/hello", "\n", "Hello World!\n")
        .submission("accepted/exact.py", "print('Hello World!')\n")
}

/// A package of ours at `dir/root`, "Triangle sums" (`n` in, `1 + ... + n`
/// out), with its reference and two groups: `small` (30 points,
/// pass-fail: `a-1`, `a-2`) and `large` (70, a share per test: `b-1`, and
/// `b-2`, whose sum needs more than 32 bits).
pub fn triangle_sums_package<'a>(dir: &'a Dir, root: &str) -> PackageBuilder<'a> {
    let mut package = PackageBuilder::ours(dir, root)
        .manifest(
            "title = \"Triangle sums\"\norigin = \"judge tests\"\nprofiles = [\"data\"]\n\
             reference = \"reference.py\"\n\
             [limits]\ntime-limit-ms = 2000\nmemory-limit-mib = 256\noutput-limit-kib = 64\n\
             [tests]\nseed = 1\n\
             [[groups]]\nname = \"small\"\npoints = 30\ntests = \"a-*\"\n\
             [[groups]]\nname = \"large\"\npoints = 70\ntests = \"b-*\"\naggregation = \"sum\"\n",
        )
        .file(
            "reference.py",
            "n = int(input())\nprint(n * (n + 1) // 2)\n",
        );
    for (name, n) in [
        ("a-1", 10u64),
        ("a-2", 1000),
        ("b-1", 100_000),
        ("b-2", 5_000_000_000),
    ] {
        let sum = u128::from(n) * (u128::from(n) + 1) / 2;
        package = package.test(name, format!("{n}\n"), format!("{sum}\n"));
    }
    package
}

/// The finished process, with failure messages that show everything.
pub struct Run {
    args: Vec<String>,
    pub output: Output,
}

impl Run {
    /// The run of `judge ARGS` that gave `output` (a command built by hand).
    pub fn new(args: &[&str], output: Output) -> Run {
        Run {
            args: args.iter().map(|arg| (*arg).to_owned()).collect(),
            output,
        }
    }

    pub fn code(&self) -> i32 {
        self.output.status.code().unwrap_or(-1)
    }

    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.output.stdout).into_owned()
    }

    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.output.stderr).into_owned()
    }

    /// Asserts the exit code, showing the command and both streams if wrong.
    #[track_caller]
    pub fn expect_code(&self, code: i32) -> &Self {
        assert_eq!(
            self.code(),
            code,
            "\njudge {}\n--- exit code {} (expected {code})\n--- stdout\n{}\n--- stderr\n{}\n",
            self.args.join(" "),
            self.code(),
            self.stdout(),
            self.stderr()
        );
        self
    }

    /// Exit code, stdout and stderr together, for snapshots.
    pub fn transcript(&self) -> String {
        format!(
            "exit code: {}\n----- stdout -----\n{}----- stderr -----\n{}",
            self.code(),
            self.stdout(),
            self.stderr()
        )
    }
}

/// The repository root (where `problems/` and `submissions/` are).
pub fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The checked-in JSON Schema of the JSON report (`docs/report.schema.json`).
pub fn report_schema() -> serde_json::Value {
    let text = fs_err::read_to_string(repository().join("docs/report.schema.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// A JSON report the judge wrote (`run`, `grade`, `merge`), parsed, after
/// checking that it validates against `docs/report.schema.json`.
pub fn report(text: &str) -> serde_json::Value {
    let report: serde_json::Value = serde_json::from_str(text).unwrap();
    let schema = report_schema();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&report)
        .map(|error| format!("{} at {}", error, error.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "the report does not validate against docs/report.schema.json:\n{}\n{}",
        errors.join("\n"),
        text.chars().take(2000).collect::<String>()
    );
    report
}

/// Whether the tests run with effective uid 0 (`/proc/self/status`): the
/// tests that need root are `#[ignore]`d and check it at run time.
pub fn is_root() -> bool {
    fs_err::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .any(|line| line.starts_with("Uid:") && line.split_whitespace().nth(2) == Some("0"))
}

/// Fails the test, saying `why` it needs root, when it does not run as
/// root. The tests that call it are `#[ignore]`d (so a run as another
/// user counts them as ignored, never as passed) and CI, which runs as
/// root, runs them with `cargo test --test it -- --ignored`.
#[track_caller]
pub fn require_root(why: &str) {
    assert!(
        is_root(),
        "needs root: {why}; run as root: `cargo test --test it -- --ignored`"
    );
}

/// Processes whose command line mentions `needle` (a run's workspace,
/// its TMPDIR).
/// Each thread is read, not only the thread-group leader: a process whose
/// main thread has exited shows an empty command line for its leader (a
/// zombie) while its other threads run on.
pub fn processes_mentioning(needle: &Path) -> Vec<String> {
    let needle = needle.to_string_lossy().into_owned();
    let mut found = Vec::new();
    for entry in fs_err::read_dir("/proc").unwrap().filter_map(Result::ok) {
        let Ok(tasks) = fs_err::read_dir(entry.path().join("task")) else {
            continue;
        };
        for task in tasks.filter_map(Result::ok) {
            let Ok(cmdline) = fs_err::read(task.path().join("cmdline")) else {
                continue;
            };
            let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if text.contains(&needle) {
                found.push(format!(
                    "{} (thread {}): {text}",
                    entry.file_name().to_string_lossy(),
                    task.file_name().to_string_lossy()
                ));
                break;
            }
        }
    }
    found
}

/// Fields of a JSON report that follow the machine's load, not the work
/// graded: the measured times and memory, whether a test was re-run after
/// reaching only its wall-clock limit (`rerun`), how long it waited for a
/// CPU (`cpu_wait_ms`), and the warnings of verdicts close to the time
/// limit (`warnings`).
pub const LOAD_DEPENDENT: &[&str] = &[
    "time_ms",
    "wall_ms",
    "memory_kib",
    "rerun",
    "cpu_wait_ms",
    "warnings",
];

/// `report` with every [`LOAD_DEPENDENT`] field, and every field named in
/// `also`, made stable at any depth: a measurement present becomes `null`
/// (so a snapshot still shows it is there), `rerun`, `cpu_wait_ms`, `warnings` and the
/// `also` fields are removed. The one way tests compare reports.
pub fn without_load(mut report: serde_json::Value, also: &[&str]) -> serde_json::Value {
    fn strip(value: &mut serde_json::Value, also: &[&str]) {
        match value {
            serde_json::Value::Object(map) => {
                for key in ["time_ms", "wall_ms", "memory_kib"] {
                    if let Some(field) = map.get_mut(key) {
                        *field = serde_json::Value::Null;
                    }
                }
                for key in LOAD_DEPENDENT.iter().skip(3).chain(also) {
                    map.remove(*key);
                }
                map.values_mut().for_each(|value| strip(value, also));
            }
            serde_json::Value::Array(items) => {
                items.iter_mut().for_each(|value| strip(value, also));
            }
            _ => {}
        }
    }
    strip(&mut report, also);
    report
}

/// The line of `submission` in a `grade --package` table.
pub fn line_of<'a>(out: &'a str, submission: &str) -> &'a str {
    out.lines()
        .find(|line| line.contains(submission))
        .unwrap_or_else(|| panic!("no line for {submission}: {out}"))
}

/// Asserts that each `(submission, verdict)` of a `grade --package` table
/// got its folder's verdict (`ok ...: TLE ...`).
pub fn assert_folder_verdicts(out: &str, expected: &[(&str, &str)]) {
    for (submission, verdict) in expected {
        let line = line_of(out, submission);
        assert!(
            line.starts_with("ok ") && line.contains(&format!(": {verdict} ")),
            "{line}"
        );
    }
}

/// A teacher's compiler wrapper `course/bin/cc-wrapper` that runs `gcc`
/// (`elf`: a compiled program, else a shell script), mode 0755 with its
/// folders, and a judge.toml in `judge_toml_dir` whose language `wrapped`
/// (extension `.wc`) compiles C through it.
pub fn compiler_wrapper(course: &Path, judge_toml_dir: &Path, elf: bool) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let mode = |path: &Path, mode: u32| {
        fs_err::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    };
    let bin = course.join("bin");
    fs_err::create_dir_all(&bin).unwrap();
    mode(course, 0o755);
    mode(&bin, 0o755);
    let wrapper = bin.join("cc-wrapper");
    if elf {
        let wrapper_source = bin.join("wrapper.c");
        fs_err::write(
            &wrapper_source,
            "#include <unistd.h>\nint main(int argc, char **argv) { (void)argc; argv[0] = \
             \"gcc\"; execvp(\"gcc\", argv); return 127; }\n",
        )
        .unwrap();
        let built = std::process::Command::new("gcc")
            .arg("-o")
            .arg(&wrapper)
            .arg(&wrapper_source)
            .status()
            .expect("gcc runs");
        assert!(built.success(), "gcc failed to build the wrapper");
        fs_err::remove_file(&wrapper_source).unwrap();
    } else {
        fs_err::write(&wrapper, "#!/bin/sh\nexec gcc \"$@\"\n").unwrap();
    }
    mode(&wrapper, 0o755);
    fs_err::write(
        judge_toml_dir.join("judge.toml"),
        format!(
            "random-tests = 0\n[languages.wrapped]\nextensions = [\"wc\"]\ncompile = [\"{}\", \
             \"-x\", \"c\", \"-o\", \"{{executable}}\", \"{{source}}\"]\nrun = [\"{{executable}}\"]\n",
            wrapper.display()
        ),
    )
    .unwrap();
    wrapper
}

/// A C program (for [`compiler_wrapper`]'s `wrapped` language) that prints
/// the file at `embedded` as it was at compile time (`.incbin`): AC only
/// when the compile could read it.
pub fn embedding_program(embedded: &Path) -> String {
    format!(
        r#"#include <stdio.h>
__asm__(".section .rodata\n.global blob\nblob:\n.incbin \"{file}\"\n.byte 0\n.text\n");
extern const char blob[];
int main(void) {{ fputs(blob, stdout); return 0; }}
"#,
        file = embedded.display()
    )
}

/// Makes `path` readable by every user (0755 for a folder, 0644 for a
/// file), as a course's files usually are: the sandbox, not the file
/// mode, must keep a run from them.
pub fn readable_by_all(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let mode = if path.is_dir() { 0o755 } else { 0o644 };
    fs_err::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

// Running the judge as an ordinary user, in a folder anyone may enter (the
// tests of what a run or a user may reach).

/// The uid and gid of an ordinary user made for these tests (`useradd`),
/// created once.
pub(crate) fn ordinary_user() -> (u32, u32) {
    static MADE: Mutex<Option<(u32, u32)>> = Mutex::new(None);
    let mut made = MADE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(ids) = *made {
        return ids;
    }
    let name = "judge-redteam";
    let exists = Command::new("id")
        .args(["-u", name])
        .output()
        .unwrap()
        .status
        .success();
    if !exists {
        let status = Command::new("useradd")
            .args([
                "--system",
                "--no-create-home",
                "--shell",
                "/bin/false",
                name,
            ])
            .status()
            .expect("useradd runs");
        assert!(status.success(), "useradd {name} failed");
    }
    let id = |flag: &str| -> u32 {
        let output = Command::new("id").args([flag, name]).output().unwrap();
        String::from_utf8_lossy(&output.stdout)
            .trim()
            .parse()
            .unwrap()
    };
    let ids = (id("-u"), id("-g"));
    *made = Some(ids);
    ids
}

/// A folder anyone may enter, for a judge run as an ordinary user.
pub(crate) fn open_dir() -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix("judge-redteam-")
        .tempdir_in("/tmp")
        .unwrap();
    fs_err::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    dir
}

/// Writes a C source named `name` into `dir`, readable by anyone.
pub(crate) fn source(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    fs_err::write(&path, text).unwrap();
    fs_err::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    path
}

/// The hostile fixture `name` (`tests/fixtures/hostile/`), copied into
/// `dir` as [`source`] writes one.
pub(crate) fn hostile_source(dir: &Path, name: &str) -> PathBuf {
    let text =
        fs_err::read_to_string(repository().join("tests/fixtures/hostile").join(name)).unwrap();
    source(dir, name, &text)
}

/// The rooks sample test, copied into `dir/tests` (readable by anyone).
pub(crate) fn rooks_tests(dir: &Path) -> PathBuf {
    let tests = dir.join("tests");
    fs_err::create_dir(&tests).unwrap();
    let repository = crate::support::repository();
    for name in ["sample-1.in", "sample-1.ans"] {
        fs_err::copy(
            repository.join("problems/rooks/tests").join(name),
            tests.join(name),
        )
        .unwrap();
    }
    fs_err::set_permissions(&tests, std::fs::Permissions::from_mode(0o755)).unwrap();
    tests
}

/// `judge ARGS` in `dir` through `sh -c` (so a test can open descriptors
/// for it), as `user` when given (`setpriv`), with `HOME` and `TMPDIR` in
/// `dir`. Returns the exit code, the JSON report and stderr.
pub(crate) fn judge_in(
    dir: &Path,
    judge: &Path,
    user: Option<(u32, u32)>,
    args: &str,
    redirections: &str,
) -> (Option<i32>, serde_json::Value, String) {
    judge_in_env(dir, judge, user, args, redirections, &[])
}

/// [`judge_in`] with more variables in the judge's environment (`PATH`).
pub(crate) fn judge_in_env(
    dir: &Path,
    judge: &Path,
    user: Option<(u32, u32)>,
    args: &str,
    redirections: &str,
    env: &[(&str, &str)],
) -> (Option<i32>, serde_json::Value, String) {
    let mut command = match user {
        Some((uid, gid)) => {
            let mut command = Command::new("setpriv");
            command.args([
                &format!("--reuid={uid}"),
                &format!("--regid={gid}"),
                "--clear-groups",
                "sh",
            ]);
            command
        }
        None => Command::new("sh"),
    };
    let output = command
        .arg("-c")
        .arg(format!(
            "exec '{}' {args} --json report.json {redirections}",
            judge.display()
        ))
        .current_dir(dir)
        .env("HOME", dir)
        .env("TMPDIR", dir)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let report = fs_err::read_to_string(dir.join("report.json"))
        .unwrap_or_else(|_| panic!("no report; stderr:\n{stderr}"));
    (
        output.status.code(),
        serde_json::from_str(&report).unwrap(),
        stderr,
    )
}

/// The verdict of every test of the first submission of a report.
pub(crate) fn test_verdicts(report: &serde_json::Value) -> Vec<String> {
    report["results"][0]["tests"]
        .as_array()
        .unwrap_or_else(|| panic!("{report:#}"))
        .iter()
        .map(|test| test["verdict"].as_str().unwrap().to_owned())
        .collect()
}

/// Copies `tests/fixtures/FIXTURE` into `dir/NAME`: files with their
/// execute bits, symbolic links as the same links.
pub fn copy_fixture(dir: &Dir, fixture: &str, name: &str) {
    let from = repository().join("tests/fixtures").join(fixture);
    for entry in walkdir::WalkDir::new(&from).into_iter().flatten() {
        let relative = entry.path().strip_prefix(&from).unwrap();
        let to = Path::new(name).join(relative);
        if entry.file_type().is_file() {
            let copy = dir.create(&to.to_string_lossy(), fs_err::read(entry.path()).unwrap());
            let mode = entry.metadata().unwrap().permissions().mode();
            fs_err::set_permissions(&copy, std::fs::Permissions::from_mode(mode)).unwrap();
        } else if entry.file_type().is_symlink() {
            let target = fs_err::read_link(entry.path()).unwrap();
            let link = dir.path().join(&to);
            fs_err::create_dir_all(link.parent().unwrap()).unwrap();
            std::os::unix::fs::symlink(target, link).unwrap();
        }
    }
}
