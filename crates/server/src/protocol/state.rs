//! The `state` message, the whole game as one viewer may see it, and the `move` event, one
//! move and what changed with it.

use serde::Serialize;
use vizier_play::ids::GameId;

use vizier_store::record::Kind;

use vizier_rules::Color;

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
    /// Blindfold: the sides that looked at the board after this move.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub peeks: Vec<Color>,
}

/// A player.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum PlayerView {
    Human {
        /// Has a connection open now.
        online: bool,
        /// The account's name; none for a guest.
        #[serde(skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// The account's title: `BOT` for a bot account.
        #[serde(skip_serializing_if = "Option::is_none")]
        title: Option<String>,
        /// The Glicko-2 rating in the game's class, in whole points.
        #[serde(skip_serializing_if = "Option::is_none")]
        rating: Option<i32>,
        /// Whether that rating is provisional (shown with `?`).
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        provisional: bool,
        /// What this rated game did to the rating, once it ended.
        #[serde(rename = "ratingDiff", skip_serializing_if = "Option::is_none")]
        rating_diff: Option<i32>,
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
    pub running: Option<Color>,
    /// Of a simple delay, what is left for the running side before its main time moves.
    pub delay_left: u64,
    /// The control in PGN form, e.g. "300+3" or "40/5400+30:1800+30".
    pub control: String,
    /// For controls with move counts: per side, moves still to make in the current period.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves_to_go: Option<[Option<u32>; 2]>,
    /// Correspondence: per side, until when they are on vacation (their clock stands).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub away: Option<[Option<u64>; 2]>,
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
    pub winner: Option<Color>,
    /// A dead position: the number of plies after which the position was dead (moves made
    /// after it, before the proof came, did not count).
    #[serde(rename = "deadAfter", skip_serializing_if = "Option::is_none")]
    pub dead_after: Option<usize>,
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

/// Over the board: the Laws' count of each side's infractions.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InfractionsView {
    /// Completed illegal moves (Art. 7.5.5: the second loses), White's then Black's.
    pub illegal: [u32; 2],
    /// Kings moved into check, under the casual fouls rule, White's then Black's.
    pub fouls: [u32; 2],
    /// The side whose illegal move stands unless the opponent claims it before moving (A.5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claimable: Option<Color>,
}

/// Where an adjournment stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AdjournPhase {
    /// `by` asked to adjourn; the opponent may agree.
    Asked,
    /// `by`, who has the move, must seal it; their clock runs.
    Sealing,
    /// `by` has sealed a move; the game waits until both ask to resume.
    Sealed,
}

/// An adjournment asked for, being sealed, or sealed.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AdjournmentView {
    pub phase: AdjournPhase,
    pub by: Color,
    /// Sealed: the side that asked to resume.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resume_asked: Option<Color>,
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

/// What a move can change, as one viewer sees it: the part of the state a `move` event carries.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Live {
    pub status: Status,
    pub fen: String,
    pub turn: Color,
    pub check: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockView>,
    /// Server time (Unix ms) at which the clocks were read.
    pub server_time: u64,
    /// Legal moves from each square, in UCI squares, for the viewer's side to move only.
    pub dests: crate::analysis::board::Dests,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub draw_offer: Option<Color>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub takeback: Option<Color>,
    pub claims: ClaimsView,
    pub can_abort: bool,
    /// Arena: the sides that may still berserk, and those that did.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub can_berserk: Vec<Color>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub berserked: Vec<Color>,
    /// Over the board: illegal moves and fouls so far.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infractions: Option<InfractionsView>,
    /// Whether the game may be adjourned now (between people, with a long clock).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub can_adjourn: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adjournment: Option<AdjournmentView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultView>,
    /// The opening the moves so far reached, by the last named position on the way.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opening: Option<OpeningView>,
}

/// The game as one viewer sees it.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct State {
    pub game: GameId,
    /// Increases with every change.
    pub version: u64,
    pub kind: Kind,
    pub chess960: bool,
    /// The time control in PGN form ("-": none), also before the game begins.
    pub time_control: String,
    pub initial_fen: String,
    pub moves: Vec<MoveView>,
    /// The sides this viewer plays (none: a spectator; both: a same-device game).
    pub you: Vec<Color>,
    pub white: PlayerView,
    pub black: PlayerView,
    pub takebacks: bool,
    /// Over the board: "supervised" (an arbiter watches) or "unsupervised"; any move may be
    /// made on the board and the Laws judge it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arbiter: Option<&'static str>,
    /// Kings moved into check that lose (the casual fouls rule).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub king_fouls: Option<u32>,
    /// Whether the game changes its players' ratings.
    pub rated: bool,
    /// Sides whose player left the game, and when the opponent may claim it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub gone: Vec<GoneView>,
    /// The invite token, to the player who created a waiting friend game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    /// A rematch asked for by this side.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rematch: Option<Color>,
    #[serde(flatten)]
    pub live: Live,
}

/// A side whose player left a game with a clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GoneView {
    pub side: super::Color,
    /// When the opponent may claim the win or a draw (server time, Unix ms).
    pub claimable_at: u64,
}

/// A named opening: its ECO code, its English name, and a Chinese one where we give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct OpeningView {
    pub eco: &'static str,
    pub name: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zh: Option<&'static str>,
}

/// One move made, and every part of the state a move can change; the rest stands. A client
/// whose state is not at `version - 1` asks for the whole state again.
#[derive(Clone, Debug, Serialize)]
pub struct MoveEvent {
    pub game: GameId,
    pub version: u64,
    #[serde(rename = "move")]
    pub mv: MoveView,
    #[serde(flatten)]
    pub live: Live,
}
