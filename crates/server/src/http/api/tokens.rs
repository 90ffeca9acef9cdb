//! Personal API tokens: made, listed and revoked by their owner signed in at the site
//! (`/api/account/tokens`), and tested by anyone (`POST /api/token/test`, as lichess).

use std::collections::HashMap;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::{Value, json};

use super::auth::session_only;
use super::error;
use crate::account::session;
use crate::account::token::{Scopes, new_token, token_id};
use crate::http::address::ClientAddress;
use crate::http::body::Body;
use crate::http::{AppState, SignedIn};
use vizier_play::time::now_ms;
use vizier_store::NewToken;

/// Tokens one account may hold.
pub(crate) const TOKENS_PER_ACCOUNT: usize = 50;
/// The longest description.
const DESCRIPTION_LEN: usize = 200;
/// Tokens one test may ask about (lichess's limit).
const TESTED_AT_ONCE: usize = 1_000;

/// What a new token is asked with: scopes as a list (JSON) or comma-separated (a form).
#[derive(Deserialize)]
pub(crate) struct NewTokenRequest {
    #[serde(default)]
    description: String,
    #[serde(default)]
    scopes: ScopeList,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum ScopeList {
    List(Vec<String>),
    Text(String),
}

impl Default for ScopeList {
    fn default() -> ScopeList {
        ScopeList::List(Vec::new())
    }
}

/// The account's owner, signed in at one of this server's pages, changing its tokens.
fn owner_changing(
    state: &AppState,
    headers: &HeaderMap,
    signed: SignedIn,
) -> Result<crate::account::Account, Response> {
    crate::http::account::changes_by(state, headers, signed.clone()).map_err(|r| *r)?;
    session_only(signed)
}

/// `POST /api/account/tokens`: a new token, shown this once.
pub(crate) async fn create(
    State(state): State<AppState>,
    Extension(signed): Extension<SignedIn>,
    headers: HeaderMap,
    body: Body<NewTokenRequest>,
) -> Response {
    let account = match owner_changing(&state, &headers, signed) {
        Ok(a) => a,
        Err(r) => return r,
    };
    let asked = body.into_value();
    let scopes = match &asked.scopes {
        ScopeList::List(names) => Scopes::of(names.iter().map(String::as_str)),
        ScopeList::Text(text) => Scopes::parse(text),
    };
    let scopes = match scopes {
        Ok(s) => s,
        Err(name) => return error(StatusCode::BAD_REQUEST, format!("no such scope: {name}")),
    };
    let description = asked.description.trim();
    if description.is_empty() || description.chars().count() > DESCRIPTION_LEN {
        return error(
            StatusCode::BAD_REQUEST,
            "a token needs a description of 1 to 200 characters",
        );
    }
    let store = &state.hub.store;
    match store.tokens(account.id.as_str()).await {
        Ok(held) if held.len() >= TOKENS_PER_ACCOUNT => {
            return error(
                StatusCode::BAD_REQUEST,
                format!("{TOKENS_PER_ACCOUNT} tokens at most: revoke one first"),
            );
        }
        Ok(_) => {}
        Err(e) => return unavailable(e),
    }
    let token = new_token();
    let (hash, id, scope_text) = (session::hash(&token), token_id(), scopes.to_string());
    let new = NewToken {
        id: &id,
        token_hash: &hash,
        user_id: account.id.as_str(),
        description,
        scopes: &scope_text,
        at: now_ms() as i64,
    };
    match store.create_token(&new).await {
        Ok(()) => Json(json!({
            "token": token,
            "id": id,
            "description": description,
            "scopes": scope_text,
        }))
        .into_response(),
        Err(e) => unavailable(e),
    }
}

fn unavailable(e: vizier_store::StoreError) -> Response {
    tracing::warn!("tokens: {e}");
    error(
        StatusCode::SERVICE_UNAVAILABLE,
        "the database did not answer",
    )
}

/// `GET /api/account/tokens`: the account's tokens (never the tokens themselves), with their
/// last use.
pub(crate) async fn list(
    State(state): State<AppState>,
    Extension(signed): Extension<SignedIn>,
) -> Response {
    let account = match session_only(signed) {
        Ok(a) => a,
        Err(r) => return r,
    };
    match state.hub.store.tokens(account.id.as_str()).await {
        Ok(rows) => Json(
            rows.into_iter()
                .map(|t| {
                    json!({
                        "id": t.id,
                        "description": t.description,
                        "scopes": t.scopes,
                        "createdAt": t.created_at,
                        "usedAt": t.used_at,
                    })
                })
                .collect::<Vec<_>>(),
        )
        .into_response(),
        Err(e) => unavailable(e),
    }
}

/// `DELETE /api/account/tokens/{id}`: revokes a token at once.
pub(crate) async fn revoke(
    State(state): State<AppState>,
    Extension(signed): Extension<SignedIn>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let account = match owner_changing(&state, &headers, signed) {
        Ok(a) => a,
        Err(r) => return r,
    };
    match state.hub.store.revoke_token(account.id.as_str(), &id).await {
        Ok(true) => {
            state.api.streams.close_token(&id);
            Json(json!({"ok": true})).into_response()
        }
        Ok(false) => error(StatusCode::NOT_FOUND, "no such token"),
        Err(e) => unavailable(e),
    }
}

/// `POST /api/token/test`: for each token of the comma-separated body, its owner, scopes
/// and expiry (never), or `null`. A request counts against the address's budget once, and
/// once more for every 25 tokens it tests.
pub(crate) async fn test(
    State(state): State<AppState>,
    address: ClientAddress,
    body: String,
) -> Response {
    let tokens: Vec<&str> = body
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect();
    if tokens.len() > TESTED_AT_ONCE {
        return error(
            StatusCode::BAD_REQUEST,
            format!("{TESTED_AT_ONCE} tokens at most"),
        );
    }
    if !state
        .api
        .take_address(address.0.as_deref(), 1 + tokens.len() / 25)
    {
        return super::too_many();
    }
    let mut answer: HashMap<&str, Value> = HashMap::new();
    for token in tokens {
        let found = if crate::account::token::is_token(token) {
            match super::auth::account_of(&state, token).await {
                Ok(found) => found,
                Err(r) => return r,
            }
        } else {
            None
        };
        let value = found.map_or(Value::Null, |a| {
            json!({
                "userId": a.name.to_lowercase(),
                "scopes": a.scopes.unwrap_or_default().to_string(),
                "expires": null,
            })
        });
        answer.insert(token, value);
    }
    Json(answer).into_response()
}
