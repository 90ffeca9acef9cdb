//! One scenario per Law: timestamped commands in, expected events and result out.

use vizier_arbiter::{
    Charge, Claim, Clock, ClockStart, Command, CommandError, Event, Game, GameResult, Mode,
    Options, Reason, Setup, StartPosition, TimeControl,
};
use vizier_rules::Color::{self, Black, White};

fn setup(fen: Option<&str>, control: &str) -> Setup {
    Setup {
        start: fen.map_or(StartPosition::Standard, |f| StartPosition::Fen(f.into())),
        control: TimeControl::parse_pgn(control).unwrap(),
        ..Setup::default()
    }
}

fn mv(game: &mut Game, at: u64, by: Color, m: &str) -> Vec<Event> {
    game.apply(at, Command::Move { by, mv: m.into() })
        .unwrap_or_else(|e| panic!("{m}: {e}"))
}

/// Plays SAN moves alternately starting with the side to move, one second apart from `t0`.
fn play(game: &mut Game, t0: u64, moves: &str) -> u64 {
    let mut t = t0;
    for m in moves.split_whitespace() {
        t += 1_000;
        let by = game.position().turn();
        mv(game, t, by, m);
    }
    t
}

fn ended(game: &Game) -> (GameResult, Reason) {
    let o = game.outcome().expect("game over");
    (o.result, o.reason)
}

#[test]
fn checkmate_5_1_1() {
    let mut g = Game::new(setup(None, "-"), 0).unwrap();
    play(&mut g, 0, "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7");
    assert_eq!(ended(&g), (GameResult::WhiteWins, Reason::Checkmate));
    assert_eq!(
        g.outcome().unwrap().to_string(),
        "1–0 · checkmate · Art. 5.1.1"
    );
}

#[test]
fn resignation_5_1_2_always_loses() {
    let mut g = Game::new(setup(None, "-"), 0).unwrap();
    g.apply(5, Command::Resign { by: White }).unwrap();
    assert_eq!(ended(&g), (GameResult::BlackWins, Reason::Resignation));
    // Black has a lone king and could never mate: a resignation still loses (5.1.2 has no
    // exception).
    let mut g = Game::new(setup(Some("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"), "-"), 0).unwrap();
    g.apply(5, Command::Resign { by: White }).unwrap();
    assert_eq!(ended(&g), (GameResult::BlackWins, Reason::Resignation));
}

#[test]
fn stalemate_5_2_1() {
    let mut g = Game::new(setup(Some("7k/8/8/6Q1/8/8/8/6K1 w - - 0 1"), "-"), 0).unwrap();
    mv(&mut g, 1, White, "Qg6");
    assert_eq!(ended(&g), (GameResult::Draw, Reason::Stalemate));
}

#[test]
fn dead_position_5_2_2() {
    let mut g = Game::new(setup(Some("4k3/8/8/8/8/8/3p4/3BK3 w - - 0 1"), "-"), 0).unwrap();
    mv(&mut g, 1, White, "Kxd2");
    assert_eq!(ended(&g), (GameResult::Draw, Reason::DeadPosition));
}

#[test]
fn draw_offers_9_1() {
    let mut g = Game::new(setup(None, "-"), 0).unwrap();
    assert_eq!(
        g.apply(1, Command::OfferDraw { by: White }),
        Err(CommandError::TooEarlyForDraw)
    );
    play(&mut g, 0, "e4 e5");
    // Black's offer made after moving; White moves instead of answering: the offer lapses.
    g.apply(3_000, Command::OfferDraw { by: Black }).unwrap();
    let events = mv(&mut g, 4_000, White, "Nf3");
    assert!(events.contains(&Event::DrawOfferLapsed { by: Black }));
    assert_eq!(g.draw_offer(), None);
    // The Laws let Black offer again at once ...
    g.apply(4_500, Command::OfferDraw { by: Black }).unwrap();
    g.apply(4_550, Command::DeclineDraw { by: White }).unwrap();
    // ... unless White offers first; offering back then accepts.
    g.apply(4_600, Command::OfferDraw { by: White }).unwrap();
    assert_eq!(
        g.apply(4_700, Command::AcceptDraw { by: White }),
        Err(CommandError::NoOffer)
    );
    g.apply(4_800, Command::OfferDraw { by: Black }).unwrap();
    assert_eq!(ended(&g), (GameResult::Draw, Reason::Agreement));
    // The scoresheet records White's offer with the move it followed: "(=)".
    assert!(g.plies()[2].draw_offer);
}

#[test]
fn draw_offers_online_one_per_own_move_11_5() {
    let online = Setup {
        options: vizier_arbiter::Options::online(),
        ..setup(None, "-")
    };
    let mut g = Game::new(online, 0).unwrap();
    play(&mut g, 0, "e4 e5");
    g.apply(3_000, Command::OfferDraw { by: Black }).unwrap();
    mv(&mut g, 4_000, White, "Nf3");
    // The lapse counts as a decline: Black offers again only after a move of its own.
    assert_eq!(
        g.apply(4_500, Command::OfferDraw { by: Black }),
        Err(CommandError::OfferCooldown)
    );
    mv(&mut g, 5_000, Black, "Nc6");
    g.apply(5_500, Command::OfferDraw { by: Black }).unwrap();
    assert_eq!(g.draw_offer(), Some(Black));
}

#[test]
fn draw_offer_before_moving_stands_and_is_recorded_with_the_next_move() {
    let mut g = Game::new(setup(None, "-"), 0).unwrap();
    play(&mut g, 0, "e4 e5");
    g.apply(2_500, Command::OfferDraw { by: White }).unwrap();
    mv(&mut g, 3_000, White, "Nf3");
    assert_eq!(g.draw_offer(), Some(White));
    assert!(g.plies()[2].draw_offer);
    g.apply(3_500, Command::DeclineDraw { by: Black }).unwrap();
    assert_eq!(g.draw_offer(), None);
    assert_eq!(
        g.apply(3_600, Command::AcceptDraw { by: Black }),
        Err(CommandError::NoOffer)
    );
}

