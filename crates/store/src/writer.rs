//! The one writer: every game write goes through it, and it commits many games' writes together.
//! Writers on separate connections would queue on SQLite's one write lock by sleeping and
//! retrying; one writer queues them in order instead. A write that fails never leaves its
//! connection behind.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::mpsc;
use tokio::sync::{Notify, oneshot};

use crate::conn::{Conn, Connector, Value};
use crate::insert::{insert_commands, insert_journal};
use crate::journal::Journal;
use crate::ratings::{self, Rated};
use crate::rows::GAME_COLUMNS;
use crate::{CommandRow, GameRow, StoreError};

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

/// Most rows in one INSERT (a new game binds 16 values; SQLite allows 32,766 a statement).
const ROWS_PER_INSERT: usize = 512;

/// Group commit: takes whatever writes are waiting and stores them in one transaction, so
/// that a thousand games moving at once cost a few statements, not thousands. If the batch
/// fails, each write is tried alone so that one bad write cannot sink the others. Moves go to
/// the [journal](super::journal), folded into `commands` between batches.
/// When `finish_checkpoint` is set, it finishes a SQLite checkpoint between two batches.
/// Stops when every sender is gone or `closing` is notified, and then gives its connection back.
pub(super) async fn write_all(
    connector: Connector,
    mut rx: mpsc::Receiver<Job>,
    failing: Arc<AtomicBool>,
    closing: Arc<Notify>,
    finish_checkpoint: Arc<AtomicBool>,
    mut journal: Journal,
) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    // The writer keeps its connection between batches; one that failed is replaced.
    let mut conn: Option<Conn> = None;
    loop {
        let fold_due = journal.due().map(tokio::time::Instant::from_std);
        tokio::select! {
            biased;
            n = rx.recv_many(&mut batch, MAX_BATCH) => if n == 0 { break },
            _ = closing.notified() => break,
            // Folding waits for no batch, but gives way to every one.
            _ = tokio::time::sleep_until(fold_due.unwrap_or_else(tokio::time::Instant::now)),
                if fold_due.is_some() => {}
        }
        if finish_checkpoint.swap(false, Ordering::Relaxed)
            && let Some(c) = conn.as_mut()
        {
            let started = std::time::Instant::now();
            if let Err(e) = c
                .run("finishing a checkpoint", "PRAGMA wal_checkpoint(PASSIVE)")
                .await
            {
                tracing::warn!("finishing a checkpoint: {e}");
            }
            metrics::histogram!(crate::metrics::CHECKPOINT_SECONDS)
                .record(started.elapsed().as_secs_f64());
        }
        if !batch.is_empty() {
            store_batch(&connector, &mut conn, &mut batch, &mut journal, &failing).await;
        }
        if journal
            .due()
            .is_some_and(|due| due <= std::time::Instant::now())
        {
            let stepped = match connection(&connector, &mut conn).await {
                Ok(c) => journal.step(c).await,
                Err(e) => Err(e),
            };
            if let Err(e) = stepped {
                tracing::warn!("folding the journal: {e}");
                journal.pause();
                discard(&mut conn);
            }
        }
    }
}

/// Stores `batch` and answers each write in it, draining it.
async fn store_batch(
    connector: &Connector,
    conn: &mut Option<Conn>,
    batch: &mut Vec<Job>,
    journal: &mut Journal,
    failing: &AtomicBool,
) {
    refuse_duplicates(connector, conn, batch, journal).await;
    if batch.is_empty() {
        return;
    }
    let written = write_batch(connector, conn, batch, journal).await;
    failing.store(written.is_err(), Ordering::Relaxed);
    match written {
        Ok(()) => {
            committed(journal, batch);
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
                let one = std::slice::from_ref(&job);
                let result = write_batch(connector, conn, one, journal).await;
                failing.store(result.is_err(), Ordering::Relaxed);
                if result.is_ok() {
                    committed(journal, one);
                }
                let _ = job.done.send(result);
            }
        }
    }
}

