//! A tournament as the FIDE writes one down: its TRF (what pairing programs, rating
//! officers and the tie-breaks read), the standings with the FIDE tie-breaks, and the
//! crosstable.

use serde::Serialize;
use vizier_pairing::norm::{self, Title};
use vizier_pairing::tiebreak::{self, TieBreak};
use vizier_pairing::trf::{Code, PlayerRecord, RoundEntry, Trf};
use vizier_pairing::{Colour, Points};

use crate::model::{BoardResult, ByeKind, Format, Round, Tournament};

/// The tie-breaks the standings use, as C.07 recommends for each kind of tournament:
/// direct encounter first in a round robin, Buchholz with its cut first in a Swiss.
pub fn tiebreaks(format: Format) -> Vec<TieBreak> {
    let names: &[&str] = match format {
        Format::RoundRobin { .. } => &["DE", "SB", "WIN", "KS"],
        Format::Swiss { .. } => &["BH/C1", "BH", "SB", "DE", "WIN"],
        // Ranked by performance instead.
        Format::Arena { .. } => &[],
        Format::Simul { .. } => &[],
    };
    names
        .iter()
        .map(|n| n.parse().expect("the tie-break names are known"))
        .collect()
}

/// `YYYY/MM/DD` (TRF's dates) of the UTC day containing `unix_ms`.
fn trf_date(unix_ms: u64) -> String {
    let at = time::OffsetDateTime::from_unix_timestamp((unix_ms / 1000) as i64)
        .unwrap_or(time::OffsetDateTime::UNIX_EPOCH);
    format!(
        "{:04}/{:02}/{:02}",
        at.year(),
        u8::from(at.month()),
        at.day()
    )
}

/// The two entries a board gives its players: White's, then Black's.
fn entries(board: &crate::model::Board, result: BoardResult) -> (RoundEntry, RoundEntry) {
    let (w, b) = match result {
        BoardResult::WhiteWins => (Code::Win, Code::Loss),
        BoardResult::Draw => (Code::Draw, Code::Draw),
        BoardResult::BlackWins => (Code::Loss, Code::Win),
        BoardResult::WhiteForfeits => (Code::ForfeitLoss, Code::ForfeitWin),
        BoardResult::BlackForfeits => (Code::ForfeitWin, Code::ForfeitLoss),
        BoardResult::BothForfeit => (Code::ForfeitLoss, Code::ForfeitLoss),
    };
    (
        RoundEntry {
            opponent: Some(board.black),
            colour: Some(Colour::White),
            code: w,
        },
        RoundEntry {
            opponent: Some(board.white),
            colour: Some(Colour::Black),
            code: b,
        },
    )
}

/// Writes `round`'s known results into the players' records.
fn enter_round(records: &mut [PlayerRecord], round: &Round) {
    let r = round.number as usize - 1;
    for board in &round.boards {
        let Some(result) = board.result else {
            continue;
        };
        let (w, b) = entries(board, result);
        for (number, entry) in [(board.white, w), (board.black, b)] {
            if let Some(p) = records.get_mut(number as usize - 1) {
                p.results[r] = Some(entry);
            }
        }
    }
    for bye in &round.byes {
        if let Some(p) = records.get_mut(bye.player as usize - 1) {
            p.results[r] = Some(RoundEntry {
                opponent: None,
                colour: None,
                code: match bye.kind {
                    ByeKind::Pairing => Code::PairingBye,
                    ByeKind::Absent => Code::ZeroBye,
                    ByeKind::Half => Code::HalfBye,
                },
            });
        }
    }
}

/// The tournament's TRF with the rounds whose results are all in (and, with
/// `unfinished`, the results known of the round being played). For pairing, the players
/// withdrawn are marked absent from the next round (`XXZ`).
pub fn to_trf(t: &Tournament, unfinished: bool) -> Trf {
    trf_of(t, unfinished, false)
}

