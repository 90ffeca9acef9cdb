//! What only a search can answer: whether a side can still checkmate (a flag fall, Art. 6.9;
//! a second illegal move, 7.5.5; a game left and claimed) and whether the position is dead
//! (Art. 5.2.2). The arbiter settles at once what the quick stage proves. Where a host answers
//! questions ([`Game::ask_for_proofs`]), it asks for the rest ([`CommandError::NeedsProof`]) and
//! takes the answers as commands ([`Command::Proved`], [`Command::DeadPosition`]), so that the
//! log replays to the same game without a search. Without a host (a replay of a log from before
//! hosts answered) it searches itself, at [`vizier_rules::FULL_NODES`], as it did then.

use vizier_rules::{Color, DeadCheck, MateVerdict, Position};

use super::{Event, Game};
use crate::clock::Millis;
use crate::{Command, CommandError, GameResult, Reason};

/// A host's answer to "can `side` checkmate from the position with this key?": `None` where
/// its search ran out of time or positions, which counts as "can" (only a proof draws).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Proof {
    key: u64,
    side: Color,
    can_mate: Option<bool>,
}

impl Game {
    /// From now on the arbiter asks for what only a deeper search can answer, instead of
    /// searching itself: for a server, whose proofs must not hold a game's task.
    pub fn ask_for_proofs(&mut self) {
        self.asks = true;
    }

    /// Whether the game goes on in a position the per-move check could not settle: it may be
    /// dead all the same, for a deeper proof to show (then [`Command::DeadPosition`]).
    pub fn dead_open(&self) -> bool {
        self.outcome().is_none() && self.dead_check == DeadCheck::Open
    }

    /// The number of plies after which the position was dead, for a game that ended so.
    pub fn dead_after(&self) -> Option<usize> {
        self.dead_after.map(|n| n as usize)
    }

    /// Whether `side` can checkmate from `pos` by any series of legal moves.
    pub(super) fn can_mate(&self, pos: &Position, side: Color) -> Result<bool, CommandError> {
        match pos.quick_verdict(side) {
            MateVerdict::Cannot => return Ok(false),
            MateVerdict::Can(_) => return Ok(true),
            MateVerdict::Undecided => {}
        }
        if let Some(can_mate) = self.proof(pos, side) {
            return Ok(can_mate != Some(false));
        }
        if self.asks {
            return Err(CommandError::NeedsProof {
                side: Some(side),
                fen: pos.fen(),
            });
        }
        Ok(!pos.mate_verdict(side, vizier_rules::FULL_NODES).cannot())
    }

    fn proof(&self, pos: &Position, side: Color) -> Option<Option<bool>> {
        let key = pos.hash();
        (self.proofs.iter().rev())
            .find(|p| p.key == key && p.side == side)
            .map(|p| p.can_mate)
    }

    /// [`Command::Proved`]: the host's answer for `side` in the position `fen`.
    pub(super) fn proved(
        &mut self,
        side: Color,
        fen: &str,
        can_mate: Option<bool>,
    ) -> Result<(), CommandError> {
        let pos = Position::from_fen(fen).map_err(|_| CommandError::BadProof)?;
        self.proofs.push(Proof {
            key: pos.hash(),
            side,
            can_mate,
        });
        Ok(())
    }

    /// [`Command::DeadPosition`]: the host proved the position after `after` plies dead, so
    /// the game ended there as a draw (Art. 5.2.2), whatever came after.
    pub(super) fn proved_dead(
        &mut self,
        after: usize,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if after > self.plies.len() {
            return Err(CommandError::BadProof);
        }
        self.dead_after = Some(after as u32);
        self.finish(GameResult::Draw, Reason::DeadPosition, now, events);
        Ok(())
    }

    /// Before an ending that a dead position forestalls (a resignation, Art. 5.1.2; a flag,
    /// 6.9; a second illegal move, 7.5.5): in a position that is already dead the game is
    /// over as a draw (5.2.2), whatever happens after. Asked wherever no answer yet says a
    /// side can mate: the per-move check takes for alive some positions that are dead (its
    /// structure search gives up where a piece can reach the king), and these endings are
    /// rare enough to pay for the exact answer. A board an illegal move left gets no proof
    /// (A.5).
    pub(super) fn dead_already(&self) -> Result<(), CommandError> {
        let pos = self.position();
        if !self.asks || self.pending_illegal.is_some() || pos.validity().is_err() {
            return Ok(());
        }
        let alive =
            (Color::ALL.into_iter()).any(|c| matches!(self.proof(pos, c), Some(Some(true) | None)));
        if alive {
            return Ok(());
        }
        Err(CommandError::NeedsProof {
            side: None,
            fen: pos.fen(),
        })
    }

    /// The per-move check on the position now, after a change other than a move.
    pub(super) fn check_dead_again(&mut self) {
        self.dead_check = self.position().dead_check(vizier_rules::DEAD_CHECK_NODES);
    }
}

/// Whether `command` is a host's answer rather than a player's or the timer's.
pub(super) fn is_proof(command: &Command) -> bool {
    matches!(
        command,
        Command::Proved { .. } | Command::DeadPosition { .. }
    )
}
