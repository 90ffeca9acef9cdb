//! Random Swiss tournaments played to their end: every round's pairing keeps the absolute
//! criteria, and pairing it again from its TRF written and read back gives the same boards.

use vizier_pairing::dutch::{self, Board, Edition, Profile};
use vizier_pairing::field::Field;
use vizier_pairing::tiebreak::{parse_list, standings};
use vizier_pairing::trf::{Code, PlayerRecord, PointSystem, RoundEntry, Trf, Version};
use vizier_pairing::{Colour, Points};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

fn new_tournament(rng: &mut Rng, players: u32, rounds: u32) -> Trf {
    let mut trf = Trf {
        rounds: Some(rounds),
        ..Trf::default()
    };
    trf.records.push(("012".into(), "Random Swiss".into()));
    let mut ratings: Vec<u32> = (0..players)
        .map(|_| 1200 + rng.below(1500) as u32)
        .collect();
    ratings.sort_unstable_by(|a, b| b.cmp(a));
    for (i, rating) in ratings.into_iter().enumerate() {
        trf.players.push(PlayerRecord {
            id: i as u32 + 1,
            sex: 'm',
            title: String::new(),
            name: format!("Player {:03}", i + 1),
            rating,
            federation: "CHN".into(),
            fide_id: String::new(),
            birth: String::new(),
            points: Points(0),
            rank: i as u32 + 1,
            results: Vec::new(),
        });
    }
    trf.initial_colour = Some(if rng.chance(50) {
        Colour::White
    } else {
        Colour::Black
    });
    trf
}

fn points(code: Code) -> u32 {
    PointSystem::default().of(code).0
}

/// Checks the absolute criteria (C1–C3), completeness and the bye's eligibility.
fn check_round(field: &Field, boards: &[Board], label: &str) {
    let present: Vec<usize> = (0..field.players.len())
        .filter(|&i| field.is_present(i))
        .collect();
    let mut seen = vec![0; field.players.len()];
    let mut byes = 0;
    let profiles: Vec<Profile> = (0..field.players.len())
        .map(|i| Profile::of(field, i))
        .collect();
    let last_round = field.played_rounds + 1 == field.rounds;
    let topscorer =
        |i: usize| last_round && field.score(i, 0).0 * 2 > field.played_rounds as u32 * 10;
    for b in boards {
        seen[b.white] += 1;
        match b.black {
            None => {
                byes += 1;
                assert!(
                    profiles[b.white].bye_eligible,
                    "{label}: a second bye for {}",
                    b.white + 1
                );
            }
            Some(black) => {
                seen[black] += 1;
                let met = field.players[b.white]
                    .matches
                    .iter()
                    .any(|m| m.played && m.opponent == Some(black));
                assert!(
                    !met,
                    "{label}: {} and {} meet again",
                    b.white + 1,
                    black + 1
                );
                let (pw, pb) = (&profiles[b.white], &profiles[black]);
                if pw.absolute() && pb.absolute() && pw.preference == pb.preference {
                    assert!(
                        topscorer(b.white) || topscorer(black),
                        "{label}: {} and {} share an absolute colour preference",
                        b.white + 1,
                        black + 1
                    );
                }
                for (p, got) in [(b.white, Colour::White), (black, Colour::Black)] {
                    // Topscorers' opponents may be denied too (C10, C11).
                    if profiles[p].absolute() && !topscorer(b.white) && !topscorer(black) {
                        assert_eq!(
                            profiles[p].preference,
                            Some(got),
                            "{label}: {} denied",
                            p + 1
                        );
                    }
                }
            }
        }
    }
    assert!(byes <= 1, "{label}: {byes} byes");
    for &i in &present {
        assert_eq!(
            seen[i],
            1,
            "{label}: player {} on {} boards",
            i + 1,
            seen[i]
        );
    }
    assert_eq!(boards.len() * 2 - byes, present.len());
}

