//! Time controls (Art. 6 and Appendices A/B) and the chess clock as a value: time is always
//! passed in as milliseconds, never read from the operating system.

mod away;

use std::fmt;
use std::sync::Arc;

use vizier_rules::Color;

/// Milliseconds on some fixed timeline chosen by the caller (e.g. Unix time in ms).
pub type Millis = u64;

/// A delay before the main time moves, per move (Art. 6.2 notes; US Chess "time delay").
///
/// ```
/// use vizier_arbiter::Delay;
/// assert_eq!(Delay::Simple(5_000).ms(), 5_000);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Delay {
    /// No delay.
    #[default]
    None,
    /// Simple (US) delay: the clock starts counting only after this many ms of each move.
    Simple(Millis),
    /// Bronstein delay: time used on a move is given back afterwards, up to this many ms.
    Bronstein(Millis),
}

impl Delay {
    /// The delay length in ms (0 for none).
    ///
    /// ```
    /// assert_eq!(vizier_arbiter::Delay::None.ms(), 0);
    /// ```
    pub fn ms(self) -> Millis {
        match self {
            Delay::None => 0,
            Delay::Simple(ms) | Delay::Bronstein(ms) => ms,
        }
    }
}

/// One period of a time control: `moves` moves (or the rest of the game) in `base_ms`, with an
/// increment and a delay per move.
///
/// ```
/// use vizier_arbiter::Period;
/// let p = Period::rest_of_game(300_000, 2_000);
/// assert_eq!(p.moves, None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period {
    /// Moves to complete in this period; `None` for the rest of the game.
    pub moves: Option<u32>,
    /// Time added to the clock when the period begins (unused time carries over).
    pub base_ms: Millis,
    /// Fischer increment added after each move made in this period.
    pub increment_ms: Millis,
    /// Delay applied to each move of this period.
    pub delay: Delay,
}

impl Period {
    /// A period for the rest of the game.
    ///
    /// ```
    /// assert_eq!(vizier_arbiter::Period::rest_of_game(60_000, 0).base_ms, 60_000);
    /// ```
    pub fn rest_of_game(base_ms: Millis, increment_ms: Millis) -> Period {
        Period {
            moves: None,
            base_ms,
            increment_ms,
            delay: Delay::None,
        }
    }

    /// A period of `moves` moves.
    ///
    /// ```
    /// assert_eq!(vizier_arbiter::Period::moves(40, 5_400_000, 30_000).moves, Some(40));
    /// ```
    pub fn moves(moves: u32, base_ms: Millis, increment_ms: Millis) -> Period {
        Period {
            moves: Some(moves),
            base_ms,
            increment_ms,
            delay: Delay::None,
        }
    }
}

/// FIDE speed classes (Appendices A.1 and B.1), plus correspondence and untimed play.
///
/// ```
/// use vizier_arbiter::{Speed, TimeControl};
/// assert_eq!(TimeControl::parse_pgn("300+2").unwrap().speed(), Speed::Blitz);
/// assert_eq!(TimeControl::parse_pgn("600+5").unwrap().speed(), Speed::Rapid);
/// assert_eq!(TimeControl::parse_pgn("40/5400+30:1800+30").unwrap().speed(), Speed::Standard);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Speed {
    /// Base + 60 × increment of at most 10 minutes.
    Blitz,
    /// More than 10 and less than 60 minutes.
    Rapid,
    /// 60 minutes or more.
    Standard,
    /// Days per move.
    Correspondence,
    /// No clock.
    Unlimited,
}

/// A time control (the default: no clock).
///
/// ```
/// use vizier_arbiter::TimeControl;
/// let tc = TimeControl::parse_pgn("40/5400+30:1800+30").unwrap();
/// assert_eq!(tc.to_pgn(), "40/5400+30:1800+30");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum TimeControl {
    /// No clock.
    #[default]
    Unlimited,
    /// One or more periods; a last period with a move count repeats.
    Clock(Vec<Period>),
    /// Correspondence: each move must be made within this many days; time does not carry over.
    Correspondence {
        /// Days allowed for each move.
        days_per_move: u32,
    },
}

