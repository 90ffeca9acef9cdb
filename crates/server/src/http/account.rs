//! Accounts over HTTP: the sign-up and log-in forms (which also take JSON), logging out,
//! and `/api/account` with its password, preferences, sessions and closing. The session
//! token travels in an HttpOnly, SameSite cookie (`Secure` over TLS).
//!
//! A form posted by a browser is answered with a redirect (to `/`, or back to the form
//! with `?error=code`); a JSON request with JSON.

use crate::throttle::Budget;
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::{Extension, Json};
use axum_extra::extract::CookieJar;
use serde::{Deserialize, Serialize};

use super::body::Body;
use super::prefs::Prefs;
use super::{AppState, Player, refusal};
use crate::account::{self, Account, AccountError, Origin};
use crate::protocol::ErrorCode;
use vizier_play::ids::PlayerId;
use vizier_play::time::now_ms;
use vizier_store::UserRow;

#[derive(Deserialize)]
pub(super) struct Credentials {
    #[serde(default)]
    username: String,
    #[serde(default)]
    password: String,
}

/// What `/api/account` and the forms answer about an account.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AccountView {
    /// The name in lower case, as lichess's API gives `id`.
    id: String,
    username: String,
    created_at: i64,
    prefs: Prefs,
}

fn view(user: &UserRow) -> AccountView {
    AccountView {
        id: user.name.to_lowercase(),
        username: user.name.clone(),
        created_at: user.created_at,
        prefs: Prefs {
            lang: user.lang.clone(),
            sound: user.sound,
            // Stored only after this layer checked it; one that no longer reads is dropped.
            board: user
                .board
                .as_deref()
                .and_then(|b| serde_json::from_str(b).ok()),
        },
    }
}

fn error_response(e: &AccountError) -> Response {
    let (status, code) = match e {
        AccountError::Name(_) => (StatusCode::BAD_REQUEST, ErrorCode::BadUsername),
        AccountError::Password(account::PasswordError::Hash(_)) => {
            (StatusCode::INTERNAL_SERVER_ERROR, ErrorCode::Storage)
        }
        AccountError::Password(_) => (StatusCode::BAD_REQUEST, ErrorCode::BadPassword),
        AccountError::NameTaken => (StatusCode::CONFLICT, ErrorCode::UsernameTaken),
        AccountError::WrongCredentials => (StatusCode::UNAUTHORIZED, ErrorCode::WrongCredentials),
        AccountError::Throttled => (StatusCode::TOO_MANY_REQUESTS, ErrorCode::TooManyTries),
        AccountError::Store(_) => (StatusCode::SERVICE_UNAVAILABLE, ErrorCode::Storage),
    };
    if let AccountError::Store(e) = e {
        tracing::warn!("account: {e}");
    }
    refusal(status, code, e.to_string())
}

/// A refusal: for a form, back to `page` with the code (and the name typed, to keep it).
fn refused(e: AccountError, form: bool, page: &str, username: &str) -> Response {
    if !form {
        return error_response(&e);
    }
    let code = match error_response(&e).status() {
        StatusCode::BAD_REQUEST if matches!(e, AccountError::Name(_)) => "bad-username",
        StatusCode::BAD_REQUEST => "bad-password",
        StatusCode::CONFLICT => "username-taken",
        StatusCode::UNAUTHORIZED => "wrong-credentials",
        StatusCode::TOO_MANY_REQUESTS => "too-many-tries",
        _ => "storage",
    };
    let name = if account::Username::parse(username).is_ok() {
        format!("&username={username}")
    } else {
        String::new()
    };
    Redirect::to(&format!("{page}?error={code}{name}")).into_response()
}

pub(super) fn foreign() -> Response {
    refusal(
        StatusCode::FORBIDDEN,
        ErrorCode::ForeignOrigin,
        "this form is only accepted from this site's pages",
    )
}

fn origin_of(headers: &HeaderMap, peer: Option<SocketAddr>, state: &AppState) -> Origin {
    let address = super::address::client(peer, headers, state.trust_forwarded_for)
        .map(|a| a.to_string())
        .unwrap_or_default();
    let agent: String = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .chars()
        .take(200)
        .collect();
    Origin { address, agent }
}

/// The session cookie of a new session, beside the others of `jar`.
fn signed_in(state: &AppState, jar: CookieJar, token: String) -> CookieJar {
    jar.add(state.session_token_cookie(token))
}

/// A fresh guest id, so that the browser's old one (now the account's id) is not left behind
/// for after signing out: that id acts only through the account's sessions from now on.
fn fresh_guest(
    state: &AppState,
    jar: axum_extra::extract::SignedCookieJar,
) -> axum_extra::extract::SignedCookieJar {
    jar.add(state.guest_cookie(&PlayerId::random()))
}

