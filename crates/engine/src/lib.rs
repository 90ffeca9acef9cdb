//! # vizier-engine
//!
//! Vizier's chess engine: alpha-beta search with the usual enhancements, a tapered hand-written
//! evaluation behind an [`eval::Evaluator`] seam, time management, UCI and CECP front
//! ends ([`uci::Engine`] and [`xboard::Engine`], run by `vizier uci` and `vizier xboard`).

pub mod analyst;
mod background;
pub mod bench;
pub mod eval;
mod history;
pub mod level;
mod movepick;
pub mod nnue;
mod player;
pub mod random;
mod score;
pub mod search;
pub mod see;
#[cfg(test)]
mod testio;
pub mod timeman;
pub mod tt;
pub mod uci;
pub mod xboard;

pub use player::{Player, Stopper};
pub use timeman::TimeLeft;
