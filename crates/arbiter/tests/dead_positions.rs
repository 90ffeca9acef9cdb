//! Dead positions and "cannot checkmate" in live play, by article: the per-move check settles
//! what it can; what needs a deeper search the arbiter asks its host for
//! ([`CommandError::NeedsProof`]) and takes the answers as commands, as a server does.

use vizier_arbiter::{
    Command, CommandError, Game, GameResult, Reason, Setup, StartPosition, TimeControl,
};
use vizier_rules::Color::{self, Black, White};
use vizier_rules::{DEEP_NODES, MateVerdict, Position};

/// Locked pawns: neither side can ever checkmate, which only the deep decision proves.
const DEAD: &str = "1k6/1P5p/BP3p2/1P6/8/6K1/5P1P/8 w - - 0 1";
/// Black can never checkmate (White can), which only the deep decision proves: the position
/// of the report where a flag fall was scored 0–1.
const BLACK_CANNOT: &str = "1k6/1P1p1p1p/BP6/1P6/8/8/3P1PKP/8 w - - 0 1";
/// Dead (every White move stalemates or lets Black go on shut in), though the per-move check
/// takes it for alive: its structure search gives up where a queen can reach the king.
const LOOKS_ALIVE: &str = "k7/Pp6/1P6/8/8/8/6K1/6Q1 w - - 0 1";
/// Locked too, in part, but either side can still checkmate.
const ALIVE_OPEN: &str = "8/8/7p/1k3p2/3p1P2/1p1P1PpP/1P4P1/K7 b - - 0 1";

fn game(fen: &str, control: &str) -> Game {
    let setup = Setup {
        start: StartPosition::Fen(fen.into()),
        control: TimeControl::parse_pgn(control).unwrap(),
        ..Setup::default()
    };
    let mut game = Game::new(setup, 0).unwrap();
    game.ask_for_proofs();
    game
}

/// What a host answers to `question`: the deep decision, as a server's proof pool makes it.
fn answer(game: &Game, question: CommandError) -> Command {
    let CommandError::NeedsProof { side, fen } = question else {
        panic!("not a question: {question}");
    };
    let pos = Position::from_fen(&fen).unwrap();
    let can_mate = |side| match pos.mate_verdict(side, DEEP_NODES) {
        MateVerdict::Can(_) => Some(true),
        MateVerdict::Cannot => Some(false),
        MateVerdict::Undecided => None,
    };
    match side {
        Some(side) => Command::Proved {
            side,
            fen,
            can_mate: can_mate(side),
        },
        None => match Color::ALL.into_iter().find(|&c| can_mate(c) != Some(false)) {
            Some(side) => Command::Proved {
                side,
                fen,
                can_mate: can_mate(side),
            },
            None => Command::DeadPosition {
                after: game.plies().len(),
            },
        },
    }
}

/// Applies `command` as a server does: answering the arbiter's questions first.
fn apply(game: &mut Game, at: u64, command: Command) -> Result<(), CommandError> {
    loop {
        match game.apply(at, command.clone()) {
            Err(question @ CommandError::NeedsProof { .. }) => {
                let proof = answer(game, question);
                game.apply(at, proof)?;
            }
            done => return done.map(|_| ()),
        }
    }
}

fn ended(game: &Game) -> (GameResult, Reason) {
    let o = game.outcome().expect("game over");
    (o.result, o.reason)
}

