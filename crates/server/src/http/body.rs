//! A request body read as JSON or as a form: the account forms post either.

use axum::Json;
use axum::extract::{Form, FromRequest, Request};
use axum::http::{StatusCode, header};
use axum::response::Response;
use serde::de::DeserializeOwned;

use super::refusal;
use crate::protocol::ErrorCode;

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
