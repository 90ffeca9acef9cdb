//! Where a request comes from, as the per-address limits count it: the connection's peer, or
//! behind a trusted proxy the last `X-Forwarded-For` entry (the one that proxy added). An IPv6
//! address counts by its /64 network, since one machine is commonly given a whole one.

use std::net::{IpAddr, SocketAddr};

use crate::listen::network;

use axum::http::HeaderMap;

/// The address a request counts against, as text; `None` where it cannot be told.
#[derive(Clone, Debug)]
pub(super) struct ClientAddress(pub Option<String>);

impl axum::extract::FromRequestParts<super::AppState> for ClientAddress {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        state: &super::AppState,
    ) -> Result<ClientAddress, Self::Rejection> {
        let peer = (parts.extensions)
            .get::<axum::extract::ConnectInfo<SocketAddr>>()
            .map(|c| c.0);
        let ip = client(peer, &parts.headers, state.trust_forwarded_for);
        Ok(ClientAddress(ip.map(|a| a.to_string())))
    }
}

/// The address `peer`'s request counts against; `None` if it cannot be told.
pub(super) fn client(
    peer: Option<SocketAddr>,
    headers: &HeaderMap,
    trust_forwarded_for: bool,
) -> Option<IpAddr> {
    let ip = if trust_forwarded_for {
        headers
            .get_all("x-forwarded-for")
            .iter()
            .next_back()
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.rsplit(',').next())
            .and_then(|last| last.trim().parse::<IpAddr>().ok())
            .or(peer.map(|p| p.ip()))
    } else {
        peer.map(|p| p.ip())
    }?;
    Some(network(ip))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forwarded(values: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in values {
            h.append("x-forwarded-for", v.parse().unwrap());
        }
        h
    }

    #[test]
    fn the_peer_unless_a_proxy_is_trusted() {
        let peer: SocketAddr = "10.0.0.1:5000".parse().unwrap();
        let h = forwarded(&["203.0.113.9, 198.51.100.7"]);
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        assert_eq!(client(Some(peer), &h, false), Some(ip("10.0.0.1")));
        // The proxy appends the address it saw: earlier entries are the client's to forge.
        assert_eq!(client(Some(peer), &h, true), Some(ip("198.51.100.7")));
        let two = forwarded(&["203.0.113.9", "192.0.2.4"]);
        assert_eq!(client(Some(peer), &two, true), Some(ip("192.0.2.4")));
        assert_eq!(
            client(Some(peer), &forwarded(&["junk"]), true),
            Some(ip("10.0.0.1"))
        );
        assert_eq!(client(None, &HeaderMap::new(), false), None);
    }

    #[test]
    fn ipv6_counts_by_network() {
        let a = network("2001:db8:1:2:aaaa::1".parse().unwrap());
        let b = network("2001:db8:1:2:bbbb::9".parse().unwrap());
        let c = network("2001:db8:1:3::1".parse().unwrap());
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(
            network("::ffff:192.0.2.1".parse().unwrap()),
            "192.0.2.1".parse::<IpAddr>().unwrap()
        );
    }
}
