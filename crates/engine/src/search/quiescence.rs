//! Quiescence: captures (and check evasions) until the position is quiet, with SEE and delta
//! pruning.

use super::*;

impl Worker<'_> {
    pub(super) fn qsearch(
        &mut self,
        pos: &Position,
        mut alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
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
