//! A tie-break as the regulations and the TRF's `202`/`212` records name it: an acronym and
//! its modifiers, `BH/C1`, `SB/M1`, `ARO/C1`, `KS/L60`, `TPR/U1400`.

use core::fmt;
use core::str::FromStr;

/// The tie-breaks of the FIDE Tie-Break Regulations (C.07), by article.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Points (the primary score).
    Pts,
    /// 6: direct encounter.
    De,
    /// 7.1: rounds with a win's points, played or not.
    Win,
    /// 7.2: games won over the board.
    Won,
    /// 7.3: games played with Black.
    Bpg,
    /// 7.4: games won with Black.
    Bwg,
    /// 7.5: the sum of progressive scores.
    Ps,
    /// 7.6: rounds one elected to play (`GE` before 2026).
    Rep,
    /// 7.7: points as 1, ½, 0 whatever the point system.
    Std,
    /// 7.8: the tournament pairing number (lower first).
    Tpn,
    /// 8.1: Buchholz.
    Bh,
    /// 8.2: the average of the opponents' Buchholz.
    Aob,
    /// 8.3: Fore Buchholz (the last round counted as draws).
    Fb,
    /// 9.1: Sonneborn–Berger.
    Sb,
    /// 9.2: Koya.
    Ks,
    /// 10.1: average rating of opponents.
    Aro,
    /// 10.2: tournament performance rating.
    Tpr,
    /// 10.3: perfect tournament performance.
    Ptp,
    /// 10.4: average performance rating of opponents.
    Apro,
    /// 10.5: average perfect performance of opponents.
    Appo,
    /// 10.6: the player's own rating.
    Rtng,
}

impl Kind {
    fn from_acronym(text: &str) -> Option<Kind> {
        Some(match text {
            "PTS" => Kind::Pts,
            "DE" => Kind::De,
            "WIN" => Kind::Win,
            "WON" => Kind::Won,
            "BPG" => Kind::Bpg,
            "BWG" => Kind::Bwg,
            "PS" => Kind::Ps,
            "REP" | "GE" => Kind::Rep,
            "STD" => Kind::Std,
            "TPN" | "SNO" => Kind::Tpn,
            "BH" => Kind::Bh,
            "AOB" => Kind::Aob,
            "FB" => Kind::Fb,
            "SB" => Kind::Sb,
            "KS" => Kind::Ks,
            "ARO" => Kind::Aro,
            "TPR" => Kind::Tpr,
            "PTP" => Kind::Ptp,
            "APRO" => Kind::Apro,
            "APPO" => Kind::Appo,
            "RTNG" | "RTG" => Kind::Rtng,
            _ => return None,
        })
    }

    /// Whether a lower value ranks higher.
    pub fn lower_first(self) -> bool {
        matches!(self, Kind::De | Kind::Tpn)
    }

    /// Decimals shown: points to tenths, products and averages of points to hundredths.
    pub fn decimals(self) -> u8 {
        match self {
            Kind::Pts | Kind::Ps | Kind::Std | Kind::Bh | Kind::Fb | Kind::Ks => 1,
            Kind::Sb | Kind::Aob => 2,
            _ => 0,
        }
    }

