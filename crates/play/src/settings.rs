//! What the server tells live play: how the computer plays, and what games may cost.

use crate::limits::Limits;

/// Server-wide settings that games need.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Make the computer take a human-like time over its moves (off in tests).
    pub human_pace: bool,
    /// The longest the computer thinks over one move, in ms, whatever the clock.
    pub computer_move_ms: u64,
    /// What games may cost.
    pub limits: Limits,
    /// Where the time comes from (the system's clock but in tests).
    pub clock: crate::time::Clock,
}

impl Settings {
    /// The default longest think of the computer: a person's time for a hard move.
    pub const COMPUTER_MOVE_MS: u64 = 15_000;
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            human_pace: true,
            computer_move_ms: Settings::COMPUTER_MOVE_MS,
            limits: Limits::default(),
            clock: crate::time::Clock::system(),
        }
    }
}