/// A `TimeControl` tag that could not be read.
///
/// ```
/// use vizier_arbiter::{TimeControl, TimeField};
/// assert_eq!(TimeControl::parse_pgn("300+x").unwrap_err().field, TimeField::Increment);
/// assert_eq!(TimeControl::parse_pgn("five").unwrap_err().field, TimeField::Base);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeControlError {
    /// The tag as given.
    pub tag: String,
    /// The part of a period that does not read.
    pub field: TimeField,
}

/// A part of a period of a `TimeControl` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeField {
    /// The move count before `/`: a whole number above 0.
    Moves,
    /// The period's time in seconds.
    Base,
    /// The increment after `+`, in seconds.
    Increment,
    /// The delay after `d` or `b`, in seconds.
    Delay,
}

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let field = match self.field {
            TimeField::Moves => "move count",
            TimeField::Base => "time",
            TimeField::Increment => "increment",
            TimeField::Delay => "delay",
        };
        write!(
            f,
            "time control \"{}\": the {field} is not understood (examples: 300+2, 40/5400+30:1800+30, 300d5, -)",
            self.tag
        )
    }
}

impl std::error::Error for TimeControlError {}

fn secs(ms: Millis) -> String {
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        format!("{}", ms as f64 / 1000.0)
    }
}

