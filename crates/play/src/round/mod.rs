//! A live game, by concern, as lichess's round module: the actor ([`actor`]) is one task per
//! game that owns its arbiter, its audience and its clock timer, and dispatches; the audience
//! and its presence ([`audience`]), who may act for which side ([`acting`]), the friend's
//! arrival ([`invite`]), the rematch ([`rematch`]), adjournment ([`adjourn`]), leaving
//! ([`leaving`]), the chat ([`chat`]) and the computer's seat ([`computer`]) each have their
//! own file.
//!
//! Every command goes through the actor, is applied to the game, stored, and only then
//! acknowledged and published ([`event`]): typed events with the round as it stands
//! ([`snapshot`]), to every subscriber — the web socket's view among them.

mod acting;
mod actor;
mod adjourn;
mod audience;
mod chat;
mod computer;
mod conditional;
mod engines;
mod event;
mod expiry;
mod invite;
mod leaving;
mod proving;
mod publish;
mod rating;
mod rematch;
mod snapshot;

use std::sync::Arc;

use tokio::sync::{mpsc, oneshot};

use crate::act::Act;
use crate::ids::PlayerId;
use crate::refusal::Refusal;

pub(crate) use actor::Round;
pub use chat::{LINE_LEN, LINES_KEPT};
pub use computer::QUICK_MOVE_MS;
pub use conditional::{Lines, MOST_LINES, MOST_PLIES, read_lines};
pub use engines::{Engines, TABLE_IDLE};
pub use event::{GameEvent, SITE_EVENTS_KEPT, SiteEvent, Subscription, UPDATES_KEPT, Update};
pub use expiry::Expiry;
pub use leaving::leave_wait_ms;
pub use rating::Players;
pub use snapshot::{Board, ChatLine, Claims, PlayedMove, Snapshot, Table};

/// A connection to a game: its number, for its later messages, and its subscription.
pub struct Connected {
    pub conn: u64,
    pub subscription: Subscription,
}

/// The game's answer to a client's message.
#[derive(Debug)]
pub enum Answer {
    /// Done: stored and applied (or asked, for what the opponent must agree to).
    Done,
    /// A ping's answer.
    Pong,
    /// Refused; nothing changed.
    Refused(Refusal),
    /// The whole game, for a client that asked for it afresh.
    State(Arc<Snapshot>),
}

/// An answer, and the game's version once it was given: the updates up to that version
/// come before it.
#[derive(Debug)]
pub struct Answered {
    pub version: u64,
    pub answer: Answer,
}

/// What the actor is asked to do.
pub(crate) enum Request {
    /// Join the audience (as `player`, from `address`) and subscribe.
    Connect {
        player: Option<PlayerId>,
        address: Option<String>,
        reply: oneshot::Sender<Connected>,
    },
    Disconnect {
        conn: u64,
    },
    /// Subscribe without joining the audience: the game's task does not wait for such a
    /// subscriber, which hears that the game's updates have closed when the task ends.
    Subscribe {
        reply: oneshot::Sender<Subscription>,
    },
    Client {
        conn: u64,
        act: Act,
        reply: oneshot::Sender<Answered>,
    },
    /// A player's request without a connection (an API call): as a connection's, but it
    /// changes nobody's presence.
    Act {
        player: PlayerId,
        act: Act,
        reply: oneshot::Sender<Answered>,
    },
    /// A computer seat's move, thought over at `version`: the reply says whether it was
    /// played (not: the game has moved on since).
    ComputerMove {
        version: u64,
        uci: String,
        reply: oneshot::Sender<Result<bool, Refusal>>,
    },
    /// The game as it stands, for an export; none before it has begun.
    Export {
        reply: oneshot::Sender<Option<LiveExport>>,
    },
    /// Call the game off if nothing happened in it since these times; the reply says whether
    /// it was.
    Expire {
        expiry: Expiry,
        reply: oneshot::Sender<bool>,
    },
}

/// A game going on, for an export: the arbiter's game and the round as it stands.
pub type LiveExport = (vizier_arbiter::Game, Arc<Snapshot>);

/// A game task's mailbox. Requests come boxed: a channel holds blocks of 32 slots, each as
/// large as the largest request, and each game's channel keeps two blocks.
pub(crate) type Mailbox = mpsc::Sender<Box<Request>>;

/// A handle on a live game's task.
#[derive(Clone)]
pub struct GameHandle {
    tx: Mailbox,
}

impl GameHandle {
    pub(crate) fn new(tx: Mailbox) -> GameHandle {
        GameHandle { tx }
    }

