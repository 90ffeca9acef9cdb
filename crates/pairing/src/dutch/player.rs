//! What the pairing reads of one player's past: colours (C.04.3 1.6–1.7, with C.04.2's
//! rule that unplayed rounds do not count), floats (1.4) and bye eligibility (C2).

use super::Edition;
use crate::Colour;
use crate::field::Field;

/// A player's colour history and bye eligibility.
#[derive(Clone, Debug, Default)]
pub struct Profile {
    pub played_games: usize,
    /// |games with White - games with Black|.
    pub imbalance: usize,
    /// The colour the player should get, if any game was played.
    pub preference: Option<Colour>,
    /// The colour of the last two (or more) played games when they were the same.
    pub repeated: Option<Colour>,
    /// A colour difference of ±1 (and no absolute preference).
    pub strong: bool,
    /// May receive the pairing-allocated bye: no bye yet, no win without playing.
    pub bye_eligible: bool,
}

impl Profile {
    pub fn of(field: &Field, i: usize) -> Profile {
        let player = &field.players[i];
        let (mut white, mut black) = (0usize, 0usize);
        let mut run = 0;
        let mut last = None;
        let mut played_games = 0;
        for m in player.matches.iter().filter(|m| m.played) {
            let Some(colour) = m.colour else { continue };
            played_games += 1;
            match colour {
                Colour::White => white += 1,
                Colour::Black => black += 1,
            }
            run = if last == Some(colour) { run + 1 } else { 1 };
            last = Some(colour);
        }
        let imbalance = white.abs_diff(black);
        let lower = if white > black {
            Colour::Black
        } else {
            Colour::White
        };
        let preference = if imbalance > 1 {
            Some(lower)
        } else if run > 1 {
            last.map(Colour::flip)
        } else if imbalance > 0 {
            Some(lower)
        } else {
            last.map(Colour::flip)
        };
        let repeated = if run > 1 { last } else { None };
        let absolute = imbalance > 1 || repeated.is_some();
        let bye_eligible = !player
            .matches
            .iter()
            .any(|m| !m.played && m.paired && m.outcome == crate::field::Outcome::Win);
        Profile {
            played_games,
            imbalance,
            preference,
            repeated,
            strong: !absolute && imbalance > 0,
            bye_eligible,
        }
    }

    /// The colour difference is beyond ±1.
    pub fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }

    /// An absolute colour preference.
    pub fn absolute(&self) -> bool {
        self.absolute_imbalance() || self.repeated.is_some()
    }
}

/// A float in a past round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Float {
    Down,
    Up,
    None,
}

/// The float of player `i` in the round `back` rounds ago: met a lower (down) or higher
/// (up) score, or did not play: a downfloat in 2017 (A.4.b), in 2026 only when it scored
/// more than a loss (1.4.3).
pub fn float(field: &Field, i: usize, back: usize, edition: Edition) -> Float {
    let m = &field.players[i].matches[field.played_rounds - back];
    if !m.played {
        let down = edition == Edition::E2017 || field.points_of(m) > field.points.loss;
        return if down { Float::Down } else { Float::None };
    }
    let own = field.score(i, back);
    let theirs = field.score(m.opponent.expect("a played game has an opponent"), back);
    match own.cmp(&theirs) {
        core::cmp::Ordering::Greater => Float::Down,
        core::cmp::Ordering::Less => Float::Up,
        core::cmp::Ordering::Equal => Float::None,
    }
}

/// The colour criteria a pair of `lo` and `hi` keeps, highest first: no topscorer's
/// colour difference beyond 2; no colour three times running; both preferences granted;
/// both strong preferences granted (C10–C13 of 2026, C.8–C.11 of 2017).
pub fn colour_criteria(lo: &Profile, hi: &Profile) -> [bool; 4] {
    let same = lo.preference == hi.preference;
    let difference = !lo.absolute_imbalance() || !hi.absolute_imbalance() || !same;
    let three_running = !lo.absolute()
        || !hi.absolute()
        || !same
        || if lo.imbalance == hi.imbalance {
            lo.repeated.is_none() || lo.repeated != hi.repeated
        } else {
            // The wider difference gets its colour (5.2.2): the other may repeat one.
            let loser = if lo.imbalance > hi.imbalance { hi } else { lo };
            loser.repeated != lo.preference.map(Colour::flip)
        };
    let preferences = lo.preference.is_none() || hi.preference.is_none() || !same;
    let strong = (!lo.strong && !lo.absolute())
        || (!hi.strong && !hi.absolute())
        || (lo.absolute() && hi.absolute())
        || !same;
    [difference, three_running, preferences, strong]
}
