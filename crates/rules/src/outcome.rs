//! How a game can end by the position alone (Arts. 5.1.1, 5.2.1, 5.2.2; who can still mate is
//! decided in [`crate::mate`]); the game's history
//! adds repetitions and the move-count rules ([`crate::History`]).

use crate::{Bitboard, Color, DeadCheck, Position, Reason, Role};
use std::fmt;

/// The rule that ended a game on the board.
///
/// ```
/// use vizier_rules::Termination;
/// assert_eq!(Termination::FivefoldRepetition.article(), "9.6.1");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// Art. 5.1.1: the side to move is checkmated.
    Checkmate,
    /// Art. 5.2.1: the side to move has no legal move and is not in check.
    Stalemate,
    /// Art. 5.2.2: neither side can checkmate by any series of legal moves.
    DeadPosition,
    /// Art. 9.6.1: the same position has appeared five times.
    FivefoldRepetition,
    /// Art. 9.6.2: 75 moves by each side without a capture or a pawn move.
    SeventyFiveMoves,
}

impl Termination {
    /// The reason of the table of endings ([`crate::ENDINGS`]).
    ///
    /// ```
    /// use vizier_rules::{Reason, Termination};
    /// assert_eq!(Termination::Stalemate.reason(), Reason::Stalemate);
    /// ```
    pub const fn reason(self) -> Reason {
        match self {
            Termination::Checkmate => Reason::Checkmate,
            Termination::Stalemate => Reason::Stalemate,
            Termination::DeadPosition => Reason::DeadPosition,
            Termination::FivefoldRepetition => Reason::FivefoldRepetition,
            Termination::SeventyFiveMoves => Reason::SeventyFiveMoves,
        }
    }

    /// The article of the 2023 FIDE Laws.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Termination::Checkmate.article(), "5.1.1");
    /// ```
    pub fn article(self) -> &'static str {
        self.reason()
            .article()
            .expect("the board's endings all have an article")
    }

    /// A short English description.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Termination::Stalemate.describe(), "stalemate");
    /// ```
    pub fn describe(self) -> &'static str {
        self.reason().describe()
    }
}

/// A finished game: the winner (none for a draw) and the rule.
///
/// ```
/// use vizier_rules::{Color, BoardOutcome, Termination};
/// let o = BoardOutcome { winner: Some(Color::White), termination: Termination::Checkmate };
/// assert_eq!(o.result(), "1-0");
/// assert_eq!(o.to_string(), "1-0 · checkmate · Art. 5.1.1");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BoardOutcome {
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// The rule that ended the game.
    pub termination: Termination,
}

impl BoardOutcome {
    /// The PGN result token: "1-0", "0-1" or "1/2-1/2".
    ///
    /// ```
    /// let o = vizier_rules::BoardOutcome { winner: None, termination: vizier_rules::Termination::Stalemate };
    /// assert_eq!(o.result(), "1/2-1/2");
    /// ```
    pub const fn result(self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for BoardOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} · {} · Art. {}",
            self.result(),
            self.termination.describe(),
            self.termination.article()
        )
    }
}

