//! Routes: the JSON API ([`games`]), the game socket ([`socket`]), the player cookie, and the
//! embedded web client.

mod games;
mod socket;

use std::sync::Arc;

use axum::extract::{FromRef, Request};
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use axum_extra::extract::SignedCookieJar;
use axum_extra::extract::cookie::{Cookie, Key, SameSite};

use crate::hub::Hub;

const PLAYER_COOKIE: &str = "vizier_player";

/// What the handlers share.
#[derive(Clone)]
pub struct AppState {
    pub hub: Arc<Hub>,
    key: Key,
}

impl AppState {
    /// State over `hub`, signing cookies with `key` (at least 64 bytes).
    pub fn new(hub: Arc<Hub>, key: &[u8]) -> AppState {
        AppState {
            hub,
            key: Key::from(key),
        }
    }
}

impl FromRef<AppState> for Key {
    fn from_ref(state: &AppState) -> Key {
        state.key.clone()
    }
}

/// The player's id from their signed cookie.
#[derive(Clone, Debug)]
pub struct Player(pub String);

/// The app.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/api/levels", get(levels))
        .route("/api/games", post(games::create))
        .route("/api/games/{id}/pgn", get(games::pgn))
        .route("/api/games/{id}/socket", get(socket::socket))
        .route("/healthz", get(|| async { "ok" }))
        .fallback(crate::assets::serve)
        .layer(middleware::from_fn_with_state(state.clone(), identify))
        .with_state(state)
}

/// Gives every browser an anonymous player id in a signed, HttpOnly, SameSite cookie.
async fn identify(jar: SignedCookieJar, mut request: Request, next: Next) -> Response {
    let known = jar
        .get(PLAYER_COOKIE)
        .map(|c| c.value().to_string())
        .filter(|v| v.len() == 32 && v.bytes().all(|b| b.is_ascii_hexdigit()));
    let (id, jar) = match known {
        Some(id) => (id, None),
        None => {
            let id: String = rand::random::<[u8; 16]>()
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            let cookie = Cookie::build((PLAYER_COOKIE, id.clone()))
                .path("/")
                .http_only(true)
                .same_site(SameSite::Lax)
                .max_age(time::Duration::days(400))
                .build();
            (id, Some(jar.add(cookie)))
        }
    };
    request.extensions_mut().insert(Player(id));
    let response = next.run(request).await;
    match jar {
        Some(jar) => (jar, response).into_response(),
        None => response,
    }
}

async fn levels() -> Json<Vec<crate::levels::LevelInfo>> {
    Json(crate::levels::all())
}

pub(super) fn bad_request(message: impl Into<String>) -> Response {
    (
        StatusCode::BAD_REQUEST,
        Json(serde_json::json!({ "error": message.into() })),
    )
        .into_response()
}

pub(super) fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "no such game").into_response()
}
