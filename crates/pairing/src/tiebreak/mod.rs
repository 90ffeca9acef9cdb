//! Standings with the tie-breaks of the FIDE Tie-Break Regulations (C.07, 2024 edition,
//! with the changes applied from 1 March 2026): players ranked by points, then by each
//! tie-break of a list in turn; players equal on all of them share a place.
//!
//! ```
//! use vizier_pairing::tiebreak::{parse_list, standings};
//! use vizier_pairing::trf::Trf;
//!
//! // A `001` record: number, name, rating, points, then (opponent, colour, result) a round.
//! let line = |id: u32, rating: u32, points: &str, rounds: &[(u32, char, char)]| {
//!     let mut text = format!("001 {id:>4}      {:<33} {rating:>4} {:3} {:>11} {:10} {points:>4} {:>4}", "", "", "", "", "");
//!     for &(opponent, colour, result) in rounds {
//!         text += &format!("  {opponent:>4} {colour} {result}");
//!     }
//!     text + "\n"
//! };
//! let file = [
//!     line(1, 2000, "1.5", &[(3, 'w', '1'), (4, 'w', '=')]),
//!     line(2, 1950, "1.5", &[(4, 'w', '='), (3, 'w', '1')]),
//!     line(3, 1900, "0.0", &[(1, 'b', '0'), (2, 'b', '0')]),
//!     line(4, 1850, "1.0", &[(2, 'b', '='), (1, 'b', '=')]),
//! ]
//! .concat();
//! let trf = Trf::parse(&file).unwrap();
//! let table = standings(&trf, &parse_list("BH SB").unwrap()).unwrap();
//! // 1 and 2 are equal on points, Buchholz (1.0) and Sonneborn–Berger: they share first.
//! assert_eq!((table.rows[0].id, table.rows[0].rank), (1, 1));
//! assert_eq!((table.rows[1].id, table.rows[1].rank), (2, 1));
//! assert_eq!(table.rows[0].values[1].unwrap().to_string(), "1.0");
//! assert_eq!(table.rows[2].id, 4);
//! ```

mod crosstable;
mod encounter;
mod opponents;
mod own;
mod rating;
mod spec;

use core::fmt;

pub use crosstable::Rules;
pub use spec::{Kind, SpecError, TieBreak, parse_list};

use crate::trf::Trf;
pub(crate) use crosstable::Table;

/// One value of a tie-break; it knows its decimals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value {
    /// In hundredths.
    pub hundredths: i64,
    pub decimals: u8,
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.hundredths < 0 { "-" } else { "" };
        let v = self.hundredths.unsigned_abs();
        match self.decimals {
            0 => write!(f, "{sign}{}", v / 100),
            1 => write!(f, "{sign}{}.{}", v / 100, v % 100 / 10),
            _ => write!(f, "{sign}{}.{:02}", v / 100, v % 100),
        }
    }
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// 1-based; shared by players equal on points and every tie-break.
    pub rank: usize,
    /// The pairing number.
    pub id: u32,
    pub name: String,
    /// Points first, then one value per tie-break; `None` where the tie-break says nothing
    /// (a rating figure with unrated players, an average over no games).
    pub values: Vec<Option<Value>>,
}

/// The ranked table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standings {
    /// `PTS` and the tie-breaks as named.
    pub columns: Vec<String>,
    pub rows: Vec<Row>,
    /// Rounds counted: those with results.
    pub rounds: usize,
    pub rules: Rules,
    pub round_robin: bool,
}

/// Why standings could not be drawn up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StandingsError {
    DuplicateNumber(u32),
    UnknownOpponent {
        player: u32,
        round: u32,
        opponent: u32,
    },
}

impl fmt::Display for StandingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StandingsError::DuplicateNumber(id) => {
                write!(f, "pairing number {id} is given to two players")
            }
            StandingsError::UnknownOpponent {
                player,
                round,
                opponent,
            } => write!(
                f,
                "player {player}, round {round}: opponent {opponent} is not in the tournament"
            ),
        }
    }
}

impl std::error::Error for StandingsError {}

