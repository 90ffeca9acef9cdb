//! # vizier-server
//!
//! `vizier serve`: the web app. HTTP and WebSocket with axum; one task per live game owning its
//! arbiter ([`live`]); games stored as their accepted commands in SQLite or PostgreSQL
//! ([`store`]); the web client from `web/` built by `build.rs` and embedded ([`assets`]).

pub mod assets;
pub mod date;
pub mod http;
pub mod levels;
pub mod live;
pub mod protocol;
pub mod record;
pub mod store;

use std::net::SocketAddr;
use std::path::PathBuf;

pub use live::{Hub, Settings};
pub use store::Store;

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
}

/// Opens the database, brings back live games, and serves until the process is stopped.
/// `ready` receives the bound address once the server accepts connections.
pub async fn serve(
    config: Config,
    ready: Option<tokio::sync::oneshot::Sender<SocketAddr>>,
) -> Result<(), String> {
    let store = match &config.database {
        Some(url) => Store::open(url).await,
        None => Store::sqlite(&config.data_dir).await,
    }
    .map_err(|e| e.to_string())?;
    let key = store
        .secret("cookie-key", || {
            let bytes: [u8; 64] = rand::random();
            bytes.iter().map(|b| format!("{b:02x}")).collect()
        })
        .await
        .map_err(|e| e.to_string())?;
    let key = (0..key.len() / 2)
        .map(|i| u8::from_str_radix(&key[2 * i..2 * i + 2], 16))
        .collect::<Result<Vec<u8>, _>>()
        .map_err(|_| "the stored cookie key is not hex".to_string())?;
    let hub = Hub::new(
        store,
        Settings {
            human_pace: config.human_pace,
        },
    );
    let restored = hub.restore().await.map_err(|e| format!("{e:?}"))?;
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    tracing::info!(%addr, restored, "Vizier is ready: open http://{addr}/");
    if let Some(ready) = ready {
        let _ = ready.send(addr);
    }
    let app = http::router(http::AppState::new(hub, &key));
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|e| e.to_string())
}
