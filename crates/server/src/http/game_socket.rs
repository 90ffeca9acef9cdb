//! A game socket's life: a subscriber of its game. It passes the browser's messages to the
//! game's actor, and renders for its own viewer each update the game publishes and each
//! answer to its messages — an answer after the updates that came before it.

use std::collections::VecDeque;
use std::time::Duration;

use tokio::time::Instant;

use axum::extract::ws::{CloseFrame, Message, WebSocket, close_code};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use std::sync::Arc;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};
use tokio::sync::{broadcast, oneshot};

use vizier_play::Hub;
use vizier_play::ids::{GameId, PlayerId};

use super::AppState;
use super::game_view::{message_for, state_for};
use crate::protocol::{ClientMessage, ErrorCode, ServerMessage};
use vizier_play::round::{Answer, Answered, Connected, GameHandle, Update};
use vizier_play::time::Clock;

type Sink = SplitSink<WebSocket, Message>;

/// A socket silent this long is closed (clients ping every 25 s).
const SILENCE: Duration = Duration::from_secs(120);
type Updates = broadcast::Receiver<std::sync::Arc<Update>>;

/// The socket's life. Not an `async fn`: one would keep its arguments (the socket, the app's
/// state) for the whole life of the connection besides what it moves out of them.
pub(super) fn play(
    socket: WebSocket,
    (id, handle): (GameId, GameHandle),
    who: (PlayerId, Option<String>),
    state: &AppState,
    revoked: tokio_util::sync::WaitForCancellationFutureOwned,
) -> impl Future<Output = ()> + use<> {
    let shutdown = state.shutdown.clone();
    let messages = state.messages.clone();
    let hub = state.hub.clone();
    let (sink, stream) = socket.split();
    relay(
        sink,
        stream,
        (hub, id, handle),
        who,
        shutdown,
        messages,
        revoked,
    )
}

/// What the socket's viewer is sent.
struct Viewer {
    player: PlayerId,
    updates: Updates,
    /// The game's version as the viewer has been shown it.
    seen: u64,
    /// The server's clock, for the clocks as they stand when a message is made.
    clock: Clock,
}

impl Viewer {
    /// Queues `message` on the sink (sent at the next flush).
    async fn feed(sink: &mut Sink, message: &ServerMessage) -> Result<(), axum::Error> {
        sink.feed(Message::Text(message.to_json().into())).await
    }

    /// Queues `update` as this viewer sees it, and every update already waiting after it.
    async fn feed_updates(
        &mut self,
        sink: &mut Sink,
        handle: &GameHandle,
        first: Option<&Update>,
    ) -> Result<(), Gone> {
        if let Some(update) = first {
            self.seen = self.seen.max(update.version);
            Viewer::feed(
                sink,
                &message_for(update, Some(&self.player), self.clock.now()),
            )
            .await?;
        }
        loop {
            match self.updates.try_recv() {
                Ok(update) => {
                    self.seen = self.seen.max(update.version);
                    Viewer::feed(
                        sink,
                        &message_for(&update, Some(&self.player), self.clock.now()),
                    )
                    .await?;
                }
                Err(TryRecvError::Empty) => return Ok(()),
                Err(TryRecvError::Lagged(_)) => self.resync(sink, handle).await?,
                Err(TryRecvError::Closed) => return Err(Gone),
            }
        }
    }

    /// Queues the answers already given, in order, each once the viewer has been shown the
    /// update its change made; the first whose update is still to come is held for it.
    async fn feed_ready_answers(
        &mut self,
        sink: &mut Sink,
        pending: &mut Pending,
    ) -> Result<(), Gone> {
        loop {
            let answered = match pending.held.take() {
                Some(held) => held,
                None => {
                    let Some((id, waiting)) = pending.waiting.front_mut() else {
                        return Ok(());
                    };
                    let answered = match waiting.try_recv() {
                        Ok(answered) => answered,
                        Err(oneshot::error::TryRecvError::Empty) => return Ok(()),
                        Err(oneshot::error::TryRecvError::Closed) => return Err(Gone),
                    };
                    let id = *id;
                    pending.waiting.pop_front();
                    (id, answered)
                }
            };
            if answered.1.version > self.seen {
                pending.held = Some(answered);
                return Ok(());
            }
            let (id, Answered { answer, .. }) = answered;
            let message = answer_message(id, answer, self);
            Viewer::feed(sink, &message).await?;
        }
    }

