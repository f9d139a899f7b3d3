//! A package's test data and YAML files are read only when they are
//! regular files of a bounded size (issue #34, break-it findings 5 and 7):
//! a FIFO hung the judge forever, `/dev/zero` was read until memory ran
//! out, and a 6 GiB sparse `.in` or `submissions.yaml` aborted it (exit
//! 134). Each is now refused by name before it is read, exit 2.

use crate::support::{hello_world_package, Dir};

/// A Kattis package `p` with one test and one accepted submission.
pub(crate) fn kattis_package(dir: &Dir) {
    hello_world_package(
        dir,
        "p",
        "problem_format_version: 2025-09\ntype: pass-fail\nname: Hello\n",
    )
    .build();
}

/// A FIFO at `path`, its folders made.
pub(crate) fn mkfifo(path: &std::path::Path) {
    fs_err::create_dir_all(path.parent().unwrap()).unwrap();
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        path,
        rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
    )
    .unwrap();
}

/// `path` as a sparse file of 6 GiB (no disk space taken).
fn sparse(path: &std::path::Path) {
    fs_err::create_dir_all(path.parent().unwrap()).unwrap();
    fs_err::File::create(path)
        .unwrap()
        .set_len(6 << 30)
        .unwrap();
}

fn expect_refusal(dir: &Dir, args: &[&str], expected: &str) {
    let run = dir.judge(args);
    run.expect_code(2);
    assert!(
        run.stderr().contains(expected),
        "{expected}\n{}",
        run.transcript()
    );
}

#[test]
fn refuses_a_fifo_among_a_kattis_packages_tests() {
    let dir = Dir::new();
    kattis_package(&dir);
    mkfifo(&dir.path().join("p/data/secret/x.in"));
    dir.create("p/data/secret/x.ans", "Hello World!\n");
    expect_refusal(
        &dir,
        &["grade", "--package", "p"],
        "`p/data/secret/x.in`: is a FIFO (named pipe), not a regular file",
    );
}

#[test]
fn refuses_a_fifo_as_a_kattis_packages_answer() {
    let dir = Dir::new();
    kattis_package(&dir);
    dir.create("p/data/secret/x.in", "\n");
    mkfifo(&dir.path().join("p/data/secret/x.ans"));
    // Named as what it is, not called missing.
    expect_refusal(
        &dir,
        &["grade", "--package", "p"],
        "`p/data/secret/x.ans`: is a FIFO (named pipe), not a regular file",
    );
}

#[test]
fn refuses_a_fifo_among_a_kattis_packages_invalid_inputs() {
    let dir = Dir::new();
    kattis_package(&dir);
    fs_err::create_dir_all(dir.path().join("p/data/invalid_input")).unwrap();
    mkfifo(&dir.path().join("p/data/invalid_input/bad.in"));
    // Refused by name, not dropped unsaid.
    expect_refusal(
        &dir,
        &["grade", "--package", "p"],
        "`p/data/invalid_input/bad.in`: is a FIFO (named pipe), not a regular file",
    );
}

#[test]
#[ignore = "needs root: mknod makes a character device (a package unpacked by root keeps one)"]
fn refuses_a_character_device_among_a_kattis_packages_tests() {
    crate::support::require_root("mknod makes a character device");
    let dir = Dir::new();
    kattis_package(&dir);
    let path = dir.path().join("p/data/secret/z.in");
    // /dev/zero's numbers (1, 5): read whole, it never ends.
    rustix::fs::mknodat(
        rustix::fs::CWD,
        &path,
        rustix::fs::FileType::CharacterDevice,
        rustix::fs::Mode::RUSR | rustix::fs::Mode::WUSR,
        rustix::fs::makedev(1, 5),
    )
    .unwrap();
    dir.create("p/data/secret/z.ans", "Hello World!\n");
    expect_refusal(
        &dir,
        &["grade", "--package", "p"],
        "`p/data/secret/z.in`: is a character device, not a regular file",
    );
}

