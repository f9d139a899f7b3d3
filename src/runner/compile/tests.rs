use super::*;

#[test]
fn trims_long_messages_with_a_note() {
    let long = "é".repeat(MESSAGE_LIMIT_BYTES);
    let trimmed = trim_message(&long);
    assert!(trimmed.ends_with(&format!("({} more bytes not shown)", MESSAGE_LIMIT_BYTES)));
    assert_eq!(trim_message("short\n\n"), "short");
}

fn measured(termination: Termination, stderr: &str) -> crate::sandbox::Measured {
    crate::sandbox::Measured {
        termination,
        limit_exceeded: None,
        cpu_time_ms: 0,
        wall_time_ms: 0,
        memory_kib: 0,
        stdout: Vec::new(),
        stderr: stderr.as_bytes().to_vec(),
        stderr_discarded_bytes: 0,
        deadlocked: false,
        run_queue_wait_ms: None,
        wall_granted_ms: 0,
    }
}

/// See: issue #34. A compile that a file size limit ended says so, with
/// the limit and the key that raises it; any other failure does not.
#[test_case::test_case(Termination::Exited(4), "g++: internal compiler error: File size limit exceeded signal terminated program as", true ; "a driver reports its assembler")]
#[test_case::test_case(Termination::Signaled(libc::SIGXFSZ), "", true ; "the compiler itself")]
#[test_case::test_case(Termination::Exited(1), "a.cc:1:1: error: expected unqualified-id", false ; "a syntax error")]
#[test_case::test_case(Termination::Signaled(libc::SIGSEGV), "", false ; "another signal")]
fn a_compile_ended_by_its_file_size_limit_says_so(
    termination: Termination,
    stderr: &str,
    file_size: bool,
) {
    let limits = crate::config::judge::JudgeConfig::defaults()
        .unwrap()
        .compile_limits();
    let outcome = compile_outcome(
        &measured(termination, stderr),
        &limits,
        "compilation",
        "the compiler",
    );
    assert_eq!(outcome.verdict, Some(Verdict::CompileError));
    let says = "a file it wrote reached the compile's file size limit (512 MiB; a larger \
                `file-size-kib` under `[limits]` in judge.toml raises it)";
    assert_eq!(
        outcome.message.contains(says),
        file_size,
        "{}",
        outcome.message
    );
}

/// See: issue #33. A link the reader refuses reaches its callers as the
/// link's own refusal, its advice a hint beside the words (not a `String`
/// holding `hint:`), which a CE reason then shows after a blank line.
#[test]
fn a_refused_link_reaches_the_reader_with_its_hint_as_a_value() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("a.py");
    std::os::unix::fs::symlink(dir.path().join("gone.py"), &link).unwrap();
    let refused = read_submission(&link, &LinkScope::HandIn).unwrap_err();
    assert!(
        matches!(
            refused,
            SubmissionRefused::Link(LinkRefused::Dangling { .. })
        ),
        "{refused:?}"
    );
    let hint = refused.hint().expect("a dangling link has advice");
    assert!(!refused.to_string().contains("hint"), "{refused}");
    assert_eq!(refused.with_hint(), format!("{refused}\n\nhint: {hint}"));

    let folder = dir.path().join("folder");
    fs_err::create_dir(&folder).unwrap();
    let refused = read_submission(&folder, &LinkScope::HandIn).unwrap_err();
    assert!(
        matches!(refused, SubmissionRefused::Refused(_)),
        "{refused:?}"
    );
    assert_eq!(refused.hint(), None);
    assert_eq!(refused.with_hint(), refused.to_string());
}
