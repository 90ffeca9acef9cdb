//! Static evaluation: tapered (middlegame/endgame) material, piece-square terms, mobility, pawn
//! structure, passed pawns and king safety, from the side to move's point of view.
//!
//! The weights are round numbers of our own, to be replaced by the Texel tuner's; the seam for
//! a neural evaluation is [`Evaluator`].

use vizier_rules::{Bitboard, Color, Position, Role, Square, attacks};

/// Centipawns.
pub type Score = i32;

/// Anything that scores a position for the side to move.
pub trait Evaluator: Send + Sync {
    /// The score in centipawns from the side to move's point of view.
    fn evaluate(&self, pos: &Position) -> Score;
}

/// A middlegame and an endgame value, blended by the material left on the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pair(pub Score, pub Score);

impl std::ops::Add for Pair {
    type Output = Pair;
    fn add(self, o: Pair) -> Pair {
        Pair(self.0 + o.0, self.1 + o.1)
    }
}

impl std::ops::AddAssign for Pair {
    fn add_assign(&mut self, o: Pair) {
        self.0 += o.0;
        self.1 += o.1;
    }
}

impl std::ops::Sub for Pair {
    type Output = Pair;
    fn sub(self, o: Pair) -> Pair {
        Pair(self.0 - o.0, self.1 - o.1)
    }
}

impl std::ops::Mul<Score> for Pair {
    type Output = Pair;
    fn mul(self, k: Score) -> Pair {
        Pair(self.0 * k, self.1 * k)
    }
}

/// The hand-written evaluation's weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Material per role (pawn … queen; the king's is unused).
    pub material: [Pair; 6],
    /// Per attacked square not defended by an enemy pawn: knight, bishop, rook, queen.
    pub mobility: [Pair; 4],
    /// Bonus for a passed pawn, by rank from its own side (index 1-6).
    pub passed: [Pair; 8],
    /// Penalties (subtracted).
    pub doubled: Pair,
    /// Isolated pawn penalty.
    pub isolated: Pair,
    /// Both bishops.
    pub bishop_pair: Pair,
    /// Rook on an open / half-open file.
    pub rook_open: Pair,
    /// Rook on a half-open file.
    pub rook_half_open: Pair,
    /// Per pawn in front of the castled king.
    pub shield: Pair,
    /// Per enemy piece attack on the squares around the king.
    pub king_attack: Pair,
    /// Piece-square scale: centralisation for minor pieces and the endgame king.
    pub centre: [Pair; 6],
    /// Pawn advancement per rank.
    pub pawn_advance: Pair,
    /// Side to move.
    pub tempo: Pair,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            material: [
                Pair(100, 120),
                Pair(320, 300),
                Pair(330, 320),
                Pair(480, 540),
                Pair(950, 1000),
                Pair(0, 0),
            ],
            mobility: [Pair(4, 4), Pair(5, 5), Pair(2, 4), Pair(1, 2)],
            passed: [
                Pair(0, 0),
                Pair(5, 10),
                Pair(5, 15),
                Pair(10, 30),
                Pair(25, 55),
                Pair(45, 90),
                Pair(70, 130),
                Pair(0, 0),
            ],
            doubled: Pair(10, 20),
            isolated: Pair(12, 10),
            bishop_pair: Pair(30, 50),
            rook_open: Pair(25, 10),
            rook_half_open: Pair(12, 6),
            shield: Pair(12, 0),
            king_attack: Pair(8, 0),
            centre: [
                Pair(0, 0),
                Pair(6, 4),
                Pair(4, 3),
                Pair(1, 1),
                Pair(1, 3),
                Pair(-6, 8),
            ],
            pawn_advance: Pair(3, 6),
            tempo: Pair(10, 5),
        }
    }
}

/// Game phase from 0 (bare kings) to 24 (all pieces).
pub fn phase(pos: &Position) -> Score {
    let n = |r| pos.by_role(r).count() as Score;
    (n(Role::Knight) + n(Role::Bishop) + 2 * n(Role::Rook) + 4 * n(Role::Queen)).min(24)
}

/// 0 at the edge, 3 in the centre (distance to the nearest edge, for files and ranks).
fn centrality(sq: Square) -> Score {
    let f = sq.file().min(7 - sq.file()) as Score;
    let r = sq.rank().min(7 - sq.rank()) as Score;
    f + r
}

const FILES: [Bitboard; 8] = {
    let mut f = [Bitboard(0); 8];
    let mut i = 0;
    while i < 8 {
        f[i] = Bitboard(0x0101_0101_0101_0101 << i);
        i += 1;
    }
    f
};

fn adjacent_files(file: u8) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    if file > 0 {
        b |= FILES[file as usize - 1];
    }
    if file < 7 {
        b |= FILES[file as usize + 1];
    }
    b
}

