//! Attack tables: leapers by lookup, sliders by magic multiplication (tables from build.rs).

use crate::{Bitboard, Color, Role, Square};

pub(crate) struct Magic {
    mask: u64,
    factor: u64,
    shift: u32,
    offset: usize,
}

include!(concat!(env!("OUT_DIR"), "/magics.rs"));

const fn leaper_table(deltas: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i8, (sq / 8) as i8);
        let mut i = 0;
        while i < deltas.len() {
            let (nf, nr) = (f + deltas[i].0, r + deltas[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                table[sq] |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

static KNIGHT: [u64; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [u64; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[u64; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

/// `RAYS[a][b]`: the full line through a and b (edge to edge) when aligned, else 0.
/// `BETWEEN[a][b]`: the squares strictly between a and b when aligned, else 0.
const fn line_tables() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut line = [[0u64; 64]; 64];
    let mut between = [[0u64; 64]; 64];
    let dirs: [(i8, i8); 8] = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];
    let mut a = 0;
    while a < 64 {
        let (af, ar) = ((a % 8) as i8, (a / 8) as i8);
        let mut d = 0;
        while d < 8 {
            let (df, dr) = dirs[d];
            // The full line through `a` in this direction, both ways.
            let mut full = 1u64 << a;
            let mut k = 1;
            while k < 8 {
                let (f1, r1) = (af + df * k, ar + dr * k);
                if f1 >= 0 && f1 < 8 && r1 >= 0 && r1 < 8 {
                    full |= 1 << (r1 * 8 + f1);
                }
                let (f2, r2) = (af - df * k, ar - dr * k);
                if f2 >= 0 && f2 < 8 && r2 >= 0 && r2 < 8 {
                    full |= 1 << (r2 * 8 + f2);
                }
                k += 1;
            }
            let mut gap = 0u64;
            let (mut f, mut r) = (af + df, ar + dr);
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                let b = (r * 8 + f) as usize;
                line[a][b] = full;
                between[a][b] = gap;
                gap |= 1 << b;
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    (line, between)
}

static LINES: ([[u64; 64]; 64], [[u64; 64]; 64]) = line_tables();

/// Empty-board rook and bishop rays from each square: 1 KB that stays in cache, to rule out
/// a slider before paying for a lookup in the large attack table.
const fn ray_tables() -> ([u64; 64], [u64; 64]) {
    let (mut rook, mut bishop) = ([0u64; 64], [0u64; 64]);
    let mut a = 0;
    while a < 64 {
        let (af, ar) = ((a % 8) as i32, (a / 8) as i32);
        let mut b = 0;
        while b < 64 {
            let (bf, br) = ((b % 8) as i32, (b / 8) as i32);
            if a != b && (af == bf || ar == br) {
                rook[a] |= 1 << b;
            }
            if a != b && (af - bf).abs() == (ar - br).abs() {
                bishop[a] |= 1 << b;
            }
            b += 1;
        }
        a += 1;
    }
    (rook, bishop)
}

static RAYS: ([u64; 64], [u64; 64]) = ray_tables();

/// Squares a rook on `sq` would attack on an empty board.
#[inline]
pub(crate) fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(RAYS.0[sq.index()])
}

/// Squares a bishop on `sq` would attack on an empty board.
#[inline]
pub(crate) fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(RAYS.1[sq.index()])
}

#[inline]
fn magic_lookup(magic: &Magic, occupied: Bitboard) -> Bitboard {
    let idx = magic.offset
        + ((occupied.0 & magic.mask).wrapping_mul(magic.factor) >> magic.shift) as usize;
    // SAFETY: build.rs sized each square's slice as 1 << (64 - shift) entries starting at
    // `offset`, and the shifted product is below that size, so `idx` is in bounds.
    Bitboard(unsafe { *SLIDER_ATTACKS.get_unchecked(idx) })
}

/// Squares a knight on `sq` attacks.
///
/// ```
/// use vizier_rules::{attacks, Square};
/// assert_eq!(attacks::knight(Square::A1).count(), 2);
/// ```
#[inline]
pub fn knight(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

/// Squares a king on `sq` attacks.
///
/// ```
/// use vizier_rules::{attacks, Square};
/// assert_eq!(attacks::king(Square::E4).count(), 8);
/// ```
#[inline]
pub fn king(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks (captures towards).
///
/// ```
/// use vizier_rules::{attacks, Color, Square};
/// assert_eq!(attacks::pawn(Color::White, Square::E4), Square::D5.bb() | Square::F5.bb());
/// ```
#[inline]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// Squares any of the `pawns` of `color` attack (all at once, by shifting the set).
///
/// ```
/// use vizier_rules::{attacks, Color, Square};
/// let pawns = Square::A2.bb() | Square::E4.bb();
/// assert_eq!(attacks::pawns(Color::White, pawns), Square::B3.bb() | Square::D5.bb() | Square::F5.bb());
/// assert_eq!(attacks::pawns(Color::Black, Square::H7.bb()), Square::G6.bb());
/// ```
#[inline]
pub fn pawns(color: Color, pawns: Bitboard) -> Bitboard {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    let p = pawns.0;
    Bitboard(match color {
        Color::White => ((p & NOT_H) << 9) | ((p & NOT_A) << 7),
        Color::Black => ((p & NOT_H) >> 7) | ((p & NOT_A) >> 9),
    })
}

/// Squares a rook on `sq` attacks given the `occupied` squares.
///
/// ```
/// use vizier_rules::{attacks, Bitboard, Square};
/// assert_eq!(attacks::rook(Square::A1, Bitboard::EMPTY).count(), 14);
/// assert_eq!(attacks::rook(Square::A1, Square::A2.bb() | Square::B1.bb()).count(), 2);
/// ```
#[inline]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&ROOK_MAGICS[sq.index()], occupied)
}

/// Squares a bishop on `sq` attacks given the `occupied` squares.
///
/// ```
/// use vizier_rules::{attacks, Bitboard, Square};
/// assert_eq!(attacks::bishop(Square::A1, Bitboard::EMPTY).count(), 7);
/// ```
#[inline]
pub fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&BISHOP_MAGICS[sq.index()], occupied)
}

/// Squares a queen on `sq` attacks given the `occupied` squares.
///
/// ```
/// use vizier_rules::{attacks, Bitboard, Square};
/// assert_eq!(attacks::queen(Square::D4, Bitboard::EMPTY).count(), 27);
/// ```
#[inline]
pub fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
    rook(sq, occupied) | bishop(sq, occupied)
}

/// Squares a piece of `role` and `color` on `sq` attacks.
///
/// ```
/// use vizier_rules::{attacks, Bitboard, Color, Role, Square};
/// assert_eq!(attacks::of(Role::Knight, Color::White, Square::G1, Bitboard::EMPTY).count(), 3);
/// ```
#[inline]
pub fn of(role: Role, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn(color, sq),
        Role::Knight => knight(sq),
        Role::Bishop => bishop(sq, occupied),
        Role::Rook => rook(sq, occupied),
        Role::Queen => queen(sq, occupied),
        Role::King => king(sq),
    }
}

/// The squares strictly between `a` and `b` if they share a rank, file or diagonal, else empty.
///
/// ```
/// use vizier_rules::{attacks, Square};
/// assert_eq!(attacks::between(Square::A1, Square::D4), Square::B2.bb() | Square::C3.bb());
/// assert!(attacks::between(Square::A1, Square::B3).is_empty());
/// ```
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.1[a.index()][b.index()])
}

