//! # vizier-engine
//!
//! Vizier's chess engine: alpha-beta search with the usual enhancements, a tapered hand-written
//! evaluation behind an [`eval::Evaluator`] seam, time management, and a UCI front end
//! ([`uci::Engine`], run by `vizier uci`).

pub mod bench;
pub mod datagen;
pub mod eval;
pub mod level;
pub mod nnue;
pub mod search;
pub mod see;
pub mod timeman;
pub mod tt;
pub mod tune;
pub mod uci;
