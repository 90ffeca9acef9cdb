//! The static proof for frozen pawn structures: when every pawn is blocked by a pawn and no
//! unit can ever capture or be captured by a pawn, the pawns never change, each piece stays in
//! the region it can walk to now, and a side whose pieces can never attack any square the
//! enemy king can reach can never give check, so never checkmate.

use crate::{Bitboard, Color, Position, Role, Square, attacks};

/// Whether `winner` can provably never give check, because the pawns are frozen for good and
/// no piece of `winner` can ever attack a square the other king can reach. `false` means
/// "not proven", never "can".
pub(super) fn never_checks(pos: &Position, winner: Color) -> bool {
    let pawns = pos.by_role(Role::Pawn);
    let white = pos.pieces(Color::White, Role::Pawn);
    let black = pos.pieces(Color::Black, Role::Pawn);
    if Bitboard(white.0 << 8) & !pawns != Bitboard::EMPTY
        || Bitboard(black.0 >> 8) & !pawns != Bitboard::EMPTY
        || pos.ep_square().is_some()
    {
        return false;
    }
    let attacked_by = [
        attacks::pawns(Color::White, white),
        attacks::pawns(Color::Black, black),
    ];
    if (attacked_by[0] & black).any() || (attacked_by[1] & white).any() {
        return false;
    }
    let mut checks = Bitboard::EMPTY;
    for color in Color::ALL {
        let enemy_attacks = attacked_by[(!color).index()];
        let enemy_pawns = pos.pieces(!color, Role::Pawn);
        for sq in pos.by_color(color) & !pawns {
            let role = pos.piece_at(sq).map_or(Role::King, |p| p.role);
            if role == Role::King {
                if enemy_attacks.contains(sq) {
                    return false;
                }
                let region = region(role, color, sq, pawns, enemy_attacks);
                let reach = reach(role, color, region, pawns);
                if (reach & enemy_pawns & !enemy_attacks).any() {
                    return false;
                }
            } else {
                let region = region(role, color, sq, pawns, Bitboard::EMPTY);
                let reach = reach(role, color, region, pawns);
                if (region & enemy_attacks).any() || (reach & enemy_pawns).any() {
                    return false;
                }
                if color == winner {
                    checks |= reach;
                }
            }
        }
    }
    let loser = !winner;
    let king = pos.king(loser);
    let king_region = region(Role::King, loser, king, pawns, attacked_by[winner.index()]);
    (checks & king_region).is_empty()
}

/// The squares a piece of `role` on `from` can ever stand on while the `pawns` stay where they
/// are, never entering `forbidden` (for a king: the squares enemy pawns attack).
fn region(
    role: Role,
    color: Color,
    from: Square,
    pawns: Bitboard,
    forbidden: Bitboard,
) -> Bitboard {
    let mut region = from.bb();
    let mut frontier = region;
    while frontier.any() {
        let mut next = Bitboard::EMPTY;
        for sq in frontier {
            next |= attacks::of(role, color, sq, pawns);
        }
        next &= !pawns & !forbidden & !region;
        region |= next;
        frontier = next;
    }
    region
}

/// Every square a piece of `role` attacks from some square of `region`, with only the pawns in
/// the way.
fn reach(role: Role, color: Color, region: Bitboard, pawns: Bitboard) -> Bitboard {
    let mut reach = Bitboard::EMPTY;
    for sq in region {
        reach |= attacks::of(role, color, sq, pawns);
    }
    reach
}

#[cfg(test)]
mod tests {
    use super::*;

    fn never(fen: &str, color: Color) -> bool {
        never_checks(&Position::from_fen(fen).unwrap(), color)
    }

    #[test]
    fn a_locked_chain_with_bishops_shut_in_is_proven() {
        let fen = "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1";
        assert!(never(fen, Color::White));
        assert!(never(fen, Color::Black));
    }

    #[test]
    fn an_open_file_or_a_free_pawn_is_not_proven() {
        assert!(!never(
            "4k3/8/8/1p1p1p2/1P1P1P2/8/8/4K3 w - - 0 1",
            Color::White
        ));
        assert!(!never(
            "4k3/8/8/1p1p1p1p/1P1P1P1P/8/P7/4K3 w - - 0 1",
            Color::White
        ));
        assert!(!never("4k3/8/8/8/8/8/8/4K2R w - - 0 1", Color::White));
    }

    #[test]
    fn a_bishop_that_can_reach_the_other_side_is_not_proven() {
        // The light bishop passes through c4 to the black king's side.
        let fen = "4k3/8/8/1p1p1p1p/1P1P1P1P/8/8/3BK3 w - - 0 1";
        assert!(!never(fen, Color::White));
    }
}
