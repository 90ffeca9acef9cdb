//! The neural evaluation (NNUE): one hidden layer over the pieces on their squares, seen from
//! each side, trained on our own self-play positions ([`train`], `vizier train`).
//!
//! Inputs: 768 = (own or enemy piece) × role × square, the board flipped for Black. Each side's
//! hidden layer of [`HIDDEN`] values is a sum of the weight rows of its active inputs (the
//! accumulator); the output weighs the squared, clipped activations of the side to move and of
//! the other side, with one set of output weights per [`bucket`] of material (the same hidden
//! values mean different things in a middlegame and in an ending). Integer arithmetic, as
//! trained: inputs scaled by [`QA`], output weights by [`QB`].
//!
//! The accumulators are updated, not recomputed: each thread remembers the last position it
//! evaluated, and the next evaluation adds and subtracts only the rows of the pieces that
//! differ — in a search, consecutive positions are close.

use std::cell::RefCell;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use vizier_rules::{Bitboard, Color, Position, Role, Square};

use crate::eval::{Classical, Evaluator, Score};

/// Whether full strength (UCI `UseNNUE`'s default, the top level) evaluates with the network.
pub const BY_DEFAULT: bool = true;

/// Input features: two sides × six roles × 64 squares.
pub const INPUTS: usize = 768;
/// Hidden values per side.
pub const HIDDEN: usize = 128;
/// Output weight sets, by the number of pieces on the board ([`bucket`]).
pub const BUCKETS: usize = 8;
/// Fixed-point scale of the first layer (an activation of 1.0 is `QA`).
pub const QA: i32 = 255;
/// Fixed-point scale of the output weights.
pub const QB: i32 = 64;
/// How a network file starts (its last byte is the format's version).
const MAGIC: &[u8; 3] = b"VZN";
/// How the file of a network that corrects the classical evaluation starts.
const RESIDUAL_MAGIC: &[u8; 3] = b"VZR";
/// The format written: version 2 has [`BUCKETS`] output weight sets; version 1 had one, which
/// every bucket takes when such a file is read.
const VERSION: u8 = b'2';

/// The network shipped with the engine.
static EMBEDDED: &[u8] = include_bytes!("vizier.nnue");

/// The output weight set for a position with `pieces` pieces (kings included): four piece
/// counts to a bucket, 2–5 the first and 30–32 the last.
#[inline(always)]
pub fn bucket(pieces: u32) -> usize {
    (pieces.saturating_sub(2) as usize / 4).min(BUCKETS - 1)
}

/// The input for a piece of `color` and `role` on `sq`, seen from `perspective`.
#[inline(always)]
pub fn feature(perspective: Color, color: Color, role: Role, sq: Square) -> usize {
    let enemy = (color != perspective) as usize;
    let sq = if perspective == Color::White {
        sq.index()
    } else {
        sq.index() ^ 56
    };
    (enemy * 6 + role.index()) * 64 + sq
}

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// It does not start with the magic bytes of this format.
    NotANetwork,
    /// Its hidden layer is not the size this build evaluates with.
    HiddenSize(u32),
    /// Its number of output weight sets is neither 1 nor [`BUCKETS`].
    Buckets(u32),
    /// It is longer or shorter than its header says.
    Length { expected: usize, found: usize },
    /// An output weight beyond ±127 (training keeps them within, so that the output sums
    /// fit their integers).
    OutputWeight(i16),
    /// A centipawn scale outside 1–10,000.
    Scale(u32),
    /// The file could not be read (the system's reason).
    Unreadable(String),
}

