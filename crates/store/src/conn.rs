//! The writer's connection. SQLite in a file is driven through rusqlite on the writer's own
//! thread: through sqlx every statement would cross to sqlx's SQLite thread and back, two
//! thread switches a statement on each move's path. PostgreSQL (and any other database) goes
//! through sqlx. Statements are written once, in the `$1` style both accept, with their
//! parameters as [`Value`]s.

use std::path::PathBuf;
use std::time::Duration;

use rusqlite::OpenFlags;
use rusqlite::types::{ToSqlOutput, ValueRef};
use sqlx::any::AnyRow;
use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyPool, Executor, Row as _};

use super::error::{StoreError, err};

/// A statement's parameter.
#[derive(Clone, Copy, Debug)]
pub(super) enum Value<'a> {
    Null,
    Int(i64),
    Real(f64),
    Text(&'a str),
}

impl From<i64> for Value<'_> {
    fn from(n: i64) -> Self {
        Value::Int(n)
    }
}

impl From<f64> for Value<'_> {
    fn from(x: f64) -> Self {
        Value::Real(x)
    }
}

impl<'a> From<&'a str> for Value<'a> {
    fn from(s: &'a str) -> Self {
        Value::Text(s)
    }
}

impl<'a> From<&'a String> for Value<'a> {
    fn from(s: &'a String) -> Self {
        Value::Text(s)
    }
}

impl<'a, T: Into<Value<'a>>> From<Option<T>> for Value<'a> {
    fn from(v: Option<T>) -> Self {
        v.map_or(Value::Null, Into::into)
    }
}

impl rusqlite::ToSql for Value<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(match *self {
            Value::Null => ValueRef::Null,
            Value::Int(n) => ValueRef::Integer(n),
            Value::Real(x) => ValueRef::Real(x),
            Value::Text(s) => ValueRef::Text(s.as_bytes()),
        }))
    }
}

/// As a JSON value, for statements that take many rows as one JSON parameter.
impl serde::Serialize for Value<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            Value::Null => s.serialize_none(),
            Value::Int(n) => s.serialize_i64(n),
            Value::Real(x) => s.serialize_f64(x),
            Value::Text(t) => s.serialize_str(t),
        }
    }
}

/// Where the writer's connections come from.
#[derive(Clone, Debug)]
pub(super) struct Connector {
    pool: AnyPool,
    /// The SQLite database's file; none for PostgreSQL.
    sqlite: Option<PathBuf>,
}

impl Connector {
    /// The writer's connector for `url`, whose pool is `pool`. SQLite in memory is refused:
    /// each connection would have a database of its own.
    pub(super) fn new(pool: AnyPool, url: &str) -> Result<Connector, StoreError> {
        let sqlite = sqlite_file(url);
        if url.starts_with("sqlite:") && sqlite.is_none() {
            return Err(StoreError::Open {
                url: super::error::redacted(url),
                source: sqlx::Error::Configuration(
                    "SQLite needs a file (a database in memory is not shared)".into(),
                ),
            });
        }
        Ok(Connector { pool, sqlite })
    }

    /// A new connection.
    pub(super) async fn connect(&self) -> Result<Conn, StoreError> {
        match &self.sqlite {
            Some(path) => open_sqlite(path)
                .map(Conn::Sqlite)
                .map_err(lite("opening the database")),
            None => Ok(Conn::Pool(
                self.pool
                    .acquire()
                    .await
                    .map_err(err("taking a connection"))?,
            )),
        }
    }
}

/// The file a `sqlite:` URL names, unless the database is in memory.
fn sqlite_file(url: &str) -> Option<PathBuf> {
    use std::str::FromStr;
    let in_memory = url.contains(":memory:") || url.contains("mode=memory");
    if !url.starts_with("sqlite:") || in_memory {
        return None;
    }
    let options = sqlx::sqlite::SqliteConnectOptions::from_str(url).ok()?;
    Some(options.get_filename().to_path_buf())
}

/// How long a statement waits for another connection's write lock.
pub(super) const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Opens the database file as the pool's connections are set up (see `Store::open_with`);
/// the schema is there already.
fn open_sqlite(path: &std::path::Path) -> rusqlite::Result<rusqlite::Connection> {
    let conn = rusqlite::Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.execute_batch(
        "PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0; PRAGMA foreign_keys = ON;",
    )?;
    // The writer's statements: a new game's insert is one for each number of games a batch
    // brings.
    conn.set_prepared_statement_cache_capacity(64);
    Ok(conn)
}

