//! The rater: which class a game is rated in, who its rated players are, and what the game
//! shows of them (names, ratings, and after a rated game the change). The ratings themselves
//! change in the transaction that stores the result (`store::ratings`).

use vizier_arbiter::{Outcome, TimeControl};
use vizier_rating::{Class, Perf};
use vizier_rules::{Color, Reason};

use super::Round;
use vizier_store::record::Seat;
use vizier_store::{GameRatingRow, Rated};

/// Moves each side must have made for a game to change ratings.
///
/// Three, whatever ended the game (a resignation, a flag, an agreed draw, a mate): a result
/// reached before both sides have played into the game tells nothing of their play, and a
/// pair of accounts could otherwise trade points a move apart. Lichess draws the same line a
/// few moves in; FIDE rates a game once each side has moved, but there both players sit at
/// one board before an arbiter.
pub const RATED_AFTER_MOVES: usize = 3;

/// Whether a game that ended so, after `plies` half-moves, counts for ratings: an aborted
/// game never does, nor one that ended before each side made [`RATED_AFTER_MOVES`] moves.
pub(super) fn counts(outcome: &Outcome, plies: usize) -> bool {
    let played = plies >= 2 * RATED_AFTER_MOVES;
    played
        && !matches!(
            outcome.reason,
            Reason::Aborted | Reason::FirstMoveTimeout | Reason::Abandoned
        )
}

/// What a game shows of its players who have accounts.
#[derive(Clone, Debug, Default)]
pub struct Players {
    pub names: [Option<String>; 2],
    /// Their titles (`BOT` for a bot account).
    pub titles: [Option<String>; 2],
    /// Their standing in the game's class, as of the last look.
    pub perfs: [Option<Perf>; 2],
    /// What the game did to their ratings, once it was rated (boxed: most games have none).
    pub changes: [Option<Box<GameRatingRow>>; 2],
}

/// A game's rated players, when it is rated and both seats are taken.
pub(super) fn rated_players(
    rated: bool,
    control: &TimeControl,
    seats: &[Seat; 2],
) -> Option<Rated> {
    if !rated {
        return None;
    }
    let class = Class::of_control(control)?;
    match seats {
        [Seat::Player(white), Seat::Player(black)] if white != black => Some(Rated {
            white: white.clone(),
            black: black.clone(),
            class,
        }),
        _ => None,
    }
}

impl Round {
    /// Looks up the players' names and ratings (after a join, and after a rated game ends).
    /// A database that does not answer leaves what the game showed.
    pub(super) async fn load_players(&mut self) {
        let ids: Vec<Option<&str>> = self
            .seats
            .iter()
            .map(|s| match s {
                Seat::Player(id) => Some(id.as_str()),
                _ => None,
            })
            .collect();
        let present: Vec<&str> = ids.iter().flatten().copied().collect();
        if present.is_empty() {
            return;
        }
        let store = &self.hub.store;
        let Ok(names) = store.names_and_titles(&present).await else {
            return;
        };
        let class = Class::of_control(&self.table.setup.control);
        let mut players = Players::default();
        for color in Color::ALL {
            let Some(id) = ids[color.index()] else {
                continue;
            };
            if let Some((name, title)) = names.get(id) {
                players.names[color.index()] = Some(name.clone());
                players.titles[color.index()] = title.clone();
            }
            if let (Some(class), true) = (class, names.contains_key(id)) {
                players.perfs[color.index()] = store.perf(id, class).await.ok();
            }
        }
        if self.table.rated
            && self.over()
            && let Ok(rows) = store.game_ratings(self.table.id.as_str()).await
        {
            for row in rows {
                let i = if row.color == "white" { 0 } else { 1 };
                players.changes[i] = Some(Box::new(row));
            }
        }
        self.players = std::sync::Arc::new(players);
    }
}

impl Players {
    /// The rating shown for `color`'s player at `now`, and whether it is provisional.
    pub fn shown_rating(&self, color: Color, now: vizier_arbiter::Millis) -> Option<(i32, bool)> {
        let perf = self.perfs[color.index()]?;
        let g = perf.glicko_at(now as i64);
        Some((g.rating.round() as i32, g.provisional()))
    }
}
