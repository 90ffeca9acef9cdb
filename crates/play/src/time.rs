//! The time of day, as live play reads it: Unix time in milliseconds.

use std::time::{SystemTime, UNIX_EPOCH};

use vizier_arbiter::Millis;

/// Unix time in ms.
pub fn now_ms() -> Millis {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as Millis)
}
