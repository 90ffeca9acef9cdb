//! A bot's or a board's game: its stream (`/api/{bot|board}/game/stream/{id}`), a subscriber
//! of the game's events like the browser's socket, and its commands (`…/game/{id}/move/{uci}`,
//! `resign`, `abort`, `draw/{yes|no}`, `takeback/{yes|no}`, `claim-victory`, `claim-draw`,
//! `chat`), which go to the game's actor as a browser's do.

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;
use vizier_arbiter::Claim;
use vizier_play::act::{Act, Action};
use vizier_play::ids::{GameId, PlayerId};
use vizier_play::round::{Answer, Connected, GameEvent, GameHandle, Snapshot, leave_wait_ms};
use vizier_rules::Color;

use super::auth::require;
use super::ndjson::{self, KEEP_ALIVE, Lines};
use super::streams::{Kind, Open};
use super::{error, ok, view};
use crate::account::Account;
use crate::account::token::Scope;
use crate::http::address::ClientAddress;
use crate::http::{AppState, SignedIn};
use vizier_play::HubError;

/// Which of lichess's two play APIs a request came through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Api {
    Bot,
    Board,
}

/// The account acting through `api`: a bot account with `bot:play` on the Bot API, any
/// other with `board:play` on the Board API.
pub(crate) fn player_of(signed: SignedIn, api: Api) -> Result<Account, Response> {
    let scope = match api {
        Api::Bot => Scope::BotPlay,
        Api::Board => Scope::BoardPlay,
    };
    let account = require(signed, &[scope])?;
    match api {
        Api::Bot if !account.is_bot() => Err(error(
            StatusCode::BAD_REQUEST,
            "This endpoint can only be used with a Bot account. See /api/bot/account/upgrade",
        )),
        Api::Board if account.is_bot() => Err(error(
            StatusCode::FORBIDDEN,
            "This API endpoint is not for Bot accounts.",
        )),
        _ => Ok(account),
    }
}

/// The live game `id`.
async fn game(state: &AppState, id: &str) -> Result<GameHandle, Response> {
    let no_such_game = || error(StatusCode::NOT_FOUND, "No such game");
    let id = GameId::parse(id).ok_or_else(no_such_game)?;
    match state.hub.game(&id).await {
        Ok(handle) => Ok(handle),
        Err(HubError::NotFound) => Err(no_such_game()),
        Err(e) => {
            tracing::warn!(game = %id, "opening a game for the API: {e}");
            Err(error(
                StatusCode::SERVICE_UNAVAILABLE,
                "the game could not be loaded",
            ))
        }
    }
}

/// The moves of a whole snapshot, in UCI.
fn moves_of(round: &Snapshot) -> Vec<String> {
    (round.moves.iter().flat_map(|m| m.iter()))
        .map(|m| m.ply.uci.to_string())
        .collect()
}

/// `GET /api/bot/game/stream/{id}`.
pub(crate) async fn bot_stream(
    state: State<AppState>,
    signed: Extension<SignedIn>,
    id: Path<String>,
    address: ClientAddress,
) -> Response {
    stream(state, signed, id, address, Api::Bot).await
}

/// `GET /api/board/game/stream/{id}`.
pub(crate) async fn board_stream(
    state: State<AppState>,
    signed: Extension<SignedIn>,
    id: Path<String>,
    address: ClientAddress,
) -> Response {
    stream(state, signed, id, address, Api::Board).await
}

async fn stream(
    State(state): State<AppState>,
    Extension(signed): Extension<SignedIn>,
    Path(id): Path<String>,
    address: ClientAddress,
    api: Api,
) -> Response {
    let account = match player_of(signed, api) {
        Ok(a) => a,
        Err(r) => return r,
    };
    let handle = match game(&state, &id).await {
        Ok(h) => h,
        Err(r) => return r,
    };
    let Some(open) = state.api.streams.open(&account, Kind::Game) else {
        return super::too_many();
    };
    let Some(connected) = handle.connect(Some(account.id.clone()), address.0).await else {
        return error(StatusCode::NOT_FOUND, "No such game");
    };
    let mine = connected.subscription.round.sides_of(Some(&account.id));
    let Some(&color) = mine.first() else {
        handle.disconnect(connected.conn).await;
        return error(StatusCode::NOT_FOUND, "Not your game");
    };
    let (lines, response) = ndjson::stream();
    let follower = Follower {
        state,
        handle,
        color,
        lines,
        moves: Vec::new(),
        gone_told: false,
    };
    tokio::spawn(follower.follow(connected, open));
    response
}

