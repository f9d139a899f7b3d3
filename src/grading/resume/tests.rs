use super::*;
use crate::runner::SubmissionResult;

fn graded(submission: &str, sha: &str, fingerprint: &str, verdict: Verdict) -> GradedResult {
    let result = SubmissionResult {
        language: "c".to_owned(),
        verdict,
        passed: 0,
        total: 0,
        ..SubmissionResult::fixture("rooks", submission, Vec::new())
    };
    GradedResult {
        submission_sha256: Some(sha.to_owned()),
        fingerprint: Some(fingerprint.to_owned()),
        ..GradedResult::fixture(result, "alice")
    }
}

fn report_file(dir: &Path, judge_version: Option<&str>, results: Vec<GradedResult>) -> PathBuf {
    let report = Grade {
        judge_version: judge_version.map(str::to_owned),
        ..Grade::fixture(crate::config::judge::Layout::ProblemStudent, results)
    };
    let path = dir.join("grades.json");
    fs_err::write(&path, crate::grading::grade::wire::render(&report).unwrap()).unwrap();
    path
}

#[test]
fn a_package_digest_changes_with_any_test() {
    let mut package = Package::load(None, "rooks").unwrap();
    let first = package_sha256(&package).unwrap();
    assert_eq!(package_sha256(&package).unwrap(), first);
    package.tests_mut()[0].answer = Some("999\n".to_owned());
    let second = package_sha256(&package).unwrap();
    assert_ne!(second, first);
    package.tests_mut()[0].answer = None;
    assert_ne!(package_sha256(&package).unwrap(), second);
    package.tests_mut()[0].input.push('\n');
    assert_ne!(package_sha256(&package).unwrap(), first);
    package.set_id("rooks-other");
    assert_ne!(package_sha256(&package).unwrap(), first);
}

