//! How far a symbolic link among a program's files may point (issues #7,
//! #34): the one rule [`super::read_submission`] and a folder program's
//! copy ([`super::folder_program`]) follow, in the [`LinkScope`] their
//! caller names.
//!
//! Whose program it is decides, and only the caller knows it: the grading
//! layer names a hand-in a hand-in, a package's loader names its programs
//! the package's. Nothing here guesses it from the files around a link: a
//! hand-in folder that holds a `problem.yaml` and a `submissions/` folder
//! of its own is still a hand-in (a review found that the guess let such a
//! hand-in link to another student's solution, which was then graded as
//! its own).
//!
//! A hand-in's link ([`LinkScope::HandIn`]) may resolve only inside the
//! folder that holds it, so a link to `/root/secret`, to another student's
//! folder or to another folder of the same hand-in is refused unread,
//! naming the link and where it points as written (never where that
//! resolves on the judge's host, which a student's report would show).
//!
//! A package's programs ([`LinkScope::Package`]) are the setter's own, and
//! its tools share files by links (BAPCtools' `output_validator/validation.h`
//! links to a header elsewhere in the package; a submission links to
//! another): a link among them may resolve anywhere inside the package.
//! A link there to a file outside the package is followed too (BAPCtools'
//! test problems link `validation.h` to the header its installation
//! ships) when the target is a public regular file: a regular file every
//! user of the machine may read, on a disk (not under `/proc`, `/sys` or
//! `/dev`). Its bytes are read as the link's content, so what runs, and
//! what an export writes, is a copy, never the link. A link out to a
//! folder, a device, a FIFO or a file not readable by everyone is refused
//! naming the link and its target: the judge may run as root, and a
//! hostile package must not lend `/etc/shadow` or a user's private key to
//! its programs (which could print it into a report). A file read in a
//! package's scope that is not inside that package (examples a judge.toml
//! keeps beside it) keeps a hand-in's rule.
//!
//! A package's test data and the files a Polygon package names may never
//! lead out of the package: that rule is [`crate::beneath`]'s (whose
//! [`LinkRefused`] this module's refusals share), and here only
//! [`data_link_out_of_package`] searches `data/` by it, to refuse a package
//! before any test is read.

use crate::beneath::{Beneath, BeneathError};
use std::path::{Path, PathBuf};

/// Whose program a file is, which decides how far its symbolic links may
/// point (see the module's rules): named by the caller that knows, never
/// guessed from a marker file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum LinkScope {
    /// A hand-in: a student's file or folder, a program named on the
    /// command line. A link may resolve only inside the folder holding it.
    /// Pro: nothing outside what was handed in is ever read as its own.
    /// Con: a hand-in cannot share one file between two of its folders.
    HandIn,
    /// One of the own programs of the package in this folder (its
    /// submissions, validators, checkers, generators): a link may resolve
    /// anywhere inside the package, or out of it to a public regular file.
    /// Pro: the package's tools share files as their setters link them.
    /// Con: a package can lend its programs any file every user may read.
    Package(PathBuf),
}

impl LinkScope {
    /// The scope of the own programs of the package in `dir`, named by its
    /// canonical path (as given when it does not resolve: a link in it then
    /// keeps a hand-in's rule).
    pub(crate) fn package(dir: &Path) -> LinkScope {
        LinkScope::Package(fs_err::canonicalize(dir).unwrap_or_else(|_| dir.to_owned()))
    }
}

/// The folders of a Kattis package that hold programs (and `include/`,
/// which the format copies into them): where [`links_out_of_package`]
/// looks for links out.
const PROGRAM_FOLDERS: &[&str] = &[
    "submissions",
    "input_validators",
    "input_validator",
    "answer_validators",
    "answer_validator",
    "output_validator",
    "output_validators",
    "static_validator",
    "input_visualizer",
    "output_visualizer",
    "generators",
    "include",
];

/// Where a link may resolve to, canonical.
#[derive(Debug, PartialEq, Eq)]
enum Boundary {
    /// Inside the folder holding it: a hand-in's link, or one outside the
    /// package its scope names.
    Folder(PathBuf),
    /// Inside the package, or out of it to a public regular file.
    Package(PathBuf),
}

