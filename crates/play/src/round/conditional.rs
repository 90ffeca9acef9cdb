//! Conditional premoves of correspondence games: a player waiting for the opponent leaves
//! lines — "if they play X, I answer Y; then if Z, W …". When the opponent moves, the lines
//! that begin with that move give the answer, which is played at once as the player's move;
//! they go on shortened by the two moves, and every other line is dropped. The lines are the
//! player's alone, stored before they are acknowledged, and kept across restarts.

use vizier_arbiter::{Command, Game, TimeControl};
use vizier_rules::{Color, Position, UciCastling};

use super::Round;
use crate::ids::PlayerId;
use crate::refusal::{Refusal, Why};

/// Lines a side may leave at once.
pub const MOST_LINES: usize = 32;
/// Moves in one line, the opponent's counted.
pub const MOST_PLIES: usize = 20;

/// A side's lines and the number of half-moves played when they were left: they hold only
/// while the opponent is to move in that position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lines {
    pub plies: usize,
    /// Each line in UCI, the opponent's move first.
    pub lines: Vec<Vec<String>>,
}

impl Lines {
    /// As the store keeps them: the ply count, then one line a text line.
    fn to_rows(&self) -> Vec<String> {
        if self.lines.is_empty() {
            return Vec::new();
        }
        let mut rows = vec![format!("@{}", self.plies)];
        rows.extend(self.lines.iter().map(|l| l.join(" ")));
        rows
    }

    /// Lines as [`vizier_store::Store::conditional`] returns them.
    pub fn from_rows(rows: &[String]) -> Lines {
        let Some((head, rest)) = rows.split_first() else {
            return Lines::default();
        };
        let Some(plies) = head.strip_prefix('@').and_then(|n| n.parse().ok()) else {
            return Lines::default();
        };
        Lines {
            plies,
            lines: rest
                .iter()
                .map(|l| l.split_whitespace().map(str::to_string).collect())
                .collect(),
        }
    }
}

