//! How games are written down in the database: the setup and each accepted arbiter command as
//! small JSON values, and who sits on each side. Replaying the stored commands rebuilds a game
//! exactly, clocks included.

use serde::{Deserialize, Serialize};
use vizier_arbiter::{Claim, ClockStart, Command, Options, Setup, StartPosition, TimeControl};
use vizier_rules::Color;

/// Who plays one side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person, known by the id in their signed cookie.
    Player(String),
    /// The engine at a level.
    Computer { level: u8 },
    /// Waiting for the invited friend.
    Open,
}

impl Seat {
    /// The stored text: `p:<id>`, `c:<level>` or `open`.
    pub fn to_text(&self) -> String {
        match self {
            Seat::Player(id) => format!("p:{id}"),
            Seat::Computer { level } => format!("c:{level}"),
            Seat::Open => "open".into(),
        }
    }

    /// Reads the stored text.
    pub fn from_text(text: &str) -> Option<Seat> {
        if text == "open" {
            Some(Seat::Open)
        } else if let Some(id) = text.strip_prefix("p:") {
            Some(Seat::Player(id.to_string()))
        } else {
            let level = text.strip_prefix("c:")?.parse().ok()?;
            Some(Seat::Computer { level })
        }
    }

    /// Whether this seat belongs to `player`.
    pub fn is(&self, player: &str) -> bool {
        matches!(self, Seat::Player(id) if id == player)
    }
}

/// What kind of game, which decides who may join and how the page looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
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

/// The setup as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredSetup {
    /// "standard", or a Chess960 number, or a FEN.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chess960: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// The PGN `TimeControl` form ("-" for none).
    pub time_control: String,
    /// Clocks start after each side's first move, which must come within this time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_move_timeout_ms: Option<u64>,
    #[serde(default)]
    pub takebacks: bool,
}

impl StoredSetup {
    /// The stored form of `setup`.
    pub fn from_setup(setup: &Setup) -> StoredSetup {
        let (chess960, fen) = match &setup.start {
            StartPosition::Standard => (None, None),
            StartPosition::Chess960(n) => (Some(*n), None),
            StartPosition::Fen(f) => (None, Some(f.clone())),
        };
        StoredSetup {
            chess960,
            fen,
            time_control: setup.control.to_pgn(),
            first_move_timeout_ms: match setup.clock_start {
                ClockStart::Fide => None,
                ClockStart::AfterFirstMoves {
                    first_move_timeout_ms,
                } => Some(first_move_timeout_ms),
            },
            takebacks: setup.options.takebacks,
        }
    }

    /// The arbiter's setup, or why the stored form is unreadable.
    pub fn to_setup(&self) -> Result<Setup, String> {
        let start = match (&self.chess960, &self.fen) {
            (Some(n), _) => StartPosition::Chess960(*n),
            (None, Some(f)) => StartPosition::Fen(f.clone()),
            (None, None) => StartPosition::Standard,
        };
        let control = TimeControl::parse_pgn(&self.time_control).map_err(|e| e.to_string())?;
        Ok(Setup {
            start,
            control,
            clock_start: match self.first_move_timeout_ms {
                None => ClockStart::Fide,
                Some(first_move_timeout_ms) => ClockStart::AfterFirstMoves {
                    first_move_timeout_ms,
                },
            },
            options: Options {
                takebacks: self.takebacks,
                ..Options::default()
            },
            ..Setup::default()
        })
    }
}

/// A side, as stored and as sent to clients.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        c.fold(Side::White, Side::Black)
    }
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

/// A draw claim, as stored and as sent by clients.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClaimKind {
    Threefold,
    Fifty,
}

impl From<ClaimKind> for Claim {
    fn from(c: ClaimKind) -> Claim {
        match c {
            ClaimKind::Threefold => Claim::Threefold,
            ClaimKind::Fifty => Claim::FiftyMoves,
        }
    }
}

impl From<Claim> for ClaimKind {
    fn from(c: Claim) -> ClaimKind {
        match c {
            Claim::Threefold => ClaimKind::Threefold,
            Claim::FiftyMoves => ClaimKind::Fifty,
        }
    }
}

/// An accepted arbiter command as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "c", rename_all = "kebab-case")]
pub enum StoredCommand {
    Move {
        by: Side,
        mv: String,
    },
    OfferDraw {
        by: Side,
    },
    AcceptDraw {
        by: Side,
    },
    DeclineDraw {
        by: Side,
    },
    ClaimDraw {
        by: Side,
        claim: ClaimKind,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        declared: Option<String>,
    },
    Resign {
        by: Side,
    },
    Abort {
        by: Side,
    },
    RequestTakeback {
        by: Side,
    },
    AcceptTakeback {
        by: Side,
    },
    DeclineTakeback {
        by: Side,
    },
    Adjourn,
    Seal {
        by: Side,
        mv: String,
    },
    Resume,
    CheckFlag,
    GiveTime {
        by: Side,
        ms: u64,
    },
    ClaimIllegalMove {
        by: Side,
    },
}

