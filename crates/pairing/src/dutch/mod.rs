//! The FIDE (Dutch) Swiss system, C.04.3 as applied from 1 February 2026.
//!
//! The rules define the pairing as the first candidate, in a fixed generation order, that
//! best satisfies a ranked list of criteria, bracket by bracket from the top score down.
//! Instead of generating candidates (factorially many), each bracket is solved as a
//! maximum-weight matching over every player not yet paired: an edge's weight holds one
//! field of bits per criterion, most important first ([`weights`]), so the heaviest
//! matching is the best pairing by the criteria; the generation order then decides among
//! equally good ones, one choice at a time (which movers-down are paired, their opponents,
//! the exchanges between the subgroups, each S1 player's opponent), each choice fixed by a
//! small bonus and a new matching. This is the method of Bierema's bbpPairings, the engine
//! FIDE-endorsed programs use, which it follows step by step so that both pair alike.
//!
//! ```
//! use vizier_pairing::{dutch, field::Field, trf::Trf};
//! let text = "XXR 3\r\
//! 001    1      A                                 2700                             1.0    1     3 w 1\r\
//! 001    2      B                                 2600                             1.0    2     4 b 1\r\
//! 001    3      C                                 2500                             0.0    3     1 b 0\r\
//! 001    4      D                                 2400                             0.0    4     2 w 0\r";
//! let field = Field::for_next_round(&Trf::parse(text).unwrap()).unwrap();
//! let boards = dutch::pair(&field).unwrap();
//! assert_eq!(dutch::engine_output(&field, &boards), "2\n2 1\n3 4\n");
//! ```

mod colour;
mod edition2017;
mod player;
mod weights;

use core::fmt;
use std::collections::HashMap;

use crate::field::Field;
use crate::matching::{Graph, HEADROOM_BITS};
use crate::wide::{Weight, Wide};
use crate::{Colour, Points};

pub use player::Profile;
use weights::{EdgeKind, Layout};

/// One board of a round: indices into [`Field::players`]; `black` is `None` for the
/// pairing-allocated bye.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub white: usize,
    pub black: Option<usize>,
}

/// Why a round cannot be paired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairError {
    /// No pairing satisfies the absolute criteria (C1–C3 with the bye's C2): the arbiter
    /// decides (1.9.3).
    NoPairing,
    /// More players than the weights were sized for.
    TooLarge,
}

impl fmt::Display for PairError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PairError::NoPairing => write!(
                f,
                "no pairing satisfies the absolute criteria: the players cannot all be paired \
                 without a rematch, two equal absolute colour preferences meeting, or a second \
                 bye"
            ),
            PairError::TooLarge => write!(f, "the tournament is too large to pair"),
        }
    }
}

impl std::error::Error for PairError {}

/// Which text of the Dutch system pairs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Edition {
    /// C.04.3 applied from 1 February 2026.
    #[default]
    E2026,
    /// C.04.3 of Baku 2016 with the Goynuk 2017 additions, in force until 31 January 2026.
    E2017,
}

/// Pairs the next round of `field` by the 2026 edition: the boards in their published
/// order (C.04.2), the bye last.
pub fn pair(field: &Field) -> Result<Vec<Board>, PairError> {
    pair_edition(field, Edition::E2026)
}

/// Pairs the next round of `field` by `edition`.
pub fn pair_edition(field: &Field, edition: Edition) -> Result<Vec<Board>, PairError> {
    let ctx = Context::new(field);
    if edition == Edition::E2017 {
        let boards = edition2017::pair(&ctx)?;
        return Ok(ctx.published_order(boards));
    }
    let bits = ctx.layout.total_bits() + HEADROOM_BITS + 2;
    let boards = match bits.div_ceil(64) {
        0..=1 => ctx.run::<u64>(),
        2 => ctx.run::<Wide<2>>(),
        3 => ctx.run::<Wide<3>>(),
        4 => ctx.run::<Wide<4>>(),
        5 => ctx.run::<Wide<5>>(),
        6 => ctx.run::<Wide<6>>(),
        7 => ctx.run::<Wide<7>>(),
        8 => ctx.run::<Wide<8>>(),
        9 => ctx.run::<Wide<9>>(),
        10 => ctx.run::<Wide<10>>(),
        11 => ctx.run::<Wide<11>>(),
        12 => ctx.run::<Wide<12>>(),
        13 => ctx.run::<Wide<13>>(),
        14 => ctx.run::<Wide<14>>(),
        15 => ctx.run::<Wide<15>>(),
        16 => ctx.run::<Wide<16>>(),
        17..=24 => ctx.run::<Wide<24>>(),
        25..=32 => ctx.run::<Wide<32>>(),
        33..=64 => ctx.run::<Wide<64>>(),
        _ => Err(PairError::TooLarge),
    }?;
    Ok(ctx.published_order(boards))
}

