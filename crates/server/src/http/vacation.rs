//! Correspondence vacations: `GET /api/account/vacation`, `POST /api/account/vacation`
//! (`days`) and `POST /api/account/vacation/end`. An account has [`DAYS_A_YEAR`] days a
//! calendar year; while on vacation its clocks stand in every correspondence game it plays.
//! Each game is told through its own command, so its clock, stored log and replays agree.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde_json::{Value, json};
use vizier_play::act::{Act, Action};
use vizier_play::ids::{GameId, PlayerId};
use vizier_play::round::Answer;
use vizier_store::VacationRow;
use vizier_store::record::Seat;

use super::account::changes_by;
use super::body::{Body, Fields, field_text};
use super::{AppState, SignedIn, api};

/// Vacation days an account may take in a calendar year.
pub const DAYS_A_YEAR: i64 = 30;
const DAY: i64 = 86_400_000;
/// Games a vacation is sent to at most (more than any player may have open).
const MOST_GAMES: i64 = 1_000;

/// The vacation under way at `now`, if any: `(from, until)`.
fn away_at(v: &VacationRow, now: i64) -> Option<(i64, i64)> {
    v.away.filter(|&(from, until)| from <= now && now < until)
}

/// The account's vacations as of `now`: this year's days, the one under way.
fn view(v: &VacationRow, now: i64) -> Value {
    let year = crate::date::year(now as u64);
    let used = if v.year == year { v.days_used } else { 0 };
    let away = away_at(v, now);
    json!({
        "daysPerYear": DAYS_A_YEAR,
        "daysLeft": DAYS_A_YEAR - used,
        "awayUntil": away.map(|a| a.1),
    })
}

async fn read(state: &AppState, user: &str) -> Result<VacationRow, Response> {
    state
        .hub
        .store
        .vacation(user)
        .await
        .map_err(|_| api::error(StatusCode::SERVICE_UNAVAILABLE, "Try again"))
}

/// Tells each of `player`'s games going on that they are away until `until` (back, when it
/// is now); games without days a move refuse, as they should. The number told.
async fn tell_games(state: &AppState, player: &PlayerId, until: u64) -> usize {
    let seat = Seat::player_text(player.as_str());
    let ids = (state.hub.store.unfinished_game_ids(&seat, MOST_GAMES).await).unwrap_or_default();
    let mut told = 0;
    for id in ids.iter().filter_map(|id| GameId::parse(id)) {
        let act = Act {
            side: None,
            key: None,
            action: Action::Vacation { until },
        };
        if let Some(answered) = state.hub.act_as(&id, player.clone(), act).await
            && matches!(answered.answer, Answer::Done)
        {
            told += 1;
        }
    }
    told
}

/// `GET /api/account/vacation`.
pub(super) async fn show(
    State(state): State<AppState>,
    Extension(signed): Extension<SignedIn>,
) -> Response {
    let Some(a) = signed.0 else {
        return api::error(StatusCode::UNAUTHORIZED, "Sign in first");
    };
    match read(&state, a.id.as_str()).await {
        Ok(v) => Json(view(&v, state.hub.now() as i64)).into_response(),
        Err(r) => r,
    }
}

/// `POST /api/account/vacation` with `days`: a vacation from now.
pub(super) async fn start(
    State(state): State<AppState>,
    headers: HeaderMap,
    Extension(signed): Extension<SignedIn>,
    body: Body<Fields>,
) -> Response {
    let a = match changes_by(&state, &headers, signed) {
        Ok(a) => a,
        Err(r) => return *r,
    };
    let now = state.hub.now() as i64;
    let mut v = match read(&state, a.id.as_str()).await {
        Ok(v) => v,
        Err(r) => return r,
    };
    let year = crate::date::year(now as u64);
    if v.year != year {
        v.year = year;
        v.days_used = 0;
    }
    if away_at(&v, now).is_some() {
        return api::error(StatusCode::BAD_REQUEST, "You are on vacation already");
    }
    let left = DAYS_A_YEAR - v.days_used;
    let days = field_text(&body.into_value(), "days").and_then(|d| d.trim().parse::<i64>().ok());
    let Some(days) = days.filter(|d| (1..=left).contains(d)) else {
        return api::error(
            StatusCode::BAD_REQUEST,
            format!("days: 1 to {left}, the vacation days left this year"),
        );
    };
    let until = now + days * DAY;
    v.days_used += days;
    v.away = Some((now, until));
    save_and_tell(&state, &a.id, &v, until, now).await
}

/// Stores `player`'s vacations, tells their games they are away until `until` (back, when
/// it is `now`), and answers with the account's vacations and the games told.
async fn save_and_tell(
    state: &AppState,
    player: &PlayerId,
    v: &VacationRow,
    until: i64,
    now: i64,
) -> Response {
    if state
        .hub
        .store
        .save_vacation(player.as_str(), v)
        .await
        .is_err()
    {
        return api::error(StatusCode::SERVICE_UNAVAILABLE, "Try again");
    }
    let games = tell_games(state, player, until as u64).await;
    let mut out = view(v, now);
    out["games"] = json!(games);
    Json(out).into_response()
}

/// `POST /api/account/vacation/end`: back now; the whole days not begun are given back.
pub(super) async fn end(
    State(state): State<AppState>,
    headers: HeaderMap,
    Extension(signed): Extension<SignedIn>,
) -> Response {
    let a = match changes_by(&state, &headers, signed) {
        Ok(a) => a,
        Err(r) => return *r,
    };
    let now = state.hub.now() as i64;
    let mut v = match read(&state, a.id.as_str()).await {
        Ok(v) => v,
        Err(r) => return r,
    };
    let Some((from, until)) = away_at(&v, now) else {
        return api::error(StatusCode::BAD_REQUEST, "You are not on vacation");
    };
    if v.year == crate::date::year(now as u64) {
        v.days_used = (v.days_used - (until - now) / DAY).max(0);
    }
    v.away = Some((from, now));
    save_and_tell(&state, &a.id, &v, now, now).await
}