/// The whole line (edge to edge) through `a` and `b` if aligned, else empty.
///
/// ```
/// use vizier_rules::{attacks, Square};
/// assert_eq!(attacks::line(Square::A1, Square::B2).count(), 8);
/// ```
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.0[a.index()][b.index()])
}

/// Whether `c` lies on the line through `a` and `b`.
///
/// ```
/// use vizier_rules::{attacks, Square};
/// assert!(attacks::aligned(Square::A1, Square::C3, Square::H8));
/// ```
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

#[cfg(test)]
mod tests {

    #[test]
    fn rays_are_the_empty_board_attacks() {
        for sq in Bitboard::FULL {
            assert_eq!(rook_rays(sq), rook(sq, Bitboard::EMPTY));
            assert_eq!(bishop_rays(sq), bishop(sq, Bitboard::EMPTY));
        }
    }

    use super::*;

    fn slow_rook(sq: Square, occ: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for (df, dr) in [(1i8, 0i8), (-1, 0), (0, 1), (0, -1)] {
            let (mut f, mut r) = (sq.file() as i8 + df, sq.rank() as i8 + dr);
            while (0..8).contains(&f) && (0..8).contains(&r) {
                let s = Square::from_coords(f as u8, r as u8);
                out |= s.bb();
                if occ.contains(s) {
                    break;
                }
                f += df;
                r += dr;
            }
        }
        out
    }

    #[test]
    fn magic_rook_matches_slow_rays() {
        let mut x = 0x1234_5678_9abc_def0u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = Bitboard(x & x.rotate_left(17));
            let sq = Square::new((x >> 58) as u8).unwrap();
            assert_eq!(rook(sq, occ), slow_rook(sq, occ));
        }
    }
}
