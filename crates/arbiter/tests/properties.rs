//! Property tests: random command streams against the invariants of the arbiter.

use proptest::prelude::*;
use vizier_arbiter::{Claim, Command, Event, Game, Mode, Options, Setup, TimeControl};
use vizier_rules::{Color, Square};

fn setup(control: usize, mode: usize) -> Setup {
    let controls = ["-", "60+1", "30d2", "20b3", "2/30+1:60", "1/86400", "180+2"];
    let modes = [
        Mode::Online,
        Mode::OverTheBoard { supervised: true },
        Mode::OverTheBoard { supervised: false },
    ];
    Setup {
        control: TimeControl::parse_pgn(controls[control % controls.len()]).unwrap(),
        mode: modes[mode % modes.len()],
        options: Options {
            takebacks: true,
            offer_cooldown_moves: 1,
            ..Options::default()
        },
        ..Setup::default()
    }
}

/// Turns random numbers into a command that is sometimes valid and sometimes not.
fn command(game: &Game, action: u8, pick: u16) -> Command {
    let pos = game.position();
    let to_move = pos.turn();
    let other = if pick.is_multiple_of(2) {
        to_move
    } else {
        !to_move
    };
    match action % 20 {
        0..=8 => {
            let moves = pos.legal_moves();
            let mv = if moves.is_empty() {
                "e2e4".to_string()
            } else {
                pos.uci(
                    moves[pick as usize % moves.len()],
                    vizier_rules::UciCastling::KingStep,
                )
            };
            Command::Move { by: to_move, mv }
        }
        9 => {
            // Over the board anything can be done with the pieces: any square to any square.
            let from = Square::new((pick % 64) as u8).unwrap();
            let to = Square::new((pick / 64 % 64) as u8).unwrap();
            let mv = match pick % 7 {
                0 => ["zz", "e2e5", "Nf3", "O-O", "O-O-O", "e1g1", "a7a8"][(pick / 7 % 7) as usize]
                    .to_string(),
                _ => format!("{from}{to}"),
            };
            let by = if pick.is_multiple_of(5) {
                other
            } else {
                to_move
            };
            if pick.is_multiple_of(11) {
                Command::ClaimIllegalMove { by }
            } else {
                Command::Move { by, mv }
            }
        }
        10 => Command::OfferDraw { by: other },
        11 => Command::AcceptDraw { by: other },
        12 => Command::DeclineDraw { by: other },
        13 => {
            let claim = if pick.is_multiple_of(3) {
                Claim::FiftyMoves
            } else {
                Claim::Threefold
            };
            let moves = pos.legal_moves();
            let declared = (pick.is_multiple_of(2) && !moves.is_empty()).then(|| {
                pos.uci(
                    moves[pick as usize % moves.len()],
                    vizier_rules::UciCastling::KingStep,
                )
            });
            Command::ClaimDraw {
                by: other,
                claim,
                declared,
            }
        }
        14 => {
            if pick.is_multiple_of(16) {
                Command::Resign { by: other }
            } else {
                Command::CheckFlag
            }
        }
        15 => Command::Abort { by: other },
        16 => Command::RequestTakeback { by: other },
        17 => Command::AcceptTakeback { by: other },
        18 => match pick % 4 {
            0 => Command::Adjourn,
            1 => Command::Seal {
                by: to_move,
                mv: "e4".into(),
            },
            2 => Command::Resume,
            _ => Command::DeclineTakeback { by: other },
        },
        _ => Command::GiveTime {
            by: other,
            ms: pick as u64 * 10,
        },
    }
}

/// Found by the property below: White asks to take back, Black answers with an illegal move
/// over the board, then agrees. The takeback must be refused, not cross the illegal move.
#[test]
fn a_takeback_asked_before_an_illegal_move_is_refused_after_it() {
    let s = setup(1, 2);
    let mut game = Game::new(s.clone(), 1_000).unwrap();
    for (action, pick) in [(100, 0), (16, 33575), (9, 6843)] {
        let cmd = command(&game, action, pick);
        game.apply(1_000, cmd).unwrap();
    }
    let accept = command(&game, 137, 31879);
    assert!(matches!(accept, Command::AcceptTakeback { .. }));
    let before = game.clone();
    assert_eq!(
        game.apply(1_000, accept),
        Err(vizier_arbiter::CommandError::NoTakeback)
    );
    assert_eq!(game, before);
    assert_eq!(Game::replay(s, 1_000, game.log()).unwrap(), game);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn random_command_streams_keep_the_invariants(
        control in 0usize..7,
        mode in 0usize..3,
        steps in prop::collection::vec((0u64..8_000, any::<u8>(), any::<u16>()), 1..160),
    ) {
        let s = setup(control, mode);
        let mut game = Game::new(s.clone(), 1_000).unwrap();
        let mut now = 1_000;
        let mut game_overs = 0;
        for (dt, action, pick) in steps {
            now += dt;
            let cmd = command(&game, action, pick);
            let before = game.clone();
            match game.apply(now, cmd.clone()) {
                Ok(events) => {
                    game_overs += events.iter().filter(|e| matches!(e, Event::GameOver(_))).count();
                    // A game over is the last event of a command.
                    if let Some(i) = events.iter().position(|e| matches!(e, Event::GameOver(_))) {
                        prop_assert_eq!(i, events.len() - 1);
                    }
                }
                Err(_) => prop_assert_eq!(&game, &before, "a refused command changed the game"),
            }
            match game.outcome() {
                Some(_) => {
                    // A finished game accepts no further moves.
                    let mut probe = game.clone();
                    let to_move = probe.position().turn();
                    let refused = probe.apply(now, Command::Move { by: to_move, mv: "e2e4".into() }).is_err();
                    prop_assert!(refused, "a finished game accepted a move");
                }
                None => {
                    // No undetected flag: a running clock has time left at `now`.
                    if let Some((_, at)) = game.clock().flag_time() {
                        prop_assert!(at > now || game.is_adjourned(), "flag at {} unnoticed at {}", at, now);
                    }
                    for c in Color::ALL {
                        if let (Some(ms), Some(running)) = (game.clock().remaining(c, now), game.clock().running())
                            && running == c
                        {
                            prop_assert!(ms > 0 || game.is_adjourned());
                        }
                    }
                }
            }
        }
        // Exactly one result once over, none before.
        prop_assert_eq!(game_overs, usize::from(game.outcome().is_some()));
        // The log rebuilds the game exactly.
        let replayed = Game::replay(s, 1_000, game.log()).map_err(|(i, e)| TestCaseError::fail(format!("replay failed at {i}: {e}")))?;
        prop_assert_eq!(replayed, game);
    }
}