impl std::fmt::Display for NetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetError::NotANetwork => write!(f, "not a Vizier network file"),
            NetError::HiddenSize(n) => {
                write!(f, "hidden layer of {n}, this build needs {HIDDEN}")
            }
            NetError::Buckets(n) => {
                write!(f, "{n} output buckets, this build reads 1 or {BUCKETS}")
            }
            NetError::Length { expected, found } => {
                write!(f, "{found} bytes where {expected} were expected")
            }
            NetError::OutputWeight(w) => write!(f, "output weight {w} beyond ±127"),
            NetError::Scale(k) => write!(f, "scale {k} outside 1-10000"),
            NetError::Unreadable(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for NetError {}

#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Row([i16; HIDDEN]);

/// A quantised network.
pub struct Network {
    rows: Box<[Row; INPUTS]>,
    bias: Row,
    /// Output weights by bucket: the side to move's activations, then the other side's.
    out: [[Row; 2]; BUCKETS],
    /// Output bias by bucket, in units of `QA · QB`.
    out_bias: [i32; BUCKETS],
    /// Centipawns per unit of output.
    scale: i32,
    /// Tells this network's cached accumulators from another's.
    id: u64,
    /// For a network trained as a correction: the evaluation it corrects.
    base: Option<Classical>,
}

/// A network's weights as integers in the file's order: what a trainer reads from a network
/// and writes back ([`Network::weights`], [`Weights::to_bytes`]), so that only this file knows
/// the file format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// [`INPUTS`] rows of [`HIDDEN`] input weights, in units of 1/[`QA`].
    pub rows: Vec<i16>,
    /// [`HIDDEN`] hidden biases, in units of 1/[`QA`].
    pub bias: Vec<i16>,
    /// [`BUCKETS`] × 2 × [`HIDDEN`] output weights (the side to move's, then the other's), in
    /// units of 1/[`QB`].
    pub out: Vec<i16>,
    /// [`BUCKETS`] output biases, in units of 1/([`QA`]·[`QB`]).
    pub out_bias: Vec<i32>,
    /// Centipawns per unit of output.
    pub scale: u32,
    /// Whether the network corrects the classical evaluation.
    pub residual: bool,
}

