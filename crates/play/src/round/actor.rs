//! The game actor: one task per live game. It owns the arbiter's game and the connections,
//! waits for requests and for the clock's next deadline, and dispatches each request to the
//! file of its concern. A command is applied to a copy of the game, stored, and only then
//! acknowledged and shown to everyone; on any error nothing has changed.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{broadcast, mpsc};
use vizier_arbiter::{Command, Game, Millis};
use vizier_rules::{Color, Reason};
use vizier_store::record::{self, GameRecord, Seat};
use vizier_store::{CommandRow, Ending, GameRow};

use super::computer::ComputerSeat;
use super::event::{GameEvent, Subscription, UPDATES_KEPT, Update};
use super::snapshot::Table;
use super::{Answer, Answered, GameHandle, Request};
use crate::act::{Act, Action};
use crate::hub::{Hub, HubError};
use crate::ids::{GameId, PlayerId};
use crate::refusal::{Refusal, Why};

/// The longest key a client may give an action.
const MAX_KEY_LEN: usize = 64;
/// Keyed answers a game remembers: more than a client has unacknowledged at once.
const ANSWERS_KEPT: usize = 32;

/// The answer given to a keyed action.
pub(super) struct Remembered {
    player: Option<PlayerId>,
    key: String,
    /// Why it was refused; `None`: it was done.
    refusal: Option<Refusal>,
}

/// One live game.
pub(crate) struct Round {
    /// What never changes: its id, kind, setup, start.
    pub(super) table: Arc<Table>,
    pub(super) seats: [Seat; 2],
    pub(super) created_at: Millis,
    /// When the arbiter's game began (a friend game begins when the friend joins).
    pub(super) started_at: Option<Millis>,
    /// The invite token while a friend game waits for the friend.
    pub(super) invite: Option<String>,
    pub(super) seed: u64,
    /// `None` while a friend game waits for the friend.
    pub(super) game: Option<Game>,
    /// The game's named opening, kept up to date move by move.
    pub(super) opening: Option<crate::opening::Opening>,
    /// How a friend game ended before anyone took the invite: abandoned (nobody came) or
    /// aborted (its creator withdrew it).
    pub(super) invite_ended: Option<Reason>,
    /// Increases with every change the viewers see.
    pub(super) version: u64,
    pub(super) connections: Vec<super::audience::Connection>,
    pub(super) next_conn: u64,
    /// A rematch asked for by this side.
    pub(super) rematch: Option<Color>,
    /// Its players' names and ratings, as shown.
    pub(super) players: Arc<super::rating::Players>,
    /// Since when each side's player has had no socket open, in a game they could leave.
    pub(super) gone: [Option<Millis>; 2],
    /// An adjournment asked for by this side, not yet agreed.
    pub(super) adjourn_asked: Option<Color>,
    /// Resuming the adjourned game asked for by this side, not yet agreed.
    pub(super) resume_asked: Option<Color>,
    pub(super) hub: Arc<Hub>,
    /// The last answers to actions sent with a key, for a client that sends one again.
    pub(super) answered: std::collections::VecDeque<Remembered>,
    /// Where the game's updates go to its subscribers.
    pub(super) updates: broadcast::Sender<Arc<Update>>,
    /// What happened since the last update, to publish with the next.
    pub(super) events: Vec<GameEvent>,
    /// An update is due once the request at hand is answered: whether it shows the game
    /// whole.
    pub(super) update_due: Option<bool>,
    /// The dead-position proof under way.
    pub(super) dead: super::proving::DeadWatch,
    /// The chat's last lines.
    pub(super) chat: Arc<[super::snapshot::ChatLine]>,
    /// Correspondence: each side's conditional premoves, once read from the store.
    pub(super) conditional: Option<[super::conditional::Lines; 2]>,
    /// Which sides' players came to the game since its task began.
    pub(super) present: [bool; 2],
}

