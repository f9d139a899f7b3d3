//! The command line's shape: the subcommands, their help and examples.

use super::{
    check, diff, export, gen, grade, import, interact, list, merge, new, report, run, similar,
    solve, stress, validate,
};
use clap::{Parser, Subcommand};

/// A grading harness in the style of an online judge.
///
/// Reference solvers, generators, validators and checkers for three grid-search
/// problems; compiles and runs submissions against them under limits.
#[derive(Debug, Parser)]
#[command(
    name = "judge",
    version,
    max_term_width = 100,
    after_help = "Exit codes (docs/commands.md has the details of each command):\n  0        success: valid, accepted, the same, every verdict AC\n  1        a negative result: invalid input, WA, different files, some verdict not AC\n  2        a usage or configuration error, nothing run (judge check: PE)\n  3        the judge failed (JE); for judge check also every usage error\n  130/143  run, grade, stress stopped by SIGINT / SIGTERM; reports hold what finished\n\nExamples:\n  judge grade                       # grade submissions/ with ./judge.toml\n  judge run rooks sol.cpp --random 10\n  judge gen mayan --profile hard --seed 7 --count 20 --out data"
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// The subcommands.
///
/// `defer`: each subcommand's arguments are added when clap builds that
/// subcommand (the one on the command line, or all of them for the help
/// tree, `judge man` and `judge completions`), not at every start: building
/// all 17 argument lists was most of clap's share of a `judge solve`
/// (issue #19). Names, about texts and help are those of before, because
/// the argument structs carry no doc comment: clap would take one as the
/// subcommand's about text, and a deferred struct's is applied after the
/// variant's (the doc comments here), not before.
#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub(crate) enum Command {
    /// List problems, their limits and generator profiles.
    #[command(
        after_help = "Examples:\n  judge problems\n  judge problems --json\n  judge problems --problems-dir my-problems"
    )]
    Problems(list::ProblemsArgs),
    /// Print the reference answer for an input.
    ///
    /// Exit 1 for an invalid input, 3 for a file that cannot be read (a folder where
    /// a file is expected, unreadable, over the 256 MiB read limit).
    #[command(
        after_help = "Examples:\n  judge solve matchsticks problems/matchsticks/tests/sample-1.in\n  judge gen mayan --seed 7 | judge solve mayan\n  judge solve mayan data          # writes missing or stale data/NAME.ans"
    )]
    Solve(solve::SolveArgs),
    /// Generate random valid inputs (and answers, with --out).
    #[command(
        after_help = "Examples:\n  judge gen rooks-large --seed 7\n  judge gen mayan --profile hard --seed 7 --count 20 --out data --prefix hard-\n  judge gen --package my-problem  # data/ from generators/generators.yaml"
    )]
    Gen(gen::GenArgs),
    /// Check that an input is valid; exit 0 if so, else 1 and "line L: ..." on stderr.
    ///
    /// Numbers are read strictly: no leading zero (`02`), no `+` sign. A file that
    /// cannot be read (a folder where a file is expected, unreadable, over the
    /// 256 MiB read limit) is exit 3, never "invalid".
    #[command(
        after_help = "Examples:\n  judge validate rooks-large data.in\n  judge validate mayan data       # every data/NAME.in, one line each\n  judge gen mayan --profile edge | judge validate mayan --profile edge"
    )]
    Validate(validate::ValidateArgs),
    /// Decide one output: print the verdict line; exit 0 AC, 1 WA, 2 PE, 3 checker failure.
    ///
    /// Anything that is not a verdict on the output (a usage error, an unknown
    /// problem, a file that cannot be read, a bad problem.toml) is `JE reason` on
    /// stdout and exit 3, never the 2 of a presentation error.
    #[command(
        after_help = "Examples:\n  judge check matchsticks input.in output.txt\n  judge check mayan input.in output.txt answer.ans --any-solution\n  judge check mayan data outputs  # outputs/NAME.out for every data/NAME.in"
    )]
    Check(check::CheckArgs),
    /// Play a test of a problem the judge plays (matchsticks-duel) over stdin and stdout.
    ///
    /// The judge's engine as an interactor: stdin is the submission's output, stdout
    /// its input. The verdict line goes to stderr; exit 0 AC, 1 WA, 2 PE, 3 the judge
    /// failed (an unknown problem, one the judge does not play, an unreadable or
    /// invalid input). The output validator of `judge export --kattis
    /// matchsticks-duel` runs it.
    #[command(
        after_help = "Examples:\n  judge interact matchsticks-duel problems/matchsticks-duel/tests/sample-1.in < moves.txt"
    )]
    Interact(interact::InteractArgs),
    /// Show a unified diff of two files; exit 0 if they are the same, 1 if not.
    ///
    /// Exit 3 when a file cannot be read (missing, a folder, over 256 MiB). Files
    /// that differ only in line endings, or that are binary, get one line saying
    /// so instead of a diff.
    #[command(
        after_help = "Examples:\n  judge diff expected.txt actual.txt\n  judge diff --color never expected.txt actual.txt > changes.diff"
    )]
    Diff(diff::DiffArgs),
    /// Compile and run submissions against a problem's tests under limits.
    #[command(
        after_help = "Without root, on a cgroup v2 host, `systemd-run --user --scope -p Delegate=yes judge ...` gives the judge a cgroup of its own (memory and process limits of the whole tree); docs/security.md says which layers hold on which host.\n\nExamples:\n  judge run rooks sol.cpp\n  judge run rooks sol.cpp --tests my-tests --random 20 --seed 3\n  judge run mayan a.py b.rs --json report.json --time-limit 2000"
    )]
    Run(run::RunArgs),
    /// Grade every submission under judge.toml's `submissions` folder.
    #[command(
        after_help = "Without root, on a cgroup v2 host, `systemd-run --user --scope -p Delegate=yes judge ...` gives the judge a cgroup of its own (memory and process limits of the whole tree); docs/security.md says which layers hold on which host.\n\nExamples:\n  judge grade\n  judge grade --config class/judge.toml --csv grades.csv --html grades.html --json grades.json\n  judge grade --shard 2/4 -q --json grade-2.json"
    )]
    Grade(grade::GradeArgs),
    /// Run random tests until a submission fails; print the smallest failing input found.
    #[command(
        after_help = "Examples:\n  judge stress rooks submissions/rooks/wrong_answer/ignores_walls.py --seed 1 > small.in\n  judge stress mayan sol.cpp --profile hard --iterations 200 --out failing"
    )]
    Stress(stress::StressArgs),
    /// Combine the JSON reports of `grade --shard` runs into one.
    #[command(
        after_help = "Examples:\n  judge merge grade-*.json -o grade.json\n  judge merge grade-1.json grade-2.json -o - --junit grade.xml --csv grades.csv"
    )]
    Merge(merge::MergeArgs),
    /// Render a saved JSON report again, or compare it with a baseline report.
    ///
    /// Reads a report of `judge grade`, `judge merge` or `judge run --json` and
    /// writes any report of `grade` from it without grading again; a partial
    /// (interrupted) report stays partial in each. With --baseline, one line per
    /// (problem, student) that changed and a summary; exit 0 when nothing
    /// regressed, 1 when something that passed in the baseline does not now.
    /// Without it, exit as the report's run did (0 / 1, a partial report 1).
    #[command(
        after_help = "Examples:\n  judge report grade.json --junit grade.xml --html grade.html\n  judge report grade.json --student-view --json student.json --csv grades.csv\n  judge report grade.json --baseline baseline.json --changes changes.json"
    )]
    Report(report::ReportCommandArgs),
    /// Rank pairs of hand-ins of each problem from most to least similar (never a verdict).
    ///
    /// Each hand-in is read with a parser of its language (C, C++, Python, Java,
    /// Rust; plain tokens for others), so renaming, layout and comments change
    /// nothing; C and C++ compare with each other. The score is the share of both
    /// files covered by common runs of --min-tokens tokens or more. It is evidence
    /// for a person to read, not proof of copying; grades are never touched.
    #[command(
        after_help = "Examples:\n  judge similar\n  judge similar --config class/judge.toml --problems rooks --base starter --html similar.html\n  judge similar --json - --min-tokens 20 > similar.json"
    )]
    Similar(similar::SimilarArgs),
    /// Write a package in the Kattis / ICPC problem package format.
    #[command(
        after_help = "Examples:\n  judge export --kattis rooks kattis/rooks\n  judge export --kattis mayan kattis/mayan"
    )]
    Export(export::ExportArgs),
    /// Scaffold a problem package that validates and grades out of the box.
    #[command(
        after_help = "Examples:\n  judge new sum-of-list\n  judge new sum-of-list --dir my-problems && judge gen sum-of-list --problems-dir my-problems"
    )]
    New(new::NewArgs),
    /// Write a package from GitHub Classroom's autograding.json io tests.
    ///
    /// Each test that runs one program on an input becomes a test of the
    /// package, compared as GitHub Classroom did (exact, included or regex,
    /// after trimming) and worth its points; the others (`make test`,
    /// `pytest`, a different program) are listed as skipped with the reason.
    #[command(
        after_help = "Examples:\n  judge import --autograding .github/classroom/autograding.json problems/hello\n  judge run hello hello.py --problems-dir problems"
    )]
    Import(import::ImportArgs),
    /// Print the man page (roff) on stdout.
    #[command(
        after_help = "Examples:\n  judge man > judge.1 && man ./judge.1\n  judge man | sudo tee /usr/local/share/man/man1/judge.1 > /dev/null"
    )]
    Man,
    /// Print shell completions for bash, zsh, fish, elvish or powershell on stdout.
    #[command(
        after_help = "Examples:\n  judge completions bash > ~/.local/share/bash-completion/completions/judge\n  judge completions zsh > ~/.zfunc/_judge\n  judge completions fish > ~/.config/fish/completions/judge.fish"
    )]
    Completions(CompletionsArgs),
    /// Print the JSON Schema of the JSON report (docs/report.schema.json).
    #[command(hide = true)]
    Schema,
}

// Arguments of `judge completions`.
#[derive(Debug, clap::Args)]
pub(crate) struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub(crate) shell: clap_complete::Shell,
}
