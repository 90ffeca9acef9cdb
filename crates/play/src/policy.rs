//! The game policy: every new game and every seat taken, whoever asks (a form, the lobby's
//! seeks and pools, a challenge, a rematch, a friend's invite), is admitted here and nowhere
//! else, so that no path creates games past the limits: each player's unfinished games, the
//! new games each address may start an hour, and the computer games a player or an address
//! may hold at once.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use vizier_arbiter::TimeControl;

use crate::ids::{GameId, PlayerId};
use crate::limits::Limits;
use vizier_store::record::Seat;
use vizier_store::{Store, StoreError};

/// Longest base time accepted: a day (correspondence uses its own form).
const MAX_BASE_MS: u64 = 24 * 3_600_000;

/// Why a time control is refused for a new game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ControlRefused {
    TooManyPeriods,
    TooLong,
    EmptyPeriod,
    NoTime,
    NoFirstBase,
    /// Correspondence: outside 1 to 14 days a move.
    Days,
}

impl fmt::Display for ControlRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ControlRefused::TooManyPeriods => "at most five periods",
            ControlRefused::TooLong => "base at most a day, increment and delay at most 10 minutes",
            ControlRefused::EmptyPeriod => "a period needs at least one move",
            ControlRefused::NoTime => "the clock needs some time",
            ControlRefused::NoFirstBase => "the first period needs a base time",
            ControlRefused::Days => "correspondence: 1 to 14 days a move",
        })
    }
}

/// Whether the server takes `tc` for a new game: at most five periods, a base of at most a
/// day, an increment or delay of at most ten minutes, some time on the clock.
pub fn check_control(tc: &TimeControl) -> Result<(), ControlRefused> {
    if let TimeControl::Correspondence { days_per_move } = tc
        && !(1..=14).contains(days_per_move)
    {
        return Err(ControlRefused::Days);
    }
    if let TimeControl::Clock(periods) = tc {
        if periods.len() > 5 {
            return Err(ControlRefused::TooManyPeriods);
        }
        for p in periods {
            if p.base_ms > MAX_BASE_MS || p.increment_ms > 600_000 || p.delay.ms() > 600_000 {
                return Err(ControlRefused::TooLong);
            }
            if p.moves == Some(0) {
                return Err(ControlRefused::EmptyPeriod);
            }
        }
        if periods
            .iter()
            .all(|p| p.base_ms == 0 && p.increment_ms == 0 && p.delay.ms() == 0)
        {
            return Err(ControlRefused::NoTime);
        }
        if periods.first().is_some_and(|p| p.base_ms == 0) {
            return Err(ControlRefused::NoFirstBase);
        }
    }
    Ok(())
}

/// A computer level out of range: levels go from the engine's lowest to its highest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadLevel(pub u8);

impl fmt::Display for BadLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (min, max) = (vizier_engine::level::MIN, vizier_engine::level::MAX);
        write!(f, "levels go from {min} to {max}")
    }
}

/// Whether the computer plays at `level`.
pub fn check_level(level: u8) -> Result<(), BadLevel> {
    let levels = vizier_engine::level::MIN..=vizier_engine::level::MAX;
    if levels.contains(&level) {
        Ok(())
    } else {
        Err(BadLevel(level))
    }
}

/// Someone a new game is for: the player, and the address they asked from where known (a
/// computer game's player, the players a lobby pairs, a rematch's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Party {
    pub player: PlayerId,
    /// The client's address as the per-address limits count it (an IPv6 /64).
    pub address: Option<String>,
}

impl Party {
    pub fn new(player: &PlayerId, address: Option<&str>) -> Party {
        Party {
            player: player.clone(),
            address: address.map(str::to_string),
        }
    }
}

/// Why the policy refuses a game.
#[derive(Debug)]
pub enum Refused {
    /// A party has this many unfinished games already.
    TooManyGames(i64),
    /// An address started as many new games this hour as it may (this many).
    TooManyNewGames(u32),
    /// The creator or their address holds as many computer games as they may (this many).
    TooManyComputerGames(usize),
    /// The database did not answer.
    Store(StoreError),
}

impl From<StoreError> for Refused {
    fn from(e: StoreError) -> Refused {
        Refused::Store(e)
    }
}

