//! Draw claims (Arts. 9.2, 9.3, 9.5): by threefold repetition or the 50-move rule, now or
//! with a declared move, the penalty for a wrong claim, and the offer every claim makes.

use vizier_rules::Color;

use super::{Claim, Event, Game};
use crate::clock::Millis;
use crate::{CommandError, GameResult, Reason};

impl Game {
    /// Arts. 9.2 and 9.3: the player to move claims a draw, now or with a declared move; a
    /// wrong claim gives the opponent time (Art. 9.5).
    pub(super) fn claim_draw(
        &mut self,
        by: Color,
        claim: Claim,
        declared: Option<&str>,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if by != self.to_move() {
            return Err(CommandError::NotYourClaim);
        }
        let declared = declared
            .map(|t| self.parse_move(t))
            .transpose()
            .map_err(CommandError::BadMove)?;
        let valid = match (claim, declared) {
            (Claim::Threefold, None) => self.history.can_claim_threefold(),
            (Claim::Threefold, Some(m)) => self.history.can_claim_threefold_with(m),
            (Claim::FiftyMoves, None) => self.history.can_claim_fifty(),
            (Claim::FiftyMoves, Some(m)) => self.history.can_claim_fifty_with(m),
        };
        if let Some(m) = declared {
            // The declared move is fixed and made (Art. 9.2.1.1; 9.5.3 when the claim fails).
            let uci = self.position().uci(m, self.castling());
            self.make_move(by, &uci, now, events)?;
            if self.outcome().is_some() {
                return Ok(());
            }
        }
        let reason = match claim {
            Claim::Threefold => Reason::ThreefoldRepetition,
            Claim::FiftyMoves => Reason::FiftyMoves,
        };
        if valid {
            self.finish(GameResult::Draw, reason, now, events);
        } else {
            let penalty_ms = if self.clock.is_timed() {
                self.penalty_ms()
            } else {
                0
            };
            self.clock.add(!by, penalty_ms);
            if let Some(last) = self.plies.last_mut() {
                last.notes
                    .push(format!("incorrect {} claim by {by}", reason.describe()));
            }
            events.push(Event::ClaimRejected {
                by,
                claim,
                penalty_ms,
            });
            self.offer_by_claim(by, now, events);
        }
        Ok(())
    }
}
