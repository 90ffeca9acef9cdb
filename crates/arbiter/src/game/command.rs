//! What players (and the arbiter, and a server's timer) can do to a game, what happens, and why
//! a command can be refused.

use std::fmt;
use vizier_rules::{Color, MoveParseError};

use crate::clock::Millis;
use crate::outcome::Outcome;

/// A claim of a draw (Arts. 9.2 and 9.3). With the `serde` feature it is written
/// `"threefold"` or `"fifty"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum Claim {
    /// The same position for the third time (Art. 9.2).
    Threefold,
    /// 50 moves by each side without a capture or pawn move (Art. 9.3).
    #[cfg_attr(feature = "serde", serde(rename = "fifty"))]
    FiftyMoves,
}

/// What a player (or the arbiter, or the server's timer) does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Make a move, in UCI or SAN.
    Move { by: Color, mv: String },
    /// Offer a draw (Art. 9.1).
    OfferDraw { by: Color },
    /// Accept the opponent's offer.
    AcceptDraw { by: Color },
    /// Decline the opponent's offer.
    DeclineDraw { by: Color },
    /// Claim a draw now, or with a declared move that is then fixed.
    ClaimDraw {
        by: Color,
        claim: Claim,
        declared: Option<String>,
    },
    /// Resign (Art. 5.1.2).
    Resign { by: Color },
    /// Abort the game (only before both players have moved).
    Abort { by: Color },
    /// Ask to take back one's last move (casual games).
    RequestTakeback { by: Color },
    /// Agree to the opponent's takeback request.
    AcceptTakeback { by: Color },
    /// Refuse the opponent's takeback request.
    DeclineTakeback { by: Color },
    /// Adjourn: the player to move must now seal a move; their clock runs until it is sealed.
    Adjourn,
    /// Seal a move (unseen by the opponent).
    Seal { by: Color, mv: String },
    /// Resume an adjourned game: the sealed move is made.
    Resume,
    /// See whether a flag has fallen by now.
    CheckFlag,
    /// The server calls off a game nobody has played for too long; it has no result.
    Abandon,
    /// Online, the opponent of `by` left the game and did not come back in the time the
    /// server allows: `by` claims the win (a draw if `by` could not checkmate), or a draw.
    ClaimLeft { by: Color, win: bool },
    /// Give the opponent extra time.
    GiveTime { by: Color, ms: Millis },
    /// Over the board, unsupervised rapid/blitz: claim that the opponent's last move was illegal.
    ClaimIllegalMove { by: Color },
    /// Blindfold: `by` looked at the board. The scoresheet notes it after the last move.
    Peek { by: Color },
    /// Arena: `by` halves their own clock and gives up its increment, before their first move.
    Berserk { by: Color },
    /// Correspondence: `by` is on vacation until `until` (their clock does not run); an
    /// `until` not after now ends a vacation under way.
    Vacation { by: Color, until: Millis },
    /// A host's answer to [`CommandError::NeedsProof`]: whether `side` can checkmate from the
    /// position `fen` by any series of legal moves (`None`: the search gave up, which counts
    /// as "can").
    Proved {
        side: Color,
        fen: String,
        can_mate: Option<bool>,
    },
    /// A host proved the position after `after` plies dead (Art. 5.2.2): the game ended there
    /// as a draw.
    DeadPosition { after: usize },
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A move was made; `clock_ms` is the mover's clock after it (with any increment).
    Moved {
        by: Color,
        uci: String,
        san: String,
        clock_ms: Option<Millis>,
    },
    /// A draw offer was made.
    DrawOffered { by: Color },
    /// A draw offer was declined.
    DrawDeclined { by: Color },
    /// A draw offer lapsed because the opponent moved instead of answering.
    DrawOfferLapsed { by: Color },
    /// A draw claim was wrong; the opponent got `penalty_ms`.
    ClaimRejected {
        by: Color,
        claim: Claim,
        penalty_ms: Millis,
    },
    /// Time was added to a clock.
    TimeAdded { to: Color, ms: Millis },
    /// A takeback was asked for.
    TakebackRequested { by: Color },
    /// Moves were taken back.
    TakenBack { plies: usize },
    /// A takeback was refused.
    TakebackDeclined { by: Color },
    /// The game is being adjourned; `by` must seal.
    Adjourned { by: Color },
    /// A move was sealed (its text is not in the event).
    Sealed { by: Color },
    /// The adjourned game resumed.
    Resumed,
    /// Over the board: an illegal move was completed; the position before it is reinstated.
    IllegalMove {
        by: Color,
        mv: String,
        count: u32,
        penalty_ms: Millis,
    },
    /// Over the board, unsupervised: an illegal move stands unless the opponent claims.
    IllegalMoveStands { by: Color, mv: String },
    /// A foul: a king moved into check (refused; the option counts them).
    Foul { by: Color, count: u32 },
    /// Blindfold: `by` looked at the board after the last move.
    Peeked { by: Color },
    /// `by` berserked: half their time, no increment.
    Berserked { by: Color },
    /// `by` is on vacation until `until` (now, when one was ended).
    Away { by: Color, until: Millis },
    /// The game ended.
    GameOver(Outcome),
}

