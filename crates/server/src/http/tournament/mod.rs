//! Tournaments over HTTP: `GET /api/tournament` (`created`, `started`, `finished`, as
//! lichess lists them), `POST /api/tournament` to create one, `GET /api/tournament/{id}`
//! (settings, players, rounds, standings with tie-breaks, crosstable, and the asker's own
//! place), `join`, `withdraw`, `pause`, `resume`, `start` on `/api/tournament/{id}/…`, and
//! the downloads: `…/trf` (TRF-2026, or TRF-16 with `?version=16`) and `…/games` (PGN).

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::{Value, json};
use vizier_compete::model::{BoardResult, ByeKind, Details, Entry, Format, HostColour, Status};
use vizier_compete::{CompeteError, Member, NewTournament, report};
use vizier_play::ids::PlayerId;

use super::body::{Body, Fields, field_text};
use super::{AppState, Player, SignedIn, api, refusal};
use crate::account::token::Scope;
use crate::protocol::ErrorCode;

mod view;

use view::{full, simul_boards, summary};

fn refused(e: &CompeteError) -> Response {
    let (status, code) = match e {
        CompeteError::NotFound => (StatusCode::NOT_FOUND, ErrorCode::BadRequest),
        CompeteError::TooMany => (StatusCode::TOO_MANY_REQUESTS, ErrorCode::BadRequest),
        CompeteError::NotCreator => (StatusCode::FORBIDDEN, ErrorCode::BadRequest),
        CompeteError::Store(_) => (StatusCode::SERVICE_UNAVAILABLE, ErrorCode::Storage),
        _ => (StatusCode::BAD_REQUEST, ErrorCode::BadRequest),
    };
    refusal(status, code, e.to_string())
}

/// A request that changes a tournament: from this server's pages, or with a token that may.
fn gate(
    state: &AppState,
    headers: &HeaderMap,
    player: PlayerId,
    signed: SignedIn,
) -> Result<Member, Box<Response>> {
    let account = super::account::changes_by(state, headers, signed)?;
    if let Some(scopes) = account.scopes
        && !scopes.any(&[Scope::TournamentWrite])
    {
        return Err(Box::new(api::error(
            StatusCode::FORBIDDEN,
            "Missing scope: tournament:write",
        )));
    }
    Ok(Member {
        player,
        name: account.name,
    })
}
/// `GET /api/tournament`.
pub(super) async fn list(State(state): State<AppState>) -> Response {
    match state.director.list(20).await {
        Ok(all) => {
            let of = |s: Status| -> Vec<Value> {
                all.iter().filter(|t| t.status == s).map(summary).collect()
            };
            Json(json!({
                "created": of(Status::Created),
                "started": of(Status::Running),
                "finished": of(Status::Finished),
            }))
            .into_response()
        }
        Err(e) => refused(&e),
    }
}

