//! Illegal moves over the board (Art. 7.5; Appendices A.5 and B.3): with an arbiter the
//! position before is reinstated at once; unsupervised in rapid and blitz the move stands
//! unless the opponent claims. The first completed illegal move gives the opponent time, the
//! second loses. Online, illegal moves are simply refused; the casual foul rule (a king moved
//! into check) is counted here too.

use vizier_rules::{Color, History, Move, MoveParseError, Piece, Role, Square, attacks};

use super::{Event, Game, Mode, Ply};
use crate::clock::{Charge, Clock, Millis, Speed};
use crate::{CommandError, GameResult, Reason};

/// An illegal move that stands unless the opponent claims before moving (unsupervised A.5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct PendingIllegal {
    pub(super) by: Color,
    text: String,
    /// The game before the illegal move, reinstated on a claim.
    before: History,
    /// The clocks before the illegal move, and when it was completed.
    clock_before: Clock,
    pressed_at: Millis,
    /// A pawn moved to the last rank without promoting: the move as a queen's (Art. 7.5.2).
    queened: Option<Move>,
}

/// An illegal move as the hands make it on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Irregular {
    /// One piece from one square to another (promoted, if `promotion`).
    Piece {
        from: Square,
        to: Square,
        promotion: Option<Role>,
    },
    /// King and rook together, on the king's side or the queen's.
    Castling { king_side: bool },
}

impl Irregular {
    /// How the scoresheet's note writes it.
    fn label(self) -> String {
        match self {
            Irregular::Piece { from, to, .. } => format!("{from}-{to}"),
            Irregular::Castling { king_side: true } => "O-O".to_string(),
            Irregular::Castling { king_side: false } => "O-O-O".to_string(),
        }
    }
}

impl Game {
    /// Reads an illegal move: castling written `O-O` or as the king's move, "this piece to that
    /// square" in UCI, or SAN-like `Ke2` naming the only piece of its kind.
    fn read_irregular(&self, text: &str) -> Option<Irregular> {
        let text = text.trim().trim_end_matches(['+', '#']);
        match text {
            "O-O" | "0-0" => return Some(Irregular::Castling { king_side: true }),
            "O-O-O" | "0-0-0" => return Some(Irregular::Castling { king_side: false }),
            _ => {}
        }
        let pos = self.position();
        let b = text.as_bytes();
        if (4..=5).contains(&b.len())
            && let (Some(from), Some(to)) =
                (Square::from_ascii(&b[0..2]), Square::from_ascii(&b[2..4]))
        {
            let promotion = b.get(4).and_then(|&c| Role::from_char(c as char));
            let us = pos.turn();
            let king_along_back_rank = pos.piece_at(from) == Some(Piece::new(us, Role::King))
                && from.rank() == us.back_rank()
                && to.rank() == from.rank();
            // Art. 4.4.2: a king's two-square step is castling; in Chess960 (and in UCI's
            // Chess960 form) so is the king onto its own rook.
            let two_squares =
                !self.chess960 && from.file() == 4 && from.file().abs_diff(to.file()) == 2;
            let onto_own_rook = pos.piece_at(to) == Some(Piece::new(us, Role::Rook));
            if king_along_back_rank && (two_squares || onto_own_rook) {
                let king_side = to.file() > from.file();
                if pos.play_irregular_castling(king_side).is_some() || onto_own_rook {
                    return Some(Irregular::Castling { king_side });
                }
            }
            return Some(Irregular::Piece {
                from,
                to,
                promotion,
            });
        }
        // A pawn written onto the last rank without a new piece, "a8" or "bxa8" (Art. 7.5.2).
        if let Ok(m) = pos.parse_san_lenient(&format!("{text}=Q"))
            && m.promotion().is_some()
        {
            return Some(Irregular::Piece {
                from: m.from(),
                to: m.to(),
                promotion: None,
            });
        }
        // SAN-like "Ke2" / "Nf5": the only piece of that kind.
        let role = Role::from_char(*b.first()? as char).filter(|_| b[0].is_ascii_uppercase())?;
        let to = Square::from_ascii(b.get(b.len().checked_sub(2)?..)?)?;
        let from = pos.pieces(pos.turn(), role).single()?;
        Some(Irregular::Piece {
            from,
            to,
            promotion: None,
        })
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
        let irregular = self.read_irregular(text);
        // The casual foul rule: a king stepping into check.
        if let (Some(limit), Some(Irregular::Piece { from, to, .. })) =
            (self.setup.options.king_into_check_fouls, irregular)
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
        let Some(irregular) = irregular else {
            return Err(CommandError::BadMove(err));
        };
        if let Irregular::Piece { from, .. } = irregular
            && pos.piece_at(from).is_none_or(|p| p.color != by)
        {
            return Err(CommandError::NoSuchPiece);
        }
        let label = irregular.label();
        let queened = self.unpromoted_pawn(irregular);
        let unsupervised_fast = !supervised && matches!(self.speed(), Speed::Blitz | Speed::Rapid);
        if let (false, Some(m)) = (unsupervised_fast, queened) {
            // Art. 7.5.2: penalised, and the pawn becomes a queen: the move stands as that.
            self.penalise_illegal(by, &label, now, events)?;
            return self.queen_the_pawn(by, m, now, events);
        }
        if !unsupervised_fast {
            // Supervised: the position before the irregularity is reinstated at once (7.5.1)
            // and the offender must make a legal move. The illegal move was no move: the
            // offender's clock runs on, with no increment and no move counted.
            self.penalise_illegal(by, &label, now, events)?;
            return Ok(());
        }
        let after = match irregular {
            Irregular::Piece {
                from,
                to,
                promotion,
            } => pos.play_irregular(from, to, promotion),
            Irregular::Castling { king_side } => pos.play_irregular_castling(king_side),
        };
        let Some(after) = after else {
            return Err(CommandError::BadMove(err));
        };
        // Unsupervised, the move stands unless claimed: the clock was pressed.
        let clock_before = self.clock.clone();
        if let Charge::Flagged(at) = self.clock.complete_move(by, now) {
            let (result, reason) = self.loss_for(by, Reason::TimeForfeit)?;
            self.finish(result, reason, at, events);
            return Ok(());
        }
        let continued = self.history.continue_irregular(after);
        let before = std::mem::replace(&mut self.history, continued);
        // A board an illegal move left gets no dead-position proof (A.5).
        self.dead_check = vizier_rules::DeadCheck::Alive;
        let mv = match irregular {
            Irregular::Piece { from, to, .. } => Move::normal(from, to),
            Irregular::Castling { king_side } => {
                let king = pos.king(by);
                let file = if king_side { 6 } else { 2 };
                Move::normal(king, Square::from_coords(file, king.rank()))
            }
        };
        self.push_ply(Ply {
            mv,
            san: super::moves::notation(&label),
            uci: super::moves::notation(&label),
            clock_ms: self.clock.remaining(by, now),
            draw_offer: false,
            notes: format!("illegal move {label} (stands unless claimed)").into(),
            irregular: true,
            peeks: Default::default(),
        });
        self.moves_made[by.index()] += 1;
        self.pending_illegal = Some(Box::new(PendingIllegal {
            by,
            text: label.clone(),
            before,
            clock_before,
            pressed_at: now,
            queened,
        }));
        events.push(Event::IllegalMoveStands { by, mv: label });
        self.clock.start(!by, now);
        self.turn_began = now;
        Ok(())
    }

