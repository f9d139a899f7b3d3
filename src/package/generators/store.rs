//! Where made cases are kept and how `data/` is put in place.
//!
//! The cache is `.judge/generated/<digest>/` in the package: one folder
//! per made case, named by a SHA-256 digest of everything that made it
//! (see [`case_key`]), written into a temporary folder and renamed into
//! place, so a folder there is always whole. `data/` is built beside the
//! old one and swapped in by two renames: an interrupted run leaves the
//! old `data/` or the new one, never a mix.

use super::make::{Files, Programs};
use super::plan::EXTENSIONS;
use super::plan::{Case, Plan};
use super::GeneratorsError;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// Bumped when the way a case is made changes, so old entries are not
/// taken for new ones.
const CACHE_VERSION: &str = "judge generators.yaml cache 2";

/// The made cases of one package.
pub(crate) struct Cache {
    path: PathBuf,
}

impl Cache {
    pub(crate) fn new(dir: &Path) -> Cache {
        Cache {
            path: dir.join(".judge").join("generated"),
        }
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The files kept under `key`, when a whole entry is there.
    pub(crate) fn get(&self, key: &str) -> Option<Files> {
        let folder = self.path.join(key);
        let entries = fs_err::read_dir(&folder).ok()?;
        let mut files = Files::new();
        for entry in entries {
            let entry = entry.ok()?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let extension = name.strip_prefix("testcase")?;
            // Bounded and never a FIFO: the cache is in the package, where
            // anything may be put (issue #34).
            let bytes = crate::data_file::read(&entry.path(), crate::data_file::MAX_TEST_BYTES);
            files.insert(extension.to_owned(), bytes.ok()?);
        }
        files.contains_key(".in").then_some(files)
    }

    /// Keeps `files` under `key`: written in a temporary folder, renamed
    /// into place.
    pub(crate) fn put(&self, key: &str, files: &Files) -> Result<(), GeneratorsError> {
        let failed = |path: &Path| {
            let path = path.to_owned();
            move |source| GeneratorsError::Write { path, source }
        };
        fs_err::create_dir_all(&self.path).map_err(failed(&self.path))?;
        let staging = tempfile::Builder::new()
            .prefix(".entry-")
            .tempdir_in(&self.path)
            .map_err(failed(&self.path))?;
        for (extension, bytes) in files {
            let path = staging.path().join(format!("testcase{extension}"));
            fs_err::write(&path, bytes).map_err(failed(&path))?;
        }
        let target = self.path.join(key);
        if target.exists() {
            return Ok(());
        }
        let staged = staging.keep();
        fs_err::rename(&staged, &target).map_err(failed(&target))
    }
}

/// The digest of the files of a program (a file, or every file of a
/// folder by relative name), into `hasher`.
fn hash_program(hasher: &mut Sha256, path: &Path) {
    hasher.update(b"program\0");
    for entry in walkdir::WalkDir::new(path)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_file())
    {
        let relative = entry.path().strip_prefix(path).unwrap_or(entry.path());
        hasher.update(relative.to_string_lossy().as_bytes());
        hasher.update(b"\0");
        // Streamed, not read whole: a huge (sparse) file of a generator's
        // folder costs time, never memory (issue #34).
        let Ok(mut file) = crate::data_file::open(entry.path()) else {
            hasher.update(0_u64.to_le_bytes());
            continue;
        };
        let size = file.metadata().map_or(0, |metadata| metadata.len());
        hasher.update(size.to_le_bytes());
        if std::io::copy(&mut file, hasher).is_err() {
            hasher.update(b"\0unreadable");
        }
    }
}

/// What makes a case: its root folder (which checks it gets), the
/// generator's files, command and seed, the copied files, the files
/// written in the yaml, the solution's files when it answers, the
/// validators' files. Two rules that make the same bytes share an entry,
/// as in BAPCtools.
pub(crate) fn case_key(dir: &Path, case: &Case, programs: &Programs<'_>) -> String {
    let mut hasher = Sha256::new();
    for (name, bytes) in [
        ("version", CACHE_VERSION.as_bytes()),
        ("root", case.root().as_bytes()),
        ("empty answers", &[u8::from(programs.empty_answers)][..]),
    ] {
        hasher.update(name.as_bytes());
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    }
    if let Some(command) = &case.generate {
        hasher.update(b"generate\0");
        hasher.update(command.text.trim().as_bytes());
        hasher.update(b"\0");
        hasher.update(command.seed.to_le_bytes());
        hasher.update(case.retries.to_le_bytes());
        if let Some(Ok(tool)) = programs.generators.get(&command.program) {
            hash_program(&mut hasher, &tool.path);
        }
    }
    if let Some(copy) = &case.copy {
        hasher.update(b"copy\0");
        for extension in EXTENSIONS {
            if let Ok(bytes) = programs
                .beneath
                .read(&dir.join(format!("{copy}{extension}")))
            {
                hasher.update(extension.as_bytes());
                hasher.update((bytes.len() as u64).to_le_bytes());
                hasher.update(&bytes);
            }
        }
    }
    for (extension, target) in &case.links {
        hasher.update(b"link\0");
        hasher.update(extension.as_bytes());
        hasher.update(target.as_bytes());
    }
    for (extension, bytes) in &case.files {
        hasher.update(b"file\0");
        hasher.update(extension.as_bytes());
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    }
    if let Some(Ok(tool)) = programs.solutions.get(&case.solution) {
        hash_program(&mut hasher, &tool.path);
    }
    // The validators' arguments decide the check as much as their files do:
    // a changed `input_validator_args` or `output_validator_args` checks the
    // case again (issue #34).
    for (name, args) in [
        ("input validator args", &case.input_validator_args),
        ("output validator args", &case.output_validator_args),
    ] {
        hasher.update(name.as_bytes());
        let text = args.as_ref().map_or_else(String::new, |args| {
            serde_norway::to_string(args).unwrap_or_else(|_| format!("{args:?}"))
        });
        hasher.update((text.len() as u64).to_le_bytes());
        hasher.update(text.as_bytes());
    }
    for tool in [programs.input_validator, programs.output_validator_tool]
        .into_iter()
        .flatten()
    {
        hash_program(&mut hasher, &tool.path);
    }
    // The programs' files are compiled with the constants replaced.
    for (inside, value) in programs.constants.pairs() {
        hasher.update(b"constant\0");
        for text in [inside, value] {
            hasher.update((text.len() as u64).to_le_bytes());
            hasher.update(text.as_bytes());
        }
    }
    format!("{:x}", hasher.finalize())
}

