//! The engine's front door for programs that play with it — the server's computer seat, the
//! self-play of training data — as Stockfish's `engine.h` is for its front ends: a [`Player`]
//! at a level, asked for a move in a game. Nothing outside the engine needs its search, table
//! or time management.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use vizier_rules::{History, Move};

use crate::eval::Evaluator;
use crate::level::{self, Style};
use crate::search::{Job, Limits, SearchResult, Shared};
use crate::timeman::{self, TimeLeft};

/// A computer player at a level, for one game at a time. It keeps its table and search memory
/// from move to move, as a UCI engine does through a game (the levels were measured that way);
/// [`Player::new_game`] forgets them.
///
/// ```
/// use vizier_engine::Player;
/// use vizier_rules::History;
/// let player = Player::new(2, 7);
/// let game = History::default();
/// let mv = player.choose(&game, None).unwrap();
/// assert!(game.position().legal_moves().contains(&mv));
/// ```
pub struct Player {
    shared: Arc<Shared>,
    style: Style,
    seed: u64,
    eval: Option<Arc<dyn Evaluator>>,
    /// The longest a move may take, in ms, whatever the clock.
    move_cap: Option<u64>,
}

/// Stops a player's running search from another thread.
#[derive(Clone)]
pub struct Stopper(pub(crate) Arc<Shared>);

impl Stopper {
    /// The search ends as soon as it can and answers with the best move found so far.
    pub fn stop(&self) {
        self.0.stop.store(true, Ordering::Relaxed);
    }
}

impl Player {
    /// The table size of a new player, in MiB.
    pub const HASH_MB: usize = 16;

    /// A player at `level` (see [`crate::level::MIN`] and [`crate::level::MAX`]; out-of-range
    /// levels play at the nearest). `seed` is the game's: it fixes the level's misjudgements for
    /// the whole game and, with the position, its choice among nearly equal moves.
    pub fn new(level: u8, seed: u64) -> Player {
        let level = level.clamp(level::MIN, level::MAX);
        Player {
            shared: Arc::new(Shared::new(Player::HASH_MB)),
            style: level::style(level),
            seed,
            eval: None,
            move_cap: None,
        }
    }

    /// The same player, never thinking longer than `ms` over a move, however much time its
    /// clock has (a day-long clock would otherwise plan over an hour a move).
    pub fn with_move_cap(mut self, ms: u64) -> Player {
        self.move_cap = Some(ms.max(1));
        self
    }

    /// The same player with a table of `mb` MiB.
    pub fn with_hash(mut self, mb: usize) -> Player {
        self.shared = Arc::new(Shared::new(mb));
        self
    }

    /// The same player evaluating with `eval` (a trained network, say) instead of its level's
    /// own evaluation.
    pub fn with_evaluation(mut self, eval: Arc<dyn Evaluator>) -> Player {
        self.eval = Some(eval);
        self
    }

    /// Chooses a move for the side to move in `game`, within `time` (the mover's clock; `None`
    /// for a game without one, where the top level still answers within seconds). `None` only
    /// when there is no legal move.
    pub fn choose(&self, game: &History, time: Option<TimeLeft>) -> Option<Move> {
        let limits = Limits::default();
        let job = self.job(game, &limits);
        let (soft, hard) = match time {
            Some(t) => timeman::allocate(t, 100),
            None => (2_000, 8_000),
        };
        let (soft, hard) = match self.move_cap {
            Some(cap) => (soft.min(cap / 2).max(1), hard.min(cap)),
            None => (soft, hard),
        };
        self.shared.soft_ms.store(soft, Ordering::Relaxed);
        self.shared.hard_ms.store(hard, Ordering::Relaxed);
        level::choose(
            &self.shared,
            &self.style,
            self.eval.as_deref(),
            &job,
            self.seed,
        )
    }

    /// Searches the side to move's position in `game` for `nodes` nodes, and says what it found:
    /// the move, its score and the depth reached (training data wants the score).
    pub fn search_nodes(&self, game: &History, nodes: u64) -> SearchResult {
        let limits = Limits {
            nodes: Some(nodes),
            multipv: 1,
            ..Limits::default()
        };
        let job = self.job(game, &limits);
        self.shared.soft_ms.store(0, Ordering::Relaxed);
        self.shared.hard_ms.store(0, Ordering::Relaxed);
        level::search_with(
            &self.shared,
            &self.style,
            self.eval.as_deref(),
            &job,
            self.seed,
            &mut |_| {},
        )
    }

    /// Forgets the table and search memory, as for a new game.
    pub fn new_game(&self) {
        self.shared.clear();
    }

    /// A handle that stops this player's running search.
    pub fn stopper(&self) -> Stopper {
        Stopper(self.shared.clone())
    }

    fn job<'a>(&self, game: &'a History, limits: &'a Limits) -> Job<'a> {
        self.shared.stop.store(false, Ordering::Relaxed);
        Job {
            pos: game.position(),
            game_keys: game.earlier_keys(),
            limits,
            threads: 1,
            start: Instant::now(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_keeps_its_table_through_the_game() {
        let player = Player::new(8, 1).with_hash(1);
        let mut game = History::default();
        let mv = player.choose(&game, None).unwrap();
        assert!(
            player.shared.tt.hashfull() > 0,
            "the first move's search left nothing behind"
        );
        game.push(mv).unwrap();
        let reply = player.choose(&game, None).unwrap();
        assert!(game.position().legal_moves().contains(&reply));
        player.new_game();
        assert_eq!(player.shared.tt.hashfull(), 0);
    }

    #[test]
    fn a_capped_player_answers_in_time_on_a_long_clock() {
        let player = Player::new(level::MAX, 1).with_hash(1).with_move_cap(300);
        let clock = TimeLeft {
            time: 86_400_000,
            inc: 0,
            movestogo: None,
        };
        let started = Instant::now();
        let mv = player.choose(&History::default(), Some(clock));
        assert!(mv.is_some());
        let took = started.elapsed().as_millis();
        assert!(took < 1_500, "{took} ms for a 300 ms cap");
    }

    #[test]
    fn a_stopped_search_still_answers() {
        let player = Player::new(level::MAX, 1).with_hash(1);
        let stopper = player.stopper();
        let game = History::default();
        let clock = TimeLeft {
            time: 86_400_000,
            inc: 0,
            movestogo: None,
        };
        let started = Instant::now();
        let mv = std::thread::scope(|s| {
            let search = s.spawn(|| player.choose(&game, Some(clock)));
            std::thread::sleep(std::time::Duration::from_millis(200));
            stopper.stop();
            search.join().unwrap()
        });
        assert!(game.position().legal_moves().contains(&mv.unwrap()));
        assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
    }
}
