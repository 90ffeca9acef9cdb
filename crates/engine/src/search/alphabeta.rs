//! The principal-variation alpha-beta search of one node, with its pruning, reductions and
//! extensions; a child's score within its window; ProbCut.

use super::*;

impl Worker<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search(
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
    pub(super) fn reply(
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
    pub(super) fn probcut(
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
}
