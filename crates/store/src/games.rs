//! Reading games: one game with its commands, the unfinished ones, the idle ones.

use sqlx::Row as _;

use crate::error::err;
use crate::rows::{GAME_COLUMNS, game_row};
use crate::{CommandRow, GameRow, IdleGame, Store, StoreError};

impl Store {
    /// A game and its commands in order.
    pub async fn load(&self, id: &str) -> Result<Option<(GameRow, Vec<CommandRow>)>, StoreError> {
        let Some(game) = self.game(id).await? else {
            return Ok(None);
        };
        let commands = self.commands_of(&game).await?;
        Ok(Some((game, commands)))
    }

    /// A game without its commands (reading those of a game going on scans the journal).
    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let row = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(err("loading a game"))?;
        row.map(|r| game_row(&r).map_err(err("reading a game")))
            .transpose()
    }

    /// A game's stored commands in order. Those of a game going on may still be in the
    /// journal only; a game that ended has all of them in `commands`.
    pub async fn commands_of(&self, game: &GameRow) -> Result<Vec<CommandRow>, StoreError> {
        const ENDED: &str =
            "SELECT seq, at_ms, command FROM commands WHERE game_id = $1 ORDER BY seq";
        const GOING_ON: &str = "SELECT seq, at_ms, command FROM commands WHERE game_id = $1 \
             UNION SELECT seq, at_ms, command FROM journal WHERE game_id = $1 ORDER BY seq";
        let sql = if game.result.is_some() {
            ENDED
        } else {
            GOING_ON
        };
        let rows = sqlx::query(sql)
            .bind(&game.id)
            .fetch_all(&self.pool)
            .await
            .map_err(err("loading moves"))?;
        rows.iter()
            .map(|r| {
                Ok(CommandRow {
                    seq: r.try_get(0)?,
                    at_ms: r.try_get(1)?,
                    command: r.try_get(2)?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(err("reading moves"))
    }

    /// How many games without a result `seat` (a stored seat, `p:<id>`) sits in.
    pub async fn unfinished_games_of(&self, seat: &str) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) FROM games WHERE result IS NULL AND (white = $1 OR black = $1)",
        )
        .bind(seat)
        .fetch_one(&self.pool)
        .await
        .map_err(err("counting a player's games"))?;
        row.try_get(0).map_err(err("counting a player's games"))
    }

    /// The ids of the games without a result `seat` sits in, the newest first, `limit` at
    /// most.
    pub async fn unfinished_game_ids(
        &self,
        seat: &str,
        limit: i64,
    ) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE result IS NULL AND (white = $1 OR black = $1) \
             ORDER BY created_at DESC LIMIT $2",
        )
        .bind(seat)
        .bind(limit)
        .fetch_all(&self.pool)
        .await
        .map_err(err("listing a player's games"))?;
        rows.iter()
            .map(|r| r.try_get(0))
            .collect::<Result<_, _>>()
            .map_err(err("listing a player's games"))
    }

    /// How many games without a result `seat` plays against the computer.
    pub async fn unfinished_computer_games_of(&self, seat: &str) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) FROM games WHERE result IS NULL AND \
             ((white = $1 AND black LIKE 'c:%') OR (black = $1 AND white LIKE 'c:%'))",
        )
        .bind(seat)
        .fetch_one(&self.pool)
        .await
        .map_err(err("counting a player's computer games"))?;
        row.try_get(0)
            .map_err(err("counting a player's computer games"))
    }

    /// The games without a result, each with its stored setup.
    pub async fn live_games(&self) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query("SELECT id, setup FROM games WHERE result IS NULL")
            .fetch_all(&self.pool)
            .await
            .map_err(err("listing live games"))?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(err("listing live games"))
    }

    /// The games without a result in which nothing has happened since `before` (Unix ms). What
    /// happened last is the last command (in the journal, else in `commands`), else the start,
    /// else the creation. The journal, not indexed by game, is read once for all games.
    pub async fn idle_games(&self, before: i64) -> Result<Vec<IdleGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, setup, started_at, last FROM (SELECT g.id, g.setup, g.started_at, \
               COALESCE(j.last_at, \
               (SELECT at_ms FROM commands c WHERE c.game_id = g.id ORDER BY seq DESC LIMIT 1), \
               g.started_at, g.created_at) AS last FROM games g \
               LEFT JOIN (SELECT game_id, MAX(at_ms) AS last_at FROM journal GROUP BY game_id) j \
               ON j.game_id = g.id WHERE g.result IS NULL) t \
             WHERE last < $1",
        )
        .bind(before)
        .fetch_all(&self.pool)
        .await
        .map_err(err("listing idle games"))?;
        rows.iter()
            .map(|r| {
                Ok(IdleGame {
                    id: r.try_get(0)?,
                    setup: r.try_get(1)?,
                    started: r.try_get::<Option<i64>, _>(2)?.is_some(),
                    last: r.try_get(3)?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(err("listing idle games"))
    }
}