/// The TRF; with `rate_all`, provisional ratings are written as ratings too (for
/// performances on this server, where every player has one).
fn trf_of(t: &Tournament, unfinished: bool, rate_all: bool) -> Trf {
    let rounds: Vec<&Round> = t
        .rounds
        .iter()
        .filter(|r| unfinished || r.is_over())
        .collect();
    let mut records: Vec<PlayerRecord> = t
        .players
        .iter()
        .enumerate()
        .map(|(i, e)| PlayerRecord {
            id: i as u32 + 1,
            sex: e.details.sex.unwrap_or(' '),
            title: (e.details.title.as_deref())
                .and_then(Title::parse)
                .map_or("", Title::trf_code)
                .to_string(),
            name: e.name.clone(),
            rating: if e.provisional && !rate_all {
                0
            } else {
                e.rating.max(0) as u32
            },
            federation: e.details.federation.clone().unwrap_or_default(),
            fide_id: String::new(),
            birth: String::new(),
            points: Points(0),
            rank: 0,
            results: vec![None; rounds.len()],
        })
        .collect();
    for round in &rounds {
        enter_round(&mut records, round);
    }
    let points = vizier_pairing::trf::PointSystem::default();
    for (i, p) in records.iter_mut().enumerate() {
        p.points = Points(
            p.results
                .iter()
                .flatten()
                .map(|e| points.of(e.code).0)
                .sum(),
        );
        p.rank = i as u32 + 1;
    }
    let kind = match t.format {
        Format::RoundRobin { double: false } => "Individual: round robin",
        Format::RoundRobin { double: true } => "Individual: double round robin",
        Format::Swiss { .. } => "Individual: Swiss-System",
        Format::Arena { .. } => "Individual: arena",
        Format::Simul { .. } => "Simultaneous exhibition",
    };
    let mut trf = Trf {
        records: vec![
            ("012".into(), t.name.clone()),
            ("042".into(), trf_date(t.starts_at)),
            ("092".into(), kind.into()),
            ("122".into(), t.control.clone()),
        ],
        players: records,
        rounds: Some(t.total_rounds()),
        initial_colour: Some(if t.first_white {
            Colour::White
        } else {
            Colour::Black
        }),
        system: Some(match t.format {
            Format::RoundRobin { .. } => "FIDE_ROUNDROBIN".into(),
            Format::Swiss { .. } => "FIDE_DUTCH_2025".into(),
            Format::Arena { .. } => "ARENA".into(),
            Format::Simul { .. } => "SIMUL".into(),
        }),
        ..Trf::default()
    };
    if let Some(end) = t
        .rounds
        .last()
        .filter(|_| t.status == crate::Status::Finished)
    {
        trf.records
            .insert(2, ("052".into(), trf_date(end.started_at)));
    }
    if !unfinished {
        trf.absent_next = t
            .players
            .iter()
            .enumerate()
            .filter(|(_, e)| e.withdrawn || e.bye_next || e.zero_bye_next)
            .map(|(i, _)| i as u32 + 1)
            .collect();
    }
    trf
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StandingRow {
    pub rank: usize,
    /// The pairing number.
    pub number: u32,
    pub name: String,
    pub rating: i32,
    /// Points as printed (`3.5`).
    pub points: String,
    /// Each tie-break's value as printed, `None` where it says nothing.
    pub tiebreaks: Vec<Option<String>>,
    pub withdrawn: bool,
    /// An arena's sheet: each game's points, in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sheet: Option<Vec<crate::arena::Score>>,
    /// An arena player on fire (two wins running).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fire: bool,
    /// The tournament performance rating (FIDE B.02, as the TPR tie-break computes it) over
    /// the games played, every player's server rating counted; an arena's, lichess's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub performance: Option<i32>,
}

/// Each player's tournament performance rating, by pairing number.
fn performances(t: &Tournament) -> std::collections::HashMap<u32, Option<i32>> {
    let trf = trf_of(t, false, true);
    let tpr: TieBreak = "TPR".parse().expect("TPR is a tie-break");
    let Ok(table) = tiebreak::standings(&trf, &[tpr]) else {
        return Default::default();
    };
    (table.rows.iter())
        .map(|r| {
            let value = r.values.get(1).copied().flatten();
            (r.id, value.map(|v| (v.hundredths / 100) as i32))
        })
        .collect()
}

/// The standings after the rounds that are over.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Standings {
    /// The tie-breaks' names, in order.
    pub tiebreaks: Vec<String>,
    /// Rounds counted.
    pub after_round: usize,
    pub rows: Vec<StandingRow>,
}

