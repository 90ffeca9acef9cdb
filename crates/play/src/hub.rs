//! The hub: every live game by id. It creates games, finds (or loads) the task of a game, and
//! brings back the games that were live when the server stopped.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;
use vizier_arbiter::{CommandError, Game, Millis, Setup, SetupError};
use vizier_rules::Color;

use crate::ids::{GameId, random_token};
use crate::round::{Expiry, GameHandle, Round, SiteEvent};
pub use crate::settings::Settings;
use vizier_store::record::{GameRecord, Kind, RecordError, Seat, StoredSetup};
use vizier_store::{Store, StoreError};

/// What a new game should be.
#[derive(Clone, Debug)]
pub struct NewGame {
    pub kind: Kind,
    pub setup: Setup,
    /// The creator's colour.
    pub color: Color,
    /// The computer's level (computer games).
    pub level: u8,
    /// The opponent's seat when already known (a rematch; the computer at its pace).
    pub opponent: Option<Seat>,
    /// Whether it changes its players' ratings: a clocked game between two accounts.
    pub rated: bool,
}

impl NewGame {
    /// A game of `kind` on `setup`, unrated, its creator White, its opponent not known yet
    /// (in a computer game, the computer at level 1).
    pub fn new(kind: Kind, setup: Setup) -> NewGame {
        NewGame {
            kind,
            setup,
            color: Color::White,
            level: 1,
            opponent: None,
            rated: false,
        }
    }
}

/// The setup of a game between two people online: the clocks start with each side's first
/// move (as on every play site), and a side that does not move within 30 s aborts the game.
pub fn online_setup(
    control: vizier_arbiter::TimeControl,
    chess960: bool,
    takebacks: bool,
) -> Setup {
    // Correspondence: each side has its days for every move, the first included.
    let timed = !matches!(
        control,
        vizier_arbiter::TimeControl::Unlimited | vizier_arbiter::TimeControl::Correspondence { .. }
    );
    Setup {
        start: if chess960 {
            vizier_arbiter::StartPosition::chess960_random()
        } else {
            vizier_arbiter::StartPosition::Standard
        },
        control,
        clock_start: if timed {
            vizier_arbiter::ClockStart::AfterFirstMoves {
                first_move_timeout_ms: 30_000,
            }
        } else {
            vizier_arbiter::ClockStart::Fide
        },
        options: vizier_arbiter::Options {
            takebacks,
            ..vizier_arbiter::Options::online()
        },
        ..Setup::default()
    }
}

/// All live games, by id.
pub struct Hub {
    games: Mutex<HashMap<GameId, GameHandle>>,
    pub store: Store,
    pub settings: Settings,
    /// Where players reach the server (`https://chess.example`), for PGN's `Site`.
    site: std::sync::OnceLock<String>,
    /// What every new game must pass.
    pub policy: crate::policy::Policy,
    /// The computer players' searches and tables, over all games.
    pub(crate) engines: crate::round::Engines,
    /// Dead-position proofs, over all games.
    pub(crate) prover: crate::prover::Prover,
    /// Games' starts and ends, for whoever follows the whole site.
    site_events: tokio::sync::broadcast::Sender<SiteEvent>,
}