/// The settings of a new tournament from the request's fields.
fn settings(fields: &Fields, now: u64) -> Result<NewTournament, String> {
    let text = |k: &str| field_text(fields, k);
    let number = |k: &str| -> Result<Option<i64>, String> {
        match text(k).filter(|t| !t.trim().is_empty()) {
            None => Ok(None),
            Some(t) => t
                .trim()
                .parse()
                .map(Some)
                .map_err(|_| format!("{k}: a whole number")),
        }
    };
    let flag = |k: &str| text(k).is_some_and(|t| t == "true" || t == "on" || t == "1");
    let rounds = number("nbRounds")?.unwrap_or(7);
    let format = match text("format").as_deref().unwrap_or("swiss") {
        "swiss" => Format::Swiss {
            rounds: u32::try_from(rounds).map_err(|_| "nbRounds: 1 to 20")?,
            edition2017: text("edition").as_deref() == Some("2017"),
        },
        "arena" => Format::Arena {
            minutes: u32::try_from(number("minutes")?.unwrap_or(60)).map_err(|_| "minutes")?,
            streaks: text("streaks").is_none() || flag("streaks"),
            berserk: text("berserk").is_none() || flag("berserk"),
        },
        "simul" => Format::Simul {
            host_colour: match text("hostColour").as_deref().unwrap_or("white") {
                "white" => HostColour::White,
                "black" => HostColour::Black,
                "random" => HostColour::Random,
                _ => return Err("hostColour: white, black or random".into()),
            },
        },
        "roundRobin" => Format::RoundRobin { double: false },
        "doubleRoundRobin" => Format::RoundRobin { double: true },
        _ => return Err("format: swiss, arena, simul, roundRobin or doubleRoundRobin".into()),
    };
    let control = match text("control") {
        Some(c) => c,
        None => {
            let limit = number("clock.limit")?.unwrap_or(300);
            let increment = number("clock.increment")?.unwrap_or(0);
            if increment > 0 {
                format!("{limit}+{increment}")
            } else {
                limit.to_string()
            }
        }
    };
    let invited: Vec<String> = text("invited")
        .unwrap_or_default()
        .split([',', ' ', '\n'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    let (min, max) = (number("minRating")?, number("maxRating")?);
    let entry = if !invited.is_empty() {
        Entry::Invite { names: invited }
    } else if min.is_some() || max.is_some() {
        Entry::Rating {
            min: min.map(|m| m as i32),
            max: max.map(|m| m as i32),
        }
    } else {
        Entry::Open
    };
    let starts_at = match number("startsAt")? {
        Some(at) => u64::try_from(at).map_err(|_| "startsAt: a time in ms")?,
        None => now + 60_000 * number("startsIn")?.unwrap_or(5).clamp(0, 60 * 24 * 60) as u64,
    };
    let seconds = |k: &str, default: i64| -> Result<u32, String> {
        u32::try_from(number(k)?.unwrap_or(default)).map_err(|_| format!("{k}: seconds"))
    };
    Ok(NewTournament {
        name: text("name").unwrap_or_default(),
        description: text("description").unwrap_or_default(),
        format,
        control,
        chess960: text("variant").as_deref() == Some("chess960"),
        // A simul is casual unless asked.
        rated: match text("rated") {
            None => !matches!(format, Format::Simul { .. }),
            Some(_) => flag("rated"),
        },
        entry,
        starts_at,
        forfeit_after_s: seconds("forfeitAfter", 120)?,
        round_break_s: seconds("roundBreak", 30)?,
    })
}

/// `POST /api/tournament`.
pub(super) async fn create(
    State(state): State<AppState>,
    Extension(Player(player)): Extension<Player>,
    Extension(signed): Extension<SignedIn>,
    headers: HeaderMap,
    body: Body<Fields>,
) -> Response {
    let me = match gate(&state, &headers, player, signed) {
        Ok(m) => m,
        Err(r) => return *r,
    };
    let new = match settings(&body.into_value(), state.hub.now()) {
        Ok(n) => n,
        Err(why) => return refused(&CompeteError::Settings(why)),
    };
    match state.director.create(&me, new).await {
        Ok(t) => (StatusCode::CREATED, Json(full(&t, &me.player))).into_response(),
        Err(e) => refused(&e),
    }
}

/// `GET /api/tournament/{id}`.
pub(super) async fn show(
    State(state): State<AppState>,
    Extension(Player(player)): Extension<Player>,
    Path(id): Path<String>,
) -> Response {
    match state.director.get(&id).await {
        Ok(Some(t)) => {
            // A player looking at an arena is waiting for their next game.
            state.director.seen(&id, &player).await;
            let mut out = full(&t, &player);
            if t.is_simul() {
                out["boards"] = simul_boards(&state, &t).await;
            }
            Json(out).into_response()
        }
        Ok(None) => refused(&CompeteError::NotFound),
        Err(e) => refused(&e),
    }
}

/// `POST /api/tournament/{id}/{join|withdraw|pause|resume|start}`.
pub(super) async fn command(
    State(state): State<AppState>,
    Extension(Player(player)): Extension<Player>,
    Extension(signed): Extension<SignedIn>,
    Path((id, command)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let me = match gate(&state, &headers, player, signed) {
        Ok(m) => m,
        Err(r) => return *r,
    };
    let d = &state.director;
    let done = match command.as_str() {
        "join" => d.join(&id, &me).await.map(|_| ()),
        "withdraw" => d.withdraw(&id, &me.player).await.map(|_| ()),
        "pause" => d.pause(&id, &me.player, true).await.map(|_| ()),
        "resume" => d.pause(&id, &me.player, false).await.map(|_| ()),
        "start" => d.start_now(&id, &me.player).await,
        "bye" => d
            .ask_bye(&id, &me.player, Some(ByeKind::Half))
            .await
            .map(|_| ()),
        "zero-bye" => (d.ask_bye(&id, &me.player, Some(ByeKind::Absent)).await).map(|_| ()),
        "cancel-bye" => d.ask_bye(&id, &me.player, None).await.map(|_| ()),
        _ => return api::error(StatusCode::NOT_FOUND, "Not found"),
    };
    match done {
        Ok(()) => api::ok(),
        Err(e) => refused(&e),
    }
}

/// `POST /api/tournament/{id}/result`: the creator, as arbiter, sets a finished board's
/// result (`round`, `board`, `result`).
pub(super) async fn correct(
    State(state): State<AppState>,
    Extension(Player(player)): Extension<Player>,
    Extension(signed): Extension<SignedIn>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Body<Fields>,
) -> Response {
    let me = match gate(&state, &headers, player, signed) {
        Ok(m) => m,
        Err(r) => return *r,
    };
    let fields = body.into_value();
    let number = |name: &str| field_text(&fields, name).and_then(|v| v.trim().parse::<u32>().ok());
    let result = field_text(&fields, "result").and_then(|r| BoardResult::parse(&r));
    let (Some(round), Some(board), Some(result)) = (number("round"), number("board"), result)
    else {
        return api::error(
            StatusCode::BAD_REQUEST,
            "round, board and result (1-0, 0-1, 1/2-1/2, +/-, -/+, -/-)",
        );
    };
    match state
        .director
        .correct(&id, &me.player, round, board, result)
        .await
    {
        Ok(_) => api::ok(),
        Err(e) => refused(&e),
    }
}

/// `POST /api/tournament/{id}/player/{number}`: the creator enters a player's title,
/// federation and sex (for the TRF and the title norms).
pub(super) async fn player_details(
    State(state): State<AppState>,
    Extension(Player(player)): Extension<Player>,
    Extension(signed): Extension<SignedIn>,
    Path((id, number)): Path<(String, u32)>,
    headers: HeaderMap,
    body: Body<Fields>,
) -> Response {
    let me = match gate(&state, &headers, player, signed) {
        Ok(m) => m,
        Err(r) => return *r,
    };
    let fields = body.into_value();
    let details = Details {
        title: field_text(&fields, "title"),
        federation: field_text(&fields, "federation"),
        sex: field_text(&fields, "sex").and_then(|s| s.trim().chars().next()),
    };
    match state
        .director
        .set_details(&id, &me.player, number, details)
        .await
    {
        Ok(_) => api::ok(),
        Err(e) => refused(&e),
    }
}

#[derive(Deserialize)]
pub(super) struct TrfQuery {
    version: Option<String>,
}

/// `GET /api/tournament/{id}/trf`.
pub(super) async fn trf(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<TrfQuery>,
) -> Response {
    let t = match state.director.get(&id).await {
        Ok(Some(t)) => t,
        Ok(None) => return refused(&CompeteError::NotFound),
        Err(e) => return refused(&e),
    };
    if t.is_arena() || t.is_simul() {
        return refused(&CompeteError::Settings(
            "only round robins and Swiss tournaments have a TRF".into(),
        ));
    }
    let version = match q.version.as_deref() {
        Some("16") => vizier_pairing::trf::Version::Trf16,
        _ => vizier_pairing::trf::Version::Trf2026,
    };
    let text = report::to_trf(&t, true).write(version);
    (
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"vizier-tournament-{}.trf\"", t.id),
            ),
        ],
        text,
    )
        .into_response()
}

