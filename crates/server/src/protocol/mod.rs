//! The WebSocket protocol, version 1 (documented for client writers in `docs/protocol.md`).
//!
//! Each connection to `/api/games/{id}/socket` receives a full `state` at once and after every
//! change; a client that reconnects simply gets the current `state` again (resync is the same
//! message). Client messages carry an optional `id` that the server echoes in its `ack` (sent
//! only after the command is stored) or `error`.
//!
//! These types are the wire's own: the database's ([`vizier_store::record`]) are converted to and
//! from them explicitly, so that a change of either format cannot change the other.

mod error;
mod state;

use serde::{Deserialize, Serialize};
use vizier_arbiter::Claim;
use vizier_play::ids::GameId;
use vizier_rules::Color;

pub use error::ErrorCode;
pub use state::{
    AdjournPhase, AdjournmentView, ClaimsView, ClockView, GoneView, InfractionsView, Live,
    MoveEvent, MoveView, OpeningView, PlayerView, ResultView, State, Status,
};

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
    pub side: Option<Color>,
    /// The client's own name for this action (at most 64 characters): sent again, as after
    /// an acknowledgement lost with the connection, it gets the first answer again and is
    /// not done twice.
    #[serde(default)]
    pub key: Option<String>,
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
        claim: Claim,
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
    /// The opponent left and has been gone long enough: claim the win, or a draw.
    ClaimLeft {
        #[serde(default)]
        draw: bool,
    },
    /// Over the board without an arbiter: claim that the opponent's last move, which stands
    /// unless claimed, was illegal (Appendix A.5).
    ClaimIllegal,
    /// Ask to adjourn (or agree to the opponent's asking): the player to move then seals.
    Adjourn,
    /// Seal the move, unseen by the opponent until the game resumes.
    Seal {
        #[serde(alias = "san")]
        uci: String,
    },
    /// Ask to resume an adjourned game (or agree): the sealed move is made.
    Resume,
    /// Blindfold: this player looked at the board; the scoresheet notes it.
    Peek,
    /// Arena: halve one's own clock, without increment.
    Berserk,
    /// Ask for the current state again.
    Resync,
    Ping,
}
impl From<ClientMessage> for vizier_play::Act {
    fn from(m: ClientMessage) -> vizier_play::Act {
        use vizier_play::Action as A;
        let action = match m.action {
            Action::Move { uci } => A::Move { uci },
            Action::OfferDraw => A::OfferDraw,
            Action::AcceptDraw => A::AcceptDraw,
            Action::DeclineDraw => A::DeclineDraw,
            Action::ClaimDraw { claim, declared } => A::ClaimDraw { claim, declared },
            Action::Resign => A::Resign,
            Action::Abort => A::Abort,
            Action::Takeback => A::Takeback,
            Action::AcceptTakeback => A::AcceptTakeback,
            Action::DeclineTakeback => A::DeclineTakeback,
            Action::Join { invite } => A::Join { invite },
            Action::Rematch => A::Rematch,
            Action::ClaimLeft { draw } => A::ClaimLeft { draw },
            Action::ClaimIllegal => A::ClaimIllegal,
            Action::Adjourn => A::Adjourn,
            Action::Seal { uci } => A::Seal { uci },
            Action::Resume => A::Resume,
            Action::Peek => A::Peek,
            Action::Berserk => A::Berserk,
            Action::Resync => A::Resync,
            Action::Ping => A::Ping,
        };
        vizier_play::Act {
            side: m.side,
            key: m.key,
            action,
        }
    }
}

/// A message from the server.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "t", rename_all = "kebab-case")]
pub enum ServerMessage {
    /// The whole game as this viewer may see it.
    State(Box<State>),
    /// One move, and what changed with it.
    Move(Box<MoveEvent>),
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
        game: GameId,
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
                claim: Claim::Threefold,
                declared: Some("Nf3".into())
            }
        );
        let m: ClientMessage = serde_json::from_str(r#"{"t":"resign","side":"black"}"#).unwrap();
        assert_eq!((m.action, m.side), (Action::Resign, Some(Color::Black)));
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