    /// Fell behind the game: subscribes afresh and queues the whole game.
    async fn resync(&mut self, sink: &mut Sink, handle: &GameHandle) -> Result<(), Gone> {
        let subscription = handle.subscribe().await.ok_or(Gone)?;
        self.updates = subscription.updates;
        self.seen = subscription.round.version;
        let state = state_for(&subscription.round, Some(&self.player), self.clock.now());
        Viewer::feed(sink, &ServerMessage::State(Box::new(state))).await?;
        Ok(())
    }
}

/// The socket or the game is gone.
struct Gone;

impl From<axum::Error> for Gone {
    fn from(_: axum::Error) -> Gone {
        Gone
    }
}

fn error(code: ErrorCode, message: &str) -> ServerMessage {
    ServerMessage::Error {
        id: None,
        code,
        message: message.into(),
    }
}

/// The message answering request `id`, as `player` sees it.
fn answer_message(id: Option<u64>, answer: Answer, viewer: &Viewer) -> ServerMessage {
    match answer {
        Answer::Done => ServerMessage::Ack { id },
        Answer::Pong => ServerMessage::Pong { id },
        Answer::Refused(refusal) => {
            let code = ErrorCode::from(&refusal.why);
            metrics::counter!(crate::metrics::REFUSED, "code" => code.as_str()).increment(1);
            ServerMessage::Error {
                id,
                code,
                message: refusal.message,
            }
        }
        Answer::State(round) => {
            let state = state_for(&round, Some(&viewer.player), viewer.clock.now());
            ServerMessage::State(Box::new(state))
        }
    }
}

/// The answers awaited, with their requests' ids, in the order the requests went (the actor
/// answers in that order), and the one given whose update is still to come.
#[derive(Default)]
struct Pending {
    waiting: VecDeque<(Option<u64>, oneshot::Receiver<Answered>)>,
    held: Option<(Option<u64>, Answered)>,
}

/// The next answer to come, if any is awaited and none is held.
async fn next_answer(pending: &mut Pending) -> Option<Answered> {
    match pending.waiting.front_mut() {
        Some((_, answered)) if pending.held.is_none() => answered.await.ok(),
        _ => std::future::pending().await,
    }
}