#[test]
fn hashes_bytes_as_lowercase_hex() {
    assert_eq!(
        sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

#[test]
fn reuses_only_unchanged_pairs_that_are_not_judge_errors() {
    let dir = tempfile::tempdir().unwrap();
    let path = report_file(
        dir.path(),
        Some(JUDGE_VERSION),
        vec![
            graded("s/rooks/a.c", "1", "f", Verdict::Accepted),
            graded("s/rooks/b.c", "1", "f", Verdict::WrongAnswer),
            graded("s/rooks/c.c", "1", "f", Verdict::Accepted),
            graded("s/rooks/d.c", "1", "f", Verdict::JudgeError),
        ],
    );
    let mut resume = load(&path).unwrap();
    assert_eq!(resume.refused(), None);
    let reused = resume.take("s/rooks/a.c", "rooks", Some("1"), "f").unwrap();
    assert!(reused.reused);
    assert!(resume
        .take("s/rooks/b.c", "rooks", Some("2"), "f")
        .is_none());
    assert!(resume
        .take("s/rooks/c.c", "rooks", Some("1"), "g")
        .is_none());
    assert!(resume
        .take("s/rooks/d.c", "rooks", Some("1"), "f")
        .is_none());
    assert!(resume
        .take("s/rooks/e.c", "rooks", Some("1"), "f")
        .is_none());
    assert!(resume
        .take("s/rooks/a.c", "mayan", Some("1"), "f")
        .is_none());
    assert_eq!(
        resume.tally(),
        &Tally {
            reused: 1,
            changed_submissions: vec!["s/rooks/b.c".to_owned()],
            changed_settings: 1,
            judge_errors: 1,
            absent: 2,
            first_absent: resume.tally().first_absent.clone(),
        }
    );
    assert_eq!(
        resume
            .tally()
            .first_absent
            .as_ref()
            .map(|(path, _)| path.as_str()),
        Some("s/rooks/e.c")
    );
    assert_eq!(resume.tally().regraded(), 5);
}

#[test]
fn a_report_of_another_judge_reuses_nothing_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let path = report_file(
        dir.path(),
        Some("0.0.0-other"),
        vec![graded("s/rooks/a.c", "1", "f", Verdict::Accepted)],
    );
    let mut resume = load(&path).unwrap();
    assert_eq!(
        resume.refused(),
        Some(
            format!("it was written by judge 0.0.0-other; this is judge {JUDGE_VERSION}").as_str()
        )
    );
    assert!(resume
        .take("s/rooks/a.c", "rooks", Some("1"), "f")
        .is_none());
    let path = report_file(dir.path(), None, Vec::new());
    assert!(load(&path)
        .unwrap()
        .refused()
        .unwrap()
        .contains("an older judge"));
    fs_err::write(&path, r#"{"version": 2, "results": []}"#).unwrap();
    assert!(load(&path)
        .unwrap()
        .refused()
        .unwrap()
        .contains("report version 2"));
}

#[test]
fn files_that_are_not_grade_reports_are_errors_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("grades.json");
    let missing = load(&path).unwrap_err().to_string();
    assert!(missing.contains("grades.json"), "{missing}");
    for text in [
        "not json",
        "[]",
        r#"{"version": 1}"#,
        r#"{"version": 1, "results": 3}"#,
    ] {
        fs_err::write(&path, text).unwrap();
        let error = load(&path).unwrap_err();
        assert!(
            matches!(error, ResumeError::Parse { .. }),
            "{text}: {error}"
        );
        assert!(error.to_string().contains("grades.json"), "{error}");
    }
}

#[test]
fn a_resume_that_reuses_nothing_comes_with_the_note_saying_why() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("old.json");
    fs_err::write(&path, r#"{"version": 2, "results": []}"#).expect("writes");
    let mut said = Vec::new();
    let opened = open(None, Some(&path), &mut |line| said.push(line.to_owned())).expect("opens");
    assert!(opened.resume.expect("a resume").refused().is_some());
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].starts_with(&format!(
            "note: reusing no result of `{}`: it has report version 2",
            path.display()
        )),
        "{said:?}"
    );
    // The new report replaces the one resumed, with its journal beside.
    assert_eq!(opened.json, Some(path.as_path()));
    assert!(opened.journal.is_some());
    assert!(journal_path(&path).exists());
    fs_err::write(&path, "not json").expect("writes");
    let error = open(None, Some(&path), &mut |_| {}).expect_err("not a report");
    assert!(matches!(error, GradingError::Resume(_)), "{error}");
}

#[test]
fn without_resume_the_journal_goes_beside_the_json_report_and_never_to_stdout() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let json = dir.path().join("new.json");
    let mut said = Vec::new();
    let opened = open(Some(&json), None, &mut |line| said.push(line.to_owned())).expect("opens");
    assert!(opened.resume.is_none() && said.is_empty());
    assert_eq!(opened.json, Some(json.as_path()));
    assert!(journal_path(&json).exists());
    let stdout = Path::new("-");
    let opened = open(Some(stdout), None, &mut |_| {}).expect("opens");
    assert!(opened.journal.is_none());
    assert!(open(None, None, &mut |_| {})
        .expect("opens")
        .journal
        .is_none());
}

fn journal_line(graded: &GradedResult) -> String {
    format!(
        "{}\n",
        serde_json::to_string(&json::GradedResult::from(graded)).unwrap()
    )
}

