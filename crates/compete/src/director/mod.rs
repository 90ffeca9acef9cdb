//! The live side of tournaments: entries, start times, rounds paired and their games made
//! through the hub (and so its game policy), results taken from the site's stream of game
//! ends, forfeits, pauses. Every change is stored before anyone is told of it.

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::{Mutex, broadcast};
use vizier_arbiter::{GameResult, TimeControl};
use vizier_play::Hub;
use vizier_play::ids::{GameId, PlayerId};
use vizier_play::round::SiteEvent;
use vizier_rules::{Color, Reason};
use vizier_store::{StoreError, TournamentRow};

use crate::model::{Entry, Format, Status, Tournament};

mod error;
mod requests;
mod rounds_due;

pub use error::CompeteError;
pub use requests::{HALF_BYES, checked_details, may_ask_bye, may_sit_out};
use rounds_due::board_result;

/// Unfinished tournaments the server holds at once.
pub const MAX_UNFINISHED: usize = 500;
/// Unfinished tournaments one account may have created.
pub const MAX_PER_CREATOR: usize = 5;
/// Players in a Swiss; a round robin's are fewer.
pub const MAX_SWISS_PLAYERS: usize = 1000;
pub const MAX_ROUND_ROBIN_PLAYERS: usize = 30;
/// Boards a simul's host plays at once.
pub const MAX_SIMUL_BOARDS: usize = 30;
pub const MAX_SWISS_ROUNDS: u32 = 20;
/// An arena's player counts as waiting for a game while their page has asked for the
/// tournament this recently.
pub const PRESENCE_MS: u64 = 10_000;
/// A player back from an arena game waits this long (the result on their screen) before
/// the next pairing sends them on.
pub const RESULT_SHOWN_MS: u64 = 3_000;

/// Whether an arena player not playing waits for a game at `now`: they looked at the
/// tournament lately (`seen`), or their last game ended (`back`) a little while ago — long
/// enough to see its result, not so long that they may have gone.
fn waiting_now(seen: Option<u64>, back: Option<u64>, now: u64) -> bool {
    seen.is_some_and(|at| at + PRESENCE_MS >= now)
        || back.is_some_and(|at| at + RESULT_SHOWN_MS <= now && now <= at + PRESENCE_MS)
}

/// How far ahead a tournament may be announced.
pub const MAX_LEAD_MS: u64 = 60 * 86_400_000;

/// What a new tournament should be.
#[derive(Clone, Debug)]
pub struct NewTournament {
    pub name: String,
    pub description: String,
    pub format: Format,
    /// As PGN writes it (`300+3`).
    pub control: String,
    pub chess960: bool,
    pub rated: bool,
    pub entry: Entry,
    pub starts_at: u64,
    pub forfeit_after_s: u32,
    pub round_break_s: u32,
}

/// An account acting on a tournament.
#[derive(Clone, Debug)]
pub struct Member {
    pub player: PlayerId,
    pub name: String,
}

/// A game a round made, and the players to send to it (not a simul's host, who chooses
/// among the boards).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paired {
    pub tournament: String,
    pub game: GameId,
    pub players: Vec<PlayerId>,
}

#[derive(Default)]
struct Live {
    tournaments: HashMap<String, Tournament>,
    /// Each game being played: its tournament.
    by_game: HashMap<String, String>,
    /// When each arena's players (by pairing number) last looked at it.
    seen: HashMap<String, HashMap<u32, u64>>,
}

/// Runs every tournament of the server.
pub struct Director {
    hub: Arc<Hub>,
    live: Mutex<Live>,
    /// A tournament's id, each time it changes.
    changes: broadcast::Sender<String>,
    /// Each game a round makes, for its players to be sent to it.
    paired: broadcast::Sender<Paired>,
}

impl Director {
    pub fn new(hub: Arc<Hub>) -> Arc<Director> {
        Arc::new(Director {
            hub,
            live: Mutex::new(Live::default()),
            changes: broadcast::channel(256).0,
            paired: broadcast::channel(4096).0,
        })
    }

    /// Each tournament's id as it changes.
    pub fn watch(&self) -> broadcast::Receiver<String> {
        self.changes.subscribe()
    }

    /// Each game a round makes.
    pub fn watch_paired(&self) -> broadcast::Receiver<Paired> {
        self.paired.subscribe()
    }

