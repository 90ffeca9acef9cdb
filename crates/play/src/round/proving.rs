//! Proofs for a live game (#54's Laws in live play): a position the per-move check left open
//! goes to the proof pool, whose answer ends the game as a draw at the move where it became
//! dead (Art. 5.2.2); and the arbiter's questions on a flag fall, a second illegal move, a
//! left game claimed or a resignation are answered before the command is applied again, on a
//! blocking thread, within the pool's time. Nothing here runs a search on the game's task.

use vizier_arbiter::{Command, CommandError, Game, StartPosition};
use vizier_rules::{Color, Position};

use super::Round;
use crate::prover::{self, Found, Job};
use crate::refusal::{Refusal, Why};

/// The most positions back from the newest that a proof looks for where a game became dead.
const LOOK_BACK: usize = 16;
/// Questions one command may raise (a flag falls, then a resignation is asked about).
const MOST_QUESTIONS: usize = 3;

/// A game's dead-position proof under way.
#[derive(Default)]
pub(crate) struct DeadWatch {
    pending: Option<tokio::sync::oneshot::Receiver<Found>>,
    /// The plies of the newest position sent, and the fewest plies the game had since (a
    /// takeback makes positions sent stale).
    sent: Option<(usize, usize)>,
}

impl DeadWatch {
    /// The answer, when a proof is under way.
    pub(super) async fn answer(&mut self) -> Found {
        match self.pending.as_mut() {
            Some(rx) => rx.await.unwrap_or(Found::NotDead),
            None => std::future::pending().await,
        }
    }

    pub(super) fn waiting(&self) -> bool {
        self.pending.is_some()
    }
}

impl Round {
    /// Applies `command` as [`Round::apply_command`] does, first answering what the arbiter
    /// asks that only a deeper search can say.
    pub(super) async fn command(&mut self, command: Command) -> Result<(), Refusal> {
        for _ in 0..MOST_QUESTIONS {
            let question = match self.apply_command(command.clone()).await {
                Err(Refusal {
                    why: Why::Arbiter(CommandError::NeedsProof { side, fen }),
                    ..
                }) => (side, fen),
                done => {
                    self.note_plies();
                    self.watch_dead();
                    return done;
                }
            };
            let answer = self.answer(question).await;
            self.apply_command(answer).await?;
            if self.over() {
                return Err(Refusal::new(
                    Why::GameOver,
                    "the position is dead: the game had already ended in a draw",
                ));
            }
        }
        Err(Refusal::new(
            Why::GameOver,
            "the game could not settle what this command leads to",
        ))
    }

    /// The answer to the arbiter's question, searched on a blocking thread.
    async fn answer(&self, (side, fen): (Option<Color>, String)) -> Command {
        let game = self.game.as_ref().expect("a question comes from a game");
        let plies = game.plies().len();
        let time = self.hub.prover.time();
        let recent = recent_positions(game);
        let answered = tokio::task::spawn_blocking(move || {
            let answer = prover::answer(side, &fen, plies, time);
            match answer {
                // Dead now: perhaps since an earlier move.
                Some(Command::DeadPosition { .. }) => match recent {
                    Some((first, positions)) => match prover::first_dead(&positions, first, time) {
                        Found::Dead { after } => Some(Command::DeadPosition { after }),
                        Found::NotDead => answer,
                    },
                    None => answer,
                },
                other => other,
            }
        })
        .await;
        answered.ok().flatten().unwrap_or(Command::Proved {
            side: side.unwrap_or(Color::White),
            fen: String::new(),
            can_mate: None,
        })
    }

    /// Remembers a takeback's fewer plies against the proof under way.
    fn note_plies(&mut self) {
        let plies = self.game.as_ref().map_or(0, |g| g.plies().len());
        if let Some((_, fewest)) = &mut self.dead.sent {
            *fewest = (*fewest).min(plies);
        }
    }

