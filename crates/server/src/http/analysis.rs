//! Analysis over HTTP: `/api/analysis/socket`, where the analysis board asks for a position's
//! lines and hears them deepen, and `/api/games/{id}/review`, a finished game's review.
//!
//! The socket's messages are JSON with a `t`. In: `{"t":"analyse","id":1,"fen":…,
//! "moves":["e2e4",…],"lines":3}` (a new one replaces the one running) and `{"t":"stop"}`.
//! Out: `{"t":"lines","id":1,"depth":12,"done":false,"lines":[{"cp":31,"pv":[…],"san":[…]}]}`
//! with scores from White's side (`"mate": n` for a mate, negative when Black mates), the
//! last one with `"done": true`; and `{"t":"error","id":1,"code":…,"message":…}`.
//!
//! The board's chess is asked here too, each answer echoing the `id`: `{"t":"position",
//! "fen":…}` gives the position's `dests` and `check`; `{"t":"play","fen":…,"move":"Nf3"}`
//! the move's `uci` and `san` and the position after it (`"t":"played"`); `{"t":"import",
//! "pgn":…}` the game as a tree (`"t":"imported"`, see `analysis::board`).

use std::sync::Arc;
use std::time::Duration;

use axum::Extension;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot};
use vizier_engine::analyst::{Budget, Eval, Line};
use vizier_rules::{Color, History, Position, UciCastling};

use super::{AppState, Player, refusal};
use crate::analysis::reviews::{ReviewError, Status};
use crate::analysis::{self, Cancel, Refused};
use crate::protocol::ErrorCode;

/// The most moves an analysed position may come with after its FEN.
const MAX_MOVES: usize = 1_000;

#[derive(Debug, Deserialize)]
#[serde(tag = "t", rename_all = "kebab-case")]
enum Request {
    Analyse {
        #[serde(default)]
        id: u64,
        fen: Option<String>,
        #[serde(default)]
        moves: Vec<String>,
        #[serde(default = "one")]
        lines: usize,
    },
    Stop,
    Position {
        #[serde(default)]
        id: u64,
        fen: Option<String>,
        #[serde(default)]
        chess960: bool,
    },
    Play {
        #[serde(default)]
        id: u64,
        fen: String,
        #[serde(rename = "move")]
        mv: String,
        #[serde(default)]
        chess960: bool,
    },
    Import {
        #[serde(default)]
        id: u64,
        pgn: String,
    },
}

/// A reply to one of the board's chess requests.
fn reply(t: &str, id: u64, body: impl serde::Serialize) -> String {
    let mut v = json!({"v": crate::protocol::VERSION, "t": t, "id": id});
    if let (Value::Object(m), Ok(Value::Object(b))) = (&mut v, serde_json::to_value(body)) {
        m.extend(b);
    }
    v.to_string()
}

/// The answer to a message of the analysis socket that the board's chess answers at once
/// (`position`, `play`, `import`, or a message that does not read); `None` for those that
/// start or stop an analysis. What the socket does before it asks the engine, as a function
/// of the text alone: the fuzz target's way in.
pub fn board_reply(text: &str) -> Option<String> {
    match serde_json::from_str::<Request>(text) {
        Ok(request) => chess(&request),
        Err(_) => Some(not_a_message()),
    }
}

fn not_a_message() -> String {
    error(None, ErrorCode::BadMessage, "not an analysis message")
}

