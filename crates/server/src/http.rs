//! Routes: the JSON API, the game socket, and the embedded web client.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{FromRef, Path, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use axum_extra::extract::SignedCookieJar;
use axum_extra::extract::cookie::{Cookie, Key, SameSite};
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use vizier_arbiter::{ClockStart, Options, Setup, StartPosition, TimeControl};
use vizier_rules::Color;

use crate::hub::{Hub, HubError, NewGame};
use crate::protocol::{ClientMessage, ErrorCode, GameKind, ServerMessage};
use crate::record::Kind;
use crate::round::GameHandle;

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
        .route("/api/games", post(create_game))
        .route("/api/games/{id}/pgn", get(pgn))
        .route("/api/games/{id}/socket", get(socket))
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

/// A request for a new game, from the home page.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateGame {
    pub kind: GameKind,
    /// 1-8, for games against the computer.
    #[serde(default)]
    pub level: Option<u8>,
    /// "white", "black" or "random" (default).
    #[serde(default)]
    pub color: Option<String>,
    /// PGN TimeControl form: "300+3", "40/5400+30:1800+30", "300d5", "-" for none.
    #[serde(default)]
    pub time_control: Option<String>,
    #[serde(default)]
    pub chess960: bool,
    /// Takebacks by agreement (always allowed against the computer).
    #[serde(default)]
    pub takebacks: Option<bool>,
}

#[derive(Debug, Serialize)]
struct Created {
    id: String,
}

fn bad_request(message: impl Into<String>) -> Response {
    (
        StatusCode::BAD_REQUEST,
        Json(serde_json::json!({ "error": message.into() })),
    )
        .into_response()
}

/// Longest base time accepted: a day (correspondence uses its own form).
const MAX_BASE_MS: u64 = 24 * 3_600_000;

/// Why a time control is refused for a new game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ControlRefused {
    TooManyPeriods,
    TooLong,
    EmptyPeriod,
    NoTime,
    NoFirstBase,
}

impl std::fmt::Display for ControlRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ControlRefused::TooManyPeriods => "at most five periods",
            ControlRefused::TooLong => "base at most a day, increment and delay at most 10 minutes",
            ControlRefused::EmptyPeriod => "a period needs at least one move",
            ControlRefused::NoTime => "the clock needs some time",
            ControlRefused::NoFirstBase => "the first period needs a base time",
        })
    }
}

fn check_control(tc: &TimeControl) -> Result<(), ControlRefused> {
    if let TimeControl::Clock(periods) = tc {
        if periods.len() > 5 {
            return Err(ControlRefused::TooManyPeriods);
        }
        for p in periods {
            if p.base_ms > MAX_BASE_MS || p.increment_ms > 600_000 || p.delay.ms() > 600_000 {
                return Err(ControlRefused::TooLong);
            }
            if p.moves == Some(0) {
                return Err(ControlRefused::EmptyPeriod);
            }
        }
        if periods
            .iter()
            .all(|p| p.base_ms == 0 && p.increment_ms == 0 && p.delay.ms() == 0)
        {
            return Err(ControlRefused::NoTime);
        }
        if periods.first().is_some_and(|p| p.base_ms == 0) {
            return Err(ControlRefused::NoFirstBase);
        }
    }
    Ok(())
}

async fn create_game(
    State(state): State<AppState>,
    Extension(Player(player)): Extension<Player>,
    body: Result<Json<CreateGame>, axum::extract::rejection::JsonRejection>,
) -> Response {
    let Json(req) = match body {
        Ok(b) => b,
        Err(e) => return bad_request(e.body_text()),
    };
    let control = match TimeControl::parse_pgn(req.time_control.as_deref().unwrap_or("-")) {
        Ok(tc) => tc,
        Err(e) => return bad_request(e.to_string()),
    };
    if let Err(e) = check_control(&control) {
        return bad_request(e.to_string());
    }
    let level = req.level.unwrap_or(3);
    if !(vizier_engine::level::MIN..=vizier_engine::level::MAX).contains(&level) {
        return bad_request(format!(
            "levels go from {} to {}",
            vizier_engine::level::MIN,
            vizier_engine::level::MAX
        ));
    }
    let color = match req.color.as_deref().unwrap_or("random") {
        "white" => Color::White,
        "black" => Color::Black,
        "random" => {
            if rand::random::<bool>() {
                Color::White
            } else {
                Color::Black
            }
        }
        other => return bad_request(format!("colour \"{other}\": white, black or random")),
    };
    let timed = !matches!(control, TimeControl::Unlimited);
    let kind = Kind::from(req.kind);
    let setup = Setup {
        start: if req.chess960 {
            StartPosition::chess960_random()
        } else {
            StartPosition::Standard
        },
        control,
        // Online, the clocks start with each side's first move (as on every play site), and a
        // side that does not move within 30 s aborts the game.
        clock_start: if timed && kind != Kind::Local {
            ClockStart::AfterFirstMoves {
                first_move_timeout_ms: 30_000,
            }
        } else {
            ClockStart::Fide
        },
        options: Options {
            takebacks: req.takebacks.unwrap_or(kind != Kind::Friend),
            ..Options::default()
        },
        ..Setup::default()
    };
    let new = NewGame {
        kind,
        setup,
        color,
        level,
        opponent: None,
    };
    match state.hub.create(&player, new).await {
        Ok(id) => (StatusCode::CREATED, Json(Created { id })).into_response(),
        Err(HubError::Setup(e)) => bad_request(e.to_string()),
        Err(e) => {
            tracing::error!("creating a game: {e}");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                "the game could not be stored",
            )
                .into_response()
        }
    }
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "no such game").into_response()
}

