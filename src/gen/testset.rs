//! Generated test sets (`judge gen`): each test generated, validated and
//! solved on its own, handed on in test order, and written into a set that
//! appears whole or not at all.
//!
//! Responsible for: the per-test pipeline, a bounded parallel window that
//! keeps memory flat however many tests are asked for, the temporary folder
//! beside the target that is moved into place at the end, numbering, and the
//! summary of what a set holds. Not responsible for arguments or printing
//! (`cli/gen.rs`), nor for what a valid input is (`problems`).
//! See: issue #10 ("`gen` for real data sets").

pub(crate) use crate::problems::text::plural;
use crate::problems::{self, text::Layout, Problem};
use std::fmt;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// A step of the pipeline failed: always the judge's fault, never the user's.
#[derive(Debug, thiserror::Error)]
pub(crate) enum TestSetError {
    /// The generator or the reference solver failed on test `index` (1-based).
    #[error("test {index}: {message}")]
    Generate { index: u64, message: String },
    /// Reading or writing the set's files failed.
    #[error("failed to {action} `{}`", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

fn io<'a>(
    action: &'static str,
    path: &'a Path,
) -> impl FnOnce(std::io::Error) -> TestSetError + 'a {
    move |source| TestSetError::Io {
        action,
        path: path.to_owned(),
        source,
    }
}

/// One generated test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Generated {
    pub(crate) input: String,
    /// The reference answer, when asked for.
    pub(crate) answer: Option<String>,
}

/// Test `index` (0-based) of `seed` for `profile`: generated, checked against
/// the profile's validator (a generator bug must never reach a setter's data)
/// and, when `solve` is set, solved.
pub(crate) fn generate_test(
    problem: &dyn Problem,
    profile: &str,
    seed: u64,
    index: u64,
    solve: bool,
) -> Result<Generated, TestSetError> {
    let fail = |message: String| TestSetError::Generate {
        index: index + 1,
        message,
    };
    let mut rng = problems::test_rng(seed, problem.id(), profile, index);
    let input = problem
        .generate(profile, &mut rng)
        .map_err(|error| fail(error.to_string()))?;
    problem.validate(&input, Some(profile)).map_err(|error| {
        fail(format!(
            "the `{profile}` generator made an invalid input (seed {seed}): {error}"
        ))
    })?;
    let answer = if solve {
        Some(problem.solve(&input).map_err(|error| {
            fail(format!(
                "the reference solver rejected a generated input: {error}"
            ))
        })?)
    } else {
        None
    };
    Ok(Generated { input, answer })
}

/// Generates tests `indices` with `jobs` threads and calls `emit` with each in
/// index order. At most `jobs * 4` tests are held at a time, so memory does not
/// grow with the count and the first test is emitted as soon as its window is
/// done. `emit` returns `false` to stop (its reader went away).
pub(crate) fn generate_ordered(
    problem: &dyn Problem,
    profile: &str,
    seed: u64,
    indices: std::ops::Range<u64>,
    jobs: usize,
    solve: bool,
    mut emit: impl FnMut(u64, Generated) -> Result<bool, TestSetError>,
) -> Result<(), TestSetError> {
    let jobs = jobs.max(1);
    let window = if jobs == 1 { 1 } else { jobs as u64 * 4 };
    let mut start = indices.start;
    while start < indices.end {
        let end = indices.end.min(start + window);
        let batch: Vec<Result<Generated, TestSetError>> = if jobs == 1 {
            (start..end)
                .map(|index| generate_test(problem, profile, seed, index, solve))
                .collect()
        } else {
            let next = std::sync::atomic::AtomicU64::new(start);
            let slots: Vec<std::sync::Mutex<Option<Result<Generated, TestSetError>>>> =
                (start..end).map(|_| std::sync::Mutex::new(None)).collect();
            std::thread::scope(|scope| {
                for _ in 0..jobs.min((end - start) as usize) {
                    scope.spawn(|| loop {
                        let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if index >= end {
                            return;
                        }
                        let test = generate_test(problem, profile, seed, index, solve);
                        if let Ok(mut slot) = slots[(index - start) as usize].lock() {
                            *slot = Some(test);
                        }
                    });
                }
            });
            slots
                .into_iter()
                .enumerate()
                .map(|(offset, slot)| {
                    slot.into_inner().ok().flatten().unwrap_or_else(|| {
                        Err(TestSetError::Generate {
                            index: start + offset as u64 + 1,
                            message: "a generator thread panicked".to_owned(),
                        })
                    })
                })
                .collect()
        };
        for (index, test) in (start..end).zip(batch) {
            if !emit(index, test?)? {
                return Ok(());
            }
        }
        start = end;
    }
    Ok(())
}

