//! A Swiss tournament's state at the moment its next round is paired, read from a TRF the
//! way pairing engines read it: which rounds are played, who is absent from the next one,
//! each player's games, colours, floats and score.

use core::fmt;

use crate::trf::{Code, PointSystem, Trf};
use crate::{Colour, Points};

/// How a round ended for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

/// One player's round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Match {
    /// The opponent's index in [`Field::players`], if any.
    pub opponent: Option<usize>,
    pub colour: Option<Colour>,
    pub outcome: Outcome,
    /// A game was played (it counts as a meeting and for colours).
    pub played: bool,
    /// The player was paired, or got the pairing-allocated bye.
    pub paired: bool,
}

impl Match {
    /// Not in the round: a zero-point bye.
    pub fn absent() -> Match {
        Match {
            opponent: None,
            colour: None,
            outcome: Outcome::Loss,
            played: false,
            paired: false,
        }
    }

    fn from_code(opponent: Option<usize>, colour: Option<Colour>, code: Code) -> Match {
        let outcome = match code {
            Code::Win | Code::ForfeitWin | Code::QuickWin | Code::FullBye | Code::PairingBye => {
                Outcome::Win
            }
            Code::Draw | Code::QuickDraw | Code::HalfBye => Outcome::Draw,
            Code::Loss | Code::ForfeitLoss | Code::QuickLoss | Code::ZeroBye => Outcome::Loss,
        };
        let unplayed = matches!(
            code,
            Code::ForfeitWin
                | Code::ForfeitLoss
                | Code::HalfBye
                | Code::FullBye
                | Code::PairingBye
                | Code::ZeroBye
        );
        Match {
            opponent,
            colour,
            outcome,
            played: opponent.is_some() && colour.is_some() && !unplayed,
            paired: opponent.is_some() || matches!(code, Code::PairingBye | Code::ForfeitWin),
        }
    }
}

/// A player as the pairing sees them.
#[derive(Clone, Debug)]
pub struct Player {
    /// The pairing number from the file (1-based).
    pub id: u32,
    /// 0-based position in the ranking used for colours and ties.
    pub rank: usize,
    pub rating: u32,
    /// Without acceleration.
    pub score: Points,
    /// Round-indexed points added for pairing (Baku acceleration, `250`, `XXA`).
    pub accelerations: Vec<Points>,
    /// One a round played so far; a round beyond them marks an absence from the next.
    pub matches: Vec<Match>,
}

/// Why a file cannot be paired.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldError {
    /// The number of rounds is missing (`XXR` or `142`).
    NoRoundCount,
    /// All the rounds are played.
    Finished { played: usize, rounds: usize },
    /// A pairing number names nobody.
    UnknownPlayer(u32),
    /// A pairing number is missing between 1 and the largest.
    MissingNumber(u32),
    /// Two players' entries for a round disagree.
    Inconsistent { player: u32, round: usize },
    /// The points column disagrees with the results.
    WrongScore {
        player: u32,
        file: Points,
        results: Points,
    },
    /// The Baku acceleration needs win = 2 draws and a loss of 0.
    BakuPoints,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldError::NoRoundCount => {
                write!(f, "the number of rounds is missing (an XXR or 142 line)")
            }
            FieldError::Finished { played, rounds } => {
                write!(
                    f,
                    "{played} rounds are played of {rounds}: there is no round left to pair"
                )
            }
            FieldError::UnknownPlayer(id) => write!(f, "pairing number {id} names no player"),
            FieldError::MissingNumber(id) => write!(f, "pairing number {id} is missing"),
            FieldError::Inconsistent { player, round } => write!(
                f,
                "round {round} of player {player} contradicts the entry of the opponent"
            ),
            FieldError::WrongScore {
                player,
                file,
                results,
            } => write!(
                f,
                "player {player} has {file} points in the file but {results} from the results"
            ),
            FieldError::BakuPoints => {
                write!(
                    f,
                    "the Baku acceleration needs a win worth two draws and a loss worth 0"
                )
            }
        }
    }
}

impl std::error::Error for FieldError {}

/// The tournament before its next round.
#[derive(Clone, Debug)]
pub struct Field {
    /// By pairing number (index = number - 1).
    pub players: Vec<Player>,
    /// Rounds already paired.
    pub played_rounds: usize,
    /// Rounds in the tournament.
    pub rounds: usize,
    pub points: PointSystem,
    /// The colour drawn for the first player of round 1.
    pub initial_colour: Colour,
    /// Pairs that may not meet in the next round (besides earlier opponents).
    pub forbidden: Vec<(usize, usize)>,
}

