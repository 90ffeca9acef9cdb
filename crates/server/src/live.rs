//! Live games: one task per game owns its arbiter, its connections and its clock timer. Every
//! command goes through the task, is applied to a copy of the game, stored, and only then
//! acknowledged and shown to everyone.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use tokio::sync::{mpsc, oneshot};
use vizier_arbiter::{Command, Game, GameResult, Reason, Setup, Tags, TimeControl};
use vizier_rules::{Color, Position};

use crate::protocol::{
    Action, ClaimsView, ClientMessage, ClockView, ErrorCode, MoveView, PlayerView, ResultView,
    ServerMessage, State, Status,
};
use crate::record::{Kind, Seat, Side, StoredCommand, StoredSetup};
use crate::store::{CommandRow, GameRow, Store, StoreError};

/// Unix time in ms.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Server-wide settings that games need.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Make the computer take a human-like time over its moves (off in tests).
    pub human_pace: bool,
}

/// A connection's outbox: JSON texts to send.
pub type Outbox = mpsc::Sender<String>;

enum Request {
    Connect {
        player: Option<String>,
        outbox: Outbox,
        reply: oneshot::Sender<u64>,
    },
    Disconnect {
        conn: u64,
    },
    Client {
        conn: u64,
        message: ClientMessage,
    },
    ComputerMove {
        token: u64,
        uci: String,
    },
    Pgn {
        reply: oneshot::Sender<String>,
    },
}

/// A handle on a live game's task.
#[derive(Clone)]
pub struct GameHandle {
    tx: mpsc::Sender<Request>,
}

impl GameHandle {
    /// Joins the game's audience; the returned connection id goes with later messages.
    pub async fn connect(&self, player: Option<String>, outbox: Outbox) -> Option<u64> {
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(Request::Connect {
                player,
                outbox,
                reply,
            })
            .await
            .ok()?;
        rx.await.ok()
    }

    /// Passes on a client's message.
    pub async fn message(&self, conn: u64, message: ClientMessage) -> bool {
        self.tx
            .send(Request::Client { conn, message })
            .await
            .is_ok()
    }

    /// Leaves the audience.
    pub async fn disconnect(&self, conn: u64) {
        let _ = self.tx.send(Request::Disconnect { conn }).await;
    }

    /// The game as PGN with clocks.
    pub async fn pgn(&self) -> Option<String> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Request::Pgn { reply }).await.ok()?;
        rx.await.ok()
    }
}

/// What a new game should be.
#[derive(Clone, Debug)]
pub struct NewGame {
    pub kind: Kind,
    pub setup: Setup,
    /// The creator's colour.
    pub color: Color,
    /// The computer's level (computer games).
    pub level: u8,
    /// The opponent's seat when already known (a rematch between friends).
    pub opponent: Option<Seat>,
}

/// All live games, by id.
pub struct Hub {
    games: Mutex<HashMap<String, GameHandle>>,
    store: Store,
    settings: Settings,
}

/// Why a game could not be opened or created.
#[derive(Debug)]
pub enum HubError {
    NotFound,
    Store(StoreError),
    Corrupt(String),
}

impl From<StoreError> for HubError {
    fn from(e: StoreError) -> HubError {
        HubError::Store(e)
    }
}

fn random_token(len: usize) -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::rng();
    (0..len)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

impl Hub {
    /// A hub over `store`.
    pub fn new(store: Store, settings: Settings) -> Arc<Hub> {
        Arc::new(Hub {
            games: Mutex::new(HashMap::new()),
            store,
            settings,
        })
    }

    /// Brings back every game that was live when the server stopped, so that clocks keep
    /// running and the computer keeps playing. Returns how many.
    pub async fn restore(self: &Arc<Hub>) -> Result<usize, HubError> {
        let ids = self.store.live_game_ids().await?;
        let mut n = 0;
        for id in ids {
            match self.game(&id).await {
                Ok(_) => n += 1,
                Err(e) => tracing::error!(game = %id, "cannot restore: {e:?}"),
            }
        }
        Ok(n)
    }

