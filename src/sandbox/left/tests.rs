//! The rules of [`super`], each with a file that breaks it, on both ways
//! of opening (`openat2` and the fallback of one `openat` per component).

use super::*;
use std::os::unix::fs::PermissionsExt;
use test_case::test_case;

/// A program's folder with its `feedback/` folder, and a root-only (0600)
/// secret beside it, outside the folder.
struct Setup {
    _root: tempfile::TempDir,
    folder: std::path::PathBuf,
    secret: std::path::PathBuf,
}

fn setup() -> Setup {
    let root = tempfile::tempdir().unwrap();
    let folder = root.path().join("run");
    fs_err::create_dir_all(folder.join("feedback")).unwrap();
    let secret = root.path().join("secret.txt");
    fs_err::write(&secret, "the hidden answer\n").unwrap();
    fs_err::set_permissions(&secret, std::fs::Permissions::from_mode(0o600)).unwrap();
    Setup {
        _root: root,
        folder,
        secret,
    }
}

/// Runs `check` once with `openat2` and once with the fallback.
fn both_ways(check: impl Fn()) {
    for fallback in [false, true] {
        FORCE_FALLBACK.with(|force| force.set(fallback));
        check();
    }
    FORCE_FALLBACK.with(|force| force.set(false));
}

fn refused(setup: &Setup, name: &str) -> String {
    match read_left(&setup.folder, name, 1024) {
        Err(error) => error.to_string(),
        Ok(bytes) => panic!("`{name}` was read: {bytes:?}"),
    }
}

#[test]
fn an_honest_file_is_read_and_a_missing_one_is_none() {
    let setup = setup();
    fs_err::write(setup.folder.join("feedback/judgemessage.txt"), "wrong sum").unwrap();
    both_ways(|| {
        let read = read_left(&setup.folder, "feedback/judgemessage.txt", 1024).unwrap();
        assert_eq!(read.as_deref(), Some(&b"wrong sum"[..]));
        assert!(read_left(&setup.folder, "feedback/score.txt", 1024)
            .unwrap()
            .is_none());
    });
}

#[test]
fn a_link_to_a_root_only_file_is_refused_not_read() {
    let setup = setup();
    std::os::unix::fs::symlink(
        &setup.secret,
        setup.folder.join("feedback/judgemessage.txt"),
    )
    .unwrap();
    both_ways(|| {
        let message = refused(&setup, "feedback/judgemessage.txt");
        assert_eq!(
            message,
            "`feedback/judgemessage.txt` is a symbolic link, or has one in its path (links are \
             not followed)"
        );
    });
}

#[test]
fn a_linked_folder_on_the_way_is_refused() {
    let setup = setup();
    let elsewhere = setup.secret.with_file_name("elsewhere");
    fs_err::create_dir(&elsewhere).unwrap();
    fs_err::write(elsewhere.join("judgemessage.txt"), "from outside").unwrap();
    fs_err::remove_dir(setup.folder.join("feedback")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, setup.folder.join("feedback")).unwrap();
    both_ways(|| {
        let message = refused(&setup, "feedback/judgemessage.txt");
        assert!(
            message.contains("link") && !message.contains("from outside"),
            "{message}"
        );
    });
}

#[test]
fn a_link_to_dev_zero_is_refused_before_anything_is_read() {
    let setup = setup();
    std::os::unix::fs::symlink("/dev/zero", setup.folder.join("feedback/score.txt")).unwrap();
    both_ways(|| {
        assert!(refused(&setup, "feedback/score.txt").contains("symbolic link"));
    });
}

#[test]
fn a_fifo_is_refused_without_blocking() {
    let setup = setup();
    let fifo = setup.folder.join("feedback/judgemessage.txt");
    rustix::fs::mkfifoat(rustix::fs::CWD, &fifo, Mode::from_raw_mode(0o600)).unwrap();
    let folder = setup.folder.clone();
    // Nobody ever writes to the FIFO: an open or a read that blocks never
    // returns, and the test fails on the timeout instead of hanging.
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for fallback in [false, true] {
            FORCE_FALLBACK.with(|force| force.set(fallback));
            let result = read_left(&folder, "feedback/judgemessage.txt", 1024)
                .map_err(|error| error.to_string());
            sender.send(result).unwrap();
        }
    });
    for _ in 0..2 {
        let result = receiver
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("the judge blocked on a FIFO");
        assert_eq!(
            result.unwrap_err(),
            "`feedback/judgemessage.txt` is a named pipe (FIFO), not a regular file"
        );
    }
}

