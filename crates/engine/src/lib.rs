//! # vizier-engine
//!
//! Vizier's chess engine: alpha-beta search with the usual enhancements, a tapered hand-written
//! evaluation behind an [`eval::Evaluator`] seam, time management, and a UCI front end
//! ([`uci::Engine`], run by `vizier uci`).

pub mod bench;
pub mod eval;
pub mod level;
pub mod nnue;
mod player;
pub mod random;
pub mod search;
pub mod see;
pub mod timeman;
pub mod tt;
pub mod uci;

pub use player::{Player, Stopper};
pub use timeman::TimeLeft;
