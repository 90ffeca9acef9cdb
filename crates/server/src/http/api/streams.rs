//! The API's open streams: who holds one (they are online, as lichess counts a bot online
//! while it streams), how many each token holds, and the signals that end them — a newer event
//! stream of the same token replaces the older, and revoking a token ends all of its.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::watch;
use vizier_play::ids::PlayerId;

use crate::account::Account;

/// What ends a token's streams: each new event stream counts up (the older one ends), and a
/// revoked token's epoch is [`REVOKED`].
const REVOKED: u64 = u64::MAX;

struct Holder {
    streams: u32,
    bot: bool,
}

struct TokenStreams {
    open: u32,
    epoch: watch::Sender<u64>,
}

#[derive(Default)]
struct Inner {
    players: HashMap<PlayerId, Holder>,
    tokens: HashMap<String, TokenStreams>,
}

/// The open streams, on this node, and how many one token may hold (its event stream and a
/// game stream for each game it plays).
#[derive(Clone)]
pub(crate) struct Streams {
    inner: Arc<Mutex<Inner>>,
    per_token: u32,
}

/// Which kind of stream is opened.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Events,
    Game,
}

/// An open stream: online while held; `ended` says when it must close.
pub(crate) struct Open {
    streams: Streams,
    player: PlayerId,
    token: String,
    epoch: watch::Receiver<u64>,
    kind: Kind,
    mine: u64,
}

impl Streams {
    pub(crate) fn new(per_token: u32) -> Streams {
        Streams {
            inner: Arc::default(),
            per_token,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Opens a stream for `account` (its token's id is its session); `None` when the token
    /// holds as many as it may.
    pub(crate) fn open(&self, account: &Account, kind: Kind) -> Option<Open> {
        let mut inner = self.lock();
        let token = inner
            .tokens
            .entry(account.session.clone())
            .or_insert_with(|| TokenStreams {
                open: 0,
                epoch: watch::Sender::new(0),
            });
        if token.open >= self.per_token {
            return None;
        }
        token.open += 1;
        if kind == Kind::Events {
            token
                .epoch
                .send_modify(|e| *e = e.saturating_add(1).min(REVOKED - 1));
        }
        let epoch = token.epoch.subscribe();
        let mine = *epoch.borrow();
        let holder = inner
            .players
            .entry(account.id.clone())
            .or_insert_with(|| Holder {
                streams: 0,
                bot: account.is_bot(),
            });
        holder.streams += 1;
        Some(Open {
            streams: self.clone(),
            player: account.id.clone(),
            token: account.session.clone(),
            epoch,
            kind,
            mine,
        })
    }

    /// Ends every stream of a revoked token.
    pub(crate) fn close_token(&self, token: &str) {
        if let Some(t) = self.lock().tokens.get(token) {
            t.epoch.send_replace(REVOKED);
        }
    }

    /// Whether `player` holds a stream.
    pub(crate) fn is_online(&self, player: &PlayerId) -> bool {
        self.lock().players.contains_key(player)
    }

    /// The bot accounts holding a stream.
    pub(crate) fn bots(&self) -> Vec<PlayerId> {
        let inner = self.lock();
        let mut bots: Vec<PlayerId> = (inner.players.iter())
            .filter(|(_, h)| h.bot)
            .map(|(p, _)| p.clone())
            .collect();
        bots.sort();
        bots
    }
}

impl Open {
    /// Resolves when the stream must close: its token was revoked, or (an event stream) a
    /// newer event stream of the token opened.
    pub(crate) async fn ended(&mut self) {
        let (kind, mine) = (self.kind, self.mine);
        let _ = self
            .epoch
            .wait_for(|&e| e == REVOKED || (kind == Kind::Events && e != mine))
            .await;
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        let mut inner = self.streams.lock();
        if let Some(t) = inner.tokens.get_mut(&self.token) {
            t.open -= 1;
            if t.open == 0 {
                inner.tokens.remove(&self.token);
            }
        }
        if let Some(h) = inner.players.get_mut(&self.player) {
            h.streams -= 1;
            if h.streams == 0 {
                inner.players.remove(&self.player);
            }
        }
    }
}
