//! # vizier-store
//!
//! Vizier's database: SQLite (the default, a file in the data directory) or PostgreSQL,
//! through one set of portable queries and migrations. Games are stored as their accepted
//! commands ([`record`] says how each is written down); every write goes through one writer
//! task ([`writer`]) that commits many games' writes together, moves first to a journal
//! ([`journal`]). Accounts, sessions, ratings and reviews have their own files.

mod accounts;
mod archive;
mod conditional;
mod conn;
mod error;
mod games;
mod health;
pub mod ids;
mod insert;
mod journal;
pub mod metrics;
mod open;
mod ratings;
pub mod record;
mod reviews;
mod rows;
mod secrets;
mod tokens;
mod tournaments;
mod vacations;
mod writer;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use sqlx::AnyPool;
use tokio::sync::{Notify, mpsc, oneshot};

pub use accounts::{CreateUserError, NewSession, SessionRow, UserRow};
pub use archive::{ArchiveColor, ArchiveFilter, ArchiveResult};
pub use error::StoreError;
pub use ids::{GameId, PlayerId};
pub use ratings::{GameCounts, GameRatingRow, Rated};
pub use rows::{CommandRow, Ending, GameRow, IdleGame, OpeningName};
pub use tokens::{NewToken, TokenRow};
pub use tournaments::TournamentRow;
pub use vacations::VacationRow;
use writer::{Ended, Job, Write};

/// The database.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    /// Writes go through one writer task that commits many games' writes together.
    writer: mpsc::Sender<Job>,
    /// Whether the writer's last commit failed.
    failing: Arc<AtomicBool>,
    /// Tells the writer to stop and give its connection back.
    closing: Arc<Notify>,
    /// Set once the store is closing: later writes fail without reaching the writer.
    closed: Arc<AtomicBool>,
    /// Ends (its sender dropped) once the writer's thread has let go of its connection.
    stopped: tokio::sync::watch::Receiver<()>,
}

/// How long a query may wait for a connection, or a health check for its answer: a database
/// that is down fails fast rather than holding every game.
pub const DB_TIMEOUT: Duration = Duration::from_secs(3);

impl Store {
    /// Stops the writer after the write it is doing, and closes the database's connections
    /// once those in use are given back; later writes fail.
    pub async fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        self.closing.notify_one();
        let mut stopped = self.stopped.clone();
        while stopped.changed().await.is_ok() {}
        self.pool.close().await;
    }

    /// Stores a new game.
    pub async fn insert_game(&self, g: &GameRow) -> Result<(), StoreError> {
        self.write(Write::NewGame(Box::new(g.clone()))).await
    }

    /// Seats the friend and starts the game.
    pub async fn seat(
        &self,
        id: &str,
        white: &str,
        black: &str,
        started_at: i64,
    ) -> Result<(), StoreError> {
        self.write(Write::Seat {
            game: id.to_string(),
            white: white.to_string(),
            black: black.to_string(),
            started_at,
        })
        .await
    }

    /// Appends accepted commands; when they ended the game, records the result in the same
    /// transaction. Either all of it is stored or none; returns once it is committed.
    pub async fn append(
        &self,
        game: &str,
        commands: &[CommandRow],
        ended: Option<(&str, &str, i64)>,
    ) -> Result<(), StoreError> {
        let ending = ended.map(|(result, reason, at)| Ending {
            result,
            reason,
            at,
            opening: None,
            rated: None,
        });
        self.append_ending(game, commands, ending).await
    }

    /// As [`Store::append`], with how the game ended: its opening, and for a rated game its
    /// players, whose ratings change in the same transaction.
    pub async fn append_ending(
        &self,
        game: &str,
        commands: &[CommandRow],
        ending: Option<Ending<'_>>,
    ) -> Result<(), StoreError> {
        self.write(Write::Append {
            game: game.to_string(),
            commands: commands.to_vec(),
            ended: ending.map(|e| {
                Box::new(Ended {
                    result: e.result.to_string(),
                    reason: e.reason.to_string(),
                    at: e.at,
                    opening: e.opening.map(|o| (o.eco.to_string(), o.name.to_string())),
                    rated: e.rated.cloned(),
                })
            }),
        })
        .await
    }

    /// Hands `write` to the writer; returns once it is committed.
    async fn write(&self, write: Write) -> Result<(), StoreError> {
        if self.closed.load(Ordering::SeqCst) {
            return Err(StoreError::WriterGone);
        }
        let (done, stored) = oneshot::channel();
        let started = std::time::Instant::now();
        self.writer
            .send(Job { write, done })
            .await
            .map_err(|_| StoreError::WriterGone)?;
        let stored = stored.await.map_err(|_| StoreError::WriterGone)?;
        ::metrics::histogram!(metrics::STORE_SECONDS).record(started.elapsed().as_secs_f64());
        if stored.is_err() {
            ::metrics::counter!(metrics::STORE_FAILURES).increment(1);
        }
        stored
    }
}

