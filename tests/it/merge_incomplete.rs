//! `judge merge` of shard reports that do not make a whole run: a shard
//! whose index is past its split's count, and a shard a signal stopped
//! part way, whose unfinished pairs are under `not_graded`. Neither may
//! pass for a complete grade.

use crate::support::{repository, Dir};
use serde_json::Value;

/// Four copies of the bundled accepted rooks solver, a class of layout
/// `problem/student`, graded in two shards (`shard-1.json`,
/// `shard-2.json`), each exiting 0.
fn class_in_two_shards() -> Dir {
    let dir = Dir::new();
    dir.create(
        "judge.toml",
        "layout = \"problem/student\"\nrandom-tests = 0\njobs = 2\nseed = 1\n",
    );
    let solver =
        fs_err::read_to_string(repository().join("submissions/rooks/accepted/matching.py"))
            .unwrap();
    for name in ["a", "b", "c", "d"] {
        dir.create(&format!("submissions/rooks/{name}.py"), &solver);
    }
    for shard in ["1", "2"] {
        let file = format!("shard-{shard}.json");
        let split = format!("{shard}/2");
        dir.judge(&["grade", "-q", "--shard", &split, "--json", &file])
            .expect_code(0);
    }
    dir
}

/// The JSON report `name` in `dir`.
fn read(dir: &Dir, name: &str) -> Value {
    serde_json::from_str(&dir.read(name)).unwrap()
}

/// Writes `report` to `name` in `dir`.
fn write(dir: &Dir, name: &str, report: &Value) {
    dir.create(name, serde_json::to_string_pretty(report).unwrap());
}

/// See: issue #34. A report that says it is shard 3 of 2 is refused,
/// naming the file and the shards the split has, before anything is
/// written. (Before, shards 1/2 and 3/2 were refused for "shard 2/2 is
/// missing", and 1/2, 2/2 and an empty 3/2 were merged as a whole run,
/// exit 0.)
#[test]
fn r34_merge_refuses_a_shard_index_above_its_count() {
    let dir = class_in_two_shards();
    let mut third = read(&dir, "shard-2.json");
    third["shard"]["index"] = 3.into();
    third["results"] = Value::Array(Vec::new());
    write(&dir, "shard-3.json", &third);
    let refusal = "error: `shard-3.json` is shard 3/2, but a split into 2 has shards 1/2 to 2/2\n";

    let run = dir.judge(&[
        "merge",
        "shard-1.json",
        "shard-2.json",
        "shard-3.json",
        "-o",
        "all.json",
    ]);
    run.expect_code(2);
    assert_eq!(run.stderr(), refusal, "{}", run.transcript());
    assert!(!dir.path().join("all.json").exists());

    // In place of shard 2: the index, not a missing shard, is what is wrong.
    let mut misnumbered = read(&dir, "shard-2.json");
    misnumbered["shard"]["index"] = 3.into();
    write(&dir, "shard-3.json", &misnumbered);
    let run = dir.judge(&["merge", "shard-1.json", "shard-3.json", "-o", "all.json"]);
    run.expect_code(2);
    assert_eq!(run.stderr(), refusal, "{}", run.transcript());

    // Nor is there a shard 0.
    misnumbered["shard"]["index"] = 0.into();
    write(&dir, "shard-0.json", &misnumbered);
    let run = dir.judge(&["merge", "shard-1.json", "shard-0.json", "-o", "all.json"]);
    run.expect_code(2);
    assert_eq!(
        run.stderr(),
        "error: `shard-0.json` is shard 0/2, but a split into 2 has shards 1/2 to 2/2\n",
        "{}",
        run.transcript()
    );
}

/// See: issue #34. Shard 2 stopped by a signal after grading one of its
/// two pairs (the other under `not_graded`), every graded pair accepted:
/// the merge writes the merged report, interrupted, with the pair not
/// graded, says which shard left how many pairs not graded, and exits 1,
/// as a partial report does under `judge report`: an incomplete merge
/// must not look complete. (Before, it exited 0 with a warning that named
/// no shard.)
#[test]
fn r34_merge_of_a_shard_stopped_mid_grade_does_not_pass() {
    let dir = class_in_two_shards();
    let mut stopped = read(&dir, "shard-2.json");
    let results = stopped["results"].as_array_mut().unwrap();
    assert_eq!(results.len(), 2, "{stopped:#}");
    let unfinished = results.pop().unwrap();
    stopped["interrupted"] = true.into();
    stopped["not_graded"] = serde_json::json!([{
        "problem": unfinished["problem"],
        "submission": unfinished["submission"],
        "student": unfinished["student"],
    }]);
    write(&dir, "stopped-2.json", &stopped);

    let run = dir.judge(&[
        "merge",
        "shard-1.json",
        "stopped-2.json",
        "-o",
        "all.json",
        "--csv",
        "all.csv",
    ]);
    run.expect_code(1);
    assert!(
        run.stderr().contains(
            "warning: shard 2/2 (`stopped-2.json`) was interrupted: 1 of its 2 pairs not \
             graded (`not_graded` in the merged report); grade that shard again and merge anew"
        ),
        "{}",
        run.transcript()
    );
    let merged = read(&dir, "all.json");
    assert_eq!(merged["interrupted"], true, "{merged:#}");
    assert_eq!(merged["results"].as_array().unwrap().len(), 3, "{merged:#}");
    assert_eq!(
        merged["not_graded"][0]["submission"], unfinished["submission"],
        "{merged:#}"
    );
    assert!(
        dir.read("all.csv").contains("not graded"),
        "{}",
        dir.read("all.csv")
    );

    // The whole run merged: complete, and it passes.
    let run = dir.judge(&["merge", "shard-1.json", "shard-2.json", "-o", "all.json"]);
    run.expect_code(0);
    assert!(
        !run.stderr().contains("interrupted"),
        "{}",
        run.transcript()
    );
}
