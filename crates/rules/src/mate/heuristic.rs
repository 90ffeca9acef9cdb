//! How close a position looks to a helpmate of the loser's king: a cost the search lowers.
//! It only orders the search; proofs never depend on it.

use super::structure::around;
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

/// Moves a knight needs from `a` to `b` on an empty board (a close estimate: 0 to 6).
fn knight_distance(a: Square, b: Square) -> i32 {
    let (df, dr) = (
        (a.file() as i32 - b.file() as i32).abs(),
        (a.rank() as i32 - b.rank() as i32).abs(),
    );
    let (x, y) = (df.max(dr), df.min(dr));
    match (x, y) {
        (0, 0) => 0,
        (1, 0) => 3,
        (1, 1) => 2,
        (2, 2) => 4,
        _ => {
            let m = ((x + 1) / 2).max((x + y + 2) / 3);
            m + ((m + x + y) & 1)
        }
    }
}

/// About how many moves a `role` of `color` needs from `from` to `to` on an empty board
/// (20: never).
fn moves_to(role: Role, color: Color, from: Square, to: Square) -> i32 {
    let (df, dr) = (
        (from.file() as i32 - to.file() as i32).abs(),
        (from.rank() as i32 - to.rank() as i32).abs(),
    );
    let line = df == 0 || dr == 0;
    let diagonal = df == dr;
    let same_colour = (df + dr) % 2 == 0;
    match role {
        _ if from == to => 0,
        Role::Pawn => {
            let ahead = color.fold(from.rank() < to.rank(), from.rank() > to.rank());
            if df == 0 && ahead { dr } else { 20 }
        }
        Role::Knight => knight_distance(from, to),
        Role::Bishop if !same_colour => 20,
        Role::Bishop => {
            if diagonal {
                1
            } else {
                2
            }
        }
        Role::Rook => {
            if line {
                1
            } else {
                2
            }
        }
        Role::Queen => {
            if line || diagonal {
                1
            } else {
                2
            }
        }
        Role::King => df.max(dr),
    }
}

/// About how many moves a piece of `role` (not a pawn or king) on `from` needs to give check
/// to a king on `king`, on an empty board: 0 when it does now.
fn moves_to_check(role: Role, from: Square, king: Square) -> i32 {
    let (df, dr) = (
        (from.file() as i32 - king.file() as i32).abs(),
        (from.rank() as i32 - king.rank() as i32).abs(),
    );
    let line = df == 0 || dr == 0;
    let diagonal = df == dr;
    match role {
        Role::Queen => i32::from(!(line || diagonal)),
        Role::Rook => i32::from(!line),
        Role::Bishop if (df + dr) % 2 != 0 => 20,
        Role::Bishop => i32::from(!diagonal),
        Role::Knight => crate::attacks::knight(king)
            .into_iter()
            .map(|sq| knight_distance(from, sq))
            .min()
            .unwrap_or(20),
        _ => 20,
    }
}

/// The square `d` files and `r` ranks inward from the corner `corner`.
fn inward(corner: Square, d: i32, r: i32) -> Square {
    let f = if corner.file() == 0 { d } else { 7 - d };
    let k = if corner.rank() == 0 { r } else { 7 - r };
    Square::from_coords(f as u8, k as u8)
}

