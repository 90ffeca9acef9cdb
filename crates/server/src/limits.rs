//! Every limit on what clients can make the server spend, in one place: each is a setting of
//! `vizier serve` (a flag and a `VIZIER_*` variable) with the default here.

use std::time::Duration;

/// The server's limits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// HTTP connections open at once; more wait in the kernel's backlog. A connection that
    /// became a game's socket leaves the count: the socket limits hold those.
    pub max_connections: usize,
    /// HTTP connections and WebSockets one address may hold open at once (an IPv6 address
    /// counts by its /64); 0: no limit. Below `max_connections`, so that one address cannot
    /// take every place.
    pub connections_per_address: usize,
    /// WebSockets (games, lobby, analysis) open at once over all players; at start lowered
    /// to what the open-files limit leaves after connections and a reserve.
    pub max_sockets: usize,
    /// How fast a request's body must come: whole within its deadline, and at its minimum
    /// rate after its grace.
    pub body_pace: Pace,
    /// How long a client may take to send a request's headers (and an idle connection may wait
    /// for its next request).
    pub header_timeout: Duration,
    /// Open seeks from one address, and places in the pools (each); 0: no limit.
    pub seeks_per_address: usize,
    /// Game sockets one player may have open, over all games.
    pub sockets_per_player: usize,
    /// Messages one player may send a second, over all their sockets (three seconds' worth may
    /// be saved up).
    pub messages_per_second: u32,
    /// Messages one address may send a second, over all its players' sockets (three
    /// seconds' worth may be saved up); 0: no limit.
    pub messages_per_address_second: u32,
    /// PGNs one address may have read into the analysis board an hour (twenty may come at
    /// once); 0: no limit. A long one takes milliseconds.
    pub imports_per_address_hour: u32,
    /// Sign-in attempts one account may see an hour (ten may come at once), whoever makes
    /// them; 0: no limit.
    pub logins_per_account_hour: u32,
    /// Sign-in attempts one address may make an hour (twenty may come at once); 0: no limit.
    pub logins_per_address_hour: u32,
    /// Accounts one address may create an hour; 0: no limit.
    pub signups_per_address_hour: u32,
    /// Exports of games going on one address may ask for an hour (twenty may come at once);
    /// 0: no limit. Such a game's newest moves are read from the journal, which is not indexed
    /// by game, so each export scans it.
    pub live_exports_per_address_hour: u32,
    /// Threads analysing for the analysis board and reviews, at the lowest CPU priority; 0:
    /// no analysis.
    pub analysis_threads: usize,
    /// Analyses that may wait for a thread; more are refused as busy.
    pub analysis_queue: usize,
    /// Analyses one player may have waiting or running at once.
    pub analyses_per_player: usize,
    /// Analyses one address may have waiting or running at once, over all its players.
    pub analyses_per_address: usize,
    /// The longest one position is analysed on the analysis board, in ms.
    pub analysis_ms: u64,
    /// The most nodes one position is analysed for on the analysis board.
    pub analysis_nodes: u64,
    /// Nodes per position in a game's review.
    pub review_nodes: u64,
    /// Requests one API token may make a second (ten seconds' worth may come at once); 0: no
    /// limit. Beyond it the answer is lichess's 429.
    pub api_requests_per_token_second: u32,
    /// API streams (events and games) one token may hold open at once.
    pub api_streams_per_token: u32,
    /// Games one bot account may start against other bots a day (UTC), as on lichess.
    pub bot_games_a_day: u32,
    /// What games may cost: new games, the computer's searches, sockets on a game, expiry.
    pub games: vizier_play::Limits,
}

impl Limits {
    /// The defaults: generous for people, tight for scripts.
    pub const DEFAULT: Limits = Limits {
        max_connections: 1_024,
        connections_per_address: 256,
        max_sockets: 100_000,
        body_pace: Pace {
            deadline: Duration::from_secs(10),
            grace: Duration::from_secs(2),
            min_rate: 1_024,
        },
        header_timeout: Duration::from_secs(10),
        games: vizier_play::Limits::DEFAULT,
        seeks_per_address: 10,
        sockets_per_player: 50,
        messages_per_second: 10,
        messages_per_address_second: 200,
        imports_per_address_hour: 3_600,
        logins_per_account_hour: 30,
        logins_per_address_hour: 100,
        signups_per_address_hour: 10,
        api_requests_per_token_second: 8,
        api_streams_per_token: 32,
        bot_games_a_day: 100,
        live_exports_per_address_hour: 1_200,
        analysis_threads: 1,
        analysis_queue: 32,
        analyses_per_player: 2,
        analyses_per_address: 4,
        analysis_ms: 10_000,
        analysis_nodes: 10_000_000,
        review_nodes: 150_000,
    };
}

impl Default for Limits {
    fn default() -> Limits {
        Limits::DEFAULT
    }
}

/// How fast a body must come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pace {
    /// The whole body within this.
    pub deadline: Duration,
    /// The rate is not held against the first of it.
    pub grace: Duration,
    /// Bytes a second, on average since the request began, after the grace.
    pub min_rate: u64,
}