    fn accepts(self, modifier: &Modifier) -> bool {
        match modifier {
            Modifier::Reverse => true,
            Modifier::Cut(_) => matches!(
                self,
                Kind::Ps | Kind::Bh | Kind::Fb | Kind::Sb | Kind::Aro | Kind::Tpr | Kind::Ptp
            ),
            Modifier::Median(_) => {
                matches!(
                    self,
                    Kind::Bh | Kind::Fb | Kind::Aro | Kind::Tpr | Kind::Ptp
                )
            }
            Modifier::Played => matches!(self, Kind::De | Kind::Bh | Kind::Fb | Kind::Sb),
            Modifier::Fore => matches!(self, Kind::Aob | Kind::Bh | Kind::Sb),
            Modifier::Unrated(_) => matches!(
                self,
                Kind::Aro | Kind::Tpr | Kind::Ptp | Kind::Apro | Kind::Appo | Kind::Rtng
            ),
            Modifier::Limit { .. } => self == Kind::Ks,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Modifier {
    Cut(u32),
    Median(u32),
    Played,
    Fore,
    Reverse,
    Unrated(u32),
    Limit { percent: u32, offset: i64 },
}

/// One tie-break with its modifiers.
///
/// ```
/// use vizier_pairing::tiebreak::{Kind, TieBreak};
/// let tb: TieBreak = "bh/c1".parse().unwrap();
/// assert_eq!(tb.kind, Kind::Bh);
/// assert_eq!(tb.cut_low, 1);
/// assert_eq!(tb.to_string(), "BH/C1");
/// assert!("BH/C1/U1400".parse::<TieBreak>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TieBreak {
    pub kind: Kind,
    /// `/Cn` and `/Mn`: the least significant values cut.
    pub cut_low: u32,
    /// `/Mn`: the most significant values cut.
    pub cut_high: u32,
    /// `/P`: forfeited games count as played against the scheduled opponent.
    pub forfeits_played: bool,
    /// `/F`: Fore Buchholz in place of Buchholz.
    pub fore: bool,
    /// `/R`: the order reversed.
    pub reverse: bool,
    /// `/Unnnn`: the rating given to unrated players.
    pub unrated: Option<u32>,
    /// `/Ln`: Koya's limit in percent of the maximum score (50 unless given).
    pub limit_percent: u32,
    /// `/L+x`, `/L-x`: Koya's limit moved by this many tenths of a point.
    pub limit_offset: i64,
    pub(crate) spelled: String,
}

/// Why a tie-break's name was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    Empty,
    UnknownTieBreak(String),
    UnknownModifier { tiebreak: String, modifier: String },
    NotApplicable { tiebreak: String, modifier: String },
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::Empty => write!(f, "no tie-break named"),
            SpecError::UnknownTieBreak(name) => write!(
                f,
                "unknown tie-break {name:?} (known: PTS DE WIN WON BPG BWG PS REP STD TPN BH \
                 AOB FB SB KS ARO TPR PTP APRO APPO RTNG)"
            ),
            SpecError::UnknownModifier { tiebreak, modifier } => {
                write!(f, "{tiebreak}: unknown modifier /{modifier}")
            }
            SpecError::NotApplicable { tiebreak, modifier } => {
                write!(
                    f,
                    "{tiebreak}: the modifier /{modifier} does not apply to it"
                )
            }
        }
    }
}

impl std::error::Error for SpecError {}

fn parse_modifier(text: &str) -> Option<Modifier> {
    let (letter, rest) = text.split_at(text.char_indices().nth(1).map_or(text.len(), |(i, _)| i));
    let number = || rest.parse::<u32>().ok().filter(|_| !rest.is_empty());
    Some(match letter {
        "C" => Modifier::Cut(number()?),
        "M" => Modifier::Median(number()?),
        "P" if rest.is_empty() => Modifier::Played,
        "F" if rest.is_empty() => Modifier::Fore,
        "R" if rest.is_empty() => Modifier::Reverse,
        "U" => Modifier::Unrated(number()?),
        "L" => {
            if let Some(percent) = number() {
                Modifier::Limit { percent, offset: 0 }
            } else {
                let (sign, amount) = match rest.as_bytes().first()? {
                    b'+' => (1, &rest[1..]),
                    b'-' => (-1, &rest[1..]),
                    _ => return None,
                };
                // Written with a decimal point it is points; without, half points.
                let tenths = if amount.contains('.') {
                    crate::Points::parse(amount)?.0 as i64
                } else {
                    amount.parse::<i64>().ok()? * 5
                };
                Modifier::Limit {
                    percent: 50,
                    offset: sign * tenths,
                }
            }
        }
        _ => return None,
    })
}

