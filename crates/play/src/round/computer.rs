//! The computer's seat: when it is the computer's move, the engine's [`Player`] thinks on a
//! blocking thread and its move comes back to the actor as a request, so the game's task never
//! waits for a search.
//!
//! The engine's memory is bounded whatever the number of games: a search waits for one of
//! [`Limits::max_searches`](crate::Limits::max_searches) places before its player (and its
//! table) is made; between moves a seat keeps its table only while the tables kept by all
//! games stay within [`Limits::engine_tables_mib`](crate::Limits::engine_tables_mib), and only
//! for [`TABLE_IDLE`] after its last move.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{Semaphore, mpsc};
use vizier_arbiter::Game;
use vizier_engine::{Player, Stopper, TimeLeft};
use vizier_rules::UciCastling;

use super::Request;
use crate::settings::Settings;
use vizier_store::record::Seat;

/// The table of a computer seat, in MiB: the top level searches by the clock and keeps the
/// engine's usual table; the others search at most 100,000 nodes a move, which a small one holds.
fn hash_mb(level: u8) -> usize {
    if level >= vizier_engine::level::MAX {
        16
    } else {
        4
    }
}

/// The longest a quick computer seat thinks over a move: casual play at a person's pace.
pub const QUICK_MOVE_MS: u64 = 3_000;

/// How long a computer seat keeps its table after its last move: it is made again (empty)
/// for the next search, so an idle game holds no memory of the engine's.
pub const TABLE_IDLE: Duration = Duration::from_secs(30);

/// What the engine's searches share across games: their places, and the MiB of tables in
/// being (kept or searching).
#[derive(Clone)]
pub struct Engines {
    places: Arc<Semaphore>,
    tables_mib: Arc<AtomicUsize>,
    /// Kept tables beyond this many MiB are let go after their move.
    budget_mib: usize,
}

impl Engines {
    pub fn new(places: usize, budget_mib: usize) -> Engines {
        Engines {
            places: Arc::new(Semaphore::new(places.max(1))),
            tables_mib: Arc::default(),
            budget_mib,
        }
    }

    /// The MiB of tables in being now.
    pub fn tables_mib(&self) -> usize {
        self.tables_mib.load(Ordering::Relaxed)
    }
}

/// A seat's player with its table, counted while it lives.
pub(crate) struct Seated {
    player: Player,
    mib: usize,
    tables_mib: Arc<AtomicUsize>,
}

impl Seated {
    fn new(player: Player, mib: usize, tables_mib: &Arc<AtomicUsize>) -> Seated {
        tables_mib.fetch_add(mib, Ordering::Relaxed);
        Seated {
            player,
            mib,
            tables_mib: Arc::clone(tables_mib),
        }
    }
}

impl Drop for Seated {
    fn drop(&mut self) {
        self.tables_mib.fetch_sub(self.mib, Ordering::Relaxed);
    }
}

impl std::fmt::Debug for Seated {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Seated({} MiB)", self.mib)
    }
}

/// The search under way, for stopping it: cancelled before it starts, it never does.
#[derive(Default)]
struct Searching {
    cancelled: bool,
    stopper: Option<Stopper>,
}

/// The computer players of one game.
#[derive(Default)]
pub(super) struct Computer {
    /// The search the actor is waiting for, by number.
    thinking: Option<u64>,
    last: u64,
    /// Each computer seat's player, kept from move to move as a UCI engine keeps its table
    /// through a game (the levels were measured that way), while the budget allows. A
    /// searching seat's is with its search.
    players: [Option<Box<Seated>>; 2],
    /// The search awaited.
    searching: Arc<Mutex<Searching>>,
    /// Searches running now (a stopped one ends soon after).
    running: Arc<AtomicUsize>,
    /// When the last search was answered, while a table is kept.
    idle_since: Option<tokio::time::Instant>,
}