/// The file stem of test `number` (1-based): `prefix` and the number, padded
/// to `width` digits. A number wider than `width` keeps all its digits, so
/// test 1 has the same name in a set of 999 and in one of 1000.
pub(crate) fn stem(prefix: &str, number: u64, width: usize) -> String {
    format!("{prefix}{number:0width$}")
}

/// The stems of `NAME.in` files in `dir`, sorted; empty when `dir` does not exist.
pub(crate) fn inputs_in(dir: &Path) -> Result<Vec<String>, TestSetError> {
    match crate::test_files::list(dir) {
        Ok(tests) => Ok(tests.into_iter().map(|test| test.name).collect()),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(error) => Err(io("read the folder", dir)(error)),
    }
}

/// Whether `name` belongs to the set of `prefix`: `<prefix><digits>.in` or
/// `.ans`. A folder may hold several sets (`sample-1`, `small-001`,
/// `large-001`); `--force` replaces one, never the others.
pub(crate) fn in_set(name: &str, prefix: &str) -> bool {
    let Some(stem) = name
        .strip_suffix(".in")
        .or_else(|| name.strip_suffix(".ans"))
    else {
        return false;
    };
    stem.strip_prefix(prefix).is_some_and(|digits| {
        !digits.is_empty() && digits.bytes().all(|byte| byte.is_ascii_digit())
    })
}

