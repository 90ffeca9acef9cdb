//! The director's clock: tournaments started, rounds paired and their games made, games'
//! ends scored.

use std::collections::HashMap;

use vizier_arbiter::{GameResult, TimeControl};
use vizier_play::hub::{NewGame, online_setup};
use vizier_play::ids::{GameId, PlayerId};
use vizier_play::policy::Party;
use vizier_rules::{Color, Reason};
use vizier_store::record::{Kind, Seat};

use crate::arena::Waiting;
use crate::model::{ArenaGame, BoardResult, Bye, Format, Round, Status, Tournament};
use crate::rounds::{PairingError, next_round};

use super::*;

/// How a game's end scores on its board; the side that never moved in its countdown
/// forfeits — both, when Black never came either (`black_came`).
pub(super) fn board_result(
    result: GameResult,
    reason: Reason,
    plies: usize,
    black_came: bool,
) -> BoardResult {
    match (result, reason) {
        (GameResult::WhiteWins, _) => BoardResult::WhiteWins,
        (GameResult::BlackWins, _) => BoardResult::BlackWins,
        (GameResult::Draw, _) => BoardResult::Draw,
        (GameResult::NoResult, Reason::FirstMoveTimeout) if plies == 0 && !black_came => {
            BoardResult::BothForfeit
        }
        (GameResult::NoResult, Reason::FirstMoveTimeout) if plies == 0 => {
            BoardResult::WhiteForfeits
        }
        (GameResult::NoResult, Reason::FirstMoveTimeout) => BoardResult::BlackForfeits,
        (GameResult::NoResult, _) => BoardResult::BothForfeit,
    }
}

/// The setup of `t`'s games: no abort; the forfeit countdown for the first moves, except in
/// correspondence, whose days a move count from the start; berserk in an arena that allows it.
pub(super) fn game_setup(t: &Tournament) -> vizier_arbiter::Setup {
    let control = TimeControl::parse_pgn(&t.control).expect("checked at creation");
    let correspondence = matches!(control, TimeControl::Correspondence { .. });
    let mut setup = online_setup(control, t.chess960, false);
    if !correspondence {
        setup.clock_start = vizier_arbiter::ClockStart::AfterFirstMoves {
            first_move_timeout_ms: u64::from(t.forfeit_after_s) * 1000,
        };
    }
    setup.options.no_abort = true;
    setup.options.berserk = matches!(t.format, Format::Arena { berserk: true, .. });
    setup
}

impl Director {
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
    pub(super) async fn advance(&self, id: &str) -> Result<(), CompeteError> {
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
                    e.zero_bye_next = false;
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
    pub(super) async fn make_games(
        &self,
        t: &Tournament,
        pairs: &[(usize, u32, u32)],
    ) -> Vec<(usize, Option<GameId>)> {
        let setup = game_setup(t);
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
    pub(super) async fn start_round(
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
    pub(super) async fn pair_arena(
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
    pub(super) fn after_result(&self, t: &mut Tournament, now: u64) {
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
    pub(super) async fn game_ended(
        &self,
        game: &str,
        result: BoardResult,
        plies: usize,
        berserk: [bool; 2],
    ) {
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
            BoardResult::BothForfeit if plies == 0 => vec![white, black],
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
}