/// Seconds as PGN writes them: digits, with at most three more after a point (`300`,
/// `2.5`); nothing else (no sign, exponent or space), and less than 10¹² s.
fn parse_secs(s: &str) -> Option<Millis> {
    let (whole, fraction) = s.split_once('.').unwrap_or((s, ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || whole.len() > 12 || !digits(whole) || fraction.len() > 3 {
        return None;
    }
    if s.contains('.') && (fraction.is_empty() || !digits(fraction)) {
        return None;
    }
    let whole: Millis = whole.parse().ok()?;
    let thousandths: Millis = format!("{fraction:0<3}").parse().ok()?;
    Some(whole * 1_000 + thousandths)
}

impl TimeControl {
    /// Sudden death with an increment (both in ms).
    ///
    /// ```
    /// assert_eq!(vizier_arbiter::TimeControl::sudden_death(180_000, 2_000).to_pgn(), "180+2");
    /// ```
    pub fn sudden_death(base_ms: Millis, increment_ms: Millis) -> TimeControl {
        TimeControl::Clock(vec![Period::rest_of_game(base_ms, increment_ms)])
    }

    /// Reads a PGN `TimeControl` tag: `-` (none), `300` (sudden death, seconds), `300+2`
    /// (increment), `40/5400+30:1800+30` (periods). Vizier extensions: a delay `d5` (simple) or
    /// `b5` (Bronstein) after a period's time, and correspondence written `1/259200` (one move,
    /// a whole number of days, alone).
    ///
    /// ```
    /// use vizier_arbiter::{Delay, TimeControl};
    /// let TimeControl::Clock(p) = TimeControl::parse_pgn("300b5").unwrap() else { panic!() };
    /// assert_eq!(p[0].delay, Delay::Bronstein(5_000));
    /// assert_eq!(TimeControl::parse_pgn("1/172800").unwrap(), TimeControl::Correspondence { days_per_move: 2 });
    /// assert_eq!(TimeControl::parse_pgn("*").unwrap(), TimeControl::Unlimited);
    /// ```
    pub fn parse_pgn(tag: &str) -> Result<TimeControl, TimeControlError> {
        let err = |field| {
            move || TimeControlError {
                tag: tag.to_string(),
                field,
            }
        };
        let tag = tag.trim();
        // "-" is PGN's "no time control"; "?" and a bare "*" say nothing usable.
        if tag == "-" || tag == "?" || tag == "*" || tag.is_empty() {
            return Ok(TimeControl::Unlimited);
        }
        let mut periods = Vec::new();
        for field in tag.split(':') {
            let (moves, rest) = match field.split_once('/') {
                Some((m, r)) => (
                    Some(
                        m.parse::<u32>()
                            .ok()
                            .filter(|&m| m > 0)
                            .ok_or_else(err(TimeField::Moves))?,
                    ),
                    r,
                ),
                None => (None, field),
            };
            let (time, increment) = match rest.split_once('+') {
                Some((t, i)) => (t, parse_secs(i).ok_or_else(err(TimeField::Increment))?),
                None => (rest, 0),
            };
            let (base, delay) = if let Some((b, d)) = time.split_once('d') {
                (
                    b,
                    Delay::Simple(parse_secs(d).ok_or_else(err(TimeField::Delay))?),
                )
            } else if let Some((b, d)) = time.split_once('b') {
                (
                    b,
                    Delay::Bronstein(parse_secs(d).ok_or_else(err(TimeField::Delay))?),
                )
            } else {
                (time, Delay::None)
            };
            let base_ms = parse_secs(base).ok_or_else(err(TimeField::Base))?;
            periods.push(Period {
                moves,
                base_ms,
                increment_ms: increment,
                delay,
            });
        }
        if let [
            Period {
                moves: Some(1),
                base_ms,
                increment_ms: 0,
                delay: Delay::None,
            },
        ] = periods[..]
            && base_ms > 0
            && base_ms % 86_400_000 == 0
        {
            return Ok(TimeControl::Correspondence {
                days_per_move: (base_ms / 86_400_000) as u32,
            });
        }
        Ok(TimeControl::Clock(periods))
    }

    /// The `TimeControl` tag as the PGN standard writes it (`40/5400+30:1800+30`, `300+2`):
    /// delays, which the standard has no form for, are left out ([`TimeControl::pgn_delay`]
    /// gives them), so that every PGN reader understands the tag.
    ///
    /// ```
    /// let tc = vizier_arbiter::TimeControl::parse_pgn("180d5").unwrap();
    /// assert_eq!((tc.to_pgn_standard(), tc.pgn_delay().as_deref()), ("180".into(), Some("d5")));
    /// ```
    pub fn to_pgn_standard(&self) -> String {
        match self {
            TimeControl::Clock(periods) => TimeControl::Clock(
                periods
                    .iter()
                    .map(|p| Period {
                        delay: Delay::None,
                        ..*p
                    })
                    .collect(),
            )
            .to_pgn(),
            _ => self.to_pgn(),
        }
    }

    /// The periods' delays as Vizier writes them in its own `Delay` tag (`d5`: simple, `b5`:
    /// Bronstein; periods apart by `:`, `-` for a period without one); `None` without delays.
    ///
    /// ```
    /// let tc = vizier_arbiter::TimeControl::parse_pgn("40/5400b30:1800").unwrap();
    /// assert_eq!(tc.pgn_delay().as_deref(), Some("b30:-"));
    /// ```
    pub fn pgn_delay(&self) -> Option<String> {
        let TimeControl::Clock(periods) = self else {
            return None;
        };
        if periods.iter().all(|p| p.delay == Delay::None) {
            return None;
        }
        let each = periods.iter().map(|p| match p.delay {
            Delay::None => "-".to_string(),
            Delay::Simple(d) => format!("d{}", secs(d)),
            Delay::Bronstein(d) => format!("b{}", secs(d)),
        });
        Some(each.collect::<Vec<_>>().join(":"))
    }

    /// Writes the time control in Vizier's own form, which [`TimeControl::parse_pgn`] reads
    /// back: the PGN standard's, with `dN`/`bN` for delays.
    ///
    /// ```
    /// assert_eq!(vizier_arbiter::TimeControl::Unlimited.to_pgn(), "-");
    /// ```
    pub fn to_pgn(&self) -> String {
        match self {
            TimeControl::Unlimited => "-".into(),
            TimeControl::Correspondence { days_per_move } => {
                format!("1/{}", *days_per_move as u64 * 86_400)
            }
            TimeControl::Clock(periods) => periods
                .iter()
                .map(|p| {
                    let mut s = String::new();
                    if let Some(m) = p.moves {
                        s.push_str(&format!("{m}/"));
                    }
                    s.push_str(&secs(p.base_ms));
                    match p.delay {
                        Delay::None => {}
                        Delay::Simple(d) => s.push_str(&format!("d{}", secs(d))),
                        Delay::Bronstein(d) => s.push_str(&format!("b{}", secs(d))),
                    }
                    if p.increment_ms > 0 {
                        s.push_str(&format!("+{}", secs(p.increment_ms)));
                    }
                    s
                })
                .collect::<Vec<_>>()
                .join(":"),
        }
    }

    /// The FIDE speed class: all base time plus 60 × the first period's increment (and delay).
    ///
    /// ```
    /// use vizier_arbiter::{Speed, TimeControl};
    /// assert_eq!(TimeControl::sudden_death(600_000, 0).speed(), Speed::Blitz); // exactly 10 min
    /// assert_eq!(TimeControl::sudden_death(600_000, 1_000).speed(), Speed::Rapid); // 10 + 1
    /// ```
    pub fn speed(&self) -> Speed {
        match self {
            TimeControl::Unlimited => Speed::Unlimited,
            TimeControl::Correspondence { .. } => Speed::Correspondence,
            TimeControl::Clock(periods) => {
                let first = periods
                    .first()
                    .copied()
                    .unwrap_or(Period::rest_of_game(0, 0));
                let total: Millis = periods.iter().map(|p| p.base_ms).sum::<Millis>()
                    + 60 * (first.increment_ms + first.delay.ms());
                if total <= 600_000 {
                    Speed::Blitz
                } else if total < 3_600_000 {
                    Speed::Rapid
                } else {
                    Speed::Standard
                }
            }
        }
    }
}

/// What happened when a move was completed on the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Charge {
    /// The move was in time; the mover's clock now shows this many ms.
    InTime(Millis),
    /// The flag fell at this instant, before the move was completed.
    Flagged(Millis),
}

/// Both clocks of a game.
///
/// ```
/// use vizier_arbiter::{Charge, Clock, TimeControl};
/// use vizier_rules::Color;
/// let mut clock = Clock::new(&TimeControl::sudden_death(60_000, 1_000));
/// clock.start(Color::White, 0);
/// assert_eq!(clock.complete_move(Color::White, 10_000), Charge::InTime(51_000));
/// clock.start(Color::Black, 10_000);
/// assert_eq!(clock.flag_time(), Some((Color::Black, 10_000 + 60_000)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Shared: a game's views copy its clock at every move.
    control: Arc<TimeControl>,
    remaining: [Millis; 2],
    /// Correspondence: time given to a side whose clock is stopped, kept for its next move.
    bonus: [Millis; 2],
    period: [usize; 2],
    moves_in_period: [u32; 2],
    running: Option<(Color, Millis)>,
    /// Sides that berserked: half their time, no increment.
    berserk: [bool; 2],
    /// Correspondence vacations (none in most games: nothing to copy).
    away: Option<Arc<away::Away>>,
}

