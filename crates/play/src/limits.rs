//! What live games may cost, each a setting of `vizier serve` with the default here: a
//! player's unfinished games, an address's new games, the computer's searches and tables,
//! the sockets on one game, and how long untaken invites and untouched games last.

use std::time::Duration;

/// The limits on games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Unfinished games one player may have (a rematch counts as a new one).
    pub open_games_per_player: usize,
    /// New games one address may create an hour, in a burst or spread out; 0: no limit. An
    /// IPv6 address counts by its /64 network, which one machine can hold whole.
    pub new_games_per_address_hour: u32,
    /// Unfinished games against the computer one player may have.
    pub computer_games_per_player: usize,
    /// Unfinished games against the computer started from one address.
    pub computer_games_per_address: usize,
    /// Computer players' searches running at once, over all games; more wait their turn
    /// (their games show the computer thinking).
    pub max_searches: usize,
    /// MiB of engine tables games may keep between their computer's moves, all together;
    /// beyond it a table is let go after its move (and made again for the next).
    pub engine_tables_mib: usize,
    /// Connections one game takes, spectators included; its players always get in.
    pub sockets_per_game: usize,
    /// How long a friend's invite waits to be taken before the game is called off.
    pub invite_expiry: Duration,
    /// How long a game without a clock may go without a move (or anything else) before it is
    /// called off, without a result.
    pub unclocked_expiry: Duration,
    /// Dead-position proofs of live games waiting for the proof thread; 0: none are made (a
    /// position the per-move check leaves open is played on).
    pub proof_queue: usize,
    /// The longest one side's search in a proof may take (dead positions, flag falls,
    /// resignations); one that gives up counts as "can mate".
    pub proof_time: Duration,
}

const HOUR: u64 = 3_600;

impl Limits {
    /// The defaults: generous for people, tight for scripts.
    pub const DEFAULT: Limits = Limits {
        open_games_per_player: 30,
        new_games_per_address_hour: 200,
        computer_games_per_player: 3,
        computer_games_per_address: 10,
        max_searches: 2,
        engine_tables_mib: 256,
        sockets_per_game: 1_000,
        invite_expiry: Duration::from_secs(24 * HOUR),
        unclocked_expiry: Duration::from_secs(30 * 24 * HOUR),
        proof_queue: 1_024,
        proof_time: Duration::from_secs(10),
    };
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}