    /// The opponent moves instead of claiming: an illegal move that is pending now stands
    /// (A.5.2). Returns whether it left a position the Laws call illegal, which draws if it
    /// is still on the board once this move is made (A.5.4).
    pub(super) fn let_illegal_move_stand(&mut self) -> bool {
        self.pending_illegal.take().is_some() && self.position().validity().is_err()
    }

    /// Art. 7.5.5: the first completed illegal move gives the opponent time; the second loses.
    fn penalise_illegal(
        &mut self,
        by: Color,
        label: &str,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
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
            let (result, reason) = self.loss_for(by, Reason::IllegalMoves)?;
            self.finish(result, reason, now, events);
        }
        Ok(())
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
        let queened = pending.queened;
        self.history = pending.before;
        self.plies.pop();
        self.moves_made[pending.by.index()] -= 1;
        // The illegal move is undone on the clock too: the offender keeps the time it took but
        // gets no increment and no move counted; the claimant's time until the claim is used.
        let mut clock = pending.clock_before;
        clock.stop(pending.pressed_at);
        clock.take_remaining(&self.clock, by, now);
        clock.start(pending.by, now);
        self.clock = clock;
        self.turn_began = now;
        self.check_dead_again();
        self.penalise_illegal(pending.by, &pending.text, now, events)?;
        match queened {
            // Art. 7.5.2: the pawn becomes a queen at once, as if the offender had moved so
            // when the clock was pressed (the clock was rewound to then).
            Some(m) if self.outcome().is_none() => self.queen_the_pawn(pending.by, m, now, events),
            _ => Ok(()),
        }
    }

    /// Art. 7.5.2: the illegal move `irregular` moved a pawn to the last rank without
    /// promoting it; the move that puts a queen there instead, where that is legal.
    fn unpromoted_pawn(&self, irregular: Irregular) -> Option<Move> {
        let Irregular::Piece {
            from,
            to,
            promotion: None,
        } = irregular
        else {
            return None;
        };
        let pos = self.position();
        let us = pos.turn();
        let pawn = pos.piece_at(from) == Some(Piece::new(us, Role::Pawn));
        if !pawn || to.rank() != (!us).back_rank() {
            return None;
        }
        pos.parse_uci(&format!("{from}{to}q")).ok()
    }

    /// Art. 7.5.2: the pawn `by` left unpromoted is replaced by a queen of its colour on that
    /// square: the queen's move `m` is made, the clock pressed, and the scoresheet says why.
    fn queen_the_pawn(
        &mut self,
        by: Color,
        m: Move,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let plies = self.plies.len();
        let uci = self.position().uci(m, self.castling());
        self.make_move(by, &uci, now, events)?;
        if self.plies.len() > plies
            && let Some(ply) = self.plies.last_mut()
        {
            ply.notes
                .push("pawn not promoted: replaced by a queen (Art. 7.5.2)".to_string());
        }
        Ok(())
    }
}
