//! The games' JSON API: creating a game (its time control and level checked by the game
//! policy) and a game's PGN.

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};
use vizier_arbiter::{Mode, Options, Setup, StartPosition, TimeControl};
use vizier_play::ids::GameId;
use vizier_rules::{Color, Language, PieceStyle};

use super::{AppState, Player, bad_request, not_found, refusal};
use crate::protocol::ErrorCode;
use vizier_play::hub::{HubError, NewGame};
use vizier_store::record::{Kind, Seat};

/// A request for a new game, from the home page.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateGame {
    pub kind: Kind,
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
    /// Same-device games: "supervised" or "unsupervised" arbiter mode, where any move can
    /// be made on the board and the Laws' penalties apply; none for ordinary play.
    #[serde(default)]
    pub arbiter: Option<String>,
    /// Same-device games: moving one's king into check is a foul, and three lose.
    #[serde(default)]
    pub king_fouls: bool,
    /// Against the computer: it moves within a few seconds, whatever the clock.
    #[serde(default)]
    pub human_pace: bool,
    /// A start position in FEN instead of the usual one (a game from a position: never rated,
    /// never Chess960's random start).
    #[serde(default)]
    pub fen: Option<String>,
}

#[derive(Debug, Serialize)]
struct Created {
    id: GameId,
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
    let from = super::address::client(peer.map(|p| p.0.0), &headers, state.trust_forwarded_for)
        .map(|a| a.to_string());
    match create_game(&state, &player, from.as_deref(), req).await {
        Ok(id) => (StatusCode::CREATED, Json(Created { id })).into_response(),
        Err(refused) => refused,
    }
}

/// Creates the game `req` asks for, for `player` from address `from`: its id, or the
/// refusal to answer.
pub(super) async fn create_game(
    state: &AppState,
    player: &vizier_play::ids::PlayerId,
    from: Option<&str>,
    req: CreateGame,
) -> Result<GameId, Response> {
    let control = match TimeControl::parse_pgn(req.time_control.as_deref().unwrap_or("-")) {
        Ok(tc) => tc,
        Err(e) => return Err(bad_request(e.to_string())),
    };
    if let Err(e) = vizier_play::policy::check_control(&control) {
        return Err(bad_request(e.to_string()));
    }
    let level = req.level.unwrap_or(3);
    if let Err(e) = vizier_play::policy::check_level(level) {
        return Err(bad_request(e.to_string()));
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
        other => {
            return Err(bad_request(format!(
                "colour \"{other}\": white, black or random"
            )));
        }
    };
    let kind = req.kind;
    let mode = match req.arbiter.as_deref() {
        None | Some("" | "off") => Mode::Online,
        Some("supervised") => Mode::OverTheBoard { supervised: true },
        Some("unsupervised") => Mode::OverTheBoard { supervised: false },
        Some(other) => {
            return Err(bad_request(format!(
                "arbiter mode \"{other}\": supervised, unsupervised or off"
            )));
        }
    };
    if (mode != Mode::Online || req.king_fouls) && kind != Kind::Local {
        return Err(bad_request(
            "arbiter mode and king fouls are for games on one device",
        ));
    }
    if req.fen.is_some() && (req.rated || req.chess960) {
        return Err(bad_request(
            "a game from a position is neither rated nor Chess960",
        ));
    }
    let takebacks = req.takebacks.unwrap_or(kind != Kind::Friend && !req.rated);
    let mut setup = match kind {
        // On one device the clocks start as over the board.
        Kind::Local => Setup {
            start: if req.chess960 {
                StartPosition::chess960_random()
            } else {
                StartPosition::Standard
            },
            control,
            mode,
            options: Options {
                takebacks,
                king_into_check_fouls: req.king_fouls.then_some(3),
                ..Options::default()
            },
            ..Setup::default()
        },
        _ => vizier_play::hub::online_setup(control, req.chess960, takebacks),
    };
    if let Some(fen) = req.fen {
        setup.start = StartPosition::Fen(fen);
    }
    let new = NewGame {
        kind,
        setup,
        color,
        level,
        opponent: (kind == Kind::Computer).then_some(Seat::Computer {
            level,
            quick: req.human_pace,
        }),
        rated: req.rated,
    };
    let creator = vizier_play::policy::Party::new(player, from);
    state
        .hub
        .create(&[creator], new)
        .await
        .map_err(|e| match e {
            e @ HubError::TooManyNewGames(_) => refusal(
                StatusCode::TOO_MANY_REQUESTS,
                ErrorCode::TooManyNewGames,
                e.to_string(),
            ),
            e @ HubError::TooManyComputerGames(_) => refusal(
                StatusCode::TOO_MANY_REQUESTS,
                ErrorCode::TooManyGames,
                e.to_string(),
            ),
            HubError::Setup(e) => bad_request(e.to_string()),
            e @ (HubError::BadControl(_) | HubError::BadLevel(_)) => bad_request(e.to_string()),
            e @ HubError::NotRateable(_) => bad_request(e.to_string()),
            e @ HubError::RatedNeedsAccount => refusal(
                StatusCode::UNAUTHORIZED,
                ErrorCode::RatedNeedsAccount,
                e.to_string(),
            ),
            e @ HubError::TooManyGames(_) => refusal(
                StatusCode::TOO_MANY_REQUESTS,
                ErrorCode::TooManyGames,
                e.to_string(),
            ),
            e => {
                tracing::error!("creating a game: {e}");
                refusal(
                    StatusCode::SERVICE_UNAVAILABLE,
                    ErrorCode::Storage,
                    "the game could not be stored; try again",
                )
            }
        })
}