/// Answers, with [`StoreError::Duplicate`], the appends whose commands are not numbered after
/// their game's last stored one, and takes them out of `batch`. Whatever cannot be checked
/// (the database cannot say a game's last command) is left for the write to fail.
async fn refuse_duplicates(
    connector: &Connector,
    conn: &mut Option<Conn>,
    batch: &mut Vec<Job>,
    journal: &mut Journal,
) {
    let mut last: HashMap<&str, i64> = HashMap::new();
    let mut refused = Vec::new();
    for (i, job) in batch.iter().enumerate() {
        match &job.write {
            Write::NewGame(g) => {
                last.insert(&g.id, -1);
            }
            Write::Append { game, commands, .. } => {
                // Only a game this writer has not seen costs a query (and a connection).
                let seen = last.get(game.as_str()).copied();
                let known = match seen.or_else(|| journal.last_seq(game)) {
                    Some(seq) => Some(seq),
                    None => match connection(connector, conn).await {
                        Ok(c) => journal.learn(c, game).await.ok(),
                        Err(_) => None,
                    },
                };
                let Some(mut seq) = known else { continue };
                let mut fresh = true;
                for c in commands {
                    fresh &= c.seq > seq;
                    seq = seq.max(c.seq);
                }
                if fresh {
                    last.insert(game, seq);
                } else {
                    refused.push(i);
                }
            }
            Write::Seat { .. } => {}
        }
    }
    for i in refused.into_iter().rev() {
        let job = batch.remove(i);
        if let Write::Append { game, commands, .. } = job.write {
            let seq = commands.first().map_or(0, |c| c.seq);
            let _ = job.done.send(Err(StoreError::Duplicate { game, seq }));
        }
    }
}

/// How many journal rows `jobs` write.
fn journal_rows(jobs: &[Job]) -> usize {
    jobs.iter()
        .map(|job| match &job.write {
            Write::Append {
                commands,
                ended: None,
                ..
            } => commands.len(),
            _ => 0,
        })
        .sum()
}

/// Tells the journal what `jobs`, just committed, stored.
fn committed(journal: &mut Journal, jobs: &[Job]) {
    for job in jobs {
        match &job.write {
            Write::NewGame(g) => journal.created(&g.id),
            Write::Append {
                game,
                commands,
                ended: None,
            } => journal.journaled(game, commands),
            Write::Append {
                game,
                ended: Some(_),
                ..
            } => journal.ended(game),
            Write::Seat { .. } => {}
        }
    }
}

/// The writer's connection, a new one when it has none.
async fn connection<'c>(
    connector: &Connector,
    held: &'c mut Option<Conn>,
) -> Result<&'c mut Conn, StoreError> {
    match held {
        Some(conn) => Ok(conn),
        None => Ok(held.insert(connector.connect().await?)),
    }
}

/// A failed statement or COMMIT (a full disk, an I/O error) can leave the connection inside
/// its transaction, holding the write lock; a later BEGIN there would nest and its COMMIT
/// commit nothing. Such a connection is never used again.
fn discard(held: &mut Option<Conn>) {
    if let Some(conn) = held.take() {
        conn.discard();
    }
}

async fn write_batch(
    connector: &Connector,
    held: &mut Option<Conn>,
    batch: &[Job],
    journal: &mut Journal,
) -> Result<(), StoreError> {
    let first_pos = journal.reserve(journal_rows(batch));
    let conn = connection(connector, held).await?;
    let written = write_on(conn, batch, journal, first_pos).await;
    if written.is_err() {
        discard(held);
    }
    written
}

/// A batch's rows by kind, so that each kind takes as few statements as it can.
#[derive(Default)]
struct Plan<'a> {
    games: Vec<&'a GameRow>,
    seats: Vec<Statement<'a>>,
    /// Moves of games going on, with their journal positions, and the writer they are of.
    journal: Vec<JournalRow<'a>>,
    writer: i64,
    /// All the moves of games that end, for `commands`.
    commands: Vec<(&'a str, &'a CommandRow)>,
    results: Vec<Statement<'a>>,
}

/// A row of the journal: its position, game and command.
type JournalRow<'a> = (i64, &'a str, &'a CommandRow);

