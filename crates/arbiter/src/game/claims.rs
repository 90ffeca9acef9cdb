//! Draw claims (Arts. 9.2, 9.3, 9.5): by threefold repetition or the 50-move rule, now or
//! with a declared move, the penalty for a wrong claim, and the offer every claim makes.

use vizier_rules::{Color, MoveParseError};

use super::{Claim, Event, Game, Mode, Phase};
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
        let reason = match claim {
            Claim::Threefold => Reason::ThreefoldRepetition,
            Claim::FiftyMoves => Reason::FiftyMoves,
        };
        let declared = match declared.map(|t| (t, self.parse_move(t))) {
            None => None,
            Some((_, Ok(m))) => Some(m),
            // Over the board the declared move is written down before the arbiter looks: an
            // illegal one makes the claim incorrect (Arts. 9.2.1.1, 9.5.3), and the claimant
            // then makes a legal move. Online it is refused, as any illegal move is.
            Some((text, Err(_)))
                if matches!(self.setup.mode, Mode::OverTheBoard { .. })
                    && self.written_but_illegal(text) =>
            {
                let note = format!(
                    "incorrect {} claim by {by}: the declared move {} is illegal",
                    reason.describe(),
                    text.trim()
                );
                self.reject_claim(by, claim, note, now, events);
                return Ok(());
            }
            Some((_, Err(e))) => return Err(CommandError::BadMove(e)),
        };
        let valid = match (claim, declared) {
            (Claim::Threefold, None) => self.history.can_claim_threefold(),
            (Claim::Threefold, Some(m)) => self.history.can_claim_threefold_with(m),
            (Claim::FiftyMoves, None) => self.history.can_claim_fifty(),
            (Claim::FiftyMoves, Some(m)) => self.history.can_claim_fifty_with(m),
        };
        if let Some(m) = declared {
            // The declared move is fixed and written down (Art. 9.2.1.1; made on the board
            // under 9.5.3 when the claim fails).
            let uci = self.position().uci(m, self.castling());
            self.make_move(by, &uci, now, events)?;
            match self.outcome() {
                // A correct claim is decided before the declared move is made on the board:
                // it draws even where that move would mate (see docs/laws.md).
                Some(o) if valid && o.reason == Reason::Checkmate => {
                    events.retain(|e| !matches!(e, Event::GameOver(_)));
                    self.phase = Phase::Playing;
                }
                Some(_) => return Ok(()),
                None => {}
            }
        }
        if valid {
            self.finish(GameResult::Draw, reason, now, events);
        } else {
            let note = format!("incorrect {} claim by {by}", reason.describe());
            self.reject_claim(by, claim, note, now, events);
        }
        Ok(())
    }

    /// Whether `text` is written as a move, in UCI or SAN, that no legal move here matches.
    fn written_but_illegal(&self, text: &str) -> bool {
        let pos = self.position();
        let illegal = |r: Result<_, MoveParseError>| matches!(r, Err(MoveParseError::Illegal(_)));
        illegal(pos.parse_uci(text.trim())) || illegal(pos.parse_san_lenient(text))
    }

    /// Art. 9.5.3: an incorrect claim gives the opponent time; noted on the scoresheet, it
    /// stands as a draw offer (Art. 9.1.2.3).
    fn reject_claim(
        &mut self,
        by: Color,
        claim: Claim,
        note: String,
        now: Millis,
        events: &mut Vec<Event>,
    ) {
        let penalty_ms = if self.clock.is_timed() {
            self.penalty_ms()
        } else {
            0
        };
        self.clock.add(!by, penalty_ms);
        if let Some(last) = self.plies.last_mut() {
            last.notes.push(note);
        }
        events.push(Event::ClaimRejected {
            by,
            claim,
            penalty_ms,
        });
        self.offer_by_claim(by, now, events);
    }
}
