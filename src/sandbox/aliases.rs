//! The judge's data known by identity (device and inode) as well as by
//! path, so a toolchain folder lent to a compile cannot reach it under
//! another name: a bind mount of the tests inside `course/lib`, a hard
//! link to an answer in `course/share`, a folder reached through a name
//! of another case on a case-folding file system (issue 18, fifth red
//! team), an answer bind-mounted onto a file in `course/include` (issue
//! 35). The path rules of [`super::hidden`] see none of these.

use super::walk::{every_depth, harmless};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// A file's identity: device and inode.
type Id = (u64, u64);

/// What is recorded of the judge's data by identity: the folders that
/// are, hold or lie inside it, and its files. Every file, not only those
/// with other names (hard links): a file bind-mounted onto a file of a lent
/// folder has one name, and is the data all the same (issue 35). A value,
/// kept in [`super::hidden::Hidden`].
#[derive(Default)]
pub(super) struct Identities {
    folders: Vec<Entry>,
    files: Vec<Entry>,
    /// Bumped by every [`Identities::record`]: the answers of
    /// [`Identities::look`] so far hold until then.
    generation: u64,
    /// The answers of [`Identities::look`] by lent folder, each with
    /// the generation it was given at.
    answers: std::sync::Mutex<std::collections::BTreeMap<PathBuf, (u64, Option<String>)>>,
}

/// A folder or file of the judge's data (or a folder holding it): its
/// identity, the data it was recorded for, and its own path then.
#[derive(Clone)]
struct Entry {
    id: Id,
    data: PathBuf,
    path: PathBuf,
}

impl Entry {
    /// Whether `found` is this entry while its own path still names it: an
    /// entry whose folder or file was removed since (a temporary folder)
    /// may see its inode number given to another, which is not the data.
    fn is(&self, found: Id) -> bool {
        self.id == found && id(&self.path) == Some(found)
    }
}

/// The most entries walked in one folder: about a second of `statx` on a
/// cold cache, where a toolchain folder (a Rust toolchain with its
/// documents) holds tens of thousands.
const WALK_LIMIT: usize = 200_000;

/// Adds `entry` to `list`: an entry of the same identity stays unless its
/// own path no longer names it (it was removed, and its number reused).
fn keep(list: &mut Vec<Entry>, entry: Entry) {
    match list.iter().position(|known| known.id == entry.id) {
        Some(at) if !list[at].is(entry.id) => list[at] = entry,
        Some(_) => {}
        None => list.push(entry),
    }
}

/// [`keep`] for each of `more`, with the identities of `list` looked up
/// once (a class's hand-ins are thousands of entries).
fn keep_all(list: &mut Vec<Entry>, more: Vec<Entry>) {
    let mut at: std::collections::HashMap<Id, usize> = list
        .iter()
        .enumerate()
        .map(|(index, entry)| (entry.id, index))
        .collect();
    for entry in more {
        match at.get(&entry.id) {
            Some(&index) if !list[index].is(entry.id) => list[index] = entry,
            Some(_) => {}
            None => {
                at.insert(entry.id, list.len());
                list.push(entry);
            }
        }
    }
}

fn id(path: &Path) -> Option<Id> {
    fs_err::metadata(path)
        .ok()
        .map(|metadata| (metadata.dev(), metadata.ino()))
}