/// `GET /api/tournament/{id}/games`: every game made, by round and board, in PGN with the
/// tournament's `Event` and `Round` (`round.board`).
pub(super) async fn games(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let t = match state.director.get(&id).await {
        Ok(Some(t)) => t,
        Ok(None) => return refused(&CompeteError::NotFound),
        Err(e) => return refused(&e),
    };
    // Each game with its `Round` tag: `round.board`, or an arena's running count.
    let mut listed: Vec<(String, &str)> = Vec::new();
    for round in &t.rounds {
        for (b, board) in round.boards.iter().enumerate() {
            if let Some(game) = &board.game {
                listed.push((format!("{}.{}", round.number, b + 1), game));
            }
        }
    }
    for (i, g) in t.arena_games.iter().enumerate() {
        listed.push(((i + 1).to_string(), &g.game));
    }
    let mut out = String::new();
    {
        for (tag, game) in listed {
            let row = match state.hub.store.game(game).await {
                Ok(Some(row)) => row,
                Ok(None) => continue,
                Err(e) => return refused(&CompeteError::Store(e)),
            };
            let archived = match crate::archive::load(
                &state.hub.store,
                row,
                state.hub.site().as_deref(),
            )
            .await
            {
                Ok(a) => a,
                Err(e) => {
                    tracing::warn!(%game, "a tournament's game: {e}");
                    continue;
                }
            };
            let pgn = archived.described.pgn(&archived.game);
            let event = t.name.replace(['"', '\\'], "");
            for line in pgn.lines() {
                if line.starts_with("[Event ") {
                    out.push_str(&format!("[Event \"{event}\"]\n"));
                } else if line.starts_with("[Round ") {
                    out.push_str(&format!("[Round \"{tag}\"]\n"));
                } else {
                    out.push_str(line);
                    out.push('\n');
                }
            }
            if !out.ends_with("\n\n") {
                out.push('\n');
            }
        }
    }
    (
        [
            (
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"vizier-tournament-{}.pgn\"", t.id),
            ),
        ],
        out,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(pairs: &[(&str, &str)]) -> Fields {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), Value::String(v.to_string())))
            .collect()
    }

    #[test]
    fn settings_are_read_from_a_form() {
        let f = fields(&[
            ("name", "Thursday Swiss"),
            ("format", "swiss"),
            ("nbRounds", "5"),
            ("clock.limit", "180"),
            ("clock.increment", "2"),
            ("minRating", "1200"),
            ("startsIn", "10"),
        ]);
        let s = settings(&f, 1_000).unwrap();
        assert_eq!(
            s.format,
            Format::Swiss {
                rounds: 5,
                edition2017: false
            }
        );
        assert_eq!(s.control, "180+2");
        assert_eq!(s.starts_at, 1_000 + 600_000);
        assert!(s.rated);
        assert_eq!(
            s.entry,
            Entry::Rating {
                min: Some(1200),
                max: None
            }
        );
        let rr = settings(
            &fields(&[("format", "doubleRoundRobin"), ("invited", "ann, Bob")]),
            0,
        )
        .unwrap();
        assert_eq!(rr.format, Format::RoundRobin { double: true });
        assert_eq!(
            rr.entry,
            Entry::Invite {
                names: vec!["ann".into(), "Bob".into()]
            }
        );
        let arena = settings(&fields(&[("format", "arena"), ("minutes", "45")]), 0).unwrap();
        assert_eq!(
            arena.format,
            Format::Arena {
                minutes: 45,
                streaks: true,
                berserk: true
            }
        );
        assert!(settings(&fields(&[("format", "knockout")]), 0).is_err());
        assert!(settings(&fields(&[("nbRounds", "-3")]), 0).is_err());
    }
}
