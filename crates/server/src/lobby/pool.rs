//! Quick pairing: players waiting for the same time control are paired by rating, within a
//! range that widens the longer they wait, as lichess's pools do. Pure: the lobby calls
//! [`pair`] on its waiting players every so often and on every arrival.

use vizier_play::ids::PlayerId;
/// One waiting player.
#[derive(Clone, Debug, PartialEq)]
pub struct Waiting {
    pub player: PlayerId,
    /// Their Glicko-2 rating in the pool's class (1500 for a guest).
    pub rating: i32,
    /// When they joined (Unix ms).
    pub since: u64,
    /// Accounts are paired with accounts (rated), guests with guests (casual).
    pub account: bool,
    /// The address they came from.
    pub address: Option<String>,
}

/// How far from their own rating a player accepts an opponent after waiting `waited_ms`:
/// 100 points at once, 25 more a second, at most 500.
///
/// ```
/// use vizier_server::lobby::pool::range;
/// assert_eq!(range(0), 100);
/// assert_eq!(range(4_000), 200);
/// assert_eq!(range(60_000), 500);
/// ```
pub fn range(waited_ms: u64) -> i32 {
    (100 + (waited_ms / 1_000).min(16) as i32 * 25).min(500)
}

/// Pairs of waiting players (indices into `waiting`), each within both players' ranges at
/// `now`. Players are taken in rating order, each with the nearest unpaired one that fits.
pub fn pair(waiting: &[Waiting], now: u64) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..waiting.len()).collect();
    order.sort_by_key(|&i| (waiting[i].account, waiting[i].rating, waiting[i].since));
    let mut taken = vec![false; waiting.len()];
    let mut pairs = Vec::new();
    for (k, &a) in order.iter().enumerate() {
        if taken[a] {
            continue;
        }
        let fits = |b: usize| {
            let (x, y) = (&waiting[a], &waiting[b]);
            let gap = (x.rating - y.rating).abs();
            x.account == y.account
                && x.player != y.player
                && gap <= range(now.saturating_sub(x.since))
                && gap <= range(now.saturating_sub(y.since))
        };
        // The nearest above in rating order that fits (order is by rating within a kind).
        if let Some(&b) = order[k + 1..].iter().find(|&&b| !taken[b] && fits(b)) {
            taken[a] = true;
            taken[b] = true;
            pairs.push((a, b));
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(player: &str, rating: i32, since: u64) -> Waiting {
        Waiting {
            player: PlayerId::known(player),
            rating,
            since,
            account: true,
            address: None,
        }
    }

    #[test]
    fn two_hundred_waiting_players_are_paired_within_their_ranges() {
        // Ratings spread 800..2800 by a fixed generator; arrivals over 20 s.
        let mut seed: u64 = 7;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        let now = 20_000;
        let waiting: Vec<Waiting> = (0..200)
            .map(|i| w(&format!("p{i}"), 800 + (next() % 2000) as i32, next() % now))
            .collect();
        let pairs = pair(&waiting, now);
        let mut seen = std::collections::HashSet::new();
        for &(a, b) in &pairs {
            assert!(seen.insert(a) && seen.insert(b), "each player at most once");
            let gap = (waiting[a].rating - waiting[b].rating).abs();
            assert!(gap <= range(now - waiting[a].since), "{a}: {gap}");
            assert!(gap <= range(now - waiting[b].since), "{b}: {gap}");
        }
        // Dense ratings: nearly everyone finds someone.
        assert!(pairs.len() >= 95, "{} pairs", pairs.len());
    }

    #[test]
    fn ranges_widen_with_waiting_and_kinds_stay_apart() {
        let far = [w("a", 1500, 0), w("b", 1800, 0)];
        assert!(pair(&far, 0).is_empty(), "300 apart at once: no");
        assert_eq!(pair(&far, 8_000), vec![(0, 1)], "after 8 s: 300 fits");
        let guest = Waiting {
            account: false,
            ..w("c", 1500, 0)
        };
        assert!(pair(&[w("a", 1500, 0), guest], 60_000).is_empty());
        assert!(
            pair(&[w("a", 1500, 0), w("a", 1500, 0)], 0).is_empty(),
            "not with oneself"
        );
    }
}
