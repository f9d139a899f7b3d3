//! Files (or stdin) the judge reads whole as one input, output or answer:
//! at most [`text::MAX_TEXT_BYTES`], and a file that cannot be read is
//! never an invalid input.

use crate::problems::text;
use std::io::Read;
use std::path::Path;

/// A file given where the judge expects one could not be read: a folder, a
/// missing or unreadable file, or one beyond [`text::MAX_TEXT_BYTES`]. Not a
/// verdict on its contents: `validate`, `solve` and `check` exit 3.
#[derive(Debug, thiserror::Error)]
#[error("cannot read `{name}`: {reason}")]
pub(crate) struct CannotRead {
    pub(crate) name: String,
    pub(crate) reason: String,
}

/// A file (or stdin) read whole, with the name messages use for it.
pub(crate) struct Source {
    /// `path` as given, or `<stdin>`.
    pub(crate) name: String,
    pub(crate) bytes: Vec<u8>,
}

impl Source {
    /// Reads `path`, or stdin when `None` or `-`. A folder, a file that cannot
    /// be opened or read, and a file larger than [`text::MAX_TEXT_BYTES`] are
    /// [`CannotRead`] (exit 3), never an invalid input. Reads at most one byte
    /// more than the limit, so a huge file is refused quickly and the judge's
    /// memory stays bounded.
    pub(crate) fn read(path: Option<&Path>) -> Result<Source, CannotRead> {
        let limit = text::MAX_TEXT_BYTES as u64 + 1;
        let mut bytes = Vec::new();
        let name = match path {
            Some(path) if path != Path::new("-") => {
                let name = path.display().to_string();
                let cannot = |reason: String| CannotRead {
                    name: name.clone(),
                    reason,
                };
                if path.is_dir() {
                    return Err(cannot("it is a folder, not a file".to_owned()));
                }
                // `OpenOptions` rather than `fs_err`: `CannotRead` already names the path.
                // Without blocking on a FIFO, and never a device (issue #34).
                let file = crate::data_file::open(path).map_err(|error| match error {
                    crate::data_file::DataFileError::Io { source, .. } => {
                        cannot(source.to_string())
                    }
                    crate::data_file::DataFileError::Unread { why, .. } => cannot(why.to_string()),
                })?;
                file.take(limit)
                    .read_to_end(&mut bytes)
                    .map_err(|error| cannot(error.to_string()))?;
                name
            }
            _ => {
                std::io::stdin()
                    .lock()
                    .take(limit)
                    .read_to_end(&mut bytes)
                    .map_err(|error| CannotRead {
                        name: "<stdin>".to_owned(),
                        reason: error.to_string(),
                    })?;
                "<stdin>".to_owned()
            }
        };
        if bytes.len() > text::MAX_TEXT_BYTES {
            return Err(CannotRead {
                name,
                reason: format!(
                    "it is larger than the {} MiB the judge reads",
                    text::MAX_TEXT_BYTES / (1024 * 1024)
                ),
            });
        }
        Ok(Source { name, bytes })
    }

    /// The text, or the reason it is not text.
    pub(crate) fn text(&self) -> Result<&str, text::InputError> {
        text::decode(&self.bytes)
    }
}
