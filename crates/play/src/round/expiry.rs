//! Calling off what nobody plays: a friend game whose invite nobody took, and a game without a
//! clock left untouched (a game with a clock ends by its flags). Such a game ends without a
//! result, as abandoned, and stops counting against its players' unfinished games.

use vizier_arbiter::{Command, Game, Millis};
use vizier_rules::Reason;

use super::Round;

/// The times before which nothing may have happened in a game for it to be called off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expiry {
    /// For a friend game still waiting for the friend: its creation.
    pub invites_before: Millis,
    /// For a game without a clock: its last command (or its start).
    pub unclocked_before: Millis,
}

impl Round {
    /// Calls the game off if it is idle by `expiry`; whether it was (and is stored so).
    pub(super) async fn expire(&mut self, expiry: Expiry) -> bool {
        match &self.game {
            None => {
                if self.invite_ended.is_some() || self.created_at >= expiry.invites_before {
                    return false;
                }
                if let Err(e) = self.end_waiting(Reason::Abandoned).await {
                    tracing::error!(game = %self.table.id, "invite not expired: {e}");
                    return false;
                }
                true
            }
            Some(game) => {
                if !idle_unclocked(game, expiry.unclocked_before) {
                    return false;
                }
                match self.command(Command::Abandon).await {
                    Ok(()) => true,
                    Err(refusal) => {
                        tracing::error!(game = %self.table.id, "not abandoned: {}", refusal.message);
                        false
                    }
                }
            }
        }
    }
}

/// Whether `game` has no clock, is not over, and nothing happened in it since `before`.
fn idle_unclocked(game: &Game, before: Millis) -> bool {
    let last = game.log().last().map_or(game.created_at(), |(at, _)| *at);
    game.outcome().is_none() && !game.clock().is_timed() && last < before
}
