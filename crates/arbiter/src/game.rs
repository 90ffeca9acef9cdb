//! A game under the Laws as a state machine: timestamped commands in, events out. The log of
//! accepted commands is the truth; replaying it rebuilds the game exactly.

use crate::clock::{Charge, Clock, Millis, Speed, TimeControl};
use crate::outcome::{GameResult, Outcome, Reason};
use std::fmt;
use vizier_rules::{Color, History, Move, MoveParseError, Position, Role, Square, attacks};

/// Where the game starts.
///
/// ```
/// use vizier_arbiter::StartPosition;
/// // A random Chess960 start is drawn once, at setup, so that the log replays exactly.
/// assert!(matches!(StartPosition::chess960_random(), StartPosition::Chess960(n) if n < 960));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum StartPosition {
    /// The standard position.
    #[default]
    Standard,
    /// A Chess960 start by number (0-959).
    Chess960(u16),
    /// Any legal position, as FEN (X-FEN or Shredder-FEN for Chess960 castling).
    Fen(String),
}

impl StartPosition {
    /// A Chess960 start chosen at random.
    pub fn chess960_random() -> StartPosition {
        StartPosition::Chess960(Position::chess960_random().0)
    }
}

/// How illegal moves are treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Mode {
    /// Online: illegal moves are refused.
    #[default]
    Online,
    /// Over-the-board arbiter mode: illegal moves are accepted as played and the Laws applied
    /// (Art. 7.5; Appendices A.5 and B.3 when `supervised` is false in rapid and blitz).
    OverTheBoard {
        /// Whether an arbiter watches the game (unsupervised rapid/blitz: the opponent must claim).
        supervised: bool,
    },
}

/// When the clocks start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ClockStart {
    /// FIDE: White's clock runs from the start of the game.
    #[default]
    Fide,
    /// Online: the clocks start after each side's first move; a side that does not make its first
    /// move within the timeout aborts the game.
    AfterFirstMoves {
        /// How long each side has for its first move.
        first_move_timeout_ms: Millis,
    },
}

/// Casual-game and event options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Takebacks by agreement (casual games).
    pub takebacks: bool,
    /// No draw offers before this move number (event rule; 1 allows them at once).
    pub draw_offers_from_move: u32,
    /// After a declined offer, the decliner's opponent may not offer again for this many of
    /// their own moves, unless the opponent offers first.
    pub offer_cooldown_moves: u32,
    /// Chinese play sites' folk rule: moving one's king into check is a foul (refused), and this
    /// many fouls lose.
    pub king_into_check_fouls: Option<u32>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            takebacks: false,
            draw_offers_from_move: 1,
            offer_cooldown_moves: 3,
            king_into_check_fouls: None,
        }
    }
}

/// Everything fixed at the start of a game.
///
/// ```
/// use vizier_arbiter::{Game, Setup, TimeControl};
/// let setup = Setup { control: TimeControl::sudden_death(300_000, 2_000), ..Setup::default() };
/// let game = Game::new(setup, 0).unwrap();
/// assert!(game.outcome().is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Setup {
    /// The start position.
    pub start: StartPosition,
    /// The time control.
    pub control: TimeControl,
    /// Online or over the board.
    pub mode: Mode,
    /// When the clocks start.
    pub clock_start: ClockStart,
    /// Casual and event options.
    pub options: Options,
}

/// A claim of a draw (Arts. 9.2 and 9.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The same position for the third time (Art. 9.2).
    Threefold,
    /// 50 moves by each side without a capture or pawn move (Art. 9.3).
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
    /// Give the opponent extra time.
    GiveTime { by: Color, ms: Millis },
    /// Over the board, unsupervised rapid/blitz: claim that the opponent's last move was illegal.
    ClaimIllegalMove { by: Color },
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
            CommandError::TakebacksOff => write!(f, "takebacks are not allowed in this game"),
            CommandError::NoTakeback => write!(f, "there is no takeback to request or answer"),
            CommandError::Adjourned => {
                write!(f, "the game is adjourned: seal a move or resume first")
            }
            CommandError::NotAdjourned => write!(f, "the game is not adjourned"),
            CommandError::NothingToClaim => write!(f, "there is no illegal move to claim"),
            CommandError::NoSuchPiece => write!(f, "you have no piece on that square"),
        }
    }
}

