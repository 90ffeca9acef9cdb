//! How close a position looks to a helpmate of the loser's king: a cost the search lowers.
//! It only orders the search; proofs never depend on it.

use crate::{Bitboard, Color, Position, Role, Square};

fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// How far `sq` is from the nearest file edge and the nearest rank edge.
fn from_edges(sq: Square) -> (i32, i32) {
    (
        sq.file().min(7 - sq.file()) as i32,
        sq.rank().min(7 - sq.rank()) as i32,
    )
}

/// Whether `color` has, beside its king, what mates a bare king (a queen, a rook, two bishops
/// of both colours, a bishop and a knight, or three knights — two knights with help).
fn has_mating_force(pos: &Position, color: Color) -> bool {
    let ours = pos.by_color(color);
    if (ours & (pos.by_role(Role::Queen) | pos.by_role(Role::Rook))).any() {
        return true;
    }
    let bishops = ours & pos.by_role(Role::Bishop);
    let knights = (ours & pos.by_role(Role::Knight)).count();
    let both_colours =
        (bishops & Bitboard::DARK_SQUARES).any() && (bishops & Bitboard::LIGHT_SQUARES).any();
    both_colours || (bishops.any() && knights > 0) || knights >= 2
}

/// The cost of `pos` for `winner` mating: lower is closer.
pub(super) fn cost(pos: &Position, winner: Color) -> i32 {
    let loser = !winner;
    let lk = pos.king(loser);
    let wk = pos.king(winner);
    let strong = has_mating_force(pos, winner);
    let (file_edge, rank_edge) = from_edges(lk);
    let mut cost =
        3 * file_edge.max(rank_edge) + 2 * file_edge.min(rank_edge) + 2 * distance(wk, lk);
    for sq in pos.by_color(winner) & !pos.by_role(Role::King) {
        let role = pos.piece_at(sq).map_or(Role::Pawn, |p| p.role);
        cost += match role {
            Role::Queen => distance(sq, lk) - 60,
            Role::Rook => distance(sq, lk) - 40,
            Role::Bishop | Role::Knight => distance(sq, lk) - 25,
            _ => {
                let to_go = winner.fold(7 - sq.rank() as i32, sq.rank() as i32);
                let front = sq.offset(winner.fold(8, -8));
                let blocked = front.filter(|f| pos.piece_at(*f).is_some());
                let weight = if strong { 1 } else { 4 };
                let mut c = weight * to_go - 10;
                if let (Some(b), false) = (blocked, strong) {
                    c += 2 * distance(wk, b);
                }
                c
            }
        };
    }
    for sq in pos.by_color(loser) & !pos.by_role(Role::King) {
        let role = pos.piece_at(sq).map_or(Role::Pawn, |p| p.role);
        cost += match role {
            Role::Pawn => -4,
            _ => distance(sq, lk) - 6,
        };
    }
    cost
}