/// The pairing engines' common output: the number of lines, then `WHITE BLACK` by pairing
/// number, a bye as `ID 0`.
pub fn engine_output(field: &Field, boards: &[Board]) -> String {
    let mut out = format!("{}\n", boards.len());
    for b in boards {
        let white = field.players[b.white].id;
        let black = b.black.map_or(0, |i| field.players[i].id);
        out.push_str(&format!("{white} {black}\n"));
    }
    out
}

/// What every step of a round's pairing reads.
struct Context<'f> {
    field: &'f Field,
    /// Present players, best first: by accelerated score, then ranking.
    sorted: Vec<usize>,
    profiles: Vec<Profile>,
    scores: Vec<Points>,
    layout: Layout,
    forbidden: Vec<std::collections::HashSet<usize>>,
}

impl<'f> Context<'f> {
    fn new(field: &'f Field) -> Context<'f> {
        let n = field.players.len();
        let profiles: Vec<Profile> = (0..n).map(|i| Profile::of(field, i)).collect();
        let scores: Vec<Points> = (0..n).map(|i| field.score(i, 0)).collect();
        let mut sorted: Vec<usize> = (0..n).filter(|&i| field.is_present(i)).collect();
        sorted.sort_by(|&a, &b| {
            scores[b]
                .cmp(&scores[a])
                .then(field.players[a].rank.cmp(&field.players[b].rank))
        });
        let mut forbidden = vec![std::collections::HashSet::new(); n];
        for (i, p) in field.players.iter().enumerate() {
            for m in p.matches.iter().take(field.played_rounds) {
                if m.played
                    && let Some(o) = m.opponent
                {
                    forbidden[i].insert(o);
                }
            }
        }
        for &(a, b) in &field.forbidden {
            forbidden[a].insert(b);
            forbidden[b].insert(a);
        }
        let sorted_scores: Vec<Points> = sorted.iter().map(|&i| scores[i]).collect();
        let layout = Layout::new(&sorted_scores, field.played_rounds);
        Context {
            field,
            sorted,
            profiles,
            scores,
            layout,
            forbidden,
        }
    }

    fn score(&self, i: usize) -> Points {
        self.scores[i]
    }

    /// C1 and C3: the two may meet.
    fn compatible(&self, a: usize, b: usize) -> bool {
        if self.forbidden[a].contains(&b) {
            return false;
        }
        let (pa, pb) = (&self.profiles[a], &self.profiles[b]);
        if !pa.absolute() || !pb.absolute() || pa.preference != pb.preference {
            return true;
        }
        // Topscorers of the last round may meet (C3 exempts them).
        let f = self.field;
        let last_round = f.played_rounds + 1 >= f.rounds;
        let best = f.points.win.max(f.points.draw).0;
        let threshold = f.played_rounds as u32 * best / 2;
        last_round && (self.score(a).0 > threshold || self.score(b).0 > threshold)
    }

    fn run<W: Weight>(&self) -> Result<Vec<Board>, PairError> {
        Round::<W>::new(self).pair()
    }

    /// C.04.2's board order: by the higher player's score, then the lower one's, then the
    /// higher player's ranking; the bye last.
    fn published_order(&self, mut boards: Vec<Board>) -> Vec<Board> {
        let f = self.field;
        let key = |b: &Board| {
            let (hi, lo) = match b.black {
                None => (b.white, b.white),
                Some(black) => {
                    let (w, bl) = (&f.players[b.white], &f.players[black]);
                    let white_higher = (w.score, core::cmp::Reverse(w.rank))
                        > (bl.score, core::cmp::Reverse(bl.rank));
                    if white_higher {
                        (b.white, black)
                    } else {
                        (black, b.white)
                    }
                }
            };
            (
                b.black.is_none(),
                core::cmp::Reverse(f.players[hi].score),
                core::cmp::Reverse(f.players[lo].score),
                f.players[hi].rank,
            )
        };
        boards.sort_by_key(key);
        boards
    }
}

/// The board of `a` and `b`, colours allocated.
fn board(ctx: &Context<'_>, a: usize, b: usize) -> Board {
    if colour::allocate(ctx, a, b) == Colour::White {
        Board {
            white: a,
            black: Some(b),
        }
    } else {
        Board {
            white: b,
            black: Some(a),
        }
    }
}

/// The matching state while one round is paired.
struct Round<'c, 'f, W> {
    ctx: &'c Context<'f>,
    graph: Graph<W>,
    /// By vertex (position in `ctx.sorted`): paired for good, and with whom.
    fixed: Vec<Option<usize>>,
    /// By vertex: chosen to be paired in the current bracket.
    chosen: Vec<bool>,
    /// The last matching found, by vertex.
    stable: Vec<Option<usize>>,
    bye_score: Points,
    /// C9 applies: the bracket downfloats exactly the player who gets the bye.
    lone_bye_floater: bool,
    unplayed_ranks: HashMap<usize, u64>,
}

impl<'c, 'f, W: Weight> Round<'c, 'f, W> {
    fn new(ctx: &'c Context<'f>) -> Self {
        let m = ctx.sorted.len();
        Round {
            ctx,
            graph: Graph::new(m),
            fixed: vec![None; m],
            chosen: vec![false; m],
            stable: vec![None; m],
            bye_score: Points(0),
            lone_bye_floater: false,
            unplayed_ranks: HashMap::new(),
        }
    }

