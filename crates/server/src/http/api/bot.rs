//! Bot accounts and who plays: upgrading an account to a bot (`/api/bot/account/upgrade`),
//! the bots online (`/api/bot/online`), players' status (`/api/users/status`), an account's
//! games going on (`/api/account/playing`), and a game against Vizier's own levels
//! (`/api/challenge/ai`).

use axum::extract::{Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::{Value, json};
use vizier_play::ids::{GameId, PlayerId};
use vizier_rules::Color;
use vizier_store::record::Seat;

use super::auth::require;
use super::{error, ok, view};
use crate::account::token::Scope;
use crate::account::{Account, BOT};
use crate::http::address::ClientAddress;
use crate::http::body::{Body, Fields, field_text};
use crate::http::{AppState, SignedIn};

/// Games `/api/account/playing` lists at most.
const PLAYING_MOST: usize = 50;
/// Players `/api/users/status` answers for at once.
const STATUS_MOST: usize = 100;
/// Bots `/api/bot/online` lists at most.
const ONLINE_MOST: usize = 512;

fn unavailable(e: impl std::fmt::Display) -> Response {
    tracing::warn!("api: {e}");
    error(
        StatusCode::SERVICE_UNAVAILABLE,
        "the database did not answer",
    )
}

/// `POST /api/bot/account/upgrade`: the account becomes a bot for good; only one that has
/// played no game.
pub(crate) async fn upgrade(
    State(state): State<AppState>,
    Extension(signed): Extension<SignedIn>,
) -> Response {
    let account = match require(signed, &[Scope::BotPlay]) {
        Ok(a) => a,
        Err(r) => return r,
    };
    if account.is_bot() {
        return ok();
    }
    let store = &state.hub.store;
    match store
        .games_of_seat(&Seat::player_text(account.id.as_str()))
        .await
    {
        Ok(0) => {}
        Ok(_) => {
            return error(
                StatusCode::BAD_REQUEST,
                "This account has played games: only a new account can become a bot.",
            );
        }
        Err(e) => return unavailable(e),
    }
    match store.set_title(account.id.as_str(), BOT).await {
        Ok(()) => {
            // Pages signed in as the account show it as a bot from their next load.
            tracing::info!(account = %account.name, "upgraded to a bot");
            ok()
        }
        Err(e) => unavailable(e),
    }
}

#[derive(Deserialize)]
pub(crate) struct HowMany {
    nb: Option<usize>,
}

/// `GET /api/bot/online`: the bots holding a stream, as NDJSON of users.
pub(crate) async fn online(
    State(state): State<AppState>,
    Query(q): Query<HowMany>,
    address: ClientAddress,
) -> Response {
    if !state.api.take_address(address.0.as_deref(), 1) {
        return super::too_many();
    }
    let nb = q.nb.unwrap_or(100).clamp(1, ONLINE_MOST);
    let mut body = String::new();
    for player in state.api.streams.bots().into_iter().take(nb) {
        let user = match state.hub.store.user(player.as_str()).await {
            Ok(Some(u)) => u,
            Ok(None) => continue,
            Err(e) => return unavailable(e),
        };
        match crate::http::users::user_json(&state.hub.store, &user).await {
            Ok(v) => {
                body.push_str(&v.to_string());
                body.push('\n');
            }
            Err(e) => return unavailable(e),
        }
    }
    ([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response()
}

#[derive(Deserialize)]
pub(crate) struct StatusQuery {
    #[serde(default)]
    ids: String,
}

/// Whether `player` is on the site now: holding an API stream or a game's page.
fn is_online(state: &AppState, player: &PlayerId) -> bool {
    state.api.streams.is_online(player) || state.sockets.players().contains(player)
}

/// `GET /api/users/status?ids=…`: for each account named, whether it is online and playing.
pub(crate) async fn status(
    State(state): State<AppState>,
    Query(q): Query<StatusQuery>,
    address: ClientAddress,
) -> Response {
    let names: Vec<&str> = q
        .ids
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if names.len() > STATUS_MOST {
        return error(StatusCode::BAD_REQUEST, "100 ids at most");
    }
    if !state.api.take_address(address.0.as_deref(), 1) {
        return super::too_many();
    }
    let store = &state.hub.store;
    let mut answer = Vec::new();
    for name in names {
        let user = match store.user_by_name(name).await {
            Ok(Some(u)) if u.closed_at.is_none() => u,
            Ok(_) => continue,
            Err(e) => return unavailable(e),
        };
        let player = PlayerId::known(user.id.clone());
        let mut v = json!({"id": user.name.to_lowercase(), "name": user.name});
        if let Some(t) = &user.title {
            v["title"] = json!(t);
        }
        if is_online(&state, &player) {
            v["online"] = json!(true);
        }
        match store
            .unfinished_games_of(&Seat::player_text(&user.id))
            .await
        {
            Ok(n) if n > 0 => v["playing"] = json!(true),
            Ok(_) => {}
            Err(e) => return unavailable(e),
        }
        answer.push(v);
    }
    Json(answer).into_response()
}

/// The games `player` is playing, each with its snapshot and the side they play: the most
/// urgent first (their turn, least time left).
pub(crate) async fn games_of(
    state: &AppState,
    player: &PlayerId,
    most: usize,
) -> Result<Vec<Value>, Response> {
    let seat = Seat::player_text(player.as_str());
    let ids = state
        .hub
        .store
        .unfinished_game_ids(&seat, most as i64)
        .await
        .map_err(unavailable)?;
    let now = state.hub.now();
    let mut games = Vec::new();
    for id in ids {
        let Some(info) = game_info(state, &GameId::stored(id), player, now).await else {
            continue;
        };
        games.push(info);
    }
    games.sort_by_key(|g| {
        (
            !g["isMyTurn"].as_bool().unwrap_or(false),
            g["secondsLeft"].as_u64().unwrap_or(u64::MAX),
        )
    });
    Ok(games)
}

/// The game `id` as `player` sees it in the event stream, if it has begun and they play it.
pub(crate) async fn game_info(
    state: &AppState,
    id: &GameId,
    player: &PlayerId,
    now: vizier_arbiter::Millis,
) -> Option<Value> {
    let handle = state.hub.game(id).await.ok()?;
    let (game, round) = handle.export().await?;
    let color: Color = *round.sides_of(Some(player)).first()?;
    let last = game
        .plies()
        .last()
        .map_or(String::new(), |p| p.uci.to_string());
    Some(view::game_info(&round, color, &last, now))
}

/// `GET /api/account/playing`: the account's games going on.
pub(crate) async fn playing(
    State(state): State<AppState>,
    Extension(signed): Extension<SignedIn>,
    Query(q): Query<HowMany>,
) -> Response {
    let Some(account) = signed.0 else {
        return super::auth::no_such_token();
    };
    let nb = q.nb.unwrap_or(9).clamp(1, PLAYING_MOST);
    match games_of(&state, &account.id, nb).await {
        Ok(games) => {
            let my_turn = games
                .iter()
                .filter(|g| g["isMyTurn"] == json!(true))
                .count();
            let now_playing: Vec<Value> = games
                .into_iter()
                .map(|mut g| {
                    if let Some(o) = g.as_object_mut() {
                        o.remove("type");
                    }
                    g
                })
                .collect();
            Json(json!({"nowPlaying": now_playing, "nbMyTurn": my_turn})).into_response()
        }
        Err(r) => r,
    }
}

/// `POST /api/challenge/ai`: a game against Vizier at `level` (1-8), with `clock.limit` and
/// `clock.increment` (seconds) or `days`, `color`, `variant` and `fen`.
pub(crate) async fn challenge_ai(
    State(state): State<AppState>,
    Extension(signed): Extension<SignedIn>,
    address: ClientAddress,
    body: Result<Body<Fields>, Response>,
) -> Response {
    let account: Account = match require(
        signed,
        &[Scope::ChallengeWrite, Scope::BotPlay, Scope::BoardPlay],
    ) {
        Ok(a) => a,
        Err(r) => return r,
    };
    let fields = body.map(Body::into_value).unwrap_or_default();
    let field = |path: &str| field_text(&fields, path);
    let number = |path: &str| field(path).map(|t| t.parse::<u64>());
    let time_control = match (
        number("clock.limit"),
        number("clock.increment"),
        number("days"),
    ) {
        (Some(Ok(limit)), increment, None) => {
            let increment = match increment {
                Some(Ok(i)) => i,
                None => 0,
                Some(Err(_)) => {
                    return error(StatusCode::BAD_REQUEST, "clock.increment is a number");
                }
            };
            format!("{limit}+{increment}")
        }
        (None, None, Some(Ok(days))) => format!("1/{}", days * 86_400),
        (None, None, None) => "-".to_string(),
        _ => {
            return error(
                StatusCode::BAD_REQUEST,
                "clock.limit, clock.increment or days",
            );
        }
    };
    let level = match field("level").map(|l| l.parse::<u8>()) {
        Some(Ok(l)) => l,
        None => 1,
        Some(Err(_)) => return error(StatusCode::BAD_REQUEST, "level is 1 to 8"),
    };
    let variant = field("variant").unwrap_or_else(|| "standard".into());
    let fen = field("fen").filter(|f| !f.trim().is_empty());
    let chess960 = match variant.as_str() {
        "standard" | "fromPosition" => false,
        "chess960" => true,
        other => {
            return error(
                StatusCode::BAD_REQUEST,
                format!("variant {other} is not played here"),
            );
        }
    };
    let req = crate::http::games::CreateGame {
        kind: vizier_store::record::Kind::Computer,
        level: Some(level),
        color: field("color"),
        time_control: Some(time_control),
        chess960,
        takebacks: None,
        rated: false,
        arbiter: None,
        king_fouls: false,
        human_pace: false,
        fen: fen.clone(),
    };
    let id = match crate::http::games::create_game(&state, &account.id, address.0.as_deref(), req)
        .await
    {
        Ok(id) => id,
        Err(r) => return lichess_error(r).await,
    };
    let now = state.hub.now();
    match game_info(&state, &id, &account.id, now).await {
        Some(info) => (
            StatusCode::CREATED,
            Json(json!({
                "id": id,
                "variant": info["variant"],
                "speed": info["speed"],
                "perf": info["perf"],
                "rated": false,
                "fen": info["fen"],
                "turns": 0,
                "source": "ai",
                "status": info["status"],
                "player": info["color"],
                "createdAt": now,
            })),
        )
            .into_response(),
        None => error(
            StatusCode::SERVICE_UNAVAILABLE,
            "the game could not be loaded",
        ),
    }
}

/// A refusal of the web API, in lichess's shape (`{"error": …}`, same status).
async fn lichess_error(r: Response) -> Response {
    let status = r.status();
    let bytes = axum::body::to_bytes(r.into_body(), 64 * 1024)
        .await
        .unwrap_or_default();
    let message = serde_json::from_slice::<Value>(&bytes)
        .ok()
        .and_then(|v| v["error"].as_str().map(str::to_string))
        .unwrap_or_else(|| String::from_utf8_lossy(&bytes).into_owned());
    error(status, message)
}
