//! Adjournment between people: a player asks and the opponent agrees (at once on one
//! device); the player to move seals a move, unseen; when both ask to resume, the sealed move
//! is made. Only long games are adjourned, as over the board.

use vizier_arbiter::{Adjournment, Command, Speed};
use vizier_rules::Color;

use super::GameEvent;
use super::Round;
use crate::ids::PlayerId;
use crate::refusal::{Refusal, Why};
use vizier_store::record::Seat;

/// Which of adjourning and resuming a player asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ask {
    Adjourn,
    Resume,
}

impl Round {
    /// Whether the game may be adjourned now: between people, with a standard or
    /// correspondence clock, while it is played and not adjourned.
    pub(super) fn may_adjourn(&self) -> bool {
        let people = self.seats.iter().all(|s| matches!(s, Seat::Player(_)));
        let long = matches!(
            self.table.setup.control.speed(),
            Speed::Standard | Speed::Correspondence
        );
        people
            && long
            && self.game.as_ref().is_some_and(|g| {
                g.outcome().is_none()
                    && g.adjournment().is_none()
                    && g.claimable_illegal_move().is_none()
            })
    }

    /// `player` asks to adjourn or to resume, or agrees to the opponent's asking.
    pub(super) async fn ask(
        &mut self,
        what: Ask,
        player: Option<&PlayerId>,
        side: Option<Color>,
    ) -> Result<(), Refusal> {
        let mine = self.sides_of(player);
        let Some(me) = self.own_side(player, side) else {
            return Err(Refusal::new(
                Why::Spectator,
                "you are watching this game, not playing it",
            ));
        };
        let asked = match what {
            Ask::Adjourn => {
                if !self.may_adjourn() {
                    return Err(Refusal::new(
                        Why::NoAdjournment,
                        "only games between people with 60 minutes or more are adjourned",
                    ));
                }
                self.adjourn_asked
            }
            Ask::Resume => {
                if !matches!(
                    self.game.as_ref().and_then(|g| g.adjournment()),
                    Some(Adjournment::Sealed(_))
                ) {
                    return Err(Refusal::new(
                        Why::NotAdjourned,
                        "the game is not adjourned with a sealed move",
                    ));
                }
                self.resume_asked
            }
        };
        let agreed = mine.len() == 2 || asked == Some(!me);
        if !agreed {
            match what {
                Ask::Adjourn => self.adjourn_asked = Some(me),
                Ask::Resume => self.resume_asked = Some(me),
            }
            self.version += 1;
            self.events.push(match what {
                Ask::Adjourn => GameEvent::AdjournAsked { by: me },
                Ask::Resume => GameEvent::ResumeAsked { by: me },
            });
            self.publish(true);
            return Ok(());
        }
        let command = match what {
            Ask::Adjourn => Command::Adjourn,
            Ask::Resume => Command::Resume,
        };
        self.command(command).await?;
        self.adjourn_asked = None;
        self.resume_asked = None;
        Ok(())
    }
}
