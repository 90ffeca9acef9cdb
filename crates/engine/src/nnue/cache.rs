//! Accumulators kept between evaluations, so that most evaluations update rather than
//! recompute them.
//!
//! Each thread keeps, for each side and each of that side's views ([`View::slot`]: one per
//! king region and half of the board), the pieces of the last position evaluated with that
//! view and the accumulator for them. The next evaluation adds and subtracts only the rows
//! of the pieces that differ: in a search consecutive positions are close, and a king that
//! returns to a region finds the accumulator it left there.
//!
//! The same code is compiled three times — for the baseline, AVX2 and AVX-512 — and the
//! widest the processor has is chosen at run time.

use std::cell::RefCell;

use vizier_rules::{Bitboard, Color, Position, Role};

use super::layers::{Layers, Row};
use super::layout::{MAX_SLOTS, View, bucket, piece_index};
use crate::eval::Score;

/// More changed pieces than this, and recomputing is cheaper than updating.
const MAX_CHANGES: u32 = 24;

type Boards = [[Bitboard; 6]; 2];

/// The pieces that came and went between two positions, as White numbers their inputs
/// ([`piece_index`]): at most [`MAX_CHANGES`] in all.
struct Changes {
    added: [u16; MAX_CHANGES as usize],
    removed: [u16; MAX_CHANGES as usize],
    added_len: usize,
    removed_len: usize,
}

impl Changes {
    /// From `was` to `now`, or `None` where more than [`MAX_CHANGES`] pieces differ.
    #[inline(always)]
    fn between(was: &Boards, now: &Boards) -> Option<Changes> {
        let count: u32 = (0..12)
            .map(|i| (was[i / 6][i % 6] ^ now[i / 6][i % 6]).count())
            .sum();
        if count > MAX_CHANGES {
            return None;
        }
        let mut c = Changes {
            added: [0; MAX_CHANGES as usize],
            removed: [0; MAX_CHANGES as usize],
            added_len: 0,
            removed_len: 0,
        };
        for color in Color::ALL {
            for role in Role::ALL {
                let (was, is) = (
                    was[color.index()][role.index()],
                    now[color.index()][role.index()],
                );
                for sq in was & !is {
                    c.removed[c.removed_len] = piece_index(color, role, sq) as u16;
                    c.removed_len += 1;
                }
                for sq in is & !was {
                    c.added[c.added_len] = piece_index(color, role, sq) as u16;
                    c.added_len += 1;
                }
            }
        }
        Some(c)
    }

    /// Brings `slot`, an accumulator of `view`, from the position the changes start at to
    /// the one they end at.
    #[inline(always)]
    fn apply<const H: usize>(&self, layers: &Layers<H>, view: View, slot: &mut Slot<H>) {
        layers.update(
            &mut slot.acc,
            view,
            &self.added[..self.added_len],
            &self.removed[..self.removed_len],
        );
    }
}

/// One view's last position and accumulator.
#[derive(Clone, Copy)]
struct Slot<const H: usize> {
    /// The network the accumulator was computed with (0: none).
    owner: u64,
    boards: Boards,
    acc: Row<H>,
}

/// A thread's accumulators for networks of `H` hidden values: by side, then slot.
pub struct Cache<const H: usize> {
    slots: [[Slot<H>; MAX_SLOTS]; 2],
}

impl<const H: usize> Cache<H> {
    /// A cache that has seen no position (no network has id 0).
    pub const fn new() -> Cache<H> {
        let empty = Slot {
            owner: 0,
            boards: [[Bitboard(0); 6]; 2],
            acc: Row([0; H]),
        };
        Cache {
            slots: [[empty; MAX_SLOTS]; 2],
        }
    }
}

thread_local! {
    pub static SMALL: RefCell<Cache<128>> = const { RefCell::new(Cache::new()) };
    pub static LARGE: RefCell<Cache<256>> = const { RefCell::new(Cache::new()) };
}

/// Which code the processor runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Simd {
    Baseline,
    Avx2,
    Avx512,
}

impl Simd {
    /// The widest this processor has (found once).
    pub fn detect() -> Simd {
        static FOUND: std::sync::OnceLock<Simd> = std::sync::OnceLock::new();
        *FOUND.get_or_init(Simd::probe)
    }

    fn probe() -> Simd {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f")
                && std::arch::is_x86_feature_detected!("avx512bw")
            {
                return Simd::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                return Simd::Avx2;
            }
        }
        Simd::Baseline
    }

    /// The widest this processor has, or a narrower one named by the environment variable
    /// `VIZIER_SIMD` (`baseline`, `avx2`, `avx512`), to measure (found once).
    pub fn best() -> Simd {
        static BEST: std::sync::OnceLock<Simd> = std::sync::OnceLock::new();
        *BEST.get_or_init(|| {
            let found = Simd::detect();
            let asked = std::env::var("VIZIER_SIMD")
                .ok()
                .and_then(|s| Simd::named(&s));
            asked.filter(|&a| a <= found).unwrap_or(found)
        })
    }

    /// The set called `name` (`baseline`, `avx2`, `avx512`).
    pub fn named(name: &str) -> Option<Simd> {
        [Simd::Baseline, Simd::Avx2, Simd::Avx512]
            .into_iter()
            .find(|s| s.name() == name)
    }

    /// The set's name.
    pub fn name(self) -> &'static str {
        match self {
            Simd::Baseline => "baseline",
            Simd::Avx2 => "avx2",
            Simd::Avx512 => "avx512",
        }
    }
}

