//! The WebSocket protocol, version 1 (documented for client writers in `docs/protocol.md`).
//!
//! Each connection to `/api/games/{id}/socket` receives a full `state` at once and after every
//! change; a client that reconnects simply gets the current `state` again (resync is the same
//! message). Client messages carry an optional `id` that the server echoes in its `ack` (sent
//! only after the command is stored) or `error`.

use serde::{Deserialize, Serialize};

use crate::record::{ClaimKind, Kind, Side};

/// The protocol version, in every server message as `v`.
pub const VERSION: u32 = 1;

/// A message from a client.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct ClientMessage {
    /// Echoed in the `ack` or `error`.
    #[serde(default)]
    pub id: Option<u64>,
    /// In a same-device game, which side acts (default: the side the action belongs to).
    #[serde(default)]
    pub side: Option<Side>,
    #[serde(flatten)]
    pub action: Action,
}

/// What the client asks for.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "t", rename_all = "kebab-case")]
pub enum Action {
    /// A move in UCI (`e2e4`, `e7e8q`; Chess960 castling as king-takes-rook) or SAN.
    Move {
        #[serde(alias = "san")]
        uci: String,
    },
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    /// Claim a draw now, or with a declared move (which is then played).
    ClaimDraw {
        claim: ClaimKind,
        #[serde(default)]
        declared: Option<String>,
    },
    Resign,
    Abort,
    Takeback,
    AcceptTakeback,
    DeclineTakeback,
    /// Take the open seat of a friend game, with the invite token from the link.
    Join {
        invite: String,
    },
    /// Ask for (or, when the opponent asked, agree to) a new game with colours swapped.
    Rematch,
    /// Ask for the current state again.
    Resync,
    Ping,
}

/// An error code: stable words a client can act on; the message is for people.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorCode {
    /// Not JSON, or not a message of this protocol.
    BadMessage,
    /// Too many messages: slow down.
    RateLimited,
    /// A spectator, or a side that is not yours.
    NotYourSide,
    /// The arbiter refused (illegal move, not your turn, no offer to answer…).
    Refused,
    /// The game is over.
    GameOver,
    /// The invite token is wrong or the seat is taken.
    BadInvite,
    /// The command could not be stored; nothing changed: try again.
    Storage,
}

/// A message from the server.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "t", rename_all = "kebab-case")]
pub enum ServerMessage {
    /// The whole game as this viewer may see it.
    State(Box<State>),
    /// The command with this id is stored and applied.
    Ack {
        id: Option<u64>,
    },
    /// The command with this id was refused; nothing changed.
    Error {
        id: Option<u64>,
        code: ErrorCode,
        message: String,
    },
    /// A rematch was agreed: the new game's id.
    Rematch {
        game: String,
    },
    Pong {
        id: Option<u64>,
    },
}

/// A server message as sent: with the protocol version.
#[derive(Serialize)]
struct Envelope<'a> {
    v: u32,
    #[serde(flatten)]
    message: &'a ServerMessage,
}

impl ServerMessage {
    /// The JSON text sent over the socket.
    pub fn to_json(&self) -> String {
        serde_json::to_string(&Envelope {
            v: VERSION,
            message: self,
        })
        .expect("server messages always serialise")
    }
}

/// One move in the move list.
#[derive(Clone, Debug, Serialize)]
pub struct MoveView {
    pub san: String,
    pub uci: String,
    /// The mover's clock after the move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<u64>,
    /// The FEN after the move (for stepping through the game).
    pub fen: String,
    /// The mover offered a draw with this move.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub offer: bool,
}

/// A player.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum PlayerView {
    Human {
        /// Has a connection open now.
        online: bool,
    },
    Computer {
        level: u8,
        /// Measured Elo of the level, once measured.
        #[serde(skip_serializing_if = "Option::is_none")]
        elo: Option<u32>,
    },
    /// The invited friend has not come yet.
    Open,
}

/// The clocks at `server_time`.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClockView {
    /// Time left, ms.
    pub white: u64,
    pub black: u64,
    /// Whose clock runs.
    pub running: Option<Side>,
    /// Of a simple delay, what is left for the running side before its main time moves.
    pub delay_left: u64,
    /// The control in PGN form, e.g. "300+3" or "40/5400+30:1800+30".
    pub control: String,
    /// For controls with move counts: per side, moves still to make in the current period.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves_to_go: Option<[Option<u32>; 2]>,
}

/// How the game ended.
#[derive(Clone, Debug, Serialize)]
pub struct ResultView {
    /// "1-0", "0-1", "1/2-1/2" or "*".
    pub pgn: String,
    /// "1–0", "½–½", …
    pub score: String,
    /// A stable code: "checkmate", "fivefold-repetition", …
    pub reason: String,
    /// The FIDE article, e.g. "9.6.1".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub article: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<Side>,
}

/// Draw claims the player to move could make now.
#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClaimsView {
    /// The position has occurred three times.
    pub threefold: bool,
    /// Fifty moves by each side without capture or pawn move.
    pub fifty: bool,
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// A friend game waiting for the friend.
    Waiting,
    Playing,
    Over,
}

/// The game as one viewer sees it.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct State {
    pub game: String,
    /// Increases with every change.
    pub version: u64,
    pub kind: Kind,
    pub status: Status,
    pub chess960: bool,
    pub initial_fen: String,
    pub fen: String,
    pub turn: Side,
    pub check: bool,
    pub moves: Vec<MoveView>,
    /// The sides this viewer plays (none: a spectator; both: a same-device game).
    pub you: Vec<Side>,
    pub white: PlayerView,
    pub black: PlayerView,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockView>,
    /// Server time (Unix ms) at which the clocks were read.
    pub server_time: u64,
    /// Legal moves from each square, in UCI squares, for the viewer's side to move only.
    pub dests: std::collections::BTreeMap<String, Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_offer: Option<Side>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub takeback: Option<Side>,
    pub takebacks: bool,
    pub claims: ClaimsView,
    pub can_abort: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultView>,
    /// The invite token, to the player who created a waiting friend game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    /// A rematch asked for by this side.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rematch: Option<Side>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_messages_parse() {
        let m: ClientMessage = serde_json::from_str(r#"{"t":"move","id":3,"uci":"e2e4"}"#).unwrap();
        assert_eq!(m.id, Some(3));
        assert_eq!(m.action, Action::Move { uci: "e2e4".into() });
        let m: ClientMessage =
            serde_json::from_str(r#"{"t":"claim-draw","claim":"threefold","declared":"Nf3"}"#)
                .unwrap();
        assert_eq!(
            m.action,
            Action::ClaimDraw {
                claim: ClaimKind::Threefold,
                declared: Some("Nf3".into())
            }
        );
        let m: ClientMessage = serde_json::from_str(r#"{"t":"resign","side":"black"}"#).unwrap();
        assert_eq!((m.action, m.side), (Action::Resign, Some(Side::Black)));
        for bad in [
            "",
            "{}",
            r#"{"t":"fly"}"#,
            r#"{"t":"move"}"#,
            "[1,2]",
            "\u{0}",
        ] {
            assert!(serde_json::from_str::<ClientMessage>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn server_messages_carry_the_version() {
        let json = ServerMessage::Ack { id: Some(9) }.to_json();
        assert_eq!(json, r#"{"v":1,"t":"ack","id":9}"#);
        let json = ServerMessage::Error {
            id: None,
            code: ErrorCode::RateLimited,
            message: "slow down".into(),
        }
        .to_json();
        assert!(json.contains(r#""code":"rate-limited""#), "{json}");
    }
}
