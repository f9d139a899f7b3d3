//! A package holds regular files, folders and links to them, nothing else
//! (issue #34, break-it 45 findings 1 and 2): a FIFO, a device or a socket
//! anywhere in it, or a link to one, refuses the package by name before
//! any of it is read or built. A FIFO where a validator's source or
//! `generators/` program is looked for blocked the judge in open(2) for
//! good, and one named `test_group.yaml`, `submissions.yaml` or an output
//! validator's source was taken for no file at all, so its settings were
//! silently dropped. One walk at the start closes every such place, those
//! to come included, where a check at each read would miss the next one.

use crate::config::{ConfigError, ConfigErrorKind};
use crate::data_file::{kind_of, Unread};
use std::path::Path;

/// Folders of a package that are not its content: a version control
/// store, and the judge's own cache of generated tests (which it writes as
/// regular files itself).
const NOT_CONTENT: &[&str] = &[".git", ".judge"];

/// Refuses the package in `dir` when anything in it, or anything a link in
/// it names, is neither a regular file nor a folder: the first such entry,
/// with what it is. Links are not followed into folders (a link out of the
/// package is refused, or read as its target, by the rules of the file
/// that names it); a link that names nothing is left to those rules too.
pub(crate) fn refuse(dir: &Path) -> Result<(), ConfigError> {
    let entries = walkdir::WalkDir::new(dir)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|entry| {
            entry.depth() == 0
                || !(entry.file_type().is_dir()
                    && NOT_CONTENT.iter().any(|name| entry.file_name() == *name))
        });
    for entry in entries {
        // An unreadable folder or a vanished entry is for the reader of
        // that file to name; this walk refuses only what it can see.
        let Ok(entry) = entry else { continue };
        let file_type = entry.file_type();
        let seen = if file_type.is_symlink() {
            // `stat` through the link: it opens nothing, so a FIFO at its
            // end cannot block here.
            match std::fs::metadata(entry.path()) {
                Ok(target) => target.file_type(),
                Err(_) => continue,
            }
        } else {
            file_type
        };
        if !(seen.is_file() || seen.is_dir()) {
            let kind = kind_of(seen);
            return Err(ConfigError {
                path: entry.path().to_owned(),
                kind: ConfigErrorKind::Unread(Unread::NotRegular {
                    kind: if file_type.is_symlink() {
                        link_to(kind)
                    } else {
                        kind
                    },
                }),
            });
        }
    }
    Ok(())
}

/// "a link to a FIFO (named pipe)" for what `kind_of` calls "a FIFO (named
/// pipe)".
fn link_to(kind: &'static str) -> &'static str {
    match kind {
        "a FIFO (named pipe)" => "a link to a FIFO (named pipe)",
        "a character device" => "a link to a character device",
        "a block device" => "a link to a block device",
        "a socket" => "a link to a socket",
        _ => "a link to what is not a regular file",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::net::UnixListener;

    fn fifo(path: &Path) {
        rustix::fs::mknodat(
            rustix::fs::CWD,
            path,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o644),
            0,
        )
        .expect("mkfifo");
    }

    #[test]
    fn regular_files_folders_and_links_to_them_pass() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        fs_err::create_dir_all(dir.path().join("data/secret")).expect("mkdir");
        fs_err::write(dir.path().join("data/secret/1.in"), "1\n").expect("write");
        std::os::unix::fs::symlink("1.in", dir.path().join("data/secret/2.in")).expect("link");
        std::os::unix::fs::symlink("data", dir.path().join("d")).expect("link");
        std::os::unix::fs::symlink("nowhere", dir.path().join("dangling")).expect("link");
        // The cache and a version control store are not the package's.
        fs_err::create_dir_all(dir.path().join(".git")).expect("mkdir");
        fifo(&dir.path().join(".git/fifo"));
        refuse(dir.path()).expect("a package of files");
    }

    /// A file's name in the package, what makes it, and what its refusal
    /// says.
    type Case<'a> = (&'a str, &'a dyn Fn(&Path), &'a str);

    #[test]
    fn a_fifo_a_link_to_one_a_device_and_a_socket_are_refused_by_name() {
        let cases: [Case<'_>; 4] = [
            (
                "input_validators/v.py",
                &|path| fifo(path),
                "is a FIFO (named pipe), not a regular file",
            ),
            (
                "data/secret/test_group.yaml",
                &|path| std::os::unix::fs::symlink("/dev/zero", path).expect("link"),
                "is a link to a character device, not a regular file",
            ),
            (
                "submissions/submissions.yaml",
                &|path| {
                    // Out of the walk's sight: only the link is seen.
                    let root = path.parent().and_then(Path::parent).expect("the package");
                    fs_err::create_dir_all(root.join(".git")).expect("mkdir");
                    fifo(&root.join(".git/fifo"));
                    std::os::unix::fs::symlink("../.git/fifo", path).expect("link");
                },
                "submissions.yaml`: is a link to a FIFO (named pipe), not a regular file",
            ),
            (
                "generators/gen.sock",
                &|path| drop(UnixListener::bind(path).expect("bind")),
                "is a socket, not a regular file",
            ),
        ];
        for (name, make, wanted) in cases {
            let dir = tempfile::tempdir().expect("a temporary folder");
            let path = dir.path().join(name);
            fs_err::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
            fs_err::write(dir.path().join("problem.yaml"), "name: x\n").expect("write");
            make(&path);
            let error = refuse(dir.path()).expect_err(name).to_string();
            assert!(error.contains(wanted), "{name}: {error}");
        }
    }
}
