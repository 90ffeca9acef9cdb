//! The FIDE Tournament Report File: TRF-16 (with the common `XX` extensions) and TRF-2026,
//! read and written.
//!
//! A file is records, one a line, each starting with a three-character tag. Players are
//! `001` records with fixed columns and ten columns per round; everything else is
//! tournament data. Lines end with CR (LF and CRLF are read too).
//!
//! ```
//! use vizier_pairing::trf::{Trf, Code};
//! let text = "012 Club Swiss\r\
//!             XXR 5\r\
//! 001    1      Doe, Jane                         2100                             1.0    1     2 w 1\r\
//! 001    2      Roe, Rick                         2000                             0.0    2     1 b 0\r";
//! let trf = Trf::parse(text).unwrap();
//! assert_eq!(trf.rounds, Some(5));
//! assert_eq!(trf.players[1].results[0].as_ref().unwrap().code, Code::Loss);
//! ```

use core::fmt;

use crate::{Colour, Points};

/// Which edition of the format to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// TRF-16, with `XXR` (rounds) and `XXC` (first colour) as pairing engines read them.
    Trf16,
    /// TRF-2026: `142`, `152`, `162`, `192`, `240`, `250`, `260`.
    Trf2026,
}

/// A result code of a round column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Code {
    /// `1`
    Win,
    /// `=`
    Draw,
    /// `0`
    Loss,
    /// `+`: won by forfeit.
    ForfeitWin,
    /// `-`: lost by forfeit.
    ForfeitLoss,
    /// `W`: won, the game lasted less than one move (not rated).
    QuickWin,
    /// `D`
    QuickDraw,
    /// `L`
    QuickLoss,
    /// `H`: half-point bye.
    HalfBye,
    /// `F`: full-point bye.
    FullBye,
    /// `U`: pairing-allocated bye.
    PairingBye,
    /// `Z` (or blank): zero-point bye, a known absence.
    ZeroBye,
}

impl Code {
    fn parse(c: char) -> Option<Code> {
        Some(match c.to_ascii_uppercase() {
            '1' => Code::Win,
            '=' => Code::Draw,
            '0' => Code::Loss,
            '+' => Code::ForfeitWin,
            '-' => Code::ForfeitLoss,
            'W' => Code::QuickWin,
            'D' => Code::QuickDraw,
            'L' => Code::QuickLoss,
            'H' => Code::HalfBye,
            'F' => Code::FullBye,
            'U' => Code::PairingBye,
            'Z' | ' ' => Code::ZeroBye,
            _ => return None,
        })
    }

    pub fn symbol(self) -> char {
        match self {
            Code::Win => '1',
            Code::Draw => '=',
            Code::Loss => '0',
            Code::ForfeitWin => '+',
            Code::ForfeitLoss => '-',
            Code::QuickWin => 'W',
            Code::QuickDraw => 'D',
            Code::QuickLoss => 'L',
            Code::HalfBye => 'H',
            Code::FullBye => 'F',
            Code::PairingBye => 'U',
            Code::ZeroBye => 'Z',
        }
    }

    /// Whether the code needs an opponent (`+`/`-` may have one or not).
    fn is_bye(self) -> bool {
        matches!(
            self,
            Code::HalfBye | Code::FullBye | Code::PairingBye | Code::ZeroBye
        )
    }
}

/// One round of one player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundEntry {
    /// The opponent's starting rank (`None` for `0000`).
    pub opponent: Option<u32>,
    /// `w`/`b`; `None` for `-` or blank.
    pub colour: Option<Colour>,
    pub code: Code,
}

/// A `001` record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRecord {
    /// Starting rank: the pairing number.
    pub id: u32,
    /// `m`, `w` or blank.
    pub sex: char,
    pub title: String,
    pub name: String,
    /// 0 when unrated.
    pub rating: u32,
    pub federation: String,
    pub fide_id: String,
    pub birth: String,
    pub points: Points,
    pub rank: u32,
    /// One entry a round; `None` where the column is blank.
    pub results: Vec<Option<RoundEntry>>,
}

/// The points of each kind of result (`162`, or TRF-16's `BB?` records), in tenths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointSystem {
    pub win: Points,
    pub draw: Points,
    pub loss: Points,
    /// A zero-point bye and a forfeit loss (TRF-2026's `A`).
    pub absence: Points,
    pub forfeit_loss: Points,
    /// The pairing-allocated bye (`P`; a win's points unless given).
    pub pairing_bye: Points,
}

