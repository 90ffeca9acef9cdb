//! Static exchange evaluation: the material outcome of a sequence of captures on one square,
//! each side capturing with its least valuable attacker (x-rays through sliders included).

use vizier_rules::{Move, Position, Role, attacks};

/// Piece values for exchanges (king large so that it captures last).
pub const VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// The material balance for the side to move of making `m` and letting both sides recapture on
/// its square while it pays; whether it is at least `threshold`.
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    if m.is_castle() {
        return threshold <= 0;
    }
    let (from, to) = (m.from(), m.to());
    let captured = if m.is_en_passant() {
        Some(Role::Pawn)
    } else {
        pos.piece_at(to).map(|p| p.role)
    };
    let mut gain = captured.map_or(0, |r| VALUE[r.index()]);
    let mut attacker = pos.piece_at(from).map_or(Role::Pawn, |p| p.role);
    if let Some(promo) = m.promotion() {
        gain += VALUE[promo.index()] - VALUE[0];
        attacker = promo;
    }
    let mut balance = gain - threshold;
    if balance < 0 {
        return false;
    }
    balance -= VALUE[attacker.index()];
    if balance >= 0 {
        return true;
    }
    let mut occ = pos.occupied() ^ from.bb();
    if m.is_en_passant() {
        occ ^= vizier_rules::Square::from_coords(to.file(), from.rank()).bb();
    }
    let rq = pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
    let bq = pos.by_role(Role::Bishop) | pos.by_role(Role::Queen);
    let mut attackers = pos.attackers_to(to, occ) & occ;
    let mut side = !pos.turn();
    loop {
        let mine = attackers & pos.by_color(side);
        if mine.is_empty() {
            break;
        }
        let Some(role) = Role::ALL
            .into_iter()
            .find(|r| (mine & pos.by_role(*r)).any())
        else {
            break;
        };
        let sq = (mine & pos.by_role(role)).first().expect("non-empty");
        occ ^= sq.bb();
        // Sliders behind the capturer join in.
        attackers |= (attacks::rook(to, occ) & rq) | (attacks::bishop(to, occ) & bq);
        attackers &= occ;
        side = !side;
        balance = -balance - 1 - VALUE[role.index()];
        if balance >= 0 {
            // A king may not capture into a defended square.
            if role == Role::King && (attackers & pos.by_color(side)).any() {
                side = !side;
            }
            break;
        }
    }
    side != pos.turn()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, uci: &str, t: i32) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        see_ge(&pos, pos.parse_uci(uci).unwrap(), t)
    }

    #[test]
    fn exchanges() {
        // Pawn takes defended knight: wins at least a knight minus a pawn.
        assert!(see("4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1", "d4e5", 200));
        // Queen takes a pawn defended by a pawn: loses.
        assert!(!see("4k3/8/3p4/4p3/8/8/4Q3/4K3 w - - 0 1", "e2e5", 0));
        // Rook takes an undefended rook.
        assert!(see("4k3/8/8/4r3/8/8/8/4RK2 w - - 0 1", "e1e5", 500));
        // Rook takes a rook defended by a rook, with our second rook behind (x-ray): wins a rook.
        assert!(see("4r1k1/8/8/4r3/8/8/4R3/4RK2 w - - 0 1", "e2e5", 0));
    }
}
