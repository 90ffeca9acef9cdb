//! What live play measures: the server describes and serves these with its own.

/// Games with a task now.
pub const GAMES_LIVE: &str = "vizier_games_live";
/// Moves stored.
pub const MOVES: &str = "vizier_moves_total";
/// From a command's arrival at its game to its acknowledgement (applied and stored).
pub const ACK_SECONDS: &str = "vizier_ack_seconds";
/// The computer's searches running now.
pub const SEARCHES: &str = "vizier_engine_searches";
/// Dead-position proofs of live games, from the queue to the answer.
pub const PROOF_SECONDS: &str = "vizier_proof_seconds";
/// Dead-position proofs refused by a full queue (the game played on).
pub const PROOFS_REFUSED: &str = "vizier_proofs_refused_total";
/// Searches that gave up within a proof's time (counted as "can mate").
pub const PROOFS_UNDECIDED: &str = "vizier_proofs_undecided_total";