async fn relay(
    mut sink: Sink,
    mut stream: SplitStream<WebSocket>,
    (hub, id, handle): (Arc<Hub>, GameId, GameHandle),
    (player, address): (PlayerId, Option<String>),
    mut shutdown: super::Shutdown,
    messages: std::sync::Arc<crate::bucket::Messages>,
    revoked: tokio_util::sync::WaitForCancellationFutureOwned,
) {
    let mut revoked = std::pin::pin!(revoked);
    let clock = hub.settings.clock.clone();
    let Some((handle, Connected { conn, subscription })) = hub
        .join(&id, handle, Some(player.clone()), address.clone())
        .await
    else {
        return;
    };
    metrics::gauge!(crate::metrics::SOCKETS_OPEN).increment(1);
    let first = state_for(&subscription.round, Some(&player), clock.now());
    let first = ServerMessage::State(Box::new(first));
    let mut viewer = Viewer {
        player,
        updates: subscription.updates,
        seen: subscription.round.version,
        clock,
    };
    drop(subscription.round);
    let mut pending = Pending::default();
    let mut open = sink
        .send(Message::Text(first.to_json().into()))
        .await
        .is_ok();
    // Closed for silence: one timer, moved on only when it fires, not at every message.
    let mut heard = Instant::now();
    let idle = tokio::time::sleep(SILENCE);
    let mut idle = std::pin::pin!(idle);
    while open {
        let sent: Result<(), Gone> = tokio::select! {
            next = stream.next() => {
                heard = Instant::now();
                let message = match next {
                    Some(Ok(m)) => m,
                    // Closed or broken.
                    _ => break,
                };
                let refused = match message {
                    Message::Close(_) => break,
                    _ if !messages.take(viewer.player.as_str(), address.as_deref()) => {
                        Some(error(ErrorCode::RateLimited, "too many messages: slow down"))
                    }
                    Message::Binary(_) => Some(error(ErrorCode::BadMessage, "send JSON text")),
                    Message::Ping(_) | Message::Pong(_) => None,
                    Message::Text(text) => match serde_json::from_str::<ClientMessage>(text.as_str()) {
                        Ok(m) => {
                            let id = m.id;
                            // Boxed: the socket's task then stays small between messages.
                            match Box::pin(handle.act(conn, m.into())).await {
                                Some(answered) => pending.waiting.push_back((id, answered)),
                                None => break,
                            }
                            None
                        }
                        Err(e) => Some(error(
                            ErrorCode::BadMessage,
                            &format!("not a message of protocol v1: {e}"),
                        )),
                    },
                };
                match refused {
                    Some(m) => sink.send(Message::Text(m.to_json().into())).await.map_err(Gone::from),
                    None => Ok(()),
                }
            }
            update = viewer.updates.recv() => {
                let fed = match update {
                    Ok(update) => viewer.feed_updates(&mut sink, &handle, Some(&update)).await,
                    Err(RecvError::Lagged(_)) => match viewer.resync(&mut sink, &handle).await {
                        Ok(()) => viewer.feed_updates(&mut sink, &handle, None).await,
                        Err(gone) => Err(gone),
                    },
                    Err(RecvError::Closed) => Err(Gone),
                };
                // The answer that came with the update goes in the same write.
                let fed = match fed {
                    Ok(()) => viewer.feed_ready_answers(&mut sink, &mut pending).await,
                    Err(gone) => Err(gone),
                };
                match fed {
                    Ok(()) => sink.flush().await.map_err(Gone::from),
                    Err(gone) => Err(gone),
                }
            }
            answered = next_answer(&mut pending) => {
                let (id, _) = pending.waiting.pop_front().expect("an answer was awaited");
                match answered {
                    // The updates the answer's change made come first: those here already
                    // now, one still to come with it.
                    Some(answered) => {
                        pending.held = Some((id, answered));
                        let fed = match viewer.feed_updates(&mut sink, &handle, None).await {
                            Ok(()) => viewer.feed_ready_answers(&mut sink, &mut pending).await,
                            Err(gone) => Err(gone),
                        };
                        match fed {
                            Ok(()) => sink.flush().await.map_err(Gone::from),
                            Err(gone) => Err(gone),
                        }
                    }
                    None => Err(Gone),
                }
            }
            () = &mut idle => {
                let until = heard + SILENCE;
                if until <= Instant::now() {
                    break;
                }
                idle.as_mut().reset(until);
                Ok(())
            }
            () = shutdown.stopping() => break,
            () = &mut revoked => {
                let m = error(ErrorCode::NotSignedIn, "signed in or out elsewhere");
                let _ = sink.send(Message::Text(m.to_json().into())).await;
                break;
            }
        };
        open = sent.is_ok();
    }
    handle.disconnect(conn).await;
    metrics::gauge!(crate::metrics::SOCKETS_OPEN).decrement(1);
    if shutdown.is_stopping() {
        let frame = CloseFrame {
            code: close_code::AWAY,
            reason: "the server is restarting".into(),
        };
        let _ = sink.send(Message::Close(Some(frame))).await;
    }
    let _ = sink.close().await;
    drop(shutdown);
}