impl<const H: usize> Layers<H> {
    /// The side to move's score at `scale` centipawns a unit, `cache` brought to `pos`;
    /// `id` tells this network's accumulators from another's. With the code for `simd`.
    ///
    /// # Safety
    ///
    /// The processor has `simd` (it is at most [`Simd::detect`]).
    pub unsafe fn evaluate(
        &self,
        simd: Simd,
        cache: &mut Cache<H>,
        id: u64,
        pos: &Position,
        scale: i32,
    ) -> Score {
        match simd {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the caller vouches for AVX-512 F and BW.
            Simd::Avx512 => unsafe { self.evaluate_avx512(cache, id, pos, scale) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the caller vouches for AVX2.
            Simd::Avx2 => unsafe { self.evaluate_avx2(cache, id, pos, scale) },
            _ => self.evaluate_cached(cache, id, pos, scale),
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn evaluate_avx2(&self, cache: &mut Cache<H>, id: u64, pos: &Position, scale: i32) -> Score {
        self.evaluate_cached(cache, id, pos, scale)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn evaluate_avx512(&self, cache: &mut Cache<H>, id: u64, pos: &Position, scale: i32) -> Score {
        self.evaluate_cached(cache, id, pos, scale)
    }

    #[inline(always)]
    fn evaluate_cached(&self, cache: &mut Cache<H>, id: u64, pos: &Position, scale: i32) -> Score {
        let mut now: Boards = [[Bitboard(0); 6]; 2];
        for color in Color::ALL {
            for role in Role::ALL {
                now[color.index()][role.index()] = pos.pieces(color, role);
            }
        }
        let views = Color::ALL.map(|side| self.layout.view(side, pos.king(side)));
        let [white, black] = &mut cache.slots;
        let white = &mut white[views[0].slot];
        let black = &mut black[views[1].slot];
        // Both sides' accumulators usually last saw the same position (always with the
        // plain layout): the changes are then found once for both.
        if white.owner == id && black.owner == id && white.boards == black.boards {
            if white.boards != now {
                match Changes::between(&white.boards, &now) {
                    Some(changes) => {
                        changes.apply(self, views[0], white);
                        changes.apply(self, views[1], black);
                    }
                    None => {
                        self.refresh(pos, Color::White, views[0], &mut white.acc);
                        self.refresh(pos, Color::Black, views[1], &mut black.acc);
                    }
                }
            }
        } else {
            for (side, slot) in [(Color::White, &mut *white), (Color::Black, &mut *black)] {
                let view = views[side.index()];
                let changes = (slot.owner == id)
                    .then(|| Changes::between(&slot.boards, &now))
                    .flatten();
                match changes {
                    Some(changes) => changes.apply(self, view, slot),
                    None => self.refresh(pos, side, view, &mut slot.acc),
                }
                slot.owner = id;
            }
        }
        white.boards = now;
        black.boards = now;
        let slots = views.map(|v| v.slot);
        let turn = pos.turn();
        let us = &cache.slots[turn.index()][slots[turn.index()]].acc;
        let them = &cache.slots[(!turn).index()][slots[(!turn).index()]].acc;
        self.output(us, them, bucket(pos.occupied().count()), scale)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::Arch;
    use crate::nnue::tests::{random_walk, test_networks};

    /// Evaluates the walk's positions with a cache of its own per instruction set and
    /// compares each score with one from accumulators computed from scratch.
    fn check<const H: usize>(layers: &Layers<H>, sets: &[Simd]) {
        let mut caches: Vec<Cache<H>> = sets.iter().map(|_| Cache::new()).collect();
        random_walk(13, 2_000, |pos| {
            let fresh = {
                let mut accs = [Row([0; H]); 2];
                for side in Color::ALL {
                    let view = layers.layout.view(side, pos.king(side));
                    layers.refresh(pos, side, view, &mut accs[side.index()]);
                }
                let turn = pos.turn();
                let b = bucket(pos.occupied().count());
                layers.output(&accs[turn.index()], &accs[(!turn).index()], b, 100)
            };
            for (&simd, cache) in sets.iter().zip(&mut caches) {
                // SAFETY: only sets `Simd::detect` found are tried.
                let updated = unsafe { layers.evaluate(simd, cache, 1, pos, 100) };
                assert_eq!(updated, fresh, "{simd:?} {}", pos.fen());
            }
        });
    }

    #[test]
    fn every_instruction_set_updates_as_a_refresh_computes() {
        let best = Simd::detect();
        let mut sets = vec![Simd::Baseline];
        if best != Simd::Baseline {
            sets.push(Simd::Avx2);
        }
        if best == Simd::Avx512 {
            sets.push(Simd::Avx512);
        } else {
            eprintln!("no AVX-512 here: not compared");
        }
        for net in test_networks() {
            match &net.arch {
                Arch::Plain(layers) => check(layers, &sets),
                Arch::KingBuckets(layers) => check(layers, &sets),
            }
        }
    }
}
