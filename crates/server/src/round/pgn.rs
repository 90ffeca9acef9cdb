//! The PGN export: the arbiter's scoresheet with the tags of this game.

use vizier_arbiter::Tags;
use vizier_rules::Color;

use super::Round;
use crate::record::{Kind, Seat};

impl Round {
    /// The game in PGN, with the clock after every move.
    pub(super) fn pgn(&self) -> String {
        let Some(game) = &self.game else {
            return String::new();
        };
        let name = |c: Color| match &self.seats[c.index()] {
            Seat::Computer { level } => format!("Vizier level {level}"),
            Seat::Player(_) => c.fold("White", "Black").to_string(),
            Seat::Open => "?".into(),
        };
        let date = self
            .started_at
            .map(crate::date::pgn_date)
            .unwrap_or_else(|| "????.??.??".into());
        game.pgn(&Tags {
            event: match self.kind {
                Kind::Computer => "Game against the computer",
                Kind::Friend => "Game between friends",
                Kind::Local => "Game on one device",
            }
            .into(),
            site: "Vizier".into(),
            date,
            round: "-".into(),
            white: name(Color::White),
            black: name(Color::Black),
        })
    }
}
