//! How games are written down in the database: the setup and each accepted arbiter command as
//! small JSON values, and who sits on each side. Replaying the stored commands rebuilds a game
//! exactly, clocks included.
//!
//! These are the database's own forms; the web server's wire protocol has its own, and rows
//! already stored must keep loading (the fixed-JSON tests below hold them to it).

mod command;
mod setup;

use std::fmt;

use vizier_arbiter::{Command, Millis, Setup, TimeControlError};

pub use command::StoredCommand;
pub use setup::StoredSetup;

use crate::{CommandRow, GameId, GameRow, PlayerId};

/// Who plays one side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person, known by the id in their signed cookie.
    Player(PlayerId),
    /// The engine at a level; `quick`: it moves within a few seconds whatever the clock
    /// (casual play at a human pace).
    Computer { level: u8, quick: bool },
    /// Waiting for the invited friend.
    Open,
}

impl Seat {
    /// The stored text: `p:<id>`, `c:<level>` (`c:<level>:quick`) or `open`.
    pub fn to_text(&self) -> String {
        match self {
            Seat::Player(id) => Seat::player_text(id.as_str()),
            Seat::Computer { level, quick } => {
                format!("c:{level}{}", if *quick { ":quick" } else { "" })
            }
            Seat::Open => "open".into(),
        }
    }

    /// Reads the stored text.
    pub fn from_text(text: &str) -> Option<Seat> {
        if text == "open" {
            Some(Seat::Open)
        } else if let Some(id) = Seat::player_of(text) {
            Some(Seat::Player(PlayerId::known(id)))
        } else {
            let rest = text.strip_prefix("c:")?;
            let (level, quick) = match rest.strip_suffix(":quick") {
                Some(level) => (level, true),
                None => (rest, false),
            };
            Some(Seat::Computer {
                level: level.parse().ok()?,
                quick,
            })
        }
    }

    /// The stored text of `player`'s seat (`p:<id>`), for queries by player.
    pub fn player_text(player: &str) -> String {
        format!("p:{player}")
    }

    /// The player whose seat `text` is, if it is a person's.
    pub fn player_of(text: &str) -> Option<&str> {
        text.strip_prefix("p:")
    }

    /// Whether this seat belongs to `player`.
    pub fn is(&self, player: &PlayerId) -> bool {
        matches!(self, Seat::Player(id) if id == player)
    }
}

/// What kind of game, which decides who may join and how the page looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Against the engine.
    Computer,
    /// Against a friend online, by invite link.
    Friend,
    /// Two people at one device.
    Local,
}

impl Kind {
    /// The stored text.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Computer => "computer",
            Kind::Friend => "friend",
            Kind::Local => "local",
        }
    }

    /// Reads the stored text.
    pub fn parse(text: &str) -> Option<Kind> {
        match text {
            "computer" => Some(Kind::Computer),
            "friend" => Some(Kind::Friend),
            "local" => Some(Kind::Local),
            _ => None,
        }
    }
}

/// A stored game, read: its header typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub id: GameId,
    pub kind: Kind,
    pub created_at: Millis,
    /// When the arbiter's game began (a friend game begins when the friend joins).
    pub started_at: Option<Millis>,
    pub setup: Setup,
    /// White's seat, then Black's.
    pub seats: [Seat; 2],
    /// The invite token of a friend game waiting for the friend.
    pub invite: Option<String>,
    /// The game's seed: the computer's misjudgements and choices follow from it.
    pub seed: u64,
    /// Whether it changes its players' ratings.
    pub rated: bool,
}

/// Why a stored game cannot be read.
#[derive(Debug)]
pub enum RecordError {
    /// The kind is none of `computer`, `friend`, `local`.
    Kind(String),
    /// A seat is none of `p:<id>`, `c:<level>`, `open`.
    Seat(String),
    /// The setup is not the stored setup's JSON.
    Setup(serde_json::Error),
    /// The setup's time control does not read.
    TimeControl(TimeControlError),
    /// A command is not a stored command's JSON.
    Command { seq: i64, source: serde_json::Error },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Kind(k) => write!(f, "unknown game kind \"{k}\""),
            RecordError::Seat(s) => write!(f, "unreadable seat \"{s}\""),
            RecordError::Setup(e) => write!(f, "unreadable setup: {e}"),
            RecordError::TimeControl(e) => write!(f, "unreadable setup: {e}"),
            RecordError::Command { seq, source } => {
                write!(f, "command {seq} is unreadable: {source}")
            }
        }
    }
}

impl std::error::Error for RecordError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RecordError::Setup(e) | RecordError::Command { source: e, .. } => Some(e),
            RecordError::TimeControl(e) => Some(e),
            RecordError::Kind(_) | RecordError::Seat(_) => None,
        }
    }
}

