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

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use vizier_rules::{Bitboard, Color, MAX_MOVES, Move, MoveList, Position, Role, attacks};

use crate::eval::{Evaluator, Score};
use crate::see::{VALUE, see_ge};
use crate::timeman;
use crate::tt::{Bound, Entry, Table, from_tt, to_tt};

/// Beyond any score.
pub const INF: Score = 32_000;
/// Mate at the root; mate in n plies scores `MATE - n`.
pub const MATE: Score = 31_000;
/// Scores at or beyond this are mates.
pub const MATE_BOUND: Score = MATE - 1_000;
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

/// What a search thread learns that is worth keeping from one move of a game to the next: which
/// quiet moves tended to refute, the usual answer to each move, and how far the evaluation
/// misjudges the game's pawn structures.
pub struct Memory {
    history: [[[i32; 64]; 64]; 2],
    /// Continuation history: how a quiet move (piece and target) fared after a given move one
    /// or two plies earlier, indexed by [`Continuation`] pairs.
    continuation: Vec<[i16; 768]>,
    counters: [[Option<Move>; 64]; 64],
    /// Capture history: how a capture (moving piece and target, as [`continuation`], and the
    /// kind of piece taken) has fared.
    captures: Vec<[i16; 6]>,
    /// By side to move and pawn placement (see [`pawn_index`]), in 1/[`CORRECTION_GRAIN`] cp.
    correction: [[i32; CORRECTION_SIZE]; 2],
}

