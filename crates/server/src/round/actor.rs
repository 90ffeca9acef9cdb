//! The game actor: one task per live game. It owns the arbiter's game and the connections,
//! waits for requests and for the clock's next deadline, and dispatches each request to the
//! file of its concern. A command is applied to a copy of the game, stored, and only then
//! acknowledged and shown to everyone; on any error nothing has changed.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use tokio::sync::mpsc;
use vizier_arbiter::{Command, Game, Millis, Setup};
use vizier_rules::{Color, Position, Reason};

use super::computer::Computer;
use super::{Refusal, Request};
use crate::hub::{Hub, HubError, now_ms};
use crate::protocol::{Action, ClientMessage, ErrorCode, ServerMessage};
use vizier_store::record::{self, GameRecord, Kind, Seat};
use vizier_store::{CommandRow, Ending, GameRow};

/// A viewer's connection.
pub(super) struct Connection {
    pub id: u64,
    /// The player's cookie id (none: a client without one).
    pub player: Option<String>,
    /// The client's address, as the per-address limits count it.
    pub address: Option<String>,
    pub outbox: super::Outbox,
}

/// The longest key a client may give an action.
const MAX_KEY_LEN: usize = 64;
/// Keyed answers a game remembers: more than a client has unacknowledged at once.
const ANSWERS_KEPT: usize = 32;

/// The answer given to a keyed action.
pub(super) struct Answered {
    player: Option<String>,
    key: String,
    /// Why it was refused; `None`: it was done.
    refusal: Option<Refusal>,
}