/// For a winner who cannot mate a bare king (a lone bishop or knight), how far the smallest
/// mate is: the loser's king in a corner, one of its own men on the square beside it, the
/// winner's king covering the rest, and the minor piece giving check. `None` where there is
/// no such mate to steer towards (no minor piece, or nothing of the loser's to block).
fn corner_cost(pos: &Position, winner: Color) -> Option<i32> {
    let loser = !winner;
    let ours = pos.by_color(winner);
    let bishops = ours & pos.by_role(Role::Bishop);
    let knights = ours & pos.by_role(Role::Knight);
    let blockers = pos.by_color(loser) & !pos.by_role(Role::King);
    if (bishops | knights).is_empty() || blockers.is_empty() {
        return None;
    }
    let lk = pos.king(loser);
    let wk = pos.king(winner);
    let pawns = pos.by_role(Role::Pawn);
    let mut best = i32::MAX;
    // Nearest corner first: the king's distance alone bounds a corner's cost from below, so
    // the farther ones are rarely worth computing.
    let mut corners = [Square::A1, Square::H1, Square::A8, Square::H8];
    corners.sort_by_key(|&c| distance(lk, c));
    for corner in corners {
        if 6 * distance(lk, corner) >= best {
            break;
        }
        // The loser's king cannot enter a corner the winner's king holds.
        if wk == corner {
            continue;
        }
        let dark = Bitboard::DARK_SQUARES.contains(corner);
        // Moves the nearest bishop of the corner's colour needs to check there from its
        // diagonal, two squares off or more.
        let diagonal_check = bishops
            .into_iter()
            .filter(|b| Bitboard::DARK_SQUARES.contains(*b) == dark)
            .map(|b| {
                let on_diagonal = (b.file() as i32 - corner.file() as i32).abs()
                    == (b.rank() as i32 - corner.rank() as i32).abs()
                    && distance(b, corner) >= 2;
                i32::from(!on_diagonal)
            })
            .min();
        // One of the loser's men on a square beside the corner; the winner's king covering the
        // other two, two squares from the blocker along its line (`on_line`) or two up the
        // corner's edge (`beside`); the minor piece checking, a knight from one of the two
        // squares a knight's move from the corner. Which of these mate depends on what the
        // blocker attacks: a knight attacks `beside`, a bishop or pawn `off_line`, a rook the
        // line, and a queen every square a knight could check from.
        for (block_at, on_line, beside, off_line) in [
            (
                inward(corner, 1, 0),
                inward(corner, 1, 2),
                inward(corner, 0, 2),
                inward(corner, 2, 1),
            ),
            (
                inward(corner, 0, 1),
                inward(corner, 2, 1),
                inward(corner, 2, 0),
                inward(corner, 1, 2),
            ),
        ] {
            let on_back_rank = block_at.rank() == 0 || block_at.rank() == 7;
            let knight_to = |sq: Square| knights.into_iter().map(|n| knight_distance(n, sq)).min();
            // The mates each kind of blocker allows: (the king's square, the knight's square,
            // whether a bishop may check instead). With a bishop or pawn blocking, a bishop
            // mates with the king beside too, but steering there as well measured slower.
            let shapes = |role: Role| -> [Option<(Square, Option<Square>, bool)>; 2] {
                match role {
                    Role::Knight => [Some((on_line, Some(off_line), true)), None],
                    Role::Bishop | Role::Pawn => [
                        Some((on_line, None, true)),
                        Some((beside, Some(on_line), false)),
                    ],
                    Role::Rook => [Some((beside, Some(off_line), false)), None],
                    _ => [None, None],
                }
            };
            for b in blockers {
                let role = pos.piece_at(b).map_or(Role::Pawn, |p| p.role);
                if role == Role::Pawn && on_back_rank {
                    continue;
                }
                let block = moves_to(role, loser, b, block_at);
                for (king_at, knight_at, bishop) in shapes(role).into_iter().flatten() {
                    let knight = knight_at.and_then(knight_to);
                    let bishop = diagonal_check.filter(|_| bishop);
                    let Some(check) = knight.into_iter().chain(bishop).min() else {
                        continue;
                    };
                    let cost = 6 * distance(lk, corner)
                        + 3 * distance(wk, king_at)
                        + 3 * block
                        + 2 * check;
                    best = best.min(cost);
                }
            }
        }
        // Both squares beside the corner filled by the loser's men and a bishop checking along
        // the diagonal, which covers the third square too: the winner's king not needed.
        if let Some(check) = diagonal_check
            && blockers.count() >= 2
        {
            let cost_to = |to: Square| {
                let on_back_rank = to.rank() == 0 || to.rank() == 7;
                blockers.into_iter().map(move |b| {
                    if pawns.contains(b) && on_back_rank {
                        20
                    } else {
                        let role = pos.piece_at(b).map_or(Role::Pawn, |p| p.role);
                        moves_to(role, loser, b, to)
                    }
                })
            };
            let block = two_distinct(cost_to(inward(corner, 1, 0)), cost_to(inward(corner, 0, 1)));
            let walk = king_walk(pos, loser, corner, (best - 3 * block - 2 * check) / 6);
            best = best.min(6 * walk + 3 * block + 2 * check);
        }
    }
    (best < i32::MAX).then_some(best)
}

