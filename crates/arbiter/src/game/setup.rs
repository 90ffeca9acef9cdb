//! What is fixed before the first move: the start position, the time control, the mode (online
//! or over the board), when the clocks start, and the casual and event options.

use std::fmt;
use vizier_rules::Position;

use crate::clock::{Millis, TimeControl};

/// Where the game starts.
///
/// ```
/// use vizier_arbiter::StartPosition;
/// // A random Chess960 start is drawn once, at setup, so that the log replays exactly.
/// assert!(matches!(StartPosition::chess960_random(), StartPosition::Chess960(n) if n < 960));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum StartPosition {
    /// The standard position.
    #[default]
    Standard,
    /// A Chess960 start by number (0-959).
    Chess960(u16),
    /// Any legal position, as FEN (X-FEN or Shredder-FEN for Chess960 castling).
    Fen(String),
}

impl StartPosition {
    /// A Chess960 start chosen at random.
    pub fn chess960_random() -> StartPosition {
        StartPosition::Chess960(Position::chess960_random().0)
    }
}

/// How illegal moves are treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// Online: illegal moves are refused.
    #[default]
    Online,
    /// Over-the-board arbiter mode: illegal moves are accepted as played and the Laws applied
    /// (Art. 7.5; Appendices A.5 and B.3 when `supervised` is false in rapid and blitz).
    OverTheBoard {
        /// Whether an arbiter watches the game (unsupervised rapid/blitz: the opponent must claim).
        supervised: bool,
    },
}

/// When the clocks start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ClockStart {
    /// FIDE: White's clock runs from the start of the game.
    #[default]
    Fide,
    /// Online: the clocks start after each side's first move; a side that does not make its first
    /// move within the timeout aborts the game.
    AfterFirstMoves {
        /// How long each side has for its first move.
        first_move_timeout_ms: Millis,
    },
}

/// Casual-game and event options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Takebacks by agreement (casual games).
    pub takebacks: bool,
    /// No draw offers before this move number (event rule; 1 allows them at once).
    pub draw_offers_from_move: u32,
    /// After a declined offer, the decliner's opponent may not offer again for this many of
    /// their own moves, unless the opponent offers first. The Laws set no limit (0); online,
    /// one offer per own move ([`Options::online`]) keeps offers from distracting (Art. 11.5).
    /// Claims are never limited.
    pub offer_cooldown_moves: u32,
    /// Chinese play sites' folk rule: moving one's king into check is a foul (refused), and this
    /// many fouls lose.
    pub king_into_check_fouls: Option<u32>,
    /// Event rule online: the game cannot be called off once made (a tournament's game is
    /// lost by the side that never moves, not aborted).
    pub no_abort: bool,
    /// Arena rule online: before their first move a player may berserk — halve their own
    /// clock and give up its increment.
    pub berserk: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            takebacks: false,
            draw_offers_from_move: 1,
            offer_cooldown_moves: 0,
            king_into_check_fouls: None,
            no_abort: false,
            berserk: false,
        }
    }
}

impl Options {
    /// The options of a game between people online: at most one draw offer per own move.
    ///
    /// ```
    /// assert_eq!(vizier_arbiter::Options::online().offer_cooldown_moves, 1);
    /// assert_eq!(vizier_arbiter::Options::default().offer_cooldown_moves, 0);
    /// ```
    pub fn online() -> Options {
        Options {
            offer_cooldown_moves: 1,
            ..Options::default()
        }
    }
}

/// Everything fixed at the start of a game.
///
/// ```
/// use vizier_arbiter::{Game, Setup, TimeControl};
/// let setup = Setup { control: TimeControl::sudden_death(300_000, 2_000), ..Setup::default() };
/// let game = Game::new(setup, 0).unwrap();
/// assert!(game.outcome().is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Setup {
    /// The start position.
    pub start: StartPosition,
    /// The time control.
    pub control: TimeControl,
    /// Online or over the board.
    pub mode: Mode,
    /// When the clocks start.
    pub clock_start: ClockStart,
    /// Casual and event options.
    pub options: Options,
}

/// Why a game could not be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The FEN is not a legal position.
    Fen(vizier_rules::FenError),
    /// Chess960 positions are numbered 0-959.
    Chess960Number(u16),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Fen(e) => write!(f, "bad start position: {e}"),
            SetupError::Chess960Number(n) => {
                write!(f, "Chess960 position {n} does not exist (0-959)")
            }
        }
    }
}

impl std::error::Error for SetupError {}