/// A game stream's task: what it has told its client.
struct Follower {
    state: AppState,
    handle: GameHandle,
    color: Color,
    lines: Lines,
    /// The moves so far, in UCI.
    moves: Vec<String>,
    /// Whether the client was told its opponent is gone.
    gone_told: bool,
}

impl Follower {
    async fn follow(mut self, connected: Connected, mut open: Open) {
        let Connected { conn, subscription } = connected;
        let mut updates = subscription.updates;
        let round = subscription.round;
        self.moves = moves_of(&round);
        let now = self.state.hub.now();
        let full = view::game_full(&round, &self.moves.join(" "), now);
        let mut going_on = self.lines.send(&full).await && !over(&round);
        going_on = going_on && self.tell_gone(&round).await;
        let mut shutdown = self.state.shutdown.clone();
        let mut keep_alive =
            tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
        while going_on {
            going_on = tokio::select! {
                update = updates.recv() => match update {
                    Ok(update) => self.on_update(&update.events, &update.round).await,
                    Err(RecvError::Lagged(_)) => self.resync().await,
                    Err(RecvError::Closed) => false,
                },
                _ = keep_alive.tick() => self.lines.keep_alive().await,
                () = self.lines.closed() => false,
                () = open.ended() => false,
                () = shutdown.stopping() => false,
            };
        }
        self.handle.disconnect(conn).await;
    }

    /// Tells the client what an update changed; false once the stream is to close.
    async fn on_update(&mut self, events: &[GameEvent], round: &Snapshot) -> bool {
        if round.moves.is_some() {
            self.moves = moves_of(round);
        } else if let Some(board) = &round.board {
            match (board.plies.checked_sub(self.moves.len()), &board.last) {
                (Some(0), _) => {}
                (Some(1), Some(last)) => self.moves.push(last.uci.to_string()),
                _ => return self.resync().await,
            }
        }
        let mut sent = true;
        let changes_state = events.iter().any(|e| {
            matches!(
                e,
                GameEvent::Arbiter(_) | GameEvent::Ended { .. } | GameEvent::Started
            )
        });
        if changes_state {
            let now = self.state.hub.now();
            sent = self
                .lines
                .send(&view::game_state(round, &self.moves.join(" "), now))
                .await;
        }
        for event in events {
            if let GameEvent::Chat(line) = event {
                let line = json!({"type": "chatLine", "room": line.room, "username": line.name, "text": line.text});
                sent = sent && self.lines.send(&line).await;
            }
        }
        sent && !over(round) && self.tell_gone(round).await
    }

    /// Tells the client whether its opponent has gone (and when the win may be claimed), when
    /// that changed.
    async fn tell_gone(&mut self, round: &Snapshot) -> bool {
        let wait = leave_wait_ms(&round.table.setup.control);
        let since = round.gone[(!self.color).index()];
        let gone = wait.is_some() && since.is_some() && !over(round);
        if gone == self.gone_told {
            return true;
        }
        self.gone_told = gone;
        let line = match (wait, since) {
            (Some(wait), Some(since)) if gone => {
                let left = (since + wait).saturating_sub(self.state.hub.now());
                json!({"type": "opponentGone", "gone": true, "claimWinInSeconds": left.div_ceil(1_000)})
            }
            _ => json!({"type": "opponentGone", "gone": false}),
        };
        self.lines.send(&line).await
    }

    /// After missing updates: the game as it stands, as a `gameState`.
    async fn resync(&mut self) -> bool {
        let Some((game, round)) = self.handle.export().await else {
            return false;
        };
        self.moves = game.plies().iter().map(|p| p.uci.to_string()).collect();
        let now = self.state.hub.now();
        self.lines
            .send(&view::game_state(&round, &self.moves.join(" "), now))
            .await
            && !over(&round)
    }
}

fn over(round: &Snapshot) -> bool {
    round.board.as_ref().is_some_and(|b| b.outcome.is_some()) || round.invite_ended.is_some()
}

/// Whether `s` is a move in UCI (`e2e4`, `e7e8q`).
fn is_uci(s: &str) -> bool {
    let b = s.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    (b.len() == 4 || (b.len() == 5 && b"qrbn".contains(&b[4])))
        && square(b[0], b[1])
        && square(b[2], b[3])
}