/// Answers the board's chess requests (none stops the analysis running).
fn chess(request: &Request) -> Option<String> {
    use crate::analysis::board;
    Some(match request {
        Request::Position { id, fen, chess960 } => {
            let pos = match fen.as_deref().map(|f| Position::from_fen(f.trim())) {
                None => Position::new(),
                Some(Ok(p)) => p,
                Some(Err(e)) => {
                    return Some(error(
                        Some(*id),
                        ErrorCode::NotAnalysable,
                        &format!("FEN: {e}"),
                    ));
                }
            };
            reply("position", *id, board::Shown::of(&pos, *chess960))
        }
        Request::Play {
            id,
            fen,
            mv,
            chess960,
        } => match board::play(fen, mv, *chess960) {
            Ok(played) => reply("played", *id, played),
            Err(why) => error(Some(*id), ErrorCode::IllegalMove, &why),
        },
        Request::Import { id, pgn } => match board::import(pgn) {
            // Written by hand: the tree is as deep as the game is long.
            Ok(tree) => format!(
                r#"{{"v":{},"t":"imported","id":{id},{}}}"#,
                crate::protocol::VERSION,
                tree.json_members()
            ),
            Err(why) => error(Some(*id), ErrorCode::BadRequest, &why),
        },
        Request::Analyse { .. } | Request::Stop => return None,
    })
}

fn one() -> usize {
    1
}

fn error(id: Option<u64>, code: ErrorCode, message: &str) -> String {
    json!({"v": crate::protocol::VERSION, "t": "error", "id": id, "code": code, "message": message})
        .to_string()
}

fn refused_code(r: Refused) -> ErrorCode {
    match r {
        Refused::Busy => ErrorCode::AnalysisBusy,
        Refused::TooMany => ErrorCode::TooManyAnalyses,
    }
}

/// The position asked for: a FEN (the start when none) and moves from it, in UCI.
fn position_of(fen: Option<&str>, moves: &[String]) -> Result<(History, bool), String> {
    let start = match fen {
        None => Position::new(),
        Some(f) => Position::from_fen(f.trim()).map_err(|e| format!("FEN: {e}"))?,
    };
    if moves.len() > MAX_MOVES {
        return Err(format!("at most {MAX_MOVES} moves"));
    }
    let chess960 = start.is_chess960();
    let mut history = History::new(start);
    for text in moves {
        let m = history
            .position()
            .parse_uci(text)
            .map_err(|e| format!("{text}: {e}"))?;
        history.push(m).map_err(|e| format!("{text}: {e}"))?;
    }
    Ok((history, chess960))
}

/// Lines as the socket sends them: scores from White's side, moves in UCI and SAN.
fn render(id: u64, lines: &[Line], game: &History, chess960: bool, done: bool) -> String {
    let pos = game.position();
    let castling = UciCastling::for_chess960(chess960);
    let white = pos.turn() == Color::White;
    let rendered: Vec<Value> = lines
        .iter()
        .map(|l| {
            let eval = if white { l.eval } else { l.eval.flip() };
            let mut p = pos.clone();
            let (mut uci, mut san) = (Vec::new(), Vec::new());
            for &m in &l.pv {
                uci.push(p.uci(m, castling));
                san.push(p.san(m));
                p.play_unchecked(m);
            }
            let mut v = json!({"depth": l.depth, "pv": uci, "san": san});
            match eval {
                Eval::Cp(cp) => v["cp"] = json!(cp),
                Eval::Mate(n) => v["mate"] = json!(n),
            }
            v
        })
        .collect();
    let depth = lines.iter().map(|l| l.depth).max().unwrap_or(0);
    json!({"v": crate::protocol::VERSION, "t": "lines", "id": id, "depth": depth, "done": done, "lines": rendered})
        .to_string()
}

pub(super) async fn socket(
    State(state): State<AppState>,
    headers: HeaderMap,
    opener: super::socket::Opener,
    ws: WebSocketUpgrade,
) -> Response {
    if !super::origin::same_origin(&headers, state.public_origin.as_deref()) {
        return (StatusCode::FORBIDDEN, "cross-origin WebSocket refused").into_response();
    }
    let owner = vizier_play::policy::Party::new(
        opener.player(),
        opener.address().map(|a| a.to_string()).as_deref(),
    );
    let seat = match super::socket::SocketCount::take(&state, opener) {
        Ok(seat) => seat,
        Err(refused) => return *refused,
    };
    ws.max_message_size(64 * 1024)
        .read_buffer_size(8 * 1024)
        .max_frame_size(64 * 1024)
        .on_upgrade(move |socket| async move {
            serve(socket, owner, state, seat.revoked()).await;
            drop(seat);
        })
}

