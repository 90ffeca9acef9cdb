//! The budgets that throttle what one key — an address, an account, a session — may do:
//! sign-ups, sign-ins, new games, exports of games going on, password checks, imports; and
//! the memory of failed sign-ins. Behind one seam, [`Throttles`], that a bus or PostgreSQL can
//! back for several nodes; [`LocalThrottles`] keeps them in this process's memory.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::bucket::Buckets;
use crate::pending::{Pending, ready};

/// A budget that throttles what one key (an address, an account) may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Budget {
    /// New accounts, by address.
    SignUp,
    /// Sign-in attempts (and password checks), by address.
    SignInByAddress,
    /// Sign-in attempts (and password checks), by account name in lower case.
    SignInByAccount,
    /// New games, by address.
    NewGame,
    /// Exports of games going on, by address.
    LiveExport,
    /// Checks of a signed-in account's password (changing it, closing the account), by
    /// session.
    PasswordCheck,
    /// PGNs read into the analysis board, by address.
    Import,
}

impl Budget {
    const ALL: [Budget; 7] = [
        Budget::Import,
        Budget::SignUp,
        Budget::SignInByAddress,
        Budget::SignInByAccount,
        Budget::NewGame,
        Budget::LiveExport,
        Budget::PasswordCheck,
    ];
}

/// How fast each budget refills (a second) and how much it can save up.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rate {
    /// Tokens a second; 0: no limit.
    pub per_second: f64,
    pub burst: f64,
}

impl Rate {
    /// `n` an hour, saving up `burst` at most (`None`: all `n`).
    pub fn per_hour(n: u32, burst: Option<f64>) -> Rate {
        let n = f64::from(n);
        Rate {
            per_second: n / 3_600.0,
            burst: burst.unwrap_or(n).min(n),
        }
    }
}

/// The budgets, shared by the nodes. Each method is one atomic step.
pub trait Throttles: Send + Sync {
    /// Takes one token of `key`'s `budget`: false when it is spent.
    fn take<'a>(&'a self, budget: Budget, key: &'a str) -> Pending<'a, bool>;
    /// Notes a failed sign-in from `address`.
    fn note_failure<'a>(&'a self, address: &'a str) -> Pending<'a, ()>;
    /// Whether a sign-in from `address` failed lately.
    fn failed_recently<'a>(&'a self, address: &'a str) -> Pending<'a, bool>;
}

/// The budgets in this process's memory: one node.
pub struct LocalThrottles {
    budgets: HashMap<Budget, Buckets<String>>,
    /// The last failed sign-in of each address, the least recent forgotten first.
    failures: Mutex<hashlink::LruCache<String, std::time::Instant>>,
}

/// How long a failed sign-in counts against its address.
const FAILURE_MEMORY: std::time::Duration = std::time::Duration::from_secs(3_600);

impl Default for LocalThrottles {
    /// Without limits on the budgets.
    fn default() -> LocalThrottles {
        LocalThrottles::with_budgets(|_| Rate::default())
    }
}

impl LocalThrottles {
    /// The budgets, each at `rate(budget)`.
    pub fn with_budgets(rate: impl Fn(Budget) -> Rate) -> LocalThrottles {
        let budgets = Budget::ALL
            .into_iter()
            .map(|b| {
                let r = rate(b);
                (b, Buckets::new(r.per_second, r.burst))
            })
            .collect();
        LocalThrottles {
            budgets,
            failures: Mutex::new(hashlink::LruCache::new(100_000)),
        }
    }
}

impl Throttles for LocalThrottles {
    fn take<'a>(&'a self, budget: Budget, key: &'a str) -> Pending<'a, bool> {
        ready(
            self.budgets
                .get(&budget)
                .is_none_or(|b| b.take(&key.to_string())),
        )
    }

    fn note_failure<'a>(&'a self, address: &'a str) -> Pending<'a, ()> {
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        failures.insert(address.to_string(), std::time::Instant::now());
        ready(())
    }

    fn failed_recently<'a>(&'a self, address: &'a str) -> Pending<'a, bool> {
        let failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let recent = failures
            .peek(address)
            .is_some_and(|at| at.elapsed() < FAILURE_MEMORY);
        ready(recent)
    }
}

/// The new-game budget the game policy spends, from the throttles nodes share.
pub struct NewGames(pub Arc<dyn Throttles>);

impl vizier_play::policy::NewGameBudget for NewGames {
    fn take<'a>(&'a self, address: &'a str) -> Pending<'a, bool> {
        self.0.take(Budget::NewGame, address)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn budgets_are_kept_per_kind_and_key() {
        let shared = LocalThrottles::with_budgets(|b| match b {
            Budget::SignUp => Rate {
                per_second: 0.001,
                burst: 2.0,
            },
            _ => Rate::default(),
        });
        assert!(shared.take(Budget::SignUp, "10.0.0.1").await);
        assert!(shared.take(Budget::SignUp, "10.0.0.1").await);
        assert!(!shared.take(Budget::SignUp, "10.0.0.1").await, "spent");
        assert!(shared.take(Budget::SignUp, "10.0.0.2").await, "another key");
        for _ in 0..100 {
            assert!(
                shared.take(Budget::NewGame, "10.0.0.1").await,
                "no limit set"
            );
        }
    }
}
