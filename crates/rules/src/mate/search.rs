//! The helpmate search: best first by [`heuristic::cost`], every position met once. It finds a
//! line to mate when one is reachable, and when it runs out of positions without one, that is
//! the proof that none is: every position it left out was proven dead by a static rule.

use super::heuristic::{self, Heuristic};
use super::packed::Packed;
use super::structure::Proofs;
use crate::{Color, Move, Position, Square};
use nohash_hasher::BuildNoHashHasher;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

/// What a search ended with.
pub(super) enum Outcome {
    /// A line of legal moves from the root to a position where the loser is checkmated.
    Mate(Vec<Move>),
    /// Every reachable position was searched or proven dead: no mate.
    Exhausted,
    /// The node budget ran out first.
    OutOfNodes,
}

struct Node {
    pos: Packed,
    parent: u32,
    mv: Move,
    plies: u32,
}

/// Searches for a series of legal moves from `root` after which `winner` has checkmated, over at
/// most `budget` positions; the static proof may search `root_structures` structures at the
/// root and `inner_structures` for each new one after.
pub(super) fn helpmate(
    root: &Position,
    winner: Color,
    budget: u64,
    root_structures: usize,
    root_states: usize,
    inner_structures: usize,
) -> Outcome {
    if root.turn() == !winner && root.is_checkmate() {
        // A mate no move could have given (two bishops at once) is no mate given: no game
        // reaches it, and the published labels call such a position dead.
        return if root.has_impossible_check() {
            Outcome::Exhausted
        } else {
            Outcome::Mate(Vec::new())
        };
    }
    let mut proofs = Proofs::default();
    if proofs.cannot_exactly(root, winner, root_structures, root_states) {
        return Outcome::Exhausted;
    }
    // Where a mate has a likely shape (the king boxed in by its own men, a corner mate with a
    // blocker, a promotion first), look for it with a 64th of the budget each, then an eighth
    // (a shape that does not fit costs little before the next is tried), pruning by material
    // only (the structure proofs cost more than they save there); then search as usual with
    // all of the budget and the proofs (a proof by exhaustion needs both); where that ran
    // out, against three or more men and with mating force, with all of it again taking the
    // loser's men first (defenders that guard every square: stripped, a bare king mates);
    // last, in the order that prefers short lines. Running out of positions proves "cannot"
    // whatever the order, so any search's "exhausted" stands.
    // "The budget" is at most FULL_NODES until those last two have run out with it.
    // A quick decision (a few hundred positions) makes one search, in the usual order: the
    // shapes' and the short lines' tries would each give up before a mate that far.
    let quick = budget <= super::QUICK_NODES;
    let firsts = if quick {
        Vec::new()
    } else {
        Heuristic::first_for(root, winner)
    };
    let base = budget.min(super::FULL_NODES);
    for share in [64, 8] {
        for &first in &firsts {
            let order = Order::deep(first);
            match search(root, winner, base / share, Some((&mut proofs, 0)), order) {
                Outcome::OutOfNodes => {}
                done => return done,
            }
        }
    }
    let deeper = (budget > base).then_some(budget);
    let strip = !quick && Heuristic::strips(root, winner);
    for budget in std::iter::once(base).chain(deeper) {
        let orders = [
            Some(Order::deep(Heuristic::General)),
            strip.then_some(Order::deep(Heuristic::Strip)),
            (!quick).then_some(Order::short(Heuristic::Corner)),
        ];
        for order in orders.into_iter().flatten() {
            let inner = Some((&mut proofs, inner_structures));
            match search(root, winner, budget, inner, order) {
                Outcome::OutOfNodes => {}
                done => return done,
            }
        }
    }
    Outcome::OutOfNodes
}

/// How the open positions are ranked.
#[derive(Clone, Copy)]
struct Order {
    heuristic: Heuristic,
    /// `None`: by cost alone, the newest first among equals, so the search follows a line
    /// down rather than widening every level of a plateau — quick wherever the cost points
    /// the way. `Some(w)`: by `w` times the cost plus the plies from the root, so a line that
    /// wanders is overtaken by a shorter one — slower as a rule, but it finds mates the
    /// first order walks past.
    depth_weight: Option<i32>,
}

impl Order {
    fn deep(heuristic: Heuristic) -> Order {
        Order {
            heuristic,
            depth_weight: None,
        }
    }

    fn short(heuristic: Heuristic) -> Order {
        Order {
            heuristic,
            depth_weight: Some(1),
        }
    }

    fn rank(self, pos: &Position, winner: Color, plies: u32) -> i32 {
        let cost = heuristic::cost(pos, winner, self.heuristic);
        match self.depth_weight {
            None => cost,
            Some(w) => w * cost + plies as i32,
        }
    }
}

/// Best first in `order` from `root`, over at most `budget` positions; with `proofs`,
/// positions after a capture or a pawn move that the static proof (with that many structures)
/// shows dead are left out.
fn search(
    root: &Position,
    winner: Color,
    budget: u64,
    proofs: Option<(&mut Proofs, usize)>,
    order: Order,
) -> Outcome {
    SCRATCH.with(|scratch| {
        let mut scratch = scratch.borrow_mut();
        let outcome = search_in(&mut scratch, root, winner, budget, proofs, order);
        scratch.tidy();
        outcome
    })
}

