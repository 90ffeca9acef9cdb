//! The web client, built from `web/` by `build.rs` and embedded in the binary.

use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::Embed;

#[derive(Embed)]
#[folder = "$OUT_DIR/web"]
struct Web;

/// Whether `path` is one of the pages the client routes itself: the home page, the account
/// forms, the analysis board, a profile (`/@/{name}`) and its games, a game (`/g/{id}`), the
/// tournaments (`/tournament`) and one tournament (`/tournament/{id}`).
/// Everything else that is not a file of the client is not found.
fn is_page(path: &str) -> bool {
    let alphanumeric = |id: &str| !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric());
    matches!(
        path,
        "" | "signup" | "login" | "account" | "analysis" | "tournament"
    ) || path.strip_prefix("tournament/").is_some_and(alphanumeric)
        || path.strip_prefix("@/").is_some_and(|rest| {
            let name = rest.strip_suffix("/games").unwrap_or(rest);
            crate::account::Username::parse(name).is_ok()
        })
        || path.strip_prefix("g/").is_some_and(alphanumeric)
}

/// Serves a file of the client, or the app's page for the client's own routes.
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
    if path.starts_with("api/") {
        // API clients read every answer as JSON, as lichess's.
        let body = axum::Json(serde_json::json!({"error": "Not found"}));
        return (StatusCode::NOT_FOUND, body).into_response();
    }
    if !is_page(path) {
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

#[cfg(test)]
mod tests {
    use super::is_page;

    #[test]
    fn only_the_clients_routes_are_pages() {
        assert!(is_page(""));
        assert!(is_page("g/k3Pq9xWb2m"));
        assert!(is_page("login") && is_page("signup") && is_page("account"));
        assert!(is_page("analysis"));
        assert!(is_page("tournament") && is_page("tournament/Ab3dE5gH"));
        assert!(!is_page("tournament/") && !is_page("tournament/a/b"));
        assert!(is_page("@/Ann_K") && !is_page("@/") && !is_page("@/a/b"));
        assert!(is_page("@/Ann_K/games") && !is_page("@/Ann_K/x"));
        for other in ["g/", "g/a/b", "metrics", "favicon.ico", "api/x", "g/..%2f"] {
            assert!(!is_page(other), "{other}");
        }
    }

    #[tokio::test]
    async fn an_unknown_api_path_is_a_json_404() {
        let r = super::serve("/api/no/such/thing".parse().unwrap()).await;
        assert_eq!(r.status(), axum::http::StatusCode::NOT_FOUND);
        let body = axum::body::to_bytes(r.into_body(), 1024).await.unwrap();
        assert_eq!(&body[..], br#"{"error":"Not found"}"#);
    }
}
