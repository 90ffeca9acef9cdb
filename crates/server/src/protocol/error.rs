//! The codes of refusals, and how the arbiter's refusals become them.

use serde::Serialize;
use vizier_arbiter::CommandError;

/// Declares [`ErrorCode`] and [`ErrorCode::ALL`] from one list, so that no code can be missing
/// from the list the translation test reads.
macro_rules! error_codes {
    ($($(#[$doc:meta])* $code:ident,)*) => {
        /// Why a message was refused: stable words that a client acts on and translates (the
        /// web client's `error.<code>`); the message beside it is English, for people and logs.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
        #[serde(rename_all = "kebab-case")]
        pub enum ErrorCode {
            $($(#[$doc])* $code,)*
        }

        impl ErrorCode {
            /// Every code, for the tests that each one has its translations.
            pub const ALL: &[ErrorCode] = &[$(ErrorCode::$code,)*];
        }
    };
}

error_codes! {
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
    /// A tournament's game cannot be aborted.
    NoAbort,
    /// Berserk is allowed only in an arena game, once, before one's first move.
    NoBerserk,
    /// Vacations are for correspondence games.
    NoVacation,
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
    /// Over the board, a king left in check is not captured: the illegal move is claimed.
    KingCapture,
    /// Only games between people with a long clock (60 minutes or more) are adjourned.
    NoAdjournment,
    /// A new game was asked for with settings the server refuses (the message says which).
    BadRequest,
    /// The player has too many unfinished games to start another.
    TooManyGames,
    /// Too many new games came from the player's address lately: wait a while.
    TooManyNewGames,
    /// Not a username: 2 to 20 letters, digits, `_` and `-`.
    BadUsername,
    /// The new password is refused (too short, too long, or the username).
    BadPassword,
    /// The username is taken, ignoring case.
    UsernameTaken,
    /// Unknown username or wrong password (the same answer for both).
    WrongCredentials,
    /// Too many sign-in or sign-up attempts lately: wait a while.
    TooManyTries,
    /// This needs a signed-in account.
    NotSignedIn,
    /// A form or socket of this server was used from another site's page.
    ForeignOrigin,
    /// Rated games are for accounts: sign in first.
    RatedNeedsAccount,
    /// The seek was taken or withdrawn, or its rating range leaves this player out.
    NoSuchSeek,
    /// The opponent is here, or has not been gone long enough to claim the game.
    OpponentNotGone,
    /// Every place in the analysis queue is taken: try again in a moment.
    AnalysisBusy,
    /// The player already has as many analyses waiting or running as one may.
    TooManyAnalyses,
    /// The engine has nothing to say here: no position, an illegal one, or a game it cannot
    /// replay (an illegal move stood).
    NotAnalysable,
    /// Nothing to note it after: no move has been made yet (a blindfold peek).
    NoMoveYet,
}

impl ErrorCode {
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
            CommandError::NoAbort => ErrorCode::NoAbort,
            CommandError::NoBerserk => ErrorCode::NoBerserk,
            CommandError::NoVacation => ErrorCode::NoVacation,
            CommandError::TakebacksOff => ErrorCode::TakebacksOff,
            CommandError::NoTakeback => ErrorCode::NoTakeback,
            CommandError::Adjourned => ErrorCode::Adjourned,
            CommandError::NotAdjourned => ErrorCode::NotAdjourned,
            CommandError::NothingToClaim => ErrorCode::NothingToClaim,
            CommandError::NoSuchPiece => ErrorCode::NoSuchPiece,
            CommandError::KingCapture => ErrorCode::KingCapture,
            CommandError::NoMoveYet => ErrorCode::NoMoveYet,
            // The game answers the arbiter's questions itself; a client sees neither.
            CommandError::NeedsProof { .. } | CommandError::BadProof => ErrorCode::Storage,
        }
    }
}

impl From<&vizier_play::Why> for ErrorCode {
    fn from(why: &vizier_play::Why) -> ErrorCode {
        use vizier_play::Why;
        match why {
            Why::Arbiter(e) => e.into(),
            Why::BadRequest => ErrorCode::BadMessage,
            Why::Spectator => ErrorCode::Spectator,
            Why::NotYourSide => ErrorCode::NotYourSide,
            Why::NotStarted => ErrorCode::NotStarted,
            Why::GameOver => ErrorCode::GameOver,
            Why::GameNotOver => ErrorCode::GameNotOver,
            Why::BadInvite => ErrorCode::BadInvite,
            Why::OwnInvite => ErrorCode::OwnInvite,
            Why::NoPlayer => ErrorCode::NoPlayerCookie,
            Why::Storage => ErrorCode::Storage,
            Why::OpponentNotGone => ErrorCode::OpponentNotGone,
            Why::NoAdjournment => ErrorCode::NoAdjournment,
            Why::NotAdjourned => ErrorCode::NotAdjourned,
            Why::TooManyGames => ErrorCode::TooManyGames,
            Why::RatedNeedsAccount => ErrorCode::RatedNeedsAccount,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every ending and every error code has its words in both of the web client's languages,
    /// and its place in the client's types.
    #[test]
    fn the_web_client_translates_every_code() {
        let tables = [
            include_str!("../../../../web/src/i18n/en.ts"),
            include_str!("../../../../web/src/i18n/zh.ts"),
        ];
        let api = include_str!("../../../../web/src/api.ts");
        let keys = vizier_rules::ENDINGS
            .iter()
            .map(|e| ("reason", e.code.to_string()))
            .chain(ErrorCode::ALL.iter().map(|c| ("error", c.as_str())));
        for (kind, code) in keys {
            let key = format!("'{kind}.{code}':");
            for table in tables {
                assert_eq!(table.matches(&key).count(), 1, "{key} in en and zh");
            }
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
