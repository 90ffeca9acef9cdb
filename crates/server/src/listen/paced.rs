//! A request body that must keep pace: all of it within a deadline, and after a short grace
//! at least a minimum rate on average, so that a client trickling a byte now and then cannot
//! hold a connection for long.

use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Bytes;
use http_body::{Body, Frame, SizeHint};
use tokio::time::{Instant, Sleep};

pub use crate::limits::Pace;

/// Why a body was cut off.
#[derive(Debug)]
pub struct TooSlow;

impl std::fmt::Display for TooSlow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the request body came too slowly")
    }
}

impl std::error::Error for TooSlow {}

/// `B`, cut off with [`TooSlow`] once it falls behind its [`Pace`].
pub struct Paced<B> {
    inner: B,
    pace: Pace,
    start: Instant,
    received: u64,
    timer: Pin<Box<Sleep>>,
}

impl<B> Paced<B> {
    pub fn new(inner: B, pace: Pace) -> Paced<B> {
        let start = Instant::now();
        let mut paced = Paced {
            inner,
            pace,
            start,
            received: 0,
            timer: Box::pin(tokio::time::sleep_until(start)),
        };
        let due = paced.due();
        paced.timer.as_mut().reset(due);
        paced
    }

    /// When the next byte must have come by.
    fn due(&self) -> Instant {
        let rate = self.pace.min_rate.max(1);
        let earned = Duration::from_millis(self.received.saturating_mul(1_000) / rate);
        let by_rate = self.start + self.pace.grace + earned;
        by_rate.min(self.start + self.pace.deadline)
    }
}

impl<B> Body for Paced<B>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: Into<axum::BoxError>,
{
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::BoxError>>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    this.received += data.len() as u64;
                }
                let due = this.due();
                if Instant::now() > due && !this.inner.is_end_stream() {
                    return Poll::Ready(Some(Err(TooSlow.into())));
                }
                this.timer.as_mut().reset(due);
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(other) => Poll::Ready(other.map(|r| r.map_err(Into::into))),
            Poll::Pending => match this.timer.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(Some(Err(TooSlow.into()))),
                Poll::Pending => Poll::Pending,
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::StreamExt;
    use http_body_util::{BodyExt, StreamBody};

    const PACE: Pace = Pace {
        deadline: Duration::from_secs(10),
        grace: Duration::from_secs(2),
        min_rate: 100,
    };

    /// A body of `chunks` bytes each, one every `every`.
    fn trickle(
        chunks: usize,
        size: usize,
        every: Duration,
    ) -> impl Body<Data = Bytes, Error = std::convert::Infallible> + Unpin {
        let stream = futures_util::stream::unfold(0, move |i| async move {
            if i == chunks {
                return None;
            }
            tokio::time::sleep(every).await;
            Some((Ok(Frame::data(Bytes::from(vec![b'x'; size]))), i + 1))
        });
        StreamBody::new(Box::pin(stream))
    }

    #[tokio::test(start_paused = true)]
    async fn a_body_at_pace_reads_whole() {
        let body = Paced::new(trickle(20, 100, Duration::from_millis(500)), PACE);
        let bytes = body.collect().await.unwrap().to_bytes();
        assert_eq!(bytes.len(), 2_000);
    }

    #[tokio::test(start_paused = true)]
    async fn a_trickle_is_cut_off_after_the_grace() {
        let started = Instant::now();
        let body = Paced::new(trickle(100_000, 1, Duration::from_secs(3)), PACE);
        let err = body.collect().await.unwrap_err();
        assert!(err.is::<TooSlow>(), "{err}");
        assert!(
            started.elapsed() <= Duration::from_secs(3),
            "{:?}",
            started.elapsed()
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_fast_start_then_a_stall_meets_the_deadline() {
        // 2,000 bytes at once earn 20 s at the rate, but the deadline is 10 s.
        let stalled = futures_util::stream::iter([Ok::<_, std::convert::Infallible>(Frame::data(
            Bytes::from(vec![b'x'; 2_000]),
        ))])
        .chain(futures_util::stream::pending());
        let started = Instant::now();
        let body = Paced::new(StreamBody::new(Box::pin(stalled)), PACE);
        assert!(body.collect().await.unwrap_err().is::<TooSlow>());
        assert_eq!(started.elapsed(), Duration::from_secs(10));
    }
}
