//! What a game tells those who follow it: typed events, published in batches once the store
//! has committed what they report, each batch with the round as it stands after it. The web
//! socket's view, and any other subscriber, renders from these; the actor renders nothing.

use std::sync::Arc;

use tokio::sync::broadcast;
use vizier_arbiter::Outcome;
use vizier_rules::{Color, Reason};
use vizier_store::GameRatingRow;
use vizier_store::record::Seat;

use super::snapshot::Snapshot;
use crate::ids::GameId;
use crate::opening::Opening;

/// One thing that happened in a game.
#[derive(Clone, Debug, PartialEq)]
pub enum GameEvent {
    /// The friend took the invite: both seats are taken and the game has begun.
    Started,
    /// What the arbiter reported of a command it accepted: a move (with its SAN, UCI and the
    /// mover's clock), an offer or request and its answer, a takeback, a rejected claim, time
    /// added, an adjournment and its sealed move, a resumption, an illegal move, a foul, a
    /// peek. The game's end is [`GameEvent::Ended`] instead.
    Arbiter(vizier_arbiter::Event),
    /// A side asks to adjourn the game; the opponent has not agreed yet.
    AdjournAsked { by: Color },
    /// A side asks to resume the adjourned game; the opponent has not agreed yet.
    ResumeAsked { by: Color },
    /// A side asks for a rematch.
    RematchAsked { by: Color },
    /// The rematch was agreed: the new game's id.
    Rematch { game: GameId },
    /// A side's player opened their first socket on the game, or closed their last.
    Presence { online: [bool; 2] },
    /// The game ended: how, its players' rating changes (a rated game), and its opening.
    Ended {
        outcome: Outcome,
        ratings: [Option<Box<GameRatingRow>>; 2],
        opening: Option<Opening>,
    },
    /// A friend game ended before the friend came: nobody came, or its creator withdrew it.
    InviteEnded { reason: Reason },
    /// A line in the game's chat.
    Chat(super::snapshot::ChatLine),
}

/// A batch of events, as one change of the game: what happened and the game after it.
#[derive(Debug)]
pub struct Update {
    /// The game's version after the change (a viewer's count of changes it has seen).
    pub version: u64,
    /// What happened, in the order the store has it.
    pub events: Vec<GameEvent>,
    /// The game as it stands after them.
    pub round: Arc<Snapshot>,
}

/// Updates a game keeps for a subscriber that has not read them: one that falls further
/// behind is told it lagged and asks for the game afresh.
pub const UPDATES_KEPT: usize = 16;

/// A subscription to one game: the game as it stood when it began, then every update after.
pub struct Subscription {
    pub round: Arc<Snapshot>,
    pub updates: broadcast::Receiver<Arc<Update>>,
}

/// What the whole site hears of games: each start and each end.
#[derive(Clone, Debug, PartialEq)]
pub enum SiteEvent {
    /// A game began: both seats taken (at creation, or when a friend took the invite).
    Started { game: GameId, seats: [Seat; 2] },
    /// A move in a correspondence game: `to_move` is to play (told wherever they are).
    Moved {
        game: GameId,
        seats: [Seat; 2],
        to_move: Color,
    },
    /// A game ended, after this many half-moves (a tournament forfeits the side that never
    /// moved; an arena scores short games apart).
    Ended {
        game: GameId,
        seats: [Seat; 2],
        outcome: Outcome,
        plies: usize,
        /// Which sides berserked (an arena scores a berserk win apart).
        berserk: [bool; 2],
        /// Which sides' players came to the game (a socket or a stream, an action, a move)
        /// since its task began: a tournament forfeits both sides of a game neither came to.
        present: [bool; 2],
    },
}

/// Site events kept for a subscriber that has not read them.
pub const SITE_EVENTS_KEPT: usize = 256;
