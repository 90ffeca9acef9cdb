//! Search: iterative deepening with aspiration windows over a principal-variation alpha-beta
//! search, quiescence with SEE and delta pruning, null-move pruning, ProbCut, razoring,
//! late-move reductions (more at expected cut nodes), late-move, futility, SEE and history
//! pruning, check and singular extensions, and draws by repetition and the 50-move rule. Lazy
//! SMP: helper threads search the same tree and share only the transposition table.
//! Quiet moves are ordered, pruned and reduced by their history: from–to, and after the moves
//! one and two plies before (continuation history); captures by SEE, the piece taken and
//! their own history. Each thread keeps that history and its
//! evaluation corrections (by pawn structure) from one move of a game to the next
//! ([`Memory`]); a new game clears them. Between iterations the main thread decides whether
//! another is worth its time: sooner while the best move holds, later after it changed or the
//! score fell ([`timeman::soft_scale`]).

mod alphabeta;
mod ordering;
mod quiescence;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use vizier_rules::{Bitboard, MAX_MOVES, Move, MoveList, Position, Role};

use crate::eval::{Evaluator, Score};
use crate::history::{
    CORRECTION_GRAIN, CORRECTION_MAX, Continuation, continuation, pawn_index, victim,
};
use crate::movepick::{ESCAPE, Picker, Threats, gives_check};
use crate::see::{VALUE, see_ge};
use crate::timeman;
use crate::tt::{Bound, Entry, Table, from_tt, to_tt};

pub use crate::history::Memory;
pub use crate::movepick::is_quiet;
pub use crate::score::{INF, MATE, MATE_BOUND};

const MAX_PLY: usize = 120;

/// What to search for how long.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after this depth.
    pub depth: Option<i32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Stop after finding a mate in this many moves.
    pub mate: Option<i32>,
    /// Only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// Principal variations to report.
    pub multipv: usize,
}

/// State shared by the search threads and the controller.
pub struct Shared {
    /// The transposition table.
    pub tt: Table,
    /// Set to stop the search.
    pub stop: AtomicBool,
    /// Nodes searched by all threads.
    pub nodes: AtomicU64,
    /// Milliseconds since `start` after which no new iteration begins (0: none).
    pub soft_ms: AtomicU64,
    /// Milliseconds since `start` at which the search stops (0: none).
    pub hard_ms: AtomicU64,
    /// While pondering, the clock limits do not apply.
    pub pondering: AtomicBool,
    /// Each thread's [`Memory`] between searches.
    memory: Mutex<Vec<Box<Memory>>>,
}

impl Shared {
    /// Shared state with a table of `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Shared {
        Shared {
            tt: Table::new(hash_mb),
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            soft_ms: AtomicU64::new(0),
            hard_ms: AtomicU64::new(0),
            pondering: AtomicBool::new(false),
            memory: Mutex::new(Vec::new()),
        }
    }

    /// Forgets everything learnt: the table and the threads' [`Memory`] (a new game).
    pub fn clear(&self) {
        self.tt.clear();
        self.memory
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }
}

/// One line of the search's progress.
#[derive(Clone, Debug)]
pub struct Report {
    /// Completed depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: i32,
    /// 1-based index of this line (MultiPV).
    pub multipv: usize,
    /// Score from the side to move's view.
    pub score: Score,
    /// All threads' nodes.
    pub nodes: u64,
    /// Time since the search began.
    pub time_ms: u64,
    /// Per mille of the table used.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// Whether the score is only a bound (aspiration failure).
    pub bound: Option<Bound>,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play (`None` only with no legal moves).
    pub best: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder: Option<Move>,
    /// The score of the best line.
    pub score: Score,
    /// Nodes searched by this thread.
    pub nodes: u64,
    /// Completed depth.
    pub depth: i32,
}

const LMR: [[u8; 64]; 64] = {
    // Reductions grow with depth and move number, roughly log(d)·log(m)/2 (integer table).
    let mut t = [[0u8; 64]; 64];
    let mut d = 1;
    while d < 64 {
        let mut m = 1;
        while m < 64 {
            let ld = 64 - (d as u64).leading_zeros() as i32; // ≈ log2(d) + 1
            let lm = 64 - (m as u64).leading_zeros() as i32;
            let r = (ld * lm) / 4;
            t[d][m] = if r > 0 { r as u8 } else { 0 };
            m += 1;
        }
        d += 1;
    }
    t
};

/// How far above beta a capture must score for ProbCut.
const PROBCUT_MARGIN: Score = 200;

/// Where a node stands in the search, for the pruning steps that leave [`Worker::search`].
#[derive(Clone, Copy)]
struct Node {
    ply: usize,
    depth: i32,
    cut_node: bool,
    /// The corrected static evaluation.
    static_eval: Score,
}

/// What a node's search found, for the transposition table.
struct Found {
    best: Score,
    best_move: Option<Move>,
    static_eval: Score,
}