#[test]
fn a_journal_is_read_without_its_torn_last_line_and_over_an_older_report() {
    let dir = tempfile::tempdir().unwrap();
    let path = report_file(
        dir.path(),
        Some(JUDGE_VERSION),
        vec![
            graded("a.c", "sha-a", "old", Verdict::WrongAnswer),
            graded("c.c", "sha-c", "f", Verdict::Accepted),
        ],
    );
    let mut journal = Journal::create(&journal_path(&path)).unwrap();
    journal
        .append(&graded("a.c", "sha-a", "f", Verdict::Accepted))
        .unwrap();
    journal
        .append(&graded("b.c", "sha-b", "f", Verdict::Accepted))
        .unwrap();
    drop(journal);
    let torn = journal_line(&graded("d.c", "sha-d", "f", Verdict::Accepted));
    let mut file = fs_err::OpenOptions::new()
        .append(true)
        .open(journal_path(&path))
        .unwrap();
    std::io::Write::write_all(&mut file, &torn.as_bytes()[..torn.len() / 2]).unwrap();
    drop(file);

    let mut resume = load(&path).unwrap();
    assert_eq!(resume.path(), journal_path(&path));
    // The journal's `a.c` (fingerprint `f`) stands over the report's.
    assert!(resume.take("a.c", "rooks", Some("sha-a"), "f").is_some());
    assert!(resume.take("b.c", "rooks", Some("sha-b"), "f").is_some());
    assert!(resume.take("c.c", "rooks", Some("sha-c"), "f").is_some());
    assert!(resume.take("d.c", "rooks", Some("sha-d"), "f").is_none());
    assert_eq!(resume.tally().reused, 3);

    // A report written after the journal is read alone.
    fs_err::write(
        journal_path(&path),
        journal_line(&graded("b.c", "x", "f", Verdict::Accepted)),
    )
    .unwrap();
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
    fs_err::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(later)
        .unwrap();
    let mut resume = load(&path).unwrap();
    assert_eq!(resume.path(), path);
    assert!(resume.take("b.c", "rooks", Some("x"), "f").is_none());
}

#[test]
fn a_broken_journal_line_before_the_last_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("grades.json");
    let good = journal_line(&graded("a.c", "s", "f", Verdict::Accepted));
    fs_err::write(
        journal_path(&path),
        format!("{good}{{\"oops\": 1}}\n{good}"),
    )
    .unwrap();
    let error = load(&path).unwrap_err().to_string();
    assert!(error.contains("grades.json.journal"), "{error}");
    assert!(error.contains("line 2"), "{error}");
}

/// Issue #33: a folder program's rules came into the language table;
/// a file's fingerprint hashes what it did before (the language's
/// rendering without them), and a folder program's changes with them.
#[test]
fn folder_rules_decide_a_folder_program_s_fingerprint_only() {
    let config = crate::config::judge::JudgeConfig::defaults().unwrap();
    let package = crate::package::Package::bundled("rooks").unwrap();
    let settings = crate::grading::settings::resolve(
        &crate::grading::settings::Overrides::default(),
        &config,
        &package,
    )
    .settings;
    let problem = crate::problems::PROBLEMS[0];
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.py");
    fs_err::write(&file, "print(1)\n").unwrap();
    let folder = dir.path().join("program");
    fs_err::create_dir(&folder).unwrap();
    let fingerprint = |path: &Path, entry: Option<&str>| {
        let mut language = config.languages["python"].clone();
        language.folder.entry = entry.map(str::to_owned);
        let kind = SubmissionKind::Language {
            name: "python".to_owned(),
            language,
        };
        let submission = Submission::new(path.to_owned(), kind);
        let fingerprint = Fingerprint::new(
            problem,
            "digest",
            &submission,
            &settings,
            TestsToRun::All,
            1,
            0,
        );
        serde_json::to_string(&fingerprint).unwrap()
    };
    let of_file = fingerprint(&file, Some("__main__.py"));
    assert!(!of_file.contains("folder_rules"), "{of_file}");
    assert!(
        of_file.contains(r#"Language { extensions: [\"py\", \"py3\"], source_name: None, "#),
        "{of_file}"
    );
    assert_eq!(of_file, fingerprint(&file, Some("main.py")));
    let of_folder = fingerprint(&folder, Some("__main__.py"));
    assert!(of_folder.contains("__main__.py"), "{of_folder}");
    assert_ne!(of_folder, fingerprint(&folder, Some("main.py")));
}
