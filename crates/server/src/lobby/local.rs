//! The lobby's state in this process's memory: one node's [`LobbyState`]. Each operation
//! takes the one lock, changes what it must and publishes the events that tell of it.

use std::collections::HashMap;
use std::sync::Mutex;

use tokio::sync::broadcast;
use vizier_play::ids::PlayerId;
use vizier_play::time::Clock;

use super::model::{Challenge, EXPIRY_MS, LobbyError, Seek};
use super::pool::{self, Waiting};
use super::state::{ChallengeRole, Event, GameNow, LobbyState, SeekLimits, Snapshot};
use crate::pending::{Pending, ready};

#[derive(Default)]
struct State {
    /// Lobby connections per player.
    connections: HashMap<PlayerId, usize>,
    /// Players in games, per node.
    playing: HashMap<u64, Vec<PlayerId>>,
    online: usize,
    /// The count last told to everyone.
    announced: usize,
    games: Option<Vec<GameNow>>,
    seeks: Vec<Seek>,
    pools: HashMap<String, Vec<Waiting>>,
    challenges: Vec<Challenge>,
}

impl State {
    fn open_challenges(&mut self, now: u64) -> &[Challenge] {
        self.challenges
            .retain(|c| now.saturating_sub(c.created_at) < EXPIRY_MS);
        &self.challenges
    }
}

/// The lobby's state in this process's memory: one node.
pub struct LocalLobby {
    state: Mutex<State>,
    events: broadcast::Sender<Event>,
    /// Where challenges' ages are read from.
    clock: Clock,
}

impl Default for LocalLobby {
    fn default() -> LocalLobby {
        LocalLobby::with_clock(Clock::system())
    }
}

impl LocalLobby {
    /// The lobby's state, its challenges aged by `clock`.
    pub fn with_clock(clock: Clock) -> LocalLobby {
        LocalLobby {
            state: Mutex::default(),
            events: broadcast::channel(1_024).0,
            clock,
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn send(&self, event: Event) {
        let _ = self.events.send(event);
    }

    /// Counts the players online; with `announce`, tells everyone if the count changed since
    /// last told. Connections only count (a hello then includes its newcomer): telling every
    /// socket of every arrival would cost the square of the arrivals.
    fn recount(&self, state: &mut State, announce: bool) {
        let mut players: Vec<&PlayerId> = state.connections.keys().collect();
        players.extend(state.playing.values().flatten());
        players.sort();
        players.dedup();
        state.online = players.len();
        if announce && state.announced != state.online {
            state.announced = state.online;
            self.send(Event::Online(state.online));
        }
    }
}

impl LobbyState for LocalLobby {
    fn subscribe(&self) -> broadcast::Receiver<Event> {
        self.events.subscribe()
    }

    fn publish(&self, event: Event) -> Pending<'_, ()> {
        self.send(event);
        ready(())
    }

    fn snapshot<'a>(&'a self, player: &'a PlayerId) -> Pending<'a, Snapshot> {
        let mut state = self.state();
        let now = self.clock.now();
        let (incoming, outgoing) = split(state.open_challenges(now), player);
        ready(Snapshot {
            seeks: state.seeks.clone(),
            online: state.online,
            games: state.games.clone(),
            incoming,
            outgoing,
        })
    }

    fn enter<'a>(&'a self, player: &'a PlayerId) -> Pending<'a, ()> {
        let mut state = self.state();
        *state.connections.entry(player.clone()).or_default() += 1;
        // Counted at once: the hello that follows includes the newcomer.
        self.recount(&mut state, false);
        ready(())
    }

    fn leave<'a>(&'a self, player: &'a PlayerId) -> Pending<'a, ()> {
        let mut state = self.state();
        let Some(n) = state.connections.get_mut(player) else {
            return ready(());
        };
        *n -= 1;
        if *n > 0 {
            return ready(());
        }
        state.connections.remove(player);
        self.recount(&mut state, false);
        let gone: Vec<String> = (state.seeks.iter())
            .filter(|s| s.player == player)
            .map(|s| s.id.clone())
            .collect();
        state.seeks.retain(|s| s.player != player);
        for waiting in state.pools.values_mut() {
            waiting.retain(|w| w.player != player);
        }
        drop(state);
        for id in gone {
            self.send(Event::SeekRemoved(id));
        }
        ready(())
    }

    fn report_online(&self, node: u64, playing: Vec<PlayerId>) -> Pending<'_, ()> {
        let mut state = self.state();
        state.playing.insert(node, playing);
        self.recount(&mut state, true);
        ready(())
    }

