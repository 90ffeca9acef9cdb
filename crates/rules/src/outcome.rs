//! How a game can end by the position alone (Arts. 5 and 9.6), and what a player may claim
//! (Arts. 9.2 and 9.3), counted over the game's history.

use crate::{Bitboard, Color, Move, Position, Role};
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
    /// The article of the 2023 FIDE Laws.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Termination::Checkmate.article(), "5.1.1");
    /// ```
    pub const fn article(self) -> &'static str {
        match self {
            Termination::Checkmate => "5.1.1",
            Termination::Stalemate => "5.2.1",
            Termination::DeadPosition => "5.2.2",
            Termination::FivefoldRepetition => "9.6.1",
            Termination::SeventyFiveMoves => "9.6.2",
        }
    }

    /// A short English description.
    ///
    /// ```
    /// assert_eq!(vizier_rules::Termination::Stalemate.describe(), "stalemate");
    /// ```
    pub const fn describe(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::DeadPosition => "dead position",
            Termination::FivefoldRepetition => "fivefold repetition",
            Termination::SeventyFiveMoves => "75-move rule",
        }
    }
}

/// A finished game: the winner (none for a draw) and the rule.
///
/// ```
/// use vizier_rules::{Color, Outcome, Termination};
/// let o = Outcome { winner: Some(Color::White), termination: Termination::Checkmate };
/// assert_eq!(o.result(), "1-0");
/// assert_eq!(o.to_string(), "1-0 · checkmate · Art. 5.1.1");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// The rule that ended the game.
    pub termination: Termination,
}

impl Outcome {
    /// The PGN result token: "1-0", "0-1" or "1/2-1/2".
    ///
    /// ```
    /// let o = vizier_rules::Outcome { winner: None, termination: vizier_rules::Termination::Stalemate };
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

impl fmt::Display for Outcome {
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

    /// Whether `color` could still checkmate by some series of legal moves. Today this is
    /// decided by material ([`Position::has_insufficient_material`]); an exact helpmate search
    /// will refine it behind the same signature.
    ///
    /// ```
    /// use vizier_rules::{Color, Position};
    /// assert!(Position::new().can_checkmate(Color::White));
    /// ```
    pub fn can_checkmate(&self, color: Color) -> bool {
        !self.has_insufficient_material(color)
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

    /// The outcome decided by this position alone: checkmate, stalemate or a dead position.
    ///
    /// ```
    /// let pos = vizier_rules::Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    /// assert_eq!(pos.outcome().unwrap().result(), "1-0");
    /// ```
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.has_legal_moves() {
            return Some(if self.is_check() {
                Outcome {
                    winner: Some(!self.turn),
                    termination: Termination::Checkmate,
                }
            } else {
                Outcome {
                    winner: None,
                    termination: Termination::Stalemate,
                }
            });
        }
        self.is_insufficient_material().then_some(Outcome {
            winner: None,
            termination: Termination::DeadPosition,
        })
    }
}

/// A game's line of play from a start position: the current position plus the repetition key
/// of every position so far, so that repetitions and claims can be judged (Arts. 9.2, 9.3, 9.6).
///
/// ```
/// use vizier_rules::History;
/// let mut h = History::default();
/// for san in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"] {
///     h.push_san(san).unwrap();
/// }
/// assert!(!h.can_claim_threefold());
/// let ng8 = h.position().parse_san("Ng8").unwrap();
/// assert!(h.can_claim_threefold_with(ng8)); // the declared move repeats the start a third time
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History {
    start: Position,
    position: Position,
    moves: Vec<Move>,
    keys: Vec<u64>,
}

impl Default for History {
    fn default() -> History {
        History::new(Position::new())
    }
}

impl History {
    /// A history that starts at `start`.
    ///
    /// ```
    /// let h = vizier_rules::History::new(vizier_rules::Position::new());
    /// assert!(h.moves().is_empty());
    /// ```
    pub fn new(start: Position) -> History {
        History {
            keys: vec![start.repetition_key()],
            position: start.clone(),
            start,
            moves: Vec::new(),
        }
    }