fn signed_out(state: &AppState, jar: CookieJar) -> CookieJar {
    jar.remove(state.session_removal())
}

/// `POST /signup`: a new account, seated under this browser's guest id, signed in.
pub(super) async fn sign_up(
    State(state): State<AppState>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    Extension(player): Extension<Player>,
    jar: CookieJar,
    guest_jar: axum_extra::extract::SignedCookieJar,
    body: Body<Credentials>,
) -> Response {
    if !super::origin::from_our_pages(&headers, state.public_origin.as_deref()) {
        return foreign();
    }
    let Body { value: c, form } = body;
    let origin = origin_of(&headers, peer.as_ref().map(|p| p.0.0), &state);
    let from = super::address::client(
        peer.as_ref().map(|p| p.0.0),
        &headers,
        state.trust_forwarded_for,
    );
    if let Some(a) = from
        && !state.throttles.take(Budget::SignUp, &a.to_string()).await
    {
        return refused(AccountError::Throttled, form, "/signup", &c.username);
    }
    let signed = account::sign_up(
        &state.hub.store,
        &state.passwords,
        &c.username,
        &c.password,
        &player.0,
        &origin,
        now_ms() as i64,
    )
    .await;
    match signed {
        Ok((user, started)) => {
            tracing::info!(name = %user.name, "account created");
            // The guest id is now the account's: what it opened as a guest closes (and opens
            // again with the session).
            state
                .sockets
                .revoke(super::socket::Revoke::Guest(&PlayerId::known(
                    user.id.clone(),
                )));
            let jar = signed_in(&state, jar, started.token);
            let guests = fresh_guest(&state, guest_jar);
            if form {
                (jar, guests, Redirect::to("/")).into_response()
            } else {
                (StatusCode::CREATED, jar, guests, Json(view(&user))).into_response()
            }
        }
        Err(e) => refused(e, form, "/signup", &c.username),
    }
}

/// `POST /login`.
pub(super) async fn log_in(
    State(state): State<AppState>,
    peer: Option<Extension<ConnectInfo<SocketAddr>>>,
    headers: HeaderMap,
    jar: CookieJar,
    body: Body<Credentials>,
) -> Response {
    if !super::origin::from_our_pages(&headers, state.public_origin.as_deref()) {
        return foreign();
    }
    let Body { value: c, form } = body;
    let origin = origin_of(&headers, peer.as_ref().map(|p| p.0.0), &state);
    let from = super::address::client(
        peer.as_ref().map(|p| p.0.0),
        &headers,
        state.trust_forwarded_for,
    );
    let key = c.username.to_lowercase();
    // The address's budget first: only the tries it lets through spend the account's, so that
    // one address cannot spend another's sign-ins. Once the account's is spent (tries from
    // many addresses), an address with no failed try this hour still gets its answer, after
    // a pause: its owner is not locked out, and a guesser gets one try per address an hour.
    let address = from.map(|a| a.to_string());
    if let Some(a) = &address
        && !state.throttles.take(Budget::SignInByAddress, a).await
    {
        return refused(AccountError::Throttled, form, "/login", &c.username);
    }
    let by_account = key.len() > 40 || state.throttles.take(Budget::SignInByAccount, &key).await;
    if !by_account {
        let clean = match &address {
            Some(a) => !state.throttles.failed_recently(a).await,
            None => false,
        };
        if !clean {
            return refused(AccountError::Throttled, form, "/login", &c.username);
        }
        tokio::time::sleep(ACCOUNT_UNDER_FIRE_PAUSE).await;
    }
    let logged = account::log_in(
        &state.hub.store,
        &state.passwords,
        &c.username,
        &c.password,
        &origin,
        now_ms() as i64,
    )
    .await;
    match logged {
        Ok((user, started)) => {
            let jar = signed_in(&state, jar, started.token);
            if form {
                (jar, Redirect::to("/")).into_response()
            } else {
                (jar, Json(view(&user))).into_response()
            }
        }
        Err(e) => {
            if let (AccountError::WrongCredentials, Some(a)) = (&e, &address) {
                state.throttles.note_failure(a).await;
            }
            refused(e, form, "/login", &c.username)
        }
    }
}

/// How long a sign-in waits while its account is under a flood of tries from elsewhere.
const ACCOUNT_UNDER_FIRE_PAUSE: std::time::Duration = std::time::Duration::from_secs(1);