#[test]
fn no_offers_before_move_n() {
    let s = Setup {
        options: Options {
            draw_offers_from_move: 30,
            ..Options::default()
        },
        ..setup(None, "-")
    };
    let mut g = Game::new(s, 0).unwrap();
    play(&mut g, 0, "e4 e5");
    assert_eq!(
        g.apply(3_000, Command::OfferDraw { by: White }),
        Err(CommandError::OffersNotYet(30))
    );
}

const SHUFFLE: &str = "Nf3 Nf6 Ng1 Ng8";

#[test]
fn threefold_claims_9_2() {
    let mut g = Game::new(setup(None, "5400+30"), 0).unwrap();
    let t = play(&mut g, 0, &format!("{SHUFFLE} Nf3 Nf6 Ng1"));
    // Black declares Ng8, which makes the start position appear for the third time.
    g.apply(
        t + 500,
        Command::ClaimDraw {
            by: Black,
            claim: Claim::Threefold,
            declared: Some("Ng8".into()),
        },
    )
    .unwrap();
    assert_eq!(ended(&g), (GameResult::Draw, Reason::ThreefoldRepetition));
    assert_eq!(g.plies().len(), 8);
}

#[test]
fn wrong_claims_cost_time_and_the_declared_move_stands() {
    let mut g = Game::new(setup(None, "5400+30"), 0).unwrap();
    let t = play(&mut g, 0, "Nf3 Nf6 Ng1");
    let before = g.clock().remaining(White, t + 500).unwrap();
    let events = g
        .apply(
            t + 500,
            Command::ClaimDraw {
                by: Black,
                claim: Claim::Threefold,
                declared: Some("Ng8".into()),
            },
        )
        .unwrap();
    assert!(events.contains(&Event::ClaimRejected {
        by: Black,
        claim: Claim::Threefold,
        penalty_ms: 120_000
    }));
    assert_eq!(g.plies().len(), 4, "the declared move was made");
    assert_eq!(
        g.clock().remaining(White, t + 500).unwrap(),
        before + 120_000
    );
    // In rapid and blitz the penalty is one minute.
    let mut g = Game::new(setup(None, "600+5"), 0).unwrap();
    let t = play(&mut g, 0, "e4");
    let events = g
        .apply(
            t,
            Command::ClaimDraw {
                by: Black,
                claim: Claim::FiftyMoves,
                declared: None,
            },
        )
        .unwrap();
    assert!(events.contains(&Event::ClaimRejected {
        by: Black,
        claim: Claim::FiftyMoves,
        penalty_ms: 60_000
    }));
    assert_eq!(
        g.apply(
            t,
            Command::ClaimDraw {
                by: White,
                claim: Claim::FiftyMoves,
                declared: None
            }
        ),
        Err(CommandError::NotYourClaim)
    );
}

#[test]
fn en_passant_right_makes_the_first_position_different_9_2_3() {
    // After 1.e4 Black could capture en passant: that position differs from later ones with
    // the same pieces, so the third "repetition" is really the second.
    let mut g = Game::new(setup(Some("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1"), "-"), 0).unwrap();
    let t = play(&mut g, 0, "e4 Kd8 Kd1 Ke8 Ke1 Kd8 Kd1 Ke8 Ke1");
    let events = g
        .apply(
            t,
            Command::ClaimDraw {
                by: Black,
                claim: Claim::Threefold,
                declared: None,
            },
        )
        .unwrap();
    assert!(matches!(events[0], Event::ClaimRejected { .. }));
    let t = play(&mut g, t, "Kd8 Kd1 Ke8 Ke1");
    g.apply(
        t,
        Command::ClaimDraw {
            by: Black,
            claim: Claim::Threefold,
            declared: None,
        },
    )
    .unwrap();
    assert_eq!(ended(&g), (GameResult::Draw, Reason::ThreefoldRepetition));
}

#[test]
fn fifty_move_claim_9_3() {
    let fen = "8/8/8/4k3/8/8/8/R3K3 w - - 99 80";
    let mut g = Game::new(setup(Some(fen), "-"), 0).unwrap();
    let events = g
        .apply(
            1,
            Command::ClaimDraw {
                by: White,
                claim: Claim::FiftyMoves,
                declared: None,
            },
        )
        .unwrap();
    assert!(matches!(
        events[0],
        Event::ClaimRejected { penalty_ms: 0, .. }
    ));
    g.apply(
        2,
        Command::ClaimDraw {
            by: White,
            claim: Claim::FiftyMoves,
            declared: Some("Ra2".into()),
        },
    )
    .unwrap();
    assert_eq!(ended(&g), (GameResult::Draw, Reason::FiftyMoves));
}

/// Art. 9.3.1 with a declared move that would mate: the claim is decided before the move is
/// made, so a correct one draws (docs/laws.md); a wrong one has the move made (9.5.3), and
/// its mate stands.
#[test]
fn fifty_move_claim_with_a_mating_declared_move_9_3_1() {
    let claim = |g: &mut Game| {
        g.apply(
            1,
            Command::ClaimDraw {
                by: White,
                claim: Claim::FiftyMoves,
                declared: Some("Rh8".into()),
            },
        )
    };
    let mut g = Game::new(setup(Some("k7/8/1K6/8/8/8/8/7R w - - 99 80"), "-"), 0).unwrap();
    let events = claim(&mut g).unwrap();
    assert_eq!(ended(&g), (GameResult::Draw, Reason::FiftyMoves));
    assert_eq!(g.plies().len(), 1, "the declared move is on the scoresheet");
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e, Event::GameOver(_)))
            .count(),
        1,
        "{events:?}"
    );
    let mut g = Game::new(setup(Some("k7/8/1K6/8/8/8/8/7R w - - 60 80"), "-"), 0).unwrap();
    claim(&mut g).unwrap();
    assert_eq!(ended(&g), (GameResult::WhiteWins, Reason::Checkmate));
}