impl Weights {
    /// The network file of the current format ([`Network::from_bytes`] reads it).
    ///
    /// ```
    /// use vizier_engine::nnue::Network;
    /// let net = Network::embedded();
    /// let again = Network::from_bytes(&net.weights().to_bytes()).unwrap();
    /// assert_eq!(again.weights(), net.weights());
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = if self.residual { RESIDUAL_MAGIC } else { MAGIC }.to_vec();
        bytes.push(VERSION);
        bytes.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        bytes.extend_from_slice(&self.scale.to_le_bytes());
        bytes.extend_from_slice(&(BUCKETS as u32).to_le_bytes());
        for &w in self.rows.iter().chain(&self.bias).chain(&self.out) {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        for &b in &self.out_bias {
            bytes.extend_from_slice(&b.to_le_bytes());
        }
        bytes
    }
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Bytes of the header of a file of format `version`.
const fn header_len(version: u8) -> usize {
    if version == b'1' { 12 } else { 16 }
}

/// Bytes of a file of format `version` with `HIDDEN` hidden values and `buckets` output sets.
const fn file_len(version: u8, buckets: usize) -> usize {
    header_len(version) + 2 * (INPUTS * HIDDEN + HIDDEN + buckets * 2 * HIDDEN) + 4 * buckets
}

impl Network {
    /// Reads a network file: magic (`VZN2`, or `VZR2` for a correction of the classical
    /// evaluation), hidden size, scale and number of buckets (u32), then little-endian i16
    /// rows (inputs × hidden, hidden bias, buckets × 2 × hidden output weights) and the
    /// buckets' i32 output biases. Version 1 (`VZN1`, `VZR1`) has no bucket count and one
    /// bucket.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < 16 {
            return Err(NetError::NotANetwork);
        }
        let (magic, version) = (&bytes[..3], bytes[3]);
        let residual = magic == RESIDUAL_MAGIC;
        if (magic != MAGIC && !residual) || !(b'1'..=VERSION).contains(&version) {
            return Err(NetError::NotANetwork);
        }
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let hidden = word(4);
        if hidden as usize != HIDDEN {
            return Err(NetError::HiddenSize(hidden));
        }
        let buckets = if version == b'1' { 1 } else { word(12) };
        if buckets != 1 && buckets as usize != BUCKETS {
            return Err(NetError::Buckets(buckets));
        }
        let buckets = buckets as usize;
        let expected = file_len(version, buckets);
        if bytes.len() != expected {
            return Err(NetError::Length {
                expected,
                found: bytes.len(),
            });
        }
        let scale = word(8);
        if !(1..=10_000).contains(&scale) {
            return Err(NetError::Scale(scale));
        }
        let scale = scale as i32;
        let mut at = header_len(version);
        let mut next = || {
            let v = i16::from_le_bytes([bytes[at], bytes[at + 1]]);
            at += 2;
            v
        };
        let mut rows = Box::new([Row([0; HIDDEN]); INPUTS]);
        for row in rows.iter_mut() {
            row.0.iter_mut().for_each(|w| *w = next());
        }
        let mut bias = Row([0; HIDDEN]);
        bias.0.iter_mut().for_each(|w| *w = next());
        let mut out = [[Row([0; HIDDEN]); 2]; BUCKETS];
        for set in &mut out[..buckets] {
            for row in set.iter_mut() {
                row.0.iter_mut().for_each(|w| *w = next());
            }
        }
        if let Some(&w) = out
            .iter()
            .flatten()
            .flat_map(|r| r.0.iter())
            .find(|w| w.abs() > 127)
        {
            return Err(NetError::OutputWeight(w));
        }
        let mut out_bias = [0; BUCKETS];
        for (b, bias) in out_bias[..buckets].iter_mut().enumerate() {
            *bias = word(at + 4 * b) as i32;
        }
        if buckets == 1 {
            out = [out[0]; BUCKETS];
            out_bias = [out_bias[0]; BUCKETS];
        }
        Ok(Network {
            rows,
            bias,
            out,
            out_bias,
            scale,
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            base: residual.then(Classical::default),
        })
    }

    /// The weights as integers, to train further ([`Weights::to_bytes`] writes them back
    /// byte for byte).
    pub fn weights(&self) -> Weights {
        let flat = |rows: &[Row]| rows.iter().flat_map(|r| r.0).collect::<Vec<i16>>();
        Weights {
            rows: flat(&self.rows[..]),
            bias: self.bias.0.to_vec(),
            out: flat(self.out.as_flattened()),
            out_bias: self.out_bias.to_vec(),
            scale: self.scale as u32,
            residual: self.base.is_some(),
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

    /// The weight rows of a `color` `role` on `sq` as White and as Black see it: what it adds
    /// to each accumulator.
    #[inline(always)]
    fn rows(&self, color: Color, role: Role, sq: Square) -> [&Row; 2] {
        Color::ALL.map(|persp| &self.rows[feature(persp, color, role, sq)])
    }

    /// Both sides' accumulators computed from scratch.
    #[inline(always)]
    fn refresh(&self, pos: &Position, acc: &mut [Row; 2]) {
        *acc = [self.bias; 2];
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in pos.pieces(color, role) {
                    for (acc, row) in acc.iter_mut().zip(self.rows(color, role, sq)) {
                        add(acc, row);
                    }
                }
            }
        }
    }

    /// The output for the side to move from both accumulators (White's first), with the
    /// weights of `bucket`.
    #[inline(always)]
    fn output(&self, acc: &[Row; 2], turn: Color, bucket: usize) -> Score {
        let (us, them) = match turn {
            Color::White => (&acc[0], &acc[1]),
            Color::Black => (&acc[1], &acc[0]),
        };
        let out = &self.out[bucket];
        let sum = activate(us, &out[0]) as i64 + activate(them, &out[1]) as i64;
        let raw = sum / QA as i64 + self.out_bias[bucket] as i64;
        // Far from the mate scores, whatever the file says.
        (raw * self.scale as i64 / (QA * QB) as i64).clamp(-LIMIT, LIMIT) as Score
    }
}

/// The largest evaluation a network gives.
const LIMIT: i64 = 10_000;

/// Σ clip(x)² · w, the squared clipped activations weighed (fits i32: files with |w| > 127
/// are refused).
///
/// `clip(x) · w` fits an i16 (255 · 127), so the sum is of products of 16-bit values, which
/// vector units multiply and add pairwise into 32 bits in one instruction.
#[inline(always)]
fn activate(acc: &Row, weights: &Row) -> i32 {
    let mut sum = 0i32;
    for (&x, &w) in acc.0.iter().zip(weights.0.iter()) {
        let c = x.clamp(0, QA as i16);
        sum += (c * w) as i32 * c as i32;
    }
    sum
}

