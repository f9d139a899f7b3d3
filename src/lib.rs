//! `judge`: a grading harness in the style of an online judge.
//!
//! # From the top
//!
//! - [`problems`] knows the three problems of PROBLEMS.md: each parses and
//!   validates inputs, solves them, generates random ones, checks a
//!   contestant's output and offers smaller inputs derived from a failing
//!   one, behind the [`problems::Problem`] trait.
//! - [`sandbox`] runs one program under limits and isolation and measures
//!   it (CPU and wall time, peak memory, output), killing all it left.
//! - [`runner`] grades submissions: loads tests, compiles each submission
//!   once, runs every test on a pool of sandboxed workers, decides verdicts
//!   and emits events in test order; [`runner::stress`] searches random
//!   tests for a failure and shrinks it (`judge stress`).
//! - [`report`] renders results: the table, the JSON report, JUnit XML, the
//!   CSV gradebook and the HTML pages.
//! - [`grade`] finds what `judge grade` grades under judge.toml's layout
//!   (and what it ignores), who each submission belongs to, the verdict
//!   each bundled example must get, and shards of a split run; [`shard`]
//!   reads a shard from the job engine's variables (`--shard auto`).
//! - [`testset`] makes data sets for `judge gen`: each test generated,
//!   validated and solved in a bounded parallel window, handed on in order,
//!   and written into a folder that is moved into place whole.
//! - [`config`] reads `judge.toml` and the problem packages: a package's
//!   `problem.toml` names its engine (one of [`problems`]) and the profiles
//!   its tests come from (`rooks` and `rooks-large` share an engine); the
//!   bundled packages are built into the binary ([`config::bundled`]).
//! - [`external`] is a problem made of a package's own programs
//!   (reference, generator, validator, checker speaking the testlib or the
//!   Kattis protocol), run in the sandbox, behind the same
//!   [`problems::Problem`] trait; [`config::kattis`] reads a Kattis / ICPC
//!   package as one, and [`export`] writes ours in that format.
//! - [`interrupt`] turns SIGINT and SIGTERM into a cancellation the runner
//!   checks; [`resume`] decides which results of an earlier report `judge
//!   grade --resume` may reuse.
//! - [`similar`] compares the hand-ins of each problem pair by pair
//!   (tree-sitter tokens, winnowing, greedy string tiling) for `judge
//!   similar`: evidence for a person, never a verdict.
//! - [`verdict`] and [`exit`] are the leaf vocabulary every layer shares.
//! - `cli` turns command lines into calls of the layers above and decides
//!   exit codes; it and `report` are the only places that print.

pub mod cli;
pub mod config;
pub mod diff;
pub mod error;
pub mod exit;
pub mod export;
pub mod external;
pub mod grade;
pub mod grading;
pub mod interrupt;
pub mod package;
pub mod problems;
pub mod report;
pub mod resume;
pub mod runner;
pub mod sandbox;
pub mod shard;
pub mod similar;
pub mod source;
pub mod testset;
pub mod verdict;