impl From<&Command> for StoredCommand {
    fn from(c: &Command) -> StoredCommand {
        use StoredCommand as S;
        match c.clone() {
            Command::Move { by, mv } => S::Move { by: by.into(), mv },
            Command::OfferDraw { by } => S::OfferDraw { by: by.into() },
            Command::AcceptDraw { by } => S::AcceptDraw { by: by.into() },
            Command::DeclineDraw { by } => S::DeclineDraw { by: by.into() },
            Command::ClaimDraw {
                by,
                claim,
                declared,
            } => S::ClaimDraw {
                by: by.into(),
                claim: claim.into(),
                declared,
            },
            Command::Resign { by } => S::Resign { by: by.into() },
            Command::Abort { by } => S::Abort { by: by.into() },
            Command::RequestTakeback { by } => S::RequestTakeback { by: by.into() },
            Command::AcceptTakeback { by } => S::AcceptTakeback { by: by.into() },
            Command::DeclineTakeback { by } => S::DeclineTakeback { by: by.into() },
            Command::Adjourn => S::Adjourn,
            Command::Seal { by, mv } => S::Seal { by: by.into(), mv },
            Command::Resume => S::Resume,
            Command::CheckFlag => S::CheckFlag,
            Command::GiveTime { by, ms } => S::GiveTime { by: by.into(), ms },
            Command::ClaimIllegalMove { by } => S::ClaimIllegalMove { by: by.into() },
        }
    }
}

impl From<StoredCommand> for Command {
    fn from(s: StoredCommand) -> Command {
        use StoredCommand as S;
        match s {
            S::Move { by, mv } => Command::Move { by: by.into(), mv },
            S::OfferDraw { by } => Command::OfferDraw { by: by.into() },
            S::AcceptDraw { by } => Command::AcceptDraw { by: by.into() },
            S::DeclineDraw { by } => Command::DeclineDraw { by: by.into() },
            S::ClaimDraw {
                by,
                claim,
                declared,
            } => Command::ClaimDraw {
                by: by.into(),
                claim: claim.into(),
                declared,
            },
            S::Resign { by } => Command::Resign { by: by.into() },
            S::Abort { by } => Command::Abort { by: by.into() },
            S::RequestTakeback { by } => Command::RequestTakeback { by: by.into() },
            S::AcceptTakeback { by } => Command::AcceptTakeback { by: by.into() },
            S::DeclineTakeback { by } => Command::DeclineTakeback { by: by.into() },
            S::Adjourn => Command::Adjourn,
            S::Seal { by, mv } => Command::Seal { by: by.into(), mv },
            S::Resume => Command::Resume,
            S::CheckFlag => Command::CheckFlag,
            S::GiveTime { by, ms } => Command::GiveTime { by: by.into(), ms },
            S::ClaimIllegalMove { by } => Command::ClaimIllegalMove { by: by.into() },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_read_back() {
        for seat in [
            Seat::Player("abc123".into()),
            Seat::Computer { level: 4 },
            Seat::Open,
        ] {
            assert_eq!(Seat::from_text(&seat.to_text()), Some(seat));
        }
        assert_eq!(Seat::from_text("c:x"), None);
        assert_eq!(Seat::from_text(""), None);
    }

    #[test]
    fn setups_read_back() {
        for setup in [
            Setup::default(),
            Setup {
                start: StartPosition::Chess960(518),
                control: TimeControl::parse_pgn("40/5400+30:1800+30").unwrap(),
                clock_start: ClockStart::AfterFirstMoves {
                    first_move_timeout_ms: 30_000,
                },
                ..Setup::default()
            },
            Setup {
                start: StartPosition::Fen("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1".into()),
                control: TimeControl::parse_pgn("300d5").unwrap(),
                options: Options {
                    takebacks: true,
                    ..Options::default()
                },
                ..Setup::default()
            },
        ] {
            let json = serde_json::to_string(&StoredSetup::from_setup(&setup)).unwrap();
            let back: StoredSetup = serde_json::from_str(&json).unwrap();
            assert_eq!(back.to_setup().unwrap(), setup, "{json}");
        }
    }

    #[test]
    fn commands_read_back() {
        use Color::{Black, White};
        let commands = [
            Command::Move {
                by: White,
                mv: "e2e4".into(),
            },
            Command::ClaimDraw {
                by: Black,
                claim: Claim::Threefold,
                declared: Some("Nf6".into()),
            },
            Command::ClaimDraw {
                by: White,
                claim: Claim::FiftyMoves,
                declared: None,
            },
            Command::CheckFlag,
            Command::GiveTime {
                by: Black,
                ms: 15_000,
            },
            Command::Resign { by: Black },
        ];
        for c in commands {
            let json = serde_json::to_string(&StoredCommand::from(&c)).unwrap();
            let back: StoredCommand = serde_json::from_str(&json).unwrap();
            assert_eq!(Command::from(back), c, "{json}");
        }
    }
}