    /// Creates and stores a game; `creator` is the player's cookie id.
    pub async fn create(self: &Arc<Hub>, creator: &str, new: NewGame) -> Result<String, HubError> {
        let id = random_token(10);
        let now = now_ms();
        let me = Seat::Player(creator.to_string());
        let other = match (&new.opponent, new.kind) {
            (Some(seat), _) => seat.clone(),
            (None, Kind::Computer) => Seat::Computer { level: new.level },
            (None, Kind::Friend) => Seat::Open,
            (None, Kind::Local) => me.clone(),
        };
        let waiting = other == Seat::Open;
        let (white, black) = new.color.fold((me.clone(), other.clone()), (other, me));
        let row = GameRow {
            id: id.clone(),
            kind: new.kind.as_str().into(),
            created_at: now as i64,
            started_at: (!waiting).then_some(now as i64),
            setup: serde_json::to_string(&StoredSetup::from_setup(&new.setup))
                .expect("setups serialise"),
            white: white.to_text(),
            black: black.to_text(),
            invite: waiting.then(|| random_token(16)),
            seed: rand::random::<i64>(),
            result: None,
            reason: None,
        };
        // Refuse a setup the arbiter refuses before anything is stored.
        Game::new(new.setup.clone(), now).map_err(|e| HubError::Corrupt(e.to_string()))?;
        self.store.insert_game(&row).await?;
        tracing::info!(game = %id, kind = new.kind.as_str(), control = %new.setup.control.to_pgn(), "new game");
        Ok(id)
    }

    /// The live game `id`, loading it from the store if needed.
    pub async fn game(self: &Arc<Hub>, id: &str) -> Result<GameHandle, HubError> {
        if let Some(h) = self.games.lock().expect("hub lock").get(id)
            && !h.tx.is_closed()
        {
            return Ok(h.clone());
        }
        let (row, commands) = self.store.load(id).await?.ok_or(HubError::NotFound)?;
        let live = LiveGame::restore(row, commands, self.clone())?;
        let mut games = self.games.lock().expect("hub lock");
        // Another connection may have loaded it meanwhile: use theirs.
        if let Some(h) = games.get(id)
            && !h.tx.is_closed()
        {
            return Ok(h.clone());
        }
        let (tx, rx) = mpsc::channel(256);
        let handle = GameHandle { tx: tx.clone() };
        games.insert(id.to_string(), handle.clone());
        tokio::spawn(live.run(rx, tx.downgrade()));
        Ok(handle)
    }

    fn forget(&self, id: &str) {
        let mut games = self.games.lock().expect("hub lock");
        if games.get(id).is_some_and(|h| h.tx.is_closed()) {
            games.remove(id);
        }
    }

    /// Number of games with a task now.
    pub fn live_count(&self) -> usize {
        self.games.lock().expect("hub lock").len()
    }
}

/// The move list as clients see it, extended as moves are made, so that sending a state does
/// not replay the whole game; a takeback rebuilds it.
#[derive(Default)]
struct MoveList {
    views: Vec<MoveView>,
    /// The position after the last move in `views`.
    after: Option<Position>,
}

impl MoveList {
    fn update(&mut self, game: &Game) {
        let plies = game.plies();
        let n = self.views.len();
        let still_prefix = n <= plies.len()
            && (n == 0 || self.views[n - 1].uci == plies[n - 1].uci)
            && self.after.is_some();
        if !still_prefix {
            *self = MoveList::default();
        }
        let mut pos = self
            .after
            .take()
            .unwrap_or_else(|| game.start_position().clone());
        for p in &plies[self.views.len()..] {
            if !p.irregular {
                pos.play_unchecked(p.mv);
            }
            self.views.push(MoveView {
                san: p.san.clone(),
                uci: p.uci.clone(),
                clock: p.clock_ms,
                fen: pos.fen(),
                offer: p.draw_offer,
            });
        }
        self.after = Some(pos);
    }
}