#[test]
fn fivefold_is_automatic_9_6_1() {
    let mut g = Game::new(setup(None, "-"), 0).unwrap();
    play(&mut g, 0, &[SHUFFLE; 3].join(" "));
    assert!(g.outcome().is_none(), "four occurrences only");
    play(&mut g, 20_000, SHUFFLE);
    assert_eq!(ended(&g), (GameResult::Draw, Reason::FivefoldRepetition));
    assert_eq!(
        g.outcome().unwrap().to_string(),
        "½–½ · fivefold repetition · Art. 9.6.1"
    );
    assert_eq!(
        g.apply(
            30_000,
            Command::Move {
                by: White,
                mv: "Nf3".into()
            }
        ),
        Err(CommandError::GameOver)
    );
}

#[test]
fn dead_position_5_2_2_decided_by_search() {
    // The king takes the last piece that could break the locked pawns: dead at once.
    let fen = "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1Kn2 w - - 0 1";
    let mut g = Game::new(setup(Some(fen), "-"), 0).unwrap();
    assert!(g.outcome().is_none());
    mv(&mut g, 1, White, "Kxf1");
    assert_eq!(ended(&g), (GameResult::Draw, Reason::DeadPosition));
    // Rook to a8 leaves Black one legal move, Kxa8: the position is dead before it is played.
    let mut g = Game::new(setup(Some("1k6/8/2K5/8/8/8/8/R7 w - - 0 1"), "-"), 0).unwrap();
    mv(&mut g, 1, White, "Ra8+");
    assert_eq!(ended(&g), (GameResult::Draw, Reason::DeadPosition));
    assert_eq!(
        g.outcome().unwrap().to_string(),
        "½–½ · dead position · Art. 5.2.2"
    );
    // Taking Black's knight, its last piece that could wait, leaves its king shuffling
    // between a5 and a6: mated on a5 only with White's king on a7 and White to move, which
    // no series of moves reaches.
    let fen = "8/1p2B1B1/1PpB1B2/k1P5/p1Pn4/P7/5K2/8 w - - 0 1";
    let mut g = Game::new(setup(Some(fen), "-"), 0).unwrap();
    assert!(g.outcome().is_none());
    mv(&mut g, 1, White, "Bxd4");
    assert_eq!(ended(&g), (GameResult::Draw, Reason::DeadPosition));
}

#[test]
fn time_forfeit_6_9_when_locked_pawns_shut_the_winner_out() {
    // White's bishops are dark and shut in behind dark-square pawns; Black's light bishops
    // are free. Black's flag draws; White's loses.
    let fen = "8/4kb2/8/1p1p1p1p/1P1P1P1P/1bB5/3B1K2/8 b - - 0 1";
    let mut g = Game::new(setup(Some(fen), "60"), 0).unwrap();
    g.apply(61_000, Command::CheckFlag).unwrap();
    assert_eq!(ended(&g), (GameResult::Draw, Reason::TimeForfeitNoMate));
    let fen = "8/4kb2/8/1p1p1p1p/1P1P1P1P/1bB5/3B1K2/8 w - - 0 1";
    let mut g = Game::new(setup(Some(fen), "60"), 0).unwrap();
    g.apply(61_000, Command::CheckFlag).unwrap();
    assert_eq!(ended(&g), (GameResult::BlackWins, Reason::TimeForfeit));
}

#[test]
fn seventy_five_moves_9_6_2_and_mate_on_the_last_move() {
    let mut g = Game::new(setup(Some("8/8/8/4k3/8/8/8/R3K3 w - - 149 100"), "-"), 0).unwrap();
    mv(&mut g, 1, White, "Ra2");
    assert_eq!(ended(&g), (GameResult::Draw, Reason::SeventyFiveMoves));
    let mut g = Game::new(setup(Some("k7/8/1K6/8/8/8/8/7R w - - 149 100"), "-"), 0).unwrap();
    mv(&mut g, 1, White, "Rh8");
    assert_eq!(ended(&g), (GameResult::WhiteWins, Reason::Checkmate));
}

#[test]
fn time_forfeit_6_9_and_who_can_still_mate() {
    // Black flags, and White has only K+N against K+Q: White cannot mate, so it is a draw.
    // (K+N against a lone king is already a dead position, drawn before any flag.)
    let mut g = Game::new(setup(Some("q3k3/8/8/8/8/8/8/4KN2 b - - 0 1"), "60"), 0).unwrap();
    let events = g.apply(61_000, Command::CheckFlag).unwrap();
    assert_eq!(events.len(), 1);
    assert_eq!(ended(&g), (GameResult::Draw, Reason::TimeForfeitNoMate));
    assert_eq!(g.outcome().unwrap().at, 60_000, "the flag fell at 60 s");
    // With a black pawn on the board a helpmate exists: the flag loses.
    let mut g = Game::new(setup(Some("4k3/4p3/8/8/8/8/8/4KN2 b - - 0 1"), "60"), 0).unwrap();
    g.apply(61_000, Command::CheckFlag).unwrap();
    assert_eq!(ended(&g), (GameResult::WhiteWins, Reason::TimeForfeit));
}

#[test]
fn no_increment_after_the_flag() {
    let mut g = Game::new(setup(None, "5+2"), 0).unwrap();
    let events = g
        .apply(
            6_000,
            Command::Move {
                by: White,
                mv: "e4".into(),
            },
        )
        .unwrap();
    assert!(
        matches!(events.as_slice(), [Event::GameOver(o)] if o.at == 5_000 && o.reason == Reason::TimeForfeit)
    );
    assert!(g.plies().is_empty(), "the late move is not made");
    assert_eq!(g.clock().remaining(White, 6_000), Some(0));
}

#[test]
fn flag_seen_by_any_later_command() {
    let mut g = Game::new(setup(None, "10"), 0).unwrap();
    mv(&mut g, 1_000, White, "e4");
    // Black's clock runs from 1 s; at 20 s Black's flag has fallen (at 11 s).
    let events = g.apply(20_000, Command::OfferDraw { by: White }).unwrap();
    assert!(
        matches!(events.as_slice(), [Event::GameOver(o)] if o.at == 11_000 && o.result == GameResult::WhiteWins)
    );
}