#[cfg(test)]
pub(crate) mod testing;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::game;

    async fn round_trip(store: Store) {
        let id = format!("t{}", rand::random::<u32>());
        store.insert_game(&game(&id)).await.unwrap();
        assert_eq!(store.load(&id).await.unwrap().unwrap().0, game(&id));
        assert_eq!(store.game(&id).await.unwrap(), Some(game(&id)));
        assert_eq!(store.game("no-such-game").await.unwrap(), None);
        for seq in 0..3 {
            let c = CommandRow {
                seq,
                at_ms: 10 + seq,
                command: format!("c{seq}"),
            };
            let ended = (seq == 2).then_some(("1-0", "resignation", 12));
            store.append(&id, &[c], ended).await.unwrap();
        }
        // The same sequence number twice is refused: two writers cannot both win a move.
        let dup = CommandRow {
            seq: 1,
            at_ms: 99,
            command: "again".into(),
        };
        assert!(store.append(&id, &[dup], None).await.is_err());
        let (row, commands) = store.load(&id).await.unwrap().unwrap();
        assert_eq!(row.result.as_deref(), Some("1-0"));
        assert_eq!(commands.len(), 3);
        assert_eq!(commands[1].command, "c1");
        assert!(
            !store
                .live_games()
                .await
                .unwrap()
                .iter()
                .any(|(g, _)| *g == id)
        );
        let a = store.secret("k", || "first".into()).await.unwrap();
        let b = store.secret("k", || "second".into()).await.unwrap();
        assert_eq!(a, b);
    }

    /// Many games' writes at once share transactions; one bad write among them fails alone.
    async fn group_commit(store: Store) {
        use futures_util::future::join_all;
        let run = rand::random::<u32>();
        let ids: Vec<String> = (0..60).map(|i| format!("g{run}-{i}")).collect();
        let rows: Vec<GameRow> = ids.iter().map(|id| game(id)).collect();
        let created = join_all(rows.iter().map(|g| store.insert_game(g))).await;
        assert!(created.iter().all(Result::is_ok), "{created:?}");
        let row = |seq| CommandRow {
            seq,
            at_ms: seq,
            command: format!("c{seq}"),
        };
        let appends = ids.iter().enumerate().map(|(i, id)| {
            // Game 7 sends its first command twice: the second must be refused.
            let commands = if i == 7 {
                vec![row(0), row(0)]
            } else {
                vec![row(0), row(1)]
            };
            let store = store.clone();
            async move { store.append(id, &commands, None).await }
        });
        let appended = join_all(appends).await;
        for (i, result) in appended.iter().enumerate() {
            assert_eq!(result.is_err(), i == 7, "game {i}: {result:?}");
        }
        for (i, id) in ids.iter().enumerate() {
            let (_, commands) = store.load(id).await.unwrap().unwrap();
            assert_eq!(commands.len(), if i == 7 { 0 } else { 2 }, "game {i}");
        }
        // Closing waits for the writer to give its connection back; later writes fail.
        tokio::time::timeout(Duration::from_secs(5), store.close())
            .await
            .expect("the store closes");
        assert!(store.append(&ids[0], &[row(2)], None).await.is_err());
    }

    #[tokio::test]
    async fn sqlite_round_trip() {
        let dir = std::env::temp_dir().join(format!("vizier-store-{}", rand::random::<u64>()));
        round_trip(Store::sqlite(&dir).await.unwrap()).await;
        group_commit(Store::sqlite(&dir).await.unwrap()).await;
        std::fs::remove_dir_all(dir).ok();
    }

    #[tokio::test]
    async fn sqlite_in_memory_is_refused_clearly() {
        let refused = Store::open("sqlite::memory:").await.unwrap_err();
        assert!(
            refused.to_string().contains("SQLite needs a file"),
            "{refused}"
        );
    }

    #[tokio::test]
    #[ignore = "needs PostgreSQL: VIZIER_TEST_POSTGRES (scripts/test.sh starts one)"]
    async fn postgres_round_trip() {
        let url = crate::testing::postgres_url();
        round_trip(Store::open(&url).await.unwrap()).await;
        group_commit(Store::open(&url).await.unwrap()).await;
    }
}
