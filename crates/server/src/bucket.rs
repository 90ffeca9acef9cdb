//! Token buckets by key: a budget that refills at a steady rate and can be saved up to a
//! burst. The messages of a player's sockets draw on one, and so do the budgets of
//! [`crate::shared::Local`] (sign-ups, sign-ins, new games).

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::Instant;

#[derive(Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// One bucket per key, each `burst` tokens deep and refilled at `rate` a second.
pub(crate) struct Buckets<K> {
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<K, Bucket>>,
}

impl<K: Hash + Eq + Clone> Buckets<K> {
    /// Keys tracked before the idle ones (their buckets full again) are forgotten.
    const TRACKED: usize = 10_000;

    /// Buckets refilled at `rate` tokens a second, holding `burst` at most; a rate of zero
    /// never runs out.
    pub fn new(rate: f64, burst: f64) -> Buckets<K> {
        Buckets {
            rate,
            burst: burst.max(1.0),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    fn refill(&self, b: &mut Bucket, now: Instant) {
        b.tokens = (b.tokens + now.duration_since(b.at).as_secs_f64() * self.rate).min(self.burst);
        b.at = now;
    }

    /// Takes one token of `key`'s bucket, if it has one.
    pub fn take(&self, key: &K) -> bool {
        if self.rate <= 0.0 {
            return true;
        }
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= Self::TRACKED && !buckets.contains_key(key) {
            buckets.retain(|_, b| {
                self.refill(b, now);
                b.tokens < self.burst
            });
        }
        if !buckets.contains_key(key) {
            let full = Bucket {
                tokens: self.burst,
                at: now,
            };
            buckets.insert(key.clone(), full);
        }
        let b = buckets.get_mut(key).expect("just made");
        self.refill(b, now);
        if b.tokens >= 1.0 {
            b.tokens -= 1.0;
            true
        } else {
            false
        }
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
}