    fn player(&self, v: usize) -> usize {
        self.ctx.sorted[v]
    }

    fn score_of(&self, v: usize) -> Points {
        self.ctx.score(self.player(v))
    }

    fn solve(&mut self) {
        let active: Vec<bool> = self.fixed.iter().map(Option::is_none).collect();
        let mates = self.graph.max_weight_matching(&active);
        for (v, mate) in mates.into_iter().enumerate() {
            self.stable[v] = match self.fixed[v] {
                Some(partner) => Some(partner),
                None => mate,
            };
        }
    }

    fn fix(&mut self, a: usize, b: usize) {
        self.fixed[a] = Some(b);
        self.fixed[b] = Some(a);
        self.stable[a] = Some(b);
        self.stable[b] = Some(a);
    }

    fn edge(&self, hi: usize, lo: usize, kind: EdgeKind) -> W {
        let (ph, pl) = (self.player(hi), self.player(lo));
        if !self.ctx.compatible(ph, pl) {
            return W::zero();
        }
        let bye = weights::Bye {
            score: self.bye_score,
            lone_floater: self.lone_bye_floater,
            unplayed_ranks: &self.unplayed_ranks,
        };
        weights::edge_weight(self.ctx, &bye, ph, pl, kind)
    }

    fn pair(mut self) -> Result<Vec<Board>, PairError> {
        let m = self.ctx.sorted.len();
        if m == 0 {
            return Ok(Vec::new());
        }
        let odd = m % 2 == 1;
        let top = self.score_of(0);
        // First: can the round be completed at all, and which score gets the bye (C4, C5)?
        for lo in 0..m {
            for hi in 0..lo {
                let w = if odd {
                    self.completion_weight(hi, lo, top)
                } else {
                    self.edge(hi, lo, EdgeKind::Elsewhere)
                };
                self.graph.set(hi, lo, w);
            }
        }
        self.solve();
        let unmatched: Vec<usize> = (0..m).filter(|&v| self.stable[v].is_none()).collect();
        let complete = unmatched.len() <= 1
            && unmatched
                .iter()
                .all(|&v| self.ctx.profiles[self.player(v)].bye_eligible);
        if !complete {
            return Err(PairError::NoPairing);
        }
        if let Some(&bye) = unmatched.first() {
            self.bye_score = self.score_of(bye);
            self.lone_bye_floater = self.bye_score >= top
                && (0..m)
                    .take_while(|&v| self.score_of(v) >= top)
                    .all(|v| self.stable[v].is_none_or(|u| self.score_of(u) >= top));
            let mut played: Vec<usize> = (0..m)
                .filter(|&v| self.score_of(v) == self.bye_score)
                .map(|v| self.ctx.profiles[self.player(v)].played_games)
                .collect();
            played.sort_unstable_by(|a, b| b.cmp(a));
            for (rank, games) in played.into_iter().enumerate() {
                self.unplayed_ranks.insert(games, rank as u64);
            }
            for lo in 0..m {
                for hi in 0..lo {
                    let w = self.edge(hi, lo, EdgeKind::Elsewhere);
                    self.graph.set(hi, lo, w);
                }
            }
        }

        // Then bracket by bracket: `list` holds the bracket (movers-down first, then the
        // residents) and the next score group after it.
        let mut next_group = 0;
        let vertex_scores: Vec<Points> = (0..m).map(|v| self.score_of(v)).collect();
        let group_end = |from: usize| {
            let s = vertex_scores[from];
            (from..m).find(|&v| vertex_scores[v] < s).unwrap_or(m)
        };
        let mut list: Vec<usize> = Vec::new();
        let first_end = group_end(0);
        list.extend(0..first_end);
        next_group = next_group.max(first_end);
        let mut movers = 0;
        let mut resident_lo = 0;
        while list.len() > 1 || next_group < m {
            let bracket_len = list.len();
            let resident_hi = resident_lo + (bracket_len - movers);
            let following = next_group;
            if next_group < m {
                let end = group_end(next_group);
                list.extend(next_group..end);
                next_group = end;
            }
            self.pair_bracket(&list, movers, bracket_len, resident_lo, resident_hi)?;

            // Carry the unpaired on; C9 holds in the next bracket only if the bye
            // player is the one who floats out of it.
            let next_score = (following < m).then(|| self.score_of(following));
            self.lone_bye_floater = odd && next_score.is_some_and(|s| self.bye_score >= s);
            let mut carried = Vec::new();
            movers = 0;
            for (pos, &v) in list.iter().enumerate() {
                if pos < bracket_len && self.fixed[v].is_some() {
                    continue;
                }
                carried.push(v);
                if pos < bracket_len {
                    movers += 1;
                }
                if let Some(s) = next_score {
                    let mate_score = self.score_of(self.stable[v].unwrap_or(v));
                    if mate_score < s {
                        self.lone_bye_floater = false;
                    }
                }
            }
            list = carried;
            resident_lo = resident_hi;
        }

        let mut boards = Vec::new();
        for v in 0..m {
            match self.fixed[v] {
                Some(u) if u > v => {
                    let (a, b) = (self.player(v), self.player(u));
                    let a_colour = colour::allocate(self.ctx, a, b);
                    boards.push(if a_colour == Colour::White {
                        Board {
                            white: a,
                            black: Some(b),
                        }
                    } else {
                        Board {
                            white: b,
                            black: Some(a),
                        }
                    });
                }
                Some(_) => {}
                None => boards.push(Board {
                    white: self.player(v),
                    black: None,
                }),
            }
        }
        Ok(boards)
    }