/// Runs `sql`, a statement without parameters, through the statement cache, stepping through
/// whatever rows it returns: BEGIN and COMMIT come once a batch, and preparing them afresh each
/// time was all the parsing the writer did.
fn run_cached(c: &rusqlite::Connection, sql: &str) -> rusqlite::Result<()> {
    let mut statement = c.prepare_cached(sql)?;
    let mut rows = statement.query([])?;
    while rows.next()?.is_some() {}
    Ok(())
}

fn lite(doing: &'static str) -> impl Fn(rusqlite::Error) -> StoreError {
    move |source| StoreError::Sqlite { doing, source }
}

/// One connection of the writer's.
pub(super) enum Conn {
    Sqlite(rusqlite::Connection),
    /// PostgreSQL's; also, for a read, one of the pool's of either database.
    Pool(PoolConnection<Any>),
}

/// A row read through a [`Conn`].
pub(super) enum Row {
    Sqlite(Vec<rusqlite::types::Value>),
    Pool(AnyRow),
}

impl Conn {
    pub(super) fn is_postgres(&self) -> bool {
        match self {
            Conn::Sqlite(_) => false,
            Conn::Pool(c) => c.backend_name() == "PostgreSQL",
        }
    }

    /// Runs `sql`, which returns no rows, with `params`.
    pub(super) async fn execute(
        &mut self,
        doing: &'static str,
        sql: &str,
        params: &[Value<'_>],
    ) -> Result<(), StoreError> {
        match self {
            Conn::Sqlite(c) => c
                .prepare_cached(&numbered(sql))
                .and_then(|mut s| s.execute(rusqlite::params_from_iter(params)))
                .map(|_| ())
                .map_err(lite(doing)),
            Conn::Pool(c) => {
                bind(sqlx::query(sql), params)
                    .execute(&mut **c)
                    .await
                    .map_err(err(doing))?;
                Ok(())
            }
        }
    }

    /// Runs `sql`, a one-row statement, with each of `rows`, in one transaction: the one
    /// open on SQLite, or one of its own.
    pub(super) async fn execute_each<const N: usize>(
        &mut self,
        doing: &'static str,
        sql: &str,
        rows: impl Iterator<Item = [Value<'_>; N]>,
    ) -> Result<(), StoreError> {
        let Conn::Sqlite(c) = self else {
            for row in rows {
                self.execute(doing, sql, &row).await?;
            }
            return Ok(());
        };
        let own = c.is_autocommit();
        let each = || -> rusqlite::Result<()> {
            if own {
                run_cached(c, "BEGIN")?;
            }
            let mut statement = c.prepare_cached(&numbered(sql))?;
            for row in rows {
                statement.execute(rusqlite::params_from_iter(&row))?;
            }
            drop(statement);
            if own {
                run_cached(c, "COMMIT")?;
            }
            Ok(())
        };
        each().map_err(lite(doing))
    }

    /// Runs `sql` with `params`; its first row, if any.
    pub(super) async fn fetch_optional(
        &mut self,
        doing: &'static str,
        sql: &str,
        params: &[Value<'_>],
    ) -> Result<Option<Row>, StoreError> {
        match self {
            Conn::Sqlite(c) => {
                let first = || -> rusqlite::Result<Option<Row>> {
                    let mut s = c.prepare_cached(&numbered(sql))?;
                    let columns = s.column_count();
                    let mut rows = s.query(rusqlite::params_from_iter(params))?;
                    let Some(row) = rows.next()? else {
                        return Ok(None);
                    };
                    let values: rusqlite::Result<Vec<rusqlite::types::Value>> =
                        (0..columns).map(|i| row.get(i)).collect();
                    Ok(Some(Row::Sqlite(values?)))
                };
                first().map_err(lite(doing))
            }
            Conn::Pool(c) => Ok(bind(sqlx::query(sql), params)
                .fetch_optional(&mut **c)
                .await
                .map_err(err(doing))?
                .map(Row::Pool)),
        }
    }

    /// Runs `sql`, a statement without parameters, whatever it returns.
    pub(super) async fn run(&mut self, doing: &'static str, sql: &str) -> Result<(), StoreError> {
        match self {
            Conn::Sqlite(c) => run_cached(c, sql).map_err(lite(doing)),
            Conn::Pool(c) => {
                c.execute(sql).await.map_err(err(doing))?;
                Ok(())
            }
        }
    }

    /// Gives the connection up. One that failed may be inside a transaction and hold the
    /// write lock: it is closed, never reused (closing rolls the transaction back).
    pub(super) fn discard(self) {
        match self {
            Conn::Sqlite(c) => drop(c),
            Conn::Pool(mut c) => c.close_on_drop(),
        }
    }
}

/// `sql` with `$n` parameters written `?n`, which SQLite numbers explicitly (it would number
/// `$n`, a named parameter to it, by where each first appears).
fn numbered(sql: &str) -> std::borrow::Cow<'_, str> {
    if sql.contains('$') {
        sql.replace('$', "?").into()
    } else {
        sql.into()
    }
}

fn bind<'q>(
    mut q: sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>>,
    params: &[Value<'q>],
) -> sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>> {
    for p in params {
        q = match *p {
            Value::Null => q.bind(None::<i64>),
            Value::Int(n) => q.bind(n),
            Value::Real(x) => q.bind(x),
            Value::Text(s) => q.bind(s),
        };
    }
    q
}

fn decode(why: String) -> sqlx::Error {
    sqlx::Error::Decode(why.into())
}

/// A column, read as sqlx reads one, so that a bad one reads as the same error whichever the
/// connection.
impl Row {
    pub(super) fn opt_int(&self, i: usize) -> Result<Option<i64>, sqlx::Error> {
        use rusqlite::types::Value as V;
        match self {
            Row::Sqlite(v) => match v.get(i) {
                Some(V::Integer(n)) => Ok(Some(*n)),
                Some(V::Null) => Ok(None),
                other => Err(decode(format!("column {i}: {other:?} is not an integer"))),
            },
            Row::Pool(r) => r.try_get(i),
        }
    }

    pub(super) fn int(&self, i: usize) -> Result<i64, sqlx::Error> {
        self.opt_int(i)?
            .ok_or_else(|| decode(format!("column {i} is NULL")))
    }

    pub(super) fn text(&self, i: usize) -> Result<String, sqlx::Error> {
        use rusqlite::types::Value as V;
        match self {
            Row::Sqlite(v) => match v.get(i) {
                Some(V::Text(s)) => Ok(s.clone()),
                other => Err(decode(format!("column {i}: {other:?} is not text"))),
            },
            Row::Pool(r) => r.try_get(i),
        }
    }

    pub(super) fn real(&self, i: usize) -> Result<f64, sqlx::Error> {
        use rusqlite::types::Value as V;
        match self {
            Row::Sqlite(v) => match v.get(i) {
                Some(V::Real(x)) => Ok(*x),
                Some(V::Integer(n)) => Ok(*n as f64),
                other => Err(decode(format!("column {i}: {other:?} is not a number"))),
            },
            Row::Pool(r) => r.try_get(i),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_database_file_is_opened_directly() {
        assert_eq!(
            sqlite_file("sqlite:///tmp/x/vizier.db?mode=rwc"),
            Some(PathBuf::from("/tmp/x/vizier.db"))
        );
        assert_eq!(sqlite_file("sqlite::memory:"), None);
        assert_eq!(sqlite_file("sqlite://x.db?mode=memory"), None);
        assert_eq!(sqlite_file("postgres://v@127.0.0.1/db"), None);
    }

    /// Rows inserted outside a transaction still go in one commit: one commit a row would write
    /// a WAL frame a row.
    #[tokio::test]
    async fn rows_inserted_one_by_one_are_one_commit() {
        let dir = std::env::temp_dir().join(format!("vizier-conn-{}", rand::random::<u64>()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.db");
        let setup = rusqlite::Connection::open(&path).unwrap();
        setup
            .execute_batch("PRAGMA journal_mode = WAL; CREATE TABLE t (n INTEGER, s TEXT);")
            .unwrap();
        let mut conn = Conn::Sqlite(open_sqlite(&path).unwrap());
        let wal_frames = || {
            let bytes = std::fs::metadata(dir.join("t.db-wal")).map_or(0, |m| m.len());
            bytes.saturating_sub(32) / (4096 + 24)
        };
        let before = wal_frames();
        let rows = (0..200).map(|n| [Value::Int(n), Value::Text("a move")]);
        conn.execute_each("testing", "INSERT INTO t (n, s) VALUES ($1, $2)", rows)
            .await
            .unwrap();
        let Conn::Sqlite(c) = &conn else {
            unreachable!()
        };
        assert!(c.is_autocommit(), "the transaction was left open");
        let count: i64 = c
            .query_row("SELECT COUNT(*) FROM t", [], |r| r.get(0))
            .unwrap();
        assert_eq!(count, 200);
        let written = wal_frames() - before;
        assert!(written < 20, "{written} WAL frames for 200 rows");
        drop(conn);
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn parameters_are_numbered_for_sqlite() {
        assert_eq!(
            numbered("UPDATE t SET a = $2 WHERE id = $1"),
            "UPDATE t SET a = ?2 WHERE id = ?1"
        );
        assert!(matches!(
            numbered("DELETE FROM t"),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}
