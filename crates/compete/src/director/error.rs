//! What a tournament request can fail with.

use std::fmt;

use vizier_store::StoreError;

/// Why a tournament refuses.
#[derive(Debug)]
pub enum CompeteError {
    NotFound,
    /// The settings are not acceptable: which and why.
    Settings(String),
    /// The server or the account holds as many unfinished tournaments as it may.
    TooMany,
    /// Entries are closed: it is finished, or a round robin that has begun.
    Closed,
    /// By invitation, and the account is not invited.
    NotInvited,
    /// The account's rating lies outside the entry range.
    OutOfRange {
        rating: i32,
    },
    /// The tournament has as many players as it may.
    Full,
    AlreadyIn,
    NotIn,
    /// Only its creator may do this.
    NotCreator,
    /// Nothing to do: it has begun, or is finished.
    NotNow(&'static str),
    Store(StoreError),
}

impl fmt::Display for CompeteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompeteError::NotFound => write!(f, "no such tournament"),
            CompeteError::Settings(why) => write!(f, "{why}"),
            CompeteError::TooMany => write!(f, "too many tournaments are waiting or running"),
            CompeteError::Closed => write!(f, "this tournament takes no more entries"),
            CompeteError::NotInvited => write!(f, "this tournament is by invitation"),
            CompeteError::OutOfRange { rating } => {
                write!(f, "your rating {rating} is outside the entry range")
            }
            CompeteError::Full => write!(f, "this tournament is full"),
            CompeteError::AlreadyIn => write!(f, "you are already playing in it"),
            CompeteError::NotIn => write!(f, "you are not playing in it"),
            CompeteError::NotCreator => write!(f, "only the tournament's creator may do that"),
            CompeteError::NotNow(why) => write!(f, "{why}"),
            CompeteError::Store(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for CompeteError {}

impl From<StoreError> for CompeteError {
    fn from(e: StoreError) -> CompeteError {
        CompeteError::Store(e)
    }
}