#[test]
fn simple_and_bronstein_delay_on_a_three_second_move() {
    for (control, expected) in [("60d5", 60_000), ("60b5", 60_000), ("60", 57_000)] {
        let mut g = Game::new(setup(None, control), 0).unwrap();
        let events = mv(&mut g, 3_000, White, "e4");
        assert!(
            matches!(&events[0], Event::Moved { clock_ms: Some(ms), .. } if *ms == expected),
            "{control}: {events:?}"
        );
    }
    // They differ when time is short: with 2 s left a 3-second move is in time under a simple
    // delay (the clock waits 5 s) but flags under Bronstein (time is refunded only afterwards).
    let mut g = Game::new(setup(None, "2d5"), 0).unwrap();
    assert!(matches!(
        mv(&mut g, 3_000, White, "e4")[0],
        Event::Moved {
            clock_ms: Some(2_000),
            ..
        }
    ));
    let mut g = Game::new(setup(None, "2b5"), 0).unwrap();
    assert!(matches!(mv(&mut g, 3_000, White, "e4")[0], Event::GameOver(o) if o.at == 2_000));
}

#[test]
fn period_change_at_move_40_with_carried_time() {
    let control = TimeControl::parse_pgn("40/5400+30:1800+30").unwrap();
    let mut clock = Clock::new(&control);
    let mut t = 0;
    for _ in 0..40 {
        clock.start(White, t);
        t += 60_000;
        assert!(matches!(clock.complete_move(White, t), Charge::InTime(_)));
    }
    // 5400 − 40×60 + 40×30 = 4200 s carried, plus 1800 s for the second period.
    assert_eq!(clock.remaining(White, t), Some(6_000_000));
    assert_eq!(clock.period(White), (1, 0));
    clock.start(White, t);
    assert_eq!(
        clock.complete_move(White, t + 10_000),
        Charge::InTime(6_020_000)
    );
}

#[test]
fn correspondence_days_per_move() {
    let day = 86_400_000;
    let mut g = Game::new(setup(None, "1/259200"), 0).unwrap();
    mv(&mut g, 2 * day, White, "e4");
    mv(&mut g, 2 * day + 1_000, Black, "e5");
    // White has three fresh days; the unused day from the first move does not carry over.
    let events = g.apply(5 * day + 2_000, Command::CheckFlag).unwrap();
    assert!(
        matches!(events.as_slice(), [Event::GameOver(o)] if o.reason == Reason::TimeForfeit && o.at == 5 * day + 1_000)
    );
}

#[test]
fn online_clock_start_and_first_move_timeout() {
    let s = Setup {
        clock_start: ClockStart::AfterFirstMoves {
            first_move_timeout_ms: 30_000,
        },
        ..setup(None, "60")
    };
    let mut g = Game::new(s.clone(), 0).unwrap();
    // White's first move at 20 s costs nothing; so does Black's; then White's clock runs.
    assert!(matches!(
        mv(&mut g, 20_000, White, "e4")[0],
        Event::Moved {
            clock_ms: Some(60_000),
            ..
        }
    ));
    assert!(matches!(
        mv(&mut g, 25_000, Black, "e5")[0],
        Event::Moved {
            clock_ms: Some(60_000),
            ..
        }
    ));
    assert!(matches!(
        mv(&mut g, 35_000, White, "Nf3")[0],
        Event::Moved {
            clock_ms: Some(50_000),
            ..
        }
    ));
    // A game whose Black never moves is aborted 30 s after White's first move.
    let mut g = Game::new(s, 0).unwrap();
    mv(&mut g, 1_000, White, "e4");
    let events = g.apply(40_000, Command::CheckFlag).unwrap();
    assert!(
        matches!(events.as_slice(), [Event::GameOver(o)] if o.reason == Reason::FirstMoveTimeout && o.result == GameResult::NoResult && o.at == 31_000)
    );
}

#[test]
fn abort_only_before_both_moved() {
    let mut g = Game::new(setup(None, "-"), 0).unwrap();
    mv(&mut g, 1, White, "e4");
    g.clone().apply(2, Command::Abort { by: Black }).unwrap();
    mv(&mut g, 2, Black, "e5");
    assert_eq!(
        g.apply(3, Command::Abort { by: Black }),
        Err(CommandError::TooLateToAbort)
    );
}

#[test]
fn second_illegal_move_7_5_5_over_the_board() {
    let s = Setup {
        mode: Mode::OverTheBoard { supervised: true },
        ..setup(None, "5400+30")
    };
    let mut g = Game::new(s, 0).unwrap();
    mv(&mut g, 1_000, White, "e4");
    let black_before = g.clock().remaining(White, 2_000);
    // Black's knight "moves" like a bishop: first illegal move, White gets two minutes.
    let events = mv(&mut g, 2_000, Black, "g8e6");
    assert!(events.contains(&Event::IllegalMove {
        by: Black,
        mv: "g8-e6".into(),
        count: 1,
        penalty_ms: 120_000
    }));
    assert_eq!(
        g.clock().remaining(White, 2_000),
        black_before.map(|ms| ms + 120_000)
    );
    assert_eq!(
        g.position().turn(),
        Black,
        "the position before the illegal move is reinstated"
    );
    mv(&mut g, 3_000, Black, "e5");
    mv(&mut g, 4_000, White, "Nf3");
    mv(&mut g, 5_000, Black, "Ke7e5");
    assert_eq!(ended(&g), (GameResult::WhiteWins, Reason::IllegalMoves));
}

#[test]
fn unsupervised_blitz_illegal_move_stands_unless_claimed() {
    let s = Setup {
        mode: Mode::OverTheBoard { supervised: false },
        ..setup(None, "180+2")
    };
    let mut g = Game::new(s.clone(), 0).unwrap();
    mv(&mut g, 1_000, White, "e4");
    let events = mv(&mut g, 2_000, Black, "f8b4"); // a bishop through its own pawn
    assert!(matches!(events[0], Event::IllegalMoveStands { .. }));
    // White claims before moving: reinstated, White gets a minute.
    let mut claimed = g.clone();
    let events = claimed
        .apply(3_000, Command::ClaimIllegalMove { by: White })
        .unwrap();
    assert!(matches!(
        events[0],
        Event::IllegalMove {
            by: Black,
            count: 1,
            penalty_ms: 60_000,
            ..
        }
    ));
    assert_eq!(claimed.position().turn(), Black);
    // White moves instead: the move stands.
    mv(&mut g, 3_000, White, "c3");
    assert!(g.position().piece_at(vizier_rules::Square::B4).is_some());
}