struct Connection {
    id: u64,
    player: Option<String>,
    outbox: Outbox,
}

struct LiveGame {
    row: GameRow,
    kind: Kind,
    seats: [Seat; 2],
    setup: Setup,
    /// The start position (known before a waiting game begins).
    start: Position,
    /// `None` while a friend game waits for the friend.
    game: Option<Game>,
    version: u64,
    moves: MoveList,
    connections: Vec<Connection>,
    next_conn: u64,
    /// The search the computer is waiting for (a takeback makes a running one stale).
    thinking: Option<u64>,
    /// Each computer seat's table and search memory, kept from move to move as a UCI engine
    /// keeps its own through a game (the levels were measured that way).
    engines: [Option<Arc<vizier_engine::search::Shared>>; 2],
    next_think: u64,
    rematch: Option<Color>,
    hub: Arc<Hub>,
}

/// A stable code for how a game ended, for clients to translate.
fn reason_code(reason: Reason) -> String {
    match reason {
        Reason::Checkmate => "checkmate",
        Reason::Resignation => "resignation",
        Reason::Stalemate => "stalemate",
        Reason::DeadPosition => "dead-position",
        Reason::Agreement => "agreement",
        Reason::ThreefoldRepetition => "threefold-repetition",
        Reason::FiftyMoves => "fifty-move-rule",
        Reason::FivefoldRepetition => "fivefold-repetition",
        Reason::SeventyFiveMoves => "seventy-five-move-rule",
        Reason::TimeForfeit => "time-forfeit",
        Reason::IllegalMoves => "illegal-moves",
        Reason::IllegalPosition => "illegal-position",
        Reason::Fouls => "fouls",
        Reason::InvalidSealedMove => "invalid-sealed-move",
        Reason::Aborted => "aborted",
        Reason::FirstMoveTimeout => "first-move-timeout",
    }
    .to_string()
}

impl LiveGame {
    fn restore(
        row: GameRow,
        commands: Vec<CommandRow>,
        hub: Arc<Hub>,
    ) -> Result<LiveGame, HubError> {
        let corrupt = |what: &str| HubError::Corrupt(format!("game {}: {what}", row.id));
        let kind = Kind::parse(&row.kind).ok_or_else(|| corrupt("unknown kind"))?;
        let seats = [
            Seat::from_text(&row.white).ok_or_else(|| corrupt("bad white seat"))?,
            Seat::from_text(&row.black).ok_or_else(|| corrupt("bad black seat"))?,
        ];
        let stored: StoredSetup =
            serde_json::from_str(&row.setup).map_err(|e| corrupt(&e.to_string()))?;
        let setup = stored.to_setup().map_err(|e| corrupt(&e))?;
        let game = match row.started_at {
            None => None,
            Some(at) => {
                let mut log = Vec::with_capacity(commands.len());
                for c in &commands {
                    let s: StoredCommand =
                        serde_json::from_str(&c.command).map_err(|e| corrupt(&e.to_string()))?;
                    log.push((c.at_ms as u64, Command::from(s)));
                }
                let game = Game::replay(setup.clone(), at as u64, &log)
                    .map_err(|(i, e)| corrupt(&format!("command {i} does not replay: {e}")))?;
                Some(game)
            }
        };
        let mut moves = MoveList::default();
        if let Some(g) = &game {
            moves.update(g);
        }
        let start = match &game {
            Some(g) => g.start_position().clone(),
            None => Game::new(setup.clone(), 0)
                .map_err(|e| corrupt(&e.to_string()))?
                .start_position()
                .clone(),
        };
        Ok(LiveGame {
            moves,
            version: commands.len() as u64,
            row,
            kind,
            seats,
            setup,
            start,
            game,
            connections: Vec::new(),
            next_conn: 0,
            thinking: None,
            engines: [None, None],
            next_think: 0,
            rematch: None,
            hub,
        })
    }

