//! What live play measures: the server describes and serves these with its own.

/// Games with a task now.
pub const GAMES_LIVE: &str = "vizier_games_live";
/// Moves stored.
pub const MOVES: &str = "vizier_moves_total";
/// From a command's arrival at its game to its acknowledgement (applied and stored).
pub const ACK_SECONDS: &str = "vizier_ack_seconds";
/// The computer's searches running now.
pub const SEARCHES: &str = "vizier_engine_searches";
