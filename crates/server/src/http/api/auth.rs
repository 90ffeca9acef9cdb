//! Who calls the API: a personal token in `Authorization: Bearer …` names its account and
//! scopes; a browser's session cookie may do whatever its owner may. Refusals are lichess's:
//! `401 {"error": "No such token"}`, `403 {"error": "Missing scope: …"}`.

use axum::http::{HeaderMap, StatusCode, header};
use axum::response::Response;

use super::error;
use crate::account::token::{Scope, Scopes, is_token};
use crate::account::{Account, session};
use crate::http::{AppState, SignedIn};
use vizier_play::time::now_ms;

/// How often a token's last use is written down, at most.
const NOTE_USE_EVERY_MS: i64 = 60_000;

/// The bearer token of a request, if it sends `Authorization` at all: `Err` when the header
/// is there but names no token.
pub(crate) fn bearer(headers: &HeaderMap) -> Option<Result<&str, ()>> {
    let value = headers.get(header::AUTHORIZATION)?;
    let token = value
        .to_str()
        .ok()
        .and_then(|v| {
            v.strip_prefix("Bearer ")
                .or_else(|| v.strip_prefix("bearer "))
        })
        .map(str::trim)
        .filter(|t| is_token(t));
    Some(token.ok_or(()))
}

/// The account a token belongs to, with its scopes: `Ok(None)` for a token no open account
/// has.
pub(crate) async fn account_of(state: &AppState, token: &str) -> Result<Option<Account>, Response> {
    let found = state.hub.store.token(&session::hash(token)).await;
    let (row, user) = match found {
        Ok(Some(found)) => found,
        Ok(None) => return Ok(None),
        Err(e) => {
            tracing::warn!("reading a token: {e}");
            return Err(error(
                StatusCode::SERVICE_UNAVAILABLE,
                "the database did not answer",
            ));
        }
    };
    let now = now_ms() as i64;
    if row.used_at.is_none_or(|at| now - at > NOTE_USE_EVERY_MS) {
        let store = state.hub.store.clone();
        let id = row.id.clone();
        tokio::spawn(async move {
            if let Err(e) = store.touch_token(&id, now).await {
                tracing::warn!("noting a token's use: {e}");
            }
        });
    }
    // Stored scopes were checked when the token was made; one this server no longer knows
    // gives nothing.
    let scopes =
        Scopes::of(row.scopes.split(',').filter(|s| Scope::parse(s).is_some())).unwrap_or_default();
    Ok(Some(Account::by_token(user, scopes, row.id)))
}

/// The refusal for a request without a valid token.
pub(crate) fn no_such_token() -> Response {
    error(StatusCode::UNAUTHORIZED, "No such token")
}

/// The account of a request that may do what any of `scopes` allows.
pub(crate) fn require(signed: SignedIn, scopes: &[Scope]) -> Result<Account, Response> {
    let Some(account) = signed.0 else {
        return Err(error(
            StatusCode::UNAUTHORIZED,
            "Missing authorization header",
        ));
    };
    match account.scopes {
        Some(has) if !has.any(scopes) => {
            let names: Vec<&str> = scopes.iter().map(|s| s.name()).collect();
            Err(error(
                StatusCode::FORBIDDEN,
                format!("Missing scope: {}", names.join(",")),
            ))
        }
        _ => Ok(account),
    }
}

/// The account of a request made with a browser's session, not a token (making tokens, for
/// one, is for the owner at the site).
pub(crate) fn session_only(signed: SignedIn) -> Result<Account, Response> {
    match signed.0 {
        None => Err(error(StatusCode::UNAUTHORIZED, "sign in first")),
        Some(a) if a.scopes.is_some() => Err(error(
            StatusCode::FORBIDDEN,
            "this needs a signed-in browser, not a token",
        )),
        Some(a) => Ok(a),
    }
}