    fn over(&self) -> bool {
        self.game.as_ref().is_some_and(|g| g.outcome().is_some())
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Request>, me: mpsc::WeakSender<Request>) {
        let id = self.row.id.clone();
        loop {
            self.maybe_think(&me);
            let deadline = self.game.as_ref().and_then(Game::deadline);
            let sleep = deadline.map(|at| Duration::from_millis(at.saturating_sub(now_ms())));
            tokio::select! {
                request = rx.recv() => match request {
                    Some(r) => self.handle(r).await,
                    None => break,
                },
                _ = tokio::time::sleep(sleep.unwrap_or(Duration::MAX)), if sleep.is_some() => {
                    if let Err((_, e)) = self.command(Command::CheckFlag).await {
                        // Storage trouble: try again shortly rather than spin.
                        tracing::warn!(game = %self.row.id, "flag check not stored: {e}");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }
            }
            // A finished game nobody watches needs no task; it is loaded again when asked for.
            if self.connections.is_empty() && (self.over() || self.game.is_none()) {
                break;
            }
        }
        drop(rx);
        self.hub.forget(&id);
    }

    fn sides_of(&self, player: Option<&str>) -> Vec<Color> {
        let Some(p) = player else { return Vec::new() };
        Color::ALL
            .into_iter()
            .filter(|c| self.seats[c.index()].is(p))
            .collect()
    }

    async fn handle(&mut self, request: Request) {
        match request {
            Request::Connect {
                player,
                outbox,
                reply,
            } => {
                self.next_conn += 1;
                let id = self.next_conn;
                let _ = reply.send(id);
                let state = self.state_for(player.as_deref());
                let _ = outbox.try_send(ServerMessage::State(Box::new(state)).to_json());
                self.connections.push(Connection { id, player, outbox });
                self.broadcast(); // presence changed
            }
            Request::Disconnect { conn } => {
                self.connections.retain(|c| c.id != conn);
                self.broadcast();
            }
            Request::Client { conn, message } => self.on_client(conn, message).await,
            Request::ComputerMove { token, uci } => {
                if self.thinking == Some(token) {
                    self.thinking = None;
                    if let Some(game) = &self.game
                        && game.outcome().is_none()
                    {
                        let by = game.position().turn();
                        let outcome = self.command(Command::Move { by, mv: uci }).await;
                        if let Err((_, message)) = outcome {
                            tracing::error!(game = %self.row.id, "computer move refused: {message}");
                        }
                    }
                }
            }
            Request::Pgn { reply } => {
                let _ = reply.send(self.pgn());
            }
        }
    }

    fn reply(&self, conn: u64, message: ServerMessage) {
        if let Some(c) = self.connections.iter().find(|c| c.id == conn) {
            let _ = c.outbox.try_send(message.to_json());
        }
    }

    async fn on_client(&mut self, conn: u64, message: ClientMessage) {
        let Some(player) = self
            .connections
            .iter()
            .find(|c| c.id == conn)
            .map(|c| c.player.clone())
        else {
            return;
        };
        let id = message.id;
        let error = |code, message: String| ServerMessage::Error { id, code, message };
        let outcome = match message.action {
            Action::Ping => Ok(ServerMessage::Pong { id }),
            Action::Resync => {
                self.reply(
                    conn,
                    ServerMessage::State(Box::new(self.state_for(player.as_deref()))),
                );
                return;
            }
            Action::Join { invite } => self
                .join(player.as_deref(), &invite)
                .await
                .map(|()| ServerMessage::Ack { id }),
            Action::Rematch => self
                .ask_rematch(player.as_deref(), message.side)
                .await
                .map(|()| ServerMessage::Ack { id }),
            action => match self.command_for(player.as_deref(), message.side, action) {
                Err(e) => Err(e),
                Ok(command) => self
                    .command(command)
                    .await
                    .map(|_| ServerMessage::Ack { id }),
            },
        };
        match outcome {
            Ok(reply) => self.reply(conn, reply),
            Err((code, text)) => self.reply(conn, error(code, text)),
        }
    }

    /// Turns a client's action into an arbiter command for a side the player holds.
    fn command_for(
        &self,
        player: Option<&str>,
        side: Option<Side>,
        action: Action,
    ) -> Result<Command, (ErrorCode, String)> {
        let Some(game) = &self.game else {
            return Err((
                ErrorCode::Refused,
                "the game has not started: waiting for your friend".into(),
            ));
        };
        if game.outcome().is_some() {
            return Err((ErrorCode::GameOver, "the game is over".into()));
        }
        let mine = self.sides_of(player);
        if mine.is_empty() {
            return Err((
                ErrorCode::NotYourSide,
                "you are watching this game, not playing it".into(),
            ));
        }
        let turn = game.position().turn();
        // The side an action belongs to by default: answering the opponent's offer or request
        // is for the other side; everything else is for the side to move.
        let natural = match action {
            Action::AcceptDraw | Action::DeclineDraw => game.draw_offer().map(|c| !c),
            Action::AcceptTakeback | Action::DeclineTakeback => game.takeback_request().map(|c| !c),
            Action::Takeback => Some(!turn),
            _ => Some(turn),
        };
        let by = match side.map(Color::from) {
            Some(c) if mine.contains(&c) => c,
            Some(_) => {
                return Err((ErrorCode::NotYourSide, "you do not play that side".into()));
            }
            None if mine.len() == 1 => mine[0],
            None => natural.unwrap_or(turn),
        };
        Ok(match action {
            Action::Move { uci } => Command::Move { by, mv: uci },
            Action::OfferDraw => Command::OfferDraw { by },
            Action::AcceptDraw => Command::AcceptDraw { by },
            Action::DeclineDraw => Command::DeclineDraw { by },
            Action::ClaimDraw { claim, declared } => Command::ClaimDraw {
                by,
                claim: claim.into(),
                declared,
            },
            Action::Resign => Command::Resign { by },
            Action::Abort => Command::Abort { by },
            Action::Takeback => Command::RequestTakeback { by },
            Action::AcceptTakeback => Command::AcceptTakeback { by },
            Action::DeclineTakeback => Command::DeclineTakeback { by },
            Action::Join { .. } | Action::Rematch | Action::Resync | Action::Ping => {
                unreachable!("handled before")
            }
        })
    }

    /// Applies, stores, then shows a command. On any error nothing has changed.
    async fn command(&mut self, command: Command) -> Result<(), (ErrorCode, String)> {
        let Some(game) = &self.game else {
            return Err((ErrorCode::Refused, "the game has not started".into()));
        };
        let last = game.log().last().map_or(game.created_at(), |(t, _)| *t);
        let now = now_ms().max(last);
        let mut next = game.clone();
        let takeback_by_computer = matches!(command, Command::RequestTakeback { .. })
            && self
                .seats
                .iter()
                .any(|s| matches!(s, Seat::Computer { .. }));
        next.apply(now, command.clone()).map_err(|e| {
            let code = if e == vizier_arbiter::CommandError::GameOver {
                ErrorCode::GameOver
            } else {
                ErrorCode::Refused
            };
            (code, e.to_string())
        })?;
        // Against the computer a takeback is granted at once: the computer always agrees.
        let mut stored = vec![(now, command)];
        if takeback_by_computer
            && let Some(Command::RequestTakeback { by }) = stored.first().map(|s| s.1.clone())
        {
            let accept = Command::AcceptTakeback { by: !by };
            if next.apply(now, accept.clone()).is_ok() {
                stored.push((now, accept));
            }
        }
        let first = game.log().len() as i64;
        let rows: Vec<CommandRow> = (first..)
            .zip(&stored)
            .map(|(seq, (at, c))| CommandRow {
                seq,
                at_ms: *at as i64,
                command: serde_json::to_string(&StoredCommand::from(c)).expect("serialises"),
            })
            .collect();
        let ended = next
            .outcome()
            .map(|o| (o.result.pgn(), reason_code(o.reason), o.at as i64));
        let ended = ended.as_ref().map(|(r, why, at)| (*r, why.as_str(), *at));
        if let Err(e) = self.hub.store.append(&self.row.id, &rows, ended).await {
            tracing::error!(game = %self.row.id, "{e}");
            return Err((
                ErrorCode::Storage,
                "the move could not be saved; nothing changed — please try again".into(),
            ));
        }
        self.moves.update(&next);
        if let Some(o) = next.outcome()
            && game.outcome().is_none()
        {
            tracing::info!(game = %self.row.id, result = o.result.pgn(), reason = %reason_code(o.reason), plies = next.plies().len(), "game over");
        }
        self.game = Some(next);
        self.version += stored.len() as u64;
        if self.thinking.is_some() && takeback_by_computer {
            self.thinking = None;
            // The running search is stale: stop it, and let the next one start afresh rather
            // than share a table with it.
            for engine in self.engines.iter_mut().filter_map(Option::take) {
                engine
                    .stop
                    .store(true, std::sync::atomic::Ordering::Relaxed);
            }
        }
        self.broadcast();
        Ok(())
    }

    async fn join(
        &mut self,
        player: Option<&str>,
        invite: &str,
    ) -> Result<(), (ErrorCode, String)> {
        let bad = |m: &str| Err((ErrorCode::BadInvite, m.to_string()));
        let Some(player) = player else {
            return bad("your browser did not send its player cookie; reload the page");
        };
        if self.game.is_some() || self.row.invite.as_deref() != Some(invite) {
            return bad("this invite has already been used or is wrong");
        }
        let open = self
            .seats
            .iter()
            .position(|s| *s == Seat::Open)
            .expect("a waiting game has an open seat");
        if self.seats[1 - open].is(player) {
            return bad("send this link to your friend: you cannot play both sides online");
        }
        let now = now_ms();
        let mut seats = self.seats.clone();
        seats[open] = Seat::Player(player.to_string());
        let game =
            Game::new(self.setup.clone(), now).map_err(|e| (ErrorCode::Refused, e.to_string()))?;
        if let Err(e) = self
            .hub
            .store
            .seat(
                &self.row.id,
                &seats[0].to_text(),
                &seats[1].to_text(),
                now as i64,
            )
            .await
        {
            tracing::error!(game = %self.row.id, "{e}");
            return Err((ErrorCode::Storage, "could not join; try again".into()));
        }
        self.seats = seats;
        self.row.invite = None;
        self.row.started_at = Some(now as i64);
        self.moves.update(&game);
        self.game = Some(game);
        self.version += 1;
        self.broadcast();
        Ok(())
    }

    async fn ask_rematch(
        &mut self,
        player: Option<&str>,
        side: Option<Side>,
    ) -> Result<(), (ErrorCode, String)> {
        if !self.over() {
            return Err((ErrorCode::Refused, "the game is still being played".into()));
        }
        let mine = self.sides_of(player);
        let Some(&me) = side
            .map(Color::from)
            .filter(|c| mine.contains(c))
            .as_ref()
            .or(mine.first())
        else {
            return Err((
                ErrorCode::NotYourSide,
                "only the players can ask for a rematch".into(),
            ));
        };
        let both_here = mine.len() == 2
            || self
                .seats
                .iter()
                .any(|s| matches!(s, Seat::Computer { .. }))
            || self.rematch == Some(!me);
        if !both_here {
            self.rematch = Some(me);
            self.version += 1;
            self.broadcast();
            return Ok(());
        }
        let player = player.expect("a player");
        let swapped = match &self.seats[me.index()] {
            // The asking player takes the other colour.
            Seat::Player(_) => !me,
            _ => me,
        };
        let level = self.seats.iter().find_map(|s| match s {
            Seat::Computer { level } => Some(*level),
            _ => None,
        });
        let mut setup = self.setup.clone();
        if let vizier_arbiter::StartPosition::Chess960(_) = setup.start {
            setup.start = vizier_arbiter::StartPosition::chess960_random();
        }
        let opponent = self.seats[(!me).index()].clone();
        let new_id = self
            .hub
            .create(
                player,
                NewGame {
                    kind: self.kind,
                    setup,
                    color: swapped,
                    level: level.unwrap_or(1),
                    opponent: Some(opponent),
                },
            )
            .await
            .map_err(|e| {
                (
                    ErrorCode::Storage,
                    format!("could not create the rematch: {e:?}"),
                )
            })?;
        for c in &self.connections {
            let _ = c.outbox.try_send(
                ServerMessage::Rematch {
                    game: new_id.clone(),
                }
                .to_json(),
            );
        }
        Ok(())
    }

    /// Starts the computer's search when it is its move.
    fn maybe_think(&mut self, me: &mpsc::WeakSender<Request>) {
        let Some(game) = &self.game else { return };
        if game.outcome().is_some() || self.thinking.is_some() {
            return;
        }
        let pos = game.position();
        let Seat::Computer { level } = self.seats[pos.turn().index()] else {
            return;
        };
        self.next_think += 1;
        let token = self.next_think;
        self.thinking = Some(token);
        let pos: Position = pos.clone();
        let history = game.history();
        let mut replay = history.start().clone();
        let mut keys = Vec::with_capacity(history.moves().len());
        for &m in history.moves() {
            keys.push(replay.repetition_key());
            replay.play_unchecked(m);
        }
        let now = now_ms();
        let clock = game.clock();
        let remaining = clock.remaining(pos.turn(), now);
        let turn = pos.turn();
        let engine_clock = remaining.map(|time| vizier_engine::timeman::Clock {
            time,
            inc: clock.current_period(turn).map_or(0, |p| p.increment_ms),
            movestogo: clock.moves_to_go(turn).map(|m| u64::from(m.max(1))),
        });
        let chess960 = game.is_chess960();
        let seed = self.row.seed as u64;
        let human_pace = self.hub.settings.human_pace;
        let engine = self.engines[turn.index()]
            .get_or_insert_with(|| Arc::new(vizier_engine::search::Shared::new(16)))
            .clone();
        let me = me.clone();
        tokio::spawn(async move {
            let started = tokio::time::Instant::now();
            let choice = tokio::task::spawn_blocking(move || {
                vizier_engine::level::choose(&engine, &pos, &keys, level, engine_clock, seed)
                    .map(|m| pos.uci(m, chess960))
            })
            .await;
            if human_pace {
                // A person needs a moment even for an obvious move; so does the computer here.
                let pace = engine_clock.map_or(700, |c| (c.time / 80).clamp(300, 1_500));
                tokio::time::sleep_until(started + Duration::from_millis(pace)).await;
            }
            if let (Ok(Some(uci)), Some(tx)) = (choice, me.upgrade()) {
                let _ = tx.send(Request::ComputerMove { token, uci }).await;
            }
        });
    }

    fn broadcast(&self) {
        for c in &self.connections {
            let state = self.state_for(c.player.as_deref());
            // A client too slow to keep up misses states; it resyncs when it reconnects.
            let _ = c
                .outbox
                .try_send(ServerMessage::State(Box::new(state)).to_json());
        }
    }

    fn player_view(&self, color: Color) -> PlayerView {
        match &self.seats[color.index()] {
            Seat::Open => PlayerView::Open,
            Seat::Computer { level } => PlayerView::Computer {
                level: *level,
                elo: crate::levels::elo(*level),
            },
            Seat::Player(id) => PlayerView::Human {
                online: self
                    .connections
                    .iter()
                    .any(|c| c.player.as_deref() == Some(id)),
            },
        }
    }

    fn state_for(&self, player: Option<&str>) -> State {
        let now = now_ms();
        let mine = self.sides_of(player);
        let you: Vec<Side> = mine.iter().map(|&c| c.into()).collect();
        let start = &self.start;
        let chess960 = self
            .game
            .as_ref()
            .map_or(start.is_chess960(), Game::is_chess960)
            || matches!(self.setup.start, vizier_arbiter::StartPosition::Chess960(_));
        let mut state = State {
            game: self.row.id.clone(),
            version: self.version,
            kind: self.kind,
            status: Status::Waiting,
            chess960,
            initial_fen: start.fen(),
            fen: start.fen(),
            turn: start.turn().into(),
            check: start.is_check(),
            moves: Vec::new(),
            you,
            white: self.player_view(Color::White),
            black: self.player_view(Color::Black),
            clock: None,
            server_time: now,
            dests: Default::default(),
            draw_offer: None,
            takeback: None,
            takebacks: self.setup.options.takebacks,
            claims: ClaimsView::default(),
            can_abort: false,
            result: None,
            invite: None,
            rematch: self.rematch.map(Side::from),
        };
        let Some(game) = &self.game else {
            if !mine.is_empty() {
                state.invite = self.row.invite.clone();
            }
            return state;
        };
        let pos = game.position();
        state.fen = pos.fen();
        state.turn = pos.turn().into();
        state.check = pos.is_check();
        state.moves = self.moves.views.clone();
        let clock = game.clock();
        if clock.is_timed() {
            let running = clock.running();
            let has_counts = matches!(&game.setup().control,
                TimeControl::Clock(periods) if periods.iter().any(|p| p.moves.is_some()));
            let moves_to_go = has_counts.then(|| Color::ALL.map(|c| clock.moves_to_go(c)));
            state.clock = Some(ClockView {
                white: clock.remaining(Color::White, now).unwrap_or(0),
                black: clock.remaining(Color::Black, now).unwrap_or(0),
                running: running.map(Side::from),
                delay_left: clock.delay_left(now),
                control: game.setup().control.to_pgn(),
                moves_to_go,
            });
        }
        match game.outcome() {
            Some(o) => {
                state.status = Status::Over;
                state.result = Some(ResultView {
                    pgn: o.result.pgn().into(),
                    score: o.result.display().into(),
                    reason: reason_code(o.reason),
                    article: o.reason.article().map(str::to_string),
                    winner: match o.result {
                        GameResult::WhiteWins => Some(Side::White),
                        GameResult::BlackWins => Some(Side::Black),
                        _ => None,
                    },
                });
            }
            None => {
                state.status = Status::Playing;
                state.draw_offer = game.draw_offer().map(Side::from);
                state.takeback = game.takeback_request().map(Side::from);
                state.can_abort = game.can_abort();
                if mine.contains(&pos.turn()) {
                    let history = game.history();
                    state.claims = ClaimsView {
                        threefold: history.can_claim_threefold(),
                        fifty: history.can_claim_fifty(),
                    };
                    let chess960 = game.is_chess960();
                    for m in pos.legal_moves().iter() {
                        let uci = pos.uci(*m, chess960);
                        state
                            .dests
                            .entry(uci[0..2].to_string())
                            .or_default()
                            .push(uci[2..4].to_string());
                    }
                    for d in state.dests.values_mut() {
                        d.dedup();
                    }
                }
            }
        }
        state
    }

    fn pgn(&self) -> String {
        let Some(game) = &self.game else {
            return String::new();
        };
        let name = |c: Color| match &self.seats[c.index()] {
            Seat::Computer { level } => format!("Vizier level {level}"),
            Seat::Player(_) => c.fold("White", "Black").to_string(),
            Seat::Open => "?".into(),
        };
        let date = self
            .row
            .started_at
            .map(|ms| crate::date::pgn_date(ms as u64))
            .unwrap_or_else(|| "????.??.??".into());
        game.pgn(&Tags {
            event: match self.kind {
                Kind::Computer => "Game against the computer",
                Kind::Friend => "Game between friends",
                Kind::Local => "Game on one device",
            }
            .into(),
            site: "Vizier".into(),
            date,
            round: "-".into(),
            white: name(Color::White),
            black: name(Color::Black),
        })
    }
}