/// Passes `account`'s action on to game `id`: `{"ok": true}`, or the refusal as lichess's
/// 400.
async fn act(state: &AppState, account: &Account, id: &str, action: Action) -> Response {
    if let Err(r) = game(state, id).await {
        return r;
    }
    act_on(state, id, &account.id, action).await
}

/// Passes `player`'s action to game `id` (looked up already: its errors answered) through
/// the hub, which loads the game again if its idle task ended meanwhile.
async fn act_on(state: &AppState, id: &str, player: &PlayerId, action: Action) -> Response {
    let act = Act {
        side: None,
        key: None,
        action,
    };
    let answered = match GameId::parse(id) {
        Some(id) => state.hub.act_as(&id, player.clone(), act).await,
        None => None,
    };
    match answered {
        Some(answered) => match answered.answer {
            Answer::Refused(r) => error(StatusCode::BAD_REQUEST, r.message),
            _ => ok(),
        },
        None => error(StatusCode::NOT_FOUND, "No such game"),
    }
}

/// The game as it stands and the side `player` plays in it.
async fn standing(
    handle: &GameHandle,
    player: &PlayerId,
) -> Result<(std::sync::Arc<Snapshot>, Color), Response> {
    let Some((_, round)) = handle.export().await else {
        return Err(error(
            StatusCode::BAD_REQUEST,
            "Not your turn, or game already over",
        ));
    };
    let side = round.sides_of(Some(player)).first().copied();
    match side {
        Some(c) => Ok((round, c)),
        None => Err(error(StatusCode::NOT_FOUND, "Not your game")),
    }
}

/// A player at their game: acting through an API, seated in it.
struct Seated {
    account: Account,
    /// The game as it stands.
    round: std::sync::Arc<Snapshot>,
    /// The side they play.
    color: Color,
}

/// The player acting through the API named in the path (`bot` or `board`) in game `id`,
/// which they must play.
async fn seated(
    state: &AppState,
    signed: SignedIn,
    api: &str,
    id: &str,
) -> Result<Seated, Response> {
    let account = api_player(signed, api)?;
    let handle = game(state, id).await?;
    let (round, color) = standing(&handle, &account.id).await?;
    Ok(Seated {
        account,
        round,
        color,
    })
}

#[derive(Deserialize)]
pub(crate) struct MoveQuery {
    #[serde(rename = "offeringDraw", default)]
    offering_draw: Option<String>,
}

fn yes(s: &str) -> Option<bool> {
    match s {
        "yes" | "true" => Some(true),
        "no" | "false" => Some(false),
        _ => None,
    }
}

/// `POST /api/{bot|board}/game/{id}/move/{uci}` (`offeringDraw`: offer or accept a draw with
/// it).
pub(crate) async fn make_move(
    State(state): State<AppState>,
    Extension(signed): Extension<SignedIn>,
    Path((api, id, uci)): Path<(String, String, String)>,
    Query(query): Query<MoveQuery>,
) -> Response {
    let account = match api_player(signed, &api) {
        Ok(a) => a,
        Err(r) => return r,
    };
    if !is_uci(&uci) {
        return error(StatusCode::BAD_REQUEST, format!("Invalid UCI: {uci}"));
    }
    if let Err(r) = game(&state, &id).await {
        return r;
    }
    let moved = act_on(&state, &id, &account.id, Action::Move { uci }).await;
    if moved.status() == StatusCode::OK
        && query.offering_draw.as_deref().and_then(yes) == Some(true)
    {
        // The offer goes with the move; a refused one (made too often) leaves the move made.
        let _ = act_on(&state, &id, &account.id, Action::OfferDraw).await;
    }
    moved
}

/// The account acting through the API named in the path (`bot` or `board`).
fn api_player(signed: SignedIn, api: &str) -> Result<Account, Response> {
    match api {
        "bot" => player_of(signed, Api::Bot),
        "board" => player_of(signed, Api::Board),
        _ => Err(error(StatusCode::NOT_FOUND, "No such command")),
    }
}