impl Clock {
    /// Clocks set for the start of a game, stopped.
    ///
    /// ```
    /// let clock = vizier_arbiter::Clock::new(&vizier_arbiter::TimeControl::sudden_death(300_000, 0));
    /// assert_eq!(clock.remaining(vizier_rules::Color::Black, 0), Some(300_000));
    /// ```
    pub fn new(control: &TimeControl) -> Clock {
        let initial = match control {
            TimeControl::Unlimited => 0,
            TimeControl::Correspondence { days_per_move } => *days_per_move as Millis * 86_400_000,
            TimeControl::Clock(p) => p.first().map_or(0, |p| p.base_ms),
        };
        Clock {
            control: Arc::new(control.clone()),
            remaining: [initial; 2],
            bonus: [0; 2],
            period: [0; 2],
            moves_in_period: [0; 2],
            running: None,
            berserk: [false; 2],
            away: None,
        }
    }

    /// The time `color` is charged between `since` and `now`: vacations are not.
    fn used(&self, color: Color, since: Millis, now: Millis) -> Millis {
        match &self.away {
            Some(away) => away.used(color.index(), since, now),
            None => now.saturating_sub(since),
        }
    }

    /// Correspondence: `color` is on vacation from `from` until `until` — their clock does
    /// not run then; `until <= from` ends a vacation under way.
    ///
    /// ```
    /// use vizier_arbiter::{Clock, TimeControl};
    /// use vizier_rules::Color::White;
    /// const DAY: u64 = 86_400_000;
    /// let mut c = Clock::new(&TimeControl::Correspondence { days_per_move: 3 });
    /// c.start(White, 0);
    /// c.set_away(White, DAY, 5 * DAY);
    /// assert_eq!(c.away_until(White, 2 * DAY), Some(5 * DAY));
    /// assert_eq!(c.remaining(White, 5 * DAY), Some(2 * DAY));
    /// assert_eq!(c.flag_time(), Some((White, 7 * DAY)));
    /// ```
    pub fn set_away(&mut self, color: Color, from: Millis, until: Millis) {
        let away = Arc::make_mut(self.away.get_or_insert_with(Default::default));
        away.set(color.index(), from, until);
    }

