//! Exit codes, one constant per meaning in SPEC.md.
//!
//! `judge check` follows the testlib convention (0 AC, 1 WA, 2 PE, 3 checker
//! failure); `run` and `grade` use 0 all AC, 1 some not AC, 2 usage or
//! configuration error, 3 judge failure. Clap exits with 2 on a usage error by
//! itself, which agrees with both tables.

/// Everything went as asked: the input is valid, the output accepted, every verdict AC.
pub(crate) const SUCCESS: u8 = 0;
/// `validate`: the input is invalid. `run`/`grade`: some verdict is not AC. `diff`: files differ.
pub(crate) const FAILURE: u8 = 1;
/// `check`: wrong answer (testlib `_wa`).
pub(crate) const WRONG_ANSWER: u8 = 1;
/// `check`: presentation error, the output could not be parsed (testlib `_pe`).
pub(crate) const PRESENTATION_ERROR: u8 = 2;
/// Usage or configuration error: a clear message, nothing was run.
pub(crate) const USAGE: u8 = 2;
/// The judge itself failed: a checker failure (testlib `_fail`), a reference
/// that could not be computed, an I/O error on the judge's own files.
pub(crate) const JUDGE_FAILED: u8 = 3;
/// `run`, `grade`, `stress`: stopped by SIGINT (Ctrl-C); 128 + 2, as a shell
/// reports a process ended by that signal. Reports hold what finished.
pub(crate) const INTERRUPTED: u8 = 130;
/// `run`, `grade`, `stress`: stopped by SIGTERM; 128 + 15.
pub(crate) const TERMINATED: u8 = 143;