/// Sleeps until `at` (forever without one).
async fn sleep_until(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// One live game.
pub(crate) struct Round {
    pub(super) id: String,
    pub(super) kind: Kind,
    pub(super) seats: [Seat; 2],
    pub(super) setup: Setup,
    pub(super) created_at: Millis,
    /// When the arbiter's game began (a friend game begins when the friend joins).
    pub(super) started_at: Option<Millis>,
    /// The invite token while a friend game waits for the friend.
    pub(super) invite: Option<String>,
    pub(super) seed: u64,
    /// The start position (known before a waiting game begins).
    pub(super) start: Position,
    /// `None` while a friend game waits for the friend.
    pub(super) game: Option<Game>,
    /// The game's named opening, kept up to date move by move.
    pub(super) opening: Option<crate::opening::Opening>,
    /// How a friend game ended before anyone took the invite: abandoned (nobody came) or
    /// aborted (its creator withdrew it).
    pub(super) invite_ended: Option<Reason>,
    /// Increases with every change the viewers see.
    pub(super) version: u64,
    pub(super) connections: Vec<Connection>,
    next_conn: u64,
    pub(super) computer: Computer,
    /// A rematch asked for by this side.
    pub(super) rematch: Option<Color>,
    /// Whether the game changes its players' ratings.
    pub(super) rated: bool,
    /// Its players' names and ratings, as shown.
    pub(super) players: super::rating::Players,
    /// Since when each side's player has had no socket open, in a game they could leave.
    pub(super) gone: [Option<Millis>; 2],
    /// An adjournment asked for by this side, not yet agreed.
    pub(super) adjourn_asked: Option<Color>,
    /// Resuming the adjourned game asked for by this side, not yet agreed.
    pub(super) resume_asked: Option<Color>,
    pub(super) hub: Arc<Hub>,
    /// The last answers to actions sent with a key, for a client that sends one again.
    pub(super) answered: std::collections::VecDeque<Answered>,
}

impl Round {
    /// The game of a stored row, its commands replayed.
    pub(crate) fn restore(
        row: GameRow,
        commands: Vec<CommandRow>,
        hub: Arc<Hub>,
    ) -> Result<Round, HubError> {
        let corrupt = |source| HubError::Corrupt {
            game: row.id.clone(),
            source,
        };
        let record = GameRecord::from_row(&row).map_err(corrupt)?;
        let log = record::read_commands(&commands).map_err(corrupt)?;
        let game = match record.started_at {
            None => None,
            Some(at) => Some(Game::replay(record.setup.clone(), at, &log).map_err(
                |(index, source)| HubError::Replay {
                    game: record.id.clone(),
                    index,
                    source,
                },
            )?),
        };
        let start = match &game {
            Some(g) => g.start_position().clone(),
            None => Game::new(record.setup.clone(), 0)
                .map_err(HubError::Setup)?
                .start_position()
                .clone(),
        };
        let invite_ended = (game.is_none() && row.result.is_some()).then(|| {
            (row.reason.as_deref())
                .and_then(Reason::from_code)
                .unwrap_or(Reason::Abandoned)
        });
        Ok(Round {
            id: record.id,
            kind: record.kind,
            seats: record.seats,
            setup: record.setup,
            created_at: record.created_at,
            started_at: record.started_at,
            invite: record.invite.filter(|_| invite_ended.is_none()),
            seed: record.seed,
            start,
            opening: game.as_ref().and_then(super::opening_of),
            game,
            invite_ended,
            version: commands.len() as u64 + u64::from(invite_ended.is_some()),
            connections: Vec::new(),
            next_conn: 0,
            computer: Computer::default(),
            rematch: None,
            rated: record.rated,
            players: Default::default(),
            gone: [None; 2],
            adjourn_asked: None,
            resume_asked: None,
            hub,
            answered: std::collections::VecDeque::new(),
        })
    }

    pub(super) fn over(&self) -> bool {
        self.game.as_ref().is_some_and(|g| g.outcome().is_some())
    }

    /// Serves requests and the clock until nobody needs the game's task any more. The round
    /// comes boxed: a future holds its argument twice, and a round is 2.3 KiB. Each request's
    /// work runs in a future of its own, boxed, so that a game waiting for its next request
    /// (most of the time) holds only the loop's state, not the deepest command's.
    pub(crate) async fn run(
        mut self: Box<Self>,
        mut rx: mpsc::Receiver<Box<Request>>,
        me: mpsc::WeakSender<Box<Request>>,
    ) {
        Box::pin(self.load_players()).await;
        self.update_gone(now_ms());
        loop {
            if let Some(game) = &self.game {
                let searches = (&self.hub.settings, &self.hub.engines);
                self.computer
                    .maybe_think(game, &self.seats, self.seed, searches, &me);
            }
            let deadline = self.game.as_ref().and_then(Game::deadline);
            let sleep = deadline.map(|at| Duration::from_millis(at.saturating_sub(now_ms())));
            let release = self.computer.release_at();
            tokio::select! {
                request = rx.recv() => match request {
                    Some(r) => Box::pin(self.handle(*r)).await,
                    None => break,
                },
                () = sleep_until(release), if release.is_some() => self.computer.release(),
                _ = tokio::time::sleep(sleep.unwrap_or(Duration::MAX)), if sleep.is_some() => {
                    if let Err(refusal) = Box::pin(self.command(Command::CheckFlag)).await {
                        // Storage trouble: try again shortly rather than spin.
                        tracing::warn!(game = %self.id, "flag check not stored: {}", refusal.message);
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }
            }
            // A game nobody watches, with no clock to watch and no search running, needs no
            // task (finished, waiting for a friend, or without a clock); it is loaded again
            // when asked for.
            let idle = self.game.as_ref().and_then(Game::deadline).is_none()
                && !self.computer.is_thinking();
            if self.connections.is_empty() && idle {
                break;
            }
        }
        drop(rx);
        self.computer.stop();
        self.hub.forget(&self.id);
    }

    /// The address of `player`'s latest connection, if any.
    pub(super) fn address_of(&self, player: &str) -> Option<&str> {
        (self.connections.iter().rev())
            .find(|c| c.player.as_deref() == Some(player))
            .and_then(|c| c.address.as_deref())
    }

    /// Whether each side's player has a connection open.
    pub(super) fn presence(&self) -> [bool; 2] {
        Color::ALL.map(|c| match &self.seats[c.index()] {
            Seat::Player(id) => self
                .connections
                .iter()
                .any(|conn| conn.player.as_ref() == Some(id)),
            _ => false,
        })
    }

    /// The sides `player` holds.
    pub(super) fn sides_of(&self, player: Option<&str>) -> Vec<Color> {
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
                address,
                outbox,
                reply,
            } => {
                let seated = !self.sides_of(player.as_deref()).is_empty();
                if !seated && self.connections.len() >= self.hub.settings.limits.sockets_per_game {
                    return; // the reply is dropped: the socket closes
                }
                self.next_conn += 1;
                let id = self.next_conn;
                let _ = reply.send(id);
                let state = self.state_for(player.as_deref());
                let _ = outbox.try_send(ServerMessage::State(Box::new(state)).to_json().into());
                let before = self.presence();
                self.connections.push(Connection {
                    id,
                    player,
                    address,
                    outbox,
                });
                // Only a player's coming changes what others see, not a spectator's.
                if self.presence() != before {
                    self.update_gone(now_ms());
                    self.broadcast();
                }
            }
            Request::Disconnect { conn } => {
                let before = self.presence();
                self.connections.retain(|c| c.id != conn);
                if self.presence() != before {
                    self.update_gone(now_ms());
                    self.broadcast();
                }
            }
            Request::Client { conn, message } => self.on_client(conn, message).await,
            Request::ComputerMove { token, uci, seated } => {
                let Some(turn) = self.game.as_ref().map(|g| g.position().turn()) else {
                    return;
                };
                if !self.computer.answered(token, turn, seated) {
                    return;
                }
                if let Some(game) = &self.game
                    && game.outcome().is_none()
                {
                    let by = game.position().turn();
                    if let Err(refusal) = self.command(Command::Move { by, mv: uci }).await {
                        tracing::error!(game = %self.id, "computer move refused: {}", refusal.message);
                    }
                }
            }
            Request::Pgn { style, reply } => {
                let _ = reply.send(self.pgn(style));
            }
            Request::Export { reply } => {
                let _ = reply.send(self.export());
            }
            Request::Expire { expiry, reply } => {
                let _ = reply.send(self.expire(expiry).await);
            }
        }
    }

    /// Sends `message` to one connection.
    pub(super) fn reply(&self, conn: u64, message: ServerMessage) {
        if let Some(c) = self.connections.iter().find(|c| c.id == conn) {
            let _ = c.outbox.try_send(message.to_json().into());
        }
    }

    async fn on_client(&mut self, conn: u64, message: ClientMessage) {
        let arrived = std::time::Instant::now();
        let Some(player) = self
            .connections
            .iter()
            .find(|c| c.id == conn)
            .map(|c| c.player.clone())
        else {
            return;
        };
        let id = message.id;
        // Pings and resyncs are answered afresh every time.
        let key = message
            .key
            .clone()
            .filter(|_| !matches!(message.action, Action::Ping | Action::Resync));
        if let Some(key) = &key {
            if key.len() > MAX_KEY_LEN {
                let refusal =
                    Refusal::new(ErrorCode::BadMessage, "a key has at most 64 characters");
                self.reply(conn, refusal.into_error(id));
                return;
            }
            let seen = (self.answered.iter()).find(|a| a.player == player && a.key == *key);
            if let Some(seen) = seen {
                let again = match &seen.refusal {
                    None => ServerMessage::Ack { id },
                    Some(r) => r.clone().into_error(id),
                };
                self.reply(conn, again);
                return;
            }
        }
        let outcome = match message.action {
            Action::Ping => Ok(ServerMessage::Pong { id }),
            Action::Resync => {
                let state = self.state_for(player.as_deref());
                self.reply(conn, ServerMessage::State(Box::new(state)));
                return;
            }
            Action::Join { invite } => self.join(player.as_deref(), &invite, id).await,
            Action::Abort if self.game.is_none() => {
                self.withdraw_invite(player.as_deref(), id).await
            }
            Action::Rematch => self.ask_rematch(player.as_deref(), message.side, id).await,
            Action::Adjourn => {
                let ask = super::adjourn::Ask::Adjourn;
                self.ask(ask, player.as_deref(), message.side, id).await
            }
            Action::Resume => {
                let ask = super::adjourn::Ask::Resume;
                self.ask(ask, player.as_deref(), message.side, id).await
            }
            action => match self.command_for(player.as_deref(), message.side, action) {
                Err(e) => Err(e),
                Ok(command) => self.command(command).await,
            }
            .map(|()| ServerMessage::Ack { id }),
        };
        if let Some(key) = key {
            if self.answered.len() >= ANSWERS_KEPT {
                self.answered.pop_front();
            }
            self.answered.push_back(Answered {
                player: player.clone(),
                key,
                refusal: outcome.as_ref().err().cloned(),
            });
        }
        let reply = match outcome {
            Ok(reply) => {
                metrics::histogram!(crate::metrics::ACK_SECONDS)
                    .record(arrived.elapsed().as_secs_f64());
                reply
            }
            Err(Refusal { code, message }) => {
                metrics::counter!(crate::metrics::REFUSED, "code" => code.as_str()).increment(1);
                ServerMessage::Error { id, code, message }
            }
        };
        self.reply(conn, reply);
    }

    /// Applies, stores, then shows a command. On any error nothing has changed.
    pub(super) async fn command(&mut self, command: Command) -> Result<(), Refusal> {
        let Some(game) = &mut self.game else {
            return Err(Refusal::new(
                ErrorCode::NotStarted,
                "the game has not started: waiting for your friend",
            ));
        };
        let last = game.log().last().map_or(game.created_at(), |(t, _)| *t);
        let now = now_ms().max(last);
        let first = game.log().len();
        let plies_before = game.plies().len();
        let was_over = game.outcome().is_some();
        let against_computer = self
            .seats
            .iter()
            .any(|s| matches!(s, Seat::Computer { .. }));
        let takeback_by_computer =
            matches!(command, Command::RequestTakeback { .. }) && against_computer;
        let a_move = matches!(command, Command::Move { .. });
        // The arbiter applies a command whole or not at all. Applied in place, not to a copy
        // (a copy of every move so far, at every move): a failed write replays the game
        // instead, which is rare.
        game.apply(now, command)?;
        // Against the computer a takeback is granted at once: the computer always agrees.
        if takeback_by_computer
            && let Some((_, Command::RequestTakeback { by })) = game.log().last()
        {
            let _ = game.apply(now, Command::AcceptTakeback { by: !*by });
        }
        let stored = &game.log()[first..];
        let rows: Vec<CommandRow> = (first as i64..)
            .zip(stored)
            .map(|(seq, (at, c))| record::command_row(seq, *at, c))
            .collect();
        let rated = game
            .outcome()
            .filter(|o| !was_over && super::rating::counts(o, game.plies().len()))
            .and_then(|_| {
                super::rating::rated_players(self.rated, &self.setup.control, &self.seats)
            });
        let opening = super::opening_after(game, self.opening, plies_before);
        let ending = game.outcome().map(|o| Ending {
            result: o.result.pgn(),
            reason: o.reason.code(),
            at: o.at as i64,
            opening: opening.map(|o| vizier_store::OpeningName {
                eco: o.eco,
                name: o.name,
            }),
            rated: rated.as_ref(),
        });
        let stored = self.hub.store.append_ending(&self.id, &rows, ending).await;
        if let Err(e) = stored {
            tracing::error!(game = %self.id, "{e}");
            let game = self.game.as_ref().expect("the game was there");
            let before = Game::replay(
                game.setup().clone(),
                game.created_at(),
                &game.log()[..first],
            )
            .expect("a game's own commands replay");
            self.game = Some(before);
            return Err(Refusal::new(
                ErrorCode::Storage,
                "the move could not be saved; nothing changed — please try again",
            ));
        }
        self.opening = opening;
        let game = self.game.as_ref().expect("the game was there");
        let stored = &game.log()[first..];
        let moves = stored
            .iter()
            .filter(|(_, c)| matches!(c, Command::Move { .. }))
            .count();
        metrics::counter!(crate::metrics::MOVES).increment(moves as u64);
        if let Some(o) = game.outcome()
            && !was_over
        {
            tracing::info!(game = %self.id, result = o.result.pgn(), reason = o.reason.code(), plies = game.plies().len(), "game over");
        }
        let ended = game.outcome().is_some();
        if a_move {
            self.adjourn_asked = None; // moving on declines an adjournment asked for
        }
        // One move that added one ply (an illegal move taken back adds none).
        let single_move =
            matches!(stored, [(_, Command::Move { .. })]) && game.plies().len() == plies_before + 1;
        self.version += stored.len() as u64;
        if takeback_by_computer || ended {
            // A running search is stale (a takeback) or unwanted (the game ended: a
            // resignation, an abort, a flag): stop it.
            self.computer.forget();
        }
        if rated.is_some() {
            // The new ratings and the change, for everyone to see with the result.
            self.load_players().await;
        }
        // A rated game's end changes the players' ratings too: a whole state shows them.
        if single_move && rated.is_none() {
            self.broadcast_move();
        } else {
            self.broadcast();
        }
        Ok(())
    }

    /// Sends every viewer the game as they may see it.
    pub(super) fn broadcast(&self) {
        self.send_views(
            |c| self.sides_of(c.player.as_deref()),
            |c| ServerMessage::State(Box::new(self.state_for(c.player.as_deref()))),
        );
    }

    /// Sends every viewer the last move and what changed with it.
    fn broadcast_move(&self) {
        let turn = self.game.as_ref().map(|g| g.position().turn());
        self.send_views(
            |c| turn.is_some_and(|t| self.sides_of(c.player.as_deref()).contains(&t)),
            |c| match self.move_event_for(c.player.as_deref()) {
                Some(event) => ServerMessage::Move(Box::new(event)),
                None => ServerMessage::State(Box::new(self.state_for(c.player.as_deref()))),
            },
        );
    }

    /// Sends each connection its message, made and serialised once for all the connections
    /// with the same `view` (what they may see depends only on it): a thousand spectators
    /// cost one message and a thousand copies of a pointer.
    fn send_views<V: PartialEq>(
        &self,
        view: impl Fn(&Connection) -> V,
        message: impl Fn(&Connection) -> ServerMessage,
    ) {
        let mut made: Vec<(V, Utf8Bytes)> = Vec::new();
        for c in &self.connections {
            let v = view(c);
            let frame = match made.iter().find(|(seen, _)| *seen == v) {
                Some((_, frame)) => frame.clone(),
                None => {
                    let frame = Utf8Bytes::from(message(c).to_json());
                    made.push((v, frame.clone()));
                    frame
                }
            };
            // A client too slow to keep up misses messages; it resyncs when it reconnects.
            let _ = c.outbox.try_send(frame);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hub::{NewGame, Settings};
    use vizier_store::Store;

    #[tokio::test]
    async fn a_command_the_store_refuses_changes_nothing() {
        let dir = std::env::temp_dir().join(format!("vizier-actor-{}", rand::random::<u64>()));
        let hub = Hub::new(Store::sqlite(&dir).await.unwrap(), Settings::default());
        let new = NewGame {
            kind: Kind::Local,
            setup: Setup::default(),
            color: Color::White,
            level: 1,
            opponent: None,
            rated: false,
        };
        let id = hub
            .create(&[crate::policy::Party::new("p", None)], new)
            .await
            .unwrap();
        let (row, commands) = hub.store.load(&id).await.unwrap().unwrap();
        let mut round = Round::restore(row, commands, hub.clone()).unwrap();
        let mv = |by, mv: &str| Command::Move { by, mv: mv.into() };
        round.command(mv(Color::White, "e4")).await.unwrap();
        let seen = |r: &Round| {
            let g = r.game.as_ref().unwrap();
            (
                r.version,
                g.log().to_vec(),
                g.position().fen(),
                g.clock().clone(),
            )
        };
        let before = seen(&round);
        hub.store.close().await;
        let refused = round.command(mv(Color::Black, "e5")).await.unwrap_err();
        assert_eq!(refused.code, ErrorCode::Storage);
        assert!(seen(&round) == before, "a refused move left a trace");
        let refused = round.command(Command::Resign { by: Color::Black }).await;
        assert!(refused.is_err());
        assert!(!round.over(), "a refused resignation ended the game");
        std::fs::remove_dir_all(dir).ok();
    }
}
