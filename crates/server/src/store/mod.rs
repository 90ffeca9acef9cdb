//! Persistence: SQLite (the default, a file in the data directory) or PostgreSQL, through one
//! set of portable queries and migrations.

mod accounts;
mod conn;
mod error;
mod journal;
mod ratings;
mod reviews;
mod writer;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Executor, Row};
use tokio::sync::{Notify, mpsc, oneshot};

pub use accounts::{CreateUserError, NewSession, SessionRow, UserRow};

pub use error::StoreError;
use error::{err, redacted};
pub use ratings::{GameCounts, GameRatingRow, Rated};
use writer::{Ended, Job, MAX_BATCH, Write, write_all};

/// A stored game's header.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GameRow {
    pub id: String,
    pub kind: String,
    pub created_at: i64,
    /// When the arbiter's game began (a friend game begins when the friend joins).
    pub started_at: Option<i64>,
    pub setup: String,
    pub white: String,
    pub black: String,
    pub invite: Option<String>,
    pub seed: i64,
    pub result: Option<String>,
    pub reason: Option<String>,
    /// Its speed class (`blitz`); none without a clock.
    pub speed: Option<String>,
    /// Whether it changes its players' ratings.
    pub rated: bool,
    /// When it ended (Unix ms).
    pub ended_at: Option<i64>,
    /// Its opening's ECO code and name, once it ended.
    pub eco: Option<String>,
    pub opening: Option<String>,
}

/// A game without a result in which nothing has happened for a while.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdleGame {
    pub id: String,
    /// Its stored setup (JSON).
    pub setup: String,
    /// Whether it has begun (a friend game begins when the friend joins).
    pub started: bool,
    /// When something last happened in it (Unix ms).
    pub last: i64,
}

/// Which of a player's games the archive lists.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArchiveFilter {
    /// A speed class (`blitz`).
    pub speed: Option<String>,
    pub rated: Option<bool>,
    pub color: Option<ArchiveColor>,
    pub result: Option<ArchiveResult>,
    /// Only games against this player id.
    pub vs: Option<String>,
    /// Ended at or after (Unix ms)...
    pub since: Option<i64>,
    /// ...and at or before.
    pub until: Option<i64>,
}

/// The side the player had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArchiveColor {
    White,
    Black,
}

/// How the game went for the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArchiveResult {
    Win,
    Draw,
    Loss,
}

/// A value for a query built at run time.
enum Bind {
    Text(String),
    Int(i64),
}

/// How a game ended, stored with the commands that ended it.
#[derive(Clone, Debug)]
pub struct Ending<'a> {
    /// The PGN result (`1-0`).
    pub result: &'a str,
    /// The ending's code (`checkmate`).
    pub reason: &'a str,
    pub at: i64,
    pub opening: Option<crate::opening::Opening>,
    /// A rated game's players.
    pub rated: Option<&'a Rated>,
}

/// One stored arbiter command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandRow {
    pub seq: i64,
    pub at_ms: i64,
    pub command: String,
}

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

const GAME_COLUMNS: &str = "id, kind, created_at, started_at, setup, white, black, invite, seed, \
    result, reason, speed, rated, ended_at, eco, opening";

fn game_row(row: &sqlx::any::AnyRow) -> Result<GameRow, sqlx::Error> {
    Ok(GameRow {
        id: row.try_get(0)?,
        kind: row.try_get(1)?,
        created_at: row.try_get(2)?,
        started_at: row.try_get(3)?,
        setup: row.try_get(4)?,
        white: row.try_get(5)?,
        black: row.try_get(6)?,
        invite: row.try_get(7)?,
        seed: row.try_get(8)?,
        result: row.try_get(9)?,
        reason: row.try_get(10)?,
        speed: row.try_get(11)?,
        rated: row.try_get::<i64, _>(12)? != 0,
        ended_at: row.try_get(13)?,
        eco: row.try_get(14)?,
        opening: row.try_get(15)?,
    })
}

