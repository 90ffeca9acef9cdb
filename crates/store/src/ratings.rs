//! Ratings: each account's standing per speed class, and what each rated game did to it.
//! A rated game's ratings change in the transaction that stores its result, so a result is
//! never stored without its rating change, nor counted twice.

use std::collections::HashMap;

use sqlx::Row as _;
use vizier_rating::fide::Elo;
use vizier_rating::glicko;
use vizier_rating::level::Points;
use vizier_rating::{Class, Perf, Score};

use super::conn::{Conn, Row, Value};
use crate::error::err;
use crate::{Store, StoreError};

/// A rated game's players, by user id, and its class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rated {
    pub white: crate::PlayerId,
    pub black: crate::PlayerId,
    pub class: Class,
}

/// What one rated game did to one player's ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRatingRow {
    pub game_id: String,
    /// `white` or `black`.
    pub color: String,
    pub user_id: String,
    pub class: Class,
    pub at: i64,
    pub glicko_before: f64,
    pub deviation_before: f64,
    pub glicko_after: f64,
    pub deviation_after: f64,
    pub elo_before: i64,
    pub elo_after: i64,
    /// Hundredths of points.
    pub points_before: i64,
    pub points_after: i64,
}

impl GameRatingRow {
    /// The rating before the game, as shown (rounded).
    pub fn shown_before(&self) -> i64 {
        self.glicko_before.round() as i64
    }

    /// What the game did to the rating, as shown: the rounded ratings' difference.
    pub fn shown_diff(&self) -> i64 {
        self.glicko_after.round() as i64 - self.shown_before()
    }
}

/// A player's finished games, counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameCounts {
    pub all: i64,
    pub win: i64,
    pub draw: i64,
    pub loss: i64,
}

const PERF_COLUMNS: &str = "class, glicko, deviation, volatility, rated_at, elo, elo_games, \
    elo_2400, points, games, wins, draws, losses";

/// A row of `ratings` as [`PERF_COLUMNS`] reads it: its class and the standing.
fn perf_row(row: &Row) -> Result<(String, Perf), sqlx::Error> {
    let count = |i: usize| row.int(i).map(|n| n.max(0) as u32);
    Ok((
        row.text(0)?,
        Perf {
            glicko: glicko::Rating {
                rating: row.real(1)?,
                deviation: row.real(2)?,
                volatility: row.real(3)?,
            },
            rated_at: row.opt_int(4)?,
            elo: Elo {
                rating: row.int(5)? as i32,
                games: count(6)?,
                reached_2400: row.int(7)? != 0,
            },
            points: Points(row.int(8)?),
            games: count(9)?,
            wins: count(10)?,
            draws: count(11)?,
            losses: count(12)?,
        },
    ))
}

const HISTORY_COLUMNS: &str = "game_id, color, user_id, class, at, glicko_before, \
    deviation_before, glicko_after, deviation_after, elo_before, elo_after, points_before, \
    points_after";

fn history_row(row: &sqlx::any::AnyRow) -> Result<GameRatingRow, sqlx::Error> {
    let class: String = row.try_get(3)?;
    Ok(GameRatingRow {
        game_id: row.try_get(0)?,
        color: row.try_get(1)?,
        user_id: row.try_get(2)?,
        class: class.parse().unwrap_or(Class::Blitz),
        at: row.try_get(4)?,
        glicko_before: row.try_get(5)?,
        deviation_before: row.try_get(6)?,
        glicko_after: row.try_get(7)?,
        deviation_after: row.try_get(8)?,
        elo_before: row.try_get(9)?,
        elo_after: row.try_get(10)?,
        points_before: row.try_get(11)?,
        points_after: row.try_get(12)?,
    })
}

/// A player's standing read on `conn`, the writer's or one of the pool's.
async fn perf_on(conn: &mut Conn, user: &str, class: Class) -> Result<Perf, StoreError> {
    const DOING: &str = "reading a rating";
    let sql = format!("SELECT {PERF_COLUMNS} FROM ratings WHERE user_id = $1 AND class = $2");
    let row = conn
        .fetch_optional(DOING, &sql, &[user.into(), class.key().into()])
        .await?;
    let Some(row) = row else {
        return Ok(Perf::NEW);
    };
    let (_, perf) = perf_row(&row).map_err(err(DOING))?;
    Ok(perf)
}

