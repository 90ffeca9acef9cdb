//! How a game can end: one table, read by the arbiter, the server, PGN export and the web
//! client's translations, so that a reason has one code, one article and one description.

use std::fmt;

/// Why a game ended.
///
/// ```
/// use vizier_rules::Reason;
/// assert_eq!(Reason::TimeForfeit.article(), Some("6.9"));
/// assert_eq!(Reason::TimeForfeit.code(), "time-forfeit");
/// assert_eq!(Reason::from_code("time-forfeit"), Some(Reason::TimeForfeit));
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
    /// Art. 6.9: the flag fell, but the opponent cannot checkmate by any series of legal
    /// moves, so the game is drawn.
    TimeForfeitNoMate,
    /// Art. 7.5.5: a second completed illegal move.
    IllegalMoves,
    /// Art. 7.5.5: a second completed illegal move, but the opponent cannot checkmate by any
    /// series of legal moves, so the game is drawn.
    IllegalMovesNoMate,
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
    /// Called off by the server: nobody played it for too long (an unclocked game, or an
    /// invite nobody took).
    Abandoned,
    /// Online: a player left the game, and the opponent claimed the win or a draw after
    /// waiting the time the clock allows.
    Left,
}

/// The PGN `Termination` tag's values (PGN standard 9.8.1) that a reason can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PgnTermination {
    /// Ended by the rules of play.
    Normal,
    /// A flag fell.
    TimeForfeit,
    /// A player broke the rules.
    RulesInfraction,
    /// The game did not really start.
    Abandoned,
}

impl PgnTermination {
    /// The tag's text.
    ///
    /// ```
    /// assert_eq!(vizier_rules::PgnTermination::RulesInfraction.as_str(), "rules infraction");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            PgnTermination::Normal => "normal",
            PgnTermination::TimeForfeit => "time forfeit",
            PgnTermination::RulesInfraction => "rules infraction",
            PgnTermination::Abandoned => "abandoned",
        }
    }
}

/// One row of the table of endings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The reason this row describes.
    pub reason: Reason,
    /// A stable code: stored in the database, sent on the wire, the key of the web client's
    /// translations (`reason.<code>`).
    pub code: &'static str,
    /// The article of the FIDE Laws (2023 numbering; adjournment from older editions).
    pub article: Option<&'static str>,
    /// Plain English, lower case.
    pub description: &'static str,
    /// The PGN `Termination` tag.
    pub termination: PgnTermination,
}

const fn row(
    reason: Reason,
    code: &'static str,
    article: Option<&'static str>,
    description: &'static str,
    termination: PgnTermination,
) -> Ending {
    Ending {
        reason,
        code,
        article,
        description,
        termination,
    }
}

use PgnTermination::{Abandoned, Normal, RulesInfraction};

/// Every way a game can end, in the order of [`Reason`].
pub static ENDINGS: [Ending; 20] = [
    row(
        Reason::Checkmate,
        "checkmate",
        Some("5.1.1"),
        "checkmate",
        Normal,
    ),
    row(
        Reason::Resignation,
        "resignation",
        Some("5.1.2"),
        "resignation",
        Normal,
    ),
    row(
        Reason::Stalemate,
        "stalemate",
        Some("5.2.1"),
        "stalemate",
        Normal,
    ),
    row(
        Reason::DeadPosition,
        "dead-position",
        Some("5.2.2"),
        "dead position",
        Normal,
    ),
    row(
        Reason::Agreement,
        "agreement",
        Some("9.1"),
        "draw by agreement",
        Normal,
    ),
    row(
        Reason::ThreefoldRepetition,
        "threefold-repetition",
        Some("9.2"),
        "threefold repetition",
        Normal,
    ),
    row(
        Reason::FiftyMoves,
        "fifty-move-rule",
        Some("9.3"),
        "50-move rule",
        Normal,
    ),
    row(
        Reason::FivefoldRepetition,
        "fivefold-repetition",
        Some("9.6.1"),
        "fivefold repetition",
        Normal,
    ),
    row(
        Reason::SeventyFiveMoves,
        "seventy-five-move-rule",
        Some("9.6.2"),
        "75-move rule",
        Normal,
    ),
    row(
        Reason::TimeForfeit,
        "time-forfeit",
        Some("6.9"),
        "time forfeit",
        PgnTermination::TimeForfeit,
    ),
    row(
        Reason::TimeForfeitNoMate,
        "time-forfeit-no-mate",
        Some("6.9"),
        "flag fell, but the opponent cannot checkmate",
        PgnTermination::TimeForfeit,
    ),
    row(
        Reason::IllegalMoves,
        "illegal-moves",
        Some("7.5.5"),
        "second illegal move",
        RulesInfraction,
    ),
    row(
        Reason::IllegalMovesNoMate,
        "illegal-moves-no-mate",
        Some("7.5.5"),
        "second illegal move, but the opponent cannot checkmate",
        RulesInfraction,
    ),
    row(
        Reason::IllegalPosition,
        "illegal-position",
        Some("A.5.4"),
        "illegal position",
        RulesInfraction,
    ),
    row(Reason::Fouls, "fouls", None, "three fouls", RulesInfraction),
    row(
        Reason::InvalidSealedMove,
        "invalid-sealed-move",
        Some("10.16 (1997)"),
        "invalid sealed move",
        RulesInfraction,
    ),
    row(Reason::Aborted, "aborted", None, "aborted", Abandoned),
    row(
        Reason::FirstMoveTimeout,
        "first-move-timeout",
        None,
        "no first move in time",
        Abandoned,
    ),
    row(
        Reason::Abandoned,
        "abandoned",
        None,
        "abandoned: nobody played it for too long",
        Abandoned,
    ),
    row(
        Reason::Left,
        "left",
        None,
        "the opponent left the game",
        Abandoned,
    ),
];

impl Reason {
    /// This reason's row of [`ENDINGS`].
    pub fn ending(self) -> &'static Ending {
        &ENDINGS[self as usize]
    }

    /// The stable code (see [`Ending::code`]).
    pub fn code(self) -> &'static str {
        self.ending().code
    }

    /// The reason with this code.
    pub fn from_code(code: &str) -> Option<Reason> {
        ENDINGS.iter().find(|e| e.code == code).map(|e| e.reason)
    }

    /// The article of the FIDE Laws, where one decides it.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Reason::Aborted.article(), None);
    /// ```
    pub fn article(self) -> Option<&'static str> {
        self.ending().article
    }

    /// Plain English.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Reason::FivefoldRepetition.describe(), "fivefold repetition");
    /// ```
    pub fn describe(self) -> &'static str {
        self.ending().description
    }

    /// The PGN `Termination` tag value (PGN standard 9.8.1).
    ///
    /// ```
    /// assert_eq!(vizier_rules::Reason::TimeForfeit.pgn_termination(), "time forfeit");
    /// ```
    pub fn pgn_termination(self) -> &'static str {
        self.ending().termination.as_str()
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())?;
        if let Some(a) = self.article() {
            write!(f, " · Art. {a}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_row_is_its_reasons_and_codes_are_unique() {
        for (i, e) in ENDINGS.iter().enumerate() {
            assert_eq!(e.reason as usize, i, "{e:?} out of order");
            assert_eq!(Reason::from_code(e.code), Some(e.reason));
            assert!(
                e.code.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
                "{}",
                e.code
            );
        }
        assert_eq!(Reason::from_code("checkmated"), None);
    }
}
