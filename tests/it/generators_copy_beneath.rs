//! `judge gen --package`: generators.yaml's `copy:` reads only files
//! inside the package (issue #34, break-it finding 10: a link to
//! `/etc/shadow` or a `copy: ../../x` was copied into `data/` and the
//! cache, world-readable).

use crate::support::{Dir, PackageBuilder};
use std::path::Path;

const SECRET: &str = "HOST-SECRET-LINE\n";

/// A package `p` whose secret case `leak` copies `generators/{copy}`.
fn package(dir: &Dir, copy: &str) {
    PackageBuilder::kattis(dir, "p")
        .manifest("problem_format_version: 2025-09\ntype: pass-fail\nname: Copy\n")
        .file(
            "generators/generators.yaml",
            format!(
                "data:\n  sample:\n    data:\n      '1':\n        in: '1'\n        ans: '1'\n  \
                 secret:\n    data:\n      leak:\n        copy: {copy}\n"
            ),
        )
        .file("generators/manual/shared.in", "7\n")
        .file("generators/manual/shared.ans", "7\n")
        .build();
    dir.create("outside.in", SECRET);
    dir.create("outside.ans", SECRET);
}

/// Whether any file under `root` holds the secret.
fn holds_secret(root: &Path) -> bool {
    walkdir::WalkDir::new(root)
        .into_iter()
        .map(Result::unwrap)
        .filter(|entry| entry.file_type().is_file())
        .any(|entry| {
            fs_err::read(entry.path())
                .unwrap()
                .windows(SECRET.len())
                .any(|window| window == SECRET.as_bytes())
        })
}

#[test]
fn refuses_a_copy_through_a_link_out_of_the_package() {
    let dir = Dir::new();
    package(&dir, "manual/leak");
    for extension in ["in", "ans"] {
        std::os::unix::fs::symlink(
            dir.path().join(format!("outside.{extension}")),
            dir.path()
                .join(format!("p/generators/manual/leak.{extension}")),
        )
        .unwrap();
    }
    let run = dir.judge(&["gen", "--package", "p"]);
    run.expect_code(2);
    let stderr = run.stderr();
    assert!(stderr.contains("generators.yaml"), "{}", run.transcript());
    assert!(stderr.contains("line 9"), "{}", run.transcript());
    assert!(stderr.contains("copy: manual/leak"), "{}", run.transcript());
    assert!(
        stderr.contains("outside the package"),
        "{}",
        run.transcript()
    );
    assert!(!stderr.contains(SECRET.trim()), "{}", run.transcript());
    assert!(!dir.path().join("p/data").exists(), "{}", run.transcript());
    assert!(!holds_secret(&dir.path().join("p")), "{}", run.transcript());
}

#[test]
fn refuses_a_copy_that_climbs_out_of_the_package() {
    let dir = Dir::new();
    package(&dir, "../../outside");
    let run = dir.judge(&["gen", "--package", "p"]);
    run.expect_code(2);
    let stderr = run.stderr();
    assert!(stderr.contains("generators.yaml"), "{}", run.transcript());
    assert!(stderr.contains("line 9"), "{}", run.transcript());
    assert!(
        stderr.contains("`copy: ../../outside` climbs out of the package"),
        "{}",
        run.transcript()
    );
    assert!(!dir.path().join("p/data").exists(), "{}", run.transcript());
    assert!(!holds_secret(&dir.path().join("p")), "{}", run.transcript());
}

#[test]
fn copies_through_a_link_inside_the_package() {
    let dir = Dir::new();
    package(&dir, "manual/linked");
    for extension in ["in", "ans"] {
        std::os::unix::fs::symlink(
            format!("shared.{extension}"),
            dir.path()
                .join(format!("p/generators/manual/linked.{extension}")),
        )
        .unwrap();
    }
    let run = dir.judge(&["gen", "--package", "p"]);
    run.expect_code(0);
    assert_eq!(dir.read("p/data/secret/leak.in"), "7\n");
    assert_eq!(dir.read("p/data/secret/leak.ans"), "7\n");
}
