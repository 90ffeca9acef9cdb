//! The lobby's live state, which several nodes share — who is here, the open seeks, the
//! quick-pairing pools, the challenges and the games being played — behind one seam,
//! [`LobbyState`], with the typed [`Event`]s that tell every node of a change.
//! [`super::local::LocalLobby`] keeps it in this process's memory. With several nodes, a message bus (or
//! PostgreSQL) backs the same trait: each operation is one atomic step on the shared state,
//! and each node hears every event through [`LobbyState::subscribe`] and delivers it to its
//! own sockets. Nothing here holds a socket or anything else only one process could have.
//! (Sessions, accounts, ratings and the archive are in the database, which nodes share; the
//! budgets that throttle requests are [`crate::throttle`].)

use serde::Serialize;
use tokio::sync::broadcast;
use vizier_play::ids::{GameId, PlayerId};

use super::model::{Challenge, LobbyError, Seek};
use super::pool::Waiting;
use crate::pending::Pending;

/// A change in the lobby, heard by every node.
#[derive(Clone, Debug)]
pub enum Event {
    SeekAdded(Seek),
    SeekRemoved(String),
    /// Players online, all nodes together.
    Online(usize),
    /// The games between people being played now.
    Games(Vec<GameNow>),
    /// A message for one player's lobby sockets only, on whichever node they are.
    ToPlayer {
        player: PlayerId,
        message: Personal,
    },
}

/// What one player's lobby sockets are told.
#[derive(Clone, Debug)]
pub enum Personal {
    /// A challenge to or from them, as it changed.
    Challenge(Box<Challenge>),
    /// Their seek was taken or their pool found them an opponent: the game.
    Paired { game: GameId },
    /// Their opponent moved in a correspondence game: their turn.
    YourTurn { game: GameId },
}

/// A game between people being played now, as the lobby lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GameNow {
    pub id: String,
    /// The players' account names (none for a guest).
    pub white: Option<String>,
    pub black: Option<String>,
    /// PGN form.
    pub time_control: String,
    pub rated: bool,
}

impl Event {
    /// Whether the event is for one player only.
    pub fn is_private(&self) -> bool {
        matches!(self, Event::ToPlayer { .. })
    }
}

/// What a lobby client starts from.
#[derive(Clone, Debug, Default)]
pub struct Snapshot {
    pub seeks: Vec<Seek>,
    pub online: usize,
    /// None until the games being played are first reported.
    pub games: Option<Vec<GameNow>>,
    /// Open challenges to the player, and from them.
    pub incoming: Vec<Challenge>,
    pub outgoing: Vec<Challenge>,
}

/// Which party to a challenge may take it off the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChallengeRole {
    Challenger,
    Challenged,
}

/// How many seeks may be open: by one player, from one address, in all.
#[derive(Clone, Copy, Debug)]
pub struct SeekLimits {
    pub per_player: usize,
    /// 0: no limit.
    pub per_address: usize,
    pub all: usize,
}

/// The lobby's state, shared by the nodes. Every method is one atomic step, and publishes
/// the events its change calls for.
pub trait LobbyState: Send + Sync {
    /// Every event from now on.
    fn subscribe(&self) -> broadcast::Receiver<Event>;
    /// Tells every node `event`.
    fn publish(&self, event: Event) -> Pending<'_, ()>;
    /// The lobby as `player` sees it now.
    fn snapshot<'a>(&'a self, player: &'a PlayerId) -> Pending<'a, Snapshot>;

    /// A lobby connection of `player` opens (on any node).
    fn enter<'a>(&'a self, player: &'a PlayerId) -> Pending<'a, ()>;
    /// One of `player`'s lobby connections closes; with their last one, their seeks and
    /// places in the pools go.
    fn leave<'a>(&'a self, player: &'a PlayerId) -> Pending<'a, ()>;
    /// Players with a lobby connection, and those `node` reports as playing: the count of
    /// players online is told to everyone when it changes.
    fn report_online(&self, node: u64, playing: Vec<PlayerId>) -> Pending<'_, ()>;
    /// The games being played now, told to everyone when the list changed.
    fn report_games(&self, games: Vec<GameNow>) -> Pending<'_, ()>;

    /// Adds a seek unless its player, its address or the lobby has as many open as `most`
    /// allows.
    fn add_seek(&self, seek: Seek, most: SeekLimits) -> Pending<'_, Result<(), LobbyError>>;
    /// Removes the seeks opened longer than `life_ms` before `now`.
    fn expire_seeks(&self, now: u64, life_ms: u64) -> Pending<'_, ()>;
    /// The open seek `id`.
    fn seek<'a>(&'a self, id: &'a str) -> Pending<'a, Option<Seek>>;
    /// Removes seek `id` for `taker` (who may not be its owner), if it is still open: of two
    /// takers, one gets it.
    fn take_seek<'a>(&'a self, id: &'a str, taker: &'a PlayerId) -> Pending<'a, Option<Seek>>;
    /// Removes `owner`'s seek `id`; whether there was one.
    fn cancel_seek<'a>(&'a self, id: &'a str, owner: &'a PlayerId) -> Pending<'a, bool>;

    /// `waiting` joins the pool `tile`, leaving any other, unless their address holds
    /// `per_address` places already (0: any number).
    fn enter_pool<'a>(
        &'a self,
        tile: &'a str,
        waiting: Waiting,
        per_address: usize,
    ) -> Pending<'a, Result<(), LobbyError>>;
    /// `player` leaves every pool.
    fn leave_pool<'a>(&'a self, player: &'a PlayerId) -> Pending<'a, ()>;
    /// Takes out of the pools every pair that fits at `now`: (tile, one, other).
    fn pair_pools(&self, now: u64) -> Pending<'_, Vec<(String, Waiting, Waiting)>>;

    /// Adds a challenge unless its challenger has `max_outgoing` open.
    fn add_challenge(
        &self,
        challenge: Challenge,
        max_outgoing: usize,
    ) -> Pending<'_, Result<(), LobbyError>>;
    /// Open challenges to `player`, and from them.
    fn challenges_of<'a>(
        &'a self,
        player: &'a PlayerId,
    ) -> Pending<'a, (Vec<Challenge>, Vec<Challenge>)>;
    /// Removes challenge `id` if `player` is its `side`.
    fn take_challenge<'a>(
        &'a self,
        id: &'a str,
        player: &'a PlayerId,
        side: ChallengeRole,
    ) -> Pending<'a, Option<Challenge>>;
}