async fn pgn(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let Ok(handle) = state.hub.game(&id).await else {
        return not_found();
    };
    match handle.pgn().await {
        Some(pgn) => (
            [
                (
                    header::CONTENT_TYPE,
                    "application/x-chess-pgn; charset=utf-8".to_string(),
                ),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"vizier-{id}.pgn\""),
                ),
            ],
            pgn,
        )
            .into_response(),
        None => not_found(),
    }
}

/// Whether a WebSocket request comes from a page of this server: the Origin's host must be
/// the Host the browser asked for (a page elsewhere cannot drive a player's games).
fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        // Not a browser: a script with the player's cookie is the player.
        return true;
    };
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    let origin_host = origin.split_once("://").map(|(_, rest)| rest);
    matches!((origin_host, host), (Some(o), Some(h)) if o.eq_ignore_ascii_case(h))
}

async fn socket(
    State(state): State<AppState>,
    Extension(Player(player)): Extension<Player>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    if !same_origin(&headers) {
        return (StatusCode::FORBIDDEN, "cross-origin WebSocket refused").into_response();
    }
    let handle = match state.hub.game(&id).await {
        Ok(h) => h,
        Err(HubError::NotFound) => return not_found(),
        Err(e) => {
            tracing::error!(game = %id, "opening: {e}");
            return (
                StatusCode::SERVICE_UNAVAILABLE,
                "the game could not be loaded",
            )
                .into_response();
        }
    };
    // Client messages are small: a small read buffer keeps a thousand sockets cheap.
    ws.max_message_size(4 * 1024)
        .read_buffer_size(8 * 1024)
        .on_upgrade(move |socket| play(socket, handle, player))
}

/// Messages per second a connection may send, and the burst it may save up.
const RATE: f64 = 10.0;
const BURST: f64 = 30.0;

/// A token bucket.
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * RATE).min(BURST);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

async fn play(socket: WebSocket, handle: GameHandle, player: String) {
    let (mut sink, mut stream) = socket.split();
    let (outbox, mut inbox) = tokio::sync::mpsc::channel::<String>(64);
    let Some(conn) = handle.connect(Some(player), outbox.clone()).await else {
        return;
    };
    let writer = tokio::spawn(async move {
        while let Some(text) = inbox.recv().await {
            if sink.send(Message::Text(text.into())).await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    let mut bucket = Bucket {
        tokens: BURST,
        at: Instant::now(),
    };
    let error = |code, message: &str| {
        ServerMessage::Error {
            id: None,
            code,
            message: message.into(),
        }
        .to_json()
    };
    loop {
        let next = tokio::time::timeout(Duration::from_secs(120), stream.next()).await;
        let message = match next {
            Ok(Some(Ok(m))) => m,
            // Closed, broken, or silent for two minutes (clients ping every 25 s).
            _ => break,
        };
        let text = match message {
            Message::Text(t) => t,
            Message::Close(_) => break,
            Message::Binary(_) => {
                let _ = outbox.try_send(error(ErrorCode::BadMessage, "send JSON text"));
                continue;
            }
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        if !bucket.take() {
            let _ = outbox.try_send(error(
                ErrorCode::RateLimited,
                "too many messages: slow down",
            ));
            continue;
        }
        match serde_json::from_str::<ClientMessage>(text.as_str()) {
            Ok(m) => {
                if !handle.message(conn, m).await {
                    break;
                }
            }
            Err(e) => {
                let _ = outbox.try_send(error(
                    ErrorCode::BadMessage,
                    &format!("not a message of protocol v1: {e}"),
                ));
            }
        }
    }
    handle.disconnect(conn).await;
    drop(outbox);
    let _ = writer.await;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(origin: Option<&str>, host: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, host.parse().unwrap());
        if let Some(o) = origin {
            h.insert(header::ORIGIN, o.parse().unwrap());
        }
        h
    }

    #[test]
    fn origins() {
        assert!(same_origin(&headers(
            Some("http://127.0.0.1:8080"),
            "127.0.0.1:8080"
        )));
        assert!(same_origin(&headers(None, "127.0.0.1:8080")));
        assert!(!same_origin(&headers(
            Some("http://evil.example"),
            "127.0.0.1:8080"
        )));
        assert!(!same_origin(&headers(Some("null"), "127.0.0.1:8080")));
    }

    #[test]
    fn controls() {
        let ok = |s: &str| check_control(&TimeControl::parse_pgn(s).unwrap()).is_ok();
        assert!(ok("300+3"));
        assert!(ok("-"));
        assert!(ok("40/5400+30:1800+30"));
        assert!(!ok("0"));
        assert!(!ok("999999"));
    }
}