async fn store_perf(conn: &mut Conn, user: &str, class: Class, p: &Perf) -> Result<(), StoreError> {
    let sql = format!(
        "INSERT INTO ratings (user_id, {PERF_COLUMNS}) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) \
         ON CONFLICT (user_id, class) DO UPDATE SET glicko = excluded.glicko, \
         deviation = excluded.deviation, volatility = excluded.volatility, \
         rated_at = excluded.rated_at, elo = excluded.elo, elo_games = excluded.elo_games, \
         elo_2400 = excluded.elo_2400, points = excluded.points, games = excluded.games, \
         wins = excluded.wins, draws = excluded.draws, losses = excluded.losses"
    );
    let values: [Value; 14] = [
        user.into(),
        class.key().into(),
        p.glicko.rating.into(),
        p.glicko.deviation.into(),
        p.glicko.volatility.into(),
        p.rated_at.into(),
        i64::from(p.elo.rating).into(),
        i64::from(p.elo.games).into(),
        i64::from(p.elo.reached_2400).into(),
        p.points.0.into(),
        i64::from(p.games).into(),
        i64::from(p.wins).into(),
        i64::from(p.draws).into(),
        i64::from(p.losses).into(),
    ];
    conn.execute("storing a rating", &sql, &values).await
}

/// White's score in a PGN result; none for an unfinished one.
fn white_score(result: &str) -> Option<Score> {
    match result {
        "1-0" => Some(Score::Win),
        "0-1" => Some(Score::Loss),
        "1/2-1/2" => Some(Score::Draw),
        _ => None,
    }
}

/// Rates a game that just ended with `result` at `at`, inside the transaction storing it.
pub(super) async fn rate(
    conn: &mut Conn,
    game: &str,
    rated: &Rated,
    result: &str,
    at: i64,
) -> Result<(), StoreError> {
    let Some(score) = white_score(result) else {
        return Ok(());
    };
    let white = perf_on(conn, rated.white.as_str(), rated.class).await?;
    let black = perf_on(conn, rated.black.as_str(), rated.class).await?;
    let (white_after, black_after) = Perf::after_game(&white, &black, score, at);
    for (color, user, before, after) in [
        ("white", &rated.white, &white, &white_after),
        ("black", &rated.black, &black, &black_after),
    ] {
        store_perf(conn, user.as_str(), rated.class, after).await?;
        // The deviation before is the one the game was rated with: grown with time away.
        let before_glicko = before.glicko_at(at);
        let sql = format!(
            "INSERT INTO game_ratings ({HISTORY_COLUMNS}) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)"
        );
        let values: [Value; 13] = [
            game.into(),
            color.into(),
            user.as_str().into(),
            rated.class.key().into(),
            at.into(),
            before_glicko.rating.into(),
            before_glicko.deviation.into(),
            after.glicko.rating.into(),
            after.glicko.deviation.into(),
            i64::from(before.elo.rating).into(),
            i64::from(after.elo.rating).into(),
            before.points.0.into(),
            after.points.0.into(),
        ];
        conn.execute("storing a rating change", &sql, &values)
            .await?;
    }
    Ok(())
}

