//! The one writer: every game write goes through it, and it commits many games' writes together.
//! Writers on separate connections would queue on SQLite's one write lock by sleeping and
//! retrying; one writer queues them in order instead. A write that fails never leaves its
//! connection behind.

use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyConnection, AnyPool, Connection};
use tokio::sync::mpsc;
use tokio::sync::{Notify, oneshot};

use super::ratings::{self, Rated};
use super::{CommandRow, GAME_COLUMNS, GameRow, StoreError, err};

/// One write, applied whole or not at all.
#[derive(Debug)]
pub(super) enum Write {
    /// A new game.
    NewGame(Box<GameRow>),
    /// The friend seated and the game started.
    Seat {
        game: String,
        white: String,
        black: String,
        started_at: i64,
    },
    /// Accepted commands, and how the game ended when they ended it.
    Append {
        game: String,
        commands: Vec<CommandRow>,
        ended: Option<Box<Ended>>,
    },
}

/// How a game ended: its result, opening, and a rated game's players.
#[derive(Debug)]
pub(super) struct Ended {
    pub(super) result: String,
    pub(super) reason: String,
    pub(super) at: i64,
    /// ECO code and name.
    pub(super) opening: Option<(String, String)>,
    pub(super) rated: Option<Rated>,
}

/// A write, and where to say whether it is stored.
#[derive(Debug)]
pub(super) struct Job {
    pub(super) write: Write,
    pub(super) done: oneshot::Sender<Result<(), StoreError>>,
}

/// Most writes in one transaction.
pub(super) const MAX_BATCH: usize = 256;

/// Most rows in one INSERT (each row binds at most 16 values; SQLite allows 32,766).
const ROWS_PER_INSERT: usize = 512;

/// Group commit: takes whatever writes are waiting and stores them in one transaction, so
/// that a thousand games moving at once cost a few statements, not thousands. If the batch
/// fails, each write is tried alone so that one bad write cannot sink the others.
/// When `finish_checkpoint` is set, it finishes a SQLite checkpoint between two batches.
/// Stops when every sender is gone or `closing` is notified, and then gives its connection back.
pub(super) async fn write_all(
    pool: AnyPool,
    mut rx: mpsc::Receiver<Job>,
    failing: Arc<AtomicBool>,
    closing: Arc<Notify>,
    finish_checkpoint: Arc<AtomicBool>,
) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    // The writer keeps its connection between batches; one that failed is replaced.
    let mut conn: Option<PoolConnection<Any>> = None;
    loop {
        tokio::select! {
            biased;
            n = rx.recv_many(&mut batch, MAX_BATCH) => if n == 0 { break },
            _ = closing.notified() => break,
        }
        if finish_checkpoint.swap(false, Ordering::Relaxed)
            && let Some(c) = conn.as_mut()
        {
            let started = std::time::Instant::now();
            if let Err(e) = sqlx::query("PRAGMA wal_checkpoint(PASSIVE)")
                .fetch_all(&mut **c)
                .await
            {
                tracing::warn!("finishing a checkpoint: {e}");
            }
            metrics::histogram!(crate::metrics::CHECKPOINT_SECONDS)
                .record(started.elapsed().as_secs_f64());
        }
        let written = write_batch(&pool, &mut conn, &batch).await;
        failing.store(written.is_err(), Ordering::Relaxed);
        match written {
            Ok(()) => {
                for job in batch.drain(..) {
                    let _ = job.done.send(Ok(()));
                }
            }
            Err(e) if batch.len() == 1 => {
                let job = batch.pop().expect("one write");
                let _ = job.done.send(Err(e));
            }
            Err(_) => {
                for job in batch.drain(..) {
                    let result = write_batch(&pool, &mut conn, std::slice::from_ref(&job)).await;
                    failing.store(result.is_err(), Ordering::Relaxed);
                    let _ = job.done.send(result);
                }
            }
        }
    }
}

async fn write_batch(
    pool: &AnyPool,
    held: &mut Option<PoolConnection<Any>>,
    batch: &[Job],
) -> Result<(), StoreError> {
    let conn = match held {
        Some(conn) => conn,
        None => held.insert(pool.acquire().await.map_err(err("taking a connection"))?),
    };
    let written = write_on(conn, batch).await;
    if written.is_err() {
        // A failed statement or COMMIT (a full disk, an I/O error) can leave the connection
        // inside its transaction, holding the write lock; a later BEGIN there would nest and
        // its COMMIT commit nothing. Such a connection is never used again.
        if let Some(mut conn) = held.take() {
            conn.close_on_drop();
        }
    }
    written
}

/// A batch's rows by kind, so that each kind takes as few statements as it can.
#[derive(Default)]
struct Plan<'a> {
    games: Vec<&'a GameRow>,
    seats: Vec<Statement<'a>>,
    commands: Vec<(&'a str, &'a CommandRow)>,
    results: Vec<Statement<'a>>,
}

