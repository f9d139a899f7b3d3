//! `judge`: a grading harness in the style of an online judge.
//!
//! # The layers, from the bottom
//!
//! No two files of `src/` import each other, directly or through others;
//! docs/architecture.md has what each layer owns and the house examples.
//!
//! - [`verdict`] and `exit` are the leaf vocabulary every layer shares
//!   (a verdict; the `exit::Outcome` of a command that ran to its end:
//!   success, failure, testlib's presentation error, the judge failing,
//!   interrupted);
//!   `lease` names what a judge leaves on a shared host (cgroups, its
//!   workspace, a staging folder) at random and tells a dead judge's from a
//!   live one's by a lock; `suggest` finds the known name a mistyped
//!   one is close to ("did you mean"); `hint` is the advice any layer's
//!   error carries, printed as `hint: ...` by `cli` alone; `visible` makes
//!   text a submission controls safe to print, and `stderr` writes a
//!   message line in one write: leaves, so a layer below `report` (the
//!   runner's note on a folder a compile is not lent) says a line without
//!   naming `report`; `atomic_file` is the one writer of a whole file
//!   (temporary file, sync, rename), for reports and for a package's
//!   cached tests alike; `testlib` holds testlib's points (`quitp`'s exit
//!   code and message), read by a package's checker, a testlib interactor
//!   and Polygon's `problem.xml` alike.
//! - [`problems`] knows the three problems of docs/problems.md: each parses and
//!   validates inputs, solves them, generates random ones, checks a
//!   contestant's output and offers smaller inputs derived from a failing
//!   one, behind the [`problems::Problem`] trait. `input_file` reads an
//!   input, output or answer whole, within the judge's size limit;
//!   `test_files` lists the `NAME.in` tests of a folder.
//!   [`interaction`] is what an interactive or multi-pass problem hands the
//!   runner (its output validator and how to run it), as plain data.
//! - [`sandbox`] runs one program under limits and isolation and measures
//!   it (CPU and wall time, peak memory, output), killing all it left; it
//!   hides the judge's data it is handed as a value ([`sandbox::Hidden`]),
//!   never a table of the process.
//! - [`config`] reads and validates `judge.toml`, `problem.toml` and a
//!   Kattis `problem.yaml`, naming the file, line and column of anything
//!   wrong; it builds nothing that runs. The bundled packages are built into
//!   the binary ([`config::bundled`]).
//! - [`runner`] grades submissions: loads tests, compiles each submission
//!   once, runs every test on a pool of sandboxed workers, decides verdicts
//!   and emits events in test order. `external` is a problem made of a
//!   package's own programs (reference, generator, validator, checker
//!   speaking the testlib or the Kattis protocol), run in the sandbox,
//!   behind the same trait.
//! - [`package`] assembles a package ready to use from what [`config`]
//!   read: a built-in engine or the package's programs, with its tests
//!   checked; `package::kattis` does it for a Kattis / ICPC package, and
//!   `export` writes ours in that format.
//! - [`discovery`] finds what `judge grade` grades under judge.toml's layout
//!   (and what it ignores), who each submission belongs to, the verdict
//!   folders and what each accepts (the `expected` layout's and Kattis'
//!   meanings, for `grade` and `grade --package` alike), and shards of a
//!   split run (`discovery::shard` reads a shard from the job engine's
//!   variables, `--shard auto`). `interrupt` turns SIGINT and SIGTERM
//!   into a cancellation the runner checks.
//! - [`grading`] is what the commands decide: the settings resolver
//!   (flags over judge.toml over problem.toml over the defaults, and which
//!   won: limits, jobs, seed, random tests, the student view, checker
//!   options), the plan of a class, one grading call each for `run`,
//!   `grade` (and `grade --package`, through the same journaled call) and
//!   `merge`, which results of an earlier report `--resume` may reuse
//!   (`grading::resume`), the TLE re-runs, the outcome of the verdicts and the student
//!   view, each returning typed results; what a command hides from every
//!   program it runs, gathered once from its packages' secret folders and
//!   the folders it reads (`grading::hidden`) and handed down to the runner
//!   and the packages' programs; also `validate`, `solve` and
//!   `check` on a file or a folder, what `problems` lists, and the writing
//!   of every report file with the policy for a journal or a report that
//!   cannot be written.
//! - One home per command that is not a grade (issue #33), each using the
//!   grading layer's settings and error: `stress` (the request and its
//!   wording, and `stress::search`, random tests against one submission
//!   until one fails, then shrinking it), `gen` (`judge gen`'s sets, each
//!   test generated, validated and solved in a bounded parallel window and
//!   written into a folder moved into place whole: `gen::testset`),
//!   [`similar`] (the hand-ins of each problem compared pair by pair:
//!   tree-sitter tokens, winnowing, greedy string tiling; evidence for a
//!   person, never a verdict; `similar::command` is what `judge similar` and
//!   `grade --similarity` call), `export` (a package written in the Kattis
//!   format or as a Gradescope autograder; `export::command` decides where
//!   it may write) and `interact` (the judge's engine played over stdin and
//!   stdout).
//! - [`report`] renders results: the table, the JSON report, JUnit XML, the
//!   CSV gradebook and the HTML pages; it checks report paths before a run
//!   (`report::targets`), writes the HTML pages as one set and
//!   is the one writer of stdout (`report::stdout`, which also reads
//!   `NO_COLOR`). `diff` makes the unified diffs of `judge diff` and the
//!   reports.
//! - `error` is the one error type at the top: every failure a command
//!   ends with; and `error::exit_code`, the one table of exit codes, one
//!   exhaustive `match` on a command's `exit::Outcome` (whose value
//!   [`grading`] decides from the verdicts) and on every error. `manual`
//!   renders the man page and the shell completions from the command
//!   line's clap definitions.
//! - `cli` keeps the clap arguments and, per command, builds a request and
//!   makes one library call: `run`, `grade` (and `--package`) and `merge`
//!   order their whole run in the grading layer (check the report paths,
//!   load the configuration, plan, grade, write the reports, say the end)
//!   and say each line to the `Console` the cli hands them. It prints what
//!   they return or say (tables, progress bars, notes, errors) and hands the command's
//!   outcome or error to `error::exit_code`; what takes precedence, what
//!   is refused, what a failed journal means and what the verdicts come to
//!   are the library's. It and `report` are the only places that print
//!   (besides the runner's one note, said through the leaf `stderr`).
//!   The binary is one call, `cli::main`: a command line clap cannot parse
//!   (and, for `judge check`, anything that keeps it from a verdict) ends
//!   as an `error::Error` too, its code from the same table.
//!
//! # What is public, and why
//!
//! `pub(crate)` is the default; `pub` is only what a user of the library
//! names (the binary, the integration tests in `tests/it`, the benches in
//! `benches/`, a doc test) or what a public signature needs, and
//! `unreachable_pub` is denied so nothing else creeps out. The public
//! modules, each for its users:
//!
//! - `cli`: [`cli::main`], the whole binary.
//! - [`verdict`]: the [`verdict::Verdict`] every test asserts on.
//! - [`problems`]: the three problems behind [`problems::Problem`], their
//!   inputs, solvers, generators and checkers, and [`problems::text`]'s
//!   layouts (the problems' property tests and the solver benches).
//! - [`sandbox`]: one run under limits ([`sandbox::Sandbox`],
//!   [`sandbox::RunSpec`], [`sandbox::Limits`], [`sandbox::Isolation`]) for
//!   the hostile-program tests and the runner benches, and what a sandbox
//!   is given to hide ([`sandbox::Hidden`], [`sandbox::DataFolder`]), which
//!   every sandbox and runner call takes as a value.
//! - [`runner`]: a [`runner::Workspace`], submissions and their results, and
//!   [`runner::interactive`] for the interactive bench.
//! - [`config`]: [`config::judge::JudgeConfig`], [`config::problem`]'s limits
//!   and the [`config::bundled`] files, to build what a test grades with.
//! - [`grading`]: only [`grading::settings`], so tests and benches build
//!   their settings through the same resolver as the commands.
//! - [`package`], [`discovery`], [`interaction`], [`report`] and [`similar`]:
//!   the few items the package, discovery, interactive, report and
//!   similarity tests and benches call (a [`package::Package`],
//!   [`discovery::discover`], the renderers of [`report::json`],
//!   [`report::junit`], [`report::csv`] and [`report::html`],
//!   [`similar::class`]).
//!
//! Every other module (`error`, `exit`, `external`, `export`, `stress`,
//! `gen`, `lease`, ...) is `pub(crate)`, and so is every item of
//! a public module that no user names: the tests go through the binary.

#![deny(unreachable_pub)]

pub(crate) mod atomic_file;
pub(crate) mod beneath;
pub(crate) mod causes;
pub mod cli;
pub mod config;
pub(crate) mod data_file;
pub(crate) mod diff;
pub mod discovery;
pub(crate) mod error;
pub(crate) mod exit;
pub(crate) mod export;
pub(crate) mod external;
pub(crate) mod gen;
pub mod grading;
pub(crate) mod hint;
pub(crate) mod input_file;
pub(crate) mod interact;
pub mod interaction;
pub(crate) mod interrupt;
pub(crate) mod lease;
pub(crate) mod manual;
pub mod package;
pub mod problems;
pub mod report;
pub mod runner;
pub mod sandbox;
pub mod similar;
pub(crate) mod stderr;
pub(crate) mod stress;
pub(crate) mod suggest;
pub(crate) mod test_files;
pub(crate) mod testlib;
pub mod verdict;
pub(crate) mod visible;
