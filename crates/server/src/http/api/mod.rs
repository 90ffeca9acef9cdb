//! lichess's Bot and Board API, so that the clients written for lichess (the lichess-bot
//! bridge, berserk, board apps) play here by changing one URL: personal tokens
//! ([`tokens`], checked by [`auth`]), bot accounts and who is online ([`bot`]), the event
//! stream ([`events`]), a game's stream and commands ([`game`]), a board's seek ([`seek`]),
//! with lichess's shapes
//! ([`view`]) sent as NDJSON ([`ndjson`]). Challenges are `http::challenge`'s, which answer
//! tokens too. `docs/api.md` lists each endpoint and where it differs from lichess.

// A refusal here is the response itself, made once per request on its way out.
#![allow(clippy::result_large_err)]

pub(crate) mod auth;
mod bot;
pub(crate) use bot::game_info;
mod events;
mod game;
mod ndjson;
mod seek;
pub(crate) mod streams;
mod tokens;
pub mod view;

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use serde_json::json;

use super::AppState;
use crate::bucket::Buckets;

/// Requests to the API without a valid token (token tests among them) one address may make a
/// second, on average, and at once.
const ADDRESS_RATE: f64 = 4.0;
const ADDRESS_BURST: f64 = 40.0;

/// What the API keeps between requests: open streams, request budgets, and the games bots
/// played each other today.
pub(crate) struct ApiState {
    pub(crate) streams: streams::Streams,
    pub(crate) bot_games: BotGames,
    /// Games one bot may start against bots a day.
    pub(crate) bot_games_a_day: u32,
    tokens: Buckets<String>,
    addresses: Buckets<String>,
}

impl ApiState {
    pub(crate) fn new(limits: &crate::Limits) -> ApiState {
        let rate = f64::from(limits.api_requests_per_token_second);
        ApiState {
            streams: streams::Streams::new(limits.api_streams_per_token),
            bot_games: BotGames::default(),
            bot_games_a_day: limits.bot_games_a_day,
            tokens: Buckets::new(rate, 10.0 * rate),
            addresses: Buckets::new(ADDRESS_RATE, ADDRESS_BURST),
        }
    }

    /// Takes one request from a token's budget.
    pub(crate) fn take_token(&self, token: &str) -> bool {
        self.tokens.take(&token.to_string())
    }

    /// Whether an address has any budget left (without taking from it).
    pub(crate) fn has_address_budget(&self, address: Option<&str>) -> bool {
        address.is_none_or(|a| self.addresses.peek(&a.to_string()))
    }

    /// Takes `n` requests from an address's budget (a client without a valid token).
    pub(crate) fn take_address(&self, address: Option<&str>, n: usize) -> bool {
        let Some(a) = address else { return true };
        (0..n).all(|_| self.addresses.take(&a.to_string()))
    }
}

/// How many games each bot started against bots on a day (days since 1970, UTC), on this
/// node. Only today's count is kept.
#[derive(Default)]
pub(crate) struct BotGames(
    std::sync::Mutex<std::collections::HashMap<vizier_play::ids::PlayerId, (u64, u32)>>,
);

impl BotGames {
    /// `player`'s games against bots on `day`.
    pub(crate) fn count(&self, player: &vizier_play::ids::PlayerId, day: u64) -> u32 {
        let counts = self.0.lock().unwrap_or_else(|e| e.into_inner());
        counts
            .get(player)
            .filter(|(d, _)| *d == day)
            .map_or(0, |(_, n)| *n)
    }

    /// Counts a game on `day` for each of `players`.
    pub(crate) fn played(&self, players: &[&vizier_play::ids::PlayerId], day: u64) {
        let mut counts = self.0.lock().unwrap_or_else(|e| e.into_inner());
        counts.retain(|_, (d, _)| *d == day);
        for p in players {
            let entry = counts.entry((*p).clone()).or_insert((day, 0));
            entry.1 += 1;
        }
    }
}

/// An error in lichess's shape: `{"error": "…"}`.
pub(crate) fn error(status: StatusCode, message: impl Into<String>) -> Response {
    (status, Json(json!({ "error": message.into() }))).into_response()
}

/// lichess's success: `{"ok": true}`.
pub(crate) fn ok() -> Response {
    Json(json!({"ok": true})).into_response()
}

/// lichess's rate limit: `429`, with when to try again.
pub(crate) fn too_many() -> Response {
    let mut r = error(
        StatusCode::TOO_MANY_REQUESTS,
        "Too many requests. Try again later.",
    );
    r.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("60"));
    r
}

/// The API's routes.
pub(crate) fn routes() -> axum::Router<AppState> {
    axum::Router::new()
        .route(
            "/api/account/tokens",
            get(tokens::list).post(tokens::create),
        )
        .route("/api/account/tokens/{id}", delete(tokens::revoke))
        .route("/api/token/test", post(tokens::test))
        .route("/api/bot/account/upgrade", post(bot::upgrade))
        .route("/api/bot/online", get(bot::online))
        .route("/api/users/status", get(bot::status))
        .route("/api/account/playing", get(bot::playing))
        .route("/api/stream/event", get(events::stream))
        .route("/api/challenge/ai", post(bot::challenge_ai))
        .route("/api/board/seek", post(seek::seek))
        .route("/api/bot/game/stream/{id}", get(game::bot_stream))
        .route("/api/board/game/stream/{id}", get(game::board_stream))
        .route("/api/{api}/game/{id}/move/{uci}", post(game::make_move))
        .route(
            "/api/{api}/game/{id}/chat",
            get(game::chat_lines).post(game::chat),
        )
        .route("/api/{api}/game/{id}/{command}", post(game::command))
        .route("/api/{api}/game/{id}/{what}/{answer}", post(game::answer))
}