/// A write that changes nothing that matters: whether the database can be written. It is as
/// large as a big batch of moves, so that a disk with room for it has room for them.
async fn probe_write<'c>(db: impl Executor<'c, Database = sqlx::Any>) -> Result<(), sqlx::Error> {
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
struct Checkpoints {
    /// How often a checkpoint runs.
    every: Duration,
    /// WAL frames (4 KiB pages) beyond which the writer is asked to finish a checkpoint, so
    /// that the WAL starts afresh...
    restart_after: i64,
    /// ...at most this often, unless the WAL has grown eight times past it.
    restart_every: Duration,
}

impl Checkpoints {
    const DEFAULT: Checkpoints = Checkpoints {
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
async fn checkpoint(
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

    async fn open_with(
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
        metrics::histogram!(crate::metrics::STORE_SECONDS).record(started.elapsed().as_secs_f64());
        if stored.is_err() {
            metrics::counter!(crate::metrics::STORE_FAILURES).increment(1);
        }
        stored
    }

    /// A game and its commands in order.
    pub async fn load(&self, id: &str) -> Result<Option<(GameRow, Vec<CommandRow>)>, StoreError> {
        let Some(game) = self.game(id).await? else {
            return Ok(None);
        };
        let commands = self.commands_of(&game).await?;
        Ok(Some((game, commands)))
    }

    /// A game without its commands (reading those of a game going on scans the journal).
    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let row = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(err("loading a game"))?;
        row.map(|r| game_row(&r).map_err(err("reading a game")))
            .transpose()
    }

    /// A player's games that have ended, newest first, as `filter` narrows them; after
    /// `after` (the `ended_at` and id of the last game of the previous page) when given.
    pub async fn games_of(
        &self,
        player: &str,
        filter: &ArchiveFilter,
        after: Option<(i64, &str)>,
        limit: i64,
    ) -> Result<Vec<GameRow>, StoreError> {
        let seat = format!("p:{player}");
        let mut sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE ended_at IS NOT NULL \
             AND (white = $1 OR black = $1)"
        );
        let mut binds: Vec<Bind> = vec![Bind::Text(seat)];
        let mut param = |sql: &mut String, clause: &str, value: Bind| {
            binds.push(value);
            sql.push_str(&clause.replace('?', &format!("${}", binds.len())));
        };
        if let Some(speed) = &filter.speed {
            param(&mut sql, " AND speed = ?", Bind::Text(speed.clone()));
        }
        if let Some(rated) = filter.rated {
            param(&mut sql, " AND rated = ?", Bind::Int(i64::from(rated)));
        }
        match filter.color {
            Some(ArchiveColor::White) => sql.push_str(" AND white = $1"),
            Some(ArchiveColor::Black) => sql.push_str(" AND black = $1"),
            None => {}
        }
        match filter.result {
            Some(ArchiveResult::Win) => sql.push_str(
                " AND ((white = $1 AND result = '1-0') OR (black = $1 AND result = '0-1'))",
            ),
            Some(ArchiveResult::Loss) => sql.push_str(
                " AND ((white = $1 AND result = '0-1') OR (black = $1 AND result = '1-0'))",
            ),
            Some(ArchiveResult::Draw) => sql.push_str(" AND result = '1/2-1/2'"),
            None => {}
        }
        if let Some(vs) = &filter.vs {
            let vs = format!("p:{vs}");
            param(&mut sql, " AND (white = ?", Bind::Text(vs.clone()));
            param(&mut sql, " OR black = ?)", Bind::Text(vs));
        }
        if let Some(since) = filter.since {
            param(&mut sql, " AND ended_at >= ?", Bind::Int(since));
        }
        if let Some(until) = filter.until {
            param(&mut sql, " AND ended_at <= ?", Bind::Int(until));
        }
        if let Some((at, id)) = after {
            param(&mut sql, " AND (ended_at < ?", Bind::Int(at));
            param(&mut sql, " OR (ended_at = ?", Bind::Int(at));
            param(&mut sql, " AND id < ?))", Bind::Text(id.to_string()));
        }
        param(
            &mut sql,
            " ORDER BY ended_at DESC, id DESC LIMIT ?",
            Bind::Int(limit),
        );
        let mut q = sqlx::query(&sql);
        for b in &binds {
            q = match b {
                Bind::Text(t) => q.bind(t.as_str()),
                Bind::Int(n) => q.bind(*n),
            };
        }
        let rows = q
            .fetch_all(&self.pool)
            .await
            .map_err(err("listing a player's games"))?;
        rows.iter()
            .map(game_row)
            .collect::<Result<_, _>>()
            .map_err(err("reading a player's games"))
    }

    /// A game's stored commands in order. Those of a game going on may still be in the
    /// journal only; a game that ended has all of them in `commands`.
    pub async fn commands_of(&self, game: &GameRow) -> Result<Vec<CommandRow>, StoreError> {
        const ENDED: &str =
            "SELECT seq, at_ms, command FROM commands WHERE game_id = $1 ORDER BY seq";
        const GOING_ON: &str = "SELECT seq, at_ms, command FROM commands WHERE game_id = $1 \
             UNION SELECT seq, at_ms, command FROM journal WHERE game_id = $1 ORDER BY seq";
        let sql = if game.result.is_some() {
            ENDED
        } else {
            GOING_ON
        };
        let rows = sqlx::query(sql)
            .bind(&game.id)
            .fetch_all(&self.pool)
            .await
            .map_err(err("loading moves"))?;
        rows.iter()
            .map(|r| {
                Ok(CommandRow {
                    seq: r.try_get(0)?,
                    at_ms: r.try_get(1)?,
                    command: r.try_get(2)?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(err("reading moves"))
    }

    /// How many games without a result `seat` (a stored seat, `p:<id>`) sits in.
    pub async fn unfinished_games_of(&self, seat: &str) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) FROM games WHERE result IS NULL AND (white = $1 OR black = $1)",
        )
        .bind(seat)
        .fetch_one(&self.pool)
        .await
        .map_err(err("counting a player's games"))?;
        row.try_get(0).map_err(err("counting a player's games"))
    }

    /// How many games without a result `seat` plays against the computer.
    pub async fn unfinished_computer_games_of(&self, seat: &str) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) FROM games WHERE result IS NULL AND \
             ((white = $1 AND black LIKE 'c:%') OR (black = $1 AND white LIKE 'c:%'))",
        )
        .bind(seat)
        .fetch_one(&self.pool)
        .await
        .map_err(err("counting a player's computer games"))?;
        row.try_get(0)
            .map_err(err("counting a player's computer games"))
    }

    /// The games without a result, each with its stored setup.
    pub async fn live_games(&self) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query("SELECT id, setup FROM games WHERE result IS NULL")
            .fetch_all(&self.pool)
            .await
            .map_err(err("listing live games"))?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(err("listing live games"))
    }

    /// The games without a result in which nothing has happened since `before` (Unix ms). What
    /// happened last is the last command (in the journal, else in `commands`), else the start,
    /// else the creation. The journal, not indexed by game, is read once for all games.
    pub async fn idle_games(&self, before: i64) -> Result<Vec<IdleGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, setup, started_at, last FROM (SELECT g.id, g.setup, g.started_at, \
               COALESCE(j.last_at, \
               (SELECT at_ms FROM commands c WHERE c.game_id = g.id ORDER BY seq DESC LIMIT 1), \
               g.started_at, g.created_at) AS last FROM games g \
               LEFT JOIN (SELECT game_id, MAX(at_ms) AS last_at FROM journal GROUP BY game_id) j \
               ON j.game_id = g.id WHERE g.result IS NULL) t \
             WHERE last < $1",
        )
        .bind(before)
        .fetch_all(&self.pool)
        .await
        .map_err(err("listing idle games"))?;
        rows.iter()
            .map(|r| {
                Ok(IdleGame {
                    id: r.try_get(0)?,
                    setup: r.try_get(1)?,
                    started: r.try_get::<Option<i64>, _>(2)?.is_some(),
                    last: r.try_get(3)?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(err("listing idle games"))
    }

    /// A server secret, created with `make` the first time it is asked for.
    pub async fn secret(
        &self,
        name: &str,
        make: impl FnOnce() -> String,
    ) -> Result<String, StoreError> {
        let row = sqlx::query("SELECT value FROM secrets WHERE name = $1")
            .bind(name)
            .fetch_optional(&self.pool)
            .await
            .map_err(err("reading a secret"))?;
        if let Some(row) = row {
            return row.try_get(0).map_err(err("reading a secret"));
        }
        let value = make();
        // Two servers starting at once on one PostgreSQL: the first insert wins, both read it.
        let _ = sqlx::query("INSERT INTO secrets (name, value) VALUES ($1, $2)")
            .bind(name)
            .bind(&value)
            .execute(&self.pool)
            .await;
        let row = sqlx::query("SELECT value FROM secrets WHERE name = $1")
            .bind(name)
            .fetch_one(&self.pool)
            .await
            .map_err(err("storing a secret"))?;
        row.try_get(0).map_err(err("reading a secret"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: &str) -> GameRow {
        GameRow {
            id: id.into(),
            kind: "local".into(),
            created_at: 1,
            started_at: Some(1),
            setup: "{}".into(),
            white: "p:a".into(),
            black: "p:a".into(),
            invite: None,
            seed: 42,
            ..GameRow::default()
        }
    }

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

    /// Counts a game's rows in `commands` and in the journal.
    async fn rows_of(store: &Store, id: &str) -> (i64, i64) {
        let count = |table: &str| {
            let sql = format!("SELECT COUNT(*) FROM {table} WHERE game_id = $1");
            let pool = store.pool.clone();
            let id = id.to_string();
            async move {
                let row = sqlx::query(&sql).bind(id).fetch_one(&pool).await.unwrap();
                row.try_get::<i64, _>(0).unwrap()
            }
        };
        (count("commands").await, count("journal").await)
    }

    /// A fresh directory for a test's database, and the database's URL.
    fn sqlite_in_temp(name: &str) -> (std::path::PathBuf, String) {
        let dir = std::env::temp_dir().join(format!("vizier-{name}-{}", rand::random::<u64>()));
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}?mode=rwc", dir.join("vizier.db").display());
        (dir, url)
    }

    fn command(seq: i64) -> CommandRow {
        CommandRow {
            seq,
            at_ms: 1_000 + seq,
            command: format!("c{seq}"),
        }
    }

    /// A game's moves go to the journal first; loading a game going on finds them there, and
    /// the writer folds them into `commands` on its own (the store at `url` folds every 50 ms).
    async fn journal_folds(url: &str) {
        let fast = Duration::from_millis(50);
        let store = Store::open_with(url, Checkpoints::DEFAULT, fast)
            .await
            .unwrap();
        let id = format!("j{}", rand::random::<u32>());
        store.insert_game(&game(&id)).await.unwrap();
        for seq in 0..5 {
            store.append(&id, &[command(seq)], None).await.unwrap();
        }
        let loaded = store.load(&id).await.unwrap().unwrap().1;
        assert_eq!(loaded, (0..5).map(command).collect::<Vec<_>>());
        // A command numbered like one in the journal is refused as well.
        let again = store.append(&id, &[command(4)], None).await;
        assert!(
            matches!(again, Err(StoreError::Duplicate { .. })),
            "{again:?}"
        );
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while rows_of(&store, &id).await != (5, 0) {
            assert!(std::time::Instant::now() < deadline, "never folded");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(store.load(&id).await.unwrap().unwrap().1.len(), 5);
        // Its last move, once folded, says how long it has been idle...
        let idle = store.idle_games(i64::MAX).await.unwrap();
        assert!(
            idle.iter().any(|g| g.id == id && g.last == 1_004),
            "{idle:?}"
        );
        // ...and so does a newer one, in the journal or folded.
        store.append(&id, &[command(5)], None).await.unwrap();
        let idle = store.idle_games(i64::MAX).await.unwrap();
        assert!(
            idle.iter().any(|g| g.id == id && g.last == 1_005),
            "{idle:?}"
        );
        let idle = store.idle_games(1_005).await.unwrap();
        assert!(!idle.iter().any(|g| g.id == id), "{idle:?}");
    }

    /// The commit that ends a game puts all its moves in `commands`, those still waiting in
    /// the journal included; a restart folds whatever the journal holds before anything else.
    #[tokio::test]
    async fn a_game_that_ends_or_a_restart_leaves_nothing_in_the_journal() {
        let (dir, url) = sqlite_in_temp("journal");
        let never = Duration::from_secs(3_600);
        let store = Store::open_with(&url, Checkpoints::DEFAULT, never)
            .await
            .unwrap();
        let (ends, goes_on) = ("ends", "goes-on");
        for id in [ends, goes_on] {
            store.insert_game(&game(id)).await.unwrap();
            store
                .append(id, &[command(0), command(1)], None)
                .await
                .unwrap();
        }
        assert_eq!(rows_of(&store, ends).await, (0, 2));
        store
            .append(ends, &[command(2)], Some(("1-0", "resignation", 5)))
            .await
            .unwrap();
        assert_eq!(rows_of(&store, ends).await.0, 3);
        assert_eq!(store.load(ends).await.unwrap().unwrap().1.len(), 3);
        assert_eq!(rows_of(&store, goes_on).await, (0, 2));
        // A game's last command in the journal says how long it has been idle.
        let idle = store.idle_games(i64::MAX).await.unwrap();
        assert!(
            idle.iter().any(|g| g.id == goes_on && g.last == 1_001),
            "{idle:?}"
        );
        let idle = store.idle_games(1_001).await.unwrap();
        assert!(!idle.iter().any(|g| g.id == goes_on), "{idle:?}");
        // A write that failed yet committed, before the one acknowledged: the later one wins.
        sqlx::query("INSERT INTO journal VALUES (-1, $1, 1, 0, 'never acknowledged')")
            .bind(goes_on)
            .execute(&store.pool)
            .await
            .unwrap();
        // A write that fails (no such game) leaves the journal as usable as before.
        assert!(store.append("nowhere", &[command(0)], None).await.is_err());
        store.append(goes_on, &[command(2)], None).await.unwrap();
        store.close().await;
        let store = Store::open_with(&url, Checkpoints::DEFAULT, never)
            .await
            .unwrap();
        assert_eq!(rows_of(&store, goes_on).await, (3, 0));
        // The restarted writer learns the game's last command from `commands`.
        let again = store.append(goes_on, &[command(2)], None).await;
        assert!(
            matches!(again, Err(StoreError::Duplicate { .. })),
            "{again:?}"
        );
        store.append(goes_on, &[command(3)], None).await.unwrap();
        let loaded = store.load(goes_on).await.unwrap().unwrap().1;
        assert_eq!(loaded, (0..4).map(command).collect::<Vec<_>>());
        store.close().await;
        std::fs::remove_dir_all(dir).ok();
    }

    /// A fold of many games goes a slice at a time; while it does, every game loads whole,
    /// whether its moves are still in the journal, in the fold under way or in `commands`.
    #[tokio::test]
    async fn a_fold_of_many_games_loses_and_repeats_nothing() {
        let (dir, url) = sqlite_in_temp("slices");
        let store = Store::open_with(&url, Checkpoints::DEFAULT, Duration::from_millis(30))
            .await
            .unwrap();
        let ids: Vec<String> = (0..24).map(|i| format!("s{i:02}")).collect();
        for id in &ids {
            store.insert_game(&game(id)).await.unwrap();
        }
        for seq in 0..30 {
            for id in &ids {
                store.append(id, &[command(seq)], None).await.unwrap();
            }
            for id in ids.iter().step_by(7) {
                let loaded = store.load(id).await.unwrap().unwrap().1;
                assert_eq!(loaded, (0..=seq).map(command).collect::<Vec<_>>(), "{id}");
            }
        }
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        for id in &ids {
            while rows_of(&store, id).await != (30, 0) {
                assert!(std::time::Instant::now() < deadline, "{id} never folded");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            let loaded = store.load(id).await.unwrap().unwrap().1;
            assert_eq!(loaded, (0..30).map(command).collect::<Vec<_>>(), "{id}");
        }
        store.close().await;
        std::fs::remove_dir_all(dir).ok();
    }

    #[tokio::test]
    async fn sqlite_journal_folds() {
        let (dir, url) = sqlite_in_temp("fold");
        journal_folds(&url).await;
        std::fs::remove_dir_all(dir).ok();
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

    /// Runs where `VIZIER_TEST_POSTGRES` names a database (CI starts one).
    #[tokio::test]
    async fn postgres_round_trip() {
        let Ok(url) = std::env::var("VIZIER_TEST_POSTGRES") else {
            eprintln!("VIZIER_TEST_POSTGRES not set: PostgreSQL not tested here");
            return;
        };
        round_trip(Store::open(&url).await.unwrap()).await;
        group_commit(Store::open(&url).await.unwrap()).await;
        journal_folds(&url).await;
    }
}