impl Round {
    /// The game of a stored row, its commands replayed.
    pub(crate) fn restore(
        row: GameRow,
        commands: Vec<CommandRow>,
        hub: Arc<Hub>,
    ) -> Result<Round, HubError> {
        let corrupt = |source| HubError::Corrupt {
            game: GameId::stored(row.id.clone()),
            source,
        };
        let record = GameRecord::from_row(&row).map_err(corrupt)?;
        let log = record::read_commands(&commands).map_err(corrupt)?;
        let game = match record.started_at {
            None => None,
            Some(at) => {
                let mut game =
                    Game::replay(record.setup.clone(), at, &log).map_err(|(index, source)| {
                        HubError::Replay {
                            game: record.id.clone(),
                            index,
                            source,
                        }
                    })?;
                game.ask_for_proofs();
                Some(game)
            }
        };
        let (start, chess960) = match &game {
            Some(g) => (g.start_position().clone(), g.is_chess960()),
            None => {
                let waiting = Game::new(record.setup.clone(), 0).map_err(HubError::Setup)?;
                (waiting.start_position().clone(), waiting.is_chess960())
            }
        };
        let invite_ended = (game.is_none() && row.result.is_some()).then(|| {
            (row.reason.as_deref())
                .and_then(Reason::from_code)
                .unwrap_or(Reason::Abandoned)
        });
        let table = Table {
            id: record.id,
            kind: record.kind,
            rated: record.rated,
            created_at: record.created_at,
            setup: record.setup,
            start,
            chess960,
        };
        Ok(Round {
            table: Arc::new(table),
            seats: record.seats,
            created_at: record.created_at,
            started_at: record.started_at,
            invite: record.invite.filter(|_| invite_ended.is_none()),
            seed: record.seed,
            opening: game.as_ref().and_then(super::opening_of),
            game,
            invite_ended,
            version: commands.len() as u64 + u64::from(invite_ended.is_some()),
            connections: Vec::new(),
            next_conn: 0,
            rematch: None,
            players: Default::default(),
            gone: [None; 2],
            adjourn_asked: None,
            resume_asked: None,
            hub,
            answered: std::collections::VecDeque::new(),
            updates: broadcast::Sender::new(UPDATES_KEPT),
            events: Vec::new(),
            update_due: None,
            dead: Default::default(),
            chat: Arc::from([]),
            conditional: None,
            present: [false; 2],
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
        self.update_gone(self.hub.now());
        let handle = me.upgrade().map(GameHandle::new);
        if let Some(seat) = handle.and_then(|h| ComputerSeat::of(&self, h)) {
            tokio::spawn(seat.play(self.subscribe()));
        }
        // A restored game's pending proof is asked for again.
        self.watch_dead();
        loop {
            let deadline = self.game.as_ref().and_then(Game::deadline);
            let sleep = deadline.map(|at| Duration::from_millis(at.saturating_sub(self.hub.now())));
            tokio::select! {
                request = rx.recv() => match request {
                    Some(r) => Box::pin(self.handle(*r)).await,
                    None => break,
                },
                found = self.dead.answer(), if self.dead.waiting() => {
                    Box::pin(self.on_proof(found)).await;
                }
                _ = tokio::time::sleep(sleep.unwrap_or(Duration::MAX)), if sleep.is_some() => {
                    if let Err(refusal) = Box::pin(self.command(Command::CheckFlag)).await {
                        // Storage trouble: try again shortly rather than spin.
                        tracing::warn!(game = %self.table.id, "flag check not stored: {}", refusal.message);
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }
            }
            self.send_update();
            // A game nobody watches, with no clock to watch and no computer's move to wait
            // for, needs no task (finished, waiting for a friend, or without a clock); it is
            // loaded again when asked for.
            let idle = self.game.as_ref().and_then(Game::deadline).is_none()
                && !self.computer_to_move()
                && !self.dead.waiting();
            if self.connections.is_empty() && idle {
                break;
            }
        }
        drop(rx);
        self.hub.forget(&self.table.id);
    }

    /// The sides `player` holds.
    pub(super) fn sides_of(&self, player: Option<&PlayerId>) -> Vec<Color> {
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
                reply,
            } => self.connect(player, address, reply),
            Request::Disconnect { conn } => self.disconnect(conn),
            Request::Subscribe { reply } => {
                let _ = reply.send(self.subscribe());
            }
            Request::Client { conn, act, reply } => {
                let answer = self.on_client(conn, act).await;
                let _ = reply.send(Answered {
                    version: self.version,
                    answer,
                });
            }
            Request::Act { player, act, reply } => {
                let answer = self.on_act(Some(player), act).await;
                let _ = reply.send(Answered {
                    version: self.version,
                    answer,
                });
            }
            Request::ComputerMove {
                version,
                uci,
                reply,
            } => {
                let _ = reply.send(self.computer_move(version, uci).await);
            }
            Request::Export { reply } => {
                let _ = reply.send(self.export());
            }
            Request::Expire { expiry, reply } => {
                let _ = reply.send(self.expire(expiry).await);
            }
        }
    }

    /// A new subscription: the whole game now, and every update from here on.
    pub(super) fn subscribe(&self) -> Subscription {
        let updates = self.updates.subscribe();
        Subscription {
            round: self.snapshot(true),
            updates,
        }
    }

    async fn on_client(&mut self, conn: u64, act: Act) -> Answer {
        let Some(player) = self
            .connections
            .iter()
            .find(|c| c.id == conn)
            .map(|c| c.player.clone())
        else {
            return Answer::Refused(Refusal::new(
                Why::BadRequest,
                "this connection has left the game",
            ));
        };
        self.on_act(player, act).await
    }

    /// `player`'s request (a connection's or an API call's).
    async fn on_act(&mut self, player: Option<PlayerId>, act: Act) -> Answer {
        let arrived = std::time::Instant::now();
        // Once both came (after the first moves) nothing is looked up at every move.
        if self.present != [true; 2] {
            for side in self.sides_of(player.as_ref()) {
                self.present[side.index()] = true;
            }
        }
        // Pings and resyncs are answered afresh every time.
        let key = act
            .key
            .clone()
            .filter(|_| !matches!(act.action, Action::Ping | Action::Resync));
        if let Some(key) = &key {
            if key.len() > MAX_KEY_LEN {
                return Answer::Refused(Refusal::new(
                    Why::BadRequest,
                    "a key has at most 64 characters",
                ));
            }
            let seen = (self.answered.iter()).find(|a| a.player == player && a.key == *key);
            if let Some(seen) = seen {
                return match &seen.refusal {
                    None => Answer::Done,
                    Some(r) => Answer::Refused(r.clone()),
                };
            }
        }
        let outcome = match act.action {
            Action::Ping => return Answer::Pong,
            Action::Resync => return Answer::State(self.snapshot(true)),
            Action::Chat { room, text } => self.chat(player.as_ref(), &room, &text),
            Action::Join { invite } => self.join(player.as_ref(), &invite).await,
            Action::Abort if self.game.is_none() => self.withdraw_invite(player.as_ref()).await,
            Action::Rematch => self.ask_rematch(player.as_ref(), act.side).await,
            Action::Adjourn => {
                let ask = super::adjourn::Ask::Adjourn;
                self.ask(ask, player.as_ref(), act.side).await
            }
            Action::Resume => {
                let ask = super::adjourn::Ask::Resume;
                self.ask(ask, player.as_ref(), act.side).await
            }
            Action::Conditional { lines } => {
                (self.set_conditional(player.as_ref(), act.side, &lines)).await
            }
            action => match self.command_for(player.as_ref(), act.side, action) {
                Err(e) => Err(e),
                Ok(command) => {
                    let a_move = matches!(command, Command::Move { .. });
                    let done = self.command(command).await;
                    if done.is_ok() && a_move {
                        self.answer_conditional().await;
                    }
                    done
                }
            },
        };
        if let Some(key) = key {
            if self.answered.len() >= ANSWERS_KEPT {
                self.answered.pop_front();
            }
            self.answered.push_back(Remembered {
                player: player.clone(),
                key,
                refusal: outcome.as_ref().err().cloned(),
            });
        }
        match outcome {
            Ok(()) => {
                metrics::histogram!(crate::metrics::ACK_SECONDS)
                    .record(arrived.elapsed().as_secs_f64());
                Answer::Done
            }
            Err(refusal) => Answer::Refused(refusal),
        }
    }

    /// Applies, stores, then publishes a command. On any error nothing has changed; a
    /// question of the arbiter's is an error here ([`Round::command`] answers it).
    pub(super) async fn apply_command(&mut self, command: Command) -> Result<(), Refusal> {
        let Some(game) = &mut self.game else {
            return Err(Refusal::new(
                Why::NotStarted,
                "the game has not started: waiting for your friend",
            ));
        };
        let last = game.log().last().map_or(game.created_at(), |(t, _)| *t);
        let now = self.hub.now().max(last);
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
        let mut reported = game.apply(now, command)?;
        // Against the computer a takeback is granted at once: the computer always agrees.
        if takeback_by_computer
            && let Some((_, Command::RequestTakeback { by })) = game.log().last()
            && let Ok(more) = game.apply(now, Command::AcceptTakeback { by: !*by })
        {
            reported.extend(more);
        }
        let stored = &game.log()[first..];
        let rows: Vec<CommandRow> = (first as i64..)
            .zip(stored)
            .map(|(seq, (at, c))| record::command_row(seq, *at, c))
            .collect();
        let table = &self.table;
        let rated = game
            .outcome()
            .filter(|o| !was_over && super::rating::counts(o, game.plies().len()))
            .and_then(|_| {
                super::rating::rated_players(table.rated, &table.setup.control, &self.seats)
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
        let stored = self
            .hub
            .store
            .append_ending(table.id.as_str(), &rows, ending)
            .await;
        if let Err(e) = stored {
            tracing::error!(game = %self.table.id, "{e}");
            let game = self.game.as_ref().expect("the game was there");
            let mut before = Game::replay(
                game.setup().clone(),
                game.created_at(),
                &game.log()[..first],
            )
            .expect("a game's own commands replay");
            before.ask_for_proofs();
            self.game = Some(before);
            return Err(Refusal::new(
                Why::Storage,
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
        let ended = game.outcome().filter(|_| !was_over);
        if let Some(o) = ended {
            tracing::info!(game = %self.table.id, result = o.result.pgn(), reason = o.reason.code(), plies = game.plies().len(), "game over");
        }
        if a_move {
            self.adjourn_asked = None; // moving on declines an adjournment asked for
        }
        // One move that added one ply (an illegal move taken back adds none).
        let single_move =
            matches!(stored, [(_, Command::Move { .. })]) && game.plies().len() == plies_before + 1;
        self.version += stored.len() as u64;
        if rated.is_some() {
            // The new ratings and the change, for everyone to see with the result.
            self.load_players().await;
        }
        self.events.extend(
            (reported.into_iter())
                .filter(|e| !matches!(e, vizier_arbiter::Event::GameOver(_)))
                .map(GameEvent::Arbiter),
        );
        if let Some(outcome) = ended {
            self.events.push(GameEvent::Ended {
                outcome,
                ratings: self.players.changes.clone(),
                opening,
            });
        }
        // A rated game's end changes the players' ratings too: a whole view shows them.
        self.publish(!single_move || rated.is_some());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hub::{NewGame, Settings};
    use crate::ids::PlayerId;
    use vizier_arbiter::Setup;
    use vizier_store::Store;
    use vizier_store::record::Kind;

    #[tokio::test]
    async fn a_command_the_store_refuses_changes_nothing() {
        let dir = std::env::temp_dir().join(format!("vizier-actor-{}", rand::random::<u64>()));
        let hub = Hub::new(Store::sqlite(&dir).await.unwrap(), Settings::default());
        let new = NewGame::new(Kind::Local, Setup::default());
        let id = hub
            .create(
                &[crate::policy::Party::new(&PlayerId::known("p"), None)],
                new,
            )
            .await
            .unwrap();
        let (row, commands) = hub.store.load(id.as_str()).await.unwrap().unwrap();
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
        assert_eq!(refused.why, Why::Storage);
        assert!(seen(&round) == before, "a refused move left a trace");
        let refused = round.command(Command::Resign { by: Color::Black }).await;
        assert!(refused.is_err());
        assert!(!round.over(), "a refused resignation ended the game");
        std::fs::remove_dir_all(dir).ok();
    }
}