impl<'a> Plan<'a> {
    fn of(batch: &'a [Job]) -> Plan<'a> {
        let mut plan = Plan::default();
        for job in batch {
            match &job.write {
                Write::NewGame(g) => plan.games.push(g),
                Write::Seat {
                    game,
                    white,
                    black,
                    started_at,
                } => plan.seats.push(Statement::Seat {
                    game,
                    white,
                    black,
                    started_at: *started_at,
                }),
                Write::Append {
                    game,
                    commands,
                    ended,
                } => {
                    plan.commands
                        .extend(commands.iter().map(|c| (game.as_str(), c)));
                    if let Some(ended) = ended {
                        plan.results.push(Statement::Result { game, ended });
                        if let Some(rated) = &ended.rated {
                            plan.results.push(Statement::Rate {
                                game,
                                rated,
                                result: &ended.result,
                                at: ended.at,
                            });
                        }
                    }
                }
            }
        }
        plan
    }

    /// The statements in order: games first, as commands refer to them.
    fn statements(&self) -> Vec<Statement<'_>> {
        let mut all: Vec<Statement> = self
            .games
            .chunks(ROWS_PER_INSERT)
            .map(Statement::Games)
            .collect();
        all.extend(self.seats.iter().cloned());
        all.extend(
            self.commands
                .chunks(ROWS_PER_INSERT)
                .map(Statement::Commands),
        );
        all.extend(self.results.iter().cloned());
        all
    }
}

/// One SQL statement of a batch.
#[derive(Clone)]
enum Statement<'a> {
    Games(&'a [&'a GameRow]),
    Seat {
        game: &'a str,
        white: &'a str,
        black: &'a str,
        started_at: i64,
    },
    Commands(&'a [(&'a str, &'a CommandRow)]),
    Result {
        game: &'a str,
        ended: &'a Ended,
    },
    /// A rated game's rating changes (after its result).
    Rate {
        game: &'a str,
        rated: &'a Rated,
        result: &'a str,
        at: i64,
    },
}

/// `($1, …, $k), ($k+1, …)`: `rows` groups of `columns` placeholders.
fn placeholders(rows: usize, columns: usize) -> String {
    let mut sql = String::with_capacity(rows * columns * 5);
    for r in 0..rows {
        if r > 0 {
            sql.push_str(", ");
        }
        sql.push('(');
        for c in 0..columns {
            if c > 0 {
                sql.push_str(", ");
            }
            let _ = write!(sql, "${}", r * columns + c + 1);
        }
        sql.push(')');
    }
    sql
}

async fn execute(conn: &mut AnyConnection, statement: &Statement<'_>) -> Result<(), StoreError> {
    match statement {
        Statement::Games(games) => {
            let sql = format!(
                "INSERT INTO games ({GAME_COLUMNS}) VALUES {}",
                placeholders(games.len(), 16)
            );
            let mut q = sqlx::query(&sql);
            for g in games.iter() {
                q = q
                    .bind(&g.id)
                    .bind(&g.kind)
                    .bind(g.created_at)
                    .bind(g.started_at)
                    .bind(&g.setup)
                    .bind(&g.white)
                    .bind(&g.black)
                    .bind(&g.invite)
                    .bind(g.seed)
                    .bind(&g.result)
                    .bind(&g.reason)
                    .bind(&g.speed)
                    .bind(i64::from(g.rated))
                    .bind(g.ended_at)
                    .bind(&g.eco)
                    .bind(&g.opening);
            }
            q.execute(conn).await.map_err(err("storing a new game"))?;
        }
        Statement::Seat {
            game,
            white,
            black,
            started_at,
        } => {
            sqlx::query(
                "UPDATE games SET white = $1, black = $2, started_at = $3, invite = NULL \
                 WHERE id = $4",
            )
            .bind(white)
            .bind(black)
            .bind(started_at)
            .bind(game)
            .execute(conn)
            .await
            .map_err(err("seating a player"))?;
        }
        Statement::Commands(rows) => {
            let sql = format!(
                "INSERT INTO commands (game_id, seq, at_ms, command) VALUES {}",
                placeholders(rows.len(), 4)
            );
            let mut q = sqlx::query(&sql);
            for (game, c) in rows.iter() {
                q = q.bind(*game).bind(c.seq).bind(c.at_ms).bind(&c.command);
            }
            q.execute(conn).await.map_err(err("storing a move"))?;
        }
        Statement::Result { game, ended } => {
            let (eco, opening) = ended
                .opening
                .as_ref()
                .map_or((None, None), |(e, n)| (Some(e.as_str()), Some(n.as_str())));
            sqlx::query(
                "UPDATE games SET result = $1, reason = $2, ended_at = $3, eco = $4, \
                 opening = $5 WHERE id = $6",
            )
            .bind(&ended.result)
            .bind(&ended.reason)
            .bind(ended.at)
            .bind(eco)
            .bind(opening)
            .bind(*game)
            .execute(conn)
            .await
            .map_err(err("storing a result"))?;
        }
        Statement::Rate {
            game,
            rated,
            result,
            at,
        } => ratings::rate(conn, game, rated, result, *at).await?,
    }
    Ok(())
}

/// Runs the batch's statements in one transaction; a single statement is a transaction by
/// itself, and each round trip to the database costs a thread handoff or a network trip.
async fn write_on(conn: &mut AnyConnection, batch: &[Job]) -> Result<(), StoreError> {
    let plan = Plan::of(batch);
    let statements = plan.statements();
    if let [one] = statements.as_slice()
        && !matches!(one, Statement::Rate { .. })
    {
        return execute(conn, one).await;
    }
    let mut tx = conn.begin().await.map_err(err("starting a transaction"))?;
    for s in &statements {
        execute(&mut tx, s).await?;
    }
    tx.commit().await.map_err(err("committing"))
}
