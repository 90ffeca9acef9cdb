//! Reviews: a finished game's analysis, stored once it is done.

use sqlx::Row;

use crate::error::err;
use crate::{Store, StoreError};

impl Store {
    /// The review of game `id` (the JSON stored), if it has one.
    pub async fn review(&self, id: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT data FROM reviews WHERE game_id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(err("reading a review"))?;
        row.map(|r| r.try_get(0))
            .transpose()
            .map_err(err("reading a review"))
    }

    /// Stores the review of game `id`, replacing an older one.
    pub async fn save_review(&self, id: &str, data: &str, at: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO reviews (game_id, data, created_at) VALUES ($1, $2, $3) \
             ON CONFLICT (game_id) DO UPDATE SET data = excluded.data, \
             created_at = excluded.created_at",
        )
        .bind(id)
        .bind(data)
        .bind(at)
        .execute(&self.pool)
        .await
        .map_err(err("storing a review"))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn round_trip(store: Store) {
        let id = format!("r{}", rand::random::<u32>());
        assert_eq!(store.review(&id).await.unwrap(), None);
        store.save_review(&id, "{\"a\":1}", 5).await.unwrap();
        store.save_review(&id, "{\"a\":2}", 6).await.unwrap();
        assert_eq!(
            store.review(&id).await.unwrap().as_deref(),
            Some("{\"a\":2}")
        );
    }

    #[tokio::test]
    async fn a_review_is_stored_and_replaced_on_sqlite() {
        let dir = std::env::temp_dir().join(format!("vizier-review-{}", rand::random::<u64>()));
        round_trip(Store::sqlite(&dir).await.unwrap()).await;
        let _ = std::fs::remove_dir_all(dir);
    }

    #[tokio::test]
    #[ignore = "needs PostgreSQL: VIZIER_TEST_POSTGRES (scripts/test.sh starts one)"]
    async fn a_review_is_stored_and_replaced_on_postgres() {
        let url = crate::testing::postgres_url();
        round_trip(Store::open(&url).await.unwrap()).await;
    }
}
