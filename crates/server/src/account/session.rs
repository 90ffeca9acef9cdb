//! Session tokens: 256 random bits in the cookie; only their SHA-256 is stored, so that the
//! database alone does not let anyone in.

use sha2::{Digest, Sha256};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A new session token.
pub fn token() -> String {
    hex(&rand::random::<[u8; 32]>())
}

/// What is stored of a token.
///
/// ```
/// let h = vizier_server::account::session::hash("abc");
/// assert_eq!(&h[..16], "ba7816bf8f01cfea");
/// ```
pub fn hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// A session's public id, for listing and ending it.
pub fn session_id() -> String {
    hex(&rand::random::<[u8; 8]>())
}

/// Whether `s` could be a token: 64 hex digits.
pub fn is_token(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
}
