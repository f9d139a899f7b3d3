//! Where a program's symbolic links may lead is named by whoever knows
//! whose program it is, never guessed from the files around it: a hand-in
//! keeps its folder's bound even when it holds a `problem.yaml` and a
//! `submissions/` folder of its own (found in a review: such a hand-in's
//! link to another student's public file was followed, and that file
//! graded as the hand-in's), while a package's own programs still link
//! anywhere in the package and out of it to a public file.

use crate::support::{readable_by_all, repository, Dir, PackageBuilder};
use std::os::unix::fs::symlink;
use std::path::PathBuf;

/// A class of two hand-in folders, each graded on its own with its own
/// `judge.toml` (layout `problem/student`, the default `submissions/`):
/// Alice's accepted rooks solution, readable by every user, and Bob's
/// folder holding a regular `problem.yaml` and `submissions/rooks/bob.py`,
/// a link to `target` (relative to the link). Returns the canonical path
/// of the link's target.
fn class_with_bob_linking_to(dir: &Dir, target: &str) -> PathBuf {
    let solution =
        fs_err::read(repository().join("submissions/rooks/accepted/matching.py")).unwrap();
    dir.create("alice/submissions/rooks/alice.py", &solution);
    dir.create("bob/notes/rooks.py", &solution);
    let toml = "layout = \"problem/student\"\nrandom-tests = 0\njobs = 1\n";
    dir.create("alice/judge.toml", toml);
    dir.create("bob/judge.toml", toml);
    dir.create("bob/problem.yaml", "name: Bob's own problem\n");
    let bob = dir.path().join("bob/submissions/rooks");
    fs_err::create_dir_all(&bob).unwrap();
    let link = bob.join("bob.py");
    symlink(target, &link).unwrap();
    for entry in walkdir::WalkDir::new(dir.path()).follow_links(false) {
        let entry = entry.unwrap();
        if !entry.path_is_symlink() {
            readable_by_all(entry.path());
        }
    }
    fs_err::canonicalize(&link).unwrap()
}

/// The verdict and compile message of Bob's row in the JSON report at
/// `report` (relative to `dir`).
fn bob_row(dir: &Dir, report: &str) -> (String, String) {
    let report = crate::support::report(&dir.read(report));
    let row = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["submission"].as_str().unwrap_or("").ends_with("bob.py"))
        .unwrap_or_else(|| panic!("no row for bob.py: {report:#}"))
        .clone();
    (
        row["verdict"].as_str().unwrap().to_owned(),
        row["compile"]["message"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
    )
}

/// Asserts that Bob's hand-in was refused (CE) for its link, the message
/// naming the link and where it points (`written`, as the hand-in wrote
/// it), and that `judge run` of the same file refuses it too.
fn assert_bob_refused(dir: &Dir, written: &str) {
    let graded = dir.judge(&["grade", "--config", "bob/judge.toml", "--json", "bob.json"]);
    assert_eq!(graded.code(), 1, "{}", graded.transcript());
    let (verdict, message) = bob_row(dir, "bob.json");
    assert_eq!(verdict, "CE", "{message}\n{}", graded.transcript());
    assert!(
        message.contains(&format!(
            "submissions/rooks/bob.py`: it is a symbolic link (symlink) to a file outside its \
             folder (`{written}`); its target was not read"
        )),
        "{message}"
    );

    let run = dir.judge(&[
        "run",
        "rooks",
        "bob/submissions/rooks/bob.py",
        "--json",
        "run.json",
    ]);
    assert_eq!(run.code(), 1, "{}", run.transcript());
    let (verdict, message) = bob_row(dir, "run.json");
    assert_eq!(verdict, "CE", "{message}\n{}", run.transcript());
    assert!(
        message.contains(&format!(
            "refused `bob/submissions/rooks/bob.py`: it is a symbolic link (symlink) to a file \
             outside its folder (`{written}`)"
        )),
        "{message}"
    );
}

