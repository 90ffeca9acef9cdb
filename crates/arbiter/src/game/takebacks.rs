//! Takebacks by agreement (casual games; not in the Laws): asking, agreeing, refusing, and
//! taking the moves back with the clocks.

use vizier_rules::Color;

use super::{Event, Game};
use crate::CommandError;
use crate::clock::Millis;

impl Game {
    /// `by` asks to take back their last move (casual games with takebacks on).
    pub(super) fn request_takeback(
        &mut self,
        by: Color,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if !self.setup.options.takebacks {
            return Err(CommandError::TakebacksOff);
        }
        if self.takeback.is_some() || !self.can_take_back(by) {
            return Err(CommandError::NoTakeback);
        }
        self.takeback = Some(by);
        events.push(Event::TakebackRequested { by });
        Ok(())
    }

    /// `by` agrees to the opponent's request: the moves are taken back.
    pub(super) fn accept_takeback(
        &mut self,
        by: Color,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let Some(requester) = self.takeback.filter(|r| *r == !by) else {
            return Err(CommandError::NoTakeback);
        };
        // Asked in time, but a move since may have made it impossible.
        if !self.can_take_back(requester) {
            return Err(CommandError::NoTakeback);
        }
        self.take_back(requester, now, events);
        Ok(())
    }

    /// `by` refuses the opponent's request.
    pub(super) fn decline_takeback(
        &mut self,
        by: Color,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if self.takeback != Some(!by) {
            return Err(CommandError::NoTakeback);
        }
        self.takeback = None;
        events.push(Event::TakebackDeclined { by });
        Ok(())
    }

    /// Whether `by`'s last move can be taken back now. Not across an illegal move that
    /// stood or may still be claimed: the game before it is gone.
    fn can_take_back(&self, by: Color) -> bool {
        let plies = self.takeback_plies(by);
        self.moves_made[by.index()] > 0
            && self.pending_illegal.is_none()
            && !self.plies.iter().rev().take(plies).any(|p| p.irregular)
    }

    /// How many plies a takeback for `requester` removes: their last move, and the
    /// opponent's reply if there was one.
    fn takeback_plies(&self, requester: Color) -> usize {
        let plies = if self.position().turn() == requester {
            2
        } else {
            1
        };
        plies.min(self.plies.len())
    }

    fn take_back(&mut self, requester: Color, now: Millis, events: &mut Vec<Event>) {
        let plies = self.takeback_plies(requester);
        for _ in 0..plies {
            if self.plies.pop().is_some() {
                self.history.pop();
                let mover = self.position().turn();
                self.moves_made[mover.index()] -= 1;
            }
        }
        self.takeback = None;
        self.offer = None;
        self.offer_mark_pending = None;
        self.check_dead_again();
        self.clock.stop(now);
        let to_move = self.position().turn();
        let clocks_on = self.clocks_on();
        if clocks_on {
            self.clock.start(to_move, now);
        }
        self.turn_began = now;
        events.push(Event::TakenBack { plies });
    }
}