    async fn save(&self, t: &Tournament) -> Result<(), StoreError> {
        let data = serde_json::to_string(t).expect("a tournament serialises");
        self.hub
            .store
            .save_tournament(&TournamentRow {
                id: t.id.clone(),
                status: t.status.as_str().to_string(),
                starts_at: t.starts_at as i64,
                created_by: t.created_by.clone(),
                created_at: t.created_at as i64,
                updated_at: self.hub.now() as i64,
                data,
            })
            .await?;
        let _ = self.changes.send(t.id.clone());
        Ok(())
    }

    /// Brings back the unfinished tournaments, scoring the games that ended meanwhile.
    pub async fn restore(&self) -> Result<usize, StoreError> {
        let rows = self.hub.store.unfinished_tournaments().await?;
        let mut live = self.live.lock().await;
        for row in rows {
            let t: Tournament = match serde_json::from_str(&row.data) {
                Ok(t) => t,
                Err(e) => {
                    tracing::error!(tournament = %row.id, "unreadable tournament: {e}");
                    continue;
                }
            };
            for g in t.arena_games.iter().filter(|g| g.result.is_none()) {
                live.by_game.insert(g.game.clone(), t.id.clone());
            }
            if let Some(round) = t.current_round() {
                for board in &round.boards {
                    if let (Some(game), None) = (&board.game, board.result) {
                        live.by_game.insert(game.clone(), t.id.clone());
                    }
                }
            }
            live.tournaments.insert(t.id.clone(), t);
        }
        let count = live.tournaments.len();
        drop(live);
        self.reconcile().await;
        Ok(count)
    }

    /// Scores the games of rounds being played that ended unheard (the stream lagged, or
    /// the server stopped).
    async fn reconcile(&self) {
        let games: Vec<String> = self.live.lock().await.by_game.keys().cloned().collect();
        for game in games {
            let row = match self.hub.store.game(&game).await {
                Ok(Some(row)) => row,
                Ok(None) => continue,
                Err(e) => {
                    tracing::warn!(%game, "reconciling a tournament game: {e}");
                    continue;
                }
            };
            let (Some(result), Some(reason)) = (row.result.as_deref(), row.reason.as_deref())
            else {
                continue;
            };
            let result = match result {
                "1-0" => GameResult::WhiteWins,
                "0-1" => GameResult::BlackWins,
                "1/2-1/2" => GameResult::Draw,
                _ => GameResult::NoResult,
            };
            let reason = Reason::from_code(reason).unwrap_or(Reason::Aborted);
            let plies = match self.hub.store.commands_of(&row).await {
                Ok(rows) => vizier_store::record::read_commands(&rows)
                    .map(|c| {
                        c.iter()
                            .filter(|(_, c)| matches!(c, vizier_arbiter::Command::Move { .. }))
                            .count()
                    })
                    .unwrap_or(0),
                Err(_) => 0,
            };
            // Replayed from the store, the game knows who berserked.
            let berserk = self.berserks_of(&row).await;
            // Read from the store: who came is not known; Black is taken to have come.
            self.game_ended(
                &game,
                board_result(result, reason, plies, true),
                plies,
                berserk,
            )
            .await;
        }
    }

    /// Which sides of a stored game berserked.
    async fn berserks_of(&self, row: &vizier_store::GameRow) -> [bool; 2] {
        let Ok(rows) = self.hub.store.commands_of(row).await else {
            return [false; 2];
        };
        let commands = vizier_store::record::read_commands(&rows).unwrap_or_default();
        Color::ALL.map(|c| {
            (commands.iter())
                .any(|(_, cmd)| matches!(cmd, vizier_arbiter::Command::Berserk { by } if *by == c))
        })
    }

