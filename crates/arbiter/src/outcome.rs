//! How a game ended: the result and the Law that decided it.

use std::fmt;
use vizier_rules::{Color, Termination};

/// The score of a finished game (Art. 11/12: win 1, draw ½, loss 0), or none (aborted).
///
/// ```
/// use vizier_arbiter::GameResult;
/// assert_eq!(GameResult::Draw.pgn(), "1/2-1/2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// 1–0.
    WhiteWins,
    /// 0–1.
    BlackWins,
    /// ½–½.
    Draw,
    /// No result: the game was aborted.
    NoResult,
}

impl GameResult {
    /// A win for `color`.
    ///
    /// ```
    /// use vizier_arbiter::GameResult;
    /// assert_eq!(GameResult::win(vizier_rules::Color::Black), GameResult::BlackWins);
    /// ```
    pub fn win(color: Color) -> GameResult {
        color.fold(GameResult::WhiteWins, GameResult::BlackWins)
    }

    /// The PGN result token.
    ///
    /// ```
    /// assert_eq!(vizier_arbiter::GameResult::NoResult.pgn(), "*");
    /// ```
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::NoResult => "*",
        }
    }

    /// The score as people write it: "1–0", "0–1", "½–½".
    ///
    /// ```
    /// assert_eq!(vizier_arbiter::GameResult::Draw.display(), "½–½");
    /// ```
    pub fn display(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1–0",
            GameResult::BlackWins => "0–1",
            GameResult::Draw => "½–½",
            GameResult::NoResult => "—",
        }
    }
}

/// Why a game ended.
///
/// ```
/// use vizier_arbiter::Reason;
/// assert_eq!(Reason::TimeForfeit.article(), Some("6.9"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// Art. 5.1.1.
    Checkmate,
    /// Art. 5.1.2.
    Resignation,
    /// Art. 5.2.1.
    Stalemate,
    /// Art. 5.2.2.
    DeadPosition,
    /// Arts. 5.2.3 and 9.1.
    Agreement,
    /// Art. 9.2: a correct threefold-repetition claim.
    ThreefoldRepetition,
    /// Art. 9.3: a correct 50-move claim.
    FiftyMoves,
    /// Art. 9.6.1.
    FivefoldRepetition,
    /// Art. 9.6.2.
    SeventyFiveMoves,
    /// Art. 6.9: the flag fell.
    TimeForfeit,
    /// Art. 7.5.5: a second completed illegal move.
    IllegalMoves,
    /// Appendix A.5.4: an illegal position still on the board after the next move.
    IllegalPosition,
    /// Casual rule of Chinese play sites: a third move of the king into check.
    Fouls,
    /// Old Art. 10.16 (adjournment): the sealed move was ambiguous, impossible or illegal.
    InvalidSealedMove,
    /// Aborted before both players had moved.
    Aborted,
    /// Aborted because a player did not make a first move in time.
    FirstMoveTimeout,
}

impl Reason {
    /// The article of the FIDE Laws (2023 numbering; adjournment from older editions).
    ///
    /// ```
    /// assert_eq!(vizier_arbiter::Reason::Aborted.article(), None);
    /// ```
    pub fn article(self) -> Option<&'static str> {
        Some(match self {
            Reason::Checkmate => "5.1.1",
            Reason::Resignation => "5.1.2",
            Reason::Stalemate => "5.2.1",
            Reason::DeadPosition => "5.2.2",
            Reason::Agreement => "9.1",
            Reason::ThreefoldRepetition => "9.2",
            Reason::FiftyMoves => "9.3",
            Reason::FivefoldRepetition => "9.6.1",
            Reason::SeventyFiveMoves => "9.6.2",
            Reason::TimeForfeit => "6.9",
            Reason::IllegalMoves => "7.5.5",
            Reason::IllegalPosition => "A.5.4",
            Reason::InvalidSealedMove => "10.16 (1997)",
            Reason::Fouls | Reason::Aborted | Reason::FirstMoveTimeout => return None,
        })
    }

    /// Plain English.
    ///
    /// ```
    /// assert_eq!(vizier_arbiter::Reason::FivefoldRepetition.describe(), "fivefold repetition");
    /// ```
    pub fn describe(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Resignation => "resignation",
            Reason::Stalemate => "stalemate",
            Reason::DeadPosition => "dead position",
            Reason::Agreement => "draw by agreement",
            Reason::ThreefoldRepetition => "threefold repetition",
            Reason::FiftyMoves => "50-move rule",
            Reason::FivefoldRepetition => "fivefold repetition",
            Reason::SeventyFiveMoves => "75-move rule",
            Reason::TimeForfeit => "time forfeit",
            Reason::IllegalMoves => "second illegal move",
            Reason::IllegalPosition => "illegal position",
            Reason::Fouls => "three fouls",
            Reason::InvalidSealedMove => "invalid sealed move",
            Reason::Aborted => "aborted",
            Reason::FirstMoveTimeout => "no first move in time",
        }
    }

    /// The PGN `Termination` tag value (PGN standard 9.8.1).
    ///
    /// ```
    /// assert_eq!(vizier_arbiter::Reason::TimeForfeit.pgn_termination(), "time forfeit");
    /// ```
    pub fn pgn_termination(self) -> &'static str {
        match self {
            Reason::TimeForfeit => "time forfeit",
            Reason::IllegalMoves
            | Reason::IllegalPosition
            | Reason::Fouls
            | Reason::InvalidSealedMove => "rules infraction",
            Reason::Aborted | Reason::FirstMoveTimeout => "abandoned",
            _ => "normal",
        }
    }

    pub(crate) fn from_termination(t: Termination) -> Reason {
        match t {
            Termination::Checkmate => Reason::Checkmate,
            Termination::Stalemate => Reason::Stalemate,
            Termination::DeadPosition => Reason::DeadPosition,
            Termination::FivefoldRepetition => Reason::FivefoldRepetition,
            Termination::SeventyFiveMoves => Reason::SeventyFiveMoves,
        }
    }
}

/// The end of a game.
///
/// ```
/// use vizier_arbiter::{GameResult, Outcome, Reason};
/// let o = Outcome { result: GameResult::Draw, reason: Reason::FivefoldRepetition, at: 0 };
/// assert_eq!(o.to_string(), "½–½ · fivefold repetition · Art. 9.6.1");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The score.
    pub result: GameResult,
    /// The rule that ended the game.
    pub reason: Reason,
    /// When it ended (for a flag: the instant the flag fell).
    pub at: crate::Millis,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} · {}", self.result.display(), self.reason.describe())?;
        if let Some(a) = self.reason.article() {
            write!(f, " · Art. {a}")?;
        }
        Ok(())
    }
}