impl Computer {
    /// Starts a search when it is a computer seat's move and none runs yet.
    pub fn maybe_think(
        &mut self,
        game: &Game,
        seats: &[Seat; 2],
        seed: u64,
        (settings, engines): (&Settings, &Engines),
        me: &mpsc::WeakSender<Box<Request>>,
    ) {
        if game.outcome().is_some() || self.thinking.is_some() {
            return;
        }
        let turn = game.position().turn();
        let Seat::Computer { level, quick } = seats[turn.index()] else {
            return;
        };
        self.last += 1;
        let token = self.last;
        self.thinking = Some(token);
        self.idle_since = None;
        let clock = game.clock();
        let time = clock
            .remaining(turn, settings.clock.now())
            .map(|time| TimeLeft {
                time,
                inc: clock.current_period(turn).map_or(0, |p| p.increment_ms),
                movestogo: clock.moves_to_go(turn).map(|m| u64::from(m.max(1))),
            });
        let history = game.history().clone();
        let castling = UciCastling::for_chess960(game.is_chess960());
        let cap = if quick {
            settings.computer_move_ms.min(QUICK_MOVE_MS)
        } else {
            settings.computer_move_ms
        };
        let kept = self.players[turn.index()].take();
        let searching = Arc::new(Mutex::new(Searching::default()));
        self.searching = Arc::clone(&searching);
        let me = me.clone();
        let human_pace = settings.human_pace;
        let running = self.running.clone();
        let engines = engines.clone();
        tokio::spawn(async move {
            let started = tokio::time::Instant::now();
            // Beyond the cap, a search waits its turn: its game shows the computer thinking.
            let Ok(permit) = engines.places.clone().acquire_owned().await else {
                return;
            };
            running.fetch_add(1, Ordering::Relaxed);
            metrics::gauge!(crate::metrics::SEARCHES).increment(1);
            let searched = tokio::task::spawn_blocking(move || {
                let _permit = permit;
                let seated = kept.unwrap_or_else(|| {
                    let mib = hash_mb(level);
                    let player = Player::new(level, seed).with_hash(mib).with_move_cap(cap);
                    Box::new(Seated::new(player, mib, &engines.tables_mib))
                });
                let go = {
                    let mut s = searching.lock().unwrap_or_else(|e| e.into_inner());
                    s.stopper = Some(seated.player.stopper());
                    !s.cancelled
                };
                let pos = history.position();
                let choice = go
                    .then(|| seated.player.choose(&history, time))
                    .flatten()
                    .map(|m| pos.uci(m, castling));
                running.fetch_sub(1, Ordering::Relaxed);
                metrics::gauge!(crate::metrics::SEARCHES).decrement(1);
                let keep = engines.tables_mib() <= engines.budget_mib;
                (choice, keep.then_some(seated))
            })
            .await;
            if human_pace {
                // A person needs a moment even for an obvious move; so does the computer here.
                let pace = time.map_or(700, |c| (c.time / 80).clamp(300, 1_500));
                tokio::time::sleep_until(started + Duration::from_millis(pace)).await;
            }
            if let (Ok((Some(uci), seated)), Some(tx)) = (searched, me.upgrade()) {
                let request = Request::ComputerMove { token, uci, seated };
                let _ = tx.send(Box::new(request)).await;
            }
        });
    }

    /// Whether a search is awaited.
    pub fn is_thinking(&self) -> bool {
        self.thinking.is_some()
    }

    /// Whether search `token` is the one awaited; if so, it is no longer awaited, and the
    /// seat of `color` keeps the player it searched with, if it came back.
    pub fn answered(
        &mut self,
        token: u64,
        color: vizier_rules::Color,
        seated: Option<Box<Seated>>,
    ) -> bool {
        if self.thinking != Some(token) {
            return false;
        }
        self.thinking = None;
        self.players[color.index()] = seated;
        self.idle_since = Some(tokio::time::Instant::now());
        true
    }

    /// When the seats' tables are to be let go, if they are kept and idle.
    pub fn release_at(&self) -> Option<tokio::time::Instant> {
        let kept = self.players.iter().any(Option::is_some);
        (kept && self.thinking.is_none())
            .then_some(self.idle_since)
            .flatten()
            .map(|at| at + TABLE_IDLE)
    }

    /// Lets the idle seats' tables go.
    pub fn release(&mut self) {
        if self.thinking.is_none() {
            self.players = [None, None];
            self.idle_since = None;
        }
    }

    /// Whether a seat keeps a table now.
    #[cfg(test)]
    pub fn keeps_tables(&self) -> bool {
        self.players.iter().any(Option::is_some)
    }

    /// The running search is stale (a takeback): stop it, and let the next one start afresh
    /// rather than share a table with it.
    pub fn forget(&mut self) {
        if self.thinking.take().is_some() {
            self.stop();
            self.players = [None, None];
        }
    }

    /// Searches running now.
    #[cfg(test)]
    pub fn running(&self) -> usize {
        self.running.load(Ordering::Relaxed)
    }

