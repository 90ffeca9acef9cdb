//! `vizier serve`: the web app.

use std::io::IsTerminal;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Where and how to serve. Every flag can also be set by the environment variable named in
/// its help (`VIZIER_PORT=8081 vizier serve`); a flag given wins.
#[derive(clap::Args)]
pub struct Args {
    /// Port to listen on.
    #[arg(long, env = "VIZIER_PORT", default_value_t = 8080)]
    port: u16,
    /// Address to listen on (0.0.0.0 to let other machines connect).
    #[arg(long, env = "VIZIER_HOST", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    host: IpAddr,
    /// Directory for the SQLite database.
    #[arg(long, env = "VIZIER_DATA_DIR", default_value = "vizier-data")]
    data_dir: PathBuf,
    /// A PostgreSQL URL (postgres://user:pass@host/db) to use instead of SQLite.
    #[arg(long, env = "VIZIER_DATABASE", hide_env_values = true)]
    database: Option<String>,
    /// Let the computer answer at once instead of taking a human-like moment (for tests).
    #[arg(long, env = "VIZIER_INSTANT_COMPUTER")]
    instant_computer: bool,
    /// The longest the computer thinks over one move, in ms, however long the clock.
    #[arg(long, env = "VIZIER_COMPUTER_MOVE_MS", default_value_t = vizier_server::Settings::COMPUTER_MOVE_MS)]
    computer_move_ms: u64,
    /// Where players reach this server, e.g. https://chess.example/ behind a TLS proxy: the
    /// socket's Origin check compares with it, and over https the cookie is Secure.
    #[arg(long, env = "VIZIER_PUBLIC_URL")]
    public_url: Option<String>,
    /// Behind a proxy: count a request against the last address in its X-Forwarded-For (set
    /// this only if the proxy always sets that header).
    #[arg(long, env = "VIZIER_TRUST_FORWARDED_FOR")]
    trust_forwarded_for: bool,
    /// For tests only: `POST /api/test/clock {"advanceMs": N}` moves the server's time on
    /// (days pass in a correspondence test). Never on a server players use.
    #[arg(long, env = "VIZIER_TEST_CLOCK", hide = true)]
    test_clock: bool,
    /// HTTP connections open at once (game sockets are limited per game and player instead).
    #[arg(long, env = "VIZIER_MAX_CONNECTIONS", default_value_t = DEFAULT.max_connections)]
    max_connections: usize,
    /// HTTP connections and WebSockets one address (an IPv6 /64) may hold open at once; 0: no
    /// limit. Not counted behind a proxy (`--trust-forwarded-for`), except sockets.
    #[arg(long, env = "VIZIER_CONNECTIONS_PER_ADDRESS", default_value_t = DEFAULT.connections_per_address)]
    connections_per_address: usize,
    /// WebSockets open at once over all players (lowered to what the open-files limit allows).
    #[arg(long, env = "VIZIER_MAX_SOCKETS", default_value_t = DEFAULT.max_sockets)]
    max_sockets: usize,
    /// Seconds a request's body may take to arrive, whole.
    #[arg(long, env = "VIZIER_BODY_TIMEOUT_S", default_value_t = DEFAULT.body_pace.deadline.as_secs())]
    body_timeout_s: u64,
    /// Bytes a second a request's body must average after its first two seconds.
    #[arg(long, env = "VIZIER_BODY_MIN_RATE", default_value_t = DEFAULT.body_pace.min_rate)]
    body_min_rate: u64,
    /// Seconds a client may take to send a request's headers, and an idle connection may wait.
    #[arg(long, env = "VIZIER_HEADER_TIMEOUT_S", default_value_t = DEFAULT.header_timeout.as_secs())]
    header_timeout_s: u64,
    /// Unfinished games one player may have.
    #[arg(long, env = "VIZIER_OPEN_GAMES_PER_PLAYER", default_value_t = DEFAULT.games.open_games_per_player)]
    open_games_per_player: usize,
    /// New games one address (an IPv6 /64) may create an hour; 0: no limit.
    #[arg(long, env = "VIZIER_NEW_GAMES_PER_ADDRESS_HOUR", default_value_t = DEFAULT.games.new_games_per_address_hour)]
    new_games_per_address_hour: u32,
    /// Sign-in attempts one account may see an hour; 0: no limit.
    #[arg(long, env = "VIZIER_LOGINS_PER_ACCOUNT_HOUR", default_value_t = DEFAULT.logins_per_account_hour)]
    logins_per_account_hour: u32,
    /// Sign-in attempts one address may make an hour; 0: no limit.
    #[arg(long, env = "VIZIER_LOGINS_PER_ADDRESS_HOUR", default_value_t = DEFAULT.logins_per_address_hour)]
    logins_per_address_hour: u32,
    /// Accounts one address may create an hour; 0: no limit.
    #[arg(long, env = "VIZIER_SIGNUPS_PER_ADDRESS_HOUR", default_value_t = DEFAULT.signups_per_address_hour)]
    signups_per_address_hour: u32,
    /// Requests one API token may make a second (ten seconds' worth at once); 0: no limit.
    #[arg(long, env = "VIZIER_API_REQUESTS_PER_TOKEN_SECOND", default_value_t = DEFAULT.api_requests_per_token_second)]
    api_requests_per_token_second: u32,
    /// API streams one token may hold open at once.
    #[arg(long, env = "VIZIER_API_STREAMS_PER_TOKEN", default_value_t = DEFAULT.api_streams_per_token)]
    api_streams_per_token: u32,
    /// Games one bot account may start against other bots a day (UTC).
    #[arg(long, env = "VIZIER_BOT_GAMES_A_DAY", default_value_t = DEFAULT.bot_games_a_day)]
    bot_games_a_day: u32,
    /// Exports of games going on one address may ask for an hour; 0: no limit.
    #[arg(long, env = "VIZIER_LIVE_EXPORTS_PER_ADDRESS_HOUR", default_value_t = DEFAULT.live_exports_per_address_hour)]
    live_exports_per_address_hour: u32,
    /// Open seeks from one address, and places in the pools (each); 0: no limit.
    #[arg(long, env = "VIZIER_SEEKS_PER_ADDRESS", default_value_t = DEFAULT.seeks_per_address)]
    seeks_per_address: usize,
    /// Unfinished games against the computer one player may have.
    #[arg(long, env = "VIZIER_COMPUTER_GAMES_PER_PLAYER", default_value_t = DEFAULT.games.computer_games_per_player)]
    computer_games_per_player: usize,
    /// Unfinished games against the computer started from one address.
    #[arg(long, env = "VIZIER_COMPUTER_GAMES_PER_ADDRESS", default_value_t = DEFAULT.games.computer_games_per_address)]
    computer_games_per_address: usize,
    /// Computer searches running at once, over all games (more wait their turn); by default
    /// one a core.
    #[arg(long, env = "VIZIER_MAX_SEARCHES", default_value_t = default_searches())]
    max_searches: usize,
    /// MiB of engine tables games may keep between their computer's moves, all together.
    #[arg(long, env = "VIZIER_ENGINE_TABLES_MIB", default_value_t = DEFAULT.games.engine_tables_mib)]
    engine_tables_mib: usize,
    /// Game sockets one player may have open.
    #[arg(long, env = "VIZIER_SOCKETS_PER_PLAYER", default_value_t = DEFAULT.sockets_per_player)]
    sockets_per_player: usize,
    /// Connections one game takes, spectators included (its players always get in).
    #[arg(long, env = "VIZIER_SOCKETS_PER_GAME", default_value_t = DEFAULT.games.sockets_per_game)]
    sockets_per_game: usize,
    /// Messages one address may send a second, over all its players' sockets; 0: no limit.
    #[arg(long, env = "VIZIER_MESSAGES_PER_ADDRESS_SECOND", default_value_t = DEFAULT.messages_per_address_second)]
    messages_per_address_second: u32,
    /// PGNs one address may import into the analysis board an hour; 0: no limit.
    #[arg(long, env = "VIZIER_IMPORTS_PER_ADDRESS_HOUR", default_value_t = DEFAULT.imports_per_address_hour)]
    imports_per_address_hour: u32,
    /// Messages one player may send a second, over all their sockets.
    #[arg(long, env = "VIZIER_MESSAGES_PER_SECOND", default_value_t = DEFAULT.messages_per_second)]
    messages_per_second: u32,
    /// Hours a friend's invite waits to be taken before the game is called off.
    #[arg(long, env = "VIZIER_INVITE_EXPIRY_H", default_value_t = DEFAULT.games.invite_expiry.as_secs() / 3_600)]
    invite_expiry_h: u64,
    /// Days a game without a clock may go untouched before it is called off, without a result.
    #[arg(long, env = "VIZIER_UNCLOCKED_EXPIRY_DAYS", default_value_t = DEFAULT.games.unclocked_expiry.as_secs() / 86_400)]
    unclocked_expiry_days: u64,
    /// Dead-position proofs of live games waiting for the proof thread (0: none; positions the
    /// per-move check leaves open are played on).
    #[arg(long, env = "VIZIER_PROOF_QUEUE", default_value_t = DEFAULT.games.proof_queue)]
    proof_queue: usize,
    /// The longest one side's search may take in a proof (of a dead position, or on a flag
    /// fall or a resignation), in ms; one that gives up counts as "can mate".
    #[arg(long, env = "VIZIER_PROOF_MS", default_value_t = DEFAULT.games.proof_time.as_millis() as u64)]
    proof_ms: u64,
    /// Threads analysing for the analysis board and reviews (at the lowest CPU priority);
    /// 0 turns analysis off.
    #[arg(long, env = "VIZIER_ANALYSIS_THREADS", default_value_t = DEFAULT.analysis_threads)]
    analysis_threads: usize,
    /// Analyses that may wait for a thread; more are refused as busy.
    #[arg(long, env = "VIZIER_ANALYSIS_QUEUE", default_value_t = DEFAULT.analysis_queue)]
    analysis_queue: usize,
    /// Analyses one player may have waiting or running at once.
    #[arg(long, env = "VIZIER_ANALYSES_PER_PLAYER", default_value_t = DEFAULT.analyses_per_player)]
    analyses_per_player: usize,
    /// Analyses one address may have waiting or running at once.
    #[arg(long, env = "VIZIER_ANALYSES_PER_ADDRESS", default_value_t = DEFAULT.analyses_per_address)]
    analyses_per_address: usize,
    /// The longest one position is analysed on the analysis board, in ms.
    #[arg(long, env = "VIZIER_ANALYSIS_MS", default_value_t = DEFAULT.analysis_ms)]
    analysis_ms: u64,
    /// The most nodes one position is analysed for on the analysis board.
    #[arg(long, env = "VIZIER_ANALYSIS_NODES", default_value_t = DEFAULT.analysis_nodes)]
    analysis_nodes: u64,
    /// Nodes per position in a game's review.
    #[arg(long, env = "VIZIER_REVIEW_NODES", default_value_t = DEFAULT.review_nodes)]
    review_nodes: u64,
    /// How the log is written: text (coloured only on a terminal) or json, one object a line.
    #[arg(long, env = "VIZIER_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
}

