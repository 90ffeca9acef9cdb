use super::*;

const SAMPLE: &str = "012 Dutch 2025 C5 test\n\
001    1      Test0001 Player0001               2720                             2.0    1     4 w 1     2 b 1\n\
001    2      Test0002 Player0002               2701                             1.0    3     5 b 1     1 w 0\n\
001    3      Test0003 Player0003               2697                             2.0    2     6 w 1     4 b 1\n\
001    4      Test0004 Player0004               2689                             0.0    5     1 b 0     3 w 0  0000 - Z\n\
001    5      Test0005 Player0005               2673                             1.0    4     2 w 0     6 b 1\n\
001    6      Test0006 Player0006               2664                             0.0    6     3 b 0     5 w 0\n\
XXR 3\n";

#[test]
fn reads_players_and_rounds() {
    let trf = Trf::parse(SAMPLE).unwrap();
    assert_eq!(trf.players.len(), 6);
    assert_eq!(trf.rounds, Some(3));
    let four = &trf.players[3];
    assert_eq!(four.rating, 2689);
    assert_eq!(four.name, "Test0004 Player0004");
    assert_eq!(four.results.len(), 3);
    assert_eq!(
        four.results[2],
        Some(RoundEntry {
            opponent: None,
            colour: None,
            code: Code::ZeroBye
        })
    );
    assert_eq!(
        four.results[0],
        Some(RoundEntry {
            opponent: Some(1),
            colour: Some(Colour::Black),
            code: Code::Loss
        })
    );
}

#[test]
fn writes_what_it_reads_in_both_versions() {
    let mut trf = Trf::parse(SAMPLE).unwrap();
    trf.initial_colour = Some(Colour::Black);
    trf.points_given = true;
    trf.points.draw = Points(4);
    trf.forbidden.push(Forbidden {
        rounds: Some((2, 3)),
        players: vec![1, 6],
    });
    trf.absences.push(Absence {
        kind: 'H',
        round: 3,
        players: vec![2, 5],
    });
    for version in [Version::Trf16, Version::Trf2026] {
        let text = trf.write(version);
        let again = Trf::parse(&text).unwrap();
        assert_eq!(again.players, trf.players, "{version:?}");
        assert_eq!(again.rounds, trf.rounds);
        assert_eq!(again.initial_colour, trf.initial_colour);
        assert_eq!(again.points, trf.points);
        assert_eq!(again.absences, trf.absences);
        if version == Version::Trf2026 {
            assert_eq!(again.forbidden, trf.forbidden);
        }
    }
}

#[test]
fn bad_lines_say_where_and_why() {
    let good = SAMPLE.lines().nth(1).unwrap();
    let bad = good.replacen("4 w 1", "4 x 1", 1);
    let err = Trf::parse(&format!("012 x\r{bad}\r")).unwrap_err();
    assert_eq!(err.line, 2);
    assert!(err.reason.contains("colour"), "{err}");
    assert!(Trf::parse("001 short\r").is_err());
    assert!(Trf::parse("XXR 0\r").is_err());
}

#[test]
fn never_panics_on_noise() {
    let mut seed = 7u64;
    let alphabet: Vec<char> = "0123456789 wb-=+WDLHFUZ.\r\nXR0A1é".chars().collect();
    for _ in 0..2000 {
        let mut s = String::from("001");
        for _ in 0..(seed % 160) {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            s.push(alphabet[(seed >> 33) as usize % alphabet.len()]);
        }
        let _ = Trf::parse(&s);
        let _ = Trf::parse(&s[3..]);
    }
}
