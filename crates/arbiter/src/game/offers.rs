//! Draw offers (Art. 9.1): making, accepting and declining them, and the event options that
//! limit them (no offers before a move number; a pause after a declined offer).

use vizier_rules::Color;

use super::{Event, Game, Phase};
use crate::clock::Millis;
use crate::{CommandError, GameResult, Reason};

impl Game {
    /// Art. 9.1.2: `by` offers a draw (offering back accepts the opponent's offer).
    pub(super) fn offer_draw(
        &mut self,
        by: Color,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if self.offer == Some(!by) {
            // Offering back is accepting.
            self.finish(GameResult::Draw, Reason::Agreement, now, events);
            return Ok(());
        }
        if self.offer == Some(by) {
            return Err(CommandError::AlreadyOffered);
        }
        self.offers_allowed()?;
        if let Some(at) = self.declined_at[by.index()]
            && self.moves_made[by.index()] < at + self.setup.options.offer_cooldown_moves
        {
            return Err(CommandError::OfferCooldown);
        }
        self.place_offer(by, events);
        Ok(())
    }

    /// Whether the Laws and the event allow a draw offer now (the cooldown aside).
    fn offers_allowed(&self) -> Result<(), CommandError> {
        if self.moves_made.contains(&0) {
            return Err(CommandError::TooEarlyForDraw);
        }
        let from = self.setup.options.draw_offers_from_move;
        if self.position().fullmoves() < from {
            return Err(CommandError::OffersNotYet(from));
        }
        Ok(())
    }

    /// Art. 9.1.2.3: a claim under 9.2 or 9.3 is also an offer of a draw. A wrong claim leaves
    /// `by`'s offer standing, whatever the cooldown, where the event allows offers at all;
    /// with the opponent's offer standing the two meet and the game is drawn.
    pub(super) fn offer_by_claim(&mut self, by: Color, now: Millis, events: &mut Vec<Event>) {
        match self.offer {
            Some(c) if c == by => {}
            Some(_) => self.finish(GameResult::Draw, Reason::Agreement, now, events),
            None => {
                if self.offers_allowed().is_ok() {
                    self.place_offer(by, events);
                }
            }
        }
    }

    fn place_offer(&mut self, by: Color, events: &mut Vec<Event>) {
        self.offer = Some(by);
        self.declined_at[(!by).index()] = None; // an offer from the opponent lifts their cooldown
        if matches!(self.phase, Phase::Adjourned { .. }) {
            // Made after the seal: no move of the game was made with it.
        } else if self.position().turn() == by {
            // Made before moving: it still stands, and is recorded with the next move.
            self.offer_mark_pending = Some(by);
        } else if let Some(last) = self.plies.last_mut() {
            last.draw_offer = true;
        }
        events.push(Event::DrawOffered { by });
    }

    /// Art. 9.1.2: `by` accepts the opponent's standing offer.
    pub(super) fn accept_draw(
        &mut self,
        by: Color,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if self.offer != Some(!by) {
            return Err(CommandError::NoOffer);
        }
        self.finish(GameResult::Draw, Reason::Agreement, now, events);
        Ok(())
    }

    /// `by` declines the opponent's standing offer; the opponent waits before offering again.
    pub(super) fn decline_draw(
        &mut self,
        by: Color,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if self.offer != Some(!by) {
            return Err(CommandError::NoOffer);
        }
        self.offer = None;
        self.declined_at[(!by).index()] = Some(self.moves_made[(!by).index()]);
        events.push(Event::DrawDeclined { by });
        Ok(())
    }
}
