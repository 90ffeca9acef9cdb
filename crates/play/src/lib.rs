//! # vizier-play
//!
//! Live play, below the web server and above the store: the [`hub`] of live games (creating,
//! finding, restoring them), one actor per game ([`round`], by concern as lichess's round
//! module) that applies each command under the Laws, has the store commit it, and publishes
//! typed events to its subscribers; the computer's seat; and the game [`policy`] every new
//! game passes. It knows neither HTTP nor the web protocol: the web socket is one subscriber
//! among others.

pub mod act;
pub mod hub;
pub mod ids;
pub mod limits;
pub mod metrics;
pub mod opening;
pub mod policy;
pub mod prover;
pub mod refusal;
pub mod round;
pub mod settings;
pub mod time;

pub use act::{Act, Action};
pub use hub::{Hub, HubError, NewGame};
pub use limits::Limits;
pub use refusal::{Refusal, Why};
pub use settings::Settings;
