//! The ids of games and players, and invite tokens: the store's types, which are what it keeps.

pub use vizier_store::ids::{GameId, PlayerId, random_token};