/// A search thread.
struct Worker<'a> {
    shared: &'a Shared,
    eval: &'a dyn Evaluator,
    limits: &'a Limits,
    start: Instant,
    main: bool,
    nodes: u64,
    /// Of `nodes`, those already added to the shared count.
    published: u64,
    /// Whether depth 1 is complete: the node and time limits stop only a search that has a
    /// move to play.
    has_move: bool,
    seldepth: i32,
    stopped: bool,
    killers: [[Option<Move>; 2]; MAX_PLY + 2],
    /// Move-ordering scores by ply (see [`Picker`]).
    scores: Box<[[i32; MAX_MOVES]; MAX_PLY + 2]>,
    memory: Box<Memory>,
    /// Repetition keys: the game before the root, then the current path.
    keys: Vec<u64>,
    pv: Box<[[Option<Move>; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    root_excluded: Vec<Move>,
    /// The move left out at each ply while testing whether the TT move is singular.
    skipped: [Option<Move>; MAX_PLY + 2],
    /// Static evaluation by ply (`-INF` in check), to tell whether a side is improving.
    evals: [Score; MAX_PLY + 2],
    /// The move played at each ply on the current path (`None` for a null move).
    played: [Option<Continuation>; MAX_PLY + 2],
}

impl<'a> Worker<'a> {
    /// A worker for one search; `game_keys` are the repetition keys of the positions before the
    /// root (oldest first), for repetition draws across the game.
    fn new(
        shared: &'a Shared,
        eval: &'a dyn Evaluator,
        job: &'a Job,
        memory: Box<Memory>,
        main: bool,
    ) -> Worker<'a> {
        let (limits, game_keys, start) = (job.limits, job.game_keys, job.start);
        Worker {
            shared,
            eval,
            limits,
            start,
            main,
            nodes: 0,
            published: 0,
            has_move: false,
            seldepth: 0,
            stopped: false,
            killers: [[None; 2]; MAX_PLY + 2],
            scores: Box::new([[0; MAX_MOVES]; MAX_PLY + 2]),
            memory,
            keys: game_keys.to_vec(),
            pv: Box::new([[None; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            root_excluded: Vec::new(),
            skipped: [None; MAX_PLY + 2],
            evals: [-INF; MAX_PLY + 2],
            played: [None; MAX_PLY + 2],
        }
    }

    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return true;
        }
        // Nodes are added to the shared count 1,024 at a time; a node limit also counts the
        // main thread's unpublished ones, so that small limits are met closely.
        let unpublished = self.nodes - self.published;
        let publish = unpublished >= 1024;
        if publish {
            self.shared.nodes.fetch_add(unpublished, Ordering::Relaxed);
            self.published = self.nodes;
        }
        if self.main && self.has_move {
            let over_nodes = self.limits.nodes.is_some_and(|n| {
                self.shared.nodes.load(Ordering::Relaxed) + (self.nodes - self.published) >= n
            });
            let hard = self.shared.hard_ms.load(Ordering::Relaxed);
            let over_time = publish
                && hard > 0
                && !self.shared.pondering.load(Ordering::Relaxed)
                && self.elapsed_ms() >= hard;
            if over_time || over_nodes {
                self.shared.stop.store(true, Ordering::Relaxed);
                self.stopped = true;
            }
        }
        self.stopped
    }

    fn is_repetition(&self, pos: &Position) -> bool {
        // The current key is the last entry; look back over reversible plies, two at a time.
        let n = self.keys.len();
        let key = self.keys[n - 1];
        let window = (pos.halfmoves() as usize).min(n - 1);
        (2..=window)
            .step_by(2)
            .any(|back| self.keys[n - 1 - back] == key)
    }

    /// Iterative deepening from `pos`; reports progress through `report` (main thread only).
    fn iterate(&mut self, pos: &Position, report: &mut dyn FnMut(&Report)) -> SearchResult {
        let mut root_moves = pos.legal_moves();
        if !self.limits.searchmoves.is_empty() {
            root_moves.retain(|m| self.limits.searchmoves.contains(&m));
        }
        let mut best = SearchResult {
            best: root_moves.first().copied(),
            ponder: None,
            score: 0,
            nodes: 0,
            depth: 0,
        };
        if root_moves.is_empty() {
            return best;
        }
        self.keys.push(pos.repetition_key());
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 10)
            .min(MAX_PLY as i32 - 10);
        let multipv = self.limits.multipv.clamp(1, root_moves.len());
        let mut prev_score = 0;
        // Iterations in a row that kept the best move (for the time limit).
        let mut stable = 0;
        for depth in 1..=max_depth {
            self.root_excluded.clear();
            let (last_best, last_score) = (best.best, prev_score);
            // With several lines, each is searched with the ones before it left out, and a
            // later one can score higher (its search saw more): they are shown best first.
            let mut lines: Vec<Report> = Vec::new();
            for k in 1..=multipv {
                self.seldepth = 0;
                let (mut alpha, mut beta, mut delta) = if depth >= 5 && k == 1 {
                    (prev_score - 25, prev_score + 25, 25)
                } else {
                    (-INF, INF, INF)
                };
                let score = loop {
                    let s = self.search(pos, alpha, beta, depth, 0, None, true, false);
                    if self.stopped {
                        break s;
                    }
                    if s <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (s - delta).max(-INF);
                    } else if s >= beta {
                        beta = (s + delta).min(INF);
                    } else {
                        break s;
                    }
                    delta += delta / 2 + 10;
                };
                if self.stopped && depth > 1 {
                    break;
                }
                let pv: Vec<Move> = self.pv[0][..self.pv_len[0]]
                    .iter()
                    .map_while(|m| *m)
                    .collect();
                let Some(&first) = pv.first() else { break };
                if k == 1 {
                    prev_score = score;
                    best = SearchResult {
                        best: Some(first),
                        ponder: pv.get(1).copied(),
                        score,
                        nodes: self.nodes,
                        depth,
                    };
                    self.has_move = !self.stopped;
                }
                self.root_excluded.push(first);
                lines.push(Report {
                    depth,
                    seldepth: self.seldepth,
                    multipv: k,
                    score,
                    nodes: 0,
                    time_ms: 0,
                    hashfull: 0,
                    pv,
                    bound: None,
                });
            }
            lines.sort_by_key(|l| std::cmp::Reverse(l.score));
            if let Some(top) = lines.first()
                && top.score > best.score
                && !self.stopped
            {
                prev_score = top.score;
                best.best = top.pv.first().copied();
                best.ponder = top.pv.get(1).copied();
                best.score = top.score;
            }
            if self.main {
                for (i, line) in lines.into_iter().enumerate() {
                    report(&Report {
                        multipv: i + 1,
                        nodes: self.shared.nodes.load(Ordering::Relaxed).max(self.nodes),
                        time_ms: self.elapsed_ms(),
                        hashfull: self.shared.tt.hashfull(),
                        ..line
                    });
                }
            }
            if self.stopped {
                break;
            }
            if let Some(m) = self.limits.mate
                && best.score >= MATE - 2 * m
            {
                break;
            }
            // A mate found and still there eight plies deeper is settled: further iterations
            // would only print ever larger depths (a mate in one reached depth 110). A depth
            // asked for is searched all the same.
            if self.limits.depth.is_none()
                && best.score.abs() >= MATE_BOUND
                && depth >= MATE - best.score.abs() + 8
            {
                break;
            }
            stable = if best.best == last_best {
                stable + 1
            } else {
                0
            };
            let soft = self.shared.soft_ms.load(Ordering::Relaxed);
            if self.main && soft > 0 && !self.shared.pondering.load(Ordering::Relaxed) {
                // A fixed move time (soft = hard) is kept as it is.
                let hard = self.shared.hard_ms.load(Ordering::Relaxed);
                let soft = if soft < hard {
                    let fall = if depth > 1 {
                        last_score - best.score
                    } else {
                        0
                    };
                    (soft * timeman::soft_scale(stable, fall) / 100).min(hard)
                } else {
                    soft
                };
                if self.elapsed_ms() >= soft {
                    break;
                }
            }
        }
        best.nodes = self.nodes;
        best
    }
}