/// Reads `texts` (moves in SAN or UCI, separated by spaces) as lines from `position`, in UCI;
/// or why they cannot stand: a move not legal where it comes, a line too long, or two
/// answers to the same moves.
pub fn read_lines(
    position: &Position,
    chess960: bool,
    texts: &[String],
) -> Result<Vec<Vec<String>>, String> {
    if texts.len() > MOST_LINES {
        return Err(format!("at most {MOST_LINES} lines"));
    }
    let castling = UciCastling::for_chess960(chess960);
    let mut lines: Vec<Vec<String>> = Vec::new();
    for (n, text) in texts.iter().enumerate() {
        let words: Vec<&str> = text
            .split_whitespace()
            // Move numbers ("1.", "12...") are skipped.
            .filter(|w| !w.trim_end_matches('.').chars().all(|c| c.is_ascii_digit()))
            .collect();
        if words.len() < 2 {
            return Err(format!(
                "line {}: the opponent's move and your answer, at least",
                n + 1
            ));
        }
        if words.len() > MOST_PLIES {
            return Err(format!("line {}: at most {MOST_PLIES} moves", n + 1));
        }
        let mut pos = position.clone();
        let mut line = Vec::with_capacity(words.len());
        for word in words {
            let mv = (pos.parse_move(word))
                .map_err(|_| format!("line {}: {word} is not a legal move there", n + 1))?;
            line.push(pos.uci(mv, castling));
            pos = pos
                .play(mv)
                .map_err(|_| format!("line {}: {word} is not legal", n + 1))?;
        }
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    // Where two lines part, it must be on the opponent's move (even places).
    for (i, a) in lines.iter().enumerate() {
        for b in &lines[i + 1..] {
            let parted = a.iter().zip(b).position(|(x, y)| x != y);
            if let Some(at) = parted
                && at % 2 == 1
            {
                return Err(format!("two answers to {}", a[..at].join(" ")));
            }
        }
    }
    Ok(lines)
}

/// The answer the lines give to `played`, and the lines that go on.
pub fn answer(lines: &[Vec<String>], played: &str) -> (Option<String>, Vec<Vec<String>>) {
    let matching: Vec<&Vec<String>> = lines.iter().filter(|l| l[0] == played).collect();
    let reply = matching.first().and_then(|l| l.get(1)).cloned();
    let rest = (matching.iter())
        .filter(|l| l.len() > 2)
        .map(|l| l[2..].to_vec())
        .collect();
    (reply, rest)
}

fn correspondence(game: &Game) -> bool {
    matches!(game.setup().control, TimeControl::Correspondence { .. })
}

impl Round {
    /// Both sides' lines, read from the store the first time.
    async fn conditional_lines(&mut self) -> &mut [Lines; 2] {
        if self.conditional.is_none() {
            let rows = match self.hub.store.conditional(self.table.id.as_str()).await {
                Ok(rows) => rows,
                Err(e) => {
                    tracing::warn!(game = %self.table.id, "conditional premoves not read: {e}");
                    Default::default()
                }
            };
            self.conditional = Some(rows.map(|r| Lines::from_rows(&r)));
        }
        self.conditional.get_or_insert_with(Default::default)
    }

    /// `player` leaves `texts` as their lines (none clears them).
    pub(super) async fn set_conditional(
        &mut self,
        player: Option<&PlayerId>,
        side: Option<Color>,
        texts: &[String],
    ) -> Result<(), Refusal> {
        let Some(game) = &self.game else {
            return Err(Refusal::new(Why::NotStarted, "the game has not started"));
        };
        if game.outcome().is_some() {
            return Err(Refusal::new(Why::GameOver, "the game is over"));
        }
        if !correspondence(game) {
            return Err(Refusal::new(
                Why::BadRequest,
                "conditional premoves are for correspondence games",
            ));
        }
        let Some(me) = self.own_side(player, side) else {
            return Err(Refusal::new(
                Why::Spectator,
                "you are watching this game, not playing it",
            ));
        };
        if game.position().turn() == me && !texts.is_empty() {
            return Err(Refusal::new(
                Why::BadRequest,
                "it is your move: conditional premoves are left while the opponent thinks",
            ));
        }
        let lines = read_lines(game.position(), game.is_chess960(), texts)
            .map_err(|why| Refusal::new(Why::BadRequest, why))?;
        let new = Lines {
            plies: game.plies().len(),
            lines,
        };
        self.hub
            .store
            .set_conditional(self.table.id.as_str(), me.index() as u8, &new.to_rows())
            .await
            .map_err(|_| {
                Refusal::new(
                    Why::Storage,
                    "the lines could not be saved; nothing changed — please try again",
                )
            })?;
        self.conditional_lines().await[me.index()] = new;
        Ok(())
    }

    /// After a move: the side now to move answers from its lines, if one begins with that
    /// move; its other lines are dropped.
    pub(super) async fn answer_conditional(&mut self) {
        let Some(game) = &self.game else { return };
        if !correspondence(game) {
            return;
        }
        let over = game.outcome().is_some();
        let plies = game.plies().len();
        let played = game.plies().last().map(|p| p.uci.to_string());
        let side = game.position().turn();
        let id = self.table.id.clone();
        let mine = std::mem::take(&mut self.conditional_lines().await[side.index()]);
        if mine.lines.is_empty() {
            return;
        }
        let (reply, rest) = match played {
            Some(played) if !over && mine.plies + 1 == plies => answer(&mine.lines, &played),
            _ => (None, Vec::new()),
        };
        let mut kept = Lines::default();
        if let Some(reply) = reply {
            let by = side;
            match self.command(Command::Move { by, mv: reply }).await {
                Ok(()) => {
                    kept = Lines {
                        plies: self.game.as_ref().map_or(0, |g| g.plies().len()),
                        lines: rest,
                    }
                }
                Err(refusal) => {
                    tracing::warn!(game = %id, "a conditional premove was refused: {}", refusal.message);
                }
            }
        }
        if let Err(e) = (self.hub.store)
            .set_conditional(id.as_str(), side.index() as u8, &kept.to_rows())
            .await
        {
            tracing::warn!(game = %id, "conditional premoves not stored: {e}");
        }
        self.conditional_lines().await[side.index()] = kept;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(texts: &[&str]) -> Result<Vec<Vec<String>>, String> {
        let texts: Vec<String> = texts.iter().map(|s| s.to_string()).collect();
        read_lines(&Position::new(), false, &texts)
    }

    #[test]
    fn lines_are_read_in_san_or_uci_and_kept_in_uci() {
        let read = lines(&["e4 e5 Nf3 Nc6", "1. d4 d5", "c2c4 e7e5"]).unwrap();
        assert_eq!(read[0], ["e2e4", "e7e5", "g1f3", "b8c6"]);
        assert_eq!(read[1], ["d2d4", "d7d5"]);
        assert_eq!(read[2], ["c2c4", "e7e5"]);
    }

    #[test]
    fn bad_lines_are_refused_with_the_reason() {
        assert!(lines(&["e4"]).unwrap_err().contains("at least"));
        assert!(
            lines(&["e4 e4"])
                .unwrap_err()
                .contains("e4 is not a legal move")
        );
        // Two different answers to 1.e4.
        assert!(
            lines(&["e4 e5", "e4 c5"])
                .unwrap_err()
                .contains("two answers")
        );
        // Parting on the opponent's move is fine.
        assert!(lines(&["e4 e5 Nf3 Nc6", "e4 e5 Bc4 Nf6"]).is_ok());
        let long = ["Nf3 Nf6 Ng1 Ng8"; 6].join(" ");
        assert!(lines(&[&long]).unwrap_err().contains("at most"));
    }

    #[test]
    fn the_opponents_move_picks_the_answer_and_the_lines_that_go_on() {
        let read = lines(&["e4 e5 Nf3 Nc6", "e4 e5 Bc4 Nf6", "d4 d5"]).unwrap();
        let (reply, rest) = answer(&read, "e2e4");
        assert_eq!(reply.as_deref(), Some("e7e5"));
        assert_eq!(rest, [vec!["g1f3", "b8c6"], vec!["f1c4", "g8f6"]]);
        let (reply, rest) = answer(&read, "c2c4");
        assert_eq!((reply, rest.len()), (None, 0));
    }

    #[test]
    fn lines_survive_the_stores_form() {
        let l = Lines {
            plies: 7,
            lines: lines(&["e4 e5", "d4 d5 c4 e6"]).unwrap(),
        };
        assert_eq!(Lines::from_rows(&l.to_rows()), l);
        assert_eq!(Lines::from_rows(&[]), Lines::default());
    }
}
