//! Accounts and sessions. These writes are few and small, so they go to the database
//! directly rather than through the moves' writer.

use sqlx::Row;

use crate::error::err;
use crate::{Store, StoreError};

/// A stored account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserRow {
    /// Its player id.
    pub id: String,
    pub name: String,
    /// The argon2id hash (PHC string); empty once closed.
    pub password: String,
    pub created_at: i64,
    pub closed_at: Option<i64>,
    pub lang: Option<String>,
    pub sound: Option<bool>,
    /// The board preferences, as JSON the HTTP layer checked.
    pub board: Option<String>,
    /// Its title: `BOT` for a bot account.
    pub title: Option<String>,
}

/// A stored session, without its token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRow {
    pub id: String,
    pub user_id: String,
    pub created_at: i64,
    pub seen_at: Option<i64>,
    pub address: String,
    pub agent: String,
}

/// A new session.
#[derive(Clone, Debug)]
pub struct NewSession<'a> {
    pub id: &'a str,
    pub token_hash: &'a str,
    pub user_id: &'a str,
    pub at: i64,
    pub address: &'a str,
    pub agent: &'a str,
}

pub(crate) const USER_COLUMNS: &str =
    "id, name, password, created_at, closed_at, lang, sound, board, title";

/// The account in `row`'s columns from `at` on, in [`USER_COLUMNS`]' order.
pub(crate) fn user_row_at(row: &sqlx::any::AnyRow, at: usize) -> Result<UserRow, sqlx::Error> {
    Ok(UserRow {
        id: row.try_get(at)?,
        name: row.try_get(at + 1)?,
        password: row.try_get(at + 2)?,
        created_at: row.try_get(at + 3)?,
        closed_at: row.try_get(at + 4)?,
        lang: row.try_get(at + 5)?,
        sound: row.try_get::<Option<i64>, _>(at + 6)?.map(|s| s != 0),
        board: row.try_get(at + 7)?,
        title: row.try_get(at + 8)?,
    })
}

fn user_row(row: &sqlx::any::AnyRow) -> Result<UserRow, sqlx::Error> {
    user_row_at(row, 0)
}

/// Why an account could not be created.
#[derive(Debug)]
pub enum CreateUserError {
    /// The name (ignoring case) or the id is taken.
    Taken,
    Store(StoreError),
}