/// Whether `dir` holds tests of the set of `prefix`.
pub(crate) fn holds_set(dir: &Path, prefix: &str) -> Result<bool, TestSetError> {
    let Ok(entries) = fs_err::read_dir(dir) else {
        return Ok(false);
    };
    for entry in entries {
        let entry = entry.map_err(io("read the folder", dir))?;
        if in_set(&entry.file_name().to_string_lossy(), prefix) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The highest test number among `DIR/<prefix>NNN.in`, 0 when none.
pub(crate) fn highest_number(dir: &Path, prefix: &str) -> Result<u64, TestSetError> {
    Ok(inputs_in(dir)?
        .iter()
        .filter_map(|stem| stem.strip_prefix(prefix))
        .filter(|digits| !digits.is_empty() && digits.bytes().all(|byte| byte.is_ascii_digit()))
        .filter_map(|digits| digits.parse::<u64>().ok())
        .max()
        .unwrap_or(0))
}

/// What happens to a target folder that already holds tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Existing {
    /// The new set replaces the old set's files (`<prefix><digits>.in`,
    /// `.ans`); other files, other sets included, stay.
    Replace,
    /// The new tests join the old ones.
    Append,
}

/// A set being written: files go into a private folder beside the target
/// (`.NAME.gen-TOKEN`, a random token, made exclusively and locked while
/// this `gen` lives: see [`crate::lease`]), which [`SetWriter::commit`]
/// moves into place. Until then the target is untouched, so an interrupted
/// `gen` leaves the old set (and a leftover folder that the next `gen` into
/// the same target removes, once its lock shows its `gen` is gone; a `gen`
/// running beside it, in any PID namespace, is never disturbed).
pub(crate) struct SetWriter {
    target: PathBuf,
    staging: PathBuf,
    /// The `flock` on the staging folder that tells it is alive.
    _lock: std::os::fd::OwnedFd,
}

/// How many fresh staging names are tried when one is taken.
const NAME_ATTEMPTS: usize = 16;

impl SetWriter {
    /// Starts a set for `target`. The target's files are first linked into
    /// the staging folder (all of them for `Append`; for `Replace` all but the
    /// set of `prefix`), so the committed folder is whole.
    pub(crate) fn new(
        target: &Path,
        prefix: &str,
        existing: Existing,
    ) -> Result<SetWriter, TestSetError> {
        // `--out .` or `--out ..`: name the folder itself, so it can be renamed.
        let resolved;
        let target = if target.file_name().is_none() && target.exists() {
            resolved = fs_err::canonicalize(target).map_err(io("resolve", target))?;
            resolved.as_path()
        } else {
            target
        };
        let parent = match target.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_owned(),
            _ => PathBuf::from("."),
        };
        fs_err::create_dir_all(&parent).map_err(io("create the parent folder of", target))?;
        let name = target
            .file_name()
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_else(|| "tests".to_owned());
        remove_leftovers(&parent, &name, target);
        // `create_dir` honours the umask, unlike a `tempfile` folder (0700).
        let mut made = None;
        for _ in 0..NAME_ATTEMPTS {
            let staging = parent.join(format!(".{name}.gen-{}", crate::lease::random_token()));
            if let Some(lock) =
                crate::lease::create_locked(&staging).map_err(io("create the folder", &staging))?
            {
                made = Some((staging, lock));
                break;
            }
        }
        let Some((staging, lock)) = made else {
            let staging = parent.join(format!(".{name}.gen-*"));
            return Err(io("create the folder", &staging)(std::io::Error::from(
                std::io::ErrorKind::AlreadyExists,
            )));
        };
        // From here on Drop removes the staging folder.
        let writer = SetWriter {
            target: target.to_owned(),
            staging,
            _lock: lock,
        };
        let staging = &writer.staging;
        if let Ok(metadata) = fs_err::metadata(target) {
            let _ = fs_err::set_permissions(staging, metadata.permissions());
            let entries = fs_err::read_dir(target).map_err(io("read the folder", target))?;
            for entry in entries {
                let entry = entry.map_err(io("read the folder", target))?;
                let path = entry.path();
                if existing == Existing::Replace
                    && in_set(&entry.file_name().to_string_lossy(), prefix)
                {
                    continue;
                }
                let destination = staging.join(entry.file_name());
                if fs_err::hard_link(&path, &destination).is_err() {
                    copy_recursively(&path, &destination)?;
                }
            }
        }
        Ok(writer)
    }

    /// Writes one file of the set (ordinary permissions, under the umask).
    pub(crate) fn write(&self, name: &str, contents: &str) -> Result<(), TestSetError> {
        let path = self.staging.join(name);
        let mut file = fs_err::File::create(&path).map_err(io("write", &path))?;
        file.write_all(contents.as_bytes())
            .map_err(io("write", &path))?;
        Ok(())
    }

    /// Moves the set into place ([`crate::report::replace_folder`]): one
    /// rename when the target is absent or empty; else the old folder is
    /// renamed aside, the new one renamed in, and the old one removed.
    pub(crate) fn commit(self) -> Result<(), TestSetError> {
        let target = &self.target;
        let mut aside = self.staging.clone().into_os_string();
        aside.push("-old");
        let aside = PathBuf::from(aside);
        // Locked while aside (the lock goes with the folder), so another
        // `gen`'s leftover sweep leaves it alone until it is removed.
        let _aside_lock = crate::lease::try_lock(target);
        crate::report::replace_folder(&self.staging, target, &aside)
            .map_err(|swap| io(swap.action, target)(swap.source))?;
        if aside.exists() {
            fs_err::remove_dir_all(&aside).map_err(io("remove the old set", &aside))?;
        }
        Ok(())
    }
}

impl Drop for SetWriter {
    fn drop(&mut self) {
        // A set that was not committed (an error) leaves nothing behind.
        let _ = fs_err::remove_dir_all(&self.staging);
    }
}

/// Removes `.NAME.gen-*` folders that an interrupted `gen` left beside the
/// target (issue #10: "a stray temp file that a rerun does not remove"). An
/// old set moved aside (`.NAME.gen-TOKEN-old`) by a `gen` killed between its
/// two renames is moved back when the target is missing, never deleted. A
/// folder whose lock is held belongs to a live `gen` and is left alone.
fn remove_leftovers(parent: &Path, name: &str, target: &Path) {
    let leftover = format!(".{name}.gen-");
    let Ok(entries) = fs_err::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name().to_string_lossy().into_owned();
        if !file_name.starts_with(&leftover) {
            continue;
        }
        let Some(_lock) = crate::lease::try_lock(&entry.path()) else {
            continue; // a live `gen`'s, or not a folder
        };
        if file_name.ends_with("-old") && !target.exists() {
            let _ = fs_err::rename(entry.path(), target);
        } else {
            let _ = fs_err::remove_dir_all(entry.path());
        }
    }
}

