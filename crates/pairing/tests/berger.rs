//! The Berger tables against the published ones (C.05 Annex 1), 3 to 16 players.

use vizier_pairing::berger;

/// A round's boards, `(white, black)`.
type Round = Vec<(u32, u32)>;

fn published() -> Vec<(u32, Vec<Round>)> {
    let mut tables = Vec::new();
    for line in include_str!("data/berger-tables.txt").lines() {
        if let Some(rest) = line.strip_prefix("n=") {
            let n: u32 = rest.split_whitespace().next().unwrap().parse().unwrap();
            tables.push((n, Vec::new()));
        } else if let Some(rest) = line.trim().strip_prefix('R') {
            let boards = rest
                .split_whitespace()
                .skip(1)
                .map(|b| {
                    let (w, k) = b.split_once('-').unwrap();
                    (w.parse().unwrap(), k.parse().unwrap())
                })
                .collect();
            tables.last_mut().unwrap().1.push(boards);
        }
    }
    tables
}

#[test]
fn tables_for_4_to_16_places_are_the_published_ones() {
    let tables = published();
    assert_eq!(tables.len(), 7);
    for (n, rounds) in tables {
        assert_eq!(rounds.len() as u32, n - 1);
        for (r, boards) in rounds.iter().enumerate() {
            assert_eq!(
                &berger::round(n, r as u32 + 1),
                boards,
                "n={n} round {}",
                r + 1
            );
        }
        // An odd count plays the same table: meeting the last place is the bye.
        assert_eq!(berger::schedule(n - 1, false), rounds);
    }
}

#[test]
fn everyone_meets_everyone_once_with_balanced_colours() {
    for players in 3..=40u32 {
        for double in [false, true] {
            let rounds = berger::schedule(players, double);
            let n = berger::table_size(players) as usize;
            let mut met = vec![vec![0; n + 1]; n + 1];
            let mut whites = vec![0i32; n + 1];
            let mut last: Vec<Vec<u8>> = vec![Vec::new(); n + 1];
            for round in &rounds {
                let mut seen = vec![false; n + 1];
                for &(w, b) in round {
                    assert!(!seen[w as usize] && !seen[b as usize]);
                    seen[w as usize] = true;
                    seen[b as usize] = true;
                    met[w as usize][b as usize] += 1;
                    met[b as usize][w as usize] += 1;
                    whites[w as usize] += 1;
                    whites[b as usize] -= 1;
                    last[w as usize].push(b'W');
                    last[b as usize].push(b'B');
                }
            }
            let times = if double { 2 } else { 1 };
            for a in 1..=n {
                for (b, &count) in met[a].iter().enumerate().skip(1) {
                    if a != b {
                        assert_eq!(count, times, "{players} players, {a} and {b}");
                    }
                }
                assert!(
                    whites[a].abs() <= 1,
                    "{players} players: {a} has {} more whites",
                    whites[a]
                );
            }
            if double {
                // No colour three times running for real players across the cycles' seam.
                for seq in last.iter().take(players as usize + 1).skip(1) {
                    assert!(
                        !seq.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]) || players % 2 == 1
                    );
                }
            }
        }
    }
}