/// One search request.
pub struct Job<'a> {
    /// The root position.
    pub pos: &'a Position,
    /// Repetition keys of the game's positions before the root, oldest first.
    pub game_keys: &'a [u64],
    /// What to search for how long.
    pub limits: &'a Limits,
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// When the search began (time limits count from here).
    pub start: Instant,
}

/// Runs a search on `job.threads` threads (Lazy SMP) and returns the main thread's result.
pub fn search(
    shared: &Arc<Shared>,
    eval: &dyn Evaluator,
    job: &Job,
    report: &mut dyn FnMut(&Report),
) -> SearchResult {
    shared.stop.store(false, Ordering::Relaxed);
    shared.nodes.store(0, Ordering::Relaxed);
    shared.tt.new_search();
    let mut memories =
        std::mem::take(&mut *shared.memory.lock().unwrap_or_else(|e| e.into_inner()));
    memories.resize_with(job.threads.max(1), Memory::new);
    let mut memories = memories.into_iter();
    let main_memory = memories.next().unwrap_or_else(Memory::new);
    std::thread::scope(|s| {
        let helpers: Vec<_> = memories
            .map(|memory| {
                let shared = &**shared;
                s.spawn(move || {
                    let mut w = Worker::new(shared, eval, job, memory, false);
                    w.iterate(job.pos, &mut |_| {});
                    w.memory
                })
            })
            .collect();
        let mut main = Worker::new(shared, eval, job, main_memory, true);
        let out = main.iterate(job.pos, report);
        shared.stop.store(true, Ordering::Relaxed);
        let mut kept = vec![main.memory];
        kept.extend(helpers.into_iter().filter_map(|h| h.join().ok()));
        *shared.memory.lock().unwrap_or_else(|e| e.into_inner()) = kept;
        out
    })
}

#[cfg(test)]
mod tests;