impl Identities {
    /// Records `data` (resolved): itself and the folders holding it; with
    /// `whole`, also every folder and file inside it.
    pub(super) fn record(&mut self, data: &Path, whole: bool) {
        let known = self;
        known.generation += 1;
        let entry = |found: Id, path: &Path| Entry {
            id: found,
            data: data.to_path_buf(),
            path: path.to_path_buf(),
        };
        for ancestor in data.ancestors() {
            if let Some(found) = id(ancestor) {
                keep(&mut known.folders, entry(found, ancestor));
            }
        }
        if !whole {
            return;
        }
        // At every depth (issue 35), up to the walk's limit: more than that in
        // one data folder (a class's hand-ins, a problems folder) is not data a
        // lent folder could hide anyway.
        let (mut folders, mut files) = (Vec::new(), Vec::new());
        for walked in every_depth(data).take(WALK_LIMIT).filter_map(Result::ok) {
            let Ok(metadata) = walked.metadata() else {
                continue;
            };
            let found = (metadata.dev(), metadata.ino());
            if metadata.is_dir() {
                folders.push(entry(found, walked.path()));
            } else if metadata.is_file() {
                files.push(entry(found, walked.path()));
            }
        }
        keep_all(&mut known.folders, folders);
        keep_all(&mut known.files, files);
    }

    /// [`Identities::look`], each answer kept until more data is recorded
    /// (as `Hidden::lending_refused` keeps them, around its walk).
    #[cfg(test)]
    pub(super) fn aliased(&self, lent: &Path, exe: Option<&Path>) -> Option<String> {
        if let Some(answer) = self.cached(lent) {
            return answer;
        }
        let answer = self.look(lent, exe);
        self.remember(lent, self.generation, answer.clone());
        answer
    }

    /// The answer of [`Identities::look`] for `lent` kept while nothing was
    /// recorded since it was given.
    pub(super) fn cached(&self, lent: &Path) -> Option<Option<String>> {
        let answers = self
            .answers
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        answers
            .get(lent)
            .filter(|(at, _)| *at == self.generation)
            .map(|(_, answer)| answer.clone())
    }

    /// Keeps `answer` for `lent`, given while `generation` held.
    pub(super) fn remember(&self, lent: &Path, generation: u64, answer: Option<String>) {
        self.answers
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(lent.to_path_buf(), (generation, answer));
    }

    /// What [`Identities::look`] reads, copied (with its generation and no
    /// answers): the identities of a copy of a `Hidden`.
    pub(super) fn snapshot(&self) -> Identities {
        Identities {
            folders: self.folders.clone(),
            files: self.files.clone(),
            generation: self.generation,
            answers: std::sync::Mutex::default(),
        }
    }

    /// The generation of what is recorded (see [`Identities::remember`]).
    pub(super) fn generation(&self) -> u64 {
        self.generation
    }

