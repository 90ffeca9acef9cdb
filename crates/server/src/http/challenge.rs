//! Challenges in lichess's shape: `POST /api/challenge/{username}` (`rated`, `clock.limit`,
//! `clock.increment`, `color`, `variant`, as a form or JSON), `GET /api/challenge` (`in` and
//! `out`), and `accept`, `decline` (with a `reason`) and `cancel` on
//! `/api/challenge/{id}/…`. Both players' lobby sockets hear of every change.

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde_json::json;
use vizier_play::ids::PlayerId;

use super::address::ClientAddress;
use super::body::{Body, Fields, field_text};
use super::{AppState, Player, SignedIn, api, refusal};
use crate::account::token::Scope;
use crate::lobby::model::ChallengeRequest;
use crate::lobby::{LobbyError, Member};
use crate::protocol::ErrorCode;

fn refused(e: &LobbyError) -> Response {
    let (status, code) = match e {
        LobbyError::RatedNeedsAccount => (StatusCode::BAD_REQUEST, ErrorCode::RatedNeedsAccount),
        LobbyError::Create(_) => (StatusCode::SERVICE_UNAVAILABLE, ErrorCode::Storage),
        LobbyError::Limit(_) => (StatusCode::TOO_MANY_REQUESTS, ErrorCode::TooManyGames),
        LobbyError::Challenge("no such challenge") => {
            (StatusCode::NOT_FOUND, ErrorCode::NoSuchSeek)
        }
        _ => (StatusCode::BAD_REQUEST, ErrorCode::BadRequest),
    };
    refusal(status, code, e.to_string())
}

/// A request that changes a challenge: from this server's pages, by an account.
fn gate(
    state: &AppState,
    headers: &HeaderMap,
    player: PlayerId,
    signed: SignedIn,
    address: ClientAddress,
) -> Result<Member, Box<Response>> {
    let account = super::account::changes_by(state, headers, signed)?;
    if let Some(scopes) = account.scopes
        && !scopes.any(&[Scope::ChallengeWrite, Scope::BotPlay, Scope::BoardPlay])
    {
        return Err(Box::new(api::error(
            StatusCode::FORBIDDEN,
            "Missing scope: challenge:write,bot:play,board:play",
        )));
    }
    Ok(Member {
        player,
        name: Some(account.name),
        address: address.0,
    })
}

/// The signed-in player, or the refusal for a guest.
fn signed_in(player: PlayerId, signed: SignedIn) -> Result<Member, Box<Response>> {
    match signed.0 {
        Some(a)
            if a.scopes.is_some_and(|s| {
                !s.any(&[
                    Scope::ChallengeRead,
                    Scope::ChallengeWrite,
                    Scope::BotPlay,
                    Scope::BoardPlay,
                ])
            }) =>
        {
            Err(Box::new(api::error(
                StatusCode::FORBIDDEN,
                "Missing scope: challenge:read,challenge:write,bot:play,board:play",
            )))
        }
        Some(a) => Ok(Member {
            player,
            name: Some(a.name),
            address: None,
        }),
        None => Err(Box::new(refusal(
            StatusCode::UNAUTHORIZED,
            ErrorCode::NotSignedIn,
            "sign in to send and answer challenges",
        ))),
    }
}

/// `POST /api/challenge/{username}`.
pub(super) async fn create(
    State(state): State<AppState>,
    Extension(Player(player)): Extension<Player>,
    Extension(signed): Extension<SignedIn>,
    Path(name): Path<String>,
    headers: HeaderMap,
    address: ClientAddress,
    body: Body<Fields>,
) -> Response {
    let from_bot = signed.0.as_ref().is_some_and(|a| a.is_bot());
    let from = match gate(&state, &headers, player, signed, address) {
        Ok(m) => m,
        Err(r) => return *r,
    };
    let (to, to_bot) = match state.hub.store.user_by_name(&name).await {
        Ok(Some(u)) if u.closed_at.is_none() => {
            let bot = u.title.as_deref() == Some(crate::account::BOT);
            let to = Member {
                player: PlayerId::known(u.id),
                name: Some(u.name),
                address: None,
            };
            (to, bot)
        }
        Ok(_) => {
            return (
                StatusCode::NOT_FOUND,
                Json(json!({"error": "no such player"})),
            )
                .into_response();
        }
        Err(e) => {
            tracing::warn!("challenge: {e}");
            return refused(&LobbyError::Create(e.to_string()));
        }
    };
    let fields = body.into_value();
    let number = |key: &str, default: u64| -> Result<u64, String> {
        match field_text(&fields, key) {
            None => Ok(default),
            Some(t) => t
                .parse()
                .map_err(|_| format!("{key} is a number of seconds")),
        }
    };
    let days = match field_text(&fields, "days").map(|d| d.parse::<u32>()) {
        None => None,
        Some(Ok(d)) if [1, 2, 3, 5, 7, 10, 14].contains(&d) => Some(d),
        Some(_) => {
            return refusal(
                StatusCode::BAD_REQUEST,
                ErrorCode::BadRequest,
                "days is 1, 2, 3, 5, 7, 10 or 14",
            );
        }
    };
    let (limit, increment) = match (number("clock.limit", 300), number("clock.increment", 3)) {
        (Ok(l), Ok(i)) => (l, i),
        (Err(why), _) | (_, Err(why)) => {
            return refusal(StatusCode::BAD_REQUEST, ErrorCode::BadRequest, why);
        }
    };
    if from_bot
        && to_bot
        && let Err(refused) = bots_may_play(&state, &from, &to)
    {
        return *refused;
    }
    let variant = field_text(&fields, "variant").unwrap_or_else(|| "standard".into());
    let fen = field_text(&fields, "fen").filter(|f| !f.trim().is_empty());
    if !matches!(variant.as_str(), "standard" | "chess960" | "fromPosition") {
        return refusal(
            StatusCode::BAD_REQUEST,
            ErrorCode::BadRequest,
            format!("variant {variant} is not played here"),
        );
    }
    let req = ChallengeRequest {
        limit,
        increment,
        days,
        color: field_text(&fields, "color").unwrap_or_else(|| "random".into()),
        rated: field_text(&fields, "rated").is_some_and(|r| r == "true"),
        chess960: variant == "chess960",
        fen,
    };
    match state.lobby.challenge(&from, &to, req).await {
        Ok(c) => {
            let site = state.hub.site().unwrap_or_default();
            Json(api::view::challenge(&c, &from.player, &site)).into_response()
        }
        Err(e) => refused(&e),
    }
}

