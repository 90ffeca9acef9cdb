//! Usernames: 2 to 20 letters, digits, `_` and `-`, unique ignoring case.

use std::fmt;

/// A valid username, as its owner spelled it.
///
/// ```
/// use vizier_server::account::{NameError, Username};
/// assert_eq!(Username::parse("Magnus_C").unwrap().as_str(), "Magnus_C");
/// assert_eq!(Username::parse("x"), Err(NameError::Length));
/// assert_eq!(Username::parse("王"), Err(NameError::Character));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Username(String);

/// Why a name is not a username.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameError {
    /// Fewer than 2 or more than 20 characters.
    Length,
    /// A character other than ASCII letters, digits, `_` and `-`.
    Character,
    /// A name kept for the site itself, or one that would pass for it.
    Reserved,
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NameError::Length => "a username has 2 to 20 characters",
            NameError::Character => "a username has only letters, digits, _ and -",
            NameError::Reserved => "this username is reserved",
        })
    }
}

impl std::error::Error for NameError {}

impl Username {
    pub const MIN: usize = 2;
    pub const MAX: usize = 20;

    pub fn parse(name: &str) -> Result<Username, NameError> {
        if !name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        {
            return Err(NameError::Character);
        }
        if !(Self::MIN..=Self::MAX).contains(&name.len()) {
            return Err(NameError::Length);
        }
        if is_reserved(name) {
            return Err(NameError::Reserved);
        }
        Ok(Username(name.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Names nobody may take: they would pass for the site, its staff or its computer player.
const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "root",
    "superuser",
    "vizier",
    "anonymous",
    "anon",
    "moderator",
    "mod",
    "system",
    "sysop",
    "support",
    "staff",
    "official",
    "owner",
    "computer",
    "engine",
    "stockfish",
    "null",
    "undefined",
    "api",
    "www",
    "help",
    "security",
    "abuse",
    "postmaster",
    "webmaster",
];

/// Whether `name` is reserved, ignoring case, `_` and `-` (`Ad_Min` is `admin`), and a
/// reserved name followed by digits (`admin1`).
fn is_reserved(name: &str) -> bool {
    let plain: String = name
        .chars()
        .filter(|c| !matches!(c, '_' | '-'))
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let stem = plain.trim_end_matches(|c: char| c.is_ascii_digit());
    RESERVED.contains(&stem) || RESERVED.contains(&plain.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_names_are_refused_however_spelled() {
        for name in [
            "admin",
            "Admin",
            "ad_min",
            "ADMIN-",
            "root",
            "vizier",
            "Vizier2",
            "anonymous",
            "moderator",
            "system",
            "sys-tem",
        ] {
            assert_eq!(Username::parse(name), Err(NameError::Reserved), "{name}");
        }
        for name in ["administrative", "rooted", "vizierfan", "magnus", "mod_x"] {
            assert!(Username::parse(name).is_ok(), "{name}");
        }
    }

    #[test]
    fn names() {
        for ok in ["ab", "A-b_9", "12345678901234567890", "--"] {
            assert!(Username::parse(ok).is_ok(), "{ok}");
        }
        assert_eq!(Username::parse(""), Err(NameError::Length));
        assert_eq!(
            Username::parse("123456789012345678901"),
            Err(NameError::Length)
        );
        for bad in ["a b", "ab!", "émile", "a\0b", "名字"] {
            assert_eq!(Username::parse(bad), Err(NameError::Character), "{bad}");
        }
    }
}