/// Squares in front of `sq` (towards the opponent) on its file and the adjacent files.
fn front_span(color: Color, sq: Square) -> Bitboard {
    let files = FILES[sq.file() as usize] | adjacent_files(sq.file());
    let ahead = match color {
        Color::White => Bitboard(if sq.rank() == 7 {
            0
        } else {
            !0u64 << (8 * (sq.rank() as u32 + 1))
        }),
        Color::Black => Bitboard(if sq.rank() == 0 {
            0
        } else {
            !0u64 >> (8 * (8 - sq.rank() as u32))
        }),
    };
    files & ahead
}

fn pawn_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    pawns
        .into_iter()
        .fold(Bitboard::EMPTY, |acc, sq| acc | attacks::pawn(color, sq))
}

/// The default hand-written evaluation.
#[derive(Clone, Debug, Default)]
pub struct Classical {
    /// The weights in use.
    pub weights: Weights,
}

impl Classical {
    /// The middlegame/endgame pair for White minus Black.
    pub fn terms(&self, pos: &Position) -> Pair {
        let w = &self.weights;
        let occ = pos.occupied();
        let mut total = Pair::default();
        for color in Color::ALL {
            let sign = if color == Color::White { 1 } else { -1 };
            let them = !color;
            let ours = pos.by_color(color);
            let our_pawns = pos.pieces(color, Role::Pawn);
            let their_pawns = pos.pieces(them, Role::Pawn);
            let their_pawn_attacks = pawn_attacks(them, their_pawns);
            let their_king = pos.king(them);
            let king_zone = attacks::king(their_king) | their_king.bb();
            let mut s = Pair::default();
            let mut king_attacks = 0;

            for role in Role::ALL {
                for sq in pos.pieces(color, role) {
                    s += w.material[role.index()];
                    s += w.centre[role.index()] * centrality(sq);
                    let att = match role {
                        Role::Pawn => {
                            let rel_rank = if color == Color::White {
                                sq.rank()
                            } else {
                                7 - sq.rank()
                            } as Score;
                            s += w.pawn_advance * rel_rank;
                            if (front_span(color, sq) & their_pawns).is_empty() {
                                s += w.passed[rel_rank as usize];
                            }
                            if (adjacent_files(sq.file()) & our_pawns).is_empty() {
                                s = s - w.isolated;
                            }
                            continue;
                        }
                        Role::King => continue,
                        _ => attacks::of(role, color, sq, occ),
                    };
                    let safe = att & !ours & !their_pawn_attacks;
                    s += w.mobility[role.index() - 1] * safe.count() as Score;
                    king_attacks += (att & king_zone).count() as Score;
                    if role == Role::Rook {
                        let file = FILES[sq.file() as usize];
                        if (file & our_pawns).is_empty() {
                            s += if (file & their_pawns).is_empty() {
                                w.rook_open
                            } else {
                                w.rook_half_open
                            };
                        }
                    }
                }
            }
            for file in FILES {
                let n = (file & our_pawns).count() as Score;
                if n > 1 {
                    s = s - w.doubled * (n - 1);
                }
            }
            if pos.pieces(color, Role::Bishop).count() >= 2 {
                s += w.bishop_pair;
            }
            let king = pos.king(color);
            let shield = attacks::king(king) & front_span(color, king) & our_pawns;
            s += w.shield * shield.count() as Score;
            s += w.king_attack * king_attacks;
            total += s * sign;
        }
        total
    }
}

impl Evaluator for Classical {
    fn evaluate(&self, pos: &Position) -> Score {
        let p = self.terms(pos)
            + if pos.turn() == Color::White {
                self.weights.tempo
            } else {
                self.weights.tempo * -1
            };
        let ph = phase(pos);
        let white = (p.0 * ph + p.1 * (24 - ph)) / 24;
        if pos.turn() == Color::White {
            white
        } else {
            -white
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_positions_score_the_same_for_both_sides() {
        let e = Classical::default();
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let mirrored = Position::from_fen(&mirror(fen)).unwrap();
            assert_eq!(e.evaluate(&pos), e.evaluate(&mirrored), "{fen}");
        }
    }

    #[test]
    fn extra_material_is_better() {
        let e = Classical::default();
        let up = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        assert!(e.evaluate(&up) > 700);
        let down = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        assert!(e.evaluate(&down) < -700);
    }

    fn mirror(fen: &str) -> String {
        let mut parts: Vec<String> = fen.split(' ').map(String::from).collect();
        let board: Vec<String> = parts[0]
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        parts[0] = board.join("/");
        parts[1] = if parts[1] == "w" {
            "b".into()
        } else {
            "w".into()
        };
        parts[2] = parts[2]
            .chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect();
        parts.join(" ")
    }
}
