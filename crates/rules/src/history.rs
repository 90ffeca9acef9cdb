//! A game's line of play and what it allows: repetitions, the 50- and 75-move rules, claims
//! (Arts. 9.2, 9.3, 9.6).

use crate::{BoardOutcome, DeadCheck, Move, Position, Termination};

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
#[derive(Debug, PartialEq, Eq)]
pub struct History {
    start: Position,
    position: Position,
    moves: Vec<Move>,
    keys: Vec<u64>,
}

/// A copy has room for one more move: copies are made to go on from (a command tried on a
/// copy of the game), and a list copied without room doubles at its first push.
impl Clone for History {
    fn clone(&self) -> History {
        History {
            start: self.start.clone(),
            position: self.position.clone(),
            moves: with_room(&self.moves),
            keys: with_room(&self.keys),
        }
    }
}

/// `items` in a list with room for one more.
fn with_room<T: Copy>(items: &[T]) -> Vec<T> {
    let mut list = Vec::with_capacity(items.len() + 1);
    list.extend_from_slice(items);
    list
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

    /// The game going on from `position`, which an over-the-board irregularity left (an
    /// illegal move that stood, Appendix A.5) rather than a move. The positions before it
    /// still count for repetition; moves are not taken back past it.
    ///
    /// ```
    /// use vizier_rules::History;
    /// let mut h = History::default();
    /// for san in ["Nf3", "Nf6", "Ng1", "Ng8"] {
    ///     h.push_san(san).unwrap();
    /// }
    /// // Knights that jump like rooks, out and back, bring the start position a third time.
    /// for (from, to) in [("g1", "g3"), ("g8", "g6"), ("g3", "g1"), ("g6", "g8")] {
    ///     let (from, to) = (from.parse().unwrap(), to.parse().unwrap());
    ///     let pos = h.position().play_irregular(from, to, None).unwrap();
    ///     h = h.continue_irregular(pos);
    /// }
    /// assert!(h.can_claim_threefold());
    /// assert!(h.pop().is_none()); // nothing to take back past the irregularity
    /// ```
    pub fn continue_irregular(&self, position: Position) -> History {
        let mut keys = with_room(&self.keys);
        keys.push(position.repetition_key());
        History {
            keys,
            position: position.clone(),
            start: position,
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
        self.record(m);
        Ok(())
    }

    /// Records `m`, already played on `position`. The lists grow one place at a time: a live
    /// game's history lasts as long as the game, and lists that doubled would be a third
    /// empty on average.
    fn record(&mut self, m: Move) {
        self.moves.reserve_exact(1);
        self.moves.push(m);
        self.keys.reserve_exact(1);
        self.keys.push(self.position.repetition_key());
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
        self.record(m);
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
    /// The claim is decided before the move is made, so a move that would mate or stalemate
    /// still completes them (docs/laws.md).
    ///
    /// ```
    /// let pos = vizier_rules::Position::from_fen("k7/8/1K6/8/8/8/8/7R w - - 99 80").unwrap();
    /// let h = vizier_rules::History::new(pos);
    /// assert!(h.can_claim_fifty_with(h.position().parse_san("Ra1").unwrap()));
    /// assert!(h.can_claim_fifty_with(h.position().parse_san("Rh8#").unwrap()));
    /// ```
    pub fn can_claim_fifty_with(&self, m: Move) -> bool {
        !self.position.is_zeroing(m) && self.position.is_legal(m) && self.position.halfmoves() >= 99
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
    pub fn outcome(&self) -> Option<BoardOutcome> {
        self.outcome_checked().0
    }

    /// [`History::outcome`], with what the position's dead-position check found
    /// ([`Position::outcome_checked`]).
    pub fn outcome_checked(&self) -> (Option<BoardOutcome>, DeadCheck) {
        let (outcome, check) = self.position.outcome_checked();
        if outcome.is_some() {
            return (outcome, check);
        }
        (self.by_count(), check)
    }

    /// The draws the Laws impose by counting: the 75-move rule and fivefold repetition.
    fn by_count(&self) -> Option<BoardOutcome> {
        let draw = |termination| {
            Some(BoardOutcome {
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
