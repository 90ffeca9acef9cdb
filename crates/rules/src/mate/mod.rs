//! Who can still checkmate: whether a side can checkmate by any series of legal moves
//! (Art. 5.2.2 dead position; Arts. 6.9, 7.5.5 and A.5 "the opponent cannot checkmate").
//!
//! Answers are proofs either way. "Can" comes with the line of legal moves that mates;
//! "cannot" comes from a static rule (material that can never mate, or a search over pawn
//! structures showing the winner can never give a check that could be mate) or from a search that met every reachable position
//! without a mate, leaving out only positions a static rule proves dead. Only an exhausted node
//! budget gives "undecided". Move counters are ignored: the 75-move rule and fivefold
//! repetition are the game's business ([`crate::History`]), not the position's.

mod heuristic;
mod packed;
mod search;
mod structure;

use crate::{Color, Move, Position};
use structure::Found;

/// A search budget at most this is a small one: [`Position::mate_verdict`] then makes one
/// search in the usual order after a short structure search, without the shapes' tries. (The
/// quick stage, [`Position::quick_verdict`], searches no positions at all.)
pub const QUICK_NODES: u64 = 400;
/// Positions the full decision searches per side by default (on a flag fall, a second illegal
/// move, and in `vizier dead`).
pub const FULL_NODES: u64 = 200_000;
/// Positions per side `vizier dead` allows by default. Beyond [`FULL_NODES`] only the last
/// two searches of a decision go on, once they have run out at the usual budget, so that
/// what the usual budget decides costs the same.
pub const DEEP_NODES: u64 = 3_000_000;
/// Moves with at most [`FORCED_MOVES`] choices a dead-position check (and the quick stage)
/// follows where the static proofs leave the answer open.
const FORCED_PLIES: u32 = 4;
/// The most legal moves a position may have for its moves to be followed.
const FORCED_MOVES: usize = 3;
/// Searches a dead-position check may make in all, however many forced moves it follows:
/// one for each of three moves, so that a chain of forced moves costs no more than a few
/// searches.
const FORCED_SEARCHES: u32 = 3;
/// Positions per side for a dead-position check after a move that the quick stage could not
/// settle.
pub const DEAD_CHECK_NODES: u64 = 20_000;

/// Whether a side can still checkmate.
///
/// ```
/// use vizier_rules::{Color, MateVerdict, Position};
/// let pos = Position::from_fen("2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1").unwrap();
/// assert_eq!(pos.mate_verdict(Color::White, 10_000), MateVerdict::Cannot);
/// let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/3R2K1 w - - 0 1").unwrap();
/// assert!(matches!(pos.mate_verdict(Color::White, 10_000), MateVerdict::Can(_)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateVerdict {
    /// The side can checkmate: a series of legal moves from the position that does.
    Can(Vec<Move>),
    /// The side can never checkmate, by any series of legal moves.
    Cannot,
    /// The node budget ran out before a proof either way.
    Undecided,
}

impl MateVerdict {
    /// Whether this is a proof that the side cannot checkmate.
    ///
    /// ```
    /// assert!(vizier_rules::MateVerdict::Cannot.cannot());
    /// assert!(!vizier_rules::MateVerdict::Undecided.cannot());
    /// ```
    pub fn cannot(&self) -> bool {
        matches!(self, MateVerdict::Cannot)
    }

    /// Whether this is a proof that the side can checkmate.
    ///
    /// ```
    /// assert!(vizier_rules::MateVerdict::Can(vec![]).can());
    /// ```
    pub fn can(&self) -> bool {
        matches!(self, MateVerdict::Can(_))
    }
}

/// Structures the static proof may search at the root of a decision, and for each new
/// structure met during the search.
const ROOT_STRUCTURES: usize = 50_000;
const QUICK_ROOT_STRUCTURES: usize = 64;
const INNER_STRUCTURES: usize = 64;
/// States the structure search with the kings exact may visit at the root of a decision (no
/// more than its positions; the most a proof took on the hard set: 7,400), and in a
/// dead-position check where one side has nothing to move but its king (the most: 397).
const ROOT_STATES: usize = 50_000;
const DEAD_CHECK_STATES: usize = 1_000;