    /// The position now.
    ///
    /// ```
    /// assert_eq!(vizier_rules::History::default().position(), &vizier_rules::Position::new());
    /// ```
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The start position.
    ///
    /// ```
    /// assert_eq!(vizier_rules::History::default().start(), &vizier_rules::Position::new());
    /// ```
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The moves played so far.
    ///
    /// ```
    /// let mut h = vizier_rules::History::default();
    /// h.push_san("e4").unwrap();
    /// assert_eq!(h.moves().len(), 1);
    /// ```
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The repetition keys of the positions before the current one, oldest first: what a
    /// search needs to see repetitions of the game's earlier positions.
    ///
    /// ```
    /// let mut h = vizier_rules::History::default();
    /// h.push_san("e4").unwrap();
    /// assert_eq!(h.earlier_keys(), [vizier_rules::Position::new().repetition_key()]);
    /// ```
    pub fn earlier_keys(&self) -> &[u64] {
        &self.keys[..self.keys.len() - 1]
    }

    /// Plays a legal move; an illegal one is refused and changes nothing.
    ///
    /// ```
    /// use vizier_rules::{History, Move, Square};
    /// let mut h = History::default();
    /// assert!(h.push(Move::normal(Square::E2, Square::E5)).is_err());
    /// assert!(h.moves().is_empty());
    /// ```
    pub fn push(&mut self, m: Move) -> Result<(), crate::IllegalMove> {
        self.position = self.position.play(m)?;
        self.moves.push(m);
        self.keys.push(self.position.repetition_key());
        Ok(())
    }

    /// Reads a SAN move (leniently) and plays it.
    ///
    /// ```
    /// let mut h = vizier_rules::History::default();
    /// assert!(h.push_san("Nf3").is_ok());
    /// assert!(h.push_san("Nf3").is_err()); // Black has no knight move to f3
    /// ```
    pub fn push_san(&mut self, san: &str) -> Result<Move, crate::MoveParseError> {
        let m = self.position.parse_san_lenient(san)?;
        self.position.play_unchecked(m);
        self.moves.push(m);
        self.keys.push(self.position.repetition_key());
        Ok(m)
    }

    /// Takes the last move back, returning it.
    ///
    /// ```
    /// let mut h = vizier_rules::History::default();
    /// h.push_san("e4").unwrap();
    /// assert!(h.pop().is_some());
    /// assert_eq!(h.position(), &vizier_rules::Position::new());
    /// ```
    pub fn pop(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.keys.pop();
        let mut pos = self.start.clone();
        for &m in &self.moves {
            pos.play_unchecked(m);
        }
        self.position = pos;
        Some(m)
    }

    /// How many times the current position has appeared (this occurrence included).
    ///
    /// ```
    /// assert_eq!(vizier_rules::History::default().repetitions(), 1);
    /// ```
    pub fn repetitions(&self) -> usize {
        self.count(self.position.repetition_key())
    }

    /// Occurrences of `key` among positions since the last capture or pawn move (earlier ones
    /// cannot be the same position).
    fn count(&self, key: u64) -> usize {
        let window = (self.position.halfmoves() as usize + 1).min(self.keys.len());
        self.keys[self.keys.len() - window..]
            .iter()
            .filter(|&&k| k == key)
            .count()
    }

    /// Art. 9.2.2 (a): the current position has appeared at least three times.
    ///
    /// ```
    /// assert!(!vizier_rules::History::default().can_claim_threefold());
    /// ```
    pub fn can_claim_threefold(&self) -> bool {
        self.repetitions() >= 3
    }

    /// Art. 9.2.2 (b): the declared move `m` would make a position appear for the third time.
    ///
    /// ```
    /// let h = vizier_rules::History::default();
    /// let m = h.position().parse_san("e4").unwrap();
    /// assert!(!h.can_claim_threefold_with(m));
    /// ```
    pub fn can_claim_threefold_with(&self, m: Move) -> bool {
        if self.position.is_zeroing(m) || !self.position.is_legal(m) {
            return false;
        }
        let mut after = self.position.clone();
        after.play_unchecked(m);
        self.count(after.repetition_key()) >= 2
    }

