//! `GET|POST /api/game/{id}/conditional`: a correspondence player's conditional premoves —
//! the lines they left, in UCI and SAN, and leaving new ones. Only the player sees their
//! own; the game's actor checks and keeps them.

use axum::Extension;
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::json;
use vizier_arbiter::TimeControl;
use vizier_play::act::{Act, Action};
use vizier_play::round::{Answer, Lines};

use super::body::{Body, Fields};
use super::game_path::GamePath;
use super::{AppState, Player, api};

/// The asker's lines, each as `uci` and `san`; `editable` while they may leave lines (a
/// correspondence game going on, the opponent to move).
pub(super) async fn show(
    State(state): State<AppState>,
    Extension(Player(player)): Extension<Player>,
    GamePath(id): GamePath,
) -> Response {
    let Ok(handle) = state.hub.game(&id).await else {
        return api::error(StatusCode::NOT_FOUND, "No such game");
    };
    let none = || Json(json!({"lines": [], "editable": false})).into_response();
    let Some((_, round)) = handle.export().await else {
        return none();
    };
    let mine = round.sides_of(Some(&player));
    let (Some(board), [side]) = (round.board.as_ref(), mine.as_slice()) else {
        return none();
    };
    let correspondence = matches!(
        round.table.setup.control,
        TimeControl::Correspondence { .. }
    );
    let editable = correspondence && board.outcome.is_none() && board.position.turn() != *side;
    let rows = match state.hub.store.conditional(id.as_str()).await {
        Ok(rows) => rows,
        Err(_) => return api::error(StatusCode::SERVICE_UNAVAILABLE, "Try again"),
    };
    let stored = Lines::from_rows(&rows[side.index()]);
    let current = stored.plies == board.plies && editable;
    let lines: Vec<_> = (stored.lines.iter())
        .filter(|_| current)
        .map(|line| {
            let mut pos = board.position.clone();
            let mut san = Vec::with_capacity(line.len());
            for uci in line {
                let Ok(mv) = pos.parse_uci(uci) else { break };
                san.push(pos.san(mv));
                let Ok(next) = pos.play(mv) else { break };
                pos = next;
            }
            json!({"uci": line, "san": san})
        })
        .collect();
    Json(json!({"lines": lines, "editable": editable})).into_response()
}

/// Leaves the lines of `lines` (a list of texts, or one text with a line a row; moves in SAN
/// or UCI separated by spaces, the opponent's first); none clears them.
pub(super) async fn set(
    State(state): State<AppState>,
    Extension(Player(player)): Extension<Player>,
    GamePath(id): GamePath,
    headers: HeaderMap,
    body: Body<Fields>,
) -> Response {
    // Cookie requests only from our own pages: these lines play moves.
    if !super::origin::from_our_pages(&headers, state.public_origin.as_deref()) {
        return api::error(StatusCode::FORBIDDEN, "Requests come from the site's pages");
    }
    let fields = body.into_value();
    let lines: Vec<String> = match fields.get("lines") {
        Some(serde_json::Value::Array(items)) => items
            .iter()
            .filter_map(|v| v.as_str())
            .map(str::to_string)
            .collect(),
        Some(serde_json::Value::String(text)) => text.lines().map(str::to_string).collect(),
        None => Vec::new(),
        Some(_) => {
            return api::error(StatusCode::BAD_REQUEST, "lines: a list of lines of moves");
        }
    };
    let lines: Vec<String> = (lines.into_iter())
        .map(|l| l.trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    let act = Act {
        side: None,
        key: None,
        action: Action::Conditional { lines },
    };
    match state.hub.act_as(&id, player, act).await {
        Some(answered) => match answered.answer {
            Answer::Refused(r) => api::error(StatusCode::BAD_REQUEST, r.message),
            _ => api::ok(),
        },
        None => api::error(StatusCode::NOT_FOUND, "No such game"),
    }
}