#[inline(always)]
fn add(acc: &mut Row, row: &Row) {
    for (a, &w) in acc.0.iter_mut().zip(row.0.iter()) {
        *a = a.wrapping_add(w);
    }
}

#[inline(always)]
fn sub(acc: &mut Row, row: &Row) {
    for (a, &w) in acc.0.iter_mut().zip(row.0.iter()) {
        *a = a.wrapping_sub(w);
    }
}

/// A thread's last evaluated position (its pieces) and accumulators.
struct Cache {
    owner: u64,
    boards: [[Bitboard; 6]; 2],
    acc: [Row; 2],
}

impl Cache {
    /// A cache that has seen no position (no network has id 0).
    const fn new() -> Cache {
        Cache {
            owner: 0,
            boards: [[Bitboard(0); 6]; 2],
            acc: [Row([0; HIDDEN]); 2],
        }
    }
}

thread_local! {
    static CACHE: RefCell<Cache> = const { RefCell::new(Cache::new()) };
}

/// More changed pieces than this, and recomputing is cheaper than updating.
const MAX_CHANGES: u32 = 24;

impl Network {
    /// The side to move's score, `cache` brought from the last position it saw to `pos`.
    #[inline(always)]
    fn evaluate_cached(&self, cache: &mut Cache, pos: &Position) -> Score {
        let mut now = [[Bitboard(0); 6]; 2];
        let mut changes = 0;
        for color in Color::ALL {
            for role in Role::ALL {
                let (was, is) = (
                    cache.boards[color.index()][role.index()],
                    pos.pieces(color, role),
                );
                now[color.index()][role.index()] = is;
                changes += (was ^ is).count();
            }
        }
        if cache.owner != self.id || changes > MAX_CHANGES {
            self.refresh(pos, &mut cache.acc);
            cache.owner = self.id;
        } else if changes > 0 {
            for color in Color::ALL {
                for role in Role::ALL {
                    let was = cache.boards[color.index()][role.index()];
                    let is = now[color.index()][role.index()];
                    for sq in was & !is {
                        for (acc, row) in cache.acc.iter_mut().zip(self.rows(color, role, sq)) {
                            sub(acc, row);
                        }
                    }
                    for sq in is & !was {
                        for (acc, row) in cache.acc.iter_mut().zip(self.rows(color, role, sq)) {
                            add(acc, row);
                        }
                    }
                }
            }
        }
        cache.boards = now;
        self.output(&cache.acc, pos.turn(), bucket(pos.occupied().count()))
    }

    /// [`Network::evaluate_cached`] compiled for AVX2, whose vectors hold twice the values of
    /// the baseline's SSE: the accumulator updates and the output take half the instructions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn evaluate_cached_avx2(&self, cache: &mut Cache, pos: &Position) -> Score {
        self.evaluate_cached(cache, pos)
    }
}