impl std::error::Error for CommandError {}

/// Why a game could not be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The FEN is not a legal position.
    Fen(vizier_rules::FenError),
    /// Chess960 positions are numbered 0-959.
    Chess960Number(u16),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Fen(e) => write!(f, "bad start position: {e}"),
            SetupError::Chess960Number(n) => {
                write!(f, "Chess960 position {n} does not exist (0-959)")
            }
        }
    }
}

impl std::error::Error for SetupError {}

/// One move on the scoresheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The move.
    pub mv: Move,
    /// SAN.
    pub san: String,
    /// UCI (Chess960 castling as king-takes-rook in Chess960 games).
    pub uci: String,
    /// The mover's clock after the move.
    pub clock_ms: Option<Millis>,
    /// The mover offered a draw with this move: "(=)".
    pub draw_offer: bool,
    /// What the arbiter noted after this move (claims, penalties, illegal moves).
    pub notes: Vec<String>,
    /// An illegal move that stood (unsupervised rapid/blitz): `san` and `uci` say from-to.
    pub irregular: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Phase {
    Playing,
    Sealing { by: Color },
    Adjourned { by: Color, sealed: String },
    Over(Outcome),
}

/// An illegal move that stands unless the opponent claims before moving (unsupervised A.5).
#[derive(Clone, Debug, PartialEq, Eq)]
struct PendingIllegal {
    by: Color,
    text: String,
    /// The game before the illegal move, reinstated on a claim.
    before: History,
    /// The position after it, if it is a valid position at all.
    after: Option<Position>,
}

/// A game in progress or finished.
///
/// ```
/// use vizier_arbiter::{Command, Game, GameResult, Reason, Setup};
/// use vizier_rules::Color::{Black, White};
/// let mut game = Game::new(Setup::default(), 0).unwrap();
/// for (t, by, mv) in [(1, White, "f3"), (2, Black, "e5"), (3, White, "g4"), (4, Black, "Qh4")] {
///     game.apply(t, Command::Move { by, mv: mv.into() }).unwrap();
/// }
/// let outcome = game.outcome().unwrap();
/// assert_eq!((outcome.result, outcome.reason), (GameResult::BlackWins, Reason::Checkmate));
/// assert_eq!(outcome.to_string(), "0–1 · checkmate · Art. 5.1.1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    setup: Setup,
    created_at: Millis,
    start: Position,
    chess960: bool,
    history: History,
    clock: Clock,
    phase: Phase,
    plies: Vec<Ply>,
    offer: Option<Color>,
    /// An offer made by the player to move, to be marked "(=)" on their next move.
    offer_mark_pending: Option<Color>,
    /// For each player, the number of their own moves when their last offer was declined.
    declined_at: [Option<u32>; 2],
    takeback: Option<Color>,
    illegal_moves: [u32; 2],
    fouls: [u32; 2],
    pending_illegal: Option<PendingIllegal>,
    moves_made: [u32; 2],
    /// When the side to move's turn began (for the first-move timeout).
    turn_began: Millis,
    last_command_at: Millis,
    log: Vec<(Millis, Command)>,
}

impl Game {
    /// Sets up a game at time `now`. With FIDE clock start, White's clock starts now.
    ///
    /// ```
    /// use vizier_arbiter::{Game, Setup, StartPosition};
    /// let bad = Setup { start: StartPosition::Chess960(960), ..Setup::default() };
    /// assert!(Game::new(bad, 0).is_err());
    /// ```
    pub fn new(setup: Setup, now: Millis) -> Result<Game, SetupError> {
        let (start, chess960) = match &setup.start {
            StartPosition::Standard => (Position::new(), false),
            StartPosition::Chess960(n) => (
                Position::chess960(*n).ok_or(SetupError::Chess960Number(*n))?,
                true,
            ),
            StartPosition::Fen(fen) => {
                let pos = Position::from_fen(fen).map_err(SetupError::Fen)?;
                let chess960 = pos.is_chess960();
                (pos, chess960)
            }
        };
        let mut clock = Clock::new(&setup.control);
        if setup.clock_start == ClockStart::Fide {
            clock.start(start.turn(), now);
        }
        let mut game = Game {
            setup,
            created_at: now,
            start: start.clone(),
            chess960,
            history: History::new(start),
            clock,
            phase: Phase::Playing,
            plies: Vec::new(),
            offer: None,
            offer_mark_pending: None,
            declined_at: [None; 2],
            takeback: None,
            illegal_moves: [0; 2],
            fouls: [0; 2],
            pending_illegal: None,
            moves_made: [0; 2],
            turn_began: now,
            last_command_at: now,
            log: Vec::new(),
        };
        // A start position that is already decided (mate, stalemate, dead) ends at once.
        if let Some(o) = game.history.outcome() {
            game.phase = Phase::Over(Outcome {
                result: result_of(o.winner),
                reason: Reason::from_termination(o.termination),
                at: now,
            });
        }
        Ok(game)
    }

