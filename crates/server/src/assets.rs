//! The web client, built from `web/` by `build.rs` and embedded in the binary.

use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::Embed;

#[derive(Embed)]
#[folder = "$OUT_DIR/web"]
struct Web;

/// Serves a file of the client; any other path gets the app's page, which routes on the client
/// (`/g/{id}` is a game).
pub async fn serve(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if let Some(file) = Web::get(path).filter(|_| !path.is_empty()) {
        let mime = file.metadata.mimetype().to_string();
        // Bundles carry a content hash in their name and may be cached for good.
        let cache = if path.starts_with("assets/") {
            "public, max-age=31536000, immutable"
        } else {
            "no-cache"
        };
        return (
            [
                (header::CONTENT_TYPE, mime),
                (header::CACHE_CONTROL, cache.into()),
            ],
            file.data,
        )
            .into_response();
    }
    if path.starts_with("api/") || path.starts_with("assets/") {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    }
    match Web::get("index.html") {
        Some(page) => (
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            page.data,
        )
            .into_response(),
        None => (
            StatusCode::INTERNAL_SERVER_ERROR,
            "the web client was not built in",
        )
            .into_response(),
    }
}