impl PointSystem {
    /// The points a round's result code gives.
    ///
    /// ```
    /// use vizier_pairing::trf::{Code, PointSystem};
    /// let points = PointSystem::default();
    /// assert_eq!(points.of(Code::HalfBye).0, 5);
    /// assert_eq!(points.of(Code::PairingBye), points.pairing_bye);
    /// ```
    pub fn of(&self, code: Code) -> Points {
        match code {
            Code::Win | Code::QuickWin | Code::ForfeitWin | Code::FullBye => self.win,
            Code::Draw | Code::QuickDraw | Code::HalfBye => self.draw,
            Code::Loss | Code::QuickLoss => self.loss,
            Code::ForfeitLoss => self.forfeit_loss,
            Code::PairingBye => self.pairing_bye,
            Code::ZeroBye => self.absence,
        }
    }
}

impl Default for PointSystem {
    fn default() -> Self {
        PointSystem {
            win: Points(10),
            draw: Points(5),
            loss: Points(0),
            absence: Points(0),
            forfeit_loss: Points(0),
            pairing_bye: Points(10),
        }
    }
}

/// A `240` record: players who will not be paired in a round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Absence {
    /// `F`, `H` or `Z`.
    pub kind: char,
    /// 1-based.
    pub round: u32,
    pub players: Vec<u32>,
}

/// A `250` record (or an `XXA` line): points added for pairing only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Acceleration {
    pub points: Points,
    /// 1-based, inclusive.
    pub first_round: u32,
    pub last_round: u32,
    pub first_player: u32,
    pub last_player: u32,
}

/// A `260` record (or an `XXP` line, for every round): players who may not meet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forbidden {
    /// 1-based, inclusive; `None` for all rounds.
    pub rounds: Option<(u32, u32)>,
    pub players: Vec<u32>,
}

/// A whole file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trf {
    /// Tournament records kept as they are (`012` name, `042` dates, `122` time control,
    /// …): tag and the text after it.
    pub records: Vec<(String, String)>,
    pub players: Vec<PlayerRecord>,
    /// The number of rounds (`142`, `XXR`).
    pub rounds: Option<u32>,
    /// The colour the first player drew (`152`, `XXC white1|black1`).
    pub initial_colour: Option<Colour>,
    pub points: PointSystem,
    /// Whether the file set any point value.
    pub points_given: bool,
    /// `192` (e.g. `FIDE_DUTCH_2025`, `FIDE_DUTCH_2025_BAKU`).
    pub system: Option<String>,
    pub absences: Vec<Absence>,
    pub accelerations: Vec<Acceleration>,
    /// `XXA` lines: per player, the acceleration of each round.
    pub player_accelerations: Vec<(u32, Vec<Points>)>,
    pub forbidden: Vec<Forbidden>,
    /// `XXZ`: absent from the round to be paired.
    pub absent_next: Vec<u32>,
    /// `XXC rank`: pairing numbers are the order of the `001` records.
    pub by_rank: bool,
}

/// Why a file could not be read: the line (1-based) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub line: usize,
    pub reason: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for ParseError {}

fn columns(chars: &[char], from: usize, to: usize) -> String {
    // 1-based, inclusive, as the format's tables count.
    let end = to.min(chars.len());
    if from > end {
        return String::new();
    }
    chars[from - 1..end].iter().collect()
}

fn number(text: &str, what: &str) -> Result<u32, String> {
    text.trim()
        .parse::<u32>()
        .map_err(|_| format!("{what} is not a number: {:?}", text.trim()))
}

