//! The one writer: every game's appends go through it, and it commits many of them together.
//! A write that fails never leaves its connection behind.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use sqlx::{AnyConnection, AnyPool, Connection};
use tokio::sync::mpsc;
use tokio::sync::oneshot;

use super::{CommandRow, StoreError, err};

/// Moves to append, and where to say whether they are stored.
#[derive(Debug)]
pub(super) struct Append {
    pub(super) game: String,
    pub(super) commands: Vec<CommandRow>,
    pub(super) ended: Option<(String, String, i64)>,
    pub(super) done: oneshot::Sender<Result<(), StoreError>>,
}

/// Most appends in one transaction.
pub(super) const MAX_BATCH: usize = 256;

/// Group commit: takes whatever appends are waiting and stores them in one transaction, so
/// that a thousand games moving at once cost a few commits, not a thousand. If the batch
/// fails, each append is tried alone so that one bad append cannot sink the others.
pub(super) async fn write_appends(
    pool: AnyPool,
    mut rx: mpsc::Receiver<Append>,
    failing: Arc<AtomicBool>,
) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
        let written = write_batch(&pool, &batch).await;
        failing.store(written.is_err(), Ordering::Relaxed);
        match written {
            Ok(()) => {
                for a in batch.drain(..) {
                    let _ = a.done.send(Ok(()));
                }
            }
            Err(e) if batch.len() == 1 => {
                let a = batch.pop().expect("one append");
                let _ = a.done.send(Err(e));
            }
            Err(_) => {
                for a in batch.drain(..) {
                    let result = write_batch(&pool, std::slice::from_ref(&a)).await;
                    failing.store(result.is_err(), Ordering::Relaxed);
                    let _ = a.done.send(result);
                }
            }
        }
    }
}

async fn write_batch(pool: &AnyPool, batch: &[Append]) -> Result<(), StoreError> {
    let mut conn = pool.acquire().await.map_err(err("taking a connection"))?;
    let written = write_on(&mut conn, batch).await;
    if written.is_err() {
        // A failed statement or COMMIT (a full disk, an I/O error) can leave the connection
        // inside its transaction, holding the write lock; a later BEGIN there would nest and
        // its COMMIT commit nothing. Such a connection is never used again.
        conn.close_on_drop();
    }
    written
}

async fn write_on(conn: &mut AnyConnection, batch: &[Append]) -> Result<(), StoreError> {
    let mut tx = conn.begin().await.map_err(err("starting a transaction"))?;
    for a in batch {
        for c in &a.commands {
            sqlx::query(
                "INSERT INTO commands (game_id, seq, at_ms, command) VALUES ($1, $2, $3, $4)",
            )
            .bind(&a.game)
            .bind(c.seq)
            .bind(c.at_ms)
            .bind(&c.command)
            .execute(&mut *tx)
            .await
            .map_err(err("storing a move"))?;
        }
        if let Some((result, reason, at)) = &a.ended {
            sqlx::query("UPDATE games SET result = $1, reason = $2, ended_at = $3 WHERE id = $4")
                .bind(result)
                .bind(reason)
                .bind(*at)
                .bind(&a.game)
                .execute(&mut *tx)
                .await
                .map_err(err("storing a result"))?;
        }
    }
    tx.commit().await.map_err(err("committing moves"))
}