/// Moves the loser's king needs to reach `to`, where squares the winner attacks, and those
/// its own men hold, cost three moves each (they must be cleared first), and `to` itself one
/// more for each piece of the winner's aimed at it, even from behind another (each must move
/// away before the king can enter); no more than about `limit` is reported, as no more is
/// needed.
fn king_walk(pos: &Position, loser: Color, to: Square, limit: i32) -> i32 {
    let lk = pos.king(loser);
    if lk == to {
        return 0;
    }
    let winner = !loser;
    let occupied = pos.occupied();
    let mut attacked = Bitboard::EMPTY;
    let mut aimed = 0;
    let diagonal = crate::attacks::bishop_rays(to);
    let line = crate::attacks::rook_rays(to);
    for sq in pos.by_color(winner) {
        let Some(p) = pos.piece_at(sq) else { continue };
        let attacks = crate::attacks::of(p.role, winner, sq, occupied);
        attacked |= attacks;
        aimed += i32::from(match p.role {
            Role::Bishop => diagonal.contains(sq),
            Role::Rook => line.contains(sq),
            Role::Queen => diagonal.contains(sq) || line.contains(sq),
            _ => attacks.contains(to),
        });
    }
    let hard = attacked | pos.by_color(loser);
    let next_to = crate::attacks::king(to);
    // reached[2]: squares reachable in at most `moves` moves; [1] and [0] one and two fewer.
    let mut reached = [Bitboard::EMPTY, Bitboard::EMPTY, lk.bb()];
    let mut moves = 0;
    while (reached[2] & next_to).is_empty() {
        let easy = around(reached[2]) & !hard;
        let cleared = around(reached[0]) & hard;
        let next = reached[2] | easy | cleared;
        if moves > limit.clamp(0, 40) || (next == reached[2] && reached[0] == reached[2]) {
            return 40;
        }
        reached = [reached[1], reached[2], next];
        moves += 1;
    }
    moves + 1 + 2 * aimed
}

/// The least `a[i] + b[j]` with `i != j`, for costs of the same men to two squares (at least
/// two men).
fn two_distinct(a: impl Iterator<Item = i32>, b: impl Iterator<Item = i32>) -> i32 {
    // The two best of each list, with their men.
    let best_two = |costs: &mut dyn Iterator<Item = i32>| {
        let mut best = [(i32::MAX, usize::MAX); 2];
        for (i, c) in costs.enumerate() {
            if c < best[0].0 {
                best = [(c, i), best[0]];
            } else if c < best[1].0 {
                best[1] = (c, i);
            }
        }
        best
    };
    let (a, b) = (best_two(&mut { a }), best_two(&mut { b }));
    if a[0].1 != b[0].1 {
        a[0].0.saturating_add(b[0].0)
    } else {
        a[0].0
            .saturating_add(b[1].0)
            .min(a[1].0.saturating_add(b[0].0))
    }
}

