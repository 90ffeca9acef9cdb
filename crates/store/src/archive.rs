//! The archive's query: a player's finished games, filtered and paged.

use crate::error::err;
use crate::record::Seat;
use crate::rows::{GAME_COLUMNS, game_row};
use crate::{GameRow, Store, StoreError};

/// Which of a player's games the archive lists.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArchiveFilter {
    /// A speed class (`blitz`).
    pub speed: Option<String>,
    pub rated: Option<bool>,
    pub color: Option<ArchiveColor>,
    pub result: Option<ArchiveResult>,
    /// Only games against this player id.
    pub vs: Option<String>,
    /// Ended at or after (Unix ms)...
    pub since: Option<i64>,
    /// ...and at or before.
    pub until: Option<i64>,
}

/// The side the player had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArchiveColor {
    White,
    Black,
}

/// How the game went for the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArchiveResult {
    Win,
    Draw,
    Loss,
}

/// A value for a query built at run time.
enum Bind {
    Text(String),
    Int(i64),
}

impl Store {
    /// A player's games that have ended, newest first, as `filter` narrows them; after
    /// `after` (the `ended_at` and id of the last game of the previous page) when given.
    pub async fn games_of(
        &self,
        player: &str,
        filter: &ArchiveFilter,
        after: Option<(i64, &str)>,
        limit: i64,
    ) -> Result<Vec<GameRow>, StoreError> {
        let seat = Seat::player_text(player);
        let mut sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE ended_at IS NOT NULL \
             AND (white = $1 OR black = $1)"
        );
        let mut binds: Vec<Bind> = vec![Bind::Text(seat)];
        let mut param = |sql: &mut String, clause: &str, value: Bind| {
            binds.push(value);
            sql.push_str(&clause.replace('?', &format!("${}", binds.len())));
        };
        if let Some(speed) = &filter.speed {
            param(&mut sql, " AND speed = ?", Bind::Text(speed.clone()));
        }
        if let Some(rated) = filter.rated {
            param(&mut sql, " AND rated = ?", Bind::Int(i64::from(rated)));
        }
        match filter.color {
            Some(ArchiveColor::White) => sql.push_str(" AND white = $1"),
            Some(ArchiveColor::Black) => sql.push_str(" AND black = $1"),
            None => {}
        }
        match filter.result {
            Some(ArchiveResult::Win) => sql.push_str(
                " AND ((white = $1 AND result = '1-0') OR (black = $1 AND result = '0-1'))",
            ),
            Some(ArchiveResult::Loss) => sql.push_str(
                " AND ((white = $1 AND result = '0-1') OR (black = $1 AND result = '1-0'))",
            ),
            Some(ArchiveResult::Draw) => sql.push_str(" AND result = '1/2-1/2'"),
            None => {}
        }
        if let Some(vs) = &filter.vs {
            let vs = Seat::player_text(vs);
            param(&mut sql, " AND (white = ?", Bind::Text(vs.clone()));
            param(&mut sql, " OR black = ?)", Bind::Text(vs));
        }
        if let Some(since) = filter.since {
            param(&mut sql, " AND ended_at >= ?", Bind::Int(since));
        }
        if let Some(until) = filter.until {
            param(&mut sql, " AND ended_at <= ?", Bind::Int(until));
        }
        if let Some((at, id)) = after {
            param(&mut sql, " AND (ended_at < ?", Bind::Int(at));
            param(&mut sql, " OR (ended_at = ?", Bind::Int(at));
            param(&mut sql, " AND id < ?))", Bind::Text(id.to_string()));
        }
        param(
            &mut sql,
            " ORDER BY ended_at DESC, id DESC LIMIT ?",
            Bind::Int(limit),
        );
        let mut q = sqlx::query(&sql);
        for b in &binds {
            q = match b {
                Bind::Text(t) => q.bind(t.as_str()),
                Bind::Int(n) => q.bind(*n),
            };
        }
        let rows = q
            .fetch_all(&self.pool)
            .await
            .map_err(err("listing a player's games"))?;
        rows.iter()
            .map(game_row)
            .collect::<Result<_, _>>()
            .map_err(err("reading a player's games"))
    }
}
