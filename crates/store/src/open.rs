//! Opening the database: the pool and SQLite's PRAGMAs, the migrations, the journal's fold
//! and the writer's thread.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use sqlx::Executor;
use sqlx::any::{AnyPoolOptions, install_default_drivers};
use tokio::sync::{Notify, mpsc};

use crate::error::redacted;
use crate::health::{Checkpoints, checkpoint, probe_write};
use crate::writer::{MAX_BATCH, write_all};
use crate::{DB_TIMEOUT, Store, StoreError, conn, journal};

impl Store {
    /// The SQLite database `vizier.db` in `data_dir` (created if missing).
    pub async fn sqlite(data_dir: &Path) -> Result<Store, StoreError> {
        std::fs::create_dir_all(data_dir).map_err(|source| StoreError::DataDir {
            path: data_dir.to_path_buf(),
            source,
        })?;
        let url = format!("sqlite://{}?mode=rwc", data_dir.join("vizier.db").display());
        Store::open_with(&url, Checkpoints::DEFAULT, journal::FOLD_EVERY).await
    }

    /// Opens `url` (`sqlite://…` or `postgres://…`) and brings its schema up to date.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        Store::open_with(url, Checkpoints::DEFAULT, journal::FOLD_EVERY).await
    }

    pub(crate) async fn open_with(
        url: &str,
        checkpoints: Checkpoints,
        fold_every: Duration,
    ) -> Result<Store, StoreError> {
        install_default_drivers();
        let sqlite = url.starts_with("sqlite:");
        // On SQLite the writer has a connection of its own besides these.
        let pool = AnyPoolOptions::new()
            .max_connections(if sqlite { 3 } else { 16 })
            .acquire_timeout(DB_TIMEOUT)
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if sqlite {
                        // WAL: readers never wait for the writer; a committed move survives
                        // the process being killed (NORMAL syncs at checkpoints, not per commit).
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                        conn.execute("PRAGMA synchronous = NORMAL").await?;
                        let busy = conn::BUSY_TIMEOUT.as_millis();
                        conn.execute(format!("PRAGMA busy_timeout = {busy}").as_str())
                            .await?;
                        conn.execute("PRAGMA wal_autocheckpoint = 0").await?;
                        conn.execute("PRAGMA foreign_keys = ON").await?;
                    }
                    Ok(())
                })
            })
            .connect(url)
            .await
            .map_err(|source| StoreError::Open {
                url: redacted(url),
                source,
            })?;
        let connector = conn::Connector::new(pool.clone(), url)?;
        sqlx::migrate!("./migrations")
            .run(&pool)
            .await
            .map_err(StoreError::Migrate)?;
        // Read-only files (or a full disk) are found now, with a clear error, rather than at
        // the first move.
        probe_write(&pool).await.map_err(StoreError::NotWritable)?;
        journal::fold_all(&pool).await?;
        let (writer, rx) = mpsc::channel(4 * MAX_BATCH);
        let failing = Arc::new(AtomicBool::new(false));
        let closing = Arc::new(Notify::new());
        // Set when the writer should finish a checkpoint; never for PostgreSQL.
        let finish_checkpoint = Arc::new(AtomicBool::new(false));
        if sqlite {
            tokio::spawn(checkpoint(
                pool.clone(),
                checkpoints,
                failing.clone(),
                finish_checkpoint.clone(),
            ));
        }
        // The writer has a thread of its own, so that a commit's answer does not wait in the
        // queue of a thousand busy games.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(StoreError::Writer)?;
        let (f, c) = (failing.clone(), closing.clone());
        let (stopping, stopped) = tokio::sync::watch::channel(());
        std::thread::Builder::new()
            .name("vizier-writer".into())
            .spawn(move || {
                let journal = journal::Journal::new(fold_every);
                runtime.block_on(write_all(connector, rx, f, c, finish_checkpoint, journal));
                // Dropping the runtime drops the connection the writer gave back.
                drop(runtime);
                drop(stopping);
            })
            .map_err(StoreError::Writer)?;
        Ok(Store {
            pool,
            writer,
            failing,
            closing,
            closed: Arc::new(AtomicBool::new(false)),
            stopped,
        })
    }
}
