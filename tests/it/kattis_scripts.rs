//! Issue #34, item 1: Kattis programs that are folders with `build` and
//! `run` scripts (submissions, input validators, output validators,
//! interactors), on `tests/fixtures/kattis/scripts` (the shapes of
//! BAPCtools' test problems: `boolfind`'s output validator built by a
//! `build` that calls `cc` and run by a `run` that finds its binary beside
//! itself, `identity`'s programs with only a `build` that writes `run`, or
//! only a `run`).

use crate::support::{copy_fixture, processes_mentioning, Dir, PackageBuilder};
use std::os::unix::fs::PermissionsExt as _;

/// Copies the fixture `scripts` into `dir/scripts`, execute bits kept.
fn scripts(dir: &Dir) {
    copy_fixture(dir, "kattis/scripts", "scripts");
}

/// Writes an executable script `name` in `dir`.
fn script(dir: &Dir, name: &str, text: &str) {
    let path = dir.create(name, text);
    fs_err::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// See: issue #34, item 1. Every submission of the fixture gets its
/// folder's verdict: folders built by `build` (one writes its `run`, one
/// compiles C++ for its `run`), one with only `run`, a folder without
/// scripts (its language found from its sources) and a plain file; a
/// `build` that fails or makes no `run` is CE naming the script. The input
/// validator is built by `build` and gets the group's
/// `input_validator_args` through `run`; the output validator is only a
/// `run` and gets its `output_validator_args` after the feedback folder
/// (without them it fails, and every test would be a judge error).
#[test]
fn a_package_whose_programs_build_and_run_themselves_grades() {
    let dir = Dir::new();
    scripts(&dir);
    let graded = dir.judge(&["grade", "--package", "scripts", "--json", "report.json"]);
    let out = graded.stdout();
    graded.expect_code(0);
    assert!(
        out.contains("9 of 9 submissions got their folder's verdict; 0 skipped"),
        "{out}"
    );
    crate::support::assert_folder_verdicts(
        &out,
        &[
            ("accepted/twice_build", "AC"),
            ("accepted/twice_cpp", "AC"),
            ("accepted/twice_run", "AC"),
            ("accepted/plain_folder", "AC"),
            ("accepted/twice.py", "AC"),
            ("wrong_answer/thrice_run", "WA"),
            ("time_limit_exceeded/spin_run", "TLE"),
            ("compile_error/failing_build", "CE"),
            ("compile_error/no_run", "CE"),
        ],
    );
    assert!(
        out.contains("thrice_run: WA (folder wrong_answer) on sample/1: expected 8, got 12"),
        "{out}"
    );
    assert!(
        out.contains(
            "no_run: CE (folder compile_error) (CE at compile: \
             `scripts/submissions/compile_error/no_run/build` finished without making `run`"
        ),
        "{out}"
    );
    let report = crate::support::report(&dir.read("report.json"));
    let result = |name: &str| {
        report["results"]
            .as_array()
            .unwrap()
            .iter()
            .find(|result| result["submission"].as_str().unwrap().ends_with(name))
            .unwrap_or_else(|| panic!("no {name} in {report}"))
            .clone()
    };
    let failing = result("failing_build");
    let message = failing["compile"]["message"].as_str().unwrap();
    assert!(
        message.starts_with(
            "`scripts/submissions/compile_error/failing_build/build` exited with code 2\n"
        ) && message.contains("missing dependency: libtwice"),
        "{failing}"
    );
    assert_eq!(result("twice_cpp")["language"], "build/run");
    assert_eq!(result("plain_folder")["language"], "python");
}

/// See: issue #34, item 1. The input validator's `run` gets the group's
/// arguments: an input above `--max 1000` is rejected, naming the file.
#[test]
fn the_input_validator_run_script_gets_the_group_arguments() {
    let dir = Dir::new();
    scripts(&dir);
    dir.create("scripts/data/secret/3.in", "2000\n");
    dir.create("scripts/data/secret/3.ans", "4000\n");
    let graded = dir.judge(&["grade", "--package", "scripts"]);
    assert_ne!(graded.code(), 0);
    assert!(
        graded.stderr().contains(
            "failed to load `scripts/data/secret/3.in`: the validator `bounds` rejected the \
             input (exit code 43)"
        ),
        "{}",
        graded.stderr()
    );
}

/// See: issue #34, item 1. An input validator whose `build` fails, or an
/// output validator whose `build` is not executable, is the package's
/// error naming the script.
#[test]
fn a_validator_that_does_not_build_is_a_package_error_naming_its_script() {
    let dir = Dir::new();
    scripts(&dir);
    script(
        &dir,
        "scripts/input_validators/bounds/build",
        "#!/bin/sh\necho 'cc: not today' >&2\nexit 1\n",
    );
    let graded = dir.judge(&["grade", "--package", "scripts"]);
    let err = graded.stderr();
    assert_ne!(graded.code(), 0, "{err}");
    assert!(
        err.contains(
            "validator `bounds` could not be compiled:\n\
             `scripts/input_validators/bounds/build` exited with code 1\ncc: not today"
        ),
        "{err}"
    );
    let build = dir.path().join("scripts/output_validator/build");
    fs_err::write(&build, "#!/bin/sh\ntrue\n").unwrap();
    fs_err::set_permissions(&build, std::fs::Permissions::from_mode(0o644)).unwrap();
    script(
        &dir,
        "scripts/input_validators/bounds/build",
        "#!/bin/sh\ncc -O1 -o validator validate.c\n",
    );
    // The output validator is built at its first use: each test that
    // needs it is JE with the reason, and the grade is the judge's failure.
    let graded = dir.judge(&["grade", "--package", "scripts"]);
    let out = graded.stdout();
    graded.expect_code(3);
    assert!(
        out.contains(
            "twice.py: JE (folder accepted) on sample/1: checker failure: checker \
             `output_validator` could not be compiled:\n`scripts/output_validator/build` is not \
             executable: set its execute bit (`chmod +x`)"
        ),
        "{out}"
    );
}

/// See: issue #34 (break-it finding 13). An output validator folder that
/// has no program is refused with what is there, not with the list of
/// configured languages (which sent the setter to judge.toml): a `run` one
/// folder too deep (the legacy layout under the 2025-09 name), or only files
/// switched off by `.disabled`.
#[test]
fn an_output_validator_without_a_program_is_refused_naming_what_is_there() {
    let dir = Dir::new();
    scripts(&dir);
    let folder = dir.path().join("scripts/output_validator");
    fs_err::create_dir(folder.join("v")).unwrap();
    fs_err::rename(folder.join("run"), folder.join("v/run")).unwrap();
    let graded = dir.judge(&["grade", "--package", "scripts"]);
    graded.expect_code(2);
    let err = graded.stderr();
    assert!(
        err.contains(
            "`scripts/output_validator`: `program`: holds no source, but `v/run` is a script \
             one folder too deep: the folder itself is the program, so its `build` and `run` \
             belong at its top; move the files of `v/` up into `scripts/output_validator`"
        ),
        "{err}"
    );
    assert!(!err.contains("configured language"), "{err}");

    fs_err::rename(folder.join("v/run"), folder.join("run.disabled")).unwrap();
    fs_err::remove_dir(folder.join("v")).unwrap();
    let graded = dir.judge(&["grade", "--package", "scripts"]);
    graded.expect_code(2);
    let err = graded.stderr();
    assert!(
        err.contains(
            "`scripts/output_validator`: `program`: holds only files switched off by a name \
             ending in `.disabled` (`run.disabled`): rename one to use it"
        ),
        "{err}"
    );
    assert!(!err.contains("configured language"), "{err}");
}

/// See: issue #34, item 1. Hostile `build` scripts are bounded as a
/// compile is, each CE with the reason: one that loops, one that forks
/// without end, one that floods its output. One that tries to write
/// outside its folder (the workspace above it, the package, the host's
/// `/tmp`) writes nothing there, and its program still runs. Nothing is
/// left afterwards: no process, no file in the judge's temporary folder.
#[test]
fn hostile_build_scripts_are_bounded_and_leave_nothing() {
    let dir = Dir::new();
    scripts(&dir);
    let package = fs_err::canonicalize(dir.path().join("scripts")).unwrap();
    let host_tmp = std::env::temp_dir().join(format!(
        "judge-build-escape-{}",
        package.file_name().unwrap().to_string_lossy()
    ));
    // The short compile limit below is for the hostile scripts: the C++
    // compile of `twice_cpp` may need more on a loaded machine.
    fs_err::remove_dir_all(dir.path().join("scripts/submissions/accepted/twice_cpp")).unwrap();
    let sub = |name: &str| format!("scripts/submissions/{name}/build");
    script(
        &dir,
        &sub("compile_error/loops"),
        "#!/bin/sh\nwhile :; do :; done\n",
    );
    script(
        &dir,
        &sub("compile_error/forks"),
        "#!/bin/sh\nwhile :; do (while :; do :; done) & done\n",
    );
    script(&dir, &sub("compile_error/floods"), "#!/bin/sh\nyes flood\n");
    // A `build` that is a folder (found by a break-it review: the copy
    // holds files only, so it was left out and the `run` beside it got
    // AC): CE, as any `build` that is not an executable file.
    dir.create(&sub("compile_error/build_folder/build/notes"), "a folder\n");
    script(
        &dir,
        "scripts/submissions/compile_error/build_folder/run",
        "#!/bin/sh\nread n; echo $((2 * n))\n",
    );
    script(
        &dir,
        &sub("accepted/escapes"),
        &format!(
            "#!/bin/sh\n\
             echo pwned > ../escaped 2>/dev/null\n\
             echo pwned > '{}/escaped' 2>/dev/null\n\
             echo pwned > '{}' 2>/dev/null\n\
             printf '#!/bin/sh\\nread n; echo $((2 * n))\\n' > run\n\
             chmod +x run\n",
            package.display(),
            host_tmp.display()
        ),
    );
    // The judge's temporary folder, to see it emptied.
    let tmp = dir.path().join("tmp");
    fs_err::create_dir(&tmp).unwrap();
    for path in [dir.path(), tmp.as_path()] {
        fs_err::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    dir.create(
        "judge.toml",
        "[limits]\ncompile-time-limit-ms = 2000\nwall-time-factor = 3\n",
    );
    let started = std::time::Instant::now();
    // One job: without root every run is the same user, and the fork
    // bomb's processes would count against a build beside it.
    let graded = dir.judge_env(
        &["grade", "--package", "scripts", "--jobs", "1"],
        &[("TMPDIR", tmp.to_str().unwrap())],
    );
    let out = graded.stdout();
    graded.expect_code(0);
    assert!(started.elapsed().as_secs() < 120, "{:?}", started.elapsed());
    crate::support::assert_folder_verdicts(
        &out,
        &[
            ("compile_error/loops", "CE"),
            ("compile_error/forks", "CE"),
            ("compile_error/floods", "CE"),
            ("compile_error/build_folder", "CE"),
            ("accepted/escapes", "AC"),
        ],
    );
    assert!(
        out.contains(
            "loops: CE (folder compile_error) (CE at compile: \
             `scripts/submissions/compile_error/loops/build` exceeded the time limit (2000 ms)"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "floods: CE (folder compile_error) (CE at compile: \
             `scripts/submissions/compile_error/floods/build`'s output exceeded its limit"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "build_folder: CE (folder compile_error) (CE at compile: \
             `scripts/submissions/compile_error/build_folder/build` is a folder; it must be an \
             executable file"
        ),
        "{out}"
    );
    for escaped in [
        dir.path().join("tmp/escaped"),
        package.join("escaped"),
        host_tmp.clone(),
    ] {
        assert!(!escaped.exists(), "{} was written", escaped.display());
    }
    let left: Vec<_> = fs_err::read_dir(&tmp).unwrap().collect();
    assert!(left.is_empty(), "left in the temporary folder: {left:?}");
    assert_eq!(processes_mentioning(&tmp), Vec::<String>::new());
}

/// See: issue #34, item 1. An interactive problem whose output validator
/// (the interactor) is a C program built by `build` and run by `run`,
/// as BAPCtools' `boolfind`: it talks to the submissions, and its
/// arguments (input, answer, feedback folder) pass through `run`.
#[test]
fn an_interactor_built_by_its_build_script_judges() {
    let dir = Dir::new();
    PackageBuilder::kattis(&dir, "echo")
        .manifest(
            "problem_format_version: 2025-09\nname: Echo twice\ntype: interactive\n\
             uuid: 7c1f2a90-5b3e-4d8a-9f60-2e4b6c8d0a13\nlicense: cc0\nlimits:\n  time_limit: 1\n",
        )
        .test("sample/1", "4\n", "8\n")
        .test("secret/1", "21\n", "42\n")
        .file(
            "input_validators/validate.py",
            "import sys\nsys.exit(42 if sys.stdin.read().strip().isdigit() else 43)\n",
        )
        .file(
            "output_validator/interactor.c",
            "#include <stdio.h>\n\
             int main(int argc, char **argv) {\n\
               long n, want, got;\n\
               FILE *in = fopen(argv[1], \"r\"), *ans = fopen(argv[2], \"r\");\n\
               if (argc < 4 || !in || !ans || fscanf(in, \"%ld\", &n) != 1 || \
             fscanf(ans, \"%ld\", &want) != 1) return 1;\n\
               printf(\"%ld\\n\", n);\n\
               fflush(stdout);\n\
               if (scanf(\"%ld\", &got) != 1 || got != want) return 43;\n\
               return 42;\n\
             }\n",
        )
        .submission("accepted/twice.py", "print(2 * int(input()))\n")
        .submission("wrong_answer/thrice.py", "print(3 * int(input()))\n")
        .script(
            "output_validator/build",
            "#!/bin/sh\ncc -O1 -o interactor interactor.c\n",
        )
        .script(
            "output_validator/run",
            "#!/bin/sh\nexec \"$(dirname \"$0\")/interactor\" \"$@\"\n",
        )
        .script(
            "submissions/accepted/built/build",
            "#!/bin/sh\nprintf '#!/bin/sh\\nread n; echo $((2 * n))\\n' > run\nchmod +x run\n",
        )
        .build();
    let graded = dir.judge(&["grade", "--package", "echo"]);
    let out = graded.stdout();
    graded.expect_code(0);
    crate::support::assert_folder_verdicts(
        &out,
        &[
            ("accepted/twice.py", "AC"),
            ("accepted/built", "AC"),
            ("wrong_answer/thrice.py", "WA"),
        ],
    );
}

/// See: issue #34, item 1. Generators of a `generators.yaml` that are
/// folders with scripts, as BAPCtools' `identity` has them: one whose
/// `build` writes its `run`, one with only a `run`; each gets the case's
/// arguments.
#[test]
fn generators_built_and_run_by_their_scripts_make_their_cases() {
    let dir = Dir::new();
    copy_fixture(&dir, "generators/sums", "sums");
    script(
        &dir,
        "sums/generators/dir_build/build",
        "#!/bin/sh\ncat > run <<PROGRAM\n#!/usr/bin/env python3\nimport sys\n\
         print(sys.argv[1], sys.argv[2])\nPROGRAM\nchmod +x run\n",
    );
    script(
        &dir,
        "sums/generators/dir_run/run",
        "#!/usr/bin/env python3\nimport sys\nprint(sys.argv[1], sys.argv[2])\n",
    );
    let yaml = dir.read("sums/generators/generators.yaml");
    let seeded = "      - seeded: echo.py {seed}\n";
    assert!(yaml.contains(seeded), "{yaml}");
    dir.create(
        "sums/generators/generators.yaml",
        yaml.replacen(
            seeded,
            &format!("{seeded}      - built: dir_build 3 4\n      - ran: dir_run 5 6\n"),
            1,
        ),
    );
    let made = dir.judge(&["gen", "--package", "sums"]);
    made.expect_code(0);
    let case = |pattern: &str| {
        let found: Vec<_> = fs_err::read_dir(dir.path().join("sums/data/secret"))
            .unwrap()
            .filter_map(Result::ok)
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .filter(|name| name.ends_with(&format!("{pattern}.in")))
            .collect();
        assert_eq!(found.len(), 1, "{pattern}: {found:?}");
        dir.read(&format!("sums/data/secret/{}", found[0]))
    };
    assert_eq!(case("built"), "3 4\n");
    assert_eq!(case("ran"), "5 6\n");
}

/// Found by a break-it review of issue #34, item 1: without root, a `build`
/// that leaves a folder it made unreadable (`mkdir d; chmod 000 d`) made
/// the judge leave its whole workspace behind (the tests' inputs, every
/// submission's copy), silently. The workspace is removed whatever a
/// program left in it.
#[test]
#[ignore = "needs root (runs the judge as an ordinary user): cargo test --test it -- --ignored"]
fn as_an_ordinary_user_an_unreadable_folder_a_build_leaves_is_removed() {
    crate::support::require_root("the judge runs as an ordinary user made for the test");
    let user = crate::support::ordinary_user();
    let dir = crate::support::open_dir();
    let folder = dir.path().join("hand-in");
    fs_err::create_dir(&folder).unwrap();
    let build = folder.join("build");
    fs_err::write(
        &build,
        "#!/bin/sh\nprintf '#!/bin/sh\\necho 0\\n' > run\nchmod +x run\n\
         mkdir d sealed\ntouch sealed/f\nchmod 000 d\nchmod 555 sealed\n",
    )
    .unwrap();
    fs_err::set_permissions(&build, std::fs::Permissions::from_mode(0o755)).unwrap();
    fs_err::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (code, report, stderr) = crate::support::judge_in(
        dir.path(),
        assert_cmd::cargo::cargo_bin!("judge"),
        Some(user),
        "run rooks hand-in --random 0",
        "",
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(report["results"][0]["verdict"], "WA", "{report:#}");
    let left: Vec<String> = fs_err::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("judge-"))
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}\n{stderr}");
}

/// See: issue #34. A `run` or `build` the kernel cannot start (a `#!` line
/// with CRLF line ends, no `#!` line, an interpreter that does not exist;
/// and, as before, no execute bit) is CE naming the file in the package
/// and what is wrong; it was a judge error naming a temporary copy.
#[test]
fn a_script_that_cannot_start_is_a_compile_error_naming_it() {
    let dir = Dir::new();
    scripts(&dir);
    let sub = |name: &str| format!("scripts/submissions/compile_error/{name}");
    script(
        &dir,
        &sub("crlf/run"),
        "#!/bin/sh\r\nread n\r\necho $((2 * n))\r\n",
    );
    script(&dir, &sub("no_shebang/run"), "read n\necho $((2 * n))\n");
    script(
        &dir,
        &sub("no_interpreter/build"),
        "#!/no/such/shell\nprintf '#!/bin/sh\\ncat\\n' > run\n",
    );
    let not_executable = dir.create(&sub("not_executable/run"), "#!/bin/sh\ncat\n");
    fs_err::set_permissions(&not_executable, std::fs::Permissions::from_mode(0o644)).unwrap();
    let graded = dir.judge(&["grade", "--package", "scripts"]);
    let out = graded.stdout();
    assert_eq!(graded.code(), 0, "{out}{}", graded.stderr());
    for (name, why) in [
        (
            "crlf",
            "`scripts/submissions/compile_error/crlf/run` cannot start: the `#!` line ends in a carriage return (CRLF line ends)",
        ),
        (
            "no_shebang",
            "`scripts/submissions/compile_error/no_shebang/run` cannot start: it has no `#!` line and is no binary",
        ),
        (
            "no_interpreter",
            "`scripts/submissions/compile_error/no_interpreter/build` cannot start: its `#!` interpreter `/no/such/shell` does not exist here",
        ),
        (
            "not_executable",
            "`scripts/submissions/compile_error/not_executable/run` is not executable",
        ),
    ] {
        let line = crate::support::line_of(&out, &format!("compile_error/{name}"));
        assert!(line.contains(": CE (folder compile_error)"), "{line}");
        assert!(line.contains(why), "{why}\n{line}");
    }
}

/// See: issue #34. A `build` writes its working copy on the host's disk,
/// where only each file was bounded (a review wrote 8 GB in 14 s): all it
/// writes there is now bounded by the compile's file size (512 MiB at
/// least) in total, and a flood of its stderr ends it as one of its stdout
/// does. Both are CE naming the script, and the disk is given back.
#[test]
fn a_build_filling_the_disk_or_flooding_stderr_is_a_compile_error_naming_it() {
    let dir = Dir::new();
    scripts(&dir);
    let sub = |name: &str| format!("scripts/submissions/compile_error/{name}/build");
    // Three files of 300 MiB each, allocated at once, then a long wait:
    // only the quota can end it before the compile's time limit.
    script(
        &dir,
        &sub("fills_disk"),
        "#!/bin/sh\nfor i in 1 2 3; do fallocate -l 300M big$i || head -c 300000000 /dev/zero > big$i; done\nsleep 20\n",
    );
    script(&dir, &sub("floods_stderr"), "#!/bin/sh\nyes flood >&2\n");
    let tmp = dir.path().join("tmp");
    fs_err::create_dir(&tmp).unwrap();
    dir.create("judge.toml", "[limits]\ncompile-time-limit-ms = 20000\n");
    let graded = dir.judge_env(
        &["grade", "--package", "scripts"],
        &[("TMPDIR", tmp.to_str().unwrap())],
    );
    let out = graded.stdout();
    assert_eq!(graded.code(), 0, "{out}{}", graded.stderr());
    let fills = crate::support::line_of(&out, "compile_error/fills_disk");
    assert!(
        fills.contains(
            "CE (folder compile_error) (CE at compile: `scripts/submissions/compile_error/fills_disk/build` wrote more than 512 MiB (or 131072 files) in its working folder"
        ),
        "{fills}"
    );
    let floods = crate::support::line_of(&out, "compile_error/floods_stderr");
    assert!(
        floods.contains(
            "CE (folder compile_error) (CE at compile: `scripts/submissions/compile_error/floods_stderr/build`'s output exceeded its limit"
        ),
        "{floods}"
    );
    assert_eq!(
        fs_err::read_dir(&tmp).unwrap().count(),
        0,
        "the judge's temporary folder is left empty"
    );
}

/// See: issue #34 (break-it, finding 1). A `run` or `build` that is a
/// symbolic link to a file inside the package (setters share one script
/// among submissions) is copied as its target and runs, as the docs say;
/// a link out of the package to a public file is followed, noted once on
/// stderr and run, never noted and then refused; a link out to a file only
/// its owner may read is CE naming the link, and no note says it was read.
#[test]
fn a_build_or_run_script_that_is_a_link_is_copied_as_its_target() {
    use std::os::unix::fs::symlink;
    let dir = Dir::new();
    fs_err::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    scripts(&dir);
    script(
        &dir,
        "scripts/common/run",
        "#!/usr/bin/env python3\nprint(2 * int(input()))\n",
    );
    script(
        &dir,
        "scripts/common/build",
        "#!/bin/sh\nprintf '#!/bin/sh\\nread n\\necho $((2 * n))\\n' > run\nchmod +x run\n",
    );
    script(
        &dir,
        "shared/run",
        "#!/usr/bin/env python3\nprint(2 * int(input()))\n",
    );
    fs_err::set_permissions(
        dir.path().join("shared"),
        std::fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    script(&dir, "private/run", "#!/bin/sh\necho 0\n");
    fs_err::set_permissions(
        dir.path().join("private/run"),
        std::fs::Permissions::from_mode(0o700),
    )
    .unwrap();
    let sub = |name: &str| dir.path().join("scripts/submissions").join(name);
    for (link, target) in [
        ("accepted/linked_run/run", "../../../common/run"),
        ("accepted/linked_build/build", "../../../common/build"),
        ("accepted/linked_out/run", "../../../../shared/run"),
        (
            "compile_error/linked_private/run",
            "../../../../private/run",
        ),
    ] {
        fs_err::create_dir_all(sub(link).parent().unwrap()).unwrap();
        symlink(target, sub(link)).unwrap();
    }
    let graded = dir.judge(&["grade", "--package", "scripts"]);
    let out = graded.stdout();
    let err = graded.stderr();
    assert_eq!(graded.code(), 0, "{}", graded.transcript());
    assert!(
        out.contains("13 of 13 submissions got their folder's verdict"),
        "{out}"
    );
    crate::support::assert_folder_verdicts(
        &out,
        &[
            ("accepted/linked_run", "AC"),
            ("accepted/linked_build", "AC"),
            ("accepted/linked_out", "AC"),
            ("compile_error/linked_private", "CE"),
        ],
    );
    assert!(
        err.contains("linked_out/run` is a symbolic link to `")
            && err.contains("shared/run`, outside the package: its content is read"),
        "{err}"
    );
    assert!(!err.contains("linked_private"), "{err}");
    let private = crate::support::line_of(&out, "compile_error/linked_private");
    assert!(
        private.contains("linked_private/run`: it is a symbolic link (symlink) to `")
            && private.contains("is not readable by every user of this machine"),
        "{private}"
    );
    assert!(!out.contains("is not a regular file"), "{out}");
}
