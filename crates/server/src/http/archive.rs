//! The archive over HTTP, in lichess's shape: `GET /api/games/user/{name}` streams a
//! player's games as PGN (or NDJSON with `Accept: application/x-ndjson`), newest first,
//! filtered; `GET /game/export/{id}` gives one game (JSON with `Accept: application/json`);
//! `GET /api/games/mine` the visitor's own last games (a guest's too), for the home page.

use std::collections::HashMap;
use std::net::SocketAddr;

use axum::Extension;
use axum::body::Body;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures_util::{StreamExt, stream};

use super::{AppState, Player, bad_request, refusal};
use crate::archive::{self, Archived};
use crate::protocol::ErrorCode;
use crate::throttle::Budget;
use vizier_store::{ArchiveColor, ArchiveFilter, ArchiveResult, GameRow};

/// Most games one request exports.
pub const MAX_EXPORT: i64 = 10_000;
/// Games read from the database at a time while streaming.
const PAGE: i64 = 50;

/// How the answer is written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Pgn,
    Ndjson,
    Json,
}

fn format_of(headers: &HeaderMap, json: Format) -> Format {
    let accept = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if accept.contains("application/x-ndjson") {
        Format::Ndjson
    } else if accept.contains("application/json") {
        json
    } else {
        Format::Pgn
    }
}

fn text(a: &Archived, format: Format) -> String {
    match format {
        Format::Pgn => format!("{}\n\n", a.described.pgn(&a.game).trim_end()),
        Format::Ndjson | Format::Json => format!("{}\n", a.described.json(&a.game, &a.row)),
    }
}

fn content_type(format: Format) -> &'static str {
    match format {
        Format::Pgn => "application/x-chess-pgn",
        Format::Ndjson => "application/x-ndjson",
        Format::Json => "application/json",
    }
}

/// The archive's filters from lichess's query parameters (`max`, `since`, `until`, `vs`,
/// `rated`, `perfType`, `color`) and ours (`result`: win, draw or loss), and the name in
/// `vs`; or what is wrong with them.
fn filter_of(q: &HashMap<String, String>) -> Result<(ArchiveFilter, i64, Option<String>), String> {
    let number = |key: &str| -> Result<Option<i64>, String> {
        q.get(key)
            .map(|v| v.parse::<i64>().map_err(|_| format!("{key} is a number")))
            .transpose()
    };
    let mut f = ArchiveFilter {
        since: number("since")?,
        until: number("until")?,
        ..ArchiveFilter::default()
    };
    let max = number("max")?.unwrap_or(MAX_EXPORT).clamp(0, MAX_EXPORT);
    if let Some(speed) = q.get("perfType").filter(|s| !s.is_empty()) {
        let class: vizier_rating::Class = speed
            .parse()
            .map_err(|e: vizier_rating::class::UnknownClass| format!("perfType: {e}"))?;
        f.speed = Some(class.key().to_string());
    }
    f.rated = match q.get("rated").map(String::as_str) {
        None | Some("") => None,
        Some("true") => Some(true),
        Some("false") => Some(false),
        Some(_) => return Err("rated is true or false".into()),
    };
    f.color = match q.get("color").map(String::as_str) {
        None | Some("") => None,
        Some("white") => Some(ArchiveColor::White),
        Some("black") => Some(ArchiveColor::Black),
        Some(_) => return Err("color is white or black".into()),
    };
    f.result = match q.get("result").map(String::as_str) {
        None | Some("") => None,
        Some("win") => Some(ArchiveResult::Win),
        Some("draw") => Some(ArchiveResult::Draw),
        Some("loss") => Some(ArchiveResult::Loss),
        Some(_) => return Err("result is win, draw or loss".into()),
    };
    let vs = q.get("vs").filter(|s| !s.is_empty()).cloned();
    Ok((f, max, vs))
}

fn failed(e: &dyn std::fmt::Display) -> Response {
    tracing::warn!("archive: {e}");
    refusal(
        StatusCode::SERVICE_UNAVAILABLE,
        ErrorCode::Storage,
        "the database did not answer",
    )
}

