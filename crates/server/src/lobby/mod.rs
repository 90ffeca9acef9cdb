//! The lobby: who is here, the open seeks, the quick-pairing pools and the challenges. All of
//! it is shared live state that a second node needs to see: it lives behind the
//! [`state::LobbyState`] seam, which a message bus can back.
//!
//! A lobby client connects to `/api/lobby/socket`, gets `hello` (seeks, games now, players
//! online), then `seek-added` / `seek-removed` as they happen, and `paired` with a game id
//! when its seek is taken or its pool finds it an opponent.

pub mod challenge;
pub mod local;
pub mod model;
pub mod pool;
pub mod state;

use std::sync::Arc;

use serde_json::{Value, json};
use tokio::sync::broadcast;
use vizier_arbiter::TimeControl;
use vizier_play::ids::{GameId, PlayerId};
use vizier_rules::Color;

use local::LocalLobby;
pub use model::{LobbyError, Member, Seek, SeekRequest};
use state::{Event, GameNow, LobbyState, Personal};
use vizier_play::hub::{Hub, NewGame};
use vizier_play::policy::Party;
use vizier_rating::Class;
use vizier_store::record::{Kind, Seat};

/// The quick-pairing tiles (PGN time controls) and how the home page shows them.
pub const TILES: [(&str, &str); 11] = [
    ("60", "1+0"),
    ("120+1", "2+1"),
    ("180", "3+0"),
    ("180+2", "3+2"),
    ("300", "5+0"),
    ("300+3", "5+3"),
    ("600", "10+0"),
    ("600+5", "10+5"),
    ("900+10", "15+10"),
    ("1800", "30+0"),
    ("1800+20", "30+20"),
];

/// Most open seeks one player may have.
const SEEKS_PER_PLAYER: usize = 3;
/// How long a seek stays open (its seeker's lobby socket may close it sooner).
pub const SEEK_LIFE_MS: u64 = 30 * 60 * 1_000;
/// Most open seeks in all.
const MAX_SEEKS: usize = 2_000;

/// A lobby client's connection: where it starts, and what it will be told.
pub struct Joined {
    /// The whole lobby as it is now.
    pub hello: Arc<str>,
    /// Every lobby event from now on: [`Lobby::render`] says which are for this client.
    pub events: broadcast::Receiver<Event>,
}

/// The lobby: what a node does with the shared live state ([`LobbyState`]) — checks requests,
/// looks up ratings, creates games and renders events for its own sockets.
pub struct Lobby {
    shared: Arc<dyn LobbyState>,
    /// This process among the nodes that share the lobby.
    node: u64,
    hub: Arc<Hub>,
    /// Open seeks and pool places one address may hold (each); 0: no limit.
    seeks_per_address: usize,
}

/// "3+2" from "180+2".
pub fn tc_label(pgn: &str) -> String {
    let (base, inc) = pgn.split_once('+').unwrap_or((pgn, "0"));
    match base.parse::<u64>() {
        Ok(s) if s % 60 == 0 => format!("{}+{inc}", s / 60),
        Ok(s) => format!("{:.1}+{inc}", s as f64 / 60.0),
        Err(_) => pgn.to_string(),
    }
}

/// The colour asked for (`white`, `black`), or one drawn at random.
pub(crate) fn colour(asked: &str) -> Color {
    match asked {
        "white" => Color::White,
        "black" => Color::Black,
        _ if rand::random::<bool>() => Color::White,
        _ => Color::Black,
    }
}

fn message(v: Value) -> Arc<str> {
    let mut v = v;
    v["v"] = json!(crate::protocol::VERSION);
    v.to_string().into()
}

impl Lobby {
    /// A lobby on this process's own shared state.
    pub fn new(hub: Arc<Hub>) -> Arc<Lobby> {
        let limit = crate::Limits::DEFAULT.seeks_per_address;
        Lobby::on(hub, Arc::new(LocalLobby::default()), limit)
    }

    /// A lobby on `shared`, which other nodes may share too.
    pub fn on(hub: Arc<Hub>, shared: Arc<dyn LobbyState>, seeks_per_address: usize) -> Arc<Lobby> {
        Arc::new(Lobby {
            shared,
            node: rand::random(),
            hub,
            seeks_per_address,
        })
    }

    /// A client joins: the `hello` it starts from and the events from then on. A client
    /// not `present` (another page's, for challenges) keeps no seek or pool place open.
    pub async fn join(&self, member: &Member, present: bool) -> Joined {
        // Subscribed first: what changes while the hello is made is told again (the client
        // takes a seek it already has as the same seek).
        let events = self.shared.subscribe();
        if present {
            self.shared.enter(&member.player).await;
        }
        let now = self.shared.snapshot(&member.player).await;
        let hello = message(json!({
            "t": "hello",
            "challenges": {"in": now.incoming, "out": now.outgoing},
            "seeks": now.seeks,
            "online": now.online,
            "games": now.games,
            "tiles": TILES.iter().map(|(tc, label)| json!({"timeControl": tc, "label": label})).collect::<Vec<_>>(),
        }));
        Joined { hello, events }
    }

