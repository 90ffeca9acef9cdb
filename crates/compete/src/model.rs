//! What a tournament holds: its settings, its players by pairing number, and its rounds with
//! their boards and results. Stored as one JSON document; every change goes through
//! [`Tournament`]'s methods, which keep it consistent.

use serde::{Deserialize, Serialize};

/// How players are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Format {
    /// Everyone plays everyone (twice when `double`), by the Berger tables.
    RoundRobin { double: bool },
    /// `rounds` rounds by the FIDE Dutch system, in the 2026 edition unless `edition2017`.
    Swiss {
        rounds: u32,
        #[serde(default)]
        edition2017: bool,
    },
    /// lichess's arena: `minutes` long, players paired as they come back; `streaks` doubles
    /// the points after two wins running.
    Arena {
        minutes: u32,
        streaks: bool,
        /// Players may berserk.
        #[serde(default = "yes")]
        berserk: bool,
    },
    /// A simultaneous exhibition: the creator (the host) plays every other player at once,
    /// one board each, with `host_colour`.
    Simul { host_colour: HostColour },
}

fn yes() -> bool {
    true
}

/// The host's colour in a simul.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum HostColour {
    White,
    Black,
    /// Drawn for each board.
    Random,
}

impl Format {
    pub fn key(&self) -> &'static str {
        match self {
            Format::RoundRobin { .. } => "roundRobin",
            Format::Swiss { .. } => "swiss",
            Format::Arena { .. } => "arena",
            Format::Simul { .. } => "simul",
        }
    }
}

/// Who may join.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Entry {
    /// Any account.
    Open,
    /// Accounts whose rating in the tournament's speed class lies within the range.
    Rating { min: Option<i32>, max: Option<i32> },
    /// The accounts named (lower-case names), and the creator.
    Invite { names: Vec<String> },
}

/// Where a tournament is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Status {
    /// Taking entries until it starts.
    Created,
    Running,
    Finished,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Created => "created",
            Status::Running => "running",
            Status::Finished => "finished",
        }
    }
}

/// A player in a tournament. Before the start players are listed as they joined; at the
/// start they are ordered by rating (C.04.2: the initial ranking) and numbered so.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Entrant {
    /// The account's player id.
    pub player: String,
    pub name: String,
    /// The rating the player joined with, in the tournament's speed class.
    pub rating: i32,
    /// Whether the rating is still provisional (an unrated player in the TRF).
    #[serde(default)]
    pub provisional: bool,
    /// The player withdrew (or forfeited a game by absence): not paired again unless they
    /// join again.
    #[serde(default)]
    pub withdrawn: bool,
    pub joined_at: u64,
    /// A Swiss player asked for a half-point bye in the next round.
    #[serde(default)]
    pub bye_next: bool,
    /// A Swiss player asked to sit out the next round with no point (a zero-point bye).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub zero_bye_next: bool,
    /// What the organiser entered for title norms (not checked by the server).
    #[serde(default, skip_serializing_if = "Details::is_empty")]
    pub details: Details,
}

/// A player's FIDE title, federation and sex, as the organiser enters them: the TRF
/// carries them and the title norm report reads them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Details {
    /// `GM`, `IM`, `FM`, `CM`, `WGM`, `WIM`, `WFM` or `WCM`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Three capital letters (`GER`, `CHN`; `FID` for none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub federation: Option<String>,
    /// `m` or `w`: women's title norms are for women.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sex: Option<char>,
}

impl Details {
    pub fn is_empty(&self) -> bool {
        self == &Details::default()
    }
}

/// How a board ended, as the tournament scores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum BoardResult {
    WhiteWins,
    Draw,
    BlackWins,
    /// White never moved in the countdown: Black wins by forfeit.
    WhiteForfeits,
    /// Black never moved in the countdown: White wins by forfeit.
    BlackForfeits,
    /// A game that ended with no result (aborted): both lose by forfeit.
    BothForfeit,
}

impl BoardResult {
    /// The points of White and Black, in halves.
    pub fn halves(self) -> (u32, u32) {
        match self {
            BoardResult::WhiteWins | BoardResult::BlackForfeits => (2, 0),
            BoardResult::Draw => (1, 1),
            BoardResult::BlackWins | BoardResult::WhiteForfeits => (0, 2),
            BoardResult::BothForfeit => (0, 0),
        }
    }