    fn report_games(&self, games: Vec<GameNow>) -> Pending<'_, ()> {
        let mut state = self.state();
        if state.games.as_ref() != Some(&games) {
            state.games = Some(games.clone());
            self.send(Event::Games(games));
        }
        ready(())
    }

    fn add_seek(&self, seek: Seek, most: SeekLimits) -> Pending<'_, Result<(), LobbyError>> {
        let mut state = self.state();
        let mine = state
            .seeks
            .iter()
            .filter(|s| s.player == seek.player)
            .count();
        let here = (seek.address.as_ref()).map_or(0, |a| {
            state
                .seeks
                .iter()
                .filter(|s| s.address.as_ref() == Some(a))
                .count()
        });
        let over_here = most.per_address > 0 && here >= most.per_address;
        if mine >= most.per_player || over_here || state.seeks.len() >= most.all {
            return ready(Err(LobbyError::TooManySeeks));
        }
        state.seeks.push(seek.clone());
        self.send(Event::SeekAdded(seek));
        ready(Ok(()))
    }

    fn expire_seeks(&self, now: u64, life_ms: u64) -> Pending<'_, ()> {
        let mut state = self.state();
        let old = |s: &Seek| now.saturating_sub(s.created_at) >= life_ms;
        let gone: Vec<String> = state
            .seeks
            .iter()
            .filter(|s| old(s))
            .map(|s| s.id.clone())
            .collect();
        state.seeks.retain(|s| !old(s));
        drop(state);
        for id in gone {
            self.send(Event::SeekRemoved(id));
        }
        ready(())
    }

    fn seek<'a>(&'a self, id: &'a str) -> Pending<'a, Option<Seek>> {
        ready(self.state().seeks.iter().find(|s| s.id == id).cloned())
    }

    fn take_seek<'a>(&'a self, id: &'a str, taker: &'a PlayerId) -> Pending<'a, Option<Seek>> {
        let mut state = self.state();
        let Some(i) = (state.seeks.iter()).position(|s| s.id == id && s.player != taker) else {
            return ready(None);
        };
        let seek = state.seeks.remove(i);
        self.send(Event::SeekRemoved(seek.id.clone()));
        ready(Some(seek))
    }

    fn cancel_seek<'a>(&'a self, id: &'a str, owner: &'a PlayerId) -> Pending<'a, bool> {
        let mut state = self.state();
        let before = state.seeks.len();
        state.seeks.retain(|s| !(s.id == id && s.player == owner));
        let removed = state.seeks.len() < before;
        if removed {
            self.send(Event::SeekRemoved(id.to_string()));
        }
        ready(removed)
    }

    fn enter_pool<'a>(
        &'a self,
        tile: &'a str,
        waiting: Waiting,
        per_address: usize,
    ) -> Pending<'a, Result<(), LobbyError>> {
        let mut state = self.state();
        for pool in state.pools.values_mut() {
            pool.retain(|w| w.player != waiting.player);
        }
        if let Some(address) = &waiting.address {
            let here = (state.pools.values().flatten())
                .filter(|w| w.address.as_ref() == Some(address))
                .count();
            if per_address > 0 && here >= per_address {
                return ready(Err(LobbyError::TooManySeeks));
            }
        }
        state
            .pools
            .entry(tile.to_string())
            .or_default()
            .push(waiting);
        ready(Ok(()))
    }

    fn leave_pool<'a>(&'a self, player: &'a PlayerId) -> Pending<'a, ()> {
        for pool in self.state().pools.values_mut() {
            pool.retain(|w| w.player != player);
        }
        ready(())
    }

    fn pair_pools(&self, now: u64) -> Pending<'_, Vec<(String, Waiting, Waiting)>> {
        let mut games = Vec::new();
        for (tile, waiting) in self.state().pools.iter_mut() {
            let pairs = pool::pair(waiting, now);
            let mut taken = vec![false; waiting.len()];
            for (a, b) in pairs {
                (taken[a], taken[b]) = (true, true);
                games.push((tile.clone(), waiting[a].clone(), waiting[b].clone()));
            }
            let mut i = 0;
            waiting.retain(|_| {
                i += 1;
                !taken[i - 1]
            });
        }
        ready(games)
    }

    fn add_challenge(
        &self,
        challenge: Challenge,
        max_outgoing: usize,
    ) -> Pending<'_, Result<(), LobbyError>> {
        let mut state = self.state();
        let now = self.clock.now();
        let mine = (state.open_challenges(now).iter())
            .filter(|c| c.challenger.player == challenge.challenger.player)
            .count();
        if mine >= max_outgoing {
            return ready(Err(LobbyError::Challenge("too many open challenges")));
        }
        state.challenges.push(challenge);
        ready(Ok(()))
    }

    fn challenges_of<'a>(
        &'a self,
        player: &'a PlayerId,
    ) -> Pending<'a, (Vec<Challenge>, Vec<Challenge>)> {
        let now = self.clock.now();
        ready(split(self.state().open_challenges(now), player))
    }

    fn take_challenge<'a>(
        &'a self,
        id: &'a str,
        player: &'a PlayerId,
        side: ChallengeRole,
    ) -> Pending<'a, Option<Challenge>> {
        let mut state = self.state();
        let now = self.clock.now();
        let found = state.open_challenges(now).iter().position(|c| {
            c.id == id
                && match side {
                    ChallengeRole::Challenger => c.challenger.player == player,
                    ChallengeRole::Challenged => c.dest_user.player == player,
                }
        });
        ready(found.map(|i| state.challenges.remove(i)))
    }
}

