//! Tie-breaks against values worked out by hand from the regulations (C.07, Art. 16).

use vizier_pairing::tiebreak::{Rules, Standings, parse_list, standings};
use vizier_pairing::trf::Trf;

/// A `001` record: number, rating, points, then (opponent, colour, result) a round.
fn line(id: u32, rating: u32, points: &str, rounds: &[(u32, char, char)]) -> String {
    let mut text = format!(
        "001 {id:>4}      {:<33} {rating:>4} {:3} {:>11} {:10} {points:>4} {:>4}",
        format!("Player {id}"),
        "",
        "",
        "",
        ""
    );
    for &(opponent, colour, result) in rounds {
        text += &format!("  {opponent:>4} {colour} {result}");
    }
    text + "\n"
}

/// Six players, three rounds: a forfeit (3 over 6), a half-point bye (1), pairing-allocated
/// byes (6, then 5), and 6 gone after round 2.
fn swiss(start: Option<&str>) -> Trf {
    swiss_rating_6(start, 1500)
}

fn swiss_rating_6(start: Option<&str>, rating_6: u32) -> Trf {
    let mut text = String::from("012 Hand-worked Swiss\n092 Individual: Swiss-System\n");
    if let Some(date) = start {
        text += &format!("042 {date}\n");
    }
    text += &[
        line(
            1,
            2000,
            "2.0",
            &[(4, 'w', '1'), (0, '-', 'H'), (3, 'w', '=')],
        ),
        line(
            2,
            1900,
            "1.5",
            &[(5, 'w', '='), (3, 'w', '0'), (4, 'w', '1')],
        ),
        line(
            3,
            1800,
            "2.5",
            &[(6, 'w', '+'), (2, 'b', '1'), (1, 'b', '=')],
        ),
        line(
            4,
            1700,
            "1.0",
            &[(1, 'b', '0'), (5, 'w', '1'), (2, 'b', '0')],
        ),
        line(
            5,
            1600,
            "1.5",
            &[(2, 'b', '='), (4, 'b', '0'), (0, '-', 'U')],
        ),
        line(6, rating_6, "1.0", &[(3, 'b', '-'), (0, '-', 'U')]),
    ]
    .concat();
    Trf::parse(&text).unwrap()
}

/// Column `name` of each player, by pairing number.
fn column(table: &Standings, name: &str) -> Vec<String> {
    let c = table.columns.iter().position(|c| c == name).unwrap();
    let mut rows: Vec<_> = table.rows.iter().collect();
    rows.sort_by_key(|r| r.id);
    rows.iter()
        .map(|r| r.values[c].map_or("-".into(), |v| v.to_string()))
        .collect()
}

fn order(table: &Standings) -> Vec<(usize, u32)> {
    table.rows.iter().map(|r| (r.rank, r.id)).collect()
}

#[test]
fn buchholz_with_unplayed_rounds_2026() {
    let trf = swiss(None);
    let list = parse_list("BH BH/C1 SB FB AOB KS").unwrap();
    let table = standings(&trf, &list).unwrap();
    assert_eq!(table.rules, Rules::R2026);
    assert!(!table.round_robin);
    assert_eq!(
        column(&table, "PTS"),
        ["2.0", "1.5", "2.5", "1.0", "1.5", "1.0"]
    );
    // 1's half-point bye: a dummy with 1's 2.0, capped at 1.5 (half the rounds); 3's
    // forfeit win: capped at 6's adjusted 1.5 (6's round after leaving counts as a draw);
    // 5's bye in the last round: 1.5, its own score.
    assert_eq!(
        column(&table, "BH"),
        ["5.0", "5.0", "5.0", "5.0", "4.0", "3.0"]
    );
    // Cut 1: 1's bye goes first though 4's 1.0 is lower (16.5); 6 loses a dummy.
    assert_eq!(
        column(&table, "BH/C1"),
        ["3.5", "4.0", "3.5", "3.5", "3.0", "2.0"]
    );
    assert_eq!(
        column(&table, "SB"),
        ["3.00", "1.75", "4.00", "1.50", "2.25", "1.00"]
    );
    // The last round as draws for all paired in it; 6, not paired, keeps its draw.
    assert_eq!(
        column(&table, "FB"),
        ["5.5", "5.5", "4.5", "4.5", "4.0", "3.0"]
    );
    assert_eq!(
        column(&table, "AOB"),
        ["5.00", "4.67", "5.00", "4.67", "5.00", "-"]
    );
    // Against opponents with at least 1.5 of 3.
    assert_eq!(
        column(&table, "KS"),
        ["0.5", "0.5", "1.5", "1.0", "0.5", "0.0"]
    );
    assert_eq!(
        order(&table),
        [(1, 3), (2, 1), (3, 2), (4, 5), (5, 4), (6, 6)]
    );
}

