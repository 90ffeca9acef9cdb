//! The computer's seat: a subscriber to its game like any other. When an update leaves the
//! game at a computer seat's move, the seat takes the game from the actor (its history, for
//! repetitions), thinks on a blocking thread, and sends its move back tied to the version it
//! thought about: a newer version (a takeback, a resignation, a flag) stops the search, and
//! the actor takes no move about a version gone by. The game's task never waits for a search.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::broadcast;
use tokio::task::JoinHandle;
use vizier_arbiter::Game;
use vizier_engine::{Stopper, TimeLeft};
use vizier_rules::{Color, UciCastling};
use vizier_store::record::Seat;

use super::engines::{Engines, Kept, Seated};
use super::event::{Subscription, Update};
use super::snapshot::Snapshot;
use super::{GameHandle, Round};
use crate::refusal::Why;
use crate::settings::Settings;

/// The longest a quick computer seat thinks over a move: casual play at a person's pace.
pub const QUICK_MOVE_MS: u64 = 3_000;

/// How long the seat waits before it sends again a move the store could not commit.
const RETRY: Duration = Duration::from_secs(1);

/// The computer seats of one game, as one subscriber.
pub(super) struct ComputerSeat {
    game: crate::ids::GameId,
    seats: [Seat; 2],
    seed: u64,
    settings: Settings,
    engines: Engines,
    /// The game, for its moves. The game's task ends by its own rule (nobody watching, no
    /// clock, no computer to move), which this handle does not hold back.
    game_handle: GameHandle,
    kept: Kept,
}

/// A search under way, for stopping it: cancelled before it starts, it never does.
#[derive(Default)]
struct Searching {
    cancelled: bool,
    stopper: Option<Stopper>,
}

impl Searching {
    fn stop(this: &Mutex<Searching>) {
        let mut s = this.lock().unwrap_or_else(|e| e.into_inner());
        s.cancelled = true;
        if let Some(stopper) = &s.stopper {
            stopper.stop();
        }
    }
}

/// A search's move (none: stopped), and its player to keep, if the budget allows.
type Searched = (Option<String>, Option<Box<Seated>>);

type Updates = broadcast::Receiver<Arc<Update>>;

/// The game's next state past `version` (changes that leave the version, such as a player's
/// coming and going, are no news to the seat; after a lag, the next update read is as good);
/// none once the game's task has ended.
async fn newer(updates: &mut Updates, version: u64) -> Option<Arc<Snapshot>> {
    loop {
        match updates.recv().await {
            Ok(update) if update.version > version => return Some(Arc::clone(&update.round)),
            Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
            Err(broadcast::error::RecvError::Closed) => return None,
        }
    }
}

impl ComputerSeat {
    /// The seat of `round`'s computer players, if it has any and the game goes on.
    pub(super) fn of(round: &Round, game_handle: GameHandle) -> Option<Self> {
        let computer = (round.seats.iter()).any(|s| matches!(s, Seat::Computer { .. }));
        (computer && !round.over()).then(|| ComputerSeat {
            game: round.table.id.clone(),
            seats: round.seats.clone(),
            seed: round.seed,
            settings: round.hub.settings.clone(),
            engines: round.hub.engines.clone(),
            game_handle,
            kept: Kept::default(),
        })
    }

    /// Plays the game from `subscription` on, until it is over or its task has ended.
    pub(super) async fn play(mut self, subscription: Subscription) {
        let Subscription { round, mut updates } = subscription;
        let mut now = round;
        while let Some(next) = self.step(&now, &mut updates).await {
            now = next;
        }
    }

    /// The seat's part in the game as it stands (`now`): its move if it is to move; then the
    /// game's next state. None once the game is over or its task has ended.
    async fn step(&mut self, now: &Snapshot, updates: &mut Updates) -> Option<Arc<Snapshot>> {
        let Some(board) = &now.board else {
            return self.wait(now.version, updates).await;
        };
        if board.outcome.is_some() {
            return None;
        }
        let turn = board.position.turn();
        match self.seats[turn.index()] {
            Seat::Computer { level, quick } => self.think(turn, (level, quick), now, updates).await,
            _ => self.wait(now.version, updates).await,
        }
    }

    /// Waits for the game to move on from `version`, letting the kept tables go once idle.
    async fn wait(&mut self, version: u64, updates: &mut Updates) -> Option<Arc<Snapshot>> {
        loop {
            let release = self.kept.release_at();
            let at = release.unwrap_or_else(tokio::time::Instant::now);
            tokio::select! {
                next = newer(updates, version) => return next,
                () = tokio::time::sleep_until(at), if release.is_some() => self.kept.release(),
            }
        }
    }

