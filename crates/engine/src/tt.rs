//! The transposition table: shared by all search threads without locks (each entry stores its
//! key XOR its data, so a torn write reads as a miss), with aging by search generation.

use std::sync::atomic::{AtomicU64, Ordering};
use vizier_rules::Move;

use crate::eval::Score;

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The exact score.
    Exact,
    /// At least this score (a beta cut-off).
    Lower,
    /// At most this score (no move raised alpha).
    Upper,
}

impl Bound {
    /// What a search result `best` bounds, given the window it was searched with.
    ///
    /// ```
    /// use vizier_engine::tt::Bound;
    /// assert_eq!(Bound::of(50, 0, 40), Bound::Lower);
    /// assert_eq!(Bound::of(20, 0, 40), Bound::Exact);
    /// assert_eq!(Bound::of(-5, 0, 40), Bound::Upper);
    /// ```
    pub fn of(best: Score, alpha: Score, beta: Score) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// One probe's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best move found, if any.
    pub mv: Option<Move>,
    /// The score (mate scores relative to this node; see [`to_tt`] / [`from_tt`]).
    pub score: Score,
    /// The static evaluation.
    pub eval: Score,
    /// The remaining depth searched.
    pub depth: i32,
    /// What the score bounds.
    pub bound: Bound,
}

impl Entry {
    /// The stored score (adjusted to `ply`) if it settles a search of window (`alpha`,
    /// `beta`) on its own.
    ///
    /// ```
    /// use vizier_engine::tt::{Bound, Entry};
    /// let e = Entry { mv: None, score: 80, eval: 0, depth: 3, bound: Bound::Lower };
    /// assert_eq!(e.cutoff(0, 0, 50), Some(80));
    /// assert_eq!(e.cutoff(0, 0, 100), None);
    /// ```
    pub fn cutoff(&self, ply: i32, alpha: Score, beta: Score) -> Option<Score> {
        let s = from_tt(self.score, ply);
        let settles = match self.bound {
            Bound::Exact => true,
            Bound::Lower => s >= beta,
            Bound::Upper => s <= alpha,
        };
        settles.then_some(s)
    }
}

struct Slot {
    key: AtomicU64,
    data: AtomicU64,
}

/// Entries per bucket: a position may stand in any slot of its bucket.
const WAYS: usize = 4;

/// One cache line of slots.
#[repr(align(64))]
struct Bucket([Slot; WAYS]);

/// A lock-free hash table of search results.
pub struct Table {
    buckets: Vec<Bucket>,
    generation: AtomicU64,
}

fn pack(e: &Entry, generation: u8) -> u64 {
    let mv = e.mv.map_or(0, |m| m.raw()) as u64;
    let bound = match e.bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    mv | ((e.score as i16 as u16 as u64) << 16)
        | ((e.eval as i16 as u16 as u64) << 32)
        | ((e.depth.clamp(0, 255) as u64) << 48)
        | (bound << 56)
        | ((generation as u64 & 0x3f) << 58)
}

fn unpack(d: u64) -> (Entry, u8) {
    let bound = match (d >> 56) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        _ => Bound::Upper,
    };
    (
        Entry {
            mv: Move::from_raw(d as u16),
            score: (d >> 16) as u16 as i16 as Score,
            eval: (d >> 32) as u16 as i16 as Score,
            depth: ((d >> 48) & 0xff) as i32,
            bound,
        },
        ((d >> 58) & 0x3f) as u8,
    )
}

