//! The engine at full strength as an analyst: a position's best lines, each with its score and
//! principal variation, within a budget of nodes and time. The front door for analysis boards
//! and game reviews, as [`crate::Player`] is for playing.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use vizier_rules::{History, Move};

use crate::Stopper;
use crate::eval::{Classical, Evaluator, Score};
use crate::nnue::{self, Network};
use crate::search::{self, Job, Limits, MATE, MATE_BOUND, Report, Shared};

/// How much one analysis may spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Nodes at most.
    pub nodes: u64,
    /// Milliseconds at most (0: no time limit, the nodes alone).
    pub ms: u64,
    /// Lines wanted, best first (1 to [`Budget::MAX_LINES`]).
    pub lines: usize,
}

impl Budget {
    /// The most lines one analysis shows.
    pub const MAX_LINES: usize = 5;
}

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

impl Eval {
    /// The search's score in words: centipawns, or mate in moves.
    pub fn from_score(score: Score) -> Eval {
        if score >= MATE_BOUND {
            Eval::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Eval::Mate(-((MATE + score) / 2))
        } else {
            Eval::Cp(score)
        }
    }

    /// A number that orders scores from worst to best for the side to move: being mated
    /// soonest, then fewer centipawns, then mating later, then mating soonest.
    pub fn rank(self) -> i64 {
        match self {
            Eval::Cp(cp) => i64::from(cp),
            Eval::Mate(n) if n > 0 => 1_000_000 - i64::from(n),
            Eval::Mate(n) => -1_000_000 - i64::from(n),
        }
    }

    /// The same score from the other side's point of view.
    ///
    /// ```
    /// use vizier_engine::analyst::Eval;
    /// assert_eq!(Eval::Cp(35).flip(), Eval::Cp(-35));
    /// assert_eq!(Eval::Mate(2).flip(), Eval::Mate(-2));
    /// ```
    pub fn flip(self) -> Eval {
        match self {
            Eval::Cp(cp) => Eval::Cp(-cp),
            Eval::Mate(n) => Eval::Mate(-n),
        }
    }
}

/// One line of an analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The depth it was searched to.
    pub depth: i32,
    pub eval: Eval,
    /// The moves, the first being the one this line recommends.
    pub pv: Vec<Move>,
}

/// The engine as an analyst. Its table is kept from one analysis to the next, so that stepping
/// through a game or a line gets faster.
///
/// ```
/// use vizier_engine::analyst::{Analyst, Budget, Eval};
/// use vizier_rules::{History, Position};
/// let mate_in_one = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
/// let analyst = Analyst::new(1);
/// let lines = analyst.analyse(&History::new(mate_in_one), Budget { nodes: 20_000, ms: 0, lines: 2 }, &mut |_| {});
/// assert_eq!(lines[0].eval, Eval::Mate(1));
/// assert_eq!(lines.len(), 2);
/// ```
pub struct Analyst {
    shared: Arc<Shared>,
}

