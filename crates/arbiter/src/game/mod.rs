//! A game under the Laws as a state machine: timestamped commands in, events out. The log of
//! accepted commands is the truth; replaying it rebuilds the game exactly.
//!
//! This file holds the game's state and [`Game::apply`], which only dispatches: each procedure
//! of the Laws has its own module — [`moves`], [`offers`], [`claims`], [`takebacks`],
//! [`adjournment`] and [`illegal`].

mod adjournment;
mod claims;
mod command;
mod illegal;
mod moves;
mod offers;
mod proofs;
mod setup;
mod takebacks;

pub use command::{Claim, Command, CommandError, Event};
pub use moves::{Notation, Notes, Ply};
pub use setup::{ClockStart, Mode, Options, Setup, SetupError, StartPosition};

use vizier_rules::{Color, DeadCheck, History, Position, UciCastling};

use crate::Reason;
use crate::clock::{Clock, Millis, Speed};
use crate::outcome::{GameResult, Outcome};
use illegal::PendingIllegal;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Phase {
    Playing,
    Sealing { by: Color },
    Adjourned { by: Color, sealed: String },
    Over(Outcome),
}

/// Where an adjournment stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adjournment {
    /// This player, who has the move, must seal it; their clock runs.
    Sealing(Color),
    /// This player has sealed a move; the game waits to be resumed.
    Sealed(Color),
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
    /// Boxed: it holds a whole history, and is there only after an illegal move.
    pending_illegal: Option<Box<PendingIllegal>>,
    moves_made: [u32; 2],
    /// When the side to move's turn began (for the first-move timeout).
    turn_began: Millis,
    last_command_at: Millis,
    log: Vec<(Millis, Command)>,
    /// What the per-move dead-position check found for the position now.
    dead_check: DeadCheck,
    /// Whether a host answers what needs a deeper search ([`Game::ask_for_proofs`]).
    asks: bool,
    /// The host's answers so far.
    proofs: Vec<proofs::Proof>,
    /// For a game ended by a dead position: after how many plies it was dead.
    dead_after: Option<u32>,
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
            dead_check: DeadCheck::Alive,
            asks: false,
            proofs: Vec::new(),
            dead_after: None,
        };
        // A start position that is already decided (mate, stalemate, dead) ends at once.
        let (outcome, dead_check) = game.history.outcome_checked();
        game.dead_check = dead_check;
        if let Some(o) = outcome {
            if o.termination == vizier_rules::Termination::DeadPosition {
                game.dead_after = Some(0);
            }
            game.phase = Phase::Over(Outcome {
                result: result_of(o.winner),
                reason: o.termination.reason(),
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

    /// Where an adjournment stands: who must seal a move, or who has sealed one.
    ///
    /// ```
    /// use vizier_arbiter::{Adjournment, Command, Game, Setup};
    /// use vizier_rules::Color::White;
    /// let mut game = Game::new(Setup::default(), 0).unwrap();
    /// game.apply(1, Command::Adjourn).unwrap();
    /// assert_eq!(game.adjournment(), Some(Adjournment::Sealing(White)));
    /// game.apply(2, Command::Seal { by: White, mv: "e4".into() }).unwrap();
    /// assert_eq!(game.adjournment(), Some(Adjournment::Sealed(White)));
    /// ```
    pub fn adjournment(&self) -> Option<Adjournment> {
        match self.phase {
            Phase::Sealing { by } => Some(Adjournment::Sealing(by)),
            Phase::Adjourned { by, .. } => Some(Adjournment::Sealed(by)),
            _ => None,
        }
    }

    /// The player whose illegal move stands unless the opponent claims it now (unsupervised
    /// rapid and blitz, Appendix A.5).
    pub fn claimable_illegal_move(&self) -> Option<Color> {
        self.pending_illegal.as_ref().map(|p| p.by)
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
        !self.setup.options.no_abort
            && self.outcome().is_none()
            && (self.moves_made[0] == 0 || self.moves_made[1] == 0)
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
        let events = if self.cannot_refuse(now, &command) {
            self.apply_inner(now, &command)?
        } else {
            // Applied to a copy, so that a refused command changes nothing; the log, which
            // only an accepted command extends, stays out of the copy.
            let log = std::mem::take(&mut self.log);
            let mut next = self.clone();
            self.log = log;
            let events = next.apply_inner(now, &command)?;
            next.log = std::mem::take(&mut self.log);
            *self = next;
            events
        };
        self.last_command_at = now;
        // One place at a time, as the scoresheet: the log lasts as long as the game, and a
        // list that doubled would be a third empty on average.
        self.log.reserve_exact(1);
        self.log.push((now, command));
        Ok(events)
    }

    /// Whether `command` is a legal move by the player to move in a game being played, with no
    /// illegal move pending and no flag down: such a move is never refused, so it
    /// can be applied in place, without the copy that keeps a refused command from changing
    /// anything. Most commands are such moves.
    fn cannot_refuse(&self, now: Millis, command: &Command) -> bool {
        let Command::Move { by, mv } = command else {
            return false;
        };
        matches!(self.phase, Phase::Playing)
            && now >= self.last_command_at
            && self.clock.flag_time().is_none_or(|(_, at)| at > now)
            && self.pending_illegal.is_none()
            && *by == self.to_move()
            && self.parse_move(mv).is_ok()
    }

    fn apply_inner(&mut self, now: Millis, command: &Command) -> Result<Vec<Event>, CommandError> {
        if matches!(self.phase, Phase::Over(_)) {
            return Err(CommandError::GameOver);
        }
        if now < self.last_command_at {
            return Err(CommandError::TimeWentBackwards);
        }
        let mut events = Vec::new();
        if proofs::is_proof(command) {
            match command {
                Command::Proved {
                    side,
                    fen,
                    can_mate,
                } => self.proved(*side, fen, *can_mate)?,
                Command::DeadPosition { after } => self.proved_dead(*after, now, &mut events)?,
                _ => unreachable!("a proof"),
            }
            return Ok(events);
        }
        if self.check_time(now, &mut events)? {
            return Ok(events);
        }
        // Once the move is sealed, a draw may still be offered and agreed before the game
        // resumes (Guidelines I).
        let offer_while_sealed = matches!(self.phase, Phase::Adjourned { .. })
            && matches!(
                command,
                Command::OfferDraw { .. }
                    | Command::AcceptDraw { .. }
                    | Command::DeclineDraw { .. }
            );
        if let Phase::Sealing { .. } | Phase::Adjourned { .. } = self.phase
            && !offer_while_sealed
            && !matches!(
                command,
                Command::Seal { .. }
                    | Command::Resume
                    | Command::Resign { .. }
                    | Command::CheckFlag
                    | Command::Abandon
                    | Command::GiveTime { .. }
            )
        {
            return Err(CommandError::Adjourned);
        }
        let e = &mut events;
        match command {
            Command::Move { by, mv } => self.play(*by, mv, now, e)?,
            Command::OfferDraw { by } => self.offer_draw(*by, now, e)?,
            Command::AcceptDraw { by } => self.accept_draw(*by, now, e)?,
            Command::DeclineDraw { by } => self.decline_draw(*by, e)?,
            Command::ClaimDraw {
                by,
                claim,
                declared,
            } => self.claim_draw(*by, *claim, declared.as_deref(), now, e)?,
            Command::Resign { by } => self.resign(*by, now, e)?,
            Command::Abort { .. } => self.abort(now, e)?,
            Command::RequestTakeback { by } => self.request_takeback(*by, e)?,
            Command::AcceptTakeback { by } => self.accept_takeback(*by, now, e)?,
            Command::DeclineTakeback { by } => self.decline_takeback(*by, e)?,
            Command::Adjourn => self.adjourn(self.to_move(), e)?,
            Command::Seal { by, mv } => self.seal(*by, mv, now, e)?,
            Command::Resume => self.resume(now, e)?,
            Command::CheckFlag => {}
            Command::Abandon => self.finish(GameResult::NoResult, Reason::Abandoned, now, e),
            Command::ClaimLeft { by, win } => {
                // As if the one who left had lost on time: a win only for who could mate.
                let (result, reason) = if *win {
                    self.loss_for(!*by, Reason::Left)?
                } else {
                    (GameResult::Draw, Reason::Left)
                };
                self.finish(result, reason, now, e);
            }
            Command::GiveTime { by, ms } => self.give_time(*by, *ms, e),
            Command::ClaimIllegalMove { by } => self.claim_illegal_move(*by, now, e)?,
            Command::Peek { by } => self.peek(*by, e)?,
            Command::Berserk { by } => self.berserk(*by, e)?,
            Command::Vacation { by, until } => self.vacation(*by, *until, now, e)?,
            Command::Proved { .. } | Command::DeadPosition { .. } => unreachable!("answered above"),
        }
        Ok(events)
    }

    /// Whose turn it is.
    fn to_move(&self) -> Color {
        self.position().turn()
    }

    /// Art. 5.1.2: `by` resigns, and loses whatever is left on the board; in a dead position
    /// the game is already over.
    fn resign(
        &mut self,
        by: Color,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        self.dead_already()?;
        self.finish(GameResult::win(!by), Reason::Resignation, now, events);
        Ok(())
    }

    /// The game is called off before both players have moved; it has no result.
    fn abort(&mut self, now: Millis, events: &mut Vec<Event>) -> Result<(), CommandError> {
        if self.setup.options.no_abort {
            return Err(CommandError::NoAbort);
        }
        if self.moves_made[0] > 0 && self.moves_made[1] > 0 {
            return Err(CommandError::TooLateToAbort);
        }
        self.finish(GameResult::NoResult, Reason::Aborted, now, events);
        Ok(())
    }

    /// Blindfold: `by` looked at the board; noted once per move and side.
    fn peek(&mut self, by: Color, events: &mut Vec<Event>) -> Result<(), CommandError> {
        let last = self.plies.last_mut().ok_or(CommandError::NoMoveYet)?;
        if !last.peeks.contains(&by) {
            last.peeks.push(by);
        }
        events.push(Event::Peeked { by });
        Ok(())
    }

    /// Whether `by` may berserk now: the game allows it, they have not moved nor berserked,
    /// and their clock has a base time.
    pub fn can_berserk(&self, by: Color) -> bool {
        self.setup.options.berserk
            && self.outcome().is_none()
            && self.moves_made[by.index()] == 0
            && !self.clock.berserked(by)
            && matches!(&self.setup.control, crate::TimeControl::Clock(p) if p.first().is_some_and(|p| p.base_ms > 0))
    }

    fn berserk(&mut self, by: Color, events: &mut Vec<Event>) -> Result<(), CommandError> {
        if !self.can_berserk(by) {
            return Err(CommandError::NoBerserk);
        }
        self.clock.berserk(by);
        events.push(Event::Berserked { by });
        Ok(())
    }

    fn vacation(
        &mut self,
        by: Color,
        until: Millis,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if !matches!(
            self.setup.control,
            crate::TimeControl::Correspondence { .. }
        ) {
            return Err(CommandError::NoVacation);
        }
        self.clock.set_away(by, now, until);
        events.push(Event::Away {
            by,
            until: until.max(now),
        });
        Ok(())
    }

    fn give_time(&mut self, by: Color, ms: Millis, events: &mut Vec<Event>) {
        if self.clock.is_timed() {
            self.clock.add(!by, ms);
            events.push(Event::TimeAdded { to: !by, ms });
        }
    }

    /// How this game writes castling in UCI.
    fn castling(&self) -> UciCastling {
        UciCastling::for_chess960(self.chess960)
    }

    /// Applies what time alone decides by `now`: a fallen flag or a missed first move.
    /// Returns true if the game ended.
    fn check_time(&mut self, now: Millis, events: &mut Vec<Event>) -> Result<bool, CommandError> {
        if let Some((color, at)) = self.clock.flag_time()
            && at <= now
            && matches!(self.phase, Phase::Playing | Phase::Sealing { .. })
        {
            let (result, reason) = self.loss_for(color, Reason::TimeForfeit)?;
            self.finish(result, reason, at, events);
            return Ok(true);
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
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// `color` loses on time or by infraction (`reason`), unless the opponent cannot checkmate
    /// by any series of legal moves, which draws (Arts. 6.9, 7.5.5). Only a proof draws: a
    /// search that runs out of nodes leaves the loss.
    /// With an illegal position on the board (A.5) there is no such proof.
    fn loss_for(&self, color: Color, reason: Reason) -> Result<(GameResult, Reason), CommandError> {
        let pos = self.position();
        self.dead_already()?;
        if pos.validity().is_ok() && !self.can_mate(pos, !color)? {
            let drawn = match reason {
                Reason::TimeForfeit => Reason::TimeForfeitNoMate,
                Reason::IllegalMoves => Reason::IllegalMovesNoMate,
                other => other,
            };
            Ok((GameResult::Draw, drawn))
        } else {
            Ok((GameResult::win(!color), reason))
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
