//! `GET /api/stream/event`: what concerns an account, as lichess streams it — its challenges
//! (`challenge`, `challengeCanceled`, `challengeDeclined`) and its games starting and ending
//! (`gameStart`, `gameFinish`). On opening, the challenges open and the games going on come
//! first. A subscriber of the lobby's events and of the site's games; a newer event stream
//! of the same token closes this one.

use std::collections::HashSet;

use axum::Extension;
use axum::extract::State;
use axum::response::Response;
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;
use vizier_play::ids::{GameId, PlayerId};
use vizier_play::round::SiteEvent;
use vizier_store::record::Seat;

use super::ndjson::{self, KEEP_ALIVE, Lines};
use super::streams::Kind;
use crate::account::Account;
use crate::account::token::Scope;
use crate::http::address::ClientAddress;
use crate::http::{AppState, SignedIn};
use crate::lobby::model::{Challenge, Member};
use crate::lobby::state::{Event, Personal};

/// Games announced on opening, at most.
const GAMES_ON_OPENING: usize = 50;

/// `GET /api/stream/event`.
pub(crate) async fn stream(
    State(state): State<AppState>,
    Extension(signed): Extension<SignedIn>,
    address: ClientAddress,
) -> Response {
    let scopes = [Scope::ChallengeRead, Scope::BotPlay, Scope::BoardPlay];
    let account = match super::auth::require(signed, &scopes) {
        Ok(a) => a,
        Err(r) => return r,
    };
    let Some(mut open) = state.api.streams.open(&account, Kind::Events) else {
        return super::too_many();
    };
    let (lines, response) = ndjson::stream();
    tokio::spawn(async move {
        let member = Member {
            player: account.id.clone(),
            name: Some(account.name.clone()),
            address: address.0,
        };
        // Subscribed before the opening lines are made: nothing that happens meanwhile is lost
        // (a game told twice is told once, by its id).
        let joined = state.lobby.join(&member, false).await;
        let mut lobby = joined.events;
        let mut site = state.hub.watch_site();
        let mut follower = Follower {
            state: state.clone(),
            account,
            lines,
            started: HashSet::new(),
        };
        let mut going_on = follower.opening().await;
        let mut shutdown = state.shutdown.clone();
        let mut keep_alive =
            tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
        while going_on {
            going_on = tokio::select! {
                event = lobby.recv() => match event {
                    Ok(event) => follower.on_lobby(&event).await,
                    Err(RecvError::Lagged(_)) => follower.opening().await,
                    Err(RecvError::Closed) => false,
                },
                event = site.recv() => match event {
                    Ok(event) => follower.on_site(&event).await,
                    Err(RecvError::Lagged(_)) => follower.opening().await,
                    Err(RecvError::Closed) => false,
                },
                _ = keep_alive.tick() => follower.lines.keep_alive().await,
                () = follower.lines.closed() => false,
                () = open.ended() => false,
                () = shutdown.stopping() => false,
            };
        }
    });
    response
}

struct Follower {
    state: AppState,
    account: Account,
    lines: Lines,
    /// The games told started, so that none is told twice.
    started: HashSet<GameId>,
}

impl Follower {
    fn me(&self) -> &PlayerId {
        &self.account.id
    }

    /// The challenges open and the games going on (again, after missing events: those
    /// already told are not told again).
    async fn opening(&mut self) -> bool {
        let (incoming, outgoing) = self.state.lobby.challenges_of(self.me()).await;
        for c in incoming.iter().chain(&outgoing) {
            if !self.challenge(c).await {
                return false;
            }
        }
        let games = match super::bot::games_of(&self.state, self.me(), GAMES_ON_OPENING).await {
            Ok(g) => g,
            Err(_) => return true,
        };
        for game in games {
            let Some(id) = game["gameId"].as_str().and_then(GameId::parse) else {
                continue;
            };
            if self.started.insert(id)
                && !self
                    .lines
                    .send(&json!({"type": "gameStart", "game": game}))
                    .await
            {
                return false;
            }
        }
        true
    }

    async fn challenge(&self, c: &Challenge) -> bool {
        let site = self.state.hub.site().unwrap_or_default();
        let json = super::view::challenge(c, self.me(), &site);
        let line = match c.status.as_str() {
            "created" => {
                json!({"type": "challenge", "challenge": json, "compat": {"bot": true, "board": true}})
            }
            "canceled" => json!({"type": "challengeCanceled", "challenge": json}),
            "declined" => json!({"type": "challengeDeclined", "challenge": json}),
            // An accepted challenge is told by its game's start.
            _ => return true,
        };
        self.lines.send(&line).await
    }

    async fn on_lobby(&mut self, event: &Event) -> bool {
        match event {
            Event::ToPlayer {
                player,
                message: Personal::Challenge(c),
            } if player == self.me() => self.challenge(c).await,
            _ => true,
        }
    }

    async fn on_site(&mut self, event: &SiteEvent) -> bool {
        let (game, seats, finished) = match event {
            SiteEvent::Started { game, seats } => (game, seats, false),
            SiteEvent::Ended { game, seats, .. } => (game, seats, true),
            // lichess's event stream tells no moves: the game's stream does.
            SiteEvent::Moved { .. } => return true,
        };
        let mine = seats
            .iter()
            .any(|s| matches!(s, Seat::Player(p) if p == self.me()));
        if !mine || (!finished && self.started.contains(game)) {
            return true;
        }
        let now = self.state.hub.now();
        let Some(info) = super::bot::game_info(&self.state, game, self.me(), now).await else {
            return true;
        };
        let kind = if finished { "gameFinish" } else { "gameStart" };
        if finished {
            self.started.remove(game);
        } else {
            self.started.insert(game.clone());
        }
        let line: Value = json!({"type": kind, "game": info});
        self.lines.send(&line).await
    }
}
