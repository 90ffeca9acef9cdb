//! The lobby: who is here, the open seeks, and the quick-pairing pools. Everything in it is
//! shared live state that a second node would need to see; it lives behind [`Lobby`]'s
//! methods only, so that a message bus can back them later (today: one process's memory).
//!
//! A lobby client connects to `/api/lobby/socket`, gets `hello` (seeks, games now, players
//! online), then `seek-added` / `seek-removed` as they happen, and `paired` with a game id
//! when its seek is taken or its pool finds it an opponent.

pub mod challenge;
pub mod pool;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde::Serialize;
use serde_json::{Value, json};
use tokio::sync::{broadcast, mpsc};
use vizier_arbiter::TimeControl;
use vizier_rules::Color;

use crate::hub::{Hub, NewGame, now_ms};
use crate::record::{Kind, Seat, class_of};

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
/// Most open seeks in all.
const MAX_SEEKS: usize = 2_000;

/// Who is in the lobby: a player by their id, with what the lobby shows of them.
#[derive(Clone, Debug)]
pub struct Member {
    pub player: String,
    /// The account's name; none for a guest.
    pub name: Option<String>,
}

/// An open seek, as everyone in the lobby sees it.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Seek {
    pub id: String,
    #[serde(skip)]
    pub player: String,
    /// The seeker's name; none for a guest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Their rating in the seek's class.
    pub rating: i32,
    pub provisional: bool,
    pub time_control: String,
    pub speed: String,
    pub rated: bool,
    pub chess960: bool,
    /// `white`, `black` or `random`: the seeker's colour.
    pub color: String,
    /// Opponents' ratings accepted, inclusive.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating_range: Option<(i32, i32)>,
    pub created_at: u64,
}

/// Why a lobby request was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LobbyError {
    /// The time control does not read or cannot be played (the message says why).
    BadControl(String),
    /// Rated play is for accounts.
    RatedNeedsAccount,
    TooManySeeks,
    /// The seek is gone (taken, cancelled) or its owner's.
    NoSuchSeek,
    /// The seeker's rating range excludes this player.
    OutOfRange,
    /// The game could not be created.
    Create(String),
    /// A challenge is refused (the message says why).
    Challenge(&'static str),
}

impl std::fmt::Display for LobbyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LobbyError::BadControl(why) => write!(f, "time control: {why}"),
            LobbyError::RatedNeedsAccount => f.write_str("sign in to play rated games"),
            LobbyError::TooManySeeks => f.write_str("too many open seeks"),
            LobbyError::NoSuchSeek => f.write_str("that seek is no longer open"),
            LobbyError::OutOfRange => f.write_str("your rating is outside the seek's range"),
            LobbyError::Create(why) => write!(f, "the game could not be created: {why}"),
            LobbyError::Challenge(why) => f.write_str(why),
        }
    }
}

/// What a seek asks for.
#[derive(Clone, Debug, Default)]
pub struct SeekRequest {
    pub time_control: String,
    pub rated: bool,
    pub chess960: bool,
    pub color: Option<String>,
    pub rating_range: Option<(i32, i32)>,
}

struct Connection {
    id: u64,
    member: Member,
    private: mpsc::Sender<Arc<str>>,
}

#[derive(Default)]
struct State {
    connections: Vec<Connection>,
    /// Players online (in the lobby or in a game), as last counted.
    online: usize,
    /// Games between people being played now, as last listed.
    now_playing: Value,
    seeks: Vec<Seek>,
    challenges: Vec<challenge::Challenge>,
    /// Waiting players per tile.
    pools: HashMap<String, Vec<pool::Waiting>>,
    next: u64,
}

/// A lobby client's connection: its id, where it starts, and what it will be told.
pub struct Joined {
    pub conn: u64,
    /// The whole lobby as it is now.
    pub hello: Arc<str>,
    /// What everyone is told from now on.
    pub events: broadcast::Receiver<Arc<str>>,
    /// What only this player is told (`paired`).
    pub private: mpsc::Receiver<Arc<str>>,
}

