//! `vizier serve`: the web app.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;

/// Where and how to serve.
#[derive(clap::Args)]
pub struct Args {
    /// Port to listen on.
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on (0.0.0.0 to let other machines connect).
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    host: IpAddr,
    /// Directory for the SQLite database.
    #[arg(long, default_value = "vizier-data")]
    data_dir: PathBuf,
    /// A PostgreSQL URL (postgres://user:pass@host/db) to use instead of SQLite.
    #[arg(long)]
    database: Option<String>,
    /// Let the computer answer at once instead of taking a human-like moment (for tests).
    #[arg(long)]
    instant_computer: bool,
}

pub fn run(args: Args) -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,sqlx=warn".into()),
        )
        .init();
    let config = vizier_server::Config {
        addr: SocketAddr::new(args.host, args.port),
        data_dir: args.data_dir,
        database: args.database,
        human_pace: !args.instant_computer,
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
