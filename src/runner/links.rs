//! How far a symbolic link among a program's files may point (issues #7,
//! #34): the one rule [`super::read_submission`] and a folder program's
//! copy ([`super::folder`]) follow.
//!
//! A hand-in's link may resolve only inside the folder that holds it, so a
//! link to `/root/secret` or to another student's folder is refused unread.
//! A Kattis package's programs are the setter's own, and its tools share
//! files by links (BAPCtools' `output_validator/validation.h` links to a
//! header elsewhere in the package; a submission links to another): a link
//! under one of the package's program folders may resolve anywhere inside
//! the package (the nearest folder above it that holds `problem.yaml`),
//! never outside it.

use std::path::{Path, PathBuf};

/// The folders of a Kattis package that hold programs (and `include/`,
/// which the format copies into them).
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

/// Where a link at `link` may resolve to, canonical: the package holding it
/// when it is under one of a package's program folders, else the folder
/// holding it. `None` when that folder cannot be resolved.
pub(crate) fn link_boundary(link: &Path) -> Option<PathBuf> {
    let parent = match link.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let folder = fs_err::canonicalize(parent).ok()?;
    let package = folder.ancestors().find_map(|ancestor| {
        let relative = folder.strip_prefix(ancestor).ok()?;
        let first = relative.components().next()?.as_os_str().to_str()?;
        (PROGRAM_FOLDERS.contains(&first) && ancestor.join("problem.yaml").is_file())
            .then(|| ancestor.to_path_buf())
    });
    Some(package.unwrap_or(folder))
}

/// Whether the boundary of `link` is a package rather than its folder (for
/// the wording of a refusal).
fn in_package(link: &Path, boundary: &Path) -> bool {
    link.parent()
        .and_then(|parent| fs_err::canonicalize(parent).ok())
        .is_some_and(|folder| folder != boundary)
}

/// The target of the symbolic link `link`, when it resolves within
/// [`link_boundary`]; else why not, naming the link and its target.
pub(crate) fn resolve_link(link: &Path) -> Result<PathBuf, String> {
    let name = link.display();
    let target = fs_err::canonicalize(link).map_err(|_| {
        format!(
            "refused `{name}`: it is a symbolic link (symlink) that does not resolve (a loop or a \
             missing target)"
        )
    })?;
    let boundary = link_boundary(link);
    match &boundary {
        Some(boundary) if target.starts_with(boundary) => Ok(target),
        Some(boundary) if in_package(link, boundary) => {
            let written = fs_err::read_link(link)
                .map(|written| written.display().to_string())
                .unwrap_or_default();
            Err(format!(
                "refused `{name}`: it is a symbolic link (symlink) to `{written}`, which is \
                 outside the package `{}`; its target was not read\n\nhint: copy the file into \
                 the package (a link may point anywhere inside it)",
                boundary.display()
            ))
        }
        _ => Err(format!(
            "refused `{name}`: it is a symbolic link (symlink) to a file outside its folder; its \
             target was not read"
        )),
    }
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
        assert_eq!(
            link_boundary(&package.join("output_validator/validation.h")),
            Some(package.clone())
        );
        // A folder that is no program folder of the format keeps the rule
        // of a hand-in.
        assert_eq!(
            link_boundary(&package.join("notes/a.h")),
            Some(package.join("notes"))
        );
        let class = fs_err::canonicalize(root.path()).unwrap();
        fs_err::create_dir_all(class.join("alice")).unwrap();
        assert_eq!(
            link_boundary(&class.join("alice/sol.py")),
            Some(class.join("alice"))
        );
    }
}