/// Art. 5.2.2: a position the per-move check leaves open is played on until a proof comes;
/// the proof ends the game as a draw at the move where the position became dead, whatever
/// was played after, and the PGN says so there.
#[test]
fn a_dead_position_proved_later_ends_the_game_5_2_2() {
    let mut g = game(DEAD, "-");
    assert!(g.outcome().is_none() && g.dead_open());
    for (t, mv) in [(1, "Kf3"), (2, "h6"), (3, "Ke3")] {
        let by = g.position().turn();
        g.apply(t, Command::Move { by, mv: mv.into() }).unwrap();
        assert!(g.dead_open(), "{mv}");
    }
    // The proof was made on the position after White's first move.
    g.apply(4, Command::DeadPosition { after: 1 }).unwrap();
    assert_eq!(ended(&g), (GameResult::Draw, Reason::DeadPosition));
    assert_eq!(g.dead_after(), Some(1));
    let pgn = g.pgn(&Default::default());
    assert!(
        pgn.contains("1. Kf3 {dead position from here"),
        "the comment is at the move that made it dead: {pgn}"
    );
    assert_eq!(
        g.apply(5, Command::Resign { by: White }),
        Err(CommandError::GameOver)
    );
    // A proof for a ply not played does not fit.
    let mut g = game(DEAD, "-");
    assert_eq!(
        g.apply(1, Command::DeadPosition { after: 1 }),
        Err(CommandError::BadProof)
    );
}

/// Art. 6.9: the flag falls where the opponent cannot checkmate, which only a deep proof
/// shows: a draw. (A search at the old budget left it undecided and scored 0–1.)
#[test]
fn a_flag_fall_is_judged_by_proof_6_9() {
    let mut g = game(BLACK_CANNOT, "60");
    let fen = Position::from_fen(BLACK_CANNOT).unwrap().fen();
    // The per-move check left the position open: first, whether it is dead (then the game
    // had ended before the flag fell); then whether Black can mate.
    let question = g.apply(61_000, Command::CheckFlag).unwrap_err();
    assert_eq!(
        question,
        CommandError::NeedsProof {
            side: None,
            fen: fen.clone()
        }
    );
    assert!(g.outcome().is_none(), "a question changes nothing");
    let alive = answer(&g, question);
    g.apply(61_000, alive).unwrap();
    let question = g.apply(61_000, Command::CheckFlag).unwrap_err();
    assert_eq!(
        question,
        CommandError::NeedsProof {
            side: Some(Black),
            fen: fen.clone()
        }
    );
    let mut g = game(BLACK_CANNOT, "60");
    apply(&mut g, 61_000, Command::CheckFlag).unwrap();
    assert_eq!(ended(&g), (GameResult::Draw, Reason::TimeForfeitNoMate));
    // A move made after the flag fell meets the same question, and the flag first.
    let mut g = game(BLACK_CANNOT, "60");
    apply(
        &mut g,
        70_000,
        Command::Move {
            by: White,
            mv: "Kf1".into(),
        },
    )
    .unwrap();
    assert_eq!(ended(&g), (GameResult::Draw, Reason::TimeForfeitNoMate));
    assert!(g.plies().is_empty());
    // An answer that gave up counts as "can mate": only a proof draws.
    let mut g = game(BLACK_CANNOT, "60");
    g.apply(
        61_000,
        Command::Proved {
            side: Black,
            fen,
            can_mate: None,
        },
    )
    .unwrap();
    g.apply(61_000, Command::CheckFlag).unwrap();
    assert_eq!(ended(&g), (GameResult::BlackWins, Reason::TimeForfeit));
    // The log holds the answers: a replay needs no search and gives the same game.
    let again = Game::replay(g.setup().clone(), 0, g.log()).unwrap();
    assert_eq!(again.outcome(), g.outcome());
}

/// Arts. 6.9 and 5.2.2: a flag that falls in a position already dead, before any proof of it
/// came, is no loss: the game had ended as a draw. Asked first, as for a resignation.
#[test]
fn a_flag_falling_in_a_dead_position_draws_5_2_2() {
    let mut g = game(DEAD, "60");
    let question = g.apply(61_000, Command::CheckFlag).unwrap_err();
    assert!(
        matches!(question, CommandError::NeedsProof { side: None, .. }),
        "{question}"
    );
    assert_eq!(
        apply(&mut g, 61_000, Command::CheckFlag),
        Err(CommandError::GameOver)
    );
    assert_eq!(ended(&g), (GameResult::Draw, Reason::DeadPosition));
    // A move made after the flag fell: the same.
    let mut g = game(DEAD, "60");
    let late = Command::Move {
        by: White,
        mv: "Kf3".into(),
    };
    assert_eq!(apply(&mut g, 70_000, late), Err(CommandError::GameOver));
    assert_eq!(ended(&g), (GameResult::Draw, Reason::DeadPosition));
    assert!(g.plies().is_empty());
}

