//! The ids games and players are known by. Each is its own type, so that a game's id is never
//! passed where a player's is meant; the text they wrap is what the database stores and the
//! wire carries.

use std::fmt;
use std::sync::Arc;

/// The longest id the server reads from outside (a URL, a message); ids it makes are shorter.
const MAX_LEN: usize = 32;

/// Letters and digits that cannot be confused (no 0/O, 1/l/I).
const CLEAR: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// A random token of `len` letters and digits that cannot be confused, for an id or an
/// invite.
///
/// ```
/// let t = vizier_store::ids::random_token(16);
/// assert!(t.len() == 16 && t.bytes().all(|b| b.is_ascii_alphanumeric()));
/// ```
pub fn random_token(len: usize) -> String {
    use rand::Rng;
    let mut rng = rand::rng();
    (0..len)
        .map(|_| CLEAR[rng.random_range(0..CLEAR.len())] as char)
        .collect()
}

/// Whether `s` reads as an id: 1 to 32 ASCII letters, digits, `-` or `_`.
fn readable(s: &str) -> bool {
    (1..=MAX_LEN).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

macro_rules! id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
        #[serde(transparent)]
        // Shared text: ids are copied into every event, snapshot and message about a game.
        pub struct $name(Arc<str>);

        impl $name {
            /// The id `s`, if it reads as one (1 to 32 ASCII letters, digits, `-` or `_`):
            /// for ids from outside.
            pub fn parse(s: &str) -> Option<$name> {
                readable(s).then(|| $name(s.into()))
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({:?})", stringify!($name), self.0)
            }
        }

        impl std::borrow::Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                &*self.0 == other
            }
        }

        impl PartialEq<&$name> for $name {
            fn eq(&self, other: &&$name) -> bool {
                self == *other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                &*self.0 == *other
            }
        }
    };
}

id! {
    /// A game's id: ten letters and digits that cannot be confused, in its URL.
    ///
    /// ```
    /// use vizier_store::ids::GameId;
    /// let id = GameId::random();
    /// assert_eq!(GameId::parse(id.as_str()), Some(id));
    /// assert_eq!(GameId::parse("../etc/passwd"), None);
    /// ```
    GameId
}

id! {
    /// A person's id, from their signed cookie: a guest's, or an account's (the id its games
    /// are seated under).
    ///
    /// ```
    /// use vizier_store::ids::PlayerId;
    /// let p = PlayerId::random();
    /// assert_eq!(p.as_str().len(), 32);
    /// assert_ne!(p, PlayerId::random());
    /// ```
    PlayerId
}

impl GameId {
    /// A new game's id.
    pub fn random() -> GameId {
        GameId(random_token(10).into())
    }

    /// The id stored in a row, as it was written (trusted: the store wrote it).
    pub fn stored(s: String) -> GameId {
        GameId(s.into())
    }
}

impl PlayerId {
    /// A new player's id: 16 random bytes in hex.
    pub fn random() -> PlayerId {
        let bytes: [u8; 16] = rand::random();
        PlayerId(
            bytes
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
                .into(),
        )
    }

    /// The id of a player known to the server: from a row the store wrote, or a cookie it
    /// signed.
    pub fn known(s: impl Into<String>) -> PlayerId {
        PlayerId(s.into().into())
    }
}
