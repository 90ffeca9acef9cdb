//! Title norm results by the FIDE Title Regulations (B.01): for every player who does not
//! hold a title already, whether the tournament gave a GM, IM, WGM or WIM norm result —
//! the games over the board, the opponents' titles, federations and ratings (with the
//! adjusted rating floor) and the performance.
//!
//! Where a rule cannot be read from a TRF file it is left to the arbiter: the event's
//! time control and rate of play, its arbiters, norms in more rounds than needed (a
//! subset of rounds), team events and the exemptions for championships. Unrated
//! opponents count at 1400.
//!
//! `vizier pair --norms FILE.trf` prints this report; the tests beside this file work
//! through round robins and a Swiss by hand.

mod title;

use core::fmt;
use std::collections::{HashMap, HashSet};

pub use title::{NormTitle, Title};

use crate::performance::{dp, round_half_up};
use crate::tiebreak::{StandingsError, Table};
use crate::trf::{Code, Trf};

/// The rating an unrated opponent counts at.
pub const UNRATED: u32 = 1400;
/// Games over the board a norm needs.
pub const GAMES: usize = 9;

/// One condition of a norm that was not met.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shortfall {
    /// Fewer games over the board than nine (eight with one unrequested unplayed round).
    Games { played: usize },
    /// Fewer than half of the opponents hold a title (CM and WCM do not count).
    TitleHolders { have: usize, need: usize },
    /// Fewer than a third, and at least three, of the opponents hold the norm's title.
    Titled { have: usize, need: usize },
    /// Opponents from fewer than two federations other than the player's.
    ForeignFederations { have: usize },
    /// More than three fifths of the opponents from the player's own federation.
    OwnFederation { have: usize, most: usize },
    /// More than two thirds of the opponents from one federation.
    OneFederation { have: usize, most: usize },
    /// More than a fifth of the opponents unrated.
    Unrated { have: usize, most: usize },
    /// The opponents' average rating (after the floor) is below the norm's.
    Average { have: i32, need: i32 },
    /// The performance is below the norm's.
    Performance { have: i32, need: i32 },
}

impl fmt::Display for Shortfall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Shortfall::Games { played } => write!(f, "{played} games, {GAMES} needed"),
            Shortfall::TitleHolders { have, need } => {
                write!(f, "{have} title holders, {need} needed")
            }
            Shortfall::Titled { have, need } => write!(f, "{have} of the title, {need} needed"),
            Shortfall::ForeignFederations { have } => {
                write!(f, "{have} other federations, 2 needed")
            }
            Shortfall::OwnFederation { have, most } => {
                write!(f, "{have} of the own federation, at most {most}")
            }
            Shortfall::OneFederation { have, most } => {
                write!(f, "{have} of one federation, at most {most}")
            }
            Shortfall::Unrated { have, most } => write!(f, "{have} unrated, at most {most}"),
            Shortfall::Average { have, need } => write!(f, "average {have}, {need} needed"),
            Shortfall::Performance { have, need } => {
                write!(f, "performance {have}, {need} needed")
            }
        }
    }
}

/// One norm checked for one player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NormCheck {
    pub title: NormTitle,
    /// The opponents' average, one of them raised to the floor where needed.
    pub average: i32,
    /// The average plus the rating difference of the percentage scored.
    pub performance: i32,
    /// Empty when the norm result is reached.
    pub shortfalls: Vec<Shortfall>,
}

impl NormCheck {
    pub fn reached(&self) -> bool {
        self.shortfalls.is_empty()
    }
}

/// A player's norm results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerNorms {
    pub id: u32,
    pub name: String,
    pub title: Option<Title>,
    pub federation: String,
    /// Games over the board that count.
    pub games: usize,
    /// Their points, in hundredths.
    pub score: u32,
    /// Every norm open to the player, highest first.
    pub checks: Vec<NormCheck>,
}

impl PlayerNorms {
    /// The highest norm reached.
    pub fn best(&self) -> Option<NormTitle> {
        self.checks.iter().find(|c| c.reached()).map(|c| c.title)
    }
}

/// Every player's norm results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NormReport {
    pub players: Vec<PlayerNorms>,
    /// A Swiss whose field frees norms from the federation rules.
    pub federations_exempt: bool,
}

