//! Why a game refused a request; nothing changed. The reason is for front ends to act on and
//! translate (the web protocol has a code for each); the message is English, for people and
//! logs.

use vizier_arbiter::CommandError;

/// Why a request was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// The arbiter refused the command.
    Arbiter(CommandError),
    /// The request cannot be read as one (a key too long, a connection that left).
    BadRequest,
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
    /// The request came without a player.
    NoPlayer,
    /// The command could not be stored; nothing changed: try again.
    Storage,
    /// The opponent is here, or has not been gone long enough.
    OpponentNotGone,
    /// Only games between people with a long clock (60 minutes or more) are adjourned.
    NoAdjournment,
    /// The game is not adjourned.
    NotAdjourned,
    /// The player has as many games as they may.
    TooManyGames,
    /// A rated game needs an account.
    RatedNeedsAccount,
}

/// A refusal: why, and a message for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub why: Why,
    pub message: String,
}

impl Refusal {
    pub fn new(why: Why, message: impl Into<String>) -> Refusal {
        Refusal {
            why,
            message: message.into(),
        }
    }
}

impl From<CommandError> for Refusal {
    fn from(e: CommandError) -> Refusal {
        let message = e.to_string();
        Refusal::new(Why::Arbiter(e), message)
    }
}