const DEFAULT: vizier_server::Limits = vizier_server::Limits::DEFAULT;

/// The log's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

/// One search a core.
fn default_searches() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

pub fn run(args: Args) -> ExitCode {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| "info,sqlx=warn".into());
    let log = tracing_subscriber::fmt().with_env_filter(filter);
    match args.log_format {
        LogFormat::Json => log.json().init(),
        // Colour codes only where a person reads them: not in files, pipes or journals.
        LogFormat::Text => log
            .with_ansi(std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none())
            .init(),
    }
    let config = vizier_server::Config {
        addr: SocketAddr::new(args.host, args.port),
        data_dir: args.data_dir,
        database: args.database,
        human_pace: !args.instant_computer,
        computer_move_ms: args.computer_move_ms,
        public_url: args.public_url,
        trust_forwarded_for: args.trust_forwarded_for,
        test_clock: args.test_clock,
        limits: vizier_server::Limits {
            max_connections: args.max_connections,
            header_timeout: Duration::from_secs(args.header_timeout_s.max(1)),
            connections_per_address: args.connections_per_address,
            max_sockets: args.max_sockets.max(1),
            body_pace: vizier_server::listen::Pace {
                deadline: Duration::from_secs(args.body_timeout_s.max(1)),
                min_rate: args.body_min_rate,
                ..DEFAULT.body_pace
            },
            seeks_per_address: args.seeks_per_address,
            games: vizier_play::Limits {
                open_games_per_player: args.open_games_per_player,
                new_games_per_address_hour: args.new_games_per_address_hour,
                computer_games_per_player: args.computer_games_per_player,
                computer_games_per_address: args.computer_games_per_address,
                max_searches: args.max_searches.max(1),
                engine_tables_mib: args.engine_tables_mib,
                sockets_per_game: args.sockets_per_game,
                invite_expiry: Duration::from_secs(args.invite_expiry_h.max(1) * 3_600),
                unclocked_expiry: Duration::from_secs(args.unclocked_expiry_days.max(1) * 86_400),
                proof_queue: args.proof_queue,
                proof_time: Duration::from_millis(args.proof_ms.max(1)),
            },
            sockets_per_player: args.sockets_per_player,
            messages_per_second: args.messages_per_second,
            messages_per_address_second: args.messages_per_address_second,
            imports_per_address_hour: args.imports_per_address_hour,
            logins_per_account_hour: args.logins_per_account_hour,
            logins_per_address_hour: args.logins_per_address_hour,
            signups_per_address_hour: args.signups_per_address_hour,
            api_requests_per_token_second: args.api_requests_per_token_second,
            api_streams_per_token: args.api_streams_per_token,
            bot_games_a_day: args.bot_games_a_day,
            live_exports_per_address_hour: args.live_exports_per_address_hour,
            analysis_threads: args.analysis_threads,
            analysis_queue: args.analysis_queue.max(1),
            analyses_per_player: args.analyses_per_player,
            analyses_per_address: args.analyses_per_address,
            analysis_ms: args.analysis_ms.max(1),
            analysis_nodes: args.analysis_nodes.max(1),
            review_nodes: args.review_nodes.max(1),
        },
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("vizier serve: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(vizier_server::serve(config, None)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("vizier serve: {e}");
            ExitCode::FAILURE
        }
    }
}