/// A player's federation, `None` where it counts as none (blank or FIDE's own `FID`).
fn federation(text: &str) -> Option<&str> {
    let t = text.trim();
    (!t.is_empty() && !t.eq_ignore_ascii_case("FID")).then_some(t)
}

/// A Swiss whose participants include at least 20 rated players not of the host federation
/// (`032`), of at least 3 federations, at least 10 of them GM, IM, WGM or WIM.
fn exempt(trf: &Trf, round_robin: bool) -> bool {
    let Some(host) = (trf.records.iter())
        .find(|(tag, _)| tag == "032")
        .and_then(|(_, text)| federation(text))
    else {
        return false;
    };
    if round_robin {
        return false;
    }
    let guests: Vec<_> = (trf.players.iter())
        .filter(|p| p.rating > 0)
        .filter(|p| federation(&p.federation).is_some_and(|f| !f.eq_ignore_ascii_case(host)))
        .collect();
    let federations: HashSet<String> = (guests.iter())
        .map(|p| p.federation.trim().to_ascii_uppercase())
        .collect();
    let titled = (guests.iter())
        .filter(|p| {
            matches!(
                Title::parse(&p.title),
                Some(Title::Gm | Title::Im | Title::Wgm | Title::Wim)
            )
        })
        .count();
    guests.len() >= 20 && federations.len() >= 3 && titled >= 10
}

/// One game over the board: the opponent's index and the points, in hundredths.
struct Game {
    opponent: usize,
    result: u32,
}

/// The norm results of every player of `trf`.
pub fn norms(trf: &Trf) -> Result<NormReport, StandingsError> {
    let table = Table::read(trf)?;
    let index: HashMap<u32, usize> = (trf.players.iter().enumerate())
        .map(|(i, p)| (p.id, i))
        .collect();
    let mut games: Vec<Vec<Game>> = Vec::with_capacity(trf.players.len());
    let mut unrequested = vec![0usize; trf.players.len()];
    for (i, p) in trf.players.iter().enumerate() {
        let mut list = Vec::new();
        for entry in p.results.iter().flatten() {
            let result = match entry.code {
                Code::Win => 100,
                Code::Draw => 50,
                Code::Loss => 0,
                Code::ForfeitWin | Code::PairingBye => {
                    unrequested[i] += 1;
                    continue;
                }
                _ => continue,
            };
            if let Some(&opponent) = entry.opponent.and_then(|id| index.get(&id)) {
                list.push(Game { opponent, result });
            }
        }
        games.push(list);
    }
    // In a round robin, an unrated player who scored nothing against the rated ones is
    // not counted as an opponent.
    let ignored: Vec<bool> = (0..trf.players.len())
        .map(|i| {
            table.round_robin
                && trf.players[i].rating == 0
                && games[i]
                    .iter()
                    .filter(|g| trf.players[g.opponent].rating > 0)
                    .all(|g| g.result == 0)
        })
        .collect();
    let federations_exempt = exempt(trf, table.round_robin);
    let mut players = Vec::with_capacity(trf.players.len());
    for (i, p) in trf.players.iter().enumerate() {
        let counted: Vec<&Game> = games[i].iter().filter(|g| !ignored[g.opponent]).collect();
        let title = Title::parse(&p.title);
        let score = counted.iter().map(|g| g.result).sum();
        let checks = NormTitle::ALL
            .iter()
            .filter(|n| n.open_to(title, p.sex))
            .map(|&norm| {
                let opponents = counted.iter().map(|g| &trf.players[g.opponent]);
                let one_unrequested = unrequested[i] == 1 && counted.len() + 1 == GAMES;
                check(
                    norm,
                    p,
                    opponents,
                    score,
                    one_unrequested,
                    federations_exempt,
                )
            })
            .collect();
        players.push(PlayerNorms {
            id: p.id,
            name: p.name.clone(),
            title,
            federation: p.federation.clone(),
            games: counted.len(),
            score,
            checks,
        });
    }
    Ok(NormReport {
        players,
        federations_exempt,
    })
}

