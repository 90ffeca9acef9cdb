//! `vizier match`: plays engines against each other with paired colours, openings, concurrency
//! and clocks kept by the arbiter; reports Elo with a 95% interval and, optionally, an SPRT.

mod engine;
mod error;
mod stats;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use error::MatchError;
use vizier_arbiter::{
    Claim, Command, CommandError, Game, GameResult, Period, Setup, StartPosition, Tags, TimeControl,
};
use vizier_rules::Color;

use engine::{Engine, Go, Spec};
use stats::{Score, sprt_bounds};

#[derive(clap::Args)]
pub struct Args {
    /// The first engine (results are given from its side): a name in --engines, or "vizier".
    first: String,
    /// The second engine.
    second: String,
    /// JSON file of engines: {"name": {"protocol": "uci", "command": [...], "options": {...}}}.
    #[arg(long)]
    engines: Option<PathBuf>,
    /// Number of games (each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Print the result as one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Time control: "BASE+INC" in seconds (e.g. 10+0.1), "MOVES/BASE+INC" (e.g. 40/60+0.6:
    /// 40 moves in 60 s, repeating), "movetime=MS" or "nodes=N".
    #[arg(long, default_value = "10+0.1")]
    tc: String,
    /// Openings: one FEN/EPD per line (lines starting with '#' are skipped); default: the start.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Append the games to this PGN file.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Sequential test "ELO0,ELO1,ALPHA,BETA" (e.g. 0,10,0.05,0.05): stops at a verdict.
    #[arg(long)]
    sprt: Option<String>,
    /// Draw adjudication "MOVENUMBER,MOVECOUNT,SCORE" (e.g. 40,8,10): from move MOVENUMBER
    /// on, a game is drawn once both engines have scored within ±SCORE centipawns for their
    /// last MOVECOUNT moves each (UCI engines only: CECP gives no scores).
    #[arg(long)]
    draw: Option<String>,
    /// Resign adjudication "MOVECOUNT,SCORE" (e.g. 3,1000): a game is lost by the side whose
    /// engine scored at most −SCORE for its last MOVECOUNT moves while its opponent's scored
    /// at least SCORE.
    #[arg(long)]
    resign: Option<String>,
}

/// When a game is decided for the engines (both must agree, by their own scores).
#[derive(Clone, Copy, Debug, Default)]
struct Adjudication {
    /// (from move number, moves each, centipawns)
    draw: Option<(u32, usize, i32)>,
    /// (moves each, centipawns)
    resign: Option<(usize, i32)>,
}

/// What adjudication decides after the last ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Draw,
    /// The side that made the last move loses.
    MoverLoses,
    /// The side to move loses.
    OpponentLoses,
}

impl Adjudication {
    fn parse(draw: Option<&str>, resign: Option<&str>) -> Result<Adjudication, MatchError> {
        let numbers = |text: &str, n: usize, flag: &'static str| -> Result<Vec<i64>, MatchError> {
            let bad = || MatchError::Adjudication {
                flag,
                text: text.into(),
            };
            let v: Vec<i64> = text
                .split(',')
                .map(|x| x.trim().parse::<i64>())
                .collect::<Result<_, _>>()
                .map_err(|_| bad())?;
            if v.len() != n || v.iter().any(|&x| x < 0) || v[n - 2] == 0 {
                return Err(bad());
            }
            Ok(v)
        };
        Ok(Adjudication {
            draw: match draw {
                Some(t) => {
                    let v = numbers(t, 3, "draw")?;
                    Some((v[0] as u32, v[1] as usize, v[2] as i32))
                }
                None => None,
            },
            resign: match resign {
                Some(t) => {
                    let v = numbers(t, 2, "resign")?;
                    Some((v[0] as usize, v[1] as i32))
                }
                None => None,
            },
        })
    }

    /// Looks at the engines' scores, one per ply so far (each from the side that moved), after
    /// the last ply, made in move `move_number`.
    fn decide(&self, scores: &[Option<i32>], move_number: u32) -> Option<Verdict> {
        let n = scores.len();
        // The last `count` scores of the mover and of its opponent, if all are known.
        let last = |count: usize, of_mover: bool| -> Option<Vec<i32>> {
            let first = if of_mover { 1 } else { 2 };
            (0..count)
                .map(|k| {
                    let back = first + 2 * k;
                    if back > n { None } else { scores[n - back] }
                })
                .collect()
        };
        if let Some((count, cp)) = self.resign
            && let (Some(mover), Some(other)) = (last(count, true), last(count, false))
        {
            if mover.iter().all(|&s| s <= -cp) && other.iter().all(|&s| s >= cp) {
                return Some(Verdict::MoverLoses);
            }
            if mover.iter().all(|&s| s >= cp) && other.iter().all(|&s| s <= -cp) {
                return Some(Verdict::OpponentLoses);
            }
        }
        if let Some((from, count, cp)) = self.draw
            && move_number >= from
            && let (Some(mover), Some(other)) = (last(count, true), last(count, false))
            && mover.iter().chain(&other).all(|s| s.abs() <= cp)
        {
            return Some(Verdict::Draw);
        }
        None
    }
}

