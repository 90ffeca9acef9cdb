//! # vizier-pairing
//!
//! Who plays whom, for Vizier's competitions.

pub mod matching;
pub mod wide;
