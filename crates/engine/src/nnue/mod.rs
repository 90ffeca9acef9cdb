//! The neural evaluation (NNUE): one hidden layer over the pieces on their squares, seen from
//! each side, trained on our own self-play positions (`vizier train`).
//!
//! Each side's hidden layer is a sum of the weight rows of its active inputs (the
//! accumulator, `cache.rs`); which inputs a piece turns on depends on the layout
//! ([`Layout`]: plain, or by the region of the side's own king). The output weighs the
//! squared, clipped activations of the side to move and of the other side, with one set of
//! output weights per [`bucket`] of material (the same hidden values mean different things
//! in a middlegame and in an ending). Two shapes are built in: 128 hidden values with the
//! plain layout (file versions 1 and 2) and 256 with king buckets (version 3).
//!
//! One file per concern: `layout.rs` numbers the inputs, `file.rs` reads and writes
//! network files, `layers.rs` holds the quantised arithmetic, `cache.rs` keeps the
//! accumulators and picks the instruction set.

mod cache;
mod file;
mod layers;
mod layout;

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use vizier_rules::Position;

use crate::eval::{Classical, Evaluator, Score};

pub use cache::Simd;
pub use file::{HIDDEN_SIZES, NetError, Weights};
pub use layers::{QA, QB};
pub use layout::{BUCKETS, KING_BUCKETS, Layout, PIECE_INPUTS, View, bucket};

use cache::{LARGE, SMALL};
use layers::Layers;

/// Whether full strength (UCI `UseNNUE`'s default, the top level) evaluates with the network.
pub const BY_DEFAULT: bool = true;

/// The network shipped with the engine.
static EMBEDDED: &[u8] = include_bytes!("vizier.nnue");

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// A quantised network, ready to evaluate.
pub struct Network {
    arch: Arch,
    /// Centipawns per unit of output.
    scale: i32,
    /// Tells this network's cached accumulators from another's.
    id: u64,
    /// For a network trained as a correction: the evaluation it corrects.
    base: Option<Classical>,
}

/// The shapes built in.
enum Arch {
    Plain(Box<Layers<128>>),
    KingBuckets(Box<Layers<256>>),
}

impl Network {
    /// Reads a network file ([`Weights::from_bytes`]) of a shape this build evaluates with.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        Network::from_weights(&Weights::from_bytes(bytes)?)
    }

    /// The network of `w`, if this build evaluates with its shape.
    pub fn from_weights(w: &Weights) -> Result<Network, NetError> {
        let arch = match (w.layout, w.hidden) {
            (Layout::Plain, 128) => Arch::Plain(Layers::new(w)),
            (Layout::KingBuckets, 256) => Arch::KingBuckets(Layers::new(w)),
            (_, hidden) => return Err(NetError::HiddenSize(hidden as u32)),
        };
        Ok(Network {
            arch,
            scale: w.scale as i32,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            base: w.residual.then(Classical::default),
        })
    }

    /// The weights as integers, to train further ([`Weights::to_bytes`] writes them back).
    pub fn weights(&self) -> Weights {
        let (scale, residual) = (self.scale as u32, self.base.is_some());
        match &self.arch {
            Arch::Plain(l) => l.weights(scale, residual),
            Arch::KingBuckets(l) => l.weights(scale, residual),
        }
    }

    /// How the network numbers its inputs.
    pub fn layout(&self) -> Layout {
        match &self.arch {
            Arch::Plain(l) => l.layout,
            Arch::KingBuckets(l) => l.layout,
        }
    }

    /// Reads the network file at `path` ([`Network::from_bytes`]).
    pub fn read(path: impl AsRef<std::path::Path>) -> Result<Network, NetError> {
        let bytes = std::fs::read(path).map_err(|e| NetError::Unreadable(e.to_string()))?;
        Network::from_bytes(&bytes)
    }

    /// The network shipped with the engine (read once).
    pub fn embedded() -> &'static Network {
        static NET: OnceLock<Network> = OnceLock::new();
        NET.get_or_init(|| Network::from_bytes(EMBEDDED).expect("the embedded network is valid"))
    }

    /// The side to move's score, computed with the code for `simd` (or the widest the
    /// processor has, [`Simd::detect`], if it lacks that).
    pub fn evaluate_with(&self, simd: Simd, pos: &Position) -> Score {
        // SAFETY: no wider than the processor has.
        unsafe { self.evaluate_unchecked(simd.min(Simd::detect()), pos) }
    }

    /// [`Network::evaluate_with`] without the check.
    ///
    /// # Safety
    ///
    /// The processor has `simd`.
    #[inline(always)]
    unsafe fn evaluate_unchecked(&self, simd: Simd, pos: &Position) -> Score {
        let (id, scale) = (self.id, self.scale);
        // SAFETY: passed on from the caller.
        let score = unsafe {
            match &self.arch {
                Arch::Plain(l) => SMALL.with_borrow_mut(|c| l.evaluate(simd, c, id, pos, scale)),
                Arch::KingBuckets(l) => {
                    LARGE.with_borrow_mut(|c| l.evaluate(simd, c, id, pos, scale))
                }
            }
        };
        score + self.base.as_ref().map_or(0, |b| b.evaluate(pos))
    }
}

