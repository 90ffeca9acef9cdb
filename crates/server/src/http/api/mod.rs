//! lichess's Bot and Board API, so that the clients written for lichess (the lichess-bot
//! bridge, berserk, board apps) play here by changing one URL: personal tokens
//! ([`tokens`], checked by [`auth`]), bot accounts and who is online ([`bot`]), the event
//! stream ([`events`]), a game's stream and commands ([`game`]), with lichess's shapes
//! ([`view`]) sent as NDJSON ([`ndjson`]). Challenges are `http::challenge`'s, which answer
//! tokens too. `docs/api.md` lists each endpoint and where it differs from lichess.

// A refusal here is the response itself, made once per request on its way out.
#![allow(clippy::result_large_err)]

pub(crate) mod auth;
mod bot;
mod events;
mod game;
mod ndjson;
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

/// Requests one token may make a second, on average...
const TOKEN_RATE: f64 = 8.0;
/// ...and at once.
const TOKEN_BURST: f64 = 80.0;
/// Requests to the API without a valid token (token tests among them) one address may make a
/// second, on average, and at once.
const ADDRESS_RATE: f64 = 4.0;
const ADDRESS_BURST: f64 = 40.0;

/// What the API keeps between requests: open streams and request budgets.
pub(crate) struct ApiState {
    pub(crate) streams: streams::Streams,
    tokens: Buckets<String>,
    addresses: Buckets<String>,
}

impl ApiState {
    pub(crate) fn new() -> ApiState {
        ApiState {
            streams: streams::Streams::default(),
            tokens: Buckets::new(TOKEN_RATE, TOKEN_BURST),
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