impl FromStr for TieBreak {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<TieBreak, SpecError> {
        let upper = text.trim().to_ascii_uppercase();
        let mut parts = upper.split(['/', '#', '!']);
        let name = parts.next().unwrap_or("");
        if name.is_empty() {
            return Err(SpecError::Empty);
        }
        let kind =
            Kind::from_acronym(name).ok_or_else(|| SpecError::UnknownTieBreak(name.to_string()))?;
        let mut tb = TieBreak {
            kind,
            cut_low: 0,
            cut_high: 0,
            forfeits_played: false,
            fore: false,
            reverse: false,
            unrated: None,
            limit_percent: 50,
            limit_offset: 0,
            spelled: upper.replace(['#', '!'], "/"),
        };
        for part in parts {
            let modifier = parse_modifier(part).ok_or_else(|| SpecError::UnknownModifier {
                tiebreak: name.to_string(),
                modifier: part.to_string(),
            })?;
            if !kind.accepts(&modifier) {
                return Err(SpecError::NotApplicable {
                    tiebreak: name.to_string(),
                    modifier: part.to_string(),
                });
            }
            match modifier {
                Modifier::Cut(n) => tb.cut_low = n,
                Modifier::Median(n) => {
                    tb.cut_low = n;
                    tb.cut_high = n;
                }
                Modifier::Played => tb.forfeits_played = true,
                Modifier::Fore => tb.fore = true,
                Modifier::Reverse => tb.reverse = true,
                Modifier::Unrated(r) => tb.unrated = Some(r),
                Modifier::Limit { percent, offset } => {
                    tb.limit_percent = percent;
                    tb.limit_offset = offset;
                }
            }
        }
        Ok(tb)
    }
}

impl TieBreak {
    /// Counts the last round as draws: FB, or `/F`.
    pub fn fore_buchholz(&self) -> bool {
        self.kind == Kind::Fb || self.fore
    }
}

impl fmt::Display for TieBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.spelled)
    }
}

/// Reads a list: names separated by commas or spaces, as `202`/`212` records write them.
///
/// ```
/// use vizier_pairing::tiebreak::{parse_list, Kind};
/// let list = parse_list("BH/C1, BH SB,DE").unwrap();
/// assert_eq!(list.len(), 4);
/// assert_eq!(list[3].kind, Kind::De);
/// ```
pub fn parse_list(text: &str) -> Result<Vec<TieBreak>, SpecError> {
    text.split([',', ' ', '\t'])
        .filter(|s| !s.is_empty())
        .map(str::parse)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modifiers() {
        let tb: TieBreak = "BH/M2".parse().unwrap();
        assert_eq!((tb.cut_low, tb.cut_high), (2, 2));
        let tb: TieBreak = "KS/L60".parse().unwrap();
        assert_eq!(tb.limit_percent, 60);
        let tb: TieBreak = "KS/L-2".parse().unwrap();
        assert_eq!(tb.limit_offset, -10);
        let tb: TieBreak = "KS/L+1.5".parse().unwrap();
        assert_eq!(tb.limit_offset, 15);
        let tb: TieBreak = "ARO/C1/U1200".parse().unwrap();
        assert_eq!((tb.cut_low, tb.unrated), (1, Some(1200)));
        let tb: TieBreak = "GE".parse().unwrap();
        assert_eq!(tb.kind, Kind::Rep);
        assert!(matches!(
            "XYZ".parse::<TieBreak>(),
            Err(SpecError::UnknownTieBreak(_))
        ));
        assert!(matches!(
            "BH/Q".parse::<TieBreak>(),
            Err(SpecError::UnknownModifier { .. })
        ));
        assert!(matches!(
            "DE/C1".parse::<TieBreak>(),
            Err(SpecError::NotApplicable { .. })
        ));
        assert!(matches!("".parse::<TieBreak>(), Err(SpecError::Empty)));
        assert!("BH/C".parse::<TieBreak>().is_err());
        assert!("BH/".parse::<TieBreak>().is_err());
        assert!("KS/L+".parse::<TieBreak>().is_err());
    }
}
