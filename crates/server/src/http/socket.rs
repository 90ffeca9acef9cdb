//! The sockets: the game socket's Origin check and frame limits, and the registry of every
//! socket open with the credential it was opened with. The game socket's loop is
//! [`super::game_socket`].

use axum::extract::State;
use axum::extract::ws::{CloseFrame, Message, WebSocketUpgrade, close_code};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

use std::collections::HashMap;
use std::sync::Arc;

use tokio_util::sync::CancellationToken;
use vizier_play::ids::PlayerId;

use super::{AppState, Player, not_found};
use crate::listen::{AddressSlot, Slot};
use vizier_play::hub::HubError;

pub(super) async fn socket(
    State(state): State<AppState>,
    super::game_path::GamePath(id): super::game_path::GamePath,
    headers: HeaderMap,
    opener: Opener,
    ws: WebSocketUpgrade,
) -> Response {
    if !super::origin::same_origin(&headers, state.public_origin.as_deref()) {
        return (StatusCode::FORBIDDEN, "cross-origin WebSocket refused").into_response();
    }
    let player = opener.player().clone();
    let address = opener.address().map(|a| a.to_string());
    let seat = match SocketCount::take(&state, opener) {
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
            let playing = super::game_socket::play(
                socket,
                (id, handle),
                (player, address),
                &state,
                seat.revoked(),
            );
            async move {
                playing.await;
                drop(seat);
            }
        })
}

/// Every WebSocket open (game, lobby, analysis): counted by player and in all, each with the
/// credential it was opened with, so that it is closed when that credential is withdrawn.
#[derive(Default)]
pub struct Sockets(std::sync::Mutex<Open>);

#[derive(Default)]
struct Open {
    by_player: HashMap<PlayerId, Vec<Held>>,
    total: usize,
    next: u64,
}

/// One socket as the registry knows it.
struct Held {
    id: u64,
    /// The session it was opened with; `None`: with the guest cookie.
    session: Option<String>,
    revoked: CancellationToken,
}

/// Which sockets a withdrawn credential closes.
#[derive(Clone, Debug)]
pub(super) enum Revoke<'a> {
    /// Those opened with this guest id's cookie, without a session: it became an account's.
    Guest(&'a PlayerId),
    /// Those opened with this session of the account's.
    Session {
        player: &'a PlayerId,
        session: &'a str,
    },
    /// Those of the account's sessions but `keep`: its password changed.
    OtherSessions { player: &'a PlayerId, keep: &'a str },
    /// Every socket of the account's: it was closed.
    Account(&'a PlayerId),
}

impl Sockets {
    /// The players with a socket open.
    pub fn players(&self) -> Vec<PlayerId> {
        let open = self.0.lock().unwrap_or_else(|e| e.into_inner());
        open.by_player.keys().cloned().collect()
    }

    /// Closes the sockets `which` names.
    pub(super) fn revoke(&self, which: Revoke<'_>) {
        let open = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let player = match which {
            Revoke::Guest(p)
            | Revoke::Account(p)
            | Revoke::Session { player: p, .. }
            | Revoke::OtherSessions { player: p, .. } => p,
        };
        let Some(held) = open.by_player.get(player) else {
            return;
        };
        for h in held {
            let hit = match which {
                Revoke::Guest(_) => h.session.is_none(),
                Revoke::Session { session, .. } => h.session.as_deref() == Some(session),
                Revoke::OtherSessions { keep, .. } => h.session.as_deref() != Some(keep),
                Revoke::Account(_) => true,
            };
            if hit {
                h.revoked.cancel();
            }
        }
    }
}

/// Who opens a socket: the player, how they were known, and where from.
pub(super) struct Opener {
    player: PlayerId,
    session: Option<String>,
    address: Option<std::net::IpAddr>,
    /// The connection's place in its address's count, which the socket keeps.
    slot: Option<Arc<AddressSlot>>,
}

impl axum::extract::FromRequestParts<AppState> for Opener {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &AppState,
    ) -> Result<Opener, Self::Rejection> {
        let ext = &parts.extensions;
        let peer = ext
            .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
            .map(|c| c.0);
        Ok(Opener {
            player: ext
                .get::<Player>()
                .map_or_else(|| PlayerId::known(""), |p| p.0.clone()),
            session: ext
                .get::<super::SignedIn>()
                .and_then(|s| s.0.as_ref().map(|a| a.session.clone())),
            address: super::address::client(peer, &parts.headers, state.trust_forwarded_for),
            slot: ext.get::<Slot>().and_then(|s| s.0.clone()),
        })
    }
}