/// `POST /logout`: ends this browser's session.
pub(super) async fn log_out(
    State(state): State<AppState>,
    headers: HeaderMap,
    Extension(signed): Extension<SignedIn>,
    jar: CookieJar,
) -> Response {
    if !super::origin::from_our_pages(&headers, state.public_origin.as_deref()) {
        return foreign();
    }
    if let Some(a) = &signed.0 {
        if let Err(e) = state.hub.store.end_session(a.id.as_str(), &a.session).await {
            return error_response(&AccountError::Store(e));
        }
        state.sockets.revoke(super::socket::Revoke::Session {
            player: &a.id,
            session: &a.session,
        });
    }
    let jar = signed_out(&state, jar);
    let wants_json = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/json"));
    if wants_json {
        (jar, Json(serde_json::json!({ "ok": true }))).into_response()
    } else {
        (jar, Redirect::to("/")).into_response()
    }
}

/// The signed-in account of a request, if any.
#[derive(Clone, Debug, Default)]
pub struct SignedIn(pub Option<Account>);

/// A request that changes an account: from this server's pages, signed in; or made with a
/// token, which no page elsewhere can forge.
pub(super) fn changes_by(
    state: &AppState,
    headers: &HeaderMap,
    signed: SignedIn,
) -> Result<Account, Box<Response>> {
    let by_token = signed.0.as_ref().is_some_and(|a| a.scopes.is_some());
    if !by_token && !super::origin::from_our_pages(headers, state.public_origin.as_deref()) {
        return Err(Box::new(foreign()));
    }
    signed.0.ok_or_else(|| Box::new(not_signed_in()))
}

fn not_signed_in() -> Response {
    refusal(
        StatusCode::UNAUTHORIZED,
        ErrorCode::NotSignedIn,
        "sign in first",
    )
}

/// `GET /api/account`.
pub(super) async fn me(
    State(state): State<AppState>,
    Extension(signed): Extension<SignedIn>,
) -> Response {
    let Some(a) = signed.0 else {
        return not_signed_in();
    };
    match state.hub.store.user(a.id.as_str()).await {
        Ok(Some(user)) => {
            let mut v = serde_json::to_value(view(&user)).unwrap_or_default();
            match super::users::user_json(&state.hub.store, &user).await {
                Ok(public) => {
                    v["perfs"] = public["perfs"].clone();
                    v["count"] = public["count"].clone();
                    if let Some(title) = public.get("title") {
                        v["title"] = title.clone();
                    }
                }
                Err(e) => return error_response(&AccountError::Store(e)),
            }
            Json(v).into_response()
        }
        Ok(None) => not_signed_in(),
        Err(e) => error_response(&AccountError::Store(e)),
    }
}

#[derive(Deserialize)]
pub(super) struct NewPassword {
    #[serde(default)]
    current: String,
    #[serde(default)]
    new: String,
}

/// `POST /api/account/password`: ends the account's other sessions too.
pub(super) async fn change_password(
    State(state): State<AppState>,
    headers: HeaderMap,
    Extension(signed): Extension<SignedIn>,
    body: Body<NewPassword>,
) -> Response {
    let a = match changes_by(&state, &headers, signed) {
        Ok(a) => a,
        Err(r) => return *r,
    };
    // The session's own budget: guesses at the sign-in form cannot lock its owner out here.
    if !state
        .throttles
        .take(Budget::PasswordCheck, &a.session)
        .await
    {
        return error_response(&AccountError::Throttled);
    }
    let p = body.value;
    match account::change_password(&state.hub.store, &state.passwords, &a, &p.current, &p.new).await
    {
        Ok(()) => {
            state.sockets.revoke(super::socket::Revoke::OtherSessions {
                player: &a.id,
                keep: &a.session,
            });
            Json(serde_json::json!({ "ok": true })).into_response()
        }
        Err(e) => error_response(&e),
    }
}

#[derive(Deserialize)]
pub(super) struct Closing {
    #[serde(default)]
    password: String,
}

/// `POST /api/account/close`: the account can no longer sign in; its games stay.
pub(super) async fn close(
    State(state): State<AppState>,
    headers: HeaderMap,
    Extension(signed): Extension<SignedIn>,
    jar: CookieJar,
    body: Body<Closing>,
) -> Response {
    let a = match changes_by(&state, &headers, signed) {
        Ok(a) => a,
        Err(r) => return *r,
    };
    if !state
        .throttles
        .take(Budget::PasswordCheck, &a.session)
        .await
    {
        return error_response(&AccountError::Throttled);
    }
    let closed = account::close(
        &state.hub.store,
        &state.passwords,
        &a,
        &body.value.password,
        now_ms() as i64,
    )
    .await;
    match closed {
        Ok(()) => {
            tracing::info!(name = %a.name, "account closed");
            state.sockets.revoke(super::socket::Revoke::Account(&a.id));
            (
                signed_out(&state, jar),
                Json(serde_json::json!({ "ok": true })),
            )
                .into_response()
        }
        Err(e) => error_response(&e),
    }
}

