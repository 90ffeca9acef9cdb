//! The setup as stored: the start, the time control in PGN form, when the clocks start, and
//! the options (takebacks, offers, arbiter mode, fouls).

use serde::{Deserialize, Serialize};
use vizier_arbiter::{
    ClockStart, Mode, Options, Setup, StartPosition, TimeControl, TimeControlError,
};

/// The setup as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredSetup {
    /// "standard", or a Chess960 number, or a FEN.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chess960: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// The PGN `TimeControl` form ("-" for none).
    pub time_control: String,
    /// Clocks start after each side's first move, which must come within this time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_move_timeout_ms: Option<u64>,
    #[serde(default)]
    pub takebacks: bool,
    /// Own moves before offering a draw again after a declined one (0, the Laws, unstored).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub offer_cooldown_moves: u32,
    /// Whether the game changes its players' ratings (both are accounts).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// Over the board (same-device games): illegal moves are played and the Laws applied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arbiter: Option<StoredArbiter>,
    /// Moving one's king into check is a foul, and this many lose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub king_fouls: Option<u32>,
    /// The game cannot be aborted (a tournament's).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_abort: bool,
    /// A player may berserk (an arena's).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub berserk: bool,
}

/// Arbiter mode as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StoredArbiter {
    /// An arbiter watches: an illegal move is taken back at once and penalised (Art. 7.5).
    Supervised,
    /// Nobody watches: in rapid and blitz the opponent must claim (Appendix A.5).
    Unsupervised,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl StoredSetup {
    /// Whether the stored setup `json` is of a game without a clock (one that does not read
    /// counts as clocked: it is loaded, and its error shown).
    pub fn is_unclocked(json: &str) -> bool {
        serde_json::from_str::<StoredSetup>(json).is_ok_and(|s| s.time_control.trim() == "-")
    }

    /// The stored form of `setup`.
    pub fn from_setup(setup: &Setup) -> StoredSetup {
        let (chess960, fen) = match &setup.start {
            StartPosition::Standard => (None, None),
            StartPosition::Chess960(n) => (Some(*n), None),
            StartPosition::Fen(f) => (None, Some(f.clone())),
        };
        StoredSetup {
            chess960,
            fen,
            time_control: setup.control.to_pgn(),
            first_move_timeout_ms: match setup.clock_start {
                ClockStart::Fide => None,
                ClockStart::AfterFirstMoves {
                    first_move_timeout_ms,
                } => Some(first_move_timeout_ms),
            },
            takebacks: setup.options.takebacks,
            offer_cooldown_moves: setup.options.offer_cooldown_moves,
            rated: false,
            arbiter: match setup.mode {
                Mode::Online => None,
                Mode::OverTheBoard { supervised: true } => Some(StoredArbiter::Supervised),
                Mode::OverTheBoard { supervised: false } => Some(StoredArbiter::Unsupervised),
            },
            king_fouls: setup.options.king_into_check_fouls,
            no_abort: setup.options.no_abort,
            berserk: setup.options.berserk,
        }
    }

    /// The arbiter's setup, or why the stored form is unreadable.
    pub fn to_setup(&self) -> Result<Setup, TimeControlError> {
        let start = match (&self.chess960, &self.fen) {
            (Some(n), _) => StartPosition::Chess960(*n),
            (None, Some(f)) => StartPosition::Fen(f.clone()),
            (None, None) => StartPosition::Standard,
        };
        let control = TimeControl::parse_pgn(&self.time_control)?;
        Ok(Setup {
            start,
            control,
            clock_start: match self.first_move_timeout_ms {
                None => ClockStart::Fide,
                Some(first_move_timeout_ms) => ClockStart::AfterFirstMoves {
                    first_move_timeout_ms,
                },
            },
            mode: match self.arbiter {
                None => Mode::Online,
                Some(a) => Mode::OverTheBoard {
                    supervised: a == StoredArbiter::Supervised,
                },
            },
            options: Options {
                takebacks: self.takebacks,
                offer_cooldown_moves: self.offer_cooldown_moves,
                king_into_check_fouls: self.king_fouls,
                no_abort: self.no_abort,
                berserk: self.berserk,
                ..Options::default()
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setups_read_back() {
        for setup in [
            Setup::default(),
            Setup {
                start: StartPosition::Chess960(518),
                control: TimeControl::parse_pgn("40/5400+30:1800+30").unwrap(),
                clock_start: ClockStart::AfterFirstMoves {
                    first_move_timeout_ms: 30_000,
                },
                ..Setup::default()
            },
            Setup {
                start: StartPosition::Fen("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1".into()),
                control: TimeControl::parse_pgn("300d5").unwrap(),
                options: Options {
                    takebacks: true,
                    ..Options::default()
                },
                ..Setup::default()
            },
            Setup {
                mode: Mode::OverTheBoard { supervised: false },
                options: Options {
                    king_into_check_fouls: Some(3),
                    ..Options::default()
                },
                ..Setup::default()
            },
        ] {
            let json = serde_json::to_string(&StoredSetup::from_setup(&setup)).unwrap();
            let back: StoredSetup = serde_json::from_str(&json).unwrap();
            assert_eq!(back.to_setup().unwrap(), setup, "{json}");
        }
    }
}
