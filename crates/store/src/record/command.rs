//! Accepted arbiter commands as stored: one small JSON value each, in the order accepted.

use serde::{Deserialize, Serialize};
use vizier_arbiter::{Claim, Command};
use vizier_rules::Color;

/// An accepted arbiter command as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "c", rename_all = "kebab-case")]
pub enum StoredCommand {
    Move {
        by: Color,
        mv: String,
    },
    OfferDraw {
        by: Color,
    },
    AcceptDraw {
        by: Color,
    },
    DeclineDraw {
        by: Color,
    },
    ClaimDraw {
        by: Color,
        claim: Claim,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        declared: Option<String>,
    },
    Resign {
        by: Color,
    },
    Abort {
        by: Color,
    },
    RequestTakeback {
        by: Color,
    },
    AcceptTakeback {
        by: Color,
    },
    DeclineTakeback {
        by: Color,
    },
    Adjourn,
    Seal {
        by: Color,
        mv: String,
    },
    Resume,
    CheckFlag,
    Abandon,
    ClaimLeft {
        by: Color,
        win: bool,
    },
    GiveTime {
        by: Color,
        ms: u64,
    },
    ClaimIllegalMove {
        by: Color,
    },
    Peek {
        by: Color,
    },
    Berserk {
        by: Color,
    },
    Vacation {
        by: Color,
        until: u64,
    },
    Proved {
        side: Color,
        fen: String,
        #[serde(rename = "can-mate")]
        can_mate: Option<bool>,
    },
    DeadPosition {
        after: usize,
    },
}

impl From<&Command> for StoredCommand {
    fn from(c: &Command) -> StoredCommand {
        use StoredCommand as S;
        match c.clone() {
            Command::Move { by, mv } => S::Move { by, mv },
            Command::OfferDraw { by } => S::OfferDraw { by },
            Command::AcceptDraw { by } => S::AcceptDraw { by },
            Command::DeclineDraw { by } => S::DeclineDraw { by },
            Command::ClaimDraw {
                by,
                claim,
                declared,
            } => S::ClaimDraw {
                by,
                claim,
                declared,
            },
            Command::Resign { by } => S::Resign { by },
            Command::Abort { by } => S::Abort { by },
            Command::RequestTakeback { by } => S::RequestTakeback { by },
            Command::AcceptTakeback { by } => S::AcceptTakeback { by },
            Command::DeclineTakeback { by } => S::DeclineTakeback { by },
            Command::Adjourn => S::Adjourn,
            Command::Seal { by, mv } => S::Seal { by, mv },
            Command::Resume => S::Resume,
            Command::CheckFlag => S::CheckFlag,
            Command::Abandon => S::Abandon,
            Command::ClaimLeft { by, win } => S::ClaimLeft { by, win },
            Command::GiveTime { by, ms } => S::GiveTime { by, ms },
            Command::ClaimIllegalMove { by } => S::ClaimIllegalMove { by },
            Command::Peek { by } => S::Peek { by },
            Command::Berserk { by } => S::Berserk { by },
            Command::Vacation { by, until } => S::Vacation { by, until },
            Command::Proved {
                side,
                fen,
                can_mate,
            } => S::Proved {
                side,
                fen,
                can_mate,
            },
            Command::DeadPosition { after } => S::DeadPosition { after },
        }
    }
}

