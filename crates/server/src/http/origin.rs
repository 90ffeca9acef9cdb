//! Whether a request comes from one of this server's pages: sockets and account forms are
//! refused from pages elsewhere, which could otherwise act with the player's cookie.

use axum::http::{HeaderMap, header};

/// Whether a request (a socket, a form) comes from a page of this server. With a public address the
/// Origin must be exactly it (scheme, host and port); without one, the Origin's host must be the
/// Host the browser asked for, over http or https. A page elsewhere cannot drive a player's games.
pub(super) fn same_origin(headers: &HeaderMap, public: Option<&str>) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        // Not a browser: a script with the player's cookie is the player.
        return true;
    };
    if let Some(public) = public {
        return origin.eq_ignore_ascii_case(public);
    }
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    let origin_host = ["http://", "https://"]
        .iter()
        .find_map(|scheme| origin.strip_prefix(scheme));
    matches!((origin_host, host), (Some(o), Some(h)) if o.eq_ignore_ascii_case(h))
}

/// Whether a form or API request comes from a page of this server. A browser says so in
/// `Sec-Fetch-Site`; it must, since a form posted under `Referrer-Policy: no-referrer` carries
/// `Origin: null`. Without that header, the Origin decides as for a socket.
pub(super) fn from_our_pages(headers: &HeaderMap, public: Option<&str>) -> bool {
    match headers.get("sec-fetch-site").map(|v| v.as_bytes()) {
        Some(b"same-origin" | b"none") => true,
        Some(_) => false,
        None => same_origin(headers, public),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(origin: Option<&str>, host: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, host.parse().unwrap());
        if let Some(o) = origin {
            h.insert(header::ORIGIN, o.parse().unwrap());
        }
        h
    }

    fn same_origin_here(h: &HeaderMap) -> bool {
        same_origin(h, None)
    }

    #[test]
    fn public_origins_are_matched_exactly() {
        let public = Some("https://chess.example");
        let h = |o| headers(Some(o), "chess.example");
        assert!(same_origin(&h("https://chess.example"), public));
        assert!(!same_origin(&h("http://chess.example"), public));
        assert!(!same_origin(&h("https://chess.example:8443"), public));
        assert!(!same_origin(&h("ftp://chess.example"), None));
    }

    #[test]
    fn origins() {
        assert!(same_origin_here(&headers(
            Some("http://127.0.0.1:8080"),
            "127.0.0.1:8080"
        )));
        assert!(same_origin_here(&headers(None, "127.0.0.1:8080")));
        assert!(!same_origin_here(&headers(
            Some("http://evil.example"),
            "127.0.0.1:8080"
        )));
        assert!(!same_origin_here(&headers(Some("null"), "127.0.0.1:8080")));
    }

    #[test]
    fn forms_trust_the_fetch_site_first() {
        let mut h = headers(Some("null"), "127.0.0.1:8080");
        assert!(!from_our_pages(&h, None));
        h.insert("sec-fetch-site", "same-origin".parse().unwrap());
        assert!(from_our_pages(&h, None));
        h.insert("sec-fetch-site", "cross-site".parse().unwrap());
        assert!(!from_our_pages(&h, None));
        let mut evil = headers(Some("http://127.0.0.1:8080"), "127.0.0.1:8080");
        evil.insert("sec-fetch-site", "same-site".parse().unwrap());
        assert!(!from_our_pages(&evil, None));
        assert!(from_our_pages(&headers(None, "127.0.0.1:8080"), None));
    }
}