fn column(table: &Table, tb: &TieBreak, rank: &[usize]) -> Vec<Option<i64>> {
    let n = table.players.len();
    match tb.kind {
        Kind::De => encounter::values(table, tb, rank)
            .into_iter()
            .map(Some)
            .collect(),
        Kind::Bh | Kind::Fb | Kind::Sb | Kind::Aob | Kind::Ks => opponents::values(table, tb),
        Kind::Aro | Kind::Tpr | Kind::Ptp | Kind::Apro | Kind::Appo | Kind::Rtng => {
            rating::values(table, tb)
        }
        _ => (0..n).map(|p| Some(own::value(table, tb, p))).collect(),
    }
}

/// Ranks the players of `trf` by points, then by `tiebreaks` in order (a leading `PTS` in
/// the list is the points themselves).
pub fn standings(trf: &Trf, tiebreaks: &[TieBreak]) -> Result<Standings, StandingsError> {
    let table = Table::read(trf)?;
    let n = table.players.len();
    let points: TieBreak = "PTS".parse().expect("PTS is a tie-break");
    let mut list: Vec<&TieBreak> = vec![&points];
    list.extend(
        tiebreaks
            .iter()
            .skip_while(|tb| tb.kind == Kind::Pts && tb.cut_low == 0 && !tb.reverse),
    );

    let mut rank = vec![1usize; n];
    let mut order: Vec<usize> = (0..n).collect();
    let mut columns: Vec<Vec<Option<i64>>> = Vec::with_capacity(list.len());
    for tb in &list {
        let values = column(&table, tb, &rank);
        let lower_first = tb.kind.lower_first() != tb.reverse;
        let key = |p: usize| {
            let v = values[p];
            let directed = v.map(|v| if lower_first { v } else { -v });
            (rank[p], directed.is_none(), directed, table.players[p].id)
        };
        order.sort_by_key(|&p| key(p));
        let mut next = rank.clone();
        for i in 1..n {
            let (a, b) = (order[i - 1], order[i]);
            next[b] = if rank[a] == rank[b] && values[a] == values[b] {
                next[a]
            } else {
                i + 1
            };
        }
        if let Some(&first) = order.first() {
            next[first] = 1;
        }
        rank = next;
        columns.push(values);
    }

    let rows = order
        .iter()
        .map(|&p| Row {
            rank: rank[p],
            id: table.players[p].id,
            name: table.players[p].name.clone(),
            values: list
                .iter()
                .zip(&columns)
                .map(|(tb, values)| {
                    values[p].map(|hundredths| Value {
                        hundredths,
                        decimals: tb.kind.decimals(),
                    })
                })
                .collect(),
        })
        .collect();
    Ok(Standings {
        columns: list.iter().map(|tb| tb.to_string()).collect(),
        rows,
        rounds: table.rounds,
        rules: table.rules,
        round_robin: table.round_robin,
    })
}

impl fmt::Display for Standings {
    /// A table in columns: rank, pairing number, points and tie-breaks, name (`-` for a
    /// value the tie-break does not give).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut lines: Vec<Vec<String>> = Vec::with_capacity(self.rows.len() + 1);
        let mut header = vec!["Rank".to_string(), "No".to_string()];
        header.extend(self.columns.iter().cloned());
        lines.push(header);
        for row in &self.rows {
            let mut line = vec![row.rank.to_string(), row.id.to_string()];
            line.extend(
                row.values
                    .iter()
                    .map(|v| v.map_or("-".to_string(), |v| v.to_string())),
            );
            lines.push(line);
        }
        let widths: Vec<usize> = (0..lines[0].len())
            .map(|c| lines.iter().map(|l| l[c].len()).max().unwrap_or(0))
            .collect();
        for (i, line) in lines.iter().enumerate() {
            let mut text = String::new();
            for (c, cell) in line.iter().enumerate() {
                if c > 0 {
                    text.push_str("  ");
                }
                text.push_str(&format!("{cell:>width$}", width = widths[c]));
            }
            let name = if i == 0 {
                "Name"
            } else {
                self.rows[i - 1].name.as_str()
            };
            writeln!(f, "{text}  {name}")?;
        }
        Ok(())
    }
}
