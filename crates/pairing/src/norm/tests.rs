use super::*;
use crate::berger;

struct P {
    title: &'static str,
    fed: &'static str,
    rating: u32,
    sex: char,
}

/// The other side's code of a result.
fn mirror(code: char) -> char {
    match code {
        '1' => '0',
        '0' => '1',
        '+' => '-',
        '-' => '+',
        c => c,
    }
}

/// A round robin by the Berger table, `result(white, black)` giving White's code.
fn round_robin(players: &[P], result: impl Fn(u32, u32) -> char) -> Trf {
    let n = players.len() as u32;
    let rounds = berger::schedule(n, false);
    let mut lines: Vec<Vec<String>> = vec![Vec::new(); players.len()];
    let mut points = vec![0u32; players.len()];
    for round in &rounds {
        for &(w, b) in round {
            let code = result(w, b);
            for (me, other, colour, mine) in [(w, b, 'w', code), (b, w, 'b', mirror(code))] {
                points[me as usize - 1] += match mine {
                    '1' | '+' => 10,
                    '=' => 5,
                    _ => 0,
                };
                lines[me as usize - 1].push(format!("  {other:>4} {colour} {mine}"));
            }
        }
    }
    let mut text = format!("012 Norm test\n142 {}\n", rounds.len());
    for (i, p) in players.iter().enumerate() {
        let pts = format!("{}.{}", points[i] / 10, points[i] % 10);
        text += &format!(
            "001 {:>4} {}{:<3} {:<33} {:>4} {:<3} {:>11} {:10} {pts:>4} {:>4}{}\n",
            i + 1,
            p.sex,
            p.title,
            format!("Player {}", i + 1),
            p.rating,
            p.fed,
            "",
            "",
            "",
            lines[i].concat()
        );
    }
    Trf::parse(&text).unwrap()
}

/// Ten players: 1 untitled (GER, 2400); 2–4 GMs, 5–7 IMs, 8–10 FMs, rated 2450, of four
/// other federations.
fn field() -> Vec<P> {
    let titles = ["", "g", "g", "g", "m", "m", "m", "f", "f", "f"];
    let feds = [
        "GER", "USA", "FRA", "ESP", "USA", "FRA", "ESP", "NED", "NED", "USA",
    ];
    (0..10)
        .map(|i| P {
            title: titles[i],
            fed: feds[i],
            rating: if i == 0 { 2400 } else { 2450 },
            sex: 'm',
        })
        .collect()
}

/// Player 1 draws with 2 and 3, beats 4–9, loses to 10 (7/9); the others draw.
fn seven_of_nine(w: u32, b: u32) -> char {
    let of_one = |other: u32| match other {
        2 | 3 => '=',
        10 => '0',
        _ => '1',
    };
    match (w, b) {
        (1, other) => of_one(other),
        (other, 1) => mirror(of_one(other)),
        _ => '=',
    }
}

#[test]
fn a_gm_norm_by_performance_titles_and_federations() {
    let report = norms(&round_robin(&field(), seven_of_nine)).unwrap();
    let first = &report.players[0];
    assert_eq!((first.games, first.score), (9, 700));
    let gm = &first.checks[0];
    assert_eq!(gm.title, NormTitle::Gm);
    // 7/9 is 78 %: dp 220 over the average of 2450.
    assert_eq!((gm.average, gm.performance), (2450, 2670));
    assert!(gm.reached(), "{:?}", gm.shortfalls);
    assert_eq!(first.best(), Some(NormTitle::Gm));
    // No women's norms for a man.
    assert_eq!(first.checks.len(), 2);
    assert!(!report.federations_exempt);
}

#[test]
fn only_norms_above_the_title_held_are_checked() {
    let report = norms(&round_robin(&field(), seven_of_nine)).unwrap();
    // A GM has none left; an IM only the GM norm; an FM the GM and IM norms.
    assert!(report.players[1].checks.is_empty());
    let titles =
        |p: usize| -> Vec<NormTitle> { report.players[p].checks.iter().map(|c| c.title).collect() };
    assert_eq!(titles(4), [NormTitle::Gm]);
    assert_eq!(titles(7), [NormTitle::Gm, NormTitle::Im]);
    let mut woman = field();
    woman[0].sex = 'w';
    let report = norms(&round_robin(&woman, seven_of_nine)).unwrap();
    let titles: Vec<_> = report.players[0].checks.iter().map(|c| c.title).collect();
    assert_eq!(titles, NormTitle::ALL);
    assert!(report.players[0].checks.iter().all(NormCheck::reached));
}

#[test]
fn federations_limit_the_opponents_mix() {
    let mut players = field();
    for p in &mut players {
        p.fed = "USA";
    }
    let report = norms(&round_robin(&players, seven_of_nine)).unwrap();
    let gm = &report.players[0].checks[0];
    assert_eq!(
        gm.shortfalls,
        [
            Shortfall::ForeignFederations { have: 0 },
            Shortfall::OwnFederation { have: 9, most: 5 },
            Shortfall::OneFederation { have: 9, most: 6 },
        ]
    );
    // FIDE's own flag counts as no federation.
    for p in &mut players[1..] {
        p.fed = "FID";
    }
    let gm = &norms(&round_robin(&players, seven_of_nine))
        .unwrap()
        .players[0]
        .checks[0];
    assert_eq!(gm.shortfalls, [Shortfall::ForeignFederations { have: 0 }]);
}

