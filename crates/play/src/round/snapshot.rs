//! The round as it stands, for those outside the actor: everything a view of the game reads,
//! taken at one version. Taking one costs a few small copies; the move list, as long as the
//! game, only when a whole view is due.

use std::sync::Arc;

use vizier_arbiter::{Adjournment, Clock, Game, Millis, Outcome, Ply, Setup};
use vizier_rules::{Color, Position, Reason};
use vizier_store::record::{Kind, Seat};

use super::Round;
use super::rating::Players;
use crate::ids::{GameId, PlayerId};
use crate::opening::Opening;

/// What never changes in a round: made once, shared by every snapshot.
#[derive(Debug)]
pub struct Table {
    pub id: GameId,
    pub kind: Kind,
    pub rated: bool,
    /// When the game was created (Unix ms).
    pub created_at: Millis,
    pub setup: Setup,
    /// The start position (known before a waiting game begins).
    pub start: Position,
    /// Whether the game is Chess960 (by its setup or its start position): castling is
    /// written king-takes-rook in UCI.
    pub chess960: bool,
}

/// One move as played, with the position after it (as FEN).
#[derive(Clone, Debug)]
pub struct PlayedMove {
    pub ply: Ply,
    pub fen: String,
}

/// The draw claims open to the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Claims {
    pub threefold: bool,
    pub fifty: bool,
}

/// The arbiter's game as it stands.
#[derive(Clone, Debug)]
pub struct Board {
    pub position: Position,
    pub clock: Clock,
    pub outcome: Option<Outcome>,
    pub draw_offer: Option<Color>,
    pub takeback: Option<Color>,
    pub can_abort: bool,
    /// Which sides may still berserk (an arena's game, before their first move).
    pub can_berserk: [bool; 2],
    /// Illegal moves and fouls, each side's.
    pub infractions: [(u32, u32); 2],
    pub claimable_illegal: Option<Color>,
    pub adjournment: Option<Adjournment>,
    /// The side to move's claims (none while a move is sealed).
    pub claims: Claims,
    /// The last move.
    pub last: Option<Ply>,
    /// How many moves have been played.
    pub plies: usize,
    /// For a game ended by a dead position: after how many plies it was dead.
    pub dead_after: Option<usize>,
}

/// One line of a game's chat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatLine {
    /// `player` or `spectator`.
    pub room: &'static str,
    /// Who wrote it (an account's name, or `Anonymous`).
    pub name: String,
    pub text: String,
}

/// The round at one version.
#[derive(Clone, Debug)]
pub struct Snapshot {
    pub table: Arc<Table>,
    pub version: u64,
    /// When the arbiter's game began (a friend game begins when the friend joins).
    pub started_at: Option<Millis>,
    /// White's seat, then Black's.
    pub seats: [Seat; 2],
    pub players: Arc<Players>,
    /// Whether each side's player has a socket open on the game.
    pub online: [bool; 2],
    /// Since when each side's player has been gone, in a game they could leave.
    pub gone: [Option<Millis>; 2],
    /// The invite, while a friend game waits for the friend.
    pub invite: Option<String>,
    /// How a friend game ended before the friend came.
    pub invite_ended: Option<Reason>,
    pub rematch: Option<Color>,
    pub adjourn_asked: Option<Color>,
    pub resume_asked: Option<Color>,
    /// Whether the game may be adjourned now.
    pub may_adjourn: bool,
    pub opening: Option<Opening>,
    /// None while a friend game waits for the friend.
    pub board: Option<Board>,
    /// Every move with the position after it: present when a whole view of the game is due
    /// (more changed than one more move), absent after a single move.
    pub moves: Option<Arc<[PlayedMove]>>,
    /// The chat's last lines.
    pub chat: Arc<[ChatLine]>,
}

impl Snapshot {
    /// The sides `player` holds.
    pub fn sides_of(&self, player: Option<&PlayerId>) -> Vec<Color> {
        let Some(p) = player else { return Vec::new() };
        Color::ALL
            .into_iter()
            .filter(|c| self.seats[c.index()].is(p))
            .collect()
    }
}

/// The moves of `game`, each with the position after it, replayed from the start.
fn played(game: &Game) -> Arc<[PlayedMove]> {
    let mut pos = game.start_position().clone();
    game.plies()
        .iter()
        .map(|p| {
            if !p.irregular {
                pos.play_unchecked(p.mv);
            } else if let Some(after) = irregular_after(&pos, p) {
                pos = after;
            }
            PlayedMove {
                ply: p.clone(),
                fen: pos.fen(),
            }
        })
        .collect()
}

/// The position after an illegal move that stood, from its note on the scoresheet ("e2-e5",
/// "O-O").
fn irregular_after(pos: &Position, p: &Ply) -> Option<Position> {
    match p.uci.as_str() {
        "O-O" => pos.play_irregular_castling(true),
        "O-O-O" => pos.play_irregular_castling(false),
        _ => pos.play_irregular(p.mv.from(), p.mv.to(), None),
    }
}

fn board(game: &Game) -> Board {
    let sealed = matches!(game.adjournment(), Some(Adjournment::Sealed(_)));
    let claims = if game.outcome().is_some() || sealed {
        Claims::default()
    } else {
        let history = game.history();
        Claims {
            threefold: history.can_claim_threefold(),
            fifty: history.can_claim_fifty(),
        }
    };
    Board {
        position: game.position().clone(),
        clock: game.clock().clone(),
        outcome: game.outcome(),
        draw_offer: game.draw_offer(),
        takeback: game.takeback_request(),
        can_abort: game.can_abort(),
        can_berserk: Color::ALL.map(|c| game.can_berserk(c)),
        infractions: Color::ALL.map(|c| game.infractions(c)),
        claimable_illegal: game.claimable_illegal_move(),
        adjournment: game.adjournment(),
        claims,
        last: game.plies().last().cloned(),
        plies: game.plies().len(),
        dead_after: game.dead_after(),
    }
}

impl Round {
    /// The round as it stands; with every move when `whole`.
    pub(super) fn snapshot(&self, whole: bool) -> Arc<Snapshot> {
        Arc::new(Snapshot {
            table: self.table.clone(),
            version: self.version,
            started_at: self.started_at,
            seats: self.seats.clone(),
            players: self.players.clone(),
            online: self.presence(),
            gone: self.gone,
            invite: self.invite.clone(),
            invite_ended: self.invite_ended,
            rematch: self.rematch,
            adjourn_asked: self.adjourn_asked,
            resume_asked: self.resume_asked,
            may_adjourn: self.may_adjourn(),
            opening: self.opening,
            board: self.game.as_ref().map(board),
            chat: self.chat.clone(),
            moves: whole.then(|| {
                self.game
                    .as_ref()
                    .map(played)
                    .unwrap_or_else(|| Arc::new([]))
            }),
        })
    }
}

impl Round {
    /// The game as it stands, with the round; none before it has begun.
    pub(super) fn export(&self) -> Option<super::LiveExport> {
        let game = self.game.as_ref()?;
        Some((game.clone(), self.snapshot(false)))
    }
}
