//! Accounts: names ([`name`]), passwords ([`password`]) and sessions ([`session`]), and the
//! operations on them a player asks for. The HTTP side (cookies, forms, throttling) is in
//! `http::account`.
//!
//! A user's id is a player id, like a guest's: the guest id of the browser that signed up,
//! so the games it played are the account's. That browser is then given a fresh guest id,
//! so that signing out leaves nothing of the account in the browser.

pub mod name;
pub mod password;
pub mod session;
pub mod token;

use std::fmt;

pub use name::{NameError, Username};
pub use password::{PasswordError, Passwords};

use vizier_play::ids::PlayerId;
use vizier_store::{CreateUserError, NewSession, Store, StoreError, UserRow};

/// A signed-in player, as a request sees them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// The player id their games are seated under.
    pub id: PlayerId,
    pub name: String,
    /// The session this request came with (for a token: the token's id).
    pub session: String,
    pub lang: Option<String>,
    pub sound: Option<bool>,
    /// What the request may do: `None` for a browser's session (anything its owner may),
    /// the token's scopes for a request with a personal API token.
    pub scopes: Option<token::Scopes>,
    /// Its title (`BOT` for a bot account).
    pub title: Option<String>,
}

impl Account {
    /// The signed-in account of an open `user`, by a personal API token with `scopes`.
    pub fn by_token(user: UserRow, scopes: token::Scopes, token_id: String) -> Account {
        Account {
            id: PlayerId::known(user.id),
            name: user.name,
            session: token_id,
            lang: user.lang,
            sound: user.sound,
            scopes: Some(scopes),
            title: user.title,
        }
    }

    /// Whether it is a bot account.
    pub fn is_bot(&self) -> bool {
        self.title.as_deref() == Some(BOT)
    }
}

/// A bot account's title.
pub const BOT: &str = "BOT";

/// Why an account operation was refused.
#[derive(Debug)]
pub enum AccountError {
    Name(NameError),
    Password(PasswordError),
    /// The name is taken, ignoring case.
    NameTaken,
    /// Unknown name or wrong password: the same answer for both.
    WrongCredentials,
    /// Too many tries: wait.
    Throttled,
    Store(StoreError),
}

impl fmt::Display for AccountError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AccountError::Name(e) => e.fmt(f),
            AccountError::Password(e) => e.fmt(f),
            AccountError::NameTaken => f.write_str("that name is taken"),
            AccountError::WrongCredentials => f.write_str("wrong username or password"),
            AccountError::Throttled => f.write_str("too many tries: wait a few minutes"),
            AccountError::Store(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for AccountError {}

impl From<StoreError> for AccountError {
    fn from(e: StoreError) -> AccountError {
        AccountError::Store(e)
    }
}

impl From<PasswordError> for AccountError {
    fn from(e: PasswordError) -> AccountError {
        AccountError::Password(e)
    }
}

/// Where a session was started from, as the sessions list shows it.
#[derive(Clone, Debug, Default)]
pub struct Origin {
    pub address: String,
    /// The browser's `User-Agent`, shortened.
    pub agent: String,
}

/// A new session: its token for the cookie, and its id.
#[derive(Clone, Debug)]
pub struct Started {
    pub token: String,
    pub session: String,
}

/// Creates an account seated under `player` (the browser's guest id, unless that is already
/// an account's), and signs it in.
pub async fn sign_up(
    store: &Store,
    passwords: &Passwords,
    name: &str,
    password: &str,
    player: &PlayerId,
    origin: &Origin,
    now: i64,
) -> Result<(UserRow, Started), AccountError> {
    let name = Username::parse(name).map_err(AccountError::Name)?;
    password::check_new(password, name.as_str())?;
    if store.user_by_name(name.as_str()).await?.is_some() {
        return Err(AccountError::NameTaken);
    }
    let id = if store.is_user(player.as_str()).await? {
        PlayerId::random()
    } else {
        player.clone()
    };
    let user = UserRow {
        id: id.to_string(),
        name: name.as_str().to_string(),
        password: passwords.hash(password).await?,
        created_at: now,
        closed_at: None,
        lang: None,
        sound: None,
        board: None,
        title: None,
    };
    match store.create_user(&user).await {
        Ok(()) => {}
        Err(CreateUserError::Taken) => return Err(AccountError::NameTaken),
        Err(CreateUserError::Store(e)) => return Err(e.into()),
    }
    let started = start_session(store, &user.id, origin, now).await?;
    Ok((user, started))
}

/// Checks a name and password and signs the account in. An unknown name costs as much time
/// as a wrong password, and gets the same answer.
pub async fn log_in(
    store: &Store,
    passwords: &Passwords,
    name: &str,
    password: &str,
    origin: &Origin,
    now: i64,
) -> Result<(UserRow, Started), AccountError> {
    let user = match Username::parse(name) {
        Ok(name) => store.user_by_name(name.as_str()).await?,
        Err(_) => None,
    }
    .filter(|u| u.closed_at.is_none());
    let hash = user.as_ref().map(|u| u.password.as_str());
    if !passwords.verify(password, hash).await? {
        return Err(AccountError::WrongCredentials);
    }
    let user = user.ok_or(AccountError::WrongCredentials)?;
    let started = start_session(store, &user.id, origin, now).await?;
    Ok((user, started))
}

async fn start_session(
    store: &Store,
    user: &str,
    origin: &Origin,
    now: i64,
) -> Result<Started, AccountError> {
    let token = session::token();
    let session = session::session_id();
    store
        .create_session(&NewSession {
            id: &session,
            token_hash: &session::hash(&token),
            user_id: user,
            at: now,
            address: &origin.address,
            agent: &origin.agent,
        })
        .await?;
    Ok(Started { token, session })
}

/// Replaces the password of a signed-in account once its current one is given, and ends
/// its other sessions.
pub async fn change_password(
    store: &Store,
    passwords: &Passwords,
    account: &Account,
    current: &str,
    new: &str,
) -> Result<(), AccountError> {
    let user = store
        .user(account.id.as_str())
        .await?
        .ok_or(AccountError::WrongCredentials)?;
    if !passwords.verify(current, Some(&user.password)).await? {
        return Err(AccountError::WrongCredentials);
    }
    password::check_new(new, &user.name)?;
    store
        .set_password(account.id.as_str(), &passwords.hash(new).await?)
        .await?;
    store
        .end_other_sessions(account.id.as_str(), &account.session)
        .await?;
    Ok(())
}

/// Closes a signed-in account once its password is given.
pub async fn close(
    store: &Store,
    passwords: &Passwords,
    account: &Account,
    password: &str,
    now: i64,
) -> Result<(), AccountError> {
    let user = store
        .user(account.id.as_str())
        .await?
        .ok_or(AccountError::WrongCredentials)?;
    if !passwords.verify(password, Some(&user.password)).await? {
        return Err(AccountError::WrongCredentials);
    }
    store.close_user(account.id.as_str(), now).await?;
    Ok(())
}