    /// Sends the game's newest positions to the proof pool when the per-move check left the
    /// position open and no proof of it is under way.
    pub(super) fn watch_dead(&mut self) {
        let Some(game) = &self.game else { return };
        // A game set up from a position gets its start proved whatever the per-move check
        // says: a position made up can be dead in ways no cheap test sees, and it is once.
        let set_up = game.plies().is_empty()
            && game.outcome().is_none()
            && matches!(game.setup().start, StartPosition::Fen(_));
        if !(game.dead_open() || set_up) || self.dead.pending.is_some() {
            return;
        }
        let plies = game.plies().len();
        if self
            .dead
            .sent
            .is_some_and(|(sent, fewest)| sent == plies && fewest == plies)
        {
            return; // this very position was proved not dead
        }
        let Some((first, positions)) = recent_positions(game) else {
            return;
        };
        let (reply, answer) = tokio::sync::oneshot::channel();
        if self.hub.prover.submit(Job {
            positions,
            first,
            reply,
        }) {
            self.dead.pending = Some(answer);
            self.dead.sent = Some((plies, plies));
        }
    }

    /// The proof pool answered: a dead position ends the game where it became dead.
    pub(super) async fn on_proof(&mut self, found: Found) {
        self.dead.pending = None;
        let Some((_, fewest)) = self.dead.sent else {
            return;
        };
        if let Found::Dead { after } = found
            && after <= fewest
            && !self.over()
            && let Err(refusal) = self.command(Command::DeadPosition { after }).await
        {
            tracing::warn!(game = %self.table.id, "a dead position not stored: {}", refusal.message);
        }
        self.watch_dead();
    }
}

