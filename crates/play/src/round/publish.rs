//! Publishing: what a request changed goes out once it is answered — to the game's
//! subscribers as one update (its events and the round as it stands), and to the site as the
//! events others watch for (a game's start and end, a correspondence move).

use std::sync::Arc;

use vizier_rules::Color;

use super::Round;
use super::event::{GameEvent, SiteEvent, Update};

impl Round {
    /// Publishes what happened since the last update, with the round as it stands (`whole`:
    /// with every move, for views to show the game afresh), once the request at hand is
    /// answered: a socket that asked then has its answer when the update comes, and writes
    /// both at once.
    pub(super) fn publish(&mut self, whole: bool) {
        self.update_due = Some(self.update_due.unwrap_or(false) || whole);
    }

    /// Sends the update [published](Round::publish) while serving a request, if any.
    pub(super) fn send_update(&mut self) {
        let Some(whole) = self.update_due.take() else {
            return;
        };
        let events = std::mem::take(&mut self.events);
        // Of moves made together (a conditional premove's answer), only the last one's side
        // is to move.
        let last_move = (events.iter())
            .rposition(|e| matches!(e, GameEvent::Arbiter(vizier_arbiter::Event::Moved { .. })));
        for (i, event) in events.iter().enumerate() {
            let site = match event {
                GameEvent::Started => SiteEvent::Started {
                    game: self.table.id.clone(),
                    seats: self.seats.clone(),
                },
                GameEvent::Ended { outcome, .. } => SiteEvent::Ended {
                    game: self.table.id.clone(),
                    seats: self.seats.clone(),
                    outcome: *outcome,
                    plies: self.game.as_ref().map_or(0, |g| g.plies().len()),
                    berserk: Color::ALL
                        .map(|c| self.game.as_ref().is_some_and(|g| g.clock().berserked(c))),
                    // A side that moved came, whether before a restart or not.
                    present: Color::ALL.map(|c| {
                        let moved = self.game.as_ref().is_some_and(|g| {
                            let plies = g.plies().len();
                            plies >= 2 || (plies == 1 && c == g.start_position().turn())
                        });
                        self.present[c.index()] || moved
                    }),
                },
                GameEvent::Arbiter(vizier_arbiter::Event::Moved { by, .. })
                    if Some(i) == last_move
                        && matches!(
                            self.table.setup.control,
                            vizier_arbiter::TimeControl::Correspondence { .. }
                        )
                        && self.game.as_ref().is_some_and(|g| g.outcome().is_none()) =>
                {
                    SiteEvent::Moved {
                        game: self.table.id.clone(),
                        seats: self.seats.clone(),
                        to_move: !*by,
                    }
                }
                _ => continue,
            };
            self.hub.tell_site(site);
        }
        // Nobody follows the game: no snapshot to take.
        if self.updates.receiver_count() == 0 {
            return;
        }
        let update = Update {
            version: self.version,
            events,
            round: self.snapshot(whole),
        };
        let _ = self.updates.send(Arc::new(update));
    }
}
