//! One test of a problem the judge's engine plays against the submission
//! (matchsticks-duel), over any pair of streams: what `judge interact`
//! runs over stdin and stdout, so any host with `judge` can run the judge's
//! own games as a stand-alone interactor.
//!
//! The home of `judge interact` (`cli/interact.rs` only takes the arguments
//! and prints); the interactive runs of `run` and `grade` are
//! `crate::runner::interactive`'s, and what an interactive problem hands the
//! runner is `crate::interaction`'s.

use crate::input_file::Source;
use crate::interaction::{EngineSession, EngineStep};
use crate::package::Package;
use crate::verdict::Verdict;
use std::io::{BufRead, Write};
use std::path::Path;

/// The most of one line of the submission that is read; a longer line is
/// cut there (the engine then says it is not a move), so the judge's
/// memory stays bounded whatever the submission writes.
const MAX_LINE_BYTES: u64 = 64 * 1024;

/// Why there is no game to play: not a verdict on the submission (exit 3).
#[derive(Debug, thiserror::Error)]
pub(crate) enum NoGame {
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
    #[error(
        "`{0}` is not played against the submission by the judge; `judge check` decides its \
         outputs"
    )]
    NotPlayed(String),
    #[error(transparent)]
    CannotRead(#[from] crate::input_file::CannotRead),
    #[error("`{name}`: {error}")]
    NotText {
        name: String,
        error: crate::problems::text::InputError,
    },
    #[error("`{name}` is not a valid input: {error}")]
    Invalid {
        name: String,
        error: crate::problems::text::InputError,
    },
    #[error("`{0}` holds no game to play")]
    Empty(String),
}

/// The engine's session for the test, or why there is none (not a verdict
/// on the submission: exit 3).
pub(crate) fn session(
    problems_dir: Option<&Path>,
    problem: &str,
    input: &Path,
) -> Result<Box<dyn EngineSession>, NoGame> {
    let package = Package::load_without_answers(problems_dir, problem, None)?;
    if !package.problem().plays_the_submission() {
        return Err(NoGame::NotPlayed(problem.to_owned()));
    }
    let source = Source::read(Some(input))?;
    let text = source.text().map_err(|error| NoGame::NotText {
        name: source.name.clone(),
        error,
    })?;
    package.validate(text).map_err(|error| NoGame::Invalid {
        name: source.name.clone(),
        error,
    })?;
    package
        .problem()
        .engine_session(text)
        .ok_or_else(|| NoGame::Empty(source.name.clone()))
}

/// Plays one test: the engine's opening, then an answer to every line the
/// submission writes (blank lines skipped; a last line without its newline
/// still counts) until the engine decides or the submission's output ends.
/// A submission that stops reading only loses the judge's answers.
pub(crate) fn play(
    mut session: Box<dyn EngineSession>,
    mut from: impl BufRead,
    mut to: impl Write,
) -> (Verdict, String) {
    let mut open = true;
    let mut send = |text: &str| {
        if open && (to.write_all(text.as_bytes()).is_err() || to.flush().is_err()) {
            open = false;
        }
    };
    send(&session.start());
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = std::io::Read::take(&mut from, MAX_LINE_BYTES).read_until(b'\n', &mut line);
        match read {
            Ok(0) | Err(_) => return session.ended(),
            Ok(_) => {}
        }
        if line.len() as u64 == MAX_LINE_BYTES && line.last() != Some(&b'\n') {
            // The rest of an overlong line is not read: the engine rejects
            // what it got.
            line.push(b'\n');
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.strip_suffix('\n').unwrap_or(&text);
        if text.trim().is_empty() {
            continue;
        }
        match session.reply(text) {
            EngineStep::Continue(reply) => send(&reply),
            EngineStep::Finish {
                reply,
                verdict,
                message,
            } => {
                send(&reply);
                return (verdict, message);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(input: &str) -> Box<dyn EngineSession> {
        crate::problems::find("matchsticks-duel")
            .and_then(|problem| problem.engine_session(input))
            .expect("a duel")
    }

    const ONE_GAME: &str = "1\n0000\n0000\n0000\n";

    #[test]
    fn an_output_that_ends_without_a_move_is_wrong_answer() {
        let mut written = Vec::new();
        let (verdict, message) = play(session(ONE_GAME), &b""[..], &mut written);
        assert_eq!(verdict, Verdict::WrongAnswer, "{message}");
        assert!(message.contains("ended without a move"), "{message}");
        assert_eq!(String::from_utf8_lossy(&written), ONE_GAME);
    }

    #[test]
    fn a_line_that_is_no_move_is_a_presentation_error_and_answers_stop() {
        let mut written = Vec::new();
        let (verdict, message) = play(session(ONE_GAME), &b"\nhello\n0 0 -\n"[..], &mut written);
        assert_eq!(verdict, Verdict::PresentationError, "{message}");
        assert!(message.contains("`hello` is not a move"), "{message}");
        assert_eq!(String::from_utf8_lossy(&written), ONE_GAME);
    }

    #[test]
    fn an_overlong_line_is_cut_and_rejected() {
        let flood = vec![b'0'; 1 << 20];
        let (verdict, message) = play(session(ONE_GAME), &flood[..], std::io::sink());
        assert_eq!(verdict, Verdict::PresentationError, "{message}");
        assert!(message.contains("a line of 65536 bytes"), "{message}");
    }

    #[test]
    fn a_move_without_its_newline_is_answered() {
        let mut written = Vec::new();
        let (verdict, _) = play(session(ONE_GAME), &b"1 1 -"[..], &mut written);
        let written = String::from_utf8_lossy(&written).into_owned();
        // The judge answered the move (or said `win`) before the output ended.
        assert!(written.len() > ONE_GAME.len(), "{written}");
        assert_ne!(verdict, Verdict::PresentationError);
    }
}