impl Opener {
    pub(super) fn player(&self) -> &PlayerId {
        &self.player
    }

    pub(super) fn address(&self) -> Option<std::net::IpAddr> {
        self.address
    }
}

/// One open socket, counted while it lives.
pub(super) struct SocketCount {
    sockets: Arc<Sockets>,
    player: PlayerId,
    id: u64,
    revoked: CancellationToken,
    /// Its address's count: the connection's, or its own behind a proxy.
    _slot: Option<Arc<AddressSlot>>,
}

fn too_many(why: &'static str) -> Box<Response> {
    metrics::counter!("vizier_sockets_refused_total", "why" => why).increment(1);
    let message = match why {
        "player" => "too many sockets open: close some tabs",
        "address" => "too many connections from your address",
        _ => "the server is full: try again later",
    };
    Box::new((StatusCode::TOO_MANY_REQUESTS, message).into_response())
}

impl SocketCount {
    /// One more socket of `opener`'s, or the refusal once the player has as many as they may
    /// (game, lobby and analysis sockets together), their address has as many connections
    /// and sockets as it may, or the server as many sockets as it may.
    pub(super) fn take(state: &AppState, opener: Opener) -> Result<SocketCount, Box<Response>> {
        let limits = &state.limits;
        // Behind a proxy, the connection holds no slot: the socket takes one of its own.
        let slot = match (opener.slot, opener.address) {
            (Some(slot), _) => Some(slot),
            (None, Some(address)) => match state.per_address.take(address) {
                Some(slot) => Some(Arc::new(slot)),
                None => return Err(too_many("address")),
            },
            (None, None) => None,
        };
        let sockets = &state.sockets;
        let mut open = sockets.0.lock().unwrap_or_else(|e| e.into_inner());
        if open.total >= limits.max_sockets {
            return Err(too_many("server"));
        }
        open.next += 1;
        let id = open.next;
        let held = open.by_player.entry(opener.player.clone()).or_default();
        if held.len() >= limits.sockets_per_player {
            return Err(too_many("player"));
        }
        let revoked = CancellationToken::new();
        held.push(Held {
            id,
            session: opener.session,
            revoked: revoked.clone(),
        });
        open.total += 1;
        Ok(SocketCount {
            sockets: sockets.clone(),
            player: opener.player,
            id,
            revoked,
            _slot: slot,
        })
    }

    /// Resolves when the credential the socket was opened with is withdrawn.
    pub(super) fn revoked(&self) -> tokio_util::sync::WaitForCancellationFutureOwned {
        self.revoked.clone().cancelled_owned()
    }
}

impl Drop for SocketCount {
    fn drop(&mut self) {
        let mut open = self.sockets.0.lock().unwrap_or_else(|e| e.into_inner());
        open.total -= 1;
        if let Some(held) = open.by_player.get_mut(&self.player) {
            held.retain(|h| h.id != self.id);
            if held.is_empty() {
                open.by_player.remove(&self.player);
            }
        }
    }
}

/// The close frame of a socket whose credential was withdrawn: the client connects again
/// with the one it has now.
pub(super) fn revoked_frame() -> Message {
    Message::Close(Some(CloseFrame {
        code: close_code::POLICY,
        reason: "signed in or out elsewhere".into(),
    }))
}