/// The lobby.
pub struct Lobby {
    state: Mutex<State>,
    /// What everyone in the lobby is told.
    public: broadcast::Sender<Arc<str>>,
    hub: Arc<Hub>,
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
    pub fn new(hub: Arc<Hub>) -> Arc<Lobby> {
        let (public, _) = broadcast::channel(1_024);
        Arc::new(Lobby {
            state: Mutex::new(State::default()),
            public,
            hub,
        })
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A client joins: its connection id, the `hello` it starts from, the public events
    /// from then on, and its private ones (`paired`).
    pub fn join(&self, member: Member) -> Joined {
        let (private, inbox) = mpsc::channel(16);
        let mut state = self.state();
        state.next += 1;
        let id = state.next;
        let events = self.public.subscribe();
        let now = now_ms();
        let (incoming, outgoing): (Vec<&challenge::Challenge>, Vec<&challenge::Challenge>) = state
            .challenges
            .iter()
            .filter(|c| now.saturating_sub(c.created_at) < challenge::EXPIRY_MS)
            .filter(|c| c.dest_user.player == member.player || c.challenger.player == member.player)
            .partition(|c| c.dest_user.player == member.player);
        let hello = message(json!({
            "t": "hello",
            "challenges": {"in": incoming, "out": outgoing},
            "seeks": state.seeks,
            "online": state.online,
            "games": state.now_playing,
            "tiles": TILES.iter().map(|(tc, label)| json!({"timeControl": tc, "label": label})).collect::<Vec<_>>(),
        }));
        state.connections.push(Connection {
            id,
            member,
            private,
        });
        Joined {
            conn: id,
            hello,
            events,
            private: inbox,
        }
    }

    /// A client leaves; a player with no lobby connection left loses their seeks and their
    /// places in the pools.
    pub fn leave(&self, conn: u64) {
        let mut state = self.state();
        let Some(i) = state.connections.iter().position(|c| c.id == conn) else {
            return;
        };
        let player = state.connections.remove(i).member.player;
        if state.connections.iter().any(|c| c.member.player == player) {
            return;
        }
        let gone: Vec<String> = state
            .seeks
            .iter()
            .filter(|s| s.player == player)
            .map(|s| s.id.clone())
            .collect();
        state.seeks.retain(|s| s.player != player);
        for waiting in state.pools.values_mut() {
            waiting.retain(|w| w.player != player);
        }
        drop(state);
        for id in gone {
            let _ = self
                .public
                .send(message(json!({"t": "seek-removed", "id": id})));
        }
    }

    /// Players with a lobby connection.
    pub fn players(&self) -> Vec<String> {
        let state = self.state();
        let mut players: Vec<String> = state
            .connections
            .iter()
            .map(|c| c.member.player.clone())
            .collect();
        players.sort();
        players.dedup();
        players
    }

    /// Tells everyone in the lobby `event`.
    pub fn announce(&self, event: Value) {
        let _ = self.public.send(message(event));
    }

    fn tell(&self, player: &str, event: &Value) {
        let text = message(event.clone());
        for c in self
            .state()
            .connections
            .iter()
            .filter(|c| c.member.player == player)
        {
            let _ = c.private.try_send(text.clone());
        }
    }

    /// The player's rating in `control`'s class, and whether it is provisional (a guest's:
    /// 1500, provisional).
    async fn rating(&self, member: &Member, control: &TimeControl) -> (i32, bool) {
        let Some(class) = class_of(control) else {
            return (1500, true);
        };
        if member.name.is_none() {
            return (1500, true);
        }
        match self.hub.store.perf(&member.player, class).await {
            Ok(perf) => {
                let g = perf.glicko_at(now_ms() as i64);
                (g.rating.round() as i32, g.provisional())
            }
            Err(_) => (1500, true),
        }
    }

    fn control(text: &str) -> Result<TimeControl, LobbyError> {
        let control =
            TimeControl::parse_pgn(text).map_err(|e| LobbyError::BadControl(e.to_string()))?;
        crate::http::check_control(&control).map_err(|e| LobbyError::BadControl(e.to_string()))?;
        if class_of(&control).is_none() {
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
            id: crate::hub::random_token(8),
            player: member.player.clone(),
            name: member.name.clone(),
            rating,
            provisional,
            time_control: control.to_pgn(),
            speed: class_of(&control)
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
            created_at: now_ms(),
        };
        {
            let mut state = self.state();
            let mine = state
                .seeks
                .iter()
                .filter(|s| s.player == member.player)
                .count();
            if mine >= SEEKS_PER_PLAYER || state.seeks.len() >= MAX_SEEKS {
                return Err(LobbyError::TooManySeeks);
            }
            state.seeks.push(seek.clone());
        }
        self.announce(json!({"t": "seek-added", "seek": seek}));
        Ok(seek.id)
    }

    /// Withdraws one of the player's seeks.
    pub fn cancel(&self, member: &Member, id: &str) -> Result<(), LobbyError> {
        let mut state = self.state();
        let before = state.seeks.len();
        state
            .seeks
            .retain(|s| !(s.id == id && s.player == member.player));
        if state.seeks.len() == before {
            return Err(LobbyError::NoSuchSeek);
        }
        drop(state);
        self.announce(json!({"t": "seek-removed", "id": id}));
        Ok(())
    }

    /// Takes a seek: the game is created and both players are told.
    pub async fn accept(&self, member: &Member, id: &str) -> Result<String, LobbyError> {
        let seek = {
            let state = self.state();
            state
                .seeks
                .iter()
                .find(|s| s.id == id && s.player != member.player)
                .cloned()
                .ok_or(LobbyError::NoSuchSeek)?
        };
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
        {
            let mut state = self.state();
            let before = state.seeks.len();
            state.seeks.retain(|s| s.id != id);
            if state.seeks.len() == before {
                return Err(LobbyError::NoSuchSeek);
            }
        }
        self.announce(json!({"t": "seek-removed", "id": id}));
        let color = colour(&seek.color);
        let game = self
            .start(
                &seek.player,
                &member.player,
                color,
                control,
                seek.rated,
                seek.chess960,
            )
            .await?;
        Ok(game)
    }

    /// Creates the game between `creator` (playing `color`) and `opponent`, and tells both.
    async fn start(
        &self,
        creator: &str,
        opponent: &str,
        color: Color,
        control: TimeControl,
        rated: bool,
        chess960: bool,
    ) -> Result<String, LobbyError> {
        let new = NewGame {
            kind: Kind::Friend,
            setup: crate::hub::online_setup(control, chess960, false),
            color,
            level: 1,
            opponent: Some(Seat::Player(opponent.to_string())),
            rated,
        };
        let game = self
            .hub
            .create(creator, new)
            .await
            .map_err(|e| LobbyError::Create(e.to_string()))?;
        let paired = json!({"t": "paired", "game": game});
        self.tell(creator, &paired);
        self.tell(opponent, &paired);
        Ok(game)
    }

    /// Waits in the pool of a tile; pairs at once when someone fits.
    pub async fn enter_pool(&self, member: &Member, tile: &str) -> Result<(), LobbyError> {
        if !TILES.iter().any(|(tc, _)| *tc == tile) {
            return Err(LobbyError::BadControl(
                "not one of the lobby's tiles".into(),
            ));
        }
        let control = Lobby::control(tile)?;
        let (rating, _) = self.rating(member, &control).await;
        {
            let mut state = self.state();
            for waiting in state.pools.values_mut() {
                waiting.retain(|w| w.player != member.player);
            }
            state
                .pools
                .entry(tile.to_string())
                .or_default()
                .push(pool::Waiting {
                    player: member.player.clone(),
                    rating,
                    since: now_ms(),
                    account: member.name.is_some(),
                });
        }
        self.pair_pools().await;
        Ok(())
    }

    /// Leaves every pool.
    pub fn leave_pool(&self, member: &Member) {
        for waiting in self.state().pools.values_mut() {
            waiting.retain(|w| w.player != member.player);
        }
    }

    /// Pairs whoever fits in every pool (the ranges widen with time, so this runs every
    /// second too).
    pub async fn pair_pools(&self) {
        let now = now_ms();
        let mut games = Vec::new();
        {
            let mut state = self.state();
            for (tile, waiting) in state.pools.iter_mut() {
                let pairs = pool::pair(waiting, now);
                let mut taken = vec![false; waiting.len()];
                for (a, b) in pairs {
                    taken[a] = true;
                    taken[b] = true;
                    games.push((tile.clone(), waiting[a].clone(), waiting[b].clone()));
                }
                let mut i = 0;
                waiting.retain(|_| {
                    i += 1;
                    !taken[i - 1]
                });
            }
        }
        for (tile, a, b) in games {
            let Ok(control) = TimeControl::parse_pgn(&tile) else {
                continue;
            };
            let color = colour("random");
            if let Err(e) = self
                .start(
                    &a.player,
                    &b.player,
                    color,
                    control,
                    a.account && b.account,
                    false,
                )
                .await
            {
                tracing::warn!("pool {tile}: {e}");
            }
        }
    }

    /// Notes how many players are online (`also` are those in games), telling the lobby
    /// when it changed.
    pub fn count_online(&self, also: Vec<String>) {
        let mut players = self.players();
        players.extend(also);
        players.sort();
        players.dedup();
        let count = players.len();
        let changed = {
            let mut state = self.state();
            std::mem::replace(&mut state.online, count) != count
        };
        if changed {
            self.announce(json!({"t": "online", "count": count}));
        }
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
            .filter_map(|s| s.strip_prefix("p:"))
            .collect();
        let names = self.hub.store.names(&ids).await.unwrap_or_default();
        let name = |seat: &str| {
            seat.strip_prefix("p:")
                .and_then(|id| names.get(id).cloned())
        };
        let games: Vec<Value> = rows
            .iter()
            .map(|(id, white, black, setup, rated)| {
                let control = serde_json::from_str::<crate::record::StoredSetup>(setup)
                    .map(|s| s.time_control)
                    .unwrap_or_default();
                json!({"id": id, "white": name(white), "black": name(black),
                       "timeControl": control, "rated": rated})
            })
            .collect();
        let games = Value::Array(games);
        let changed = {
            let mut state = self.state();
            std::mem::replace(&mut state.now_playing, games.clone()) != games
        };
        if changed {
            self.announce(json!({"t": "games", "games": games}));
        }
    }

    /// Pairs the pools every second, until the task is aborted.
    pub async fn pair_forever(self: Arc<Lobby>) {
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(1));
        loop {
            tick.tick().await;
            self.pair_pools().await;
        }
    }
}
