//! The two cookies: the guest id (`vizier_player`, signed) and the session token
//! (`vizier_session`). Both HttpOnly, SameSite=Lax, on the whole site; over https `Secure`
//! and named with the `__Host-` prefix, which browsers accept only from a secure page, for
//! the whole host and no other, so that a neighbouring subdomain cannot plant one.

use axum_extra::extract::cookie::{Cookie, SameSite};
use vizier_play::ids::PlayerId;

use super::AppState;

/// How long a session may go unused before the server ends it (the cookie's life, renewed
/// with each use noted).
pub const SESSION_IDLE: time::Duration = time::Duration::days(30);
/// How long a browser keeps its guest id.
const GUEST_LIFE: time::Duration = time::Duration::days(400);

impl AppState {
    /// The guest id cookie's name.
    pub(super) fn player_cookie(&self) -> &'static str {
        if self.secure() {
            "__Host-vizier_player"
        } else {
            "vizier_player"
        }
    }

    /// The session cookie's name.
    pub(super) fn session_cookie(&self) -> &'static str {
        if self.secure() {
            "__Host-vizier_session"
        } else {
            "vizier_session"
        }
    }

    fn cookie(&self, name: &'static str, value: String, life: time::Duration) -> Cookie<'static> {
        Cookie::build((name, value))
            .path("/")
            .http_only(true)
            .same_site(SameSite::Lax)
            .secure(self.secure())
            .max_age(life)
            .build()
    }

    /// A cookie holding guest id `id`.
    pub(super) fn guest_cookie(&self, id: &PlayerId) -> Cookie<'static> {
        self.cookie(self.player_cookie(), id.to_string(), GUEST_LIFE)
    }

    /// A cookie holding session token `token`.
    pub(super) fn session_token_cookie(&self, token: String) -> Cookie<'static> {
        self.cookie(self.session_cookie(), token, SESSION_IDLE)
    }

    /// What removes the session cookie.
    pub(super) fn session_removal(&self) -> Cookie<'static> {
        Cookie::build(self.session_cookie())
            .path("/")
            .secure(self.secure())
            .build()
    }
}
