//! Passwords, hashed with argon2id (the `argon2` crate's defaults: 19 MiB, 2 passes). A hash
//! takes tens of milliseconds of a core, so hashing runs on a few threads of its own, each
//! reusing one block of memory for every hash: a flood of sign-ins waits in their queue
//! rather than taking every core, and the memory hashing takes is that of those threads,
//! however many come.

use std::fmt;
use std::sync::{Arc, Mutex};

use argon2::password_hash::{Output, PasswordHash, Salt, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use tokio::sync::{mpsc, oneshot};

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
    queue: mpsc::Sender<Job>,
    /// What an unknown name's password is checked against, so that it takes as long.
    decoy: Arc<str>,
}

/// A password thread's memory for argon2, kept from hash to hash.
type Memory = Vec<Block>;

/// A hash to make or check, and where its answer goes.
struct Job {
    work: Box<dyn FnOnce(&mut Memory) + Send>,
}

impl Default for Passwords {
    fn default() -> Passwords {
        Passwords::new(2)
    }
}

/// Hashes that may wait for a thread; more wait to be queued.
const QUEUE: usize = 64;

impl Passwords {
    /// A hasher of `threads` threads.
    pub fn new(threads: usize) -> Passwords {
        let (queue, jobs) = mpsc::channel::<Job>(QUEUE);
        let jobs = Arc::new(Mutex::new(jobs));
        for i in 0..threads.max(1) {
            let jobs = Arc::clone(&jobs);
            let spawned = std::thread::Builder::new()
                .name(format!("passwords-{i}"))
                .spawn(move || {
                    let mut memory = Vec::new();
                    loop {
                        let job = jobs
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .blocking_recv();
                        let Some(job) = job else { return };
                        (job.work)(&mut memory);
                    }
                });
            if let Err(e) = spawned {
                tracing::error!("password thread {i} did not start: {e}");
            }
        }
        let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
        let mut memory = Vec::new();
        let decoy = compute(
            new_hash_kind(),
            b"not anyone's password",
            salt.as_salt(),
            &mut memory,
        )
        .map(|h| h.to_string())
        .unwrap_or_default();
        Passwords {
            queue,
            decoy: decoy.into(),
        }
    }

    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Vec<Block>) -> T + Send + 'static,
    ) -> Result<T, PasswordError> {
        let (tx, rx) = oneshot::channel();
        let job = Job {
            work: Box::new(move |memory| {
                let _ = tx.send(work(memory));
            }),
        };
        let gone = || PasswordError::Hash("the password threads are gone".into());
        self.queue.send(job).await.map_err(|_| gone())?;
        rx.await.map_err(|_| gone())
    }

    /// An argon2id hash of `password` with a fresh salt, in PHC form.
    pub async fn hash(&self, password: &str) -> Result<String, PasswordError> {
        let password = password.to_string();
        self.run(move |memory| {
            let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
            compute(new_hash_kind(), password.as_bytes(), salt.as_salt(), memory)
                .map(|h| h.to_string())
                .map_err(|e| PasswordError::Hash(e.to_string()))
        })
        .await?
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
            .run(move |memory| matches(password.as_bytes(), &hash, memory))
            .await?;
        Ok(known && matched)
    }
}

/// The hash of `password` with `salt` by argon2 of `algorithm`, `version` and `params`, in
/// `memory` (grown to the size the parameters take, and kept for the next).
fn compute<'a>(
    (algorithm, version, params): (Algorithm, Version, Params),
    password: &[u8],
    salt: Salt<'a>,
    memory: &mut Vec<Block>,
) -> argon2::password_hash::Result<PasswordHash<'a>> {
    let blocks = params.block_count();
    if memory.len() < blocks {
        memory.resize(blocks, Block::default());
    }
    let mut salt_bytes = [0u8; 64];
    let salt_bytes = salt.decode_b64(&mut salt_bytes)?;
    let len = params.output_len().unwrap_or(Params::DEFAULT_OUTPUT_LEN);
    let phc_params = argon2::password_hash::ParamsString::try_from(&params)?;
    let argon = Argon2::new(algorithm, version, params);
    let output = Output::init_with(len, |out| {
        argon
            .hash_password_into_with_memory(password, salt_bytes, out, &mut memory[..blocks])
            .map_err(Into::into)
    })?;
    Ok(PasswordHash {
        algorithm: algorithm.ident(),
        version: Some(version.into()),
        params: phc_params,
        salt: Some(salt),
        hash: Some(output),
    })
}

