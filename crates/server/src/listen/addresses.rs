//! Connections and sockets open from each address, so that one address cannot take every
//! place: an HTTP connection holds a slot while it is open, a WebSocket (game, lobby,
//! analysis) for its whole life, so that connections and sockets are counted together.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex};

/// The table of open slots by address, with its cap.
#[derive(Debug)]
pub struct PerAddress {
    /// Slots one address may hold at once; 0: no cap (still counted).
    most: usize,
    open: Mutex<HashMap<IpAddr, usize>>,
}

/// One open connection or socket of an address's, counted while it lives.
#[derive(Debug)]
pub struct AddressSlot {
    table: Arc<PerAddress>,
    address: IpAddr,
}

impl PerAddress {
    /// A table allowing `most` slots to each address (0: any number).
    pub fn new(most: usize) -> Arc<PerAddress> {
        Arc::new(PerAddress {
            most,
            open: Mutex::default(),
        })
    }

    /// A slot for `address` (an IPv6 address counts by its /64), or `None` when it holds as
    /// many as it may.
    pub fn take(self: &Arc<PerAddress>, address: IpAddr) -> Option<AddressSlot> {
        let address = network(address);
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(address).or_default();
        if self.most > 0 && *n >= self.most {
            return None;
        }
        *n += 1;
        Some(AddressSlot {
            table: Arc::clone(self),
            address,
        })
    }

    /// How many slots `address` holds.
    pub fn open(&self, address: IpAddr) -> usize {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.get(&network(address)).copied().unwrap_or(0)
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut open = self.table.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.address) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.address);
            }
        }
    }
}

/// An IPv4 address as it is; an IPv6 address as its /64 network (IPv4-mapped ones as IPv4),
/// since one machine is commonly given a whole /64.
pub fn network(ip: IpAddr) -> IpAddr {
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

    #[test]
    fn an_address_holds_at_most_its_share_and_gets_it_back() {
        let table = PerAddress::new(2);
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        let first = table.take(a).unwrap();
        let _second = table.take(a).unwrap();
        assert!(table.take(a).is_none());
        assert!(table.take(b).is_some());
        drop(first);
        assert_eq!(table.open(a), 1);
        assert!(table.take(a).is_some());
        // A /64 is one address.
        let v6 = PerAddress::new(1);
        let _held = v6.take("2001:db8::1".parse().unwrap()).unwrap();
        assert!(v6.take("2001:db8::2".parse().unwrap()).is_none());
        assert!(v6.take("2001:db8:0:1::2".parse().unwrap()).is_some());
    }
}
