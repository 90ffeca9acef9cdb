//! The live side of tournaments: entries, start times, rounds paired and their games made
//! through the hub (and so its game policy), results taken from the site's stream of game
//! ends, forfeits, pauses. Every change is stored before anyone is told of it.

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use tokio::sync::{Mutex, broadcast};
use vizier_arbiter::{GameResult, TimeControl};
use vizier_play::Hub;
use vizier_play::hub::{NewGame, online_setup};
use vizier_play::ids::{GameId, PlayerId};
use vizier_play::policy::Party;
use vizier_play::round::SiteEvent;
use vizier_rating::Class;
use vizier_rules::{Color, Reason};
use vizier_store::record::{Kind, Seat};
use vizier_store::{StoreError, TournamentRow};

use crate::arena::Waiting;
use crate::model::{
    ArenaGame, BoardResult, Bye, ByeKind, Entrant, Entry, Format, Round, Status, Tournament,
};
use crate::rounds::{PairingError, next_round};

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

/// Why a tournament refuses.
#[derive(Debug)]
pub enum CompeteError {
    NotFound,
    /// The settings are not acceptable: which and why.
    Settings(String),
    /// The server or the account holds as many unfinished tournaments as it may.
    TooMany,
    /// Entries are closed: it is finished, or a round robin that has begun.
    Closed,
    /// By invitation, and the account is not invited.
    NotInvited,
    /// The account's rating lies outside the entry range.
    OutOfRange {
        rating: i32,
    },
    /// The tournament has as many players as it may.
    Full,
    AlreadyIn,
    NotIn,
    /// Only its creator may do this.
    NotCreator,
    /// Nothing to do: it has begun, or is finished.
    NotNow(&'static str),
    Store(StoreError),
}

impl fmt::Display for CompeteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompeteError::NotFound => write!(f, "no such tournament"),
            CompeteError::Settings(why) => write!(f, "{why}"),
            CompeteError::TooMany => write!(f, "too many tournaments are waiting or running"),
            CompeteError::Closed => write!(f, "this tournament takes no more entries"),
            CompeteError::NotInvited => write!(f, "this tournament is by invitation"),
            CompeteError::OutOfRange { rating } => {
                write!(f, "your rating {rating} is outside the entry range")
            }
            CompeteError::Full => write!(f, "this tournament is full"),
            CompeteError::AlreadyIn => write!(f, "you are already playing in it"),
            CompeteError::NotIn => write!(f, "you are not playing in it"),
            CompeteError::NotCreator => write!(f, "only the tournament's creator may do that"),
            CompeteError::NotNow(why) => write!(f, "{why}"),
            CompeteError::Store(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for CompeteError {}

impl From<StoreError> for CompeteError {
    fn from(e: StoreError) -> CompeteError {
        CompeteError::Store(e)
    }
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

/// Half-point byes a Swiss player may ask for in the whole tournament.
pub const HALF_BYES: usize = 1;

/// Whether player `number` may ask for a half-point bye in `t`'s next round: a Swiss, not
/// finished, the player in and not withdrawn, with none asked yet, and not for the last round.
pub fn may_ask_bye(t: &Tournament, number: u32) -> Result<(), CompeteError> {
    if !matches!(t.format, Format::Swiss { .. }) || t.status == Status::Finished {
        return Err(CompeteError::NotNow(
            "half-point byes are for a Swiss still to be played",
        ));
    }
    let e = t.entrant(number).ok_or(CompeteError::NotIn)?;
    if e.withdrawn {
        return Err(CompeteError::NotIn);
    }
    let taken = (t.rounds.iter())
        .flat_map(|r| &r.byes)
        .filter(|y| y.player == number && y.kind == ByeKind::Half)
        .count();
    if taken + usize::from(e.bye_next) >= HALF_BYES {
        return Err(CompeteError::NotNow("one half-point bye a tournament"));
    }
    if t.rounds.len() as u32 + 1 >= t.total_rounds() {
        return Err(CompeteError::NotNow("no half-point bye in the last round"));
    }
    Ok(())
}

/// How a game's end scores on its board; the side that never moved in its countdown
/// forfeits.
fn board_result(result: GameResult, reason: Reason, plies: usize) -> BoardResult {
    match (result, reason) {
        (GameResult::WhiteWins, _) => BoardResult::WhiteWins,
        (GameResult::BlackWins, _) => BoardResult::BlackWins,
        (GameResult::Draw, _) => BoardResult::Draw,
        (GameResult::NoResult, Reason::FirstMoveTimeout) if plies == 0 => {
            BoardResult::WhiteForfeits
        }
        (GameResult::NoResult, Reason::FirstMoveTimeout) => BoardResult::BlackForfeits,
        (GameResult::NoResult, _) => BoardResult::BothForfeit,
    }
}

fn check(new: &NewTournament, now: u64) -> Result<TimeControl, CompeteError> {
    let bad = |s: &str| Err(CompeteError::Settings(s.to_string()));
    let name = new.name.trim();
    if name.chars().count() < 2 || name.chars().count() > 60 {
        return bad("a name of 2 to 60 characters");
    }
    if new.description.chars().count() > 2000 {
        return bad("a description of at most 2,000 characters");
    }
    let control = TimeControl::parse_pgn(&new.control)
        .map_err(|e| CompeteError::Settings(format!("time control: {e}")))?;
    vizier_play::policy::check_control(&control)
        .map_err(|e| CompeteError::Settings(format!("time control: {e}")))?;
    let simul = matches!(new.format, Format::Simul { .. });
    if Class::of_control(&control).is_none() && !simul {
        return bad("a tournament's games have a clock");
    }
    if Class::of_control(&control).is_none() && new.rated {
        return bad("a game without a clock is not rated");
    }
    if let Format::Swiss { rounds, .. } = new.format
        && !(1..=MAX_SWISS_ROUNDS).contains(&rounds)
    {
        return bad("a Swiss of 1 to 20 rounds");
    }
    if let Format::Arena { minutes, .. } = new.format
        && !(5..=720).contains(&minutes)
    {
        return bad("an arena of 5 minutes to 12 hours");
    }
    if new.starts_at > now + MAX_LEAD_MS {
        return bad("a start within 60 days");
    }
    if !(10..=600).contains(&new.forfeit_after_s) {
        return bad("a forfeit countdown of 10 to 600 seconds");
    }
    if new.round_break_s > 3600 {
        return bad("a break between rounds of at most an hour");
    }
    if let Entry::Rating { min, max } = new.entry
        && let (Some(min), Some(max)) = (min, max)
        && min > max
    {
        return bad("the lowest rating above the highest");
    }
    if let Entry::Invite { names } = &new.entry
        && names.len() > MAX_SWISS_PLAYERS
    {
        return bad("at most 1,000 invitations");
    }
    Ok(control)
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
            self.game_ended(&game, board_result(result, reason, plies), plies, berserk)
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
                    Ok(SiteEvent::Ended { game, outcome, plies, berserk, .. }) => {
                        let result = board_result(outcome.result, outcome.reason, plies);
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

    /// Starts what is due: tournaments at their start time, rounds after their break.
    pub async fn keep_time(&self) {
        let now = self.hub.now();
        let due: Vec<String> = {
            let live = self.live.lock().await;
            live.tournaments
                .values()
                .filter(|t| match t.status {
                    Status::Created => t.starts_at <= now,
                    Status::Running if t.is_arena() => true,
                    Status::Running => !t.paused && t.next_round_at.is_some_and(|at| at <= now),
                    Status::Finished => false,
                })
                .map(|t| t.id.clone())
                .collect()
        };
        for id in due {
            if let Err(e) = self.advance(&id).await {
                tracing::warn!(tournament = %id, "starting a round: {e}");
            }
        }
    }

    /// Starts the tournament or its next round, if due.
    async fn advance(&self, id: &str) -> Result<(), CompeteError> {
        let now = self.hub.now();
        let mut live = self.live.lock().await;
        let Some(mut t) = live.tournaments.get(id).cloned() else {
            return Ok(());
        };
        if t.status == Status::Created {
            if t.starts_at > now {
                return Ok(());
            }
            if t.players.len() < 2 {
                t.status = Status::Finished;
                t.ended_early = Some("fewer than two players joined".into());
                self.save(&t).await?;
                live.tournaments.remove(id);
                return Ok(());
            }
            // The initial ranking (C.04.2): by rating, then by name.
            t.players.sort_by(|a, b| {
                b.rating
                    .cmp(&a.rating)
                    .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
            });
            t.first_white = rand::random();
            t.status = Status::Running;
        } else if t.is_arena() {
            // An arena: over at its time (games still going on do not count), else the
            // players back from their games paired.
            if t.ends_at().is_some_and(|end| end <= now) {
                t.status = Status::Finished;
            } else if !t.paused {
                let seen = live.seen.get(id).cloned().unwrap_or_default();
                let games = self.pair_arena(&mut t, &seen, now).await;
                if games.is_empty() {
                    return Ok(());
                }
                for game in games {
                    live.by_game.insert(game, t.id.clone());
                }
            } else {
                return Ok(());
            }
            self.save(&t).await?;
            if t.status == Status::Finished {
                live.tournaments.remove(id);
                live.seen.remove(id);
            } else {
                live.tournaments.insert(id.to_string(), t);
            }
            return Ok(());
        } else if t.paused || t.next_round_at.is_none_or(|at| at > now) {
            return Ok(());
        }
        if t.is_arena() {
            // Begun: paired from the next tick, once the players are seen.
            self.save(&t).await?;
            live.tournaments.insert(id.to_string(), t);
            return Ok(());
        }
        t.next_round_at = None;
        match next_round(&t) {
            Ok((boards, byes)) => {
                // The byes asked for are given in this round.
                for e in &mut t.players {
                    e.bye_next = false;
                }
                let games = self.start_round(&mut t, boards, byes, now).await;
                for game in games {
                    live.by_game.insert(game, t.id.clone());
                }
                self.after_result(&mut t, now);
            }
            Err(PairingError::NoRoundsLeft) => t.status = Status::Finished,
            Err(e) => {
                t.status = Status::Finished;
                t.ended_early = Some(e.to_string());
            }
        }
        self.save(&t).await?;
        if t.status == Status::Finished {
            live.tournaments.remove(id);
        } else {
            live.tournaments.insert(id.to_string(), t);
        }
        Ok(())
    }

    /// Makes the games of `pairs` (an index of the caller's, White, Black by pairing number),
    /// all at once, through the hub and so its game policy: each index with its game, or none
    /// where the game was refused (a player past the policy's limits, the database down).
    async fn make_games(
        &self,
        t: &Tournament,
        pairs: &[(usize, u32, u32)],
    ) -> Vec<(usize, Option<GameId>)> {
        let control = TimeControl::parse_pgn(&t.control).expect("checked at creation");
        let mut setup = online_setup(control, t.chess960, false);
        setup.clock_start = vizier_arbiter::ClockStart::AfterFirstMoves {
            first_move_timeout_ms: u64::from(t.forfeit_after_s) * 1000,
        };
        setup.options.no_abort = true;
        setup.options.berserk = matches!(t.format, Format::Arena { berserk: true, .. });
        let mut making = tokio::task::JoinSet::new();
        for &(i, white, black) in pairs {
            let (Some(white), Some(black)) = (t.entrant(white), t.entrant(black)) else {
                continue;
            };
            let white = PlayerId::known(white.player.clone());
            let black = PlayerId::known(black.player.clone());
            let parties = [Party::new(&white, None), Party::new(&black, None)];
            let mut new = NewGame::new(Kind::Friend, setup.clone());
            new.color = Color::White;
            new.opponent = Some(Seat::Player(black.clone()));
            new.rated = t.rated;
            if t.chess960 {
                new.setup.start = vizier_arbiter::StartPosition::chess960_random();
            }
            let hub = self.hub.clone();
            making.spawn(async move {
                let made = hub.create(&parties, new).await;
                (i, made, [white, black])
            });
        }
        let mut out = Vec::with_capacity(pairs.len());
        while let Some(joined) = making.join_next().await {
            let Ok((i, made, players)) = joined else {
                continue;
            };
            match made {
                Ok(game) => {
                    let host = |p: &PlayerId| t.is_simul() && p.as_str() == t.created_by;
                    let _ = self.paired.send(Paired {
                        tournament: t.id.clone(),
                        game: game.clone(),
                        players: players.into_iter().filter(|p| !host(p)).collect(),
                    });
                    out.push((i, Some(game)));
                }
                Err(e) => {
                    tracing::warn!(tournament = %t.id, "a tournament's game was refused: {e}");
                    out.push((i, None));
                }
            }
        }
        out
    }

    /// Pushes the round and makes its games; the games' ids.
    async fn start_round(
        &self,
        t: &mut Tournament,
        mut boards: Vec<crate::model::Board>,
        byes: Vec<Bye>,
        now: u64,
    ) -> Vec<String> {
        let pairs: Vec<(usize, u32, u32)> = (boards.iter().enumerate())
            .filter(|(_, b)| b.result.is_none())
            .map(|(i, b)| (i, b.white, b.black))
            .collect();
        let mut games = Vec::new();
        for (i, made) in self.make_games(t, &pairs).await {
            match made {
                Some(game) => {
                    boards[i].game = Some(game.as_str().to_string());
                    games.push(game.as_str().to_string());
                }
                // The board cannot be played.
                None => boards[i].result = Some(BoardResult::BothForfeit),
            }
        }
        t.rounds.push(Round {
            number: t.rounds.len() as u32 + 1,
            started_at: now,
            boards,
            byes,
        });
        games
    }

    /// Pairs an arena's waiting players and makes their games; the games' ids.
    async fn pair_arena(
        &self,
        t: &mut Tournament,
        seen: &HashMap<u32, u64>,
        now: u64,
    ) -> Vec<String> {
        // One pass over the games: who plays now, who came back when, each one's colours
        // and last opponent.
        let mut playing = std::collections::HashSet::new();
        let mut back: HashMap<u32, u64> = HashMap::new();
        let mut balance: HashMap<u32, i32> = HashMap::new();
        let mut last: HashMap<u32, u32> = HashMap::new();
        for g in &t.arena_games {
            for (me, other, colour) in [(g.white, g.black, 1), (g.black, g.white, -1)] {
                *balance.entry(me).or_default() += colour;
                last.insert(me, other);
                match (g.result, g.ended_at) {
                    (None, _) => {
                        playing.insert(me);
                    }
                    (Some(_), Some(at)) => {
                        back.insert(me, at);
                    }
                    (Some(_), None) => {}
                }
            }
        }
        // Back from a game just ended (its page sends them on to the next), or looking at the
        // tournament's page.
        let here: Vec<u32> = (1..=t.players.len() as u32)
            .filter(|n| !t.players[*n as usize - 1].withdrawn && !playing.contains(n))
            .filter(|n| waiting_now(seen.get(n).copied(), back.get(n).copied(), now))
            .collect();
        if here.len() < 2 {
            return Vec::new();
        }
        let table = crate::report::standings(t);
        let rank: HashMap<u32, usize> = (table.rows.iter().enumerate())
            .map(|(i, r)| (r.number, i))
            .collect();
        let waiting: Vec<Waiting> = here
            .into_iter()
            .map(|n| Waiting {
                number: n,
                rank: rank.get(&n).copied().unwrap_or(0),
                rating: t.players[n as usize - 1].rating,
                last_opponent: last.get(&n).copied(),
                colour_balance: balance.get(&n).copied().unwrap_or(0),
            })
            .collect();
        let active = t.players.iter().filter(|e| !e.withdrawn).count();
        let pairs = crate::arena::pair(&waiting, t.players.len(), active == 2);
        let indexed: Vec<(usize, u32, u32)> = (pairs.iter().enumerate())
            .map(|(i, &(w, b))| (i, w, b))
            .collect();
        let mut made = self.make_games(t, &indexed).await;
        made.sort_by_key(|(i, _)| *i);
        let mut games = Vec::new();
        for (i, game) in made {
            let Some(game) = game else { continue };
            let (white, black) = pairs[i];
            games.push(game.as_str().to_string());
            t.arena_games.push(ArenaGame {
                white,
                black,
                game: game.as_str().to_string(),
                started_at: now,
                result: None,
                plies: 0,
                berserk: [false; 2],
                ended_at: None,
            });
        }
        games
    }

    /// After a result: the round over, the next one's time or the end.
    fn after_result(&self, t: &mut Tournament, now: u64) {
        if t.current_round().is_some() {
            return;
        }
        if t.all_rounds_played() {
            t.status = Status::Finished;
            t.next_round_at = None;
        } else {
            t.next_round_at = Some(now + u64::from(t.round_break_s) * 1000);
        }
    }

    /// Scores a game that ended after `plies` half-moves, if a tournament is waiting for it.
    async fn game_ended(&self, game: &str, result: BoardResult, plies: usize, berserk: [bool; 2]) {
        let now = self.hub.now();
        let mut live = self.live.lock().await;
        let Some(id) = live.by_game.remove(game) else {
            return;
        };
        let Some(mut t) = live.tournaments.get(&id).cloned() else {
            return;
        };
        let (white, black) = if let Some(g) = t.arena_games.iter_mut().find(|g| g.game == game) {
            if g.result.is_some() {
                return;
            }
            g.result = Some(result);
            g.plies = plies as u32;
            g.berserk = berserk;
            g.ended_at = Some(now);
            (g.white, g.black)
        } else {
            let Some((r, b)) = t.board_of_game(game) else {
                return;
            };
            let board = &mut t.rounds[r].boards[b];
            if board.result.is_some() {
                return;
            }
            board.result = Some(result);
            (board.white, board.black)
        };
        // A player who never came is not paired again until they join again.
        let absent = match result {
            BoardResult::WhiteForfeits => vec![white],
            BoardResult::BlackForfeits => vec![black],
            _ => vec![],
        };
        for n in absent {
            if let Some(e) = t.players.get_mut(n as usize - 1) {
                e.withdrawn = true;
            }
        }
        if !t.is_arena() {
            self.after_result(&mut t, now);
        }
        if let Err(e) = self.save(&t).await {
            // Kept in memory: the next change stores it.
            tracing::warn!(tournament = %id, "storing a result: {e}");
        }
        if t.status == Status::Finished {
            live.tournaments.remove(&id);
        } else {
            live.tournaments.insert(id, t);
        }
    }

    /// Creates a tournament, starting at `new.starts_at`.
    pub async fn create(
        &self,
        by: &Member,
        new: NewTournament,
    ) -> Result<Tournament, CompeteError> {
        let now = self.hub.now();
        check(&new, now)?;
        let mut live = self.live.lock().await;
        if live.tournaments.len() >= MAX_UNFINISHED {
            return Err(CompeteError::TooMany);
        }
        let mine = (live.tournaments.values())
            .filter(|t| t.created_by == by.player.as_str())
            .count();
        if mine >= MAX_PER_CREATOR {
            return Err(CompeteError::TooMany);
        }
        let entry = match new.entry {
            Entry::Invite { names } => Entry::Invite {
                names: names
                    .iter()
                    .map(|n| n.trim().to_lowercase())
                    .filter(|n| !n.is_empty())
                    .collect(),
            },
            e => e,
        };
        let mut t = Tournament {
            id: vizier_play::ids::random_token(8),
            name: new.name.trim().to_string(),
            description: new.description.trim().to_string(),
            format: new.format,
            control: new.control,
            chess960: new.chess960,
            rated: new.rated,
            entry,
            starts_at: new.starts_at.max(now),
            forfeit_after_s: new.forfeit_after_s,
            round_break_s: new.round_break_s,
            created_by: by.player.as_str().to_string(),
            created_by_name: by.name.clone(),
            created_at: now,
            status: Status::Created,
            paused: false,
            first_white: true,
            players: Vec::new(),
            rounds: Vec::new(),
            next_round_at: None,
            ended_early: None,
            arena_games: Vec::new(),
        };
        if t.is_simul() {
            // The host sits at every board: in from the start.
            let (rating, provisional) = self.rating(&t, &by.player).await;
            t.players.push(Entrant {
                player: by.player.as_str().to_string(),
                name: by.name.clone(),
                rating,
                provisional,
                withdrawn: false,
                joined_at: now,
                bye_next: false,
            });
        }
        self.save(&t).await?;
        live.tournaments.insert(t.id.clone(), t.clone());
        Ok(t)
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

    /// `who` joins (or comes back after withdrawing). A Swiss takes late entries: the rounds
    /// already paired count as absences.
    pub async fn join(&self, id: &str, who: &Member) -> Result<Tournament, CompeteError> {
        let Some(t) = self.get(id).await? else {
            return Err(CompeteError::NotFound);
        };
        let (rating, provisional) = self.rating(&t, &who.player).await;
        let now = self.hub.now();
        self.change(id, |t| {
            let me = who.player.as_str();
            if let Some(e) = t.players.iter_mut().find(|e| e.player == me) {
                if !e.withdrawn {
                    return Err(CompeteError::AlreadyIn);
                }
                if matches!(t.format, Format::RoundRobin { .. }) && t.status == Status::Running {
                    return Err(CompeteError::Closed);
                }
                e.withdrawn = false;
                return Ok(());
            }
            let open = match t.format {
                Format::RoundRobin { .. } => t.status == Status::Created,
                Format::Swiss { rounds, .. } => {
                    t.status == Status::Created || (t.rounds.len() as u32) < rounds
                }
                Format::Arena { .. } => t.ends_at().is_some_and(|end| now < end),
                Format::Simul { .. } => t.status == Status::Created,
            };
            if !open || t.status == Status::Finished {
                return Err(CompeteError::Closed);
            }
            let cap = match t.format {
                Format::RoundRobin { .. } => MAX_ROUND_ROBIN_PLAYERS,
                Format::Swiss { .. } | Format::Arena { .. } => MAX_SWISS_PLAYERS,
                Format::Simul { .. } => MAX_SIMUL_BOARDS + 1,
            };
            if t.players.len() >= cap {
                return Err(CompeteError::Full);
            }
            match &t.entry {
                Entry::Open => {}
                Entry::Invite { names } => {
                    if me != t.created_by && !names.contains(&who.name.to_lowercase()) {
                        return Err(CompeteError::NotInvited);
                    }
                }
                Entry::Rating { min, max } => {
                    if min.is_some_and(|m| rating < m) || max.is_some_and(|m| rating > m) {
                        return Err(CompeteError::OutOfRange { rating });
                    }
                }
            }
            t.players.push(Entrant {
                player: me.to_string(),
                name: who.name.clone(),
                rating,
                provisional,
                withdrawn: false,
                joined_at: now,
                bye_next: false,
            });
            let number = t.players.len() as u32;
            for round in &mut t.rounds {
                round.byes.push(Bye {
                    player: number,
                    kind: ByeKind::Absent,
                });
            }
            Ok(())
        })
        .await
    }

    /// `who` leaves: before the start, off the list; after it, not paired again (the game
    /// being played goes on).
    pub async fn withdraw(&self, id: &str, who: &PlayerId) -> Result<Tournament, CompeteError> {
        self.change(id, |t| {
            let i = (t.players.iter().position(|e| e.player == who.as_str()))
                .ok_or(CompeteError::NotIn)?;
            if t.created_by == who.as_str() && t.is_simul() {
                return Err(CompeteError::NotNow("the host plays every board"));
            }
            if t.status == Status::Created {
                t.players.remove(i);
            } else if t.players[i].withdrawn {
                return Err(CompeteError::NotIn);
            } else {
                t.players[i].withdrawn = true;
            }
            Ok(())
        })
        .await
    }

    /// `player` is looking at the tournament: in an arena, waiting for a game unless playing.
    pub async fn seen(&self, id: &str, player: &PlayerId) {
        let now = self.hub.now();
        let mut live = self.live.lock().await;
        let Some(t) = live.tournaments.get(id).filter(|t| t.is_arena()) else {
            return;
        };
        let Some(number) = t.number_of(player.as_str()) else {
            return;
        };
        live.seen
            .entry(id.to_string())
            .or_default()
            .insert(number, now);
    }

    /// `who` asks for a half-point bye in the next round of a Swiss (`ask`), or takes the
    /// request back.
    pub async fn ask_bye(
        &self,
        id: &str,
        who: &PlayerId,
        ask: bool,
    ) -> Result<Tournament, CompeteError> {
        self.change(id, |t| {
            let n = t.number_of(who.as_str()).ok_or(CompeteError::NotIn)?;
            if ask {
                may_ask_bye(t, n)?;
            } else if !t.players[n as usize - 1].bye_next {
                return Err(CompeteError::NotNow("no bye was asked for"));
            }
            t.players[n as usize - 1].bye_next = ask;
            Ok(())
        })
        .await
    }

    /// The creator pauses (no next round is paired) or resumes.
    pub async fn pause(
        &self,
        id: &str,
        by: &PlayerId,
        paused: bool,
    ) -> Result<Tournament, CompeteError> {
        self.change(id, |t| {
            if t.created_by != by.as_str() {
                return Err(CompeteError::NotCreator);
            }
            t.paused = paused;
            Ok(())
        })
        .await
    }

    /// The creator starts it now rather than at its time.
    pub async fn start_now(&self, id: &str, by: &PlayerId) -> Result<(), CompeteError> {
        let now = self.hub.now();
        self.change(id, |t| {
            if t.created_by != by.as_str() {
                return Err(CompeteError::NotCreator);
            }
            if t.status != Status::Created {
                return Err(CompeteError::NotNow("it has already begun"));
            }
            if t.players.len() < 2 {
                return Err(CompeteError::NotNow("it needs at least two players"));
            }
            t.starts_at = now;
            Ok(())
        })
        .await?;
        self.advance(id).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
    fn the_side_that_never_moved_forfeits() {
        let timeout = Reason::FirstMoveTimeout;
        assert_eq!(
            board_result(GameResult::NoResult, timeout, 0),
            BoardResult::WhiteForfeits
        );
        assert_eq!(
            board_result(GameResult::NoResult, timeout, 1),
            BoardResult::BlackForfeits
        );
        assert_eq!(
            board_result(GameResult::Draw, Reason::Agreement, 30),
            BoardResult::Draw
        );
        assert_eq!(
            board_result(GameResult::NoResult, Reason::Abandoned, 4),
            BoardResult::BothForfeit
        );
    }
}
