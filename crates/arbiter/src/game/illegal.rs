//! Illegal moves over the board (Art. 7.5; Appendices A.5 and B.3): with an arbiter the
//! position before is reinstated at once; unsupervised in rapid and blitz the move stands
//! unless the opponent claims. The first completed illegal move gives the opponent time, the
//! second loses. Online, illegal moves are simply refused; the casual foul rule (a king moved
//! into check) is counted here too.

use vizier_rules::{Color, History, Move, MoveParseError, Position, Role, Square, attacks};

use super::{Event, Game, Mode, Ply};
use crate::clock::{Charge, Millis, Speed};
use crate::{CommandError, GameResult, Reason};

/// An illegal move that stands unless the opponent claims before moving (unsupervised A.5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct PendingIllegal {
    pub(super) by: Color,
    text: String,
    /// The game before the illegal move, reinstated on a claim.
    pub(super) before: History,
    /// The position after it, if it is a valid position at all.
    pub(super) after: Option<Position>,
}

impl Game {
    /// Reads an illegal move as "this piece to that square", if the text says that much.
    fn irregular_squares(&self, text: &str) -> Option<(Square, Square, Option<Role>)> {
        let b = text.trim().as_bytes();
        if (4..=5).contains(&b.len())
            && let (Some(from), Some(to)) =
                (Square::from_ascii(&b[0..2]), Square::from_ascii(&b[2..4]))
        {
            let promo = b.get(4).and_then(|&c| Role::from_char(c as char));
            return Some((from, to, promo));
        }
        // SAN-like "Ke2" / "Nf5": the only piece of that kind.
        let pos = self.position();
        let role = Role::from_char(*b.first()? as char).filter(|_| b[0].is_ascii_uppercase())?;
        let to = Square::from_ascii(b.get(b.len().checked_sub(2)?..)?)?;
        let from = pos.pieces(pos.turn(), role).single()?;
        Some((from, to, None))
    }

    pub(super) fn on_illegal(
        &mut self,
        by: Color,
        text: &str,
        err: MoveParseError,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let pos = self.position().clone();
        let squares = self.irregular_squares(text);
        // The casual foul rule: a king stepping into check.
        if let (Some(limit), Some((from, to, _))) =
            (self.setup.options.king_into_check_fouls, squares)
            && pos
                .piece_at(from)
                .is_some_and(|p| p.color == by && p.role == Role::King)
            && attacks::king(from).contains(to)
            && !pos.by_color(by).contains(to)
            && pos.is_attacked(to, !by, pos.occupied() ^ from.bb())
        {
            let count = {
                self.fouls[by.index()] += 1;
                self.fouls[by.index()]
            };
            events.push(Event::Foul { by, count });
            if count >= limit {
                self.finish(GameResult::win(!by), Reason::Fouls, now, events);
            }
            return Ok(());
        }
        let Mode::OverTheBoard { supervised } = self.setup.mode else {
            return Err(CommandError::BadMove(err));
        };
        let Some((from, to, promo)) = squares else {
            return Err(CommandError::BadMove(err));
        };
        if pos.piece_at(from).is_none_or(|p| p.color != by) {
            return Err(CommandError::NoSuchPiece);
        }
        // The illegal move was completed: the clock was pressed.
        if let Charge::Flagged(at) = self.clock.complete_move(by, now) {
            let (result, reason) = self.loss_for(by, Reason::TimeForfeit);
            self.finish(result, reason, at, events);
            return Ok(());
        }
        let label = format!("{from}-{to}");
        let unsupervised_fast = !supervised && matches!(self.speed(), Speed::Blitz | Speed::Rapid);
        if unsupervised_fast {
            let after = pos.play_irregular(from, to, promo);
            let before = self.history.clone();
            if let Some(after) = &after {
                self.history = History::new(after.clone());
            }
            self.plies.push(Ply {
                mv: Move::normal(from, to),
                san: super::moves::notation(&label),
                uci: super::moves::notation(&label),
                clock_ms: self.clock.remaining(by, now),
                draw_offer: false,
                notes: vec![format!("illegal move {label} (stands unless claimed)")],
                irregular: true,
            });
            self.moves_made[by.index()] += 1;
            self.pending_illegal = Some(PendingIllegal {
                by,
                text: label.clone(),
                before,
                after,
            });
            events.push(Event::IllegalMoveStands { by, mv: label });
            self.clock.start(!by, now);
            self.turn_began = now;
            return Ok(());
        }
        // Supervised: the position before the irregularity is reinstated at once (7.5.1) and
        // the offender, whose clock runs again, must make a legal move.
        self.clock.start(by, now);
        self.penalise_illegal(by, &label, now, events);
        Ok(())
    }

    /// Art. 7.5.5: the first completed illegal move gives the opponent time; the second loses.
    fn penalise_illegal(&mut self, by: Color, label: &str, now: Millis, events: &mut Vec<Event>) {
        self.illegal_moves[by.index()] += 1;
        let count = self.illegal_moves[by.index()];
        let penalty_ms = if count >= 2 { 0 } else { self.penalty_ms() };
        if penalty_ms > 0 {
            self.clock.add(!by, penalty_ms);
        }
        if let Some(last) = self.plies.last_mut() {
            last.notes.push(format!("illegal move {label} by {by}"));
        }
        events.push(Event::IllegalMove {
            by,
            mv: label.to_string(),
            count,
            penalty_ms,
        });
        if count >= 2 {
            let (result, reason) = self.loss_for(by, Reason::IllegalMoves);
            self.finish(result, reason, now, events);
        }
    }

    /// Appendix A.5: `by` claims that the opponent's last move, which stood, was illegal; the
    /// position before it is reinstated and the offender must make a legal move.
    pub(super) fn claim_illegal_move(
        &mut self,
        by: Color,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let Some(pending) = self.pending_illegal.take().filter(|p| p.by == !by) else {
            return Err(CommandError::NothingToClaim);
        };
        self.history = pending.before;
        self.plies.pop();
        self.moves_made[pending.by.index()] -= 1;
        // The offender's clock runs again: they must make a legal move.
        self.clock.stop(now);
        self.clock.start(pending.by, now);
        self.penalise_illegal(pending.by, &pending.text, now, events);
        Ok(())
    }
}
