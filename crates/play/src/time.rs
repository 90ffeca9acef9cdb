//! The time of day, as live play reads it: Unix time in milliseconds, from the system's clock
//! or, in tests, from a clock they move by hand — so that flags, expiry and the leaving
//! countdown are tested without sleeping.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use vizier_arbiter::Millis;

/// Unix time in ms, by the system's clock.
pub fn now_ms() -> Millis {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as Millis)
}

/// Where the time comes from: the system, or a hand that moves it.
///
/// ```
/// use vizier_play::time::Clock;
/// let clock = Clock::manual(1_000);
/// clock.advance(500);
/// assert_eq!(clock.now(), 1_500);
/// assert!(Clock::system().now() > 1_700_000_000_000);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Clock(Kind);

#[derive(Clone, Debug, Default)]
enum Kind {
    #[default]
    System,
    /// Stands at this time until moved.
    Manual(Arc<AtomicU64>),
    /// The system's time plus this many ms, moved on by the tests (`--test-clock`).
    Shifted(Arc<AtomicU64>),
}

impl Clock {
    /// The system's clock.
    pub fn system() -> Clock {
        Clock(Kind::System)
    }

    /// A clock standing at `at` until it is moved.
    pub fn manual(at: Millis) -> Clock {
        Clock(Kind::Manual(Arc::new(AtomicU64::new(at))))
    }

    /// The system's clock, which tests may move on (days pass in a correspondence test).
    pub fn shifted() -> Clock {
        Clock(Kind::Shifted(Arc::new(AtomicU64::new(0))))
    }

    /// Whether it can be moved on.
    pub fn is_movable(&self) -> bool {
        !matches!(self.0, Kind::System)
    }

    /// Unix time in ms.
    pub fn now(&self) -> Millis {
        match &self.0 {
            Kind::System => now_ms(),
            Kind::Manual(at) => at.load(Ordering::SeqCst),
            Kind::Shifted(by) => now_ms() + by.load(Ordering::SeqCst),
        }
    }

    /// Moves a manual or shifted clock on by `ms` (the system's cannot be moved).
    pub fn advance(&self, ms: Millis) {
        match &self.0 {
            Kind::System => {}
            Kind::Manual(at) | Kind::Shifted(at) => {
                at.fetch_add(ms, Ordering::SeqCst);
            }
        }
    }
}
