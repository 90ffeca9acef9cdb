//! Server secrets (the cookie key), made once and kept in the database.

use sqlx::Row as _;

use crate::error::err;
use crate::{Store, StoreError};

impl Store {
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
