//! What the lobby holds and is asked: its members, seeks and challenges, and why a request
//! is refused. Shared by the lobby's logic ([`super::Lobby`]) and its state
//! ([`super::state`]).

use serde::Serialize;
use vizier_play::ids::{GameId, PlayerId};
use vizier_play::policy::Party;

/// How long a challenge waits for its answer.
pub const EXPIRY_MS: u64 = 20 * 60 * 1_000;

/// Why a challenge was declined (lichess's reasons).
pub const DECLINE_REASONS: [&str; 11] = [
    "generic",
    "later",
    "tooFast",
    "tooSlow",
    "timeControl",
    "rated",
    "casual",
    "standard",
    "variant",
    "noBot",
    "onlyBot",
];

/// A player of a challenge.
#[derive(Clone, Debug, Serialize)]
pub struct ChallengeUser {
    pub id: String,
    pub name: String,
    pub rating: i32,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub provisional: bool,
    /// `BOT` for a bot account.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip)]
    pub player: PlayerId,
}

impl ChallengeUser {
    pub fn is_bot(&self) -> bool {
        self.title.as_deref() == Some(crate::account::BOT)
    }
}

/// A challenge, in lichess's shape.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Challenge {
    pub id: String,
    pub status: String,
    pub challenger: ChallengeUser,
    pub dest_user: ChallengeUser,
    pub variant: Variant,
    pub rated: bool,
    pub speed: String,
    pub time_control: ChallengeClock,
    /// The challenger's colour: `white`, `black` or `random`.
    pub color: String,
    /// The challenger's colour as drawn when the challenge was made.
    pub final_color: &'static str,
    /// The start position, for a game from one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initial_fen: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decline_reason: Option<String>,
    /// The game, once accepted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<GameId>,
    pub created_at: u64,
    #[serde(skip)]
    pub control: String,
    #[serde(skip)]
    pub chess960: bool,
    /// The challenger's address.
    #[serde(skip)]
    pub address: Option<String>,
}

/// A challenge's variant, in lichess's shape.
#[derive(Clone, Debug, Serialize)]
pub struct Variant {
    /// `standard` or `chess960`.
    pub key: &'static str,
}

/// A challenge's clock, in lichess's shape.
#[derive(Clone, Debug, Serialize)]
pub struct ChallengeClock {
    /// `clock` or `correspondence`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// Seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub increment: Option<u64>,
    #[serde(rename = "daysPerTurn", skip_serializing_if = "Option::is_none")]
    pub days_per_turn: Option<u32>,
    /// As the home page shows it (`3+2`).
    pub show: String,
}

/// What a challenge asks for.
#[derive(Clone, Debug)]
pub struct ChallengeRequest {
    /// Seconds.
    pub limit: u64,
    /// Seconds.
    pub increment: u64,
    /// Days a move, for correspondence (instead of the clock).
    pub days: Option<u32>,
    pub color: String,
    pub rated: bool,
    pub chess960: bool,
    /// A start position, for a game from one.
    pub fen: Option<String>,
}

/// Who is in the lobby: a player by their id, with what the lobby shows of them.
#[derive(Clone, Debug)]
pub struct Member {
    pub player: PlayerId,
    /// The account's name; none for a guest.
    pub name: Option<String>,
    /// The address they came from, as the per-address limits count it; none when unknown.
    pub address: Option<String>,
}

impl Member {
    /// The party a new game of theirs is for.
    pub fn party(&self) -> Party {
        Party::new(&self.player, self.address.as_deref())
    }
}

/// An open seek, as everyone in the lobby sees it.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Seek {
    pub id: String,
    #[serde(skip)]
    pub player: PlayerId,
    /// The seeker's name; none for a guest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Their rating in the seek's class.
    pub rating: i32,
    pub provisional: bool,
    pub time_control: String,
    pub speed: String,
    pub rated: bool,
    pub chess960: bool,
    /// `white`, `black` or `random`: the seeker's colour.
    pub color: String,
    /// Opponents' ratings accepted, inclusive.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating_range: Option<(i32, i32)>,
    pub created_at: u64,
    /// The seeker's address.
    #[serde(skip)]
    pub address: Option<String>,
}

/// Why a lobby request was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LobbyError {
    /// The time control does not read or cannot be played (the message says why).
    BadControl(String),
    /// Rated play is for accounts.
    RatedNeedsAccount,
    TooManySeeks,
    /// The seek is gone (taken, cancelled) or its owner's.
    NoSuchSeek,
    /// The seeker's rating range excludes this player.
    OutOfRange,
    /// The game could not be created.
    Create(String),
    /// A limit of the game policy refuses the game (the message says which).
    Limit(String),
    /// Seeks and pool places are made from the lobby itself, whose socket keeps them.
    NotPresent,
    /// A challenge is refused (the message says why).
    Challenge(&'static str),
}

impl std::fmt::Display for LobbyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LobbyError::BadControl(why) => write!(f, "time control: {why}"),
            LobbyError::RatedNeedsAccount => f.write_str("sign in to play rated games"),
            LobbyError::TooManySeeks => f.write_str("too many open seeks"),
            LobbyError::NoSuchSeek => f.write_str("that seek is no longer open"),
            LobbyError::OutOfRange => f.write_str("your rating is outside the seek's range"),
            LobbyError::Create(why) => write!(f, "the game could not be created: {why}"),
            LobbyError::Limit(why) => f.write_str(why),
            LobbyError::NotPresent => f.write_str("seeks and pools are for the lobby page"),
            LobbyError::Challenge(why) => f.write_str(why),
        }
    }
}

/// What a seek asks for.
#[derive(Clone, Debug, Default)]
pub struct SeekRequest {
    pub time_control: String,
    pub rated: bool,
    pub chess960: bool,
    pub color: Option<String>,
    pub rating_range: Option<(i32, i32)>,
}
