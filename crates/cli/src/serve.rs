//! `vizier serve`: the web app.

use std::io::IsTerminal;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;

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
    /// HTTP connections open at once (game sockets are limited per game and player instead).
    #[arg(long, env = "VIZIER_MAX_CONNECTIONS", default_value_t = 1_024)]
    max_connections: usize,
    /// Seconds a client may take to send a request's headers, and an idle connection may wait.
    #[arg(long, env = "VIZIER_HEADER_TIMEOUT_S", default_value_t = 10)]
    header_timeout_s: u64,
    /// How the log is written: text (coloured only on a terminal) or json, one object a line.
    #[arg(long, env = "VIZIER_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
}

/// The log's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum LogFormat {
    Text,
    Json,
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
        limits: vizier_server::listen::Limits {
            max_connections: args.max_connections,
            header_timeout: std::time::Duration::from_secs(args.header_timeout_s.max(1)),
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
