//! A file of `/proc` read whole with as few system calls as it takes; and a
//! file the supervisor reads again and again, opened once and read at
//! offset 0 each time (issue #31). Not what the files mean: `resident`
//! parses them.
//!
//! A `/proc` file says its size is 0, so `read_to_string` looks at it twice
//! and reads it in chunks that double from 32 bytes: an open, two `statx`,
//! six reads and a close for one `/proc/PID/stat`, at every wake-up of a
//! run's supervisor without a memory cgroup. Every file read here is a
//! kernel `seq_file`, and a read at offset 0 makes its text anew. A file
//! the kernel makes in one piece (`single_open`: `stat`, `statm`,
//! `schedstat`, `smaps_rollup`) fills a read as far as its text goes, so a
//! read that leaves room in the buffer has all of it ([`Pieces::One`]);
//! a file of records (`children`, `smaps`) fills at most a page at a time
//! with whole records, so it is read until a read returns nothing
//! ([`Pieces::Records`]).
//!
//! A descriptor of `/proc/PID/...` stays with the process it was opened
//! for, never with a later process given the same number: once that process
//! is reaped a read yields nothing. So a descriptor is kept only as long as
//! the judge keeps its process unreaped (a run's program until the run
//! ends, the namespace's holder for the worker's life).

use rustix::fs::{Mode, OFlags};
use std::os::fd::OwnedFd;

/// The first read's buffer: every file read here fits in it but a long
/// list of children.
const FIRST_READ: usize = 4096;

/// Bound on what one read keeps, like every read of what a program
/// controls (a list of children is at most the run's `processes`, far
/// under it).
const MOST_BYTES: usize = 1 << 20;

/// How the kernel makes a file's text, which says when a read has all of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Pieces {
    /// In one piece (`single_open`): a read that leaves room has it all.
    One,
    /// Record by record, at most a page of whole records a read: read until
    /// a read returns nothing.
    Records,
}

/// A `/proc` file opened once, read again from its start at every look.
#[derive(Debug)]
pub(super) struct ProcFile {
    fd: OwnedFd,
    pieces: Pieces,
}

impl ProcFile {
    /// Opens `path`, made as `pieces` say, for reading; `None` when it
    /// cannot be (the process is gone, or this kernel has no such file).
    pub(super) fn open(path: &str, pieces: Pieces) -> Option<ProcFile> {
        let flags = OFlags::RDONLY | OFlags::CLOEXEC;
        let fd = rustix::fs::open(path, flags, Mode::empty()).ok()?;
        Some(ProcFile { fd, pieces })
    }

    /// The file's text now, from its start: `None` when it cannot be read.
    /// Past [`MOST_BYTES`] the text is cut after its last whitespace, so no
    /// word in it is a piece of a longer one (a list of pids never names a
    /// process that is not in it).
    pub(super) fn read(&self) -> Option<Vec<u8>> {
        let mut text = vec![0u8; FIRST_READ];
        let mut length = 0;
        loop {
            let offset = u64::try_from(length).ok()?;
            let read = rustix::io::pread(&self.fd, &mut text[length..], offset).ok()?;
            length += read;
            let whole = match self.pieces {
                Pieces::One => length < text.len(),
                Pieces::Records => read == 0,
            };
            if whole {
                text.truncate(length);
                return Some(text);
            }
            if length < text.len() {
                continue;
            }
            if text.len() >= MOST_BYTES {
                cut_after_last_whitespace(&mut text);
                return Some(text);
            }
            text.resize(text.len() * 2, 0);
        }
    }
}

/// Drops the end of `text` after its last whitespace: a word the read cut.
fn cut_after_last_whitespace(text: &mut Vec<u8>) {
    let whole = text
        .iter()
        .rposition(u8::is_ascii_whitespace)
        .map_or(0, |last| last + 1);
    text.truncate(whole);
}

/// The text of the `/proc` file `path` (made as `pieces` say) now, read
/// once: `None` when it cannot be opened or read.
pub(super) fn read(path: &str, pieces: Pieces) -> Option<Vec<u8>> {
    ProcFile::open(path, pieces)?.read()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_file_is_read_anew_from_its_start_each_time() {
        let own =
            ProcFile::open("/proc/thread-self/stat", Pieces::One).expect("this thread's stat");
        let first = own.read().expect("read once");
        let second = own.read().expect("read again");
        let tid = rustix::thread::gettid().as_raw_nonzero().get().to_string();
        for text in [&first, &second] {
            assert!(text.starts_with(format!("{tid} (").as_bytes()), "{text:?}");
            assert!(text.ends_with(b"\n"), "the whole line: {text:?}");
        }
    }

    #[test]
    fn a_file_longer_than_the_first_read_is_read_whole() {
        // Records of a few hundred bytes: a page holds some of them only.
        let text = read("/proc/self/smaps", Pieces::Records).expect("this process's smaps");
        assert!(text.len() > FIRST_READ, "{} bytes", text.len());
        // Every mapping's block ends with its flags: the last one is here.
        let text = String::from_utf8_lossy(&text);
        let last = text.lines().last().unwrap_or_default();
        assert!(last.starts_with("VmFlags:"), "{last:?}");
    }

    #[test]
    fn a_list_cut_at_the_bound_keeps_only_whole_words() {
        let mut text = b"12 345 6789".to_vec();
        cut_after_last_whitespace(&mut text);
        assert_eq!(text, b"12 345 ");
        let mut text = b"123456".to_vec();
        cut_after_last_whitespace(&mut text);
        assert_eq!(text, b"");
    }

    #[test]
    fn a_missing_file_is_none() {
        assert!(read("/proc/self/no-such-file", Pieces::One).is_none());
        assert!(ProcFile::open("/proc/-5/stat", Pieces::One).is_none());
    }
}
