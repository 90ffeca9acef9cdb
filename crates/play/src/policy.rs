//! The game policy: every new game and every seat taken, whoever asks (a form, the lobby's
//! seeks and pools, a challenge, a rematch, a friend's invite), is admitted here and nowhere
//! else, so that no path creates games past the limits: each player's unfinished games, the
//! new games each address may start an hour, and the computer games a player or an address
//! may hold at once.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::limits::Limits;
use vizier_store::record::Seat;
use vizier_store::{Store, StoreError};

/// Someone a new game is for: the player, and the address they asked from where known (a
/// computer game's player, the players a lobby pairs, a rematch's).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Party {
    pub player: String,
    /// The client's address as the per-address limits count it (an IPv6 /64).
    pub address: Option<String>,
}

impl Party {
    pub fn new(player: &str, address: Option<&str>) -> Party {
        Party {
            player: player.to_string(),
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
    computer: Mutex<HashMap<String, Vec<String>>>,
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
    pub fn started_computer_game(&self, address: &str, id: &str) {
        let mut games = self.computer.lock().unwrap_or_else(|e| e.into_inner());
        games
            .entry(address.to_string())
            .or_default()
            .push(id.to_string());
    }

    /// The unfinished computer games started from `address`.
    async fn computer_games_from(&self, store: &Store, address: &str) -> Result<usize, Refused> {
        let ids = {
            let games = self.computer.lock().unwrap_or_else(|e| e.into_inner());
            games.get(address).cloned().unwrap_or_default()
        };
        let mut finished = Vec::new();
        for id in &ids {
            let game = store.game(id).await?;
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
