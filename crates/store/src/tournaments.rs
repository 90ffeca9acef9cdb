//! Tournaments, stored whole: `vizier-compete` owns what a tournament holds and hands the
//! store a JSON document with the few columns its lists need.

use sqlx::Row;

use crate::error::err;
use crate::{Store, StoreError};

/// A tournament as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    pub id: String,
    /// `created`, `running` or `finished`.
    pub status: String,
    pub starts_at: i64,
    pub created_by: String,
    pub created_at: i64,
    pub updated_at: i64,
    /// The document.
    pub data: String,
}

const COLUMNS: &str = "id, status, starts_at, created_by, created_at, updated_at, data";

fn row_of(row: &sqlx::any::AnyRow) -> Result<TournamentRow, sqlx::Error> {
    Ok(TournamentRow {
        id: row.try_get(0)?,
        status: row.try_get(1)?,
        starts_at: row.try_get(2)?,
        created_by: row.try_get(3)?,
        created_at: row.try_get(4)?,
        updated_at: row.try_get(5)?,
        data: row.try_get(6)?,
    })
}

fn rows_of(rows: &[sqlx::any::AnyRow]) -> Result<Vec<TournamentRow>, StoreError> {
    rows.iter()
        .map(row_of)
        .collect::<Result<_, _>>()
        .map_err(err("listing tournaments"))
}

impl Store {
    /// Stores a tournament, new or changed.
    pub async fn save_tournament(&self, t: &TournamentRow) -> Result<(), StoreError> {
        sqlx::query(&format!(
            "INSERT INTO tournaments ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7) \
             ON CONFLICT (id) DO UPDATE SET status = $2, starts_at = $3, updated_at = $6, \
             data = $7"
        ))
        .bind(&t.id)
        .bind(&t.status)
        .bind(t.starts_at)
        .bind(&t.created_by)
        .bind(t.created_at)
        .bind(t.updated_at)
        .bind(&t.data)
        .execute(&self.pool)
        .await
        .map_err(err("saving a tournament"))?;
        Ok(())
    }

    /// The tournament `id`.
    pub async fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, StoreError> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM tournaments WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(err("reading a tournament"))?;
        row.as_ref()
            .map(row_of)
            .transpose()
            .map_err(err("reading a tournament"))
    }

    /// The tournaments not finished yet, soonest first.
    pub async fn unfinished_tournaments(&self) -> Result<Vec<TournamentRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM tournaments WHERE status <> 'finished' ORDER BY starts_at"
        ))
        .fetch_all(&self.pool)
        .await
        .map_err(err("listing tournaments"))?;
        rows_of(&rows)
    }

    /// The `limit` tournaments finished last.
    pub async fn finished_tournaments(&self, limit: i64) -> Result<Vec<TournamentRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM tournaments WHERE status = 'finished' \
             ORDER BY updated_at DESC LIMIT $1"
        ))
        .bind(limit)
        .fetch_all(&self.pool)
        .await
        .map_err(err("listing tournaments"))?;
        rows_of(&rows)
    }
}