impl Analyst {
    /// An analyst with a table of `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Analyst {
        Analyst {
            shared: Arc::new(Shared::new(hash_mb)),
        }
    }

    /// Analyses the side to move's position in `game` within `budget`, calling `update` with
    /// the lines each time a depth is completed. Returns the deepest lines, best first; none
    /// when the game is over (no legal move).
    pub fn analyse(
        &self,
        game: &History,
        budget: Budget,
        update: &mut dyn FnMut(&[Line]),
    ) -> Vec<Line> {
        let wanted = budget.lines.clamp(1, Budget::MAX_LINES);
        let limits = Limits {
            nodes: Some(budget.nodes.max(1)),
            multipv: wanted,
            ..Limits::default()
        };
        let job = Job {
            pos: game.position(),
            game_keys: game.earlier_keys(),
            limits: &limits,
            threads: 1,
            start: Instant::now(),
        };
        self.shared.soft_ms.store(budget.ms, Ordering::Relaxed);
        self.shared.hard_ms.store(budget.ms, Ordering::Relaxed);
        let classical = Classical::default();
        let eval: &dyn Evaluator = if nnue::BY_DEFAULT {
            Network::embedded()
        } else {
            &classical
        };
        let wanted = wanted.min(job.pos.legal_moves().len());
        // The lines of the last depth completed, and those of the depth under way.
        let mut complete: Vec<Line> = Vec::new();
        let mut building: Vec<Line> = Vec::new();
        let mut record = |r: &Report| {
            if r.bound.is_some() || r.pv.is_empty() {
                return;
            }
            if r.multipv <= 1 {
                building.clear();
            }
            building.push(Line {
                depth: r.depth,
                eval: Eval::from_score(r.score),
                pv: r.pv.clone(),
            });
            if building.len() == wanted {
                complete = building.clone();
                update(&complete);
            }
        };
        search::search(&self.shared, eval, &job, &mut record);
        // A depth cut short by the budget: its lines are the newer word on their moves.
        if building.len() < wanted {
            let newer: Vec<Move> = building.iter().map(|l| l.pv[0]).collect();
            complete.retain(|l| !newer.contains(&l.pv[0]));
            complete.extend(building);
            complete.sort_by_key(|l| std::cmp::Reverse(l.eval.rank()));
            complete.truncate(wanted);
        }
        complete
    }

    /// A handle that stops the running analysis (it returns what it has).
    pub fn stopper(&self) -> Stopper {
        Stopper(self.shared.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vizier_rules::Position;

    #[test]
    fn lines_come_best_first_and_are_legal() {
        let analyst = Analyst::new(1);
        let game = History::default();
        let mut updates = 0;
        let lines = analyst.analyse(
            &game,
            Budget {
                nodes: 50_000,
                ms: 0,
                lines: 3,
            },
            &mut |l| {
                updates += 1;
                assert!(l.len() <= 3);
            },
        );
        assert_eq!(lines.len(), 3);
        assert!(updates > 0);
        let cp = |l: &Line| match l.eval {
            Eval::Cp(cp) => cp,
            Eval::Mate(_) => panic!("a mate from the start"),
        };
        assert!(cp(&lines[0]) >= cp(&lines[1]) && cp(&lines[1]) >= cp(&lines[2]));
        let legal = game.position().legal_moves();
        for l in &lines {
            assert!(legal.contains(&l.pv[0]));
        }
        let firsts: std::collections::HashSet<_> = lines.iter().map(|l| l.pv[0]).collect();
        assert_eq!(firsts.len(), 3, "three different moves");
    }

    #[test]
    fn a_mated_side_sees_its_mate_and_a_finished_game_has_no_lines() {
        let analyst = Analyst::new(1);
        // Black to move, mated next move whatever it does (Kb8, Rh8#).
        let pos = Position::from_fen("k7/8/1K6/8/8/8/8/7R b - - 0 1").unwrap();
        let lines = analyst.analyse(
            &History::new(pos),
            Budget {
                nodes: 30_000,
                ms: 0,
                lines: 1,
            },
            &mut |_| {},
        );
        assert!(matches!(lines[0].eval, Eval::Mate(n) if n < 0), "{lines:?}");
        let mated = Position::from_fen("R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1").unwrap();
        let none = analyst.analyse(
            &History::new(mated),
            Budget {
                nodes: 1_000,
                ms: 0,
                lines: 3,
            },
            &mut |_| {},
        );
        assert!(none.is_empty());
    }

    #[test]
    fn the_time_limit_holds() {
        let analyst = Analyst::new(1);
        let started = Instant::now();
        analyst.analyse(
            &History::default(),
            Budget {
                nodes: u64::MAX,
                ms: 200,
                lines: 1,
            },
            &mut |_| {},
        );
        assert!(started.elapsed().as_millis() < 1_000);
    }
}
