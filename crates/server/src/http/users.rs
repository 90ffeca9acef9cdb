//! Players in lichess's shape: `GET /api/user/{name}` (ratings per class as `perfs`, game
//! counts) and `GET /api/user/{name}/rating-history`, so that lichess's clients read them.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::{Map, Value, json};
use vizier_rating::level::Level;
use vizier_rating::{Class, Perf};

use super::{AppState, refusal};
use crate::protocol::ErrorCode;
use vizier_play::time::now_ms;
use vizier_store::{GameRatingRow, Store, StoreError, UserRow};

/// How many rated games `prog` looks back over (as lichess).
const PROGRESS_GAMES: usize = 12;

fn store_failed(e: StoreError) -> Response {
    tracing::warn!("reading a player: {e}");
    refusal(
        StatusCode::SERVICE_UNAVAILABLE,
        ErrorCode::Storage,
        "the database did not answer",
    )
}

/// One class's ratings as the API shows them: lichess's fields (`games`, `rating`, `rd`,
/// `prog`, `prov`), then the FIDE method's and the level scheme's.
fn perf_json(perf: &Perf, history: &[&GameRatingRow], now: i64) -> Value {
    let g = perf.glicko_at(now);
    let recent = history.len().saturating_sub(PROGRESS_GAMES);
    let prog = history.get(recent).map_or(0, |first| {
        g.rating.round() as i64 - first.glicko_before.round() as i64
    });
    let level = match perf.points.level() {
        Level::None => Value::Null,
        Level::Grade(n) => json!(n),
    };
    let mut v = json!({
        "games": perf.games,
        "rating": g.rating.round() as i64,
        "rd": g.deviation.round() as i64,
        "prog": prog,
        "elo": perf.elo.rating,
        "eloGames": perf.elo.games,
        "points": perf.points.whole(),
        "level": level,
        "wins": perf.wins,
        "draws": perf.draws,
        "losses": perf.losses,
    });
    if g.provisional() {
        v["prov"] = json!(true);
    }
    v
}

/// A player's public page data: lichess's `User` with our ratings beside Glicko-2.
pub(super) async fn user_json(store: &Store, user: &UserRow) -> Result<Value, StoreError> {
    let perfs = store.perfs(&user.id).await?;
    let history = store.rating_history(&user.id, 2_000).await?;
    let counts = store.game_counts(&user.id).await?;
    let now = now_ms() as i64;
    let mut by_class = Map::new();
    let mut rated = 0;
    for class in Class::ALL {
        let perf = perfs
            .iter()
            .find(|(c, _)| *c == class)
            .map_or(Perf::NEW, |(_, p)| *p);
        rated += perf.games;
        let mine: Vec<&GameRatingRow> = history.iter().filter(|h| h.class == class).collect();
        by_class.insert(class.key().into(), perf_json(&perf, &mine, now));
    }
    let mut v = json!({
        "id": user.name.to_lowercase(),
        "username": user.name,
        "createdAt": user.created_at,
        "perfs": by_class,
        "count": {
            "all": counts.all,
            "rated": rated,
            "win": counts.win,
            "draw": counts.draw,
            "loss": counts.loss,
        },
    });
    if user.closed_at.is_some() {
        v["disabled"] = json!(true);
    }
    if let Some(title) = &user.title {
        v["title"] = json!(title);
    }
    Ok(v)
}

/// `GET /api/user/{name}`.
pub(super) async fn user(State(state): State<AppState>, Path(name): Path<String>) -> Response {
    let found = match state.hub.store.user_by_name(&name).await {
        Ok(found) => found,
        Err(e) => return store_failed(e),
    };
    let Some(user) = found else {
        return (StatusCode::NOT_FOUND, Json(json!({"error": "Not found"}))).into_response();
    };
    match user_json(&state.hub.store, &user).await {
        Ok(v) => Json(v).into_response(),
        Err(e) => store_failed(e),
    }
}

#[derive(Serialize)]
struct HistoryView {
    name: &'static str,
    /// `[year, month (0-11), day, rating]`, as lichess gives them.
    points: Vec<[i64; 4]>,
}

/// `GET /api/user/{name}/rating-history`: per class, the rating after each day's last
/// rated game, as lichess's chart data.
pub(super) async fn rating_history(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Response {
    let user = match state.hub.store.user_by_name(&name).await {
        Ok(Some(user)) => user,
        Ok(None) => {
            return (StatusCode::NOT_FOUND, Json(json!({"error": "Not found"}))).into_response();
        }
        Err(e) => return store_failed(e),
    };
    let history = match state.hub.store.rating_history(&user.id, 10_000).await {
        Ok(h) => h,
        Err(e) => return store_failed(e),
    };
    let classes = Class::ALL.map(|class| {
        let mut points: Vec<[i64; 4]> = Vec::new();
        for h in history.iter().filter(|h| h.class == class) {
            let day = time::OffsetDateTime::from_unix_timestamp(h.at / 1_000)
                .map(|t| t.date())
                .unwrap_or(time::Date::MIN);
            let point = [
                i64::from(day.year()),
                i64::from(u8::from(day.month())) - 1,
                i64::from(day.day()),
                h.glicko_after.round() as i64,
            ];
            match points.last_mut() {
                Some(last) if last[..3] == point[..3] => *last = point,
                _ => points.push(point),
            }
        }
        HistoryView {
            name: match class {
                Class::Bullet => "Bullet",
                Class::Blitz => "Blitz",
                Class::Rapid => "Rapid",
                Class::Classical => "Classical",
                Class::Correspondence => "Correspondence",
            },
            points,
        }
    });
    Json(classes).into_response()
}