impl GameRecord {
    /// Reads a stored header.
    pub fn from_row(row: &GameRow) -> Result<GameRecord, RecordError> {
        let seat = |text: &str| Seat::from_text(text).ok_or_else(|| RecordError::Seat(text.into()));
        let stored: StoredSetup = serde_json::from_str(&row.setup).map_err(RecordError::Setup)?;
        Ok(GameRecord {
            id: GameId::stored(row.id.clone()),
            kind: Kind::parse(&row.kind).ok_or_else(|| RecordError::Kind(row.kind.clone()))?,
            created_at: row.created_at as Millis,
            started_at: row.started_at.map(|at| at as Millis),
            setup: stored.to_setup().map_err(RecordError::TimeControl)?,
            seats: [seat(&row.white)?, seat(&row.black)?],
            invite: row.invite.clone(),
            seed: row.seed as u64,
            rated: stored.rated,
        })
    }

    /// The header to store (a new game has no result).
    pub fn to_row(&self) -> GameRow {
        GameRow {
            id: self.id.to_string(),
            kind: self.kind.as_str().into(),
            created_at: self.created_at as i64,
            started_at: self.started_at.map(|at| at as i64),
            setup: serde_json::to_string(&StoredSetup {
                rated: self.rated,
                ..StoredSetup::from_setup(&self.setup)
            })
            .expect("setups serialise"),
            white: self.seats[0].to_text(),
            black: self.seats[1].to_text(),
            invite: self.invite.clone(),
            seed: self.seed as i64,
            speed: vizier_rating::Class::of_control(&self.setup.control)
                .map(|c| c.key().to_string()),
            rated: self.rated,
            ..GameRow::default()
        }
    }
}

/// Reads stored commands into the arbiter's log.
pub fn read_commands(rows: &[CommandRow]) -> Result<Vec<(Millis, Command)>, RecordError> {
    rows.iter()
        .map(|c| {
            let stored: StoredCommand = serde_json::from_str(&c.command)
                .map_err(|source| RecordError::Command { seq: c.seq, source })?;
            Ok((c.at_ms as Millis, Command::from(stored)))
        })
        .collect()
}

/// The row that stores `command`, accepted at `at` as the game's command number `seq`.
pub fn command_row(seq: i64, at: Millis, command: &Command) -> CommandRow {
    CommandRow {
        seq,
        at_ms: at as i64,
        command: serde_json::to_string(&StoredCommand::from(command)).expect("commands serialise"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vizier_arbiter::{ClockStart, StartPosition, TimeControl};

    #[test]
    fn seats_read_back() {
        for seat in [
            Seat::Player(PlayerId::known("abc123")),
            Seat::Computer {
                level: 4,
                quick: false,
            },
            Seat::Computer {
                level: 10,
                quick: true,
            },
            Seat::Open,
        ] {
            assert_eq!(Seat::from_text(&seat.to_text()), Some(seat));
        }
        // Rows stored before the quick pace existed read as they were.
        assert_eq!(
            Seat::from_text("c:7"),
            Some(Seat::Computer {
                level: 7,
                quick: false
            })
        );
        assert_eq!(Seat::from_text("c:x"), None);
        assert_eq!(Seat::from_text("c:4:slow"), None);
        assert_eq!(Seat::from_text(""), None);
    }

    #[test]
    fn stored_games_keep_their_json() {
        let row = GameRow {
            id: "abc".into(),
            kind: "friend".into(),
            created_at: 1_000,
            started_at: Some(2_000),
            setup: r#"{"chess960":518,"time_control":"40/5400+30:1800+30","first_move_timeout_ms":30000,"takebacks":false}"#.into(),
            white: "p:alice".into(),
            black: "c:4".into(),
            invite: None,
            seed: -7,
            speed: Some("classical".into()),
            ..GameRow::default()
        };
        let record = GameRecord::from_row(&row).unwrap();
        assert_eq!(record.kind, Kind::Friend);
        assert_eq!(
            record.seats,
            [
                Seat::Player(PlayerId::known("alice")),
                Seat::Computer {
                    level: 4,
                    quick: false
                }
            ]
        );
        assert_eq!(record.setup.start, StartPosition::Chess960(518));
        assert_eq!(
            record.setup.clock_start,
            ClockStart::AfterFirstMoves {
                first_move_timeout_ms: 30_000
            }
        );
        assert_eq!(record.seed, -7i64 as u64);
        assert_eq!(record.to_row(), row);
        let old = GameRow {
            setup: r#"{"time_control":"-"}"#.into(),
            ..row.clone()
        };
        let setup = GameRecord::from_row(&old).unwrap().setup;
        assert_eq!(
            (setup.start, setup.control),
            (StartPosition::Standard, TimeControl::Unlimited)
        );
        for (field, bad) in [
            ("kind", "blitz"),
            ("white", "x:1"),
            ("setup", "{"),
            ("setup", r#"{"time_control":"fast"}"#),
        ] {
            let mut broken = row.clone();
            match field {
                "kind" => broken.kind = bad.into(),
                "white" => broken.white = bad.into(),
                _ => broken.setup = bad.into(),
            }
            assert!(GameRecord::from_row(&broken).is_err(), "{field} {bad}");
        }
    }
}
