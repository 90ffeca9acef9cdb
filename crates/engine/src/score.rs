//! Scores: beyond any score, and mate scores, which the search makes and the table stores
//! relative to the node.

use crate::eval::Score;

/// Beyond any score.
pub const INF: Score = 32_000;
/// Mate at the root; mate in n plies scores `MATE - n`.
pub const MATE: Score = 31_000;
/// Scores at or beyond this are mates.
pub const MATE_BOUND: Score = MATE - 1_000;
