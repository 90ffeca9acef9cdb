//! Accepting connections: at most [`Limits::max_connections`] HTTP connections at once (a
//! connection that became a game's WebSocket leaves the count: games and players limit those),
//! request headers read within [`Limits::header_timeout`] (an idle keep-alive connection is
//! closed after it too), `TCP_NODELAY`, the peer's address for the handlers
//! ([`axum::extract::ConnectInfo`]), and a drain when the server stops.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinSet;
use tower::Layer;

use crate::limits::Limits;

/// Serves `app` on `listener` until `stop` resolves, then lets the open requests finish (five
/// seconds at most).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: &Limits,
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
        // Small messages go out at once rather than waiting to be joined by the next.
        let _ = tcp.set_nodelay(true);
        let service =
            TowerToHyperService::new(axum::Extension(ConnectInfo(peer)).layer(app.clone()));
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
