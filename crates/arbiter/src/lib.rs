//! # vizier-arbiter
//!
//! A game of chess under the FIDE Laws as a pure, deterministic state machine: commands with a
//! timestamp go in, events come out, and the log of accepted commands rebuilds the game. Time
//! is always an input; nothing here reads the operating system's clock.
//!
//! ```
//! use vizier_arbiter::{Command, Event, Game, Setup, TimeControl};
//! use vizier_rules::Color::White;
//! let setup = Setup { control: TimeControl::sudden_death(60_000, 1_000), ..Setup::default() };
//! let mut game = Game::new(setup, 0).unwrap();
//! let events = game.apply(2_500, Command::Move { by: White, mv: "e4".into() }).unwrap();
//! assert!(matches!(&events[0], Event::Moved { clock_ms: Some(58_500), .. }));
//! ```

mod clock;
mod game;
mod outcome;
mod scoresheet;

pub use clock::{
    Charge, Clock, Delay, Millis, Period, Speed, TimeControl, TimeControlError, TimeField,
};
pub use game::{
    Adjournment, Claim, ClockStart, Command, CommandError, Event, Game, Mode, Notation, Notes,
    Options, Ply, Setup, SetupError, StartPosition,
};
pub use outcome::{GameResult, Outcome};
pub use scoresheet::{Annotation, Tags};
pub use vizier_rules::{ENDINGS, Ending, Reason};