/// Challenges to `player`, and from them.
fn split(challenges: &[Challenge], player: &PlayerId) -> (Vec<Challenge>, Vec<Challenge>) {
    let (incoming, outgoing): (Vec<&Challenge>, Vec<&Challenge>) = (challenges.iter())
        .filter(|c| c.dest_user.player == player || c.challenger.player == player)
        .partition(|c| c.dest_user.player == player);
    (
        incoming.into_iter().cloned().collect(),
        outgoing.into_iter().cloned().collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(id: &str) -> PlayerId {
        PlayerId::known(id)
    }

    fn seek(id: &str, player: &str) -> Seek {
        Seek {
            id: id.into(),
            player: p(player),
            name: None,
            rating: 1500,
            provisional: true,
            time_control: "180+2".into(),
            speed: "blitz".into(),
            rated: false,
            chess960: false,
            color: "random".into(),
            rating_range: None,
            created_at: 0,
            address: Some("192.0.2.1".into()),
        }
    }

    const MOST: SeekLimits = SeekLimits {
        per_player: 3,
        per_address: 5,
        all: 10,
    };

    #[tokio::test]
    async fn a_seek_is_taken_once_and_every_change_is_an_event() {
        let shared = LocalLobby::default();
        let mut events = shared.subscribe();
        shared.add_seek(seek("s1", "ann"), MOST).await.unwrap();
        assert!(matches!(events.recv().await, Ok(Event::SeekAdded(s)) if s.id == "s1"));
        assert!(
            shared.take_seek("s1", &p("ann")).await.is_none(),
            "not by its owner"
        );
        assert!(shared.take_seek("s1", &p("bob")).await.is_some());
        assert!(
            shared.take_seek("s1", &p("cid")).await.is_none(),
            "taken once"
        );
        assert!(matches!(events.recv().await, Ok(Event::SeekRemoved(id)) if id == "s1"));
        for i in 0..3 {
            shared
                .add_seek(seek(&format!("a{i}"), "ann"), MOST)
                .await
                .unwrap();
        }
        assert_eq!(
            shared.add_seek(seek("a3", "ann"), MOST).await,
            Err(LobbyError::TooManySeeks)
        );
        // Two more players at the same address fill its share.
        shared.add_seek(seek("b0", "bob"), MOST).await.unwrap();
        shared.add_seek(seek("b1", "bob"), MOST).await.unwrap();
        assert_eq!(
            shared.add_seek(seek("c0", "cid"), MOST).await,
            Err(LobbyError::TooManySeeks)
        );
        // Seeks expire.
        let mut fresh = seek("d0", "dan");
        fresh.address = None;
        fresh.created_at = 1_000;
        shared.add_seek(fresh, MOST).await.unwrap();
        shared.expire_seeks(1_500, 1_000).await;
        assert!(shared.seek("a0").await.is_none() && shared.seek("d0").await.is_some());
    }

    #[tokio::test]
    async fn the_last_connection_takes_a_players_seeks_and_pool_places_along() {
        let shared = LocalLobby::default();
        shared.enter(&p("ann")).await;
        shared.enter(&p("ann")).await;
        shared.add_seek(seek("s1", "ann"), MOST).await.unwrap();
        let waiting = |player: &str| Waiting {
            player: p(player),
            rating: 1500,
            since: 0,
            account: false,
            address: None,
        };
        shared.enter_pool("180+2", waiting("ann"), 5).await.unwrap();
        shared.leave(&p("ann")).await;
        assert!(shared.seek("s1").await.is_some(), "one connection is left");
        shared.leave(&p("ann")).await;
        assert!(shared.seek("s1").await.is_none());
        shared.enter_pool("180+2", waiting("bob"), 5).await.unwrap();
        assert!(shared.pair_pools(0).await.is_empty(), "ann left the pool");
        shared.enter_pool("180+2", waiting("cid"), 5).await.unwrap();
        let pairs = shared.pair_pools(0).await;
        assert_eq!(pairs.len(), 1);
        assert!(
            shared.pair_pools(0).await.is_empty(),
            "paired players leave the pool"
        );
    }

    #[tokio::test]
    async fn online_counts_every_node_and_lobby_connection_once() {
        let shared = LocalLobby::default();
        let mut events = shared.subscribe();
        shared.enter(&p("ann")).await;
        assert_eq!(shared.snapshot(&p("ann")).await.online, 1);
        assert!(
            events.try_recv().is_err(),
            "an arrival alone is not told to everyone"
        );
        shared.report_online(1, vec![p("ann"), p("bob")]).await;
        shared.report_online(2, vec![p("bob"), p("cid")]).await;
        // Ann is counted as she enters (her hello says so), and told with the nodes' reports.
        assert!(matches!(events.recv().await, Ok(Event::Online(2))));
        assert!(matches!(events.recv().await, Ok(Event::Online(3))));
        shared.report_online(2, vec![p("cid")]).await;
        assert!(events.try_recv().is_err(), "no change, no event");
        assert_eq!(shared.snapshot(&p("ann")).await.online, 3);
    }

    fn challenge(id: &str, from: &str, to: &str, at: u64) -> Challenge {
        let user = |player: &str| super::super::model::ChallengeUser {
            id: player.into(),
            name: player.into(),
            rating: 1500,
            provisional: true,
            title: None,
            player: p(player),
        };
        Challenge {
            id: id.into(),
            status: "created".into(),
            challenger: user(from),
            dest_user: user(to),
            variant: super::super::model::Variant { key: "standard" },
            rated: false,
            speed: "blitz".into(),
            time_control: super::super::model::ChallengeClock {
                kind: "clock",
                limit: Some(180),
                increment: Some(2),
                days_per_turn: None,
                show: "3+2".into(),
            },
            color: "random".into(),
            final_color: "white",
            initial_fen: None,
            decline_reason: None,
            game: None,
            created_at: at,
            control: "180+2".into(),
            chess960: false,
            address: None,
        }
    }

    /// A challenge waits for its answer as long as the lobby's clock says, no longer: the
    /// clock is moved by hand, nothing sleeps.
    #[tokio::test]
    async fn a_challenge_expires_by_the_lobbys_clock() {
        let clock = Clock::manual(1_700_000_000_000);
        let lobby = LocalLobby::with_clock(clock.clone());
        let c = challenge("c1", "ann", "bob", clock.now());
        lobby.add_challenge(c, 10).await.unwrap();
        clock.advance(EXPIRY_MS - 1);
        assert_eq!(
            lobby.challenges_of(&p("bob")).await.0.len(),
            1,
            "expired early"
        );
        clock.advance(1);
        let (incoming, _) = lobby.challenges_of(&p("bob")).await;
        assert!(incoming.is_empty(), "still open after {EXPIRY_MS} ms");
    }
}
