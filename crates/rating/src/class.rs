//! Speed classes, by the estimated game duration base + 60 × increment (FIDE's formula).

use std::fmt;

use vizier_arbiter::TimeControl;

/// What kind of game a rating is for.
///
/// ```
/// use vizier_rating::Class;
/// assert_eq!(Class::of_estimate_secs(60), Class::Bullet);
/// assert_eq!(Class::of_estimate_secs(600), Class::Blitz);
/// assert_eq!(Class::of_estimate_secs(601), Class::Rapid);
/// assert_eq!(Class::of_estimate_secs(3_600), Class::Classical);
/// assert_eq!("rapid".parse::<Class>(), Ok(Class::Rapid));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// Less than 3 minutes.
    Bullet,
    /// 3 to 10 minutes.
    Blitz,
    /// More than 10 and less than 60 minutes.
    Rapid,
    /// 60 minutes or more.
    Classical,
    /// Days per move.
    Correspondence,
}

impl Class {
    /// Every class, fastest first.
    pub const ALL: [Class; 5] = [
        Class::Bullet,
        Class::Blitz,
        Class::Rapid,
        Class::Classical,
        Class::Correspondence,
    ];

    /// The speed class of a time control (base + 60 × increment, FIDE's estimate); none
    /// without a clock. Every part of Vizier that needs a game's class asks here.
    ///
    /// ```
    /// use vizier_arbiter::TimeControl;
    /// use vizier_rating::Class;
    /// let tc = |s| TimeControl::parse_pgn(s).unwrap();
    /// assert_eq!(Class::of_control(&tc("180+2")), Some(Class::Blitz));
    /// assert_eq!(Class::of_control(&tc("60")), Some(Class::Bullet));
    /// assert_eq!(Class::of_control(&tc("-")), None);
    /// ```
    pub fn of_control(control: &TimeControl) -> Option<Class> {
        match control {
            TimeControl::Unlimited => None,
            TimeControl::Correspondence { .. } => Some(Class::Correspondence),
            TimeControl::Clock(periods) => {
                let base: u64 = periods.iter().map(|p| p.base_ms).sum();
                let per_move = periods.first().map_or(0, |p| p.increment_ms + p.delay.ms());
                Some(Class::of_estimate_secs((base + 60 * per_move) / 1_000))
            }
        }
    }

    /// The class of a clocked game expected to last `secs` seconds a player
    /// (base + 60 × increment).
    pub fn of_estimate_secs(secs: u64) -> Class {
        match secs {
            0..180 => Class::Bullet,
            180..=600 => Class::Blitz,
            601..3_600 => Class::Rapid,
            _ => Class::Classical,
        }
    }

    /// The name lichess's API uses (`"blitz"`).
    pub fn key(self) -> &'static str {
        match self {
            Class::Bullet => "bullet",
            Class::Blitz => "blitz",
            Class::Rapid => "rapid",
            Class::Classical => "classical",
            Class::Correspondence => "correspondence",
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// A class name that is not one of [`Class::key`]'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownClass;

impl fmt::Display for UnknownClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a speed class (bullet, blitz, rapid, classical, correspondence)")
    }
}

impl std::error::Error for UnknownClass {}

impl std::str::FromStr for Class {
    type Err = UnknownClass;

    fn from_str(s: &str) -> Result<Class, UnknownClass> {
        Class::ALL
            .into_iter()
            .find(|c| c.key() == s)
            .ok_or(UnknownClass)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundaries() {
        assert_eq!(Class::of_estimate_secs(0), Class::Bullet);
        assert_eq!(Class::of_estimate_secs(179), Class::Bullet);
        // 2+1: 120 + 60 = 180 s.
        assert_eq!(Class::of_estimate_secs(180), Class::Blitz);
        assert_eq!(Class::of_estimate_secs(600), Class::Blitz);
        assert_eq!(Class::of_estimate_secs(601), Class::Rapid);
        assert_eq!(Class::of_estimate_secs(3_599), Class::Rapid);
        assert_eq!(Class::of_estimate_secs(3_600), Class::Classical);
        for c in Class::ALL {
            assert_eq!(c.key().parse(), Ok(c));
        }
        assert_eq!("Blitz".parse::<Class>(), Err(UnknownClass));
    }
}