#[derive(Clone, Copy)]
enum Limit {
    /// `base` for the game, or for every `moves` moves (repeating), plus `inc` a move.
    Clock {
        base_ms: u64,
        inc_ms: u64,
        moves: Option<u32>,
    },
    MoveTime(u64),
    Nodes(u64),
}

fn parse_tc(tc: &str) -> Result<Limit, MatchError> {
    let bad = || MatchError::TimeControl(tc.into());
    // A control that gives no time or no nodes at all is refused: every game would be lost
    // on the first move.
    if let Some(ms) = tc.strip_prefix("movetime=") {
        return ms
            .parse()
            .ok()
            .filter(|&ms: &u64| ms > 0)
            .map(Limit::MoveTime)
            .ok_or_else(bad);
    }
    if let Some(n) = tc.strip_prefix("nodes=") {
        return n
            .parse()
            .ok()
            .filter(|&n: &u64| n > 0)
            .map(Limit::Nodes)
            .ok_or_else(bad);
    }
    // "40/60+0.6": 40 moves in 60 s, again and again, 0.6 s more a move.
    let (moves, tc_rest) = match tc.split_once('/') {
        Some((m, rest)) => (
            Some(m.parse::<u32>().ok().filter(|&m| m > 0).ok_or_else(bad)?),
            rest,
        ),
        None => (None, tc),
    };
    let (base, inc) = tc_rest.split_once('+').unwrap_or((tc_rest, "0"));
    let secs = |s: &str| {
        s.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0)
            .map(|v| (v * 1000.0) as u64)
    };
    let (base_ms, inc_ms) = (secs(base).ok_or_else(bad)?, secs(inc).ok_or_else(bad)?);
    if base_ms == 0 {
        return Err(bad());
    }
    Ok(Limit::Clock {
        base_ms,
        inc_ms,
        moves,
    })
}

fn load_specs(path: Option<&PathBuf>) -> Result<BTreeMap<String, Spec>, MatchError> {
    let mut specs = match path {
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|source| MatchError::File {
                path: p.clone(),
                source,
            })?;
            serde_json::from_str(&text).map_err(|source| MatchError::EnginesFile {
                path: p.clone(),
                source,
            })?
        }
        None => BTreeMap::new(),
    };
    let me = std::env::current_exe().map_err(MatchError::OwnPath)?;
    specs.entry("vizier".to_string()).or_insert(Spec {
        protocol: "uci".into(),
        command: vec![me.display().to_string(), "uci".into()],
        options: Default::default(),
    });
    Ok(specs)
}

