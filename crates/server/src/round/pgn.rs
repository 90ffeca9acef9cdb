//! The export of a live game: the archive's, with what the game knows now, from memory (the
//! store has its latest moves only in the journal, which is not indexed by game).

use vizier_rules::Color;

use super::Round;
use crate::archive::Described;

impl Round {
    /// The game in PGN, with the clock after every move, the pieces named in `style`.
    pub(super) fn pgn(&self, style: vizier_rules::PieceStyle) -> String {
        match &self.game {
            Some(game) => self.described().pgn_styled(game, style),
            None => String::new(),
        }
    }

    /// The game and how the archive describes it; none before the game has begun.
    pub(super) fn export(&self) -> Option<super::LiveExport> {
        let game = self.game.as_ref()?;
        Some((game.clone(), self.described()))
    }

    fn described(&self) -> Described {
        let opening = self.opening;
        let changes = &self.players.changes;
        Described {
            id: self.table.id.clone(),
            kind: Some(self.table.kind),
            seats: Some(self.seats.clone()),
            names: self.players.names.clone(),
            ratings: Color::ALL.map(|c| match &changes[c.index()] {
                Some(change) => Some(change.glicko_before.round() as i64),
                None => self
                    .players
                    .shown_rating(c, crate::hub::now_ms())
                    .map(|(r, _)| i64::from(r)),
            }),
            diffs: Color::ALL.map(|c| {
                changes[c.index()]
                    .as_ref()
                    .map(|r| r.glicko_after.round() as i64 - r.glicko_before.round() as i64)
            }),
            rated: self.table.rated,
            speed: vizier_rating::Class::of_control(&self.table.setup.control)
                .map(|c| c.key().to_string()),
            eco: opening.map(|o| o.eco.to_string()),
            opening: opening.map(|o| o.name.to_string()),
            started_at: self.started_at,
            site: self.hub.site(),
        }
    }
}
