//! Zobrist keys, generated at compile time from a fixed seed.

use crate::{Color, Piece, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

struct Keys {
    pieces: [[u64; 64]; 12],
    castling: [u64; 64],
    ep_file: [u64; 8],
    black_to_move: u64,
}

const fn make_keys() -> Keys {
    let mut keys = Keys {
        pieces: [[0; 64]; 12],
        castling: [0; 64],
        ep_file: [0; 8],
        black_to_move: 0,
    };
    let mut state = 0x5649_5a49_4552_0001; // "VIZIER" and a version
    let mut p = 0;
    while p < 12 {
        let mut sq = 0;
        while sq < 64 {
            let (s, v) = splitmix(state);
            state = s;
            keys.pieces[p][sq] = v;
            sq += 1;
        }
        p += 1;
    }
    let mut sq = 0;
    while sq < 64 {
        let (s, v) = splitmix(state);
        state = s;
        keys.castling[sq] = v;
        sq += 1;
    }
    let mut f = 0;
    while f < 8 {
        let (s, v) = splitmix(state);
        state = s;
        keys.ep_file[f] = v;
        f += 1;
    }
    keys.black_to_move = splitmix(state).1;
    keys
}

static KEYS: Keys = make_keys();

#[inline]
pub(crate) fn piece(p: Piece, sq: Square) -> u64 {
    KEYS.pieces[p.color.index() * 6 + p.role.index()][sq.index()]
}

/// Key for a rook on `sq` that keeps its castling right.
#[inline]
pub(crate) fn castling(sq: Square) -> u64 {
    KEYS.castling[sq.index()]
}

#[inline]
pub(crate) fn ep_file(file: u8) -> u64 {
    KEYS.ep_file[file as usize]
}

#[inline]
pub(crate) fn turn(color: Color) -> u64 {
    match color {
        Color::White => 0,
        Color::Black => KEYS.black_to_move,
    }
}