    /// What `player`'s lobby socket says of `event`: `None` if it is someone else's.
    pub fn render(event: &Event, player: &PlayerId) -> Option<Arc<str>> {
        Some(message(match event {
            Event::SeekAdded(seek) => json!({"t": "seek-added", "seek": seek}),
            Event::SeekRemoved(id) => json!({"t": "seek-removed", "id": id}),
            Event::Online(count) => json!({"t": "online", "count": count}),
            Event::Games(games) => json!({"t": "games", "games": games}),
            Event::ToPlayer {
                player: to,
                message,
            } if to == player => match message {
                Personal::Challenge(c) => json!({"t": "challenge", "challenge": c}),
                Personal::Paired { game } => json!({"t": "paired", "game": game}),
                Personal::YourTurn { game } => json!({"t": "yourTurn", "game": game}),
            },
            Event::ToPlayer { .. } => return None,
        }))
    }

    /// A client leaves; a player with no lobby connection left loses their seeks and their
    /// places in the pools.
    pub async fn leave(&self, member: &Member) {
        self.shared.leave(&member.player).await;
    }

    async fn tell(&self, player: &PlayerId, message: &Personal) {
        let event = Event::ToPlayer {
            player: player.clone(),
            message: message.clone(),
        };
        self.shared.publish(event).await;
    }

    /// Tells `player`'s lobby sockets that it is their turn in the correspondence game `game`.
    pub async fn your_turn(&self, player: &PlayerId, game: &GameId) {
        self.tell(player, &Personal::YourTurn { game: game.clone() })
            .await;
    }

    /// Sends `player`'s lobby sockets to the game `game` (a tournament's round began).
    pub async fn send_to_game(&self, player: &PlayerId, game: &GameId) {
        let paired = Personal::Paired { game: game.clone() };
        self.tell(player, &paired).await;
    }

    /// The player's rating in `control`'s class, and whether it is provisional (a guest's:
    /// 1500, provisional).
    async fn rating(&self, member: &Member, control: &TimeControl) -> (i32, bool) {
        if member.name.is_none() {
            return (1500, true);
        }
        self.hub.rating_in(&member.player, control).await
    }

    fn control(text: &str) -> Result<TimeControl, LobbyError> {
        let control =
            TimeControl::parse_pgn(text).map_err(|e| LobbyError::BadControl(e.to_string()))?;
        vizier_play::policy::check_control(&control)
            .map_err(|e| LobbyError::BadControl(e.to_string()))?;
        if Class::of_control(&control).is_none() {
            return Err(LobbyError::BadControl(
                "the lobby's games have a clock".into(),
            ));
        }
        Ok(control)
    }

    /// Opens a seek for everyone to see; its id.
    pub async fn seek(&self, member: &Member, req: SeekRequest) -> Result<String, LobbyError> {
        let control = Lobby::control(&req.time_control)?;
        if req.rated && member.name.is_none() {
            return Err(LobbyError::RatedNeedsAccount);
        }
        let (rating, provisional) = self.rating(member, &control).await;
        let seek = Seek {
            id: vizier_play::ids::random_token(8),
            player: member.player.clone(),
            name: member.name.clone(),
            rating,
            provisional,
            time_control: control.to_pgn(),
            speed: Class::of_control(&control)
                .map_or("unlimited", |c| c.key())
                .to_string(),
            rated: req.rated,
            chess960: req.chess960,
            color: match req.color.as_deref() {
                Some("white") => "white",
                Some("black") => "black",
                _ => "random",
            }
            .into(),
            rating_range: req.rating_range.map(|(a, b)| (a.min(b), a.max(b))),
            created_at: self.hub.now(),
            address: member.address.clone(),
        };
        let id = seek.id.clone();
        let most = state::SeekLimits {
            per_player: SEEKS_PER_PLAYER,
            per_address: self.seeks_per_address,
            all: MAX_SEEKS,
        };
        self.shared.add_seek(seek, most).await?;
        Ok(id)
    }

    /// Withdraws one of the player's seeks.
    pub async fn cancel(&self, member: &Member, id: &str) -> Result<(), LobbyError> {
        if self.shared.cancel_seek(id, &member.player).await {
            Ok(())
        } else {
            Err(LobbyError::NoSuchSeek)
        }
    }