    /// Thinks over the move of `turn`'s seat (at `level`, `quick` or not) in the game at
    /// `now`'s version, and sends it; stops if the game moves on meanwhile.
    async fn think(
        &mut self,
        turn: Color,
        (level, quick): (u8, bool),
        now: &Snapshot,
        updates: &mut Updates,
    ) -> Option<Arc<Snapshot>> {
        let (game, round) = self.game_handle.export().await?;
        if round.version != now.version {
            return Some(round);
        }
        let version = now.version;
        let searching = Arc::new(Mutex::new(Searching::default()));
        let search = self.search(&game, turn, (level, quick), Arc::clone(&searching));
        tokio::select! {
            searched = search => {
                let (choice, seated) = searched.ok().flatten().unwrap_or((None, None));
                self.kept.keep(turn, seated);
                if let Some(uci) = choice {
                    self.send(version, uci, updates).await
                } else {
                    newer(updates, version).await
                }
            }
            next = newer(updates, version) => {
                // Stale (a takeback) or unwanted (the game ended, or its task).
                Searching::stop(&searching);
                next
            }
        }
    }

    /// Starts the search for `turn`'s move in `game`, with the seat's kept player or a new one.
    fn search(
        &mut self,
        game: &Game,
        turn: Color,
        (level, quick): (u8, bool),
        searching: Arc<Mutex<Searching>>,
    ) -> JoinHandle<Option<Searched>> {
        let clock = game.clock();
        let time = clock
            .remaining(turn, self.settings.clock.now())
            .map(|time| TimeLeft {
                time,
                inc: clock.current_period(turn).map_or(0, |p| p.increment_ms),
                movestogo: clock.moves_to_go(turn).map(|m| u64::from(m.max(1))),
            });
        let history = game.history().clone();
        let castling = UciCastling::for_chess960(game.is_chess960());
        let cap = if quick {
            self.settings.computer_move_ms.min(QUICK_MOVE_MS)
        } else {
            self.settings.computer_move_ms
        };
        let kept = self.kept.take(turn);
        let engines = self.engines.clone();
        let (seed, human_pace) = (self.seed, self.settings.human_pace);
        tokio::spawn(async move {
            let started = tokio::time::Instant::now();
            // Beyond the places, a search waits its turn: its game shows the computer thinking.
            let place = engines.place().await?;
            let searched = tokio::task::spawn_blocking(move || {
                let _place = place;
                let seated = kept.unwrap_or_else(|| engines.seat(level, seed, cap));
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
                (choice, engines.may_keep().then_some(seated))
            })
            .await
            .ok();
            if human_pace {
                // A person needs a moment even for an obvious move; so does the computer here.
                let pace = time.map_or(700, |c| (c.time / 80).clamp(300, 1_500));
                tokio::time::sleep_until(started + Duration::from_millis(pace)).await;
            }
            searched
        })
    }