impl Position {
    /// Decides whether `color` can checkmate by some series of legal moves, searching at most
    /// `nodes` positions at a time (a budget beyond [`FULL_NODES`] is spent only where that
    /// one leaves the answer open).
    ///
    /// ```
    /// use vizier_rules::{Color, MateVerdict, Position};
    /// // Black's only move is Kxa8: White can never mate.
    /// let pos = Position::from_fen("Rk6/8/2K5/8/8/8/8/8 b - - 0 1").unwrap();
    /// assert_eq!(pos.mate_verdict(Color::White, 1_000), MateVerdict::Cannot);
    /// ```
    pub fn mate_verdict(&self, color: Color, nodes: u64) -> MateVerdict {
        let (root_structures, root_states) = if nodes <= QUICK_NODES {
            (QUICK_ROOT_STRUCTURES, 0)
        } else {
            (ROOT_STRUCTURES, ROOT_STATES.min(nodes as usize))
        };
        let outcome = search::helpmate(
            self,
            color,
            nodes,
            root_structures,
            root_states,
            INNER_STRUCTURES,
        );
        match outcome {
            search::Outcome::Mate(line) => MateVerdict::Can(line),
            search::Outcome::Exhausted => MateVerdict::Cannot,
            search::Outcome::OutOfNodes => MateVerdict::Undecided,
        }
    }

    /// [`Position::mate_verdict`], giving up at `deadline` ([`MateVerdict::Undecided`]) if
    /// the budget lasts longer: for a server, where a proof must end in time.
    ///
    /// ```
    /// use std::time::{Duration, Instant};
    /// use vizier_rules::{Color, MateVerdict, Position};
    /// let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/3R2K1 w - - 0 1").unwrap();
    /// let soon = Instant::now() + Duration::from_secs(5);
    /// assert!(pos.mate_verdict_by(Color::White, 10_000, soon).can());
    /// let past = Instant::now();
    /// let locked = Position::from_fen("1k6/1P1p1p1p/BP6/1P6/8/8/3P1PKP/8 w - - 0 1").unwrap();
    /// assert_eq!(locked.mate_verdict_by(Color::Black, 3_000_000, past), MateVerdict::Undecided);
    /// ```
    pub fn mate_verdict_by(
        &self,
        color: Color,
        nodes: u64,
        deadline: std::time::Instant,
    ) -> MateVerdict {
        search::until(deadline, || self.mate_verdict(color, nodes))
    }

    /// The quick stage alone for `color`: the static proofs (with the kings exact up to a
    /// thousand states where a side has only its king to move), and where the side to move
    /// has at most three legal moves, each move's position judged the same way, for up to
    /// four plies. No helpmate is searched
    /// for, so "can" comes only from a mate on the board or at the end of forced moves, and
    /// most positions where a side can mate are left `Undecided`: the stage is a filter that
    /// proves "cannot" in microseconds, and leaves the rest to [`Position::mate_verdict`].
    ///
    /// ```
    /// use vizier_rules::{Color, MateVerdict, Position};
    /// let locked = Position::from_fen("2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1").unwrap();
    /// assert_eq!(locked.quick_verdict(Color::White), MateVerdict::Cannot);
    /// // Kxa8 is forced.
    /// let forced = Position::from_fen("Rk6/8/2K5/8/8/8/8/8 b - - 0 1").unwrap();
    /// assert_eq!(forced.quick_verdict(Color::White), MateVerdict::Cannot);
    /// assert_eq!(Position::new().quick_verdict(Color::White), MateVerdict::Undecided);
    /// ```
    pub fn quick_verdict(&self, color: Color) -> MateVerdict {
        self.quick_within(color, FORCED_PLIES, &mut structure::Proofs::default())
    }

    fn quick_within(
        &self,
        color: Color,
        plies: u32,
        proofs: &mut structure::Proofs,
    ) -> MateVerdict {
        let moves = self.legal_moves();
        if moves.is_empty() {
            // A mate no move could have given is no mate given (see `search::helpmate`);
            // stalemate, or `color` mated, ends the game without a mate by `color`.
            let mated = self.is_check() && self.turn() == !color;
            return if mated && !self.has_impossible_check() {
                MateVerdict::Can(Vec::new())
            } else {
                MateVerdict::Cannot
            };
        }
        // The kings-exact search only at the root, and as in the per-move check only where a
        // side has nothing to move but its king: elsewhere it costs more than it proves.
        let states = if plies == FORCED_PLIES && structure::a_side_moves_only_its_king(self) {
            DEAD_CHECK_STATES
        } else {
            0
        };
        if proofs.cannot_exactly(self, color, QUICK_ROOT_STRUCTURES, states) {
            return MateVerdict::Cannot;
        }
        if plies == 0 || moves.len() > FORCED_MOVES {
            return MateVerdict::Undecided;
        }
        let mut verdict = MateVerdict::Cannot;
        for &m in moves.iter() {
            let mut next = self.clone();
            next.play_unchecked(m);
            match next.quick_within(color, plies - 1, proofs) {
                MateVerdict::Can(mut line) => {
                    line.insert(0, m);
                    return MateVerdict::Can(line);
                }
                MateVerdict::Cannot => {}
                MateVerdict::Undecided => verdict = MateVerdict::Undecided,
            }
        }
        verdict
    }