    /// Rebuilds a game from its setup, creation time and log of accepted commands.
    ///
    /// ```
    /// use vizier_arbiter::{Command, Game, Setup};
    /// let mut game = Game::new(Setup::default(), 0).unwrap();
    /// game.apply(5, Command::Move { by: vizier_rules::Color::White, mv: "e4".into() }).unwrap();
    /// let again = Game::replay(Setup::default(), 0, game.log()).unwrap();
    /// assert_eq!(again, game);
    /// ```
    pub fn replay(
        setup: Setup,
        created_at: Millis,
        log: &[(Millis, Command)],
    ) -> Result<Game, (usize, CommandError)> {
        let mut game = Game::new(setup, created_at).map_err(|_| (0, CommandError::GameOver))?;
        for (i, (at, cmd)) in log.iter().enumerate() {
            game.apply(*at, cmd.clone()).map_err(|e| (i, e))?;
        }
        Ok(game)
    }

    // ----- reading the game -----

    /// The setup.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// The start position.
    pub fn start_position(&self) -> &Position {
        &self.start
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        self.history.position()
    }

    /// The line of play (for repetition questions).
    pub fn history(&self) -> &History {
        &self.history
    }

    /// Whether the game is Chess960 (castling written king-takes-rook in UCI).
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// The scoresheet.
    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }

    /// The clocks.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The outcome, once the game has ended.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.phase {
            Phase::Over(o) => Some(o),
            _ => None,
        }
    }

    /// The standing draw offer, by whom.
    pub fn draw_offer(&self) -> Option<Color> {
        self.offer
    }

    /// Completed illegal moves (over the board) and fouls, per colour.
    pub fn infractions(&self, color: Color) -> (u32, u32) {
        (self.illegal_moves[color.index()], self.fouls[color.index()])
    }

    /// The accepted commands with their times: replaying them rebuilds the game.
    pub fn log(&self) -> &[(Millis, Command)] {
        &self.log
    }

    /// When the game was set up.
    pub fn created_at(&self) -> Millis {
        self.created_at
    }

    /// Whether the game is adjourned (or waiting for a sealed move).
    pub fn is_adjourned(&self) -> bool {
        matches!(self.phase, Phase::Sealing { .. } | Phase::Adjourned { .. })
    }

    /// The earliest time at which time alone would end the game (a flag falls, or a first move
    /// is missed), if nothing happens before. A server applies [`Command::CheckFlag`] then.
    ///
    /// ```
    /// use vizier_arbiter::{Command, Game, Setup, TimeControl};
    /// let setup = Setup { control: TimeControl::sudden_death(60_000, 0), ..Setup::default() };
    /// let mut game = Game::new(setup, 1_000).unwrap();
    /// assert_eq!(game.deadline(), Some(61_000));
    /// game.apply(61_000, Command::CheckFlag).unwrap();
    /// assert!(game.outcome().is_some());
    /// assert_eq!(game.deadline(), None);
    /// ```
    pub fn deadline(&self) -> Option<Millis> {
        if !matches!(self.phase, Phase::Playing | Phase::Sealing { .. }) {
            return None;
        }
        let flag = self.clock.flag_time().map(|(_, at)| at);
        let first_move = match self.setup.clock_start {
            ClockStart::AfterFirstMoves {
                first_move_timeout_ms,
            } if self.moves_made[self.position().turn().index()] == 0 => {
                Some(self.turn_began + first_move_timeout_ms)
            }
            _ => None,
        };
        match (flag, first_move) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Whether the game may still be aborted: it is not over and a player has not moved yet.
    ///
    /// ```
    /// use vizier_arbiter::{Command, Game, Setup};
    /// use vizier_rules::Color::{Black, White};
    /// let mut game = Game::new(Setup::default(), 0).unwrap();
    /// assert!(game.can_abort());
    /// game.apply(1, Command::Move { by: White, mv: "e4".into() }).unwrap();
    /// game.apply(2, Command::Move { by: Black, mv: "e5".into() }).unwrap();
    /// assert!(!game.can_abort());
    /// ```
    pub fn can_abort(&self) -> bool {
        self.outcome().is_none() && (self.moves_made[0] == 0 || self.moves_made[1] == 0)
    }

    /// The player whose takeback request is standing.
    pub fn takeback_request(&self) -> Option<Color> {
        self.takeback
    }

    fn speed(&self) -> Speed {
        self.setup.control.speed()
    }

    /// Art. 7.5.5 / 9.5: two minutes for the opponent, one in rapid and blitz (none untimed).
    fn penalty_ms(&self) -> Millis {
        match self.speed() {
            Speed::Blitz | Speed::Rapid => 60_000,
            Speed::Standard | Speed::Correspondence => 120_000,
            Speed::Unlimited => 0,
        }
    }

    // ----- commands -----

    /// Applies a command at time `now`. On success returns what happened (possibly only a flag
    /// fall that came first); on error nothing has changed.
    ///
    /// ```
    /// use vizier_arbiter::{Command, CommandError, Game, Setup};
    /// let mut game = Game::new(Setup::default(), 0).unwrap();
    /// let err = game.apply(1, Command::Move { by: vizier_rules::Color::Black, mv: "e5".into() });
    /// assert_eq!(err, Err(CommandError::NotYourTurn));
    /// assert!(game.log().is_empty());
    /// ```
    pub fn apply(&mut self, now: Millis, command: Command) -> Result<Vec<Event>, CommandError> {
        let mut next = self.clone();
        let events = next.apply_inner(now, &command)?;
        next.last_command_at = now;
        next.log.push((now, command));
        *self = next;
        Ok(events)
    }

    fn apply_inner(&mut self, now: Millis, command: &Command) -> Result<Vec<Event>, CommandError> {
        if matches!(self.phase, Phase::Over(_)) {
            return Err(CommandError::GameOver);
        }
        if now < self.last_command_at {
            return Err(CommandError::TimeWentBackwards);
        }
        let mut events = Vec::new();
        if self.check_time(now, &mut events) {
            return Ok(events);
        }
        // After an illegal move that left no valid position, the turn has passed all the same.
        let to_move = match &self.pending_illegal {
            Some(p) if p.after.is_none() => !p.by,
            _ => self.position().turn(),
        };
        if let Phase::Sealing { .. } | Phase::Adjourned { .. } = self.phase
            && !matches!(
                command,
                Command::Seal { .. }
                    | Command::Resume
                    | Command::Resign { .. }
                    | Command::CheckFlag
                    | Command::GiveTime { .. }
            )
        {
            return Err(CommandError::Adjourned);
        }
        match command {
            Command::Move { by, mv } => {
                if *by != to_move {
                    return Err(CommandError::NotYourTurn);
                }
                self.on_move(*by, mv, now, &mut events)?;
            }
            Command::OfferDraw { by } => self.on_offer(*by, now, &mut events)?,
            Command::AcceptDraw { by } => {
                if self.offer != Some(!*by) {
                    return Err(CommandError::NoOffer);
                }
                self.finish(GameResult::Draw, Reason::Agreement, now, &mut events);
            }
            Command::DeclineDraw { by } => {
                if self.offer != Some(!*by) {
                    return Err(CommandError::NoOffer);
                }
                self.offer = None;
                self.declined_at[(!*by).index()] = Some(self.moves_made[(!*by).index()]);
                events.push(Event::DrawDeclined { by: *by });
            }
            Command::ClaimDraw {
                by,
                claim,
                declared,
            } => {
                if *by != to_move {
                    return Err(CommandError::NotYourClaim);
                }
                self.on_claim(*by, *claim, declared.as_deref(), now, &mut events)?;
            }
            Command::Resign { by } => {
                let result = self.loss_for(*by);
                self.finish(result, Reason::Resignation, now, &mut events);
            }
            Command::Abort { .. } => {
                if self.moves_made[0] > 0 && self.moves_made[1] > 0 {
                    return Err(CommandError::TooLateToAbort);
                }
                self.finish(GameResult::NoResult, Reason::Aborted, now, &mut events);
            }
            Command::RequestTakeback { by } => {
                if !self.setup.options.takebacks {
                    return Err(CommandError::TakebacksOff);
                }
                if self.moves_made[by.index()] == 0
                    || self.takeback.is_some()
                    || self.pending_illegal.is_some()
                {
                    return Err(CommandError::NoTakeback);
                }
                self.takeback = Some(*by);
                events.push(Event::TakebackRequested { by: *by });
            }
            Command::AcceptTakeback { by } => {
                let Some(requester) = self.takeback.filter(|r| *r == !*by) else {
                    return Err(CommandError::NoTakeback);
                };
                self.on_takeback(requester, now, &mut events);
            }
            Command::DeclineTakeback { by } => {
                if self.takeback != Some(!*by) {
                    return Err(CommandError::NoTakeback);
                }
                self.takeback = None;
                events.push(Event::TakebackDeclined { by: *by });
            }
            Command::Adjourn => {
                if self.phase != Phase::Playing {
                    return Err(CommandError::Adjourned);
                }
                self.phase = Phase::Sealing { by: to_move };
                events.push(Event::Adjourned { by: to_move });
            }
            Command::Seal { by, mv } => {
                let Phase::Sealing { by: sealer } = self.phase else {
                    return Err(CommandError::NotAdjourned);
                };
                if *by != sealer {
                    return Err(CommandError::NotYourTurn);
                }
                if let Charge::Flagged(at) = self.clock.complete_move(sealer, now) {
                    let result = self.loss_for(sealer);
                    self.finish(result, Reason::TimeForfeit, at, &mut events);
                    return Ok(events);
                }
                self.phase = Phase::Adjourned {
                    by: sealer,
                    sealed: mv.clone(),
                };
                events.push(Event::Sealed { by: sealer });
            }
            Command::Resume => {
                let Phase::Adjourned { by, sealed } = self.phase.clone() else {
                    return Err(CommandError::NotAdjourned);
                };
                self.phase = Phase::Playing;
                events.push(Event::Resumed);
                match self.parse_move(&sealed) {
                    Ok(m) => {
                        let clock_ms = self.clock.remaining(by, now);
                        self.record_move(by, m, clock_ms, now, &mut events);
                    }
                    Err(_) => {
                        let result = GameResult::win(!by);
                        self.finish(result, Reason::InvalidSealedMove, now, &mut events);
                    }
                }
            }
            Command::CheckFlag => {}
            Command::GiveTime { by, ms } => {
                if self.clock.is_timed() {
                    self.clock.add(!*by, *ms);
                    events.push(Event::TimeAdded { to: !*by, ms: *ms });
                }
            }
            Command::ClaimIllegalMove { by } => {
                let Some(pending) = self.pending_illegal.take().filter(|p| p.by == !*by) else {
                    return Err(CommandError::NothingToClaim);
                };
                self.history = pending.before;
                self.plies.pop();
                self.moves_made[pending.by.index()] -= 1;
                // The offender's clock runs again: they must make a legal move.
                self.clock.stop(now);
                self.clock.start(pending.by, now);
                self.penalise_illegal(pending.by, &pending.text, now, &mut events);
            }
        }
        Ok(events)
    }

    /// Applies what time alone decides by `now`: a fallen flag or a missed first move.
    /// Returns true if the game ended.
    fn check_time(&mut self, now: Millis, events: &mut Vec<Event>) -> bool {
        if let Some((color, at)) = self.clock.flag_time()
            && at <= now
            && matches!(self.phase, Phase::Playing | Phase::Sealing { .. })
        {
            let result = self.loss_for(color);
            self.finish(result, Reason::TimeForfeit, at, events);
            return true;
        }
        if let ClockStart::AfterFirstMoves {
            first_move_timeout_ms,
        } = self.setup.clock_start
        {
            let to_move = self.position().turn();
            if self.moves_made[to_move.index()] == 0
                && now >= self.turn_began + first_move_timeout_ms
            {
                self.finish(
                    GameResult::NoResult,
                    Reason::FirstMoveTimeout,
                    self.turn_began + first_move_timeout_ms,
                    events,
                );
                return true;
            }
        }
        false
    }

    /// The result when `color` loses by resignation, time or infraction: a draw if the opponent
    /// could not checkmate by any series of legal moves (Arts. 5.1.2 as this project applies it,
    /// 6.9, 7.5.5).
    fn loss_for(&self, color: Color) -> GameResult {
        if self.position().can_checkmate(!color) {
            GameResult::win(!color)
        } else {
            GameResult::Draw
        }
    }

    fn finish(&mut self, result: GameResult, reason: Reason, at: Millis, events: &mut Vec<Event>) {
        let outcome = Outcome { result, reason, at };
        self.clock.stop(at);
        self.offer = None;
        self.takeback = None;
        self.phase = Phase::Over(outcome);
        events.push(Event::GameOver(outcome));
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveParseError> {
        let pos = self.position();
        pos.parse_uci(text.trim())
            .or_else(|_| pos.parse_san_lenient(text))
    }

    fn on_move(
        &mut self,
        by: Color,
        text: &str,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if let Some(pending) = self.pending_illegal.take() {
            // The opponent moved instead of claiming: the illegal move stands (A.5), unless it
            // left an illegal position on the board, which draws (A.5.4).
            if pending.after.is_none() {
                self.finish(GameResult::Draw, Reason::IllegalPosition, now, events);
                return Ok(());
            }
        }
        match self.parse_move(text) {
            Ok(m) => {
                let clock_ms = match self.clock.complete_move(by, now) {
                    Charge::Flagged(at) => {
                        let result = self.loss_for(by);
                        self.finish(result, Reason::TimeForfeit, at, events);
                        return Ok(());
                    }
                    Charge::InTime(ms) => self.clock.is_timed().then_some(ms),
                };
                self.record_move(by, m, clock_ms, now, events);
                Ok(())
            }
            Err(e) => self.on_illegal(by, text, e, now, events),
        }
    }

    /// Reads an illegal move as "this piece to that square", if the text says that much.
    fn irregular_squares(&self, text: &str) -> Option<(Square, Square, Option<Role>)> {
        let b = text.trim().as_bytes();
        if (4..=5).contains(&b.len())
            && let (Some(from), Some(to)) =
                (Square::from_ascii(&b[0..2]), Square::from_ascii(&b[2..4]))
        {
            let promo = b.get(4).and_then(|&c| Role::from_char(c as char));
            return Some((from, to, promo));
        }
        // SAN-like "Ke2" / "Nf5": the only piece of that kind.
        let pos = self.position();
        let role = Role::from_char(*b.first()? as char).filter(|_| b[0].is_ascii_uppercase())?;
        let to = Square::from_ascii(b.get(b.len().checked_sub(2)?..)?)?;
        let from = pos.pieces(pos.turn(), role).single()?;
        Some((from, to, None))
    }

    fn on_illegal(
        &mut self,
        by: Color,
        text: &str,
        err: MoveParseError,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let pos = self.position().clone();
        let squares = self.irregular_squares(text);
        // The casual foul rule: a king stepping into check.
        if let (Some(limit), Some((from, to, _))) =
            (self.setup.options.king_into_check_fouls, squares)
            && pos
                .piece_at(from)
                .is_some_and(|p| p.color == by && p.role == Role::King)
            && attacks::king(from).contains(to)
            && !pos.by_color(by).contains(to)
            && pos.is_attacked(to, !by, pos.occupied() ^ from.bb())
        {
            let count = {
                self.fouls[by.index()] += 1;
                self.fouls[by.index()]
            };
            events.push(Event::Foul { by, count });
            if count >= limit {
                self.finish(GameResult::win(!by), Reason::Fouls, now, events);
            }
            return Ok(());
        }
        let Mode::OverTheBoard { supervised } = self.setup.mode else {
            return Err(CommandError::BadMove(err));
        };
        let Some((from, to, promo)) = squares else {
            return Err(CommandError::BadMove(err));
        };
        if pos.piece_at(from).is_none_or(|p| p.color != by) {
            return Err(CommandError::NoSuchPiece);
        }
        // The illegal move was completed: the clock was pressed.
        if let Charge::Flagged(at) = self.clock.complete_move(by, now) {
            let result = self.loss_for(by);
            self.finish(result, Reason::TimeForfeit, at, events);
            return Ok(());
        }
        let label = format!("{from}-{to}");
        let unsupervised_fast = !supervised && matches!(self.speed(), Speed::Blitz | Speed::Rapid);
        if unsupervised_fast {
            let after = pos.play_irregular(from, to, promo);
            let before = self.history.clone();
            if let Some(after) = &after {
                self.history = History::new(after.clone());
            }
            self.plies.push(Ply {
                mv: Move::normal(from, to),
                san: label.clone(),
                uci: label.clone(),
                clock_ms: self.clock.remaining(by, now),
                draw_offer: false,
                notes: vec![format!("illegal move {label} (stands unless claimed)")],
                irregular: true,
            });
            self.moves_made[by.index()] += 1;
            self.pending_illegal = Some(PendingIllegal {
                by,
                text: label.clone(),
                before,
                after,
            });
            events.push(Event::IllegalMoveStands { by, mv: label });
            self.clock.start(!by, now);
            self.turn_began = now;
            return Ok(());
        }
        // Supervised: the position before the irregularity is reinstated at once (7.5.1) and
        // the offender, whose clock runs again, must make a legal move.
        self.clock.start(by, now);
        self.penalise_illegal(by, &label, now, events);
        Ok(())
    }

    /// Art. 7.5.5: the first completed illegal move gives the opponent time; the second loses.
    fn penalise_illegal(&mut self, by: Color, label: &str, now: Millis, events: &mut Vec<Event>) {
        self.illegal_moves[by.index()] += 1;
        let count = self.illegal_moves[by.index()];
        let penalty_ms = if count >= 2 { 0 } else { self.penalty_ms() };
        if penalty_ms > 0 {
            self.clock.add(!by, penalty_ms);
        }
        if let Some(last) = self.plies.last_mut() {
            last.notes.push(format!("illegal move {label} by {by}"));
        }
        events.push(Event::IllegalMove {
            by,
            mv: label.to_string(),
            count,
            penalty_ms,
        });
        if count >= 2 {
            let result = self.loss_for(by);
            self.finish(result, Reason::IllegalMoves, now, events);
        }
    }

    /// Plays a legal move whose clock has been dealt with.
    fn record_move(
        &mut self,
        by: Color,
        m: Move,
        clock_ms: Option<Millis>,
        now: Millis,
        events: &mut Vec<Event>,
    ) {
        let pos = self.position();
        let san = pos.san(m);
        let uci = pos.uci(m, self.chess960);
        self.history.push(m).expect("parsed moves are legal");
        self.moves_made[by.index()] += 1;
        let draw_offer = self.offer_mark_pending.take_if(|c| *c == by).is_some();
        self.plies.push(Ply {
            mv: m,
            san: san.clone(),
            uci: uci.clone(),
            clock_ms,
            draw_offer,
            notes: Vec::new(),
            irregular: false,
        });
        self.takeback = None;
        events.push(Event::Moved {
            by,
            uci,
            san,
            clock_ms,
        });
        if self.offer == Some(!by) {
            // Moving instead of answering rejects the offer (Art. 9.1.2.3).
            self.offer = None;
            self.declined_at[(!by).index()] = Some(self.moves_made[(!by).index()]);
            events.push(Event::DrawOfferLapsed { by: !by });
        }
        if let Some(o) = self.history.outcome() {
            self.finish(
                result_of(o.winner),
                Reason::from_termination(o.termination),
                now,
                events,
            );
            return;
        }
        self.turn_began = now;
        let clocks_on = self.clocks_on();
        if clocks_on {
            self.clock.start(!by, now);
        }
    }

    fn on_offer(
        &mut self,
        by: Color,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if self.offer == Some(!by) {
            // Offering back is accepting.
            self.finish(GameResult::Draw, Reason::Agreement, now, events);
            return Ok(());
        }
        if self.offer == Some(by) {
            return Err(CommandError::AlreadyOffered);
        }
        if self.moves_made.contains(&0) {
            return Err(CommandError::TooEarlyForDraw);
        }
        let from = self.setup.options.draw_offers_from_move;
        if self.position().fullmoves() < from {
            return Err(CommandError::OffersNotYet(from));
        }
        if let Some(at) = self.declined_at[by.index()]
            && self.moves_made[by.index()] < at + self.setup.options.offer_cooldown_moves
        {
            return Err(CommandError::OfferCooldown);
        }
        self.offer = Some(by);
        self.declined_at[(!by).index()] = None; // an offer from the opponent lifts their cooldown
        if self.position().turn() == by {
            // Made before moving: it still stands, and is recorded with the next move.
            self.offer_mark_pending = Some(by);
        } else if let Some(last) = self.plies.last_mut() {
            last.draw_offer = true;
        }
        events.push(Event::DrawOffered { by });
        Ok(())
    }

    fn on_claim(
        &mut self,
        by: Color,
        claim: Claim,
        declared: Option<&str>,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let declared = declared
            .map(|t| self.parse_move(t))
            .transpose()
            .map_err(CommandError::BadMove)?;
        let valid = match (claim, declared) {
            (Claim::Threefold, None) => self.history.can_claim_threefold(),
            (Claim::Threefold, Some(m)) => self.history.can_claim_threefold_with(m),
            (Claim::FiftyMoves, None) => self.history.can_claim_fifty(),
            (Claim::FiftyMoves, Some(m)) => self.history.can_claim_fifty_with(m),
        };
        if let Some(m) = declared {
            // The declared move is fixed and made (Art. 9.2.1.1; 9.5.3 when the claim fails).
            let uci = self.position().uci(m, self.chess960);
            self.on_move(by, &uci, now, events)?;
            if self.outcome().is_some() {
                return Ok(());
            }
        }
        let reason = match claim {
            Claim::Threefold => Reason::ThreefoldRepetition,
            Claim::FiftyMoves => Reason::FiftyMoves,
        };
        if valid {
            self.finish(GameResult::Draw, reason, now, events);
        } else {
            let penalty_ms = if self.clock.is_timed() {
                self.penalty_ms()
            } else {
                0
            };
            self.clock.add(!by, penalty_ms);
            if let Some(last) = self.plies.last_mut() {
                last.notes
                    .push(format!("incorrect {} claim by {by}", reason.describe()));
            }
            events.push(Event::ClaimRejected {
                by,
                claim,
                penalty_ms,
            });
        }
        Ok(())
    }

    fn on_takeback(&mut self, requester: Color, now: Millis, events: &mut Vec<Event>) {
        // Take back the requester's last move, and the opponent's reply if there was one.
        let plies = if self.position().turn() == requester {
            2
        } else {
            1
        };
        let plies = plies.min(self.plies.len());
        for _ in 0..plies {
            if self.plies.pop().is_some() {
                self.history.pop();
                let mover = self.position().turn();
                self.moves_made[mover.index()] -= 1;
            }
        }
        self.takeback = None;
        self.offer = None;
        self.offer_mark_pending = None;
        self.clock.stop(now);
        let to_move = self.position().turn();
        let clocks_on = self.clocks_on();
        if clocks_on {
            self.clock.start(to_move, now);
        }
        self.turn_began = now;
        events.push(Event::TakenBack { plies });
    }
}

impl Game {
    /// Whether the clocks run: always under FIDE rules, online only once both sides have moved.
    fn clocks_on(&self) -> bool {
        match self.setup.clock_start {
            ClockStart::Fide => true,
            ClockStart::AfterFirstMoves { .. } => self.moves_made.iter().all(|&n| n > 0),
        }
    }
}

fn result_of(winner: Option<Color>) -> GameResult {
    winner.map_or(GameResult::Draw, GameResult::win)
}
