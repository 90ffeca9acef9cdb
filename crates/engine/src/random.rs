//! The one deterministic random-number helper of the engine and its training tools. Levels draw
//! their misjudgements and choices from it, datagen its openings, the trainer its shuffles, so
//! a seed reproduces a game or a training run exactly.

/// SplitMix64: spreads a seed over all bits.
///
/// ```
/// use vizier_engine::random::mix;
/// assert_eq!(mix(1), mix(1));
/// assert_ne!(mix(1), mix(2));
/// ```
pub fn mix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