/// Plays one tournament; returns the number of rounds paired.
fn play(seed: u64, players: u32, rounds: u32, edition: Edition) -> u32 {
    let mut rng = Rng(seed | 1);
    let mut trf = new_tournament(&mut rng, players, rounds);
    let mut withdrawn = vec![false; players as usize];
    for round in 1..=rounds {
        let label = format!("{edition:?} seed {seed}, {players} players, round {round}");
        // Absences announced before the pairing: withdrawals and requested byes.
        for (i, p) in trf.players.iter_mut().enumerate() {
            if !withdrawn[i] && round > 1 && rng.chance(2) {
                withdrawn[i] = true;
            }
            let code = if withdrawn[i] {
                Some(Code::ZeroBye)
            } else if round < rounds && rng.chance(4) {
                Some(if rng.chance(50) {
                    Code::HalfBye
                } else {
                    Code::ZeroBye
                })
            } else {
                None
            };
            p.results.resize(round as usize - 1, None);
            if let Some(code) = code {
                p.results.push(Some(RoundEntry {
                    opponent: None,
                    colour: None,
                    code,
                }));
            }
        }
        let field = Field::for_next_round(&trf).unwrap_or_else(|e| panic!("{label}: {e}"));
        let started = std::time::Instant::now();
        let paired = dutch::pair_edition(&field, edition);
        if std::env::var_os("VIZIER_PAIR_TIMES").is_some() {
            eprintln!("{label}: {:.3} s", started.elapsed().as_secs_f64());
        }
        let boards = match paired {
            Ok(boards) => boards,
            Err(dutch::PairError::NoPairing) => return round - 1,
            Err(e) => panic!("{label}: {e}"),
        };
        check_round(&field, &boards, &label);
        if std::env::var_os("VIZIER_PAIR_DUMP").is_some() {
            eprintln!("{label}: {boards:?}");
        }

        // The same boards from the file written and read back, in both versions.
        for version in [Version::Trf2026, Version::Trf16] {
            let again = Trf::parse(&trf.write(version)).expect("our own file reads back");
            let field2 = Field::for_next_round(&again).expect("and pairs");
            assert_eq!(
                dutch::pair_edition(&field2, edition).unwrap(),
                boards,
                "{label}: {version:?} differs"
            );
        }

        // Results, with a few forfeits.
        for b in &boards {
            let w = b.white;
            match b.black {
                None => {
                    trf.players[w].results.push(Some(RoundEntry {
                        opponent: None,
                        colour: None,
                        code: Code::PairingBye,
                    }));
                }
                Some(k) => {
                    let (cw, ck) = if rng.chance(3) {
                        if rng.chance(50) {
                            (Code::ForfeitWin, Code::ForfeitLoss)
                        } else {
                            (Code::ForfeitLoss, Code::ForfeitWin)
                        }
                    } else {
                        match rng.below(3) {
                            0 => (Code::Win, Code::Loss),
                            1 => (Code::Draw, Code::Draw),
                            _ => (Code::Loss, Code::Win),
                        }
                    };
                    let (iw, ik) = (w as u32 + 1, k as u32 + 1);
                    trf.players[w].results.push(Some(RoundEntry {
                        opponent: Some(ik),
                        colour: Some(Colour::White),
                        code: cw,
                    }));
                    trf.players[k].results.push(Some(RoundEntry {
                        opponent: Some(iw),
                        colour: Some(Colour::Black),
                        code: ck,
                    }));
                }
            }
        }
        for p in &mut trf.players {
            p.results.resize(round as usize, None);
            p.points = Points(p.results.iter().flatten().map(|e| points(e.code)).sum());
        }
        check_standings(&trf, &label);
    }
    rounds
}

