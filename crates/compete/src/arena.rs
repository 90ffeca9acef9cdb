//! Arenas as lichess runs them: for a fixed time, the players waiting are paired as soon as
//! they are back from a game; a win is 2 points, a draw 1; after two wins running a player is
//! on fire and scores double until a game is not won; a draw within 20 half-moves scores
//! nothing, and after a draw further short draws (under 60 half-moves) score nothing until the
//! next win. Ties are broken by performance.

use serde::Serialize;
use vizier_pairing::matching::Graph;

use crate::model::{ArenaGame, Tournament};

/// A berserk win earns its bonus point only after this many half-moves.
pub const BERSERK_WIN_PLIES: u32 = 14;
/// A draw in fewer half-moves than this scores nothing.
pub const QUICK_DRAW_PLIES: u32 = 20;
/// After a draw, a draw this short scores nothing until the next win.
pub const LONG_DRAW_PLIES: u32 = 60;
/// Players paired together at most (lichess's groups).
pub const GROUP: usize = 100;

/// One game on a player's sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Score {
    pub points: u32,
    /// Scored double (the player was on fire).
    pub fire: bool,
    /// The player berserked.
    pub berserk: bool,
    /// The game's result for the player: 2 win, 1 draw, 0 loss.
    pub outcome: u8,
}

/// A player's sheet: each finished game's score, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Sheet {
    pub scores: Vec<Score>,
    pub total: u32,
    /// On fire now: the next game scores double.
    pub on_fire: bool,
}

/// `number`'s sheet over the finished games.
pub fn sheet(games: &[ArenaGame], number: u32, streaks: bool) -> Sheet {
    let mut out = Sheet::default();
    let mut wins_running = 0;
    let mut drawn_since_win = false;
    for g in games {
        let Some(result) = g.result else { continue };
        let (w, b) = result.halves();
        let (halves, berserked) = if g.white == number {
            (w, g.berserk[0])
        } else if g.black == number {
            (b, g.berserk[1])
        } else {
            continue;
        };
        let fire = streaks && wins_running >= 2;
        let base = match halves {
            2 => 2,
            1 if result.is_forfeit() => 0,
            1 if g.plies < QUICK_DRAW_PLIES => 0,
            1 if drawn_since_win && g.plies < LONG_DRAW_PLIES => 0,
            1 => 1,
            _ => 0,
        };
        // lichess's berserk bonus: one point for a win that lasted, fire or not.
        let bonus = u32::from(
            berserked && halves == 2 && !result.is_forfeit() && g.plies >= BERSERK_WIN_PLIES,
        );
        let points = if fire { 2 * base } else { base } + bonus;
        match halves {
            2 => {
                wins_running += 1;
                drawn_since_win = false;
            }
            1 => {
                wins_running = 0;
                drawn_since_win = true;
            }
            _ => wins_running = 0,
        }
        out.total += points;
        out.scores.push(Score {
            points,
            fire,
            berserk: berserked,
            outcome: halves as u8,
        });
    }
    out.on_fire = streaks && wins_running >= 2;
    out
}

/// lichess's performance: the opponents' average rating, plus 500 for each win above the
/// losses, per game. None before a game is finished.
pub fn performance(t: &Tournament, games: &[ArenaGame], number: u32) -> Option<i32> {
    let mut sum = 0i64;
    let mut count = 0i64;
    for g in games {
        let Some(result) = g.result else { continue };
        if result.is_forfeit() {
            continue;
        }
        let (w, b) = result.halves();
        let (mine, opponent) = if g.white == number {
            (w, g.black)
        } else if g.black == number {
            (b, g.white)
        } else {
            continue;
        };
        let rating = t.entrant(opponent).map_or(1500, |e| e.rating) as i64;
        sum += rating + 500 * (mine as i64 - 1);
        count += 1;
    }
    (count > 0).then(|| (sum as f64 / count as f64).round() as i32)
}

/// A player waiting to be paired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waiting {
    pub number: u32,
    /// 0-based place in the standings now.
    pub rank: usize,
    pub rating: i32,
    /// Whom they played last.
    pub last_opponent: Option<u32>,
    /// Games as White minus games as Black.
    pub colour_balance: i32,
}

/// Pairs the waiting players: leaders more tightly (lichess's cost, |rank difference| ×
/// rank factor + |rating difference|), never last game's opponents again (unless they are
/// the only two players left, `only_two`), in groups of at most [`GROUP`] by rank; each
/// pair `(white, black)`, the one with more Whites getting Black.
pub fn pair(waiting: &[Waiting], max_rank: usize, only_two: bool) -> Vec<(u32, u32)> {
    let mut sorted: Vec<&Waiting> = waiting.iter().collect();
    sorted.sort_by_key(|w| (w.rank, w.number));
    if only_two && sorted.len() == 2 {
        return vec![colours(sorted[0], sorted[1])];
    }
    let mut pairs = Vec::new();
    for group in sorted.chunks(GROUP) {
        pairs.extend(pair_group(group, max_rank.max(1)));
    }
    pairs
}