fn copy_recursively(from: &Path, to: &Path) -> Result<(), TestSetError> {
    if from.is_dir() {
        fs_err::create_dir(to).map_err(io("create the folder", to))?;
        for entry in fs_err::read_dir(from).map_err(io("read the folder", from))? {
            let entry = entry.map_err(io("read the folder", from))?;
            copy_recursively(&entry.path(), &to.join(entry.file_name()))?;
        }
    } else {
        fs_err::copy(from, to).map_err(io("copy", from))?;
    }
    Ok(())
}

/// What a set holds, so a setter sees its balance (issue #10, `--stats`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Stats {
    pub(crate) tests: u64,
    pub(crate) smallest_bytes: usize,
    pub(crate) largest_bytes: usize,
    pub(crate) total_bytes: u64,
    /// mayan: answers other than `-1`, and `-1`s.
    pub(crate) solvable: u64,
    pub(crate) unsolvable: u64,
    /// matchsticks: positions the player to move wins, and loses.
    pub(crate) won: u64,
    pub(crate) lost: u64,
    /// rooks: boards, and the largest answer.
    pub(crate) boards: u64,
    pub(crate) largest_answer: u64,
}

impl Stats {
    /// Counts one test of the built-in engine `engine` (`None` for a
    /// package with programs of its own: only sizes are counted, as the
    /// judge cannot tell what its answers mean).
    pub(crate) fn add(&mut self, engine: Option<&str>, test: &Generated) {
        let size = test.input.len();
        if self.tests == 0 || size < self.smallest_bytes {
            self.smallest_bytes = size;
        }
        self.largest_bytes = self.largest_bytes.max(size);
        self.total_bytes += size as u64;
        self.tests += 1;
        let answer = test.answer.as_deref().unwrap_or_default();
        match engine {
            Some("mayan") if answer.trim() == "-1" => self.unsolvable += 1,
            Some("mayan") => self.solvable += 1,
            Some("matchsticks") => {
                use crate::problems::matchsticks::{input, outcome, Outcome};
                if let Ok(parsed) = input::parse(&test.input, Layout::Lenient) {
                    for position in &parsed.positions {
                        match outcome(&position.board) {
                            Outcome::Win => self.won += 1,
                            Outcome::Loss => self.lost += 1,
                        }
                    }
                }
            }
            Some("rooks") => {
                for count in answer.split_whitespace() {
                    self.boards += 1;
                    if let Ok(count) = count.parse::<u64>() {
                        self.largest_answer = self.largest_answer.max(count);
                    }
                }
            }
            _ => {}
        }
    }
}

impl Stats {
    /// What the tests hold, without their count: `inputs 14 B to 4.1 KiB
    /// (81.0 KiB in all); 14 solvable, 6 -1`.
    pub(crate) fn details(&self) -> String {
        let mut text = String::new();
        let _ = self.write_details(&mut text);
        text
    }

    fn write_details(&self, f: &mut impl fmt::Write) -> fmt::Result {
        write!(
            f,
            "inputs {} to {} ({} in all)",
            bytes(self.smallest_bytes as u64),
            bytes(self.largest_bytes as u64),
            bytes(self.total_bytes)
        )?;
        if self.solvable + self.unsolvable > 0 {
            write!(f, "; {} solvable, {} -1", self.solvable, self.unsolvable)?;
        }
        if self.won + self.lost > 0 {
            write!(
                f,
                "; {}: {} won, {} lost",
                plural(self.won + self.lost, "position", "positions"),
                self.won,
                self.lost
            )?;
        }
        if self.boards > 0 {
            write!(
                f,
                "; {}, largest answer {}",
                plural(self.boards, "board", "boards"),
                self.largest_answer
            )?;
        }
        Ok(())
    }
}

impl fmt::Display for Stats {
    /// `20 tests, inputs 14 B to 4.1 KiB (81.0 KiB in all); 14 solvable, 6 -1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, ", plural(self.tests, "test", "tests"))?;
        self.write_details(f)
    }
}