/// Puts the plan's `data/` in place; `false` when the one there already
/// holds exactly those files. A committed file of a case the plan places
/// that the judge does not make (`data/sample/01.interaction`, which
/// BAPCtools writes by running the solution on an interactive or
/// multi-pass sample; a `.hint`, `.desc` or `.png`) is kept as it was,
/// never deleted (issue #29 break-it); the second value names each, as
/// `data/...`.
pub(crate) fn write_data(
    dir: &Path,
    plan: &Plan,
    made: &BTreeMap<usize, Files>,
) -> Result<(bool, Vec<String>), GeneratorsError> {
    let failed = |path: &Path| {
        let path = path.to_owned();
        move |source| GeneratorsError::Write { path, source }
    };
    let staging = tempfile::Builder::new()
        .prefix(".data-new-")
        .tempdir_in(dir)
        .map_err(failed(dir))?;
    let root = staging.path();
    for (folder, test_group) in &plan.folders {
        let path = root.join(folder);
        fs_err::create_dir_all(&path).map_err(failed(&path))?;
        fs_err::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
            .map_err(failed(&path))?;
        if let Some(text) = test_group {
            let file = path.join("test_group.yaml");
            fs_err::write(&file, text).map_err(failed(&file))?;
        }
    }
    let placed = plan
        .cases
        .iter()
        .enumerate()
        .map(|(index, case)| (case.path.as_str(), index))
        .chain(
            plan.includes
                .iter()
                .map(|(path, index)| (path.as_str(), *index)),
        );
    let placed: Vec<(&str, usize)> = placed.collect();
    for (path, index) in &placed {
        for (extension, bytes) in made.get(index).into_iter().flatten() {
            let file = root.join(format!("{path}{extension}"));
            fs_err::write(&file, bytes).map_err(failed(&file))?;
        }
    }
    let data = dir.join("data");
    let mut kept = Vec::new();
    for (path, _) in &placed {
        kept.extend(keep_committed(&data, root, path).map_err(failed(&data))?);
    }
    if same_tree(root, &data) {
        return Ok((false, kept));
    }
    let old = tempfile::Builder::new()
        .prefix(".data-old-")
        .tempdir_in(dir)
        .map_err(failed(dir))?;
    if data.exists() {
        fs_err::rename(&data, old.path().join("data")).map_err(failed(&data))?;
    }
    let staged = staging.keep();
    if let Err(source) = fs_err::rename(&staged, &data) {
        // Put the old data back before saying so.
        let _ = fs_err::rename(old.path().join("data"), &data);
        let _ = fs_err::remove_dir_all(&staged);
        return Err(GeneratorsError::Write { path: data, source });
    }
    Ok((true, kept))
}

/// Copies into `staging` the files of the case at `path` (under `data/`)
/// that the committed `data` holds and `staging` does not: files named
/// `NAME.EXT` beside it. A symbolic link is laid again as the same link,
/// its target not read. Returns their paths, `data/...`.
fn keep_committed(data: &Path, staging: &Path, path: &str) -> std::io::Result<Vec<String>> {
    let case = Path::new(path);
    let (Some(name), folder) = (case.file_name(), case.parent().unwrap_or(Path::new(""))) else {
        return Ok(Vec::new());
    };
    let prefix = format!("{}.", name.to_string_lossy());
    let Ok(entries) = fs_err::read_dir(data.join(folder)) else {
        return Ok(Vec::new());
    };
    let mut kept = Vec::new();
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(fs_err::DirEntry::file_name);
    for entry in entries {
        let file_name = entry.file_name();
        if !file_name.to_string_lossy().starts_with(&prefix) {
            continue;
        }
        let target = staging.join(folder).join(&file_name);
        if fs_err::symlink_metadata(&target).is_ok() {
            continue;
        }
        let kind = entry.file_type()?;
        if kind.is_symlink() {
            std::os::unix::fs::symlink(fs_err::read_link(entry.path())?, &target)?;
        } else if kind.is_file() {
            fs_err::copy(entry.path(), &target)?;
        } else {
            continue;
        }
        kept.push(format!(
            "data/{}",
            folder.join(&file_name).to_string_lossy()
        ));
    }
    Ok(kept)
}

/// Whether two folders hold the same files with the same bytes.
fn same_tree(a: &Path, b: &Path) -> bool {
    fn files(root: &Path) -> Option<BTreeMap<PathBuf, Vec<u8>>> {
        let mut found = BTreeMap::new();
        for entry in walkdir::WalkDir::new(root) {
            let entry = entry.ok()?;
            if entry.file_type().is_dir() {
                continue;
            }
            let relative = entry.path().strip_prefix(root).ok()?.to_owned();
            let bytes = crate::data_file::read(entry.path(), crate::data_file::MAX_TEST_BYTES);
            found.insert(relative, bytes.ok()?);
        }
        Some(found)
    }
    b.is_dir() && matches!((files(a), files(b)), (Some(a), Some(b)) if a == b)
}