impl From<StoredCommand> for Command {
    fn from(s: StoredCommand) -> Command {
        use StoredCommand as S;
        match s {
            S::Move { by, mv } => Command::Move { by, mv },
            S::OfferDraw { by } => Command::OfferDraw { by },
            S::AcceptDraw { by } => Command::AcceptDraw { by },
            S::DeclineDraw { by } => Command::DeclineDraw { by },
            S::ClaimDraw {
                by,
                claim,
                declared,
            } => Command::ClaimDraw {
                by,
                claim,
                declared,
            },
            S::Resign { by } => Command::Resign { by },
            S::Abort { by } => Command::Abort { by },
            S::RequestTakeback { by } => Command::RequestTakeback { by },
            S::AcceptTakeback { by } => Command::AcceptTakeback { by },
            S::DeclineTakeback { by } => Command::DeclineTakeback { by },
            S::Adjourn => Command::Adjourn,
            S::Seal { by, mv } => Command::Seal { by, mv },
            S::Resume => Command::Resume,
            S::CheckFlag => Command::CheckFlag,
            S::Abandon => Command::Abandon,
            S::ClaimLeft { by, win } => Command::ClaimLeft { by, win },
            S::GiveTime { by, ms } => Command::GiveTime { by, ms },
            S::ClaimIllegalMove { by } => Command::ClaimIllegalMove { by },
            S::Peek { by } => Command::Peek { by },
            S::Berserk { by } => Command::Berserk { by },
            S::Vacation { by, until } => Command::Vacation { by, until },
            S::Proved {
                side,
                fen,
                can_mate,
            } => Command::Proved {
                side,
                fen,
                can_mate,
            },
            S::DeadPosition { after } => Command::DeadPosition { after },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CommandRow;
    use crate::record::{RecordError, command_row, read_commands};

    #[test]
    fn commands_read_back() {
        use Color::{Black, White};
        let commands = [
            Command::Peek { by: Black },
            Command::Berserk { by: White },
            Command::Vacation {
                by: Black,
                until: 1_700_000_000_000,
            },
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
            Command::Proved {
                side: White,
                fen: "8/8/8/4k3/8/8/8/4K2R w - - 0 1".into(),
                can_mate: Some(true),
            },
            Command::Proved {
                side: Black,
                fen: "8/8/8/4k3/8/8/8/4K2R w - - 0 1".into(),
                can_mate: None,
            },
            Command::DeadPosition { after: 41 },
        ];
        for c in commands {
            let json = serde_json::to_string(&StoredCommand::from(&c)).unwrap();
            let back: StoredCommand = serde_json::from_str(&json).unwrap();
            assert_eq!(Command::from(back), c, "{json}");
        }
    }

    /// Rows as they are stored today: they must keep loading as these commands, and the
    /// commands must keep being written as these rows.
    #[test]
    fn stored_commands_keep_their_json() {
        use Color::{Black, White};
        let fixed = [
            (
                r#"{"c":"move","by":"white","mv":"e2e4"}"#,
                Command::Move {
                    by: White,
                    mv: "e2e4".into(),
                },
            ),
            (
                r#"{"c":"offer-draw","by":"black"}"#,
                Command::OfferDraw { by: Black },
            ),
            (
                r#"{"c":"accept-draw","by":"white"}"#,
                Command::AcceptDraw { by: White },
            ),
            (
                r#"{"c":"decline-draw","by":"white"}"#,
                Command::DeclineDraw { by: White },
            ),
            (
                r#"{"c":"claim-draw","by":"black","claim":"threefold","declared":"Nf6"}"#,
                Command::ClaimDraw {
                    by: Black,
                    claim: Claim::Threefold,
                    declared: Some("Nf6".into()),
                },
            ),
            (
                r#"{"c":"claim-draw","by":"white","claim":"fifty"}"#,
                Command::ClaimDraw {
                    by: White,
                    claim: Claim::FiftyMoves,
                    declared: None,
                },
            ),
            (
                r#"{"c":"resign","by":"black"}"#,
                Command::Resign { by: Black },
            ),
            (
                r#"{"c":"abort","by":"white"}"#,
                Command::Abort { by: White },
            ),
            (
                r#"{"c":"request-takeback","by":"white"}"#,
                Command::RequestTakeback { by: White },
            ),
            (
                r#"{"c":"accept-takeback","by":"black"}"#,
                Command::AcceptTakeback { by: Black },
            ),
            (
                r#"{"c":"decline-takeback","by":"black"}"#,
                Command::DeclineTakeback { by: Black },
            ),
            (r#"{"c":"adjourn"}"#, Command::Adjourn),
            (
                r#"{"c":"seal","by":"white","mv":"Nf3"}"#,
                Command::Seal {
                    by: White,
                    mv: "Nf3".into(),
                },
            ),
            (r#"{"c":"resume"}"#, Command::Resume),
            (r#"{"c":"check-flag"}"#, Command::CheckFlag),
            (r#"{"c":"abandon"}"#, Command::Abandon),
            (
                r#"{"c":"claim-left","by":"black","win":true}"#,
                Command::ClaimLeft {
                    by: Color::Black,
                    win: true,
                },
            ),
            (
                r#"{"c":"give-time","by":"black","ms":15000}"#,
                Command::GiveTime {
                    by: Black,
                    ms: 15_000,
                },
            ),
            (
                r#"{"c":"claim-illegal-move","by":"black"}"#,
                Command::ClaimIllegalMove { by: Black },
            ),
            (
                r#"{"c":"proved","side":"black","fen":"8/8/8/4k3/8/8/8/4K2R w - - 0 1","can-mate":false}"#,
                Command::Proved {
                    side: Black,
                    fen: "8/8/8/4k3/8/8/8/4K2R w - - 0 1".into(),
                    can_mate: Some(false),
                },
            ),
            (
                r#"{"c":"dead-position","after":41}"#,
                Command::DeadPosition { after: 41 },
            ),
        ];
        for (json, command) in fixed {
            let row = CommandRow {
                seq: 0,
                at_ms: 5,
                command: json.into(),
            };
            assert_eq!(
                read_commands(&[row]).unwrap(),
                [(5, command.clone())],
                "{json}"
            );
            assert_eq!(command_row(0, 5, &command).command, json);
        }
        let bad = CommandRow {
            seq: 3,
            at_ms: 0,
            command: r#"{"c":"fly"}"#.into(),
        };
        assert!(matches!(
            read_commands(&[bad]),
            Err(RecordError::Command { seq: 3, .. })
        ));
    }
}