impl Trf {
    /// Reads a file. Fails on the first malformed line, saying which and why.
    pub fn parse(text: &str) -> Result<Trf, ParseError> {
        let mut trf = Trf::default();
        let mut pab_given = false;
        for (index, raw) in text.split(['\r', '\n']).enumerate() {
            let chars: Vec<char> = raw.chars().collect();
            if chars.len() < 3 {
                continue;
            }
            let tag: String = chars[..3].iter().collect();
            let rest: String = chars[3..].iter().collect();
            let fail = |reason: String| ParseError {
                line: index + 1,
                reason,
            };
            let result: Result<(), String> = (|| {
                match tag.as_str() {
                    "###" => {}
                    "001" => trf.players.push(parse_player(&chars)?),
                    "142" | "XXR" => {
                        let rounds = number(&rest, "the number of rounds")?;
                        if rounds == 0 {
                            return Err("the number of rounds is 0".into());
                        }
                        trf.rounds = Some(rounds);
                    }
                    "152" => {
                        trf.initial_colour = Some(match rest.trim() {
                            "W" | "w" => Colour::White,
                            "B" | "b" => Colour::Black,
                            other => return Err(format!("initial colour {other:?} is not W or B")),
                        })
                    }
                    "XXC" => {
                        for word in rest.split_whitespace() {
                            match word {
                                "rank" => trf.by_rank = true,
                                "white1" => trf.initial_colour = Some(Colour::White),
                                "black1" => trf.initial_colour = Some(Colour::Black),
                                _ => {}
                            }
                        }
                    }
                    "162" => {
                        parse_points(&chars, &mut trf.points, &mut pab_given)?;
                        trf.points_given = true;
                    }
                    "BBW" | "BBD" | "BBL" | "BBZ" | "BBF" | "BBU" => {
                        let value = Points::parse(rest.trim())
                            .ok_or_else(|| format!("{:?} is not a score", rest.trim()))?;
                        let p = &mut trf.points;
                        match tag.as_str() {
                            "BBW" => {
                                p.win = value;
                                if !pab_given {
                                    p.pairing_bye = value;
                                }
                            }
                            "BBD" => p.draw = value,
                            "BBL" => p.loss = value,
                            "BBZ" => p.absence = value,
                            "BBF" => p.forfeit_loss = value,
                            _ => {
                                p.pairing_bye = value;
                                pab_given = true;
                            }
                        }
                        trf.points_given = true;
                    }
                    "192" => trf.system = Some(rest.trim().to_string()),
                    "240" => {
                        let kind = chars.get(4).copied().unwrap_or(' ');
                        let round = number(&columns(&chars, 7, 9), "the round")?;
                        let players = rest
                            .get(6..)
                            .unwrap_or("")
                            .split_whitespace()
                            .map(|id| number(id, "a player"))
                            .collect::<Result<Vec<_>, _>>()?;
                        trf.absences.push(Absence {
                            kind,
                            round,
                            players,
                        });
                    }
                    "250" => {
                        let points = Points::parse(columns(&chars, 10, 13).trim())
                            .ok_or("the acceleration's game points are not a score")?;
                        trf.accelerations.push(Acceleration {
                            points,
                            first_round: number(&columns(&chars, 15, 17), "the first round")?,
                            last_round: number(&columns(&chars, 19, 21), "the last round")?,
                            first_player: number(&columns(&chars, 23, 26), "the first player")?,
                            last_player: number(&columns(&chars, 28, 31), "the last player")?,
                        });
                    }
                    "XXA" => {
                        let id = number(&columns(&chars, 5, 8), "the player")?;
                        let mut values = Vec::new();
                        let mut at = 10;
                        while at + 3 <= chars.len() {
                            let field = columns(&chars, at, at + 3);
                            values.push(if field.trim().is_empty() {
                                Points(0)
                            } else {
                                Points::parse(field.trim())
                                    .ok_or_else(|| format!("{field:?} is not a score"))?
                            });
                            at += 5;
                        }
                        trf.player_accelerations.push((id, values));
                    }
                    "260" => {
                        let first = number(&columns(&chars, 5, 7), "the first round")?;
                        let last = number(&columns(&chars, 9, 11), "the last round")?;
                        let players = columns(&chars, 13, chars.len())
                            .split_whitespace()
                            .map(|id| number(id, "a player"))
                            .collect::<Result<Vec<_>, _>>()?;
                        trf.forbidden.push(Forbidden {
                            rounds: Some((first, last)),
                            players,
                        });
                    }
                    "XXP" => {
                        let players = rest
                            .split_whitespace()
                            .map(|id| number(id, "a player"))
                            .collect::<Result<Vec<_>, _>>()?;
                        trf.forbidden.push(Forbidden {
                            rounds: None,
                            players,
                        });
                    }
                    "XXZ" => {
                        for id in rest.split_whitespace() {
                            trf.absent_next.push(number(id, "a player")?);
                        }
                    }
                    "013" | "310" => return Err("team tournaments are not supported".into()),
                    _ => trf.records.push((
                        tag.clone(),
                        rest.strip_prefix(' ').unwrap_or(&rest).to_string(),
                    )),
                }
                Ok(())
            })();
            result.map_err(fail)?;
        }
        let mut seen = std::collections::HashSet::new();
        for p in &trf.players {
            if !seen.insert(p.id) {
                return Err(ParseError {
                    line: 0,
                    reason: format!("pairing number {} is repeated", p.id),
                });
            }
        }
        Ok(trf)
    }

