//! The bundled examples under `submissions/`: `judge grade` with the bundled
//! judge.toml gives every one the verdict its folder names. One invocation
//! (the TLE examples run their tests to the limit), its JSON parsed.

use crate::support::repository;
use std::collections::BTreeMap;

/// Every bundled example and the verdict it must get. A file added under
/// `submissions/` without a row here fails the test.
const EXAMPLES: &[(&str, &str)] = &[
    ("submissions/matchsticks/accepted/game.rs", "AC"),
    ("submissions/matchsticks/accepted/memo.py", "AC"),
    ("submissions/matchsticks/accepted/minimax.cpp", "AC"),
    ("submissions/matchsticks/compile_error/type_error.cpp", "CE"),
    ("submissions/matchsticks/run_time_error/returns_k.cpp", "RE"),
    (
        "submissions/matchsticks/wrong_answer/greedy_fewest_replies.py",
        "WA",
    ),
    ("submissions/matchsticks-duel/accepted/minimax.py", "AC"),
    (
        "submissions/matchsticks-duel/time_limit_exceeded/no_flush.py",
        "TLE",
    ),
    (
        "submissions/matchsticks-duel/wrong_answer/greedy_fewest_replies.py",
        "WA",
    ),
    ("submissions/mayan/accepted/dfs_memo.cpp", "AC"),
    ("submissions/mayan/accepted/dfs_memo.py", "AC"),
    ("submissions/mayan/accepted/search.rs", "AC"),
    (
        "submissions/mayan/memory_limit_exceeded/huge_filter.cpp",
        "MLE",
    ),
    ("submissions/mayan/run_time_error/no_right_edge.py", "RE"),
    ("submissions/mayan/time_limit_exceeded/plain_dfs.py", "TLE"),
    ("submissions/mayan/wrong_answer/one_run_at_a_time.cpp", "WA"),
    ("submissions/rooks-large/accepted/hopcroft_karp.cpp", "AC"),
    (
        "submissions/rooks-large/time_limit_exceeded/backtracking.cpp",
        "TLE",
    ),
    // UVa 639 as set (n <= 4): backtracking is a correct solution.
    ("submissions/rooks/accepted/backtracking.cpp", "AC"),
    ("submissions/rooks/accepted/hopcroft_karp.cpp", "AC"),
    ("submissions/rooks/accepted/kuhn.rs", "AC"),
    ("submissions/rooks/accepted/matching.py", "AC"),
    ("submissions/rooks/run_time_error/scan_past_edge.py", "RE"),
    ("submissions/rooks/wrong_answer/ignores_walls.py", "WA"),
];

#[test]
fn every_bundled_example_gets_the_verdict_its_folder_names() {
    let root = repository();
    let report_dir = tempfile::tempdir().unwrap();
    let report_path = report_dir.path().join("grade.json");
    let mut command = assert_cmd::cargo::cargo_bin_cmd!("judge");
    command
        .current_dir(&root)
        .args([
            "grade",
            "--config",
            "judge.toml",
            "--jobs",
            "2",
            "-q",
            "--json",
        ])
        .arg(&report_path);
    let output = command.output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let report: serde_json::Value =
        crate::support::report(&fs_err::read_to_string(&report_path).unwrap());
    let got: BTreeMap<String, String> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| {
            (
                result["submission"].as_str().unwrap().to_owned(),
                result["verdict"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let expected: BTreeMap<String, String> = EXAMPLES
        .iter()
        .map(|(path, verdict)| ((*path).to_owned(), (*verdict).to_owned()))
        .collect();
    assert_eq!(got, expected, "stderr:\n{stderr}");
    // The table's verdict codes agree with the folders the grader read.
    for (path, verdict) in EXAMPLES {
        let folder = path.split('/').nth(2).unwrap();
        let from_folder = judge::discovery::verdict_of_folder(folder).unwrap();
        assert_eq!(from_folder.code(), *verdict, "{path}");
    }
    assert_eq!(output.status.code(), Some(0), "stderr:\n{stderr}");
}