    /// Whether the game's task has ended.
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    /// Sends the request `ask` makes with a reply channel, and waits for the answer; none
    /// once the game's task has ended.
    async fn ask<T>(&self, ask: impl FnOnce(oneshot::Sender<T>) -> Request) -> Option<T> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Box::new(ask(reply))).await.ok()?;
        rx.await.ok()
    }

    /// Joins the game's audience as `player` (from `address`) and subscribes to its
    /// updates; the connection's number goes with later messages. None once the game's task
    /// has ended, or when the game has as many spectators as it takes.
    pub async fn connect(
        &self,
        player: Option<PlayerId>,
        address: Option<String>,
    ) -> Option<Connected> {
        self.ask(|reply| Request::Connect {
            player,
            address,
            reply,
        })
        .await
    }

    /// Subscribes to the game's updates without joining its audience.
    pub async fn subscribe(&self) -> Option<Subscription> {
        self.ask(|reply| Request::Subscribe { reply }).await
    }

    /// Passes on connection `conn`'s request; the answer comes on the returned channel. None
    /// once the game's task has ended.
    pub async fn act(&self, conn: u64, act: Act) -> Option<oneshot::Receiver<Answered>> {
        let (reply, answered) = oneshot::channel();
        let request = Request::Client { conn, act, reply };
        self.tx.send(Box::new(request)).await.ok()?;
        Some(answered)
    }

    /// Passes on `player`'s request without a connection (an API call), and waits for the
    /// answer; none once the game's task has ended.
    pub async fn act_as(&self, player: PlayerId, act: Act) -> Option<Answered> {
        self.ask(|reply| Request::Act { player, act, reply }).await
    }

    /// Leaves the audience.
    pub async fn disconnect(&self, conn: u64) {
        let _ = self.tx.send(Box::new(Request::Disconnect { conn })).await;
    }

    /// Calls the game off if it is idle by `expiry`; whether it was.
    pub(crate) async fn expire(&self, expiry: Expiry) -> bool {
        self.ask(|reply| Request::Expire { expiry, reply })
            .await
            .unwrap_or(false)
    }

    /// Plays a computer seat's move, thought over at `version`: whether it was played (not:
    /// the game has moved on); none once the game's task has ended.
    pub(crate) async fn computer_move(
        &self,
        version: u64,
        uci: String,
    ) -> Option<Result<bool, Refusal>> {
        self.ask(|reply| Request::ComputerMove {
            version,
            uci,
            reply,
        })
        .await
    }

    /// The game as it stands, with the round; none before it has begun or once its task has
    /// ended.
    pub async fn export(&self) -> Option<LiveExport> {
        self.ask(|reply| Request::Export { reply }).await.flatten()
    }
}

/// The game's opening, named by its moves before any illegal move that stood over the board
/// (after one, the line is no longer a chess game's).
fn opening_of(game: &vizier_arbiter::Game) -> Option<crate::opening::Opening> {
    let moves: Vec<vizier_rules::Move> = game
        .plies()
        .iter()
        .take_while(|p| !p.irregular)
        .map(|p| p.mv)
        .collect();
    crate::opening::classify(game.start_position(), &moves)
}

/// The opening after a command that left `game`, given the opening `before` it when the game
/// had `plies_before` plies: one more regular move needs one look-up, not a replay of the
/// game; anything else (a takeback, an illegal move) is classified afresh.
fn opening_after(
    game: &vizier_arbiter::Game,
    before: Option<crate::opening::Opening>,
    plies_before: usize,
) -> Option<crate::opening::Opening> {
    let plies = game.plies();
    let one_more_move = plies.len() == plies_before + 1 && plies.iter().all(|p| !p.irregular);
    if !one_more_move || *game.start_position() != vizier_rules::Position::new() {
        return opening_of(game);
    }
    if plies.len() > crate::opening::DEEPEST {
        return before;
    }
    crate::opening::named(game.position()).or(before)
}

#[cfg(test)]
mod tests {
    use vizier_arbiter::{Command, Game, Setup};
    use vizier_rules::Color;

    #[test]
    fn the_opening_kept_move_by_move_is_the_one_classified_afresh() {
        let mut game = Game::new(Setup::default(), 0).unwrap();
        let mut kept = None;
        let line = [
            "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "h4",
        ];
        for (i, san) in line.iter().enumerate() {
            let by = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let mv = san.to_string();
            game.apply(i as u64 + 1, Command::Move { by, mv }).unwrap();
            kept = super::opening_after(&game, kept, i);
            assert_eq!(kept, super::opening_of(&game), "after {san}");
        }
        assert_eq!(kept.map(|o| o.eco), Some("C84"));
        // Told of the wrong ply count (as after a takeback), it classifies afresh.
        assert_eq!(
            super::opening_after(&game, None, 3),
            super::opening_of(&game)
        );
    }
}
