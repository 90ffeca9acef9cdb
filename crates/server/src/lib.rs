//! # vizier-server
//!
//! `vizier serve`: the web app. HTTP and WebSocket with axum ([`http`]) over live play
//! (`vizier-play`: the hub of live games, one actor a game publishing typed events); the wire
//! protocol's own types ([`protocol`]) and the game socket's view; games stored as their accepted commands in SQLite or PostgreSQL by
//! `vizier-store`; the web client from `web/` built by `build.rs` and embedded
//! ([`assets`]). `docs/architecture.md` says where each concern lives.

pub mod account;
pub mod analysis;
pub mod archive;
pub mod assets;
mod bucket;
pub mod date;
mod files;
pub mod http;
pub mod levels;
pub mod limits;
pub mod listen;
pub mod lobby;
pub mod metrics;
pub mod pending;
pub mod protocol;
pub mod throttle;

use std::fmt;

use std::net::SocketAddr;
use std::path::PathBuf;

pub use limits::Limits;
pub use vizier_play::{Hub, HubError, Settings};
pub use vizier_store::{Store, StoreError};

/// How to run the server.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen.
    pub addr: SocketAddr,
    /// Where the SQLite database lives (unless `database` is given).
    pub data_dir: PathBuf,
    /// A `postgres://…` (or `sqlite://…`) URL instead of the data directory's SQLite file.
    pub database: Option<String>,
    /// Make the computer take human-like time over its moves.
    pub human_pace: bool,
    /// The longest the computer thinks over one move, in ms.
    pub computer_move_ms: u64,
    /// Where players reach the server (`https://chess.example/`), behind a proxy for one.
    pub public_url: Option<String>,
    /// Take a client's address from the last `X-Forwarded-For` entry (behind a proxy that
    /// sets it) rather than from the connection.
    pub trust_forwarded_for: bool,
    /// What clients may make the server spend.
    pub limits: Limits,
    /// For tests: the server's time may be moved on (`POST /api/test/clock`).
    pub test_clock: bool,
}

/// Why the server could not start or stopped.
#[derive(Debug)]
pub enum ServeError {
    /// The database could not be opened or read.
    Store(StoreError),
    /// The cookie key stored in the database is not hex.
    CookieKey,
    /// The live games could not be listed.
    Restore(HubError),
    /// Another server uses this data directory.
    Locked(PathBuf),
    /// The data directory's lock file cannot be made.
    LockFile {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The address is taken or not ours.
    Listen {
        addr: SocketAddr,
        source: std::io::Error,
    },
    /// Serving failed.
    Serve(std::io::Error),
}

impl fmt::Display for ServeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServeError::Store(e) => write!(f, "{e}"),
            ServeError::CookieKey => write!(f, "the stored cookie key is not hex"),
            ServeError::Locked(dir) => write!(
                f,
                "another vizier serve is using the data directory {}: stop it first, or give this one its own --data-dir",
                dir.display()
            ),
            ServeError::LockFile { path, source } => {
                write!(f, "cannot lock {}: {source}", path.display())
            }
            ServeError::Restore(e) => write!(f, "cannot restore the live games: {e}"),
            ServeError::Listen { addr, source } => write!(f, "cannot listen on {addr}: {source}"),
            ServeError::Serve(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ServeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ServeError::Store(e) => Some(e),
            ServeError::CookieKey | ServeError::Locked(_) => None,
            ServeError::LockFile { source, .. } => Some(source),
            ServeError::Restore(e) => Some(e),
            ServeError::Listen { source, .. } => Some(source),
            ServeError::Serve(e) => Some(e),
        }
    }
}

impl From<StoreError> for ServeError {
    fn from(e: StoreError) -> ServeError {
        ServeError::Store(e)
    }
}

