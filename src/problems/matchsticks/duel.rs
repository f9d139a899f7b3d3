//! matchsticks-duel (problems/matchsticks-duel/statement.md): the submission plays
//! whole games of the matchstick game against the judge's table.
//!
//! The judge writes k and the k starting positions (each won for the side
//! to move, the submission); then, per game, the submission writes a move
//! (`r c d` or `rcd`) and the judge answers `win` (the move left it no legal
//! move) or its own move, a best reply, the seed of the test choosing among
//! equals. A submission left without a move after the judge's reply gets
//! `lose`, and the test is WA naming the first move that turned a won
//! position into a lost one, with a move that would have kept the win.

use super::input::{self, Board, Input, Move, Orientation};
use super::solve::{best_move, outcome, Outcome};
use super::validate::ProfileKind;
use crate::interaction::{EngineSession, EngineStep};
use crate::problems::text::Layout;
use crate::problems::{
    find_profile, CheckOptions, CheckOutcome, CheckerFailure, GenerateError, InputError, Problem,
    Profile,
};
use crate::verdict::Verdict;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sha2::{Digest, Sha256};

/// The most games in one test (problems/matchsticks-duel/statement.md: 1 <= k <= 100).
pub(crate) const MAX_GAMES: usize = 100;

/// The longest line of a move the judge reads; more is not a move.
const MAX_LINE_BYTES: usize = 64;

/// The duel problem.
pub(crate) struct MatchsticksDuel;

const PROFILES: &[Profile] = &[
    Profile {
        name: "won",
        about: "positions won for the side to move, reached by play or drawn at random",
    },
    Profile {
        name: "tricky",
        about: "won positions where the greedy fewest-replies move loses",
    },
];

/// One test's games, played one after another.
pub(crate) struct Duel {
    games: Vec<Board>,
    rng: ChaCha8Rng,
    game: usize,
    board: Board,
    /// The submission's moves in this game so far.
    moves: usize,
    /// The first move of this game that lost a won position, as a message.
    first_mistake: Option<String>,
}

impl Duel {
    /// A session for `input` (already valid: every position won for the
    /// side to move); its replies are chosen by the input's own seed.
    pub(crate) fn new(input: &str) -> Result<Duel, InputError> {
        let parsed = input::parse(input, Layout::Lenient)?;
        let games: Vec<Board> = parsed
            .positions
            .iter()
            .map(|position| position.board)
            .collect();
        let digest = Sha256::digest(input.as_bytes());
        let mut seed = [0u8; 32];
        seed.copy_from_slice(&digest);
        let board = games
            .first()
            .copied()
            .ok_or_else(|| InputError::constraint(1, "no game"))?;
        Ok(Duel {
            games,
            rng: ChaCha8Rng::from_seed(seed),
            game: 0,
            board,
            moves: 0,
            first_mistake: None,
        })
    }

    fn here(&self) -> String {
        format!("game {}, move {}", self.game + 1, self.moves)
    }

    /// The judge's best reply on `board`: a move that leaves the submission
    /// a lost board when there is one, else any legal move; the seed picks
    /// among equals.
    fn reply_move(&mut self, board: &Board) -> Option<Move> {
        let moves = board.legal_moves();
        let winning: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&candidate| outcome(&board.with(candidate)) == Outcome::Loss)
            .collect();
        let pool = if winning.is_empty() { moves } else { winning };
        if pool.is_empty() {
            return None;
        }
        let index = self.rng.random_range(0..pool.len());
        Some(pool[index])
    }
}

/// `r c d` or `rcd`; `None` when the line is not a move at all.
fn parse_move(line: &str) -> Option<(i64, i64, Orientation)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let orientation_of = |text: &str| match text.as_bytes() {
        [one] => Orientation::from_char(char::from(*one)),
        _ => None,
    };
    match words[..] {
        [compact] if compact.len() == 3 && compact.is_ascii() => {
            let digit = |index: usize| {
                char::from(compact.as_bytes()[index])
                    .to_digit(10)
                    .map(i64::from)
            };
            Some((digit(0)?, digit(1)?, orientation_of(&compact[2..])?))
        }
        [row, column, orientation] => Some((
            row.parse().ok()?,
            column.parse().ok()?,
            orientation_of(orientation)?,
        )),
        _ => None,
    }
}

fn written(placed: &Move) -> String {
    format!(
        "{} {} {}",
        placed.row,
        placed.column,
        placed.orientation.to_char()
    )
}

impl EngineSession for Duel {
    fn start(&mut self) -> String {
        Input::render(&self.games)
    }