/// Where the link at `link` may resolve to in `scope`: the package, for a
/// link inside the folder of the package the scope names, else the folder
/// holding it. `None` when that folder cannot be resolved.
fn link_boundary(link: &Path, scope: &LinkScope) -> Option<Boundary> {
    let parent = match link.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let folder = fs_err::canonicalize(parent).ok()?;
    let package = match scope {
        LinkScope::HandIn => None,
        LinkScope::Package(root) => fs_err::canonicalize(root)
            .ok()
            .filter(|root| folder.starts_with(root)),
    };
    Some(match package {
        Some(root) => Boundary::Package(root),
        None => Boundary::Folder(folder),
    })
}

pub(crate) use crate::beneath::{LinkOwner, LinkRefused};

/// The target of the symbolic link `link`, when it resolves where `scope`
/// lets it (see the module's rules); else why not, naming the link and
/// its target.
pub(crate) fn resolve_link(link: &Path, scope: &LinkScope) -> Result<PathBuf, LinkRefused> {
    let boundary = link_boundary(link, scope);
    let target = fs_err::canonicalize(link).map_err(|_| {
        // A hand-in's link that leads out of its folder is refused as such
        // whether or not its target is there: "does not resolve" would
        // tell the student what is (not) on the judge's host (issue #34).
        if let Some(Boundary::Folder(folder)) = &boundary {
            if leaves_folder(link, folder) {
                return LinkRefused::OutsideFolder {
                    link: link.to_owned(),
                    written: fs_err::read_link(link).ok(),
                };
            }
        }
        // Name what it points to: a package copied without the files its
        // links reach out to (BAPCtools' test problems link `validation.h`
        // into the BAPCtools tree) says where they were expected; a
        // hand-in's, the student's own file (the advice is theirs).
        LinkRefused::Dangling {
            link: link.to_owned(),
            written: fs_err::read_link(link).ok(),
            owner: match boundary {
                Some(Boundary::Package(_)) => LinkOwner::Package,
                Some(Boundary::Folder(_)) | None => LinkOwner::HandIn,
            },
        }
    })?;
    match boundary {
        Some(Boundary::Folder(folder)) if target.starts_with(&folder) => Ok(target),
        Some(Boundary::Package(root)) if target.starts_with(&root) => Ok(target),
        Some(Boundary::Package(root)) => match not_public(&target) {
            None => Ok(target),
            Some(why) => Err(LinkRefused::NotPublic {
                link: link.to_owned(),
                target,
                package: root,
                why,
            }),
        },
        Some(Boundary::Folder(_)) | None => Err(LinkRefused::OutsideFolder {
            link: link.to_owned(),
            written: fs_err::read_link(link).ok(),
        }),
    }
}

/// Whether the link `link`, in the canonical `folder`, that does not
/// resolve, leads out of `folder` on its way: each link of its chain
/// followed as the kernel would, as far as the folders on the way are
/// there.
fn leaves_folder(link: &Path, folder: &Path) -> bool {
    let Some(name) = link.file_name() else {
        return false;
    };
    let mut at = folder.join(name);
    // As many links as the kernel follows before it calls it a loop.
    for _ in 0..40 {
        let Ok(written) = fs_err::read_link(&at) else {
            return false;
        };
        let joined = match at.parent() {
            Some(parent) => parent.join(written),
            None => written,
        };
        let next = match (joined.parent(), joined.file_name()) {
            (Some(parent), Some(name)) => resolved_as_far_as_there(parent).join(name),
            _ => resolved_as_far_as_there(&joined),
        };
        if !next.starts_with(folder) {
            return true;
        }
        at = next;
    }
    false
}

/// The absolute `path` with its longest existing beginning made canonical
/// and the rest (folders that are not there) taken as written.
fn resolved_as_far_as_there(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut head = path.to_owned();
    // The components not there yet, last first: a name, or `..` (`None`).
    let mut rest = Vec::new();
    loop {
        if let Ok(mut resolved) = fs_err::canonicalize(&head) {
            for component in rest.iter().rev() {
                match component {
                    None => {
                        resolved.pop();
                    }
                    Some(name) => resolved.push(name),
                }
            }
            return resolved;
        }
        match head.components().next_back() {
            Some(Component::ParentDir) => rest.push(None),
            Some(Component::Normal(name)) => rest.push(Some(name.to_owned())),
            Some(Component::CurDir) => {}
            _ => return path.to_owned(),
        }
        head.pop();
    }
}