/// Every tie-break over the round's file: ranked by points first, cuts never add, values
/// where there are games, the same table from the file read back.
fn check_standings(trf: &Trf, label: &str) {
    let list = parse_list(
        "DE BH BH/C1 BH/M1 FB SB SB/C1 AOB KS WIN WON BPG BWG PS PS/C1 REP STD TPN ARO \
         ARO/C1 TPR PTP APRO APPO RTNG",
    )
    .unwrap();
    let table = standings(trf, &list).unwrap_or_else(|e| panic!("{label}: {e}"));
    assert_eq!(table.rows.len(), trf.players.len(), "{label}");
    let at = |name: &str| table.columns.iter().position(|c| c == name).unwrap();
    let value = |row: &vizier_pairing::tiebreak::Row, name: &str| {
        row.values[at(name)].map(|v| v.hundredths)
    };
    for pair in table.rows.windows(2) {
        assert!(pair[0].rank <= pair[1].rank, "{label}: ranks out of order");
        assert!(
            value(&pair[0], "PTS") >= value(&pair[1], "PTS"),
            "{label}: points"
        );
    }
    for row in &table.rows {
        let player = &trf.players[row.id as usize - 1];
        assert_eq!(
            value(row, "PTS"),
            Some(10 * player.points.0 as i64),
            "{label}"
        );
        assert!(
            value(row, "BH/C1") <= value(row, "BH"),
            "{label}: a cut added"
        );
        assert!(
            value(row, "BH/M1") <= value(row, "BH/C1"),
            "{label}: a cut added"
        );
        assert!(value(row, "WON") <= value(row, "WIN"), "{label}");
        assert!(value(row, "BWG") <= value(row, "BPG"), "{label}");
        let opponents: Vec<i64> = player
            .results
            .iter()
            .flatten()
            .filter(|e| matches!(e.code, Code::Win | Code::Draw | Code::Loss))
            .filter_map(|e| e.opponent)
            .map(|o| 100 * trf.players[o as usize - 1].rating as i64)
            .collect();
        let has = |name: &str| value(row, name).is_some();
        assert_eq!(
            has("TPR"),
            !opponents.is_empty(),
            "{label}: TPR of {}",
            row.id
        );
        if let Some(ptp) = value(row, "PTP") {
            let low = opponents.iter().min().unwrap() - 80_000;
            let high = opponents.iter().max().unwrap() + 80_000;
            assert!(
                (low..=high).contains(&ptp),
                "{label}: PTP {ptp} of {}",
                row.id
            );
        }
        if value(row, "DE") != Some(0) {
            let tied = table
                .rows
                .iter()
                .filter(|r| value(r, "PTS") == value(row, "PTS"));
            assert!(tied.count() > 1, "{label}: direct encounter without a tie");
        }
    }
    let again = Trf::parse(&trf.write(Version::Trf2026)).unwrap();
    assert_eq!(
        standings(&again, &list).unwrap(),
        table,
        "{label}: read back"
    );
}

/// `count` tournaments of 8–40 players and 5–11 rounds; the rounds paired in all.
fn play_small(count: u64, spread: u64, seed: impl Fn(u64) -> u64, edition: Edition) -> u32 {
    (0..count)
        .map(|k| {
            let players = 8 + (k * spread % 33) as u32;
            let rounds = 5 + (k % 7) as u32;
            play(seed(k), players, rounds, edition)
        })
        .sum()
}

#[test]
fn small_random_tournaments_keep_the_absolute_criteria_2017() {
    let paired = play_small(40, 11, |k| k * 6151 + 5, Edition::E2017);
    assert!(paired > 200, "only {paired} rounds paired");
}

#[test]
fn small_random_tournaments_keep_the_absolute_criteria() {
    let paired = play_small(60, 7, |k| k * 7919 + 1, Edition::E2026);
    assert!(paired > 300, "only {paired} rounds paired");
}

/// `VIZIER_PAIR_TIMES=1 cargo test -p vizier-pairing --release --test random_tournaments
/// two_hundred -- --ignored --nocapture` prints each round's time.
#[test]
#[ignore = "slow: a large field"]
fn two_hundred_players_nine_rounds() {
    play(4242, 200, 9, Edition::E2026);
    play(4242, 200, 9, Edition::E2017);
}

#[test]
#[ignore = "slow: large fields"]
fn large_random_tournaments_keep_the_absolute_criteria() {
    for seed in 0..6u64 {
        for edition in [Edition::E2026, Edition::E2017] {
            play(
                seed * 104_729 + 3,
                100 + seed as u32 * 20,
                9 + (seed % 3) as u32,
                edition,
            );
        }
    }
}