/// What new hashes are made with: the crate's defaults (argon2id, v19, 19 MiB, 2 passes).
fn new_hash_kind() -> (Algorithm, Version, Params) {
    (Algorithm::Argon2id, Version::V0x13, Params::default())
}

/// Whether `password` is the one `phc` (a stored hash) was made of.
fn matches(password: &[u8], phc: &str, memory: &mut Vec<Block>) -> bool {
    let Ok(parsed) = PasswordHash::new(phc) else {
        return false;
    };
    let (Some(salt), Some(expected)) = (parsed.salt, parsed.hash) else {
        return false;
    };
    let algorithm = Algorithm::try_from(parsed.algorithm);
    let version = parsed
        .version
        .map_or(Ok(Version::default()), Version::try_from);
    let params = Params::try_from(&parsed);
    let (Ok(algorithm), Ok(version), Ok(params)) = (algorithm, version, params) else {
        return false;
    };
    compute((algorithm, version, params), password, salt, memory)
        .ok()
        .and_then(|h| h.hash)
        .is_some_and(|computed| computed == expected)
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
    fn hashes_are_the_crates_own_both_ways() {
        use argon2::password_hash::{PasswordHasher, PasswordVerifier};
        let mut memory = Vec::new();
        let salt = SaltString::generate(&mut argon2::password_hash::rand_core::OsRng);
        let ours = compute(new_hash_kind(), b"hunter42", salt.as_salt(), &mut memory).unwrap();
        let theirs = Argon2::default()
            .hash_password(b"hunter42", salt.as_salt())
            .unwrap();
        assert_eq!(ours.to_string(), theirs.to_string());
        let phc = ours.to_string();
        let parsed = PasswordHash::new(&phc).unwrap();
        assert!(
            Argon2::default()
                .verify_password(b"hunter42", &parsed)
                .is_ok()
        );
        // A hash made with other parameters checks too, in memory grown to fit.
        let other = Argon2::new(
            Algorithm::Argon2id,
            Version::V0x13,
            Params::new(32 * 1024, 1, 1, None).unwrap(),
        );
        let phc = other
            .hash_password(b"pw", salt.as_salt())
            .unwrap()
            .to_string();
        assert!(matches(b"pw", &phc, &mut memory));
        assert!(!matches(b"pX", &phc, &mut memory));
        assert_eq!(memory.len(), 32 * 1024);
    }

    #[tokio::test]
    async fn a_flood_of_checks_waits_its_turn_on_two_threads() {
        let p = Passwords::new(2);
        let h = p.hash("correct horse").await.unwrap();
        let checks = (0..40).map(|i| {
            let (p, h) = (p.clone(), h.clone());
            tokio::spawn(async move {
                p.verify(if i % 2 == 0 { "correct horse" } else { "no" }, Some(&h))
                    .await
            })
        });
        let results: Vec<bool> = futures_util::future::join_all(checks)
            .await
            .into_iter()
            .map(|r| r.unwrap().unwrap())
            .collect();
        assert_eq!(results.iter().filter(|&&ok| ok).count(), 20);
        let threads = std::fs::read_dir("/proc/self/task")
            .unwrap()
            .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
            .filter(|name| name.starts_with("passwords-"))
            .count();
        assert!(threads >= 2, "{threads}");
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
