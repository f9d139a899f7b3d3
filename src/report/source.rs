//! What a submission's page shows of its source (issue #32): the file as it
//! was graded, or why it is not shown. The grading layer reads the file and
//! checks it against the digest the report keeps
//! (`crate::grading::sources`); the HTML report only renders what it is
//! handed, so a report rendered again later never shows a file that
//! changed since it was graded.

/// The most of a source a page embeds; the rest is cut, and the page says
/// so. A class of hand-ins far bigger than anyone writes by hand must not
/// make pages a browser cannot open.
pub(crate) const SHOWN_BYTES: usize = 256 << 10;

/// A submission's source as its page shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SourceView {
    /// The file, with the bytes the report's digest names: at most
    /// [`SHOWN_BYTES`] of it (`text`, cut at a line's end where one is near)
    /// of `total_bytes`.
    Text { text: String, total_bytes: u64 },
    /// A file that is not text (a NUL byte, or not UTF-8): only its size.
    Binary { bytes: u64 },
    /// The file at the submission's path is not the one graded: its
    /// SHA-256 differs from the report's.
    Changed,
    /// Nothing is at the submission's path any more (relative paths are
    /// read from the folder the report is rendered in).
    Gone,
    /// It could not be read now, or was not read as one file when graded
    /// (a folder with build scripts, a file refused): why.
    NotShown(String),
}

impl SourceView {
    /// Whether the shown text is only the start of the file.
    pub(crate) fn is_cut(&self) -> bool {
        match self {
            SourceView::Text { text, total_bytes } => (text.len() as u64) < *total_bytes,
            _ => false,
        }
    }
}
