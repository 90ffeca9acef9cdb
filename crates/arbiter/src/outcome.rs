//! How a game ended: the result and the Law that decided it. The reasons and their articles
//! are the rules crate's table of endings ([`vizier_rules::ENDINGS`]).

use std::fmt;
use vizier_rules::{Color, Reason};

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