impl Evaluator for Network {
    fn evaluate(&self, pos: &Position) -> Score {
        // SAFETY: `Simd::best` is never wider than `Simd::detect`.
        unsafe { self.evaluate_unchecked(Simd::best(), pos) }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::random::mix;

    /// Visits the positions of a random walk of `plies` plies from the start (seeded by
    /// `seed`), starting again where a game ends.
    pub fn random_walk(seed: u64, plies: u64, mut visit: impl FnMut(&Position)) {
        let mut pos = Position::new();
        for ply in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.halfmoves() >= 100 {
                pos = Position::new();
                continue;
            }
            pos.play_unchecked(moves.as_slice()[mix(seed ^ ply) as usize % moves.len()]);
            visit(&pos);
        }
    }

    /// Weights of the king-bucket shape drawn at random (`seed`), in the ranges training
    /// gives.
    pub fn random_weights(seed: u64) -> Weights {
        let mut drawn = 0u64;
        let mut draw = |limit: i64| {
            drawn += 1;
            ((mix(seed ^ drawn) % (2 * limit as u64 + 1)) as i64 - limit) as i16
        };
        let hidden = 256;
        let layout = Layout::KingBuckets;
        Weights {
            layout,
            hidden,
            rows: (0..layout.inputs() * hidden).map(|_| draw(60)).collect(),
            bias: (0..hidden).map(|_| draw(100)).collect(),
            out: (0..BUCKETS * 2 * hidden).map(|_| draw(127)).collect(),
            out_bias: (0..BUCKETS).map(|_| draw(5_000) as i32).collect(),
            scale: 300,
            residual: false,
        }
    }

    /// One network of each shape: the embedded one and a random one.
    pub fn test_networks() -> Vec<Network> {
        let other = Network::from_weights(&random_weights(5)).unwrap();
        let embedded = Network::from_bytes(EMBEDDED).unwrap();
        assert_ne!(embedded.layout(), other.layout());
        vec![embedded, other]
    }

    #[test]
    fn mirrored_positions_score_the_same() {
        for net in test_networks() {
            for (fen, mirrored) in [
                (
                    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                    "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3",
                ),
                (
                    "8/5k2/8/3p4/8/2K5/1P6/8 b - - 0 1",
                    "8/1p6/2k5/8/3P4/8/5K2/8 w - - 0 1",
                ),
            ] {
                let a = net.evaluate(&Position::from_fen(fen).unwrap());
                let b = net.evaluate(&Position::from_fen(mirrored).unwrap());
                assert_eq!(a, b, "{fen}");
            }
        }
    }

    #[test]
    fn files_round_trip_for_both_shapes() {
        for net in test_networks() {
            let bytes = net.weights().to_bytes();
            let again = Network::from_bytes(&bytes).unwrap();
            assert_eq!(again.weights(), net.weights());
            let pos =
                Position::from_fen("r4rk1/pp3ppp/2n5/3p4/3P4/2N5/PP3PPP/R4RK1 b - - 0 15").unwrap();
            assert_eq!(again.evaluate(&pos), net.evaluate(&pos));
        }
    }