    /// Listens to the site's game ends and keeps time: starts tournaments and rounds when
    /// due. Runs until the server stops.
    pub async fn run_forever(self: Arc<Director>) {
        let mut site = self.hub.watch_site();
        // Games that ended before this listened (since the restore) are scored from the store.
        self.reconcile().await;
        let mut tick = tokio::time::interval(std::time::Duration::from_millis(500));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                event = site.recv() => match event {
                    Ok(SiteEvent::Ended { game, outcome, plies, berserk, present, .. }) => {
                        let result =
                            board_result(outcome.result, outcome.reason, plies, present[1]);
                        self.game_ended(game.as_str(), result, plies, berserk).await;
                    }
                    Ok(SiteEvent::Started { .. } | SiteEvent::Moved { .. }) => {}
                    Err(broadcast::error::RecvError::Lagged(_)) => self.reconcile().await,
                    Err(broadcast::error::RecvError::Closed) => return,
                },
                _ = tick.tick() => self.keep_time().await,
            }
        }
    }

    /// The tournament `id`, live or stored.
    pub async fn get(&self, id: &str) -> Result<Option<Tournament>, CompeteError> {
        if let Some(t) = self.live.lock().await.tournaments.get(id) {
            return Ok(Some(t.clone()));
        }
        let Some(row) = self.hub.store.tournament(id).await? else {
            return Ok(None);
        };
        Ok(serde_json::from_str(&row.data).ok())
    }

    /// The tournaments waiting and running, soonest first, and the last `finished` ended.
    pub async fn list(&self, finished: i64) -> Result<Vec<Tournament>, CompeteError> {
        let mut out: Vec<Tournament> = (self.live.lock().await.tournaments.values())
            .cloned()
            .collect();
        out.sort_by_key(|t| (t.status != Status::Running, t.starts_at));
        for row in self.hub.store.finished_tournaments(finished).await? {
            if let Ok(t) = serde_json::from_str(&row.data) {
                out.push(t);
            }
        }
        Ok(out)
    }

    /// `who`'s rating in the tournament's class, and whether it is provisional.
    async fn rating(&self, t: &Tournament, who: &PlayerId) -> (i32, bool) {
        match TimeControl::parse_pgn(&t.control) {
            Ok(control) => self.hub.rating_in(who, &control).await,
            Err(_) => (1500, true),
        }
    }

    /// Runs `change` on the live tournament `id` and stores it.
    async fn change<F>(&self, id: &str, change: F) -> Result<Tournament, CompeteError>
    where
        F: FnOnce(&mut Tournament) -> Result<(), CompeteError>,
    {
        let mut live = self.live.lock().await;
        let Some(t) = live.tournaments.get(id) else {
            return Err(match self.hub.store.tournament(id).await? {
                Some(_) => CompeteError::Closed,
                None => CompeteError::NotFound,
            });
        };
        let mut t = t.clone();
        change(&mut t)?;
        self.save(&t).await?;
        live.tournaments.insert(id.to_string(), t.clone());
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::BoardResult;
    use vizier_rules::Reason;

    #[test]
    fn arena_players_wait_when_seen_or_just_back_from_a_game() {
        let now = 100_000;
        assert!(waiting_now(Some(now - 2_000), None, now));
        assert!(!waiting_now(Some(now - PRESENCE_MS - 1), None, now));
        // Back from a game: after its result was shown, until they may have gone.
        assert!(!waiting_now(None, Some(now - 1_000), now));
        assert!(waiting_now(None, Some(now - RESULT_SHOWN_MS), now));
        assert!(!waiting_now(None, Some(now - PRESENCE_MS - 1), now));
        assert!(!waiting_now(None, None, now));
    }

    #[test]
    fn correspondence_games_count_their_days_from_the_start() {
        let mut t = Tournament::sample(Format::RoundRobin { double: false }, &[1500, 1500]);
        t.control = "1/259200".into();
        let setup = rounds_due::game_setup(&t);
        assert_eq!(setup.clock_start, vizier_arbiter::ClockStart::Fide);
        assert!(setup.options.no_abort);
        t.control = "300+3".into();
        let setup = rounds_due::game_setup(&t);
        assert_eq!(
            setup.clock_start,
            vizier_arbiter::ClockStart::AfterFirstMoves {
                first_move_timeout_ms: u64::from(t.forfeit_after_s) * 1000
            }
        );
    }

    #[test]
    fn the_side_that_never_moved_forfeits() {
        let timeout = Reason::FirstMoveTimeout;
        assert_eq!(
            board_result(GameResult::NoResult, timeout, 0, true),
            BoardResult::WhiteForfeits
        );
        // Neither came: both lose.
        assert_eq!(
            board_result(GameResult::NoResult, timeout, 0, false),
            BoardResult::BothForfeit
        );
        assert_eq!(
            board_result(GameResult::NoResult, timeout, 1, true),
            BoardResult::BlackForfeits
        );
        assert_eq!(
            board_result(GameResult::Draw, Reason::Agreement, 30, true),
            BoardResult::Draw
        );
        assert_eq!(
            board_result(GameResult::NoResult, Reason::Abandoned, 4, true),
            BoardResult::BothForfeit
        );
    }
}