    /// The first matching's weights: pairs first, the bye to someone eligible, and to the
    /// lowest score possible.
    fn completion_weight(&self, hi: usize, lo: usize, top: Points) -> W {
        let (ph, pl) = (self.player(hi), self.player(lo));
        if !self.ctx.compatible(ph, pl) {
            return W::zero();
        }
        let layout = &self.ctx.layout;
        let eligible = |p: usize| u64::from(self.ctx.profiles[p].bye_eligible);
        let mut w = W::from_u64(1 + (1 - eligible(ph)) + (1 - eligible(pl)));
        w = w.shl(layout.groups_bits).wrapping_add(W::from_u64(
            u64::from(layout.shift(self.score_of(lo))) + u64::from(layout.shift(self.score_of(hi))),
        ));
        w.shl(layout.size_bits)
            .wrapping_add(W::from_u64(u64::from(self.score_of(lo) >= top)))
    }

    /// The weight used while exchanges are decided: a bonus for pairs led from the
    /// original S1, less the in-remainder number of the leading player.
    fn exchange_weight(&self, base: W, position: usize, pairs: usize) -> W {
        if base.is_zero() {
            return base;
        }
        let bits = self.ctx.layout.size_bits;
        let mut addend = if position < pairs {
            W::bit(2 * bits)
        } else {
            W::zero()
        };
        addend = addend.wrapping_sub(W::from_u64(position as u64)).shl(1);
        base.wrapping_add(addend)
    }

