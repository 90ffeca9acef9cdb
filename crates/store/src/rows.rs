//! The rows the store reads and writes: a game's header, its commands, and how it ended.

use sqlx::Row as _;

use crate::Rated;

/// A stored game's header.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GameRow {
    pub id: String,
    pub kind: String,
    pub created_at: i64,
    /// When the arbiter's game began (a friend game begins when the friend joins).
    pub started_at: Option<i64>,
    pub setup: String,
    pub white: String,
    pub black: String,
    pub invite: Option<String>,
    pub seed: i64,
    pub result: Option<String>,
    pub reason: Option<String>,
    /// Its speed class (`blitz`); none without a clock.
    pub speed: Option<String>,
    /// Whether it changes its players' ratings.
    pub rated: bool,
    /// When it ended (Unix ms).
    pub ended_at: Option<i64>,
    /// Its opening's ECO code and name, once it ended.
    pub eco: Option<String>,
    pub opening: Option<String>,
}

/// A game without a result in which nothing has happened for a while.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdleGame {
    pub id: String,
    /// Its stored setup (JSON).
    pub setup: String,
    /// Whether it has begun (a friend game begins when the friend joins).
    pub started: bool,
    /// When something last happened in it (Unix ms).
    pub last: i64,
}

/// How a game ended, stored with the commands that ended it.
#[derive(Clone, Debug)]
pub struct Ending<'a> {
    /// The PGN result (`1-0`).
    pub result: &'a str,
    /// The ending's code (`checkmate`).
    pub reason: &'a str,
    pub at: i64,
    pub opening: Option<OpeningName<'a>>,
    /// A rated game's players.
    pub rated: Option<&'a Rated>,
}

/// One stored arbiter command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandRow {
    pub seq: i64,
    pub at_ms: i64,
    pub command: String,
}

/// An opening's ECO code and name, as a game that ended stores them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpeningName<'a> {
    pub eco: &'a str,
    pub name: &'a str,
}

pub(crate) const GAME_COLUMNS: &str = "id, kind, created_at, started_at, setup, white, black, invite, seed, \
    result, reason, speed, rated, ended_at, eco, opening";

pub(crate) fn game_row(row: &sqlx::any::AnyRow) -> Result<GameRow, sqlx::Error> {
    Ok(GameRow {
        id: row.try_get(0)?,
        kind: row.try_get(1)?,
        created_at: row.try_get(2)?,
        started_at: row.try_get(3)?,
        setup: row.try_get(4)?,
        white: row.try_get(5)?,
        black: row.try_get(6)?,
        invite: row.try_get(7)?,
        seed: row.try_get(8)?,
        result: row.try_get(9)?,
        reason: row.try_get(10)?,
        speed: row.try_get(11)?,
        rated: row.try_get::<i64, _>(12)? != 0,
        ended_at: row.try_get(13)?,
        eco: row.try_get(14)?,
        opening: row.try_get(15)?,
    })
}