fn bytes(count: u64) -> String {
    if count < 1024 {
        format!("{count} B")
    } else if count < 1024 * 1024 {
        format!("{:.1} KiB", count as f64 / 1024.0)
    } else {
        format!("{:.1} MiB", count as f64 / (1024.0 * 1024.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use test_case::test_case;

    #[test_case("", 1, 3, "001" ; "padded to the width")]
    #[test_case("", 999, 3, "999" ; "fits exactly")]
    #[test_case("", 1000, 3, "1000" ; "grows only when needed")]
    #[test_case("large-", 7, 4, "large-0007" ; "prefix and a wider width")]
    fn stems_keep_a_stable_width(prefix: &str, number: u64, width: usize, want: &str) {
        assert_eq!(stem(prefix, number, width), want);
    }

    #[test_case("001.in", "", true ; "plain input")]
    #[test_case("001.ans", "", true ; "plain answer")]
    #[test_case("sample-1.in", "", false ; "a sample is another set")]
    #[test_case("large-001.in", "small-", false ; "another prefix")]
    #[test_case("small-001.ans", "small-", true ; "this prefix")]
    #[test_case("small-.in", "small-", false ; "no number")]
    #[test_case("001.out", "", false ; "not a test file")]
    fn set_membership(name: &str, prefix: &str, want: bool) {
        assert_eq!(in_set(name, prefix), want);
    }

    /// A `gen` killed between moving the old set aside and moving the new one
    /// in leaves the old set aside; the next `gen` puts it back first.
    #[test]
    fn an_old_set_left_aside_is_restored_not_deleted() {
        let root = tempfile::tempdir().unwrap();
        let target = root.path().join("t");
        let aside = root.path().join(".t.gen-99-old");
        fs_err::create_dir(&aside).unwrap();
        fs_err::write(aside.join("001.in"), "old").unwrap();
        let stray = root.path().join(".t.gen-98");
        fs_err::create_dir(&stray).unwrap();
        let writer = SetWriter::new(&target, "", Existing::Append).unwrap();
        writer.write("002.in", "new").unwrap();
        writer.commit().unwrap();
        assert_eq!(
            fs_err::read_to_string(target.join("001.in")).unwrap(),
            "old"
        );
        assert_eq!(
            fs_err::read_to_string(target.join("002.in")).unwrap(),
            "new"
        );
        assert!(!aside.exists() && !stray.exists());
    }

    /// Two `gen`s into one target at once (in one PID namespace or two):
    /// the second's leftover sweep leaves the first's staging folder alone,
    /// and their staging names differ.
    #[test]
    fn a_live_gens_staging_folder_is_not_swept() {
        let root = tempfile::tempdir().unwrap();
        let target = root.path().join("t");
        let first = SetWriter::new(&target, "", Existing::Append).unwrap();
        first.write("001.in", "first").unwrap();
        let second = SetWriter::new(&target, "", Existing::Append).unwrap();
        assert_ne!(first.staging, second.staging);
        assert!(
            first.staging.join("001.in").exists(),
            "a live staging folder was swept"
        );
        drop(second);
        first.commit().unwrap();
        assert_eq!(
            fs_err::read_to_string(target.join("001.in")).unwrap(),
            "first"
        );
        let left: Vec<_> = fs_err::read_dir(root.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        assert_eq!(left, [std::ffi::OsString::from("t")]);
    }

    #[test_case(1, "test", "tests", "1 test")]
    #[test_case(0, "test", "tests", "0 tests")]
    #[test_case(2, "move", "moves", "2 moves")]
    fn plurals(count: u64, one: &str, many: &str, want: &str) {
        assert_eq!(plural(count, one, many), want);
    }

    /// Invariant: the order and bytes of the tests do not depend on `jobs`.
    #[test]
    fn ordered_generation_is_the_same_for_any_jobs() {
        let problem = problems::find("rooks").unwrap();
        let collect = |jobs| {
            let mut all = Vec::new();
            generate_ordered(problem, "small", 3, 0..13, jobs, true, |index, test| {
                all.push((index, test));
                Ok(true)
            })
            .unwrap();
            all
        };
        let one = collect(1);
        assert_eq!(one.len(), 13);
        assert_eq!(one, collect(3));
    }
}