/// How the search orders positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Heuristic {
    /// Towards the loser's king on an edge, the winner's men around it.
    General,
    /// For a winner with a lone minor piece (and no pawns): towards the smallest corner mate,
    /// where the loser's own man blocks; elsewhere as `General`.
    Corner,
    /// For a winner without mating force but with pawns: promote first, the winner's king
    /// taking what blocks them and the loser's king out of its way; elsewhere as `General`.
    Promote,
    /// Against many men: the loser's king boxed in by its own men where it stands, a piece
    /// checking; elsewhere as `General`.
    Smother,
    /// For a winner with mating force against many men: every man of the loser's taken
    /// first, then the bare king mated; elsewhere as `General`.
    Strip,
}

impl Heuristic {
    /// Whether [`Heuristic::Strip`] steers at `pos`: the winner has mating force against at
    /// least three of the loser's men.
    pub(super) fn strips(pos: &Position, winner: Color) -> bool {
        loser_men(pos, winner) >= 3 && has_mating_force(pos, winner)
    }

    /// The shapes to try before `General` at `pos`: those that steer differently there or
    /// may after a capture.
    pub(super) fn first_for(pos: &Position, winner: Color) -> Vec<Heuristic> {
        let ours = pos.by_color(winner);
        let pawns = (ours & pos.by_role(Role::Pawn)).any();
        let minors = (ours & (pos.by_role(Role::Bishop) | pos.by_role(Role::Knight))).any();
        let mut orders = Vec::new();
        if smother_cost(pos, winner).is_some() {
            orders.push(Heuristic::Smother);
        }
        // A winner with mating force now may lose it on the way (a rook shut in behind its
        // own pawns, given up): the promotion and corner shapes then take over.
        if pawns {
            orders.push(Heuristic::Promote);
        }
        if minors {
            orders.push(Heuristic::Corner);
        }
        orders
    }

    /// The cost of `pos` under this ordering where its shape of mate applies (`strong`: the
    /// winner has mating force); `None` where the position is ordered as by `General`.
    fn shaped_cost(self, pos: &Position, winner: Color, strong: bool) -> Option<i32> {
        let pawns = (pos.by_color(winner) & pos.by_role(Role::Pawn)).any();
        match self {
            Heuristic::General => None,
            Heuristic::Smother => smother_cost(pos, winner),
            Heuristic::Strip => strip_cost(pos, winner),
            Heuristic::Promote => (!strong && pawns).then(|| promote_cost(pos, winner)),
            Heuristic::Corner if !strong => corner_cost(pos, winner),
            Heuristic::Corner => None,
        }
    }
}

/// Against at least three of the loser's men: how far the loser's king is from being boxed in
/// where it stands — each square next to it filled by one of its own men or covered by the
/// winner — with one of the winner's pieces giving check.
fn smother_cost(pos: &Position, winner: Color) -> Option<i32> {
    let loser = !winner;
    let ours = pos.by_color(winner);
    let minors = ours & !pos.by_role(Role::King) & !pos.by_role(Role::Pawn);
    let men = pos.by_color(loser) & !pos.by_role(Role::King);
    if minors.is_empty() || men.count() < 3 {
        return None;
    }
    let lk = pos.king(loser);
    let occupied = pos.occupied();
    let role_at = |sq: Square| pos.piece_at(sq).map_or(Role::Pawn, |p| p.role);
    let mut cost = 0;
    for n in crate::attacks::king(lk) & !pos.by_color(loser) {
        if pos.is_attacked(n, winner, occupied ^ lk.bb()) {
            continue;
        }
        // The square is empty of the loser's men: one move is the least any needs.
        let mut fill = 20;
        for sq in men {
            fill = fill.min(moves_to(role_at(sq), loser, sq, n));
            if fill == 1 {
                break;
            }
        }
        cost += 4 * fill;
    }
    let check = minors
        .into_iter()
        .map(|m| moves_to_check(role_at(m), m, lk))
        .min()
        .unwrap_or(20);
    Some(cost + 3 * check)
}

