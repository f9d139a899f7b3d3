//! The `judge` binary: the command line is [`judge::cli`]'s.

fn main() -> std::process::ExitCode {
    judge::cli::main()
}