/// A simul's table: each player's points (the host's over every board), most first.
fn simul_standings(t: &Tournament) -> Standings {
    let mut rows: Vec<(u32, u32)> = (1..=t.players.len() as u32)
        .map(|n| (n, t.halves_of(n)))
        .collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut out: Vec<StandingRow> = Vec::with_capacity(rows.len());
    for (i, &(n, halves)) in rows.iter().enumerate() {
        let rank = match out.last() {
            Some(last) if rows[i - 1].1 == halves => last.rank,
            _ => i + 1,
        };
        let e = &t.players[n as usize - 1];
        out.push(StandingRow {
            rank,
            number: n,
            name: e.name.clone(),
            rating: e.rating,
            points: format!("{}.{}", halves / 2, if halves % 2 == 1 { 5 } else { 0 }),
            tiebreaks: Vec::new(),
            withdrawn: e.withdrawn,
            sheet: None,
            fire: false,
            performance: None,
        });
    }
    Standings {
        tiebreaks: Vec::new(),
        after_round: t.rounds.iter().filter(|r| r.is_over()).count(),
        rows: out,
    }
}

/// An arena's standings: by points, then performance.
fn arena_standings(t: &Tournament, streaks: bool) -> Standings {
    use crate::arena::{performance, sheet};
    let games = &t.arena_games;
    let mut rows: Vec<(u32, crate::arena::Sheet, Option<i32>)> = (1..=t.players.len() as u32)
        .map(|n| (n, sheet(games, n, streaks), performance(t, games, n)))
        .collect();
    rows.sort_by(|a, b| {
        (b.1.total.cmp(&a.1.total))
            .then(b.2.unwrap_or(0).cmp(&a.2.unwrap_or(0)))
            .then(a.0.cmp(&b.0))
    });
    let mut out = Vec::with_capacity(rows.len());
    for (i, (n, s, perf)) in rows.iter().enumerate() {
        let tied = i > 0 && rows[i - 1].1.total == s.total && rows[i - 1].2 == *perf;
        let rank = if tied {
            out.last().map_or(1, |r: &StandingRow| r.rank)
        } else {
            i + 1
        };
        let e = &t.players[*n as usize - 1];
        out.push(StandingRow {
            rank,
            number: *n,
            name: e.name.clone(),
            rating: e.rating,
            points: s.total.to_string(),
            tiebreaks: vec![perf.map(|p| p.to_string())],
            withdrawn: e.withdrawn,
            sheet: Some(s.scores.clone()),
            fire: s.on_fire,
            performance: *perf,
        });
    }
    Standings {
        tiebreaks: vec!["Perf".into()],
        after_round: games.iter().filter(|g| g.result.is_some()).count(),
        rows: out,
    }
}

/// Standings with the FIDE tie-breaks after the rounds that are over (an arena's by points
/// and performance, over the games finished).
pub fn standings(t: &Tournament) -> Standings {
    if let Format::Arena { streaks, .. } = t.format {
        return arena_standings(t, streaks);
    }
    if t.is_simul() {
        return simul_standings(t);
    }
    let trf = to_trf(t, false);
    let list = tiebreaks(t.format);
    let names: Vec<String> = list.iter().map(|tb| tb.to_string()).collect();
    let after_round = t.rounds.iter().filter(|r| r.is_over()).count();
    let Ok(table) = tiebreak::standings(&trf, &list) else {
        // Our own results always fit: this is unreachable short of a corrupted document.
        tracing::error!(tournament = %t.id, "the tournament's results are inconsistent");
        return Standings {
            tiebreaks: names,
            after_round,
            rows: Vec::new(),
        };
    };
    let performances = performances(t);
    let rows = table
        .rows
        .iter()
        .map(|row| {
            let e = &t.players[row.id as usize - 1];
            let mut values = row.values.iter().map(|v| v.map(|v| v.to_string()));
            StandingRow {
                performance: performances.get(&row.id).copied().flatten(),
                rank: row.rank,
                number: row.id,
                name: e.name.clone(),
                rating: e.rating,
                points: values.next().flatten().unwrap_or_default(),
                tiebreaks: values.collect(),
                withdrawn: e.withdrawn,
                sheet: None,
                fire: false,
            }
        })
        .collect();
    Standings {
        tiebreaks: names,
        after_round,
        rows,
    }
}

