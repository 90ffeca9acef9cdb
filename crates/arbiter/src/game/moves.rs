//! Moves (Arts. 3, 4, 6.2): reading a move, pressing the clock, writing it on the scoresheet,
//! and the endings the new position brings.

use vizier_rules::{Color, Move, MoveParseError};

use super::{Event, Game, result_of};
use crate::clock::{Charge, Millis};
use crate::{CommandError, GameResult, Reason};

/// A move as written: SAN (at most 7 characters, `exd8=Q+`), UCI (5) or an irregular move's
/// from-to (5), held inline so that copying a scoresheet copies no strings.
pub type Notation = arrayvec::ArrayString<7>;

/// `text` as a [`Notation`]; every notation the arbiter writes fits.
pub(super) fn notation(text: &str) -> Notation {
    Notation::from(text).expect("a move's notation is short")
}

/// One move on the scoresheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The move.
    pub mv: Move,
    /// SAN.
    pub san: Notation,
    /// UCI (Chess960 castling as king-takes-rook in Chess960 games).
    pub uci: Notation,
    /// The mover's clock after the move.
    pub clock_ms: Option<Millis>,
    /// The mover offered a draw with this move: "(=)".
    pub draw_offer: bool,
    /// What the arbiter noted after this move (claims, penalties, illegal moves).
    pub notes: Notes,
    /// An illegal move that stood (unsupervised rapid/blitz): `san` and `uci` say from-to.
    pub irregular: bool,
    /// Blindfold: the sides that looked at the board after this move.
    pub peeks: arrayvec::ArrayVec<Color, 2>,
}

/// A ply's notes: most plies have none, and none costs no allocation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Notes(Box<[String]>);

impl Notes {
    /// Adds a note.
    pub fn push(&mut self, note: String) {
        let mut notes = std::mem::take(&mut self.0).into_vec();
        notes.push(note);
        self.0 = notes.into_boxed_slice();
    }
}

impl From<String> for Notes {
    fn from(note: String) -> Notes {
        Notes(Box::new([note]))
    }
}

impl std::ops::Deref for Notes {
    type Target = [String];

    fn deref(&self) -> &[String] {
        &self.0
    }
}

impl Game {
    /// Art. 4 and 6.2: `by` makes the move `text` (UCI or SAN) and presses the clock.
    pub(super) fn play(
        &mut self,
        by: Color,
        text: &str,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if by != self.to_move() {
            return Err(CommandError::NotYourTurn);
        }
        self.make_move(by, text, now, events)
    }

    /// Makes the move `text` of `by`, whose turn it is: legal, it is recorded; illegal, the
    /// procedure of [`super::illegal`] applies.
    pub(super) fn make_move(
        &mut self,
        by: Color,
        text: &str,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let irregular_board = self.let_illegal_move_stand();
        match self.parse_move(text) {
            Ok(m) if irregular_board && m.to() == self.position().king(!by) => {
                Err(CommandError::KingCapture)
            }
            Ok(m) => {
                let clock_ms = match self.clock.complete_move(by, now) {
                    Charge::Flagged(at) => {
                        let (result, reason) = self.loss_for(by, Reason::TimeForfeit)?;
                        self.finish(result, reason, at, events);
                        return Ok(());
                    }
                    Charge::InTime(ms) => self.clock.is_timed().then_some(ms),
                };
                self.record_move(by, m, clock_ms, irregular_board, now, events);
                Ok(())
            }
            Err(e) => self.on_illegal(by, text, e, now, events),
        }
    }

    /// Plays a legal move whose clock has been dealt with; `irregular_board` when it is made
    /// in a position an illegal move left (A.5.4).
    pub(super) fn record_move(
        &mut self,
        by: Color,
        m: Move,
        clock_ms: Option<Millis>,
        irregular_board: bool,
        now: Millis,
        events: &mut Vec<Event>,
    ) {
        let pos = self.position();
        let san = pos.san(m);
        let uci = pos.uci(m, self.castling());
        self.history.push(m).expect("parsed moves are legal");
        self.moves_made[by.index()] += 1;
        let draw_offer = self.offer_mark_pending.take_if(|c| *c == by).is_some();
        self.push_ply(Ply {
            mv: m,
            san: notation(&san),
            uci: notation(&uci),
            clock_ms,
            draw_offer,
            notes: Notes::default(),
            irregular: false,
            peeks: Default::default(),
        });
        self.takeback = None;
        events.push(Event::Moved {
            by,
            uci,
            san,
            clock_ms,
        });
        if self.offer == Some(!by) {
            // Moving instead of answering rejects the offer (Art. 9.1.2.3).
            self.offer = None;
            self.declined_at[(!by).index()] = Some(self.moves_made[(!by).index()]);
            events.push(Event::DrawOfferLapsed { by: !by });
        }
        if irregular_board && self.position().validity().is_err() {
            // A.5.4: the illegal position is still on the board after the next move.
            self.finish(GameResult::Draw, Reason::IllegalPosition, now, events);
            return;
        }
        let (outcome, dead_check) = self.history.outcome_checked();
        self.dead_check = dead_check;
        if let Some(o) = outcome {
            if o.termination == vizier_rules::Termination::DeadPosition {
                self.dead_after = Some(self.plies.len() as u32);
            }
            self.finish(result_of(o.winner), o.termination.reason(), now, events);
            return;
        }
        self.turn_began = now;
        let clocks_on = self.clocks_on();
        if clocks_on {
            self.clock.start(!by, now);
        }
    }

    /// Adds a ply to the scoresheet, one place at a time as the history grows: a scoresheet
    /// lasts as long as the game, and a list that doubled would be a third empty on average.
    pub(super) fn push_ply(&mut self, ply: Ply) {
        self.plies.reserve_exact(1);
        self.plies.push(ply);
    }

    pub(super) fn parse_move(&self, text: &str) -> Result<Move, MoveParseError> {
        self.position().parse_move(text)
    }
}