    fn pairs_inside(&self, v: usize, resident_hi: usize) -> bool {
        self.stable[v].is_some_and(|u| u > v && u < resident_hi)
    }

    /// Pairs one bracket: `list[..movers]` moved down, `list[movers..bracket_len]` the
    /// residents (vertices `resident_lo..resident_hi`), the rest the next score group.
    fn pair_bracket(
        &mut self,
        list: &[usize],
        movers: usize,
        bracket_len: usize,
        resident_lo: usize,
        resident_hi: usize,
    ) -> Result<(), PairError> {
        let len = list.len();
        let mut base = vec![W::zero(); len * len];
        let at = |a: usize, b: usize| a * len + b;
        for b in movers..len {
            for a in 0..b {
                let kind = if b < bracket_len {
                    EdgeKind::Current
                } else {
                    EdgeKind::Next
                };
                let w = self.edge(list[a], list[b], kind);
                base[at(a, b)] = w;
                self.graph.set(list[a], list[b], w);
            }
        }
        self.solve();
        let resident = |u: usize| (resident_lo..resident_hi).contains(&u);

        // Which movers-down are paired: as many as possible of each score, the
        // highest-ranked first.
        let mut a = 0;
        while a < movers {
            let score = self.score_of(list[a]);
            let end = (a..movers)
                .find(|&x| self.score_of(list[x]) < score)
                .unwrap_or(movers);
            let mut remaining = end - a;
            let mut remaining_paired = (a..end)
                .filter(|&x| self.stable[list[x]].is_some_and(resident))
                .count();
            for x in a..end {
                let v = list[x];
                if remaining_paired == 0 {
                    continue;
                }
                if remaining <= remaining_paired {
                    self.chosen[v] = true;
                    continue;
                }
                remaining -= 1;
                if !self.stable[v].is_some_and(resident) {
                    for b in movers..bracket_len {
                        let w = base[at(x, b)];
                        if !w.is_zero() {
                            self.graph.set(v, list[b], w.wrapping_add(W::from_u64(1)));
                        }
                    }
                    self.solve();
                }
                if self.stable[v].is_some_and(resident) {
                    self.chosen[v] = true;
                    remaining_paired -= 1;
                    let bonus = (bracket_len - movers) as u64 + 1;
                    for b in movers..bracket_len {
                        let w = base[at(x, b)];
                        if !w.is_zero() {
                            self.graph
                                .set(v, list[b], w.wrapping_add(W::from_u64(bonus)));
                        }
                    }
                }
            }
            a = end;
        }

        // Their opponents: the highest-ranked resident possible for each in turn.
        for x in 0..movers {
            let v = list[x];
            if !self.chosen[v] {
                continue;
            }
            let mut addend = len as u64;
            for b in (movers..bracket_len).rev() {
                if self.chosen[list[b]] {
                    continue;
                }
                let w = base[at(x, b)];
                if !w.is_zero() {
                    self.graph
                        .set(v, list[b], w.wrapping_add(W::from_u64(addend)));
                    addend += 1;
                }
            }
            self.solve();
            let partner = self.stable[v].ok_or(PairError::NoPairing)?;
            self.chosen[partner] = true;
            self.fix(v, partner);
        }

        // The remainder: residents not paired with a mover. Its first `pairs` players
        // form S1.
        let remainder: Vec<usize> = (movers..bracket_len)
            .filter(|&b| self.stable[list[b]].is_none_or(|u| u >= resident_lo))
            .collect();
        let pairs = remainder
            .iter()
            .filter(|&&b| self.stable[list[b]].is_some_and(|u| u < list[b]))
            .count();
        for (i, &p) in remainder.iter().enumerate() {
            for &o in &remainder[i + 1..] {
                let w = self.exchange_weight(base[at(p, o)], i, pairs);
                self.graph.set(list[p], list[o], w);
            }
        }
        self.solve();
        let exchanges = remainder[..pairs]
            .iter()
            .filter(|&&p| !self.pairs_inside(list[p], resident_hi))
            .count();

        // Which S1 players go to S2: the lowest-ranked possible.
        let mut left = exchanges;
        let mut i = pairs;
        while i > 0 && left > 0 {
            i -= 1;
            let p = remainder[i];
            let v = list[p];
            if self.pairs_inside(v, resident_hi) {
                for &o in &remainder[i + 1..] {
                    let w = self.exchange_weight(base[at(p, o)], i, pairs);
                    if !w.is_zero() {
                        self.graph.set(v, list[o], w.wrapping_sub(W::from_u64(1)));
                    }
                }
                self.solve();
            }
            let exchanged = !self.pairs_inside(v, resident_hi);
            if exchanged {
                left -= 1;
            }
            for &o in &remainder[i + 1..] {
                if exchanged {
                    base[at(p, o)] = W::zero();
                }
                let w = self.exchange_weight(base[at(p, o)], i, pairs);
                self.graph.set(v, list[o], w);
            }
        }

        // Which S2 players go to S1: the highest-ranked possible.
        let mut left = exchanges;
        for i in pairs..remainder.len() {
            if left <= 1 {
                break;
            }
            let p = remainder[i];
            let v = list[p];
            let already = self.pairs_inside(v, resident_hi);
            if !already {
                for &o in &remainder[i + 1..] {
                    let w = self.exchange_weight(base[at(p, o)], i, pairs);
                    if !w.is_zero() {
                        self.graph.set(v, list[o], w.wrapping_add(W::from_u64(1)));
                    }
                }
                self.solve();
            }
            if self.pairs_inside(v, resident_hi) {
                left -= 1;
                for &o in &remainder[..i] {
                    base[at(o, p)] = W::zero();
                    self.graph.set(v, list[o], W::zero());
                }
                for b in bracket_len..len {
                    base[at(p, b)] = W::zero();
                    self.graph.set(v, list[b], W::zero());
                }
            }
            if !already {
                for &o in &remainder[i + 1..] {
                    let w = self.exchange_weight(base[at(p, o)], i, pairs);
                    self.graph.set(v, list[o], w);
                }
            }
        }

        // S1 is now settled: only its players may lead a pair.
        for (i, &p) in remainder.iter().enumerate() {
            for &o in &remainder[i + 1..] {
                if !self.pairs_inside(list[p], resident_hi)
                    || self.pairs_inside(list[o], resident_hi)
                {
                    base[at(p, o)] = W::zero();
                }
                self.graph.set(list[p], list[o], base[at(p, o)]);
            }
        }

        // Each S1 player in turn gets the highest-ranked opponent possible.
        for &p in &remainder {
            let v = list[p];
            if !self.pairs_inside(v, resident_hi) {
                continue;
            }
            let mut addend = 0u64;
            for &o in remainder.iter().rev() {
                if o <= p || self.chosen[list[o]] {
                    continue;
                }
                let w = base[at(p, o)];
                if !w.is_zero() {
                    self.graph
                        .set(v, list[o], w.wrapping_add(W::from_u64(addend)));
                }
                addend += 1;
            }
            self.solve();
            let partner = self.stable[v].ok_or(PairError::NoPairing)?;
            self.chosen[v] = true;
            self.chosen[partner] = true;
            self.fix(v, partner);
        }
        Ok(())
    }
}