type Open = BinaryHeap<Reverse<(i32, Reverse<u32>)>>;

/// A search's memory, kept by each thread between searches: fresh memory for every search cost
/// more than the search itself on short ones (the pages zeroed, the vectors moved as they grew).
#[derive(Default)]
struct Scratch {
    arena: Arena,
    // Zobrist keys are random already: no hashing on top.
    seen: HashSet<u64, BuildNoHashHasher<u64>>,
    open: Open,
}

impl Scratch {
    /// Empties the memory, giving back what a long search took beyond what short ones need.
    fn tidy(&mut self) {
        const KEEP: usize = 1 << 14;
        self.arena.clear(KEEP);
        self.seen.clear();
        self.open.clear();
        if self.seen.capacity() > KEEP {
            self.seen.shrink_to(KEEP);
            self.open.shrink_to(KEEP);
        }
    }
}

const CHUNK_BITS: u32 = 12;
const CHUNK: usize = 1 << CHUNK_BITS;

/// The searched positions, in fixed chunks: growing never moves what is stored (a vector of
/// positions copied itself over and over as a long search grew).
#[derive(Default)]
struct Arena {
    chunks: Vec<Vec<Node>>,
    len: usize,
}

impl Arena {
    fn len(&self) -> usize {
        self.len
    }

    fn push(&mut self, node: Node) {
        let chunk = self.len >> CHUNK_BITS;
        if chunk == self.chunks.len() {
            self.chunks.push(Vec::with_capacity(CHUNK));
        }
        self.chunks[chunk].push(node);
        self.len += 1;
    }

    /// Empties the arena, keeping the memory of about `keep` nodes.
    fn clear(&mut self, keep: usize) {
        for chunk in &mut self.chunks {
            chunk.clear();
        }
        self.chunks.truncate(keep.div_ceil(CHUNK));
        self.len = 0;
    }
}

impl std::ops::Index<u32> for Arena {
    type Output = Node;

    fn index(&self, index: u32) -> &Node {
        let index = index as usize;
        &self.chunks[index >> CHUNK_BITS][index & (CHUNK - 1)]
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
    /// When this thread's searches give up, whatever their budget: see
    /// [`Position::mate_verdict_by`](crate::Position::mate_verdict_by).
    static DEADLINE: std::cell::Cell<Option<std::time::Instant>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with this thread's searches giving up at `deadline`.
pub(super) fn until<T>(deadline: std::time::Instant, f: impl FnOnce() -> T) -> T {
    let before = DEADLINE.replace(Some(deadline));
    let out = f();
    DEADLINE.set(before);
    out
}

/// Positions between two looks at the clock.
const CLOCK_EVERY: usize = 4_096;

fn search_in(
    scratch: &mut Scratch,
    root: &Position,
    winner: Color,
    budget: u64,
    mut proofs: Option<(&mut Proofs, usize)>,
    order: Order,
) -> Outcome {
    let none = Move::normal(Square::A1, Square::A1);
    let Scratch { arena, seen, open } = scratch;
    arena.push(Node {
        pos: Packed::of(root),
        parent: u32::MAX,
        mv: none,
        plies: 0,
    });
    seen.insert(root.hash());
    open.push(Reverse((order.rank(root, winner, 0), Reverse(0u32))));
    while let Some(Reverse((_, Reverse(index)))) = open.pop() {
        let pos = arena[index].pos.unpack();
        let plies = arena[index].plies + 1;
        let ours = pos.turn() == winner;
        for &m in pos.legal_moves().iter() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            if ours && child.is_check() && !child.has_legal_moves() {
                return Outcome::Mate(line(arena, index, m));
            }
            if !seen.insert(child.hash()) {
                continue;
            }
            // Only a capture or a pawn move (the move counter reset) changes what the static
            // proofs see: pieces moving within their regions share the parent's answer.
            if child.halfmoves() == 0
                && let Some((proofs, structures)) = proofs.as_mut()
                && proofs.cannot(&child, winner, *structures)
            {
                continue;
            }
            if arena.len() as u64 >= budget {
                return Outcome::OutOfNodes;
            }
            if arena.len() % CLOCK_EVERY == 0
                && DEADLINE
                    .get()
                    .is_some_and(|d| std::time::Instant::now() >= d)
            {
                return Outcome::OutOfNodes;
            }
            let rank = order.rank(&child, winner, plies);
            arena.push(Node {
                pos: Packed::of(&child),
                parent: index,
                mv: m,
                plies,
            });
            open.push(Reverse((rank, Reverse((arena.len() - 1) as u32))));
        }
    }
    Outcome::Exhausted
}

fn line(arena: &Arena, mut index: u32, last: Move) -> Vec<Move> {
    let mut moves = vec![last];
    while index != 0 {
        let node = &arena[index];
        moves.push(node.mv);
        index = node.parent;
    }
    moves.reverse();
    moves
}
