//! Passwords, hashed with argon2id (the `argon2` crate's defaults: 19 MiB, 2 passes). A hash
//! takes tens of milliseconds of a core, so hashing runs off the async threads, a few at a
//! time: a flood of sign-ups waits rather than taking every core.

use std::fmt;
use std::sync::Arc;

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use tokio::sync::Semaphore;

/// Passwords shorter than this are refused.
pub const MIN_LEN: usize = 4;
/// Longer than this (bytes) is refused: a hash's cost grows with it.
pub const MAX_LEN: usize = 256;

/// Why a password was refused, or could not be checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PasswordError {
    TooShort,
    TooLong,
    /// The same as the username, ignoring case.
    SameAsName,
    /// Hashing failed (never for valid input).
    Hash(String),
}

impl fmt::Display for PasswordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PasswordError::TooShort => write!(f, "a password has at least {MIN_LEN} characters"),
            PasswordError::TooLong => write!(f, "a password has at most {MAX_LEN} bytes"),
            PasswordError::SameAsName => f.write_str("the password cannot be the username"),
            PasswordError::Hash(e) => write!(f, "cannot hash the password: {e}"),
        }
    }
}

impl std::error::Error for PasswordError {}

/// Whether `password` may be a new password of `name`.
pub fn check_new(password: &str, name: &str) -> Result<(), PasswordError> {
    if password.chars().count() < MIN_LEN {
        return Err(PasswordError::TooShort);
    }
    if password.len() > MAX_LEN {
        return Err(PasswordError::TooLong);
    }
    if password.eq_ignore_ascii_case(name) {
        return Err(PasswordError::SameAsName);
    }
    Ok(())
}

/// The password hasher, shared by the server.
#[derive(Clone)]
pub struct Passwords {
    running: Arc<Semaphore>,
    /// What an unknown name's password is checked against, so that it takes as long.
    decoy: Arc<str>,
}

impl Default for Passwords {
    fn default() -> Passwords {
        Passwords::new(2)
    }
}

impl Passwords {
    /// A hasher that runs `at_once` hashes at a time.
    pub fn new(at_once: usize) -> Passwords {
        let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
        let decoy = Argon2::default()
            .hash_password(b"not anyone's password", &salt)
            .map(|h| h.to_string())
            .unwrap_or_default();
        Passwords {
            running: Arc::new(Semaphore::new(at_once.max(1))),
            decoy: decoy.into(),
        }
    }

    async fn run<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> T {
        let _permit = self.running.acquire().await;
        match tokio::task::spawn_blocking(work).await {
            Ok(done) => done,
            Err(e) => std::panic::resume_unwind(e.into_panic()),
        }
    }

    /// An argon2id hash of `password` with a fresh salt, in PHC form.
    pub async fn hash(&self, password: &str) -> Result<String, PasswordError> {
        let password = password.to_string();
        self.run(move || {
            let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
            Argon2::default()
                .hash_password(password.as_bytes(), &salt)
                .map(|h| h.to_string())
                .map_err(|e| PasswordError::Hash(e.to_string()))
        })
        .await
    }

    /// Whether `password` matches `hash`; with no hash (an unknown name) it checks against
    /// a decoy, taking as long, and says no.
    pub async fn verify(&self, password: &str, hash: Option<&str>) -> Result<bool, PasswordError> {
        if password.len() > MAX_LEN {
            return Ok(false);
        }
        let known = hash.is_some_and(|h| !h.is_empty());
        let hash = if known {
            hash.unwrap_or_default().to_string()
        } else {
            self.decoy.to_string()
        };
        let password = password.to_string();
        let matched = self
            .run(move || match PasswordHash::new(&hash) {
                Ok(parsed) => Argon2::default()
                    .verify_password(password.as_bytes(), &parsed)
                    .is_ok(),
                Err(_) => false,
            })
            .await;
        Ok(known && matched)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_verify_and_differ() {
        let p = Passwords::new(2);
        let a = p.hash("correct horse").await.unwrap();
        let b = p.hash("correct horse").await.unwrap();
        assert!(a.starts_with("$argon2id$"), "{a}");
        assert_ne!(a, b, "salted");
        assert!(p.verify("correct horse", Some(&a)).await.unwrap());
        assert!(!p.verify("correct horsE", Some(&a)).await.unwrap());
        assert!(!p.verify("correct horse", None).await.unwrap());
        assert!(!p.verify("", Some("")).await.unwrap());
        assert!(!p.verify("x", Some("not a hash")).await.unwrap());
    }

    #[test]
    fn new_passwords() {
        assert_eq!(check_new("abc", "ann"), Err(PasswordError::TooShort));
        assert_eq!(check_new("密码密码", "ann"), Ok(()));
        assert_eq!(
            check_new(&"x".repeat(257), "ann"),
            Err(PasswordError::TooLong)
        );
        assert_eq!(check_new("Ann_1", "ann_1"), Err(PasswordError::SameAsName));
    }
}