/// One norm checked for one player, as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NormLine {
    /// `GM`, `IM`, `WGM` or `WIM`.
    pub title: String,
    pub average: i32,
    pub performance: i32,
    /// The first condition not met; none when the norm result is reached.
    pub missing: Option<String>,
}

/// A player's title norm results.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerNorms {
    pub number: u32,
    pub games: usize,
    /// The highest norm reached.
    pub best: Option<String>,
    pub checks: Vec<NormLine>,
}

/// The title norm results (FIDE B.01) of a round robin or Swiss whose organiser entered
/// players' titles, over the rounds that are over; `None` otherwise. Provisional ratings
/// count as unrated, as in the TRF.
pub fn norms(t: &Tournament) -> Option<Vec<PlayerNorms>> {
    let titled = t.players.iter().any(|e| e.details.title.is_some());
    if !titled || !matches!(t.format, Format::RoundRobin { .. } | Format::Swiss { .. }) {
        return None;
    }
    let report = norm::norms(&to_trf(t, false)).ok()?;
    let rows = (report.players.into_iter())
        .map(|p| PlayerNorms {
            number: p.id,
            games: p.games,
            best: p.best().map(|n| n.to_string()),
            checks: (p.checks.iter())
                .map(|c| NormLine {
                    title: c.title.to_string(),
                    average: c.average,
                    performance: c.performance,
                    missing: c.shortfalls.first().map(ToString::to_string),
                })
                .collect(),
        })
        .collect();
    Some(rows)
}

/// A crosstable cell: a player's round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Cell {
    /// The opponent's pairing number; none for a bye.
    pub opponent: Option<u32>,
    /// `w` or `b`.
    pub colour: Option<char>,
    /// `1`, `=`, `0`, `+`, `-`, `U` (bye), `Z` (not paired); `*` while being played.
    pub result: char,
    pub game: Option<String>,
}

/// The crosstable: per player (by pairing number), per round, including the round being
/// played.
pub fn crosstable(t: &Tournament) -> Vec<Vec<Option<Cell>>> {
    let mut rows: Vec<Vec<Option<Cell>>> = vec![vec![None; t.rounds.len()]; t.players.len()];
    for (r, round) in t.rounds.iter().enumerate() {
        for board in &round.boards {
            let codes = board.result.map(|res| {
                let (w, b) = entries(board, res);
                (w.code.symbol(), b.code.symbol())
            });
            for (me, other, colour, code) in [
                (board.white, board.black, 'w', codes.map(|c| c.0)),
                (board.black, board.white, 'b', codes.map(|c| c.1)),
            ] {
                if let Some(row) = rows.get_mut(me as usize - 1) {
                    row[r] = Some(Cell {
                        opponent: Some(other),
                        colour: Some(colour),
                        result: code.unwrap_or('*'),
                        game: board.game.clone(),
                    });
                }
            }
        }
        for bye in &round.byes {
            if let Some(row) = rows.get_mut(bye.player as usize - 1) {
                row[r] = Some(Cell {
                    opponent: None,
                    colour: None,
                    result: match bye.kind {
                        ByeKind::Pairing => 'U',
                        ByeKind::Absent => 'Z',
                        ByeKind::Half => 'H',
                    },
                    game: None,
                });
            }
        }
    }
    rows
}
