//! Token buckets by key: a budget that refills at a steady rate and can be saved up to a
//! burst. The messages of a player's sockets draw on one, and so do the budgets of
//! [`crate::throttle::LocalThrottles`] (sign-ups, sign-ins, new games).

use std::hash::Hash;
use std::sync::Mutex;
use std::time::Instant;

use hashlink::LruCache;

#[derive(Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// One bucket per key, each `burst` tokens deep and refilled at `rate` a second. At most
/// [`Buckets::TRACKED`] keys are kept, the least recently used forgotten first: however many
/// keys a client makes up, memory stays bounded and each take costs the same.
pub(crate) struct Buckets<K: Hash + Eq> {
    rate: f64,
    burst: f64,
    buckets: Mutex<LruCache<K, Bucket>>,
}

impl<K: Hash + Eq + Clone> Buckets<K> {
    /// Keys tracked before the least recently used is forgotten (its bucket full again).
    pub const TRACKED: usize = 100_000;

    /// Buckets refilled at `rate` tokens a second, holding `burst` at most; a rate of zero
    /// never runs out.
    pub fn new(rate: f64, burst: f64) -> Buckets<K> {
        Buckets::tracking(rate, burst, Self::TRACKED)
    }

    fn tracking(rate: f64, burst: f64, keys: usize) -> Buckets<K> {
        Buckets {
            rate,
            burst: burst.max(1.0),
            buckets: Mutex::new(LruCache::new(keys.max(1))),
        }
    }

    /// Takes one token of `key`'s bucket, if it has one.
    pub fn take(&self, key: &K) -> bool {
        if self.rate <= 0.0 {
            return true;
        }
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let b = match buckets.get_mut(key) {
            Some(b) => b,
            None => {
                let full = Bucket {
                    tokens: self.burst,
                    at: now,
                };
                buckets.insert(key.clone(), full);
                buckets.get_mut(key).expect("just made")
            }
        };
        b.tokens = (b.tokens + now.duration_since(b.at).as_secs_f64() * self.rate).min(self.burst);
        b.at = now;
        if b.tokens >= 1.0 {
            b.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// How many keys are tracked.
    /// Whether `key` could take a token now, without taking it.
    pub fn peek(&self, key: &K) -> bool {
        if self.rate <= 0.0 {
            return true;
        }
        let buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        buckets.peek(key).is_none_or(|b| {
            b.tokens + Instant::now().duration_since(b.at).as_secs_f64() * self.rate >= 1.0
        })
    }

    #[cfg(test)]
    fn tracked(&self) -> usize {
        self.buckets.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

/// The budgets of socket messages: each player's, over all their sockets, and each
/// address's, over all its players (cookieless sockets are a fresh player each).
pub(crate) struct Messages {
    players: Buckets<String>,
    addresses: Buckets<String>,
}

impl Messages {
    /// `per_player` and `per_address` messages a second, three seconds' worth at once.
    pub fn new(per_player: u32, per_address: u32) -> Messages {
        let (p, a) = (f64::from(per_player), f64::from(per_address));
        Messages {
            players: Buckets::new(p, 3.0 * p),
            addresses: Buckets::new(a, 3.0 * a),
        }
    }

    /// Takes one message from `player`'s budget and `address`'s (when known).
    pub fn take(&self, player: &str, address: Option<&str>) -> bool {
        let by_address = address.is_none_or(|a| self.addresses.take(&a.to_string()));
        by_address && self.players.take(&player.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_the_rate() {
        let b = Buckets::new(1_000.0, 3.0);
        assert!((0..3).all(|_| b.take(&"a")));
        assert!(!b.take(&"a"), "the burst is spent");
        assert!(b.take(&"b"), "another key has its own");
        std::thread::sleep(std::time::Duration::from_millis(5));
        assert!(b.take(&"a"), "refilled");
        let unlimited = Buckets::new(0.0, 0.0);
        assert!((0..1_000).all(|_| unlimited.take(&1)));
    }

    #[test]
    fn made_up_keys_are_bounded_and_each_take_costs_the_same() {
        let b = Buckets::tracking(1.0 / 3_600.0, 2.0, 1_000);
        assert!(b.take(&0) && b.take(&0) && !b.take(&0));
        // A flood of new keys: the oldest go, the table stays at its size.
        let started = Instant::now();
        for k in 1..200_000 {
            b.take(&k);
        }
        assert_eq!(b.tracked(), 1_000);
        assert!(
            started.elapsed().as_secs_f64() < 2.0,
            "{:?}",
            started.elapsed()
        );
        // Key 0 was forgotten, its bucket full again; a recent key is still spent.
        assert!(b.take(&0));
        let recent = 199_999;
        assert!(b.take(&recent) && !b.take(&recent));
    }
}