/// The budget of new games by address, which nodes may share.
pub trait NewGameBudget: Send + Sync {
    /// Takes one of `address`'s new games; false when none is left.
    fn take<'a>(&'a self, address: &'a str) -> Pending<'a, bool>;
}

/// A budget's answer, to come.
pub type Pending<'a, T> = std::pin::Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What the policy keeps between games.
#[derive(Default)]
pub struct Policy {
    /// The budget of new games by address; none (tests of the hub alone): no budget.
    budget: OnceLock<Arc<dyn NewGameBudget>>,
    /// The computer games started from each address, by id (finished ones are dropped when
    /// next counted).
    computer: Mutex<HashMap<String, Vec<GameId>>>,
}

impl Policy {
    /// Counts new games against `budget` from now on.
    pub fn share(&self, budget: Arc<dyn NewGameBudget>) {
        let _ = self.budget.set(budget);
    }

    /// Admits a game for `parties` (the creator first; a computer game when `computer`):
    /// each party has a place among their unfinished games, each address a new game left
    /// in its hour's budget, and a computer game a place among those of its player and
    /// address. Nothing is spent unless all is admitted, except the budgets of the addresses
    /// checked before one that ran out.
    pub async fn admit(
        &self,
        (store, limits): (&Store, &Limits),
        parties: &[Party],
        computer: bool,
    ) -> Result<(), Refused> {
        for party in parties {
            let seat = Seat::Player(party.player.clone()).to_text();
            let open = store.unfinished_games_of(&seat).await?;
            if open >= limits.open_games_per_player as i64 {
                return Err(Refused::TooManyGames(open));
            }
        }
        if computer && let Some(creator) = parties.first() {
            let seat = Seat::Player(creator.player.clone()).to_text();
            let held = store.unfinished_computer_games_of(&seat).await?;
            if held >= limits.computer_games_per_player as i64 {
                return Err(Refused::TooManyComputerGames(
                    limits.computer_games_per_player,
                ));
            }
            if let Some(address) = &creator.address {
                let held = self.computer_games_from(store, address).await?;
                if held >= limits.computer_games_per_address {
                    return Err(Refused::TooManyComputerGames(
                        limits.computer_games_per_address,
                    ));
                }
            }
        }
        let mut addresses: Vec<&str> = parties
            .iter()
            .filter_map(|p| p.address.as_deref())
            .collect();
        addresses.sort_unstable();
        addresses.dedup();
        if let Some(budget) = self.budget.get() {
            for address in addresses {
                if !budget.take(address).await {
                    return Err(Refused::TooManyNewGames(limits.new_games_per_address_hour));
                }
            }
        }
        Ok(())
    }

    /// Notes computer game `id`, started from `address`.
    pub fn started_computer_game(&self, address: &str, id: &GameId) {
        let mut games = self.computer.lock().unwrap_or_else(|e| e.into_inner());
        games
            .entry(address.to_string())
            .or_default()
            .push(id.clone());
    }

    /// The unfinished computer games started from `address`.
    async fn computer_games_from(&self, store: &Store, address: &str) -> Result<usize, Refused> {
        let ids = {
            let games = self.computer.lock().unwrap_or_else(|e| e.into_inner());
            games.get(address).cloned().unwrap_or_default()
        };
        let mut finished = Vec::new();
        for id in &ids {
            let game = store.game(id.as_str()).await?;
            if game.is_none_or(|g| g.result.is_some()) {
                finished.push(id.clone());
            }
        }
        let mut games = self.computer.lock().unwrap_or_else(|e| e.into_inner());
        let Some(held) = games.get_mut(address) else {
            return Ok(0);
        };
        held.retain(|id| !finished.contains(id));
        let n = held.len();
        if n == 0 {
            games.remove(address);
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vizier_arbiter::TimeControl;

    #[test]
    fn time_controls_past_the_limits_are_refused() {
        let ok = |s: &str| check_control(&TimeControl::parse_pgn(s).unwrap()).is_ok();
        assert!(ok("300+3"));
        assert!(ok("-"));
        assert!(ok("40/5400+30:1800+30"));
        assert!(!ok("0"));
        assert!(!ok("999999"));
    }
}
