//! A game's audience: the connections open on it, who the players among them are (their
//! presence, which their opponents see), and where each comes from.

use tokio::sync::oneshot;
use vizier_rules::Color;
use vizier_store::record::Seat;

use super::event::GameEvent;
use super::{Connected, Round};
use crate::ids::PlayerId;

/// A viewer's connection: who it is, for presence and the per-address limits. What it is
/// shown comes from its subscription.
pub(super) struct Connection {
    pub id: u64,
    /// The player's cookie id (none: a client without one).
    pub player: Option<PlayerId>,
    /// The client's address, as the per-address limits count it.
    pub address: Option<String>,
}

impl Round {
    /// `player` (from `address`) joins the audience and subscribes; a game as full as it may
    /// be takes its players only (the reply is dropped: the socket closes).
    pub(super) fn connect(
        &mut self,
        player: Option<PlayerId>,
        address: Option<String>,
        reply: oneshot::Sender<Connected>,
    ) {
        let seated = !self.sides_of(player.as_ref()).is_empty();
        if !seated && self.connections.len() >= self.hub.settings.limits.sockets_per_game {
            return;
        }
        self.next_conn += 1;
        let conn = self.next_conn;
        let subscription = self.subscribe();
        if reply.send(Connected { conn, subscription }).is_err() {
            return;
        }
        for side in self.sides_of(player.as_ref()) {
            self.present[side.index()] = true;
        }
        let before = self.presence();
        self.connections.push(Connection {
            id: conn,
            player,
            address,
        });
        self.tell_presence(before);
    }

    /// Connection `conn` leaves.
    pub(super) fn disconnect(&mut self, conn: u64) {
        let before = self.presence();
        self.connections.retain(|c| c.id != conn);
        self.tell_presence(before);
    }

    /// The address of `player`'s latest connection, if any.
    pub(super) fn address_of(&self, player: &PlayerId) -> Option<&str> {
        (self.connections.iter().rev())
            .find(|c| c.player.as_ref() == Some(player))
            .and_then(|c| c.address.as_deref())
    }

    /// Whether each side's player has a connection open.
    pub(super) fn presence(&self) -> [bool; 2] {
        Color::ALL.map(|c| match &self.seats[c.index()] {
            Seat::Player(id) => self
                .connections
                .iter()
                .any(|conn| conn.player.as_ref() == Some(id)),
            _ => false,
        })
    }

    /// Tells everyone if a side's player came or went since presence was `before`: only a
    /// player's coming and going changes what others see, not a spectator's.
    fn tell_presence(&mut self, before: [bool; 2]) {
        let online = self.presence();
        if online == before {
            return;
        }
        self.update_gone(self.hub.now());
        self.events.push(GameEvent::Presence { online });
        self.publish(true);
    }
}
