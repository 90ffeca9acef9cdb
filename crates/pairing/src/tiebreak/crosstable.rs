//! Every player's rounds as the tie-breaks read them: points by the file's point system,
//! games over the board, and the unplayed rounds sorted into the categories of Article 16.

use std::collections::HashMap;

use crate::Colour;
use crate::trf::{Code, Trf};

use super::StandingsError;

/// How a round went for one player, unplayed rounds by their Article 16 category.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Played over the board (a game of less than one move included).
    Game,
    /// 16.2.1: the pairing-allocated bye.
    PairingBye,
    /// 16.2.1: a full-point bye.
    FullBye,
    /// 16.2.2: won by forfeit.
    ForfeitWin,
    /// 16.2.4: lost by forfeit.
    ForfeitLoss,
    /// A half-point bye.
    HalfBye,
    /// A zero-point bye, or not in the round at all.
    Absent,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Round {
    pub opponent: Option<usize>,
    pub colour: Option<Colour>,
    pub kind: Kind,
    /// Points by the tournament's point system, in tenths.
    pub points: i64,
    /// For performance: 100 for a win, 50 a draw, 0 a loss.
    pub result: u32,
}

impl Round {
    fn absent() -> Round {
        Round {
            opponent: None,
            colour: None,
            kind: Kind::Absent,
            points: 0,
            result: 0,
        }
    }

    /// A game over the board against an opponent.
    pub fn game(&self) -> bool {
        self.kind == Kind::Game && self.opponent.is_some()
    }

    /// Sat at the board or was given the pairing-allocated bye.
    pub fn played(&self) -> bool {
        matches!(self.kind, Kind::Game | Kind::PairingBye)
    }

    /// A voluntarily unplayed round (16.2.3–16.2.5): a requested bye of half or no point,
    /// a forfeit loss, an absence.
    pub fn voluntary(&self) -> bool {
        matches!(self.kind, Kind::HalfBye | Kind::Absent | Kind::ForfeitLoss)
    }
}

pub(crate) struct Entrant {
    pub id: u32,
    pub name: String,
    /// `None` when unrated.
    pub rating: Option<u32>,
    pub rounds: Vec<Round>,
    /// Points, in tenths.
    pub total: i64,
}

/// Which edition of Article 16 applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rules {
    /// Effective 1 August 2024.
    R2024,
    /// Applied from 1 March 2026: a dummy opponent's score is capped.
    R2026,
}

pub(crate) struct Table {
    pub players: Vec<Entrant>,
    /// Rounds with results.
    pub rounds: usize,
    pub win: i64,
    pub draw: i64,
    /// Pairings set in advance (a round robin): forfeits count as games, byes not at all.
    pub round_robin: bool,
    pub rules: Rules,
}

impl Table {
    pub fn read(trf: &Trf) -> Result<Table, StandingsError> {
        let mut index: HashMap<u32, usize> = HashMap::with_capacity(trf.players.len());
        for (i, p) in trf.players.iter().enumerate() {
            if index.insert(p.id, i).is_some() {
                return Err(StandingsError::DuplicateNumber(p.id));
            }
        }
        let rounds = trf
            .players
            .iter()
            .map(|p| {
                p.results
                    .iter()
                    .rposition(Option::is_some)
                    .map_or(0, |r| r + 1)
            })
            .max()
            .unwrap_or(0);
        let points = &trf.points;
        let mut players = Vec::with_capacity(trf.players.len());
        for record in &trf.players {
            let mut list = Vec::with_capacity(rounds);
            for r in 0..rounds {
                let Some(Some(entry)) = record.results.get(r) else {
                    list.push(Round::absent());
                    continue;
                };
                let opponent = match entry.opponent {
                    Some(id) => Some(*index.get(&id).ok_or(StandingsError::UnknownOpponent {
                        player: record.id,
                        round: r as u32 + 1,
                        opponent: id,
                    })?),
                    None => None,
                };
                let (kind, result) = match entry.code {
                    Code::Win | Code::QuickWin => (Kind::Game, 100),
                    Code::Draw | Code::QuickDraw => (Kind::Game, 50),
                    Code::Loss | Code::QuickLoss => (Kind::Game, 0),
                    Code::ForfeitWin => (Kind::ForfeitWin, 100),
                    Code::ForfeitLoss => (Kind::ForfeitLoss, 0),
                    Code::PairingBye => (Kind::PairingBye, 100),
                    Code::FullBye => (Kind::FullBye, 100),
                    Code::HalfBye => (Kind::HalfBye, 50),
                    Code::ZeroBye => (Kind::Absent, 0),
                };
                list.push(Round {
                    opponent,
                    colour: entry.colour,
                    kind,
                    points: points.of(entry.code).0 as i64,
                    result,
                });
            }
            players.push(Entrant {
                id: record.id,
                name: record.name.clone(),
                rating: (record.rating > 0).then_some(record.rating),
                total: list.iter().map(|r| r.points).sum(),
                rounds: list,
            });
        }
        let declared = trf.rounds.map_or(0, |r| r as usize).max(rounds);
        Ok(Table {
            round_robin: round_robin(trf, players.len(), declared),
            rules: rules(trf),
            players,
            rounds,
            win: points.win.0 as i64,
            draw: points.draw.0 as i64,
        })
    }

    /// The last round in which a player was not voluntarily absent (0 if none).
    pub fn last_attended(&self, p: usize) -> usize {
        self.players[p]
            .rounds
            .iter()
            .rposition(|r| !r.voluntary())
            .map_or(0, |r| r + 1)
    }

    /// The last round in which a player had an opponent or the pairing-allocated bye.
    pub fn last_paired(&self, p: usize) -> usize {
        self.players[p]
            .rounds
            .iter()
            .rposition(|r| r.opponent.is_some() || r.played())
            .map_or(0, |r| r + 1)
    }
}

/// Round robin or Swiss: the type records say so (`092`, `192`); without them, a player
/// count that fits the rounds of a single or double round robin.
fn round_robin(trf: &Trf, players: usize, rounds: usize) -> bool {
    let named = |tag: &'static str| {
        trf.records
            .iter()
            .filter(move |(t, _)| t == tag)
            .map(|(_, text)| text.to_ascii_uppercase())
    };
    for text in named("192").chain(trf.system.iter().map(|s| s.to_ascii_uppercase())) {
        if text.contains("ROUNDROBIN") {
            return true;
        }
        if text.contains("DUTCH") || text.contains("SWISS") || text.contains("BURSTEIN") {
            return false;
        }
    }
    for text in named("092") {
        if text.contains("SWISS") {
            return false;
        }
        if text.contains("RR") || text.contains("ROBIN") || text.contains("BERGER") {
            return true;
        }
    }
    let n = players;
    n == rounds + 1 || n == rounds || 2 * n == rounds || 2 * n == rounds + 1 || 2 * n == rounds + 2
}

/// 2026 rules for tournaments starting on or after 1 March 2026 (`042`), and where no date
/// is given.
fn rules(trf: &Trf) -> Rules {
    let start = trf.records.iter().find(|(t, _)| t == "042").map(|(_, d)| {
        d.chars()
            .filter(char::is_ascii_digit)
            .take(8)
            .collect::<String>()
    });
    match start {
        Some(date) if date.len() == 8 && date.as_str() < "20260301" => Rules::R2024,
        _ => Rules::R2026,
    }
}

impl Entrant {
    /// Points so far after each round, in tenths.
    pub fn running(&self) -> impl Iterator<Item = i64> + '_ {
        self.rounds.iter().scan(0, |sum, r| {
            *sum += r.points;
            Some(*sum)
        })
    }
}