impl Field {
    /// The state for pairing the round after the last one in `trf`.
    pub fn for_next_round(trf: &Trf) -> Result<Field, FieldError> {
        let rounds = trf.rounds.ok_or(FieldError::NoRoundCount)? as usize;
        let count = trf.players.iter().map(|p| p.id).max().unwrap_or(0) as usize;
        let mut slots: Vec<Option<&crate::trf::PlayerRecord>> = vec![None; count];
        for p in &trf.players {
            slots[p.id as usize - 1] = Some(p);
        }
        if !trf.by_rank
            && let Some(missing) = slots.iter().position(Option::is_none)
        {
            return Err(FieldError::MissingNumber(missing as u32 + 1));
        }
        let index_of = |id: u32| -> Result<usize, FieldError> {
            let i = id as usize;
            if i == 0 || i > count || slots[i - 1].is_none() {
                Err(FieldError::UnknownPlayer(id))
            } else {
                Ok(i - 1)
            }
        };

        // Rounds count as played up to the last column where someone was paired.
        let mut played_rounds = 0;
        let mut histories: Vec<Vec<Match>> = vec![Vec::new(); count];
        for (slot, history) in slots.iter().zip(histories.iter_mut()) {
            let Some(record) = slot else { continue };
            for (round, entry) in record.results.iter().enumerate() {
                let Some(entry) = entry else { continue };
                history.resize(round, Match::absent());
                played_rounds = played_rounds.max(round);
                let opponent = entry.opponent.map(index_of).transpose()?;
                let m = Match::from_code(opponent, entry.colour, entry.code);
                if m.paired {
                    played_rounds = played_rounds.max(round + 1);
                }
                history.push(m);
            }
        }
        let present = slots.iter().flatten().count();
        if present > 0
            && slots
                .iter()
                .zip(&histories)
                .all(|(s, h)| s.is_none() || h.len() > played_rounds)
        {
            played_rounds += 1;
        }
        if played_rounds >= rounds {
            return Err(FieldError::Finished {
                played: played_rounds,
                rounds,
            });
        }
        for (slot, history) in slots.iter().zip(histories.iter_mut()) {
            if slot.is_some() && history.len() < played_rounds {
                history.resize(played_rounds, Match::absent());
            }
        }
        // Absent from the next round: a column for it, a 240 record, an XXZ line.
        let next = played_rounds as u32 + 1;
        let mut absent: Vec<u32> = trf.absent_next.clone();
        for a in trf.absences.iter().filter(|a| a.round == next) {
            absent.extend(&a.players);
        }
        for id in absent {
            let i = index_of(id)?;
            if histories[i].len() <= played_rounds {
                histories[i].push(Match::absent());
            }
        }

        let mut players: Vec<Player> = Vec::with_capacity(count);
        let order: Vec<usize> = if trf.by_rank {
            trf.players.iter().map(|p| p.id as usize - 1).collect()
        } else {
            (0..count).collect()
        };
        let mut rank_of = vec![usize::MAX; count];
        for (rank, &i) in order.iter().enumerate() {
            rank_of[i] = rank;
        }
        for (i, slot) in slots.iter().enumerate() {
            let record = slot.ok_or(FieldError::MissingNumber(i as u32 + 1))?;
            players.push(Player {
                id: record.id,
                rank: rank_of[i],
                rating: record.rating,
                score: record.points,
                accelerations: Vec::new(),
                matches: std::mem::take(&mut histories[i]),
            });
        }

        for a in &trf.accelerations {
            for id in a.first_player..=a.last_player {
                let Ok(i) = index_of(id) else { continue };
                let acc = &mut players[i].accelerations;
                let last = a.last_round as usize;
                if acc.len() < last {
                    acc.resize(last, Points(0));
                }
                for r in a.first_round.max(1)..=a.last_round {
                    acc[r as usize - 1] = a.points;
                }
            }
        }
        for (id, values) in &trf.player_accelerations {
            let i = index_of(*id)?;
            players[i].accelerations = values.clone();
        }
        let baku = trf.system.as_deref().is_some_and(|s| s.ends_with("_BAKU"));
        if baku && trf.accelerations.is_empty() && trf.player_accelerations.is_empty() {
            apply_baku(&mut players, &order, &trf.points, rounds, played_rounds)?;
        }

        let mut forbidden = Vec::new();
        for f in &trf.forbidden {
            let applies = f.rounds.is_none_or(|(a, b)| (a..=b).contains(&next));
            if !applies {
                continue;
            }
            let ids: Vec<usize> = f
                .players
                .iter()
                .map(|&id| index_of(id))
                .collect::<Result<_, _>>()?;
            for (k, &a) in ids.iter().enumerate() {
                for &b in &ids[k + 1..] {
                    forbidden.push((a, b));
                }
            }
        }

        let mut field = Field {
            players,
            played_rounds,
            rounds,
            points: trf.points,
            initial_colour: Colour::White,
            forbidden,
        };
        field.initial_colour = trf
            .initial_colour
            .or_else(|| field.inferred_initial_colour())
            .unwrap_or(Colour::White);
        field.check_consistency()?;
        field.check_scores()?;
        Ok(field)
    }

