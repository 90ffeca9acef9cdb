//! Whether the database is well: the health check, the probe write, and SQLite's WAL
//! checkpoints.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use sqlx::{AnyPool, Executor, Row as _};

use crate::error::err;
use crate::{DB_TIMEOUT, Store, StoreError};

/// A write that changes nothing that matters: whether the database can be written. It is as
/// large as a big batch of moves, so that a disk with room for it has room for them.
pub(crate) async fn probe_write<'c>(
    db: impl Executor<'c, Database = sqlx::Any>,
) -> Result<(), sqlx::Error> {
    let filler: String = (0..64 * 1024)
        .map(|_| char::from(b'a' + rand::random_range(0..26u8)))
        .collect();
    sqlx::query(
        "INSERT INTO secrets (name, value) VALUES ('health-probe', $1) \
         ON CONFLICT (name) DO UPDATE SET value = excluded.value",
    )
    .bind(filler)
    .execute(db)
    .await
    .map(|_| ())
}

/// How SQLite's WAL is checkpointed.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Checkpoints {
    /// How often a checkpoint runs.
    pub every: Duration,
    /// WAL frames (4 KiB pages) beyond which the writer is asked to finish a checkpoint, so
    /// that the WAL starts afresh...
    pub restart_after: i64,
    /// ...at most this often, unless the WAL has grown eight times past it.
    pub restart_every: Duration,
}

impl Checkpoints {
    pub const DEFAULT: Checkpoints = Checkpoints {
        every: Duration::from_secs(1),
        restart_after: 4_096,
        restart_every: Duration::from_secs(10),
    };
}

/// Moves the WAL's pages into the database file every second, off the writer's path (a
/// checkpoint syncs the disk). Only a checkpoint that no commit overtakes lets the next commit
/// start the WAL afresh; without one the WAL grows as long as games are played (1.7 GB in 90 s
/// at 3,000 games). So once the WAL passes [`Checkpoints::restart_after`], a second pass copies
/// what came during the first, and the writer finishes the job between two batches: a stall of
/// what is left and the syncs (up to ~25 ms), so at most every
/// [`Checkpoints::restart_every`]: the WAL then holds about ten seconds of play. One that fails
/// (the files became read-only, the disk is full) marks the store unhealthy until a write
/// works.
pub(crate) async fn checkpoint(
    pool: AnyPool,
    plan: Checkpoints,
    failing: Arc<AtomicBool>,
    finish: Arc<AtomicBool>,
) {
    let mut every = tokio::time::interval(plan.every);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let pass = async || -> Result<i64, sqlx::Error> {
        let row = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
            .fetch_one(&pool)
            .await?;
        row.try_get::<i64, _>(1)
    };
    let mut restarted = tokio::time::Instant::now();
    loop {
        every.tick().await;
        if pool.is_closed() {
            break;
        }
        let due = |frames: i64| {
            frames > 8 * plan.restart_after
                || (frames > plan.restart_after && restarted.elapsed() >= plan.restart_every)
        };
        let passed = match pass().await {
            Ok(frames) if due(frames) => pass().await.map(|_| true),
            Ok(_) => Ok(false),
            Err(e) => Err(e),
        };
        match passed {
            Ok(restart) => {
                if restart {
                    finish.store(true, Ordering::Relaxed);
                    restarted = tokio::time::Instant::now();
                }
            }
            Err(e) => {
                tracing::warn!("checkpoint: {e}");
                failing.store(true, Ordering::Relaxed);
            }
        }
    }
}

impl Store {
    /// Whether the database answers and can write: after a failed write, a small write tries
    /// again (and clears the failure once it goes through), so a database that recovered says
    /// so before the next move.
    pub async fn health(&self) -> Result<(), StoreError> {
        let check = async {
            let mut conn = self
                .pool
                .acquire()
                .await
                .map_err(err("checking the database"))?;
            let checked = if self.failing.load(Ordering::Relaxed) {
                probe_write(&mut *conn).await
            } else {
                sqlx::query("SELECT 1")
                    .fetch_one(&mut *conn)
                    .await
                    .map(|_| ())
            };
            match checked {
                Ok(()) => {
                    self.failing.store(false, Ordering::Relaxed);
                    Ok(())
                }
                Err(source) => {
                    conn.close_on_drop();
                    Err(StoreError::Query {
                        doing: "checking the database",
                        source,
                    })
                }
            }
        };
        match tokio::time::timeout(DB_TIMEOUT, check).await {
            Err(_) => Err(StoreError::Unhealthy("the database does not answer")),
            Ok(checked) => checked,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{game, sqlite_in_temp};
    use crate::{CommandRow, journal};

    /// A writer that is never idle still lets the WAL start afresh, rather than growing with
    /// every move. Each fresh start bumps the checkpoint sequence in the WAL's header.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_wal_starts_afresh_under_constant_writes() {
        let (dir, url) = sqlite_in_temp("wal");
        let plan = Checkpoints {
            every: Duration::from_millis(50),
            restart_after: 256,
            restart_every: Duration::ZERO,
        };
        let store = Store::open_with(&url, plan, journal::FOLD_EVERY)
            .await
            .unwrap();
        let games = 4;
        for g in 0..games {
            store.insert_game(&game(&format!("w{g}"))).await.unwrap();
        }
        let wal = dir.join("vizier.db-wal");
        let sequence = || {
            let header = std::fs::read(&wal).unwrap_or_default();
            header
                .get(12..16)
                .map_or(0, |b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
        };
        let first = sequence();
        // Sixty-four times the limit's worth of rows (a page each), from several games at
        // once, without a pause.
        let rows_each = 64 * plan.restart_after / games;
        let writers = (0..games).map(|g| {
            let store = store.clone();
            tokio::spawn(async move {
                for seq in 0..rows_each {
                    let c = CommandRow {
                        seq,
                        at_ms: seq,
                        command: "x".repeat(3_000),
                    };
                    store.append(&format!("w{g}"), &[c], None).await.unwrap();
                }
            })
        });
        let done = futures_util::future::join_all(writers).await;
        assert!(done.iter().all(Result::is_ok));
        let last = sequence();
        assert!(
            last > first,
            "the WAL never started afresh (checkpoint sequence {first} -> {last})"
        );
        store.close().await;
        std::fs::remove_dir_all(dir).ok();
    }
}
