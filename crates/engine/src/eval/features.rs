//! The evaluation's terms as numbered features. One walk over the position ([`walk`]) feeds a
//! [`Sink`]: the engine's sink multiplies each feature by its weight; the tuner's records the
//! feature counts, so the tuned weights and the evaluation can never disagree on what a term is.

use vizier_rules::{Bitboard, Color, Position, Role, Square, attacks};

/// Material: pawn, knight, bishop, rook, queen.
pub const MATERIAL: usize = 0;
/// Piece-square values, 64 per role (pawn … king), seen from White (Black's squares mirrored).
pub const PST: usize = MATERIAL + 5;
/// Knight mobility by the number of safe squares attacked (0–8).
pub const MOBILITY_KNIGHT: usize = PST + 6 * 64;
/// Bishop mobility (0–13).
pub const MOBILITY_BISHOP: usize = MOBILITY_KNIGHT + 9;
/// Rook mobility (0–14).
pub const MOBILITY_ROOK: usize = MOBILITY_BISHOP + 14;
/// Queen mobility (0–27).
pub const MOBILITY_QUEEN: usize = MOBILITY_ROOK + 15;
/// Passed pawn by rank from its own side (0–7; 0 and 7 unused).
pub const PASSED: usize = MOBILITY_QUEEN + 28;
/// Passed pawn: its own king's distance to the square in front of it (0–7).
pub const PASSED_OWN_KING: usize = PASSED + 8;
/// Passed pawn: the enemy king's distance to the square in front of it (0–7).
pub const PASSED_ENEMY_KING: usize = PASSED_OWN_KING + 8;
/// Passed pawn with an enemy piece on the square in front of it.
pub const PASSED_BLOCKED: usize = PASSED_ENEMY_KING + 8;
/// Per pawn beyond the first on a file.
pub const DOUBLED: usize = PASSED_BLOCKED + 1;
/// Pawn with no own pawn on the adjacent files.
pub const ISOLATED: usize = DOUBLED + 1;
/// Pawn defended by an own pawn.
pub const SUPPORTED: usize = ISOLATED + 1;
/// Pawn with an own pawn beside it on the same rank.
pub const PHALANX: usize = SUPPORTED + 1;
/// Both bishops.
pub const BISHOP_PAIR: usize = PHALANX + 1;
/// Rook on a file without pawns.
pub const ROOK_OPEN: usize = BISHOP_PAIR + 1;
/// Rook on a file with only enemy pawns.
pub const ROOK_HALF_OPEN: usize = ROOK_OPEN + 1;
/// Own pawn in front of the king (on the king's or an adjacent file, next to it).
pub const SHIELD: usize = ROOK_HALF_OPEN + 1;
/// Attacks by knights, bishops, rooks and queens on the enemy king and the squares around it:
/// a table by the number of pieces attacking (1, 2, 3, 4 or more; 16 entries each) and the
/// attacks counted (capped at 15), so that the tuner can make danger grow with both.
pub const KING_ATTACK: usize = SHIELD + 1;
/// Enemy knight, bishop, rook or queen attacked by an own pawn.
pub const THREAT_BY_PAWN: usize = KING_ATTACK + 64;
/// Enemy rook or queen attacked by an own knight or bishop.
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 1;
/// Enemy piece (not a pawn or king) attacked and not defended.
pub const HANGING: usize = THREAT_BY_MINOR + 1;
/// Knight or bishop in the enemy half, defended by an own pawn, out of reach of enemy pawns.
pub const OUTPOST: usize = HANGING + 1;
/// King on a file without own pawns.
pub const KING_OPEN_FILE: usize = OUTPOST + 1;
/// Passed pawn whose next square no enemy piece attacks, by rank from its own side (0–7).
pub const PASSED_FREE: usize = KING_OPEN_FILE + 1;
/// Squares from which a knight, bishop, rook or queen could check the enemy king, that it
/// attacks and the enemy does not defend (and no own piece stands on).
pub const SAFE_CHECK: usize = PASSED_FREE + 8;
/// The side to move.
pub const TEMPO: usize = SAFE_CHECK + 4;
/// Pawn storm: an own pawn on the enemy king's file or next to it, by its rank from its own
/// side (0–7); the second eight count storming pawns that an enemy pawn blocks.
pub const STORM: usize = TEMPO + 1;
/// Own pawn two ranks in front of the king (on its file or next to it).
pub const SHIELD_FAR: usize = STORM + 16;
/// Pawn that no own pawn beside or behind it can support, whose next square an enemy pawn
/// attacks.
pub const BACKWARD: usize = SHIELD_FAR + 1;
/// Rook on the seventh rank with the enemy king on the eighth or enemy pawns on the seventh.
pub const ROOK_SEVENTH: usize = BACKWARD + 1;
/// Enemy queen attacked by an own rook.
pub const THREAT_BY_ROOK: usize = ROOK_SEVENTH + 1;
/// Squares around the enemy king that we attack and that it defends only with its king or
/// queen (or not at all).
pub const KING_WEAK: usize = THREAT_BY_ROOK + 1;
/// Own pawns on the squares of a bishop's colour, per bishop.
pub const BISHOP_PAWNS: usize = KING_WEAK + 1;
/// Enemy pawn or piece next to the own king and not defended.
pub const THREAT_BY_KING: usize = BISHOP_PAWNS + 1;
/// Enemy knight, bishop, rook or queen that an own pawn would attack after a safe push.
pub const PUSH_THREAT: usize = THREAT_BY_KING + 1;
/// Enemy pawn attacked and not defended.
pub const WEAK_PAWN: usize = PUSH_THREAT + 1;
/// Own pawns, per knight (knights gain with pawns on the board).
pub const KNIGHT_PAWNS: usize = WEAK_PAWN + 1;
/// Own pawns, per rook (rooks gain as pawns go).
pub const ROOK_PAWNS: usize = KNIGHT_PAWNS + 1;
/// Space: squares on the c–f files of the own second to fourth ranks that no enemy pawn
/// attacks and no own pawn stands on; the second counts those behind an own pawn again.
pub const SPACE: usize = ROOK_PAWNS + 1;
/// Knight or bishop with a pawn right in front of it.
pub const MINOR_BEHIND_PAWN: usize = SPACE + 2;
/// The number of features.
pub const COUNT: usize = MINOR_BEHIND_PAWN + 1;