/// The analysis under way on one socket: its cancel, and word of its end.
struct Running {
    cancel: Arc<Cancel>,
    ended: oneshot::Receiver<()>,
}

impl Running {
    /// Stops it and waits (briefly) until its thread has let go of it, so that the player's
    /// place is free for the next.
    async fn stop(self) {
        self.cancel.cancel();
        let _ = tokio::time::timeout(Duration::from_secs(2), self.ended).await;
    }
}

/// Sends on drop: the task ran to its end, or was dropped without running.
struct Ended(Option<oneshot::Sender<()>>);

impl Drop for Ended {
    fn drop(&mut self) {
        if let Some(tx) = self.0.take() {
            let _ = tx.send(());
        }
    }
}

async fn serve(
    socket: WebSocket,
    owner: vizier_play::policy::Party,
    state: AppState,
    revoked: tokio_util::sync::WaitForCancellationFutureOwned,
) {
    let mut revoked = std::pin::pin!(revoked);
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<String>();
    let mut running: Option<Running> = None;
    let mut shutdown = state.shutdown.clone();
    loop {
        let out: Option<String> = tokio::select! {
            update = rx.recv() => update,
            incoming = stream.next() => match incoming {
                Some(Ok(Message::Text(text))) => {
                    if !state.messages.take(owner.player.as_str(), owner.address.as_deref()) {
                        Some(error(None, ErrorCode::RateLimited, "too many messages: slow down"))
                    } else {
                        handle(&state, &owner, text.as_str(), &tx, &mut running).await
                    }
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => None,
            },
            () = shutdown.stopping() => break,
            () = &mut revoked => {
                let _ = sink.send(super::socket::revoked_frame()).await;
                break;
            }
        };
        if let Some(text) = out
            && sink.send(Message::Text(text.into())).await.is_err()
        {
            break;
        }
    }
    if let Some(r) = running.take() {
        r.cancel.cancel();
    }
    let _ = sink.close().await;
}

async fn handle(
    state: &AppState,
    owner: &vizier_play::policy::Party,
    text: &str,
    tx: &mpsc::UnboundedSender<String>,
    running: &mut Option<Running>,
) -> Option<String> {
    let Ok(request) = serde_json::from_str::<Request>(text) else {
        return Some(not_a_message());
    };
    if let (Request::Import { id, .. }, Some(address)) = (&request, &owner.address)
        && !(state.throttles)
            .take(crate::throttle::Budget::Import, address)
            .await
    {
        let why = "too many games imported from your address: wait a while";
        return Some(error(Some(*id), ErrorCode::RateLimited, why));
    }
    if let Some(answer) = chess(&request) {
        return Some(answer);
    }
    if let Some(r) = running.take() {
        r.stop().await;
    }
    let Request::Analyse {
        id,
        fen,
        moves,
        lines,
    } = request
    else {
        return None;
    };
    let (game, chess960) = match position_of(fen.as_deref(), &moves) {
        Ok(p) => p,
        Err(why) => return Some(error(Some(id), ErrorCode::NotAnalysable, &why)),
    };
    let limits = *state.analysis.limits();
    let budget = Budget {
        nodes: limits.analysis_nodes,
        ms: limits.analysis_ms,
        lines: lines.clamp(1, Budget::MAX_LINES),
    };
    if game.position().legal_moves().is_empty() {
        return Some(render(id, &[], &game, chess960, true));
    }
    let (ended_tx, ended) = oneshot::channel();
    let ended_guard = Ended(Some(ended_tx));
    let tx = tx.clone();
    let submitted = state.analysis.submit(owner, move |analyst, cancel| {
        let _ended = ended_guard;
        let last = analysis::analyse(analyst, cancel, &game, budget, &mut |lines| {
            let _ = tx.send(render(id, lines, &game, chess960, false));
        });
        if !cancel.is_cancelled() {
            let _ = tx.send(render(id, &last, &game, chess960, true));
        }
    });
    match submitted {
        Ok(cancel) => {
            *running = Some(Running { cancel, ended });
            None
        }
        Err(r) => Some(error(Some(id), refused_code(r), &r.to_string())),
    }
}

fn review_json(status: &Status) -> (StatusCode, Value) {
    match status {
        Status::None => (StatusCode::NOT_FOUND, json!({"status": "none"})),
        Status::Running(p) => (
            StatusCode::ACCEPTED,
            json!({"status": "running", "done": p.done, "total": p.total}),
        ),
        Status::Done(review) => (
            StatusCode::OK,
            json!({"status": "done", "review": serde_json::from_str::<Value>(review).unwrap_or(Value::Null)}),
        ),
    }
}

/// `GET /api/games/{id}/review`: the review (200), how far it has come (202), or none (404).
pub(super) async fn review(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    match state.reviews.status(&id).await {
        Ok(status) => {
            let (code, body) = review_json(&status);
            (code, axum::Json(body)).into_response()
        }
        Err(e) => {
            tracing::warn!("review: {e}");
            refusal(
                StatusCode::SERVICE_UNAVAILABLE,
                ErrorCode::Storage,
                "the database did not answer",
            )
        }
    }
}

/// `POST /api/games/{id}/review`: asks for a finished game's review (anyone may; it is made
/// once and shared).
pub(super) async fn start_review(
    State(state): State<AppState>,
    Extension(Player(player)): Extension<Player>,
    address: super::address::ClientAddress,
    Path(id): Path<String>,
) -> Response {
    let owner = vizier_play::policy::Party::new(&player, address.0.as_deref());
    match state.reviews.start(&owner, &id).await {
        Ok(status) => {
            let (code, body) = review_json(&status);
            (code, axum::Json(body)).into_response()
        }
        Err(e) => {
            let (status, code) = match &e {
                ReviewError::NoSuchGame => return super::not_found(),
                ReviewError::NotOver => (StatusCode::CONFLICT, ErrorCode::GameNotOver),
                ReviewError::NotAnalysable(_) => {
                    (StatusCode::UNPROCESSABLE_ENTITY, ErrorCode::NotAnalysable)
                }
                ReviewError::Refused(r) => (StatusCode::TOO_MANY_REQUESTS, refused_code(*r)),
                ReviewError::Store(_) => (StatusCode::SERVICE_UNAVAILABLE, ErrorCode::Storage),
            };
            refusal(status, code, e.to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn import_message(depth: usize) -> String {
        let pgn = format!("1. e4 {}{} *", "(1. d4 ".repeat(depth), ")".repeat(depth));
        json!({"t": "import", "id": 7, "pgn": pgn}).to_string()
    }

    #[test]
    fn deeply_nested_variations_are_refused_not_a_crash() {
        let reply = |text: &str| -> Value {
            serde_json::from_str(&board_reply(text).expect("an answer")).unwrap()
        };
        let ok = reply(&import_message(vizier_rules::pgn::MAX_VARIATION_DEPTH));
        assert_eq!((&ok["t"], &ok["id"]), (&json!("imported"), &json!(7)));
        assert_eq!(ok["children"][1]["san"], "d4");
        for depth in [3_000, 60_000] {
            let refused = reply(&import_message(depth));
            assert_eq!(refused["t"], "error");
            assert_eq!(refused["code"], "bad-request");
            let message = refused["message"].as_str().unwrap();
            assert!(message.contains("nest more than 100 levels"), "{message}");
        }
        // JSON nested past serde's depth is a bad message, not a deep walk.
        let deep_json = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(reply(&deep_json)["code"], "bad-message");
        assert!(board_reply(r#"{"t":"stop"}"#).is_none());
    }
}