    /// Until when `color` is on vacation at `now`, if they are.
    pub fn away_until(&self, color: Color, now: Millis) -> Option<Millis> {
        self.away.as_ref()?.until(color.index(), now)
    }

    /// `color` berserks: half the time it has left (rounded down to the second), and no
    /// increment from now on.
    ///
    /// ```
    /// use vizier_arbiter::{Clock, TimeControl};
    /// use vizier_rules::Color;
    /// let mut c = Clock::new(&TimeControl::sudden_death(180_000, 2_000));
    /// c.berserk(Color::White);
    /// assert_eq!(c.remaining(Color::White, 0), Some(90_000));
    /// assert!(c.berserked(Color::White) && !c.berserked(Color::Black));
    /// ```
    pub fn berserk(&mut self, color: Color) {
        let i = color.index();
        self.remaining[i] = self.remaining[i] / 2 / 1_000 * 1_000;
        self.berserk[i] = true;
    }

    /// Whether `color` berserked.
    pub fn berserked(&self, color: Color) -> bool {
        self.berserk[color.index()]
    }

    /// The period `color` is playing in (`None` without periods).
    ///
    /// ```
    /// use vizier_arbiter::{Clock, TimeControl};
    /// let c = Clock::new(&TimeControl::parse_pgn("40/5400+30:1800+30").unwrap());
    /// assert_eq!(c.current_period(vizier_rules::Color::White).unwrap().moves, Some(40));
    /// ```
    pub fn current_period(&self, color: Color) -> Option<Period> {
        match &*self.control {
            TimeControl::Clock(p) => p.get(self.period[color.index()]).copied(),
            _ => None,
        }
    }

    /// Moves `color` still has to make in the current period, if it has a move count.
    ///
    /// ```
    /// use vizier_arbiter::{Clock, TimeControl};
    /// use vizier_rules::Color::White;
    /// let mut c = Clock::new(&TimeControl::parse_pgn("40/5400+30:1800+30").unwrap());
    /// c.start(White, 0);
    /// c.complete_move(White, 1_000);
    /// assert_eq!(c.moves_to_go(White), Some(39));
    /// ```
    pub fn moves_to_go(&self, color: Color) -> Option<u32> {
        let moves = self.current_period(color)?.moves?;
        Some(moves.saturating_sub(self.moves_in_period[color.index()]))
    }

    /// Of a simple delay, what is left at `now` for the running side before its main time moves.
    ///
    /// ```
    /// use vizier_arbiter::{Clock, TimeControl};
    /// let mut c = Clock::new(&TimeControl::parse_pgn("60d5").unwrap());
    /// c.start(vizier_rules::Color::White, 1_000);
    /// assert_eq!(c.delay_left(3_000), 3_000);
    /// assert_eq!(c.delay_left(9_000), 0);
    /// ```
    pub fn delay_left(&self, now: Millis) -> Millis {
        match self.running {
            Some((color, since)) => match self.delay(color) {
                Delay::Simple(d) => (since + d).saturating_sub(now),
                _ => 0,
            },
            None => 0,
        }
    }

    /// Whether there is a clock at all.
    ///
    /// ```
    /// assert!(!vizier_arbiter::Clock::new(&vizier_arbiter::TimeControl::Unlimited).is_timed());
    /// ```
    pub fn is_timed(&self) -> bool {
        !matches!(*self.control, TimeControl::Unlimited)
    }

    /// The time control.
    ///
    /// ```
    /// let c = vizier_arbiter::Clock::new(&vizier_arbiter::TimeControl::Unlimited);
    /// assert_eq!(c.control(), &vizier_arbiter::TimeControl::Unlimited);
    /// ```
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// Starts `color`'s clock at `now` (stopping the other).
    ///
    /// ```
    /// let mut c = vizier_arbiter::Clock::new(&vizier_arbiter::TimeControl::sudden_death(1_000, 0));
    /// c.start(vizier_rules::Color::White, 5);
    /// assert_eq!(c.running(), Some(vizier_rules::Color::White));
    /// ```
    pub fn start(&mut self, color: Color, now: Millis) {
        if let TimeControl::Correspondence { days_per_move } = *self.control {
            let i = color.index();
            self.remaining[i] =
                days_per_move as Millis * 86_400_000 + std::mem::take(&mut self.bonus[i]);
        }
        if self.is_timed() {
            self.running = Some((color, now));
        }
    }

