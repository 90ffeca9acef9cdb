//! A request body read as JSON or as a form: the account forms post either.

use axum::Json;
use axum::extract::{Form, FromRequest, Request};
use axum::http::{StatusCode, header};
use axum::response::Response;
use serde::de::DeserializeOwned;

use super::refusal;
use crate::protocol::ErrorCode;

/// A body's fields, read as JSON or as a form.
pub(super) type Fields = std::collections::HashMap<String, serde_json::Value>;

/// A field as text, given flat (`clock.limit`, as a form sends it) or nested (`{"clock":
/// {"limit"}}`), a string, a number or a boolean.
pub(super) fn field_text(fields: &Fields, path: &str) -> Option<String> {
    use serde_json::Value;
    let value = fields.get(path).or_else(|| {
        let (head, rest) = path.split_once('.')?;
        fields.get(head)?.get(rest)
    })?;
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A request body read as JSON or as a form, remembering which.
pub(super) struct Body<T> {
    pub(super) value: T,
    pub(super) form: bool,
}

impl<T> Body<T> {
    pub(super) fn into_value(self) -> T {
        self.value
    }
}

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequest<S> for Body<T> {
    type Rejection = Response;

    async fn from_request(req: Request, state: &S) -> Result<Body<T>, Response> {
        let json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/json"));
        let bad = |e: String| refusal(StatusCode::BAD_REQUEST, ErrorCode::BadRequest, e);
        if json {
            let Json(value) = Json::<T>::from_request(req, state)
                .await
                .map_err(|e| bad(e.body_text()))?;
            Ok(Body { value, form: false })
        } else {
            let Form(value) = Form::<T>::from_request(req, state)
                .await
                .map_err(|e| bad(e.body_text()))?;
            Ok(Body { value, form: true })
        }
    }
}