/// Art. 7.5.5: the second completed illegal move loses, unless the opponent cannot checkmate
/// by any series of legal moves, which only a deep proof shows here: a draw.
#[test]
fn a_second_illegal_move_is_judged_by_proof_7_5_5() {
    let mut g = game(BLACK_CANNOT, "5400+30");
    let mut s = g.setup().clone();
    s.mode = vizier_arbiter::Mode::OverTheBoard { supervised: true };
    g = Game::new(s, 0).unwrap();
    g.ask_for_proofs();
    // The king "moves" two squares, twice.
    let king_leaps = || Command::Move {
        by: White,
        mv: "g2g4".into(),
    };
    apply(&mut g, 1_000, king_leaps()).unwrap();
    assert!(
        g.outcome().is_none(),
        "the first illegal move costs time only"
    );
    apply(&mut g, 2_000, king_leaps()).unwrap();
    assert_eq!(ended(&g), (GameResult::Draw, Reason::IllegalMovesNoMate));
}

/// Arts. 5.1.2 and 5.2.2: resigning in a position that is already dead is no resignation;
/// the game had ended as a draw. Where a side can still mate, the resignation stands.
#[test]
fn resigning_in_a_dead_position_is_no_resignation_5_1_2() {
    let mut g = game(DEAD, "-");
    let question = g.apply(1_000, Command::Resign { by: White }).unwrap_err();
    assert!(
        matches!(question, CommandError::NeedsProof { side: None, .. }),
        "{question}"
    );
    assert_eq!(
        apply(&mut g, 1_000, Command::Resign { by: White }),
        Err(CommandError::GameOver)
    );
    assert_eq!(ended(&g), (GameResult::Draw, Reason::DeadPosition));
    assert_eq!(g.dead_after(), Some(0));
    // Dead where the per-move check sees life (a queen that could reach the king, but every
    // move of White's stalemates or leaves Black no way out): asked all the same.
    let mut g = game(LOOKS_ALIVE, "-");
    assert!(g.outcome().is_none() && !g.dead_open());
    assert_eq!(
        apply(&mut g, 1_000, Command::Resign { by: Black }),
        Err(CommandError::GameOver)
    );
    assert_eq!(ended(&g), (GameResult::Draw, Reason::DeadPosition));
    let mut g = game(ALIVE_OPEN, "-");
    assert!(g.dead_open());
    apply(&mut g, 1_000, Command::Resign { by: Black }).unwrap();
    assert_eq!(ended(&g), (GameResult::WhiteWins, Reason::Resignation));
}

/// Without a host to ask (a replay of a log from before hosts answered), the arbiter
/// searches itself, as it did when that log was written.
#[test]
fn without_a_host_the_arbiter_searches_itself() {
    let setup = Setup {
        start: StartPosition::Fen(BLACK_CANNOT.into()),
        control: TimeControl::parse_pgn("60").unwrap(),
        ..Setup::default()
    };
    let mut g = Game::new(setup, 0).unwrap();
    g.apply(61_000, Command::CheckFlag).unwrap();
    assert!(g.outcome().is_some());
    let mut g = Game::new(Setup::default(), 0).unwrap();
    g.apply(1_000, Command::Resign { by: White }).unwrap();
    assert_eq!(ended(&g), (GameResult::BlackWins, Reason::Resignation));
}