/// Why a game could not be opened or created.
#[derive(Debug)]
pub enum HubError {
    /// No game has this id.
    NotFound,
    /// The database failed.
    Store(StoreError),
    /// The arbiter refuses the setup.
    Setup(SetupError),
    /// A stored game does not read.
    Corrupt { game: GameId, source: RecordError },
    /// The player already has this many unfinished games.
    TooManyGames(i64),
    /// The address started as many new games this hour as it may.
    TooManyNewGames(u32),
    /// The player or their address holds as many computer games as they may.
    TooManyComputerGames(usize),
    /// Only an account may play rated games.
    RatedNeedsAccount,
    /// This game cannot be rated (the message says why).
    NotRateable(&'static str),
    /// The server does not take this time control for a new game.
    BadControl(crate::policy::ControlRefused),
    /// No computer plays at this level.
    BadLevel(crate::policy::BadLevel),
    /// A stored game's commands do not replay.
    Replay {
        game: GameId,
        index: usize,
        source: CommandError,
    },
}

impl fmt::Display for HubError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HubError::NotFound => write!(f, "no such game"),
            HubError::Store(e) => write!(f, "{e}"),
            HubError::Setup(e) => write!(f, "{e}"),
            HubError::RatedNeedsAccount => write!(f, "sign in to play rated games"),
            HubError::NotRateable(why) => f.write_str(why),
            HubError::BadControl(why) => write!(f, "{why}"),
            HubError::BadLevel(why) => write!(f, "{why}"),
            HubError::TooManyGames(n) => write!(
                f,
                "you have {n} unfinished games: finish or resign one before starting another"
            ),
            HubError::TooManyNewGames(n) => write!(
                f,
                "{n} new games an hour from one address at most: wait a while"
            ),
            HubError::TooManyComputerGames(n) => write!(
                f,
                "{n} games against the computer at once at most: finish or resign one first"
            ),
            HubError::Corrupt { game, source } => write!(f, "game {game}: {source}"),
            HubError::Replay {
                game,
                index,
                source,
            } => write!(f, "game {game}: command {index} does not replay: {source}"),
        }
    }
}

impl std::error::Error for HubError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            HubError::NotFound
            | HubError::TooManyGames(_)
            | HubError::TooManyNewGames(_)
            | HubError::TooManyComputerGames(_)
            | HubError::RatedNeedsAccount
            | HubError::NotRateable(_)
            | HubError::BadControl(_)
            | HubError::BadLevel(_) => None,
            HubError::Store(e) => Some(e),
            HubError::Setup(e) => Some(e),
            HubError::Corrupt { source, .. } => Some(source),
            HubError::Replay { source, .. } => Some(source),
        }
    }
}

impl HubError {
    /// Whether the game policy refused the game (a limit, not a fault).
    pub fn is_limit(&self) -> bool {
        matches!(
            self,
            HubError::TooManyGames(_)
                | HubError::TooManyNewGames(_)
                | HubError::TooManyComputerGames(_)
        )
    }
}

impl From<crate::policy::Refused> for HubError {
    fn from(r: crate::policy::Refused) -> HubError {
        use crate::policy::Refused;
        match r {
            Refused::TooManyGames(n) => HubError::TooManyGames(n),
            Refused::TooManyNewGames(n) => HubError::TooManyNewGames(n),
            Refused::TooManyComputerGames(n) => HubError::TooManyComputerGames(n),
            Refused::Store(e) => HubError::Store(e),
        }
    }
}

impl From<StoreError> for HubError {
    fn from(e: StoreError) -> HubError {
        HubError::Store(e)
    }
}

impl Hub {
    /// A hub over `store`.
    pub fn new(store: Store, settings: Settings) -> Arc<Hub> {
        let limits = &settings.limits;
        let engines = crate::round::Engines::new(limits.max_searches, limits.engine_tables_mib);
        let prover = crate::prover::Prover::new(limits.proof_queue, limits.proof_time);
        Arc::new(Hub {
            games: Mutex::new(HashMap::new()),
            store,
            settings,
            site: std::sync::OnceLock::new(),
            policy: crate::policy::Policy::default(),
            engines,
            prover,
            site_events: tokio::sync::broadcast::Sender::new(crate::round::SITE_EVENTS_KEPT),
        })
    }

    /// Follows the whole site: every game's start and end from now on. A subscriber that
    /// falls more than [`crate::round::SITE_EVENTS_KEPT`] events behind is told it lagged.
    pub fn watch_site(&self) -> tokio::sync::broadcast::Receiver<SiteEvent> {
        self.site_events.subscribe()
    }

    /// Unix time in ms, by the server's clock.
    pub fn now(&self) -> vizier_arbiter::Millis {
        self.settings.clock.now()
    }

    /// Tells the site's subscribers, if any, of a game's start or end.
    pub(crate) fn tell_site(&self, event: SiteEvent) {
        let _ = self.site_events.send(event);
    }

