//! Where a request comes from, as the per-address limits count it: the connection's peer, or
//! behind a trusted proxy the last `X-Forwarded-For` entry (the one that proxy added). An IPv6
//! address counts by its /64 network, since one machine is commonly given a whole one.

use std::net::{IpAddr, Ipv6Addr, SocketAddr};

use axum::http::HeaderMap;

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

/// An IPv4 address as it is; an IPv6 address as its /64 network (IPv4-mapped ones as IPv4).
fn network(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let bits = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(Ipv6Addr::from(bits))
            }
        },
    }
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