impl Evaluator for Network {
    fn evaluate(&self, pos: &Position) -> Score {
        CACHE.with_borrow_mut(|cache| {
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the processor has just been found to have AVX2.
                return unsafe { self.evaluate_cached_avx2(cache, pos) };
            }
            self.evaluate_cached(cache, pos)
        }) + self.base.as_ref().map_or(0, |b| b.evaluate(pos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::mix;

    /// Visits the positions of a random walk of `plies` plies from the start (seeded by
    /// `seed`), starting again where a game ends.
    fn random_walk(seed: u64, plies: u64, mut visit: impl FnMut(&Position)) {
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

    #[test]
    fn updated_accumulators_equal_recomputed_ones() {
        let net = Network::embedded();
        random_walk(7, 400, |pos| {
            let updated = net.evaluate(pos);
            let mut acc = [Row([0; HIDDEN]); 2];
            net.refresh(pos, &mut acc);
            let b = bucket(pos.occupied().count());
            assert_eq!(updated, net.output(&acc, pos.turn(), b), "{}", pos.fen());
        });
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_avx2_build_evaluates_as_the_baseline() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            eprintln!("no AVX2 here: nothing to compare");
            return;
        }
        let net = Network::embedded();
        let (mut baseline, mut avx2) = (Cache::new(), Cache::new());
        random_walk(13, 2_000, |pos| {
            // SAFETY: AVX2 was found above.
            let fast = unsafe { net.evaluate_cached_avx2(&mut avx2, pos) };
            assert_eq!(
                net.evaluate_cached(&mut baseline, pos),
                fast,
                "{}",
                pos.fen()
            );
        });
    }

    #[test]
    fn mirrored_positions_score_the_same() {
        let net = Network::embedded();
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
        for _ in 0..200 {
            let mut bytes = EMBEDDED.to_vec();
            for _ in 0..1 + next() % 64 {
                let at = next() % bytes.len();
                bytes[at] = next() as u8;
            }
            bytes.truncate(bytes.len() - next() % 3 * (next() % 16));
            if let Ok(net) = Network::from_bytes(&bytes) {
                net.evaluate(&pos);
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
        let mut wrong = EMBEDDED.to_vec();
        wrong[4] = wrong[4].wrapping_add(1);
        assert!(matches!(
            Network::from_bytes(&wrong),
            Err(NetError::HiddenSize(_))
        ));
        let mut loud = EMBEDDED.to_vec();
        let first_output_weight = 16 + 2 * (INPUTS * HIDDEN + HIDDEN);
        loud[first_output_weight + 1] = 0x40;
        assert!(matches!(
            Network::from_bytes(&loud),
            Err(NetError::OutputWeight(_))
        ));
        let short = &EMBEDDED[..EMBEDDED.len() - 1];
        assert!(matches!(
            Network::from_bytes(short),
            Err(NetError::Length { .. })
        ));
        let mut three = EMBEDDED.to_vec();
        three[12] = 3;
        assert_eq!(
            Network::from_bytes(&three).err(),
            Some(NetError::Buckets(3))
        );
    }

    #[test]
    fn buckets_cover_every_piece_count() {
        assert_eq!(bucket(2), 0);
        assert_eq!(bucket(5), 0);
        assert_eq!(bucket(6), 1);
        assert_eq!(bucket(29), 6);
        assert_eq!(bucket(30), BUCKETS - 1);
        assert_eq!(bucket(32), BUCKETS - 1);
        assert!((2..=32).all(|n| bucket(n) <= bucket(n + 1)));
    }

    /// The version 1 file of the embedded network's weight set `k`: no bucket count, one set.
    fn version_one(k: usize) -> Vec<u8> {
        let rows = 2 * (INPUTS * HIDDEN + HIDDEN);
        let set = 2 * 2 * HIDDEN;
        let biases = 16 + rows + BUCKETS * set;
        let mut bytes = b"VZN1".to_vec();
        bytes.extend_from_slice(&EMBEDDED[4..12]);
        bytes.extend_from_slice(&EMBEDDED[16..16 + rows]);
        bytes.extend_from_slice(&EMBEDDED[16 + rows + k * set..][..set]);
        bytes.extend_from_slice(&EMBEDDED[biases + 4 * k..][..4]);
        bytes
    }

    #[test]
    fn a_version_one_file_is_its_one_bucket_everywhere() {
        let fens = [
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "r4rk1/pp3ppp/2n5/3p4/3P4/2N5/PP3PPP/R4RK1 b - - 0 15",
            "8/5k2/8/3p4/8/2K5/1P6/8 b - - 0 1",
        ];
        let net = Network::embedded();
        for k in 0..BUCKETS {
            let old = Network::from_bytes(&version_one(k)).unwrap();
            for fen in fens {
                let pos = Position::from_fen(fen).unwrap();
                let mut acc = [Row([0; HIDDEN]); 2];
                net.refresh(&pos, &mut acc);
                assert_eq!(old.evaluate(&pos), net.output(&acc, pos.turn(), k), "{fen}");
            }
        }
    }
}