    /// Names where players reach the server (its origin, `https://chess.example`); set once.
    pub fn set_site(&self, origin: &str) {
        let _ = self.site.set(origin.trim_end_matches('/').to_string());
    }

    /// Where players reach the server, when it is known.
    pub fn site(&self) -> Option<String> {
        self.site.get().cloned()
    }

    /// Brings back the games with a clock that were live when the server stopped, so that
    /// clocks keep running and flags fall. Returns how many. A game without a clock waits in
    /// the database until someone opens it (then the computer, if it is to move, plays on):
    /// such games can be many, and need nothing while nobody looks.
    pub async fn restore(self: &Arc<Hub>) -> Result<usize, HubError> {
        let games = self.store.live_games().await?;
        let mut n = 0;
        for (id, setup) in games {
            let id = GameId::stored(id);
            if StoredSetup::is_unclocked(&setup) {
                continue;
            }
            match self.game(&id).await {
                Ok(_) => n += 1,
                Err(e) => tracing::error!(game = %id, "cannot restore: {e}"),
            }
        }
        Ok(n)
    }

    /// Calls off the games nobody has played for too long: friend games whose invite nobody
    /// took within [`crate::Limits::invite_expiry`], and games without a clock in which nothing
    /// happened for [`crate::Limits::unclocked_expiry`]. Each game's task checks again before it acts,
    /// so a move that comes meanwhile keeps the game. Returns how many were called off.
    pub async fn expire_idle(self: &Arc<Hub>) -> Result<usize, HubError> {
        let now = self.now();
        let limits = &self.settings.limits;
        let cutoff = |d: std::time::Duration| now.saturating_sub(d.as_millis() as Millis);
        let expiry = Expiry {
            invites_before: cutoff(limits.invite_expiry),
            unclocked_before: cutoff(limits.unclocked_expiry),
        };
        let newest = expiry.invites_before.max(expiry.unclocked_before);
        let mut n = 0;
        for idle in self.store.idle_games(newest as i64).await? {
            let due = match (idle.started, StoredSetup::is_unclocked(&idle.setup)) {
                (false, _) => idle.last < expiry.invites_before as i64,
                (true, true) => idle.last < expiry.unclocked_before as i64,
                (true, false) => false,
            };
            if !due {
                continue;
            }
            match self.game(&GameId::stored(idle.id.clone())).await {
                Ok(handle) => {
                    if handle.expire(expiry).await {
                        tracing::info!(game = %idle.id, "called off: nobody played it for too long");
                        n += 1;
                    }
                }
                Err(e) => tracing::error!(game = %idle.id, "cannot expire: {e}"),
            }
        }
        Ok(n)
    }

