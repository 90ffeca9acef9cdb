//! Rematches: a player of a finished game asks for a new one with colours swapped; it is
//! created when the other player agrees, at once against the computer or on one device.

use vizier_arbiter::StartPosition;
use vizier_rules::Color;

use super::GameEvent;
use super::Round;
use crate::hub::NewGame;
use crate::ids::PlayerId;
use crate::policy::Party;
use crate::refusal::{Refusal, Why};
use vizier_store::record::Seat;

impl Round {
    /// `player` asks for (or agrees to) a rematch.
    pub(super) async fn ask_rematch(
        &mut self,
        player: Option<&PlayerId>,
        side: Option<Color>,
    ) -> Result<(), Refusal> {
        if !self.over() {
            return Err(Refusal::new(
                Why::GameNotOver,
                "the game is still being played",
            ));
        }
        let mine = self.sides_of(player);
        let Some(me) = self.own_side(player, side) else {
            return Err(Refusal::new(
                Why::Spectator,
                "only the players can ask for a rematch",
            ));
        };
        let both_here = mine.len() == 2
            || self
                .seats
                .iter()
                .any(|s| matches!(s, Seat::Computer { .. }))
            || self.rematch == Some(!me);
        if !both_here {
            self.rematch = Some(me);
            self.version += 1;
            self.events.push(GameEvent::RematchAsked { by: me });
            self.publish(true);
            return Ok(());
        }
        let player = player.expect("a player");
        let swapped = match &self.seats[me.index()] {
            // The asking player takes the other colour.
            Seat::Player(_) => !me,
            _ => me,
        };
        let level = self.seats.iter().find_map(|s| match s {
            Seat::Computer { level, .. } => Some(*level),
            _ => None,
        });
        let mut setup = self.table.setup.clone();
        if let StartPosition::Chess960(_) = setup.start {
            setup.start = StartPosition::chess960_random();
        }
        let opponent = self.seats[(!me).index()].clone();
        // Both players count: the one asking first, then the other person, if any.
        let mut parties = vec![Party::new(player, self.address_of(player))];
        if let Seat::Player(other) = &opponent
            && other != player
        {
            parties.push(Party::new(other, self.address_of(other)));
        }
        let new_id = self
            .hub
            .create(
                &parties,
                NewGame {
                    kind: self.table.kind,
                    setup,
                    color: swapped,
                    level: level.unwrap_or(1),
                    opponent: Some(opponent),
                    rated: self.table.rated,
                },
            )
            .await
            .map_err(|e| {
                if e.is_limit() {
                    return Refusal::new(Why::TooManyGames, e.to_string());
                }
                tracing::error!(game = %self.table.id, "rematch: {e}");
                Refusal::new(Why::Storage, "could not create the rematch; try again")
            })?;
        self.events.push(GameEvent::Rematch { game: new_id });
        self.publish(false);
        Ok(())
    }
}