    /// Sends the move chosen at `version`, again while the store cannot commit it and the
    /// game stays there; then waits for the game to move on.
    async fn send(
        &self,
        version: u64,
        uci: String,
        updates: &mut Updates,
    ) -> Option<Arc<Snapshot>> {
        loop {
            match self.game_handle.computer_move(version, uci.clone()).await? {
                Err(refusal) if refusal.why == Why::Storage => tokio::select! {
                    () = tokio::time::sleep(RETRY) => continue,
                    next = newer(updates, version) => return next,
                },
                Err(refusal) => {
                    tracing::error!(game = %self.game, "computer move refused: {}", refusal.message);
                }
                Ok(_) => {}
            }
            return newer(updates, version).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::act::{Act, Action};
    use crate::hub::{Hub, NewGame};
    use crate::ids::PlayerId;
    use crate::policy::Party;
    use crate::round::{Answer, GameEvent, GameHandle};
    use vizier_arbiter::{ClockStart, Event, Setup, TimeControl};
    use vizier_store::Store;
    use vizier_store::record::Kind;

    /// A hub whose computer moves at once, not at a person's pace, with `places` searches.
    async fn hub(places: usize, move_ms: u64) -> Arc<Hub> {
        let dir = std::env::temp_dir().join(format!("vizier-seat-{}", rand::random::<u64>()));
        let mut settings = Settings {
            human_pace: false,
            computer_move_ms: move_ms,
            ..Settings::default()
        };
        settings.limits.max_searches = places;
        Hub::new(Store::sqlite(&dir).await.unwrap(), settings)
    }

    /// A game of `player` (with `color`) against the computer at `level`, quick or not, on
    /// a day's clock, whose top level would think for minutes over a move.
    async fn against_the_computer(
        hub: &Arc<Hub>,
        player: &str,
        color: Color,
        (level, quick): (u8, bool),
    ) -> GameHandle {
        let mut setup = Setup {
            control: TimeControl::sudden_death(86_400_000, 0),
            clock_start: ClockStart::Fide,
            ..Setup::default()
        };
        setup.options.takebacks = true;
        let new = NewGame {
            color,
            level,
            opponent: Some(Seat::Computer { level, quick }),
            ..NewGame::new(Kind::Computer, setup)
        };
        let id = hub
            .create(&[Party::new(&PlayerId::known(player), None)], new)
            .await
            .unwrap();
        hub.game(&id).await.unwrap()
    }

    /// Waits up to `ms` for the computer's move in `updates`: its UCI.
    async fn computer_moves(updates: &mut Updates, by: Color, ms: u64) -> String {
        let wait = Duration::from_millis(ms);
        tokio::time::timeout(wait, async {
            loop {
                let update = updates.recv().await.expect("the game goes on");
                for event in &update.events {
                    if let GameEvent::Arbiter(Event::Moved { by: b, uci, .. }) = event
                        && *b == by
                    {
                        return uci.clone();
                    }
                }
            }
        })
        .await
        .unwrap_or_else(|_| panic!("no move within {ms} ms"))
    }

    async fn until(what: &str, ok: impl Fn() -> bool) {
        for _ in 0..300 {
            if ok() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("{what}: not within 3 s");
    }

    async fn act(handle: &GameHandle, conn: u64, action: Action) -> Answer {
        let act = Act {
            side: None,
            key: None,
            action,
        };
        handle.act(conn, act).await.unwrap().await.unwrap().answer
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_quick_seat_moves_within_seconds_whatever_the_clock() {
        let hub = hub(2, Settings::COMPUTER_MOVE_MS).await;
        let game = against_the_computer(&hub, "p", Color::Black, (10, true)).await;
        let mut updates = game.subscribe().await.unwrap().updates;
        computer_moves(&mut updates, Color::White, QUICK_MOVE_MS + 2_000).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_takeback_stops_the_search_and_the_computer_answers_the_new_move() {
        let hub = hub(2, Settings::COMPUTER_MOVE_MS).await;
        let game = against_the_computer(&hub, "p", Color::White, (10, true)).await;
        let me = game
            .connect(Some(PlayerId::known("p")), None)
            .await
            .unwrap();
        let mut updates = me.subscription.updates;
        let mv = |uci: &str| Action::Move { uci: uci.into() };
        assert!(matches!(
            act(&game, me.conn, mv("e2e4")).await,
            Answer::Done
        ));
        until("the computer thinks", || hub.engines.running() == 1).await;
        let takeback = act(&game, me.conn, Action::Takeback).await;
        assert!(matches!(takeback, Answer::Done), "{takeback:?}");
        until("the search stops", || hub.engines.running() == 0).await;
        assert!(matches!(
            act(&game, me.conn, mv("d2d4")).await,
            Answer::Done
        ));
        computer_moves(&mut updates, Color::Black, QUICK_MOVE_MS + 2_000).await;
        let (played, _) = game.export().await.unwrap();
        let moves: Vec<&str> = played.plies().iter().map(|p| p.uci.as_str()).collect();
        assert_eq!((moves.len(), moves[0]), (2, "d2d4"), "{moves:?}");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_search_stops_when_the_game_ends() {
        let hub = hub(2, Settings::COMPUTER_MOVE_MS).await;
        let game = against_the_computer(&hub, "p", Color::Black, (10, false)).await;
        let me = game
            .connect(Some(PlayerId::known("p")), None)
            .await
            .unwrap();
        until("the computer thinks", || hub.engines.running() == 1).await;
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(hub.engines.running(), 1, "a day's clock: still thinking");
        let resigned = act(&game, me.conn, Action::Resign).await;
        assert!(matches!(resigned, Answer::Done), "{resigned:?}");
        until("the search stops", || hub.engines.running() == 0).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn searches_beyond_the_places_wait_their_turn() {
        let hub = hub(1, 300).await;
        let mut games = Vec::new();
        for player in ["a", "b", "c"] {
            let game = against_the_computer(&hub, player, Color::Black, (10, true)).await;
            let updates = game.subscribe().await.unwrap().updates;
            games.push((game, updates));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert_eq!(hub.engines.running(), 1, "one search at a time");
        for (_, updates) in &mut games {
            computer_moves(updates, Color::White, 5_000).await;
        }
        // Each keeps its table between moves: three 16 MiB tables, all within the budget.
        until("the tables are kept", || hub.engines.tables_mib() == 3 * 16).await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_computer_moves_in_a_game_nobody_watches_any_more() {
        let hub = hub(2, 300).await;
        let new = NewGame::new(Kind::Computer, Setup::default());
        let id = hub
            .create(&[Party::new(&PlayerId::known("p"), None)], new)
            .await
            .unwrap();
        let game = hub.game(&id).await.unwrap();
        let me = game
            .connect(Some(PlayerId::known("p")), None)
            .await
            .unwrap();
        let e4 = Action::Move { uci: "e2e4".into() };
        assert!(matches!(act(&game, me.conn, e4).await, Answer::Done));
        // Without a clock, the game's task stays only for the computer's move.
        game.disconnect(me.conn).await;
        drop(me);
        for _ in 0..500 {
            let (_, commands) = hub.store.load(id.as_str()).await.unwrap().unwrap();
            if commands.len() == 2 {
                until("the game's task ends", || hub.live(&id).is_none()).await;
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the computer's move was not stored");
    }
}