#[test]
fn dummy_opponents_uncapped_before_march_2026() {
    let table = standings(&swiss(Some("2025/10/04")), &parse_list("BH").unwrap()).unwrap();
    assert_eq!(table.rules, Rules::R2024);
    assert_eq!(
        column(&table, "BH"),
        ["5.5", "5.0", "6.0", "5.0", "4.0", "3.0"]
    );
}

#[test]
fn own_results() {
    let list = parse_list("WIN WON BPG BWG REP GE PS PS/C1 STD TPN").unwrap();
    let table = standings(&swiss(None), &list).unwrap();
    assert_eq!(column(&table, "WIN"), ["1", "1", "2", "1", "1", "1"]);
    assert_eq!(column(&table, "WON"), ["1", "1", "1", "1", "0", "0"]);
    assert_eq!(column(&table, "BPG"), ["0", "0", "2", "2", "2", "0"]);
    assert_eq!(column(&table, "BWG"), ["0", "0", "1", "0", "0", "0"]);
    assert_eq!(column(&table, "REP"), ["2", "3", "3", "3", "3", "1"]);
    assert_eq!(column(&table, "GE"), column(&table, "REP"));
    assert_eq!(
        column(&table, "PS"),
        ["4.5", "2.5", "5.5", "2.0", "2.5", "2.0"]
    );
    assert_eq!(
        column(&table, "PS/C1"),
        ["3.5", "2.0", "4.5", "2.0", "2.0", "2.0"]
    );
    assert_eq!(column(&table, "STD"), column(&table, "PTS"));
    assert_eq!(column(&table, "TPN"), ["1", "2", "3", "4", "5", "6"]);
}

#[test]
fn ratings_and_performances() {
    let list = parse_list("ARO ARO/C1 TPR PTP APRO RTNG").unwrap();
    let table = standings(&swiss(None), &list).unwrap();
    // Games only: 1 met 1700 and 1800; 4 met 2000, 1600, 1900 (5500 / 3 = 1833.3).
    assert_eq!(
        column(&table, "ARO"),
        ["1750", "1700", "1950", "1833", "1800", "-"]
    );
    assert_eq!(
        column(&table, "ARO/C1"),
        ["1800", "1750", "2000", "1950", "1900", "-"]
    );
    // 75 % is +193, 50 % 0, 33 % -125, 25 % -193.
    assert_eq!(
        column(&table, "TPR"),
        ["1943", "1700", "2143", "1708", "1607", "-"]
    );
    assert_eq!(
        column(&table, "RTNG"),
        ["2000", "1900", "1800", "1700", "1600", "1500"]
    );
    // The opponents' TPRs: 1 met 4 (1708) and 3 (2143).
    assert_eq!(column(&table, "APRO")[0], "1926");
    let ptp = column(&table, "PTP");
    assert_eq!(ptp[5], "-");
    assert!(ptp[0].parse::<i32>().unwrap() > 1750);
}

#[test]
fn unrated_players_void_rating_tiebreaks_unless_rated_by_modifier() {
    // Player 6 (no games) unrated: every ARO is void, unless /U gives a rating.
    let trf = swiss_rating_6(None, 0);
    assert_eq!(trf.players[5].rating, 0);
    let table = standings(&trf, &parse_list("ARO ARO/U1000").unwrap()).unwrap();
    assert_eq!(column(&table, "ARO"), ["-"; 6]);
    assert_eq!(column(&table, "ARO/U1000")[0], "1750");
}

