//! Training positions for the neural evaluation: the engine plays itself at a fixed node count
//! from openings randomised by a few random moves, and each quiet position is kept with the
//! search's score and the game's result.
//!
//! One line per position: `FEN;SCORE;RESULT`, the score in centipawns and the result
//! (1, 0.5 or 0) both from White's point of view.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use vizier_rules::{Color, History};

use vizier_engine::eval::{Evaluator, Score};
use vizier_engine::random::mix;
use vizier_engine::search::{MATE_BOUND, is_quiet};
use vizier_engine::{Player, level};

/// What to generate.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Games to play.
    pub games: usize,
    /// Nodes searched for each move.
    pub nodes: u64,
    /// Random moves played from the start before the engine takes over.
    pub random_plies: usize,
    /// Openings further off balance than this (after a short search) are not played.
    pub max_opening_score: Score,
    /// A game is adjudicated once both sides agree it is won by this much ...
    pub win_score: Score,
    /// ... for this many plies in a row.
    pub win_plies: usize,
    /// Seeds the random openings (each game adds its number).
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            games: 100,
            nodes: 5_000,
            random_plies: 8,
            max_opening_score: 300,
            win_score: 2_000,
            win_plies: 6,
            seed: 1,
        }
    }
}

/// A finished game's kept positions: FEN and White's score.
struct Game {
    samples: Vec<(String, Score)>,
    /// From White's point of view.
    result: f32,
}

/// Plays one game from a random opening; `None` when the opening was rejected.
fn play(eval: &Arc<dyn Evaluator>, settings: &Settings, number: u64) -> Option<Game> {
    let game_seed = mix(settings.seed) ^ number;
    let mut game = History::default();
    for ply in 0..settings.random_plies {
        let moves = game.position().legal_moves();
        let pick = mix(game_seed ^ ((ply as u64) << 32)) % moves.len().max(1) as u64;
        game.push(*moves.as_slice().get(pick as usize)?).ok()?;
    }
    let player = Player::new(level::MAX, game_seed)
        .with_hash(8)
        .with_evaluation(eval.clone());
    let think = |game: &History, nodes: u64| player.search_nodes(game, nodes);
    if game.position().outcome().is_some()
        || think(&game, 1_000).score.abs() > settings.max_opening_score
    {
        return None;
    }
    player.new_game();
    let mut samples = Vec::new();
    let mut winning = (0usize, 0usize);
    let result = loop {
        // Mate, stalemate, a dead position, or a draw either side could claim.
        if let Some(outcome) = game.position().outcome() {
            break match outcome.winner {
                Some(Color::White) => 1.0,
                Some(Color::Black) => 0.0,
                None => 0.5,
            };
        }
        if game.can_claim_threefold() || game.can_claim_fifty() || game.moves().len() > 600 {
            break 0.5;
        }
        let out = think(&game, settings.nodes);
        let Some(m) = out.best else { break 0.5 };
        let pos = game.position();
        let white_score = if pos.turn() == Color::White {
            out.score
        } else {
            -out.score
        };
        if out.score.abs() < MATE_BOUND && !pos.is_check() && is_quiet(pos, m) {
            samples.push((pos.fen(), white_score));
        }
        // Adjudication: both sides' searches agree one of them is winning.
        winning = if white_score >= settings.win_score {
            (winning.0 + 1, 0)
        } else if white_score <= -settings.win_score {
            (0, winning.1 + 1)
        } else {
            (0, 0)
        };
        if winning.0 >= settings.win_plies {
            break 1.0;
        }
        if winning.1 >= settings.win_plies {
            break 0.0;
        }
        game.push(m).expect("the search plays legal moves");
    };
    Some(Game { samples, result })
}

/// Plays `settings.games` games on `threads` threads, writing each game's positions to `out`
/// as it ends; `progress` hears (games done, positions written) after each game. Returns the
/// number of positions written.
pub fn run(
    eval: Arc<dyn Evaluator>,
    settings: &Settings,
    threads: usize,
    out: &mut (dyn Write + Send),
    progress: &(dyn Fn(usize, usize) + Sync),
) -> std::io::Result<usize> {
    let next = AtomicUsize::new(0);
    let out = std::sync::Mutex::new((out, 0usize, 0usize));
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                s.spawn(|| -> std::io::Result<()> {
                    loop {
                        let number = next.fetch_add(1, Ordering::Relaxed);
                        if number >= settings.games {
                            return Ok(());
                        }
                        let Some(game) = play(&eval, settings, number as u64) else {
                            continue;
                        };
                        let mut text = String::new();
                        for (fen, score) in &game.samples {
                            text.push_str(&format!("{fen};{score};{}\n", game.result));
                        }
                        let mut guard = out.lock().unwrap_or_else(|e| e.into_inner());
                        let (w, games, positions) = &mut *guard;
                        w.write_all(text.as_bytes())?;
                        w.flush()?;
                        *games += 1;
                        *positions += game.samples.len();
                        progress(*games, *positions);
                    }
                })
            })
            .collect();
        for w in workers {
            w.join().unwrap_or(Ok(()))?;
        }
        Ok::<(), std::io::Error>(())
    })?;
    Ok(out.into_inner().unwrap_or_else(|e| e.into_inner()).2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use vizier_engine::eval::Classical;
    use vizier_rules::Position;

    #[test]
    fn games_give_quiet_positions_with_scores_and_results() {
        let settings = Settings {
            games: 2,
            nodes: 300,
            ..Settings::default()
        };
        let mut buf = Vec::new();
        let written = run(
            Arc::new(Classical::default()),
            &settings,
            1,
            &mut buf,
            &|_, _| {},
        )
        .unwrap();
        let text = String::from_utf8(buf).unwrap();
        assert_eq!(text.lines().count(), written);
        assert!(written > 10, "only {written} positions");
        for line in text.lines() {
            let fields: Vec<&str> = line.split(';').collect();
            assert_eq!(fields.len(), 3, "{line}");
            let pos = Position::from_fen(fields[0]).unwrap();
            assert!(!pos.is_check(), "{line}");
            assert!(fields[1].parse::<i32>().unwrap().abs() < MATE_BOUND);
            assert!(["1", "0.5", "0"].contains(&fields[2]), "{line}");
        }
    }
}