    /// Stops any running search, or keeps a waiting one from starting.
    pub fn stop(&self) {
        let mut s = self.searching.lock().unwrap_or_else(|e| e.into_inner());
        s.cancelled = true;
        if let Some(stopper) = &s.stopper {
            stopper.stop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vizier_arbiter::{ClockStart, Setup, TimeControl};

    /// White the computer at `level`, Black a person; the computer at once, not at a
    /// person's pace.
    fn against_the_computer(level: u8, quick: bool) -> ([Seat; 2], Settings) {
        let seats = [Seat::Computer { level, quick }, Seat::Player("p".into())];
        let settings = Settings {
            human_pace: false,
            ..Settings::default()
        };
        (seats, settings)
    }

    /// A game on a day's clock, whose top level would think for minutes over a move.
    fn day_long_game() -> Game {
        let setup = Setup {
            control: TimeControl::sudden_death(86_400_000, 0),
            clock_start: ClockStart::Fide,
            ..Setup::default()
        };
        Game::new(setup, crate::time::now_ms()).unwrap()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_quick_seat_moves_within_seconds_whatever_the_clock() {
        let game = day_long_game();
        let (seats, settings) = against_the_computer(10, true);
        let (tx, mut rx) = mpsc::channel(4);
        let mut computer = Computer::default();
        computer.maybe_think(
            &game,
            &seats,
            1,
            (&settings, &Engines::new(2, 256)),
            &tx.downgrade(),
        );
        let answer =
            tokio::time::timeout(Duration::from_millis(QUICK_MOVE_MS + 2_000), rx.recv()).await;
        assert!(
            matches!(answer, Ok(Some(r)) if matches!(*r, Request::ComputerMove { .. })),
            "no move within {} ms",
            QUICK_MOVE_MS + 2_000
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_search_stops_when_it_is_no_longer_wanted() {
        let game = day_long_game();
        let (seats, settings) = against_the_computer(10, false);
        let (tx, _rx) = mpsc::channel(4);
        let mut computer = Computer::default();
        computer.maybe_think(
            &game,
            &seats,
            1,
            (&settings, &Engines::new(2, 256)),
            &tx.downgrade(),
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(computer.running(), 1, "a day's clock: still thinking");
        computer.forget();
        for _ in 0..100 {
            if computer.running() == 0 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the search went on after it was stopped");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn searches_beyond_the_cap_wait_and_idle_tables_go() {
        let game = day_long_game();
        let (seats, mut settings) = against_the_computer(10, true);
        settings.computer_move_ms = 300;
        // Three games' computers, one place to search.
        let one = Engines::new(1, 256);
        let (tx, mut rx) = mpsc::channel(8);
        let mut computers: Vec<Computer> = (0..3).map(|_| Computer::default()).collect();
        for c in &mut computers {
            c.maybe_think(&game, &seats, 1, (&settings, &one), &tx.downgrade());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        let running: usize = computers.iter().map(Computer::running).sum();
        assert_eq!(running, 1, "one search at a time");
        assert!(
            computers.iter().all(Computer::is_thinking),
            "the others wait, thinking"
        );
        // All three answer in turn.
        let mut answered = 0;
        while answered < 3 {
            let r = tokio::time::timeout(Duration::from_secs(5), rx.recv()).await;
            let Ok(Some(r)) = r else { panic!("a move") };
            let Request::ComputerMove { token, seated, .. } = *r else {
                continue;
            };
            let white = vizier_rules::Color::White;
            let c = computers.iter_mut().find(|c| c.thinking == Some(token));
            assert!(c.expect("its game").answered(token, white, seated));
            answered += 1;
        }
        // Each keeps its table while the game goes on, until it has been idle a while.
        let c = &mut computers[0];
        assert!(c.keeps_tables());
        let at = c.release_at().expect("a table kept");
        assert!(at > tokio::time::Instant::now() + TABLE_IDLE - Duration::from_secs(5));
        c.release();
        assert!(!c.keeps_tables() && c.release_at().is_none());
        assert_eq!(one.tables_mib(), 2 * 16, "the two tables still kept");
        drop(computers);
        assert_eq!(one.tables_mib(), 0);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn tables_past_the_budget_go_after_their_move() {
        let game = day_long_game();
        let (seats, settings) = against_the_computer(3, true);
        // Room for one 4 MiB table.
        let engines = Engines::new(2, 4);
        let (tx, mut rx) = mpsc::channel(8);
        let mut computers: Vec<Computer> = (0..2).map(|_| Computer::default()).collect();
        let mut kept = 0;
        for c in &mut computers {
            c.maybe_think(&game, &seats, 1, (&settings, &engines), &tx.downgrade());
            let r = tokio::time::timeout(Duration::from_secs(5), rx.recv()).await;
            let Ok(Some(r)) = r else { panic!("a move") };
            let Request::ComputerMove { token, seated, .. } = *r else {
                panic!("a move")
            };
            kept += usize::from(seated.is_some());
            assert!(c.answered(token, vizier_rules::Color::White, seated));
        }
        assert_eq!(kept, 1);
        assert_eq!(engines.tables_mib(), 4);
    }
}