    /// As printed on a pairing list: `1-0`, `½-½`, `+/-`…
    pub fn text(self) -> &'static str {
        match self {
            BoardResult::WhiteWins => "1-0",
            BoardResult::Draw => "½-½",
            BoardResult::BlackWins => "0-1",
            BoardResult::WhiteForfeits => "-/+",
            BoardResult::BlackForfeits => "+/-",
            BoardResult::BothForfeit => "-/-",
        }
    }

    /// A result as an arbiter writes it: `1-0`, `0-1`, `1/2-1/2` (or `½-½`), or a forfeit
    /// `+/-`, `-/+`, `-/-`.
    ///
    /// ```
    /// use vizier_compete::model::BoardResult;
    /// assert_eq!(BoardResult::parse("1/2-1/2"), Some(BoardResult::Draw));
    /// assert_eq!(BoardResult::parse("-/+"), Some(BoardResult::WhiteForfeits));
    /// assert_eq!(BoardResult::parse("2-0"), None);
    /// ```
    pub fn parse(text: &str) -> Option<BoardResult> {
        Some(match text.trim() {
            "1-0" => BoardResult::WhiteWins,
            "0-1" => BoardResult::BlackWins,
            "1/2-1/2" | "½-½" => BoardResult::Draw,
            "+/-" => BoardResult::BlackForfeits,
            "-/+" => BoardResult::WhiteForfeits,
            "-/-" => BoardResult::BothForfeit,
            _ => return None,
        })
    }

    pub fn is_forfeit(self) -> bool {
        matches!(
            self,
            BoardResult::WhiteForfeits | BoardResult::BlackForfeits | BoardResult::BothForfeit
        )
    }
}

/// One board of a round: players by pairing number (1-based).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Board {
    pub white: u32,
    pub black: u32,
    /// The game, once made.
    pub game: Option<String>,
    pub result: Option<BoardResult>,
    /// The organiser, as arbiter, set the result (the game's own stands in its record).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub corrected: bool,
}

/// A round without a game for a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ByeKind {
    /// The Swiss pairing's bye: a win's points.
    Pairing,
    /// Not paired: withdrawn, or the round robin's rest against the dummy. No points.
    Absent,
    /// A half-point bye the player asked for (TRF `H`).
    Half,
}

impl ByeKind {
    /// The points it gives, in halves.
    pub fn halves(self) -> u32 {
        match self {
            ByeKind::Pairing => 2,
            ByeKind::Half => 1,
            ByeKind::Absent => 0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Bye {
    pub player: u32,
    pub kind: ByeKind,
}

/// A game of an arena, in the order games began.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ArenaGame {
    pub white: u32,
    pub black: u32,
    pub game: String,
    pub started_at: u64,
    pub result: Option<BoardResult>,
    /// Half-moves played, once ended.
    #[serde(default)]
    pub plies: u32,
    /// Which sides berserked.
    #[serde(default)]
    pub berserk: [bool; 2],
    /// When it ended.
    #[serde(default)]
    pub ended_at: Option<u64>,
}

/// A round as paired and played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Round {
    /// 1-based.
    pub number: u32,
    pub started_at: u64,
    pub boards: Vec<Board>,
    pub byes: Vec<Bye>,
}

impl Round {
    /// Every board has its result.
    pub fn is_over(&self) -> bool {
        self.boards.iter().all(|b| b.result.is_some())
    }
}

/// A tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tournament {
    pub id: String,
    pub name: String,
    pub description: String,
    pub format: Format,
    /// The time control as PGN writes it (`300+3`).
    pub control: String,
    pub chess960: bool,
    pub rated: bool,
    pub entry: Entry,
    /// When round 1 is paired (ms since the epoch).
    pub starts_at: u64,
    /// How long a player has to make their first move before losing the game by forfeit.
    pub forfeit_after_s: u32,
    /// The pause between one round's last result and the next round's pairing.
    pub round_break_s: u32,
    pub created_by: String,
    pub created_by_name: String,
    pub created_at: u64,
    pub status: Status,
    /// No new round is paired while paused.
    #[serde(default)]
    pub paused: bool,
    /// Swiss: the colour pairing number 1 drew for round 1.
    #[serde(default)]
    pub first_white: bool,
    /// By pairing number once started (index = number - 1).
    pub players: Vec<Entrant>,
    pub rounds: Vec<Round>,
    /// When the next round is due to be paired, once the last one is over.
    #[serde(default)]
    pub next_round_at: Option<u64>,
    /// Why the tournament ended early, if it did (e.g. no pairing existed).
    #[serde(default)]
    pub ended_early: Option<String>,
    /// An arena's games, in the order they began.
    #[serde(default)]
    pub arena_games: Vec<ArenaGame>,
}

impl Tournament {
    /// The rounds it will have: fixed for a Swiss; for a round robin, by its players.
    pub fn total_rounds(&self) -> u32 {
        match self.format {
            Format::Swiss { rounds, .. } => rounds,
            Format::Arena { .. } => 0,
            Format::Simul { .. } => 1,
            Format::RoundRobin { double } => {
                let n = self.players.len() as u32;
                let single = vizier_pairing::berger::table_size(n).saturating_sub(1);
                if double { 2 * single } else { single }
            }
        }
    }

