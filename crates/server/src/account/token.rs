//! Personal API tokens, as lichess's: a random token sent as `Authorization: Bearer …`, with
//! the scopes its owner gave it. Only its SHA-256 is stored ([`super::session::hash`]).

use std::fmt;

/// What a token may be used for: lichess's names for the scopes a bot or a board needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Scope {
    BotPlay,
    BoardPlay,
    ChallengeRead,
    ChallengeWrite,
    PreferenceRead,
    TournamentWrite,
}

impl Scope {
    pub const ALL: [Scope; 6] = [
        Scope::BotPlay,
        Scope::BoardPlay,
        Scope::ChallengeRead,
        Scope::ChallengeWrite,
        Scope::PreferenceRead,
        Scope::TournamentWrite,
    ];

    /// Its name on the wire (`bot:play`).
    pub fn name(self) -> &'static str {
        match self {
            Scope::BotPlay => "bot:play",
            Scope::BoardPlay => "board:play",
            Scope::ChallengeRead => "challenge:read",
            Scope::ChallengeWrite => "challenge:write",
            Scope::PreferenceRead => "preference:read",
            Scope::TournamentWrite => "tournament:write",
        }
    }

    pub fn parse(s: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|c| c.name() == s)
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// A set of scopes.
///
/// ```
/// use vizier_server::account::token::{Scope, Scopes};
/// let s = Scopes::parse("challenge:read,bot:play").unwrap();
/// assert!(s.has(Scope::BotPlay) && !s.has(Scope::BoardPlay));
/// assert_eq!(s.to_string(), "bot:play,challenge:read");
/// assert_eq!(Scopes::parse("bot:play,web:mod"), Err("web:mod".to_string()));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scopes(u8);

impl Scopes {
    /// The scopes of a comma-separated list (empty items ignored); the first unknown name is
    /// the error.
    pub fn parse(list: &str) -> Result<Scopes, String> {
        Scopes::of(list.split(',').map(str::trim).filter(|s| !s.is_empty()))
    }

    /// The scopes named.
    pub fn of<'a>(names: impl IntoIterator<Item = &'a str>) -> Result<Scopes, String> {
        let mut set = Scopes::default();
        for name in names {
            let scope = Scope::parse(name).ok_or_else(|| name.to_string())?;
            set.0 |= scope.bit();
        }
        Ok(set)
    }

    pub fn has(self, scope: Scope) -> bool {
        self.0 & scope.bit() != 0
    }

    /// Whether any of `scopes` is in the set.
    pub fn any(self, scopes: &[Scope]) -> bool {
        scopes.iter().any(|&s| self.has(s))
    }

    pub fn iter(self) -> impl Iterator<Item = Scope> {
        Scope::ALL.into_iter().filter(move |&s| self.has(s))
    }
}

impl fmt::Display for Scopes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.iter().map(Scope::name).collect();
        f.write_str(&names.join(","))
    }
}

/// The prefix of every token this server makes, for people to recognise one.
const PREFIX: &str = "vzp_";

/// A new token: the prefix and 40 letters and digits (about 230 random bits).
///
/// ```
/// let t = vizier_server::account::token::new_token();
/// assert!(vizier_server::account::token::is_token(&t));
/// ```
pub fn new_token() -> String {
    format!("{PREFIX}{}", vizier_play::ids::random_token(40))
}

/// Whether `s` could be a token: lichess's alphabet (`A-Za-z0-9_`), 512 characters at most.
pub fn is_token(s: &str) -> bool {
    (1..=512).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// A token's public id, for listing and revoking it.
pub fn token_id() -> String {
    vizier_play::ids::random_token(12)
}
