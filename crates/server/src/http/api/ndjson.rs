//! Streamed answers as lichess sends them: one JSON object a line (`application/x-ndjson`),
//! and a blank line every [`KEEP_ALIVE`] so that clients and proxies know the stream lives.
//! A line waits in a short queue for the client; one that does not read it within
//! [`STALLED_AFTER`] has its stream closed, and nothing else ever waits for it.

use std::convert::Infallible;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use tokio::sync::mpsc;

/// How often a stream with nothing to say sends a blank line.
pub(crate) const KEEP_ALIVE: Duration = Duration::from_secs(7);
/// How long a line may wait for a client that does not read before the stream is closed.
pub(crate) const STALLED_AFTER: Duration = Duration::from_secs(20);
/// Lines queued for a client.
const QUEUED: usize = 32;

/// The sending end of a stream.
pub(crate) struct Lines {
    tx: mpsc::Sender<Bytes>,
}

/// A new stream: its sending end, and the response that carries it.
pub(crate) fn stream() -> (Lines, Response) {
    let (tx, rx) = mpsc::channel::<Bytes>(QUEUED);
    let body = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|line| (Ok::<_, Infallible>(line), rx))
    });
    let response = (
        [
            (header::CONTENT_TYPE, "application/x-ndjson"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        Body::from_stream(body),
    )
        .into_response();
    (Lines { tx }, response)
}

impl Lines {
    /// Sends one object as a line; false once the client is gone or stalled.
    pub(crate) async fn send(&self, value: &Value) -> bool {
        let mut line = value.to_string().into_bytes();
        line.push(b'\n');
        self.send_bytes(Bytes::from(line)).await
    }

    /// Sends a blank line.
    pub(crate) async fn keep_alive(&self) -> bool {
        self.send_bytes(Bytes::from_static(b"\n")).await
    }

    async fn send_bytes(&self, line: Bytes) -> bool {
        matches!(
            tokio::time::timeout(STALLED_AFTER, self.tx.send(line)).await,
            Ok(Ok(()))
        )
    }

    /// Resolves once the client has gone.
    pub(crate) async fn closed(&self) {
        self.tx.closed().await
    }
}
