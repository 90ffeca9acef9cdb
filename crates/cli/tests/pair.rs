//! `vizier pair` as a checker runs it: the output format and the exit statuses.

use std::process::Command;

fn vizier_pair(text: &str) -> (i32, String, String) {
    vizier_pair_with(text, &[])
}

fn vizier_pair_with(text: &str, flags: &[&str]) -> (i32, String, String) {
    let dir =
        std::env::temp_dir().join(format!("vizier-pair-{}-{}", std::process::id(), text.len()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("t.trf");
    std::fs::write(&file, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_vizier"))
        .arg("pair")
        .args(flags)
        .arg(&file)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

const PLAYED: &str = "001    1      A                                 2700                             1.0    1     2 w 1\r\
001    2      B                                 2600                             0.0    2     1 b 0\r\
001    3      C                                 2500                             1.0    3  0000 - U\r";

#[test]
fn prints_pairs_then_the_bye() {
    let (code, out, _) = vizier_pair(&format!("XXR 3\r{PLAYED}"));
    assert_eq!(code, 0);
    // 1 and 3 lead on a point; 2 gets the bye; 3 had no game and takes White from 1.
    assert_eq!(out, "2\n3 1\n2 0\n");
}

#[test]
fn no_pairing_exits_1_with_a_reason() {
    let text = "XXR 2\r\
001    1      A                                 2700                             1.0    1     2 w 1\r\
001    2      B                                 2600                             0.0    2     1 b 0\r";
    let (code, out, err) = vizier_pair(text);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.contains("absolute criteria"), "{err}");
}

#[test]
fn a_bad_file_exits_3_naming_the_line() {
    let (code, _, err) = vizier_pair("XXR 3\r001 1 broken\r");
    assert_eq!(code, 3);
    assert!(err.contains("line 2"), "{err}");
    let (code, _, err) = vizier_pair(PLAYED);
    assert_eq!(code, 3);
    assert!(err.contains("number of rounds"), "{err}");
}

#[test]
fn the_edition_is_chosen_by_flag() {
    let text = include_str!("../../pairing/tests/data/c5.trf");
    assert_eq!(
        vizier_pair_with(text, &["--edition", "2026"]).1,
        "3\n1 5\n3 2\n6 0\n"
    );
    let (code, out, _) = vizier_pair_with(text, &["--edition", "2017"]);
    assert_eq!(code, 0);
    assert!(
        !out.ends_with("6 0\n"),
        "2017 has no rule sending the bye to the lowest score: {out}"
    );
}

#[test]
fn tiebreaks_print_the_standings() {
    // Pairing would refuse this file: its one round is played. Standings need no more.
    let (code, out, err) =
        vizier_pair_with(&format!("XXR 1\r{PLAYED}"), &["--tiebreaks", "BH,WIN"]);
    assert_eq!(code, 0, "{err}");
    // 3's bye counts as a dummy opponent on 3's own point, capped at half the rounds' 0.5.
    assert_eq!(
        out,
        "Rank  No  PTS   BH  WIN  Name\n\
         \x20  1   3  1.0  0.5    1  C\n\
         \x20  2   1  1.0  0.0    1  A\n\
         \x20  3   2  0.0  1.0    0  B\n"
    );
}

#[test]
fn tiebreaks_come_from_the_file_when_the_list_is_empty() {
    let text = format!("212 PTS BH\r{PLAYED}");
    let (code, out, _) = vizier_pair_with(&text, &["--tiebreaks", ""]);
    assert_eq!(code, 0);
    assert!(out.starts_with("Rank  No  PTS   BH  Name\n"), "{out}");
    let (code, _, err) = vizier_pair_with(PLAYED, &["--tiebreaks", ""]);
    assert_eq!(code, 2);
    assert!(err.contains("lists none"), "{err}");
}

#[test]
fn an_unknown_tiebreak_exits_2() {
    let (code, out, err) = vizier_pair_with(PLAYED, &["--tiebreaks", "BH/C1,XYZ"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("unknown tie-break \"XYZ\""), "{err}");
}

#[test]
fn norms_print_each_players_results() {
    let (code, out, err) = vizier_pair_with(&format!("XXR 1\r{PLAYED}"), &["--norms"]);
    assert_eq!(code, 0, "{err}");
    let first = out.lines().next().unwrap();
    // One game won against 2600: Rp 2600 + 800, but nine games are needed.
    assert!(
        first.contains("GM norm (Ra 2600 Rp 3400): no: 1 games, 9 needed"),
        "{out}"
    );
    assert_eq!(out.lines().count(), 3);
    let (code, _, err) = vizier_pair_with(PLAYED, &["--norms", "--tiebreaks", "BH"]);
    assert_eq!(code, 2, "{err}");
}
