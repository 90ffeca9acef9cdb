//! Tie-breaks from a player's own results (Article 7) and own rating (10.6). Values are in
//! hundredths, the unit every tie-break shares.

use super::crosstable::{Round, Table};
use super::spec::{Kind, TieBreak};

/// The value of one of Article 7's tie-breaks, or points, for player `p`.
pub(crate) fn value(table: &Table, tb: &TieBreak, p: usize) -> i64 {
    let player = &table.players[p];
    let rounds = &player.rounds;
    let count =
        |f: &dyn Fn(&Round) -> bool| -> i64 { 100 * rounds.iter().filter(|r| f(r)).count() as i64 };
    let black = |r: &Round| r.colour == Some(crate::Colour::Black);
    match tb.kind {
        Kind::Pts => 10 * player.total,
        Kind::Win => count(&|r| r.points == table.win),
        Kind::Won => count(&|r| r.game() && r.result == 100),
        Kind::Bpg => count(&|r| r.game() && black(r)),
        Kind::Bwg => count(&|r| r.game() && black(r) && r.result == 100),
        Kind::Rep => count(&|r| r.played() || r.points == table.win),
        Kind::Std => {
            10 * rounds
                .iter()
                .map(|r| match r.points.cmp(&table.draw) {
                    core::cmp::Ordering::Greater => 10,
                    core::cmp::Ordering::Equal => 5,
                    core::cmp::Ordering::Less => 0,
                })
                .sum::<i64>()
        }
        Kind::Ps => 10 * player.running().skip(tb.cut_low as usize).sum::<i64>(),
        Kind::Tpn => 100 * player.id as i64,
        _ => unreachable!("not one of Article 7's tie-breaks"),
    }
}