/// `POST /api/{bot|board}/game/{id}/{command}`: `resign`, `abort`, `claim-victory`,
/// `claim-draw`.
pub(crate) async fn command(
    State(state): State<AppState>,
    Extension(signed): Extension<SignedIn>,
    Path((api, id, command)): Path<(String, String, String)>,
) -> Response {
    let Seated {
        account,
        round,
        color,
    } = match seated(&state, signed, &api, &id).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let Some(board) = &round.board else {
        return error(StatusCode::BAD_REQUEST, "the game has not started");
    };
    let action = match command.as_str() {
        // As on lichess, resigning a game that may still be aborted aborts it.
        "resign" if board.can_abort => Action::Abort,
        "resign" => Action::Resign,
        "abort" if !board.can_abort => {
            return error(
                StatusCode::BAD_REQUEST,
                "This game can no longer be aborted",
            );
        }
        "abort" => Action::Abort,
        // lichess's `POST /api/{bot|board}/game/{id}/berserk`.
        "berserk" => Action::Berserk,
        "claim-victory" => Action::ClaimLeft { draw: false },
        "claim-draw" => {
            let to_move = board.position.turn() == color;
            if to_move && board.claims.threefold {
                Action::ClaimDraw {
                    claim: Claim::Threefold,
                    declared: None,
                }
            } else if to_move && board.claims.fifty {
                Action::ClaimDraw {
                    claim: Claim::FiftyMoves,
                    declared: None,
                }
            } else if round.gone[(!color).index()].is_some() {
                Action::ClaimLeft { draw: true }
            } else {
                return error(
                    StatusCode::BAD_REQUEST,
                    "You cannot claim draw on this game",
                );
            }
        }
        _ => return error(StatusCode::NOT_FOUND, "No such command"),
    };
    act_on(&state, &id, &account.id, action).await
}

/// `POST /api/{bot|board}/game/{id}/{draw|takeback}/{yes|no}`: offers, or answers the
/// opponent's offer.
pub(crate) async fn answer(
    State(state): State<AppState>,
    Extension(signed): Extension<SignedIn>,
    Path((api, id, what, answer)): Path<(String, String, String, String)>,
) -> Response {
    let Some(accept) = yes(&answer) else {
        return error(StatusCode::BAD_REQUEST, "answer yes or no");
    };
    let Seated {
        account,
        round,
        color,
    } = match seated(&state, signed, &api, &id).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let board = round.board.as_ref();
    let action = match what.as_str() {
        "draw" => {
            let offered = board.and_then(|b| b.draw_offer) == Some(!color);
            match (accept, offered) {
                (true, true) => Action::AcceptDraw,
                (true, false) => Action::OfferDraw,
                (false, _) => Action::DeclineDraw,
            }
        }
        "takeback" => {
            let asked = board.and_then(|b| b.takeback) == Some(!color);
            match (accept, asked) {
                (true, true) => Action::AcceptTakeback,
                (true, false) => Action::Takeback,
                (false, _) => Action::DeclineTakeback,
            }
        }
        _ => return error(StatusCode::NOT_FOUND, "No such command"),
    };
    act_on(&state, &id, &account.id, action).await
}

#[derive(Deserialize)]
pub(crate) struct ChatLine {
    #[serde(default)]
    room: String,
    #[serde(default)]
    text: String,
}

/// `POST /api/{bot|board}/game/{id}/chat` (`room`: `player` or `spectator`, `text`).
pub(crate) async fn chat(
    State(state): State<AppState>,
    Extension(signed): Extension<SignedIn>,
    Path((api, id)): Path<(String, String)>,
    body: crate::http::body::Body<ChatLine>,
) -> Response {
    let account = match api_player(signed, &api) {
        Ok(a) => a,
        Err(r) => return r,
    };
    let line = body.into_value();
    act(
        &state,
        &account,
        &id,
        Action::Chat {
            room: line.room,
            text: line.text,
        },
    )
    .await
}

/// `GET /api/{bot|board}/game/{id}/chat`: the game's chat so far.
pub(crate) async fn chat_lines(
    State(state): State<AppState>,
    Extension(signed): Extension<SignedIn>,
    Path((api, id)): Path<(String, String)>,
) -> Response {
    let round = match seated(&state, signed, &api, &id).await {
        Ok(s) => s.round,
        Err(r) => return r,
    };
    let lines: Vec<Value> = (round.chat.iter())
        .filter(|l| l.room == "player")
        .map(|l| json!({"text": l.text, "user": l.name}))
        .collect();
    Json(lines).into_response()
}

#[cfg(test)]
mod tests {
    #[test]
    fn uci_is_four_or_five_characters() {
        assert!(super::is_uci("e2e4") && super::is_uci("e7e8q"));
        assert!(!super::is_uci("e2e9") && !super::is_uci("Nf3") && !super::is_uci("e7e8k"));
    }
}
