//! The game socket: the Origin check, the frame limits, the rate limit, and the loop that
//! passes a connection's messages to the game's actor and its outbox to the browser.

use std::time::Duration;

use axum::Extension;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade, close_code};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};

use super::{AppState, Player, not_found};
use crate::hub::HubError;
use crate::protocol::{ClientMessage, ErrorCode, ServerMessage};
use crate::round::GameHandle;

pub(super) async fn socket(
    State(state): State<AppState>,
    Extension(Player(player)): Extension<Player>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    if !super::origin::same_origin(&headers, state.public_origin.as_deref()) {
        return (StatusCode::FORBIDDEN, "cross-origin WebSocket refused").into_response();
    }
    let seat = match SocketCount::take(&state, &player) {
        Ok(seat) => seat,
        Err(refused) => return *refused,
    };
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
        .read_buffer_size(512)
        .max_frame_size(4 * 1024)
        .on_upgrade(move |socket| {
            let playing = play(socket, handle, player, &state);
            async move {
                playing.await;
                drop(seat);
            }
        })
}

/// The game sockets each player has open.
#[derive(Default)]
pub struct Sockets(std::sync::Mutex<std::collections::HashMap<String, usize>>);

impl Sockets {
    /// The players with a game socket open.
    pub fn players(&self) -> Vec<String> {
        let open = self.0.lock().unwrap_or_else(|e| e.into_inner());
        open.keys().cloned().collect()
    }
}

/// One of a player's sockets, counted while it lives.
pub(super) struct SocketCount {
    sockets: std::sync::Arc<Sockets>,
    player: String,
}

impl SocketCount {
    /// One more socket of `player`'s, or the refusal once they have as many as the limit
    /// allows (game and lobby sockets together).
    pub(super) fn take(state: &AppState, player: &str) -> Result<SocketCount, Box<Response>> {
        let most = state.hub.settings.limits.sockets_per_player;
        let sockets = &state.sockets;
        let mut open = sockets.0.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(player.to_string()).or_default();
        if *n >= most {
            return Err(Box::new(
                (
                    StatusCode::TOO_MANY_REQUESTS,
                    "too many sockets open: close some tabs",
                )
                    .into_response(),
            ));
        }
        *n += 1;
        Ok(SocketCount {
            sockets: sockets.clone(),
            player: player.to_string(),
        })
    }
}

impl Drop for SocketCount {
    fn drop(&mut self) {
        let mut open = self.sockets.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.player) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.player);
            }
        }
    }
}

/// The socket's life. Not an `async fn`: one would keep its arguments (the socket, the app's
/// state) for the whole life of the connection besides what it moves out of them.
fn play(
    socket: WebSocket,
    handle: GameHandle,
    player: String,
    state: &AppState,
) -> impl Future<Output = ()> + use<> {
    let shutdown = state.shutdown.clone();
    let messages = state.messages.clone();
    let (sink, stream) = socket.split();
    relay(sink, stream, handle, player, shutdown, messages)
}

async fn relay(
    mut sink: SplitSink<WebSocket, Message>,
    mut stream: SplitStream<WebSocket>,
    handle: GameHandle,
    player: String,
    mut shutdown: super::Shutdown,
    messages: std::sync::Arc<crate::bucket::Buckets<String>>,
) {
    let (outbox, mut inbox) = tokio::sync::mpsc::channel::<Utf8Bytes>(64);
    let Some(conn) = handle.connect(Some(player.clone()), outbox.clone()).await else {
        return;
    };
    metrics::gauge!(crate::metrics::SOCKETS_OPEN).increment(1);
    let mut going_away = shutdown.clone();
    let writer = tokio::spawn(async move {
        loop {
            tokio::select! {
                text = inbox.recv() => match text {
                    Some(text) => {
                        if send_waiting(&mut sink, &mut inbox, text).await.is_err() {
                            break;
                        }
                    }
                    None => break,
                },
                () = going_away.stopping() => break,
            }
        }
        if going_away.is_stopping() {
            let frame = CloseFrame {
                code: close_code::AWAY,
                reason: "the server is restarting".into(),
            };
            let _ = sink.send(Message::Close(Some(frame))).await;
        }
        let _ = sink.close().await;
    });
    let error = |code, message: &str| {
        ServerMessage::Error {
            id: None,
            code,
            message: message.into(),
        }
        .to_json()
        .into()
    };
    loop {
        let next = tokio::select! {
            next = tokio::time::timeout(Duration::from_secs(120), stream.next()) => next,
            () = shutdown.stopping() => break,
        };
        let message = match next {
            Ok(Some(Ok(m))) => m,
            // Closed, broken, or silent for two minutes (clients ping every 25 s).
            _ => break,
        };
        if matches!(message, Message::Close(_)) {
            break;
        }
        if !messages.take(&player) {
            let _ = outbox.try_send(error(
                ErrorCode::RateLimited,
                "too many messages: slow down",
            ));
            continue;
        }
        let text = match message {
            Message::Text(t) => t,
            Message::Binary(_) => {
                let _ = outbox.try_send(error(ErrorCode::BadMessage, "send JSON text"));
                continue;
            }
            Message::Ping(_) | Message::Pong(_) | Message::Close(_) => continue,
        };
        match serde_json::from_str::<ClientMessage>(text.as_str()) {
            Ok(m) => {
                // Boxed: the socket's task then stays small between messages.
                if !Box::pin(handle.message(conn, m)).await {
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
    metrics::gauge!(crate::metrics::SOCKETS_OPEN).decrement(1);
    drop(outbox);
    let _ = writer.await;
    drop(shutdown);
}

/// Sends `first` and whatever else is already waiting in one write: a move's acknowledgement
/// and the move itself then cost the kernel one send, not two.
async fn send_waiting(
    sink: &mut SplitSink<WebSocket, Message>,
    inbox: &mut tokio::sync::mpsc::Receiver<Utf8Bytes>,
    first: Utf8Bytes,
) -> Result<(), axum::Error> {
    sink.feed(Message::Text(first)).await?;
    while let Ok(text) = inbox.try_recv() {
        sink.feed(Message::Text(text)).await?;
    }
    sink.flush().await
}