#[test]
fn one_opponent_only_is_raised_to_the_floor() {
    let mut players = field();
    players[8].rating = 1800;
    players[9].rating = 1900;
    let report = norms(&round_robin(&players, seven_of_nine)).unwrap();
    let [gm, im] = &report.players[0].checks[..] else {
        panic!("two norms open")
    };
    // GM: 1800 counts at 2200, 1900 stays: (7 × 2450 + 2200 + 1900) / 9 = 2361.1.
    assert_eq!(gm.average, 2361);
    assert!(gm.shortfalls.contains(&Shortfall::Average {
        have: 2361,
        need: 2380
    }));
    // IM: the floor is 2050: (7 × 2450 + 2050 + 1900) / 9 = 2344.4; 78 % gives 2564.
    assert_eq!((im.average, im.performance), (2344, 2564));
    assert!(im.reached());
}

#[test]
fn a_third_of_the_opponents_must_hold_the_norms_title() {
    let mut players = field();
    players[3].title = "m";
    let report = norms(&round_robin(&players, seven_of_nine)).unwrap();
    let first = &report.players[0];
    assert_eq!(
        first.checks[0].shortfalls,
        [Shortfall::Titled { have: 2, need: 3 }]
    );
    assert_eq!(first.best(), Some(NormTitle::Im));
    // Half the opponents must hold a title: CMs do not count.
    for p in &mut players[4..] {
        p.title = "c";
    }
    let report = norms(&round_robin(&players, seven_of_nine)).unwrap();
    assert!(
        report.players[0].checks[1]
            .shortfalls
            .contains(&Shortfall::TitleHolders { have: 3, need: 5 })
    );
}

#[test]
fn forfeits_are_not_games_but_an_unrequested_one_is_allowed() {
    let forfeit = |code: char| {
        move |w: u32, b: u32| match (w, b) {
            (1, 10) => code,
            (10, 1) => mirror(code),
            _ => seven_of_nine(w, b),
        }
    };
    // Won by forfeit against 10: eight games (7/8) and the unplayed round not asked for.
    let report = norms(&round_robin(&field(), forfeit('+'))).unwrap();
    let first = &report.players[0];
    assert_eq!((first.games, first.score), (8, 700));
    assert!(
        first.checks[0].reached(),
        "{:?}",
        first.checks[0].shortfalls
    );
    // Lost by forfeit: eight games are too few.
    let report = norms(&round_robin(&field(), forfeit('-'))).unwrap();
    assert!(
        report.players[0].checks[0]
            .shortfalls
            .contains(&Shortfall::Games { played: 8 })
    );
}

#[test]
fn unrated_opponents_count_at_1400_and_at_most_a_fifth() {
    let mut players = field();
    players[9].rating = 0;
    players[8].rating = 0;
    let report = norms(&round_robin(&players, seven_of_nine)).unwrap();
    let gm = &report.players[0].checks[0];
    // 1400 raised to the floor once: (7 × 2450 + 2200 + 1400) / 9 = 2305.6.
    assert_eq!(gm.average, 2306);
    assert!(
        gm.shortfalls
            .contains(&Shortfall::Unrated { have: 2, most: 1 })
    );
}

#[test]
fn an_unrated_round_robin_player_without_a_point_against_the_rated_is_not_an_opponent() {
    let mut players = field();
    players[9].rating = 0;
    // Player 10 loses every game.
    let report = norms(&round_robin(&players, |w, b| match (w, b) {
        (10, _) => '0',
        (_, 10) => '1',
        _ => seven_of_nine(w, b),
    }))
    .unwrap();
    assert_eq!(report.players[0].games, 8);
    assert_eq!(report.players[0].score, 700);
}

#[test]
fn a_strong_international_swiss_frees_norms_from_the_federation_rules() {
    let feds = ["USA", "FRA", "IND"];
    let mut text = String::from("012 Open\n032 ESP\n142 9\n192 Swiss Dutch\n");
    for i in 1..=24u32 {
        let title = if i <= 10 { "g" } else { "" };
        let fed = feds[i as usize % 3];
        text += &format!(
            "001 {i:>4} m{title:<3} {:<33} 2500 {fed:<3} {:>11} {:10}  0.0 {i:>4}\n",
            format!("Player {i}"),
            "",
            ""
        );
    }
    let report = norms(&Trf::parse(&text).unwrap()).unwrap();
    assert!(report.federations_exempt);
    // Without the host federation named, no exemption.
    let text = text.replace("032 ESP\n", "");
    assert!(
        !norms(&Trf::parse(&text).unwrap())
            .unwrap()
            .federations_exempt
    );
}

#[test]
fn the_report_prints_a_line_a_player() {
    let report = norms(&round_robin(&field(), seven_of_nine)).unwrap();
    let text = report.to_string();
    let first = text.lines().next().unwrap();
    assert!(first.contains("GM norm (Ra 2450 Rp 2670): yes"), "{first}");
    assert!(first.contains("IM norm"), "{first}");
    assert_eq!(text.lines().count(), 10);
}
