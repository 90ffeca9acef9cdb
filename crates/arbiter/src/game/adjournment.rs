//! Adjournment (Art. 8 and the 1997 Laws' Art. 10): the player to move seals a move, their
//! clock running until it is sealed; on resumption the sealed move is made.

use vizier_rules::Color;

use super::{Event, Game, Phase};
use crate::clock::{Charge, Millis};
use crate::{CommandError, GameResult, Reason};

impl Game {
    /// The game is adjourned: `to_move` must now seal a move.
    pub(super) fn adjourn(
        &mut self,
        to_move: Color,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if self.phase != Phase::Playing {
            return Err(CommandError::Adjourned);
        }
        self.phase = Phase::Sealing { by: to_move };
        events.push(Event::Adjourned { by: to_move });
        Ok(())
    }

    /// `by` seals `mv`, which stays unseen until the game resumes; sealing stops their clock.
    pub(super) fn seal(
        &mut self,
        by: Color,
        mv: &str,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let Phase::Sealing { by: sealer } = self.phase else {
            return Err(CommandError::NotAdjourned);
        };
        if by != sealer {
            return Err(CommandError::NotYourTurn);
        }
        if let Charge::Flagged(at) = self.clock.complete_move(sealer, now) {
            let (result, reason) = self.loss_for(sealer, Reason::TimeForfeit)?;
            self.finish(result, reason, at, events);
            return Ok(());
        }
        self.phase = Phase::Adjourned {
            by: sealer,
            sealed: mv.to_string(),
        };
        events.push(Event::Sealed { by: sealer });
        Ok(())
    }

    /// The game resumes: the sealed move is made, and an invalid one loses.
    pub(super) fn resume(
        &mut self,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let Phase::Adjourned { by, sealed } = self.phase.clone() else {
            return Err(CommandError::NotAdjourned);
        };
        self.phase = Phase::Playing;
        events.push(Event::Resumed);
        let irregular_board = self.let_illegal_move_stand();
        match self.parse_move(&sealed) {
            Ok(m) if irregular_board && m.to() == self.position().king(!by) => {
                let result = GameResult::win(!by);
                self.finish(result, Reason::InvalidSealedMove, now, events);
            }
            Ok(m) => {
                let clock_ms = self.clock.remaining(by, now);
                self.record_move(by, m, clock_ms, irregular_board, now, events);
            }
            Err(_) => {
                let result = GameResult::win(!by);
                self.finish(result, Reason::InvalidSealedMove, now, events);
            }
        }
        Ok(())
    }
}
