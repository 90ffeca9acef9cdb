//! The games' JSON API: creating a game (its time control checked against the server's
//! limits) and a game's PGN.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};
use vizier_arbiter::{Options, Setup, StartPosition, TimeControl};
use vizier_rules::Color;

use super::{AppState, Player, bad_request, not_found, refusal};
use crate::hub::{HubError, NewGame};
use crate::protocol::{ErrorCode, GameKind};
use crate::record::Kind;

/// A request for a new game, from the home page.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateGame {
    pub kind: GameKind,
    /// 1-8, for games against the computer.
    #[serde(default)]
    pub level: Option<u8>,
    /// "white", "black" or "random" (default).
    #[serde(default)]
    pub color: Option<String>,
    /// PGN TimeControl form: "300+3", "40/5400+30:1800+30", "300d5", "-" for none.
    #[serde(default)]
    pub time_control: Option<String>,
    #[serde(default)]
    pub chess960: bool,
    /// Takebacks by agreement (always allowed against the computer; never in rated games).
    #[serde(default)]
    pub takebacks: Option<bool>,
    /// Whether the game changes the players' ratings (friend games between accounts).
    #[serde(default)]
    pub rated: bool,
}

#[derive(Debug, Serialize)]
struct Created {
    id: String,
}

/// Longest base time accepted: a day (correspondence uses its own form).
const MAX_BASE_MS: u64 = 24 * 3_600_000;

/// Why a time control is refused for a new game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ControlRefused {
    TooManyPeriods,
    TooLong,
    EmptyPeriod,
    NoTime,
    NoFirstBase,
}

impl std::fmt::Display for ControlRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ControlRefused::TooManyPeriods => "at most five periods",
            ControlRefused::TooLong => "base at most a day, increment and delay at most 10 minutes",
            ControlRefused::EmptyPeriod => "a period needs at least one move",
            ControlRefused::NoTime => "the clock needs some time",
            ControlRefused::NoFirstBase => "the first period needs a base time",
        })
    }
}

pub(crate) fn check_control(tc: &TimeControl) -> Result<(), ControlRefused> {
    if let TimeControl::Clock(periods) = tc {
        if periods.len() > 5 {
            return Err(ControlRefused::TooManyPeriods);
        }
        for p in periods {
            if p.base_ms > MAX_BASE_MS || p.increment_ms > 600_000 || p.delay.ms() > 600_000 {
                return Err(ControlRefused::TooLong);
            }
            if p.moves == Some(0) {
                return Err(ControlRefused::EmptyPeriod);
            }
        }
        if periods
            .iter()
            .all(|p| p.base_ms == 0 && p.increment_ms == 0 && p.delay.ms() == 0)
        {
            return Err(ControlRefused::NoTime);
        }
        if periods.first().is_some_and(|p| p.base_ms == 0) {
            return Err(ControlRefused::NoFirstBase);
        }
    }
    Ok(())
}

pub(super) async fn create(
    State(state): State<AppState>,
    Extension(Player(player)): Extension<Player>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    body: Result<Json<CreateGame>, axum::extract::rejection::JsonRejection>,
) -> Response {
    let Json(req) = match body {
        Ok(b) => b,
        Err(e) => return bad_request(e.body_text()),
    };
    let control = match TimeControl::parse_pgn(req.time_control.as_deref().unwrap_or("-")) {
        Ok(tc) => tc,
        Err(e) => return bad_request(e.to_string()),
    };
    if let Err(e) = check_control(&control) {
        return bad_request(e.to_string());
    }
    let level = req.level.unwrap_or(3);
    if !(vizier_engine::level::MIN..=vizier_engine::level::MAX).contains(&level) {
        return bad_request(format!(
            "levels go from {} to {}",
            vizier_engine::level::MIN,
            vizier_engine::level::MAX
        ));
    }
    let color = match req.color.as_deref().unwrap_or("random") {
        "white" => Color::White,
        "black" => Color::Black,
        "random" => {
            if rand::random::<bool>() {
                Color::White
            } else {
                Color::Black
            }
        }
        other => return bad_request(format!("colour \"{other}\": white, black or random")),
    };
    let kind = Kind::from(req.kind);
    let takebacks = req.takebacks.unwrap_or(kind != Kind::Friend && !req.rated);
    let setup = match kind {
        // On one device the clocks start as over the board.
        Kind::Local => Setup {
            start: if req.chess960 {
                StartPosition::chess960_random()
            } else {
                StartPosition::Standard
            },
            control,
            options: Options {
                takebacks,
                ..Options::default()
            },
            ..Setup::default()
        },
        _ => crate::hub::online_setup(control, req.chess960, takebacks),
    };
    let from = super::address::client(peer.map(|p| p.0.0), &headers, state.trust_forwarded_for);
    if let Some(from) = from
        && !state.new_games.take(&from)
    {
        return refusal(
            StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::TooManyNewGames,
            format!(
                "{} new games an hour from one address at most: wait a while",
                state.hub.settings.limits.new_games_per_address_hour
            ),
        );
    }
    let new = NewGame {
        kind,
        setup,
        color,
        level,
        opponent: None,
        rated: req.rated,
    };
    match state.hub.create(&player, new).await {
        Ok(id) => (StatusCode::CREATED, Json(Created { id })).into_response(),
        Err(HubError::Setup(e)) => bad_request(e.to_string()),
        Err(e @ HubError::NotRateable(_)) => bad_request(e.to_string()),
        Err(e @ HubError::RatedNeedsAccount) => refusal(
            StatusCode::UNAUTHORIZED,
            ErrorCode::RatedNeedsAccount,
            e.to_string(),
        ),
        Err(e @ HubError::TooManyGames(_)) => refusal(
            StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::TooManyGames,
            e.to_string(),
        ),
        Err(e) => {
            tracing::error!("creating a game: {e}");
            refusal(
                StatusCode::SERVICE_UNAVAILABLE,
                ErrorCode::Storage,
                "the game could not be stored; try again",
            )
        }
    }
}

pub(super) async fn pgn(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let Ok(handle) = state.hub.game(&id).await else {
        return not_found();
    };
    match handle.pgn().await {
        Some(pgn) => (
            [
                (
                    header::CONTENT_TYPE,
                    "application/x-chess-pgn; charset=utf-8".to_string(),
                ),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"vizier-{id}.pgn\""),
                ),
            ],
            pgn,
        )
            .into_response(),
        None => not_found(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls() {
        let ok = |s: &str| check_control(&TimeControl::parse_pgn(s).unwrap()).is_ok();
        assert!(ok("300+3"));
        assert!(ok("-"));
        assert!(ok("40/5400+30:1800+30"));
        assert!(!ok("0"));
        assert!(!ok("999999"));
    }
}
