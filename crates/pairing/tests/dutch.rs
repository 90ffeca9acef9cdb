//! The Dutch system on worked cases.

use vizier_pairing::dutch;
use vizier_pairing::field::Field;
use vizier_pairing::trf::Trf;

fn pair(text: &str) -> String {
    let trf = Trf::parse(text).expect("a valid file");
    let field = Field::for_next_round(&trf).expect("a round to pair");
    let boards = dutch::pair(&field).expect("a pairing");
    dutch::engine_output(&field, &boards)
}

/// C5 (2026): the bye goes to the lowest score possible, here the 0-point player rather
/// than one of the 1-point players of the odd bracket above.
#[test]
fn the_bye_goes_to_the_lowest_score_c5() {
    assert_eq!(pair(include_str!("data/c5.trf")), "3\n1 5\n3 2\n6 0\n");
}

/// C9 (2026): among the 0-point players the bye goes to one who has played every round.
#[test]
fn the_bye_goes_to_a_player_with_fewest_unplayed_games_c9() {
    assert_eq!(pair(include_str!("data/c9.trf")), "3\n2 1\n3 5\n4 0\n");
}

/// The 2017 text has no C5: completing the round through the penultimate bracket leaves
/// the bye in the odd 1-point bracket, as JaVaFo (2017 rules) pairs this file.
#[test]
fn the_2017_edition_has_no_bye_score_rule() {
    let trf = Trf::parse(include_str!("data/c5.trf")).unwrap();
    let field = Field::for_next_round(&trf).unwrap();
    let boards = dutch::pair_edition(&field, dutch::Edition::E2017).unwrap();
    let bye = boards.iter().find(|b| b.black.is_none()).unwrap();
    assert_eq!(
        field.players[bye.white].score.0,
        10,
        "{}",
        dutch::engine_output(&field, &boards)
    );
}
