use super::*;
use crate::runner::{CompileResult, TestResult};
use crate::verdict::Points;
use test_case::test_case;

fn result(verdicts: &[Verdict], score: Option<f64>, compiled: bool) -> SubmissionResult {
    let tests: Vec<TestResult> = verdicts
        .iter()
        .enumerate()
        .map(|(index, verdict)| TestResult {
            message: format!("test {index} said {verdict}"),
            ..TestResult::fixture(&format!("{index}"), *verdict)
        })
        .collect();
    let mut result = SubmissionResult::fixture("p", "s.py", tests);
    if !compiled {
        result.compile = CompileResult::failed(Verdict::CompileError, "no".to_owned());
    }
    result.score = score.map(Points);
    result.max_score = score.map(|_| Points(100.0));
    result
}

use Verdict::*;

/// (submissions.yaml entry, test verdicts, score) → agrees.
#[test_case("permitted: [AC]", &[Accepted, Accepted], None, true ; "all permitted")]
#[test_case("permitted: [AC]", &[Accepted, WrongAnswer], None, false ; "a verdict not permitted")]
#[test_case("permitted: [AC, WA]", &[Accepted, PresentationError], None, true ; "pe counts as wa")]
#[test_case("permitted: [AC, RTE]", &[MemoryLimitExceeded], None, true ; "mle counts as rte")]
#[test_case("permitted: [AC, WA, RTE, TLE]", &[JudgeError], None, false ; "je is never permitted")]
#[test_case("required: [TLE]", &[Accepted, TimeLimitExceeded], None, true ; "required seen")]
#[test_case("required: [TLE, RTE]", &[Accepted, WrongAnswer], None, false ; "required not seen")]
#[test_case("score: [20, 60]", &[Accepted], Some(40.0), true ; "score in range")]
#[test_case("score: [20, 60]", &[Accepted], Some(60.0), true ; "range is inclusive")]
#[test_case("score: [20, 60]", &[Accepted], Some(61.0), false ; "score above range")]
#[test_case("score: 50", &[Accepted], Some(50.0), true ; "exact score")]
#[test_case("score: 0", &[WrongAnswer, Accepted], None, false ; "pass-fail percent is the score")]
#[test_case("message: said WA", &[Accepted, WrongAnswer], None, true ; "message seen")]
#[test_case("message: said TLE", &[Accepted, WrongAnswer], None, false ; "message not seen")]
fn expectations_decide_agreement(
    entry: &str,
    verdicts: &[Verdict],
    score: Option<f64>,
    agrees: bool,
) {
    let text = format!("\"*\":\n  {entry}\n");
    let expectations = kattis_submissions::parse(&text).unwrap();
    let refs: Vec<&Expectation> = expectations.iter().collect();
    assert_eq!(
        expectations_agree(&refs, &result(verdicts, score, true)),
        agrees
    );
}

#[test]
fn every_matching_entry_must_hold_and_a_compile_error_meets_none() {
    let expectations =
        kattis_submissions::parse("a/*:\n  permitted: [AC, WA]\n\"*/x.py\":\n  required: [WA]\n")
            .unwrap();
    let both: Vec<&Expectation> = expectations.iter().collect();
    assert!(expectations_agree(
        &both,
        &result(&[Accepted, WrongAnswer], None, true)
    ));
    assert!(!expectations_agree(&both, &result(&[Accepted], None, true)));
    assert!(!expectations_agree(&both[..1], &result(&[], None, false)));
}

/// A test group's rule looks at that group's tests only: `odd.py` is
/// right on `secret/1` and wrong elsewhere.
#[test_case("secret/1:\n    required: [AC]", true ; "required on its group")]
#[test_case("secret/2:\n    required: [AC]", false ; "required elsewhere")]
#[test_case("sample:\n    permitted: [AC]", true ; "permitted on its group")]
#[test_case("secret:\n    permitted: [AC]", false ; "permitted on a group with a wa")]
#[test_case("secret/{1,3}:\n    permitted: [AC]", true ; "braces over cases")]
#[test_case("secret/*:\n    message: said WA", true ; "message on a group")]
#[test_case("sample:\n    message: said WA", false ; "message not on its group")]
fn a_group_rule_looks_at_its_tests(rule: &str, agrees: bool) {
    let mut tested = result(&[Accepted, Accepted, WrongAnswer, Accepted], None, true);
    for (test, name) in tested
        .tests
        .iter_mut()
        .zip(["sample/1", "secret/1", "secret/2", "secret/3"])
    {
        test.name = name.to_owned();
    }
    let expectations = kattis_submissions::parse(&format!("odd.py:\n  {rule}\n")).unwrap();
    let refs: Vec<&Expectation> = expectations.iter().collect();
    assert_eq!(expectations_agree(&refs, &tested), agrees);
}

