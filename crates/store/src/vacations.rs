//! Correspondence vacations: the days an account has taken this year and the vacation under
//! way. The games' clocks learn of a vacation through their own commands.

use sqlx::Row;

use crate::error::err;
use crate::{Store, StoreError};

/// An account's vacations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VacationRow {
    /// The calendar year `days_used` counts.
    pub year: i64,
    pub days_used: i64,
    /// The vacation under way or last taken: `(from, until)`, Unix ms.
    pub away: Option<(i64, i64)>,
}

impl Store {
    /// `user`'s vacations; none taken yet is the default.
    pub async fn vacation(&self, user: &str) -> Result<VacationRow, StoreError> {
        let row = sqlx::query(
            "SELECT year, days_used, from_ms, until_ms FROM vacations WHERE user_id = $1",
        )
        .bind(user)
        .fetch_optional(&self.pool)
        .await
        .map_err(err("reading a vacation"))?;
        let Some(row) = row else {
            return Ok(VacationRow::default());
        };
        let read = |row: &sqlx::any::AnyRow| -> Result<VacationRow, sqlx::Error> {
            let from: Option<i64> = row.try_get(2)?;
            let until: Option<i64> = row.try_get(3)?;
            Ok(VacationRow {
                year: row.try_get(0)?,
                days_used: row.try_get(1)?,
                away: from.zip(until),
            })
        };
        read(&row).map_err(err("reading a vacation"))
    }

    /// Stores `user`'s vacations.
    pub async fn save_vacation(&self, user: &str, v: &VacationRow) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO vacations (user_id, year, days_used, from_ms, until_ms) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id) DO UPDATE SET \
             year = $2, days_used = $3, from_ms = $4, until_ms = $5",
        )
        .bind(user)
        .bind(v.year)
        .bind(v.days_used)
        .bind(v.away.map(|a| a.0))
        .bind(v.away.map(|a| a.1))
        .execute(&self.pool)
        .await
        .map_err(err("saving a vacation"))?;
        Ok(())
    }
}