impl Table {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Table {
        let n = (mb * 1024 * 1024 / std::mem::size_of::<Bucket>()).max(1);
        Table {
            buckets: (0..n)
                .map(|_| {
                    Bucket(std::array::from_fn(|_| Slot {
                        key: AtomicU64::new(0),
                        data: AtomicU64::new(0),
                    }))
                })
                .collect(),
            generation: AtomicU64::new(0),
        }
    }

    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto the table without a division.
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Starts loading `key`'s bucket into the cache, so that a probe soon after finds it there
    /// (a hint; it does nothing where the processor has no prefetch instruction).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: SSE is part of every x86-64 processor, and a prefetch never faults.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks a position up.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key).0.iter().find_map(|slot| {
            let data = slot.data.load(Ordering::Relaxed);
            (data != 0 && slot.key.load(Ordering::Relaxed) ^ data == key).then(|| unpack(data).0)
        })
    }

    /// Stores a result. The position's own entry is updated unless it holds a deeper result of
    /// this search; otherwise the bucket's least valuable entry gives way (an empty one first,
    /// then the shallowest, older searches' entries counting as eight plies shallower per
    /// search).
    pub fn store(&self, key: u64, entry: Entry) {
        let generation = (self.generation.load(Ordering::Relaxed) & 0x3f) as u8;
        let bucket = self.bucket(key);
        let mut victim = &bucket.0[0];
        let mut least = i32::MAX;
        for slot in &bucket.0 {
            let old = slot.data.load(Ordering::Relaxed);
            if old == 0 {
                if least > i32::MIN {
                    (victim, least) = (slot, i32::MIN);
                }
                continue;
            }
            let (prev, age) = unpack(old);
            if slot.key.load(Ordering::Relaxed) ^ old == key {
                if age == generation && prev.depth > entry.depth + 2 && entry.bound != Bound::Exact
                {
                    return;
                }
                let mv = entry.mv.or(prev.mv);
                write(slot, key, &Entry { mv, ..entry }, generation);
                return;
            }
            let value = prev.depth - 8 * (generation.wrapping_sub(age) & 0x3f) as i32;
            if value < least {
                (victim, least) = (slot, value);
            }
        }
        write(victim, key, &entry, generation);
    }

    /// Starts a new search: older entries become preferred for replacement.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// Empties the table.
    pub fn clear(&self) {
        for s in self.buckets.iter().flat_map(|b| &b.0) {
            s.key.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
    }

    /// Per mille of a sample of entries used by the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = (self.generation.load(Ordering::Relaxed) & 0x3f) as u8;
        let sample = self.buckets.len().min(1000 / WAYS);
        let used = self.buckets[..sample]
            .iter()
            .flat_map(|b| &b.0)
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && unpack(d).1 == generation
            })
            .count();
        (used * 1000 / (sample * WAYS).max(1)) as u32
    }
}

fn write(slot: &Slot, key: u64, entry: &Entry, generation: u8) {
    let data = pack(entry, generation);
    slot.key.store(key ^ data, Ordering::Relaxed);
    slot.data.store(data, Ordering::Relaxed);
}

/// Mate scores are stored relative to the node, not the root.
pub fn to_tt(score: Score, ply: i32) -> Score {
    if score >= crate::score::MATE_BOUND {
        score + ply
    } else if score <= -crate::score::MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// The inverse of [`to_tt`].
pub fn from_tt(score: Score, ply: i32) -> Score {
    if score >= crate::score::MATE_BOUND {
        score - ply
    } else if score <= -crate::score::MATE_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vizier_rules::Square;

    #[test]
    fn round_trip() {
        let t = Table::new(1);
        let e = Entry {
            mv: Some(Move::normal(Square::E2, Square::E4)),
            score: -31_000,
            eval: 25,
            depth: 12,
            bound: Bound::Lower,
        };
        t.store(0xdead_beef, e);
        assert_eq!(t.probe(0xdead_beef), Some(e));
        assert_eq!(t.probe(0xdead_beee), None);
    }

    #[test]
    fn a_full_bucket_gives_up_its_shallowest_entry() {
        let t = Table::new(1);
        let at = |depth| Entry {
            mv: None,
            score: 0,
            eval: 0,
            depth,
            bound: Bound::Exact,
        };
        // Small keys share the first bucket.
        for (key, depth) in [(1, 9), (2, 3), (3, 7), (4, 5)] {
            t.store(key, at(depth));
        }
        for key in 1..=4 {
            assert!(t.probe(key).is_some(), "key {key}");
        }
        t.store(5, at(1));
        assert_eq!(t.probe(2), None);
        assert_eq!(t.probe(5), Some(at(1)));
        // After a new search, the old entries give way before deeper ones of this search.
        t.new_search();
        t.store(6, at(2));
        assert_eq!(t.probe(5), None, "the shallowest old entry goes first");
        t.store(7, at(2));
        assert_eq!(t.probe(4), None);
        assert_eq!(t.probe(1).map(|e| e.depth), Some(9));
    }
}
