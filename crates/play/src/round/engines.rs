//! The engine's memory and time, shared by every game's computer seat: a search waits for
//! one of [`Limits::max_searches`](crate::Limits::max_searches) places before its player (and
//! its table) is made; between moves a seat keeps its table only while the tables kept by all
//! games stay within [`Limits::engine_tables_mib`](crate::Limits::engine_tables_mib), and only
//! for [`TABLE_IDLE`] after its last move.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;
use vizier_engine::Player;
use vizier_rules::Color;

/// How long a computer seat keeps its table after its last move: it is made again (empty)
/// for the next search, so an idle game holds no memory of the engine's.
pub const TABLE_IDLE: Duration = Duration::from_secs(30);

/// The table of a computer seat, in MiB: the top level searches by the clock and keeps the
/// engine's usual table; the others search at most 100,000 nodes a move, which a small one holds.
fn hash_mb(level: u8) -> usize {
    if level >= vizier_engine::level::MAX {
        16
    } else {
        4
    }
}

/// What the engine's searches share across games: their places, the searches running and
/// the MiB of tables in being (kept or searching).
#[derive(Clone)]
pub struct Engines {
    places: Arc<Semaphore>,
    running: Arc<AtomicUsize>,
    tables_mib: Arc<AtomicUsize>,
    /// Kept tables beyond this many MiB are let go after their move.
    budget_mib: usize,
}

impl Engines {
    pub fn new(places: usize, budget_mib: usize) -> Engines {
        Engines {
            places: Arc::new(Semaphore::new(places.max(1))),
            running: Arc::default(),
            tables_mib: Arc::default(),
            budget_mib,
        }
    }

    /// The MiB of tables in being now.
    pub fn tables_mib(&self) -> usize {
        self.tables_mib.load(Ordering::Relaxed)
    }

    /// Searches running now (a stopped one ends soon after).
    pub fn running(&self) -> usize {
        self.running.load(Ordering::Relaxed)
    }

    /// Waits for a place to search in; none once the engines are closed.
    pub(super) async fn place(&self) -> Option<Running> {
        let permit = self.places.clone().acquire_owned().await.ok()?;
        self.running.fetch_add(1, Ordering::Relaxed);
        metrics::gauge!(crate::metrics::SEARCHES).increment(1);
        Some(Running {
            _permit: permit,
            running: Arc::clone(&self.running),
        })
    }

    /// A player for `level` with its table, counted while it lives.
    pub(super) fn seat(&self, level: u8, seed: u64, move_cap_ms: u64) -> Box<Seated> {
        let mib = hash_mb(level);
        let player = Player::new(level, seed)
            .with_hash(mib)
            .with_move_cap(move_cap_ms);
        self.tables_mib.fetch_add(mib, Ordering::Relaxed);
        Box::new(Seated {
            player,
            mib,
            tables_mib: Arc::clone(&self.tables_mib),
        })
    }

    /// Whether a table may be kept after its move.
    pub(super) fn may_keep(&self) -> bool {
        self.tables_mib() <= self.budget_mib
    }
}

/// A search's place, held while it runs.
pub(super) struct Running {
    _permit: OwnedSemaphorePermit,
    running: Arc<AtomicUsize>,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.running.fetch_sub(1, Ordering::Relaxed);
        metrics::gauge!(crate::metrics::SEARCHES).decrement(1);
    }
}

/// A seat's player with its table, counted while it lives.
pub(super) struct Seated {
    pub player: Player,
    mib: usize,
    tables_mib: Arc<AtomicUsize>,
}

impl Drop for Seated {
    fn drop(&mut self) {
        self.tables_mib.fetch_sub(self.mib, Ordering::Relaxed);
    }
}

/// The players a game's computer seats keep between their moves, as a UCI engine keeps its
/// table through a game (the levels were measured that way), while the budget allows.
#[derive(Default)]
pub(super) struct Kept {
    players: [Option<Box<Seated>>; 2],
    /// When the last search was answered, while a table is kept.
    idle_since: Option<Instant>,
}

impl Kept {
    /// The player kept for `color`'s seat, taken out for its next search.
    pub fn take(&mut self, color: Color) -> Option<Box<Seated>> {
        self.idle_since = None;
        self.players[color.index()].take()
    }

    /// Keeps `color`'s player after its move, if it came back.
    pub fn keep(&mut self, color: Color, seated: Option<Box<Seated>>) {
        self.players[color.index()] = seated;
        self.idle_since = Some(Instant::now());
    }

    /// When the kept tables are to be let go: [`TABLE_IDLE`] after the last move.
    pub fn release_at(&self) -> Option<Instant> {
        let kept = self.players.iter().any(Option::is_some);
        kept.then_some(self.idle_since)
            .flatten()
            .map(|at| at + TABLE_IDLE)
    }

    /// Lets the kept tables go.
    pub fn release(&mut self) {
        self.players = [None, None];
        self.idle_since = None;
    }

    /// Whether a table is kept now.
    #[cfg(test)]
    pub fn any(&self) -> bool {
        self.players.iter().any(Option::is_some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn tables_are_counted_while_they_live_and_idle_ones_go() {
        let engines = Engines::new(1, 8);
        let mut kept = Kept::default();
        let one = engines.seat(3, 1, 100);
        let two = engines.seat(vizier_engine::level::MAX, 1, 100);
        assert_eq!(engines.tables_mib(), 4 + 16);
        assert!(!engines.may_keep(), "20 MiB over a budget of 8");
        kept.keep(Color::White, Some(one));
        drop(two);
        assert!(engines.may_keep());
        let at = kept.release_at().expect("a table kept");
        assert!(at >= Instant::now() + TABLE_IDLE - Duration::from_secs(1));
        let back = kept.take(Color::White);
        assert!(back.is_some() && kept.release_at().is_none());
        kept.keep(Color::White, back);
        kept.release();
        assert!(!kept.any() && kept.release_at().is_none());
        assert_eq!(engines.tables_mib(), 0);
    }

    #[tokio::test]
    async fn searches_beyond_the_places_wait() {
        let engines = Engines::new(1, 8);
        let first = engines.place().await.unwrap();
        assert_eq!(engines.running(), 1);
        let waiting = tokio::time::timeout(Duration::from_millis(50), engines.place()).await;
        assert!(waiting.is_err(), "a second search got the only place");
        drop(first);
        assert_eq!(engines.running(), 0);
        assert!(engines.place().await.is_some());
    }
}