impl Store {
    /// An account's standing in every class it has played rated games in.
    pub async fn perfs(&self, user: &str) -> Result<Vec<(Class, Perf)>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {PERF_COLUMNS} FROM ratings WHERE user_id = $1"
        ))
        .bind(user)
        .fetch_all(&self.pool)
        .await
        .map_err(err("reading ratings"))?;
        let mut perfs = Vec::new();
        for row in rows.into_iter().map(Row::Pool) {
            let (class, perf) = perf_row(&row).map_err(err("reading ratings"))?;
            if let Ok(class) = class.parse() {
                perfs.push((class, perf));
            }
        }
        perfs.sort_by_key(|(c, _)| *c);
        Ok(perfs)
    }

    /// An account's standing in `class` (a new player's if it has played none).
    pub async fn perf(&self, user: &str, class: Class) -> Result<Perf, StoreError> {
        let conn = self.pool.acquire().await.map_err(err("reading a rating"))?;
        perf_on(&mut Conn::Pool(conn), user, class).await
    }

    /// What a game did to its players' ratings (nothing for an unrated game).
    pub async fn game_ratings(&self, game: &str) -> Result<Vec<GameRatingRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {HISTORY_COLUMNS} FROM game_ratings WHERE game_id = $1 ORDER BY color DESC"
        ))
        .bind(game)
        .fetch_all(&self.pool)
        .await
        .map_err(err("reading rating changes"))?;
        rows.iter()
            .map(history_row)
            .collect::<Result<_, _>>()
            .map_err(err("reading rating changes"))
    }

    /// An account's rating changes, oldest first, at most `limit`, the latest kept.
    pub async fn rating_history(
        &self,
        user: &str,
        limit: i64,
    ) -> Result<Vec<GameRatingRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {HISTORY_COLUMNS} FROM game_ratings WHERE user_id = $1 \
             ORDER BY at DESC LIMIT $2"
        ))
        .bind(user)
        .bind(limit)
        .fetch_all(&self.pool)
        .await
        .map_err(err("reading rating history"))?;
        let mut history = rows
            .iter()
            .map(history_row)
            .collect::<Result<Vec<_>, _>>()
            .map_err(err("reading rating history"))?;
        history.reverse();
        Ok(history)
    }

    /// A player's finished games: all, won, drawn, lost (aborted and called-off games
    /// have no winner and count as neither).
    pub async fn game_counts(&self, player: &str) -> Result<GameCounts, StoreError> {
        let seat = crate::record::Seat::player_text(player);
        let row = sqlx::query(
            "SELECT COUNT(*), \
             COALESCE(SUM(CASE WHEN (white = $1 AND result = '1-0') \
                 OR (black = $1 AND result = '0-1') THEN 1 ELSE 0 END), 0), \
             COALESCE(SUM(CASE WHEN result = '1/2-1/2' THEN 1 ELSE 0 END), 0), \
             COALESCE(SUM(CASE WHEN (white = $1 AND result = '0-1') \
                 OR (black = $1 AND result = '1-0') THEN 1 ELSE 0 END), 0) \
             FROM games WHERE (white = $1 OR black = $1) AND result IS NOT NULL",
        )
        .bind(&seat)
        .fetch_one(&self.pool)
        .await
        .map_err(err("counting games"))?;
        let n = |i| row.try_get::<i64, _>(i).map_err(err("counting games"));
        Ok(GameCounts {
            all: n(0)?,
            win: n(1)?,
            draw: n(2)?,
            loss: n(3)?,
        })
    }

    /// Games between people being played now, the latest started first: id, White's and
    /// Black's seats, stored setup, and whether rated.
    pub async fn games_now(
        &self,
        limit: i64,
    ) -> Result<Vec<(String, String, String, String, bool)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, white, black, setup, rated FROM games WHERE result IS NULL \
             AND started_at IS NOT NULL AND kind = 'friend' ORDER BY started_at DESC LIMIT $1",
        )
        .bind(limit)
        .fetch_all(&self.pool)
        .await
        .map_err(err("listing games being played"))?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get(0)?,
                    r.try_get(1)?,
                    r.try_get(2)?,
                    r.try_get(3)?,
                    r.try_get::<i64, _>(4)? != 0,
                ))
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(err("listing games being played"))
    }

    /// The names of the accounts among `ids`.
    pub async fn names(&self, ids: &[&str]) -> Result<HashMap<String, String>, StoreError> {
        let named = self.names_and_titles(ids).await?;
        Ok(named
            .into_iter()
            .map(|(id, (name, _))| (id, name))
            .collect())
    }

    /// The names and titles of the accounts among `ids`.
    pub async fn names_and_titles(
        &self,
        ids: &[&str],
    ) -> Result<HashMap<String, (String, Option<String>)>, StoreError> {
        let mut names = HashMap::new();
        for id in ids {
            if names.contains_key(*id) {
                continue;
            }
            let row = sqlx::query("SELECT name, title FROM users WHERE id = $1")
                .bind(*id)
                .fetch_optional(&self.pool)
                .await
                .map_err(err("reading a name"))?;
            if let Some(row) = row {
                let read = || Ok::<_, sqlx::Error>((row.try_get(0)?, row.try_get(1)?));
                names.insert(id.to_string(), read().map_err(err("reading a name"))?);
            }
        }
        Ok(names)
    }
}
