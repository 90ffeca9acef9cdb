//! An operation on state that nodes may share: across a bus it is I/O, so every one is a
//! future.

use std::future::Future;
use std::pin::Pin;

/// An operation's answer, to come.
pub type Pending<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// An answer known at once.
pub fn ready<'a, T: Send + 'a>(value: T) -> Pending<'a, T> {
    Box::pin(std::future::ready(value))
}