/// Why the canonical `target` of a link out of a package is not followed,
/// or `None` when it is a public regular file (see the module's rule).
fn not_public(target: &Path) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    if ["/proc", "/sys", "/dev"]
        .iter()
        .any(|pseudo| target.starts_with(pseudo))
    {
        return Some("is not a file on a disk".to_owned());
    }
    let metadata = match fs_err::metadata(target) {
        Ok(metadata) => metadata,
        Err(error) => return Some(format!("cannot be read ({error})")),
    };
    if metadata.is_dir() {
        return Some("is a folder (a link out is followed only to a file)".to_owned());
    }
    if !metadata.is_file() {
        return Some("is not a regular file (a device, a FIFO or a socket)".to_owned());
    }
    if metadata.permissions().mode() & 0o004 == 0 {
        return Some("is not readable by every user of this machine".to_owned());
    }
    let closed = target.ancestors().skip(1).find(|folder| {
        fs_err::metadata(folder).map_or(true, |metadata| metadata.permissions().mode() & 0o001 == 0)
    });
    if let Some(folder) = closed {
        return Some(format!(
            "is in `{}`, which not every user of this machine may enter",
            folder.display()
        ));
    }
    if let Err(error) = fs_err::File::open(target) {
        return Some(format!("cannot be read ({error})"));
    }
    None
}

/// The links under the program folders of the Kattis package `package`
/// (canonical) that resolve outside it and are followed, each with its
/// target: the package layer names them on stderr.
pub(crate) fn links_out_of_package(package: &Path) -> Vec<(PathBuf, PathBuf)> {
    let Ok(root) = fs_err::canonicalize(package) else {
        return Vec::new();
    };
    let scope = LinkScope::Package(root.clone());
    let mut followed = Vec::new();
    for folder in PROGRAM_FOLDERS {
        for entry in walkdir::WalkDir::new(root.join(folder))
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .filter(|entry| entry.path_is_symlink())
        {
            if let Ok(target) = resolve_link(entry.path(), &scope) {
                if !target.starts_with(&root) {
                    followed.push((entry.into_path(), target));
                }
            }
        }
    }
    followed
}

/// The first symbolic link under the test data (`data/`, itself included)
/// of the Kattis package `package` that leads outside the package, with
/// why it is refused, naming where it points (issue #34). Test data is
/// read into reports and fed to programs, so unlike a program's file no
/// link out is followed, not even to a public file: the rule of
/// [`crate::beneath`], whose [`Beneath`] every reader of `data/` opens its
/// files through, so a link made after this search is refused when it is
/// read. This search only refuses the package early, naming the link; the
/// target is never opened, only resolved. A link to a folder inside the
/// package is searched in turn; a link that does not resolve reads nothing
/// (the file's reader says it is missing).
pub(crate) fn data_link_out_of_package(package: &Path) -> Result<(), (PathBuf, String)> {
    let Ok(beneath) = Beneath::new(package) else {
        return Ok(());
    };
    let mut folders = vec![package.join("data")];
    let mut seen = std::collections::BTreeSet::new();
    while let Some(folder) = folders.pop() {
        for entry in walkdir::WalkDir::new(&folder)
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .filter(|entry| entry.path_is_symlink())
        {
            let link = entry.path();
            let handle = match beneath.look(link) {
                Ok(handle) => handle,
                Err(BeneathError::Refused(LinkRefused::OutsidePackage { .. })) => {
                    return Err((link.to_owned(), data_refusal(&beneath, link)));
                }
                Err(_) => continue,
            };
            let Ok(stat) = rustix::fs::fstat(&handle) else {
                continue;
            };
            let is_folder = rustix::fs::FileType::from_raw_mode(stat.st_mode)
                == rustix::fs::FileType::Directory;
            if is_folder && seen.insert((stat.st_dev, stat.st_ino)) {
                folders.push(link.to_owned());
            }
        }
    }
    Ok(())
}

