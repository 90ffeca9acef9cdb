//! The computer's levels as offered to players.

use serde::Serialize;

/// One level on the home page.
#[derive(Clone, Debug, Serialize)]
pub struct LevelInfo {
    pub level: u8,
    /// Measured Elo (a match result with error bars, see the README); `None` until measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elo: Option<u32>,
}

/// Measured Elo of `level`. No level has been measured against the Stockfish ladder yet, so
/// none is claimed; the engine issue fills this table from its matches.
pub fn elo(level: u8) -> Option<u32> {
    const MEASURED: [(u8, u32); 0] = [];
    MEASURED.iter().find(|(l, _)| *l == level).map(|(_, e)| *e)
}

/// Every level, weakest first.
pub fn all() -> Vec<LevelInfo> {
    (vizier_engine::level::MIN..=vizier_engine::level::MAX)
        .map(|level| LevelInfo {
            level,
            elo: elo(level),
        })
        .collect()
}