    /// The file's text in `version`, every line ending with CR.
    pub fn write(&self, version: Version) -> String {
        let mut out = String::new();
        let mut line = |s: String| {
            out.push_str(s.trim_end());
            out.push('\r');
        };
        for (tag, value) in &self.records {
            if tag == "092" && self.system.is_some() && version == Version::Trf2026 {
                continue;
            }
            line(format!("{tag} {value}"));
        }
        match version {
            Version::Trf2026 => {
                if let Some(rounds) = self.rounds {
                    line(format!("142 {rounds}"));
                }
                if let Some(c) = self.initial_colour {
                    line(format!(
                        "152 {}",
                        if c == Colour::White { 'W' } else { 'B' }
                    ));
                }
                if self.points_given {
                    let p = &self.points;
                    let mut s = String::from("162  ");
                    for (code, value) in [
                        ('W', p.win),
                        ('D', p.draw),
                        ('L', p.loss),
                        ('A', p.absence),
                        ('P', p.pairing_bye),
                    ] {
                        s.push_str(&format!("{code}{:>4}    ", value.to_string()));
                    }
                    line(s);
                }
                if let Some(system) = &self.system {
                    line(format!("192 {system}"));
                }
            }
            Version::Trf16 => {
                if let Some(rounds) = self.rounds {
                    line(format!("XXR {rounds}"));
                }
                let mut xxc = Vec::new();
                if self.by_rank {
                    xxc.push("rank");
                }
                match self.initial_colour {
                    Some(Colour::White) => xxc.push("white1"),
                    Some(Colour::Black) => xxc.push("black1"),
                    None => {}
                }
                if !xxc.is_empty() {
                    line(format!("XXC {}", xxc.join(" ")));
                }
                if self.points_given {
                    let p = &self.points;
                    for (tag, value) in [
                        ("BBW", p.win),
                        ("BBD", p.draw),
                        ("BBL", p.loss),
                        ("BBZ", p.absence),
                        ("BBF", p.forfeit_loss),
                        ("BBU", p.pairing_bye),
                    ] {
                        line(format!("{tag} {:>4}", value.to_string()));
                    }
                }
            }
        }
        for p in &self.players {
            line(write_player(p));
        }
        for a in &self.absences {
            let ids: Vec<String> = a.players.iter().map(|id| format!("{id:>4}")).collect();
            line(format!("240 {} {:>3} {}", a.kind, a.round, ids.join(" ")));
        }
        for a in &self.accelerations {
            line(format!(
                "250 {:>4} {:>4} {:>3} {:>3} {:>4} {:>4}",
                "",
                a.points.to_string(),
                a.first_round,
                a.last_round,
                a.first_player,
                a.last_player
            ));
        }
        for (id, values) in &self.player_accelerations {
            let v: Vec<String> = values
                .iter()
                .map(|p| format!("{:>4}", p.to_string()))
                .collect();
            line(format!("XXA {id:>4} {}", v.join(" ")));
        }
        for f in &self.forbidden {
            let ids: Vec<String> = f.players.iter().map(|id| format!("{id:>4}")).collect();
            match (version, f.rounds) {
                (Version::Trf2026, Some((first, last))) => {
                    line(format!("260 {first:>3} {last:>3} {}", ids.join(" ")))
                }
                _ => line(format!("XXP {}", ids.join(" "))),
            }
        }
        if !self.absent_next.is_empty() {
            let ids: Vec<String> = self.absent_next.iter().map(u32::to_string).collect();
            line(format!("XXZ {}", ids.join(" ")));
        }
        out
    }
}