/// `POST /api/account/preferences`: language, sound and the board follow the account.
pub(super) async fn preferences(
    State(state): State<AppState>,
    headers: HeaderMap,
    Extension(signed): Extension<SignedIn>,
    body: Body<Prefs>,
) -> Response {
    let a = match changes_by(&state, &headers, signed) {
        Ok(a) => a,
        Err(r) => return *r,
    };
    let p = body.value;
    if p.lang.as_deref().is_some_and(|l| !matches!(l, "en" | "zh")) {
        return refusal(
            StatusCode::BAD_REQUEST,
            ErrorCode::BadRequest,
            "lang is en or zh",
        );
    }
    match state
        .hub
        .store
        .set_preferences(
            a.id.as_str(),
            p.lang.as_deref(),
            p.sound,
            p.board
                .map(|b| serde_json::to_string(&b).expect("plain data"))
                .as_deref(),
        )
        .await
    {
        Ok(()) => Json(serde_json::json!({ "ok": true })).into_response(),
        Err(e) => error_response(&AccountError::Store(e)),
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SessionView {
    id: String,
    created_at: i64,
    seen_at: Option<i64>,
    address: String,
    agent: String,
    /// Whether it is the session of this request.
    current: bool,
}

/// `GET /api/account/sessions`: where the account is signed in.
pub(super) async fn sessions(
    State(state): State<AppState>,
    Extension(signed): Extension<SignedIn>,
) -> Response {
    let Some(a) = signed.0 else {
        return not_signed_in();
    };
    match state.hub.store.sessions(a.id.as_str()).await {
        Ok(rows) => Json(
            rows.into_iter()
                .map(|s| SessionView {
                    current: s.id == a.session,
                    id: s.id,
                    created_at: s.created_at,
                    seen_at: s.seen_at,
                    address: s.address,
                    agent: s.agent,
                })
                .collect::<Vec<_>>(),
        )
        .into_response(),
        Err(e) => error_response(&AccountError::Store(e)),
    }
}

/// `DELETE /api/account/sessions/{id}`: signs that browser out.
pub(super) async fn end_session(
    State(state): State<AppState>,
    headers: HeaderMap,
    Extension(signed): Extension<SignedIn>,
    Path(id): Path<String>,
) -> Response {
    let a = match changes_by(&state, &headers, signed) {
        Ok(a) => a,
        Err(r) => return *r,
    };
    match state.hub.store.end_session(a.id.as_str(), &id).await {
        Ok(true) => {
            state.sockets.revoke(super::socket::Revoke::Session {
                player: &a.id,
                session: &id,
            });
            StatusCode::NO_CONTENT.into_response()
        }
        Ok(false) => (StatusCode::NOT_FOUND, "no such session").into_response(),
        Err(e) => error_response(&AccountError::Store(e)),
    }
}

/// The account a session cookie names, if it is a live session of an open account, and
/// whether its cookie is to be renewed. A session's use is noted at most every ten minutes
/// (renewing the cookie's life); one unused for [`super::cookies::SESSION_IDLE`] is ended.
pub(super) async fn resolve(state: &AppState, jar: &CookieJar) -> Option<(Account, bool)> {
    let token = jar.get(state.session_cookie())?.value().to_string();
    if !account::session::is_token(&token) {
        return None;
    }
    let found = match state
        .hub
        .store
        .session(&account::session::hash(&token))
        .await
    {
        Ok(found) => found?,
        Err(e) => {
            tracing::warn!("reading a session: {e}");
            return None;
        }
    };
    let (session, user) = found;
    let now = now_ms() as i64;
    let seen = session.seen_at.unwrap_or(session.created_at);
    if now - seen > super::cookies::SESSION_IDLE.whole_milliseconds() as i64 {
        if let Err(e) = state.hub.store.end_session(&user.id, &session.id).await {
            tracing::warn!("ending an idle session: {e}");
        }
        return None;
    }
    let renew = now - seen > 600_000;
    if renew {
        let store = state.hub.store.clone();
        let id = session.id.clone();
        tokio::spawn(async move {
            if let Err(e) = store.touch_session(&id, now).await {
                tracing::warn!("noting a session's use: {e}");
            }
        });
    }
    Some((
        Account {
            id: PlayerId::known(user.id),
            name: user.name,
            session: session.id,
            lang: user.lang,
            sound: user.sound,
            scopes: None,
            title: user.title,
        },
        renew,
    ))
}