impl Memory {
    fn new() -> Box<Memory> {
        Box::new(Memory {
            history: [[[0; 64]; 64]; 2],
            continuation: vec![[0; 768]; 768],
            counters: [[None; 64]; 64],
            captures: vec![[0; 6]; 768],
            correction: [[0; CORRECTION_SIZE]; 2],
        })
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

/// Move-ordering score of a quiet move that saves a piece attacked by a cheaper one.
const ESCAPE: i32 = 870_000;

/// Squares the opponent attacks with pieces cheaper than ours: a knight or bishop attacked by a
/// pawn, a rook by a minor piece, a queen by a rook is lost unless it moves.
struct Threats {
    by_pawns: Bitboard,
    by_minors: Bitboard,
    by_rooks: Bitboard,
}

impl Threats {
    fn new(pos: &Position) -> Threats {
        let them = !pos.turn();
        let occupied = pos.occupied();
        let by_pawns = attacks::pawns(them, pos.pieces(them, Role::Pawn));
        let mut by_minors = by_pawns;
        for sq in pos.pieces(them, Role::Knight) {
            by_minors |= attacks::knight(sq);
        }
        for sq in pos.pieces(them, Role::Bishop) {
            by_minors |= attacks::bishop(sq, occupied);
        }
        let mut by_rooks = by_minors;
        for sq in pos.pieces(them, Role::Rook) {
            by_rooks |= attacks::rook(sq, occupied);
        }
        Threats {
            by_pawns,
            by_minors,
            by_rooks,
        }
    }

    /// Whether quiet move `m` takes a threatened piece to a square free of that threat.
    fn escapes(&self, pos: &Position, m: Move) -> bool {
        let threat = match pos.piece_at(m.from()).map(|p| p.role) {
            Some(Role::Knight | Role::Bishop) => self.by_pawns,
            Some(Role::Rook) => self.by_minors,
            Some(Role::Queen) => self.by_rooks,
            _ => return false,
        };
        threat.contains(m.from()) && !threat.contains(m.to())
    }
}

/// A node's moves, handed out best first by their ordering scores. The scores live in the
/// worker, one row per ply, so that no node clears or copies a score array of its own.
struct Picker {
    moves: MoveList,
    next: usize,
}

impl Picker {
    /// All the moves, best first by `scores`, keeping the generation order among equals
    /// (quiescence lists are short and mostly searched in full).
    fn sorted(mut self, scores: &mut [i32]) -> MoveList {
        let moves = self.moves.as_mut_slice();
        for i in 1..moves.len() {
            let (m, score) = (moves[i], scores[i]);
            let mut j = i;
            while j > 0 && scores[j - 1] < score {
                moves[j] = moves[j - 1];
                scores[j] = scores[j - 1];
                j -= 1;
            }
            moves[j] = m;
            scores[j] = score;
        }
        self.moves
    }

    /// The best remaining move by `scores` and its score (selection sort: most nodes cut off
    /// early, so sorting everything would be wasted). Ties go to the later move.
    fn pick(&mut self, scores: &mut [i32]) -> Option<(Move, i32)> {
        let (i, len) = (self.next, self.moves.len());
        if i >= len {
            return None;
        }
        let mut j = i;
        for k in i + 1..len {
            if scores[k] >= scores[j] {
                j = k;
            }
        }
        self.moves.as_mut_slice().swap(i, j);
        scores.swap(i, j);
        self.next += 1;
        Some((self.moves[i], scores[i]))
    }
}

/// Entries of the correction table (per side to move), indexed by the pawn placement.
const CORRECTION_SIZE: usize = 16_384;
/// Corrections are kept in 1/256 of a centipawn, so that small updates add up.
const CORRECTION_GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const CORRECTION_MAX: i32 = 64;

/// The correction table's slot for `pos`'s pawns.
fn pawn_index(pos: &Position) -> usize {
    let w = pos.pieces(Color::White, Role::Pawn).0;
    let b = pos.pieces(Color::Black, Role::Pawn).0;
    let h = w.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (h >> (64 - CORRECTION_SIZE.trailing_zeros())) as usize
}

/// A move as continuation history sees it: the moving piece (colour and kind) and its target,
/// `piece · 64 + to`.
type Continuation = u16;

fn continuation(pos: &Position, m: Move) -> Continuation {
    let role = pos.piece_at(m.from()).map_or(0, |p| p.role.index());
    ((pos.turn().index() * 6 + role) * 64 + m.to().index()) as Continuation
}

/// The kind of piece `m` takes (a pawn for en passant and for a promotion without capture),
/// for the capture history.
fn victim(pos: &Position, m: Move) -> usize {
    pos.piece_at(m.to()).map_or(0, |p| p.role.index())
}

/// Whether `m` checks the opponent's king, directly or by uncovering a slider, without
/// playing it (castling and en passant, rare and awkward, count as checks).
fn gives_check(pos: &Position, m: Move) -> bool {
    if m.is_castle() || m.is_en_passant() {
        return true;
    }
    let Some(piece) = pos.piece_at(m.from()) else {
        return false;
    };
    let us = pos.turn();
    let king = pos.king(!us);
    let occupied = (pos.occupied() ^ m.from().bb()) | m.to().bb();
    let role = m.promotion().unwrap_or(piece.role);
    if attacks::of(role, us, m.to(), occupied).contains(king) {
        return true;
    }
    let others = pos.by_color(us) ^ m.from().bb();
    let queens = pos.by_role(Role::Queen);
    let diagonal = (pos.by_role(Role::Bishop) | queens) & others;
    let straight = (pos.by_role(Role::Rook) | queens) & others;
    (attacks::bishop(king, occupied) & diagonal).any()
        || (attacks::rook(king, occupied) & straight).any()
}

/// Neither a capture nor a promotion: the moves history orders, prunes and reduces.
pub fn is_quiet(pos: &Position, m: Move) -> bool {
    !pos.is_capture_move(m) && m.promotion().is_none()
}

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

    fn order(
        &mut self,
        pos: &Position,
        moves: MoveList,
        tt_move: Option<Move>,
        ply: usize,
        prev: Option<Move>,
    ) -> Picker {
        let counter = prev.and_then(|p| self.memory.counters[p.from().index()][p.to().index()]);
        let threats = Threats::new(pos);
        for (i, &m) in moves.iter().enumerate() {
            self.scores[ply][i] = if Some(m) == tt_move {
                2_000_000
            } else if pos.is_capture_move(m) || m.promotion() == Some(Role::Queen) {
                let victim = if m.is_en_passant() {
                    0
                } else {
                    pos.piece_at(m.to()).map_or(0, |p| VALUE[p.role.index()])
                };
                let base = if see_ge(pos, m, 0) {
                    1_000_000
                } else {
                    -100_000
                };
                base + victim * 10
                    + self.capture_history(pos, m) / 4
                    + if m.promotion().is_some() { 9_000 } else { 0 }
            } else if self.killers[ply][0] == Some(m) {
                900_000
            } else if self.killers[ply][1] == Some(m) {
                890_000
            } else if counter == Some(m) {
                880_000
            } else if threats.escapes(pos, m) {
                ESCAPE
            } else {
                self.quiet_history(pos, m, continuation(pos, m), ply)
            };
        }
        Picker { moves, next: 0 }
    }

    /// How capture (or promotion) `m` has fared.
    #[inline]
    fn capture_history(&self, pos: &Position, m: Move) -> i32 {
        i32::from(self.memory.captures[usize::from(continuation(pos, m))][victim(pos, m)])
    }

    /// How quiet move `m` (`c`: its [`continuation`]) has fared: by itself (from–to) and after
    /// the moves one and two plies before it.
    #[inline]
    fn quiet_history(&self, pos: &Position, m: Move, c: Continuation, ply: usize) -> i32 {
        let c = usize::from(c);
        let mut h = self.memory.history[pos.turn().index()][m.from().index()][m.to().index()];
        for row in self.continuation_rows(ply).into_iter().flatten() {
            h += i32::from(self.memory.continuation[row][c]);
        }
        h
    }

    /// The continuation-history rows of the moves one and two plies before `ply` (none for a
    /// null move or before the root).
    fn continuation_rows(&self, ply: usize) -> [Option<usize>; 2] {
        [1, 2].map(|back| {
            let p = ply.checked_sub(back)?;
            self.played[p].map(usize::from)
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        pos: &Position,
        mut alpha: Score,
        mut beta: Score,
        mut depth: i32,
        ply: usize,
        prev: Option<Move>,
        null_ok: bool,
        cut_node: bool,
    ) -> Score {
        self.pv_len[ply] = ply;
        if self.check_stop() {
            return 0;
        }
        let in_check = pos.is_check();
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }
        self.nodes += 1;
        let root = ply == 0;
        if !root {
            if self.is_repetition(pos) || pos.halfmoves() >= 100 || pos.is_insufficient_material() {
                return 0;
            }
            if ply >= MAX_PLY {
                return self.eval.evaluate(pos);
            }
            alpha = alpha.max(-MATE + ply as Score);
            beta = beta.min(MATE - ply as Score - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let pv_node = beta - alpha > 1;
        let skipped = self.skipped[ply];
        let key = pos.hash();
        // While a move is left out, this node's result is not the position's: no table.
        let tt = if skipped.is_some() {
            None
        } else {
            self.shared.tt.probe(key)
        };
        if let Some(s) = tt
            .filter(|e| !pv_node && e.depth >= depth)
            .and_then(|e| e.cutoff(ply as i32, alpha, beta))
        {
            return s;
        }
        // The table keeps the evaluation itself; the search uses it corrected.
        let (raw_eval, static_eval) = if in_check {
            (-INF, -INF)
        } else {
            let raw = tt.map_or_else(|| self.eval.evaluate(pos), |e| e.eval);
            (raw, self.corrected(pos, raw))
        };
        self.evals[ply] = static_eval;
        // Better than two plies ago (four when that side was in check; unknown near the root
        // counts as better): prune less, reduce less.
        let improving = !in_check
            && match (ply.checked_sub(2), ply.checked_sub(4)) {
                (Some(p), _) if self.evals[p] > -INF => static_eval > self.evals[p],
                (_, Some(p)) if self.evals[p] > -INF => static_eval > self.evals[p],
                _ => true,
            };

        if !pv_node && !in_check && !root {
            // Reverse futility: far above beta at low depth, assume it holds.
            let margin = 80 * (depth - improving as i32);
            if depth <= 6 && static_eval - margin >= beta && beta.abs() < MATE_BOUND {
                return static_eval;
            }
            // Razoring: far below alpha near the leaves, only a capture can help.
            if depth <= 3 && static_eval + 200 + 200 * depth <= alpha {
                let q = self.qsearch(pos, alpha, alpha + 1, ply);
                if self.stopped {
                    return 0;
                }
                if q <= alpha {
                    return q;
                }
            }
            // Null move: if passing still beats beta, a real move will too (not in pawn endings).
            let us = pos.turn();
            let pieces = pos.by_color(us) & !(pos.by_role(Role::Pawn) | pos.by_role(Role::King));
            if null_ok && depth >= 3 && static_eval >= beta && pieces.any() {
                let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(3);
                let mut child = pos.clone();
                child.play_null();
                self.keys.push(0);
                self.played[ply] = None;
                let s = -self.search(
                    &child,
                    -beta,
                    -beta + 1,
                    depth - 1 - r,
                    ply + 1,
                    None,
                    false,
                    !cut_node,
                );
                self.keys.pop();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }

        let moves = pos.legal_moves();
        if moves.is_empty() {
            return if in_check { -MATE + ply as Score } else { 0 };
        }
        let tt_move = tt.and_then(|e| e.mv);
        // ProbCut: a capture that beats beta by a margin in a shallower search very likely
        // beats beta in the full one too.
        if !pv_node && !in_check && skipped.is_none() && depth >= 5 && beta.abs() < MATE_BOUND {
            let node = Node {
                ply,
                depth,
                cut_node,
                static_eval,
            };
            if let Some((best, m)) = self.probcut(pos, &moves, node, beta, tt) {
                let found = Found {
                    best,
                    best_move: Some(m),
                    static_eval: raw_eval,
                };
                let raised = beta + PROBCUT_MARGIN;
                self.remember(key, ply, depth - 3, found, (raised - 1, raised));
                return best;
            }
            if self.stopped {
                return 0;
            }
        }
        // Internal iterative reduction: a node without a remembered best move is probably not
        // worth a full-depth search.
        if depth >= 4 && tt_move.is_none() {
            depth -= 1;
        }
        // Singular extension: when the remembered best move beats every other by a margin
        // (a search without it fails low), it is forced and earns a deeper look; when even
        // the others beat beta, several moves refute this node and it is cut at once.
        let mut extend_tt_move = 0;
        if let (Some(e), Some(tm)) = (tt, tt_move)
            && !root
            && skipped.is_none()
            && depth >= 8
            && e.depth >= depth - 3
            && e.bound != Bound::Upper
            && from_tt(e.score, ply as i32).abs() < MATE_BOUND
        {
            let singular_beta = from_tt(e.score, ply as i32) - 2 * depth;
            self.skipped[ply] = Some(tm);
            let s = self.search(
                pos,
                singular_beta - 1,
                singular_beta,
                (depth - 1) / 2,
                ply,
                prev,
                false,
                cut_node,
            );
            self.skipped[ply] = None;
            if self.stopped {
                return 0;
            }
            if s < singular_beta {
                extend_tt_move = 1;
            } else if singular_beta >= beta {
                return singular_beta;
            } else if from_tt(e.score, ply as i32) >= beta {
                // Not singular, and other moves may do as well: no need to look deeper.
                extend_tt_move = -1;
            }
        }
        let mut picker = self.order(pos, moves, tt_move, ply, prev);
        let mut best = -INF;
        let mut best_move = None;
        let tt_capture = tt_move.is_some_and(|t| !is_quiet(pos, t));
        let mut quiets_tried = MoveList::new();
        let mut captures_tried = MoveList::new();
        let mut searched = 0;
        let original_alpha = alpha;
        while let Some((m, order_score)) = picker.pick(&mut self.scores[ply]) {
            if skipped == Some(m) {
                continue;
            }
            if root
                && (self.root_excluded.contains(&m)
                    || (!self.limits.searchmoves.is_empty()
                        && !self.limits.searchmoves.contains(&m)))
            {
                continue;
            }
            let quiet = is_quiet(pos, m);
            if !root
                && !in_check
                && quiet
                && best > -MATE_BOUND
                && order_score != ESCAPE
                && !gives_check(pos, m)
            {
                // Late-move pruning and futility pruning of quiet moves near the leaves, at the
                // depth the move would be searched to after its late-move reduction.
                let late = (3 + 2 * depth * depth) / if improving { 1 } else { 2 };
                if depth <= 6 && quiets_tried.len() as i32 >= late.max(2) {
                    continue;
                }
                let lmr_depth = depth - 1 - LMR[depth.min(63) as usize][searched.min(63)] as i32;
                if !pv_node && lmr_depth <= 6 && static_eval + 120 + 110 * lmr_depth.max(1) <= alpha
                {
                    continue;
                }
                // A quiet move into a losing exchange: up to 60 cp a ply to depth 3, then a
                // margin growing with the square of the depth (about a queen at depth 8).
                if !pv_node
                    && depth <= 8
                    && !see_ge(pos, m, -60 * depth.min(3) - 15 * (depth - 3).max(0) * depth)
                {
                    continue;
                }
                // A quiet move that has kept failing elsewhere.
                if !pv_node && depth <= 3 && order_score < -4_000 * depth {
                    continue;
                }
            }
            // Captures that lose material, near the leaves.
            if !root
                && !pv_node
                && !in_check
                && !quiet
                && depth <= 4
                && best > -MATE_BOUND
                && order_score < 0
                && !see_ge(pos, m, -100 * depth)
            {
                continue;
            }
            let cont = continuation(pos, m);
            self.played[ply] = Some(cont);
            let mut child = pos.clone();
            child.play_unchecked(m);
            self.shared.tt.prefetch(child.hash());
            let gives_check = child.is_check();
            self.keys.push(child.repetition_key());
            let new_depth = depth - 1
                + if Some(m) == tt_move {
                    extend_tt_move
                } else {
                    0
                };
            let score = if searched == 0 {
                self.reply(
                    &child,
                    m,
                    (alpha, beta),
                    new_depth,
                    ply,
                    !pv_node && !cut_node,
                )
            } else {
                let mut r = 0;
                if depth >= 3 && searched >= 2 && quiet && !in_check && !gives_check {
                    r = LMR[depth.min(63) as usize][searched.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    if self.killers[ply].contains(&Some(m)) {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    // At a node expected to fail high, or where the remembered best move is a
                    // capture, a late quiet move rarely matters.
                    if cut_node {
                        r += 1;
                    }
                    if tt_capture {
                        r += 1;
                    }
                    r -= self.quiet_history(pos, m, cont, ply) / 8_000;
                    r = r.clamp(0, new_depth - 1);
                } else if depth >= 3
                    && searched >= 2
                    && !quiet
                    && order_score < 0
                    && !in_check
                    && !gives_check
                {
                    // A capture that loses material, late in the list.
                    r = (LMR[depth.min(63) as usize][searched.min(63)] as i32 / 2)
                        .clamp(1, new_depth - 1);
                }
                let null_window = (alpha, alpha + 1);
                let reduced = new_depth - r;
                let mut s = self.reply(&child, m, null_window, reduced, ply, r > 0 || !cut_node);
                if s > alpha && r > 0 {
                    s = self.reply(&child, m, null_window, new_depth, ply, !cut_node);
                }
                if s > alpha && s < beta {
                    s = self.reply(&child, m, (alpha, beta), new_depth, ply, false);
                }
                s
            };
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            searched += 1;
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.pv[ply][ply] = Some(m);
                    let child_len = self.pv_len[ply + 1].max(ply + 1);
                    for k in ply + 1..child_len {
                        self.pv[ply][k] = self.pv[ply + 1][k];
                    }
                    self.pv_len[ply] = child_len;
                    if score >= beta {
                        let tried = (quiets_tried.as_slice(), captures_tried.as_slice());
                        self.reward(pos, m, depth, ply, prev, tried);
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried.push(m);
            } else {
                captures_tried.push(m);
            }
        }
        if searched == 0 {
            // Every move was excluded (MultiPV at the root) or pruned.
            return if root { -INF } else { alpha };
        }
        if skipped.is_none() && (!root || self.root_excluded.is_empty()) {
            let bound = Bound::of(best, original_alpha, beta);
            if !in_check
                && best_move.is_none_or(|m| is_quiet(pos, m))
                && best.abs() < MATE_BOUND
                && !(bound == Bound::Lower && best <= static_eval)
                && !(bound == Bound::Upper && best >= static_eval)
            {
                self.correct(pos, best - static_eval, depth);
            }
            let found = Found {
                best,
                best_move,
                static_eval: raw_eval,
            };
            self.remember(key, ply, depth, found, (original_alpha, beta));
        }
        best
    }

    /// The score of move `m` (which led to `child`) for the side to move at `ply`, searched
    /// within that side's `window` to `depth`.
    fn reply(
        &mut self,
        child: &Position,
        m: Move,
        (alpha, beta): (Score, Score),
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Score {
        -self.search(
            child,
            -beta,
            -alpha,
            depth,
            ply + 1,
            Some(m),
            true,
            cut_node,
        )
    }

    /// ProbCut at `node`: a capture of `moves` that beats `beta` by [`PROBCUT_MARGIN`] in
    /// quiescence and then in a search four plies shallower, with its score (`None` if no
    /// capture does, or the table already says the node falls short).
    fn probcut(
        &mut self,
        pos: &Position,
        moves: &MoveList,
        node: Node,
        beta: Score,
        tt: Option<Entry>,
    ) -> Option<(Score, Move)> {
        let Node {
            ply,
            depth,
            cut_node,
            static_eval,
        } = node;
        let raised = beta + PROBCUT_MARGIN;
        if tt.is_some_and(|e| e.depth >= depth - 3 && from_tt(e.score, ply as i32) < raised) {
            return None;
        }
        for &m in moves.iter() {
            if !pos.is_capture_move(m) || !see_ge(pos, m, raised - static_eval) {
                continue;
            }
            self.played[ply] = Some(continuation(pos, m));
            let mut child = pos.clone();
            child.play_unchecked(m);
            self.keys.push(child.repetition_key());
            let mut s = -self.qsearch(&child, -raised, -raised + 1, ply + 1);
            if s >= raised {
                s = self.reply(&child, m, (raised - 1, raised), depth - 4, ply, !cut_node);
            }
            self.keys.pop();
            if self.stopped {
                return None;
            }
            if s >= raised {
                return Some((s, m));
            }
        }
        None
    }

    /// `raw` adjusted by what searches found about positions with these pawns.
    fn corrected(&self, pos: &Position, raw: Score) -> Score {
        let c = self.memory.correction[pos.turn().index()][pawn_index(pos)] / CORRECTION_GRAIN;
        (raw + c).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Moves the correction for `pos`'s pawns towards `error` (search result minus static
    /// evaluation), the more so the deeper the search.
    fn correct(&mut self, pos: &Position, error: Score, depth: i32) {
        let weight = (depth + 1).min(16);
        let limit = CORRECTION_MAX * CORRECTION_GRAIN;
        let e = &mut self.memory.correction[pos.turn().index()][pawn_index(pos)];
        let target = (error * CORRECTION_GRAIN).clamp(-limit, limit);
        *e = ((*e * (256 - weight) + target * weight) / 256).clamp(-limit, limit);
    }

    /// Stores a node's result: its score as a bound of the window it was searched with, mate
    /// scores made relative to the node, and its static evaluation (`-INF` in check, kept
    /// representable).
    fn remember(&self, key: u64, ply: usize, depth: i32, found: Found, window: (Score, Score)) {
        self.shared.tt.store(
            key,
            Entry {
                mv: found.best_move,
                score: to_tt(found.best, ply as i32),
                eval: found.static_eval.max(-INF + 1),
                depth,
                bound: Bound::of(found.best, window.0, window.1),
            },
        );
    }

    /// Rewards `m`, which refuted this node, and penalises the moves tried before it: quiet
    /// moves in the history, killers, counter-moves and continuation history; captures in
    /// the capture history.
    fn reward(
        &mut self,
        pos: &Position,
        m: Move,
        depth: i32,
        ply: usize,
        prev: Option<Move>,
        (quiets, captures): (&[Move], &[Move]),
    ) {
        let bonus = (depth * depth).min(400);
        // Each entry moves towards ±16,384 by `bonus`, less as it nears the bound.
        let raise = |e: i32| e + bonus - e * bonus / 16_384;
        let lower = |e: i32| e - bonus - e * bonus / 16_384;
        let table = &mut self.memory.captures;
        let mut update = |m: Move, change: &dyn Fn(i32) -> i32| {
            let e = &mut table[usize::from(continuation(pos, m))][victim(pos, m)];
            *e = change(i32::from(*e)) as i16;
        };
        for &c in captures {
            update(c, &lower);
        }
        if !is_quiet(pos, m) {
            update(m, &raise);
            return;
        }
        if self.killers[ply][0] != Some(m) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(m);
        }
        if let Some(p) = prev {
            self.memory.counters[p.from().index()][p.to().index()] = Some(m);
        }
        let h = &mut self.memory.history[pos.turn().index()];
        let entry = &mut h[m.from().index()][m.to().index()];
        *entry = raise(*entry);
        for q in quiets {
            let e = &mut h[q.from().index()][q.to().index()];
            *e = lower(*e);
        }
        let rows = self.continuation_rows(ply);
        let table = &mut self.memory.continuation;
        let mut update = |m: Move, change: &dyn Fn(i32) -> i32| {
            let c = continuation(pos, m) as usize;
            for row in rows.into_iter().flatten() {
                let e = &mut table[row][c];
                *e = change(i32::from(*e)) as i16;
            }
        };
        update(m, &raise);
        for &q in quiets {
            update(q, &lower);
        }
    }

    fn qsearch(&mut self, pos: &Position, mut alpha: Score, beta: Score, ply: usize) -> Score {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply as i32);
        if self.check_stop() {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.eval.evaluate(pos);
        }
        if pos.is_insufficient_material() {
            return 0;
        }
        let key = pos.hash();
        let tt = self.shared.tt.probe(key);
        if let Some(s) = tt.and_then(|e| e.cutoff(ply as i32, alpha, beta)) {
            return s;
        }
        let original_alpha = alpha;
        let in_check = pos.is_check();
        let mut best = -INF;
        let mut best_move = None;
        let mut static_eval = -INF;
        let mut stand = -INF;
        let moves = if in_check {
            let all = pos.legal_moves();
            if all.is_empty() {
                return -MATE + ply as Score;
            }
            all
        } else {
            let raw = tt.map_or_else(|| self.eval.evaluate(pos), |e| e.eval);
            static_eval = raw;
            stand = self.corrected(pos, raw);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
            let them = pos.by_color(!pos.turn());
            let mut m = pos.legal_moves_to(them | Bitboard::rank(0) | Bitboard::rank(7));
            m.retain(|mv| pos.is_capture_move(mv) || mv.promotion() == Some(Role::Queen));
            m
        };
        let scores = &mut self.scores[ply];
        for (score, &m) in scores.iter_mut().zip(moves.iter()) {
            let victim = pos.piece_at(m.to()).map_or(100, |p| VALUE[p.role.index()]);
            let attacker = pos.piece_at(m.from()).map_or(0, |p| VALUE[p.role.index()]);
            *score = victim * 10 - attacker / 10;
        }
        let picker = Picker { moves, next: 0 };
        for &m in picker.sorted(scores).iter() {
            if !in_check && !see_ge(pos, m, 0) {
                continue;
            }
            // Delta pruning: even winning the piece for nothing would not reach alpha.
            if !in_check && m.promotion().is_none() {
                let gain = pos
                    .piece_at(m.to())
                    .map_or(VALUE[0], |p| VALUE[p.role.index()]);
                if stand + gain + 200 <= alpha {
                    continue;
                }
            }
            let mut child = pos.clone();
            child.play_unchecked(m);
            self.shared.tt.prefetch(child.hash());
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let found = Found {
            best,
            best_move,
            static_eval,
        };
        self.remember(key, ply, 0, found, (original_alpha, beta));
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
mod tests {
    use super::*;
    use crate::eval::Classical;
    use vizier_rules::UciCastling;

    fn search_to(shared: &Arc<Shared>, pos: &Position, depth: i32) -> SearchResult {
        let limits = Limits {
            depth: Some(depth),
            multipv: 1,
            ..Limits::default()
        };
        let job = Job {
            pos,
            game_keys: &[],
            limits: &limits,
            threads: 1,
            start: Instant::now(),
        };
        search(shared, &Classical::default(), &job, &mut |_| {})
    }

    #[test]
    fn pruning_keeps_the_tactics() {
        // Positions from the Win at Chess suite (1, 3, 4, 5) and two mates, with their
        // solutions and the depth that finds them: no pruning rule may hide them deeper.
        // The queen sacrifice of the first (mate in two) is found only at depth 13: the root
        // reduces it, and at the reduced depth reverse futility stands pat on the queen won.
        let cases = [
            (
                "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
                "g3g6",
                14,
            ),
            (
                "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN w - - 0 1",
                "e3g3",
                10,
            ),
            (
                "r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1",
                "h6h7",
                10,
            ),
            (
                "5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1",
                "c6c4",
                10,
            ),
            ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8", 10),
            (
                "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",
                "d5f6",
                10,
            ),
        ];
        for (fen, solution, depth) in cases {
            let shared = Arc::new(Shared::new(16));
            let pos = Position::from_fen(fen).unwrap();
            let best = search_to(&shared, &pos, depth).best.unwrap();
            assert_eq!(pos.uci(best, UciCastling::KingStep), solution, "{fen}");
        }
    }

    #[test]
    fn a_small_node_limit_is_met_and_still_finds_a_move() {
        // Counted 1,024 at a time from node 0, `go nodes 1000` once stopped before searching
        // anything and played the first legal move (g1f1) in a mate in one.
        for limit in [1, 200, 1_000, 3_000] {
            let shared = Arc::new(Shared::new(1));
            let pos = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
            let limits = Limits {
                nodes: Some(limit),
                multipv: 1,
                ..Limits::default()
            };
            let job = Job {
                pos: &pos,
                game_keys: &[],
                limits: &limits,
                threads: 1,
                start: Instant::now(),
            };
            let mut reports = 0;
            let found = search(&shared, &Classical::default(), &job, &mut |_| reports += 1);
            let best = pos.uci(found.best.unwrap(), UciCastling::KingStep);
            assert_eq!(best, "d1d8", "nodes {limit}");
            assert!(reports > 0, "nodes {limit}: no info");
            assert!(
                found.nodes <= limit.max(64) + 64,
                "nodes {limit}: {}",
                found.nodes
            );
        }
    }

    #[test]
    fn history_is_kept_between_moves_and_forgotten_for_a_new_game() {
        let shared = Arc::new(Shared::new(1));
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let pos = Position::from_fen(fen).unwrap();
        search_to(&shared, &pos, 7);
        let learnt = |shared: &Shared| {
            let memory = shared.memory.lock().unwrap();
            memory.first().map(|m| {
                let continuation = m.continuation.iter().flatten().filter(|&&v| v != 0);
                let history = m.history.iter().flatten().flatten().filter(|&&v| v != 0);
                let captures = m.captures.iter().flatten().filter(|&&v| v != 0);
                (history.count(), continuation.count(), captures.count())
            })
        };
        let (history, continuation, captures) =
            learnt(&shared).expect("the thread's memory is kept");
        assert!(
            history > 0 && continuation > 0 && captures > 0,
            "{history} {continuation} {captures}"
        );
        shared.clear();
        assert_eq!(learnt(&shared), None);
    }
}
