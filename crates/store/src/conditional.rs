//! Conditional premoves of correspondence games, one row per game and side: private to the
//! player, written by the game's actor before it answers.

use sqlx::Row;

use crate::error::err;
use crate::{Store, StoreError};

impl Store {
    /// Replaces `side`'s lines in `game` (0 White, 1 Black); none deletes them.
    pub async fn set_conditional(
        &self,
        game: &str,
        side: u8,
        lines: &[String],
    ) -> Result<(), StoreError> {
        if lines.is_empty() {
            sqlx::query("DELETE FROM conditional_moves WHERE game_id = $1 AND side = $2")
                .bind(game)
                .bind(side as i64)
                .execute(&self.pool)
                .await
                .map_err(err("clearing conditional premoves"))?;
            return Ok(());
        }
        sqlx::query(
            "INSERT INTO conditional_moves (game_id, side, lines) VALUES ($1, $2, $3) \
             ON CONFLICT (game_id, side) DO UPDATE SET lines = $3",
        )
        .bind(game)
        .bind(side as i64)
        .bind(lines.join("\n"))
        .execute(&self.pool)
        .await
        .map_err(err("saving conditional premoves"))?;
        Ok(())
    }

    /// Both sides' lines in `game`, White's first.
    pub async fn conditional(&self, game: &str) -> Result<[Vec<String>; 2], StoreError> {
        let rows = sqlx::query("SELECT side, lines FROM conditional_moves WHERE game_id = $1")
            .bind(game)
            .fetch_all(&self.pool)
            .await
            .map_err(err("reading conditional premoves"))?;
        let mut out: [Vec<String>; 2] = Default::default();
        for row in rows {
            let side: i64 = row
                .try_get(0)
                .map_err(err("reading conditional premoves"))?;
            let lines: String = row
                .try_get(1)
                .map_err(err("reading conditional premoves"))?;
            if let Some(slot) = out.get_mut(side as usize) {
                *slot = lines.lines().map(str::to_string).collect();
            }
        }
        Ok(out)
    }
}