/// Why the link `link` under `data/` is refused: where it is written to
/// point and where that resolves (a name only: nothing there is opened).
fn data_refusal(beneath: &Beneath, link: &Path) -> String {
    let written = fs_err::read_link(link).ok();
    let target = fs_err::canonicalize(link)
        .ok()
        .or_else(|| written.clone())
        .unwrap_or_else(|| link.to_owned());
    let written = written
        .filter(|written| *written != target)
        .map(|written| format!("`{}`, that is ", written.display()))
        .unwrap_or_default();
    let root = fs_err::canonicalize(beneath.root()).unwrap_or_else(|_| beneath.root().to_owned());
    format!(
        "refused: it is a symbolic link (symlink) to {written}`{}`, outside the package `{}`; its \
         target was not read\n\nhint: test data under `data/` must be in the package: copy the \
         file into it (a link may point anywhere inside the package)",
        target.display(),
        root.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_package_program_may_link_within_the_package_and_a_hand_in_within_its_folder() {
        let root = tempfile::tempdir().unwrap();
        let package = root.path().join("pkg");
        fs_err::create_dir_all(package.join("output_validator")).unwrap();
        fs_err::create_dir_all(package.join("notes")).unwrap();
        fs_err::write(package.join("problem.yaml"), "name: x\n").unwrap();
        let package = fs_err::canonicalize(&package).unwrap();
        let scope = LinkScope::package(&package);
        assert_eq!(
            link_boundary(&package.join("output_validator/validation.h"), &scope),
            Some(Boundary::Package(package.clone()))
        );
        // The caller names the scope: anywhere in the package is the
        // package's, and the same file read as a hand-in keeps its folder.
        assert_eq!(
            link_boundary(&package.join("notes/a.h"), &scope),
            Some(Boundary::Package(package.clone()))
        );
        assert_eq!(
            link_boundary(
                &package.join("output_validator/validation.h"),
                &LinkScope::HandIn
            ),
            Some(Boundary::Folder(package.join("output_validator")))
        );
        let class = fs_err::canonicalize(root.path()).unwrap();
        fs_err::create_dir_all(class.join("alice")).unwrap();
        assert_eq!(
            link_boundary(&class.join("alice/sol.py"), &LinkScope::HandIn),
            Some(Boundary::Folder(class.join("alice")))
        );
        // Outside the package its scope names, a file keeps a hand-in's
        // bound (examples a judge.toml keeps beside a package).
        assert_eq!(
            link_boundary(&class.join("alice/sol.py"), &scope),
            Some(Boundary::Folder(class.join("alice")))
        );
        // A hand-in holding a `problem.yaml` of its own is no package: its
        // `submissions/` keep a hand-in's rule, whatever the marker is (a
        // regular file, a link to nothing, a FIFO; break-it b33 and the
        // review after it: a link to another student's file was followed).
        fs_err::create_dir_all(class.join("bob/submissions")).unwrap();
        fs_err::write(class.join("bob/problem.yaml"), "name: x\n").unwrap();
        assert_eq!(
            link_boundary(&class.join("bob/submissions/out.py"), &LinkScope::HandIn),
            Some(Boundary::Folder(class.join("bob/submissions")))
        );
        fs_err::remove_file(class.join("bob/problem.yaml")).unwrap();
        std::os::unix::fs::symlink("nowhere", class.join("bob/problem.yaml")).unwrap();
        assert_eq!(
            link_boundary(&class.join("bob/submissions/out.py"), &LinkScope::HandIn),
            Some(Boundary::Folder(class.join("bob/submissions")))
        );
        fs_err::remove_file(class.join("bob/problem.yaml")).unwrap();
        rustix::fs::mknodat(
            rustix::fs::CWD,
            class.join("bob/problem.yaml"),
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
        assert_eq!(
            link_boundary(&class.join("bob/submissions/out.py"), &LinkScope::HandIn),
            Some(Boundary::Folder(class.join("bob/submissions")))
        );
    }

    /// A hand-in's link to a public file in a sibling folder, or elsewhere
    /// in its own hand-in, is refused naming the link and its target,
    /// though the hand-in holds a `problem.yaml` and a `submissions/`; the
    /// same link among a package's programs is followed.
    #[test]
    fn a_hand_in_holding_a_marker_keeps_its_folder_s_bound() {
        use std::os::unix::fs::{symlink, PermissionsExt};
        let root = tempfile::tempdir().unwrap();
        let class = fs_err::canonicalize(root.path()).unwrap();
        fs_err::set_permissions(&class, std::fs::Permissions::from_mode(0o755)).unwrap();
        for folder in ["alice", "bob/submissions", "bob/notes"] {
            fs_err::create_dir_all(class.join(folder)).unwrap();
        }
        for folder in ["alice", "bob", "bob/submissions", "bob/notes"] {
            fs_err::set_permissions(class.join(folder), std::fs::Permissions::from_mode(0o755))
                .unwrap();
        }
        let public = |path: &Path| {
            fs_err::write(path, "print(1)\n").unwrap();
            fs_err::set_permissions(path, std::fs::Permissions::from_mode(0o644)).unwrap();
        };
        public(&class.join("alice/sol.py"));
        public(&class.join("bob/notes/sol.py"));
        fs_err::write(class.join("bob/problem.yaml"), "name: x\n").unwrap();
        let sibling = class.join("bob/submissions/sol.py");
        symlink("../../alice/sol.py", &sibling).unwrap();
        let own = class.join("bob/submissions/notes.py");
        symlink("../notes/sol.py", &own).unwrap();
        for (link, written) in [(&sibling, "../../alice/sol.py"), (&own, "../notes/sol.py")] {
            let error = resolve_link(link, &LinkScope::HandIn).unwrap_err();
            assert_eq!(
                error,
                LinkRefused::OutsideFolder {
                    link: link.clone(),
                    written: Some(PathBuf::from(written)),
                }
            );
            assert_eq!(
                error.to_string(),
                format!(
                    "refused `{}`: it is a symbolic link (symlink) to a file outside its folder \
                     (`{written}`); its target was not read",
                    link.display()
                )
            );
        }
        let bob = LinkScope::package(&class.join("bob"));
        assert_eq!(resolve_link(&own, &bob), Ok(class.join("bob/notes/sol.py")));
        assert_eq!(resolve_link(&sibling, &bob), Ok(class.join("alice/sol.py")));
    }

    #[test]
    fn a_package_link_out_is_followed_only_to_a_public_regular_file() {
        use std::os::unix::fs::{symlink, PermissionsExt};
        let root = tempfile::tempdir().unwrap();
        let root = fs_err::canonicalize(root.path()).unwrap();
        fs_err::set_permissions(&root, std::fs::Permissions::from_mode(0o755)).unwrap();
        let package = root.join("pkg");
        let program = package.join("output_validator");
        fs_err::create_dir_all(&program).unwrap();
        fs_err::write(package.join("problem.yaml"), "name: x\n").unwrap();
        let shared = root.join("headers");
        fs_err::create_dir_all(&shared).unwrap();
        fs_err::set_permissions(&shared, std::fs::Permissions::from_mode(0o755)).unwrap();
        let public = shared.join("validation.h");
        fs_err::write(&public, "// header\n").unwrap();
        fs_err::set_permissions(&public, std::fs::Permissions::from_mode(0o644)).unwrap();
        let private = shared.join("secret.h");
        fs_err::write(&private, "secret\n").unwrap();
        fs_err::set_permissions(&private, std::fs::Permissions::from_mode(0o600)).unwrap();
        symlink("../../headers/validation.h", program.join("validation.h")).unwrap();
        symlink(&private, program.join("secret.h")).unwrap();
        symlink(&shared, program.join("headers")).unwrap();
        symlink("/dev/null", program.join("null.h")).unwrap();

        let scope = LinkScope::package(&package);
        assert_eq!(
            resolve_link(&program.join("validation.h"), &scope),
            Ok(public.clone())
        );
        // Copied without what it links to (issue #34: BAPCtools' test
        // problems without the BAPCtools tree): the message names where
        // the link points.
        symlink("../../../gone/validation.h", program.join("gone.h")).unwrap();
        for (link, why) in [
            (
                "gone.h",
                "symbolic link (symlink) to `../../../gone/validation.h` that does not resolve",
            ),
            ("secret.h", "is not readable by every user of this machine"),
            ("headers", "is a folder"),
            ("null.h", "is not a file on a disk"),
        ] {
            let error = resolve_link(&program.join(link), &scope)
                .unwrap_err()
                .to_string();
            assert!(
                error.contains(&format!("refused `{}`", program.join(link).display()))
                    && error.contains(why),
                "{link}: {error}"
            );
        }
        assert_eq!(
            links_out_of_package(&package),
            vec![(program.join("validation.h"), public)]
        );
        // A hand-in's link keeps its own folder's bound.
        let class = root.join("alice");
        fs_err::create_dir_all(&class).unwrap();
        symlink(root.join("headers/validation.h"), class.join("a.h")).unwrap();
        assert!(resolve_link(&class.join("a.h"), &LinkScope::HandIn).is_err());
    }

    /// A refusal's advice is a value beside its message (issue #33): the
    /// message never holds `hint:`, a CE reason shows both.
    #[test]
    fn a_refused_link_keeps_its_hint_apart_from_its_message() {
        let refused = LinkRefused::NotPublic {
            link: PathBuf::from("p/a.h"),
            target: PathBuf::from("/x/a.h"),
            package: PathBuf::from("/p"),
            why: "is a folder".to_owned(),
        };
        let hint = refused.hint().unwrap().to_string();
        assert!(hint.starts_with("a link out of a package"), "{hint}");
        assert!(!refused.to_string().contains("hint"), "{refused}");
        assert_eq!(refused.with_hint(), format!("{refused}\n\nhint: {hint}"));
        let outside = LinkRefused::OutsideFolder {
            link: PathBuf::from("alice/a.h"),
            written: Some(PathBuf::from("../bob/a.h")),
        };
        assert_eq!(outside.hint(), None);
        assert_eq!(outside.with_hint(), outside.to_string());
        let config = crate::config::ConfigError::invalid_with_hint(
            Path::new("p"),
            "program",
            refused.to_string(),
            refused.hint(),
        );
        assert_eq!(config.hint(), refused.hint());
        assert!(!config.to_string().contains("hint"), "{config}");
    }

    /// See: issue #34. A link that leads nowhere is refused naming where it
    /// points, with advice for whoever owns it: a package's own program's
    /// for its setter (copy the package with what its links reach), a
    /// hand-in's for its student (hand in the file itself), also a hand-in
    /// graded in a package's scope outside that package.
    #[test]
    fn a_link_to_nothing_gets_its_owner_s_advice() {
        let root = tempfile::tempdir().unwrap();
        let package = root.path().join("pkg");
        fs_err::create_dir_all(package.join("submissions/accepted")).unwrap();
        fs_err::create_dir_all(root.path().join("class")).unwrap();
        let in_package = package.join("submissions/accepted/gone.py");
        let hand_in = root.path().join("class/gone.py");
        // Out of the link's folder and back: a hand-in's link that left
        // its folder would be refused as leaving it, not as dangling.
        for link in [&in_package, &hand_in] {
            std::os::unix::fs::symlink("../class/nowhere.py", link).unwrap();
        }
        let owner = |link: &Path, scope: &LinkScope| match resolve_link(link, scope) {
            Err(LinkRefused::Dangling { written, owner, .. }) => {
                assert_eq!(written, Some(PathBuf::from("../class/nowhere.py")));
                owner
            }
            other => panic!("{other:?}"),
        };
        let scope = LinkScope::package(&package);
        assert_eq!(owner(&in_package, &scope), LinkOwner::Package);
        assert_eq!(owner(&hand_in, &scope), LinkOwner::HandIn);
        assert_eq!(owner(&hand_in, &LinkScope::HandIn), LinkOwner::HandIn);
        let out = root.path().join("class/out.py");
        std::os::unix::fs::symlink("../nowhere.py", &out).unwrap();
        assert!(
            matches!(
                resolve_link(&out, &LinkScope::HandIn),
                Err(LinkRefused::OutsideFolder { .. })
            ),
            "{:?}",
            resolve_link(&out, &LinkScope::HandIn)
        );
        let hint = |owner| {
            LinkRefused::Dangling {
                link: hand_in.clone(),
                written: None,
                owner,
            }
            .hint()
            .expect("a link to nothing has advice")
            .to_string()
        };
        assert!(hint(LinkOwner::Package).contains("copy the package"));
        let student = hint(LinkOwner::HandIn);
        assert!(student.contains("hand in the file itself"), "{student}");
        assert!(!student.contains("package"), "{student}");
    }
}
