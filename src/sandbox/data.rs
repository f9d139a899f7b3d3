//! The judge's data folders (tests, packages, a class's hand-ins) and
//! what their symbolic links point to, which every run's mount namespace
//! covers (see [`mask_data_folder`]).

use std::path::{Path, PathBuf};

/// Folders of the judge's data (a `--tests` folder, a problems folder, a
/// package's folder, a class's submissions folder) that no run or compile
/// may see: an empty tmpfs covers each in every worker's mount namespace
/// made after this, as root and without, and only a program a run needs
/// inside one is bound back. A path the judge cannot resolve, `/` or a
/// top-level folder (`/usr`, `/etc`: programs need them) is left as it is.
/// Landlock lets a run read `/usr` and `/etc`, and without root a run is
/// the teacher's own user, so file modes do not keep tests there from it
/// (issue 18).
///
/// Symbolic links inside the folder (as git-annex or dvc keep data) are
/// followed to their targets: a target folder is masked the same way and
/// a target file is covered by an empty file, so the answer is not read
/// at the path the link points to either. A target inside the system
/// folders a run reads is never masked as a folder (a link to `/usr/lib`
/// would take every program's libraries), only covered file by file.
pub fn mask_data_folder(path: &Path) {
    let Ok(real) = fs_err::canonicalize(path) else {
        return;
    };
    if !maskable(&real) {
        return;
    }
    let (folders, files) = link_targets(&real);
    let mut masked = data_folders_lock();
    for folder in std::iter::once(real).chain(folders) {
        if !masked.0.contains(&folder) {
            masked.0.push(folder);
        }
    }
    for file in files {
        if !masked.1.contains(&file) {
            masked.1.push(file);
        }
    }
    masked.0.sort();
    masked.1.sort();
}

/// Whether `folder` (resolved) may be covered by an empty tmpfs: a folder
/// below the top level.
fn maskable(folder: &Path) -> bool {
    folder.components().count() >= 3 && folder.is_dir()
}

/// Where a run reads programs and libraries from: never masked whole.
const SYSTEM_FOLDERS: &[&str] = &[
    "/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin", "/etc", "/proc", "/dev", "/sys",
];

/// The resolved targets of the symbolic links under `folder` that point
/// outside it: folders to mask and files to cover.
fn link_targets(folder: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mut folders = Vec::new();
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(folder)
        .follow_links(false)
        .max_depth(16)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|entry| entry.path_is_symlink())
    {
        let Ok(target) = fs_err::canonicalize(entry.path()) else {
            continue;
        };
        if target.starts_with(folder) {
            continue;
        }
        let system = SYSTEM_FOLDERS
            .iter()
            .any(|system| target.starts_with(system) || Path::new(system).starts_with(&target));
        if target.is_dir() {
            if !system && maskable(&target) {
                folders.push(target);
            }
        } else if target.is_file() {
            files.push(target);
        }
    }
    folders.sort();
    folders.dedup();
    files.sort();
    files.dedup();
    (folders, files)
}

/// The masked data folders and the covered link targets.
type Masked = (Vec<PathBuf>, Vec<PathBuf>);

fn data_folders_lock() -> std::sync::MutexGuard<'static, Masked> {
    static FOLDERS: std::sync::Mutex<Masked> = std::sync::Mutex::new((Vec::new(), Vec::new()));
    FOLDERS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The folders [`mask_data_folder`] was given (and the link targets'
/// folders).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub(crate) fn data_folders() -> Vec<PathBuf> {
    data_folders_lock().0.clone()
}

/// The files link targets of data folders point to, covered by an empty
/// file in every run's mount namespace.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub(crate) fn data_link_files() -> Vec<PathBuf> {
    data_folders_lock().1.clone()
}