/// Four players, Berger tables: 2 beat 1, both finish on 2 points.
fn round_robin() -> Trf {
    let text = [
        line(
            1,
            2100,
            "2.0",
            &[(4, 'w', '1'), (2, 'w', '0'), (3, 'b', '1')],
        ),
        line(
            2,
            2000,
            "2.0",
            &[(3, 'w', '1'), (1, 'b', '1'), (4, 'w', '0')],
        ),
        line(
            3,
            1900,
            "0.5",
            &[(2, 'b', '0'), (4, 'b', '='), (1, 'w', '0')],
        ),
        line(
            4,
            1800,
            "1.5",
            &[(1, 'b', '0'), (3, 'w', '='), (2, 'b', '1')],
        ),
    ]
    .concat();
    Trf::parse(&text).unwrap()
}

#[test]
fn direct_encounter_in_a_round_robin() {
    let table = standings(&round_robin(), &parse_list("DE SB").unwrap()).unwrap();
    assert!(table.round_robin);
    assert_eq!(order(&table), [(1, 2), (2, 1), (3, 4), (4, 3)]);
    // Placed within the tie; 0 where there was no tie to break.
    assert_eq!(column(&table, "DE"), ["2", "1", "0", "0"]);
    assert_eq!(column(&table, "SB"), ["2.00", "2.50", "0.75", "2.25"]);
    // Sonneborn–Berger first ranks the same way here.
    let table = standings(&round_robin(), &parse_list("SB DE").unwrap()).unwrap();
    assert_eq!(column(&table, "DE"), ["0", "0", "0", "0"]);
    // Reversed, the lower value goes first.
    let table = standings(&round_robin(), &parse_list("DE/R").unwrap()).unwrap();
    assert_eq!(order(&table)[0], (1, 1));
}

#[test]
fn direct_encounter_waits_while_a_tied_player_could_still_catch_up() {
    // Swiss: 1 beat 2, 3 met neither; all three on 1.0 after two rounds (4 beat 3, lost to 2).
    let text = [
        "092 Swiss\n".to_string(),
        line(1, 2000, "1.0", &[(2, 'w', '1'), (4, 'b', '0')]),
        line(2, 1900, "1.0", &[(1, 'b', '0'), (3, 'w', '1')]),
        line(3, 1800, "1.0", &[(4, 'w', '1'), (2, 'b', '0')]),
        line(4, 1700, "1.0", &[(3, 'b', '0'), (1, 'w', '1')]),
    ]
    .concat();
    let table = standings(&Trf::parse(&text).unwrap(), &parse_list("DE").unwrap()).unwrap();
    assert!(!table.round_robin);
    // Every one met two of the three others they are tied with: 1 has 1 of 2 played and
    // could be caught by 4 (1 and a game to come): nobody is separated.
    assert!(column(&table, "DE").iter().all(|v| v == "0"));
    assert!(table.rows.iter().all(|r| r.rank == 1));
}

#[test]
fn bad_lists_are_refused_with_the_reason() {
    assert_eq!(
        parse_list("BH, XX").unwrap_err().to_string(),
        "unknown tie-break \"XX\" (known: PTS DE WIN WON BPG BWG PS REP STD TPN BH AOB FB SB \
         KS ARO TPR PTP APRO APPO RTNG)"
    );
    assert_eq!(
        parse_list("WIN/C1").unwrap_err().to_string(),
        "WIN: the modifier /C1 does not apply to it"
    );
}

#[test]
fn the_table_prints_in_columns() {
    let table = standings(&round_robin(), &parse_list("DE").unwrap()).unwrap();
    let text = table.to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "Rank  No  PTS  DE  Name");
    assert_eq!(lines[1], "   1   2  2.0   1  Player 2");
    assert_eq!(lines[4], "   4   3  0.5   0  Player 3");
}
