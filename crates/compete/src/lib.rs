//! # vizier-compete
//!
//! Competitions on the server: round robins (the FIDE Berger tables) and Swiss tournaments
//! (the FIDE Dutch system), paired by `vizier-pairing`, played as ordinary games made through
//! the hub's game policy, and scored as those games end — the [`Director`] hears each end on
//! the site's stream, as any subscriber does; no game knows it is in a tournament.
//!
//! - [`model`]: what a tournament holds, as stored (a JSON document);
//! - [`report`]: the tournament as a TRF, standings with the FIDE tie-breaks, the crosstable;
//! - [`rounds`]: who plays whom in the next round;
//! - [`director`]: the live side: entries, start times, rounds, results, forfeits.

pub mod arena;
pub mod director;
pub mod model;
pub mod report;
pub mod rounds;

pub use director::{CompeteError, Director, Member, NewTournament, Paired};
pub use model::{BoardResult, Entry, Format, Status, Tournament};