#[test]
fn a_folder_is_not_a_message() {
    let setup = setup();
    fs_err::create_dir(setup.folder.join("feedback/judgemessage.txt")).unwrap();
    both_ways(|| {
        assert_eq!(
            refused(&setup, "feedback/judgemessage.txt"),
            "`feedback/judgemessage.txt` is a folder, not a regular file"
        );
    });
}

#[test]
fn a_hard_link_to_a_root_only_file_is_refused() {
    let setup = setup();
    fs_err::hard_link(&setup.secret, setup.folder.join("feedback/nextpass.in")).unwrap();
    both_ways(|| {
        assert_eq!(
            refused(&setup, "feedback/nextpass.in"),
            "`feedback/nextpass.in` has 2 names: a hard link to another file is not read"
        );
    });
}

#[test_case(1024, true ; "exactly the limit")]
#[test_case(1023, false ; "one byte over")]
fn a_file_over_its_limit_is_refused_after_reading_one_byte_more(limit: u64, read: bool) {
    let setup = setup();
    fs_err::write(setup.folder.join("feedback/score.txt"), vec![b'7'; 1024]).unwrap();
    let result = read_left(&setup.folder, "feedback/score.txt", limit);
    if read {
        assert_eq!(result.unwrap().map(|bytes| bytes.len()), Some(1024));
    } else {
        assert_eq!(
            result.unwrap_err().to_string(),
            "`feedback/score.txt` holds more than the 1023 bytes the judge reads of it"
        );
    }
}

/// See: issue #34. A message is cut at its bound, and what lies past it
/// is counted (by its size), never read; a sparse file of 6 GiB costs
/// nothing.
#[test_case(1024, 0 ; "exactly the limit")]
#[test_case(1000, 24 ; "past the limit")]
fn a_messages_prefix_is_read_and_the_rest_counted(limit: u64, more: u64) {
    let setup = setup();
    let path = setup.folder.join("feedback/judgemessage.txt");
    fs_err::write(&path, vec![b'x'; 1024]).unwrap();
    let file = open_left(&setup.folder, "feedback/judgemessage.txt")
        .unwrap()
        .unwrap();
    let (bytes, unread) = file.read_prefix(limit).unwrap();
    assert_eq!((bytes.len() as u64, unread), (limit, more));
    fs_err::File::create(&path)
        .unwrap()
        .set_len(6 << 30)
        .unwrap();
    let file = open_left(&setup.folder, "feedback/judgemessage.txt")
        .unwrap()
        .unwrap();
    let (bytes, unread) = file.read_prefix(16384).unwrap();
    assert_eq!((bytes.len(), unread), (16384, (6 << 30) - 16384));
}

#[test_case("../secret.txt" ; "a parent")]
#[test_case("/etc/passwd" ; "an absolute path")]
#[test_case("" ; "empty")]
fn a_name_out_of_the_folder_is_never_opened(name: &str) {
    let setup = setup();
    both_ways(|| {
        assert!(read_left(&setup.folder, name, 1024).is_err(), "{name}");
    });
}

#[test]
fn a_fresh_file_replaces_a_planted_link_and_never_writes_through_it() {
    let setup = setup();
    let input = setup.folder.join("input");
    std::os::unix::fs::symlink(&setup.secret, &input).unwrap();
    write_fresh(&setup.folder, "input", b"second 7\n").unwrap();
    assert_eq!(
        fs_err::read_to_string(&setup.secret).unwrap(),
        "the hidden answer\n"
    );
    assert!(!fs_err::symlink_metadata(&input)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(fs_err::read_to_string(&input).unwrap(), "second 7\n");
    assert_eq!(
        fs_err::metadata(&input).unwrap().permissions().mode() & 0o777,
        0o644
    );
    // In a sub-folder too, and over an honest file.
    std::os::unix::fs::symlink(&setup.secret, setup.folder.join("feedback/x")).unwrap();
    write_fresh(&setup.folder, "feedback/x", b"1").unwrap();
    write_fresh(&setup.folder, "feedback/x", b"2").unwrap();
    assert_eq!(
        fs_err::read_to_string(setup.folder.join("feedback/x")).unwrap(),
        "2"
    );
    assert_eq!(
        fs_err::read_to_string(&setup.secret).unwrap(),
        "the hidden answer\n"
    );
}