#[test]
fn refuses_a_fifo_among_a_problem_toml_packages_tests() {
    let dir = Dir::new();
    dir.judge(&["new", "hello"]).expect_code(0);
    let tests = dir.path().join("problems/hello/tests");
    mkfifo(&tests.join("zz.in"));
    dir.create("problems/hello/tests/zz.ans", "1\n");
    expect_refusal(
        &dir,
        &[
            "validate",
            "hello",
            "problems/hello/tests",
            "--problems-dir",
            "problems",
        ],
        "zz.in`: is a FIFO (named pipe), not a regular file",
    );
    expect_refusal(
        &dir,
        &["grade", "--package", "problems/hello"],
        "zz.in`: is a FIFO (named pipe), not a regular file",
    );
}

#[test]
fn refuses_a_huge_sparse_test_by_its_size() {
    let dir = Dir::new();
    kattis_package(&dir);
    sparse(&dir.path().join("p/data/secret/big.in"));
    dir.create("p/data/secret/big.ans", "x\n");
    expect_refusal(
        &dir,
        &["grade", "--package", "p"],
        "`p/data/secret/big.in`: holds 6442450944 bytes, more than the 256 MiB",
    );
}

#[test]
fn refuses_a_huge_sparse_submissions_yaml_by_its_size() {
    let dir = Dir::new();
    kattis_package(&dir);
    sparse(&dir.path().join("p/submissions/submissions.yaml"));
    expect_refusal(
        &dir,
        &["grade", "--package", "p"],
        "`p/submissions/submissions.yaml`: holds 6442450944 bytes, more than the 16 MiB",
    );
}

#[test]
fn refuses_a_huge_sparse_problem_yaml_by_its_size() {
    let dir = Dir::new();
    kattis_package(&dir);
    sparse(&dir.path().join("p/problem.yaml"));
    expect_refusal(
        &dir,
        &["grade", "--package", "p"],
        "`p/problem.yaml`: holds 6442450944 bytes, more than the 16 MiB",
    );
}

#[test]
fn refuses_a_huge_sparse_test_group_yaml_by_its_size() {
    let dir = Dir::new();
    kattis_package(&dir);
    sparse(&dir.path().join("p/data/secret/test_group.yaml"));
    expect_refusal(
        &dir,
        &["grade", "--package", "p"],
        "`p/data/secret/test_group.yaml`: holds 6442450944 bytes, more than the 16 MiB",
    );
}

#[test]
fn refuses_a_huge_sparse_problem_toml_by_its_size() {
    let dir = Dir::new();
    dir.judge(&["new", "hello"]).expect_code(0);
    sparse(&dir.path().join("problems/hello/problem.toml"));
    expect_refusal(
        &dir,
        &["grade", "--package", "problems/hello"],
        "problem.toml`: holds 6442450944 bytes, more than the 16 MiB",
    );
}

#[test]
fn refuses_a_huge_sparse_generators_yaml_by_its_size() {
    let dir = Dir::new();
    kattis_package(&dir);
    sparse(&dir.path().join("p/generators/generators.yaml"));
    expect_refusal(
        &dir,
        &["gen", "--package", "p"],
        "`p/generators/generators.yaml`: holds 6442450944 bytes, more than the 16 MiB",
    );
}

#[test]
fn refuses_a_fifo_as_a_packages_timelimit_file() {
    let dir = Dir::new();
    kattis_package(&dir);
    mkfifo(&dir.path().join("p/.timelimit"));
    expect_refusal(
        &dir,
        &["grade", "--package", "p"],
        "`p/.timelimit`: is a FIFO (named pipe), not a regular file",
    );
}

#[test]
fn refuses_a_huge_sparse_domjudge_ini_by_its_size() {
    let dir = Dir::new();
    kattis_package(&dir);
    sparse(&dir.path().join("p/domjudge-problem.ini"));
    expect_refusal(
        &dir,
        &["grade", "--package", "p"],
        "`p/domjudge-problem.ini`: holds 6442450944 bytes, more than the 16 MiB",
    );
}
