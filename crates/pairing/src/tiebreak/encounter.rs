//! Direct encounter (Article 6): among players still tied, the points scored against each
//! other. Where not all of them met (a Swiss), a player goes ahead only once no other could
//! have caught up in the games not played. Applied again to those it leaves tied, until it
//! separates no more.

use std::collections::HashMap;

use super::crosstable::Table;
use super::spec::TieBreak;

/// Scores against one opponent are averaged over the games with them: scaled by 60 so the
/// averages of up to six games stay whole.
const SCALE: i64 = 60;

/// Each player's place among those tied with them after the previous tie-breaks: 0 where
/// direct encounter separates none of the group, else 1, 2, … (shared where still tied).
///
/// `rank[p]` is the shared rank so far (1-based); players with equal ranks are tied.
pub(crate) fn values(table: &Table, tb: &TieBreak, rank: &[usize]) -> Vec<i64> {
    let n = table.players.len();
    let all_met = table.round_robin;
    let as_played = table.round_robin || tb.forfeits_played;
    let mut place: Vec<usize> = rank.to_vec();
    let mut open = vec![true; n];
    let mut order: Vec<usize> = (0..n).collect();
    let sort = |order: &mut Vec<usize>, place: &[usize]| {
        order.sort_by_key(|&p| (rank[p], place[p], table.players[p].id));
    };
    sort(&mut order, &place);
    for _pass in 0..30 {
        let mut changed = false;
        let mut start = 0;
        while start < n {
            let end = (start..n)
                .find(|&i| place[order[i]] != place[order[start]])
                .unwrap_or(n);
            let group: Vec<usize> = order[start..end].to_vec();
            if open[group[0]] {
                let changes = if group.len() == 1 {
                    0
                } else {
                    separate(table, &group, &mut place, all_met, as_played)
                };
                for &p in &group {
                    open[p] = changes > 0;
                }
                changed |= changes > 0;
            }
            start = end;
        }
        if !changed {
            break;
        }
        sort(&mut order, &place);
    }
    // Relative places within each group tied before direct encounter.
    let mut value = vec![0; n];
    let mut start = 0;
    while start < n {
        let end = (start..n)
            .find(|&i| rank[order[i]] != rank[order[start]])
            .unwrap_or(n);
        let first = place[order[start]];
        let split = first != place[order[end - 1]];
        let offset = if split { first - 1 } else { first };
        for &p in &order[start..end] {
            value[p] = 100 * (place[p] - offset) as i64;
        }
        start = end;
    }
    value
}

/// One application to a group sharing a place; returns how many new places it made.
fn separate(
    table: &Table,
    group: &[usize],
    place: &mut [usize],
    all_met: bool,
    as_played: bool,
) -> usize {
    let start = place[group[0]];
    let others = group.len() - 1;
    struct Tally {
        p: usize,
        score: i64,
        best: i64,
    }
    let mut complete = true;
    let mut tallies: Vec<Tally> = Vec::with_capacity(group.len());
    for &p in group {
        let mut against: HashMap<usize, (i64, i64)> = HashMap::new();
        for round in &table.players[p].rounds {
            let Some(o) = round.opponent else { continue };
            let counts = round.game() || as_played;
            if counts && o != p && place[o] == start {
                let entry = against.entry(o).or_insert((0, 0));
                entry.0 += round.points;
                entry.1 += 1;
            }
        }
        let score: i64 = against
            .values()
            .map(|&(sum, games)| sum * SCALE / games)
            .sum();
        let met = against.len();
        let best = if all_met {
            score
        } else {
            if met < others {
                complete = false;
            }
            score + (others - met) as i64 * table.win * SCALE
        };
        tallies.push(Tally { p, score, best });
    }
    let mut changes = 0;
    if complete {
        tallies.sort_by_key(|t| (-t.score, table.players[t.p].id));
        let mut current = start;
        for i in 1..tallies.len() {
            if tallies[i].score != tallies[i - 1].score {
                current = start + i;
                changes += 1;
            }
            place[tallies[i].p] = current;
        }
    } else {
        tallies.sort_by_key(|t| (-t.score, -t.best, table.players[t.p].id));
        let mut current = start;
        let mut separating = true;
        for i in 1..tallies.len() {
            let best_below = tallies[i..].iter().map(|t| t.best).max().unwrap_or(0);
            if separating && tallies[i - 1].score > best_below {
                current = start + i;
                changes += 1;
            } else {
                separating = false;
            }
            place[tallies[i].p] = current;
        }
    }
    changes
}