/// The named ranges of the feature vector, in order (for printing weights).
pub const SECTIONS: [(&str, usize, usize); 31] = [
    ("material (P N B R Q)", MATERIAL, 5),
    ("pawn squares", PST, 64),
    ("knight squares", PST + 64, 64),
    ("bishop squares", PST + 128, 64),
    ("rook squares", PST + 192, 64),
    ("queen squares", PST + 256, 64),
    ("king squares", PST + 320, 64),
    ("knight mobility", MOBILITY_KNIGHT, 9),
    ("bishop mobility", MOBILITY_BISHOP, 14),
    ("rook mobility", MOBILITY_ROOK, 15),
    ("queen mobility", MOBILITY_QUEEN, 28),
    ("passed pawn by rank", PASSED, 8),
    ("passed pawn, own king distance", PASSED_OWN_KING, 8),
    ("passed pawn, enemy king distance", PASSED_ENEMY_KING, 8),
    (
        "passed blocked, doubled, isolated, supported, phalanx",
        PASSED_BLOCKED,
        5,
    ),
    ("bishop pair", BISHOP_PAIR, 1),
    ("rook on an open / half-open file", ROOK_OPEN, 2),
    ("king shield pawn", SHIELD, 1),
    ("king attack by 1 piece, squares 0-15", KING_ATTACK, 16),
    ("king attack by 2 pieces", KING_ATTACK + 16, 16),
    ("king attack by 3 pieces", KING_ATTACK + 32, 16),
    ("king attack by 4 or more pieces", KING_ATTACK + 48, 16),
    ("threat by pawn", THREAT_BY_PAWN, 1),
    (
        "threat by minor, hanging piece, outpost, king on an open file",
        THREAT_BY_MINOR,
        4,
    ),
    ("free passed pawn by rank", PASSED_FREE, 8),
    ("safe checks by knight, bishop, rook, queen", SAFE_CHECK, 4),
    ("tempo", TEMPO, 1),
    ("pawn storm by rank, free / blocked", STORM, 16),
    (
        "far shield pawn, backward pawn, rook on the seventh, threat by rook, weak king squares, bishop's pawns",
        SHIELD_FAR,
        6,
    ),
    (
        "threat by king, push threat, weak pawn, knight's pawns, rook's pawns, space, space behind pawns, minor behind a pawn",
        THREAT_BY_KING,
        8,
    ),
    ("", COUNT, 0),
];