    /// Runs [`Hub::expire_idle`] every so often (a tenth of the shorter expiry, between a
    /// second and ten minutes), until the task is aborted.
    pub async fn expire_forever(self: Arc<Hub>) {
        let limits = &self.settings.limits;
        let every = (limits.invite_expiry.min(limits.unclocked_expiry) / 10).clamp(
            std::time::Duration::from_secs(1),
            std::time::Duration::from_secs(600),
        );
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            if let Err(e) = self.expire_idle().await {
                tracing::warn!("expiring idle games: {e}");
            }
        }
    }

    /// Admits a game for `parties` by the [game policy](crate::policy::Policy::admit).
    pub async fn admit(
        &self,
        parties: &[crate::policy::Party],
        computer: bool,
    ) -> Result<(), HubError> {
        let context = (&self.store, &self.settings.limits);
        Ok(self.policy.admit(context, parties, computer).await?)
    }

    /// Creates and stores a game for `parties`, the creator first (their player id) and the
    /// opponent when a person already known, once the [policy](crate::policy) admits it.
    pub async fn create(
        self: &Arc<Hub>,
        parties: &[crate::policy::Party],
        new: NewGame,
    ) -> Result<GameId, HubError> {
        let now = self.now();
        let creator = &(parties.first())
            .expect("a game is made for its creator")
            .player;
        let me = Seat::Player(creator.clone());
        let computer =
            matches!(new.opponent, Some(Seat::Computer { .. })) || new.kind == Kind::Computer;
        // What every request for a game must be, whichever path it came by.
        crate::policy::check_control(&new.setup.control).map_err(HubError::BadControl)?;
        if let Some(Seat::Computer { level, .. }) = &new.opponent {
            crate::policy::check_level(*level).map_err(HubError::BadLevel)?;
        } else if new.kind == Kind::Computer {
            crate::policy::check_level(new.level).map_err(HubError::BadLevel)?;
        }
        self.admit(parties, computer).await?;
        let other = match (&new.opponent, new.kind) {
            (Some(seat), _) => seat.clone(),
            (None, Kind::Computer) => Seat::Computer {
                level: new.level,
                quick: false,
            },
            (None, Kind::Friend) => Seat::Open,
            (None, Kind::Local) => me.clone(),
        };
        if new.rated {
            if new.kind != Kind::Friend {
                return Err(HubError::NotRateable(
                    "only games between two people are rated",
                ));
            }
            if vizier_rating::Class::of_control(&new.setup.control).is_none() {
                return Err(HubError::NotRateable("a rated game needs a clock"));
            }
            if new.setup.options.takebacks {
                return Err(HubError::NotRateable("rated games have no takebacks"));
            }
            if !self.store.is_user(creator.as_str()).await? {
                return Err(HubError::RatedNeedsAccount);
            }
        }
        let waiting = other == Seat::Open;
        let (white, black) = new.color.fold((me.clone(), other.clone()), (other, me));
        // Refuse a setup the arbiter refuses before anything is stored.
        let game = Game::new(new.setup.clone(), now).map_err(HubError::Setup)?;
        let record = GameRecord {
            id: GameId::random(),
            kind: new.kind,
            created_at: now,
            started_at: (!waiting).then_some(now),
            setup: new.setup,
            seats: [white, black],
            invite: waiting.then(|| random_token(16)),
            seed: rand::random(),
            rated: new.rated,
        };
        self.store.insert_game(&record.to_row()).await?;
        if !waiting {
            self.store_start_ending(&record.id, &game).await?;
        }
        if computer && let Some(address) = parties.first().and_then(|p| p.address.as_deref()) {
            self.policy.started_computer_game(address, &record.id);
        }
        tracing::info!(game = %record.id, kind = new.kind.as_str(), control = %record.setup.control.to_pgn(), "new game");
        if !waiting {
            self.tell_site(SiteEvent::Started {
                game: record.id.clone(),
                seats: record.seats.clone(),
            });
        }
        // A game with a clock to watch (its first-move countdown) runs its task from now, so
        // that the countdown ends it even when nobody ever opens it.
        if !waiting && game.outcome().is_none() && game.deadline().is_some() {
            self.start_task(record.id.clone());
        }
        Ok(record.id)
    }

    /// Stores the ending of a game whose start position decided it (mate, stalemate, a dead
    /// position): it is over before anyone moves.
    pub(crate) async fn store_start_ending(
        &self,
        id: &GameId,
        game: &Game,
    ) -> Result<(), StoreError> {
        let Some(outcome) = game.outcome() else {
            return Ok(());
        };
        let ending = vizier_store::Ending {
            result: outcome.result.pgn(),
            reason: outcome.reason.code(),
            at: outcome.at as i64,
            opening: None,
            rated: None,
        };
        self.store
            .append_ending(id.as_str(), &[], Some(ending))
            .await
    }

    /// Loads game `id` in the background, so that its task (and its clock's timer) runs with
    /// nobody there. Spawned rather than awaited: a game's task may make games in turn (a
    /// rematch), a circle the compiler cannot prove `Send` through.
    fn start_task(self: &Arc<Hub>, id: GameId) {
        let hub = self.clone();
        tokio::spawn(async move {
            if let Err(e) = hub.game(&id).await {
                tracing::warn!(game = %id, "a new game's task did not start: {e}");
            }
        });
    }

    /// The live game `id`, loading it from the store if needed.
    pub async fn game(self: &Arc<Hub>, id: &GameId) -> Result<GameHandle, HubError> {
        if let Some(h) = self.games.lock().expect("hub lock").get(id)
            && !h.is_closed()
        {
            return Ok(h.clone());
        }
        let (row, commands) = self
            .store
            .load(id.as_str())
            .await?
            .ok_or(HubError::NotFound)?;
        let round = Round::restore(row, commands, self.clone())?;
        let mut games = self.games.lock().expect("hub lock");
        // Another connection may have loaded it meanwhile: use theirs.
        if let Some(h) = games.get(id)
            && !h.is_closed()
        {
            return Ok(h.clone());
        }
        let (tx, rx) = mpsc::channel(256);
        let handle = GameHandle::new(tx.clone());
        games.insert(id.clone(), handle.clone());
        metrics::gauge!(crate::metrics::GAMES_LIVE).set(games.len() as f64);
        tokio::spawn(Box::new(round).run(rx, tx.downgrade()));
        Ok(handle)
    }

    /// Joins game `id`'s audience through `handle` as `player` (from `address`): the
    /// connection, and the handle it holds. A task with nobody watching ends when idle, and
    /// may end between the look-up and the join; the game is then loaded again. None when
    /// the game takes no more spectators or can no longer be loaded.
    pub async fn join(
        self: &Arc<Hub>,
        id: &GameId,
        mut handle: GameHandle,
        player: Option<crate::ids::PlayerId>,
        address: Option<String>,
    ) -> Option<(GameHandle, crate::round::Connected)> {
        for _ in 0..3 {
            if let Some(connected) = handle.connect(player.clone(), address.clone()).await {
                return Some((handle, connected));
            }
            if !handle.is_closed() {
                return None;
            }
            handle = self.game(id).await.ok()?;
        }
        None
    }

    /// `player`'s request to game `id` without a connection (an API call, a tournament's
    /// script), and its answer. A game nobody watches ends its task when idle, possibly just
    /// after it was looked up: it is then loaded again, as [`Hub::join`] does. None when the
    /// game cannot be loaded.
    pub async fn act_as(
        self: &Arc<Hub>,
        id: &GameId,
        player: crate::ids::PlayerId,
        act: crate::Act,
    ) -> Option<crate::round::Answered> {
        for _ in 0..3 {
            let handle = self.game(id).await.ok()?;
            if let Some(answered) = handle.act_as(player.clone(), act.clone()).await {
                return Some(answered);
            }
            if !handle.is_closed() {
                return None;
            }
        }
        None
    }

    /// `player`'s Glicko-2 rating in `control`'s speed class now, and whether it is still
    /// provisional: 1500, provisional, without a class or a stored rating (a guest's).
    pub async fn rating_in(
        &self,
        player: &crate::ids::PlayerId,
        control: &vizier_arbiter::TimeControl,
    ) -> (i32, bool) {
        let Some(class) = vizier_rating::Class::of_control(control) else {
            return (1500, true);
        };
        match self.store.perf(player.as_str(), class).await {
            Ok(perf) => {
                let g = perf.glicko_at(self.now() as i64);
                (g.rating.round() as i32, g.provisional())
            }
            Err(_) => (1500, true),
        }
    }

    /// The game `id` if its task is running; never loads it.
    pub fn live(&self, id: &GameId) -> Option<GameHandle> {
        let games = self.games.lock().expect("hub lock");
        games.get(id).filter(|h| !h.is_closed()).cloned()
    }

    /// Forgets a game whose task has ended.
    pub(crate) fn forget(&self, id: &GameId) {
        let mut games = self.games.lock().expect("hub lock");
        if games.get(id).is_some_and(GameHandle::is_closed) {
            games.remove(id);
        }
        metrics::gauge!(crate::metrics::GAMES_LIVE).set(games.len() as f64);
    }

    /// Number of games with a task now.
    pub fn live_count(&self) -> usize {
        self.games.lock().expect("hub lock").len()
    }
}
