//! The computer's seat: when it is the computer's move, the engine's [`Player`] thinks on a
//! blocking thread and its move comes back to the actor as a request, so the game's task never
//! waits for a search.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;
use vizier_arbiter::Game;
use vizier_engine::{Player, TimeLeft};
use vizier_rules::UciCastling;

use super::Request;
use crate::hub::now_ms;
use crate::record::Seat;

/// The computer players of one game.
#[derive(Default)]
pub(super) struct Computer {
    /// The search the actor is waiting for, by number.
    thinking: Option<u64>,
    last: u64,
    /// Each computer seat's player, kept from move to move as a UCI engine keeps its table
    /// through a game (the levels were measured that way).
    players: [Option<Arc<Player>>; 2],
}

impl Computer {
    /// Starts a search when it is a computer seat's move and none runs yet.
    pub fn maybe_think(
        &mut self,
        game: &Game,
        seats: &[Seat; 2],
        seed: u64,
        human_pace: bool,
        me: &mpsc::WeakSender<Request>,
    ) {
        if game.outcome().is_some() || self.thinking.is_some() {
            return;
        }
        let turn = game.position().turn();
        let Seat::Computer { level } = seats[turn.index()] else {
            return;
        };
        self.last += 1;
        let token = self.last;
        self.thinking = Some(token);
        let clock = game.clock();
        let time = clock.remaining(turn, now_ms()).map(|time| TimeLeft {
            time,
            inc: clock.current_period(turn).map_or(0, |p| p.increment_ms),
            movestogo: clock.moves_to_go(turn).map(|m| u64::from(m.max(1))),
        });
        let history = game.history().clone();
        let castling = UciCastling::for_chess960(game.is_chess960());
        let player = self.players[turn.index()]
            .get_or_insert_with(|| Arc::new(Player::new(level, seed)))
            .clone();
        let me = me.clone();
        tokio::spawn(async move {
            let started = tokio::time::Instant::now();
            let choice = tokio::task::spawn_blocking(move || {
                let pos = history.position();
                player.choose(&history, time).map(|m| pos.uci(m, castling))
            })
            .await;
            if human_pace {
                // A person needs a moment even for an obvious move; so does the computer here.
                let pace = time.map_or(700, |c| (c.time / 80).clamp(300, 1_500));
                tokio::time::sleep_until(started + Duration::from_millis(pace)).await;
            }
            if let (Ok(Some(uci)), Some(tx)) = (choice, me.upgrade()) {
                let _ = tx.send(Request::ComputerMove { token, uci }).await;
            }
        });
    }

    /// Whether search `token` is the one awaited; if so, it is no longer awaited.
    pub fn answered(&mut self, token: u64) -> bool {
        if self.thinking == Some(token) {
            self.thinking = None;
            true
        } else {
            false
        }
    }

    /// The running search is stale (a takeback): stop it, and let the next one start afresh
    /// rather than share a table with it.
    pub fn forget(&mut self) {
        if self.thinking.take().is_some() {
            self.stop();
            self.players = [None, None];
        }
    }

    /// Stops any running search.
    pub fn stop(&self) {
        for player in self.players.iter().flatten() {
            player.stopper().stop();
        }
    }
}