/// `GET /api/games/user/{name}`.
pub(super) async fn games_of(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Query(q): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let store = state.hub.store.clone();
    let user = match store.user_by_name(&name).await {
        Ok(Some(u)) => u,
        Ok(None) => return (StatusCode::NOT_FOUND, "no such player").into_response(),
        Err(e) => return failed(&e),
    };
    let (mut filter, max, vs) = match filter_of(&q) {
        Ok(f) => f,
        Err(why) => return bad_request(why),
    };
    if let Some(vs) = vs {
        // Nobody of that name: an id no seat has, so no games.
        filter.vs = match store.user_by_name(&vs).await {
            Ok(found) => Some(found.map(|u| u.id).unwrap_or_default()),
            Err(e) => return failed(&e),
        };
    }
    let format = format_of(&headers, Format::Ndjson);
    let site = state.hub.site();
    // Pages of games, read as the client takes them.
    struct Cursor {
        after: Option<(i64, String)>,
        left: i64,
    }
    let start = Cursor {
        after: None,
        left: max,
    };
    let body = stream::unfold(Some(start), move |cursor| {
        let (store, filter, user, site) =
            (store.clone(), filter.clone(), user.id.clone(), site.clone());
        async move {
            let mut cursor = cursor?;
            if cursor.left <= 0 {
                return None;
            }
            let after = cursor.after.as_ref().map(|(at, id)| (*at, id.as_str()));
            let rows: Vec<GameRow> = match store
                .games_of(&user, &filter, after, PAGE.min(cursor.left))
                .await
            {
                Ok(rows) => rows,
                Err(e) => return Some((Err(std::io::Error::other(e.to_string())), None)),
            };
            let last = rows.last()?;
            cursor.after = Some((last.ended_at.unwrap_or(0), last.id.clone()));
            cursor.left -= rows.len() as i64;
            let mut chunk = String::new();
            for row in rows {
                let id = row.id.clone();
                match archive::load(&store, row, site.as_deref()).await {
                    Ok(a) => chunk.push_str(&text(&a, format)),
                    Err(e) => tracing::warn!(game = %id, "not exported: {e}"),
                }
            }
            Some((Ok::<_, std::io::Error>(chunk), Some(cursor)))
        }
    });
    (
        [(header::CONTENT_TYPE, content_type(format))],
        // Fused: the compression layer may ask again after the end.
        Body::from_stream(body.fuse()),
    )
        .into_response()
}

/// Most games `GET /api/games/mine` lists.
pub const MAX_MINE: i64 = 20;

/// `GET /api/games/mine?max=N`: the visitor's last finished games as NDJSON, newest first,
/// each with `you`: the sides the visitor played (a guest has no name to tell them by).
pub(super) async fn mine(
    State(state): State<AppState>,
    Extension(Player(player)): Extension<Player>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let max = match q.get("max").map(|m| m.parse::<i64>()) {
        None => 10,
        Some(Ok(n)) => n.clamp(0, MAX_MINE),
        Some(Err(_)) => return bad_request("max is a number"),
    };
    let store = &state.hub.store;
    let rows = match store
        .games_of(player.as_str(), &ArchiveFilter::default(), None, max)
        .await
    {
        Ok(rows) => rows,
        Err(e) => return failed(&e),
    };
    let site = state.hub.site();
    let mut body = String::new();
    let seat = vizier_store::record::Seat::player_text(player.as_str());
    for row in rows {
        let id = row.id.clone();
        match archive::load(store, row, site.as_deref()).await {
            Ok(a) => {
                let mut v = a.described.json(&a.game, &a.row);
                let you: Vec<&str> = [("white", &a.row.white), ("black", &a.row.black)]
                    .into_iter()
                    .filter(|(_, s)| **s == seat)
                    .map(|(side, _)| side)
                    .collect();
                v["you"] = serde_json::json!(you);
                body.push_str(&format!("{v}\n"));
            }
            Err(e) => tracing::warn!(game = %id, "not listed: {e}"),
        }
    }
    ([(header::CONTENT_TYPE, content_type(Format::Ndjson))], body).into_response()
}

/// `GET /game/export/{id}`.
pub(super) async fn export(
    State(state): State<AppState>,
    super::game_path::GamePath(id): super::game_path::GamePath,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
) -> Response {
    let row = match state.hub.store.game(id.as_str()).await {
        Ok(Some(row)) => row,
        Ok(None) => return super::not_found(),
        Err(e) => return failed(&e),
    };
    let from = super::address::client(peer.map(|p| p.0.0), &headers, state.trust_forwarded_for);
    if row.result.is_none()
        && let Some(from) = from
        && !state
            .throttles
            .take(Budget::LiveExport, &from.to_string())
            .await
    {
        return refusal(
            StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::RateLimited,
            format!(
                "{} exports of games going on an hour from one address at most: wait a while",
                state.limits.live_exports_per_address_hour
            ),
        );
    }
    let format = format_of(&headers, Format::Json);
    // A game going on is exported from its task, which has every move; the store has the
    // latest only in the journal.
    let handle = row.result.is_none().then(|| state.hub.live(&id)).flatten();
    let live = match handle {
        Some(handle) => handle.export().await,
        None => None,
    };
    let archived = match live {
        Some((game, round)) => Ok(Archived {
            row,
            game,
            described: archive::Described::of_round(&round, state.hub.site(), state.hub.now()),
        }),
        None => archive::load(&state.hub.store, row, state.hub.site().as_deref()).await,
    };
    match archived {
        Ok(a) => (
            [(header::CONTENT_TYPE, content_type(format))],
            text(&a, format),
        )
            .into_response(),
        Err(e) => failed(&e),
    }
}