    /// Why `lent` (resolved) reaches the judge's data under another name, or
    /// `exe` (the judge's binary): `lent`, or a mount point inside it, is a
    /// folder of the data, holds one or lies in one; or a file in it is a
    /// data file or the binary (a hard link, or a file bind-mounted there);
    /// or a mount point inside it is none of these, and shows what the
    /// judge cannot tell (an overlay whose lower layer is the tests).
    ///
    /// Its answers are kept ([`Identities::cached`], [`Identities::remember`])
    /// until more data is recorded: a compile per student does not walk a
    /// lent folder again (a judge built by cargo is a hard link, so every
    /// lent folder is walked once).
    pub(super) fn look(&self, lent: &Path, exe: Option<&Path>) -> Option<String> {
        let folders = &self.folders;
        let mut files: std::collections::HashMap<Id, &Entry> =
            self.files.iter().map(|entry| (entry.id, entry)).collect();
        let mounts = mount_points_in(lent);
        let inside = mounts
            .iter()
            .map(PathBuf::as_path)
            .filter(|point| *point != lent);
        for candidate in std::iter::once(lent).chain(inside) {
            let Some(found) = id(candidate) else {
                continue;
            };
            if let Some(Entry { data, .. }) = folders.iter().find(|known| known.is(found)) {
                return Some(if candidate == lent {
                    format!(
                    "it is the judge's data `{}`, or a folder holding or inside it, under another \
                     name",
                    data.display()
                )
                } else {
                    format!(
                    "`{}` inside it is a mount of the judge's data `{}`, or of a folder holding \
                     or inside it",
                    candidate.display(),
                    data.display()
                )
                });
            }
        }
        // The binary by identity too, whatever its count of names: a bind
        // mount of it onto a lent file has one.
        let exe = exe.and_then(|exe| {
            let found = id(exe)?;
            Some(Entry {
                id: found,
                data: exe.to_path_buf(),
                path: exe.to_path_buf(),
            })
        });
        if let Some(exe) = &exe {
            files.insert(exe.id, exe);
        }
        // What a mount point at or inside it shows is vouched for only by
        // the checks above (a mount of a data folder, a data file mounted
        // onto a file); any other mount may show the data on another device:
        // an overlay whose lower layer is the tests shows each answer with
        // its inode number and the overlay's device (issue 35), a FUSE mount
        // with numbers of its own. Refused, as the judge cannot tell what it
        // shows; said after the walk, so a mount the walk recognises is named
        // for what it is. A folder merely on a mount (a container's overlay
        // root) is not one: only the mount points of the table count.
        let mounted = || {
            mounts.first().map(|point| {
                let place = if point == lent { "at" } else { "inside" };
                format!(
                    "`{}` is a mount point {place} a lent folder: the judge cannot tell what it \
                     shows",
                    point.display()
                )
            })
        };
        if files.is_empty() {
            return mounted();
        }
        // Every depth (a hard link at depth 18 was lent when the walk stopped
        // at 16, issue 35); what the walk cannot see is refused, not lent.
        // Every file by identity, whatever its count of names: the walk
        // stats through mounts, so a data file bind-mounted onto a lent file
        // is seen as the data (issue 35).
        let mut walked = 0;
        for entry in every_depth(lent).take(WALK_LIMIT) {
            walked += 1;
            let entry = match entry {
                Ok(entry) => entry,
                Err(error) if harmless(&error) => continue,
                Err(error) => {
                    return Some(format!(
                        "`{}` in it cannot be checked for the judge's data under another name \
                         ({error})",
                        error.path().unwrap_or(lent).display()
                    ))
                }
            };
            let Ok(metadata) = entry.metadata() else {
                continue;
            };
            if !metadata.is_file() {
                continue;
            }
            let found = (metadata.dev(), metadata.ino());
            let Some(known) = files.get(&found).filter(|known| known.is(found)) else {
                continue;
            };
            let how = if metadata.nlink() > 1 {
                "a hard link to"
            } else {
                "a mount of"
            };
            return Some(format!(
                "`{}` in it is {how} the judge's `{}`",
                entry.path().display(),
                known.data.display()
            ));
        }
        if let Some(reason) = mounted() {
            return Some(reason);
        }
        (walked >= WALK_LIMIT).then(|| {
            format!(
                "it holds more than {WALK_LIMIT} entries, too many to check for the judge's data \
                 under another name"
            )
        })
    }
}

/// The mount points at or inside `folder` (resolved), as the judge's
/// mount namespace has them (a lent folder is bound with everything
/// mounted inside it), `folder` itself first when it is one.
fn mount_points_in(folder: &Path) -> Vec<PathBuf> {
    let Ok(table) = fs_err::read_to_string("/proc/self/mountinfo") else {
        return Vec::new();
    };
    let mut points: Vec<PathBuf> = table
        .lines()
        .filter_map(|line| line.split(' ').nth(4))
        .map(|field| PathBuf::from(unescape(field)))
        .filter(|point| point.starts_with(folder))
        .collect();
    points.sort_by_key(|point| point != folder);
    points
}