    #[test]
    fn corrupt_files_never_panic() {
        let mut drawn = 0u64;
        let mut next = || {
            drawn += 1;
            (mix(11 ^ drawn) >> 33) as usize
        };
        let pos =
            Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
                .unwrap();
        let large = random_weights(3).to_bytes();
        for original in [EMBEDDED, &large[..]] {
            for _ in 0..100 {
                let mut bytes = original.to_vec();
                for _ in 0..1 + next() % 64 {
                    let at = next()
                        % bytes
                            .len()
                            .min(if next() % 2 == 0 { 24 } else { usize::MAX });
                    bytes[at] = next() as u8;
                }
                bytes.truncate(bytes.len() - next() % 3 * (next() % 16));
                if let Ok(net) = Network::from_bytes(&bytes) {
                    net.evaluate(&pos);
                }
            }
        }
    }

    #[test]
    fn bad_files_are_refused() {
        assert_eq!(Network::from_bytes(b"").err(), Some(NetError::NotANetwork));
        assert_eq!(
            Network::from_bytes(b"VZN1").err(),
            Some(NetError::NotANetwork)
        );
        assert!(matches!(
            Network::read("/nonexistent/net.nnue"),
            Err(NetError::Unreadable(_))
        ));
        assert_eq!(
            Network::from_bytes(b"nonsense file").err(),
            Some(NetError::NotANetwork)
        );
        let current = Network::embedded().weights().to_bytes();
        let mut wrong = current.clone();
        wrong[4] = wrong[4].wrapping_add(1);
        assert!(matches!(
            Network::from_bytes(&wrong),
            Err(NetError::HiddenSize(_))
        ));
        let mut unknown = current.clone();
        unknown[16] = 3;
        assert_eq!(
            Network::from_bytes(&unknown).err(),
            Some(NetError::Layout(3))
        );
        let mut mismatched = current.clone();
        mismatched[16] = KING_BUCKETS as u8;
        assert!(matches!(
            Network::from_bytes(&mismatched),
            Err(NetError::Length { .. })
        ));
        let mut loud = current.clone();
        let first_output_weight = 20 + 2 * (PIECE_INPUTS * 128 + 128);
        loud[first_output_weight + 1] = 0x40;
        assert!(matches!(
            Network::from_bytes(&loud),
            Err(NetError::OutputWeight(_))
        ));
        let short = &current[..current.len() - 1];
        assert!(matches!(
            Network::from_bytes(short),
            Err(NetError::Length { .. })
        ));
        let mut three = current.clone();
        three[12] = 3;
        assert_eq!(
            Network::from_bytes(&three).err(),
            Some(NetError::Buckets(3))
        );
        // A plain layout of 256, or king regions with 128: sizes this build does not pair.
        let mut odd = random_weights(1);
        odd.layout = Layout::Plain;
        odd.rows.truncate(PIECE_INPUTS * 256);
        assert_eq!(
            Network::from_weights(&odd).err(),
            Some(NetError::HiddenSize(256))
        );
    }

    /// The version 1 file of the embedded network's weight set `k`: no bucket count, one set.
    fn version_one(k: usize) -> Vec<u8> {
        let w = Network::embedded().weights();
        let set = 2 * w.hidden;
        let mut bytes = b"VZN1".to_vec();
        for word in [w.hidden as u32, w.scale] {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
        let values = w.rows.iter().chain(&w.bias).chain(&w.out[k * set..][..set]);
        for v in values {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        bytes.extend_from_slice(&w.out_bias[k].to_le_bytes());
        bytes
    }

    #[test]
    fn a_version_one_file_is_its_one_bucket_everywhere() {
        let net = Network::embedded();
        for k in 0..BUCKETS {
            let old = Network::from_bytes(&version_one(k)).unwrap().weights();
            let mut expected = net.weights();
            let set = 2 * expected.hidden;
            expected.out = expected.out[k * set..][..set].repeat(BUCKETS);
            expected.out_bias = vec![expected.out_bias[k]; BUCKETS];
            assert_eq!(old, expected);
        }
    }
}