    /// The pairing number of `player`.
    pub fn number_of(&self, player: &str) -> Option<u32> {
        (self.players.iter().position(|e| e.player == player)).map(|i| i as u32 + 1)
    }

    pub fn entrant(&self, number: u32) -> Option<&Entrant> {
        self.players.get(number.checked_sub(1)? as usize)
    }

    /// The round being played, if one is.
    pub fn current_round(&self) -> Option<&Round> {
        self.rounds.last().filter(|r| !r.is_over())
    }

    /// The board `game` is played on: its round's index and its own.
    pub fn board_of_game(&self, game: &str) -> Option<(usize, usize)> {
        self.rounds.iter().enumerate().rev().find_map(|(r, round)| {
            let b = round
                .boards
                .iter()
                .position(|b| b.game.as_deref() == Some(game))?;
            Some((r, b))
        })
    }

    /// `number`'s points after every result known, in halves.
    pub fn halves_of(&self, number: u32) -> u32 {
        let mut halves = 0;
        for round in &self.rounds {
            for b in &round.boards {
                if let Some(r) = b.result {
                    let (w, bl) = r.halves();
                    if b.white == number {
                        halves += w;
                    } else if b.black == number {
                        halves += bl;
                    }
                }
            }
            halves += (round.byes.iter())
                .filter(|y| y.player == number)
                .map(|y| y.kind.halves())
                .sum::<u32>();
        }
        halves
    }

    pub fn is_simul(&self) -> bool {
        matches!(self.format, Format::Simul { .. })
    }

    /// A simul's host's pairing number.
    pub fn host_number(&self) -> Option<u32> {
        self.is_simul()
            .then(|| self.number_of(&self.created_by))
            .flatten()
    }

    pub fn is_arena(&self) -> bool {
        matches!(self.format, Format::Arena { .. })
    }

    /// When an arena ends.
    pub fn ends_at(&self) -> Option<u64> {
        match self.format {
            Format::Arena { minutes, .. } => Some(self.starts_at + u64::from(minutes) * 60_000),
            _ => None,
        }
    }

    /// A running tournament of `format` for the tests, its players (`p0`, `p1`…) rated
    /// `ratings`, `p1` its creator.
    #[cfg(test)]
    pub(crate) fn sample(format: Format, ratings: &[i32]) -> Tournament {
        Tournament {
            id: "t".into(),
            name: "Club".into(),
            description: String::new(),
            format,
            control: "300+3".into(),
            chess960: false,
            rated: true,
            entry: Entry::Open,
            starts_at: 0,
            forfeit_after_s: 60,
            round_break_s: 10,
            created_by: "p1".into(),
            created_by_name: "p1".into(),
            created_at: 0,
            status: Status::Running,
            paused: false,
            first_white: true,
            players: (ratings.iter().enumerate())
                .map(|(i, &rating)| Entrant {
                    player: format!("p{i}"),
                    name: format!("p{i}"),
                    rating,
                    provisional: false,
                    withdrawn: false,
                    joined_at: 0,
                    bye_next: false,
                    zero_bye_next: false,
                    details: Details::default(),
                })
                .collect(),
            rounds: Vec::new(),
            next_round_at: None,
            ended_early: None,
            arena_games: Vec::new(),
        }
    }

    /// Whether every round it will have has been played.
    pub fn all_rounds_played(&self) -> bool {
        self.rounds.len() as u32 >= self.total_rounds() && self.current_round().is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_score_as_the_laws_do() {
        assert_eq!(BoardResult::WhiteWins.halves(), (2, 0));
        assert_eq!(BoardResult::Draw.halves(), (1, 1));
        assert_eq!(BoardResult::WhiteForfeits.halves(), (0, 2));
        assert_eq!(BoardResult::BothForfeit.halves(), (0, 0));
        assert!(BoardResult::BothForfeit.is_forfeit());
        assert!(!BoardResult::Draw.is_forfeit());
    }

    #[test]
    fn formats_are_written_by_kind() {
        let f = Format::Swiss {
            rounds: 7,
            edition2017: false,
        };
        let json = serde_json::to_string(&f).unwrap();
        assert_eq!(json, r#"{"kind":"swiss","rounds":7,"edition2017":false}"#);
        assert_eq!(serde_json::from_str::<Format>(&json).unwrap(), f);
        let rr: Format = serde_json::from_str(r#"{"kind":"roundRobin","double":true}"#).unwrap();
        assert_eq!(rr, Format::RoundRobin { double: true });
    }
}