fn load_openings(path: Option<&PathBuf>) -> Result<Vec<String>, MatchError> {
    let Some(p) = path else {
        return Ok(vec![vizier_rules::Position::new().fen()]);
    };
    let text = std::fs::read_to_string(p).map_err(|source| MatchError::File {
        path: p.clone(),
        source,
    })?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        // EPD: the first four fields are the position; operations follow.
        let fen: Vec<&str> = line.split_whitespace().take(4).collect();
        let fen = fen.join(" ");
        match vizier_rules::Position::from_fen(&fen) {
            Ok(pos) => out.push(pos.fen()),
            Err(source) => {
                return Err(MatchError::Opening {
                    path: p.clone(),
                    line: i + 1,
                    source,
                });
            }
        }
    }
    if out.is_empty() {
        return Err(MatchError::NoOpenings(p.clone()));
    }
    Ok(out)
}

/// Plays one game; returns the result from the first engine's side (1, ½, 0 as 2, 1, 0) and
/// the PGN.
fn play(
    first: &mut Engine,
    second: &mut Engine,
    first_white: bool,
    fen: &str,
    limit: Limit,
    round: u32,
    adjudication: Adjudication,
) -> Result<(u32, String), MatchError> {
    let control = match limit {
        Limit::Clock {
            base_ms,
            inc_ms,
            moves: None,
        } => TimeControl::sudden_death(base_ms, inc_ms),
        Limit::Clock {
            base_ms,
            inc_ms,
            moves: Some(moves),
        } => TimeControl::Clock(vec![Period::moves(moves, base_ms, inc_ms)]),
        _ => TimeControl::Unlimited,
    };
    let setup = Setup {
        start: StartPosition::Fen(fen.to_string()),
        control,
        ..Setup::default()
    };
    let clock0 = Instant::now();
    let now = || clock0.elapsed().as_millis() as u64;
    let mut game = Game::new(setup, now()).map_err(MatchError::Setup)?;
    let chess960 = game.is_chess960();
    for e in [&mut *first, &mut *second] {
        e.new_game(chess960)?;
    }
    let mut scores: Vec<Option<i32>> = Vec::new();
    // How the game ended where the arbiter's own words would not say it: the PGN standard's
    // Termination values.
    let mut termination: Option<&'static str> = None;
    while game.outcome().is_none() {
        let turn = game.position().turn();
        let first_to_move = (turn == Color::White) == first_white;
        let engine: &mut Engine = if first_to_move { first } else { second };
        let moves: Vec<(&str, &str)> = game
            .plies()
            .iter()
            .map(|p| (p.uci.as_str(), p.san.as_str()))
            .collect();
        let t = now();
        let (go, timeout) = match limit {
            Limit::Clock {
                base_ms,
                inc_ms,
                moves,
            } => {
                let w = game.clock().remaining(Color::White, t).unwrap_or(0);
                let b = game.clock().remaining(Color::Black, t).unwrap_or(0);
                let mine = if turn == Color::White { w } else { b };
                let go = Go::Clock {
                    white_ms: w,
                    black_ms: b,
                    inc_ms,
                    base_ms,
                    white_to_move: turn == Color::White,
                    period: moves,
                    moves_to_go: moves.and_then(|_| game.clock().moves_to_go(turn)),
                };
                (go, Duration::from_millis(mine + 5_000))
            }
            Limit::MoveTime(ms) => (Go::MoveTime(ms), Duration::from_millis(ms * 3 + 5_000)),
            Limit::Nodes(n) => (Go::Nodes(n), Duration::from_secs(60)),
        };
        match engine.best_move(fen, &moves, go, timeout) {
            Ok(reply) => match game.apply(
                now(),
                Command::Move {
                    by: turn,
                    mv: reply.mv.clone(),
                },
            ) {
                Ok(_) => {
                    scores.push(reply.score);
                    if game.outcome().is_none()
                        && let Some(verdict) =
                            adjudication.decide(&scores, game.position().fullmoves())
                    {
                        let t = now();
                        let done = match verdict {
                            Verdict::MoverLoses => game.apply(t, Command::Resign { by: turn }),
                            Verdict::OpponentLoses => game.apply(t, Command::Resign { by: !turn }),
                            Verdict::Draw => game
                                .apply(t, Command::OfferDraw { by: turn })
                                .and_then(|_| game.apply(t, Command::AcceptDraw { by: !turn })),
                        };
                        done?;
                        termination = Some("adjudication");
                    }
                }
                Err(CommandError::BadMove(_)) => {
                    // An illegal move loses at once (engines get no second chance).
                    eprintln!(
                        "\n{}: illegal move {} in {}",
                        engine.name,
                        reply.mv,
                        game.position().fen()
                    );
                    game.apply(now(), Command::Resign { by: turn })?;
                    termination = Some("rules infraction");
                }
                Err(e) => return Err(e.into()),
            },
            // A setting the engine cannot follow ends the match: every game would go the same.
            Err(
                e
                @ (error::EngineError::NoNodeLimit { .. } | error::EngineError::NoSetboard { .. }),
            ) => return Err(e.into()),
            Err(e) => {
                eprintln!("\n{e}");
                // No answer: the flag decides; without a clock, the silent engine forfeits.
                // (Both at the same late instant: the game's commands may not go back in time.)
                // A timeout with a clock is a loss on time; an engine that crashed or said
                // nothing usable abandoned the game.
                let late = now() + 10_000_000;
                let timed_out = matches!(e, error::EngineError::Timeout { .. });
                if timed_out {
                    let _ = game.apply(late, Command::CheckFlag);
                }
                if game.outcome().is_none() {
                    game.apply(late, Command::Resign { by: turn })?;
                    termination = Some(if timed_out {
                        "time forfeit"
                    } else {
                        "abandoned"
                    });
                }
            }
        }
        // Draws a GUI would grant on a claim: threefold repetition and the 50-move rule.
        if game.outcome().is_none() {
            let by = game.position().turn();
            let h = game.history();
            let claim = if h.can_claim_threefold() {
                Some(Claim::Threefold)
            } else if h.can_claim_fifty() {
                Some(Claim::FiftyMoves)
            } else {
                None
            };
            if let Some(claim) = claim {
                game.apply(
                    now(),
                    Command::ClaimDraw {
                        by,
                        claim,
                        declared: None,
                    },
                )?;
            }
        }
    }
    let outcome = game.outcome().expect("loop ends with an outcome");
    let points = match (outcome.result, first_white) {
        (GameResult::Draw, _) | (GameResult::NoResult, _) => 1,
        (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => 2,
        _ => 0,
    };
    let (white, black) = if first_white {
        (&first.name, &second.name)
    } else {
        (&second.name, &first.name)
    };
    let tags = Tags {
        event: "vizier match".into(),
        round: round.to_string(),
        white: white.clone(),
        black: black.clone(),
        ..Tags::default()
    };
    let mut pgn = game.pgn(&tags);
    if let Some(termination) = termination {
        pgn = pgn.replacen(
            "[Termination \"normal\"]",
            &format!("[Termination \"{termination}\"]"),
            1,
        );
    }
    Ok((points, pgn))
}

pub fn run(args: Args) -> ExitCode {
    match run_inner(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("vizier match: {e}");
            ExitCode::from(2)
        }
    }
}

