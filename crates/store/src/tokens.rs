//! Personal API tokens: an account's bearer tokens, each with its scopes and last use. Only a
//! token's SHA-256 is stored, as for sessions.

use sqlx::Row;

use crate::accounts::{USER_COLUMNS, UserRow, user_row_at};
use crate::error::err;
use crate::{Store, StoreError};

/// A stored token, without the token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenRow {
    /// Its public id, for listing and revoking it.
    pub id: String,
    pub user_id: String,
    pub description: String,
    /// Comma-separated, as lichess writes them.
    pub scopes: String,
    pub created_at: i64,
    pub used_at: Option<i64>,
}

/// A new token.
#[derive(Clone, Debug)]
pub struct NewToken<'a> {
    pub id: &'a str,
    pub token_hash: &'a str,
    pub user_id: &'a str,
    pub description: &'a str,
    pub scopes: &'a str,
    pub at: i64,
}

const TOKEN_COLUMNS: &str = "t.id, t.user_id, t.description, t.scopes, t.created_at, t.used_at";

fn token_row(row: &sqlx::any::AnyRow) -> Result<TokenRow, sqlx::Error> {
    Ok(TokenRow {
        id: row.try_get(0)?,
        user_id: row.try_get(1)?,
        description: row.try_get(2)?,
        scopes: row.try_get(3)?,
        created_at: row.try_get(4)?,
        used_at: row.try_get(5)?,
    })
}

impl Store {
    /// Stores a new token.
    pub async fn create_token(&self, t: &NewToken<'_>) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO tokens (id, token_hash, user_id, description, scopes, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(t.id)
        .bind(t.token_hash)
        .bind(t.user_id)
        .bind(t.description)
        .bind(t.scopes)
        .bind(t.at)
        .execute(&self.pool)
        .await
        .map_err(err("creating a token"))?;
        Ok(())
    }

    /// The token a hash belongs to, with its open account.
    pub async fn token(&self, token_hash: &str) -> Result<Option<(TokenRow, UserRow)>, StoreError> {
        let users = USER_COLUMNS
            .split(", ")
            .map(|c| format!("u.{c}"))
            .collect::<Vec<_>>()
            .join(", ");
        let row = sqlx::query(&format!(
            "SELECT {TOKEN_COLUMNS}, {users} FROM tokens t JOIN users u ON u.id = t.user_id \
             WHERE t.token_hash = $1 AND u.closed_at IS NULL"
        ))
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await
        .map_err(err("finding a token"))?;
        let Some(row) = row else { return Ok(None) };
        let read = || Ok::<_, sqlx::Error>((token_row(&row)?, user_row_at(&row, 6)?));
        read().map(Some).map_err(err("reading a token"))
    }

    /// An account's tokens, the newest first.
    pub async fn tokens(&self, user_id: &str) -> Result<Vec<TokenRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {TOKEN_COLUMNS} FROM tokens t WHERE t.user_id = $1 ORDER BY t.created_at DESC"
        ))
        .bind(user_id)
        .fetch_all(&self.pool)
        .await
        .map_err(err("listing tokens"))?;
        rows.iter()
            .map(token_row)
            .collect::<Result<_, _>>()
            .map_err(err("reading tokens"))
    }

    /// Notes that a token was used at `at`.
    pub async fn touch_token(&self, id: &str, at: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE tokens SET used_at = $1 WHERE id = $2")
            .bind(at)
            .bind(id)
            .execute(&self.pool)
            .await
            .map_err(err("noting a token's use"))?;
        Ok(())
    }

    /// Revokes one of an account's tokens; whether there was one.
    pub async fn revoke_token(&self, user_id: &str, id: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM tokens WHERE id = $1 AND user_id = $2")
            .bind(id)
            .bind(user_id)
            .execute(&self.pool)
            .await
            .map_err(err("revoking a token"))?;
        Ok(done.rows_affected() > 0)
    }

    /// Gives an account a title (`BOT`).
    pub async fn set_title(&self, user_id: &str, title: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE users SET title = $1 WHERE id = $2")
            .bind(title)
            .bind(user_id)
            .execute(&self.pool)
            .await
            .map_err(err("giving a title"))?;
        Ok(())
    }

    /// How many games `seat` (a stored seat, `p:<id>`) has sat in, finished or not.
    pub async fn games_of_seat(&self, seat: &str) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT COUNT(*) FROM games WHERE white = $1 OR black = $1")
            .bind(seat)
            .fetch_one(&self.pool)
            .await
            .map_err(err("counting a player's games"))?;
        row.try_get(0).map_err(err("counting a player's games"))
    }
}

#[cfg(test)]
mod tests {
    use crate::Store;

    #[tokio::test]
    async fn tokens_are_found_by_hash_listed_and_revoked() {
        let dir = std::env::temp_dir().join(format!("vizier-tokens-{}", rand::random::<u64>()));
        let store = Store::sqlite(&dir).await.unwrap();
        let user = crate::UserRow {
            id: "u1".into(),
            name: "Ann".into(),
            password: "$argon2id$hash".into(),
            created_at: 1,
            closed_at: None,
            lang: None,
            sound: None,
            board: None,
            title: None,
        };
        store.create_user(&user).await.unwrap();
        let new = super::NewToken {
            id: "t1",
            token_hash: "h1",
            user_id: "u1",
            description: "my bot",
            scopes: "bot:play,challenge:read",
            at: 5,
        };
        store.create_token(&new).await.unwrap();
        let (token, owner) = store.token("h1").await.unwrap().unwrap();
        assert_eq!(
            (token.scopes.as_str(), owner.name.as_str()),
            ("bot:play,challenge:read", "Ann")
        );
        assert_eq!(store.token("h2").await.unwrap(), None);
        store.touch_token("t1", 9).await.unwrap();
        assert_eq!(store.tokens("u1").await.unwrap()[0].used_at, Some(9));
        store.set_title("u1", "BOT").await.unwrap();
        let (_, owner) = store.token("h1").await.unwrap().unwrap();
        assert_eq!(owner.title.as_deref(), Some("BOT"));
        assert!(!store.revoke_token("u2", "t1").await.unwrap());
        assert!(store.revoke_token("u1", "t1").await.unwrap());
        assert_eq!(store.token("h1").await.unwrap(), None);
        // A closed account's tokens go with it.
        store.create_token(&new).await.unwrap();
        store.close_user("u1", 10).await.unwrap();
        assert_eq!(store.token("h1").await.unwrap(), None);
        assert!(store.tokens("u1").await.unwrap().is_empty());
        store.close().await;
        std::fs::remove_dir_all(dir).ok();
    }
}