impl Position {
    /// Whether the side to move is checkmated.
    ///
    /// ```
    /// let pos = vizier_rules::Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    /// assert!(pos.is_checkmate());
    /// ```
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// Whether the side to move is stalemated.
    ///
    /// ```
    /// let pos = vizier_rules::Position::from_fen("7k/8/6QK/8/8/8/8/8 b - - 0 1").unwrap();
    /// assert!(pos.is_stalemate());
    /// ```
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// Whether `color` lacks the material to ever checkmate, by the usual sets: a lone king;
    /// a king and one knight against only a king and queens; kings and bishops all on one colour
    /// with no pawns or knights anywhere.
    ///
    /// ```
    /// use vizier_rules::{Color, Position};
    /// let pos = Position::from_fen("8/8/8/4k3/8/8/8/2N1K3 w - - 0 1").unwrap();
    /// assert!(pos.has_insufficient_material(Color::White));
    /// let pos = Position::from_fen("8/8/8/4k3/4p3/8/8/2N1K3 w - - 0 1").unwrap();
    /// assert!(!pos.has_insufficient_material(Color::White)); // the pawn can help mate
    /// ```
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let ours = self.by_color(color);
        let heavy = self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen);
        if (ours & heavy).any() {
            return false;
        }
        if (ours & self.by_role(Role::Knight)).any() {
            // K+N: mate needs an enemy piece to block its own king in; a queen cannot.
            let helpers =
                self.by_color(!color) & !self.by_role(Role::King) & !self.by_role(Role::Queen);
            return ours.count() <= 2 && helpers.is_empty();
        }
        if (ours & self.by_role(Role::Bishop)).any() {
            let bishops = self.by_role(Role::Bishop);
            let one_colour = (bishops & Bitboard::DARK_SQUARES).is_empty()
                || (bishops & Bitboard::LIGHT_SQUARES).is_empty();
            return one_colour
                && (self.by_role(Role::Pawn) | self.by_role(Role::Knight)).is_empty();
        }
        true
    }

    /// Whether `color` could still checkmate by some series of legal moves: true unless that
    /// is proven impossible ([`Position::mate_verdict`] with [`crate::FULL_NODES`]).
    ///
    /// ```
    /// use vizier_rules::{Color, Position};
    /// assert!(Position::new().can_checkmate(Color::White));
    /// let pos = Position::from_fen("2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1").unwrap();
    /// assert!(!pos.can_checkmate(Color::White));
    /// ```
    pub fn can_checkmate(&self, color: Color) -> bool {
        !self.mate_verdict(color, crate::FULL_NODES).cannot()
    }

    /// Whether neither side can checkmate (dead position by material, Art. 5.2.2).
    ///
    /// ```
    /// let pos = vizier_rules::Position::from_fen("8/8/8/4k3/8/8/8/4K3 w - - 0 1").unwrap();
    /// assert!(pos.is_insufficient_material());
    /// ```
    pub fn is_insufficient_material(&self) -> bool {
        Color::ALL
            .into_iter()
            .all(|c| self.has_insufficient_material(c))
    }

    /// The outcome decided by this position alone: checkmate, stalemate or a dead position
    /// ([`Position::is_dead`] with [`crate::DEAD_CHECK_NODES`]).
    ///
    /// ```
    /// let pos = vizier_rules::Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    /// assert_eq!(pos.outcome().unwrap().result(), "1-0");
    /// ```
    pub fn outcome(&self) -> Option<BoardOutcome> {
        self.outcome_checked().0
    }

    /// [`Position::outcome`], with what its dead-position check found (see
    /// [`Position::dead_check`]): a game going on in an [`DeadCheck::Open`] position may be
    /// dead all the same, for a deeper proof to show.
    ///
    /// ```
    /// use vizier_rules::{DeadCheck, Position};
    /// let locked = Position::from_fen("1k6/1P1p1p1p/BP6/1P6/8/8/3P1PKP/8 w - - 0 1").unwrap();
    /// assert_eq!(locked.outcome_checked(), (None, DeadCheck::Open));
    /// ```
    pub fn outcome_checked(&self) -> (Option<BoardOutcome>, DeadCheck) {
        if !self.has_legal_moves() {
            let outcome = if self.is_check() {
                BoardOutcome {
                    winner: Some(!self.turn),
                    termination: Termination::Checkmate,
                }
            } else {
                BoardOutcome {
                    winner: None,
                    termination: Termination::Stalemate,
                }
            };
            return (Some(outcome), DeadCheck::Alive);
        }
        let check = self.dead_check(crate::DEAD_CHECK_NODES);
        let outcome = (check == DeadCheck::Dead).then_some(BoardOutcome {
            winner: None,
            termination: Termination::DeadPosition,
        });
        (outcome, check)
    }
}
