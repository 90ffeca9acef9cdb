//! Network files: what they hold, how they are read and written. Only this file knows the
//! format.
//!
//! A file starts with `VZN` (`VZR` for a network that corrects the classical evaluation) and
//! a version byte, then little-endian u32s: hidden size, centipawn scale, number of output
//! buckets (from version 2) and input layout (from version 3, [`Layout::code`]); then i16
//! rows (inputs × hidden), the hidden biases, buckets × 2 × hidden output weights, and the
//! buckets' i32 output biases. Version 1 has one output bucket, which every bucket takes.
//! Versions 1 and 2 have the [`Layout::Plain`] inputs.

use super::layout::{BUCKETS, Layout};

/// How a network file starts (its last byte is the format's version).
const MAGIC: &[u8; 3] = b"VZN";
/// How the file of a network that corrects the classical evaluation starts.
const RESIDUAL_MAGIC: &[u8; 3] = b"VZR";
/// The newest format: version 3 names its input layout.
const VERSION: u8 = b'3';
/// Hidden sizes a file may have.
pub const HIDDEN_SIZES: [usize; 2] = [128, 256];

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// It does not start with the magic bytes of this format.
    NotANetwork,
    /// Its hidden layer is not a size this build evaluates with (or not for its layout).
    HiddenSize(u32),
    /// Its input layout is not one this build knows.
    Layout(u32),
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
                write!(
                    f,
                    "hidden layer of {n}, which this build does not evaluate with"
                )
            }
            NetError::Layout(n) => write!(f, "input layout {n} unknown to this build"),
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

/// A network's weights as integers in the file's order: what a trainer reads from a network
/// and writes back ([`Weights::from_bytes`], [`Weights::to_bytes`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// How the inputs are numbered.
    pub layout: Layout,
    /// Hidden values per side.
    pub hidden: usize,
    /// `layout.inputs()` rows of `hidden` input weights, in units of 1/[`super::QA`].
    pub rows: Vec<i16>,
    /// `hidden` hidden biases, in units of 1/[`super::QA`].
    pub bias: Vec<i16>,
    /// [`BUCKETS`] × 2 × `hidden` output weights (the side to move's, then the other's), in
    /// units of 1/[`super::QB`].
    pub out: Vec<i16>,
    /// [`BUCKETS`] output biases, in units of 1/([`super::QA`]·[`super::QB`]).
    pub out_bias: Vec<i32>,
    /// Centipawns per unit of output.
    pub scale: u32,
    /// Whether the network corrects the classical evaluation.
    pub residual: bool,
}

/// Bytes of the header of a file of format `version`.
const fn header_len(version: u8) -> usize {
    match version {
        b'1' => 12,
        b'2' => 16,
        _ => 20,
    }
}

impl Weights {
    /// The network file of the current format ([`Weights::from_bytes`] reads it).
    ///
    /// ```
    /// use vizier_engine::nnue::{Network, Weights};
    /// let weights = Network::embedded().weights();
    /// assert_eq!(Weights::from_bytes(&weights.to_bytes()).unwrap(), weights);
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = if self.residual { RESIDUAL_MAGIC } else { MAGIC }.to_vec();
        bytes.push(VERSION);
        for word in [
            self.hidden as u32,
            self.scale,
            BUCKETS as u32,
            self.layout.code(),
        ] {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
        for &w in self.rows.iter().chain(&self.bias).chain(&self.out) {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        for &b in &self.out_bias {
            bytes.extend_from_slice(&b.to_le_bytes());
        }
        bytes
    }

    /// Reads a network file of any version (see the module's documentation). Output
    /// weights beyond ±127 are refused.
    pub fn from_bytes(bytes: &[u8]) -> Result<Weights, NetError> {
        if bytes.len() < 16 {
            return Err(NetError::NotANetwork);
        }
        let (magic, version) = (&bytes[..3], bytes[3]);
        let residual = magic == RESIDUAL_MAGIC;
        if (magic != MAGIC && !residual) || !(b'1'..=VERSION).contains(&version) {
            return Err(NetError::NotANetwork);
        }
        let header = header_len(version);
        if bytes.len() < header {
            return Err(NetError::NotANetwork);
        }
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let layout = if version < b'3' {
            Layout::Plain
        } else {
            Layout::from_code(word(16)).ok_or(NetError::Layout(word(16)))?
        };
        let hidden = word(4);
        if !HIDDEN_SIZES.contains(&(hidden as usize)) {
            return Err(NetError::HiddenSize(hidden));
        }
        let hidden = hidden as usize;
        let buckets = if version == b'1' { 1 } else { word(12) };
        if buckets != 1 && buckets as usize != BUCKETS {
            return Err(NetError::Buckets(buckets));
        }
        let buckets = buckets as usize;
        let expected =
            header + 2 * (layout.inputs() * hidden + hidden + buckets * 2 * hidden) + 4 * buckets;
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
        let mut at = header;
        let mut take = |n: usize| {
            let values: Vec<i16> = bytes[at..at + 2 * n]
                .chunks_exact(2)
                .map(|b| i16::from_le_bytes([b[0], b[1]]))
                .collect();
            at += 2 * n;
            values
        };
        let rows = take(layout.inputs() * hidden);
        let bias = take(hidden);
        let mut out = take(buckets * 2 * hidden);
        if let Some(&w) = out.iter().find(|w| w.abs() > 127) {
            return Err(NetError::OutputWeight(w));
        }
        let biases = expected - 4 * buckets;
        let mut out_bias: Vec<i32> = (0..buckets).map(|b| word(biases + 4 * b) as i32).collect();
        if buckets == 1 {
            out = out.repeat(BUCKETS);
            out_bias = out_bias.repeat(BUCKETS);
        }
        Ok(Weights {
            layout,
            hidden,
            rows,
            bias,
            out,
            out_bias,
            scale,
            residual,
        })
    }
}
