//! What a player asks of a game: an action, for a side, perhaps with the client's own key
//! for it. The web socket reads these from its messages; other front ends make them too.

use vizier_arbiter::Claim;
use vizier_rules::Color;

/// A player's request of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Act {
    /// In a same-device game, which side acts (default: the side the action belongs to).
    pub side: Option<Color>,
    /// The client's own name for this action (at most 64 characters): asked again, as after
    /// an answer lost with the connection, it gets the first answer again and is not done
    /// twice.
    pub key: Option<String>,
    pub action: Action,
}

/// What is asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// A move in UCI (`e2e4`, `e7e8q`; Chess960 castling as king-takes-rook) or SAN.
    Move {
        uci: String,
    },
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    /// Claim a draw now, or with a declared move (which is then played).
    ClaimDraw {
        claim: Claim,
        declared: Option<String>,
    },
    Resign,
    Abort,
    Takeback,
    AcceptTakeback,
    DeclineTakeback,
    /// Take the open seat of a friend game, with the invite token.
    Join {
        invite: String,
    },
    /// Ask for (or, when the opponent asked, agree to) a new game with colours swapped.
    Rematch,
    /// The opponent left and has been gone long enough: claim the win, or a draw.
    ClaimLeft {
        draw: bool,
    },
    /// Over the board without an arbiter: claim that the opponent's last move, which stands
    /// unless claimed, was illegal (Appendix A.5).
    ClaimIllegal,
    /// Ask to adjourn (or agree to the opponent's asking): the player to move then seals.
    Adjourn,
    /// Seal the move, unseen by the opponent until the game resumes.
    Seal {
        uci: String,
    },
    /// Ask to resume an adjourned game (or agree): the sealed move is made.
    Resume,
    /// Blindfold: this player looked at the board; the scoresheet notes it.
    Peek,
    /// Arena: halve one's own clock, without increment, for a bonus point on a win.
    Berserk,
    /// Write in the game's chat: `room` is `player` or `spectator`.
    Chat {
        room: String,
        text: String,
    },
    /// Correspondence, while the opponent is to move: leave these lines of moves (SAN or
    /// UCI, separated by spaces, the opponent's first); none clears them.
    Conditional {
        lines: Vec<String>,
    },
    /// Correspondence: this player is on vacation until `until` (Unix ms; their clock does
    /// not run), or back now (`until` not after now).
    Vacation {
        until: u64,
    },
    /// Ask for the whole game again.
    Resync,
    Ping,
}