const DAY_MS: u64 = 86_400_000;

/// Whether two bots may start one more game today: each plays `bot_games_a_day` games
/// against bots a day at most (UTC), as on lichess. The refusal is lichess's, with its
/// `ratelimit` object: 429 for the challenger's own limit, 400 for the opponent's.
fn bots_may_play(state: &AppState, from: &Member, to_user: &Member) -> Result<(), Box<Response>> {
    let now = state.hub.now();
    let (day, most) = (now / DAY_MS, state.api.bot_games_a_day);
    let seconds = ((day + 1) * DAY_MS - now).div_ceil(1_000);
    let ratelimit = json!({"key": "bot.vsBot.day", "seconds": seconds});
    if state.api.bot_games.count(&from.player, day) >= most {
        let error = format!(
            "You played {most} games against other bots today, please wait before challenging another bot."
        );
        return Err(Box::new(
            (
                StatusCode::TOO_MANY_REQUESTS,
                Json(json!({"error": error, "ratelimit": ratelimit})),
            )
                .into_response(),
        ));
    }
    if state.api.bot_games.count(&to_user.player, day) >= most {
        let name = to_user.name.clone().unwrap_or_default();
        let until = crate::date::iso((day + 1) * DAY_MS);
        let error = format!(
            "{name} played {most} games against other bots today, please wait until {until} to challenge them."
        );
        return Err(Box::new(
            (
                StatusCode::BAD_REQUEST,
                Json(json!({"error": error, "ratelimit": ratelimit})),
            )
                .into_response(),
        ));
    }
    Ok(())
}

/// `GET /api/challenge`: the challenges to (`in`) and from (`out`) the player.
pub(super) async fn list(
    State(state): State<AppState>,
    Extension(Player(player)): Extension<Player>,
    Extension(signed): Extension<SignedIn>,
) -> Response {
    let me = match signed_in(player, signed) {
        Ok(m) => m,
        Err(r) => return *r,
    };
    let (incoming, outgoing) = state.lobby.challenges_of(&me.player).await;
    Json(json!({"in": incoming, "out": outgoing})).into_response()
}

/// `POST /api/challenge/{id}/accept`.
pub(super) async fn accept(
    State(state): State<AppState>,
    Extension(Player(player)): Extension<Player>,
    Extension(signed): Extension<SignedIn>,
    Path(id): Path<String>,
    headers: HeaderMap,
    address: ClientAddress,
) -> Response {
    let me = match gate(&state, &headers, player, signed, address) {
        Ok(m) => m,
        Err(r) => return *r,
    };
    match state.lobby.accept_challenge(&me, &id).await {
        Ok(c) => {
            if c.challenger.is_bot() && c.dest_user.is_bot() {
                let day = state.hub.now() / DAY_MS;
                state
                    .api
                    .bot_games
                    .played(&[&c.challenger.player, &c.dest_user.player], day);
            }
            Json(json!({"ok": true, "game": c.game})).into_response()
        }
        Err(e) => refused(&e),
    }
}

/// `POST /api/challenge/{id}/decline`, with `reason` (lichess's: generic, later, tooFast, …).
pub(super) async fn decline(
    State(state): State<AppState>,
    Extension(Player(player)): Extension<Player>,
    Extension(signed): Extension<SignedIn>,
    Path(id): Path<String>,
    headers: HeaderMap,
    address: ClientAddress,
    body: Result<Body<Fields>, Response>,
) -> Response {
    let me = match gate(&state, &headers, player, signed, address) {
        Ok(m) => m,
        Err(r) => return *r,
    };
    let reason = body
        .ok()
        .and_then(|b| field_text(&b.into_value(), "reason"))
        .unwrap_or_else(|| "generic".into());
    match state.lobby.decline_challenge(&me, &id, &reason).await {
        Ok(()) => Json(json!({"ok": true})).into_response(),
        Err(e) => refused(&e),
    }
}

/// `POST /api/challenge/{id}/cancel`: the challenger withdraws.
pub(super) async fn cancel(
    State(state): State<AppState>,
    Extension(Player(player)): Extension<Player>,
    Extension(signed): Extension<SignedIn>,
    Path(id): Path<String>,
    headers: HeaderMap,
    address: ClientAddress,
) -> Response {
    let me = match gate(&state, &headers, player, signed, address) {
        Ok(m) => m,
        Err(r) => return *r,
    };
    match state.lobby.cancel_challenge(&me, &id).await {
        Ok(()) => Json(json!({"ok": true})).into_response(),
        Err(e) => refused(&e),
    }
}
