//! Round robins by the FIDE Berger tables (C.05 Annex 1).
//!
//! For `n` players (an odd count plays with a dummy numbered `n + 1`: meeting it is a bye),
//! round 1 pairs board `b` as `b` against `n - b + 1`; each next round turns players
//! `1..n-1` round the table while player `n` alternates colours. A double round robin plays
//! the table twice with colours reversed, the last two rounds of the first cycle swapped so
//! that nobody gets the same colour three times running.

/// The table size for `players` players: the next even number.
pub fn table_size(players: u32) -> u32 {
    players + players % 2
}

/// Round `round` (1-based) of a single round robin of a table of `n` (even) places: the
/// boards in order, `(white, black)` by place number.
///
/// # Panics
/// If `n` is odd or below 2, or `round` is not in `1..n`.
pub fn round(n: u32, round: u32) -> Vec<(u32, u32)> {
    assert!(
        n >= 2 && n.is_multiple_of(2),
        "a Berger table has an even number of places"
    );
    assert!(
        (1..n).contains(&round),
        "a Berger table of {n} has rounds 1..{}",
        n - 1
    );
    let circle = n - 1;
    // Player n meets the player `start` of the circle 1..n-1, which moves on by n/2 places
    // each round; the others pair off symmetrically around it.
    let start = (round - 1) * (n / 2) % circle;
    let place = |offset: i64| (start as i64 + offset).rem_euclid(circle as i64) as u32 + 1;
    let mut boards = Vec::with_capacity((n / 2) as usize);
    boards.push(if round % 2 == 1 {
        (place(0), n)
    } else {
        (n, place(0))
    });
    for k in 1..(n / 2) as i64 {
        boards.push((place(k), place(-k)));
    }
    boards
}

/// Every round of a round robin of `players`, single or double: `rounds[r][board]` as
/// `(white, black)`. Boards with the dummy (an odd count) are kept: the dummy's opponent
/// has the bye.
pub fn schedule(players: u32, double: bool) -> Vec<Vec<(u32, u32)>> {
    let n = table_size(players);
    if n < 2 {
        return Vec::new();
    }
    let mut rounds: Vec<Vec<(u32, u32)>> = (1..n).map(|r| round(n, r)).collect();
    if double {
        let mut first = rounds.clone();
        let k = first.len();
        if k >= 2 {
            first.swap(k - 1, k - 2);
        }
        let second: Vec<Vec<(u32, u32)>> = rounds
            .iter()
            .map(|r| r.iter().map(|&(w, b)| (b, w)).collect())
            .collect();
        first.extend(second);
        rounds = first;
    }
    rounds
}