/// Receives the features of a position, each with a count for one side.
pub trait Sink: Sized {
    /// `n` more of `feature` for `color`.
    fn add(&mut self, feature: usize, color: Color, n: i32);

    /// The features that depend only on where the pawns stand ([`pawn_structure`]), for both
    /// sides (White's pawns first); returns each side's passed pawns. A sink may answer from a
    /// cache, since the positions of a search share few pawn structures.
    fn pawns(&mut self, pawns: [Bitboard; 2]) -> [Bitboard; 2] {
        pawn_structure(pawns, self)
    }
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

const fn adjacent_files(file: u8) -> Bitboard {
    let left = if file > 0 {
        FILES[file as usize - 1].0
    } else {
        0
    };
    let right = if file < 7 {
        FILES[file as usize + 1].0
    } else {
        0
    };
    Bitboard(left | right)
}

/// Squares strictly in front of `sq` (towards the opponent) on all ranks.
fn ahead(color: Color, sq: Square) -> Bitboard {
    match color {
        Color::White if sq.rank() == 7 => Bitboard::EMPTY,
        Color::White => Bitboard(!0u64 << (8 * (sq.rank() as u32 + 1))),
        Color::Black if sq.rank() == 0 => Bitboard::EMPTY,
        Color::Black => Bitboard(!0u64 >> (8 * (8 - sq.rank() as u32))),
    }
}

/// Squares in front of `sq` on its own and the adjacent files: where enemy pawns stop a passer.
fn front_span(color: Color, sq: Square) -> Bitboard {
    (FILES[sq.file() as usize] | adjacent_files(sq.file())) & ahead(color, sq)
}

/// `sq` seen from `color`'s side: White's squares as they are, Black's mirrored.
fn relative(color: Color, sq: Square) -> Square {
    match color {
        Color::White => sq,
        Color::Black => sq.flip_vertical(),
    }
}

fn distance(a: Square, b: Square) -> i32 {
    (a.file() as i32 - b.file() as i32)
        .abs()
        .max((a.rank() as i32 - b.rank() as i32).abs())
}

/// The c–f files of each side's second to fourth ranks.
const SPACE_AREA: [Bitboard; 2] = [
    Bitboard(0x0000_0000_3c3c_3c00),
    Bitboard(0x003c_3c3c_0000_0000),
];

/// The square in front of `sq` for `color` (none on the last rank).
fn front(color: Color, sq: Square) -> Option<Square> {
    sq.offset(if color == Color::White { 8 } else { -8 })
}

/// `bb` one rank forward for `color`.
fn forward(color: Color, bb: Bitboard) -> Bitboard {
    match color {
        Color::White => Bitboard(bb.0 << 8),
        Color::Black => Bitboard(bb.0 >> 8),
    }
}

/// A knight or bishop on `sq` with a pawn (of either side) right in front of it.
fn minor_behind_pawn<S: Sink>(color: Color, sq: Square, pawns: Bitboard, out: &mut S) {
    if (forward(color, sq.bb()) & pawns).any() {
        out.add(MINOR_BEHIND_PAWN, color, 1);
    }
}

/// A knight or bishop on `sq` in the enemy half, defended by a pawn and out of enemy pawns' reach.
fn outpost<S: Sink>(
    color: Color,
    sq: Square,
    relative: Square,
    our_pawn_attacks: Bitboard,
    their_pawns: Bitboard,
    out: &mut S,
) {
    let enemy_half = (3..=5).contains(&relative.rank());
    if enemy_half
        && our_pawn_attacks.contains(sq)
        && (front_span(color, sq) & !FILES[sq.file() as usize] & their_pawns).is_empty()
    {
        out.add(OUTPOST, color, 1);
    }
}

/// Feeds every feature of `pos` to `out`.
pub fn walk<S: Sink>(pos: &Position, out: &mut S) {
    let occupied = pos.occupied();
    let pawns = [
        pos.pieces(Color::White, Role::Pawn),
        pos.pieces(Color::Black, Role::Pawn),
    ];
    let pawn_attacks = [
        attacks::pawns(Color::White, pawns[0]),
        attacks::pawns(Color::Black, pawns[1]),
    ];
    let passers = out.pawns(pawns);
    // Everything each side attacks: the second pass needs both sides'.
    let mut attacked = pawn_attacks;
    // By side: squares attacked by knights, bishops, rooks, queens.
    let mut role_attacks = [[Bitboard::EMPTY; 4]; 2];
    for color in Color::ALL {
        let us = color.index();
        let them = !color;
        let ours = pos.by_color(color);
        let (our_pawns, their_pawns) = (pawns[us], pawns[them.index()]);
        let unsafe_squares = ours | pawn_attacks[them.index()];
        let our_king = pos.king(color);
        let their_king = pos.king(them);
        let king_zone = attacks::king(their_king) | their_king.bb();
        let mut king_attacks = 0;
        let mut king_attackers = 0;
        attacked[us] |= attacks::king(our_king);

        for role in [
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ] {
            for sq in pos.pieces(color, role) {
                let relative = relative(color, sq);
                out.add(PST + 64 * role.index() + relative.index(), color, 1);
                if role == Role::King {
                    continue;
                }
                out.add(MATERIAL + role.index(), color, 1);
                let att = attacks::of(role, color, sq, occupied);
                attacked[us] |= att;
                role_attacks[us][role.index() - 1] |= att;
                let mobility = (att & !unsafe_squares).count() as usize;
                let (table, size) = match role {
                    Role::Knight => (MOBILITY_KNIGHT, 9),
                    Role::Bishop => (MOBILITY_BISHOP, 14),
                    Role::Rook => (MOBILITY_ROOK, 15),
                    _ => (MOBILITY_QUEEN, 28),
                };
                out.add(table + mobility.min(size - 1), color, 1);
                let on_zone = (att & king_zone).count() as usize;
                king_attacks += on_zone;
                king_attackers += usize::from(on_zone > 0);
                match role {
                    Role::Bishop => {
                        let colour = if Bitboard::DARK_SQUARES.contains(sq) {
                            Bitboard::DARK_SQUARES
                        } else {
                            Bitboard::LIGHT_SQUARES
                        };
                        out.add(BISHOP_PAWNS, color, (our_pawns & colour).count() as i32);
                        minor_behind_pawn(color, sq, pos.by_role(Role::Pawn), out);
                        outpost(color, sq, relative, pawn_attacks[us], their_pawns, out);
                    }
                    Role::Knight => {
                        out.add(KNIGHT_PAWNS, color, our_pawns.count() as i32);
                        minor_behind_pawn(color, sq, pos.by_role(Role::Pawn), out);
                        outpost(color, sq, relative, pawn_attacks[us], their_pawns, out);
                    }
                    Role::Rook => {
                        out.add(ROOK_PAWNS, color, our_pawns.count() as i32);
                        let their_back_rank = if color == Color::White { 7 } else { 0 };
                        if relative.rank() == 6
                            && (their_king.rank() == their_back_rank
                                || (their_pawns & Bitboard::rank(sq.rank())).any())
                        {
                            out.add(ROOK_SEVENTH, color, 1);
                        }
                        let file = FILES[sq.file() as usize];
                        if (file & our_pawns).is_empty() {
                            let open = (file & their_pawns).is_empty();
                            out.add(if open { ROOK_OPEN } else { ROOK_HALF_OPEN }, color, 1);
                        }
                    }
                    _ => {}
                }
            }
        }
        if pos.pieces(color, Role::Bishop).more_than_one() {
            out.add(BISHOP_PAIR, color, 1);
        }
        let shield = attacks::king(our_king) & front_span(color, our_king) & our_pawns;
        out.add(SHIELD, color, shield.count() as i32);
        if (FILES[our_king.file() as usize] & our_pawns).is_empty() {
            out.add(KING_OPEN_FILE, color, 1);
        }
        if king_attackers > 0 {
            let row = king_attackers.min(4) - 1;
            out.add(KING_ATTACK + 16 * row + king_attacks.min(15), color, 1);
        }
        let near = attacks::king(our_king) & front_span(color, our_king);
        let far = forward(color, near);
        out.add(SHIELD_FAR, color, (far & our_pawns).count() as i32);
        // Our pawns storming their king: on its file or the next, by rank.
        let files = FILES[their_king.file() as usize] | adjacent_files(their_king.file());
        for sq in files & our_pawns {
            let rank = relative(color, sq).rank() as usize;
            let blocked = front(color, sq).is_some_and(|f| their_pawns.contains(f));
            out.add(STORM + rank + 8 * usize::from(blocked), color, 1);
        }
    }

    let majors = pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
    let pieces = occupied & !pos.by_role(Role::Pawn) & !pos.by_role(Role::King);
    for color in Color::ALL {
        let (us, them) = (color.index(), (!color).index());
        let their_king = pos.king(!color);
        let targets = pos.by_color(!color) & pieces;
        let minor_attacks = role_attacks[us][0] | role_attacks[us][1];
        out.add(
            THREAT_BY_PAWN,
            color,
            (targets & pawn_attacks[us]).count() as i32,
        );
        out.add(
            THREAT_BY_MINOR,
            color,
            (targets & majors & minor_attacks).count() as i32,
        );
        // Their men that nothing of theirs defends.
        let undefended = pos.by_color(!color) & !attacked[them];
        out.add(
            HANGING,
            color,
            (undefended & pieces & attacked[us]).count() as i32,
        );
        let queens = pos.pieces(!color, Role::Queen);
        out.add(
            THREAT_BY_ROOK,
            color,
            (queens & role_attacks[us][2]).count() as i32,
        );
        // Squares by their king that only their king or queen (or nothing) covers.
        let guarded = pawn_attacks[them]
            | role_attacks[them][0]
            | role_attacks[them][1]
            | role_attacks[them][2];
        let weak = attacks::king(their_king) & attacked[us] & !guarded;
        out.add(KING_WEAK, color, weak.count() as i32);
        out.add(
            THREAT_BY_KING,
            color,
            (undefended & attacks::king(pos.king(color))).count() as i32,
        );
        out.add(
            WEAK_PAWN,
            color,
            (undefended & pawns[them] & attacked[us]).count() as i32,
        );
        // Pawns one step forward onto empty squares where they would not simply be lost.
        let pushed = forward(color, pawns[us]) & !occupied;
        let safe_push = pushed & !pawn_attacks[them] & (attacked[us] | !attacked[them]);
        out.add(
            PUSH_THREAT,
            color,
            (attacks::pawns(color, safe_push) & targets).count() as i32,
        );
        let area = SPACE_AREA[us] & !pawns[us] & !pawn_attacks[them];
        let behind = match color {
            Color::White => Bitboard(pawns[us].0 >> 8 | pawns[us].0 >> 16),
            Color::Black => Bitboard(pawns[us].0 << 8 | pawns[us].0 << 16),
        };
        out.add(SPACE, color, area.count() as i32);
        out.add(SPACE + 1, color, (area & behind).count() as i32);
        for sq in passers[us] {
            let Some(front) = front(color, sq) else {
                continue;
            };
            let rank = relative(color, sq).rank();
            out.add(
                PASSED_OWN_KING + distance(pos.king(color), front) as usize,
                color,
                1,
            );
            out.add(
                PASSED_ENEMY_KING + distance(their_king, front) as usize,
                color,
                1,
            );
            if pos.by_color(!color).contains(front) {
                out.add(PASSED_BLOCKED, color, 1);
            } else if !attacked[them].contains(front) {
                out.add(PASSED_FREE + rank as usize, color, 1);
            }
        }
        let safe = !pos.by_color(color) & !attacked[them];
        let diagonal = attacks::of(Role::Bishop, color, their_king, occupied);
        let straight = attacks::of(Role::Rook, color, their_king, occupied);
        let checks = [
            attacks::of(Role::Knight, color, their_king, occupied),
            diagonal,
            straight,
            diagonal | straight,
        ];
        for (i, from) in checks.into_iter().enumerate() {
            let n = (from & role_attacks[us][i] & safe).count() as i32;
            out.add(SAFE_CHECK + i, color, n);
        }
    }
    out.add(TEMPO, pos.turn(), 1);
}

/// The pawns' material, squares and structure terms (doubled, isolated, supported, phalanx,
/// passed by rank) for both sides; returns each side's passed pawns.
pub fn pawn_structure<S: Sink>(pawns: [Bitboard; 2], out: &mut S) -> [Bitboard; 2] {
    let mut passers = [Bitboard::EMPTY; 2];
    for color in Color::ALL {
        let (our_pawns, their_pawns) = (pawns[color.index()], pawns[(!color).index()]);
        for sq in our_pawns {
            let relative = relative(color, sq);
            out.add(PST + relative.index(), color, 1);
            out.add(MATERIAL, color, 1);
            if pawn(color, sq, relative.rank(), [our_pawns, their_pawns], out) {
                passers[color.index()] |= sq.bb();
            }
        }
        for file in FILES {
            let n = (file & our_pawns).count() as i32;
            if n > 1 {
                out.add(DOUBLED, color, n - 1);
            }
        }
    }
    passers
}

/// A pawn's structure terms; whether it is passed.
fn pawn<S: Sink>(
    color: Color,
    sq: Square,
    rank: u8,
    [our_pawns, their_pawns]: [Bitboard; 2],
    out: &mut S,
) -> bool {
    let neighbours = adjacent_files(sq.file()) & our_pawns;
    if neighbours.is_empty() {
        out.add(ISOLATED, color, 1);
    }
    if (neighbours & Bitboard::rank(sq.rank())).any() {
        out.add(PHALANX, color, 1);
    }
    if (attacks::pawn(!color, sq) & our_pawns).any() {
        out.add(SUPPORTED, color, 1);
    }
    let passed = (front_span(color, sq) & their_pawns).is_empty();
    // Backward: it has neighbours, all ahead of it, and an enemy pawn guards its next square.
    let level_or_behind = !ahead(color, sq);
    if !passed
        && neighbours.any()
        && (neighbours & level_or_behind).is_empty()
        && front(color, sq).is_some_and(|f| (attacks::pawn(color, f) & their_pawns).any())
    {
        out.add(BACKWARD, color, 1);
    }
    if passed {
        out.add(PASSED + rank as usize, color, 1);
    }
    passed
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feature counts by side.
    struct Counts([[i32; COUNT]; 2]);

    impl Sink for Counts {
        fn add(&mut self, feature: usize, color: Color, n: i32) {
            self.0[color.index()][feature] += n;
        }
    }

    fn counts(fen: &str) -> [[i32; COUNT]; 2] {
        let mut c = Counts([[0; COUNT]; 2]);
        walk(&Position::from_fen(fen).unwrap(), &mut c);
        c.0
    }

    #[test]
    fn safe_checks_are_squares_the_defender_does_not_cover() {
        // The knight on d5 could check from e7 and f6; the king on g8 covers neither.
        let free = counts("6k1/8/8/3N4/8/8/8/4K3 w - - 0 1");
        assert_eq!(free[0][SAFE_CHECK], 2);
        // A pawn on g7 covers f6.
        let covered = counts("6k1/6p1/8/3N4/8/8/8/4K3 w - - 0 1");
        assert_eq!(covered[0][SAFE_CHECK], 1);
        // The rook on a1 could check from a8 (the whole rank is open) but not past its own king.
        let rook = counts("6k1/8/8/8/8/8/8/R3K3 w - - 0 1");
        assert_eq!(rook[0][SAFE_CHECK + 2], 1);
        assert_eq!(rook[1][SAFE_CHECK..SAFE_CHECK + 4], [0; 4]);
    }
    #[test]
    fn king_attacks_are_counted_by_attackers_and_squares() {
        // Around the king on g8 the queen on h5 attacks f7, h7 and h8, the knight on g5 f7
        // and h7: two attackers, five attacks.
        let c = counts("6k1/8/8/6NQ/8/8/8/4K3 w - - 0 1");
        let by_two = &c[0][KING_ATTACK + 16..KING_ATTACK + 32];
        assert_eq!(by_two[5], 1, "two attackers, five attacks");
        assert_eq!(by_two.iter().sum::<i32>(), 1);
        assert_eq!(c[0][KING_ATTACK..KING_ATTACK + 16], [0; 16]);
        assert_eq!(
            c[1][KING_ATTACK..KING_ATTACK + 64],
            [0; 64],
            "Black attacks nothing"
        );
    }

    #[test]
    fn pawn_storms_shields_and_backward_pawns() {
        // White's g- and h-pawns storm the king on g8; the h-pawn is blocked by h7.
        let c = counts("6k1/5p1p/7P/6P1/8/8/8/4K3 w - - 0 1");
        assert_eq!(c[0][STORM + 4], 1, "g5 (fifth rank, free)");
        assert_eq!(c[0][STORM + 8 + 5], 1, "h6 (sixth rank, blocked by h7)");
        // Black's f7 and h7 stand next to the king one rank ahead: the near shield.
        assert_eq!(c[1][SHIELD], 2);
        assert_eq!(c[1][SHIELD_FAR], 0);
        // d3 is backward: its neighbours c4 and e4 are ahead and e5 guards d4. The isolated e5
        // has no neighbour to fall behind.
        let b = counts("4k3/8/8/4p3/2P1P3/3P4/8/4K3 w - - 0 1");
        assert_eq!(b[0][BACKWARD], 1);
        assert_eq!(b[1][BACKWARD], 0);
    }

    #[test]
    fn rooks_on_the_seventh_threats_and_bishops_pawns() {
        // The rook on a7 faces the king on its back rank and attacks the queen on d7.
        let c = counts("4k3/R2q4/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(c[0][ROOK_SEVENTH], 1);
        assert_eq!(c[0][THREAT_BY_ROOK], 1);
        // The bishop on c1 (dark) and the pawns on b2 and d2 (dark) and e4 (light).
        let b = counts("4k3/8/8/8/4P3/8/1P1P4/2B1K3 w - - 0 1");
        assert_eq!(b[0][BISHOP_PAWNS], 2);
    }
    #[test]
    fn threats_space_and_pawn_counts() {
        // The king on e1 attacks the lone pawn on d2.
        let k = counts("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1");
        assert_eq!(k[0][THREAT_BY_KING], 1);
        assert_eq!(k[0][WEAK_PAWN], 1);
        // e4-e5 would attack the knight on d6, and nothing covers e5.
        let p = counts("4k3/8/3n4/8/4P3/8/8/4K3 w - - 0 1");
        assert_eq!(p[0][PUSH_THREAT], 1);
        // From the start: eight free squares on c3-f4 for each side, none behind a pawn; every
        // knight and rook counts its side's eight pawns; all four minors stand behind a pawn.
        let start = counts("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        for side in start {
            assert_eq!(side[SPACE], 8);
            assert_eq!(side[SPACE + 1], 0);
            assert_eq!(side[KNIGHT_PAWNS], 16);
            assert_eq!(side[ROOK_PAWNS], 16);
            assert_eq!(side[MINOR_BEHIND_PAWN], 4);
        }
    }
}