/// The positions after the game's last plies (up to [`LOOK_BACK`] of them), with the number
/// of plies of the first; none where an illegal move stood in the game (its board is not
/// replayed here).
fn recent_positions(game: &Game) -> Option<(usize, Vec<Position>)> {
    let plies = game.plies();
    if plies.iter().any(|p| p.irregular) {
        return None;
    }
    let first = plies.len().saturating_sub(LOOK_BACK);
    let mut pos = game.start_position().clone();
    let mut positions = Vec::with_capacity(plies.len() - first + 1);
    for (i, ply) in plies.iter().enumerate() {
        if i >= first {
            positions.push(pos.clone());
        }
        pos.play_unchecked(ply.mv);
    }
    positions.push(pos);
    Some((first, positions))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use vizier_arbiter::{ClockStart, GameResult, Reason, Setup, StartPosition, TimeControl};
    use vizier_store::Store;
    use vizier_store::record::Kind;

    use super::*;
    use crate::act::{Act, Action};
    use crate::hub::{Hub, NewGame, Settings};
    use crate::ids::{GameId, PlayerId};
    use crate::policy::Party;
    use crate::round::{Answer, GameEvent, GameHandle};

    /// One move before a dead position of the public vector that the per-move check leaves
    /// open: Black's rook on g2 can still help mate; Kxg2 locks the board.
    const BEFORE_DEAD: &str = "1k6/1P5p/BP3p2/1P6/8/8/5PrP/6K1 w - - 0 1";

    async fn local_game(fen: &str, control: TimeControl) -> (Arc<Hub>, GameHandle, u64) {
        local_game_with(fen, control, Settings::default()).await
    }

    async fn local_game_with(
        fen: &str,
        control: TimeControl,
        settings: Settings,
    ) -> (Arc<Hub>, GameHandle, u64) {
        let dir = std::env::temp_dir().join(format!("vizier-proofs-{}", rand::random::<u64>()));
        let hub = Hub::new(Store::sqlite(&dir).await.unwrap(), settings);
        let (_, handle, conn) = local_game_on(&hub, fen, control).await;
        (hub, handle, conn)
    }

    /// A game on one device from `fen`, on `hub`, with its player connected.
    async fn local_game_on(
        hub: &Arc<Hub>,
        fen: &str,
        control: TimeControl,
    ) -> (GameId, GameHandle, u64) {
        let setup = Setup {
            start: StartPosition::Fen(fen.into()),
            control,
            clock_start: ClockStart::Fide,
            ..Setup::default()
        };
        let me = PlayerId::known("p");
        let id = hub
            .create(&[Party::new(&me, None)], NewGame::new(Kind::Local, setup))
            .await
            .unwrap();
        let handle = hub.game(&id).await.unwrap();
        let connected = handle.connect(Some(me), None).await.unwrap();
        (id, handle, connected.conn)
    }

    async fn act(handle: &GameHandle, conn: u64, action: Action) -> Answer {
        let act = Act {
            side: None,
            key: None,
            action,
        };
        handle.act(conn, act).await.unwrap().await.unwrap().answer
    }

    async fn ended(handle: &GameHandle) -> vizier_arbiter::Game {
        for _ in 0..1_000 {
            let (game, _) = handle.export().await.unwrap();
            if game.outcome().is_some() {
                return game;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("the game did not end within 20 s");
    }

    /// Art. 5.2.2 in live play: moves reach a position only the deep decision proves dead;
    /// the proof pool ends the game as a draw at the move that made it dead, for everyone
    /// following the game.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_position_proved_dead_in_the_background_ends_the_game_there() {
        let (_hub, handle, conn) = local_game(BEFORE_DEAD, TimeControl::Unlimited).await;
        let mut watcher = handle.subscribe().await.unwrap().updates;
        for uci in ["g1g2", "h7h6", "g2g3"] {
            let answer = act(&handle, conn, Action::Move { uci: uci.into() }).await;
            assert!(
                uci != "g1g2" || matches!(answer, Answer::Done),
                "the start is alive: {answer:?}"
            );
            // A move after the position became dead may still be taken: the proof is not in.
            if !matches!(answer, Answer::Done) {
                break;
            }
        }
        let game = ended(&handle).await;
        let outcome = game.outcome().unwrap();
        assert_eq!(
            (outcome.result, outcome.reason),
            (GameResult::Draw, Reason::DeadPosition)
        );
        assert!(
            (game.log().iter()).any(|(_, c)| matches!(c, Command::DeadPosition { .. })),
            "the per-move check settles none of these: the proof did"
        );
        // The oracle: the deep decision on each position of the game.
        let mut positions = vec![game.start_position().clone()];
        let mut pos = positions[0].clone();
        for ply in game.plies() {
            pos.play_unchecked(ply.mv);
            positions.push(pos.clone());
        }
        let expected = prover::first_dead(&positions, 0, Duration::from_secs(30));
        assert_eq!(game.dead_after(), Some(1), "dead from Kxg2 on");
        assert_eq!(Found::Dead { after: 1 }, expected);
        // A spectator's subscription saw the game end.
        let mut saw_end = false;
        while let Ok(update) = watcher.try_recv() {
            saw_end |= update.events.iter().any(|e| {
                matches!(e, GameEvent::Ended { outcome, .. } if outcome.reason == Reason::DeadPosition)
            });
        }
        assert!(saw_end, "the end was published");
    }

    /// Every position of the public vector set up as a game's start: the dead ones end the
    /// game as a draw (at once where the per-move check proves it, else through the pool),
    /// and none where a side can still mate does.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn dead_positions_of_the_public_vector_end_their_games() {
        let dir = std::env::temp_dir().join(format!("vizier-vector-{}", rand::random::<u64>()));
        let hub = Hub::new(Store::sqlite(&dir).await.unwrap(), Settings::default());
        let text = include_str!("../../../rules/tests/data/unwinnable.txt");
        let mut games = Vec::new();
        let lines = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
        for line in lines {
            let (label, fen) = line.split_at(2);
            let fen = format!("{} 0 1", fen.trim());
            let setup = Setup {
                start: StartPosition::Fen(fen.clone()),
                ..Setup::default()
            };
            let new = NewGame::new(Kind::Local, setup);
            // A player of their own for each, under the limit on unfinished games.
            let me = PlayerId::known(format!("p{}", games.len()));
            let created = hub.create(&[Party::new(&me, None)], new).await;
            // Positions no game reaches (two checks no move gives) are refused as starts.
            let Ok(id) = created else {
                assert!(
                    matches!(created, Err(crate::hub::HubError::Setup(_))),
                    "{fen}: {created:?}"
                );
                continue;
            };
            let handle = hub.game(&id).await.unwrap();
            games.push((label == "--", fen, id, handle));
        }
        let deadline = std::time::Instant::now() + Duration::from_secs(600);
        let (mut dead, mut alive, mut proved) = (0, 0, 0);
        for (is_dead, fen, id, handle) in &games {
            if *is_dead {
                dead += 1;
                loop {
                    let row = hub.store.game(id.as_str()).await.unwrap().unwrap();
                    if row.result.is_some() {
                        let (_, commands) = hub.store.load(id.as_str()).await.unwrap().unwrap();
                        proved += usize::from(
                            commands.iter().any(|c| c.command.contains("dead-position")),
                        );
                        assert_eq!(row.result.as_deref(), Some("1/2-1/2"), "{fen}");
                        // A stalemate is dead too, and ends the game as one.
                        let reason = row.reason.as_deref();
                        assert!(
                            matches!(reason, Some("dead-position" | "stalemate")),
                            "{fen}: {reason:?}"
                        );
                        break;
                    }
                    assert!(std::time::Instant::now() < deadline, "{fen} never ended");
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            } else {
                alive += 1;
            }
            let _ = handle;
        }
        // Every proof is in by now: the live positions' games go on.
        for (is_dead, fen, id, _) in &games {
            if !*is_dead {
                let row = hub.store.game(id.as_str()).await.unwrap().unwrap();
                // Only a mate on the board ends such a game at once.
                assert!(
                    matches!(row.reason.as_deref(), None | Some("checkmate")),
                    "{fen} ended though a side can mate: {:?}",
                    row.reason
                );
            }
        }
        assert!(dead > 0 && alive > 0);
        eprintln!(
            "{dead} dead positions ended their games ({proved} through the proof pool); \
             {alive} live ones went on"
        );
        assert_eq!(
            dead, 821,
            "the public vector's dead positions that are legal starts"
        );
        std::fs::remove_dir_all(dir).ok();
    }

    /// Art. 6.9 in live play: a flag falls where the opponent could never mate, which only the
    /// deep decision shows: the game is drawn, not lost.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_flag_falling_where_the_opponent_cannot_mate_draws() {
        let black_cannot = "1k6/1P1p1p1p/BP6/1P6/8/8/3P1PKP/8 w - - 0 1";
        let control = TimeControl::sudden_death(1_000, 0);
        let (_hub, handle, _) = local_game(black_cannot, control).await;
        let game = ended(&handle).await;
        let outcome = game.outcome().unwrap();
        assert_eq!(
            (outcome.result, outcome.reason),
            (GameResult::Draw, Reason::TimeForfeitNoMate)
        );
        assert!(
            game.log().iter().any(|(_, c)| matches!(
                c,
                Command::Proved {
                    side: Color::Black,
                    can_mate: Some(false),
                    ..
                }
            )),
            "the proof is in the log"
        );
    }

    /// Arts. 6.9 and 5.2.2 in live play: a flag falls in a position that is already dead
    /// before any background proof came in (here the pool takes none): the game had ended as
    /// a draw, and the flag changes nothing.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_flag_falling_before_the_proof_came_draws() {
        let mut settings = Settings::default();
        settings.limits.proof_queue = 0;
        let control = TimeControl::sudden_death(1_000, 0);
        let (_hub, handle, conn) = local_game_with(BEFORE_DEAD, control, settings).await;
        let answer = act(&handle, conn, Action::Move { uci: "g1g2".into() }).await;
        assert!(matches!(answer, Answer::Done), "{answer:?}");
        let game = ended(&handle).await;
        let outcome = game.outcome().unwrap();
        assert_eq!(
            (outcome.result, outcome.reason),
            (GameResult::Draw, Reason::DeadPosition),
            "the flag fell in a dead position"
        );
        assert_eq!(game.dead_after(), Some(1));
    }

    /// A restart keeps the proofs that were pending: a game restored in a position the
    /// per-move check left open goes to the pool again, and ends when the proof comes.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_restored_game_is_proved_again() {
        let dir = std::env::temp_dir().join(format!("vizier-proofs-{}", rand::random::<u64>()));
        let mut without_pool = Settings::default();
        without_pool.limits.proof_queue = 0;
        let hub = Hub::new(Store::sqlite(&dir).await.unwrap(), without_pool);
        let (id, handle, conn) = local_game_on(&hub, BEFORE_DEAD, TimeControl::Unlimited).await;
        let answer = act(&handle, conn, Action::Move { uci: "g1g2".into() }).await;
        assert!(matches!(answer, Answer::Done), "{answer:?}");
        let (game, _) = handle.export().await.unwrap();
        assert!(
            game.outcome().is_none() && game.dead_open(),
            "no pool: played on"
        );
        // The server starts again, with its pool, on the same database.
        let restarted = Hub::new(Store::sqlite(&dir).await.unwrap(), Settings::default());
        for _ in 0..1_000 {
            let exported = restarted.game(&id).await.unwrap().export().await;
            if let Some((game, _)) = exported
                && let Some(outcome) = game.outcome()
            {
                assert_eq!(
                    (outcome.result, outcome.reason),
                    (GameResult::Draw, Reason::DeadPosition)
                );
                assert_eq!(game.dead_after(), Some(1));
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("the restored game was not proved dead within 20 s");
    }
}