    /// Whether the position is dead (Art. 5.2.2): neither side can checkmate by any series of
    /// legal moves. The quick stage tries the static proofs for both sides (a few
    /// microseconds). Where they leave one side open, that side is searched with up to
    /// `nodes` positions; where they leave both open and the side to move has at most three
    /// legal moves, the position is dead if each of them leads to a dead position, followed
    /// so for a few moves. Anything unproven counts as alive; [`Position::dead_check`] tells
    /// the two apart.
    ///
    /// ```
    /// use vizier_rules::Position;
    /// let dead = Position::from_fen("2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1").unwrap();
    /// assert!(dead.is_dead(10_000));
    /// assert!(!Position::new().is_dead(10_000));
    /// // Kxa8 is forced.
    /// assert!(Position::from_fen("Rk6/8/2K5/8/8/8/8/8 b - - 0 1").unwrap().is_dead(10_000));
    /// ```
    pub fn is_dead(&self, nodes: u64) -> bool {
        self.dead_check(nodes) == DeadCheck::Dead
    }

    /// [`Position::is_dead`]'s check, saying what it left unproven: whether the position
    /// could still be dead ([`DeadCheck::Open`], worth a deeper proof) or has every sign of
    /// life ([`DeadCheck::Alive`]).
    ///
    /// ```
    /// use vizier_rules::{DeadCheck, Position};
    /// assert_eq!(Position::new().dead_check(10_000), DeadCheck::Alive);
    /// let locked = Position::from_fen("2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1").unwrap();
    /// assert_eq!(locked.dead_check(10_000), DeadCheck::Dead);
    /// ```
    pub fn dead_check(&self, nodes: u64) -> DeadCheck {
        let mut searches = FORCED_SEARCHES;
        self.dead_within(nodes, FORCED_PLIES, &mut searches)
    }

    /// [`Position::dead_check`] with at most `plies` forced moves followed and `searches`
    /// searches left to make.
    fn dead_within(&self, nodes: u64, plies: u32, searches: &mut u32) -> DeadCheck {
        let mut proofs = structure::Proofs::default();
        let found = Color::ALL.map(|c| proofs.found(self, c, QUICK_ROOT_STRUCTURES));
        let mut open: Vec<Color> = Color::ALL
            .into_iter()
            .filter(|c| found[c.index()] != Found::Never)
            .collect();
        // Where the structure search leaves both sides open, the order of moves may still
        // prove them: tried where a king can only shuffle, a cheap test.
        if found.iter().all(|&f| f == Found::Open) && structure::a_side_moves_only_its_king(self) {
            open.retain(|&c| !structure::exactly_never(self, c, DEAD_CHECK_STATES));
        }
        match open.len() {
            0 => DeadCheck::Dead,
            1 if *searches == 0 => DeadCheck::Open,
            1 => {
                *searches -= 1;
                match self.mate_verdict(open[0], nodes) {
                    MateVerdict::Cannot => DeadCheck::Dead,
                    MateVerdict::Can(_) => DeadCheck::Alive,
                    MateVerdict::Undecided => DeadCheck::Open,
                }
            }
            _ => {
                let moves = self.legal_moves();
                if moves.is_empty() {
                    // Stalemate is dead; checkmate is not.
                    return if self.is_check() {
                        DeadCheck::Alive
                    } else {
                        DeadCheck::Dead
                    };
                }
                if plies == 0 || moves.len() > FORCED_MOVES {
                    // Both sides with room to move. Where a pawn runs free or the structures
                    // are too many to search, alive as far as a cheap test can tell; where
                    // every structure was met (locked pawns, few men), a deeper search may
                    // still prove it dead.
                    return if found.contains(&Found::GaveUp) {
                        DeadCheck::Alive
                    } else {
                        DeadCheck::Open
                    };
                }
                let mut check = DeadCheck::Dead;
                for &m in moves.iter() {
                    let mut next = self.clone();
                    next.play_unchecked(m);
                    // A mate reached is never dead, whatever a static rule would say of
                    // material that mated only with the loser's help.
                    let after = if next.is_checkmate() {
                        DeadCheck::Alive
                    } else {
                        next.dead_within(nodes, plies - 1, searches)
                    };
                    match after {
                        DeadCheck::Dead => {}
                        DeadCheck::Alive => return DeadCheck::Alive,
                        DeadCheck::Open => check = DeadCheck::Open,
                    }
                }
                check
            }
        }
    }
}

/// What a budgeted dead-position check ([`Position::dead_check`]) found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeadCheck {
    /// Proved dead: neither side can checkmate.
    Dead,
    /// Not dead as far as the check can tell: a side was shown to mate, or both have
    /// structures that may mate and moves to make.
    Alive,
    /// Unproven either way where it could be dead: one side cannot mate and the other's
    /// search ran out of positions, or forced moves led to such positions.
    Open,
}

#[cfg(test)]
mod tests;
