//! Who may act for which side: a client's action becomes an arbiter command for a side the
//! player holds. In a same-device game the player holds both sides, and an action goes to the
//! side it belongs to unless the client names one. A computer seat's move comes from its
//! seat, a subscriber, tied to the version it was thought over.

use vizier_arbiter::Command;
use vizier_rules::Color;
use vizier_store::record::Seat;

use super::Round;
use crate::act::Action;
use crate::ids::PlayerId;
use crate::refusal::{Refusal, Why};

impl Round {
    /// The side `player` acts for in a request of their own (a rematch, an adjournment): the
    /// side named, if theirs, or else their first; `None` for a spectator.
    pub(super) fn own_side(&self, player: Option<&PlayerId>, side: Option<Color>) -> Option<Color> {
        let mine = self.sides_of(player);
        side.filter(|c| mine.contains(c)).or(mine.first().copied())
    }

    /// Turns a client's action into an arbiter command for a side the player holds.
    pub(super) fn command_for(
        &self,
        player: Option<&PlayerId>,
        side: Option<Color>,
        action: Action,
    ) -> Result<Command, Refusal> {
        let Some(game) = &self.game else {
            return Err(Refusal::new(
                Why::NotStarted,
                "the game has not started: waiting for your friend",
            ));
        };
        if game.outcome().is_some() {
            return Err(Refusal::new(Why::GameOver, "the game is over"));
        }
        let mine = self.sides_of(player);
        if mine.is_empty() {
            return Err(Refusal::new(
                Why::Spectator,
                "you are watching this game, not playing it",
            ));
        }
        let turn = game.position().turn();
        // The side an action belongs to by default: answering the opponent's offer or request
        // is for the other side; everything else is for the side to move.
        let natural = match action {
            Action::AcceptDraw | Action::DeclineDraw => game.draw_offer().map(|c| !c),
            Action::AcceptTakeback | Action::DeclineTakeback => game.takeback_request().map(|c| !c),
            Action::Takeback => Some(!turn),
            _ => Some(turn),
        };
        let by = match side {
            Some(c) if mine.contains(&c) => c,
            Some(_) => {
                return Err(Refusal::new(Why::NotYourSide, "you do not play that side"));
            }
            None if mine.len() == 1 => mine[0],
            None => natural.unwrap_or(turn),
        };
        Ok(match action {
            Action::Move { uci } => Command::Move { by, mv: uci },
            Action::OfferDraw => Command::OfferDraw { by },
            Action::AcceptDraw => Command::AcceptDraw { by },
            Action::DeclineDraw => Command::DeclineDraw { by },
            Action::ClaimDraw { claim, declared } => Command::ClaimDraw {
                by,
                claim,
                declared,
            },
            Action::Resign => Command::Resign { by },
            Action::Abort => Command::Abort { by },
            Action::Takeback => Command::RequestTakeback { by },
            Action::AcceptTakeback => Command::AcceptTakeback { by },
            Action::DeclineTakeback => Command::DeclineTakeback { by },
            Action::ClaimLeft { draw } => {
                if !self.may_claim_left(by, self.hub.now()) {
                    return Err(Refusal::new(
                        Why::OpponentNotGone,
                        "your opponent is here, or has not been gone long enough",
                    ));
                }
                Command::ClaimLeft { by, win: !draw }
            }
            Action::ClaimIllegal => Command::ClaimIllegalMove { by },
            Action::Peek => Command::Peek { by },
            Action::Berserk => Command::Berserk { by },
            Action::Vacation { until } => Command::Vacation { by, until },
            Action::Seal { uci } => Command::Seal { by, mv: uci },
            Action::Join { .. }
            | Action::Rematch
            | Action::Adjourn
            | Action::Resume
            | Action::Resync
            | Action::Chat { .. }
            | Action::Conditional { .. }
            | Action::Ping => {
                unreachable!("handled before")
            }
        })
    }

    /// Whether the game waits for a computer seat's move.
    pub(super) fn computer_to_move(&self) -> bool {
        self.game.as_ref().is_some_and(|g| {
            g.outcome().is_none()
                && matches!(
                    self.seats[g.position().turn().index()],
                    Seat::Computer { .. }
                )
        })
    }

    /// Plays a computer seat's move, thought over at `version`: not if the game has moved on
    /// since (its seat hears of the newer version and thinks again).
    pub(super) async fn computer_move(
        &mut self,
        version: u64,
        uci: String,
    ) -> Result<bool, Refusal> {
        let turn = self.game.as_ref().map(|g| g.position().turn());
        let Some(by) = turn.filter(|_| version == self.version && self.computer_to_move()) else {
            return Ok(false);
        };
        self.command(Command::Move { by, mv: uci }).await?;
        Ok(true)
    }
}