    /// Whether the player is paired in the next round.
    pub fn is_present(&self, i: usize) -> bool {
        self.players[i].matches.len() <= self.played_rounds
    }

    /// The points a round gave.
    pub fn points_of(&self, m: &Match) -> Points {
        let p = &self.points;
        match m.outcome {
            Outcome::Loss if m.paired && m.played => p.loss,
            Outcome::Loss if m.paired => p.forfeit_loss,
            Outcome::Loss => p.absence,
            Outcome::Win if m.opponent.is_none() && m.paired => p.pairing_bye,
            Outcome::Win => p.win,
            Outcome::Draw => p.draw,
        }
    }

    /// The accelerated score of player `i` before the round `rounds_back` rounds ago
    /// (0: now).
    pub fn score(&self, i: usize, rounds_back: usize) -> Points {
        let player = &self.players[i];
        let mut score = player.score.0;
        for m in &player.matches[self.played_rounds - rounds_back..self.played_rounds] {
            score = score.saturating_sub(self.points_of(m).0);
        }
        let round = self.played_rounds - rounds_back;
        score += player.accelerations.get(round).map_or(0, |p| p.0);
        Points(score)
    }

    /// The colour of the highest-ranked player in the first round where colours were given.
    fn inferred_initial_colour(&self) -> Option<Colour> {
        let first = self
            .players
            .iter()
            .filter_map(|p| p.matches.iter().position(|m| m.colour.is_some()))
            .min()?;
        let mut by_rank: Vec<&Player> = self.players.iter().collect();
        by_rank.sort_by_key(|p| p.rank);
        let mut number = 0;
        for p in by_rank {
            if !p.matches.iter().take(first + 1).any(|m| m.paired) {
                continue;
            }
            if let Some(c) = p.matches.get(first).and_then(|m| m.colour) {
                return Some(if number % 2 == 1 { c.flip() } else { c });
            }
            number += 1;
        }
        None
    }

    fn check_consistency(&self) -> Result<(), FieldError> {
        for (i, p) in self.players.iter().enumerate() {
            for (round, m) in p.matches.iter().enumerate().take(self.played_rounds) {
                if !m.played {
                    continue;
                }
                let o = m.opponent.expect("a played game has an opponent");
                let theirs = self.players[o].matches.get(round);
                let agrees = theirs
                    .is_some_and(|t| t.played && t.opponent == Some(i) && t.colour != m.colour);
                if !agrees {
                    return Err(FieldError::Inconsistent {
                        player: p.id,
                        round: round + 1,
                    });
                }
            }
        }
        Ok(())
    }

    fn check_scores(&mut self) -> Result<(), FieldError> {
        for i in 0..self.players.len() {
            let p = &self.players[i];
            let results: u32 = p
                .matches
                .iter()
                .take(self.played_rounds)
                .map(|m| self.points_of(m).0)
                .sum();
            let acceleration = p.accelerations.get(self.played_rounds).map_or(0, |a| a.0);
            let next = p
                .matches
                .get(self.played_rounds)
                .map_or(0, |m| self.points_of(m).0);
            let file = p.score.0;
            let accepted = [
                results,
                results + acceleration,
                results + next,
                results + next + acceleration,
            ];
            if !accepted.contains(&file) {
                return Err(FieldError::WrongScore {
                    player: p.id,
                    file: p.score,
                    results: Points(results),
                });
            }
            self.players[i].score = Points(results);
        }
        Ok(())
    }
}

/// The Baku acceleration (C.04.5.1 of 2016): the top half by ranking gets a win's points
/// in the first rounds, then a draw's, up to the middle of the tournament.
fn apply_baku(
    players: &mut [Player],
    order: &[usize],
    points: &PointSystem,
    rounds: usize,
    played: usize,
) -> Result<(), FieldError> {
    if points.loss.0 != 0 || points.draw.0 * 2 != points.win.0 {
        return Err(FieldError::BakuPoints);
    }
    if order.is_empty() || rounds == 0 {
        return Ok(());
    }
    let last_rank = (order.len() - 1) / 2;
    let last_round = (rounds - 1) / 2;
    let last_full = last_round / 2;
    for &i in order.iter().take(last_rank + 1) {
        let acc = &mut players[i].accelerations;
        acc.clear();
        for round in 0..=last_round.min(played) {
            acc.push(if round <= last_full {
                points.win
            } else {
                points.draw
            });
        }
    }
    Ok(())
}
