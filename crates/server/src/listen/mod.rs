//! Accepting connections: at most [`Limits::max_connections`] HTTP connections at once (a
//! connection that became a WebSocket leaves the count: the socket limits hold those), at most
//! [`Limits::connections_per_address`] connections and sockets together from one address
//! (when the server sees its clients' addresses, not a proxy's), request headers read within
//! [`Limits::header_timeout`] (an idle keep-alive connection is closed after it too), request
//! bodies at the [`Limits::body_pace`], `TCP_NODELAY`, the peer's address and the
//! connection's slot for the handlers ([`axum::extract::ConnectInfo`], [`Slot`]), and a drain
//! when the server stops.

mod addresses;
mod paced;

pub use addresses::{AddressSlot, PerAddress, network};
pub use paced::{Pace, Paced, TooSlow};

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinSet;
use tower::Layer;

use crate::limits::Limits;

/// The slot a connection holds in its address's count, for a handler that turns it into a
/// WebSocket to hold on to (`None` behind a proxy, which the server cannot count by).
#[derive(Clone, Debug)]
pub struct Slot(pub Option<Arc<AddressSlot>>);

/// What a connection refused for its address's count is told before it is closed.
const TOO_MANY: &[u8] = b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: text/plain\r\n\
    content-length: 39\r\nconnection: close\r\n\r\ntoo many connections from your address\n";

/// Serves `app` on `listener` until `stop` resolves, then lets the open requests finish (five
/// seconds at most). `per_address` counts each peer's connections (none: not counted, as
/// behind a proxy, whose address every connection has).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: &Limits,
    per_address: Option<Arc<PerAddress>>,
    stop: impl Future<Output = ()>,
) {
    let permits = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let (stopping, stop_rx) = watch::channel(false);
    let mut tasks = JoinSet::new();
    let mut stop = std::pin::pin!(stop);
    loop {
        let permit = tokio::select! {
            () = &mut stop => break,
            permit = permits.clone().acquire_owned() => permit.expect("the semaphore stays open"),
        };
        let (tcp, peer) = tokio::select! {
            () = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors and the like: wait rather than spin.
                    tracing::warn!("accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        let slot = match &per_address {
            None => None,
            Some(table) => match table.take(peer.ip()) {
                Some(slot) => Some(Arc::new(slot)),
                None => {
                    refuse(tcp);
                    continue;
                }
            },
        };
        // Small messages go out at once rather than waiting to be joined by the next.
        let _ = tcp.set_nodelay(true);
        let pace = limits.body_pace;
        let app = tower::util::MapRequestLayer::new(move |request: axum::http::Request<_>| {
            request.map(|body| Paced::new(body, pace))
        })
        .layer(app.clone());
        let service = TowerToHyperService::new(
            axum::Extension(ConnectInfo(peer)).layer(axum::Extension(Slot(slot)).layer(app)),
        );
        let header_timeout = limits.header_timeout;
        let mut stop_rx = stop_rx.clone();
        tasks.spawn(async move {
            let mut builder = http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout);
            let conn = builder
                .serve_connection(TokioIo::new(tcp), service)
                .with_upgrades();
            let mut conn = std::pin::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                () = async { let _ = stop_rx.wait_for(|&stop| stop).await; } => {
                    conn.as_mut().graceful_shutdown();
                    let _ = conn.await;
                }
            }
            drop(permit);
        });
        while tasks.try_join_next().is_some() {}
    }
    let _ = stopping.send(true);
    let drained = tokio::time::timeout(Duration::from_secs(5), async {
        while tasks.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        tracing::warn!("some requests did not finish within 5 s");
    }
}

/// Tells a connection over its address's count so, without waiting on it, and closes it.
fn refuse(tcp: tokio::net::TcpStream) {
    metrics::counter!("vizier_connections_refused_total", "why" => "address").increment(1);
    tokio::spawn(async move {
        let mut tcp = tcp;
        let _ = tokio::time::timeout(Duration::from_secs(1), tcp.write_all(TOO_MANY)).await;
    });
}
