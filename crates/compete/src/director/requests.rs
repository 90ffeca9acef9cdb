//! What organisers and players ask of a tournament: create, join, withdraw, byes, pause,
//! start now.

use vizier_arbiter::TimeControl;
use vizier_play::ids::PlayerId;
use vizier_rating::Class;

use crate::model::{
    BoardResult, Bye, ByeKind, Details, Entrant, Entry, Format, Status, Tournament,
};

use super::*;

/// `details` with the title in capitals and the federation checked, or why not.
pub fn checked_details(details: Details) -> Result<Details, CompeteError> {
    let bad = |s: &str| Err(CompeteError::Settings(s.to_string()));
    let title = match details.title.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(t) => match vizier_pairing::norm::Title::parse(t) {
            Some(title) if t.len() > 1 => Some(title.as_str().to_string()),
            _ => return bad("a title of GM, IM, FM, CM, WGM, WIM, WFM or WCM"),
        },
    };
    let federation = match details.federation.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(f) if f.len() == 3 && f.chars().all(|c| c.is_ascii_alphabetic()) => {
            Some(f.to_ascii_uppercase())
        }
        Some(_) => return bad("a federation of three letters"),
    };
    let sex = match details.sex.map(|c| c.to_ascii_lowercase()) {
        None => None,
        Some(c @ ('m' | 'w')) => Some(c),
        Some(_) => return bad("sex m or w"),
    };
    Ok(Details {
        title,
        federation,
        sex,
    })
}

/// Refuses `by` unless they created `t`: the organiser's requests.
fn creator_only(t: &Tournament, by: &PlayerId) -> Result<(), CompeteError> {
    if t.created_by == by.as_str() {
        Ok(())
    } else {
        Err(CompeteError::NotCreator)
    }
}

/// Half-point byes a Swiss player may ask for in the whole tournament.
pub const HALF_BYES: usize = 1;

/// Player `number` of a Swiss still to be played, in and not withdrawn, with no bye asked
/// for the next round yet: who may ask for one.
fn bye_asker(t: &Tournament, number: u32) -> Result<&Entrant, CompeteError> {
    if !matches!(t.format, Format::Swiss { .. }) || t.status == Status::Finished {
        return Err(CompeteError::NotNow(
            "byes are for a Swiss still to be played",
        ));
    }
    let e = t.entrant(number).ok_or(CompeteError::NotIn)?;
    if e.withdrawn {
        return Err(CompeteError::NotIn);
    }
    if e.bye_next || e.zero_bye_next {
        return Err(CompeteError::NotNow("a bye is asked for already"));
    }
    Ok(e)
}

/// Whether player `number` may sit out `t`'s next round with no point.
pub fn may_sit_out(t: &Tournament, number: u32) -> Result<(), CompeteError> {
    bye_asker(t, number).map(|_| ())
}

/// Whether player `number` may ask for a half-point bye in `t`'s next round: one a
/// tournament, and not for the last round.
pub fn may_ask_bye(t: &Tournament, number: u32) -> Result<(), CompeteError> {
    bye_asker(t, number)?;
    let taken = (t.rounds.iter())
        .flat_map(|r| &r.byes)
        .filter(|y| y.player == number && y.kind == ByeKind::Half)
        .count();
    if taken >= HALF_BYES {
        return Err(CompeteError::NotNow("one half-point bye a tournament"));
    }
    if t.rounds.len() as u32 + 1 >= t.total_rounds() {
        return Err(CompeteError::NotNow("no half-point bye in the last round"));
    }
    Ok(())
}

pub(super) fn check(new: &NewTournament, now: u64) -> Result<TimeControl, CompeteError> {
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
                zero_bye_next: false,
                details: Details::default(),
            });
        }
        self.save(&t).await?;
        live.tournaments.insert(t.id.clone(), t.clone());
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
                zero_bye_next: false,
                details: Details::default(),
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
        ask: Option<ByeKind>,
    ) -> Result<Tournament, CompeteError> {
        self.change(id, |t| {
            let n = t.number_of(who.as_str()).ok_or(CompeteError::NotIn)?;
            match ask {
                Some(ByeKind::Half) => may_ask_bye(t, n)?,
                Some(ByeKind::Absent) => may_sit_out(t, n)?,
                Some(ByeKind::Pairing) => {
                    return Err(CompeteError::NotNow("the pairing gives that bye"));
                }
                None => {
                    let e = &t.players[n as usize - 1];
                    if !e.bye_next && !e.zero_bye_next {
                        return Err(CompeteError::NotNow("no bye was asked for"));
                    }
                }
            }
            let e = &mut t.players[n as usize - 1];
            e.bye_next = ask == Some(ByeKind::Half);
            e.zero_bye_next = ask == Some(ByeKind::Absent);
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
            creator_only(t, by)?;
            t.paused = paused;
            Ok(())
        })
        .await
    }

    /// The creator enters player `number`'s title, federation and sex (for the TRF and the
    /// title norms); a field left `None` is cleared.
    pub async fn set_details(
        &self,
        id: &str,
        by: &PlayerId,
        number: u32,
        details: Details,
    ) -> Result<Tournament, CompeteError> {
        let details = checked_details(details)?;
        self.change(id, |t| {
            creator_only(t, by)?;
            let e = (t.players.get_mut((number as usize).wrapping_sub(1)))
                .ok_or(CompeteError::NotIn)?;
            e.details = details;
            Ok(())
        })
        .await
    }

    /// The creator, as arbiter, sets the result of board `board` (from 1) of round `round`:
    /// a game finished (its own result stands in its record; the tournament scores this one),
    /// in a round robin or Swiss, running or finished. Later pairings and the standings
    /// follow it; ratings do not change.
    pub async fn correct(
        &self,
        id: &str,
        by: &PlayerId,
        round: u32,
        board: u32,
        result: BoardResult,
    ) -> Result<Tournament, CompeteError> {
        let fix = |t: &mut Tournament| {
            creator_only(t, by)?;
            if !matches!(t.format, Format::RoundRobin { .. } | Format::Swiss { .. }) {
                return Err(CompeteError::NotNow(
                    "results are corrected in round robins and Swiss",
                ));
            }
            let b = (t.rounds.get_mut((round as usize).wrapping_sub(1)))
                .and_then(|r| r.boards.get_mut((board as usize).wrapping_sub(1)))
                .ok_or(CompeteError::NotNow("no such board"))?;
            if b.result.is_none() {
                return Err(CompeteError::NotNow("the game is still being played"));
            }
            b.result = Some(result);
            b.corrected = true;
            Ok(())
        };
        match self.change(id, fix).await {
            Err(CompeteError::Closed) => {}
            done => return done,
        }
        // Finished: corrected in the stored document.
        // (Under the lock: two corrections at once do not undo each other.)
        let _live = self.live.lock().await;
        let row = (self.hub.store.tournament(id).await?).ok_or(CompeteError::NotFound)?;
        let mut t: Tournament =
            serde_json::from_str(&row.data).map_err(|_| CompeteError::NotFound)?;
        fix(&mut t)?;
        self.save(&t).await?;
        Ok(t)
    }

    /// The creator starts it now rather than at its time.
    pub async fn start_now(&self, id: &str, by: &PlayerId) -> Result<(), CompeteError> {
        let now = self.hub.now();
        self.change(id, |t| {
            creator_only(t, by)?;
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
