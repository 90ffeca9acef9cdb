//! The lobby's socket (`/api/lobby/socket`): the lobby's events out, seeks and pool entries
//! in. Messages are JSON with a `t`; a client's may carry an `id`, echoed in its `ack` or
//! `error`.

use axum::Extension;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{AppState, SignedIn};
use crate::lobby::{Lobby, LobbyError, Member, SeekRequest};
use crate::protocol::ErrorCode;

/// What a lobby client may send.
#[derive(Debug, Deserialize)]
#[serde(tag = "t", rename_all = "kebab-case")]
enum Request {
    Seek {
        #[serde(rename = "timeControl")]
        time_control: String,
        #[serde(default)]
        rated: bool,
        #[serde(default)]
        chess960: bool,
        #[serde(default)]
        color: Option<String>,
        #[serde(default, rename = "ratingRange")]
        rating_range: Option<(i32, i32)>,
    },
    CancelSeek {
        seek: String,
    },
    AcceptSeek {
        seek: String,
    },
    Pool {
        #[serde(rename = "timeControl")]
        time_control: String,
    },
    LeavePool,
    Ping,
}

#[derive(Debug, Deserialize)]
struct Envelope {
    #[serde(default)]
    id: Option<u64>,
    #[serde(flatten)]
    request: Request,
}

fn code_of(e: &LobbyError) -> ErrorCode {
    match e {
        LobbyError::BadControl(_) => ErrorCode::BadRequest,
        LobbyError::RatedNeedsAccount => ErrorCode::RatedNeedsAccount,
        LobbyError::TooManySeeks => ErrorCode::TooManyGames,
        LobbyError::NoSuchSeek | LobbyError::OutOfRange => ErrorCode::NoSuchSeek,
        LobbyError::Create(_) => ErrorCode::Storage,
        LobbyError::Limit(_) => ErrorCode::TooManyGames,
        LobbyError::NotPresent => ErrorCode::BadRequest,
        LobbyError::Challenge(_) => ErrorCode::BadRequest,
    }
}

fn error(id: Option<u64>, code: ErrorCode, message: &str) -> String {
    json!({"v": crate::protocol::VERSION, "t": "error", "id": id, "code": code, "message": message})
        .to_string()
}

fn ack(id: Option<u64>, extra: Value) -> String {
    let mut v = json!({"v": crate::protocol::VERSION, "t": "ack", "id": id});
    if let (Value::Object(m), Value::Object(e)) = (&mut v, extra) {
        m.extend(e);
    }
    v.to_string()
}

/// `?only=private`: a socket for what is addressed to the player alone (challenges, pairings),
/// opened by every page but the home page. It is not in the lobby: it keeps no seek open.
#[derive(Deserialize, Default)]
pub(super) struct SocketQuery {
    only: Option<String>,
}

pub(super) async fn socket(
    State(state): State<AppState>,
    Extension(signed): Extension<SignedIn>,
    headers: HeaderMap,
    Query(query): Query<SocketQuery>,
    opener: super::socket::Opener,
    ws: WebSocketUpgrade,
) -> Response {
    let player = opener.player().clone();
    let address = opener.address();
    let place = if signed.0.as_ref().is_some_and(|a| a.is_bot()) {
        Place::Bot
    } else if query.only.as_deref() == Some("private") {
        Place::Elsewhere
    } else {
        Place::Lobby
    };
    if !super::origin::same_origin(&headers, state.public_origin.as_deref()) {
        return (StatusCode::FORBIDDEN, "cross-origin WebSocket refused").into_response();
    }
    // Lobby sockets count with the player's game sockets.
    let seat = match super::socket::SocketCount::take(&state, opener) {
        Ok(seat) => seat,
        Err(refused) => return *refused,
    };
    let member = Member {
        player,
        name: signed.0.map(|a| a.name),
        address: address.map(|a| a.to_string()),
    };
    ws.max_message_size(4 * 1024)
        .read_buffer_size(2 * 1024)
        .max_frame_size(4 * 1024)
        .on_upgrade(move |socket| async move {
            serve(socket, member, place, state, seat.revoked()).await;
            drop(seat);
        })
}

