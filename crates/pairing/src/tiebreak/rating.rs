//! Tie-breaks from ratings (Article 10): the average rating of opponents, the performance
//! ratings and their averages over the opponents, the player's own rating. Unrated players
//! make them void unless a rating is given for them (`/U`).

use crate::performance::{average_rating, perfect_performance, performance, round_half_up};

use super::crosstable::Table;
use super::spec::{Kind, TieBreak};

fn rating_of(table: &Table, tb: &TieBreak, p: usize) -> Option<u32> {
    table.players[p].rating.or(tb.unrated)
}

/// The opponents' ratings and the results against them that a player's figure counts:
/// games played, with the cuts (an unrated opponent left out uses up a cut first).
fn counted(table: &Table, tb: &TieBreak, p: usize) -> (Vec<u32>, u32) {
    let mut played = 0usize;
    let mut rated: Vec<(u32, u32)> = Vec::new();
    for round in &table.players[p].rounds {
        let Some(o) = round.opponent.filter(|_| round.game()) else {
            continue;
        };
        played += 1;
        if let Some(rating) = rating_of(table, tb, o) {
            rated.push((rating, round.result));
        }
    }
    let low = (tb.cut_low as usize).min(table.rounds);
    let high = (tb.cut_high as usize).min(table.rounds - low);
    // Stable: of equal ratings the earliest round is cut from below, the latest from above.
    rated.sort_by_key(|&(rating, _)| rating);
    for _ in 0..low {
        if played == rated.len() && !rated.is_empty() {
            rated.remove(0);
        }
        played = played.saturating_sub(1);
    }
    for _ in 0..high {
        if played == rated.len() {
            rated.pop();
        }
        played = played.saturating_sub(1);
    }
    let score = rated.iter().map(|&(_, result)| result).sum();
    (rated.into_iter().map(|(rating, _)| rating).collect(), score)
}

fn own_figure(table: &Table, tb: &TieBreak, kind: Kind, p: usize) -> Option<i32> {
    let (ratings, score) = counted(table, tb, p);
    match kind {
        Kind::Aro => average_rating(&ratings),
        Kind::Tpr => performance(score, &ratings),
        Kind::Ptp => perfect_performance(score, &ratings),
        _ => unreachable!(),
    }
}

/// The values of ARO, TPR, PTP, APRO, APPO or RTNG for every player, in hundredths.
pub(crate) fn values(table: &Table, tb: &TieBreak) -> Vec<Option<i64>> {
    let n = table.players.len();
    let complete = tb.unrated.is_some() || table.players.iter().all(|p| p.rating.is_some());
    if !complete {
        return vec![None; n];
    }
    let figures: Vec<Option<i32>> = match tb.kind {
        Kind::Rtng => (0..n)
            .map(|p| rating_of(table, tb, p).map(|r| r as i32))
            .collect(),
        Kind::Aro | Kind::Tpr | Kind::Ptp => {
            (0..n).map(|p| own_figure(table, tb, tb.kind, p)).collect()
        }
        Kind::Apro | Kind::Appo => {
            let of = if tb.kind == Kind::Apro {
                Kind::Tpr
            } else {
                Kind::Ptp
            };
            let plain = TieBreak {
                cut_low: 0,
                cut_high: 0,
                ..tb.clone()
            };
            let each: Vec<Option<i32>> = (0..n).map(|p| own_figure(table, &plain, of, p)).collect();
            (0..n)
                .map(|p| {
                    let found: Vec<i64> = table.players[p]
                        .rounds
                        .iter()
                        .filter(|r| r.game())
                        .filter_map(|r| each[r.opponent?].map(i64::from))
                        .collect();
                    if found.is_empty() {
                        return None;
                    }
                    let sum: i64 = found.iter().sum();
                    Some(round_half_up(sum, found.len() as i64) as i32)
                })
                .collect()
        }
        _ => unreachable!("not a rating tie-break"),
    };
    figures
        .into_iter()
        .map(|f| f.map(|v| 100 * v as i64))
        .collect()
}