fn run_inner(args: Args) -> Result<ExitCode, MatchError> {
    let limit = parse_tc(&args.tc)?;
    let specs = load_specs(args.engines.as_ref())?;
    let spec = |name: &str| {
        specs
            .get(name)
            .cloned()
            .ok_or_else(|| MatchError::UnknownEngine {
                name: name.into(),
                known: specs.keys().cloned().collect(),
            })
    };
    let (first_spec, second_spec) = (spec(&args.first)?, spec(&args.second)?);
    let openings = load_openings(args.openings.as_ref())?;
    let adjudication = Adjudication::parse(args.draw.as_deref(), args.resign.as_deref())?;
    let sprt = match &args.sprt {
        Some(text) => {
            let v: Vec<f64> = text
                .split(',')
                .filter_map(|x| x.trim().parse().ok())
                .collect();
            let [e0, e1, a, b] = v[..] else {
                return Err(MatchError::Sprt(text.clone()));
            };
            Some((e0, e1, sprt_bounds(a, b)))
        }
        None => None,
    };
    let pgn_file = match &args.pgn {
        Some(p) => Some(Arc::new(Mutex::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|source| MatchError::File {
                    path: p.clone(),
                    source,
                })?,
        ))),
        None => None,
    };
    let score = Arc::new(Mutex::new(Score::default()));
    let next = Arc::new(AtomicU32::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let total = args.games;
    let started = Instant::now();
    std::thread::scope(|s| -> Result<(), MatchError> {
        let mut handles = Vec::new();
        for _ in 0..args.concurrency.max(1) {
            let (score, next, stop, pgn_file, openings) = (
                score.clone(),
                next.clone(),
                stop.clone(),
                pgn_file.clone(),
                &openings,
            );
            let (first_spec, second_spec) = (&first_spec, &second_spec);
            let (first_name, second_name) = (&args.first, &args.second);
            handles.push(s.spawn(move || -> Result<(), MatchError> {
                let mut first = Engine::start(first_name, first_spec)?;
                let mut second = Engine::start(second_name, second_spec)?;
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= total || stop.load(Ordering::SeqCst) {
                        return Ok(());
                    }
                    // An engine that crashed or hung lost that game; it starts afresh for this one.
                    for (engine, name, spec) in [
                        (&mut first, first_name, first_spec),
                        (&mut second, second_name, second_spec),
                    ] {
                        if engine.is_broken() {
                            *engine = Engine::start(name, spec)?;
                        }
                    }
                    let fen = &openings[(i / 2) as usize % openings.len()];
                    let (points, pgn) = play(
                        &mut first,
                        &mut second,
                        i % 2 == 0,
                        fen,
                        limit,
                        i + 1,
                        adjudication,
                    )?;
                    if let Some(f) = &pgn_file {
                        let _ = f
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .write_all(pgn.as_bytes());
                    }
                    let mut sc = score.lock().unwrap_or_else(|e| e.into_inner());
                    match points {
                        2 => sc.wins += 1,
                        1 => sc.draws += 1,
                        _ => sc.losses += 1,
                    }
                    let (elo, margin) = sc.elo();
                    let mut line = format!(
                        "games {}/{total}: +{} ={} -{}  Elo {elo:+.1} ± {margin:.1}",
                        sc.games(),
                        sc.wins,
                        sc.draws,
                        sc.losses
                    );
                    if let Some((e0, e1, (lo, hi))) = sprt {
                        let llr = sc.llr(e0, e1);
                        line.push_str(&format!("  LLR {llr:.2} [{lo:.2}, {hi:.2}]"));
                        if llr <= lo || llr >= hi {
                            stop.store(true, Ordering::SeqCst);
                        }
                    }
                    eprint!("\r{line}   ");
                }
            }));
        }
        for h in handles {
            h.join().map_err(|_| MatchError::Panicked)??;
        }
        Ok(())
    })?;
    let sc = *score.lock().unwrap_or_else(|e| e.into_inner());
    let (elo, margin) = sc.elo();
    eprintln!();
    let one_way = sc.wins == sc.games() || sc.losses == sc.games();
    let sprt_result = sprt.map(|(e0, e1, (lo, hi))| {
        let llr = sc.llr(e0, e1);
        let verdict = if llr >= hi {
            "H1 accepted"
        } else if llr <= lo {
            "H0 accepted"
        } else {
            "no verdict yet"
        };
        (e0, e1, lo, hi, llr, verdict)
    });
    if args.json {
        let json = serde_json::json!({
            "first": args.first,
            "second": args.second,
            "games": sc.games(),
            "wins": sc.wins,
            "draws": sc.draws,
            "losses": sc.losses,
            "score": (sc.wins as f64 + sc.draws as f64 / 2.0) / sc.games().max(1) as f64,
            // Unbounded when every game went one way.
            "elo": (!one_way).then_some(elo),
            "elo95": (!one_way).then_some(margin),
            "seconds": started.elapsed().as_secs_f64(),
            "sprt": sprt_result.map(|(elo0, elo1, lower, upper, llr, verdict)| serde_json::json!({
                "elo0": elo0, "elo1": elo1, "lower": lower, "upper": upper,
                "llr": llr, "verdict": verdict,
            })),
        });
        crate::out::line(json);
        return Ok(ExitCode::SUCCESS);
    }
    crate::out::line(format_args!(
        "{} vs {}: {} games in {:.0} s",
        args.first,
        args.second,
        sc.games(),
        started.elapsed().as_secs_f64()
    ));
    crate::out::line(format_args!(
        "score: +{} ={} -{} ({:.1}%)",
        sc.wins,
        sc.draws,
        sc.losses,
        100.0 * (sc.wins as f64 + sc.draws as f64 / 2.0) / sc.games().max(1) as f64
    ));
    if one_way {
        crate::out::line("Elo: unbounded (every game went one way; play more games)");
    } else {
        crate::out::line(format_args!("Elo: {elo:+.1} ± {margin:.1} (95%)"));
    }
    if let Some((e0, e1, lo, hi, llr, verdict)) = sprt_result {
        crate::out::line(format_args!(
            "SPRT [{e0}, {e1}]: LLR {llr:.2} in [{lo:.2}, {hi:.2}]: {verdict}"
        ));
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::engine::{MATE_SCORE, info_score};
    use super::*;

    #[test]
    fn info_lines_give_exact_scores_only() {
        assert_eq!(
            info_score("info depth 9 score cp -35 nodes 1 pv e2e4"),
            Some(-35)
        );
        assert_eq!(
            info_score("info depth 9 score mate 3 pv a1a8"),
            Some(MATE_SCORE - 3)
        );
        assert_eq!(
            info_score("info depth 9 score mate -2"),
            Some(-MATE_SCORE + 2)
        );
        assert_eq!(info_score("info depth 9 score cp 50 lowerbound"), None);
        assert_eq!(info_score("info string score cp"), None);
        assert_eq!(info_score("info nodes 100"), None);
    }

    #[test]
    fn time_controls_read() {
        assert!(matches!(
            parse_tc("40/60+0.6"),
            Ok(Limit::Clock {
                base_ms: 60_000,
                inc_ms: 600,
                moves: Some(40)
            })
        ));
        assert!(matches!(
            parse_tc("10+0.1"),
            Ok(Limit::Clock {
                base_ms: 10_000,
                inc_ms: 100,
                moves: None
            })
        ));
        assert!(matches!(parse_tc("movetime=200"), Ok(Limit::MoveTime(200))));
        for bad in ["0/60", "x/60", "40/", "40/0+1", "0+0", "nodes=0", "fast"] {
            assert!(parse_tc(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn adjudication_needs_both_engines_to_agree() {
        let rules = Adjudication::parse(Some("40,2,10"), Some("2,500")).unwrap();
        // Plies alternate: the mover's score last, its opponent's before it.
        let lost = [Some(600), Some(-700), Some(650), Some(-800)];
        assert_eq!(rules.decide(&lost, 20), Some(Verdict::MoverLoses));
        let won = [Some(-700), Some(600), Some(-800), Some(650)];
        assert_eq!(rules.decide(&won, 20), Some(Verdict::OpponentLoses));
        // The loser's opponent is not sure yet.
        let unsure = [Some(600), Some(-700), Some(100), Some(-800)];
        assert_eq!(rules.decide(&unsure, 20), None);
        // A missing score (a CECP engine) never adjudicates.
        assert_eq!(
            rules.decide(&[None, Some(-700), Some(650), Some(-800)], 20),
            None
        );
        let quiet = [Some(3), Some(-5), Some(0), Some(8)];
        assert_eq!(rules.decide(&quiet, 39), None);
        assert_eq!(rules.decide(&quiet, 40), Some(Verdict::Draw));
        assert_eq!(rules.decide(&quiet[1..], 40), None);
        assert!(Adjudication::parse(Some("40,0,10"), None).is_err());
        assert!(
            Adjudication::parse(None, Some("3"))
                .is_err_and(|e| e.to_string().contains("--resign \"3\""))
        );
    }
}
