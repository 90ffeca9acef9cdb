//! What the store measures: the server describes and serves these with its own.

/// One append to the database, from the game's request to the commit.
pub const STORE_SECONDS: &str = "vizier_store_append_seconds";
/// The writer's part of a SQLite checkpoint, during which no write is stored.
pub const CHECKPOINT_SECONDS: &str = "vizier_store_checkpoint_seconds";
/// Appends the database failed.
pub const STORE_FAILURES: &str = "vizier_store_failures_total";
