//! The computer's levels as offered to players.

use serde::Serialize;

/// One level on the home page.
#[derive(Clone, Debug, Serialize)]
pub struct LevelInfo {
    pub level: u8,
    /// Measured Elo (from matches against Stockfish, see the README); `None` if not measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elo: Option<u32>,
}

/// The measured Elo of `level`, if measured.
pub fn elo(level: u8) -> Option<u32> {
    vizier_engine::level::elo(level).and_then(|e| u32::try_from(e).ok())
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
