//! Tie-breaks from the opponents' scores (Articles 8 and 9): Buchholz, Fore Buchholz, the
//! average of the opponents' Buchholz, Sonneborn–Berger and Koya, with Article 16's
//! handling of unplayed rounds and the cuts of Article 14.

use super::crosstable::{Rules, Table};
use super::spec::{Kind, TieBreak};

/// Every player's score as an opponent (16.3) and as their own dummy opponent, in tenths.
struct Adjusted {
    as_opponent: Vec<i64>,
    own: Vec<i64>,
}

/// As an opponent, rounds after a player's last attended one (16.2.5) count as draws in a
/// Swiss; everything else counts the points given. Fore Buchholz turns the last round of
/// everyone who was paired in it into a draw.
fn adjusted(table: &Table, fore: bool) -> Adjusted {
    let n = table.players.len();
    let last = table.rounds;
    let mut as_opponent = vec![0; n];
    let mut own = vec![0; n];
    for p in 0..n {
        let player = &table.players[p];
        let paired_last = fore && last > 0 && table.last_paired(p) == last;
        let attended = if paired_last {
            last
        } else {
            table.last_attended(p)
        };
        let unplayed = if table.round_robin { 0 } else { table.draw };
        let mut sum = 0;
        for (r, round) in player.rounds.iter().enumerate() {
            sum += if r < attended || round.opponent.is_some() {
                round.points
            } else {
                unplayed
            };
        }
        let mut total = player.total;
        if paired_last && let Some(round) = player.rounds.last().filter(|r| r.opponent.is_some()) {
            sum += table.draw - round.points;
            total += table.draw - round.points;
        }
        as_opponent[p] = sum;
        own[p] = total;
    }
    Adjusted { as_opponent, own }
}

/// One round's contribution: the opponent's score, the value added, and whether it comes
/// from a voluntarily unplayed round (cut first, 16.5).
#[derive(Clone, Copy, Debug)]
struct Contribution {
    score: i64,
    value: i64,
    voluntary: bool,
}

fn contributions(table: &Table, tb: &TieBreak, adjusted: &Adjusted, p: usize) -> Vec<Contribution> {
    let sonneborn = tb.kind == Kind::Sb;
    let fore = tb.fore_buchholz();
    let as_played = tb.forfeits_played || table.round_robin;
    let last = table.rounds;
    let player = &table.players[p];
    let mut list = Vec::with_capacity(player.rounds.len());
    for (r, round) in player.rounds.iter().enumerate() {
        let counts_as_game = round.game() || as_played || (fore && r + 1 == last);
        let (score, voluntary) = match round.opponent {
            Some(o) if counts_as_game => (adjusted.as_opponent[o], false),
            _ if table.round_robin => continue,
            opponent => {
                // A dummy opponent with the player's own score (16.4), capped from 2026.
                let mut score = adjusted.own[p];
                if table.rules == Rules::R2026 {
                    score = score.min(match opponent {
                        Some(o) => adjusted.as_opponent[o],
                        None => table.draw * last as i64,
                    });
                }
                (score, round.voluntary())
            }
        };
        let value = if sonneborn {
            score * round.points
        } else {
            10 * score
        };
        list.push(Contribution {
            score,
            value,
            voluntary,
        });
    }
    list
}

/// Cuts the `low` least significant contributions (voluntarily unplayed rounds first) and
/// the `high` most significant, and sums the rest.
fn cut_sum(mut list: Vec<Contribution>, low: u32, high: u32, rounds: usize) -> i64 {
    let low = (low as usize).min(rounds);
    let high = (high as usize).min(rounds - low);
    for _ in 0..low {
        let Some(weakest) = (0..list.len()).min_by_key(|&i| (list[i].score, list[i].value)) else {
            break;
        };
        let voluntary = (0..list.len())
            .filter(|&i| list[i].voluntary)
            .min_by_key(|&i| (list[i].value, list[i].score));
        let cut = match voluntary {
            Some(v) if list[weakest].value <= list[v].value => v,
            _ => weakest,
        };
        list.remove(cut);
    }
    for _ in 0..high {
        // Ties go to the earliest round, as the least significant do.
        let Some(strongest) = (0..list.len())
            .rev()
            .max_by_key(|&i| (list[i].score, list[i].value))
        else {
            break;
        };
        list.remove(strongest);
    }
    list.iter().map(|c| c.value).sum()
}

/// Buchholz, Fore Buchholz or Sonneborn–Berger of every player, in hundredths.
fn buchholz_all(table: &Table, tb: &TieBreak) -> Vec<i64> {
    let adjusted = adjusted(table, tb.fore_buchholz());
    (0..table.players.len())
        .map(|p| {
            let list = contributions(table, tb, &adjusted, p);
            cut_sum(list, tb.cut_low, tb.cut_high, table.rounds)
        })
        .collect()
}

/// The values of BH, FB, SB, AOB or KS for every player, in hundredths (`None` for an
/// average over no games).
pub(crate) fn values(table: &Table, tb: &TieBreak) -> Vec<Option<i64>> {
    match tb.kind {
        Kind::Bh | Kind::Fb | Kind::Sb => buchholz_all(table, tb).into_iter().map(Some).collect(),
        Kind::Aob => {
            let buchholz = buchholz_all(
                table,
                &TieBreak {
                    kind: Kind::Bh,
                    ..tb.clone()
                },
            );
            (0..table.players.len())
                .map(|p| {
                    let opponents: Vec<i64> = table.players[p]
                        .rounds
                        .iter()
                        .filter(|r| r.game())
                        .filter_map(|r| r.opponent.map(|o| buchholz[o]))
                        .collect();
                    (!opponents.is_empty()).then(|| {
                        crate::performance::round_half_up(
                            opponents.iter().sum(),
                            opponents.len() as i64,
                        )
                    })
                })
                .collect()
        }
        Kind::Ks => koya(table, tb).into_iter().map(Some).collect(),
        _ => unreachable!("not a tie-break of the opponents' scores"),
    }
}

/// Points scored against opponents who made at least the limit (50 % of the maximum unless
/// modified).
fn koya(table: &Table, tb: &TieBreak) -> Vec<i64> {
    let n = table.players.len();
    let mut games = table.rounds as i64;
    if table.round_robin {
        if n > 0 && table.rounds.is_multiple_of(n) {
            games -= (table.rounds / n) as i64;
        }
        games -= (0..n).filter(|&p| table.last_paired(p) == 0).count() as i64;
    }
    // In hundredths of tenths: percent × points.
    let limit = tb.limit_percent as i64 * table.win * games + 100 * tb.limit_offset;
    (0..n)
        .map(|p| {
            10 * table.players[p]
                .rounds
                .iter()
                .filter(|r| {
                    r.opponent
                        .is_some_and(|o| 100 * table.players[o].total >= limit)
                })
                .map(|r| r.points)
                .sum::<i64>()
        })
        .collect()
}
