//! What the store's tests share: a game's row, a command, a database in a fresh directory.

use sqlx::Row as _;

use crate::{CommandRow, GameRow, Store};

pub fn game(id: &str) -> GameRow {
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

/// A fresh directory for a test's database, and the database's URL.
pub fn sqlite_in_temp(name: &str) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("vizier-{name}-{}", rand::random::<u64>()));
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.join("vizier.db").display());
    (dir, url)
}

pub fn command(seq: i64) -> CommandRow {
    CommandRow {
        seq,
        at_ms: 1_000 + seq,
        command: format!("c{seq}"),
    }
}

/// Counts a game's rows in `commands` and in the journal.
pub async fn rows_of(store: &Store, id: &str) -> (i64, i64) {
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

/// The PostgreSQL database named by `VIZIER_TEST_POSTGRES`, for the tests that need one
/// (ignored unless asked for: `scripts/test.sh` starts PostgreSQL and runs them). Unset, such
/// a test fails rather than pass without testing anything.
pub fn postgres_url() -> String {
    std::env::var("VIZIER_TEST_POSTGRES")
        .expect("VIZIER_TEST_POSTGRES is not set: this test needs PostgreSQL")
}