/// (a) A link from a hand-in holding a regular `problem.yaml` and
/// `submissions/` to a public file in a sibling hand-in (another student's
/// accepted solution) is refused, naming the link and its target; the
/// sibling's own grade is untouched.
#[test]
fn a_hand_in_with_a_problem_yaml_cannot_link_to_a_sibling_s_public_file() {
    let dir = Dir::new();
    let written = "../../../alice/submissions/rooks/alice.py";
    let target = class_with_bob_linking_to(&dir, written);
    assert!(target.ends_with("alice/submissions/rooks/alice.py"));
    assert_bob_refused(&dir, written);

    let alice = dir.judge(&["grade", "--config", "alice/judge.toml"]);
    assert_eq!(alice.code(), 0, "{}", alice.transcript());
}

/// (b) The same hand-in's link to a file elsewhere in its own folder
/// (`notes/`, outside `submissions/rooks/`, the folder holding the link) is
/// refused as well: a hand-in's link resolves only inside the folder that
/// holds it, package marker or not.
#[test]
fn a_hand_in_with_a_problem_yaml_cannot_link_out_of_the_link_s_own_folder() {
    let dir = Dir::new();
    let written = "../../notes/rooks.py";
    let target = class_with_bob_linking_to(&dir, written);
    assert!(target.ends_with("bob/notes/rooks.py"));
    assert_bob_refused(&dir, written);
}

/// (c) A real Kattis package's programs keep the package's rule under
/// `grade --package`: the output validator's `validation.h` links to a
/// public header outside the package (as BAPCtools' do) and is compiled
/// as that header, with a note naming both; a submission that links to a
/// file elsewhere in the package is graded as that file.
#[test]
fn a_package_s_programs_still_link_in_the_package_and_out_to_a_public_header() {
    let dir = Dir::new();
    let package = PackageBuilder::kattis(&dir, "sum")
        .manifest(
            "problem_format_version: 2025-09\ntype: pass-fail\nname: Sum\n\
             uuid: 0b5f7f0e-3c4d-4f7a-9a21-36e1d2c4b5a6\nlicense: cc0\n\
             limits:\n  time_limit: 2\n",
        )
        .test("sample/1", "1 2\n", "3\n")
        .test("secret/2", "20 22\n", "42\n")
        .file("input_validators/validate.py", "import sys\nsys.exit(42)\n")
        .file(
            "output_validator/validate.cpp",
            "#include \"validation.h\"\nint main(int, char** argv) { return judge(argv[2]); }\n",
        )
        .file("shared/sum.py", "print(sum(map(int, input().split())))\n")
        .submission("accepted/sum.py", "print(sum(map(int, input().split())))\n")
        .submission(
            "wrong_answer/off.py",
            "print(sum(map(int, input().split())) + 1)\n",
        )
        .build();
    let header = dir.create(
        "headers/validation.h",
        "#include <fstream>\n#include <iostream>\n\
         inline int judge(const char* answer_path) {\n\
         \x20 std::ifstream answer(answer_path);\n\
         \x20 long long want = 0, got = 0;\n\
         \x20 answer >> want;\n\
         \x20 if (!(std::cin >> got)) return 43;\n\
         \x20 return got == want ? 42 : 43;\n}\n",
    );
    symlink(
        "../../headers/validation.h",
        package.join("output_validator/validation.h"),
    )
    .unwrap();
    symlink(
        "../../shared/sum.py",
        package.join("submissions/accepted/linked.py"),
    )
    .unwrap();
    for entry in walkdir::WalkDir::new(dir.path()).follow_links(false) {
        let entry = entry.unwrap();
        if !entry.path_is_symlink() {
            readable_by_all(entry.path());
        }
    }

    let run = dir.judge(&["grade", "--package", "sum"]);
    assert_eq!(run.code(), 0, "{}", run.transcript());
    let out = run.stdout();
    assert!(
        out.contains("3 of 3 submissions got their folder's verdict"),
        "{}",
        run.transcript()
    );
    assert!(
        out.contains("ok       sum/submissions/accepted/linked.py: AC"),
        "{}",
        run.transcript()
    );
    let err = run.stderr();
    let header = fs_err::canonicalize(header).unwrap();
    assert!(
        err.contains("sum/output_validator/validation.h` is a symbolic link to `")
            && err.contains(&format!(
                "{}`, outside the package: its content is read",
                header.display()
            )),
        "{err}"
    );
}

