//! Where a Kattis package's `constants` (2025-09, issue #34) are replaced,
//! and what loading it says of sequences that name no constant.
//!
//! The format replaces them in "Markdown problem statements, input and
//! output validators, included files, example submissions,
//! `test_group.yaml`", never in test data or `problem.yaml`. The judge
//! reads no statement and no included files; it replaces them in the
//! `test_group.yaml` files it reads ([`crate::config::kattis_groups`]), in
//! every file of the programs it compiles (the package's validators, its
//! answer validators, its example submissions) and, as BAPCtools does, in
//! `generators/` (the generators' files and the commands of
//! `generators.yaml`). A sequence that names no constant is left as
//! written, as the format says; the format allows a warning, which this
//! module words.

use crate::config::kattis_constants::Constants;
use std::path::Path;

/// The folders of a package whose files get the constants replaced.
const REPLACED_IN: [&str; 7] = [
    "input_validators",
    "input_format_validators",
    "output_validator",
    "output_validators",
    "answer_validators",
    "submissions",
    "generators",
];

/// The most notes about undefined sequences one load gives; a count says
/// how many more there were.
const MAX_NOTES: usize = 10;

/// The largest file read for undefined sequences.
const MAX_SCANNED_BYTES: u64 = 4 << 20;

/// One note per sequence in the package in `dir` (its `test_group.yaml`
/// files and the folders the constants are replaced in) that names no
/// constant of `constants`: "`FILE` line N: `{{x}}` names no constant of
/// `problem.yaml`; it is left as written". None when the package has no
/// constants (the format: then nothing is done).
pub(crate) fn undefined_notes(dir: &Path, constants: &Constants) -> Vec<String> {
    if constants.is_empty() {
        return Vec::new();
    }
    let mut notes = Vec::new();
    let mut more = 0usize;
    let group_files = walkdir::WalkDir::new(dir.join("data"))
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|entry| {
            entry.file_name() == crate::config::kattis_groups::CURRENT_FILE
                || entry.file_name() == crate::config::kattis_groups::LEGACY_FILE
        })
        .map(walkdir::DirEntry::into_path);
    let program_files = REPLACED_IN.iter().flat_map(|folder| {
        walkdir::WalkDir::new(dir.join(folder))
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|entry| {
                entry.depth() == 0 || !entry.file_name().to_string_lossy().starts_with('.')
            })
            .filter_map(Result::ok)
            .filter(|entry| !entry.file_type().is_dir())
            .map(walkdir::DirEntry::into_path)
    });
    for path in group_files.chain(program_files) {
        // A link is read as its target (as the copy compiled is); a file
        // too large or not text is no source to warn about.
        let readable = fs_err::metadata(&path)
            .is_ok_and(|metadata| metadata.is_file() && metadata.len() <= MAX_SCANNED_BYTES);
        let Some(text) = readable
            .then(|| fs_err::read(&path).ok())
            .flatten()
            .and_then(|bytes| String::from_utf8(bytes).ok())
        else {
            continue;
        };
        for undefined in constants.undefined(&text) {
            if notes.len() == MAX_NOTES {
                more += 1;
                continue;
            }
            notes.push(format!(
                "`{}` line {}: `{}` names no constant of `problem.yaml`; it is left as written",
                path.display(),
                undefined.line,
                undefined.sequence
            ));
        }
    }
    if more > 0 {
        notes.push(format!(
            "{more} more sequences like these name no constant of `problem.yaml`"
        ));
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn five() -> Constants {
        let yaml = "constants:\n  FIVE: 5\n";
        let value: serde_norway::Value = serde_norway::from_str(yaml).expect("YAML");
        Constants::read(Path::new("problem.yaml"), yaml, value.get("constants")).expect("read")
    }

    #[test]
    fn undefined_sequences_in_programs_and_group_files_are_noted_and_data_is_not_read() {
        let dir = tempfile::tempdir().expect("a folder");
        for (name, text) in [
            (
                "submissions/accepted/a.py",
                "print({{FIVE}})\nprint('{{SIX}}')\n",
            ),
            (
                "data/secret/test_group.yaml",
                "input_validator_args: [\"{{MAX}}\"]\n",
            ),
            ("data/secret/1.in", "{{NOT_READ}}\n"),
            ("problem.yaml", "name: {{NOT_READ}}\n"),
            ("input_validators/.hidden/x.py", "{{NOT_READ}}\n"),
        ] {
            let path = dir.path().join(name);
            fs_err::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
            fs_err::write(path, text).expect("write");
        }
        let notes = undefined_notes(dir.path(), &five());
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(
            notes[0].contains("data/secret/test_group.yaml` line 1: `{{MAX}}` names no constant"),
            "{notes:?}"
        );
        assert!(
            notes[1].contains("submissions/accepted/a.py` line 2: `{{SIX}}`"),
            "{notes:?}"
        );
        assert!(undefined_notes(dir.path(), &Constants::NONE).is_empty());
    }
}
