//! The WebSocket protocol, version 1 (documented for client writers in `docs/protocol.md`).
//!
//! Each connection to `/api/games/{id}/socket` receives a full `state` at once and after every
//! change; a client that reconnects simply gets the current `state` again (resync is the same
//! message). Client messages carry an optional `id` that the server echoes in its `ack` (sent
//! only after the command is stored) or `error`.
//!
//! These types are the wire's own: the database's ([`crate::record`]) are converted to and
//! from them explicitly, so that a change of either format cannot change the other.

use serde::{Deserialize, Serialize};
use vizier_arbiter::{Claim, CommandError};
use vizier_rules::Color;

/// The protocol version, in every server message as `v`.
pub const VERSION: u32 = 1;

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        c.fold(Side::White, Side::Black)
    }
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

/// What kind of game: who may join, and how the page looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameKind {
    /// Against the engine.
    Computer,
    /// Against a friend online, by invite link.
    Friend,
    /// Two people at one device.
    Local,
}

/// A draw claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClaimKind {
    /// Art. 9.2.
    Threefold,
    /// Art. 9.3.
    Fifty,
}

impl From<ClaimKind> for Claim {
    fn from(c: ClaimKind) -> Claim {
        match c {
            ClaimKind::Threefold => Claim::Threefold,
            ClaimKind::Fifty => Claim::FiftyMoves,
        }
    }
}

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

/// Why a message was refused: stable words that a client acts on and translates (the web
/// client's `error.<code>`); the message beside it is English, for people and logs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorCode {
    /// Not JSON, or not a message of this protocol.
    BadMessage,
    /// Too many messages: slow down.
    RateLimited,
    /// A spectator tried to act in the game.
    Spectator,
    /// The player asked to act for a side that is not theirs.
    NotYourSide,
    /// A friend game whose friend has not come yet.
    NotStarted,
    /// The game is over.
    GameOver,
    /// Only a finished game can be rematched.
    GameNotOver,
    /// The invite token is wrong, or the seat is taken.
    BadInvite,
    /// The creator of a friend game opened their own invite.
    OwnInvite,
    /// The browser sent no player cookie.
    NoPlayerCookie,
    /// The command could not be stored; nothing changed: try again.
    Storage,
    /// It is the other player's move.
    NotYourTurn,
    /// The move could not be read, or is not legal here.
    IllegalMove,
    /// There is no draw offer to answer.
    NoOffer,
    /// This player's draw offer is already standing.
    AlreadyOffered,
    /// A draw can be agreed only after both players have moved.
    TooEarlyForDraw,
    /// The event allows no draw offers yet.
    OffersNotYet,
    /// The last offer was declined a short while ago.
    OfferCooldown,
    /// Only the player to move may claim a draw.
    NotYourClaim,
    /// Both players have moved: the game can no longer be aborted.
    TooLateToAbort,
    /// Takebacks are off in this game.
    TakebacksOff,
    /// There is no takeback to ask for or to answer.
    NoTakeback,
    /// The game is adjourned: only sealing or resuming is possible.
    Adjourned,
    /// The game is not adjourned.
    NotAdjourned,
    /// There is no illegal move to claim.
    NothingToClaim,
    /// There is no piece of the player on that square.
    NoSuchPiece,
}

impl ErrorCode {
    /// Every code, for the tests that each one has its translations.
    pub const ALL: [ErrorCode; 26] = {
        use ErrorCode::*;
        [
            BadMessage,
            RateLimited,
            Spectator,
            NotYourSide,
            NotStarted,
            GameOver,
            GameNotOver,
            BadInvite,
            OwnInvite,
            NoPlayerCookie,
            Storage,
            NotYourTurn,
            IllegalMove,
            NoOffer,
            AlreadyOffered,
            TooEarlyForDraw,
            OffersNotYet,
            OfferCooldown,
            NotYourClaim,
            TooLateToAbort,
            TakebacksOff,
            NoTakeback,
            Adjourned,
            NotAdjourned,
            NothingToClaim,
            NoSuchPiece,
        ]
    };

    /// The code as sent, e.g. `not-your-turn`.
    pub fn as_str(self) -> String {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::String(code)) => code,
            _ => unreachable!("error codes serialise as strings"),
        }
    }
}

impl From<&CommandError> for ErrorCode {
    fn from(e: &CommandError) -> ErrorCode {
        match e {
            CommandError::GameOver => ErrorCode::GameOver,
            // The server orders commands itself; a client cannot cause this.
            CommandError::TimeWentBackwards => ErrorCode::Storage,
            CommandError::NotYourTurn => ErrorCode::NotYourTurn,
            CommandError::BadMove(_) => ErrorCode::IllegalMove,
            CommandError::NoOffer => ErrorCode::NoOffer,
            CommandError::AlreadyOffered => ErrorCode::AlreadyOffered,
            CommandError::TooEarlyForDraw => ErrorCode::TooEarlyForDraw,
            CommandError::OffersNotYet(_) => ErrorCode::OffersNotYet,
            CommandError::OfferCooldown => ErrorCode::OfferCooldown,
            CommandError::NotYourClaim => ErrorCode::NotYourClaim,
            CommandError::TooLateToAbort => ErrorCode::TooLateToAbort,
            CommandError::TakebacksOff => ErrorCode::TakebacksOff,
            CommandError::NoTakeback => ErrorCode::NoTakeback,
            CommandError::Adjourned => ErrorCode::Adjourned,
            CommandError::NotAdjourned => ErrorCode::NotAdjourned,
            CommandError::NothingToClaim => ErrorCode::NothingToClaim,
            CommandError::NoSuchPiece => ErrorCode::NoSuchPiece,
        }
    }
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
    /// The code of the table of endings: "checkmate", "fivefold-repetition", …
    pub reason: &'static str,
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
    pub kind: GameKind,
    pub status: Status,
    pub chess960: bool,
    /// The time control in PGN form ("-": none), also before the game begins.
    pub time_control: String,
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

    /// Every ending and every error code has its words in both of the web client's languages,
    /// and its place in the client's types.
    #[test]
    fn the_web_client_translates_every_code() {
        let i18n = include_str!("../../../web/src/i18n.ts");
        let api = include_str!("../../../web/src/api.ts");
        let keys = vizier_rules::ENDINGS
            .iter()
            .map(|e| ("reason", e.code.to_string()))
            .chain(ErrorCode::ALL.iter().map(|c| ("error", c.as_str())));
        for (kind, code) in keys {
            let key = format!("'{kind}.{code}':");
            assert_eq!(i18n.matches(&key).count(), 2, "{key} in en and zh");
            assert!(api.contains(&format!("'{code}'")), "{code} in api.ts");
        }
    }

    #[test]
    fn arbiter_refusals_have_their_own_codes() {
        let e = CommandError::NotYourTurn;
        assert_eq!(ErrorCode::from(&e).as_str(), "not-your-turn");
        let bad = CommandError::BadMove(vizier_rules::MoveParseError::Illegal("e2e5".into()));
        assert_eq!(ErrorCode::from(&bad).as_str(), "illegal-move");
        assert_eq!(ErrorCode::from(&CommandError::NoOffer).as_str(), "no-offer");
    }
}