fn pair_group(group: &[&Waiting], max_rank: usize) -> Vec<(u32, u32)> {
    let n = group.len();
    if n < 2 {
        return Vec::new();
    }
    let cost = |a: &Waiting, b: &Waiting| -> u64 {
        let top = a.rank.min(b.rank) as u64;
        let factor = 300 + 1700 * (max_rank as u64).saturating_sub(top) / max_rank as u64;
        a.rank.abs_diff(b.rank) as u64 * factor + a.rating.abs_diff(b.rating) as u64
    };
    let worst = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .map(|(i, j)| cost(group[i], group[j]))
        .max()
        .unwrap_or(0);
    // Every pair made outweighs any saving in cost: as many players as possible play.
    let bonus = (worst + 1) * (n as u64 + 1);
    let mut graph: Graph<u64> = Graph::new(n);
    for i in 0..n {
        for j in i + 1..n {
            let (a, b) = (group[i], group[j]);
            if a.last_opponent == Some(b.number) || b.last_opponent == Some(a.number) {
                continue;
            }
            graph.set(i, j, bonus + worst + 1 - cost(a, b));
        }
    }
    let mates = graph.max_weight_matching(&vec![true; n]);
    let mut out = Vec::new();
    for (i, mate) in mates.iter().enumerate() {
        if let Some(j) = *mate
            && i < j
        {
            out.push(colours(group[i], group[j]));
        }
    }
    out
}

fn colours(a: &Waiting, b: &Waiting) -> (u32, u32) {
    if a.colour_balance > b.colour_balance
        || (a.colour_balance == b.colour_balance && rand::random::<bool>())
    {
        (b.number, a.number)
    } else {
        (a.number, b.number)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{BoardResult, Format};

    /// Players rated 1500, 1600, 1700…
    fn arena(players: usize) -> Tournament {
        let format = Format::Arena {
            minutes: 60,
            streaks: true,
            berserk: true,
        };
        let ratings: Vec<i32> = (0..players as i32).map(|i| 1500 + 100 * i).collect();
        Tournament::sample(format, &ratings)
    }

    fn game(white: u32, black: u32, result: BoardResult, plies: u32) -> ArenaGame {
        ArenaGame {
            white,
            black,
            game: format!("g{white}{black}{plies}"),
            started_at: 0,
            result: Some(result),
            plies,
            berserk: [false; 2],
            ended_at: None,
        }
    }

    #[test]
    fn streaks_double_the_points_until_a_game_is_not_won() {
        use BoardResult::*;
        // 1 wins, wins, wins (on fire: 4), draws (on fire: 2), then wins (2).
        let games = [
            game(1, 2, WhiteWins, 40),
            game(3, 1, BlackWins, 40),
            game(1, 2, WhiteWins, 40),
            game(1, 3, Draw, 80),
            game(2, 1, BlackWins, 40),
        ];
        let s = sheet(&games, 1, true);
        let points: Vec<u32> = s.scores.iter().map(|s| s.points).collect();
        assert_eq!(points, [2, 2, 4, 2, 2]);
        assert_eq!(s.total, 12);
        assert!(!s.on_fire);
        // Without streaks every win is 2.
        assert_eq!(sheet(&games, 1, false).total, 9);
    }

    #[test]
    fn a_berserk_win_that_lasted_earns_a_point_more() {
        use BoardResult::*;
        let mut games = [
            game(1, 2, WhiteWins, 30),
            game(2, 1, BlackWins, 10),
            game(1, 2, WhiteWins, 40),
        ];
        for g in &mut games {
            g.berserk = [true, true];
        }
        // 2 + 1; a win of 10 plies: 2; on fire: 4 + 1.
        let points: Vec<u32> = (sheet(&games, 1, true).scores.iter())
            .map(|s| s.points)
            .collect();
        assert_eq!(points, [3, 2, 5]);
        // The loser's berserk gives nothing.
        assert_eq!(sheet(&games, 2, true).total, 0);
    }

    #[test]
    fn short_draws_score_nothing() {
        use BoardResult::*;
        let games = [
            game(1, 2, Draw, 12),
            game(2, 1, Draw, 70),
            game(1, 2, Draw, 30),
            game(1, 2, WhiteWins, 30),
            game(1, 2, Draw, 30),
        ];
        // A quick draw 0; a long draw 1; after it a short one 0; a win 2; then a draw 1.
        let points: Vec<u32> = (sheet(&games, 1, true).scores.iter())
            .map(|s| s.points)
            .collect();
        assert_eq!(points, [0, 1, 0, 2, 1]);
    }

    #[test]
    fn performance_is_lichess_s() {
        let t = arena(3);
        use BoardResult::*;
        // Beat 2 (1600), lost to 3 (1700): (1600 + 500 + 1700 - 500) / 2.
        let games = [game(1, 2, WhiteWins, 40), game(1, 3, BlackWins, 40)];
        assert_eq!(performance(&t, &games, 1), Some(1650));
        assert_eq!(performance(&t, &[], 1), None);
    }

    #[test]
    fn leaders_meet_leaders_and_nobody_meets_the_last_opponent_again() {
        let waiting: Vec<Waiting> = (0..6)
            .map(|i| Waiting {
                number: i + 1,
                rank: i as usize,
                rating: 1500,
                last_opponent: match i {
                    0 => Some(2),
                    1 => Some(1),
                    _ => None,
                },
                colour_balance: 0,
            })
            .collect();
        let pairs = pair(&waiting, 6, false);
        assert_eq!(pairs.len(), 3);
        let met = |a: u32, b: u32| {
            pairs
                .iter()
                .any(|&(w, bl)| (w, bl) == (a, b) || (w, bl) == (b, a))
        };
        assert!(!met(1, 2));
        // 1 meets the next best it may: 3.
        assert!(met(1, 3));
        // Two who just met wait for someone else, unless nobody else plays.
        assert_eq!(pair(&waiting[..2], 6, false).len(), 0);
        assert_eq!(pair(&waiting[..2], 2, true).len(), 1);
    }
}