/// (d) A hand-in that is a link out of its folder is refused without its
/// target ever being opened: the target here is a FIFO that every user may
/// read, which would block the grade for as long as nobody writes to it
/// (break-it b36: the check that a hand-in is readable opened it through
/// the link before the link rule refused it). Whether the judge opened it
/// is seen from here: opening a FIFO's writing end without blocking fails
/// while no reader holds it open, and a blocked reader waits for us.
#[test]
fn a_hand_in_linking_to_a_fifo_outside_is_refused_without_opening_it() {
    use std::os::unix::fs::OpenOptionsExt;
    let dir = Dir::new();
    let fifo = dir.path().join("elsewhere/pipe.py");
    crate::data_files_bounded::mkfifo(&fifo);
    let written = "../../../elsewhere/pipe.py";
    class_with_bob_linking_to(&dir, written);

    let judge = std::thread::scope(|scope| {
        let graded = scope
            .spawn(|| dir.judge(&["grade", "--config", "bob/judge.toml", "--json", "bob.json"]));
        let mut opened = false;
        while !graded.is_finished() {
            let writer = std::fs::OpenOptions::new()
                .write(true)
                .custom_flags(libc::O_NONBLOCK)
                .open(&fifo);
            // Our writing end, closed at once, ends the judge's read.
            opened |= writer.is_ok();
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        (opened, graded.join().unwrap())
    });
    let (opened, graded) = judge;
    assert!(
        !opened,
        "the judge opened the FIFO behind bob's link\n{}",
        graded.transcript()
    );
    assert_eq!(graded.code(), 1, "{}", graded.transcript());
    let (verdict, message) = bob_row(&dir, "bob.json");
    assert_eq!(verdict, "CE", "{message}\n{}", graded.transcript());
    assert!(
        message.contains(&format!(
            "submissions/rooks/bob.py`: it is a symbolic link (symlink) to a file outside its \
             folder (`{written}`); its target was not read"
        )),
        "{message}"
    );
}

/// (e) See: issue #34. A hand-in that is a link to nothing is the
/// student's own file: its CE names the link and where it points, as the
/// hand-in wrote it, and the advice is the student's (hand in the file
/// itself), never a package's ("copy the package together with the files
/// its links point to").
#[test]
fn a_hand_in_that_links_to_nothing_gets_advice_about_its_own_file() {
    let dir = Dir::new();
    dir.create(
        "judge.toml",
        "layout = \"problem/student\"\nrandom-tests = 0\njobs = 1\n",
    );
    let hand_ins = dir.path().join("submissions/rooks");
    fs_err::create_dir_all(&hand_ins).unwrap();
    // Inside its own folder: a link out of it is refused as leaving it,
    // whether its target is there or not (test (f)).
    let written = "drafts/rooks.py";
    symlink(written, hand_ins.join("bob.py")).unwrap();
    let refused = format!(
        "refused `submissions/rooks/bob.py`: it is a symbolic link (symlink) to `{written}` \
         that does not resolve (a loop or a missing target)\n\nhint: hand in the file itself, \
         not a link to it (a hand-in's link is followed only to a file handed in beside it, in \
         its own folder)"
    );

    let graded = dir.judge(&["grade", "--json", "bob.json"]);
    assert_eq!(graded.code(), 1, "{}", graded.transcript());
    let (verdict, message) = bob_row(&dir, "bob.json");
    assert_eq!(verdict, "CE", "{message}\n{}", graded.transcript());
    assert_eq!(message, refused, "{}", graded.transcript());
}

/// (f) See: issue #34. A hand-in's link out of its folder is refused in
/// the same words whether its target exists or not, directly or through a
/// link of its own folder: else the refusal tells the student whether a
/// file is there in another student's folder (or anywhere on the judge's
/// host), a file the judge never reads for them.
#[test]
fn a_hand_in_s_link_out_of_its_folder_does_not_say_whether_its_target_exists() {
    let dir = Dir::new();
    let solution =
        fs_err::read(repository().join("submissions/rooks/accepted/matching.py")).unwrap();
    dir.create("alice/submissions/rooks/alice.py", &solution);
    let toml = "layout = \"problem/student\"\nrandom-tests = 0\njobs = 1\n";
    dir.create("bob/judge.toml", toml);
    let bob = dir.path().join("bob/submissions/rooks");
    fs_err::create_dir_all(&bob).unwrap();
    for entry in walkdir::WalkDir::new(dir.path()) {
        readable_by_all(entry.unwrap().path());
    }
    let refusal = |target: &str, via: Option<&str>| {
        let link = bob.join("bob.py");
        let _ = fs_err::remove_file(&link);
        let _ = fs_err::remove_file(bob.join("via.py"));
        match via {
            Some(via) => {
                symlink(via, &link).unwrap();
                symlink(target, bob.join(via)).unwrap();
            }
            None => symlink(target, &link).unwrap(),
        }
        let graded = dir.judge(&["grade", "--config", "bob/judge.toml", "--json", "bob.json"]);
        assert_eq!(graded.code(), 1, "{}", graded.transcript());
        let (verdict, message) = bob_row(&dir, "bob.json");
        assert_eq!(verdict, "CE", "{message}\n{}", graded.transcript());
        message.replace(target, "TARGET")
    };
    let there = "../../../alice/submissions/rooks/alice.py";
    let gone = "../../../alice/submissions/rooks/gone.py";
    assert_eq!(refusal(gone, None), refusal(there, None));
    assert_eq!(
        refusal(gone, Some("via.py")),
        refusal(there, Some("via.py"))
    );
}

/// See: issue #34. `judge run` of a submission that is a link to nothing
/// grades it as SPEC's submission that cannot be compiled: CE, its message
/// naming the link and where it points, the other submissions graded, and
/// exit 1; a link whose name says no language is that CE too. (Before, it
/// was a usage error, exit 2, "failed to query resolved metadata", with
/// nothing graded and no report.)
#[test]
fn r34_run_of_a_link_to_nothing_is_a_ce_naming_the_link_and_its_target() {
    let dir = Dir::new();
    let solution =
        fs_err::read(repository().join("submissions/rooks/accepted/matching.py")).unwrap();
    dir.create("alice.py", &solution);
    symlink("drafts/rooks.py", dir.path().join("bob.py")).unwrap();
    symlink("drafts/rooks", dir.path().join("carol")).unwrap();
    let run = dir.judge(&[
        "run", "rooks", "alice.py", "bob.py", "carol", "--json", "run.json",
    ]);
    assert_eq!(run.code(), 1, "{}", run.transcript());
    let report = crate::support::report(&dir.read("run.json"));
    let rows: Vec<(String, String, String)> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            (
                row["submission"].as_str().unwrap().to_owned(),
                row["verdict"].as_str().unwrap().to_owned(),
                row["compile"]["message"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
            )
        })
        .collect();
    let refused = |link: &str, target: &str| {
        format!(
            "refused `{link}`: it is a symbolic link (symlink) to `{target}` that does not \
             resolve (a loop or a missing target)"
        )
    };
    assert_eq!(rows.len(), 3, "{report:#}");
    assert_eq!((rows[0].0.as_str(), rows[0].1.as_str()), ("alice.py", "AC"));
    for ((submission, verdict, message), target) in
        rows[1..].iter().zip(["drafts/rooks.py", "drafts/rooks"])
    {
        assert_eq!(verdict, "CE", "{message}\n{}", run.transcript());
        assert!(
            message.starts_with(&refused(submission, target)),
            "{message}\n{}",
            run.transcript()
        );
    }
}
