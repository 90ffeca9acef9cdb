//! A game's chat, as lichess's API has it: lines in the players' room or the spectators',
//! kept in memory while the game's task lives (the last [`LINES_KEPT`]) and published as
//! events. The chat is not stored: it goes when the game's task does.

use std::sync::Arc;

use super::Round;
use super::event::GameEvent;
use super::snapshot::ChatLine;
use crate::ids::PlayerId;
use crate::refusal::{Refusal, Why};

/// Lines a game keeps.
pub const LINES_KEPT: usize = 100;
/// The longest line, in characters (lichess's).
pub const LINE_LEN: usize = 140;

impl Round {
    /// `player` writes `text` in `room`: the players' room is for the players.
    pub(super) fn chat(
        &mut self,
        player: Option<&PlayerId>,
        room: &str,
        text: &str,
    ) -> Result<(), Refusal> {
        let room = match room {
            "player" => "player",
            "spectator" => "spectator",
            _ => {
                return Err(Refusal::new(
                    Why::BadRequest,
                    "the room is player or spectator",
                ));
            }
        };
        let side = self.own_side(player, None);
        if room == "player" && side.is_none() {
            return Err(Refusal::new(
                Why::Spectator,
                "you are watching this game, not playing it",
            ));
        }
        let text = text.trim();
        if text.is_empty() || text.chars().count() > LINE_LEN {
            return Err(Refusal::new(
                Why::BadRequest,
                "a chat line has 1 to 140 characters",
            ));
        }
        let name = side
            .and_then(|c| self.players.names[c.index()].clone())
            .unwrap_or_else(|| "Anonymous".into());
        let line = ChatLine {
            room,
            name,
            text: text.to_string(),
        };
        let mut lines: Vec<ChatLine> = self.chat.iter().cloned().collect();
        if lines.len() >= LINES_KEPT {
            lines.remove(0);
        }
        lines.push(line.clone());
        self.chat = Arc::from(lines);
        self.events.push(GameEvent::Chat(line));
        self.publish(true);
        Ok(())
    }
}