impl Store {
    /// Stores a new account; its name must be free ignoring case.
    pub async fn create_user(&self, user: &UserRow) -> Result<(), CreateUserError> {
        let stored = sqlx::query(
            "INSERT INTO users (id, name, name_key, password, created_at, lang, sound, board) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(&user.id)
        .bind(&user.name)
        .bind(user.name.to_lowercase())
        .bind(&user.password)
        .bind(user.created_at)
        .bind(&user.lang)
        .bind(user.sound.map(i64::from))
        .bind(&user.board)
        .execute(&self.pool)
        .await;
        match stored {
            Ok(_) => Ok(()),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Err(CreateUserError::Taken),
            Err(source) => Err(CreateUserError::Store(StoreError::Query {
                doing: "creating an account",
                source,
            })),
        }
    }

    /// The account named `name`, ignoring case (closed ones too).
    pub async fn user_by_name(&self, name: &str) -> Result<Option<UserRow>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {USER_COLUMNS} FROM users WHERE name_key = $1"
        ))
        .bind(name.to_lowercase())
        .fetch_optional(&self.pool)
        .await
        .map_err(err("finding an account"))?;
        row.map(|r| user_row(&r))
            .transpose()
            .map_err(err("reading an account"))
    }

    /// The account with player id `id`.
    pub async fn user(&self, id: &str) -> Result<Option<UserRow>, StoreError> {
        let row = sqlx::query(&format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(err("finding an account"))?;
        row.map(|r| user_row(&r))
            .transpose()
            .map_err(err("reading an account"))
    }

    /// Whether a player id is an account's.
    pub async fn is_user(&self, id: &str) -> Result<bool, StoreError> {
        Ok(sqlx::query("SELECT 1 FROM users WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(err("finding an account"))?
            .is_some())
    }

    /// Replaces an account's password hash.
    pub async fn set_password(&self, id: &str, hash: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE users SET password = $1 WHERE id = $2 AND closed_at IS NULL")
            .bind(hash)
            .bind(id)
            .execute(&self.pool)
            .await
            .map_err(err("changing a password"))?;
        Ok(())
    }

    /// Remembers an account's language, sound and board preferences (each left as it was
    /// when `None`).
    pub async fn set_preferences(
        &self,
        id: &str,
        lang: Option<&str>,
        sound: Option<bool>,
        board: Option<&str>,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE users SET lang = COALESCE($1, lang), sound = COALESCE($2, sound), \
             board = COALESCE($3, board) WHERE id = $4",
        )
        .bind(lang)
        .bind(sound.map(i64::from))
        .bind(board)
        .bind(id)
        .execute(&self.pool)
        .await
        .map_err(err("storing preferences"))?;
        Ok(())
    }

    /// Closes an account: it can no longer sign in, every session and token ends, and its name stays
    /// taken (its games keep it).
    pub async fn close_user(&self, id: &str, at: i64) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await.map_err(err("closing an account"))?;
        sqlx::query("UPDATE users SET closed_at = $1, password = '' WHERE id = $2")
            .bind(at)
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(err("closing an account"))?;
        for table in ["sessions", "tokens"] {
            sqlx::query(&format!("DELETE FROM {table} WHERE user_id = $1"))
                .bind(id)
                .execute(&mut *tx)
                .await
                .map_err(err("closing an account"))?;
        }
        tx.commit().await.map_err(err("closing an account"))
    }

    /// Stores a new session.
    pub async fn create_session(&self, s: &NewSession<'_>) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO sessions (id, token_hash, user_id, created_at, seen_at, address, agent) \
             VALUES ($1, $2, $3, $4, $4, $5, $6)",
        )
        .bind(s.id)
        .bind(s.token_hash)
        .bind(s.user_id)
        .bind(s.at)
        .bind(s.address)
        .bind(s.agent)
        .execute(&self.pool)
        .await
        .map_err(err("starting a session"))?;
        Ok(())
    }

    /// The session and open account a token's hash belongs to.
    pub async fn session(
        &self,
        token_hash: &str,
    ) -> Result<Option<(SessionRow, UserRow)>, StoreError> {
        let row = sqlx::query(
            "SELECT s.id, s.user_id, s.created_at, s.seen_at, s.address, s.agent, \
             u.id, u.name, u.password, u.created_at, u.closed_at, u.lang, u.sound, u.board, \
             u.title FROM sessions s JOIN users u ON u.id = s.user_id \
             WHERE s.token_hash = $1 AND u.closed_at IS NULL",
        )
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await
        .map_err(err("finding a session"))?;
        let Some(row) = row else { return Ok(None) };
        let read = || -> Result<(SessionRow, UserRow), sqlx::Error> {
            Ok((
                SessionRow {
                    id: row.try_get(0)?,
                    user_id: row.try_get(1)?,
                    created_at: row.try_get(2)?,
                    seen_at: row.try_get(3)?,
                    address: row.try_get(4)?,
                    agent: row.try_get(5)?,
                },
                user_row_at(&row, 6)?,
            ))
        };
        read().map(Some).map_err(err("reading a session"))
    }

    /// Notes that a session was used at `at`.
    pub async fn touch_session(&self, id: &str, at: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE sessions SET seen_at = $1 WHERE id = $2")
            .bind(at)
            .bind(id)
            .execute(&self.pool)
            .await
            .map_err(err("noting a session's use"))?;
        Ok(())
    }

    /// An account's sessions, the most recently used first.
    pub async fn sessions(&self, user_id: &str) -> Result<Vec<SessionRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, user_id, created_at, seen_at, address, agent FROM sessions \
             WHERE user_id = $1 ORDER BY seen_at DESC",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await
        .map_err(err("listing sessions"))?;
        rows.iter()
            .map(|row| {
                Ok(SessionRow {
                    id: row.try_get(0)?,
                    user_id: row.try_get(1)?,
                    created_at: row.try_get(2)?,
                    seen_at: row.try_get(3)?,
                    address: row.try_get(4)?,
                    agent: row.try_get(5)?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(err("reading sessions"))
    }

    /// Ends one of an account's sessions; whether there was one.
    pub async fn end_session(&self, user_id: &str, id: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM sessions WHERE id = $1 AND user_id = $2")
            .bind(id)
            .bind(user_id)
            .execute(&self.pool)
            .await
            .map_err(err("ending a session"))?;
        Ok(done.rows_affected() > 0)
    }

    /// Ends every session of an account but `keep`.
    pub async fn end_other_sessions(&self, user_id: &str, keep: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND id <> $2")
            .bind(user_id)
            .bind(keep)
            .execute(&self.pool)
            .await
            .map_err(err("ending sessions"))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(id: &str, name: &str) -> UserRow {
        UserRow {
            id: id.into(),
            name: name.into(),
            password: "$argon2id$hash".into(),
            created_at: 1,
            closed_at: None,
            lang: None,
            sound: None,
            board: None,
            title: None,
        }
    }

    async fn accounts(store: Store) {
        let run = rand::random::<u32>();
        let (id, name) = (format!("u{run}"), format!("Ann_{run}"));
        store.create_user(&user(&id, &name)).await.unwrap();
        // Names are unique ignoring case; ids are unique.
        let again = store
            .create_user(&user(&format!("v{run}"), &name.to_uppercase()))
            .await;
        assert!(matches!(again, Err(CreateUserError::Taken)), "{again:?}");
        let same_id = store.create_user(&user(&id, &format!("Bob{run}"))).await;
        assert!(
            matches!(same_id, Err(CreateUserError::Taken)),
            "{same_id:?}"
        );
        let found = store.user_by_name(&name.to_lowercase()).await.unwrap();
        assert_eq!(found.as_ref().map(|u| u.name.as_str()), Some(name.as_str()));
        assert!(store.is_user(&id).await.unwrap());
        store
            .set_preferences(&id, Some("zh"), Some(false), Some(r#"{"voice":"de"}"#))
            .await
            .unwrap();
        store
            .set_preferences(&id, None, Some(true), None)
            .await
            .unwrap();
        let u = store.user(&id).await.unwrap().unwrap();
        assert_eq!((u.lang.as_deref(), u.sound), (Some("zh"), Some(true)));
        assert_eq!(u.board.as_deref(), Some(r#"{"voice":"de"}"#));

        for (sid, hash, at) in [("s1", "h1", 10), ("s2", "h2", 20)] {
            let (sid, hash) = (format!("{sid}-{run}"), format!("{hash}-{run}"));
            let s = NewSession {
                id: &sid,
                token_hash: &hash,
                user_id: &id,
                at,
                address: "127.0.0.1",
                agent: "test",
            };
            store.create_session(&s).await.unwrap();
        }
        let (s, u) = store.session(&format!("h1-{run}")).await.unwrap().unwrap();
        assert_eq!((s.id, u.id.as_str()), (format!("s1-{run}"), id.as_str()));
        store.touch_session(&format!("s1-{run}"), 30).await.unwrap();
        let listed = store.sessions(&id).await.unwrap();
        assert_eq!(listed.len(), 2);
        assert_eq!(listed[0].id, format!("s1-{run}"));
        assert!(
            !store
                .end_session("someone else", &listed[0].id)
                .await
                .unwrap()
        );
        assert!(store.end_session(&id, &format!("s2-{run}")).await.unwrap());
        assert!(store.session(&format!("h2-{run}")).await.unwrap().is_none());

        store.close_user(&id, 40).await.unwrap();
        assert!(store.session(&format!("h1-{run}")).await.unwrap().is_none());
        let closed = store.user(&id).await.unwrap().unwrap();
        assert_eq!((closed.closed_at, closed.password.as_str()), (Some(40), ""));
        // A closed account's name stays taken.
        let reuse = store.create_user(&user(&format!("w{run}"), &name)).await;
        assert!(matches!(reuse, Err(CreateUserError::Taken)));
    }

    #[tokio::test]
    async fn sqlite_accounts() {
        let dir = std::env::temp_dir().join(format!("vizier-users-{}", rand::random::<u64>()));
        accounts(Store::sqlite(&dir).await.unwrap()).await;
        std::fs::remove_dir_all(dir).ok();
    }

    #[tokio::test]
    #[ignore = "needs PostgreSQL: VIZIER_TEST_POSTGRES (scripts/test.sh starts one)"]
    async fn postgres_accounts() {
        let url = crate::testing::postgres_url();
        accounts(Store::open(&url).await.unwrap()).await;
    }
}