impl<'a> Plan<'a> {
    /// The plan for `batch`, its journal rows at positions from `pos` on.
    fn of(batch: &'a [Job], journal: &'a Journal, mut pos: i64) -> Plan<'a> {
        let mut plan = Plan {
            writer: journal.writer(),
            ..Plan::default()
        };
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
                    ended: None,
                } => {
                    for c in commands {
                        plan.journal.push((pos, game, c));
                        pos += 1;
                    }
                }
                Write::Append {
                    game,
                    commands,
                    ended: Some(ended),
                } => {
                    // Its moves in the journal, those of this batch included, and these.
                    let journaled = plan.journal.iter().filter(|(_, g, _)| g == game);
                    let journaled: Vec<&CommandRow> = journaled.map(|(_, _, c)| *c).collect();
                    let all = journal.unfolded(game).chain(journaled).chain(commands);
                    plan.commands.extend(all.map(|c| (game.as_str(), c)));
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
            self.journal
                .chunks(ROWS_PER_INSERT)
                .map(|rows| Statement::Journal {
                    writer: self.writer,
                    rows,
                }),
        );
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
    Journal {
        writer: i64,
        rows: &'a [JournalRow<'a>],
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

async fn execute(conn: &mut Conn, statement: &Statement<'_>) -> Result<(), StoreError> {
    match statement {
        Statement::Games(games) => {
            let sql = format!(
                "INSERT INTO games ({GAME_COLUMNS}) VALUES {}",
                placeholders(games.len(), 16)
            );
            let mut values = Vec::with_capacity(games.len() * 16);
            for g in games.iter() {
                values.extend([
                    Value::from(&g.id),
                    Value::from(&g.kind),
                    Value::from(g.created_at),
                    Value::from(g.started_at),
                    Value::from(&g.setup),
                    Value::from(&g.white),
                    Value::from(&g.black),
                    Value::from(g.invite.as_ref()),
                    Value::from(g.seed),
                    Value::from(g.result.as_ref()),
                    Value::from(g.reason.as_ref()),
                    Value::from(g.speed.as_ref()),
                    Value::from(i64::from(g.rated)),
                    Value::from(g.ended_at),
                    Value::from(g.eco.as_ref()),
                    Value::from(g.opening.as_ref()),
                ]);
            }
            conn.execute("storing a new game", &sql, &values).await?;
        }
        Statement::Seat {
            game,
            white,
            black,
            started_at,
        } => {
            conn.execute(
                "seating a player",
                "UPDATE games SET white = $1, black = $2, started_at = $3, invite = NULL \
                 WHERE id = $4",
                &[
                    (*white).into(),
                    (*black).into(),
                    (*started_at).into(),
                    (*game).into(),
                ],
            )
            .await?;
        }
        Statement::Journal { writer, rows } => insert_journal(conn, *writer, rows).await?,
        Statement::Commands(rows) => insert_commands(conn, rows).await?,
        Statement::Result { game, ended } => {
            let (eco, opening) = ended
                .opening
                .as_ref()
                .map_or((None, None), |(e, n)| (Some(e.as_str()), Some(n.as_str())));
            conn.execute(
                "storing a result",
                "UPDATE games SET result = $1, reason = $2, ended_at = $3, eco = $4, \
                 opening = $5 WHERE id = $6",
                &[
                    (&ended.result).into(),
                    (&ended.reason).into(),
                    ended.at.into(),
                    eco.into(),
                    opening.into(),
                    (*game).into(),
                ],
            )
            .await?;
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

/// Runs the batch's statements in one transaction. On PostgreSQL a single statement is a
/// transaction by itself, and each statement is a trip over the network. A failure leaves the
/// transaction open: the caller discards the connection, which rolls it back.
async fn write_on(
    conn: &mut Conn,
    batch: &[Job],
    journal: &Journal,
    first_pos: i64,
) -> Result<(), StoreError> {
    let plan = Plan::of(batch, journal, first_pos);
    let statements = plan.statements();
    if conn.is_postgres()
        && let [one] = statements.as_slice()
        && !matches!(one, Statement::Rate { .. })
    {
        return execute(conn, one).await;
    }
    conn.run("starting a transaction", "BEGIN").await?;
    for s in &statements {
        execute(conn, s).await?;
    }
    conn.run("committing", "COMMIT").await
}