async fn serve(
    socket: WebSocket,
    member: Member,
    place: Place,
    state: AppState,
    revoked: tokio_util::sync::WaitForCancellationFutureOwned,
) {
    let present = place == Place::Lobby;
    let mut revoked = std::pin::pin!(revoked);
    let lobby = state.lobby.clone();
    let crate::lobby::Joined { hello, mut events } = lobby.join(&member, present).await;
    let (mut sink, mut stream) = socket.split();
    let mut shutdown = state.shutdown.clone();
    let mut ok = sink
        .send(Message::Text(hello.as_ref().into()))
        .await
        .is_ok();
    while ok {
        let out: Option<String> = tokio::select! {
            event = events.recv() => match event {
                Ok(event) if present || event.is_private() => {
                    Lobby::render(&event, &member.player).map(|text| text.to_string())
                }
                Ok(_) => None,
                // Too slow to keep up: start again from the whole lobby.
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                    ok = false;
                    None
                }
                Err(_) => break,
            },
            incoming = stream.next() => match incoming {
                Some(Ok(Message::Text(text))) => {
                    if !state.messages.take(member.player.as_str(), member.address.as_deref()) {
                        Some(error(None, ErrorCode::RateLimited, "too many messages: slow down"))
                    } else {
                        Some(handle(&state, &member, place, text.as_str()).await)
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
        if let Some(text) = out {
            ok = sink.send(Message::Text(text.into())).await.is_ok();
        }
    }
    if present {
        lobby.leave(&member).await;
    }
    let _ = sink.close().await;
}

/// Where a lobby socket is opened from, which says what it may ask.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// The lobby itself: seeks and pool places, kept while the socket is open.
    Lobby,
    /// Another page (`?only=private`): challenges, and taking a seek.
    Elsewhere,
    /// A bot account's: it plays by challenge only, never from seeks or pools.
    Bot,
}

async fn handle(state: &AppState, member: &Member, place: Place, text: &str) -> String {
    let Ok(Envelope { id, request }) = serde_json::from_str::<Envelope>(text) else {
        return error(None, ErrorCode::BadMessage, "not a lobby message");
    };
    let lobby = &state.lobby;
    // Only a socket in the lobby takes its seeks and pool places along when it closes.
    let keeps = matches!(request, Request::Seek { .. } | Request::Pool { .. });
    if matches!(request, Request::AcceptSeek { .. }) && place == Place::Bot {
        let e = LobbyError::Challenge("bots play by challenge, not from the lobby");
        return error(id, code_of(&e), &e.to_string());
    }
    if keeps && place != Place::Lobby {
        let e = LobbyError::NotPresent;
        return error(id, code_of(&e), &e.to_string());
    }
    let done = match request {
        Request::Ping => Ok(json!({"pong": true})),
        Request::Seek {
            time_control,
            rated,
            chess960,
            color,
            rating_range,
        } => {
            let req = SeekRequest {
                time_control,
                rated,
                chess960,
                color,
                rating_range,
            };
            lobby
                .seek(member, req)
                .await
                .map(|seek| json!({"seek": seek}))
        }
        Request::CancelSeek { seek } => lobby.cancel(member, &seek).await.map(|()| json!({})),
        Request::AcceptSeek { seek } => lobby
            .accept(member, &seek)
            .await
            .map(|game| json!({"game": game})),
        Request::Pool { time_control } => lobby
            .enter_pool(member, &time_control)
            .await
            .map(|()| json!({})),
        Request::LeavePool => {
            lobby.leave_pool(member).await;
            Ok(json!({}))
        }
    };
    match done {
        Ok(extra) => ack(id, extra),
        Err(e) => error(id, code_of(&e), &e.to_string()),
    }
}

/// Keeps the lobby's count of players online up to date every two seconds, and its list of
/// games being played as games start and end (a subscriber of the site's games: the list is
/// read again at the next tick after one did), until the task is aborted.
pub async fn announce_forever(state: AppState) {
    use tokio::sync::broadcast::error::RecvError;
    let mut site = state.hub.watch_site();
    let mut tick = tokio::time::interval(std::time::Duration::from_secs(2));
    // The games going on at start-up (restored ones among them) are listed at the first tick.
    let mut changed = true;
    loop {
        tokio::select! {
            _ = tick.tick() => {
                state.lobby.count_online(state.sockets.players()).await;
                if std::mem::take(&mut changed) {
                    state.lobby.list_games().await;
                }
            }
            event = site.recv() => match event {
                // A correspondence move: the player to move hears of it on any page.
                Ok(vizier_play::round::SiteEvent::Moved { game, seats, to_move }) => {
                    if let vizier_store::record::Seat::Player(p) = &seats[to_move.index()] {
                        state.lobby.your_turn(p, &game).await;
                    }
                }
                Ok(_) | Err(RecvError::Lagged(_)) => changed = true,
                Err(RecvError::Closed) => return,
            },
        }
    }
}

/// Sends each player of a tournament's new game to it, through their lobby sockets (the
/// home page, and the notifier every other page keeps), until the task is aborted.
pub async fn send_to_tournament_games(state: AppState) {
    use tokio::sync::broadcast::error::RecvError;
    let mut paired = state.director.watch_paired();
    loop {
        match paired.recv().await {
            Ok(p) => {
                for player in &p.players {
                    state.lobby.send_to_game(player, &p.game).await;
                }
            }
            Err(RecvError::Lagged(n)) => tracing::warn!("{n} tournament pairings not sent"),
            Err(RecvError::Closed) => return,
        }
    }
}