    /// Stops the running clock at `now`, charging the time used (for adjournment).
    ///
    /// ```
    /// use vizier_rules::Color;
    /// let mut c = vizier_arbiter::Clock::new(&vizier_arbiter::TimeControl::sudden_death(10_000, 0));
    /// c.start(Color::White, 0);
    /// c.stop(3_000);
    /// assert_eq!((c.running(), c.remaining(Color::White, 9_000)), (None, Some(7_000)));
    /// ```
    pub fn stop(&mut self, now: Millis) {
        if let Some((color, since)) = self.running.take() {
            let used = self.used(color, since, now);
            let net = match self.delay(color) {
                Delay::None => used,
                Delay::Simple(d) => used.saturating_sub(d),
                Delay::Bronstein(d) => used - used.min(d),
            };
            let i = color.index();
            self.remaining[i] = self.remaining[i].saturating_sub(net);
        }
    }

    /// The side whose clock runs.
    ///
    /// ```
    /// assert_eq!(vizier_arbiter::Clock::new(&vizier_arbiter::TimeControl::Unlimited).running(), None);
    /// ```
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(c, _)| c)
    }

    /// The delay that applies to `color`'s current move.
    fn delay(&self, color: Color) -> Delay {
        self.current_period(color).map_or(Delay::None, |p| p.delay)
    }

    /// When the running clock's flag falls, if nothing happens before.
    ///
    /// ```
    /// use vizier_arbiter::{Clock, TimeControl};
    /// let mut c = Clock::new(&TimeControl::parse_pgn("60d5").unwrap());
    /// c.start(vizier_rules::Color::White, 1_000);
    /// assert_eq!(c.flag_time(), Some((vizier_rules::Color::White, 66_000))); // delay first
    /// ```
    pub fn flag_time(&self) -> Option<(Color, Millis)> {
        let (color, since) = self.running?;
        let grace = match self.delay(color) {
            Delay::Simple(d) => d,
            _ => 0,
        };
        let budget = grace + self.remaining[color.index()];
        Some(match &self.away {
            Some(away) => (color, away.runs_out(color.index(), since, budget)),
            None => (color, since + budget),
        })
    }

    /// What `color`'s clock shows at `now` (`None` without a clock). During a simple delay
    /// the main time does not move.
    ///
    /// ```
    /// use vizier_rules::Color;
    /// let mut c = vizier_arbiter::Clock::new(&vizier_arbiter::TimeControl::sudden_death(10_000, 0));
    /// c.start(Color::White, 0);
    /// assert_eq!(c.remaining(Color::White, 4_000), Some(6_000));
    /// assert_eq!(c.remaining(Color::White, 40_000), Some(0));
    /// ```
    pub fn remaining(&self, color: Color, now: Millis) -> Option<Millis> {
        if !self.is_timed() {
            return None;
        }
        let base = self.remaining[color.index()];
        Some(match self.running {
            Some((c, since)) if c == color => {
                let used = self.used(color, since, now);
                let used = match self.delay(color) {
                    Delay::Simple(d) => used.saturating_sub(d),
                    _ => used,
                };
                base.saturating_sub(used)
            }
            _ => base,
        })
    }

    /// The number of the period `color` is in (0-based) and the moves made in it.
    ///
    /// ```
    /// let c = vizier_arbiter::Clock::new(&vizier_arbiter::TimeControl::Unlimited);
    /// assert_eq!(c.period(vizier_rules::Color::White), (0, 0));
    /// ```
    pub fn period(&self, color: Color) -> (usize, u32) {
        (
            self.period[color.index()],
            self.moves_in_period[color.index()],
        )
    }

    /// Adds time to a clock (a penalty for the opponent, or an arbiter's decision).
    ///
    /// ```
    /// use vizier_rules::Color;
    /// let mut c = vizier_arbiter::Clock::new(&vizier_arbiter::TimeControl::sudden_death(10_000, 0));
    /// c.add(Color::Black, 120_000);
    /// assert_eq!(c.remaining(Color::Black, 0), Some(130_000));
    /// ```
    ///
    /// In correspondence a stopped clock keeps the time for its next move, which starts afresh:
    ///
    /// ```
    /// use vizier_arbiter::{Clock, TimeControl};
    /// use vizier_rules::Color::{Black, White};
    /// let mut c = Clock::new(&TimeControl::Correspondence { days_per_move: 1 });
    /// c.start(White, 0);
    /// c.add(Black, 120_000);
    /// c.complete_move(White, 1_000);
    /// c.start(Black, 1_000);
    /// assert_eq!(c.remaining(Black, 1_000), Some(86_400_000 + 120_000));
    /// ```
    pub fn add(&mut self, color: Color, ms: Millis) {
        let i = color.index();
        match *self.control {
            TimeControl::Correspondence { .. } if self.running() != Some(color) => {
                self.bonus[i] += ms;
            }
            _ => self.remaining[i] += ms,
        }
    }

    /// Sets `color`'s time to what `other` shows for it at `now` (the rest of this clock
    /// stays): for undoing a move on the clock while keeping the time since.
    pub(crate) fn take_remaining(&mut self, other: &Clock, color: Color, now: Millis) {
        let i = color.index();
        if let Some(ms) = other.remaining(color, now) {
            self.remaining[i] = ms;
        }
        self.bonus[i] = other.bonus[i];
    }

    /// `color` completes a move at `now`: time used is charged (less any delay), and if the flag
    /// had not fallen the increment is added and the period advanced. The clock then stops;
    /// start the opponent's with [`Clock::start`].
    ///
    /// ```
    /// use vizier_arbiter::{Charge, Clock, TimeControl};
    /// use vizier_rules::Color;
    /// let mut c = Clock::new(&TimeControl::sudden_death(5_000, 2_000));
    /// c.start(Color::White, 0);
    /// assert_eq!(c.complete_move(Color::White, 6_000), Charge::Flagged(5_000)); // no increment
    /// ```
    pub fn complete_move(&mut self, color: Color, now: Millis) -> Charge {
        let i = color.index();
        let Some((running, since)) = self.running.take().filter(|(c, _)| *c == color) else {
            // The clock was not running for this side (online start): nothing is charged.
            self.count_move(color);
            return Charge::InTime(self.remaining[i]);
        };
        debug_assert_eq!(running, color);
        let used = self.used(color, since, now);
        let delay = self.delay(color);
        let charged = match delay {
            Delay::Simple(d) => used.saturating_sub(d),
            _ => used,
        };
        if charged > self.remaining[i] {
            let grace = if let Delay::Simple(d) = delay { d } else { 0 };
            let budget = grace + self.remaining[i];
            let fell_at = match &self.away {
                Some(away) => away.runs_out(i, since, budget),
                None => since + budget,
            };
            self.remaining[i] = 0;
            return Charge::Flagged(fell_at);
        }
        self.remaining[i] -= charged;
        if let Delay::Bronstein(d) = delay {
            self.remaining[i] += used.min(d);
        }
        if let TimeControl::Clock(_) = *self.control
            && !self.berserk[i]
        {
            let inc = self.current_period(color).map_or(0, |p| p.increment_ms);
            self.remaining[i] += inc;
        }
        self.count_move(color);
        Charge::InTime(self.remaining[i])
    }

    /// Counts a completed move against the period, entering the next period when it is done.
    fn count_move(&mut self, color: Color) {
        let TimeControl::Clock(periods) = &*self.control else {
            return;
        };
        let i = color.index();
        let Some(period) = periods.get(self.period[i]) else {
            return;
        };
        self.moves_in_period[i] += 1;
        if period.moves.is_some_and(|m| self.moves_in_period[i] >= m) {
            self.moves_in_period[i] = 0;
            // A last period with a move count repeats.
            let next = (self.period[i] + 1).min(periods.len() - 1);
            self.period[i] = next;
            self.remaining[i] += periods[next].base_ms;
        }
    }
}

#[cfg(test)]
mod tests;