/// Whether `player` reached `norm` against `opponents` with `score` (hundredths).
fn check<'a>(
    norm: NormTitle,
    player: &crate::trf::PlayerRecord,
    opponents: impl Iterator<Item = &'a crate::trf::PlayerRecord>,
    score: u32,
    one_unrequested: bool,
    federations_exempt: bool,
) -> NormCheck {
    let opponents: Vec<_> = opponents.collect();
    let n = opponents.len();
    let mut shortfalls = Vec::new();
    if n < GAMES && !(one_unrequested && n + 1 == GAMES) {
        shortfalls.push(Shortfall::Games { played: n });
    }
    let titles: Vec<Option<Title>> = opponents.iter().map(|o| Title::parse(&o.title)).collect();
    let holders = titles.iter().flatten().filter(|t| t.holder()).count();
    if 2 * holders < n || n == 0 {
        shortfalls.push(Shortfall::TitleHolders {
            have: holders,
            need: n.div_ceil(2),
        });
    }
    let titled = titles.iter().flatten().filter(|&&t| norm.counts(t)).count();
    let need = n.div_ceil(3).max(3);
    if titled < need {
        shortfalls.push(Shortfall::Titled { have: titled, need });
    }
    if !federations_exempt {
        let own = federation(&player.federation).map(str::to_ascii_uppercase);
        let mut by_federation: HashMap<String, usize> = HashMap::new();
        for o in &opponents {
            if let Some(f) = federation(&o.federation) {
                *by_federation.entry(f.to_ascii_uppercase()).or_default() += 1;
            }
        }
        let foreign = (by_federation.keys())
            .filter(|f| own.as_ref() != Some(*f))
            .count();
        if foreign < 2 {
            shortfalls.push(Shortfall::ForeignFederations { have: foreign });
        }
        let most_own = 3 * n / 5;
        let from_own = own
            .as_ref()
            .map_or(0, |f| by_federation.get(f).copied().unwrap_or(0));
        if from_own > most_own {
            shortfalls.push(Shortfall::OwnFederation {
                have: from_own,
                most: most_own,
            });
        }
        let most_one = 2 * n / 3;
        let largest = by_federation.values().copied().max().unwrap_or(0);
        if largest > most_one {
            shortfalls.push(Shortfall::OneFederation {
                have: largest,
                most: most_one,
            });
        }
    }
    let unrated = opponents.iter().filter(|o| o.rating == 0).count();
    if unrated > n / 5 {
        shortfalls.push(Shortfall::Unrated {
            have: unrated,
            most: n / 5,
        });
    }
    let mut ratings: Vec<u32> = (opponents.iter())
        .map(|o| if o.rating == 0 { UNRATED } else { o.rating })
        .collect();
    if let Some(lowest) = ratings.iter_mut().min() {
        *lowest = (*lowest).max(norm.floor());
    }
    let (average, performance) = if n == 0 {
        (0, 0)
    } else {
        let sum: i64 = ratings.iter().map(|&r| r as i64).sum();
        let average = round_half_up(sum, n as i64) as i32;
        let percent = round_half_up(score as i64, n as i64) as u32;
        (average, average + dp(percent))
    };
    if average < norm.average() {
        shortfalls.push(Shortfall::Average {
            have: average,
            need: norm.average(),
        });
    }
    if performance < norm.performance() {
        shortfalls.push(Shortfall::Performance {
            have: performance,
            need: norm.performance(),
        });
    }
    NormCheck {
        title: norm,
        average,
        performance,
        shortfalls,
    }
}

impl fmt::Display for NormReport {
    /// One line a player: number, title, federation, games, points, and each norm open to
    /// them with its average and performance, `yes` or the first thing missing.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for p in &self.players {
            let title = p.title.map_or("", Title::as_str);
            let points = p.score / 100;
            let half = if p.score % 100 >= 50 { ".5" } else { ".0" };
            write!(
                f,
                "{:>4} {:<3} {:<3} {:>2} {:>4}{half}",
                p.id,
                title,
                p.federation.trim(),
                p.games,
                points
            )?;
            for c in &p.checks {
                let verdict = match c.shortfalls.first() {
                    None => "yes".to_string(),
                    Some(s) => format!("no: {s}"),
                };
                write!(
                    f,
                    "  {} norm (Ra {} Rp {}): {verdict}",
                    c.title, c.average, c.performance
                )?;
            }
            writeln!(f, "  {}", p.name.trim())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