    fn reply(&mut self, line: &str) -> EngineStep {
        self.moves += 1;
        let finish = |verdict, message: String| EngineStep::Finish {
            reply: String::new(),
            verdict,
            message,
        };
        if line.len() > MAX_LINE_BYTES {
            return finish(
                Verdict::PresentationError,
                format!(
                    "{}: a line of {} bytes is not a move",
                    self.here(),
                    line.len()
                ),
            );
        }
        let Some((row, column, orientation)) = parse_move(line) else {
            return finish(
                Verdict::PresentationError,
                format!(
                    "{}: `{}` is not a move `r c d` or `rcd`",
                    self.here(),
                    line.trim()
                ),
            );
        };
        let placed = match self.board.legal_move(row, column, orientation) {
            Ok(placed) => placed,
            Err(illegal) => {
                return finish(
                    Verdict::WrongAnswer,
                    format!("{}: `{}` is illegal: {illegal}", self.here(), line.trim()),
                )
            }
        };
        let before = self.board;
        self.board = before.with(placed);
        // The first move of the game that turned a won position into a
        // lost one; named once the judge's winning reply is chosen.
        let mistake = self.first_mistake.is_none()
            && outcome(&before) == Outcome::Win
            && outcome(&self.board) == Outcome::Win;
        let board = self.board;
        let Some(answer) = self.reply_move(&board) else {
            // The judge has no move: this game is won.
            self.game += 1;
            self.moves = 0;
            self.first_mistake = None;
            if self.game == self.games.len() {
                return EngineStep::Finish {
                    reply: "win\n".to_owned(),
                    verdict: Verdict::Accepted,
                    message: format!("won all {} games", self.games.len()),
                };
            }
            self.board = self.games[self.game];
            return EngineStep::Continue("win\n".to_owned());
        };
        if mistake {
            // The form of issue #15: "3 1 -: leaves the judge a win: 2 0 1",
            // the judge's reply being the winning one it played.
            let keeps = best_move(&before).map_or_else(String::new, |good| {
                format!("; {} keeps yours", written(&good))
            });
            self.first_mistake = Some(format!(
                "{}, {}: leaves the judge a win: {}{keeps}",
                self.here(),
                written(&placed),
                written(&answer)
            ));
        }
        self.board = board.with(answer);
        if !self.board.has_legal_move() {
            let message = self
                .first_mistake
                .clone()
                .unwrap_or_else(|| format!("{}: the game was lost", self.here()));
            return EngineStep::Finish {
                reply: format!("{}\nlose\n", written(&answer)),
                verdict: Verdict::WrongAnswer,
                message: format!("game {} lost; {message}", self.game + 1),
            };
        }
        EngineStep::Continue(format!("{}\n", written(&answer)))
    }

    fn ended(&mut self) -> (Verdict, String) {
        (
            Verdict::WrongAnswer,
            format!(
                "game {}, move {}: the submission's output ended without a move",
                self.game + 1,
                self.moves + 1
            ),
        )
    }
}

