//! Inserting many rows of moves at once, into the journal or into `commands`: the writer
//! does both, the journal's fold the second.

use crate::CommandRow;
use crate::conn::{Conn, Value};
use crate::error::StoreError;

/// Appends `rows` to the journal, as `writer`'s.
pub(crate) async fn insert_journal(
    conn: &mut Conn,
    writer: i64,
    rows: &[(i64, &str, &CommandRow)],
) -> Result<(), StoreError> {
    const SQL: Insert = Insert {
        row: "INSERT INTO journal (writer, pos, game_id, seq, at_ms, command) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        postgres: "INSERT INTO journal (writer, pos, game_id, seq, at_ms, command) \
             SELECT (r ->> 0)::bigint, (r ->> 1)::bigint, r ->> 2, (r ->> 3)::bigint, \
             (r ->> 4)::bigint, r ->> 5 FROM json_array_elements($1::json) AS r",
    };
    let rows = rows.iter().map(|(pos, game, c)| {
        [
            Value::Int(writer),
            Value::Int(*pos),
            Value::Text(game),
            Value::Int(c.seq),
            Value::Int(c.at_ms),
            Value::Text(&c.command),
        ]
    });
    insert(conn, SQL, rows, "storing a move").await
}

/// Copies `rows` into `commands`; those there already (a fold cut short by a crash, a game
/// ending during its fold) are left as they are.
pub(crate) async fn insert_commands(
    conn: &mut Conn,
    rows: &[(&str, &CommandRow)],
) -> Result<(), StoreError> {
    const SQL: Insert = Insert {
        row: "INSERT INTO commands (game_id, seq, at_ms, command) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (game_id, seq) DO NOTHING",
        postgres: "INSERT INTO commands (game_id, seq, at_ms, command) \
             SELECT r ->> 0, (r ->> 1)::bigint, (r ->> 2)::bigint, r ->> 3 \
             FROM json_array_elements($1::json) AS r ON CONFLICT (game_id, seq) DO NOTHING",
    };
    let rows = rows.iter().map(|(game, c)| {
        [
            Value::Text(game),
            Value::Int(c.seq),
            Value::Int(c.at_ms),
            Value::Text(&c.command),
        ]
    });
    insert(conn, SQL, rows, "storing moves").await
}

/// An insert of many rows, two ways.
struct Insert {
    /// One row's, run once a row where a statement costs little: on SQLite, in this process.
    row: &'static str,
    /// All the rows in one statement, as a JSON array of arrays: over the network to
    /// PostgreSQL, where binding four or five parameters a row cost more than the insert.
    postgres: &'static str,
}

async fn insert<const N: usize>(
    conn: &mut Conn,
    sql: Insert,
    rows: impl Iterator<Item = [Value<'_>; N]>,
    doing: &'static str,
) -> Result<(), StoreError> {
    if conn.is_postgres() {
        let rows: Vec<[Value; N]> = rows.collect();
        let rows: Vec<&[Value]> = rows.iter().map(|r| r.as_slice()).collect();
        let json = serde_json::to_string(&rows).expect("rows serialise");
        return conn
            .execute(doing, sql.postgres, &[Value::Text(&json)])
            .await;
    }
    conn.execute_each(doing, sql.row, rows).await
}