/// The format: `accepted` replaces the folder's demand, `accepted/*`
/// adds to it.
#[test_case("accepted:\n  permitted: [WA]", &[WrongAnswer], true ; "the folder's demand replaced")]
#[test_case("accepted/*:\n  permitted: [WA]", &[WrongAnswer], false ; "the folder's demand kept")]
#[test_case("accepted/*:\n  permitted: [AC, WA]", &[Accepted], true ; "both met")]
#[test_case("\"*\":\n  authors: Ann", &[WrongAnswer], false ; "no demand leaves the folder's")]
fn a_folder_glob_replaces_and_a_file_glob_adds(entry: &str, verdicts: &[Verdict], agrees: bool) {
    let listed = PackageSubmission {
        path: PathBuf::from("p/submissions/accepted/s.py"),
        expected_as: ACCEPTED_FOLDER.to_owned(),
        standard: None,
    };
    let expectations = kattis_submissions::parse(&format!("{entry}\n")).unwrap();
    let refs: Vec<&Expectation> = expectations.iter().filter(|e| e.demands()).collect();
    assert_eq!(
        package_agrees(&listed, &refs, &result(verdicts, None, true), false),
        agrees
    );
}

/// `rejected/` has the format's default: some test not accepted.
/// See: issue #34. A `compile_error/` example with no entry is judged
/// by its folder alone.
#[test]
fn no_entry_leaves_a_compile_error_to_its_folder() {
    let listed = PackageSubmission {
        path: PathBuf::from("p/submissions/compile_error/x.c"),
        expected_as: "compile_error".to_owned(),
        standard: None,
    };
    let mut failed = result(&[], None, false);
    failed.verdict = CompileError;
    assert!(package_agrees(&listed, &[], &failed, false));
}

#[test]
fn rejected_has_the_default_demand() {
    let defaults = kattis_submissions::with_defaults(Vec::new());
    let rejected: Vec<&Expectation> = defaults
        .iter()
        .filter(|e| e.matches(Path::new("rejected/x.py")))
        .collect();
    assert_eq!(rejected.len(), 1);
    let listed = PackageSubmission {
        path: PathBuf::from("p/submissions/rejected/x.py"),
        expected_as: "rejected".to_owned(),
        standard: None,
    };
    assert!(package_agrees(
        &listed,
        &rejected,
        &result(&[Accepted, TimeLimitExceeded], None, true),
        false
    ));
    assert!(!package_agrees(
        &listed,
        &rejected,
        &result(&[Accepted], None, true),
        false
    ));
}

/// See: issue #34, #33. The verdict folders' `stated` applies problemtools'
/// rule: a `.py` file whose `#!` line asks for Python 2 runs in the
/// language that runs `.py2` files, unless submissions.yaml states one;
/// without such a language it is skipped, with the line named.
#[test]
fn a_python2_shebang_is_the_verdict_folders_rule() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let submissions = dir.path().join("submissions");
    fs_err::create_dir_all(submissions.join("accepted")).expect("mkdir");
    let path = submissions.join("accepted/old.py");
    fs_err::write(&path, "#!/usr/bin/env python2\nprint 1\n").expect("write");
    let listed = PackageSubmission {
        path: path.clone(),
        expected_as: ACCEPTED_FOLDER.to_owned(),
        standard: None,
    };
    let folders = |yaml: &str| FolderExpectations {
        submissions: submissions.clone(),
        scored: false,
        expectations: kattis_submissions::with_defaults(
            kattis_submissions::parse(yaml).expect("submissions.yaml"),
        ),
        markers: Vec::new(),
    };
    let config = JudgeConfig::defaults().expect("the built-in configuration");
    let (python2, _) = config
        .language_for(Path::new("x.py2"))
        .expect("a Python 2 language built in");
    let stated = folders("").stated(&listed, &config).expect("graded");
    assert_eq!(
        stated.language.map(|(name, _)| name).as_deref(),
        Some(python2)
    );
    assert!(stated
        .unavailable
        .is_some_and(|why| why.contains("`#!/usr/bin/env python2` line asks for Python 2")));

    let (python3, _) = config
        .language_for(Path::new("x.py"))
        .expect("a Python language built in");
    let stated = folders("accepted/old.py:\n  language: python3\n")
        .stated(&listed, &config)
        .expect("graded");
    assert_eq!(
        stated.language.map(|(name, _)| name).as_deref(),
        Some(python3)
    );
    assert!(stated.unavailable.is_none());

    let mut without = config.clone();
    let python2 = python2.to_owned();
    without.languages.remove(&python2);
    let skipped = folders("").stated(&listed, &without).expect_err("skipped");
    assert!(
        skipped.contains("configures no language for it"),
        "{skipped}"
    );
}

/// See: issue #33. The table's words for what decided a submission's
/// expectation are the format's: its folder, or the `submissions.yaml`
/// entries that demand something of it.
#[test]
fn the_folder_or_the_entries_decided() {
    let folders = |yaml: &str| FolderExpectations {
        submissions: PathBuf::from("p/submissions"),
        scored: false,
        expectations: kattis_submissions::with_defaults(
            kattis_submissions::parse(yaml).expect("submissions.yaml"),
        ),
        markers: Vec::new(),
    };
    let listed = PackageSubmission {
        path: PathBuf::from("p/submissions/accepted/s.py"),
        expected_as: ACCEPTED_FOLDER.to_owned(),
        standard: None,
    };
    assert_eq!(folders("").decided_by(&listed), "folder accepted");
    let decided = folders("accepted/*:\n  permitted: [AC, WA]\n").decided_by(&listed);
    assert!(
        decided.starts_with("submissions.yaml `accepted/*` line 1: "),
        "{decided}"
    );
    assert_eq!(folders("").limit_sources().stated_in, "problem.yaml");
}
