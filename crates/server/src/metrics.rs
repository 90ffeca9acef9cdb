//! What the server measures, served at `/metrics` in Prometheus's text format: live games,
//! open sockets, moves, the latency of an acknowledgement and of a database write, refusals,
//! and the computer's searches.

use std::sync::OnceLock;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

/// Game sockets open now.
pub const SOCKETS_OPEN: &str = "vizier_sockets_open";
pub use vizier_play::metrics::{
    ACK_SECONDS, GAMES_LIVE, MOVES, PROOF_SECONDS, PROOFS_REFUSED, PROOFS_UNDECIDED, SEARCHES,
};
pub use vizier_store::metrics::{CHECKPOINT_SECONDS, STORE_FAILURES, STORE_SECONDS};
/// Client messages refused, by code.
pub const REFUSED: &str = "vizier_refused_total";

/// Latency buckets, in seconds: a tenth of a millisecond to ten seconds.
const BUCKETS: [f64; 18] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.015, 0.025, 0.05, 0.1,
    0.25, 0.5, 1.0, 2.5, 10.0,
];

/// The process's recorder, installed the first time it is asked for; `None` where another
/// recorder was installed first.
pub fn handle() -> Option<&'static PrometheusHandle> {
    static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            let recorder = PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), &BUCKETS)
                .ok()?
                .build_recorder();
            let handle = recorder.handle();
            metrics::set_global_recorder(recorder).ok()?;
            describe();
            register();
            Some(handle)
        })
        .as_ref()
}

/// Folds the histograms' samples into their buckets every few seconds: without it they pile
/// up, eight bytes a sample, until someone reads `/metrics`.
pub async fn upkeep_forever() {
    let Some(handle) = handle() else { return };
    let mut every = tokio::time::interval(std::time::Duration::from_secs(5));
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        handle.run_upkeep();
    }
}

/// Registers every family at zero, so that the first scrape lists them all, not only those
/// something has happened to (a refusal for each code).
fn register() {
    for gauge in [GAMES_LIVE, SOCKETS_OPEN, SEARCHES] {
        metrics::gauge!(gauge).increment(0.0);
    }
    for counter in [MOVES, STORE_FAILURES, PROOFS_REFUSED, PROOFS_UNDECIDED] {
        metrics::counter!(counter).increment(0);
    }
    for code in crate::protocol::ErrorCode::ALL {
        metrics::counter!(REFUSED, "code" => code.as_str()).increment(0);
    }
    for histogram in [
        ACK_SECONDS,
        STORE_SECONDS,
        CHECKPOINT_SECONDS,
        PROOF_SECONDS,
    ] {
        let _ = metrics::histogram!(histogram);
    }
}

fn describe() {
    use metrics::{Unit, describe_counter, describe_gauge, describe_histogram};
    describe_gauge!(GAMES_LIVE, "games with a task now");
    describe_gauge!(SOCKETS_OPEN, "game sockets open now");
    describe_counter!(MOVES, "moves stored");
    describe_histogram!(
        ACK_SECONDS,
        Unit::Seconds,
        "a command's arrival to its acknowledgement"
    );
    describe_histogram!(STORE_SECONDS, Unit::Seconds, "one append to the database");
    describe_histogram!(
        CHECKPOINT_SECONDS,
        Unit::Seconds,
        "the writer's part of a SQLite checkpoint"
    );
    describe_counter!(STORE_FAILURES, "appends the database failed");
    describe_counter!(REFUSED, "client messages refused, by code");
    describe_gauge!(SEARCHES, "the computer's searches running now");
    describe_histogram!(
        PROOF_SECONDS,
        Unit::Seconds,
        "a dead-position proof of a live game"
    );
    describe_counter!(
        PROOFS_REFUSED,
        "dead-position proofs refused by a full queue"
    );
    describe_counter!(
        PROOFS_UNDECIDED,
        "proof searches that gave up within their time"
    );
}