    /// Takes a seek: the game is created and both players are told.
    pub async fn accept(&self, member: &Member, id: &str) -> Result<GameId, LobbyError> {
        let seek = (self.shared.seek(id).await)
            .filter(|s| s.player != member.player)
            .ok_or(LobbyError::NoSuchSeek)?;
        if seek.rated && member.name.is_none() {
            return Err(LobbyError::RatedNeedsAccount);
        }
        let control = Lobby::control(&seek.time_control)?;
        let (rating, _) = self.rating(member, &control).await;
        if let Some((low, high)) = seek.rating_range
            && !(low..=high).contains(&rating)
        {
            return Err(LobbyError::OutOfRange);
        }
        // Taken by the first to get here: a second taker finds it gone.
        let seek =
            (self.shared.take_seek(id, &member.player).await).ok_or(LobbyError::NoSuchSeek)?;
        let color = colour(&seek.color);
        let seeker = Party::new(&seek.player, seek.address.as_deref());
        let game = self
            .start(
                seeker,
                member.party(),
                color,
                vizier_play::hub::online_setup(control, seek.chess960, false),
                seek.rated,
            )
            .await?;
        Ok(game)
    }

    /// Creates the game on `setup` between `creator` (playing `color`) and `opponent`, and
    /// tells both.
    async fn start(
        &self,
        creator: Party,
        opponent: Party,
        color: Color,
        setup: vizier_arbiter::Setup,
        rated: bool,
    ) -> Result<GameId, LobbyError> {
        let new = NewGame {
            kind: Kind::Friend,
            setup,
            color,
            level: 1,
            opponent: Some(Seat::Player(opponent.player.clone())),
            rated,
        };
        let game = self
            .hub
            .create(&[creator.clone(), opponent.clone()], new)
            .await
            .map_err(|e| match e.is_limit() {
                true => LobbyError::Limit(e.to_string()),
                false => LobbyError::Create(e.to_string()),
            })?;
        let paired = Personal::Paired { game: game.clone() };
        self.tell(&creator.player, &paired).await;
        self.tell(&opponent.player, &paired).await;
        Ok(game)
    }

    /// Waits in the pool of a tile; pairs at once when someone fits.
    pub async fn enter_pool(&self, member: &Member, tile: &str) -> Result<(), LobbyError> {
        // A tile by its time control (`180+2`) or as it is labelled and documented (`3+2`).
        let Some(&(tile, _)) = TILES
            .iter()
            .find(|(tc, label)| *tc == tile || *label == tile)
        else {
            return Err(LobbyError::BadControl(
                "not one of the lobby's tiles".into(),
            ));
        };
        let control = Lobby::control(tile)?;
        let (rating, _) = self.rating(member, &control).await;
        let waiting = pool::Waiting {
            player: member.player.clone(),
            rating,
            since: self.hub.now(),
            account: member.name.is_some(),
            address: member.address.clone(),
        };
        self.shared
            .enter_pool(tile, waiting, self.seeks_per_address)
            .await?;
        self.pair_pools().await;
        Ok(())
    }

    /// Leaves every pool.
    pub async fn leave_pool(&self, member: &Member) {
        self.shared.leave_pool(&member.player).await;
    }

    /// Pairs whoever fits in every pool (the ranges widen with time, so this runs every
    /// second too).
    pub async fn pair_pools(&self) {
        let games = self.shared.pair_pools(self.hub.now()).await;
        for (tile, a, b) in games {
            let Ok(control) = TimeControl::parse_pgn(&tile) else {
                continue;
            };
            let color = colour("random");
            let (one, other) = (
                Party::new(&a.player, a.address.as_deref()),
                Party::new(&b.player, b.address.as_deref()),
            );
            let setup = vizier_play::hub::online_setup(control, false, false);
            if let Err(e) = self
                .start(one, other, color, setup, a.account && b.account)
                .await
            {
                tracing::warn!("pool {tile}: {e}");
            }
        }
    }

    /// Reports the players in this node's games, so that the lobby counts everyone online.
    pub async fn count_online(&self, playing: Vec<PlayerId>) {
        self.shared.report_online(self.node, playing).await;
    }

    /// Lists the games between people being played now, telling the lobby when the list
    /// changed.
    pub async fn list_games(&self) {
        let Ok(rows) = self.hub.store.games_now(20).await else {
            return;
        };
        let ids: Vec<&str> = rows
            .iter()
            .flat_map(|(_, w, b, _, _)| [w.as_str(), b.as_str()])
            .filter_map(|s| Seat::player_of(s))
            .collect();
        let names = self.hub.store.names(&ids).await.unwrap_or_default();
        let name = |seat: &str| Seat::player_of(seat).and_then(|id| names.get(id).cloned());
        let games: Vec<GameNow> = rows
            .iter()
            .map(|(id, white, black, setup, rated)| GameNow {
                id: id.clone(),
                white: name(white),
                black: name(black),
                time_control: serde_json::from_str::<vizier_store::record::StoredSetup>(setup)
                    .map(|s| s.time_control)
                    .unwrap_or_default(),
                rated: *rated,
            })
            .collect();
        self.shared.report_games(games).await;
    }

    /// Pairs the pools every second, until the task is aborted.
    pub async fn pair_forever(self: Arc<Lobby>) {
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(1));
        loop {
            tick.tick().await;
            self.shared.expire_seeks(self.hub.now(), SEEK_LIFE_MS).await;
            self.pair_pools().await;
        }
    }
}
