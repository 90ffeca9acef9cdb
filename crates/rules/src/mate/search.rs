//! The helpmate search: best first by [`heuristic::cost`], every position met once. It finds a
//! line to mate when one is reachable, and when it runs out of positions without one, that is
//! the proof that none is: every position it left out was proven dead by a static rule.

use super::heuristic::{self, Heuristic};
use super::structure::Proofs;
use crate::{Color, Move, Position, Square};
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
    pos: Position,
    parent: u32,
    mv: Move,
}

/// Searches for a series of legal moves from `root` after which `winner` has checkmated, over at
/// most `budget` positions; the static proof may search `root_structures` structures at the
/// root and `inner_structures` for each new one after.
pub(super) fn helpmate(
    root: &Position,
    winner: Color,
    budget: u64,
    root_structures: usize,
    inner_structures: usize,
) -> Outcome {
    // A winner without mating force mates only after promoting, or where the loser blocks:
    // steer at that with a quarter of the budget first, then search as usual with all of it
    // (a proof by exhaustion needs the whole budget). Running out of positions proves
    // "cannot" whatever the order, so the first search's "exhausted" stands.
    if let Some(first) = Heuristic::first_for(root, winner) {
        match search(
            root,
            winner,
            budget / 4,
            root_structures,
            inner_structures,
            first,
        ) {
            Outcome::OutOfNodes => {}
            done => return done,
        }
    }
    search(
        root,
        winner,
        budget,
        root_structures,
        inner_structures,
        Heuristic::General,
    )
}

fn search(
    root: &Position,
    winner: Color,
    budget: u64,
    root_structures: usize,
    inner_structures: usize,
    heuristic: Heuristic,
) -> Outcome {
    let loser = !winner;
    if root.turn() == loser && root.is_checkmate() {
        return Outcome::Mate(Vec::new());
    }
    let mut proofs = Proofs::default();
    if proofs.cannot(root, winner, root_structures) {
        return Outcome::Exhausted;
    }
    let none = Move::normal(Square::A1, Square::A1);
    let mut arena = vec![Node {
        pos: root.clone(),
        parent: u32::MAX,
        mv: none,
    }];
    let mut seen = HashSet::new();
    seen.insert(root.hash());
    let mut open = BinaryHeap::new();
    open.push(Reverse((heuristic::cost(root, winner, heuristic), 0u32)));
    while let Some(Reverse((_, index))) = open.pop() {
        let pos = arena[index as usize].pos.clone();
        let ours = pos.turn() == winner;
        for &m in pos.legal_moves().iter() {
            let mut child = pos.clone();
            child.play_unchecked(m);
            if ours && child.is_check() && !child.has_legal_moves() {
                return Outcome::Mate(line(&arena, index, m));
            }
            if !seen.insert(child.hash()) {
                continue;
            }
            // Only a capture or a pawn move (the move counter reset) changes what the static
            // proofs see: pieces moving within their regions share the parent's answer.
            if child.halfmoves() == 0 && proofs.cannot(&child, winner, inner_structures) {
                continue;
            }
            if arena.len() as u64 >= budget {
                return Outcome::OutOfNodes;
            }
            let cost = heuristic::cost(&child, winner, heuristic);
            arena.push(Node {
                pos: child,
                parent: index,
                mv: m,
            });
            open.push(Reverse((cost, (arena.len() - 1) as u32)));
        }
    }
    Outcome::Exhausted
}

fn line(arena: &[Node], mut index: u32, last: Move) -> Vec<Move> {
    let mut moves = vec![last];
    while index != 0 {
        let node = &arena[index as usize];
        moves.push(node.mv);
        index = node.parent;
    }
    moves.reverse();
    moves
}