/// For a winner with mating force against at least three of the loser's men, which may
/// guard every square a mate needs: the men left, each worth more than any step towards the
/// mate, then the usual way to a bare king's mate. A man given up is taken at once, so lines
/// of captures go first.
fn strip_cost(pos: &Position, winner: Color) -> Option<i32> {
    Heuristic::strips(pos, winner)
        .then(|| 60 * loser_men(pos, winner) + general_cost(pos, winner, true))
}

/// How many men the loser has beside its king.
fn loser_men(pos: &Position, winner: Color) -> i32 {
    (pos.by_color(!winner) & !pos.by_role(Role::King)).count() as i32
}

/// The cost of promoting for a winner without mating force: pawns towards the last rank, the
/// winner's king at what blocks them, the loser's king away from it.
fn promote_cost(pos: &Position, winner: Color) -> i32 {
    let lk = pos.king(!winner);
    let wk = pos.king(winner);
    let mut cost = 0;
    for sq in pos.pieces(winner, Role::Pawn) {
        let to_go = winner.fold(7 - sq.rank() as i32, sq.rank() as i32);
        cost += 4 * to_go - 10;
        if let Some(b) = sq
            .offset(winner.fold(8, -8))
            .filter(|f| pos.piece_at(*f).is_some())
        {
            cost += 3 * distance(wk, b) + 2 * (4 - distance(lk, b)).max(0);
        }
    }
    cost
}

/// The cost of `pos` for `winner` mating under `heuristic`: lower is closer.
pub(super) fn cost(pos: &Position, winner: Color, heuristic: Heuristic) -> i32 {
    let strong = has_mating_force(pos, winner);
    if let Some(c) = heuristic.shaped_cost(pos, winner, strong) {
        return c;
    }
    general_cost(pos, winner, strong) + blockers_cost(pos, winner)
}

/// The loser's king towards an edge, the winner's king and men towards it (`strong`: the
/// winner has mating force).
fn general_cost(pos: &Position, winner: Color, strong: bool) -> i32 {
    let loser = !winner;
    let lk = pos.king(loser);
    let wk = pos.king(winner);
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
    cost
}

/// The loser's men count as help: pawns as they are, pieces the nearer their king (where
/// they can block its squares).
fn blockers_cost(pos: &Position, winner: Color) -> i32 {
    let loser = !winner;
    let lk = pos.king(loser);
    let mut cost = 0;
    for sq in pos.by_color(loser) & !pos.by_role(Role::King) {
        let role = pos.piece_at(sq).map_or(Role::Pawn, |p| p.role);
        cost += match role {
            Role::Pawn => -4,
            _ => distance(sq, lk) - 6,
        };
    }
    cost
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_distinct_men_fill_two_squares() {
        assert_eq!(two_distinct([1, 5].into_iter(), [2, 7].into_iter()), 7);
        assert_eq!(two_distinct([1, 2].into_iter(), [1, 9].into_iter()), 3);
        assert_eq!(
            two_distinct([3, 1, 4].into_iter(), [9, 2, 6].into_iter()),
            5
        );
    }

    #[test]
    fn the_kings_walk_goes_round_what_the_winner_attacks() {
        let walk = |fen: &str, to: Square| {
            let pos = Position::from_fen(fen).unwrap();
            king_walk(&pos, Color::Black, to, 40)
        };
        // Seven steps along the eighth rank, nothing in the way.
        assert_eq!(walk("k7/8/8/8/8/8/8/K7 w - - 0 1", Square::H8), 7);
        // h8 watched by two bishops on the long diagonal, one behind the other: each must go.
        assert_eq!(
            walk("k7/8/8/8/8/2B5/1B6/K7 w - - 0 1", Square::H8),
            6 + 1 + 2 * 2
        );
        // Six steps next to a1 and one in; the rook's rank costs three to cross.
        assert_eq!(walk("k7/8/8/8/8/8/8/7K w - - 0 1", Square::A1), 7);
        assert_eq!(walk("k7/8/8/8/7R/8/8/7K w - - 0 1", Square::A1), 9);
    }
}