fn parse_player(chars: &[char]) -> Result<PlayerRecord, String> {
    if chars.len() < 84 {
        return Err("a player record is shorter than its 84 fixed columns".into());
    }
    let id = number(&columns(chars, 5, 8), "the starting rank")?;
    if id == 0 {
        return Err("starting rank 0".into());
    }
    let rating_text = columns(chars, 49, 52);
    let rating = if rating_text.trim().is_empty() {
        0
    } else {
        number(&rating_text, "the rating")?
    };
    let points_text = columns(chars, 81, 84);
    let points = Points::parse(points_text.trim())
        .ok_or_else(|| format!("the points {:?} are not a score", points_text.trim()))?;
    let rank_text = columns(chars, 86, 89);
    let rank = if rank_text.trim().is_empty() {
        0
    } else {
        number(&rank_text, "the rank")?
    };
    let mut results = Vec::new();
    let mut at = 92;
    while at <= chars.len() {
        let round = results.len() + 1;
        let opponent_text = columns(chars, at, at + 3);
        let colour_char = chars.get(at + 4).copied().unwrap_or(' ');
        let result_char = chars.get(at + 6).copied().unwrap_or(' ');
        let blank = opponent_text.trim().is_empty() && colour_char == ' ' && result_char == ' ';
        if blank {
            results.push(None);
            at += 10;
            continue;
        }
        let opponent = match opponent_text.trim() {
            "" | "0000" | "0" => None,
            text => {
                let o = number(text, "the opponent")?;
                if o == id {
                    return Err(format!("round {round}: the player meets himself"));
                }
                (o != 0).then_some(o)
            }
        };
        let colour = match colour_char {
            'w' | 'W' => Some(Colour::White),
            'b' | 'B' => Some(Colour::Black),
            '-' | ' ' => None,
            other => return Err(format!("round {round}: colour {other:?} is not w, b or -")),
        };
        let code = Code::parse(result_char).ok_or_else(|| {
            format!("round {round}: result {result_char:?} is not a TRF result code")
        })?;
        if opponent.is_none() && colour.is_some() {
            return Err(format!("round {round}: a colour without an opponent"));
        }
        if code.is_bye() && opponent.is_some() {
            return Err(format!(
                "round {round}: a bye ({}) with an opponent",
                code.symbol()
            ));
        }
        if matches!(
            code,
            Code::Win
                | Code::Draw
                | Code::Loss
                | Code::QuickWin
                | Code::QuickDraw
                | Code::QuickLoss
        ) && (opponent.is_none() || colour.is_none())
        {
            return Err(format!(
                "round {round}: a game result needs an opponent and a colour"
            ));
        }
        results.push(Some(RoundEntry {
            opponent,
            colour,
            code,
        }));
        at += 10;
    }
    while results.last() == Some(&None) {
        results.pop();
    }
    Ok(PlayerRecord {
        id,
        sex: chars[9],
        title: columns(chars, 11, 13).trim().to_string(),
        name: columns(chars, 15, 47).trim().to_string(),
        rating,
        federation: columns(chars, 54, 56).trim().to_string(),
        fide_id: columns(chars, 58, 68).trim().to_string(),
        birth: columns(chars, 70, 79).trim().to_string(),
        points,
        rank,
        results,
    })
}

fn parse_points(
    chars: &[char],
    points: &mut PointSystem,
    pab_given: &mut bool,
) -> Result<(), String> {
    let mut at = 6;
    while at <= chars.len() {
        let code = chars[at - 1];
        if code == ' ' {
            at += 9;
            continue;
        }
        let value_text = columns(chars, at + 1, at + 4);
        let value = Points::parse(value_text.trim())
            .ok_or_else(|| format!("{:?} is not a score", value_text.trim()))?;
        match code {
            'W' => {
                points.win = value;
                if !*pab_given {
                    points.pairing_bye = value;
                }
            }
            'D' => points.draw = value,
            'L' => points.loss = value,
            'A' | 'Z' => {
                points.absence = value;
                points.forfeit_loss = value;
            }
            'P' => {
                points.pairing_bye = value;
                *pab_given = true;
            }
            'X' => {}
            other => {
                return Err(format!(
                    "{other:?} is not a point-system code (W D L A P X)"
                ));
            }
        }
        at += 9;
    }
    Ok(())
}

fn pad(text: &str, width: usize) -> String {
    let mut s: String = text.chars().take(width).collect();
    while s.chars().count() < width {
        s.push(' ');
    }
    s
}

fn write_player(p: &PlayerRecord) -> String {
    let mut s = format!(
        "001 {:>4} {}{} {} {} {} {} {} {:>4} {:>4}",
        p.id,
        if p.sex == ' ' { ' ' } else { p.sex },
        pad(&p.title, 3),
        pad(&p.name, 33),
        if p.rating == 0 {
            "    ".to_string()
        } else {
            format!("{:>4}", p.rating)
        },
        pad(&p.federation, 3),
        format_args!("{:>11}", p.fide_id),
        pad(&p.birth, 10),
        p.points.to_string(),
        p.rank,
    );
    for entry in &p.results {
        s.push_str("  ");
        match entry {
            None => s.push_str("        "),
            Some(e) => {
                let opponent = e.opponent.map_or("0000".to_string(), |o| format!("{o:>4}"));
                let colour = match e.colour {
                    Some(Colour::White) => 'w',
                    Some(Colour::Black) => 'b',
                    None => '-',
                };
                s.push_str(&format!("{opponent} {colour} {}", e.code.symbol()));
            }
        }
    }
    s
}

#[cfg(test)]
mod tests;