fn unsupervised(fen: &str) -> Game {
    let s = Setup {
        mode: Mode::OverTheBoard { supervised: false },
        ..setup(Some(fen), "180+2")
    };
    Game::new(s, 0).unwrap()
}

#[test]
fn illegal_position_draws_only_while_it_stands_a_5_4() {
    // A king left in check: once the opponent has moved, the position is legal; play goes on.
    let mut g = unsupervised("4k3/8/8/8/8/8/8/r3K3 w - - 0 1");
    mv(&mut g, 1_000, White, "e1d1"); // stays on the rook's rank
    assert_eq!(
        g.apply(
            2_000,
            Command::Move {
                by: Black,
                mv: "Rxd1".into()
            }
        ),
        Err(CommandError::KingCapture)
    );
    mv(&mut g, 2_000, Black, "Kd7");
    assert!(g.outcome().is_none());
    assert!(g.position().is_check(), "White must now answer the check");
    mv(&mut g, 3_000, White, "Ke2");
    // A pawn left on the last rank: if it is still there after the next move, a draw.
    let mut g = unsupervised("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    let events = mv(&mut g, 1_000, White, "a7a8"); // no promotion
    assert!(matches!(events[0], Event::IllegalMoveStands { .. }));
    let mut captured = g.clone();
    mv(&mut g, 2_000, Black, "Kd7");
    assert_eq!(ended(&g), (GameResult::Draw, Reason::IllegalPosition));
    // Captured by the next move, the illegal position is gone and the game goes on.
    mv(&mut captured, 2_000, Black, "Rxa8");
    assert!(captured.outcome().is_none());
    mv(&mut captured, 3_000, White, "Kd2");
}

#[test]
fn illegal_move_is_no_clock_move_7_5_5() {
    // With an arbiter, the position before is reinstated: the illegal move gets no increment
    // and is not counted towards the 40 moves.
    let s = Setup {
        mode: Mode::OverTheBoard { supervised: true },
        ..setup(None, "40/5400+30:1800+30")
    };
    let mut g = Game::new(s, 0).unwrap();
    let events = mv(&mut g, 10_000, White, "e2e5");
    assert!(matches!(events[0], Event::IllegalMove { count: 1, .. }));
    assert_eq!(g.clock().period(White), (0, 0));
    assert_eq!(g.clock().remaining(White, 10_000), Some(5_390_000));
    assert_eq!(g.clock().running(), Some(White), "White's clock runs on");
    mv(&mut g, 12_000, White, "e4");
    assert_eq!(g.clock().period(White), (0, 1));
    assert_eq!(g.clock().remaining(White, 12_000), Some(5_388_000 + 30_000));
    // Unsupervised, a claimed illegal move is undone on the clock as well.
    let s = Setup {
        mode: Mode::OverTheBoard { supervised: false },
        ..setup(None, "40/1200+5:600+5")
    };
    let mut g = Game::new(s, 0).unwrap();
    mv(&mut g, 10_000, White, "e2e5"); // stands unless claimed: White's clock pressed
    g.apply(13_000, Command::ClaimIllegalMove { by: Black })
        .unwrap();
    assert_eq!(g.clock().period(White), (0, 0));
    assert_eq!(g.clock().running(), Some(White));
    assert_eq!(g.clock().remaining(White, 13_000), Some(1_190_000));
    // Black's three seconds before claiming are Black's; the penalty is White's minute to Black.
    assert_eq!(g.clock().remaining(Black, 13_000), Some(1_197_000 + 60_000));
}

#[test]
fn illegal_castling_can_be_entered_7_5_1() {
    // Castling through check: with an arbiter, `O-O` is an illegal move with its penalty.
    let s = Setup {
        mode: Mode::OverTheBoard { supervised: true },
        ..setup(Some("4kr2/8/8/8/8/8/8/4K2R w K - 0 1"), "180+2")
    };
    let mut g = Game::new(s, 0).unwrap();
    let events = mv(&mut g, 1_000, White, "O-O");
    assert!(matches!(&events[0], Event::IllegalMove { mv, count: 1, .. } if mv == "O-O"));
    assert_eq!(g.position().fen(), "4kr2/8/8/8/8/8/8/4K2R w K - 0 1");
    // Unsupervised, `e1g1` is the castling it means: king and rook both move, and it stands.
    let mut g = unsupervised("4kr2/8/8/8/8/8/8/4K2R w K - 0 1");
    let events = mv(&mut g, 1_000, White, "e1g1");
    assert!(matches!(&events[0], Event::IllegalMoveStands { mv, .. } if mv == "O-O"));
    assert_eq!(g.position().board_fen(), "4kr2/8/8/8/8/8/8/5RK1");
    // Castling after the king has moved (no right left) is entered the same way.
    let mut g = unsupervised("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
    mv(&mut g, 1_000, White, "O-O");
    assert_eq!(g.position().board_fen(), "4k3/8/8/8/8/8/8/5RK1");
}

#[test]
fn positions_before_an_illegal_move_that_stood_still_count_9_2() {
    let mut g = Game::new(
        Setup {
            mode: Mode::OverTheBoard { supervised: false },
            ..setup(None, "180+2")
        },
        0,
    )
    .unwrap();
    // The position after 1.Nf3 and 3.Nf3 has been seen twice.
    let t = play(&mut g, 0, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6");
    // An illegal knight move out and back, both standing, brings it back a third time.
    mv(&mut g, t + 1_000, White, "f3f4");
    mv(&mut g, t + 2_000, Black, "Ng8");
    assert!(!g.history().can_claim_threefold());
    mv(&mut g, t + 3_000, White, "f4f3");
    let events = g
        .apply(
            t + 4_000,
            Command::ClaimDraw {
                by: Black,
                claim: Claim::Threefold,
                declared: None,
            },
        )
        .unwrap();
    assert!(matches!(events[0], Event::GameOver(o) if o.reason == Reason::ThreefoldRepetition));
}

#[test]
fn wrong_claim_is_a_draw_offer_9_1_2_3() {
    // The claimant is still to move: the opponent may accept the claim as an offer.
    let mut g = Game::new(setup(None, "5400+30"), 0).unwrap();
    let t = play(&mut g, 0, "e4 e5");
    let claim = Command::ClaimDraw {
        by: White,
        claim: Claim::Threefold,
        declared: None,
    };
    let events = g.apply(t + 500, claim).unwrap();
    assert_eq!(events.last(), Some(&Event::DrawOffered { by: White }));
    assert_eq!(g.draw_offer(), Some(White));
    g.apply(t + 600, Command::AcceptDraw { by: Black }).unwrap();
    assert_eq!(ended(&g), (GameResult::Draw, Reason::Agreement));
    // With a declared move the move is made and the offer stands for the opponent to answer,
    // whatever the online cooldown after a declined offer.
    let s = Setup {
        options: Options::online(),
        ..setup(None, "5400+30")
    };
    let mut g = Game::new(s, 0).unwrap();
    let t = play(&mut g, 0, "Nf3 Nf6");
    g.apply(t, Command::OfferDraw { by: White }).unwrap();
    g.apply(t, Command::DeclineDraw { by: Black }).unwrap();
    let claim = Command::ClaimDraw {
        by: White,
        claim: Claim::FiftyMoves,
        declared: Some("Ng1".into()),
    };
    g.apply(t + 500, claim).unwrap();
    assert_eq!(g.draw_offer(), Some(White));
    assert!(
        g.plies().last().unwrap().draw_offer,
        "recorded (=) with the move"
    );
    // Moving instead of answering declines it, as any offer.
    mv(&mut g, t + 1_000, Black, "Ng8");
    assert_eq!(g.draw_offer(), None);
    // With the opponent's offer standing, a wrong claim meets it: a draw.
    let mut g = Game::new(setup(None, "5400+30"), 0).unwrap();
    let t = play(&mut g, 0, "e4 e5 Nf3");
    g.apply(t, Command::OfferDraw { by: White }).unwrap();
    let claim = Command::ClaimDraw {
        by: Black,
        claim: Claim::Threefold,
        declared: None,
    };
    g.apply(t + 500, claim).unwrap();
    assert_eq!(ended(&g), (GameResult::Draw, Reason::Agreement));
}

#[test]
fn correspondence_time_added_is_kept_9_5() {
    let day = 86_400_000;
    let mut g = Game::new(setup(None, "1/86400"), 0).unwrap();
    let t = play(&mut g, 0, "e4");
    let claim = Command::ClaimDraw {
        by: Black,
        claim: Claim::Threefold,
        declared: None,
    };
    let events = g.apply(t + 1_000, claim).unwrap();
    assert!(events.contains(&Event::ClaimRejected {
        by: Black,
        claim: Claim::Threefold,
        penalty_ms: 120_000
    }));
    mv(&mut g, t + 2_000, Black, "e5");
    // White's move starts with a fresh day and the two minutes.
    assert_eq!(g.clock().remaining(White, t + 2_000), Some(day + 120_000));
    mv(&mut g, t + 3_000, White, "Nf3");
    // The next move of White's has the day alone again.
    mv(&mut g, t + 4_000, Black, "Nc6");
    assert_eq!(g.clock().remaining(White, t + 4_000), Some(day));
}

#[test]
fn three_king_fouls_lose() {
    let s = Setup {
        options: Options {
            king_into_check_fouls: Some(3),
            ..Options::default()
        },
        ..setup(Some("4k3/8/8/8/8/8/r7/4K3 w - - 0 1"), "-")
    };
    let mut g = Game::new(s, 0).unwrap();
    for i in 1..=3 {
        let events = mv(&mut g, i, White, "Ke1e2");
        assert!(events.contains(&Event::Foul {
            by: White,
            count: i as u32
        }));
    }
    assert_eq!(ended(&g), (GameResult::BlackWins, Reason::Fouls));
}

#[test]
fn adjournment_sealed_move() {
    let mut g = Game::new(setup(None, "5400+30"), 0).unwrap();
    play(&mut g, 0, "e4 e5");
    g.apply(10_000, Command::Adjourn).unwrap();
    assert_eq!(
        g.apply(
            11_000,
            Command::Move {
                by: White,
                mv: "Nf3".into()
            }
        ),
        Err(CommandError::Adjourned)
    );
    let events = g
        .apply(
            70_000,
            Command::Seal {
                by: White,
                mv: "Nf3".into(),
            },
        )
        .unwrap();
    assert_eq!(
        events,
        vec![Event::Sealed { by: White }],
        "the sealed move is not revealed"
    );
    // White's clock ran until the seal: 68 s used (+30 s increment) after the 1 s first move.
    let white = g.clock().remaining(White, 10_000_000).unwrap();
    assert_eq!(white, 5_400_000 - 1_000 + 30_000 - 68_000 + 30_000);
    // A day later the game resumes from the sealed position; the clocks did not run meanwhile.
    let events = g.apply(86_400_000, Command::Resume).unwrap();
    assert!(matches!(&events[1], Event::Moved { san, .. } if san == "Nf3"));
    assert_eq!(g.clock().running(), Some(Black));
    // An illegal sealed move loses.
    let mut g = Game::new(setup(None, "5400+30"), 0).unwrap();
    play(&mut g, 0, "e4 e5");
    g.apply(10_000, Command::Adjourn).unwrap();
    g.apply(
        20_000,
        Command::Seal {
            by: White,
            mv: "Nf6".into(),
        },
    )
    .unwrap();
    g.apply(30_000, Command::Resume).unwrap();
    assert_eq!(
        ended(&g),
        (GameResult::BlackWins, Reason::InvalidSealedMove)
    );
}

/// Guidelines I: after the move is sealed and before the game resumes, a draw may be offered
/// and agreed (or declined); before the seal, nothing but sealing is possible.
#[test]
fn adjournment_draw_offered_after_the_seal_guidelines_i() {
    let adjourned = || {
        let mut g = Game::new(setup(None, "5400+30"), 0).unwrap();
        play(&mut g, 0, "e4 e5");
        g.apply(10_000, Command::Adjourn).unwrap();
        assert_eq!(
            g.apply(11_000, Command::OfferDraw { by: Black }),
            Err(CommandError::Adjourned),
            "no offer while the move is being sealed"
        );
        let seal = Command::Seal {
            by: White,
            mv: "Nf3".into(),
        };
        g.apply(20_000, seal).unwrap();
        g
    };
    // Offered by the sealer's opponent, agreed by the sealer: the sealed move is never made.
    let mut g = adjourned();
    let events = g.apply(30_000, Command::OfferDraw { by: Black }).unwrap();
    assert_eq!(events, vec![Event::DrawOffered { by: Black }]);
    g.apply(40_000, Command::AcceptDraw { by: White }).unwrap();
    assert_eq!(ended(&g), (GameResult::Draw, Reason::Agreement));
    assert_eq!(g.plies().len(), 2, "the sealed move stays unplayed");
    assert!(!g.plies()[1].draw_offer, "no move was made with the offer");
    // Offered by the sealer and declined: the game resumes with the sealed move.
    let mut g = adjourned();
    g.apply(30_000, Command::OfferDraw { by: White }).unwrap();
    g.apply(40_000, Command::DeclineDraw { by: Black }).unwrap();
    let events = g.apply(86_400_000, Command::Resume).unwrap();
    assert!(matches!(&events[1], Event::Moved { san, .. } if san == "Nf3"));
    assert!(g.outcome().is_none());
    // An offer still standing when the game resumes lapses with the sealed move, as any
    // offer a move answers.
    let mut g = adjourned();
    g.apply(30_000, Command::OfferDraw { by: Black }).unwrap();
    let events = g.apply(86_400_000, Command::Resume).unwrap();
    assert!(
        events.contains(&Event::DrawOfferLapsed { by: Black }),
        "{events:?}"
    );
    assert_eq!(g.draw_offer(), None);
}

#[test]
fn takebacks_by_agreement() {
    let s = Setup {
        options: Options {
            takebacks: true,
            ..Options::default()
        },
        ..setup(None, "-")
    };
    let mut g = Game::new(s, 0).unwrap();
    play(&mut g, 0, "e4 e5 Nf3");
    g.apply(5_000, Command::RequestTakeback { by: White })
        .unwrap();
    assert_eq!(
        g.apply(5_100, Command::AcceptTakeback { by: White }),
        Err(CommandError::NoTakeback)
    );
    g.apply(5_200, Command::AcceptTakeback { by: Black })
        .unwrap();
    assert_eq!(g.plies().len(), 2);
    assert_eq!(g.position().turn(), White);
    let mut off = Game::new(setup(None, "-"), 0).unwrap();
    play(&mut off, 0, "e4");
    assert_eq!(
        off.apply(2_000, Command::RequestTakeback { by: White }),
        Err(CommandError::TakebacksOff)
    );
}

#[test]
fn bad_commands_change_nothing() {
    let mut g = Game::new(setup(None, "300+2"), 0).unwrap();
    play(&mut g, 0, "e4");
    let before = g.clone();
    for (at, cmd, err) in [
        (
            2_000,
            Command::Move {
                by: White,
                mv: "d4".into(),
            },
            CommandError::NotYourTurn,
        ),
        (
            2_000,
            Command::AcceptDraw { by: Black },
            CommandError::NoOffer,
        ),
        (2_000, Command::Resume, CommandError::NotAdjourned),
        (
            500,
            Command::Move {
                by: Black,
                mv: "e5".into(),
            },
            CommandError::TimeWentBackwards,
        ),
        (
            2_000,
            Command::ClaimIllegalMove { by: Black },
            CommandError::NothingToClaim,
        ),
    ] {
        assert_eq!(g.apply(at, cmd), Err(err));
        assert_eq!(g, before);
    }
    assert!(matches!(
        g.apply(
            2_000,
            Command::Move {
                by: Black,
                mv: "e4".into()
            }
        ),
        Err(CommandError::BadMove(_))
    ));
    assert_eq!(g, before);
    g.apply(3_000, Command::Resign { by: Black }).unwrap();
    let after = g.clone();
    assert_eq!(
        g.apply(
            4_000,
            Command::Move {
                by: Black,
                mv: "e5".into()
            }
        ),
        Err(CommandError::GameOver)
    );
    assert_eq!(g, after);
}

#[test]
fn chess960_castling_and_pgn() {
    let s = Setup {
        start: StartPosition::Chess960(0),
        ..setup(None, "-")
    };
    let mut g = Game::new(s, 0).unwrap();
    assert!(g.is_chess960());
    play(&mut g, 0, "Nc3 Nc6 Nf3 Nf6 d3 d6 Qd2 Qd7 O-O-O");
    assert_eq!(g.plies().last().unwrap().uci.as_str(), "g1f1");
    assert_eq!(
        g.position().board_fen(),
        "bb3rkr/pppqpppp/2np1n2/8/8/2NP1N2/PPPQPPPP/BBKR3R"
    );
    let pgn = g.pgn(&Default::default());
    assert!(
        pgn.contains("[Variant \"Chess960\"]") && pgn.contains("O-O"),
        "{pgn}"
    );
    let back = vizier_rules::pgn::read_str(&pgn).remove(0).unwrap();
    assert_eq!(back.mainline.nodes.len(), 9);
}

/// Art. 7.5.2: a pawn moved to the last rank and the clock pressed without a new piece. The
/// illegal move is penalised as any (7.5.5) and the pawn is replaced by a queen of its colour
/// on that square: the move stands as the queen's. With an arbiter at once; unsupervised in
/// blitz, once the opponent claims.
#[test]
fn pawn_to_the_last_rank_without_promoting_becomes_a_queen_7_5_2() {
    use vizier_rules::{Piece, Role, Square};
    const FEN: &str = "8/P7/8/8/8/8/8/4K1k1 w - - 0 1";
    let queen_on_a8 = |g: &Game| g.position().piece_at(Square::A8);
    let queened = |events: &[Event]| {
        (events.iter()).any(|e| matches!(e, Event::Moved { san, .. } if san == "a8=Q"))
    };
    let s = Setup {
        mode: Mode::OverTheBoard { supervised: true },
        ..setup(Some(FEN), "5400+30")
    };
    for written in ["a7a8", "a8"] {
        let mut g = Game::new(s.clone(), 0).unwrap();
        let events = mv(&mut g, 10_000, White, written);
        assert!(
            events.contains(&Event::IllegalMove {
                by: White,
                mv: "a7-a8".into(),
                count: 1,
                penalty_ms: 120_000
            }),
            "{written}: {events:?}"
        );
        assert!(queened(&events), "{events:?}");
        assert_eq!(queen_on_a8(&g), Some(Piece::new(White, Role::Queen)));
        assert_eq!(
            g.position().turn(),
            Black,
            "the move stands, as the queen's"
        );
        assert_eq!(
            g.clock().remaining(White, 10_000),
            Some(5_400_000 - 10_000 + 30_000),
            "the clock was pressed: the move is completed"
        );
        assert_eq!(
            g.clock().remaining(Black, 10_000),
            Some(5_400_000 + 120_000)
        );
        let ply = g.plies().last().unwrap();
        assert_eq!(ply.san.as_str(), "a8=Q");
        assert!(ply.notes.iter().any(|n| n.contains("7.5.2")), "{ply:?}");
    }
    // The second illegal move loses, whatever it is (7.5.5).
    let s2 = Setup {
        mode: Mode::OverTheBoard { supervised: true },
        ..setup(Some("8/PP6/8/8/8/8/r7/4K2k w - - 0 1"), "5400+30")
    };
    let mut g = Game::new(s2, 0).unwrap();
    mv(&mut g, 1_000, White, "a7a8");
    mv(&mut g, 2_000, Black, "Kh2");
    mv(&mut g, 3_000, White, "b7b8");
    assert_eq!(ended(&g), (GameResult::BlackWins, Reason::IllegalMoves));
    // A pawn that may not go there at all (pinned to its king) is an ordinary illegal move.
    let pinned = Setup {
        mode: Mode::OverTheBoard { supervised: true },
        ..setup(Some("2b5/1P6/K7/8/8/8/8/7k w - - 0 1"), "5400+30")
    };
    let mut g = Game::new(pinned, 0).unwrap();
    let events = mv(&mut g, 1_000, White, "b7b8");
    assert!(matches!(events[0], Event::IllegalMove { count: 1, .. }));
    assert!(!queened(&events));
    assert_eq!(
        g.position().turn(),
        White,
        "the position before is reinstated"
    );

    // Unsupervised blitz: the move stands unless claimed; claimed, the same as above.
    let mut g = unsupervised(FEN);
    let events = mv(&mut g, 10_000, White, "a7a8");
    assert!(matches!(events[0], Event::IllegalMoveStands { .. }));
    let events = g
        .apply(13_000, Command::ClaimIllegalMove { by: Black })
        .unwrap();
    assert!(
        matches!(
            events[0],
            Event::IllegalMove {
                by: White,
                count: 1,
                penalty_ms: 60_000,
                ..
            }
        ),
        "{events:?}"
    );
    assert!(queened(&events), "{events:?}");
    assert_eq!(queen_on_a8(&g), Some(Piece::new(White, Role::Queen)));
    assert_eq!(g.position().turn(), Black);
    assert_eq!(g.clock().running(), Some(Black));
    // White's move ended when the clock was pressed; Black's time until the claim is Black's.
    assert_eq!(
        g.clock().remaining(White, 13_000),
        Some(180_000 - 10_000 + 2_000)
    );
    assert_eq!(
        g.clock().remaining(Black, 13_000),
        Some(180_000 - 3_000 + 60_000)
    );
    assert_eq!(g.plies().len(), 1);
    let again = Game::replay(g.setup().clone(), 0, g.log()).unwrap();
    assert_eq!(again, g, "the log replays to the same game");
}

/// Arts. 9.2.1.1 and 9.5.3 over the board: a claim whose declared move is illegal is an
/// incorrect claim. The opponent gets the penalty time and the claimant then makes a legal
/// move. Online the claim is refused and changes nothing; text that is no move at all is
/// refused in both.
#[test]
fn claim_with_an_illegal_declared_move_is_incorrect_over_the_board_9_5_3() {
    const FEN: &str = "8/8/8/4k3/8/8/8/R3K3 w - - 99 80";
    let claim = |g: &mut Game, declared: &str| {
        g.apply(
            10_000,
            Command::ClaimDraw {
                by: White,
                claim: Claim::FiftyMoves,
                declared: Some(declared.into()),
            },
        )
    };
    let otb = Setup {
        mode: Mode::OverTheBoard { supervised: true },
        ..setup(Some(FEN), "5400+30")
    };
    for declared in ["Rb2", "a1b2"] {
        let mut g = Game::new(otb.clone(), 0).unwrap();
        let events = claim(&mut g, declared).unwrap();
        assert!(
            events.contains(&Event::ClaimRejected {
                by: White,
                claim: Claim::FiftyMoves,
                penalty_ms: 120_000
            }),
            "{declared}: {events:?}"
        );
        assert!(g.outcome().is_none());
        assert_eq!(g.position().turn(), White, "the claimant is still to move");
        assert_eq!(
            g.clock().remaining(Black, 10_000),
            Some(5_400_000 + 120_000)
        );
        mv(&mut g, 11_000, White, "Ra2");
        assert!(g.outcome().is_none());
        let again = Game::replay(g.setup().clone(), 0, g.log()).unwrap();
        assert_eq!(again, g, "the log replays to the same game");
    }
    let mut g = Game::new(otb, 0).unwrap();
    assert!(matches!(claim(&mut g, "zz"), Err(CommandError::BadMove(_))));
    let mut g = Game::new(setup(Some(FEN), "5400+30"), 0).unwrap();
    let before = g.clone();
    assert!(matches!(
        claim(&mut g, "Rb2"),
        Err(CommandError::BadMove(_))
    ));
    assert_eq!(g, before, "online the refusal changes nothing");
}