impl Problem for MatchsticksDuel {
    fn id(&self) -> &'static str {
        "matchsticks-duel"
    }

    fn title(&self) -> &'static str {
        "Matchsticks Duel"
    }

    fn profiles(&self) -> &'static [Profile] {
        PROFILES
    }

    fn validate(&self, text: &str, profile: Option<&str>) -> Result<(), InputError> {
        let parsed = input::parse(text, Layout::Strict)?;
        if parsed.positions.len() > MAX_GAMES {
            return Err(InputError::constraint(
                1,
                format!("k = {} games; at most {MAX_GAMES}", parsed.positions.len()),
            ));
        }
        for position in &parsed.positions {
            let promise = match profile {
                Some("tricky") => ProfileKind::Tricky,
                _ => ProfileKind::Random,
            };
            if outcome(&position.board) != Outcome::Win
                || !super::generate::keeps_promise(promise, &position.board)
            {
                return Err(InputError::constraint(
                    position.first_line,
                    format!(
                        "game {} is not won for the side to move{}",
                        position.number,
                        if profile == Some("tricky") {
                            " with the greedy move losing"
                        } else {
                            ""
                        }
                    ),
                ));
            }
        }
        Ok(())
    }

    /// A winning first move of each game (the answer file is documentation:
    /// the judge plays the games itself).
    fn solve(&self, text: &str) -> Result<String, InputError> {
        super::solve::solve(&input::parse(text, Layout::Lenient)?)
    }

    fn generate(&self, profile: &str, rng: &mut ChaCha8Rng) -> Result<String, GenerateError> {
        let known = find_profile(self, profile)?;
        if known.name == "tricky" {
            return Ok(super::generate::generate(ProfileKind::Tricky, rng));
        }
        loop {
            let drawn = super::generate::generate(ProfileKind::Random, rng);
            let Ok(parsed) = input::parse(&drawn, Layout::Lenient) else {
                continue;
            };
            let won: Vec<Board> = parsed
                .positions
                .iter()
                .map(|position| position.board)
                .filter(|board| outcome(board) == Outcome::Win)
                .collect();
            if !won.is_empty() {
                return Ok(Input::render(&won));
            }
        }
    }

    /// Outside a game (`judge check`): the output is a first move per game,
    /// checked as `matchsticks` checks it (it must keep the win). Grading
    /// plays the games instead.
    fn check(
        &self,
        input: &str,
        output: &str,
        answer: Option<&str>,
        options: &CheckOptions,
    ) -> Result<CheckOutcome, CheckerFailure> {
        super::Matchsticks.check(input, output, answer, options)
    }

    fn plays_the_submission(&self) -> bool {
        true
    }

    fn engine_session(&self, input: &str) -> Option<Box<dyn EngineSession>> {
        Duel::new(input)
            .ok()
            .map(|duel| Box::new(duel) as Box<dyn EngineSession>)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(duel: &mut Duel, player: impl Fn(&Board) -> Option<Move>) -> (Verdict, String) {
        let _ = duel.start();
        loop {
            let Some(chosen) = player(&duel.board) else {
                return duel.ended();
            };
            match duel.reply(&written(&chosen)) {
                EngineStep::Continue(_) => {}
                EngineStep::Finish {
                    verdict, message, ..
                } => return (verdict, message),
            }
        }
    }

    const TRICKY: &str = "1\n0000\n0000\n0000\n";

    #[test]
    fn the_minimax_player_wins_every_game() {
        let text = super::super::generate::generate(
            ProfileKind::Tricky,
            &mut ChaCha8Rng::seed_from_u64(7),
        );
        let mut duel = Duel::new(&text).unwrap();
        let (verdict, message) = play(&mut duel, best_move);
        assert_eq!(verdict, Verdict::Accepted, "{message}");
    }

    #[test]
    fn the_greedy_player_loses_and_its_first_mistake_is_named() {
        let text = super::super::generate::generate(
            ProfileKind::Tricky,
            &mut ChaCha8Rng::seed_from_u64(7),
        );
        let mut duel = Duel::new(&text).unwrap();
        let (verdict, message) = play(&mut duel, super::super::solve::greedy_move);
        assert_eq!(verdict, Verdict::WrongAnswer, "{message}");
        assert!(message.contains("game 1, move 1, "), "{message}");
        // "game 1, move 1, 1 1 -: leaves the judge a win: 2 0 1; ...": the
        // judge's reply named is a legal move on the board the mistake left.
        let (_, after) = message
            .split_once(": leaves the judge a win: ")
            .expect(&message);
        let reply = parse_move(&after[..5]).expect(&message);
        assert!(after[5..].starts_with("; "), "{message}");
        assert!(reply.0 <= 2 && reply.1 <= 3, "{message}");
        assert!(message.contains("keeps yours"), "{message}");
    }

    #[test]
    fn lines_that_are_not_moves_and_illegal_moves() {
        let mut duel = Duel::new(TRICKY).unwrap();
        let _ = duel.start();
        assert!(matches!(
            duel.reply("hello"),
            EngineStep::Finish {
                verdict: Verdict::PresentationError,
                ..
            }
        ));
        let mut duel = Duel::new(TRICKY).unwrap();
        match duel.reply("3 0 -") {
            EngineStep::Finish {
                verdict, message, ..
            } => {
                assert_eq!(verdict, Verdict::WrongAnswer);
                assert!(message.contains("row 3 is off the board"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(parse_move("00-"), Some((0, 0, Orientation::Horizontal)));
        assert_eq!(parse_move("2 1 1"), Some((2, 1, Orientation::Vertical)));
        assert_eq!(parse_move("2 1 x"), None);
    }

    #[test]
    fn the_seed_of_the_test_picks_the_replies() {
        let replies = |text: &str| {
            let mut duel = Duel::new(text).unwrap();
            let _ = duel.start();
            let first = best_move(&duel.board).unwrap();
            duel.reply(&written(&first))
        };
        assert_eq!(replies(TRICKY), replies(TRICKY));
    }
}
