//! What a search thread does with what it learns: moves ordered by it, evaluations corrected
//! by it, refutations rewarded in it, and nodes' results stored in the table.

use super::*;

impl Worker<'_> {
    pub(super) fn order(
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
    pub(super) fn capture_history(&self, pos: &Position, m: Move) -> i32 {
        i32::from(self.memory.captures[usize::from(continuation(pos, m))][victim(pos, m)])
    }

    /// How quiet move `m` (`c`: its [`continuation`]) has fared: by itself (from–to) and after
    /// the moves one and two plies before it.
    #[inline]
    pub(super) fn quiet_history(
        &self,
        pos: &Position,
        m: Move,
        c: Continuation,
        ply: usize,
    ) -> i32 {
        let c = usize::from(c);
        let mut h = self.memory.history[pos.turn().index()][m.from().index()][m.to().index()];
        for row in self.continuation_rows(ply).into_iter().flatten() {
            h += i32::from(self.memory.continuation[row][c]);
        }
        h
    }

    /// The continuation-history rows of the moves one and two plies before `ply` (none for a
    /// null move or before the root).
    pub(super) fn continuation_rows(&self, ply: usize) -> [Option<usize>; 2] {
        [1, 2].map(|back| {
            let p = ply.checked_sub(back)?;
            self.played[p].map(usize::from)
        })
    }

    /// `raw` adjusted by what searches found about positions with these pawns.
    pub(super) fn corrected(&self, pos: &Position, raw: Score) -> Score {
        let c = self.memory.correction[pos.turn().index()][pawn_index(pos)] / CORRECTION_GRAIN;
        (raw + c).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Moves the correction for `pos`'s pawns towards `error` (search result minus static
    /// evaluation), the more so the deeper the search.
    pub(super) fn correct(&mut self, pos: &Position, error: Score, depth: i32) {
        let weight = (depth + 1).min(16);
        let limit = CORRECTION_MAX * CORRECTION_GRAIN;
        let e = &mut self.memory.correction[pos.turn().index()][pawn_index(pos)];
        let target = (error * CORRECTION_GRAIN).clamp(-limit, limit);
        *e = ((*e * (256 - weight) + target * weight) / 256).clamp(-limit, limit);
    }

    /// Stores a node's result: its score as a bound of the window it was searched with, mate
    /// scores made relative to the node, and its static evaluation (`-INF` in check, kept
    /// representable).
    pub(super) fn remember(
        &self,
        key: u64,
        ply: usize,
        depth: i32,
        found: Found,
        window: (Score, Score),
    ) {
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
    pub(super) fn reward(
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
}
