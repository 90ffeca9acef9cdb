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
mod order;
mod player;
mod weights;

use core::fmt;

use crate::field::Field;
use crate::matching::HEADROOM_BITS;
use crate::wide::{Weight, WithWeight, with_bits};
use crate::{Colour, Points};

use order::Search;
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
    let boards = with_bits(bits, &ctx).ok_or(PairError::TooLarge)??;
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

impl WithWeight for &Context<'_> {
    type Output = Result<Vec<Board>, PairError>;
    fn run<W: Weight>(self) -> Self::Output {
        Round::<W>::new(self).pair()
    }
}

/// The weight of pairing vertices `hi < lo` (positions in `ctx.sorted`).
fn edge<W: Weight>(
    ctx: &Context<'_>,
    bye: &weights::Bye,
    hi: usize,
    lo: usize,
    kind: EdgeKind,
) -> W {
    let (ph, pl) = (ctx.sorted[hi], ctx.sorted[lo]);
    if !ctx.compatible(ph, pl) {
        return W::zero();
    }
    weights::edge_weight(ctx, bye, ph, pl, kind)
}

/// The matching state while one round is paired.
struct Round<'c, 'f, W> {
    ctx: &'c Context<'f>,
    /// Over every present player; vertices are positions in `ctx.sorted`.
    search: Search<W>,
    bye: weights::Bye,
}

impl<'c, 'f, W: Weight> Round<'c, 'f, W> {
    fn new(ctx: &'c Context<'f>) -> Self {
        let m = ctx.sorted.len();
        Round {
            ctx,
            search: Search::new(m),
            bye: weights::Bye::default(),
        }
    }

    fn player(&self, v: usize) -> usize {
        self.ctx.sorted[v]
    }

    fn score_of(&self, v: usize) -> Points {
        self.ctx.score(self.player(v))
    }

    fn edge(&self, hi: usize, lo: usize, kind: EdgeKind) -> W {
        edge(self.ctx, &self.bye, hi, lo, kind)
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
                self.search.graph.set(hi, lo, w);
            }
        }
        self.search.solve();
        let unmatched: Vec<usize> = (0..m)
            .filter(|&v| self.search.stable[v].is_none())
            .collect();
        let complete = unmatched.len() <= 1
            && unmatched
                .iter()
                .all(|&v| self.ctx.profiles[self.player(v)].bye_eligible);
        if !complete {
            return Err(PairError::NoPairing);
        }
        if let Some(&bye) = unmatched.first() {
            self.bye.score = self.score_of(bye);
            self.bye.lone_floater = self.bye.score >= top
                && (0..m)
                    .take_while(|&v| self.score_of(v) >= top)
                    .all(|v| self.search.stable[v].is_none_or(|u| self.score_of(u) >= top));
            let mut played: Vec<usize> = (0..m)
                .filter(|&v| self.score_of(v) == self.bye.score)
                .map(|v| self.ctx.profiles[self.player(v)].played_games)
                .collect();
            played.sort_unstable_by(|a, b| b.cmp(a));
            for (rank, games) in played.into_iter().enumerate() {
                self.bye.unplayed_ranks.insert(games, rank as u64);
            }
            for lo in 0..m {
                for hi in 0..lo {
                    let w = self.edge(hi, lo, EdgeKind::Elsewhere);
                    self.search.graph.set(hi, lo, w);
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
            let mover_scores: Vec<Points> =
                list[..movers].iter().map(|&v| self.score_of(v)).collect();
            let bracket = order::Bracket {
                vertices: &list,
                movers,
                len: bracket_len,
                residents: resident_lo..resident_hi,
                mover_scores: &mover_scores,
                size_bits: self.ctx.layout.size_bits,
            };
            let kind = |lo: usize| {
                if lo < bracket_len {
                    EdgeKind::Current
                } else {
                    EdgeKind::Next
                }
            };
            let (ctx, bye) = (self.ctx, &self.bye);
            bracket.settle(&mut self.search, |a, b| {
                edge(ctx, bye, list[a], list[b], kind(b))
            })?;

            // Carry the unpaired on; C9 holds in the next bracket only if the bye
            // player is the one who floats out of it.
            let next_score = (following < m).then(|| self.score_of(following));
            self.bye.lone_floater = odd && next_score.is_some_and(|s| self.bye.score >= s);
            let mut carried = Vec::new();
            movers = 0;
            for (pos, &v) in list.iter().enumerate() {
                if pos < bracket_len && self.search.fixed[v].is_some() {
                    continue;
                }
                carried.push(v);
                if pos < bracket_len {
                    movers += 1;
                }
                if let Some(s) = next_score {
                    let mate_score = self.score_of(self.search.stable[v].unwrap_or(v));
                    if mate_score < s {
                        self.bye.lone_floater = false;
                    }
                }
            }
            list = carried;
            resident_lo = resident_hi;
        }

        let mut boards = Vec::new();
        for v in 0..m {
            match self.search.fixed[v] {
                Some(u) if u > v => boards.push(board(self.ctx, self.player(v), self.player(u))),
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
}