/// Why a command was refused. A refused command changes nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The game has ended.
    GameOver,
    /// Commands must come in time order.
    TimeWentBackwards,
    /// It is the other player's move.
    NotYourTurn,
    /// The move text could not be read or is not legal.
    BadMove(MoveParseError),
    /// No draw offer from the opponent is pending.
    NoOffer,
    /// A draw offer from this player is already pending.
    AlreadyOffered,
    /// Draws by agreement need both players to have moved (Art. 5.2.3).
    TooEarlyForDraw,
    /// The event forbids offers before this move number.
    OffersNotYet(u32),
    /// The player's last offer was declined recently.
    OfferCooldown,
    /// Only the player to move may claim (Arts. 9.2, 9.3).
    NotYourClaim,
    /// The game can no longer be aborted: both players have moved.
    TooLateToAbort,
    /// This game cannot be aborted (a tournament's).
    NoAbort,
    /// Berserk is not allowed in this game, or no longer: the player has moved, already
    /// berserked, or has no base time to halve.
    NoBerserk,
    /// Vacations are for correspondence games.
    NoVacation,
    /// Takebacks are off in this game.
    TakebacksOff,
    /// There is no move of this player to take back, or no request to answer.
    NoTakeback,
    /// The game is adjourned or being adjourned: only sealing or resuming is possible.
    Adjourned,
    /// The game is not adjourned.
    NotAdjourned,
    /// There is no illegal move to claim.
    NothingToClaim,
    /// Over the board: no piece of the player on the move's starting square.
    NoSuchPiece,
    /// Over the board, after an illegal move left a king in check: kings are not captured;
    /// claim the illegal move instead (Appendix A.5).
    KingCapture,
    /// No move has been made yet (a peek is noted after a move).
    NoMoveYet,
    /// Only a deeper search can say what the command leads to: whether `side` can checkmate
    /// from the position `fen` (`None`: whether the position is dead). A host that
    /// [asks for proofs](crate::Game::ask_for_proofs) answers with [`Command::Proved`] or
    /// [`Command::DeadPosition`] and sends the command again.
    NeedsProof { side: Option<Color>, fen: String },
    /// A proof that does not fit the game (an unreadable position, a ply not played).
    BadProof,
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::GameOver => write!(f, "the game is over"),
            CommandError::TimeWentBackwards => {
                write!(f, "command timestamps must not go backwards")
            }
            CommandError::NotYourTurn => write!(f, "it is not your move"),
            CommandError::BadMove(e) => write!(f, "{e}"),
            CommandError::NoOffer => write!(f, "there is no draw offer to answer"),
            CommandError::AlreadyOffered => write!(f, "your draw offer is already standing"),
            CommandError::TooEarlyForDraw => {
                write!(f, "a draw can be agreed only after both players have moved")
            }
            CommandError::OffersNotYet(n) => {
                write!(f, "draw offers are not allowed before move {n}")
            }
            CommandError::OfferCooldown => write!(
                f,
                "your last offer was declined; wait a few moves before offering again"
            ),
            CommandError::NotYourClaim => write!(f, "only the player to move can claim a draw"),
            CommandError::TooLateToAbort => write!(
                f,
                "both players have moved: the game can no longer be aborted"
            ),
            CommandError::NoAbort => write!(f, "this game cannot be aborted"),
            CommandError::NoBerserk => write!(
                f,
                "berserk is allowed only in an arena game, once, before your first move"
            ),
            CommandError::NoVacation => write!(f, "vacations are for correspondence games"),
            CommandError::TakebacksOff => write!(f, "takebacks are not allowed in this game"),
            CommandError::NoTakeback => write!(f, "there is no takeback to request or answer"),
            CommandError::Adjourned => {
                write!(f, "the game is adjourned: seal a move or resume first")
            }
            CommandError::NotAdjourned => write!(f, "the game is not adjourned"),
            CommandError::NothingToClaim => write!(f, "there is no illegal move to claim"),
            CommandError::NoSuchPiece => write!(f, "you have no piece on that square"),
            CommandError::KingCapture => write!(
                f,
                "a king is never captured: claim the illegal move that left it in check"
            ),
            CommandError::NoMoveYet => write!(f, "no move has been made yet"),
            CommandError::NeedsProof {
                side: Some(side),
                fen,
            } => {
                write!(
                    f,
                    "whether {side} can still checkmate in {fen} needs a proof"
                )
            }
            CommandError::NeedsProof { side: None, fen } => {
                write!(f, "whether {fen} is a dead position needs a proof")
            }
            CommandError::BadProof => write!(f, "the proof does not fit the game"),
        }
    }
}

impl std::error::Error for CommandError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CommandError::BadMove(e) => Some(e),
            _ => None,
        }
    }
}