/// A mountinfo field with its octal escapes (`\040` for a space) decoded.
fn unescape(field: &str) -> String {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let octal = bytes.get(index + 1..index + 4).filter(|digits| {
            bytes[index] == b'\\' && digits.iter().all(|digit| (b'0'..=b'7').contains(digit))
        });
        match octal {
            Some(digits) => {
                let value = digits
                    .iter()
                    .fold(0u32, |value, digit| value * 8 + u32::from(digit - b'0'));
                out.push(u8::try_from(value).unwrap_or(b'?'));
                index += 4;
            }
            None => {
                out.push(bytes[index]);
                index += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mountinfo_escapes_are_decoded() {
        assert_eq!(unescape("/tmp/a\\040b\\134c"), "/tmp/a b\\c");
        assert_eq!(unescape("/plain"), "/plain");
        assert_eq!(unescape("/end\\04"), "/end\\04");
    }

    #[test]
    fn a_hard_link_to_an_answer_in_a_lent_folder_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let root = fs_err::canonicalize(dir.path()).unwrap();
        let tests = root.join("tests");
        let share = root.join("share");
        fs_err::create_dir(&tests).unwrap();
        fs_err::create_dir(&share).unwrap();
        fs_err::write(tests.join("1.ans"), "answer").unwrap();
        fs_err::hard_link(tests.join("1.ans"), share.join("copy")).unwrap();
        let mut known = Identities::default();
        known.record(&tests, true);
        let reason = known.aliased(&share, None).unwrap();
        assert!(reason.contains("hard link"), "{reason}");
        assert!(known.aliased(&root.join("tests"), None).is_some());
    }

    #[test]
    fn a_hard_link_to_an_answer_deeper_than_any_fixed_depth_is_found() {
        // See: issue #35 (the walk stopped at depth 16).
        let dir = tempfile::tempdir().unwrap();
        let root = fs_err::canonicalize(dir.path()).unwrap();
        let tests = root.join("tests");
        let mut deep = root.join("include");
        for level in 1..=30 {
            deep.push(format!("d{level}"));
        }
        fs_err::create_dir(&tests).unwrap();
        fs_err::create_dir_all(&deep).unwrap();
        fs_err::write(tests.join("1.ans"), "answer").unwrap();
        fs_err::hard_link(tests.join("1.ans"), deep.join("copy")).unwrap();
        let mut known = Identities::default();
        known.record(&tests, true);
        let reason = known.aliased(&root.join("include"), None).unwrap();
        assert!(reason.contains("d30/copy"), "{reason}");
    }

    #[test]
    #[ignore = "needs root: it bind-mounts an answer onto a file; .ci/run runs it as root: cargo test --locked --lib -- --ignored"]
    fn an_answer_bind_mounted_onto_a_file_in_a_lent_folder_is_found() {
        // See: issue #35 (a bind-mounted file has one name: the check by
        // count of names lent it, and `.incbin` embedded the answer).
        let dir = tempfile::tempdir().unwrap();
        let root = fs_err::canonicalize(dir.path()).unwrap();
        let tests = root.join("tests");
        let include = root.join("include");
        fs_err::create_dir(&tests).unwrap();
        fs_err::create_dir_all(include.join("deep")).unwrap();
        fs_err::write(tests.join("1.ans"), "answer").unwrap();
        fs_err::write(tests.join("1.in"), "input").unwrap();
        let target = include.join("deep/x");
        fs_err::write(&target, "").unwrap();
        let mounted = std::process::Command::new("mount")
            .arg("--bind")
            .arg(tests.join("1.ans"))
            .arg(&target)
            .status()
            .unwrap();
        assert!(mounted.success());
        let mut known = Identities::default();
        known.record(&tests, true);
        let reason = known.aliased(&include, None);
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(&target)
            .status();
        let reason = reason.expect("the bind-mounted answer is refused");
        assert!(
            reason.contains("deep/x` in it is a mount of the judge's"),
            "{reason}"
        );
    }

    /// Unmounts what a test mounted, also when it fails.
    struct Mounted(PathBuf);

    impl Drop for Mounted {
        fn drop(&mut self) {
            let _ = std::process::Command::new("umount")
                .arg("-l")
                .arg(&self.0)
                .status();
        }
    }

    #[test]
    #[ignore = "needs root: it mounts an overlay; .ci/run runs it as root: cargo test --locked --lib -- --ignored"]
    fn an_overlay_of_the_tests_inside_a_lent_folder_is_refused() {
        // See: issue #35 (through the overlay an answer has its inode number
        // and the overlay's device: no identity matched, and `.incbin`
        // embedded it).
        let dir = tempfile::tempdir().unwrap();
        let root = fs_err::canonicalize(dir.path()).unwrap();
        let tests = root.join("tests");
        let course = root.join("course");
        let include = course.join("include");
        for folder in [&tests, &include, &root.join("upper"), &root.join("work")] {
            fs_err::create_dir_all(folder).unwrap();
        }
        fs_err::write(tests.join("1.ans"), "answer").unwrap();
        let options = format!(
            "lowerdir={},upperdir={},workdir={}",
            tests.display(),
            root.join("upper").display(),
            root.join("work").display()
        );
        let status = std::process::Command::new("mount")
            .args(["-t", "overlay", "overlay", "-o", &options])
            .arg(&include)
            .status()
            .unwrap();
        assert!(status.success(), "mount -t overlay failed");
        let _mounted = Mounted(include.clone());
        let mut known = Identities::default();
        known.record(&tests, true);
        let reason = known
            .aliased(&course, None)
            .expect("the overlay is refused");
        assert!(
            reason.contains("include` is a mount point inside a lent folder"),
            "{reason}"
        );
        // The overlay itself lent (a wrapper's `course/include`, as the
        // review had it).
        let reason = known
            .aliased(&include, None)
            .expect("the overlay is refused");
        assert!(
            reason.contains("include` is a mount point at a lent folder"),
            "{reason}"
        );
        // A folder merely on a mount is lent.
        fs_err::create_dir(course.join("lib")).unwrap();
        assert!(known.aliased(&course.join("lib"), None).is_none());
    }

    #[test]
    fn a_lent_folder_deeper_than_a_path_can_name_is_refused() {
        // What lies below a path too long to open cannot be checked for
        // hard links: the folder is refused rather than lent.
        use rustix::fs::{mkdirat, openat, Mode, OFlags};
        let dir = tempfile::tempdir().unwrap();
        let root = fs_err::canonicalize(dir.path()).unwrap();
        let tests = root.join("tests");
        fs_err::create_dir(&tests).unwrap();
        fs_err::write(tests.join("1.ans"), "answer").unwrap();
        fs_err::hard_link(tests.join("1.ans"), root.join("elsewhere")).unwrap();
        let mut known = Identities::default();
        known.record(&tests, true);
        let lent = root.join("include");
        fs_err::create_dir(&lent).unwrap();
        let flags = OFlags::DIRECTORY | OFlags::CLOEXEC;
        let mut folder = openat(rustix::fs::CWD, &lent, flags, Mode::empty()).unwrap();
        for _ in 0..300 {
            mkdirat(&folder, "abcdefghijklmnop", Mode::RWXU).unwrap();
            folder = openat(&folder, "abcdefghijklmnop", flags, Mode::empty()).unwrap();
        }
        let reason = known.aliased(&lent, None).unwrap();
        assert!(reason.contains("cannot be checked"), "{reason}");
    }

    #[test]
    fn a_removed_data_folder_whose_number_is_reused_is_not_the_data() {
        let dir = tempfile::tempdir().unwrap();
        let root = fs_err::canonicalize(dir.path()).unwrap();
        let gone = root.join("gone");
        fs_err::create_dir(&gone).unwrap();
        let entry = Entry {
            id: id(&gone).unwrap(),
            data: gone.clone(),
            path: gone.clone(),
        };
        assert!(entry.is(entry.id));
        fs_err::remove_dir(&gone).unwrap();
        // Another folder given the removed folder's number: not the data.
        let other = root.join("other");
        fs_err::create_dir(&other).unwrap();
        let other_id = id(&other).unwrap();
        assert!(!entry.is(entry.id));
        assert!(!Entry {
            id: other_id,
            ..entry.clone()
        }
        .is(other_id));
        // The same folder under its recorded path is still the data.
        assert!(Entry {
            id: other_id,
            data: other.clone(),
            path: other.clone()
        }
        .is(other_id));
    }
}
