//! Finds "fancy" magic multipliers for sliding-piece attacks and writes the lookup tables
//! as Rust source, so the library has no start-up cost and no run-time initialisation.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn on_board(file: i32, rank: i32) -> bool {
    (0..8).contains(&file) && (0..8).contains(&rank)
}

/// Attacks from `sq` along `dirs`, stopping at (and including) the first occupied square.
fn slide(sq: i32, occupied: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut attacks = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (sq % 8 + df, sq / 8 + dr);
        while on_board(f, r) {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    attacks
}

/// The squares whose occupancy matters: each ray without its last square.
fn relevant_mask(sq: i32, dirs: &[(i32, i32)]) -> u64 {
    let mut mask = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (sq % 8 + df, sq / 8 + dr);
        while on_board(f + df, r + dr) {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
    }
    mask
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

struct Entry {
    mask: u64,
    factor: u64,
    shift: u32,
    offset: usize,
}

fn find_magics(dirs: &[(i32, i32)], rng: &mut Rng, table: &mut Vec<u64>) -> Vec<Entry> {
    let mut entries = Vec::with_capacity(64);
    for sq in 0..64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let shift = 64 - bits;
        let mut subsets = Vec::new();
        let mut sub = 0u64;
        loop {
            subsets.push((sub, slide(sq, sub, dirs)));
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        let size = 1usize << bits;
        let mut slots = vec![0u64; size];
        let mut epoch = vec![0u32; size];
        let mut attempt = 0u32;
        let factor = loop {
            let candidate = rng.sparse();
            if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
                continue;
            }
            attempt += 1;
            let ok = subsets.iter().all(|&(occ, att)| {
                let idx = (occ.wrapping_mul(candidate) >> shift) as usize;
                if epoch[idx] != attempt {
                    epoch[idx] = attempt;
                    slots[idx] = att;
                    true
                } else {
                    slots[idx] == att
                }
            });
            if ok {
                break candidate;
            }
        };
        let offset = table.len();
        table.resize(offset + size, 0);
        for &(occ, att) in &subsets {
            table[offset + (occ.wrapping_mul(factor) >> shift) as usize] = att;
        }
        entries.push(Entry {
            mask,
            factor,
            shift,
            offset,
        });
    }
    entries
}

fn write_entries(out: &mut String, name: &str, entries: &[Entry]) {
    writeln!(out, "pub(crate) static {name}: [Magic; 64] = [").unwrap();
    for e in entries {
        writeln!(
            out,
            "    Magic {{ mask: {:#018x}, factor: {:#018x}, shift: {}, offset: {} }},",
            e.mask, e.factor, e.shift, e.offset
        )
        .unwrap();
    }
    out.push_str("];\n");
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut table = Vec::new();
    let rook = find_magics(&ROOK_DIRS, &mut rng, &mut table);
    let bishop = find_magics(&BISHOP_DIRS, &mut rng, &mut table);

    let mut out = String::new();
    write_entries(&mut out, "ROOK_MAGICS", &rook);
    write_entries(&mut out, "BISHOP_MAGICS", &bishop);
    writeln!(
        out,
        "pub(crate) static SLIDER_ATTACKS: [u64; {}] = [",
        table.len()
    )
    .unwrap();
    for chunk in table.chunks(8) {
        out.push_str("   ");
        for v in chunk {
            write!(out, " {v:#x},").unwrap();
        }
        out.push('\n');
    }
    out.push_str("];\n");
    let path = Path::new(&env::var("OUT_DIR").unwrap()).join("magics.rs");
    fs::write(path, out).unwrap();
}