/// Opens the database, brings back live games, and serves until the process is stopped.
/// `ready` receives the bound address once the server accepts connections.
pub async fn serve(
    config: Config,
    ready: Option<tokio::sync::oneshot::Sender<SocketAddr>>,
) -> Result<(), ServeError> {
    files::return_large_blocks();
    // One server per data directory: two would both accept moves for the same games.
    let _lock = match &config.database {
        None => Some(lock(&config.data_dir)?),
        Some(_) => None,
    };
    let store = match &config.database {
        Some(url) => Store::open(url).await,
        None => Store::sqlite(&config.data_dir).await,
    }?;
    let key = store
        .secret("cookie-key", || {
            let bytes: [u8; 64] = rand::random();
            bytes.iter().map(|b| format!("{b:02x}")).collect()
        })
        .await?;
    let key = (0..key.len() / 2)
        .map(|i| {
            key.get(2 * i..2 * i + 2)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        })
        .collect::<Option<Vec<u8>>>()
        .ok_or(ServeError::CookieKey)?;
    let limits = files::fit(config.limits);
    let hub = Hub::new(
        store,
        Settings {
            human_pace: config.human_pace,
            computer_move_ms: config.computer_move_ms,
            limits: limits.games,
            clock: if config.test_clock {
                tracing::warn!(
                    "the server's time can be moved on by anyone: --test-clock is for tests"
                );
                vizier_play::time::Clock::shifted()
            } else {
                vizier_play::time::Clock::system()
            },
        },
    );
    let restored = hub.restore().await.map_err(ServeError::Restore)?;
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|source| ServeError::Listen {
            addr: config.addr,
            source,
        })?;
    let addr = listener.local_addr().map_err(ServeError::Serve)?;
    tracing::info!(%addr, restored, "Vizier is ready: open http://{addr}/");
    if let Some(ready) = ready {
        let _ = ready.send(addr);
    }
    if metrics::handle().is_none() {
        tracing::warn!("another metrics recorder is installed: /metrics stays empty");
    }
    let (stopping, shutdown) = http::shutdown();
    let state = http::AppState::new(hub.clone(), &key, limits)
        .with_shutdown(shutdown)
        .with_public_url(config.public_url.as_deref())
        .trusting_forwarded_for(config.trust_forwarded_for);
    // Behind a proxy every connection has the proxy's address: only sockets are counted.
    let per_address = (!config.trust_forwarded_for).then(|| state.per_address());
    let tournaments = state.director.restore().await?;
    tracing::info!(tournaments, "tournaments restored");
    let directing = tokio::spawn(state.director.clone().run_forever());
    let sending = tokio::spawn(http::lobby::send_to_tournament_games(state.clone()));
    let pairing = tokio::spawn(state.lobby.clone().pair_forever());
    let announcing = tokio::spawn(http::lobby::announce_forever(state.clone()));
    let app = http::router(state);
    let expiring = tokio::spawn(hub.clone().expire_forever());
    let upkeep = tokio::spawn(metrics::upkeep_forever());
    let signal = stopping.signal();
    listen::serve(listener, app, &limits, per_address, async move {
        stop_signal().await;
        tracing::info!("stopping: closing the sockets, finishing the writes");
        signal.stop();
    })
    .await;
    if !stopping.wait(std::time::Duration::from_secs(5)).await {
        tracing::warn!("some sockets did not close within 5 s");
    }
    expiring.abort();
    upkeep.abort();
    pairing.abort();
    announcing.abort();
    directing.abort();
    sending.abort();
    hub.store.close().await;
    tracing::info!("stopped");
    Ok(())
}

/// SIGINT (Ctrl-C) or SIGTERM.
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Takes the data directory's lock (`vizier.lock`), held while the returned file is open.
fn lock(data_dir: &std::path::Path) -> Result<std::fs::File, ServeError> {
    let path = data_dir.join("vizier.lock");
    let fail = |source| ServeError::LockFile {
        path: path.clone(),
        source,
    };
    std::fs::create_dir_all(data_dir).map_err(fail)?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(fail)?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(ServeError::Locked(data_dir.to_path_buf())),
        Err(std::fs::TryLockError::Error(e)) => Err(fail(e)),
    }
}