    /// Art. 9.2: a threefold claim is valid now, or with some legal move.
    ///
    /// ```
    /// assert!(!vizier_rules::History::default().can_claim_threefold_any());
    /// ```
    pub fn can_claim_threefold_any(&self) -> bool {
        self.can_claim_threefold()
            || self
                .position
                .legal_moves()
                .iter()
                .any(|&m| self.can_claim_threefold_with(m))
    }

    /// Art. 9.3 (a): the last 50 moves by each side had no capture and no pawn move.
    ///
    /// ```
    /// let pos = vizier_rules::Position::from_fen("8/8/8/4k3/8/8/8/R3K3 w - - 100 80").unwrap();
    /// assert!(vizier_rules::History::new(pos).can_claim_fifty());
    /// ```
    pub fn can_claim_fifty(&self) -> bool {
        self.position.halfmoves() >= 100 && self.position.has_legal_moves()
    }

    /// Art. 9.3 (b): the declared move `m` completes 50 moves without capture or pawn move.
    ///
    /// ```
    /// let pos = vizier_rules::Position::from_fen("8/8/8/4k3/8/8/8/R3K3 w - - 99 80").unwrap();
    /// let h = vizier_rules::History::new(pos);
    /// assert!(h.can_claim_fifty_with(h.position().parse_san("Ra2").unwrap()));
    /// ```
    pub fn can_claim_fifty_with(&self, m: Move) -> bool {
        if self.position.is_zeroing(m) || !self.position.is_legal(m) {
            return false;
        }
        let mut after = self.position.clone();
        after.play_unchecked(m);
        after.halfmoves() >= 100 && after.has_legal_moves()
    }

    /// Art. 9.3: a 50-move claim is valid now, or with some legal move.
    ///
    /// ```
    /// assert!(!vizier_rules::History::default().can_claim_fifty_any());
    /// ```
    pub fn can_claim_fifty_any(&self) -> bool {
        self.can_claim_fifty()
            || (self.position.halfmoves() >= 99
                && self
                    .position
                    .legal_moves()
                    .iter()
                    .any(|&m| self.can_claim_fifty_with(m)))
    }

    /// Art. 9.6.1: the current position has appeared five times.
    ///
    /// ```
    /// assert!(!vizier_rules::History::default().is_fivefold());
    /// ```
    pub fn is_fivefold(&self) -> bool {
        self.repetitions() >= 5
    }

    /// Art. 9.6.2: 75 moves by each side without capture or pawn move (unless the last of them
    /// mated: checkmate takes precedence).
    ///
    /// ```
    /// let pos = vizier_rules::Position::from_fen("8/8/8/4k3/8/8/8/R3K3 w - - 150 100").unwrap();
    /// assert!(vizier_rules::History::new(pos).is_seventy_five());
    /// ```
    pub fn is_seventy_five(&self) -> bool {
        self.position.halfmoves() >= 150 && self.position.has_legal_moves()
    }

    /// The outcome the Laws impose now without any claim: checkmate, stalemate, dead position,
    /// the 75-move rule or fivefold repetition.
    ///
    /// ```
    /// let mut h = vizier_rules::History::default();
    /// for san in ["f3", "e5", "g4", "Qh4"] {
    ///     h.push_san(san).unwrap();
    /// }
    /// assert_eq!(h.outcome().unwrap().to_string(), "0-1 · checkmate · Art. 5.1.1");
    /// ```
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.position.outcome() {
            return Some(o);
        }
        let draw = |termination| {
            Some(Outcome {
                winner: None,
                termination,
            })
        };
        if self.is_seventy_five() {
            return draw(Termination::SeventyFiveMoves);
        }
        if self.is_fivefold() {
            return draw(Termination::FivefoldRepetition);
        }
        None
    }
}