/// The PGN's query: `notation` names the pieces as a player's scoresheet does.
#[derive(Debug, Deserialize)]
pub struct PgnQuery {
    /// `san` (the default), `figurine`, or a language's initials: `de`, `fr`, `es`, `it`,
    /// `nl`, `zh` (Appendix C.3).
    #[serde(default)]
    pub notation: Option<String>,
    /// With the game's review, where it has one: `[%eval]` comments and `?!`, `?`, `??`.
    #[serde(default)]
    pub evals: bool,
}

/// The piece style a `notation` names.
pub(crate) fn piece_style(notation: Option<&str>) -> Option<PieceStyle> {
    Some(match notation.unwrap_or("san") {
        "san" | "en" => PieceStyle::Letters(Language::English),
        "figurine" => PieceStyle::Figurine,
        "de" => PieceStyle::Letters(Language::German),
        "fr" => PieceStyle::Letters(Language::French),
        "es" => PieceStyle::Letters(Language::Spanish),
        "it" => PieceStyle::Letters(Language::Italian),
        "nl" => PieceStyle::Letters(Language::Dutch),
        "zh" => PieceStyle::Letters(Language::Chinese),
        _ => return None,
    })
}

pub(super) async fn pgn(
    State(state): State<AppState>,
    super::game_path::GamePath(id): super::game_path::GamePath,
    Query(query): Query<PgnQuery>,
) -> Response {
    let Some(style) = piece_style(query.notation.as_deref()) else {
        return bad_request("notation: san, figurine, de, fr, es, it, nl or zh");
    };
    let annotated = if query.evals {
        annotated_pgn(&state, id.as_str(), style).await
    } else {
        None
    };
    let pgn = match annotated {
        Some(pgn) => Some(pgn),
        None => match state.hub.game(&id).await {
            Ok(handle) => match handle.export().await {
                Some((game, round)) => {
                    let described = crate::archive::Described::of_round(
                        &round,
                        state.hub.site(),
                        state.hub.now(),
                    );
                    Some(described.pgn_styled(&game, style))
                }
                // Not begun (or its task just ended): an empty PGN, as before.
                None => (!handle.is_closed()).then(String::new),
            },
            Err(_) => None,
        },
    };
    match pgn {
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

/// The finished game `id` in PGN with its review's annotations; none without a review.
async fn annotated_pgn(state: &AppState, id: &str, style: PieceStyle) -> Option<String> {
    use crate::analysis::review::Review;
    let json = state.hub.store.review(id).await.ok()??;
    let review: Review = serde_json::from_str(&json).ok()?;
    let row = state.hub.store.game(id).await.ok()??;
    let archived = crate::archive::load(&state.hub.store, row, state.hub.site().as_deref())
        .await
        .ok()?;
    let played: Vec<String> = archived
        .game
        .plies()
        .iter()
        .map(|p| p.uci.to_string())
        .collect();
    Some(
        archived
            .described
            .pgn_annotated(&archived.game, style, &review.annotations(&played)),
    )
}
